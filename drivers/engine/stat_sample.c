/* The engine's sample: the active group's counters read between two clock
 * reads (again when a delay stretched the read), with the watch of other
 * writers (stat_watch.c), the deltas modulo each counter's width judged
 * against the time, the overflow status explained, and each box's window
 * at the edges; from the lists stat_compile.c makes at each programming. */
#include "stat_int.h"

#include <string.h>

#include "../base/arith.h"
#include "../base/fmt.h"

/* How many times, at most, a read at the run's start or end is taken
 * (read_group): under a host that preempts the vCPU often, a few more
 * reads find one a delay did not hit. */
#define STAT_EDGE_READS 16

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
 * known before; the last one too, so that the two edges' reads are alike
 * (the quickest of three each: where a read is long, as under an emulator,
 * taking the first that settles, at up to 4 times the quickest, would let
 * a counter read late in it count milliseconds the clock did not). A read is taken when it settles and none of the same
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
		if (r->edge)
			memcpy(r->edge_tk, r->edge_t, n);
	} else {
		memcpy(r->val[0], r->kept[0], n);
		memcpy(r->free_val, kept.free_val, sizeof(kept.free_val));
		if (r->edge)
			memcpy(r->edge_t, r->edge_tk, n);
	}
}

/* A counter's fast read failed: made again as the run reads it otherwise
 * (read_counter: the driver's op where it has one, which may have a way
 * of its own, as the architectural PMU's rdmsr where RDPMC faults; its
 * line names what failed). */
UNC_COLD __attribute__((noinline)) enum unc_status read_failed(struct stat_run *r, const struct stat_rd *e,
								uint64_t *v)
{
	return read_counter(r, e->pmu, r->spec[e->ev].unit, e->box, r->counter[e->ev], v);
}

/* The active group's counters into their slots of val, as compile_reads
 * listed them: a loop per kind calling the seam's access itself (its ops
 * and context taken once), the other packages' gathered for their trips. */
static inline __attribute__((always_inline)) enum unc_status read_list(struct stat_run *r)
{
	const struct stat_reads *rs = r->reads;
	const struct hw_ops *ops = r->hw->ops;
	void *ctx = r->hw->ctx;
	uint64_t *val = r->val[0];
	const struct stat_rd *e = rs->rd, *end;
	enum unc_status st;

	unsigned done;

	if (rs->end[RD_MSR]) { /* one seam call */
		const uint64_t *mv = rs->msr_val + rs->npre;
		if (__builtin_expect(hw_msr_read_n(r->hw, rs->msr + rs->npre, rs->end[RD_MSR], rs->msr_val + rs->npre,
						   &done) != UNC_OK,
				     0)) {
			if ((st = read_one_slow(r, RD_MSR)))
				return st;
		} else {
			for (end = rs->rd_end[RD_MSR]; e < end; e++, mv++)
				val[e->slot] = *mv & e->keep;
		}
	}
	e = rs->rd_end[RD_MSR];
	if (e < rs->rd_end[RD_RDPMC]) { /* one seam call */
		unsigned at = rs->npre + rs->end[RD_MSR], n = rs->end[RD_RDPMC] - rs->end[RD_MSR];
		const uint64_t *mv = rs->msr_val + at;
		if (__builtin_expect(hw_rdpmc_n(r->hw, rs->msr + at, n, rs->msr_val + at, &done) != UNC_OK, 0)) {
			if ((st = read_one_slow(r, RD_RDPMC)))
				return st;
		} else {
			for (end = rs->rd_end[RD_RDPMC]; e < end; e++, mv++)
				val[e->slot] = *mv & e->keep;
		}
	}
	e = rs->rd_end[RD_RDPMC];
	if (e < rs->rd_end[RD_PCI2]) { /* one seam call: each counter's high, low, high dwords */
		const uint32_t *pv = rs->pci_val + rs->npci_pre;
		unsigned n = 3 * (rs->end[RD_PCI2] - rs->end[RD_RDPMC]);
		if (__builtin_expect(hw_pci_read32_n(r->hw, rs->pci + rs->npci_pre, n, rs->pci_val + rs->npci_pre, &done) !=
					     UNC_OK,
				     0))
			return read_pci2_slow(r);
		for (end = rs->rd_end[RD_PCI2]; e < end; e++, pv += 3) { /* as read_halves */
			uint32_t lo = pv[1], again;
			/* the high dword moved between its reads: the low one
			 * again, after the second */
			if (__builtin_expect(pv[2] != pv[0], 0)) {
				if (ops->pci_read32(ctx, e->reg.pci, (uint16_t)e->reg.addr, &again) != UNC_OK) {
					if ((st = read_failed(r, e, &val[e->slot])))
						return st;
					continue;
				}
				lo = again;
			}
			val[e->slot] = ((uint64_t)pv[2] << 32 | lo) & e->keep;
		}
	}
	e = rs->rd_end[RD_PCI2];
	for (e = rs->rd_end[RD_PKG], end = rs->rd_end[RD_OTHER]; e < end; e++) /* RD_PKG's: read_remote */
		if ((st = read_counter(r, e->pmu, r->spec[e->ev].unit, e->box, r->counter[e->ev], &val[e->slot])))
			return st;
	return UNC_OK;
}

