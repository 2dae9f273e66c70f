/* The engine's common sample (sample_fast): every check and counter of
 * the active group read between the two clock reads, one seam call per
 * kind, each delta taken straight from what the calls returned, from the
 * lists compile_fast (stat_compile.c) makes at each programming; and what
 * it hands to stat_sample.c's code when something is rare. */
#include "stat_int.h"

#include <string.h>

/* gs * rate / 2^32, all ones where that passes 64 bits. */
static inline uint64_t mulhi32(uint64_t gs, uint64_t rate)
{
	unsigned __int128 p = (unsigned __int128)gs * rate >> 32;

	return p >> 64 ? UINT64_MAX : (uint64_t)p;
}

/* A two-dword counter whose high dword moved between its two reads
 * (p: its high, low, high in pci_val): its low dword read again, after the
 * second, as read_list reads it; one that fails read by read_failed. p
 * then holds what was read. */
UNC_COLD static __attribute__((noinline)) enum unc_status pci_again(struct stat_run *r, uint32_t *p)
{
	const struct stat_reads *rs = r->reads;
	unsigned at = (unsigned)(p - rs->pci_val);
	const struct stat_rd *e = rs->rd_end[RD_RDPMC] + (at - rs->npci_pre) / 3;
	enum unc_status st;
	uint64_t v;

	p[0] = p[2];
	if (r->hw->ops->pci_read32(r->hw->ctx, e->reg.pci, (uint16_t)e->reg.addr, &p[1]) == UNC_OK)
		return UNC_OK;
	if ((st = read_failed(r, e, &v)))
		return st;
	p[0] = p[2] = (uint32_t)(v >> 32), p[1] = (uint32_t)v;
	return UNC_OK;
}

/* sample_fast's values into val as read_list stores them, a two-dword
 * counter whose high dword moved between its reads with its low dword read
 * again (its values in pci_val made what it reads then), for judge_exact
 * and read_again. */
UNC_COLD static __attribute__((noinline)) enum unc_status fast_store(struct stat_run *r)
{
	const struct stat_reads *rs = r->reads;
	uint64_t *val = r->val[0];
	enum unc_status st;

	for (const struct stat_fev *f = rs->fev, *end = f + rs->nfev; f < end; f++) {
		uint32_t *p = f->src;
		if (f->pci && p[0] != p[2] && (st = pci_again(r, p)))
			return st;
		val[f->last - r->last[0]] = (f->pci ? (uint64_t)p[2] << 32 | p[1] : *(uint64_t *)f->src) & f->keep;
	}
	return UNC_OK;
}

/* Every check of the sample made as sample_all makes it (check_vals and
 * check_watched, from what the list calls read): what is wrong is said
 * first, as sample_all, which checks before it counts, would. */
UNC_COLD static __attribute__((noinline)) enum unc_status fast_checks(struct stat_run *r)
{
	struct stat_reads *rs = r->reads;
	uint64_t any = 0;
	enum unc_status st = check_vals(r, rs->st_v, &any, true);

	rs->any_v |= any;
	if (st || !watch_any_pkg)
		return st;
	pkg_scatter(r);
	return check_watched(r);
}

/* A step beyond its bound (or a gap that may bring one to the counter's
 * width): the checks first, then every counter judged exactly, those
 * counted already as 0. */
UNC_COLD static __attribute__((noinline)) enum unc_status fast_judge(struct stat_run *r, uint64_t after)
{
	enum unc_status st;

	if ((st = fast_checks(r)) || (st = fast_store(r)))
		return st;
	return judge_exact(r, after);
}

/* f's bound for the gaps of the window (gap_lo, with slack): none above
 * its width, so that a step within it is v - last, v not below last; 0
 * while its counter has not moved (fast_odd marks it). */
static void fast_bound(const struct stat_reads *rs, struct stat_fev *f)
{
	uint64_t b = mulhi32(rs->gap_lo + rs->slack, f->rate);

	f->bound = !*f->moved ? 0 : b < f->mask ? b : f->mask;
}

/* The sample's gap gs (ticks, with slack; gap without) is outside the
 * window the bounds are for: a gap that may bring a bound to a counter's
 * width judged (judge_exact), then the bounds made for three quarters of
 * gs, for gaps up to twice that and below rs->gap_fast (each bound never
 * above the sample's own, nor a gap in the window one to judge). */
