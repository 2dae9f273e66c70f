/* The engine's journal: every register the run may write, read as found
 * before any write (snapshot), each write through it (wr), and the
 * restore that puts back what was written on every exit path; the pool
 * block that holds it with the sampling path's values (box_slots). */
#include "stat_int.h"

#include <string.h>

#include "../base/fmt.h"
#include "../base/pool.h"

struct stat_saved *saved_of(struct stat_run *r, struct pmu_reg reg)
{
	for (unsigned i = 0; i < r->nsaved; i++)
		if (pmu_reg_eq(r->saved[i].reg, reg))
			return &r->saved[i];
	return NULL;
}

/* The journal: a register's value as found, read before its first write
 * (snapshot() reads all the run will write before any write). A register
 * that cannot be read is not written. */
enum unc_status save(struct stat_run *r, unsigned k, struct pmu_reg reg, bool counter, struct stat_saved **ret)
{
	uint64_t old;
	enum unc_status st;

	if ((*ret = saved_of(r, reg)))
		return UNC_OK;
	if (r->nsaved == r->saved_room)
		return fail(r, UNC_E_INVALID, "the run would write more than the %u registers its journal was sized for "
					      "(twice those of its units' boxes, and 16)", r->saved_room);
	if ((st = rd(r, k, reg, &old)))
		return st;
	*ret = &r->saved[r->nsaved++];
	**ret = (struct stat_saved){ .reg = reg, .pmu = (uint8_t)k, .value = old, .counter = counter };
	return UNC_OK;
}

enum unc_status wr(struct stat_run *r, unsigned k, struct pmu_reg reg, uint64_t v, bool counter)
{
	char what[96];
	struct stat_saved *s;
	enum unc_status st;

	if ((st = save(r, k, reg, counter, &s)))
		return st;
	st = raw_write(r->hw, reg, v);
	if (st)
		return fail(r, st, "%s %s value 0x%lx: %s", op_name(reg, true), addr_text(r, k, reg, what, sizeof(what)),
			    (unsigned long)v, unc_strerror(st));
	s->dirty = true;
	s->now = v;
	if (r->tracking && r->nbox_wrote < sizeof(r->box_wrote) / sizeof(r->box_wrote[0]))
		r->box_wrote[r->nbox_wrote++] = (uint16_t)(s - r->saved);
	return UNC_OK;
}

/* Whether the run changed a register of driver k. A freeze writes through
 * the journal, so until then the driver's freeze has not succeeded: its
 * control faulted on write or was never reached, it is not counting for
 * this run, and its state (what to stop it with) is not known. */
UNC_COLD static bool changed_any(const struct stat_run *r, unsigned k)
{
	for (unsigned i = 0; i < r->nsaved; i++)
		if (r->saved[i].pmu == k && r->saved[i].dirty)
			return true;
	return false;
}

/* The run's pool block of stat_start (box_slots): the sampling path's
 * values and the journal, kept after the run (its journal says what was
 * restored) until the next start or stat_free. */
UNC_COLD static void drop_slots(struct stat_run *r)
{
	unc_free(r->box_mem);
	r->box_mem = NULL;
	r->box_slots = 0;
	for (unsigned i = 0; i < STAT_MAX_EVENTS; i++)
		r->last[i] = r->val[i] = r->kept[i] = NULL;
	r->edge_t = r->edge_tk = r->edge_off = r->edge_tot = NULL;
	r->saved = NULL; /* in the same block */
	r->watch = NULL;
	r->watch_val = NULL;
	r->reads = NULL;
	r->saved_room = r->nsaved = r->nwatch = 0;
}

/* Stops counting, then puts back every register written, in the reverse
 * order of the journal: the snapshot read each driver's global registers
 * first, so a global control goes back last. Registers never written are left alone: a register that faulted on
 * write did not change, and a PMU the run never changed is not stopped. */
