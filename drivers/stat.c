/* Section and table numbers are Intel 334060-001's. */
#include "stat.h"

#include <string.h>

#include "arith.h"
#include "fmt.h"
#include "imc.h"
#include "parse.h"

_Static_assert(STAT_MAX_BOXES <= 8, "stat_event.moved has one bit per box");

#define GSTATUS_ALL 0xBull /* Table 2-3: FIXED 0, ARB 1, CBO 3 (seeds README) */

static const uint64_t unit_status_bit[] = { [EV_UNIT_CBO] = 1ull << 3, [EV_UNIT_ARB] = 1ull << 1,
					    [EV_UNIT_FIXED] = 1ull << 0 };

/* What an event select is programmed with: the event's fields and OVF_EN,
 * so that a wrap shows in GLOBAL_STATUS (Table 2-7: without it "No PMI for
 * this counter will be generated" and the overflow is not forwarded). The
 * run clears every PMI select in GLOBAL_CTRL, so no core is interrupted. */
static uint64_t sel_value(const struct ev_spec *e)
{
	return evsel_encode(e) | UNC_CTRL_OVF_EN;
}

static const struct pmu_unit *unit_of(uint8_t ev_unit)
{
	static const unsigned map[] = { [EV_UNIT_CBO] = SKL_UNIT_CBO, [EV_UNIT_ARB] = SKL_UNIT_ARB,
					[EV_UNIT_FIXED] = SKL_UNIT_FIXED };

	return &skl_client_uncore.units[map[ev_unit]];
}

static unsigned boxes_of(const struct stat_run *r, uint8_t ev_unit)
{
	return ev_unit == EV_UNIT_CBO ? r->ncbo : 1;
}

static bool unit_used(const struct stat_run *r, uint8_t ev_unit)
{
	for (unsigned i = 0; i < r->nev; i++)
		if (r->ev[i].spec.unit == ev_unit)
			return true;
	return false;
}

/* Whether event i counts while group g is active. */
static bool in_group(const struct stat_run *r, unsigned i, unsigned g)
{
	uint8_t u = r->ev[i].spec.unit;

	return u == EV_UNIT_FIXED || u == EV_UNIT_IMC || r->ev[i].group == g;
}

bool stat_uses_msrs(const struct stat_run *r)
{
	for (unsigned i = 0; i < r->nev; i++)
		if (r->ev[i].spec.unit != EV_UNIT_IMC)
			return true;
	return false;
}

static enum unc_status fail(struct stat_run *r, enum unc_status st, const char *fmt, ...) UNC_PRINTF(3, 4);
static enum unc_status fail(struct stat_run *r, enum unc_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return st;
}

static const char *msr_name(uint32_t msr, char *buf, size_t size)
{
	const char *n = skl_msr_name(msr, buf, size);

	return n ? n : "?";
}

enum unc_status stat_add(struct stat_run *r, const struct ev_spec *e)
{
	/* By what it programs, not by how it is spelled: "cbo/event=0x34,umask=0x8f/"
	 * is UNC_CBO_CACHE_LOOKUP.ANY_MESI, and cbox/ is cbo/. */
	for (unsigned i = 0; i < r->nev; i++) {
		const struct ev_spec *old = &r->ev[i].spec;
		if (!evsel_same(old, e))
			continue;
		if (str_ieq(old->name, e->name))
			return fail(r, UNC_E_INVALID, "event '%s' is listed twice", e->name);
		return fail(r, UNC_E_INVALID, "event '%s' is listed twice: it is '%s' (same unit and encoding)", e->name,
			    old->name);
	}
	if (r->nev == STAT_MAX_EVENTS)
		return fail(r, UNC_E_INVALID, "too many events (at most %d)", STAT_MAX_EVENTS);
	r->ev[r->nev++] = (struct stat_event){ .spec = *e };
	return UNC_OK;
}

static unsigned popcount8(uint8_t v)
{
	unsigned n = 0;

	for (; v; v &= (uint8_t)(v - 1))
		n++;
	return n;
}

enum unc_status stat_schedule(struct stat_run *r, unsigned ncbo, bool allow_mux)
{
	uint8_t used[STAT_MAX_GROUPS][2] = { { 0 } }; /* [group][CBO or ARB]: counters taken */

