/* The engine's sample: the active group's counters read between two clock
 * reads (again when a delay stretched the read), the watch of other
 * writers (each select and the drivers' checks), the deltas modulo each
 * counter's width judged against the time, and the overflow status
 * explained; the per-package reads gathered into one trip each. */
#include "stat_int.h"

#include <string.h>

#include "../base/arith.h"
#include "../base/fmt.h"

/* How many times, at most, a read at the run's start or end is taken
 * (read_group): under a host that preempts the vCPU often, a few more
 * reads find one a delay did not hit. */
#define STAT_EDGE_READS 16

/* ---- MSRs of other packages (pmu_reg_pkg) ---- */

/* A sample's per-package MSR reads, gathered, then made in one trip to
 * each package (hw_msr_read_n_pkg): the running processor's package read
 * here. More than STAT_PKG_BATCH of them take more trips. */
#define STAT_PKG_BATCH 1024
static struct {
	unsigned n;
	struct pmu_reg reg[STAT_PKG_BATCH];
	uint8_t pmu[STAT_PKG_BATCH];
	uint64_t *dst[STAT_PKG_BATCH];
	uint32_t msr[STAT_PKG_BATCH];
	uint64_t val[STAT_PKG_BATCH];
} pkgb;

/* One package's share of the batch in one call; on failure each alone,
 * to name the register. */
static enum unc_status batch_pkg(struct stat_run *r, uint8_t pkg)
{
	static unsigned idx[STAT_PKG_BATCH];
	unsigned n = 0;
	enum unc_status st, trip;

	for (unsigned j = 0; j < pkgb.n; j++)
		if (pmu_reg_pkg(pkgb.reg[j]) == pkg)
			pkgb.msr[n] = (uint32_t)pkgb.reg[j].addr, idx[n++] = j;
	if (!n)
		return UNC_OK;
	if ((trip = hw_msr_read_n_pkg(r->hw, pkg - 1u, pkgb.msr, n, pkgb.val))) {
		for (unsigned j = 0; j < n; j++)
			if ((st = rd(r, pkgb.pmu[idx[j]], pkgb.reg[idx[j]], pkgb.val)))
				return st;
		return rd_failed(r, pkgb.pmu[idx[0]], pkgb.reg[idx[0]], trip); /* the trip failed, each read alone did not */
	}
	for (unsigned j = 0; j < n; j++)
		*pkgb.dst[idx[j]] = pkgb.val[j];
	return UNC_OK;
}

static enum unc_status batch_run(struct stat_run *r)
{
	uint8_t here = (uint8_t)(hw_pkg_here(r->hw) + 1);
	enum unc_status st;

	if ((st = batch_pkg(r, here)))
		return st;
	for (unsigned i = 1; r->hw->pkgs && i < r->hw->pkgs->n; i++)
		if ((st = batch_pkg(r, (uint8_t)(r->hw->pkgs->id[i] + 1))))
			return st;
	pkgb.n = 0;
	return UNC_OK;
}

/* The batch empty (a run's start). */
void batch_clear(void)
{
	pkgb.n = 0;
}

/* reg (pkg set) into *dst at the next batch_run. */
static enum unc_status batch_add(struct stat_run *r, unsigned k, struct pmu_reg reg, uint64_t *dst)
{
	enum unc_status st;

	if (pkgb.n == STAT_PKG_BATCH && (st = batch_run(r)))
		return st;
	pkgb.reg[pkgb.n] = reg, pkgb.pmu[pkgb.n] = (uint8_t)k, pkgb.dst[pkgb.n++] = dst;
	return UNC_OK;
}

/* Whether driver k has programmed counters in the active group. */
static bool programs_in_group(const struct stat_run *r, unsigned k)
{
	for (unsigned i = 0; i < r->c.nev; i++)
		if (r->pmu_of[i] == k && !is_free(r, i) && in_group(r, i, r->group))
			return true;
	return false;
}

