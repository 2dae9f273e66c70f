/* The engine's programming: the sequence (freeze, selects, counters,
 * fixed counters, status, unfreeze) for a group, the list of selects each
 * sample checks, and the run's start and stop. */
#include "stat_int.h"

#include <string.h>

#include "../base/arith.h"
#include "../base/fmt.h"

UNC_COLD static uint64_t sel_value(const struct stat_run *r, unsigned i)
{
	const struct pmu_unit *u = unit_of(r, i);

	return evsel_encode(&r->spec[i]) | (u->layout ? u->layout->run_bits : 0);
}

/* Step 2 for one unit of driver k: its event selects (this group's
 * events, zero on the other counters), read back the first time (while
 * frozen: a driver whose unfreeze sets an enable bit in a select, as the
 * P6's EN in PerfEvtSel0, changes it only after this; once is enough: a
 * PMU that took the first programming takes the rotations too, and the
 * sampling path stays lean). */
UNC_COLD static enum unc_status program_selects(struct stat_run *r, unsigned g, unsigned k, unsigned u)
{
	const struct stat_pmu *sp = &r->pmu[k];
	const struct pmu_unit *pu = &sp->p.drv->units[u];
	enum unc_status st;

	for (unsigned c = 0; c < pmu_counters_of(pu, &sp->p, u); c++) {
		uint64_t sel = 0;
		for (unsigned i = 0; i < r->c.nev; i++)
			if (r->pmu_of[i] == k && r->spec[i].unit == u && r->group_of[i] == g && r->counter[i] == c)
				sel = sel_value(r, i);
		for (unsigned b = 0; b < sp->p.boxes[u]; b++) {
			struct pmu_reg reg = pmu_unit_sel(pu, &sp->p, u, b, c);
			if ((st = wr(r, k, reg, sel, false)) || (r->verify && sel && (st = check_reads(r, k, reg, sel))))
				return st;
		}
	}
	return UNC_OK;
}

/* Whether the run sets unit u's counters of driver k by writing them
 * (PMU_CTR_WRITE, and none of them ignored a write): else it counts from
 * the values it reads (program). */
static bool writes_counters(const struct stat_run *r, unsigned k, unsigned u)
{
	const struct stat_pmu *sp = &r->pmu[k];

	return sp->p.drv->units[u].ctr_write == PMU_CTR_WRITE && !(sp->ctr_ignored >> u & 1);
}

/* Step 3 for one unit, as its ctr_write says (pmu.h): PMU_CTR_WRITE, its
 * counters to the start value (pmu_start_value), from which the counts are
 * differences: a counter someone else writes then jumps by far more than
 * its events allow. The first time they are read back (with the PMU
 * frozen they stand still): a counter that ignores the write is counted
 * from the value read instead (program), its register is not put back,
 * its unit is not written again, and the run says so once. A
 * PMU_CTR_BOX_RESET unit gets the driver's box reset the first time, as
 * Linux's init_box does; a PMU_CTR_NEVER unit nothing. */
UNC_COLD static enum unc_status reset_counters(struct stat_run *r, unsigned k, unsigned u)
{
	struct stat_pmu *sp = &r->pmu[k];
	const struct pmu_driver *drv = sp->p.drv;
	const struct pmu_unit *pu = &drv->units[u];
	struct pmu_io io = io_of(r, k);
	uint64_t start = pmu_start_value(pu, &sp->p, u);
	enum unc_status st;

	if (pu->ctr_write == PMU_CTR_BOX_RESET) {
		for (unsigned b = 0; r->verify && drv->ops->reset_box && b < sp->p.boxes[u]; b++)
			if ((st = drv->ops->reset_box(&io, &sp->p, u, b, 0)))
				return st;
		return UNC_OK;
	}
	if (!writes_counters(r, k, u))
		return UNC_OK;
	for (unsigned b = 0; b < sp->p.boxes[u]; b++) {
		unsigned n = pmu_counters_of(pu, &sp->p, u);
		uint32_t ignored = 0; /* bit c: counter c kept its value */
		r->tracking = r->verify;
		r->nbox_wrote = 0;
		if (drv->ops->reset_box) {
			st = drv->ops->reset_box(&io, &sp->p, u, b, start);
		} else {
			st = UNC_OK;
			for (unsigned c = 0; !st && c < n; c++)
				st = wr(r, k, pmu_unit_ctr(pu, &sp->p, u, b, c), start, true);
		}
		r->tracking = false;
		if (st)
			return st;
		for (unsigned c = 0; r->verify && c < n; c++) {
			uint64_t v;
			char what[96];
			if ((st = read_counter(r, k, u, b, c, &v)))
				return st;
			if (v == start)
				continue;
			ignored |= 1u << c;
			if (!r->write_note[0])
				fmt_snprintf(r->write_note, sizeof(r->write_note),
					     "%s reads 0x%lx after writing 0x%lx with counting stopped: it ignores writes; "
					     "its unit is counted from the values read",
					     reg_text(r, k, pmu_unit_ctr(pu, &sp->p, u, b, c), what, sizeof(what)),
					     (unsigned long)v, (unsigned long)start);
		}
		/* A counter that ignored the write did not change: nothing of it
		 * to put back. The box's reset writes each counter's registers
		 * in counter order, as many each (one MSR, two dwords). */
		unsigned per = n && r->nbox_wrote % n == 0 ? r->nbox_wrote / n : 0;
		for (unsigned i = 0; ignored && i < r->nbox_wrote; i++) {
			uint64_t v;
			struct stat_saved *s = &r->saved[r->box_wrote[i]];
			if (per ? ignored >> (i / per) & 1 : ((st = rd(r, k, s->reg, &v)) == UNC_OK && v != s->now))
				s->dirty = false;
			else if (st)
				return st;
		}
		if (ignored)
			sp->ctr_ignored |= 1u << u;
	}
	return UNC_OK;
}