	r->ncbo_found = ncbo;
	r->ncbo = ncbo > STAT_MAX_BOXES ? STAT_MAX_BOXES : ncbo;
	if (r->nev == 0)
		return fail(r, UNC_E_INVALID, "no events given");
	r->ngroups = 1;
	/* Events with a single allowed counter first, so that the flexible
	 * ones do not take it from them. */
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < r->nev; i++) {
			struct stat_event *e = &r->ev[i];
			if (e->spec.unit == EV_UNIT_FIXED || e->spec.unit == EV_UNIT_IMC ||
			    (popcount8(e->spec.counters) == 1) != (pass == 0))
				continue;
			if (e->spec.unit == EV_UNIT_CBO && r->ncbo == 0)
				return fail(r, UNC_E_UNSUPPORTED, "cannot count %s: MSR_UNC_CBO_CONFIG reports no CBo",
					    e->spec.name);
			unsigned g;
			for (g = 0; g < STAT_MAX_GROUPS; g++) {
				uint8_t free = e->spec.counters & (uint8_t)~used[g][e->spec.unit];
				if (!free)
					continue;
				e->counter = (uint8_t)(free & 1 ? 0 : 1);
				used[g][e->spec.unit] |= (uint8_t)(1u << e->counter);
				e->group = g;
				if (g + 1 > r->ngroups)
					r->ngroups = g + 1;
				break;
			}
			if (g == STAT_MAX_GROUPS)
				return fail(r, UNC_E_INVALID, "too many events to multiplex (at most %d rounds of counters)",
					    STAT_MAX_GROUPS);
		}
	}
	if (r->ngroups > 1 && !allow_mux)
		return fail(r, UNC_E_INVALID,
			    "the events need %u rounds of counters (CBo and ARB have 2 counters each, "
			    "ARB events 0x80 and 0x83 only counter 0); without --no-multiplex they take turns",
			    r->ngroups);
	return UNC_OK;
}

static struct stat_saved *saved_of(struct stat_run *r, uint32_t msr)
{
	for (unsigned i = 0; i < r->nsaved; i++)
		if (r->saved[i].msr == msr)
			return &r->saved[i];
	return NULL;
}

static enum unc_status wr(struct stat_run *r, uint32_t msr, uint64_t v)
{
	char name[40];
	enum unc_status st = hw_msr_write(r->hw, msr, v);

	if (st)
		return fail(r, st, "wrmsr 0x%x (%s) value 0x%lx: %s", msr, msr_name(msr, name, sizeof(name)),
			    (unsigned long)v, unc_strerror(st));
	struct stat_saved *s = saved_of(r, msr);
	if (s)
		s->dirty = true;
	return UNC_OK;
}

static enum unc_status rd(struct stat_run *r, uint32_t msr, uint64_t *v)
{
	char name[40];
	enum unc_status st = hw_msr_read(r->hw, msr, v);

	if (st)
		return fail(r, st, "rdmsr 0x%x (%s): %s", msr, msr_name(msr, name, sizeof(name)), unc_strerror(st));
	return UNC_OK;
}

/* Every register the run will write, in the order they are saved. */
static enum unc_status snapshot(struct stat_run *r)
{
	static const uint8_t units[] = { EV_UNIT_FIXED, EV_UNIT_ARB, EV_UNIT_CBO };
	enum unc_status st;

	r->nsaved = 0;
	r->saved[r->nsaved++] = (struct stat_saved){ .msr = MSR_UNC_PERF_GLOBAL_CTRL };
	for (unsigned u = 0; u < sizeof(units); u++) {
		if (!unit_used(r, units[u]))
			continue;
		const struct pmu_unit *pu = unit_of(units[u]);
		for (unsigned box = 0; box < boxes_of(r, units[u]); box++) {
			for (unsigned i = 0; i < pu->counters; i++) {
				r->saved[r->nsaved++] = (struct stat_saved){ .msr = pmu_unit_sel(pu, box, i) };
				r->saved[r->nsaved++] = (struct stat_saved){ .msr = pmu_unit_ctr(pu, box, i), .counter = true };
			}
		}
	}
	for (unsigned i = 0; i < r->nsaved; i++) {
		if ((st = rd(r, r->saved[i].msr, &r->saved[i].value)))
			return st;
	}
	if ((st = rd(r, MSR_UNC_PERF_GLOBAL_STATUS, &r->status_at_start)))
		return st;
	/* FRZ_ON_PMI, WAKE_ON_PMI and the PMI selects are cleared for the run
	 * (and restored with the rest): see SKL_GLOBAL_CTRL_RUN_CLEAR. */
	r->ctrl_base = r->saved[0].value & ~SKL_GLOBAL_CTRL_RUN_CLEAR;
	return UNC_OK;
}

