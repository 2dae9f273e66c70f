/* The engine's lists of what a sample reads, compiled at each programming
 * (struct stat_reads, stat_int.h): the active group's counters by kind of
 * access, the selects each sample checks, the drivers' checks made as two
 * reads, the addresses of the seam's list calls, and the constants of the
 * counters' bounds; and the lists read one access at a time, where a
 * sample's list call failed (stat_sample.c). */
#include "stat_int.h"

#include "../base/arith.h"

/* How a sample reads counter c of event i in box b (struct stat_rd). A
 * driver's read_counter is called only where its fast_read has no access
 * to offer; what is left is read by read_counter too (RD_OTHER). */
UNC_COLD static unsigned rd_how(const struct stat_run *r, unsigned i, unsigned b, struct stat_rd *e)
{
	const struct stat_pmu *sp = &r->pmu[r->pmu_of[i]];
	const struct pmu_unit *pu = unit_of(r, i);
	unsigned u = r->spec[i].unit, c = r->counter[i], width = r->c.ev[i].v.width;
	unsigned fast = PMU_FAST_REG;

	e->keep = ~0ull;
	if (pu->per_pkg && pu->space == PMU_MSR) {
		e->keep = pmu_width_mask(width);
		return reg_remote(r->hw, e->reg) ? RD_PKG : RD_MSR;
	}
	if (sp->p.drv->ops->read_counter) {
		fast = sp->p.drv->ops->fast_read ? sp->p.drv->ops->fast_read(&sp->p, u, b, c, &e->index) : PMU_FAST_NONE;
		e->keep = pmu_width_mask(width);
	}
	if (fast == PMU_FAST_RDPMC)
		return RD_RDPMC;
	if (fast == PMU_FAST_NONE || reg_remote(r->hw, e->reg))
		return RD_OTHER;
	if (e->reg.space == PMU_MSR)
		return RD_MSR;
	if (e->reg.space == PMU_PCI && width > 32 && !(e->reg.addr & 3) && e->reg.addr + 4 < 0x1000)
		return RD_PCI2;
	return RD_OTHER;
}

/* The bounds' constants of event i (step_limit's, computed once): its most
 * per tick times 2^32, rounded down (a sample's bound from it is never
 * above step_limit's), or all ones where there is no bound; and the gap
 * below which step_limit's bound stays under the counter's width. */
UNC_COLD static uint64_t rd_rate(const struct stat_run *r, unsigned i, uint64_t *gap_fast)
{
	uint64_t hz = r->hw->tick_hz, rate = r->max_rate[i], mask = pmu_width_mask(r->c.ev[i].v.width);
	uint64_t q, slack = hz / 100;

	if (!rate)
		return UINT64_MAX;
	if (!hz) {
		*gap_fast = 0;
		return 0;
	}
	q = u64_muldiv(mask, hz, rate);
	q = q > slack + 1 ? q - slack - 1 : 0;
	if (q < *gap_fast)
		*gap_fast = q;
	q = u64_muldiv(rate, 1ull << 32, hz);
	return q == UINT64_MAX ? 0 : q;
}

/* Where a sample's list calls put what watched register w reads, if in
 * an MSR list (this package's, or a trip's to another); else NULL. */
UNC_COLD static const uint64_t *watch_at(const struct stat_run *r, unsigned w)
{
	const struct stat_reads *rs = r->reads;

	if (reg_remote(r->hw, r->saved[r->watch[w]].reg))
		return pkg_plan_at(&r->watch_val[w]); /* where its trip puts it */
	for (const struct stat_wt *e = rs->wt; e < rs->wt_end[WT_MSR]; e++)
		if (e->w == w)
			return &rs->msr_val[rs->pre_chk / 2 + (unsigned)(e - rs->wt)];
	return NULL;
}

/* The select fev f compares (counter c of event i, box b): its watched
 * register where no fev before compares it. */