/* Step 4 for one fixed unit: start its counters that have an event (their
 * controls count nothing while frozen), each through its own control, read
 * back the first time, or through the driver's fixed_start where they
 * share one register. */
UNC_COLD static enum unc_status start_fixed(struct stat_run *r, unsigned k, unsigned u)
{
	struct stat_pmu *sp = &r->pmu[k];
	const struct pmu_driver *drv = sp->p.drv;
	const struct pmu_unit *pu = &drv->units[u];
	struct pmu_io io = io_of(r, k);
	uint8_t mask = 0;
	enum unc_status st;

	for (unsigned i = 0; i < r->c.nev; i++)
		if (r->pmu_of[i] == k && r->spec[i].unit == u)
			mask |= (uint8_t)(1u << r->counter[i]);
	for (unsigned b = 0; mask && b < sp->p.boxes[u]; b++) {
		if (drv->ops->fixed_start) {
			if ((st = drv->ops->fixed_start(&io, &sp->p, u, b, mask)))
				return st;
			continue;
		}
		for (unsigned c = 0; c < pmu_counters_of(pu, &sp->p, u); c++) {
			struct pmu_reg ctl = pmu_unit_sel(pu, &sp->p, u, b, c);
			uint64_t v = pu->fixed_ctrl | pu->fixed_run_bits;
			if ((mask >> c & 1) &&
			    ((st = wr(r, k, ctl, v, false)) || (r->verify && (st = check_reads(r, k, ctl, v)))))
				return st;
		}
	}
	return UNC_OK;
}

/* Whether a watched register is another package's (read in the sample's
 * trip there into r->watch_val, then checked by check_watched; those of
 * this processor's package are read as the others, compile_reads). */
bool watch_any_pkg;

UNC_COLD static void watch_reg(struct stat_run *r, struct pmu_reg reg)
{
	struct stat_saved *s = saved_of(r, reg);

	if (!s || !s->dirty)
		return;
	for (unsigned w = 0; w < r->nwatch; w++)
		if (&r->saved[r->watch[w]] == s)
			return; /* a control shared by several counters (sel_step 0) is read once */
	r->watch[r->nwatch++] = (unsigned)(s - r->saved);
}

/* What each sample checks: the select of every counter with an event in
 * the active group, and the control of every fixed counter in use, in
 * each box. Not the selects the run set to 0 (a counter it does not read)
 * nor the global registers (the drivers' check reads those). */
UNC_COLD static void watch_group(struct stat_run *r)
{
	r->nwatch = 0;
	watch_any_pkg = false;
	for (unsigned i = 0; i < r->c.nev; i++) {
		unsigned k = r->pmu_of[i], u = r->spec[i].unit;
		const struct stat_pmu *sp = &r->pmu[k];
		if (is_free(r, i) || !in_group(r, i, r->group))
			continue;
		for (unsigned b = 0; b < sp->p.boxes[u]; b++)
			watch_reg(r, pmu_unit_sel(unit_of(r, i), &sp->p, u, b, r->counter[i]));
	}
	for (unsigned w = 0; w < r->nwatch; w++)
		watch_any_pkg |= reg_remote(r->hw, r->saved[r->watch[w]].reg);
}

