/* The watch of other writers: each select and control the run wrote
 * read again and compared, and the drivers' checks, made from what the
 * list calls read or by their check op; what reads otherwise is named.
 * The common sample (stat_fast.c) compares its lists itself and comes
 * here when something reads otherwise. */
#include "stat_int.h"

/* A watched select or control that reads otherwise than the run wrote it
 * was cleared or reprogrammed by someone else, and its counter counts
 * something else, or nothing; one that cannot be read stops the run too. */
UNC_COLD __attribute__((noinline)) enum unc_status watch_failed(struct stat_run *r, unsigned w, enum unc_status st,
								 uint64_t v)
{
	const struct stat_saved *s = &r->saved[r->watch[w]];
	char what[96];

	if (st)
		return rd_failed(r, s->pmu, s->reg, st);
	return fail(r, UNC_E_CLOBBERED, "%s reads 0x%lx, not the 0x%lx this run wrote: written by someone else during the run",
		    reg_text(r, s->pmu, s->reg, what, sizeof(what)), (unsigned long)v, (unsigned long)s->now);
}

/* Driver k's check (its state, and its overflow status into *status). */
static enum unc_status check_pmu(struct stat_run *r, unsigned k, uint64_t *status)
{
	struct stat_pmu *sp = &r->pmu[k];
	struct pmu_io io = io_of(r, k);

	return sp->p.drv->ops->check(&io, &sp->p, &sp->s, status);
}

/* A check made here could not read a register or found the control
 * otherwise: made again by the driver's check, which says what is wrong
 * (its result stands, as when it alone checked). */
UNC_COLD __attribute__((noinline)) enum unc_status check_failed(struct stat_run *r, const struct stat_chk *c,
								 uint64_t *status)
{
	return check_pmu(r, c->pmu, status);
}

/* The drivers' checks that check_regs gives (their status into
 * status[k], their control compared; the status bits set, of the
 * status_bits of each, or'ed into *ret_any) and each watched MSR and PCI
 * dword of this package, from what the list calls read (msr_val from 0,
 * unless !msr, pci_val from 0). */
enum unc_status check_vals(struct stat_run *r, uint64_t *status, uint64_t *ret_any, bool msr)
{
	const struct stat_reads *rs = r->reads;
	const struct stat_wt *e = rs->wt, *end;
	const uint64_t *mv = rs->msr_val;
	const uint32_t *pv = rs->pci_val;
	enum unc_status st;

	if (!msr) /* check_msr_slow made them */
		goto pci;
	for (unsigned c = 0, nc = rs->pre_chk / 2; c < nc; c++) {
		uint64_t sv = mv[rs->ncmp + c];
		status[rs->chk[c].pmu] = sv;
		*ret_any |= sv & rs->chk[c].sbits;
		if (__builtin_expect(mv[c] != rs->chk[c].want, 0)) {
			*ret_any = ~0ull; /* the status the driver's check gave */
			if ((st = check_failed(r, &rs->chk[c], &status[rs->chk[c].pmu])))
				return st;
		}
	}
	for (mv += rs->pre_chk / 2, end = rs->wt_end[WT_MSR]; e < end; e++, mv++)
		if (__builtin_expect(*mv != *e->want, 0))
			return watch_failed(r, e->w, UNC_OK, *mv);
pci:
	for (e = rs->wt_end[WT_MSR], end = rs->wt_end[WT_PCI]; e < end; e++, pv++)
		if (__builtin_expect(*pv != *e->want, 0))
			return watch_failed(r, e->w, UNC_OK, *pv);
	return UNC_OK;
}

/* At each sample, before the counters: the checks of check_vals, the
 * MSRs in one seam call (hw_msr_read_n), the PCI dwords in another, the
 * other watched registers one read each. */
enum unc_status check_list(struct stat_run *r, uint64_t *status, uint64_t *ret_any)
{
	const struct stat_reads *rs = r->reads;
	const struct hw_ops *ops = r->hw->ops;
	void *ctx = r->hw->ctx;
	const struct stat_wt *e, *end;
	enum unc_status st;
	unsigned done;
	uint64_t v;
	bool msr = true;

	if (rs->npre && __builtin_expect(hw_msr_read_n(r->hw, rs->msr, rs->npre, rs->msr_val, &done) != UNC_OK, 0)) {
		*ret_any = ~0ull; /* the status as the slow way read it: explain_status looks */
		if ((st = check_msr_slow(r, status)))
			return st;
		msr = false;
	}
	e = rs->wt_end[WT_MSR];
	if (rs->npci_pre && __builtin_expect(hw_pci_read32_n(r->hw, rs->pci, rs->npci_pre, rs->pci_val, &done) != UNC_OK, 0))
		for (end = rs->wt_end[WT_PCI]; e < end; e++) /* one at a time, to name the one that fails */
			if ((st = ops->pci_read32(ctx, e->reg.pci, (uint16_t)e->reg.addr, &rs->pci_val[e - rs->wt_end[WT_MSR]])))
				return watch_failed(r, e->w, st, 0);
	if ((st = check_vals(r, status, ret_any, msr)))
		return st;
	for (e = rs->wt_end[WT_PCI], end = rs->wt_end[WT_OTHER]; e < end; e++)
		if ((st = raw_read(r->hw, e->reg, &v)) || v != *e->want)
			return watch_failed(r, e->w, st, v);
	return UNC_OK;
}

/* Each driver's check, in the drivers' order: those with check_regs read
 * here (the status into status[k], the control compared), the others by
 * their check op. */
__attribute__((noinline)) enum unc_status check_pmus(struct stat_run *r, uint64_t *status)
{
	const struct stat_reads *rs = r->reads;
	const struct hw_ops *ops = r->hw->ops;
	void *ctx = r->hw->ctx;
	enum unc_status st;

	if (rs->slow_chk) { /* the drivers' order, when some are called */
		for (unsigned k = 0, c = 0; k < r->npmu; k++) {
			if (rs->slow_chk >> k & 1) {
				if ((st = check_pmu(r, k, &status[k])))
					return st;
			} else if (c < rs->nchk && rs->chk[c].pmu == k) {
				const struct stat_chk *x = &rs->chk[c++];
				uint64_t ctrl;
				if ((st = ops->msr_read(ctx, x->status, &status[k])) || (st = ops->msr_read(ctx, x->ctrl, &ctrl)) ||
				    ctrl != x->want)
					if ((st = check_failed(r, x, &status[k])))
						return st;
			}
		}
		return UNC_OK;
	}
	return UNC_OK; /* none called: check_list makes the checks */
}
