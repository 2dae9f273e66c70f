/* The Skylake-client uncore driver: Intel 334060-001 (section and table
 * numbers are its own), with what Linux's uncore_snb.c adds (cited where
 * used). Units as data, behaviour as ops; the engine does the rest. */
#include "skl.h"
#include "mchbar.h"
#include "skl_info.h"
#include "skl_rec.h"

#include "../base/fmt.h"
#include "../base/parse.h"

static const struct pmu_model skl_models[] = {
	{ 6, 0x4E, "Skylake (mobile)" },
	{ 6, 0x5E, "Skylake (desktop)" },
	{ 6, 0x8E, "Kaby/Coffee/Whiskey/Amber/Comet Lake (mobile)" },
	{ 6, 0x9E, "Kaby/Coffee Lake (desktop)" },
	{ 6, 0xA5, "Comet Lake (desktop)" },
	{ 6, 0xA6, "Comet Lake (mobile)" },
	{ 0, 0, 0 },
};

/* Table 2-7: THR 28:24, INV 23, EN 22, OVF_EN 20, E 18, UMASK 15:8, EVT_SEL 7:0. */
#define SKL_SEL_RW  0x1FD4FFFFull

/* The fastest rates (max_per_sec) are generous bounds, not measurements:
 * the uncore clock runs below 5 GHz on every part of Table 1-2's
 * generations, and an event adds at most a few dozen per clock (ARB and
 * CBo occupancies count queue entries). 2^40/s (1.1 * 10^12, above the
 * emulator's highest rate of 10^12) and a 2^33 Hz (8.6 GHz) clock leave
 * room for both, yet a counter written back to a small value implies a
 * step of nearly 2^44 or 2^48, thousands of times more than either allows
 * in the 100 ms between samples. */
#define SKL_EVENTS_MAX_PER_SEC (1ull << 40)
#define SKL_UCLK_MAX_HZ        (1ull << 33)

/* Each event's own bound is tighter (clock_hz): UCLK's 2^33 Hz times what
 * the event adds per cycle: 1 for a CBo lookup or snoop response, an ARB
 * request and the clock; the ARB's occupancies (0x80 and Linux's 0x83)
 * add one per outstanding entry, and neither the manual nor Linux gives
 * the trackers' depth: 64 is taken as the bound. */
static const struct pmu_inc skl_arb_incs[] = { { 0x80, 64 }, { 0x83, 64 }, { 0, 0 } };

/* Table 2-7. OVF_EN is set in every select the run writes, so that a wrap
 * shows in GLOBAL_STATUS (without it "No PMI for this counter will be
 * generated" and the overflow is not forwarded); the run clears every PMI
 * select in GLOBAL_CTRL, so no core is interrupted. */
static const struct pmu_layout skl_layout = {
	.event = { 0, 8 },
	.umask = { 8, 8 },
	.thresh = { 24, 5 },
	.inv = 1ull << 23,
	.edge = 1ull << 18,
	.enable = UNC_CTRL_EN,
	.run_bits = UNC_CTRL_OVF_EN,
	.rw_mask = SKL_SEL_RW,
	.cite = "Table 2-7",
};

/* ARB events 0x80 (occupancy, Table 3-2: counter 0) and 0x83 count on ARB
 * counter 0 only. The manual lists no event 0x83; the restriction comes from
 * Linux, arch/x86/events/intel/uncore_snb.c, snb_uncore_arb_constraints:
 * UNCORE_EVENT_CONSTRAINT(0x80, 0x1) and UNCORE_EVENT_CONSTRAINT(0x83, 0x1).
 * It holds for raw encodings too. */
static const struct pmu_constraint skl_arb_constraints[] = { { 0x80, 0x1 }, { 0x83, 0x1 }, { 0, 0 } };

/* Boxes 0 to 6 at a stride of 0x10, box 7 apart (skl.h). */
static const uint64_t skl_cbo_sel[SKL_MAX_CBO] = { 0x700, 0x710, 0x720, 0x730, 0x740, 0x750, 0x760,
						    MSR_UNC_CBO_7_PERFEVTSEL0 };
