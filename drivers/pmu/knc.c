/* The Knights Corner core PMU driver: Intel 327357-001JA (section and
 * table numbers are its own), with the event constraints of Linux's
 * arch/x86/events/intel/knc.c (cited where used). Two general counters per
 * hardware thread (Section 1.4), programmed P6-style (Section 1.2, item 4)
 * and enabled through IA32_PERF_GLOBAL_CTRL (Section 1.4.1).
 *
 * Knights Corner cards boot their own micro-OS, not UEFI: this driver makes
 * the manual's PMU a tested table (events, registers, sequence), not a
 * feature a lab can run on the card. */
#include "knc.h"

#include "../base/fmt.h"

static const struct pmu_model knc_models[] = {
	{ 0xB, 0x1, "Knights Corner (Xeon Phi coprocessor)" },
	{ 0, 0, 0 },
};

/* Table 1-5 (IA32_PerfEvtSel0/1, 32 bits): CMASK 31:24, INV 23, EN 22,
 * thread count mode 21, INT 20, bit 19 reserved, E 18, OS 17, USR 16,
 * UMASK 15:8, event select 7:0. */
#define KNC_SEL_EN   (1ull << 22)
#define KNC_SEL_OS   (1ull << 17)
#define KNC_SEL_USR  (1ull << 16)
#define KNC_SEL_RW   0xFFF7FFFFull

/* The fastest a counter moves (max_per_sec), a bound and not a measurement:
 * Knights Corner cores clock at most 1.333 GHz (the 7120 parts' turbo), and
 * the busiest event, VPU_ELEMENTS_ACTIVE, adds at most 16 elements (512
 * bits of 32-bit elements) per VPU instruction, two instructions a clock
 * (U and V pipe): 4.3 * 10^10 per second, below 2^36 (6.9 * 10^10). At that
 * rate a 40-bit counter wraps in 16 s, so a counter written back to a small
 * value implies a step far beyond what 100 ms between samples allow. */
#define KNC_EVENTS_MAX_PER_SEC (1ull << 36)

/* Each event's own bound (clock_hz, incs): 2^31 Hz (above the fastest
 * part's 1.333 GHz) times what the event adds per cycle: 1, 2 for what
 * both pipes do in one clock (instructions, VPU instructions, memory
 * accesses, branches, AGI stalls: "up to two per clock", Table 1-6), 32
 * for VPU_ELEMENTS_ACTIVE (16 elements of two instructions). Codes are
 * shared by the core and VPU events (0x16, 0x17 and 0x00 to 0x05 with
 * umask 0x20): the larger bound holds for both. */
static const struct pmu_inc knc_incs[] = {
	{ 0x00, 2 }, { 0x01, 2 }, { 0x12, 2 }, { 0x16, 2 }, { 0x1F, 2 }, { 0x28, 2 }, { 0x18, 32 }, { 0, 0 },
};

/* Table 1-5. EN (22): "counting is enabled only when the corresponding bit
 * of IA32_PERF_GLOBAL_CTRL is set", so it is set in every select and the
 * freeze is GLOBAL_CTRL. OS (17) and USR (16) are both set: UEFI code runs
 * at ring 0, and a child image is counted at whatever ring it runs. INT
 * (20) stays clear: no PMI is wanted, and IA32_PERF_GLOBAL_STATUS is
 * updated "even when the APIC interrupt is not enabled" (Section 1.4.3.5),
 * so a wrap shows without it. The thread count mode (21) stays clear: this
 * thread's events only. */
static const struct pmu_layout knc_layout = {
	.event = { 0, 8 },
	.umask = { 8, 8 },
	.thresh = { 24, 8 },
	.inv = 1ull << 23,
	.edge = 1ull << 18,
	.enable = KNC_SEL_EN,
	.os_usr = KNC_SEL_OS | KNC_SEL_USR,
	.rw_mask = KNC_SEL_RW,
	.cite = "Table 1-5",
};

/* The manual lists no counter restrictions. Linux's knc_event_constraints
 * (arch/x86/events/intel/knc.c) puts these L2 events on counter 0 only
 * (INTEL_EVENT_CONSTRAINT(code, 0x1): by event code, any umask), among
 * them every CRI event of Table 1-6 but L2_CODE_READ_MISS_CACHE_FILL (0xF0)
 * and L2_CODE_READ_MISS_MEM_FILL (0xF5), which Linux does not list; 0xC3,
 * 0xC4, 0xCE and 0xCF are not in Table 1-6 but hold for raw encodings. A
 * restriction that is not needed only costs a round of multiplexing; one
 * that is needed and missing gives wrong counts. */
