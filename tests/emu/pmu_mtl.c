/* The Meteor Lake / Arrow Lake and Lunar Lake client uncores: register
 * tables, hooks and event table (pmu_mtl.h says where each fact comes
 * from). */
#include "model.h"

#include "../../drivers/base/parse.h"

/* uncore_snb.c. Meteor Lake (mtl_msr_uncores): the cNCU box control
 * 0x240e and the sNCU's 0x200e, into whose bit 29 mtl_uncore_msr_init_box
 * writes SNB_UNC_GLOBAL_CTL_EN; the cNCU fixed control/counter
 * 0x2402/0x2408 and the sNCU's 0x2002/0x2008; CBo 0x2442/0x2448, ARB
 * 0x2412/0x2418, HAC_ARB 0x2012/0x2018, HAC_CBO (MTL_UNC_HBO_*)
 * 0x2042/0x2048, each box SNB_UNC_CBO_MSR_OFFSET (0x10) after the last, 2
 * counters of 48 bits; ICL_UNC_CBO_CONFIG 0x396 (count in 3:0). Lunar Lake
 * (lnl_msr_uncores): CBo (4 boxes, lnl_uncore_cpu_init) and ARB as MTL's,
 * the global control LNL_UNC_MSR_GLOBAL_CTL 0x240e. */
#define CNCU_BOX_CTL 0x240Eu
#define SNCU_BOX_CTL 0x200Eu
#define BOX_EN       (1ull << 29)
#define CNCU_FIX_CTL 0x2402u
#define CNCU_FIX_CTR 0x2408u
#define SNCU_FIX_CTL 0x2002u
#define SNCU_FIX_CTR 0x2008u
#define CBO_SEL0     0x2442u
#define CBO_CTR0     0x2448u
#define ARB_SEL0     0x2412u
#define ARB_CTR0     0x2418u
#define HARB_SEL0    0x2012u
#define HARB_CTR0    0x2018u
#define HCBO_SEL0    0x2042u
#define HCBO_CTR0    0x2048u
#define BOX_STRIDE   0x10u
#define CBO_CONFIG   0x396u
/* adl_uncore_formats_attr (every MTL and LNL MSR unit's format group):
 * event 7:0, umask 15:8, edge 18, inv 23, threshold 29:24; SNB_UNC_CTL_EN 22. */
#define SEL_RW      0x3FC4FFFFull
#define SEL_EN      (1ull << 22)
#define SEL_THR(v)  (((v) >> 24) & 0x3f)
#define WIDTH       48
#define MASK(w)     ((1ull << (w)) - 1)

/* perfmon MTL/events/meteorlake_uncore.json (and ARL's, a subset) */
static const struct emu_event mtl_events[] = {
	{ "UNC_HAC_ARB_TRK_REQUESTS.ALL", EMU_UNIT_HAC_ARB, 0x81, 0x01, 0x3, false },
	{ "UNC_HAC_ARB_REQ_TRK_REQUEST.DRD", EMU_UNIT_HAC_ARB, 0x81, 0x02, 0x3, false },
	{ "UNC_HAC_ARB_TRANSACTIONS.ALL", EMU_UNIT_HAC_ARB, 0x8A, 0x01, 0x3, false },
	{ "UNC_HAC_ARB_TRANSACTIONS.READS", EMU_UNIT_HAC_ARB, 0x8A, 0x02, 0x3, false },
	{ "UNC_HAC_ARB_TRANSACTIONS.WRITES", EMU_UNIT_HAC_ARB, 0x8A, 0x04, 0x3, false },
	{ "UNC_HAC_CBO_TOR_ALLOCATION.DRD", EMU_UNIT_HAC_CBO, 0x35, 0x01, 0x3, false },
	{ "UNC_HAC_CBO_TOR_ALLOCATION.ALL", EMU_UNIT_HAC_CBO, 0x35, 0x08, 0x3, false },
	{ "UNC_ARB_DAT_OCCUPANCY.RD", EMU_UNIT_ARB, 0x85, 0x02, 0x1, false },
	{ "UNC_CLOCK.SOCKET", EMU_UNIT_FIXED, 0x00, 0x01, 0x80, false },
	/* Unit iMC, the programmable IMC counters (pmu_adl.c): the events of
	 * MTL, ARL and LNL that Alder Lake's file lacks, counting 32-byte
	 * chunks ("Counter increments by 1 after receiving 32B chunk data").
	 * UNC_M_CAS_COUNT_RD and the others Alder Lake has are pmu_adl.c's. */
	{ "UNC_M_RD_DATA", EMU_UNIT_ADL_IMCP, 0x3A, 0x00, 0x1F, false },
	{ "UNC_M_WR_DATA", EMU_UNIT_ADL_IMCP, 0x3B, 0x00, 0x1F, false },
	{ "UNC_M_TOTAL_DATA", EMU_UNIT_ADL_IMCP, 0x3C, 0x00, 0x1F, false },
};

