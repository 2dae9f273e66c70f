/* The Tiger Lake client uncore driver: Linux's uncore_snb.c tgl_uncore_*
 * (tgl_msr_uncores: icl_uncore_cbox, snb_uncore_arb, icl_uncore_clockbox;
 * tgl_l_uncore_imc_freerunning and tgl_uncore_imc_freerunning). The ops are
 * the Alder Lake driver's (adl.c): the global control is set only while
 * counting and restored as found; the IMC's 64-bit free-running counters of
 * both controllers are read from the IMC block, which TGL-L (0x8C) and
 * TGL-H (0x8D) keep at different MCHBAR offsets. */
#include "adl.h"

/* intel-family.h: TIGERLAKE_L 0x8C, TIGERLAKE 0x8D. */
static const struct pmu_model tgl_models[] = {
	{ 6, 0x8C, "Tiger Lake (TGL-L, UP3/UP4)" },
	{ 6, 0x8D, "Tiger Lake (TGL-H)" },
	{ 0, 0, 0 },
};

/* skl_uncore_formats_attr (icl_uncore_cbox, snb_uncore_arb): event 0-7,
 * umask 8-15, edge 18, inv 23, cmask5 24-28; SNB_UNC_CTL_EN 22. Shared
 * with the Rocket Lake driver (icl.c). */
const struct pmu_layout tgl_layout = {
	.event = { 0, 8 },
	.umask = { 8, 8 },
	.thresh = { 24, 5 },
	.inv = 1ull << 23,
	.edge = 1ull << 18,
	.enable = ADL_CTL_EN,
	.rw_mask = 0x1FC4FFFFull,
	.cite = "uncore_snb.c skl_uncore_formats_attr",
};

const struct pmu_constraint tgl_arb_constraints[] = { { 0x80, 0x1 }, { 0x83, 0x1 }, { 0, 0 } };
const struct pmu_inc tgl_arb_incs[] = { { 0x80, 64 }, { 0x85, 64 }, { 0, 0 } };

/* From the IMC block: 0x40 total, 0x58 read, 0xA0 write; controller 1 at
 * + 0x10000. Intel perfmon TGL/events/tigerlake_uncore.json names them. */
static const struct pmu_free tgl_imc[ADL_IMC_COUNTERS] = {
	{ "UNC_MC0_TOTAL_REQCOUNT_FREERUN", "mc0_data_total", 0x40, PMU_ROLE_NONE, "requests", "MC0",
	  "MC0 read and write requests (64 B)." },
	{ "UNC_MC0_RDCAS_COUNT_FREERUN", "mc0_data_read", 0x58, PMU_ROLE_DRAM_READ, "lines", "mc0",
	  "MC0 64 B reads, all channels." },
	{ "UNC_MC0_WRCAS_COUNT_FREERUN", "mc0_data_write", 0xA0, PMU_ROLE_DRAM_WRITE, "lines", "mc0",
	  "MC0 64 B writes, all channels." },
	{ "UNC_MC1_TOTAL_REQCOUNT_FREERUN", "mc1_data_total", ADL_IMC_MC_OFFSET + 0x40, PMU_ROLE_NONE, "requests", "MC1",
	  "MC1 read and write requests (64 B)." },
	{ "UNC_MC1_RDCAS_COUNT_FREERUN", "mc1_data_read", ADL_IMC_MC_OFFSET + 0x58, PMU_ROLE_DRAM_READ, "lines", "mc1",
	  "MC1 64 B reads, all channels." },
	{ "UNC_MC1_WRCAS_COUNT_FREERUN", "mc1_data_write", ADL_IMC_MC_OFFSET + 0xA0, PMU_ROLE_DRAM_WRITE, "lines", "mc1",
	  "MC1 64 B writes, all channels." },
};

static const struct pmu_unit tgl_units[ADL_NUNITS] = {
	[ADL_UNIT_CBO] = TGL_CBO_UNIT(&tgl_layout),
	[ADL_UNIT_ARB] = TGL_ARB_UNIT,
	[ADL_UNIT_FIXED] = TGL_FIXED_UNIT,
	[ADL_UNIT_IMC] = { .pmu = "imc", .name = "IMC", .kind = PMU_FREE, .space = PMU_MMIO, .counters = ADL_IMC_COUNTERS,
			   .width = ADL_IMC_WIDTH, .max_boxes = 1, .free = tgl_imc, .base_name = "IMC" },
};

/* SNB_UNC_PERF_GLOBAL_CTL: Linux's rkl_uncore_msr_init_box writes bit 29
 * (its enable_box adds the PMI selects, 0x1F, which a polled run does not
 * need and does not write). */
static const struct pmu_reg tgl_globals[] = { { PMU_MSR, { 0, 0, 0 }, 0xE01 }, { PMU_MSR, { 0, 0, 0 }, ADL_UNC_CBO_CONFIG } };

extern const struct event_desc tgl_events[];
extern const unsigned tgl_events_count;

const struct pmu_driver pmu_driver_tgl = {
	.name = "tgl-client-uncore",
	.title = "Tiger Lake",
	.what = "uncore PMU",
	.status_name = "(no overflow status)",
	.vendor = "GenuineIntel",
	.models = tgl_models,
	.units = tgl_units,
	.nunits = ADL_UNIT_IMCP, /* no programmable IMC counters (Linux's tgl_mmio_uncores) */
	.globals = tgl_globals,
	.nglobals = 2,
	.events = tgl_events,
	.nevents = &tgl_events_count,
	.ops = &adl_ops,
	.use_global = true,
	.use_idle = PMU_IDLE_ZERO,
};