/* Where the run's counts start: what the first group's counters and the
 * free-running ones read now, with the clock read as a sample reads it, so
 * that a delay after the unfreeze (a preempted vCPU) is not counted without
 * its time, and a short run has a long run's edges. */
/* An edge: the active group's counters and the free-running ones read as
 * the run's first and last reads are (STAT_EDGE_READS), each box's start
 * taken from it, its offset too (edge_begin); *ret_now the clock read
 * before it. */
UNC_COLD enum unc_status edge_read(struct stat_run *r, uint64_t *ret_now)
{
	uint64_t after;
	bool programmed;

	r->edge = true;
	enum unc_status st = read_group(r, true, ret_now, &after, &programmed);

	r->edge = false;
	if (st)
		return st;
	for (unsigned i = 0; i < r->c.nev; i++) {
		if (!in_group(r, i, r->group) || is_free(r, i))
			continue;
		for (unsigned b = 0; b < r->pmu[r->pmu_of[i]].p.boxes[r->spec[i].unit]; b++)
			r->last[i][b] = r->val[i][b];
	}
	edge_begin(r, *ret_now); /* each box's offset from it (stat_sample.c) */
	return UNC_OK;
}

UNC_COLD static enum unc_status start_edge(struct stat_run *r)
{
	uint64_t now;
	enum unc_status st = edge_read(r, &now);

	if (st)
		return st;
	for (unsigned j = 0; j < r->nfree; j++)
		r->free_last[j] = r->free_val[j];
	r->t_sample = now;
	return UNC_OK;
}

/* The sequence, for group g: freeze, then for each unit in use its event
 * selects, its counters zeroed and its fixed counters started, then clear
 * the overflow status and unfreeze. The client manual gives the registers
 * but no order: this one follows the Xeon E5-2600 uncore guide's
 * freeze/program/reset/unfreeze and Linux's uncore drivers. */
UNC_COLD enum unc_status program(struct stat_run *r, unsigned g)
{
	enum unc_status st;

	/* 1. Freeze. */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if (!sp->programs)
			continue;
		sp->s.first = r->verify;
		if ((st = sp->p.drv->ops->freeze(&io, &sp->p, &sp->s)))
			return st;
	}
	r->counting = false;
	/* 2 to 4, unit by unit. */
	for (unsigned k = 0; k < r->npmu; k++) {
		const struct stat_pmu *sp = &r->pmu[k];
		for (unsigned u = 0; u < sp->p.drv->nunits; u++) {
			uint8_t kind = sp->p.drv->units[u].kind;
			if (kind == PMU_FREE || !(sp->used & 1u << u))
				continue;
			if ((kind == PMU_GENERAL && (st = program_selects(r, g, k, u))) || (st = reset_counters(r, k, u)) ||
			    (kind == PMU_FIXED && (st = start_fixed(r, k, u))))
				return st;
		}
	}
	/* 5. Clear the overflow status. */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if (sp->programs && sp->p.drv->ops->clear_status &&
		    (st = sp->p.drv->ops->clear_status(&io, &sp->p, &sp->s, status_bits(sp->p.drv))))
			return st;
		r->wrapped_prev[k] = 0;
	}
	/* Where each counter starts is not taken here: the read that follows
	 * every programming (start_edge for the first group, slice_start after
	 * a rotation) gives each box's start, whatever the run wrote (a unit
	 * it does not write counts on from where it was). */
	r->group = g;
	/* 6. Unfreeze. */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if (sp->programs && (st = sp->p.drv->ops->unfreeze(&io, &sp->p, &sp->s, r->verify)))
			return st;
	}
	r->counting = true;
	r->verify = false;
	watch_group(r);
	compile_reads(r);
	/* A rotation's counts start after the unfreeze (the run's first start
	 * is read as a sample: start_free). */
	r->t_sample = hw_ticks(r->hw);
	return UNC_OK;
}

struct busy_fault {
	struct pmu_reg reg;
	bool any;
};

UNC_COLD static void note_busy_fault(void *ctx, struct pmu_reg reg)
{
	struct busy_fault *f = ctx;

	if (!f->any)
		f->reg = reg;
	f->any = true;
}