UNC_COLD enum unc_status restore(struct stat_run *r, enum unc_status st)
{
	char what[96];
	enum unc_status rst = UNC_OK;
	int bad = -1;
	unsigned nbad = 0;

	if (r->nsaved == 0) {
		r->counting = false;
		return st;
	}
	/* Each PMU the run wrote to is frozen first (a PMU it never reached
	 * is not written at all). */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		char keep[sizeof(r->err)];
		if (!sp->programs || !changed_any(r, k))
			continue;
		memcpy(keep, r->err, sizeof(keep));
		sp->s.first = false;
		if (sp->p.drv->ops->freeze(&io, &sp->p, &sp->s))
			rst = UNC_E_FAULT;
		memcpy(r->err, keep, sizeof(keep));
	}
	for (unsigned i = r->nsaved; i-- > 0;) {
		struct stat_saved *s = &r->saved[i];
		if (!s->dirty)
			continue;
		if (raw_write(r->hw, s->reg, s->value)) {
			if (bad < 0)
				bad = (int)i;
			nbad++;
			rst = UNC_E_FAULT;
			continue;
		}
		s->dirty = false;
		/* Read back: a register may not take the whole value (a P6 or
		 * architectural counter takes bits 31:0, sign-extended). Said,
		 * never hidden: every one is named (those beyond the note's
		 * room are counted). */
		uint64_t v;
		char line[200];
		size_t n = strlen(r->restore_note);
		if (raw_read(r->hw, s->reg, &v) != UNC_OK || v == s->value)
			continue;
		fmt_snprintf(line, sizeof(line),
			     "%s was 0x%lx before the run and reads 0x%lx after it was put back: the register does not "
			     "take the whole value",
			     reg_text(r, s->pmu, s->reg, what, sizeof(what)), (unsigned long)s->value, (unsigned long)v);
		if (n + 1 + strlen(line) < sizeof(r->restore_note))
			fmt_snprintf(r->restore_note + n, sizeof(r->restore_note) - n, "%s%s", n ? "\n" : "", line);
		else
			r->restore_more++;
	}
	r->counting = false;
	if (rst == UNC_OK)
		return st;
	/* bad < 0: every register went back, but a PMU could not be stopped first */
	char which[140];
	if (bad < 0)
		fmt_snprintf(which, sizeof(which), "the PMU's stopped state (its freeze failed)");
	else
		fmt_snprintf(which, sizeof(which), "%s%s", addr_text(r, r->saved[bad].pmu, r->saved[bad].reg, what, sizeof(what)),
			     nbad > 1 ? " and other registers" : "");
	if (nbad > 1) {
		size_t n = strlen(which);
		fmt_snprintf(which + n, sizeof(which) - n, " (%u in all)", nbad);
	}
	if (st == UNC_OK)
		return fail(r, rst, "cannot restore %s", which);
	size_t n = strlen(r->err);
	fmt_snprintf(r->err + n, sizeof(r->err) - n, "; restoring %s failed too", which);
	return st;
}

UNC_COLD enum unc_status stat_put_back(struct stat_run *r)
{
	return restore(r, UNC_OK);
}

/* Before anything is written: every register the run may write is read,
 * each driver's global registers and the selects and counters of every
 * unit it uses, so that one that does not exist (#GP) stops the run before
 * any write, and the journal holds them all as found. */
UNC_COLD enum unc_status snapshot(struct stat_run *r)
{
	struct stat_saved *s;
	enum unc_status st;

	for (unsigned k = 0; k < r->npmu; k++) {
		const struct stat_pmu *sp = &r->pmu[k];
		const struct pmu_driver *drv = sp->p.drv;
		if (!sp->programs)
			continue;
		for (unsigned g = 0; g < drv->nglobals; g++)
			if (!(sp->p.globals_absent >> g & 1) && (st = save(r, k, drv->globals[g], false, &s)))
				return st;
		for (unsigned u = 0; u < drv->nunits; u++) {
			const struct pmu_unit *pu = &drv->units[u];
			if (pu->kind == PMU_FREE || !(sp->used & 1u << u))
				continue;
			for (unsigned b = 0; (pu->box_ctl || pu->probe_addr) && b < sp->p.boxes[u]; b++)
				if ((st = save(r, k, pmu_unit_box_ctl(pu, &sp->p, u, b), false, &s)))
					return st;
			for (unsigned b = 0; b < sp->p.boxes[u]; b++)
				for (unsigned c = 0; c < pmu_counters_of(pu, &sp->p, u); c++)
					if ((st = save(r, k, pmu_unit_sel(pu, &sp->p, u, b, c), false, &s)) ||
					    (!drv->ops->read_counter &&
					     (st = save(r, k, pmu_unit_ctr(pu, &sp->p, u, b, c), true, &s))))
						return st;
		}
	}
	return UNC_OK;
}

/* The per-box values of the sampling path (last, val, kept; edge_t,
 * edge_tk, edge_off, edge_tot), from the pool: for each event as many
 * slots as its unit has boxes (one for a free-running counter), in seven
 * blocks of box_slots, one allocation. */