static const uint64_t skl_cbo_ctr[SKL_MAX_CBO] = { 0x706, 0x716, 0x726, 0x736, 0x746, 0x756, 0x766,
						    MSR_UNC_CBO_7_PERFCTR0 };

#define RAW_HELP "/event=N,umask=N[,thresh=N][,inv][,edge]/"

/* Table 3-3: the IMC's free-running counters. */
const struct pmu_free skl_imc[SKL_IMC_COUNTERS] = {
	{ "DRAM_GT_REQUESTS", "gt_requests", 0x5040, PMU_ROLE_NONE, "requests", "GT",
	  "Read/write requests from the GT engine to DRAM, all channels (partial writes count each)." },
	{ "DRAM_IA_REQUESTS", "ia_requests", 0x5044, PMU_ROLE_NONE, "requests", "IA",
	  "Read/write requests (demand and prefetch) from IA cores to DRAM, all channels (partial writes count each)." },
	{ "DRAM_IO_REQUESTS", "io_requests", 0x5048, PMU_ROLE_NONE, "requests", "IO",
	  "Read/write requests from IO (PCIe, display, USB, ...) to DRAM, all channels (partial writes count each)." },
	{ "DRAM_DATA_READS", "data_reads", 0x5050, PMU_ROLE_DRAM_READ, "lines", NULL,
	  "Reads (RdCAS) issued to DRAM, all channels; each a 64-byte transfer." },
	{ "DRAM_DATA_WRITES", "data_writes", 0x5054, PMU_ROLE_DRAM_WRITE, "lines", NULL,
	  "Writes (WrCAS) issued to DRAM, all channels; each a 64-byte transfer." },
};

/* The CBo and ARB counters may be written: Table 2-8 marks CTR_VAL RW. */
#define SKL_CTR_RW "334060-001 Table 2-8: MSR_UNC_CBO_0_PERFCTR0 (and every CBo/ARB PERFCTR) CTR_VAL 43:0 RW"

static const struct pmu_unit skl_units[SKL_NUNITS] = {
	[SKL_UNIT_CBO] = { .pmu = "cbox", .alias = "cbo", .intel_unit = "CBO", .name = "CBO", .box_noun = "CBo",
			   .box_label = "cbo", .boxes_from = "MSR_UNC_CBO_CONFIG", .kind = PMU_GENERAL, .space = PMU_MSR,
			   .counters = 2, .width = 44, .max_boxes = SKL_MAX_CBO, .box_sel = skl_cbo_sel,
			   .box_ctr = skl_cbo_ctr, .sel_step = 1, .ctr_step = 1, .layout = &skl_layout,
			   .max_per_sec = SKL_EVENTS_MAX_PER_SEC, .clock_hz = SKL_UCLK_MAX_HZ, .status_bit = SKL_GSTATUS_CBO,
			   .raw_help = "cbox" RAW_HELP, .ctr_write = PMU_CTR_WRITE, .ctr_write_cite = SKL_CTR_RW },
	[SKL_UNIT_ARB] = { .pmu = "arb", .intel_unit = "ARB", .name = "ARB", .kind = PMU_GENERAL, .space = PMU_MSR,
			   .counters = 2, .width = 44, .max_boxes = 1, .sel_base = MSR_UNC_ARB_PERFEVTSEL0,
			   .ctr_base = MSR_UNC_ARB_PERFCTR0, .sel_step = 1, .ctr_step = 1, .layout = &skl_layout,
			   .constraints = skl_arb_constraints, .max_per_sec = SKL_EVENTS_MAX_PER_SEC,
			   .clock_hz = SKL_UCLK_MAX_HZ, .incs = skl_arb_incs,
			   .status_bit = SKL_GSTATUS_ARB, .raw_help = "arb" RAW_HELP, .ctr_write = PMU_CTR_WRITE,
			   .ctr_write_cite = SKL_CTR_RW },
	/* Table 2-4: CNT_EN (22) and OVF_EN (20) start the fixed UCLK counter.
	 * Intel's files put its event in Unit "NCU". */
	[SKL_UNIT_FIXED] = { .pmu = "clock", .intel_unit = "NCU", .name = "FIXED", .kind = PMU_FIXED,
			     .space = PMU_MSR, .counters = 1, .width = 48, .max_boxes = 1,
			     .sel_base = MSR_UNC_PERF_FIXED_CTRL, .ctr_base = MSR_UNC_PERF_FIXED_CTR, .sel_step = 1,
			     .ctr_step = 1, .fixed_ctrl = UNC_CTRL_EN, .fixed_run_bits = UNC_CTRL_OVF_EN, .max_per_sec = SKL_UCLK_MAX_HZ,
			     .clock_hz = SKL_UCLK_MAX_HZ,
			     .clock = true, .status_bit = SKL_GSTATUS_FIXED, .ctr_write = PMU_CTR_WRITE,
			     .ctr_write_cite = "334060-001 Table 2-5: MSR_UNC_PERF_FIXED_CTR CTR_VAL 47:0 RW" },
	/* Section 3.3: free-running 32-bit counters at MCHBAR + Table 3-3's
	 * offsets; never written. */
	[SKL_UNIT_IMC] = { .pmu = "imc", .name = "IMC", .kind = PMU_FREE, .space = PMU_MMIO,
			   .counters = SKL_IMC_COUNTERS, .width = SKL_IMC_WIDTH, .max_boxes = 1, .free = skl_imc,
			   .base_name = "MCHBAR",
			   .req_note = "request counts x 64 bytes overstate traffic: partial writes to one line count each "
				       "but are merged into one transfer; Table 3-3" },
};

