/* The Ice Lake client and Rocket Lake uncore drivers, after Linux's
 * arch/x86/events/intel/uncore_snb.c: icl_uncore_init (icl_msr_uncores:
 * icl_uncore_cbox, icl_uncore_arb, icl_uncore_clockbox; the IMC of
 * icl_uncore_pci_ids, snb_uncore_imc) and rkl_uncore_init (the Tiger Lake
 * MSR uncores, tgl_uncore_cpu_init; the same IMC). Their MSR units are
 * Tiger Lake's (adl.h), their IMC the Skylake-style one: 32-bit
 * free-running counters in MCHBAR, one controller, under the Skylake-client
 * driver's names (skl.c). Rocket Lake runs on the Alder Lake driver's ops
 * (the global control 0xE01 enabled only while counting); Ice Lake on its
 * own freeze and unfreeze, below, since it has no global control. */
#include "adl.h"
#include "skl.h"

/* intel-family.h: ICELAKE 0x7D, ICELAKE_L 0x7E, ICELAKE_NNPI 0x9D, each
 * matched to icl_uncore_init; ROCKETLAKE 0xA7 to rkl_uncore_init. */
static const struct pmu_model icl_models[] = {
	{ 6, 0x7D, "Ice Lake (desktop)" },
	{ 6, 0x7E, "Ice Lake (mobile)" },
	{ 6, 0x9D, "Ice Lake (NNPI)" },
	{ 0, 0, 0 },
};

static const struct pmu_model rkl_models[] = {
	{ 6, 0xA7, "Rocket Lake" },
	{ 0, 0, 0 },
};

/* snb_uncore_format_group, which icl_uncore_cbox and icl_uncore_arb take:
 * event 0-7, umask 8-15, edge 18, inv 23, cmask5 24-28. EN (bit 22) is not
 * in the encoding: Ice Lake's only enable, it is set by icl_unfreeze once
 * the counters are at their start (Linux's snb_uncore_msr_enable_event
 * writes it with the event). */
static const struct pmu_layout icl_layout = {
	.event = { 0, 8 },
	.umask = { 8, 8 },
	.thresh = { 24, 5 },
	.inv = 1ull << 23,
	.edge = 1ull << 18,
	.rw_mask = 0x1FC4FFFFull,
	.cite = "uncore_snb.c snb_uncore_formats_attr",
};

/* The IMC: Skylake's 32-bit counters at MCHBAR + 0x5040 ... 0x5054
 * (SNB_UNCORE_PCI_IMC_*_BASE), its table (skl.c) and names. */
#define ICL_IMC_UNIT                                                                                                   \
	{ .pmu = "imc", .name = "IMC", .kind = PMU_FREE, .space = PMU_MMIO, .counters = SKL_IMC_COUNTERS,                  \
	  .width = SKL_IMC_WIDTH, .max_boxes = 1, .free = skl_imc, .base_name = "MCHBAR" }

static const struct pmu_unit icl_units[ADL_NUNITS] = {
	[ADL_UNIT_CBO] = TGL_CBO_UNIT(&icl_layout),
	/* icl_uncore_arb: one counter, ICL_UNC_ARB_PER_CTR 0x3B1 and
	 * ICL_UNC_ARB_PERFEVTSEL 0x3B3, which Intel's ICL file numbers 1. */
	[ADL_UNIT_ARB] = { .pmu = "arb", .intel_unit = "ARB", .name = "ARB", .kind = PMU_GENERAL, .space = PMU_MSR,
			   .counters = 1, .first_counter = 1, .width = 44, .max_boxes = 1, .sel_base = 0x3B3,
			   .ctr_base = 0x3B1, .sel_step = 1, .ctr_step = 1, .layout = &icl_layout,
			   .max_per_sec = TGL_MAX_PER_SEC, .clock_hz = TGL_UCLK_MAX_HZ, .incs = tgl_arb_incs,
			   .raw_help = "arb" TGL_RAW_HELP, CLIENT_CTR_NEVER },
	[ADL_UNIT_FIXED] = TGL_FIXED_UNIT,
	[ADL_UNIT_IMC] = ICL_IMC_UNIT,
};

static const struct pmu_unit rkl_units[ADL_NUNITS] = {
	[ADL_UNIT_CBO] = TGL_CBO_UNIT(&tgl_layout),
	[ADL_UNIT_ARB] = TGL_ARB_UNIT,
	[ADL_UNIT_FIXED] = TGL_FIXED_UNIT,
	[ADL_UNIT_IMC] = ICL_IMC_UNIT,
};

#define MSR_UNITS (1u << ADL_UNIT_CBO | 1u << ADL_UNIT_ARB | 1u << ADL_UNIT_FIXED)

/* As the Alder Lake probe, keeping which units were asked for: a run's
 * freeze and unfreeze touch only the selects of the units it programs. */