UNC_COLD static __attribute__((noinline)) enum unc_status fast_window(struct stat_run *r, uint64_t gap, uint64_t after)
{
	struct stat_reads *rs = r->reads;
	uint64_t gs = gap + rs->slack, lim = rs->gap_fast + rs->slack, lo = gs - gs / 4, hi;
	enum unc_status st;

	if (gap >= rs->gap_fast && (st = fast_judge(r, after)))
		return st;
	hi = lim < rs->gap_fast ? UINT64_MAX : lim - 1; /* gap_fast is not 0 (compile_fast) */
	lo = lo < hi ? lo : hi;
	rs->gap_lo = lo - rs->slack;
	rs->gs_span = hi - lo < lo ? hi - lo : lo;
	for (struct stat_fev *f = rs->fev, *end = f + rs->nfev; f < end; f++)
		fast_bound(rs, f);
	return UNC_OK;
}

/* A counter whose value v is below its last (l) or beyond its bound from
 * it (or moved for the first time): its step taken modulo its width (a
 * wrap marks its unit's status bit in wr_v and any_v), held to the
 * sample's own bound (count_deltas'), and beyond that every counter judged
 * exactly; then counted. */
UNC_COLD static __attribute__((noinline)) enum unc_status fast_odd(struct stat_run *r, struct stat_fev *f, uint64_t v,
								 uint64_t l, uint64_t gap, uint64_t after)
{
	struct stat_reads *rs = r->reads;
	uint64_t gs = gap + rs->slack;
	uint64_t d = (v - l) & f->mask;
	enum unc_status st;

	if (v < l)
		rs->wr_v[f->pmu] |= f->wbit, rs->any_v |= f->wbit;
	if (d > mulhi32(gs, f->rate) && (st = fast_judge(r, after)))
		return st;
	*f->total += d;
	*f->last = v;
	if (d && !*f->moved) { /* its first move: counted, and its bound made */
		*f->moved = 1, rs->still--;
		fast_bound(rs, f);
	}
	return UNC_OK;
}

/* The sample's read was stretched by a delay: read again as sample_all
 * reads (read_again), the checks from this first read, the rest as
 * sample_all. */
UNC_COLD static __attribute__((noinline)) enum unc_status fast_again(struct stat_run *r, uint64_t now, uint64_t after)
{
	struct stat_reads *rs = r->reads;
	uint64_t any = 0;
	bool programmed;
	enum unc_status st;

	if (rs->remote)
		pkg_scatter(r);
	if ((st = fast_store(r)) || (st = check_vals(r, rs->st_v, &any, true)) ||
	    (watch_any_pkg && (st = check_watched(r))) ||
	    (st = read_again(r, true, now, after, true, 0, &now, &after, &programmed)) ||
	    (st = sample_rest(r, now, after, programmed, 0, rs->st_v, rs->wr_v, any)))
		return st;
	memset(rs->wr_v, 0, sizeof(rs->wr_v));
	return UNC_OK;
}

/* A wrap, a status bit, or a wrap at the last sample: explained. */
UNC_COLD static __attribute__((noinline)) enum unc_status fast_explain(struct stat_run *r)
{
	struct stat_reads *rs = r->reads;
	enum unc_status st;

	for (unsigned c = 0; c < rs->pre_chk / 2; c++) /* each status as the sample read it */
		rs->st_v[rs->chk[c].pmu] = rs->msr_val[rs->ncmp + c];
	rs->any_v = 0; /* explain_status sets it again after a wrap */
	st = rs->status ? explain_status(r, rs->st_v, rs->wr_v) : UNC_OK;
	memset(rs->wr_v, 0, sizeof(rs->wr_v));
	return st;
}

/* A sample of the common run (stat_reads.sample): every check and
 * counter of this package read between the two clock reads, one seam call
 * per kind (the checks' and selects' MSRs first in the MSRs' call, so a
 * wrap the status shows has happened by the time the counters are read),
 * the other packages' in their trips; the checks compared, then each
 * delta taken straight from what the calls returned, judged against its
 * bound and counted. What is rare (a call that fails, a stretched read, a
 * step beyond its bound, a wrap) goes to the functions above, which do as
 * sample_all does. */