#define MSR_UNITS (1u << SKL_UNIT_CBO | 1u << SKL_UNIT_ARB | 1u << SKL_UNIT_FIXED)

unsigned skl_cbo_count_from_raw(unsigned no_cbo_banks)
{
	return no_cbo_banks ? no_cbo_banks - 1 : 0;
}

/* The MSR units need the CBo count (Section 2.4.1: subtract one; not
 * capped); the IMC needs MCHBAR. Only what `want` asks for is read: a run
 * of IMC counters touches no MSR. */
UNC_COLD static enum unc_status skl_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want,
				 struct pmu_present *p, char *err, size_t errsize, char *warn, size_t warnsize)
{
	enum unc_status st;

	p->facts[SKL_FACT_CORES] = cpu->cores;
	p->facts[SKL_FACT_CPU] = (cpu->phys_addr_bits & 0xFF) | (cpu->model & 0xFF) << 8;
	if (want & MSR_UNITS) {
		uint64_t raw = 0;
		st = hw_msr_read(hw, MSR_UNC_CBO_CONFIG, &raw);
		p->facts[SKL_FACT_CBO_CONFIG_ST] = st;
		p->facts[SKL_FACT_CBO_CONFIG] = raw;
		p->probed |= MSR_UNITS;
		if (st) {
			fmt_snprintf(err, errsize, "rdmsr 0x396 (MSR_UNC_CBO_CONFIG): %s", unc_strerror(st));
			return st;
		}
		unsigned n = skl_cbo_count_from_raw(raw & UNC_CBO_CONFIG_NO_CBO_BANKS);
		p->found[SKL_UNIT_CBO] = n;
		p->boxes[SKL_UNIT_CBO] = skl_cbo_programmable(n);
		p->found[SKL_UNIT_ARB] = p->boxes[SKL_UNIT_ARB] = 1;
		p->found[SKL_UNIT_FIXED] = p->boxes[SKL_UNIT_FIXED] = 1;
	}
	if (want & 1u << SKL_UNIT_IMC) {
		/* Section 3.3: the counters of Table 3-3, 32 bits each */
		static const struct mchbar_imc imc = {
			SKL_IMC_FIRST, SKL_IMC_END, skl_host_bridge_name,
			"Skylake, Kaby, Coffee, Whiskey, Amber, Comet Lake",
		};
		struct mchbar m;
		p->probed |= 1u << SKL_UNIT_IMC;
		st = mchbar_read(hw, cpu, &imc, &m, err, errsize, warn, warnsize);
		p->facts[SKL_FACT_HB_ID] = (uint32_t)m.device << 16 | m.vendor;
		p->facts[SKL_FACT_MCHBAR_RAW] = m.raw;
		p->facts[SKL_FACT_HB_ST] = m.hb_st;
		p->facts[SKL_FACT_MCHBAR_ST] = m.st;
		if (st)
			return st;
		p->base[SKL_UNIT_IMC] = m.base;
		p->found[SKL_UNIT_IMC] = p->boxes[SKL_UNIT_IMC] = 1;
	}
	return UNC_OK;
}