UNC_COLD static void fold_select(struct stat_run *r, struct stat_fev *f, unsigned i, unsigned b)
{
	struct stat_reads *rs = r->reads;
	const struct stat_pmu *sp = &r->pmu[r->pmu_of[i]];
	struct pmu_reg sel = pmu_unit_sel(unit_of(r, i), &sp->p, r->spec[i].unit, b, r->counter[i]);

	f->sel = &rs->zero, f->want = 0;
	for (unsigned w = 0; w < r->nwatch; w++) {
		const uint64_t *at;
		if (!pmu_reg_eq(r->saved[r->watch[w]].reg, sel) || !(at = watch_at(r, w)))
			continue;
		for (const struct stat_fev *g = rs->fev; g < f; g++)
			if (g->sel == at)
				return;
		f->sel = at, f->want = r->saved[r->watch[w]].now;
		return;
	}
}

/* Whether some fev compares what at holds. */
UNC_COLD static bool folded(const struct stat_reads *rs, const uint64_t *at)
{
	for (const struct stat_fev *f = rs->fev; f < rs->fev + rs->nfev; f++)
		if (f->sel == at)
			return true;
	return false;
}

/* sample_fast's list (struct stat_fev): each counter, where its value is
 * found after the list calls, the 64-bit ones first, with its select; and
 * the checked MSRs no fev compares (cmp_at). */
UNC_COLD static void compile_fast(struct stat_run *r)
{
	struct stat_reads *rs = r->reads;
	bool seen[STAT_MAX_EVENTS] = { false };
	unsigned nc = rs->pre_chk / 2;

	rs->nmsr_all = rs->npre + rs->end[RD_MSR];
	rs->npmc = rs->end[RD_RDPMC] - rs->end[RD_MSR];
	rs->nfev = rs->nfev64 = rs->ncmp_left = 0;
	rs->any_v = rs->prev_wrapped, rs->zero = 0;
	for (unsigned k = 0; k < STAT_MAX_PMUS; k++)
		rs->st_v[k] = rs->wr_v[k] = 0;
	rs->fast = rs->any && rs->gap_fast && !rs->slow_chk && !rs->frozen && !r->nfree &&
		   rs->end[RD_OTHER] == rs->end[RD_PKG] && rs->wend[WT_OTHER] == rs->wend[WT_PCI];
	for (const struct stat_wt *e = rs->wt_end[WT_MSR]; e < rs->wt_end[WT_PCI]; e++)
		rs->fast &= *e->want >> 32 == 0; /* pwant holds 32 bits */
	rs->fast &= !rs->remote || pkg_plan_fast(r); /* the other packages' values read in the plan's trips */
	for (int pci = 0; rs->fast && pci < 2; pci++) {
		for (const struct stat_rd *e = rs->rd; e < rs->rd_end[RD_PKG]; e++) {
			unsigned j = (unsigned)(e - rs->rd);
			if ((j >= rs->end[RD_RDPMC] && j < rs->end[RD_PCI2]) != pci)
				continue;
			struct stat_fev *f = &rs->fev[rs->nfev++];
			*f = (struct stat_fev){
				.keep = e->keep, .mask = e->mask, .rate = e->rate, .wbit = e->wbit, .pmu = e->pmu,
				.pci = (uint8_t)pci, .last = r->last[0] + e->slot, .total = e->total, .moved = e->moved,
				.running = seen[e->ev] ? &rs->sink : &r->c.ev[e->ev].total.running,
				.src = j < rs->end[RD_RDPMC] ? (void *)(rs->msr_val + rs->npre + j)
				       : pci ? (void *)(rs->pci_val + rs->npci_pre + 3 * (j - rs->end[RD_RDPMC]))
					     : (void *)pkg_plan_at(r->val[0] + e->slot),
			};
			fold_select(r, f, e->ev, e->box);
			seen[e->ev] = true;
		}
		if (!pci)
			rs->nfev64 = rs->nfev;
	}
	/* the checks' controls, the selects no fev compares, the checks' status (no status bit set) */
	for (unsigned i = 0, n = 0; i < rs->npre; i++) {
		if (i >= nc && i < rs->ncmp && folded(rs, &rs->msr_val[i]))
			continue;
		rs->cmp[n++] = (struct stat_cmp){ .at = i, .mask = i < rs->ncmp ? ~0ull : rs->chk[i - rs->ncmp].sbits,
						  .want = i < nc ? rs->chk[i].want : i < rs->ncmp ? *rs->wt[i - nc].want : 0 };
		rs->ncmp_left = n;
	}
	rs->cmp_end = rs->cmp + rs->ncmp_left;
	rs->fev_end64 = rs->fev + rs->nfev64, rs->fev_end = rs->fev + rs->nfev;
	rs->watch_left = false;
	for (unsigned w = 0; w < r->nwatch; w++)
		rs->watch_left |= reg_remote(r->hw, r->saved[r->watch[w]].reg) && !folded(rs, pkg_plan_at(&r->watch_val[w]));
	rs->fk = (rs->nmsr_all ? FK_MSR : 0) | (rs->npmc ? FK_PMC : 0) | (rs->npci_all ? FK_PCI : 0) |
		 (rs->remote ? FK_REMOTE : 0) | (rs->ncmp_left || rs->npci_pre ? FK_CHECK : 0) |
		 (rs->watch_left ? FK_WATCH_PKG : 0) | (rs->nfev > rs->nfev64 ? FK_PCI2 : 0);
	fast_choose(r);
}