enum unc_status read_counter(struct stat_run *r, unsigned k, unsigned unit, unsigned box, unsigned idx,
				    uint64_t *v)
{
	struct stat_pmu *sp = &r->pmu[k];
	const struct pmu_unit *pu = &sp->p.drv->units[unit];

	if (pu->per_pkg && pu->space == PMU_MSR) { /* one MSR on its package */
		enum unc_status st = rd(r, k, pmu_unit_ctr(pu, &sp->p, unit, box, idx), v);
		if (st == UNC_OK)
			*v &= pmu_width_mask(pmu_width_of(pu, &sp->p, unit));
		return st;
	}
	if (sp->p.drv->ops->read_counter) {
		struct pmu_io io = io_of(r, k);
		return sp->p.drv->ops->read_counter(&io, &sp->p, unit, box, idx, v);
	}
	struct pmu_reg reg = pmu_unit_ctr(pu, &sp->p, unit, box, idx);
	unsigned width = pmu_width_of(pu, &sp->p, unit);
	if (width > 32 && reg.space != PMU_MSR) { /* two dwords, as a free-running counter */
		enum unc_status st = stat_read_reg(r->hw, reg, width, v);
		return st ? rd_failed(r, k, reg, st) : UNC_OK;
	}
	return rd(r, k, reg, v);
}

/* At each sample, before the counters: a select or control that reads
 * otherwise than the run wrote it was cleared or reprogrammed by someone
 * else, and its counter counts something else, or nothing. */
static enum unc_status check_watched(struct stat_run *r, bool pkg_checked)
{
	char what[96];
	uint64_t v;
	enum unc_status st;

	for (unsigned w = 0; w < r->nwatch; w++) {
		const struct stat_saved *s = &r->saved[r->watch[w]];
		if ((pmu_reg_pkg(s->reg) != 0) != pkg_checked)
			continue; /* another package's: read in the sample's trip there (read_group), then checked */
		if (pkg_checked)
			v = r->watch_val[w];
		else if ((st = rd(r, s->pmu, s->reg, &v)))
			return st;
		if (v != s->now)
			return fail(r, UNC_E_CLOBBERED, "%s reads 0x%lx, not the 0x%lx this run wrote: written by someone "
							 "else during the run",
				    reg_text(r, s->pmu, s->reg, what, sizeof(what)), (unsigned long)v, (unsigned long)s->now);
	}
	return UNC_OK;
}

/* The largest step the counters of event i can make from the last sample
 * (t_sample, taken before that sample's reads) to now (taken after this
 * sample's reads), at the event's fastest rate (event_max_rate). The 10 ms
 * of slack covers the moments between enabling a group and its first
 * t_sample. When that reaches the counter's whole range, no step can be
 * told from a wrap or a write: the samples came too far apart (a starved
 * timer), and that is an error of its own. */
static enum unc_status step_limit(struct stat_run *r, unsigned i, unsigned width, uint64_t now, uint64_t *ret)
{
	uint64_t hz = r->hw->tick_hz, gap = now - r->t_sample, rate = r->max_rate[i];
	char ms[24];

	/* no bound (0): no step is taken for a write */
	*ret = hz && rate ? u64_muldiv(rate, gap + hz / 100, hz) : UINT64_MAX;
	if (!rate)
		return UNC_OK;
	if (*ret < pmu_width_mask(width))
		return UNC_OK;
	fmt_fixed(ms, sizeof(ms), gap, hz / 1000, 1);
	return fail(r, UNC_E_OVERFLOW,
		    "the %s counters were not sampled for %s ms: at up to %lu per second a %u-bit counter can wrap "
		    "unseen in that time, so no count can be vouched for",
		    unit_of(r, i)->name, ms, (unsigned long)rate, width);
}

/* Reads the counters of the active group into val, the free-running ones
 * too when free, between two clock reads (*ret_now before, *ret_after
 * after). A read that took far longer than the quickest of the run (a
 * delay hit it: a preempted vCPU, an SMI) is taken again, so that the
 * counts and the clock describe one moment: up to twice at a sample, and
 * up to STAT_EDGE_READS times in all at the run's two edges (start_edge,
 * the last sample), whose reads alone decide the run's totals and its
 * time (each sample between ends one delta and starts the next). The
 * first edge reads three times at least: the run's quickest read is not
 * known before. A read is taken when it settles and none of the same
 * sample was quicker; when none settles, the quickest one is kept, its
 * values with its own clock reads. */
__attribute__((noinline)) bool read_settled_slow(struct stat_run *r, uint64_t took)
{
	bool known = r->read_best_known;

	if (!known || took < r->read_best)
		r->read_best = took;
	r->read_best_known = true;
	/* took - read_best below read_span: took within [read_best, 4 * read_best + read_slack] */
	r->read_span = 3 * r->read_best + r->read_slack + 1;
	return known && took <= 4 * r->read_best + r->read_slack;
}