static const struct pmu_constraint knc_constraints[] = {
	{ 0xC3, 0x1 }, { 0xC4, 0x1 }, { 0xC8, 0x1 }, { 0xC9, 0x1 }, { 0xCA, 0x1 }, { 0xCB, 0x1 },
	{ 0xCC, 0x1 }, { 0xCE, 0x1 }, { 0xCF, 0x1 }, { 0xD7, 0x1 }, { 0xE3, 0x1 }, { 0xE6, 0x1 },
	{ 0xE7, 0x1 }, { 0xF1, 0x1 }, { 0xF2, 0x1 }, { 0xF6, 0x1 }, { 0xF7, 0x1 }, { 0xFC, 0x1 },
	{ 0xFD, 0x1 }, { 0xFE, 0x1 }, { 0xFF, 0x1 }, { 0, 0 },
};

/* One unit: the two general counters of this hardware thread (Table 1-2:
 * IA32_PerfCnt0/1 at 0x20/0x21, 40 bits; IA32_PerfEvtSel0/1 at 0x28/0x29).
 * Its events have no Unit (as in Intel's core-event files).
 *
 * status_bit: the PMU has one overflow bit per counter (Table 1-8: bit 0
 * PerfCnt0, bit 1 PerfCnt1), the engine one status bit per unit; the unit
 * takes both. A bit is then accepted when either counter went backwards,
 * not only the counter it names: the engine cannot tell which counter
 * overflowed. That loses nothing a run could see: a counter whose own bit
 * is set without a wrap of its own advanced 2^40 or more between two
 * samples, and step_limit refuses any gap in which that is possible at
 * max_per_sec. Clearing at each programming writes both bits to
 * IA32_PERF_GLOBAL_OVF_CTRL. */
static const struct pmu_unit knc_units[] = {
	{ .pmu = "knc", .intel_unit = "", .name = "KNC", .kind = PMU_GENERAL, .per_cpu = true, .space = PMU_MSR, .counters = 2,
	  .width = 40, .max_boxes = 1, .sel_base = MSR_KNC_PERFEVTSEL0, .ctr_base = MSR_KNC_PERFCNT0, .sel_step = 1,
	  .ctr_step = 1, .layout = &knc_layout, .constraints = knc_constraints, .max_per_sec = KNC_EVENTS_MAX_PER_SEC,
	  .clock_hz = 1ull << 31, .incs = knc_incs,
	  .status_bit = KNC_COUNTERS_MASK, .raw_help = "knc/event=N,umask=N[,cmask=N][,inv][,edge]/",
	  .ctr_write = PMU_CTR_WRITE, .ctr_write_cite = "327357-001 1.4.3.2 IA32_PerfCnt0/1: access RW, a write sets all 40 bits" },
};

/* Nothing to discover: Table 1-2 gives two counters per thread on every
 * part, and no register reports them. */
static enum unc_status knc_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want,
				 struct pmu_present *p, char *err, size_t errsize, char *warn, size_t warnsize)
{
	(void)hw, (void)cpu, (void)err, (void)errsize, (void)warn, (void)warnsize;
	if (want & 1u) {
		p->probed |= 1u;
		p->boxes[0] = p->found[0] = 1;
	}
	return UNC_OK;
}

/* In use when IA32_PERF_GLOBAL_CTRL enables a counter (bits 1:0) or an
 * event select is not zero: either is someone's programming. */
UNC_COLD static void knc_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
		       void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	static const uint32_t regs[] = { MSR_KNC_PERF_GLOBAL_CTRL, MSR_KNC_PERFEVTSEL0, MSR_KNC_PERFEVTSEL1 };
	uint64_t v;

	*r = (struct pmu_use){ .known = (p->probed & 1u) != 0 };
	for (unsigned i = 0; r->known && i < sizeof(regs) / sizeof(regs[0]); i++) {
		if (hw_msr_read(hw, regs[i], &v) != UNC_OK) {
			r->known = false;
			if (on_fault)
				on_fault(ctx, pmu_msr(regs[i]));
			break;
		}
		bool busy = i == 0 ? (v & KNC_COUNTERS_MASK) != 0 : v != 0;
		if (i == 0)
			r->global_ctrl = v;
		else
			r->selects_checked++;
		if (busy)
			pmu_use_busy(r, pmu_msr(regs[i]), v);
	}
}