static inline __attribute__((always_inline)) enum unc_status sample_fast(struct stat_run *r, const unsigned on,
								      const unsigned maybe)
{
	struct stat_reads *rs = r->reads;
	const unsigned fk = maybe ? rs->fk : 0;
#define HAS(x) ((on & (x)) || ((maybe & (x)) && (fk & (x))))
	uint64_t now, after, diff = 0;
	enum unc_status st;
	unsigned done;

	if (!((on | maybe) & (FK_PCI | FK_REMOTE))) { /* MSRs and RDPMC alone: the clock reads in the same call */
		uint64_t t[2];
		if (__builtin_expect(rs->timed_n(rs->timed_ctx, rs->msr, rs->nmsr_all, rs->npmc, rs->msr_val, t) != UNC_OK, 0))
			return sample_all(r); /* made again the way that names what failed */
		now = t[0], after = t[1];
	} else {
		now = rs->ticks(rs->tctx);
		if (__builtin_expect((HAS(FK_MSR) && rs->msr_n(rs->msr_ctx, rs->msr, rs->nmsr_all, rs->msr_val, &done)) ||
					     (HAS(FK_PMC) &&
					      rs->pmc_n(rs->pmc_ctx, rs->pmc_idx, rs->npmc, rs->pmc_val, &done)) ||
					     (HAS(FK_PCI) && rs->pci_n(rs->pci_ctx, rs->pci, rs->npci_all, rs->pci_val, &done)),
				     0))
			return sample_all(r); /* made again the way that names what failed */
		if (HAS(FK_REMOTE) &&
		    __builtin_expect((rs->pkg_nmsr ? rs->pkg_n(rs->pkg_ctx, rs->pkg_id, rs->pkg_msr, rs->pkg_nmsr, rs->pkg_val)
						   : pkg_trips(r)) != UNC_OK,
				     0))
			return sample_all(r); /* read_remote names what failed */
		after = rs->ticks(rs->tctx);
	}
	if (__builtin_expect(after - now - r->read_best >= r->read_span, 0) && !read_settled_slow(r, after - now))
		return fast_again(r, now, after); /* read_settled's test */
	if (HAS(FK_CHECK)) { /* the controls and selects no fev compares, the drivers' status */
		if (HAS(FK_MSR))
			for (const struct stat_cmp *c = rs->cmp, *end = rs->cmp_end; c < end; c++)
				diff |= (rs->msr_val[c->at] & c->mask) ^ c->want;
		if (HAS(FK_PCI))
			for (unsigned i = 0, n = rs->npci_pre; i < n; i++)
				diff |= rs->pci_val[i] ^ rs->pwant[i];
	}
	if (HAS(FK_WATCH_PKG) && (pkg_scatter(r), st = check_watched(r)))
		return st;
	uint64_t gap = after - r->t_sample, dt = now - r->t_sample;
	if (__builtin_expect(gap - rs->gap_lo > rs->gs_span, 0) && (st = fast_window(r, gap, after)))
		return st;
	/* each step within its bound is v - last (fast_window), else fast_odd */
#define FAST_DELTAS(first, end, value, has_sel)                                                                        \
	for (struct stat_fev *f = first, *fend = end; f < fend; f++) {                                                \
		uint64_t v = (value)&f->keep, l = *f->last, d = v - l;                                              \
		if (has_sel)                                                                                        \
			diff |= *f->sel ^ f->want;                                                                  \
		if (__builtin_expect(d > f->bound, 0)) {                                                            \
			if ((st = fast_odd(r, f, v, l, gap, after)))                                                \
				return st;                                                                          \
		} else {                                                                                            \
			*f->total += d;                                                                             \
			*f->last = v;                                                                               \
		}                                                                                                   \
		*f->running += dt;                                                                                  \
	}
	if (HAS(FK_MSR) || HAS(FK_PMC) || HAS(FK_REMOTE))
		FAST_DELTAS(rs->fev, rs->fev_end64, *(const uint64_t *)f->src, true)
	if (HAS(FK_PCI2))
		FAST_DELTAS(rs->fev_end64, rs->fev_end, ({
				    uint32_t *p = f->src;
				    if (__builtin_expect(p[0] != p[2], 0) && (st = pci_again(r, p)))
					    return st;
				    (uint64_t)p[2] << 32 | p[1];
			    }),
			    false) /* a PCI counter's select is a PCI dword: compared above */
#undef FAST_DELTAS
#undef HAS
	/* a register that reads otherwise, or a status bit: as sample_all */
	if (__builtin_expect(diff != 0, 0) && (st = fast_checks(r)))
		return st;
	r->t_sample = r->c.t_end = now;
	if (__builtin_expect(rs->any_v != 0, 0))
		return fast_explain(r);
	return UNC_OK;
}

/* The shapes of run most runs have, each with its tests made at build
 * time (on: what it always does; maybe: what it tests for), and any
 * other. */
enum {
	FAST_MSR0 = FK_MSR,                    /* uncore MSR PMUs whose selects are all the checks */
	FAST_MSR = FK_MSR | FK_CHECK,          /* uncore MSR PMUs */
	FAST_PMC = FK_MSR | FK_PMC | FK_CHECK, /* the core PMU by RDPMC */
	FAST_PCI = FK_PCI | FK_CHECK | FK_PCI2, /* PCI PMUs */
	FAST_PKG = FK_REMOTE,                   /* MSR PMUs of other packages (and maybe of this one) */
	FAST_PKG_MAYBE = FK_MSR | FK_CHECK,
	FAST_ANY = FK_MSR | FK_PMC | FK_PCI | FK_REMOTE | FK_CHECK | FK_WATCH_PKG | FK_PCI2,
};

