/* The 6th-generation Core (Skylake-client) uncore: the register table and
 * behaviour hooks the model core (model.c) walks, the event and IMC tables,
 * and MCHBAR. Section and table numbers are Intel 334060-001's; everything
 * here is typed from the manual (and, where the manual stops, Linux
 * uncore_snb.c), not taken from the application. */
#include "model.h"

#include "../../drivers/base/arith.h"
#include "../../drivers/base/fmt.h"
#include "../../drivers/base/parse.h"

#define NS_PER_S 1000000000ull

/* Table 2-2: FRZ_ON_PMI 31, WAKE_ON_PMI 30, EN 29, PMI_SEL_CORE3..0 3:0.
 * Bit 4 is reserved in the manual, but Linux writes it on Skylake
 * (0x2000001F: one PMI select bit per core, up to five), so the model
 * takes it as RW rather than fault on what real software writes. */
#define GCTRL_FRZ_ON_PMI (1ull << 31)
#define GCTRL_EN         (1ull << 29)
#define GCTRL_RW         0xE000001Full
/* Table 2-3 (CBO bit 3, per Intel SDM Vol. 4 and edk2's SkylakeMsr.h): bits 0, 1 and 3 are RW1C. */
#define GSTATUS_RW1C     0xBull
/* Table 2-4: CNT_EN 22, OVF_EN 20. Table 2-7: THR 28:24, INV 23, EN 22,
 * OVF_EN 20, E 18, UMASK 15:8, EVT_SEL 7:0. */
#define FIXED_CTRL_RW    0x00500000ull
#define SEL_RW           0x1FD4FFFFull
#define SEL_EN           (1ull << 22)
#define SEL_OVF_EN       (1ull << 20)
#define SEL_EDGE         (1ull << 18)
#define SEL_INV          (1ull << 23)
#define SEL_THR(v)       (((v) >> 24) & 0x1f)
/* Table 2-1's addresses; box 7 as Linux addresses it (pmu_skl.h). */
#define GLOBAL_CTRL      0xE01u
#define GLOBAL_STATUS    0xE02u
#define FIXED_CTRL       0x394u
#define FIXED_CTR        0x395u
#define CBO_CONFIG       0x396u
#define ARB_PERFCTR0     0x3B0u
#define ARB_PERFEVTSEL0  0x3B2u
#define CBO_PERFEVTSEL0  0x700u /* box b: + 0x10 * b */
#define CBO_PERFCTR0     0x706u
#define CBO7_PERFEVTSEL0 0xF70u
#define CBO7_PERFCTR0    0xF76u
/* Counter widths: Table 2-5 (fixed, 48), Sections 2.4.2/2.5.2 (CBo, ARB, 44). */
#define FIXED_WIDTH      48
#define GP_WIDTH         44
#define MASK(w)          ((1ull << (w)) - 1)

/* Table 3-1 (CBo, counters 0 and 1) and Table 3-2 (ARB; UNC_CLOCK.SOCKET
 * on the fixed counter). UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST has
 * the code and umask of UNC_ARB_TRK_OCCUPANCY.ALL; it counts "cycles with
 * at least one request outstanding", a threshold view of it. */
const struct emu_event emu_events[EMU_NEVENTS] = {
	{ "UNC_CBO_XSNP_RESPONSE.MISS_XCORE", EMU_UNIT_CBO, 0x22, 0x41, 0x3, false },
	{ "UNC_CBO_XSNP_RESPONSE.MISS_EVICTION", EMU_UNIT_CBO, 0x22, 0x81, 0x3, false },
	{ "UNC_CBO_XSNP_RESPONSE.HIT_XCORE", EMU_UNIT_CBO, 0x22, 0x44, 0x3, false },
	{ "UNC_CBO_XSNP_RESPONSE.HITM_XCORE", EMU_UNIT_CBO, 0x22, 0x48, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_M", EMU_UNIT_CBO, 0x34, 0x21, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_M", EMU_UNIT_CBO, 0x34, 0x81, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.READ_I", EMU_UNIT_CBO, 0x34, 0x18, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_I", EMU_UNIT_CBO, 0x34, 0x88, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.READ_MESI", EMU_UNIT_CBO, 0x34, 0x1F, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_MESI", EMU_UNIT_CBO, 0x34, 0x2F, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_MESI", EMU_UNIT_CBO, 0x34, 0x8F, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_ES", EMU_UNIT_CBO, 0x34, 0x86, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.READ_ES", EMU_UNIT_CBO, 0x34, 0x16, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_ES", EMU_UNIT_CBO, 0x34, 0x26, 0x3, false },
	{ "UNC_ARB_TRK_OCCUPANCY.ALL", EMU_UNIT_ARB, 0x80, 0x01, 0x1, false },
	{ "UNC_ARB_TRK_REQUESTS.ALL", EMU_UNIT_ARB, 0x81, 0x01, 0x3, false },
	{ "UNC_ARB_TRK_REQUESTS.WRITES", EMU_UNIT_ARB, 0x81, 0x20, 0x3, false },
	{ "UNC_ARB_COH_TRK_REQUESTS.ALL", EMU_UNIT_ARB, 0x84, 0x01, 0x3, false },
	{ "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", EMU_UNIT_ARB, 0x80, 0x01, 0x1, true },
	{ "UNC_CLOCK.SOCKET", EMU_UNIT_FIXED, 0x00, 0x01, 0x80, false },
};

