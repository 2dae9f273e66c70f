/* The engine's free-running counters: their read path (one seam call for
 * the 32-bit MMIO ones), their deltas, and a run of them alone; and the
 * read of a counter wider than 32 bits in a 32-bit space (two dwords). */
#include "stat_int.h"

/* A free-running counter: one read (32-bit MMIO or PCI, or an MSR) of the
 * register start_free found. */
UNC_COLD static __attribute__((noinline)) enum unc_status free_failed(struct stat_run *r, unsigned i, enum unc_status st)
{
	char addr[32];

	return fail(r, st, "%s of %s at %s: %s", op_name(r->free_reg[i], false), r->c.ev[i].name,
		    pmu_reg_addr(r->free_reg[i], addr, sizeof(addr)), unc_strerror(st));
}

/* A counter wider than 32 bits in a 32-bit space (MMIO, PCI) is two
 * halves, the high one at the next dword: high, low, high again, and the
 * low read once more if a carry came between. */
static enum unc_status read_halves(const struct hw *hw, struct pmu_reg reg, uint64_t *v)
{
	struct pmu_reg hi = reg;
	uint64_t h0, h1, lo;
	enum unc_status st;

	hi.addr += 4;
	if ((st = raw_read(hw, hi, &h0)) || (st = raw_read(hw, reg, &lo)) || (st = raw_read(hw, hi, &h1)))
		return st;
	if (h1 != h0 && (st = raw_read(hw, reg, &lo)))
		return st;
	*v = h1 << 32 | (lo & 0xFFFFFFFFull);
	return UNC_OK;
}

enum unc_status stat_read_reg(const struct hw *hw, struct pmu_reg reg, unsigned width, uint64_t *v)
{
	return width > 32 && reg.space != PMU_MSR ? read_halves(hw, reg, v) : raw_read(hw, reg, v);
}

static enum unc_status read_free(struct stat_run *r, unsigned i, uint64_t *v)
{
	enum unc_status st = stat_read_reg(r->hw, r->free_reg[i], r->c.ev[i].v.width, v);

	return st ? free_failed(r, i, st) : UNC_OK;
}

/* The batch failed: each of its counters alone, to name the one that fails. */
UNC_COLD static __attribute__((noinline)) enum unc_status free_batch_failed(struct stat_run *r, enum unc_status st)
{
	uint64_t v;

	for (unsigned j = 0; j < r->nfree_mmio; j++)
		if ((st = read_free(r, r->free_ev[j], &v)))
			return st;
	return free_failed(r, r->free_ev[0], st);
}

/* The free-running counters the batch does not read, one register each. */
static __attribute__((noinline)) enum unc_status read_free_rest(struct stat_run *r)
{
	enum unc_status st;

	for (unsigned j = r->nfree_mmio; j < r->nfree; j++)
		if ((st = read_free(r, r->free_ev[j], &r->free_val[j])))
			return st;
	return UNC_OK;
}

/* Every free-running counter into free_val: the 32-bit MMIO ones by one
 * seam call (ticks[0] and [1]: the clock just before and after them; left
 * alone when there are none), then the others one register each. */
enum unc_status read_free_all(struct stat_run *r, uint64_t *ticks)
{
	enum unc_status st;

	if (r->nfree_mmio && (st = hw_mmio_read32_n(r->hw, r->free_phys, r->nfree_mmio, r->free_val, ticks)))
		return free_batch_failed(r, st);
	return r->nfree > r->nfree_mmio ? read_free_rest(r) : UNC_OK;
}

/* Every free-running counter into free_val between two clock reads: t[0]
 * before, t[1] after. */
static __attribute__((noinline)) enum unc_status read_free_timed(struct stat_run *r, uint64_t *t)
{
	uint64_t batch[2];
	enum unc_status st;

	t[0] = hw_ticks(r->hw);
	if ((st = read_free_all(r, batch)))
		return st;
	t[1] = hw_ticks(r->hw);
	return UNC_OK;
}