const struct emu_event *emu_mtl_event_find(const char *name)
{
	for (unsigned i = 0; i < sizeof(mtl_events) / sizeof(mtl_events[0]); i++)
		if (str_ieq(name, mtl_events[i].name))
			return &mtl_events[i];
	return NULL;
}

bool emu_mtl_model(unsigned model)
{
	return model == 0xAA || model == 0xAC || model == 0xC5 || model == 0xC6 || model == 0xB5;
}

bool emu_lnl_model(unsigned model)
{
	return model == 0xBD;
}

/* Linux's MTL IMC IDs (the first, 0x7D00); chipsec: arlh.xml ARL-H 0x7D06
 * and ARL-U 0x7D30, arl.xml ARL-S 0x7D1A, lnl.xml 0x6400. */
uint16_t emu_mtl_host_bridge(unsigned model)
{
	switch (model) {
	case 0xC5: return 0x7D06;
	case 0xC6: return 0x7D1A;
	case 0xB5: return 0x7D30;
	case 0xBD: return 0x6400;
	default: return 0x7D00;
	}
}

static uint64_t cbo_config_read(const struct emu *e)
{
	return e->cfg.no_cbo_banks & 0xF;
}

/* A box of two counters: selects at SEL + 0x10 b, counters at CTR + 0x10 b;
 * present while b < ncbo (BOX >= 0) or always (-1). */
#define BOX(NAME, SEL, CTR, B, BOXNO, C0, UNIT)                                                                      \
	{ NAME "_PERFEVTSEL", (SEL) + BOX_STRIDE * (B), 2, 1, EMU_REG_CONTROL, 0, (BOXNO), (C0) + 2 * (B), 0, 0, SEL_RW, \
	  0, ~SEL_RW, false, NULL, false, 0, false, 0 },                                                              \
	{ NAME "_PER_CTR", (CTR) + BOX_STRIDE * (B), 2, 1, EMU_REG_COUNTER, WIDTH, (BOXNO), (C0) + 2 * (B), (UNIT), 0, \
	  MASK(WIDTH), 0, ~MASK(WIDTH), false, NULL, false, 0, false, 0 }
#define CBO(b)  BOX("MTL_UNC_CBO_" #b, CBO_SEL0, CBO_CTR0, b, b, EMU_MTL_CTR_CBO0, EMU_UNIT_CBO)
#define ARB(b)  BOX("MTL_UNC_ARB_" #b, ARB_SEL0, ARB_CTR0, b, -1, EMU_MTL_CTR_ARB0, EMU_UNIT_ARB)
#define HARB(b) BOX("MTL_UNC_HAC_ARB_" #b, HARB_SEL0, HARB_CTR0, b, -1, EMU_MTL_CTR_HAC_ARB0, EMU_UNIT_HAC_ARB)
#define HCBO(b) BOX("MTL_UNC_HBO_" #b, HCBO_SEL0, HCBO_CTR0, b, -1, EMU_MTL_CTR_HAC_CBO0, EMU_UNIT_HAC_CBO)
#define FIXED(NAME, CTL, CTR, C)                                                                                     \
	{ NAME "_CTRL", CTL, 1, 1, EMU_REG_CONTROL, 0, -1, C, 0, 0, SEL_EN, 0, ~SEL_EN, false, NULL, false, 0, false, 0 }, \
	{ NAME "_CTR", CTR, 1, 1, EMU_REG_COUNTER, WIDTH, -1, C, EMU_UNIT_FIXED, 0, MASK(WIDTH), 0, ~MASK(WIDTH), false,  \
	  NULL, false, 0, false, 0 }