/* What each sample reads of the active group, listed once here so that a
 * sample is a few tight loops over it: each counter's access, by kind, with
 * its slot, width and bound; each select it checks; which drivers' checks
 * and status it needs. */
UNC_COLD void compile_reads(struct stat_run *r)
{
	struct stat_reads *rs = r->reads;
	unsigned n[RD_KINDS] = { 0 }, at[RD_KINDS], wn[WT_KINDS] = { 0 }, wat[WT_KINDS];

	rs->nev = rs->still = rs->nchk = rs->slow_chk = 0;
	rs->any = rs->checks = rs->status = rs->frozen = false;
	rs->slack = r->hw->tick_hz / 100;
	rs->prev_wrapped = false;
	rs->pkg_plan = false;
	for (unsigned k = 0; k < r->npmu; k++)
		rs->prev_wrapped |= r->wrapped_prev[k] != 0;
	rs->gap_fast = UINT64_MAX;
	for (unsigned k = 0; k < r->npmu; k++) { /* every driver that programs is checked, in the group or not */
		const struct pmu_driver *drv = r->pmu[k].p.drv;
		struct stat_chk *c = &rs->chk[rs->nchk];
		struct pmu_reg sreg, creg;
		rs->sbits[k] = status_bits(drv);
		if (!r->pmu[k].programs || !drv->ops->check)
			continue;
		rs->checks = true;
		rs->status |= rs->sbits[k] != 0;
		if (drv->ops->check_regs && drv->ops->check_regs(&r->pmu[k].p, &r->pmu[k].s, &sreg, &creg, &c->want) &&
		    sreg.space == PMU_MSR && creg.space == PMU_MSR && !pmu_reg_pkg(sreg) && !pmu_reg_pkg(creg)) {
			c->status = (uint32_t)sreg.addr, c->ctrl = (uint32_t)creg.addr, c->pmu = k, c->sbits = rs->sbits[k];
			rs->nchk++;
		} else {
			rs->slow_chk |= 1u << k;
		}
	}
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned k = 0, end = 0; pass && k < RD_KINDS; k++)
			at[k] = end, end += n[k], rs->end[k] = end, rs->rd_end[k] = rs->rd + end;
		for (unsigned i = 0; i < r->c.nev; i++) {
			unsigned k = r->pmu_of[i], u = r->spec[i].unit;
			const struct stat_pmu *sp = &r->pmu[k];
			if (!in_group(r, i, r->group) || is_free(r, i))
				continue;
			uint64_t rate = pass ? rd_rate(r, i, &rs->gap_fast) : 0;
			if (pass) {
				rs->any = true;
				rs->running[rs->nev++] = &r->c.ev[i].total.running;
				rs->frozen |= sp->p.drv->sample_frozen;
			}
			for (unsigned b = 0; b < sp->p.boxes[u]; b++) {
				struct stat_rd e = {
					.total = &r->c.ev[i].total.box[b], .moved = &r->c.ev[i].moved[b],
					.mask = pmu_width_mask(r->c.ev[i].v.width), .rate = rate, .wbit = unit_of(r, i)->status_bit,
					.reg = pmu_unit_ctr(unit_of(r, i), &sp->p, u, b, r->counter[i]),
					.slot = (uint32_t)(r->val[i] - r->val[0]) + b, .box = (uint16_t)b, .pmu = (uint8_t)k,
					.ev = (uint8_t)i,
				};
				unsigned how = rd_how(r, i, b, &e);
				if (pass) {
					rs->rd[at[how]++] = e;
					rs->still += !*e.moved;
				} else {
					n[how]++;
				}
			}
		}
	}
	rs->remote = rs->end[RD_PKG] > rs->end[RD_PKG - 1] || watch_any_pkg;
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned k = 0, end = 0; pass && k < WT_KINDS; k++)
			wat[k] = end, end += wn[k], rs->wend[k] = end, rs->wt_end[k] = rs->wt + end;
		for (unsigned w = 0; w < r->nwatch; w++) {
			const struct stat_saved *s = &r->saved[r->watch[w]];
			if (reg_remote(r->hw, s->reg))
				continue; /* in its package's trip (check_watched) */
			unsigned how = s->reg.space == PMU_MSR ? WT_MSR
				       : s->reg.space == PMU_PCI && !(s->reg.addr & 3) && s->reg.addr < 0x1000 ? WT_PCI
														   : WT_OTHER;
			if (pass)
				rs->wt[wat[how]++] = (struct stat_wt){ .want = &s->now, .reg = s->reg, .w = w };
			else
				wn[how]++;
		}
	}
	/* the MSRs of the two seam calls (hw_msr_read_n) */
	unsigned m = 0, nc = rs->slow_chk ? 0 : rs->nchk;
	for (unsigned c = 0; c < nc; c++)
		rs->msr[m++] = rs->chk[c].ctrl;
	for (const struct stat_wt *e = rs->wt; e < rs->wt_end[WT_MSR]; e++)
		rs->msr[m++] = (uint32_t)e->reg.addr;
	rs->ncmp = m;
	for (unsigned c = 0; c < nc; c++)
		rs->msr[m++] = rs->chk[c].status;
	rs->pre_chk = 2 * nc;
	rs->npre = m;
	for (const struct stat_rd *e = rs->rd; e < rs->rd_end[RD_MSR]; e++)
		rs->msr[m++] = (uint32_t)e->reg.addr;
	for (const struct stat_rd *e = rs->rd_end[RD_MSR]; e < rs->rd_end[RD_RDPMC]; e++)
		rs->msr[m++] = e->index; /* the RDPMC indexes (hw_rdpmc_n) */
	/* the PCI dwords of the two others (hw_pci_read32_n) */
	m = 0;
	for (const struct stat_wt *e = rs->wt_end[WT_MSR]; e < rs->wt_end[WT_PCI]; e++)
		rs->pwant[m] = (uint32_t)*e->want, rs->pci[m++] = (struct pci_dword){ e->reg.pci, (uint16_t)e->reg.addr };
	rs->npci_pre = m;
	for (const struct stat_rd *e = rs->rd_end[RD_RDPMC]; e < rs->rd_end[RD_PCI2]; e++) {
		uint16_t off = (uint16_t)e->reg.addr;
		rs->pci[m++] = (struct pci_dword){ e->reg.pci, (uint16_t)(off + 4) };
		rs->pci[m++] = (struct pci_dword){ e->reg.pci, off };
		rs->pci[m++] = (struct pci_dword){ e->reg.pci, (uint16_t)(off + 4) };
	}
	rs->npci_all = m;
	compile_fast(r);
}