/* Reads back the controls just programmed. Some platforms drop writes to
 * these MSRs without a fault (QEMU does; a locked PMU might): counting
 * there would report zeros as if they were measurements. */
static enum unc_status check_reads(struct stat_run *r, uint32_t msr, uint64_t want)
{
	char name[40];
	uint64_t v;
	enum unc_status st = rd(r, msr, &v);

	if (st)
		return st;
	if (v != want)
		return fail(r, UNC_E_DEVICE, "%s (0x%x) reads 0x%lx after writing 0x%lx: the uncore ignored the programming",
			    msr_name(msr, name, sizeof(name)), msr, (unsigned long)v, (unsigned long)want);
	return UNC_OK;
}

static enum unc_status verify(struct stat_run *r, unsigned g)
{
	enum unc_status st;

	if ((st = check_reads(r, MSR_UNC_PERF_GLOBAL_CTRL, r->ctrl_base | UNC_GLOBAL_CTRL_EN)))
		return st;
	for (unsigned i = 0; i < r->nev; i++) {
		const struct stat_event *e = &r->ev[i];
		if (!in_group(r, i, g) || e->spec.unit == EV_UNIT_IMC)
			continue;
		const struct pmu_unit *pu = unit_of(e->spec.unit);
		for (unsigned b = 0; b < boxes_of(r, e->spec.unit); b++)
			if ((st = check_reads(r, pmu_unit_sel(pu, b, e->counter), sel_value(&e->spec))))
				return st;
	}
	return UNC_OK;
}

/* The programming sequence (README), steps 2 to 7, for group g. The manual
 * gives the registers but no order: this order is a design choice after the
 * Xeon E5-2600 uncore guide's freeze/program/reset/unfreeze, with
 * GLOBAL_CTRL.EN as the freeze, and after Linux's uncore_snb.c (EN in
 * MSR_UNC_PERF_GLOBAL_CTRL and in each event select). */
static enum unc_status program(struct stat_run *r, unsigned g)
{
	static const uint8_t units[] = { EV_UNIT_ARB, EV_UNIT_CBO };
	enum unc_status st;

	/* 2. Clear the global enable, the freeze and the PMI routing. */
	if ((st = wr(r, MSR_UNC_PERF_GLOBAL_CTRL, r->ctrl_base)))
		return st;
	r->counting = false;
	/* 3. Event selects: this group's events, zero on the other counters. */
	for (unsigned u = 0; u < sizeof(units); u++) {
		if (!unit_used(r, units[u]))
			continue;
		const struct pmu_unit *pu = unit_of(units[u]);
		for (unsigned i = 0; i < pu->counters; i++) {
			uint64_t sel = 0;
			for (unsigned e = 0; e < r->nev; e++)
				if (r->ev[e].spec.unit == units[u] && r->ev[e].group == g && r->ev[e].counter == i)
					sel = sel_value(&r->ev[e].spec);
			for (unsigned box = 0; box < boxes_of(r, units[u]); box++)
				if ((st = wr(r, pmu_unit_sel(pu, box, i), sel)))
					return st;
		}
	}
	/* 4. Zero the counters. The first time, read them back: with EN clear
	 * they stand still, so anything but 0 is a counter that ignores
	 * writes, whose first sample would count its old value as events. */
	for (unsigned s = 0; s < r->nsaved; s++)
		if (r->saved[s].counter && (st = wr(r, r->saved[s].msr, 0)))
			return st;
	for (unsigned s = 0; r->rotations == 0 && s < r->nsaved; s++) {
		uint64_t v;
		char name[40];
		if (!r->saved[s].counter)
			continue;
		if ((st = rd(r, r->saved[s].msr, &v)))
			return st;
		if (v)
			return fail(r, UNC_E_STUCK, "%s (0x%x) reads 0x%lx after writing 0 with counting stopped: the counter "
						    "ignores writes (stuck)",
				    msr_name(r->saved[s].msr, name, sizeof(name)), r->saved[s].msr, (unsigned long)v);
	}
	/* 5. Enable the fixed counter. */
	if (unit_used(r, EV_UNIT_FIXED) && (st = wr(r, MSR_UNC_PERF_FIXED_CTRL, UNC_CTRL_EN | UNC_CTRL_OVF_EN)))
		return st;
	/* 6. Clear the overflow status (RW1C). */
	if ((st = wr(r, MSR_UNC_PERF_GLOBAL_STATUS, GSTATUS_ALL)))
		return st;
	for (unsigned i = 0; i < r->nev; i++) /* the IMC counters are never zeroed */
		if (r->ev[i].spec.unit != EV_UNIT_IMC)
			memset(r->last[i], 0, sizeof(r->last[i]));
	r->group = g;
	/* 7. Set the global enable. */
	if ((st = wr(r, MSR_UNC_PERF_GLOBAL_CTRL, r->ctrl_base | UNC_GLOBAL_CTRL_EN)))
		return st;
	r->counting = true;
	/* Once is enough: a PMU that took the first programming takes the
	 * rotations too, and the sampling path stays lean. */
	if (r->rotations == 0 && (st = verify(r, g)))
		return st;
	r->t_sample = hw_ticks(r->hw);
	return UNC_OK;
}