static const struct emu_reg mtl_regs[] = {
	{ "MTL_UNC_CNCU_BOX_CTL", CNCU_BOX_CTL, 1, 1, EMU_REG_CONTROL, 0, -1, -1, 0, 0, BOX_EN, 0, ~BOX_EN, false, NULL,
	  false, 0, false, 0 },
	{ "MTL_UNC_SNCU_BOX_CTL", SNCU_BOX_CTL, 1, 1, EMU_REG_PLAIN, 0, -1, -1, 0, 0, BOX_EN, 0, ~BOX_EN, false, NULL,
	  false, 0, false, 0 },
	{ "ICL_UNC_CBO_CONFIG", CBO_CONFIG, 1, 1, EMU_REG_CONFIG, 0, -1, -1, 0, 0, 0, 0, 0, true, cbo_config_read, false, 0,
	  false, 0 },
	FIXED("MTL_UNC_CNCU_FIXED", CNCU_FIX_CTL, CNCU_FIX_CTR, EMU_MTL_CTR_CFIXED),
	FIXED("MTL_UNC_SNCU_FIXED", SNCU_FIX_CTL, SNCU_FIX_CTR, EMU_MTL_CTR_SFIXED),
	ARB(0), ARB(1), HARB(0), HARB(1), HCBO(0), HCBO(1),
	CBO(0), CBO(1), CBO(2), CBO(3), CBO(4), CBO(5), CBO(6), CBO(7),
	CBO(8), CBO(9), CBO(10), CBO(11), CBO(12), CBO(13), CBO(14),
};

static const struct emu_reg lnl_regs[] = {
	{ "LNL_UNC_MSR_GLOBAL_CTL", CNCU_BOX_CTL, 1, 1, EMU_REG_CONTROL, 0, -1, -1, 0, 0, BOX_EN, 0, ~BOX_EN, false, NULL,
	  false, 0, false, 0 },
	ARB(0), ARB(1),
	CBO(0), CBO(1), CBO(2), CBO(3),
};

/* The CBo block of 15 boxes (icl_get_cbox_num: 0x396's bits 3:0, up to
 * 15; box 14 at 0x2522/0x2528): an address in it that no register answers
 * (a box beyond the count, Lunar Lake's beyond 4, the gaps between a box's
 * registers) is a #GP. */
#define MAX_CBO 15
static const struct emu_window mtl_windows[] = { { CBO_SEL0, CBO_SEL0 + BOX_STRIDE * MAX_CBO - 1 } };

static void mtl_init(struct emu *e)
{
	unsigned n = (unsigned)(e->cfg.no_cbo_banks & 0xF);

	e->ncbo = n > MAX_CBO ? MAX_CBO : n;
	if (e->cfg.pmu_in_use) {
		e->global_ctrl = BOX_EN;
		e->ctr[EMU_MTL_CTR_ARB0].sel = SEL_EN | 0x0181;
	}
	if (e->cfg.global_ctrl_set)
		e->global_ctrl = e->cfg.global_ctrl & BOX_EN;
}

static void lnl_init(struct emu *e)
{
	mtl_init(e);
	e->ncbo = 4;
}

/* Counting needs bit 29 of the box control of the counter's side: the
 * sNCU's (0x200e) for the HAC units and the sNCU clock, the cNCU's
 * (0x240e) for the others. (Linux sets both; which one gates which units
 * is the model's reading of the tiles' names: the HAC units and the sNCU
 * are the SoC tile's.) Lunar Lake has the one control. */