/* At an edge: the active group's counters of this package one at a time,
 * as read_failed reads them, each between two clock reads, the second its
 * edge_t (the other packages' in their trips: read_remote_edge). A read
 * that took over twice the quickest of its kind in the edge and read_slack
 * (a delay inside it), or the first of its kind, is taken again, up to
 * STAT_BOX_READS times in all, the quickest kept: its time is then known
 * within a read. */
#define STAT_BOX_READS 4
UNC_COLD static __attribute__((noinline)) enum unc_status read_list_edge(struct stat_run *r)
{
	const struct stat_reads *rs = r->reads;
	uint64_t quickest[RD_KINDS] = { 0 }, t0 = hw_ticks(r->hw);
	enum unc_status st;
	unsigned kind = 0;

	for (const struct stat_rd *e = rs->rd; e < rs->rd_end[RD_KINDS - 1]; e++) {
		if (e == rs->rd_end[RD_PCI2]) /* RD_PKG's: read_remote_edge */
			e = rs->rd_end[RD_PKG];
		if (e == rs->rd_end[RD_KINDS - 1])
			break;
		while (e >= rs->rd_end[kind])
			kind++;
		uint64_t v, took = UINT64_MAX, *q = &quickest[kind]; /* 0: none yet */
		for (unsigned k = 0; k < STAT_BOX_READS; k++) {
			if ((st = read_failed(r, e, &v)))
				return st;
			uint64_t t1 = hw_ticks(r->hw);
			if (t1 - t0 < took)
				took = t1 - t0, r->val[0][e->slot] = v, r->edge_t[e->slot] = t1;
			t0 = t1;
			if ((*q || k) && took <= 2 * *q + r->read_slack)
				break;
		}
		if (!*q || took < *q)
			*q = took ? took : 1;
	}
	return UNC_OK;
}

/* One read of the group (and of the free-running counters when free)
 * between two clock reads; stamp: as an edge reads (read_list_edge). */
static inline __attribute__((always_inline)) enum unc_status read_once(struct stat_run *r, bool free, bool stamp,
								       uint64_t *ret_now, uint64_t *ret_after,
								       bool *ret_programmed)
{
	uint64_t batch[2];
	enum unc_status st;

	*ret_now = hw_ticks(r->hw);
	if (free && r->nfree && (st = read_free_all(r, batch)))
		return st;
	*ret_programmed = false;
	if (!r->free_only) {
		if ((st = stamp ? read_list_edge(r) : read_list(r)))
			return st;
		*ret_programmed = r->reads->any;
	}
	if (r->reads->remote && (st = stamp ? read_remote_edge(r) : read_remote(r)))
		return st;
	*ret_after = hw_ticks(r->hw);
	return UNC_OK;
}