/* Someone else is using the PMU when GLOBAL_CTRL.EN is set, or any event
 * select (each CBo's two, the ARB's two) or the fixed counter's control is
 * non-zero. */
UNC_COLD static void skl_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
		       void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	uint64_t v;

	*r = (struct pmu_use){ .known = p->facts[SKL_FACT_CBO_CONFIG_ST] == UNC_OK && (p->probed & MSR_UNITS) };
	for (int u = -1; u <= SKL_UNIT_FIXED; u++) {
		/* u = -1 is MSR_UNC_PERF_GLOBAL_CTRL itself. */
		const struct pmu_unit *unit = u < 0 ? NULL : &skl_units[u];
		unsigned boxes = !unit ? 1 : u == SKL_UNIT_CBO ? p->boxes[SKL_UNIT_CBO] : unit->max_boxes;
		unsigned per_box = unit ? unit->counters : 1;
		for (unsigned box = 0; box < boxes; box++) {
			for (unsigned i = 0; i < per_box; i++) {
				struct pmu_reg reg = unit ? pmu_unit_sel(unit, p, (unsigned)u, box, i) : pmu_msr(MSR_UNC_PERF_GLOBAL_CTRL);
				if (!pmu_use_read(r, reg, hw_msr_read(hw, (uint32_t)reg.addr, &v), on_fault, ctx))
					continue;
				if (unit)
					r->selects_checked++;
				else
					r->global_ctrl = v;
				if (unit ? v != 0 : (v & UNC_GLOBAL_CTRL_EN) != 0)
					pmu_use_busy(r, reg, v);
			}
		}
	}
}

/* The manual gives the registers but no order: the engine's sequence
 * (freeze, program, reset, clear status, unfreeze) is a design choice after
 * the Xeon E5-2600 uncore guide's freeze/program/reset/unfreeze, with
 * GLOBAL_CTRL.EN as the freeze, and after Linux's uncore_snb.c (EN in
 * MSR_UNC_PERF_GLOBAL_CTRL and in each event select). FRZ_ON_PMI,
 * WAKE_ON_PMI and the PMI selects are cleared for the run (and restored
 * with the rest): see SKL_GLOBAL_CTRL_RUN_CLEAR. */
static enum unc_status skl_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	enum unc_status st;

	(void)p;
	if (s->first) {
		if ((st = pmu_io_read(io, pmu_msr(MSR_UNC_PERF_GLOBAL_CTRL), &s->found)) ||
		    (st = pmu_io_read(io, pmu_msr(MSR_UNC_PERF_GLOBAL_STATUS), &s->status_at_start)))
			return st;
		s->base = s->found & ~SKL_GLOBAL_CTRL_RUN_CLEAR;
	}
	return pmu_io_write(io, pmu_msr(MSR_UNC_PERF_GLOBAL_CTRL), s->base);
}

/* GLOBAL_STATUS is RW1C (Table 2-3). */
static enum unc_status skl_clear_status(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s,
					uint64_t bits)
{
	(void)p;
	(void)s;
	return pmu_io_write_nosave(io, pmu_msr(MSR_UNC_PERF_GLOBAL_STATUS), bits);
}

static enum unc_status skl_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	struct pmu_reg ctrl = pmu_msr(MSR_UNC_PERF_GLOBAL_CTRL);

	(void)p;
	return verify ? pmu_io_write_check(io, ctrl, s->base | UNC_GLOBAL_CTRL_EN)
		      : pmu_io_write(io, ctrl, s->base | UNC_GLOBAL_CTRL_EN);
}