UNC_COLD static enum unc_status icl_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want,
					  struct pmu_present *p, char *err, size_t errsize, char *warn, size_t warnsize)
{
	p->facts[ADL_FACT_UNITS] |= want;
	return adl_probe(hw, cpu, want, p, err, errsize, warn, warnsize);
}

/* No global control and no box control (Linux's icl_uncore_msr_ops has no
 * init_box or enable_box): a counter counts while EN is set in its own
 * select or, for the fixed counter, its control. The freeze clears EN
 * wherever it is set in the units the run programs; the unfreeze sets it
 * in every select of theirs that holds an event (the run wrote each of
 * them, 0 where a counter has none); the fixed counter is started by the
 * engine, which writes EN to its control while the others are stopped.
 * Every write goes through the journal, which puts back what was found. */
static enum unc_status icl_walk(struct pmu_io *io, const struct pmu_present *p, bool on, bool verify)
{
	uint32_t units = (uint32_t)p->facts[ADL_FACT_UNITS] & MSR_UNITS & (on ? ~(1u << ADL_UNIT_FIXED) : ~0u);
	enum unc_status st;

	for (unsigned u = ADL_UNIT_CBO; u <= ADL_UNIT_FIXED; u++) {
		const struct pmu_unit *pu = &p->drv->units[u];
		for (unsigned b = 0; (units >> u & 1) && b < p->boxes[u]; b++)
			for (unsigned i = 0; i < pu->counters; i++) {
				struct pmu_reg sel = pmu_unit_sel(pu, p, u, b, i);
				uint64_t v;
				if ((st = pmu_io_read(io, sel, &v)))
					return st;
				if (on && v && !(v & ADL_CTL_EN))
					st = verify ? pmu_io_write_check(io, sel, v | ADL_CTL_EN)
						    : pmu_io_write(io, sel, v | ADL_CTL_EN);
				else if (!on && (v & ADL_CTL_EN))
					st = pmu_io_write(io, sel, v & ~ADL_CTL_EN);
				if (st)
					return st;
			}
	}
	return UNC_OK;
}

static enum unc_status icl_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	(void)s;
	return icl_walk(io, p, false, false);
}

static enum unc_status icl_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	(void)s;
	return icl_walk(io, p, true, verify);
}

static const struct pmu_ops icl_ops = {
	.probe = icl_probe,
	.in_use = adl_in_use,
	.freeze = icl_freeze,
	.unfreeze = icl_unfreeze,
	.event_ok = adl_event_ok,
	.caveat = adl_caveat,
	.reg_name = adl_reg_name_of,
	.info = adl_info,
	.where = adl_where,
};

/* No global control on Ice Lake: only ICL_UNC_CBO_CONFIG, read, which
 * `regs` prints. Rocket Lake: SKL_UNC_PERF_GLOBAL_CTL 0xE01, bit 29 set
 * while counting (rkl_uncore_msr_init_box), as on Tiger Lake. */
static const struct pmu_reg icl_globals[] = { { PMU_MSR, { 0, 0, 0 }, ADL_UNC_CBO_CONFIG } };
static const struct pmu_reg rkl_globals[] = { { PMU_MSR, { 0, 0, 0 }, 0xE01 }, { PMU_MSR, { 0, 0, 0 }, ADL_UNC_CBO_CONFIG } };

extern const struct event_desc icl_events[], rkl_events[];
extern const unsigned icl_events_count, rkl_events_count;

const struct pmu_driver pmu_driver_icl = {
	.name = "icl-client-uncore",
	.title = "Ice Lake",
	.what = "uncore PMU",
	.status_name = "(no overflow status)",
	.vendor = "GenuineIntel",
	.models = icl_models,
	.units = icl_units,
	.nunits = ADL_UNIT_IMCP, /* no programmable IMC counters (Linux: icl_uncore_init, rkl_uncore_init) */
	.globals = icl_globals,
	.nglobals = 1,
	.events = icl_events,
	.nevents = &icl_events_count,
	.ops = &icl_ops,
	.use_idle = PMU_IDLE_ZERO,
};

const struct pmu_driver pmu_driver_rkl = {
	.name = "rkl-client-uncore",
	.title = "Rocket Lake",
	.what = "uncore PMU",
	.status_name = "(no overflow status)",
	.vendor = "GenuineIntel",
	.models = rkl_models,
	.units = rkl_units,
	.nunits = ADL_UNIT_IMCP, /* no programmable IMC counters (Linux: icl_uncore_init, rkl_uncore_init) */
	.globals = rkl_globals,
	.nglobals = 2,
	.events = rkl_events,
	.nevents = &rkl_events_count,
	.ops = &adl_ops,
	.use_global = true,
	.use_idle = PMU_IDLE_ZERO,
};