UNC_COLD enum unc_status box_slots(struct stat_run *r)
{
	size_t n = 0;

	drop_slots(r);
	for (unsigned i = 0; i < r->c.nev; i++) {
		unsigned boxes = r->pmu[r->pmu_of[i]].p.boxes[r->spec[i].unit];
		n += is_free(r, i) || !boxes ? 1 : boxes;
	}
	r->box_slots = n ? n : 1;
	/* The journal: every register the snapshot reads (each driver's
	 * globals, each box's control, selects and counters of the units in
	 * use), twice over for what ops write beside them (a counter's high
	 * dword), and 16. */
	size_t regs = 16;
	for (unsigned k = 0; k < r->npmu; k++) {
		const struct stat_pmu *sp = &r->pmu[k];
		if (!sp->programs)
			continue;
		regs += 2 * sp->p.drv->nglobals;
		for (unsigned u = 0; u < sp->p.drv->nunits; u++) {
			const struct pmu_unit *pu = &sp->p.drv->units[u];
			if (pu->kind != PMU_FREE && (sp->used & 1u << u))
				regs += 2 * (size_t)sp->p.boxes[u] * (1 + 2 * pmu_counters_of(pu, &sp->p, u));
		}
	}
	/* and a sample's compiled reads: one per counter slot, one per
	 * register it may watch (all 8-byte multiples, like the values) */
	size_t nmsr = 2 * STAT_MAX_PMUS + regs + r->box_slots; /* stat_reads' msr, msr_val and cmp */
	size_t npci = regs + 3 * (size_t)r->box_slots;        /* its pci and pci_val */
	size_t bytes = (7 * r->box_slots + regs + 4 * nmsr) * sizeof(uint64_t) + sizeof(struct stat_reads) +
		       r->box_slots * (sizeof(struct stat_rd) + sizeof(struct stat_fev)) +
		       regs * (sizeof(struct stat_wt) + sizeof(struct stat_saved) + sizeof(unsigned)) +
		       nmsr * sizeof(uint32_t) + npci * (sizeof(uint32_t) + sizeof(struct pci_dword)) +
		       regs * sizeof(uint32_t);
	if (!(r->box_mem = unc_alloc(bytes)))
		return fail(r, UNC_E_NO_MEMORY, "no memory for the values of %lu counters and a journal of %lu registers",
			    (unsigned long)r->box_slots, (unsigned long)regs);
	r->edge_t = r->box_mem + 3 * r->box_slots, r->edge_tk = r->edge_t + r->box_slots;
	r->edge_off = r->edge_tk + r->box_slots, r->edge_tot = r->edge_off + r->box_slots;
	r->watch_val = r->box_mem + 7 * r->box_slots;
	r->reads = (struct stat_reads *)(void *)(r->watch_val + regs + 4 * nmsr);
	*r->reads = (struct stat_reads){ .rd = (struct stat_rd *)(void *)(r->reads + 1), .msr_val = r->watch_val + regs,
					 .sample = sample_slow };
	r->reads->fev = (struct stat_fev *)(void *)(r->reads->rd + r->box_slots);
	r->reads->wt = (struct stat_wt *)(void *)(r->reads->fev + r->box_slots);
	r->saved = (struct stat_saved *)(void *)(r->reads->wt + regs);
	r->watch = (unsigned *)(void *)(r->saved + regs);
	r->reads->msr = (uint32_t *)(void *)(r->watch + regs);
	r->reads->pci_val = r->reads->msr + nmsr;
	r->reads->cmp = (struct stat_cmp *)(void *)(r->watch_val + regs + nmsr); /* 3 words each */
	r->reads->pwant = r->reads->pci_val + npci;
	r->reads->pci = (struct pci_dword *)(void *)(r->reads->pwant + regs);
	r->saved_room = (unsigned)regs;
	r->nsaved = r->nwatch = 0;
	uint64_t *m = r->box_mem;
	for (unsigned i = 0; i < r->c.nev; i++) {
		unsigned boxes = r->pmu[r->pmu_of[i]].p.boxes[r->spec[i].unit];
		r->last[i] = m, r->val[i] = m + r->box_slots, r->kept[i] = m + 2 * r->box_slots;
		m += is_free(r, i) || !boxes ? 1 : boxes;
	}
	if (!r->c.nev)
		r->last[0] = r->val[0] = r->kept[0] = r->box_mem;
	return UNC_OK;
}

UNC_COLD void stat_free(struct stat_run *r)
{
	drop_slots(r);
	count_free(&r->c);
	for (unsigned k = 0; k < STAT_MAX_PMUS; k++)
		pmu_present_free(&r->pmu[k].p);
}