/* The quickest read so far of a sample (read_group), kept while it reads again. */
static struct {
	uint64_t free_val[STAT_MAX_EVENTS];
	uint64_t now, after;
	bool programmed;
} kept;

/* The boxes' values are r->val's slots, kept in r->kept's (one block each,
 * stat_start). */
static __attribute__((noinline)) void read_keep(struct stat_run *r, bool to_kept)
{
	size_t n = r->box_slots * sizeof(uint64_t);

	if (to_kept) {
		memcpy(r->kept[0], r->val[0], n);
		memcpy(kept.free_val, r->free_val, sizeof(kept.free_val));
	} else {
		memcpy(r->val[0], r->kept[0], n);
		memcpy(r->free_val, kept.free_val, sizeof(kept.free_val));
	}
}

/* The per-package counters read_group gathered: one trip to each package,
 * each value masked to its counter's width. */
static __attribute__((noinline)) enum unc_status read_pkgs(struct stat_run *r, uint64_t *const *val)
{
	enum unc_status st = batch_run(r);

	for (unsigned i = 0; st == UNC_OK && i < r->c.nev; i++) {
		const struct pmu_unit *pu = unit_of(r, i);
		if (!pu->per_pkg || pu->space != PMU_MSR || !in_group(r, i, r->group) || is_free(r, i))
			continue;
		for (unsigned b = 0; b < r->pmu[r->pmu_of[i]].p.boxes[r->spec[i].unit]; b++)
			val[i][b] &= pmu_width_mask(r->c.ev[i].v.width);
	}
	return st;
}

enum unc_status read_group(struct stat_run *r, bool free, uint64_t *const *val, uint64_t *ret_now,
				  uint64_t *ret_after, bool *ret_programmed)
{
	unsigned last = r->edge ? STAT_EDGE_READS - 1 : 2, least = r->edge && !r->read_best_known ? 2 : 0;
	uint64_t quickest = UINT64_MAX;
	enum unc_status st;

	for (unsigned attempt = 0;; attempt++) {
		bool programmed = false;
		pkgb.n = 0;
		uint64_t now = hw_ticks(r->hw);
		uint64_t batch[2];
		if (free && (st = read_free_all(r, batch)))
			return st;
		for (unsigned i = 0; !r->free_only && i < r->c.nev; i++) {
			if (!in_group(r, i, r->group) || is_free(r, i))
				continue;
			unsigned k = r->pmu_of[i], u = r->spec[i].unit;
			const struct pmu_unit *pu = unit_of(r, i);
			for (unsigned b = 0; b < r->pmu[k].p.boxes[u]; b++)
				if ((st = pu->per_pkg && pu->space == PMU_MSR
						  ? batch_add(r, k, pmu_unit_ctr(pu, &r->pmu[k].p, u, b, r->counter[i]), &val[i][b])
						  : read_counter(r, k, u, b, r->counter[i], &val[i][b])))
					return st;
			programmed = true;
		}
		for (unsigned w = 0; watch_any_pkg && w < r->nwatch; w++) { /* the selects, in the same trip */
			const struct stat_saved *s = &r->saved[r->watch[w]];
			if (pmu_reg_pkg(s->reg) && (st = batch_add(r, s->pmu, s->reg, &r->watch_val[w])))
				return st;
		}
		if (pkgb.n && (st = read_pkgs(r, val)))
			return st;
		uint64_t after = hw_ticks(r->hw);
		*ret_now = now, *ret_after = after, *ret_programmed = programmed;
		if (read_settled(r, after - now) && attempt >= least && after - now <= quickest)
			return UNC_OK;
		if (after - now < quickest) {
			quickest = after - now;
			if (attempt < last) {
				read_keep(r, true);
				kept.now = now, kept.after = after, kept.programmed = programmed;
			}
		} else if (attempt == last) {
			read_keep(r, false);
			*ret_now = kept.now, *ret_after = kept.after, *ret_programmed = kept.programmed;
		}
		if (attempt == last)
			return UNC_OK;
	}
}

/* A run with programmed counters. */
static enum unc_status sample_all(struct stat_run *r)
{
	uint64_t status[STAT_MAX_PMUS] = { 0 }, wrapped[STAT_MAX_PMUS] = { 0 };
	uint64_t *const *val = r->val;
	bool programmed = false;
	enum unc_status st;