/* Table 3-3, in its order; perf's names from Linux uncore_snb.c. */
const struct emu_imc emu_imc[EMU_IMC_COUNTERS] = {
	{ "DRAM_GT_REQUESTS", "gt_requests", 0x5040 },	 { "DRAM_IA_REQUESTS", "ia_requests", 0x5044 },
	{ "DRAM_IO_REQUESTS", "io_requests", 0x5048 },	 { "DRAM_DATA_READS", "data_reads", 0x5050 },
	{ "DRAM_DATA_WRITES", "data_writes", 0x5054 },
};

const struct emu_event *emu_event_find(const char *name)
{
	for (unsigned i = 0; i < EMU_NEVENTS; i++)
		if (str_ieq(name, emu_events[i].name))
			return &emu_events[i];
	return NULL;
}

int emu_imc_find(const char *name)
{
	for (int i = 0; i < EMU_IMC_COUNTERS; i++)
		if (free_name_matches(name, "imc", emu_imc[i].name, emu_imc[i].perf_name))
			return i;
	return -1;
}

/* Table 2-6: NO_CBO_BANKS in 3:0, read only; bits 63:4 as configured. */
static uint64_t cbo_config_read(const struct emu *e)
{
	return (e->cfg.no_cbo_banks & EMU_SKL_NO_CBO_BANKS) | e->cfg.cbo_config_reserved;
}

/* A CBo box: PERFEVTSEL0-1, then PERFCTR0-1 six MSRs on (Table 2-1). */
#define CBO_BOX(b, sel, ctr)                                                                                       \
	{ "MSR_UNC_CBO_" #b "_PERFEVTSEL0", (sel), 2, 1, EMU_REG_CONTROL, 0, (b), EMU_CTR_CBO0 + 2 * (b), 0, 0,       \
	  SEL_RW, 0, ~SEL_RW, false, NULL, false, 0, false, 0 },                                                                        \
	{ "MSR_UNC_CBO_" #b "_PERFCTR0", (ctr), 2, 1, EMU_REG_COUNTER, GP_WIDTH, (b), EMU_CTR_CBO0 + 2 * (b), EMU_UNIT_CBO, \
	  3, MASK(GP_WIDTH), 0, ~MASK(GP_WIDTH), false, NULL, false, 0, false, 0 }