static __attribute__((noinline)) enum unc_status fast_msr0(struct stat_run *r)
{
	return sample_fast(r, FAST_MSR0, 0);
}

static __attribute__((noinline)) enum unc_status fast_msr(struct stat_run *r)
{
	return sample_fast(r, FAST_MSR, 0);
}

static __attribute__((noinline)) enum unc_status fast_pmc(struct stat_run *r)
{
	return sample_fast(r, FAST_PMC, 0);
}

static __attribute__((noinline)) enum unc_status fast_pci(struct stat_run *r)
{
	return sample_fast(r, FAST_PCI, 0);
}

static __attribute__((noinline)) enum unc_status fast_pkg(struct stat_run *r)
{
	return sample_fast(r, FAST_PKG, FAST_PKG_MAYBE);
}

/* Any other shape: each part tested at each sample. */
static __attribute__((noinline)) enum unc_status fast_any(struct stat_run *r)
{
	return sample_fast(r, 0, FAST_ANY);
}

/* The seam's list calls where it has none (hw_msr_read_n and the others
 * make single calls), ctx being the struct hw. */
UNC_COLD static enum unc_status msr_each(void *hw, const uint32_t *msr, unsigned n, uint64_t *v, unsigned *done)
{
	return hw_msr_read_n(hw, msr, n, v, done);
}

UNC_COLD static enum unc_status pmc_each(void *hw, const uint32_t *index, unsigned n, uint64_t *v, unsigned *done)
{
	return hw_rdpmc_n(hw, index, n, v, done);
}

UNC_COLD static enum unc_status timed_each(void *hw, const uint32_t *idx, unsigned nmsr, unsigned npmc, uint64_t *v,
					   uint64_t *t)
{
	return hw_read_timed_n(hw, idx, nmsr, npmc, v, t);
}

UNC_COLD static enum unc_status pci_each(void *hw, const struct pci_dword *d, unsigned n, uint32_t *v, unsigned *done)
{
	return hw_pci_read32_n(hw, d, n, v, done);
}

/* Whether a shape (on, maybe) serves lists of what fk says: the seam
 * calls it always makes are needed; a check it makes where there is none
 * is an empty loop. */
UNC_COLD static bool fits(unsigned fk, unsigned on, unsigned maybe)
{
	const unsigned calls = FK_MSR | FK_PMC | FK_PCI | FK_REMOTE;

	return !(fk & ~(on | maybe)) && !(on & calls & ~fk);
}

/* The sample function for the lists compiled (compile_fast: rs->fk), and
 * the seam's functions it calls, taken once. */
UNC_COLD void fast_choose(struct stat_run *r)
{
	struct stat_reads *rs = r->reads;
	const struct hw *hw = r->hw;
	void *hw_ctx = (void *)(uintptr_t)hw; /* what the fallbacks take */

	rs->gs_span = 0, rs->gap_lo = 0 - rs->slack; /* the first sample makes the bounds (fast_window) */
	rs->fast_fn = fits(rs->fk, FAST_MSR0, 0)	       ? fast_msr0
		      : fits(rs->fk, FAST_MSR, 0)	       ? fast_msr
		      : fits(rs->fk, FAST_PMC, 0)	       ? fast_pmc
		      : fits(rs->fk, FAST_PCI, 0)	       ? fast_pci
		      : fits(rs->fk, FAST_PKG, FAST_PKG_MAYBE) ? fast_pkg
							       : fast_any;
	rs->sample = rs->fast ? rs->fast_fn : sample_slow;
	rs->ticks = hw->ops->ticks, rs->tctx = hw->ctx;
	rs->msr_n = hw->ops->msr_read_n ? hw->ops->msr_read_n : msr_each;
	rs->msr_ctx = hw->ops->msr_read_n ? hw->ctx : hw_ctx;
	rs->pmc_n = hw->ops->rdpmc_n ? hw->ops->rdpmc_n : pmc_each;
	rs->pmc_ctx = hw->ops->rdpmc_n ? hw->ctx : hw_ctx;
	rs->pmc_idx = rs->msr + rs->nmsr_all, rs->pmc_val = rs->msr_val + rs->nmsr_all;
	rs->timed_n = hw->ops->read_timed_n ? hw->ops->read_timed_n : timed_each;
	rs->timed_ctx = hw->ops->read_timed_n ? hw->ctx : hw_ctx;
	rs->pci_n = hw->ops->pci_read32_n ? hw->ops->pci_read32_n : pci_each;
	rs->pci_ctx = hw->ops->pci_read32_n ? hw->ctx : hw_ctx;
}