/* Section 1.4.1: a counter counts when its select's EN and its bit in
 * IA32_PERF_GLOBAL_CTRL are both set; clearing bits 1:0 of GLOBAL_CTRL
 * stops both (Linux's knc_pmu_disable_all does the same). Reserved bits are
 * kept as found.
 *
 * PERF_SPFLT_CONTROL (Table 1-7): where bit N is set, counter N counts only
 * while the user preference (bit 63) is set, and any code at any ring
 * clears that with the SPFLT instruction (Table 1-1), the measured image
 * included. So the first freeze clears bits 1:0 when it finds either set,
 * through the journal (the run puts the value back at the end), and
 * writes nothing when they are clear (their reset value, Section
 * 1.4.3.4). Bit 63 is left alone: with bits 1:0 clear it gates nothing. */
static enum unc_status knc_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	uint64_t spflt;
	enum unc_status st;

	(void)p;
	if (s->first) {
		if ((st = pmu_io_read(io, pmu_msr(MSR_KNC_PERF_GLOBAL_CTRL), &s->found)) ||
		    (st = pmu_io_read(io, pmu_msr(MSR_KNC_PERF_GLOBAL_STATUS), &s->status_at_start)) ||
		    (st = pmu_io_read(io, pmu_msr(MSR_KNC_SPFLT_CONTROL), &spflt)))
			return st;
		s->base = s->found & ~KNC_COUNTERS_MASK;
		if ((st = pmu_io_write(io, pmu_msr(MSR_KNC_PERF_GLOBAL_CTRL), s->base)))
			return st;
		if (spflt & KNC_SPFLT_GATE)
			return pmu_io_write_check(io, pmu_msr(MSR_KNC_SPFLT_CONTROL), spflt & ~KNC_SPFLT_GATE);
		return UNC_OK;
	}
	return pmu_io_write(io, pmu_msr(MSR_KNC_PERF_GLOBAL_CTRL), s->base);
}

/* IA32_PERF_GLOBAL_STATUS is read only; its bits are cleared by writing
 * them to IA32_PERF_GLOBAL_OVF_CTRL (Table 1-9), which is write only: it
 * cannot be read, so it is written without the journal and is not among
 * the globals the snapshot reads. */
static enum unc_status knc_clear_status(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s,
					uint64_t bits)
{
	(void)p;
	(void)s;
	return pmu_io_write_nosave(io, pmu_msr(MSR_KNC_PERF_GLOBAL_OVF_CTRL), bits & KNC_COUNTERS_MASK);
}

static enum unc_status knc_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	struct pmu_reg ctrl = pmu_msr(MSR_KNC_PERF_GLOBAL_CTRL);

	(void)p;
	return verify ? pmu_io_write_check(io, ctrl, s->base | KNC_COUNTERS_MASK)
		      : pmu_io_write(io, ctrl, s->base | KNC_COUNTERS_MASK);
}

/* IA32_PERF_GLOBAL_STATUS first, then (the engine) the counters: a wrap the
 * status shows has happened by the time the counters are read. Then that
 * the PMU still counts as the run set it: GLOBAL_CTRL as written, and no
 * SPFLT gate set since (either would give short counts that look like
 * measurements). */
static enum unc_status knc_check(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s,
				 uint64_t *ret_status)
{
	uint64_t gctrl, spflt, want = s->base | KNC_COUNTERS_MASK;
	enum unc_status st;

	(void)p;
	if ((st = pmu_io_read(io, pmu_msr(MSR_KNC_PERF_GLOBAL_STATUS), ret_status)) ||
	    (st = pmu_io_read(io, pmu_msr(MSR_KNC_PERF_GLOBAL_CTRL), &gctrl)) ||
	    (st = pmu_io_read(io, pmu_msr(MSR_KNC_SPFLT_CONTROL), &spflt)))
		return st;
	if (gctrl != want)
		return pmu_io_fail(io, UNC_E_CLOBBERED,
				   "IA32_PERF_GLOBAL_CTRL (0x%x) reads 0x%lx, not the 0x%lx this run wrote: %s during the run",
				   MSR_KNC_PERF_GLOBAL_CTRL, (unsigned long)gctrl, (unsigned long)want,
				   (gctrl & KNC_COUNTERS_MASK) == KNC_COUNTERS_MASK
					   ? "written by someone else"
					   : "a counter's enable (bits 1:0) is clear, so it stopped counting (written by "
					     "someone else)");
	if (spflt & KNC_SPFLT_GATE)
		return pmu_io_fail(io, UNC_E_CLOBBERED,
				   "PERF_SPFLT_CONTROL (0x%x) reads 0x%lx: bits 1:0 were set during the run, so SPFLT's "
				   "user preference gates the counters (written by someone else)",
				   MSR_KNC_SPFLT_CONTROL, (unsigned long)spflt);
	return UNC_OK;
}