/* The drivers' checks made here (check_regs) and the watched MSR selects,
 * one seam call each, as before the batch: what reads otherwise, or
 * cannot be read, is made again by the driver's check or named. */
UNC_COLD enum unc_status check_msr_slow(struct stat_run *r, uint64_t *status)
{
	const struct stat_reads *rs = r->reads;
	const struct hw_ops *ops = r->hw->ops;
	void *ctx = r->hw->ctx;
	enum unc_status st;
	uint64_t v;

	for (const struct stat_chk *x = rs->chk, *end = rs->chk + rs->pre_chk / 2; x < end; x++) {
		uint64_t ctrl;
		if (((st = ops->msr_read(ctx, x->status, &status[x->pmu])) || (st = ops->msr_read(ctx, x->ctrl, &ctrl)) ||
		     ctrl != x->want) &&
		    (st = check_failed(r, x, &status[x->pmu])))
			return st;
	}
	for (const struct stat_wt *e = rs->wt, *end = rs->wt_end[WT_MSR]; e < end; e++)
		if ((st = ops->msr_read(ctx, (uint32_t)e->reg.addr, &v)) || v != *e->want)
			return watch_failed(r, e->w, st, v);
	return UNC_OK;
}

/* The RD_MSR (or RD_RDPMC) counters, one seam call each, as before the
 * lists: one that fails is read again by read_failed (the driver's
 * read_counter: for RDPMC, which QEMU's TCG refuses with #UD, the
 * architectural PMU's rdmsr). */