static bool mtl_enabled(const struct emu *e)
{
	return ((e->global_ctrl | e->plain[0]) & BOX_EN) != 0;
}

static bool soc_side(const struct emu *e, const struct emu_ctr *c)
{
	return c->unit == EMU_UNIT_HAC_ARB || c->unit == EMU_UNIT_HAC_CBO || c == &e->ctr[EMU_MTL_CTR_SFIXED];
}

static bool mtl_ctr_enabled(const struct emu *e, const struct emu_ctr *c)
{
	uint64_t box = e->pmu == &emu_pmu_mtl && soc_side(e, c) ? e->plain[0] : e->global_ctrl;

	return (box & BOX_EN) && (c->sel & SEL_EN);
}

/* No global status register: a wrap is not forwarded. */
static bool mtl_ovf_forwarded(const struct emu_ctr *c)
{
	(void)c;
	return false;
}

static bool mtl_freeze_on_ovf(const struct emu *e)
{
	(void)e;
	return false;
}

static void mtl_freeze(struct emu *e)
{
	e->global_ctrl &= ~BOX_EN;
	e->plain[0] &= ~BOX_EN;
}

/* Linux gives the MTL units no event constraints. */
static uint64_t mtl_increment(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1)
{
	uint8_t code = c->sel & 0xff, umask = (c->sel >> 8) & 0xff;
	uint64_t rate = 0;

	if (c->unit == EMU_UNIT_FIXED)
		return c1 - c0;
	for (unsigned i = 0; i < e->cfg.nrates; i++) {
		const struct emu_rate *r = &e->cfg.rates[i];
		if (r->unit == c->unit && r->code == code && r->umask == umask)
			rate = r->per_sec;
	}
	return emu_spread(e->clock_hz, rate, c0, c1, SEL_THR(c->sel), c->sel & (1ull << 23), c->sel & (1ull << 18));
}

/* 0:0.0's ID is the generation's host bridge (pmu_adl.c's hooks); the
 * programmable IMC registers in MCHBAR are Alder Lake's (pmu_adl.c): Linux's
 * mtl_uncore_init takes adl_uncore_mmio_init, and lnl_mmio_uncores keeps
 * adl_uncore_imc. */
const struct emu_pmu emu_pmu_mtl = {
	.name = "mtl",
	.regs = mtl_regs,
	.nregs = sizeof(mtl_regs) / sizeof(mtl_regs[0]),
	.windows = mtl_windows,
	.nwindows = 1,
	.pci = emu_client_pci,
	.npci = 1,
	.nctr = EMU_MTL_NCTR,
	.ops = {
		.init = mtl_init,
		.enabled = mtl_enabled,
		.ctr_enabled = mtl_ctr_enabled,
		.ovf_forwarded = mtl_ovf_forwarded,
		.freeze_on_ovf = mtl_freeze_on_ovf,
		.freeze = mtl_freeze,
		.increment = mtl_increment,
	},
	.mmio_read32 = emu_adl_imcp_read32,
	.mmio_write32 = emu_adl_imcp_write32,
};

const struct emu_pmu emu_pmu_lnl = {
	.name = "lnl",
	.regs = lnl_regs,
	.nregs = sizeof(lnl_regs) / sizeof(lnl_regs[0]),
	.windows = mtl_windows,
	.nwindows = 1,
	.pci = emu_client_pci,
	.npci = 1,
	.nctr = EMU_MTL_NCTR,
	.ops = {
		.init = lnl_init,
		.enabled = mtl_enabled,
		.ctr_enabled = mtl_ctr_enabled,
		.ovf_forwarded = mtl_ovf_forwarded,
		.freeze_on_ovf = mtl_freeze_on_ovf,
		.freeze = mtl_freeze,
		.increment = mtl_increment,
	},
	.mmio_read32 = emu_adl_imcp_read32,
	.mmio_write32 = emu_adl_imcp_write32,
};