/* Lists the free-running counters in the order read_free_all reads them. */
UNC_COLD static void free_list(struct stat_run *r)
{
	r->nfree = r->nfree_mmio = r->free_slow = 0;
	for (int batch = 1; batch >= 0; batch--)
		for (unsigned i = 0; i < r->c.nev; i++) {
			if (!is_free(r, i))
				continue;
			struct pmu_reg reg = r->free_reg[i];
			bool one_load = reg.space == PMU_MMIO && r->c.ev[i].v.width == 32 && !(reg.addr & 3) &&
					hw_has_mmio_read32_n(r->hw);
			if (one_load != batch)
				continue;
			r->free_ev[r->nfree] = (uint8_t)i;
			r->free_phys[r->nfree] = reg.addr;
			r->free_last[r->nfree] = 0;
			r->free_mask[r->nfree] = pmu_width_mask(r->c.ev[i].v.width);
			r->free_half[r->nfree] = r->free_mask[r->nfree] >> 1;
			r->free_e[r->nfree++] = &r->c.ev[i];
			r->nfree_mmio += batch;
			r->free_slow += !r->c.ev[i].moved[0] + !batch;
		}
	if (r->nfree) /* a sample of them too is sample_all's (compile_fast) */
		r->reads->fast = false, r->reads->sample = r->free_only ? sample_free_only : sample_slow;
}

/* The free-running counters run freely: their values at the start are the
 * base, read with the programmed ones (start_edge). */
UNC_COLD static enum unc_status start_free(struct stat_run *r)
{
	enum unc_status st;

	for (unsigned i = 0; i < r->c.nev; i++)
		if (is_free(r, i))
			r->free_reg[i] = pmu_unit_ctr(unit_of(r, i), &r->pmu[r->pmu_of[i]].p, r->spec[i].unit, 0, r->spec[i].free);
	free_list(r);
	r->counting = true;
	if ((st = start_edge(r)))
		return restore(r, st);
	r->c.t_start = r->c.t_mark = r->c.t_end = r->t_sample;
	return UNC_OK;
}

UNC_COLD enum unc_status stat_start(struct stat_run *r, const struct hw *hw, bool force)
{
	char what[96];
	enum unc_status st;

	r->hw = hw;
	r->read_slack = hw->tick_hz / 50000; /* 20 us */
	r->read_span = r->read_best_known ? 3 * r->read_best + r->read_slack + 1 : 0;
	r->nsaved = 0;
	r->nwatch = 0;
	r->restore_note[0] = '\0';
	r->restore_more = 0;
	r->write_note[0] = '\0';
	for (unsigned k = 0; k < r->npmu; k++)
		r->pmu[k].ctr_ignored = 0;
	r->c.rotations = 0;
	r->any_in_use = false;
	count_zero(&r->c);
	r->free_only = !stat_programs(r);
	if (r->free_only)
		return (st = box_slots(r)) ? st : start_free(r);
	batch_clear();
	if ((st = check_pkgs(r)))
		return st; /* nothing read */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct busy_fault f = { .any = false };
		if (!sp->programs || !sp->p.drv->ops->in_use)
			continue;
		sp->p.drv->ops->in_use(hw, &sp->p, &sp->use, note_busy_fault, &f);
		if (!sp->use.known && f.any)
			return fail(r, UNC_E_FAULT, "%s %s faulted while checking whether the PMU is in use",
				    op_name(f.reg, false), addr_text(r, k, f.reg, what, sizeof(what)));
		if (!sp->use.known)
			return fail(r, UNC_E_FAULT, "driver %s could not tell whether its %s is in use", sp->p.drv->name,
				    sp->p.drv->what);
		if (sp->use.in_use && !force) {
			char name[48];
			return fail(r, UNC_E_BUSY, "the %s is in use (%s = 0x%lx); --force takes it over and restores it",
				    sp->p.drv->what, pmu_reg_name(sp->p.drv, &sp->p, sp->use.busy[0].reg, name, sizeof(name)),
				    (unsigned long)sp->use.busy[0].value);
		}
		r->any_in_use |= sp->use.in_use;
	}
	r->verify = true;
	if ((st = box_slots(r)))
		return st; /* nothing written */
	if ((st = snapshot(r)))
		return st; /* nothing written */
	if ((st = program(r, 0)))
		return restore(r, st);
	return start_free(r);
}

UNC_COLD enum unc_status stat_stop(struct stat_run *r, enum unc_status so_far)
{
	enum unc_status st = so_far;

	r->edge = r->edge_last = true; /* the run's last read: it decides the totals' end */
	if (st == UNC_OK)
		st = stat_sample(r);
	r->edge = r->edge_last = false;
	return restore(r, st);
}