static enum unc_status restore(struct stat_run *r, enum unc_status st)
{
	struct stat_saved *ctrl = &r->saved[0];
	char name[40];
	enum unc_status rst = UNC_OK;
	uint32_t bad = 0;

	if (r->nsaved == 0) {
		r->counting = false;
		return st;
	}
	/* Stop counting first, then put every register we wrote back, the
	 * global control last. Registers never written are left alone: a
	 * register that faulted on write did not change. */
	if (ctrl->dirty && hw_msr_write(r->hw, ctrl->msr, ctrl->value & ~UNC_GLOBAL_CTRL_EN)) {
		rst = UNC_E_FAULT;
		bad = ctrl->msr;
	}
	for (unsigned i = r->nsaved; i-- > 0;) {
		struct stat_saved *s = &r->saved[i];
		if (!s->dirty)
			continue;
		if (hw_msr_write(r->hw, s->msr, s->value)) {
			if (!bad)
				bad = s->msr;
			rst = UNC_E_FAULT;
		} else {
			s->dirty = false;
		}
	}
	r->counting = false;
	if (rst == UNC_OK)
		return st;
	if (st == UNC_OK)
		return fail(r, rst, "cannot restore 0x%x (%s)", bad, msr_name(bad, name, sizeof(name)));
	size_t n = 0;
	while (r->err[n])
		n++;
	fmt_snprintf(r->err + n, sizeof(r->err) - n, "; restoring 0x%x failed too", bad);
	return st;
}

static void note_busy_fault(void *ctx, uint32_t msr)
{
	uint32_t *first = ctx;

	if (!*first)
		*first = msr;
}

/* The IMC counters run freely: their values at the start are the base. */
static enum unc_status read_imc(struct stat_run *r, unsigned i, uint32_t *v)
{
	const struct skl_imc_counter *c = &skl_imc[r->ev[i].spec.imc];
	enum unc_status st = hw_mmio_read32(r->hw, r->imc_base + c->offset, v);

	if (st)
		return fail(r, st, "MMIO read of %s at 0x%lx: %s", c->name, (unsigned long)(r->imc_base + c->offset),
			    unc_strerror(st));
	return UNC_OK;
}

static enum unc_status start_imc(struct stat_run *r)
{
	uint32_t v;
	enum unc_status st;

	for (unsigned i = 0; i < r->nev; i++) {
		if (r->ev[i].spec.unit != EV_UNIT_IMC)
			continue;
		if ((st = read_imc(r, i, &v)))
			return restore(r, st);
		r->last[i][0] = v;
	}
	if (!stat_uses_msrs(r)) {
		r->counting = true;
		r->t_sample = hw_ticks(r->hw);
	}
	r->t_start = r->t_mark = r->t_end = r->t_sample;
	return UNC_OK;
}

enum unc_status stat_start(struct stat_run *r, const struct hw *hw, bool force)
{
	char name[40];
	uint32_t faulted = 0;
	enum unc_status st;