UNC_COLD enum unc_status read_one_slow(struct stat_run *r, unsigned kind)
{
	const struct stat_reads *rs = r->reads;
	uint64_t *val = r->val[0];
	enum unc_status st;

	for (const struct stat_rd *e = kind ? rs->rd_end[kind - 1] : rs->rd, *end = rs->rd_end[kind]; e < end; e++) {
		uint64_t v;
		if ((kind == RD_MSR ? hw_msr_read(r->hw, (uint32_t)e->reg.addr, &v) : hw_rdpmc(r->hw, e->index, &v)) !=
		    UNC_OK) {
			if ((st = read_failed(r, e, &val[e->slot])))
				return st;
			continue;
		}
		val[e->slot] = v & e->keep;
	}
	return UNC_OK;
}

/* The RD_PCI2 counters, one seam call a dword, as before the batch (and
 * as read_halves: high, low, high, and the low again when the high
 * moved); one that fails is read again by read_failed. */
UNC_COLD enum unc_status read_pci2_slow(struct stat_run *r)
{
	const struct stat_reads *rs = r->reads;
	const struct hw_ops *ops = r->hw->ops;
	void *ctx = r->hw->ctx;
	uint64_t *val = r->val[0];
	enum unc_status st;

	for (const struct stat_rd *e = rs->rd_end[RD_RDPMC], *end = rs->rd_end[RD_PCI2]; e < end; e++) {
		uint32_t h0, lo, h1;
		uint16_t off = (uint16_t)e->reg.addr;
		if ((st = ops->pci_read32(ctx, e->reg.pci, (uint16_t)(off + 4), &h0)) ||
		    (st = ops->pci_read32(ctx, e->reg.pci, off, &lo)) ||
		    (st = ops->pci_read32(ctx, e->reg.pci, (uint16_t)(off + 4), &h1)) ||
		    (h1 != h0 && (st = ops->pci_read32(ctx, e->reg.pci, off, &lo)))) {
			if ((st = read_failed(r, e, &val[e->slot])))
				return st;
			continue;
		}
		val[e->slot] = ((uint64_t)h1 << 32 | lo) & e->keep;
	}
	return UNC_OK;
}