/* Table 2-1, each register with Tables 2-2 to 2-7's bit fields. */
static const struct emu_reg skl_regs[] = {
	{ "MSR_UNC_PERF_GLOBAL_CTRL", GLOBAL_CTRL, 1, 1, EMU_REG_CONTROL, 0, -1, -1, 0, 0, GCTRL_RW, 0, ~GCTRL_RW, false,
	  NULL, false, 0, false, 0 },
	{ "MSR_UNC_PERF_GLOBAL_STATUS", GLOBAL_STATUS, 1, 1, EMU_REG_STATUS, 0, -1, -1, 0, 0, 0, GSTATUS_RW1C,
	  ~GSTATUS_RW1C, false, NULL, false, 0, false, 0 },
	/* Table 2-6 says read only; the model faults on a write, as it does
	 * on reserved bits. */
	{ "MSR_UNC_CBO_CONFIG", CBO_CONFIG, 1, 1, EMU_REG_CONFIG, 0, -1, -1, 0, 0, 0, 0, 0, true, cbo_config_read, false, 0, false, 0 },
	{ "MSR_UNC_PERF_FIXED_CTRL", FIXED_CTRL, 1, 1, EMU_REG_CONTROL, 0, -1, EMU_CTR_FIXED, 0, 0, FIXED_CTRL_RW, 0,
	  ~FIXED_CTRL_RW, false, NULL, false, 0, false, 0 },
	{ "MSR_UNC_PERF_FIXED_CTR", FIXED_CTR, 1, 1, EMU_REG_COUNTER, FIXED_WIDTH, -1, EMU_CTR_FIXED, EMU_UNIT_FIXED, 0,
	  MASK(FIXED_WIDTH), 0, ~MASK(FIXED_WIDTH), false, NULL, false, 0, false, 0 },
	{ "MSR_UNC_ARB_PERFCTR0", ARB_PERFCTR0, 2, 1, EMU_REG_COUNTER, GP_WIDTH, -1, EMU_CTR_ARB0, EMU_UNIT_ARB, 1,
	  MASK(GP_WIDTH), 0, ~MASK(GP_WIDTH), false, NULL, false, 0, false, 0 },
	{ "MSR_UNC_ARB_PERFEVTSEL0", ARB_PERFEVTSEL0, 2, 1, EMU_REG_CONTROL, 0, -1, EMU_CTR_ARB0, 0, 0, SEL_RW, 0, ~SEL_RW,
	  false, NULL, false, 0, false, 0 },
	CBO_BOX(0, CBO_PERFEVTSEL0 + 0x00, CBO_PERFCTR0 + 0x00),
	CBO_BOX(1, CBO_PERFEVTSEL0 + 0x10, CBO_PERFCTR0 + 0x10),
	CBO_BOX(2, CBO_PERFEVTSEL0 + 0x20, CBO_PERFCTR0 + 0x20),
	CBO_BOX(3, CBO_PERFEVTSEL0 + 0x30, CBO_PERFCTR0 + 0x30),
	CBO_BOX(4, CBO_PERFEVTSEL0 + 0x40, CBO_PERFCTR0 + 0x40),
	CBO_BOX(5, CBO_PERFEVTSEL0 + 0x50, CBO_PERFCTR0 + 0x50),
	CBO_BOX(6, CBO_PERFEVTSEL0 + 0x60, CBO_PERFCTR0 + 0x60),
	CBO_BOX(7, CBO7_PERFEVTSEL0, CBO7_PERFCTR0),
};

/* The CBo blocks: boxes 0-6 at 0x700-0x76F, box 7 at 0xF70-0xF7F. The
 * unlisted addresses between a box's registers, and the registers of
 * boxes beyond the configured count, are #GP. */
static const struct emu_window skl_windows[] = {
	{ CBO_PERFEVTSEL0, CBO_PERFEVTSEL0 + 0x10 * (EMU_MAX_CBO - 1) - 1 },
	{ CBO7_PERFEVTSEL0, CBO7_PERFEVTSEL0 + 0xF },
};

unsigned emu_skl_cbos(unsigned no_cbo_banks)
{
	unsigned raw = no_cbo_banks & EMU_SKL_NO_CBO_BANKS;
	return raw == 0 ? 0 : raw - 1 > EMU_MAX_CBO ? EMU_MAX_CBO : raw - 1;
}

static void skl_init(struct emu *e)
{
	const struct emu_config *cfg = &e->cfg;
	/* Section 2.4.1: NO_CBO_BANKS less one; boxes beyond EMU_MAX_CBO are
	 * not emulated (the field still reads as configured). */
	e->ncbo = emu_skl_cbos(cfg->no_cbo_banks);

	if (cfg->pmu_in_use) {
		/* Someone else's measurement: globally enabled, with
		 * UNC_CBO_CACHE_LOOKUP.ANY_MESI (or, with no CBo, an ARB event) on. */
		e->global_ctrl = GCTRL_EN;
		if (e->ncbo)
			e->ctr[EMU_CTR_CBO0].sel = SEL_EN | 0x8f34;
		else
			e->ctr[EMU_CTR_ARB0].sel = SEL_EN | 0x0181;
	}
	if (cfg->global_ctrl_set)
		e->global_ctrl = cfg->global_ctrl;
}

static bool skl_enabled(const struct emu *e)
{
	return e->global_ctrl & GCTRL_EN;
}

/* Table 2-4's CNT_EN and Table 2-7's EN are the same bit, 22. */
static bool skl_ctr_enabled(const struct emu *e, const struct emu_ctr *c)
{
	(void)e;
	return c->sel & SEL_EN;
}

/* Tables 2-4 and 2-7, OVF_EN: "0: Counter overflow is not forwarded". */
static bool skl_ovf_forwarded(const struct emu_ctr *c)
{
	return c->sel & SEL_OVF_EN;
}