	r->hw = hw;
	r->nsaved = 0;
	r->rotations = 0;
	for (unsigned i = 0; i < r->nev; i++) {
		r->ev[i].total = r->ev[i].mark = (struct stat_counts){ 0 };
		r->ev[i].moved = false;
	}
	if (!stat_uses_msrs(r))
		return start_imc(r);
	skl_check_in_use(hw, r->ncbo, true, &r->use, note_busy_fault, &faulted);
	if (!r->use.known)
		return fail(r, UNC_E_FAULT, "rdmsr 0x%x (%s) faulted while checking whether the PMU is in use", faulted,
			    msr_name(faulted, name, sizeof(name)));
	if (r->use.in_use && !force)
		return fail(r, UNC_E_BUSY, "the uncore PMU is in use (%s = 0x%lx); --force takes it over and restores it",
			    msr_name(r->use.busy[0].msr, name, sizeof(name)), (unsigned long)r->use.busy[0].value);
	/* 1. Snapshot every MSR the run will touch. */
	if ((st = snapshot(r)))
		return st;
	if ((st = program(r, 0)))
		return restore(r, st);
	return start_imc(r);
}

/* The largest step a counter of unit pu can make from the last sample
 * (t_sample, taken before that sample's reads) to now (taken after this
 * sample's reads), at the unit's fastest rate. The 10 ms of slack covers
 * the moments between enabling a group and its first t_sample. When that
 * reaches the counter's whole range, no step can be told from a wrap or a
 * write: the samples came too far apart (a starved timer), and that is an
 * error of its own. */
static enum unc_status step_limit(struct stat_run *r, uint8_t ev_unit, uint64_t now, uint64_t *ret)
{
	const struct pmu_unit *pu = unit_of(ev_unit);
	uint64_t hz = r->hw->tick_hz, gap = now - r->t_sample;
	char ms[24];

	*ret = hz ? u64_muldiv(pu->max_per_sec, gap + hz / 100, hz) : UINT64_MAX;
	if (*ret < pmu_unit_ctr_mask(pu))
		return UNC_OK;
	fmt_fixed(ms, sizeof(ms), gap, hz / 1000, 1);
	return fail(r, UNC_E_OVERFLOW,
		    "the %s counters were not sampled for %s ms: at up to %lu per second a %u-bit counter can wrap "
		    "unseen in that time, so no count can be vouched for",
		    pu->name, ms, (unsigned long)pu->max_per_sec, pu->width);
}

enum unc_status stat_sample(struct stat_run *r)
{
	uint64_t status, gctrl = 0, wrapped = 0;
	uint64_t val[STAT_MAX_EVENTS][STAT_MAX_BOXES];
	bool msrs = false;
	enum unc_status st;