/* GLOBAL_STATUS first, then (the engine) the counters: a wrap the status
 * shows has happened by the time the counters are read. GLOBAL_CTRL is what
 * the run wrote, EN set: a PMU that stopped counting (frozen, or its EN
 * cleared by someone else) would give short counts that look like
 * measurements. */
static enum unc_status skl_check(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s,
				 uint64_t *ret_status)
{
	uint64_t gctrl, want = s->base | UNC_GLOBAL_CTRL_EN;
	enum unc_status st;

	(void)p;
	if ((st = pmu_io_read(io, pmu_msr(MSR_UNC_PERF_GLOBAL_STATUS), ret_status)) ||
	    (st = pmu_io_read(io, pmu_msr(MSR_UNC_PERF_GLOBAL_CTRL), &gctrl)))
		return st;
	if (gctrl != want)
		return pmu_io_fail(io, UNC_E_CLOBBERED,
				   "MSR_UNC_PERF_GLOBAL_CTRL (0x%x) reads 0x%lx, not the 0x%lx this run wrote: %s during the run",
				   MSR_UNC_PERF_GLOBAL_CTRL, (unsigned long)gctrl, (unsigned long)want,
				   gctrl & UNC_GLOBAL_CTRL_EN ? "written by someone else"
							      : "EN (bit 29) is clear, so the uncore stopped counting "
								"(frozen, or written by someone else)");
	return UNC_OK;
}

/* skl_check's two reads, for a sample to make itself. */
static bool skl_check_regs(const struct pmu_present *p, const struct pmu_state *s, struct pmu_reg *ret_status,
			   struct pmu_reg *ret_ctrl, uint64_t *ret_want)
{
	(void)p;
	*ret_status = pmu_msr(MSR_UNC_PERF_GLOBAL_STATUS);
	*ret_ctrl = pmu_msr(MSR_UNC_PERF_GLOBAL_CTRL);
	*ret_want = s->base | UNC_GLOBAL_CTRL_EN;
	return true;
}

static const char *skl_reg_name(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size)
{
	(void)p;
	if (reg.space != PMU_MSR || reg.addr > 0xFFFFFFFFull)
		return NULL;
	return skl_msr_name((uint32_t)reg.addr, buf, size);
}

UNC_COLD static void skl_where(const struct pmu_present *p, unsigned unit, char *buf, size_t size)
{
	uint16_t vendor = p->facts[SKL_FACT_HB_ID] & 0xffff, device = (uint16_t)(p->facts[SKL_FACT_HB_ID] >> 16);
	const char *gen = skl_host_bridge_name(vendor, device);

	if (unit != SKL_UNIT_IMC) {
		buf[0] = '\0';
		return;
	}
	fmt_snprintf(buf, size, "at MCHBAR 0x%lx (host bridge %04x:%04x%s%s)", (unsigned long)p->base[SKL_UNIT_IMC],
		     vendor, device, gen ? ", " : "", gen ? gen : "");
}

static void skl_notes(struct out *err, const struct pmu_present *p, const struct pmu_state *s)
{
	(void)p;
	if (s->status_at_start & (SKL_GSTATUS_FIXED | SKL_GSTATUS_ARB | SKL_GSTATUS_CBO))
		out_printf(err, "uncore: note: MSR_UNC_PERF_GLOBAL_STATUS was 0x%lx at start; its overflow bits were "
				"cleared and cannot be set again\n", (unsigned long)s->status_at_start);
}

/* Every CBo MSR_UNC_CBO_CONFIG reports is counted, or no CBo event is:
 * CBo 8 and up have no MSRs in the manual (Table 2-1 stops at CBo 3) nor in
 * Linux (skl_uncore_cbox: 8 boxes, box 7 at CFL_UNC_CBO_7_*), so a CBo
 * event is refused, naming the limit, when more are reported. */
UNC_COLD static bool skl_event_ok(const struct pmu_present *p, unsigned unit, uint8_t code, uint8_t umask,
				  uint8_t thresh, char *err, size_t errsize)
{
	(void)code, (void)umask, (void)thresh;
	if (unit != SKL_UNIT_CBO || p->found[SKL_UNIT_CBO] <= p->boxes[SKL_UNIT_CBO])
		return true;
	fmt_snprintf(err, errsize, "MSR_UNC_CBO_CONFIG reports %u CBos; CBo MSRs are known for %u (Table 2-1, Linux's "
		     "CFL_UNC_CBO_7): at most %u can be counted", p->found[SKL_UNIT_CBO], SKL_MAX_CBO, SKL_MAX_CBO);
	return false;
}