/* Table 2-2: with FRZ_ON_PMI set, a forwarded overflow freezes every
 * counter and clears EN. */
static bool skl_freeze_on_ovf(const struct emu *e)
{
	return e->global_ctrl & GCTRL_FRZ_ON_PMI;
}

static void skl_freeze(struct emu *e)
{
	e->global_ctrl &= ~GCTRL_EN;
}

static uint64_t rate_of(const struct emu *e, const struct emu_ctr *c)
{
	uint8_t code = c->sel & 0xff, umask = (c->sel >> 8) & 0xff;

	/* Table 3-2: UNC_ARB_TRK_OCCUPANCY (0x80) counts on ARB counter 0
	 * only, and so does 0x83 (Linux uncore_snb.c, snb_uncore_arb_constraints);
	 * the model makes them count nothing on counter 1. */
	if (c->unit == EMU_UNIT_ARB && (code == 0x80 || code == 0x83) && c->index != 0)
		return 0;
	for (unsigned i = 0; i < e->cfg.nrates; i++) {
		const struct emu_rate *r = &e->cfg.rates[i];
		if (r->unit == c->unit && r->code == code && r->umask == umask)
			return r->per_sec;
	}
	return 0;
}

/* What counter c adds over UCLK cycles [c0, c1): the event spread evenly
 * over cycles, through Table 2-7's THR, INV and E per cycle (emu_spread,
 * model.c, says how). The fixed counter counts UCLK cycles (Table 2-5). */
static uint64_t skl_increment(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1)
{
	if (c->unit == EMU_UNIT_FIXED)
		return c1 - c0;
	return emu_spread(e->clock_hz, rate_of(e, c), c0, c1, SEL_THR(c->sel), c->sel & SEL_INV, c->sel & SEL_EDGE);
}

/* The manual describes no RDPMC path to the uncore counters, and the core
 * PMU is not modelled: RDPMC is the processor's (ops.rdpmc NULL). No PCI
 * function either: MCHBAR is published in the real host bridge (driver.c). */
const struct emu_pmu emu_pmu_skl = {
	.name = "skl",
	.regs = skl_regs,
	.nregs = sizeof(skl_regs) / sizeof(skl_regs[0]),
	.windows = skl_windows,
	.nwindows = sizeof(skl_windows) / sizeof(skl_windows[0]),
	.nctr = EMU_MSR_CTRS,
	.ops = {
		.init = skl_init,
		.enabled = skl_enabled,
		.ctr_enabled = skl_ctr_enabled,
		.ovf_forwarded = skl_ovf_forwarded,
		.freeze_on_ovf = skl_freeze_on_ovf,
		.freeze = skl_freeze,
		.increment = skl_increment,
	},
};

bool emu_global_ctrl_valid(uint64_t v)
{
	return !(v & ~GCTRL_RW);
}

void emu_init(struct emu *e, const struct emu_config *cfg)
{
	emu_init_pmu(e, &emu_pmu_skl, cfg);
}

uint32_t emu_imc_value(const struct emu_config *cfg, unsigned i, uint64_t t_ns)
{
	if (cfg->stuck[EMU_CTR_IMC0 + i])
		return cfg->imc_start[i];
	return (uint32_t)(cfg->imc_start[i] + u64_muldiv(t_ns, cfg->imc_per_sec[i], NS_PER_S));
}

bool emu_imc_read32(const struct emu_config *cfg, uint32_t off, uint64_t t_ns, uint32_t *ret_val)
{
	if (emu_client_imc(cfg->uncore_active))
		return emu_adl_imc_read32(cfg, off, t_ns, ret_val);
	for (unsigned i = 0; i < EMU_IMC_COUNTERS; i++) {
		if (off == emu_imc[i].offset) {
			*ret_val = emu_imc_value(cfg, i, t_ns);
			return true;
		}
	}
	return false;
}

uint64_t emu_mchbar_value(const struct emu_config *cfg, uint64_t base)
{
	switch (cfg->mchbar_fault) {
	case EMU_MCHBAR_DISABLED: return base;
	case EMU_MCHBAR_ZERO: return EMU_SKL_MCHBAR_ENABLE;
	case EMU_MCHBAR_HIGH: return EMU_SKL_MCHBAR_MASK | EMU_SKL_MCHBAR_ENABLE;
	case EMU_MCHBAR_OK: break;
	}
	return base | EMU_SKL_MCHBAR_ENABLE;
}