/* The same, by the batch's own clock reads where it is all there is. */
static inline __attribute__((always_inline)) enum unc_status read_free_bracketed(struct stat_run *r, uint64_t *t)
{
	enum unc_status st;

	if (__builtin_expect(r->nfree != r->nfree_mmio, 0))
		return read_free_timed(r, t);
	if ((st = hw_mmio_read32_n(r->hw, r->free_phys, r->nfree_mmio, r->free_val, t)))
		return free_batch_failed(r, st);
	return UNC_OK;
}

UNC_COLD static __attribute__((noinline)) enum unc_status free_backwards(struct stat_run *r, unsigned j)
{
	const struct count_event *e = &r->c.ev[r->free_ev[j]];

	return fail(r, UNC_E_DEVICE,
		    "%s went from 0x%08lx to 0x%08lx: it ran backwards (or moved 2^%u %s or more between two samples)",
		    e->name, (unsigned long)r->free_last[j], (unsigned long)r->free_val[j], e->v.width - 1u,
		    e->v.count_word);
}

/* The free-running counters' deltas, modulo each one's width, from what
 * read_free_all gave (now: the clock before it). Sampled at least every few
 * hundred milliseconds: a step of half a counter's range or more (for a
 * 32-bit counter of 64-byte lines, 1.37 TB/s over 100 ms) cannot happen,
 * so it means the counter went back. This loop serves every run; the one
 * below, the common case: every counter in the batch and every one moved
 * already (the run counts those that have not), so `moved` is
 * left alone (free_slow: how many of them have not moved yet, plus how many
 * are outside the batch). */
UNC_COLD static __attribute__((noinline)) enum unc_status free_deltas_still(struct stat_run *r, uint64_t gap)
{
	for (unsigned j = 0; j < r->nfree; j++) {
		struct count_event *e = r->free_e[j];
		uint64_t v = r->free_val[j], d = (v - r->free_last[j]) & r->free_mask[j];
		if (d > r->free_half[j])
			return free_backwards(r, j);
		e->total.box[0] += d;
		e->total.running += gap;
		if (d && !e->moved[0]) {
			e->moved[0] = 1;
			r->free_slow--;
		}
		r->free_last[j] = v;
	}
	return UNC_OK;
}

static inline __attribute__((always_inline)) enum unc_status deltas(struct stat_run *r, uint64_t now)
{
	uint64_t gap = now - r->t_sample;
	const uint64_t *val = r->free_val;
	unsigned n = r->nfree_mmio;

	if (__builtin_expect(r->free_slow != 0, 0))
		return free_deltas_still(r, gap);
	/* The batch's: 32 bits wide, so 32-bit arithmetic is modulo their
	 * width, and a step of half their range or more has bit 31 set. */
	for (size_t j = 0; j < n; j++) {
		uint64_t v = val[j];
		uint32_t d = (uint32_t)v - (uint32_t)r->free_last[j];
		if ((int32_t)d < 0)
			return free_backwards(r, (unsigned)j);
		struct count_event *e = r->free_e[j];
		e->total.box[0] += d;
		e->total.running += gap;
		r->free_last[j] = v;
	}
	return UNC_OK;
}

/* The same for the other rooms (a sample with programmed counters, a
 * slice's start). */
enum unc_status free_deltas(struct stat_run *r, uint64_t now)
{
	return deltas(r, now);
}

/* The read again, as read_settled asks (attempts 1 and 2). */
UNC_COLD static __attribute__((noinline)) enum unc_status read_free_again(struct stat_run *r, uint64_t *t)
{
	enum unc_status st;

	for (unsigned attempt = 1;; attempt++) {
		if ((st = read_free_bracketed(r, t)))
			return st;
		if (read_settled(r, t[1] - t[0]) || attempt == 2)
			return UNC_OK;
	}
}

/* A run of free-running counters alone: nothing to check before the read
 * (they have no select, and no status the run could clear), nothing to
 * freeze. */
enum unc_status sample_free_only(struct stat_run *r)
{
	uint64_t t[2];
	enum unc_status st;

	/* read_group's bracket, for these alone */
	if ((st = read_free_bracketed(r, t)) || (!read_settled(r, t[1] - t[0]) && (st = read_free_again(r, t))))
		return st;
	uint64_t now = t[0];
	if ((st = deltas(r, now)))
		return st;
	r->t_sample = r->c.t_end = now;
	return UNC_OK;
}