	/* Each PMU's state and overflow status first, then the counters: a
	 * wrap the status shows has happened by the time they are read. */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if (sp->programs && sp->p.drv->ops->check && (st = sp->p.drv->ops->check(&io, &sp->p, &sp->s, &status[k])))
			return st;
	}
	if ((st = check_watched(r, false)))
		return st;
	/* A driver that asks for it is frozen while its counters are read
	 * (two-dword counters read consistently), and unfrozen after. */
	uint32_t frozen = 0;
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if (!sp->p.drv->sample_frozen || !programs_in_group(r, k))
			continue;
		sp->s.first = false;
		if ((st = sp->p.drv->ops->freeze(&io, &sp->p, &sp->s)))
			return st;
		frozen |= 1u << k;
	}
	uint64_t now, after;
	if ((st = read_group(r, true, val, &now, &after, &programmed)) || (watch_any_pkg && (st = check_watched(r, true))))
		return st;
	if ((st = free_deltas(r, now)))
		return st;
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if ((frozen >> k & 1) && (st = sp->p.drv->ops->unfreeze(&io, &sp->p, &sp->s, false)))
			return st;
	}
	/* Every programmed counter is judged before any of their totals moves
	 * (the free-running ones are already counted: a failed run reports
	 * nothing anyway). Deltas are modulo each counter's width: a value
	 * below the last is a wrap only if the step fits the time. */
	for (unsigned i = 0; programmed && i < r->c.nev; i++) {
		if (!in_group(r, i, r->group) || is_free(r, i))
			continue;
		unsigned k = r->pmu_of[i], u = r->spec[i].unit;
		const struct pmu_unit *pu = unit_of(r, i);
		uint64_t limit;
		unsigned width = r->c.ev[i].v.width;
		if ((st = step_limit(r, i, width, after, &limit)))
			return st;
		for (unsigned b = 0; b < r->pmu[k].p.boxes[u]; b++) {
			uint64_t last = r->last[i][b], v = val[i][b], d = (v - last) & pmu_width_mask(width);
			if (d > limit) {
				char what[96], ms[24];
				fmt_fixed(ms, sizeof(ms), after - r->t_sample, r->hw->tick_hz / 1000, 1);
				return fail(r, UNC_E_CLOBBERED,
					    "%s went from 0x%lx to 0x%lx within %s ms: written by someone else "
					    "during the run (no wrap moves it that far)",
					    reg_text(r, k, pmu_unit_ctr(pu, &r->pmu[k].p, u, b, r->counter[i]), what, sizeof(what)),
					    (unsigned long)last, (unsigned long)v, ms);
			}
		}
	}
	for (unsigned i = 0; programmed && i < r->c.nev; i++) {
		struct count_event *e = &r->c.ev[i];
		if (!in_group(r, i, r->group) || is_free(r, i))
			continue;
		unsigned k = r->pmu_of[i], u = r->spec[i].unit;
		const struct pmu_unit *pu = unit_of(r, i);
		for (unsigned b = 0; b < r->pmu[k].p.boxes[u]; b++) {
			uint64_t v = val[i][b], d = (v - r->last[i][b]) & pmu_width_mask(r->c.ev[i].v.width);
			if (v < r->last[i][b])
				wrapped[k] |= pu->status_bit;
			if (d)
				e->moved[b] = 1;
			e->total.box[b] += d;
			r->last[i][b] = v;
		}
		e->total.running += now - r->t_sample;
	}
	r->t_sample = r->c.t_end = now;
	/* A unit's status bit must be explained by a counter of that unit
	 * going backwards, in this sample or (if it wrapped between the two
	 * reads of the last sample) the previous one. Otherwise a counter
	 * advanced by its whole width or more between two samples, and no
	 * delta can say by how much. */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		uint64_t mine = status[k] & status_bits(sp->p.drv);
		uint64_t unexplained = mine & ~(wrapped[k] | r->wrapped_prev[k]);
		struct pmu_io io = io_of(r, k);
		r->wrapped_prev[k] = wrapped[k];
		if (unexplained)
			return fail(r, UNC_E_OVERFLOW,
				    "%s shows an overflow (0x%lx) that no counter value accounts for: a counter advanced "
				    "by its full width between two samples",
				    sp->p.drv->status_name, (unsigned long)unexplained);
		if (mine && sp->p.drv->ops->clear_status && (st = sp->p.drv->ops->clear_status(&io, &sp->p, &sp->s, mine)))
			return st;
	}
	return UNC_OK;
}

enum unc_status stat_sample(struct stat_run *r)
{
	if (!r->counting)
		return UNC_OK;
	return r->free_only ? sample_free_only(r) : sample_all(r);
}