/* info's verdict: ready, but no CBo event can be counted. */
UNC_COLD static const char *skl_caveat(const struct pmu_present *p, char *buf, size_t size)
{
	char why[160];

	if ((p->probed & 1u << SKL_UNIT_CBO) == 0 || skl_event_ok(p, SKL_UNIT_CBO, 0, 0, 0, why, sizeof(why)))
		return NULL;
	fmt_snprintf(buf, size, "no CBo event can be counted: %s", why);
	return buf;
}

static const struct pmu_ops skl_ops = {
	.probe = skl_probe,
	.in_use = skl_in_use,
	.freeze = skl_freeze,
	.clear_status = skl_clear_status,
	.unfreeze = skl_unfreeze,
	.check = skl_check,
	.check_regs = skl_check_regs,
	.event_ok = skl_event_ok,
	.caveat = skl_caveat,
	.reg_name = skl_reg_name,
	.info = skl_info,
	.where = skl_where,
	.rec_convert = skl_rec_convert,
	.notes = skl_notes,
};

static const struct pmu_reg skl_globals[] = { { PMU_MSR, { 0, 0, 0 }, MSR_UNC_PERF_GLOBAL_CTRL },
					      { PMU_MSR, { 0, 0, 0 }, MSR_UNC_PERF_GLOBAL_STATUS },
					      { PMU_MSR, { 0, 0, 0 }, MSR_UNC_CBO_CONFIG } };

extern const struct event_desc skl_events[];
extern const unsigned skl_events_count;

const struct pmu_driver pmu_driver_skl = {
	.name = "skl-client-uncore",
	.title = "Skylake-client",
	.what = "uncore PMU",
	.status_name = "MSR_UNC_PERF_GLOBAL_STATUS",
	.vendor = "GenuineIntel",
	.models = skl_models,
	.units = skl_units,
	.nunits = SKL_NUNITS,
	.globals = skl_globals,
	.nglobals = sizeof(skl_globals) / sizeof(skl_globals[0]),
	.events = skl_events,
	.nevents = &skl_events_count,
	.ops = &skl_ops,
	.use_global = true,
};

UNC_COLD const char *skl_msr_name(uint32_t msr, char *buf, size_t size)
{
	switch (msr) {
	case MSR_UNC_PERF_GLOBAL_CTRL: return "MSR_UNC_PERF_GLOBAL_CTRL";
	case MSR_UNC_PERF_GLOBAL_STATUS: return "MSR_UNC_PERF_GLOBAL_STATUS";
	case MSR_UNC_PERF_FIXED_CTRL: return "MSR_UNC_PERF_FIXED_CTRL";
	case MSR_UNC_PERF_FIXED_CTR: return "MSR_UNC_PERF_FIXED_CTR";
	case MSR_UNC_CBO_CONFIG: return "MSR_UNC_CBO_CONFIG";
	}
	for (unsigned u = SKL_UNIT_CBO; u <= SKL_UNIT_ARB; u++) {
		const struct pmu_unit *pu = &skl_units[u];
		for (unsigned box = 0; box < pu->max_boxes; box++) {
			for (unsigned i = 0; i < pu->counters; i++) {
				const char *kind = NULL;
				if (msr == pmu_unit_sel(pu, NULL, u, box, i).addr)
					kind = "PERFEVTSEL";
				else if (msr == pmu_unit_ctr(pu, NULL, u, box, i).addr)
					kind = "PERFCTR";
				if (!kind)
					continue;
				if (pu->max_boxes > 1)
					fmt_snprintf(buf, size, "MSR_UNC_%s_%u_%s%u", pu->name, box, kind, i);
				else
					fmt_snprintf(buf, size, "MSR_UNC_%s_%s%u", pu->name, kind, i);
				return buf;
			}
		}
	}
	return NULL;
}