/* Table 1-2's names, for the registers this driver touches. */
UNC_COLD static const char *knc_reg_name(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size)
{
	(void)p;
	(void)buf, (void)size;
	if (reg.space != PMU_MSR)
		return NULL;
	switch (reg.addr) {
	case MSR_KNC_PERFCNT0: return "IA32_PerfCnt0";
	case MSR_KNC_PERFCNT1: return "IA32_PerfCnt1";
	case MSR_KNC_PERFEVTSEL0: return "IA32_PerfEvtSel0";
	case MSR_KNC_PERFEVTSEL1: return "IA32_PerfEvtSel1";
	case MSR_KNC_SPFLT_CONTROL: return "PERF_SPFLT_CONTROL";
	case MSR_KNC_PERF_GLOBAL_STATUS: return "IA32_PERF_GLOBAL_STATUS";
	case MSR_KNC_PERF_GLOBAL_OVF_CTRL: return "IA32_PERF_GLOBAL_OVF_CTRL";
	case MSR_KNC_PERF_GLOBAL_CTRL: return "IA32_PERF_GLOBAL_CTRL";
	}
	return NULL;
}

static void knc_info(struct out *o, const struct pmu_present *p, bool json)
{
	(void)p;
	if (json) {
		out_puts(o, ",\"counters\":2,\"width\":40");
		return;
	}
	out_printf(o, "knc core:     2 counters of 40 bits per hardware thread (Table 1-2), on the processor "
		      "running uncore.efi\n");
}

static void knc_notes(struct out *err, const struct pmu_present *p, const struct pmu_state *s)
{
	(void)p;
	if (s->status_at_start & KNC_COUNTERS_MASK)
		out_printf(err, "uncore: note: IA32_PERF_GLOBAL_STATUS was 0x%lx at start; its overflow bits were "
				"cleared and cannot be set again\n", (unsigned long)s->status_at_start);
}

static const struct pmu_ops knc_ops = {
	.probe = knc_probe,
	.in_use = knc_in_use,
	.freeze = knc_freeze,
	.clear_status = knc_clear_status,
	.unfreeze = knc_unfreeze,
	.check = knc_check,
	.reg_name = knc_reg_name,
	.info = knc_info,
	.notes = knc_notes,
};

/* Read by every run before its first write, in this order, and restored
 * in the reverse one: GLOBAL_CTRL last. STATUS is read only and never
 * written (`regs` shows it); OVF_CTRL is write only, so it is not here. */
static const struct pmu_reg knc_globals[] = { { PMU_MSR, { 0, 0, 0 }, MSR_KNC_PERF_GLOBAL_CTRL },
					      { PMU_MSR, { 0, 0, 0 }, MSR_KNC_SPFLT_CONTROL },
					      { PMU_MSR, { 0, 0, 0 }, MSR_KNC_PERF_GLOBAL_STATUS } };

extern const struct event_desc knc_events[];
extern const unsigned knc_events_count;

const struct pmu_driver pmu_driver_knc = {
	.name = "knc-core",
	.title = "Knights Corner",
	.what = "Knights Corner core PMU",
	.status_name = "IA32_PERF_GLOBAL_STATUS",
	.vendor = "GenuineIntel",
	.models = knc_models,
	.units = knc_units,
	.nunits = sizeof(knc_units) / sizeof(knc_units[0]),
	.globals = knc_globals,
	.nglobals = sizeof(knc_globals) / sizeof(knc_globals[0]),
	.events = knc_events,
	.nevents = &knc_events_count,
	.ops = &knc_ops,
	.use_global = true,
};