/* The read again, as read_group says: its first read (now, after,
 * programmed) made, whether it settled (settled < 0: not asked yet; -2:
 * the first read not made yet, an edge's). */
__attribute__((noinline)) enum unc_status read_again(struct stat_run *r, bool free, uint64_t now, uint64_t after,
						    bool programmed, int settled, uint64_t *ret_now, uint64_t *ret_after,
						    bool *ret_programmed)
{
	unsigned last = r->edge ? STAT_EDGE_READS - 1 : 2, least = r->edge && (!r->read_best_known || r->edge_last) ? 2 : 0;
	uint64_t quickest = UINT64_MAX;
	enum unc_status st;

	for (unsigned attempt = 0;; attempt++) {
		if ((attempt || settled < -1) && (st = read_once(r, free, r->edge, &now, &after, &programmed)))
			return st;
		*ret_now = now, *ret_after = after, *ret_programmed = programmed;
		bool ok = attempt || settled < 0 ? read_settled(r, after - now) : settled;
		if (ok && attempt >= least && after - now <= quickest)
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

static inline __attribute__((always_inline)) enum unc_status read_group_in(struct stat_run *r, bool free, uint64_t *ret_now,
									   uint64_t *ret_after, bool *ret_programmed)
{
	uint64_t now = 0, after = 0;
	bool programmed = false;

	if (r->edge) /* a run's edge: taken at least three times the first time (read_again) */
		return read_again(r, free, now, after, programmed, -2, ret_now, ret_after, ret_programmed);
	enum unc_status st = read_once(r, free, false, &now, &after, &programmed);

	if (st)
		return st;
	*ret_now = now, *ret_after = after, *ret_programmed = programmed;
	if (__builtin_expect(read_settled(r, after - now), 1))
		return UNC_OK;
	return read_again(r, free, now, after, programmed, 0, ret_now, ret_after, ret_programmed);
}

enum unc_status read_group(struct stat_run *r, bool free, uint64_t *ret_now, uint64_t *ret_after, bool *ret_programmed)
{
	return read_group_in(r, free, ret_now, ret_after, ret_programmed);
}

/* Every bound of the active group judged as step_limit gives it, the
 * counters in the run's order, before any total moves: a sample's gap
 * that may bring a bound to the counter's width (rs->gap_fast), or a
 * counter beyond the bound count_deltas takes from rs->rate, which is
 * never above this one. */
UNC_COLD enum unc_status judge_exact(struct stat_run *r, uint64_t after)
{
	enum unc_status st;

	for (unsigned i = 0; i < r->c.nev; i++) {
		if (!in_group(r, i, r->group) || is_free(r, i))
			continue;
		unsigned k = r->pmu_of[i], u = r->spec[i].unit;
		const struct pmu_unit *pu = unit_of(r, i);
		uint64_t limit;
		unsigned width = r->c.ev[i].v.width;
		if ((st = step_limit(r, i, width, after, &limit)))
			return st;
		for (unsigned b = 0; b < r->pmu[k].p.boxes[u]; b++) {
			uint64_t last = r->last[i][b], v = r->val[i][b], d = (v - last) & pmu_width_mask(width);
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
	return UNC_OK;
}

/* The active group's deltas, modulo each counter's width, into the totals
 * (now: the clock before the read, after: after it). A value below the last
 * is a wrap only if the step fits the time: each step is held to a bound
 * from rs->rate (the event's most per tick, rounded down), and one beyond
 * it is judged exactly (judge_exact, as is every counter when the gap is
 * long). Each counter that goes backwards marks its unit's status bit in
 * wrapped (and in *ret_any). */
static inline __attribute__((always_inline)) enum unc_status count_deltas(struct stat_run *r, uint64_t now,
									  uint64_t after, uint64_t *wrapped,
									  uint64_t *ret_any)
{
	struct stat_reads *rs = r->reads;
	uint64_t gap = after - r->t_sample, gs = gap + rs->slack, dt = now - r->t_sample;
	uint64_t *val = r->val[0], *lastv = r->last[0];
	unsigned still = rs->still;
	bool judged = false;
	enum unc_status st;

	if (__builtin_expect(gap >= rs->gap_fast, 0)) {
		if ((st = judge_exact(r, after)))
			return st;
		judged = true;
	}
	/* one loop while some counter has not moved yet, another without
	 * that test once all have (nearly every sample) */
#define DELTAS(track_still)                                                                                           \
	for (const struct stat_rd *e = rs->rd, *end = rs->rd_end[RD_KINDS - 1]; e < end; e++) {                     \
		uint32_t slot = e->slot;                                                                            \
		uint64_t v = val[slot], last = lastv[slot], d = (v - last) & e->mask;                              \
		if (__builtin_expect(d > (uint64_t)((unsigned __int128)gs * e->rate >> 32), 0) && !judged) {        \
			/* the counters before this one are counted already, their                                  \
			 * steps within their bounds: judged again as 0 */                                          \
			if ((st = judge_exact(r, after)))                                                           \
				return st;                                                                          \
			judged = true;                                                                              \
		}                                                                                                   \
		if (__builtin_expect(v < last, 0))                                                                  \
			wrapped[e->pmu] |= e->wbit, *ret_any |= e->wbit;                                            \
		if ((track_still) && d && !*e->moved)                                                               \
			*e->moved = 1, still--;                                                                     \
		*e->total += d;                                                                                     \
		lastv[slot] = v;                                                                                    \
	}
	if (__builtin_expect(still != 0, 0)) {
		DELTAS(true)
		rs->still = still;
	} else {
		DELTAS(false)
	}
#undef DELTAS
	for (unsigned j = 0, n = rs->nev; j < n; j++)
		*rs->running[j] += dt;
	return UNC_OK;
}

/* A driver that asks for it is frozen while its counters are read
 * (two-dword counters read consistently), and unfrozen after (bit k of
 * *frozen). */
UNC_COLD static __attribute__((noinline)) enum unc_status freeze_for_read(struct stat_run *r, bool freeze, uint32_t *frozen)
{
	enum unc_status st;

	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if (!freeze) {
			if ((*frozen >> k & 1) && (st = sp->p.drv->ops->unfreeze(&io, &sp->p, &sp->s, false)))
				return st;
			continue;
		}
		if (!sp->p.drv->sample_frozen || !programs_in_group(r, k))
			continue;
		sp->s.first = false;
		if ((st = sp->p.drv->ops->freeze(&io, &sp->p, &sp->s)))
			return st;
		*frozen |= 1u << k;
	}
	return UNC_OK;
}

/* A unit's status bit must be explained by a counter of that unit going
 * backwards, in this sample or (if it wrapped between the two reads of the
 * last sample) the previous one. Otherwise a counter advanced by its whole
 * width or more between two samples, and no delta can say by how much. */
__attribute__((noinline)) enum unc_status explain_status(struct stat_run *r, const uint64_t *status,
							 const uint64_t *wrapped)
{
	struct stat_reads *rs = r->reads;
	uint64_t any = 0;
	enum unc_status st;

	rs->prev_wrapped = false;
	for (unsigned k = 0; k < r->npmu; k++) {
		any |= status[k] & rs->sbits[k];
		rs->prev_wrapped |= wrapped[k] != 0;
	}
	rs->any_v = rs->prev_wrapped; /* sample_fast explains again after a wrap */
	if (!any) {
		for (unsigned k = 0; k < r->npmu; k++)
			r->wrapped_prev[k] = wrapped[k];
		return UNC_OK;
	}
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		uint64_t mine = status[k] & rs->sbits[k];
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

/* A sample after its reads (now, after: the clock around them): the
 * selects of other packages, the free-running counters' deltas, the
 * drivers unfrozen, the deltas, the overflow status. */
enum unc_status sample_rest(struct stat_run *r, uint64_t now, uint64_t after, bool programmed, uint32_t frozen,
			    uint64_t *status, uint64_t *wrapped, uint64_t any)
{
	const struct stat_reads *rs = r->reads;
	enum unc_status st;

	if ((watch_any_pkg && (st = check_watched(r))) || (r->nfree && (st = free_deltas(r, now))) ||
	    (frozen && (st = freeze_for_read(r, false, &frozen))) ||
	    (programmed && (st = count_deltas(r, now, after, wrapped, &any))))
		return st;
	r->t_sample = r->c.t_end = now;
	/* nothing to explain: no status bit set, no counter wrapped now or at
	 * the last sample (a check op's status is looked at there) */
	if (!rs->status || !(any | rs->slow_chk | rs->prev_wrapped))
		return UNC_OK;
	return explain_status(r, status, wrapped);
}

/* A run with programmed counters: the drivers' checks and the watched
 * selects, then the counters between two clock reads, then their deltas
 * (every counter judged before it is counted; the free-running ones
 * first: a failed run reports nothing anyway), then the overflow status. */
__attribute__((noinline)) enum unc_status sample_all(struct stat_run *r)
{
	const struct stat_reads *rs = r->reads;
	uint64_t status[STAT_MAX_PMUS] = { 0 }, wrapped[STAT_MAX_PMUS] = { 0 };
	uint64_t now, after, any = 0;
	uint32_t frozen = 0;
	bool programmed = false;
	enum unc_status st;

	/* Each PMU's state and overflow status first, then the counters: a
	 * wrap the status shows has happened by the time they are read. */
	if ((rs->slow_chk && (st = check_pmus(r, status))) || (st = check_list(r, status, &any)) ||
	    (rs->frozen && (st = freeze_for_read(r, true, &frozen))) ||
	    (st = read_group_in(r, true, &now, &after, &programmed)))
		return st;
	if ((st = sample_rest(r, now, after, programmed, frozen, status, wrapped, any)) || !r->edge || !programmed)
		return st;
	edge_end(r, now);
	return UNC_OK;
}

/* Each box's window. A sample's time is the clock read before its reads,
 * while each box is read at its own moment after it (its place in the
 * list, another package's trip); when a delay lands among an edge's reads,
 * a box read after it counts longer than the window's time by the
 * difference of its offsets at the window's two edges (its skew). Its count
 * over the window is then its count times the window's time over its own
 * (stat.md, "Each box's window"); with no skew it stays as counted. */
UNC_COLD void edge_begin(struct stat_run *r, uint64_t now)
{
	const struct stat_reads *rs = r->reads;

	for (const struct stat_rd *e = rs->rd; e < rs->rd_end[RD_KINDS - 1]; e++)
		r->edge_off[e->slot] = r->edge_t[e->slot] - now, r->edge_tot[e->slot] = *e->total;
	r->edge_t0 = now;
}

UNC_COLD void edge_end(struct stat_run *r, uint64_t now)
{
	const struct stat_reads *rs = r->reads;
	uint64_t w = now - r->edge_t0;

	for (const struct stat_rd *e = rs->rd; e < rs->rd_end[RD_KINDS - 1]; e++) {
		/* offsets modulo 2^64, as the clock reads them;
		 * a driver frozen while read stopped counting before the clock read */
		int64_t skew = (int64_t)(r->edge_t[e->slot] - now - r->edge_off[e->slot]);
		if (skew && (skew > 0 || (uint64_t)-skew < w) && !r->pmu[e->pmu].p.drv->sample_frozen)
			*e->total = r->edge_tot[e->slot] + u64_muldiv(*e->total - r->edge_tot[e->slot], w, w + (uint64_t)skew);
	}
	edge_begin(r, now); /* a window that goes on unprogrammed starts here */
}

/* A sample not sample_fast's (stat_reads.sample where it does not apply). */
enum unc_status sample_slow(struct stat_run *r)
{
	return r->free_only ? sample_free_only(r) : sample_all(r);
}

enum unc_status stat_sample(struct stat_run *r)
{
	if (!r->counting)
		return UNC_OK;
	if (__builtin_expect(!r->edge, 1))
		return r->reads->sample(r);
	return r->free_only ? sample_free_only(r) : sample_all(r);
}