	if (!r->counting)
		return UNC_OK;
	/* GLOBAL_STATUS first, then the counters: a wrap the status shows has
	 * happened by the time the counters are read (see below). */
	status = 0;
	bool uses_msrs = stat_uses_msrs(r); /* once: the sampling path stays lean */
	if (uses_msrs && ((st = rd(r, MSR_UNC_PERF_GLOBAL_STATUS, &status)) ||
				  (st = rd(r, MSR_UNC_PERF_GLOBAL_CTRL, &gctrl))))
		return st;
	uint64_t now = hw_ticks(r->hw);
	for (unsigned i = 0; i < r->nev; i++) {
		struct stat_event *e = &r->ev[i];
		if (!in_group(r, i, r->group))
			continue;
		if (e->spec.unit == EV_UNIT_IMC) {
			uint32_t v;
			if ((st = read_imc(r, i, &v)))
				return st;
			/* One 32-bit counter, sampled at least every few hundred
			 * milliseconds: a step of 2^31 lines or more (1.37 TB/s over
			 * 100 ms) cannot happen, so it means the counter went back. */
			uint32_t d = v - (uint32_t)r->last[i][0];
			if (d >= IMC_MAX_STEP)
				return fail(r, UNC_E_DEVICE,
					    "%s went from 0x%08x to 0x%08x: it ran backwards (or moved 2^31 lines or more "
					    "between two samples)",
					    skl_imc[e->spec.imc].name, (uint32_t)r->last[i][0], v);
			e->total.box[0] += d;
			e->moved |= d != 0;
			r->last[i][0] = v;
			e->total.running += now - r->t_sample;
			continue;
		}
		const struct pmu_unit *pu = unit_of(e->spec.unit);
		for (unsigned b = 0; b < boxes_of(r, e->spec.unit); b++)
			if ((st = rd(r, pmu_unit_ctr(pu, b, e->counter), &val[i][b])))
				return st;
		msrs = true;
	}
	/* Every MSR counter is judged before any of their totals moves (the
	 * IMC's are already counted: a failed run reports nothing anyway). */
	uint64_t after = msrs ? hw_ticks(r->hw) : now, limit[EV_UNIT_FIXED + 1];
	bool have_limit[EV_UNIT_FIXED + 1] = { false };
	for (unsigned i = 0; msrs && i < r->nev; i++) {
		const struct stat_event *e = &r->ev[i];
		if (!in_group(r, i, r->group) || e->spec.unit == EV_UNIT_IMC)
			continue;
		if (!have_limit[e->spec.unit]) { /* once per unit: u64_muldiv is not cheap */
			if ((st = step_limit(r, e->spec.unit, after, &limit[e->spec.unit])))
				return st;
			have_limit[e->spec.unit] = true;
		}
		const struct pmu_unit *pu = unit_of(e->spec.unit);
		for (unsigned b = 0; b < boxes_of(r, e->spec.unit); b++) {
			/* Deltas modulo the counter width (44 or 48 bits): a value below
			 * the last is a wrap only if the step fits the time. */
			uint64_t last = r->last[i][b], v = val[i][b], d = (v - last) & pmu_unit_ctr_mask(pu);
			if (d > limit[e->spec.unit]) {
				char name[40], ms[24];
				uint32_t msr = pmu_unit_ctr(pu, b, e->counter);
				fmt_fixed(ms, sizeof(ms), after - r->t_sample, r->hw->tick_hz / 1000, 1);
				return fail(r, UNC_E_CLOBBERED,
					    "%s (0x%x) went from 0x%lx to 0x%lx within %s ms: written by someone else "
					    "during the run (no wrap moves it that far)",
					    msr_name(msr, name, sizeof(name)), msr, (unsigned long)last, (unsigned long)v, ms);
			}
		}
	}
	/* GLOBAL_CTRL is what this run wrote, EN set: a PMU that stopped
	 * counting (frozen, or its EN cleared by someone else) would give
	 * short counts that look like measurements. */
	uint64_t want = r->ctrl_base | UNC_GLOBAL_CTRL_EN;
	if (uses_msrs && gctrl != want)
		return fail(r, UNC_E_CLOBBERED,
			    "MSR_UNC_PERF_GLOBAL_CTRL (0x%x) reads 0x%lx, not the 0x%lx this run wrote: %s during the run",
			    MSR_UNC_PERF_GLOBAL_CTRL, (unsigned long)gctrl, (unsigned long)want,
			    gctrl & UNC_GLOBAL_CTRL_EN ? "written by someone else"
						       : "EN (bit 29) is clear, so the uncore stopped counting (frozen, "
							 "or written by someone else)");
	for (unsigned i = 0; msrs && i < r->nev; i++) {
		struct stat_event *e = &r->ev[i];
		if (!in_group(r, i, r->group) || e->spec.unit == EV_UNIT_IMC)
			continue;
		const struct pmu_unit *pu = unit_of(e->spec.unit);
		for (unsigned b = 0; b < boxes_of(r, e->spec.unit); b++) {
			uint64_t v = val[i][b], d = (v - r->last[i][b]) & pmu_unit_ctr_mask(pu);
			if (v < r->last[i][b])
				wrapped |= unit_status_bit[e->spec.unit];
			if (d)
				e->moved |= (uint8_t)(1u << b);
			e->total.box[b] += d;
			r->last[i][b] = v;
		}
		e->total.running += now - r->t_sample;
	}
	r->t_sample = r->t_end = now;
	/* A unit's status bit must be explained by a counter of that unit
	 * going backwards, in this sample or (if it wrapped between the two
	 * reads of the last sample) the previous one. Otherwise a counter
	 * advanced by its whole width or more between two samples, and no
	 * delta can say by how much. */
	uint64_t unexplained = status & GSTATUS_ALL & ~(wrapped | r->wrapped_prev);
	r->wrapped_prev = wrapped;
	if (unexplained)
		return fail(r, UNC_E_OVERFLOW,
			    "MSR_UNC_PERF_GLOBAL_STATUS shows an overflow (0x%lx) that no counter value accounts for: "
			    "a counter advanced by its full width between two samples",
			    (unsigned long)unexplained);
	if ((status & GSTATUS_ALL) && (st = wr(r, MSR_UNC_PERF_GLOBAL_STATUS, status & GSTATUS_ALL)))
		return st;
	return UNC_OK;
}

enum unc_status stat_rotate(struct stat_run *r)
{
	enum unc_status st = stat_sample(r);

	if (st)
		return st;
	r->rotations++;
	return program(r, (r->group + 1) % r->ngroups);
}

enum unc_status stat_stop(struct stat_run *r, enum unc_status so_far)
{
	enum unc_status st = so_far;

	if (st == UNC_OK)
		st = stat_sample(r);
	return restore(r, st);
}

uint8_t stat_still(const struct stat_run *r, unsigned i)
{
	const struct stat_event *e = &r->ev[i];
	unsigned boxes = e->spec.unit == EV_UNIT_IMC ? 1 : boxes_of(r, e->spec.unit);

	if (e->total.running == 0)
		return 0;
	return (uint8_t)(((1u << boxes) - 1) & ~e->moved);
}

bool stat_is_clock(const struct stat_run *r, unsigned i)
{
	uint8_t u = r->ev[i].spec.unit;

	return u != EV_UNIT_IMC && unit_of(u)->clock;
}

uint64_t stat_enabled(const struct stat_run *r)
{
	return r->t_end - r->t_start;
}

static uint64_t scaled(const struct stat_counts *c, const struct stat_counts *mark, int box, uint64_t enabled)
{
	uint64_t raw = 0, running = c->running - mark->running;

	for (int b = 0; b < STAT_MAX_BOXES; b++)
		if (box < 0 || b == box)
			raw += c->box[b] - mark->box[b];
	if (running == 0)
		return 0;
	if (running >= enabled)
		return raw;
	return u64_muldiv(raw, enabled, running);
}

uint64_t stat_count(const struct stat_run *r, unsigned i, int box)
{
	static const struct stat_counts zero;

	return scaled(&r->ev[i].total, &zero, box, stat_enabled(r));
}

uint64_t stat_interval_count(const struct stat_run *r, unsigned i, int box, uint64_t now)
{
	return scaled(&r->ev[i].total, &r->ev[i].mark, box, now - r->t_mark);
}

void stat_mark(struct stat_run *r, uint64_t now)
{
	for (unsigned i = 0; i < r->nev; i++)
		r->ev[i].mark = r->ev[i].total;
	r->t_mark = now;
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;

	return m < c ? m : c;
}

enum unc_status stat_loop(struct stat_run *r, const struct hw *hw, bool force, const struct stat_opts *o,
			  const struct stat_env *env)
{
	enum unc_status st = stat_start(r, hw, force);
	unsigned intervals = 0;

	if (st)
		return st;
	uint64_t t0 = r->t_start, never = UINT64_MAX;
	uint64_t end = o->duration ? t0 + o->duration : never;
	uint64_t next_iv = o->interval ? t0 + o->interval : never;
	uint64_t next_rot = r->ngroups > 1 ? t0 + o->slice : never;

	for (;;) {
		uint64_t next_sample = r->t_sample + o->sample;
		if (env->wait_until(env->ctx, min3(end, next_iv, min3(next_rot, next_sample, never)))) {
			st = fail(r, UNC_E_ABORTED, "stopped by the user");
			break;
		}
		uint64_t now = hw_ticks(hw);
		if (now >= next_rot) {
			if ((st = stat_rotate(r)))
				break;
			next_rot = r->t_sample + o->slice;
		} else if ((st = stat_sample(r))) {
			break;
		}
		if (now >= next_iv) {
			if (env->on_interval)
				env->on_interval(env->ctx, r, r->t_sample);
			stat_mark(r, r->t_sample);
			next_iv += o->interval;
			if (o->max_intervals && ++intervals >= o->max_intervals)
				break;
		}
		if (now >= end)
			break;
	}
	/* On ESC the counts so far are still good: sample them before the
	 * restore, and report the abort. */
	if (st == UNC_E_ABORTED) {
		enum unc_status sst = stat_sample(r);
		return restore(r, sst ? sst : UNC_E_ABORTED);
	}
	return stat_stop(r, st);
}
