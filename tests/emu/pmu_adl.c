/* The Alder Lake / Raptor Lake client uncore: register table, hooks, event
 * and IMC tables (pmu_adl.h says where each fact comes from). */
#include "model.h"

#include "../../drivers/base/arith.h"
#include "../../drivers/base/parse.h"

#define NS_PER_S 1000000000ull

/* uncore_snb.c: ADL_UNC_PERF_GLOBAL_CTL 0x2ff0 (Linux writes bit 29,
 * SNB_UNC_GLOBAL_CTL_EN, only); ICL_UNC_CBO_CONFIG 0x396 (count in 3:0);
 * CBo boxes at 0x2000/0x2002 + 8 per box; ARB at 0x2fd0/0x2fd2 + 8 per
 * box, 2 boxes; fixed control/counter 0x2fde/0x2fdf. */
#define GCTL        0x2FF0u
#define GCTL_EN     (1ull << 29)
#define CBO_CONFIG  0x396u
#define CBO_SEL0    0x2000u
#define CBO_CTR0    0x2002u
#define ARB_SEL0    0x2FD0u
#define ARB_CTR0    0x2FD2u
#define FIX_CTL     0x2FDEu
#define FIX_CTR     0x2FDFu
/* adl_uncore_formats_attr: event 7:0, umask 15:8, edge 18, inv 23,
 * cmask 29:24; SNB_UNC_CTL_EN 22. */
#define SEL_RW      0x3FC4FFFFull
#define SEL_EN      (1ull << 22)
#define SEL_THR(v)  (((v) >> 24) & 0x3f)
#define GP_WIDTH    44
#define FIX_WIDTH   48
#define MASK(w)     ((1ull << (w)) - 1)

const struct emu_adl_imc emu_adl_imc[EMU_ADL_IMC_COUNTERS] = {
	{ "UNC_MC0_TOTAL_REQCOUNT_FREERUN", "mc0_data_total", 0x40 },
	{ "UNC_MC0_RDCAS_COUNT_FREERUN", "mc0_data_read", 0x58 },
	{ "UNC_MC0_WRCAS_COUNT_FREERUN", "mc0_data_write", 0xA0 },
	{ "UNC_MC1_TOTAL_REQCOUNT_FREERUN", "mc1_data_total", 0x10040 },
	{ "UNC_MC1_RDCAS_COUNT_FREERUN", "mc1_data_read", 0x10058 },
	{ "UNC_MC1_WRCAS_COUNT_FREERUN", "mc1_data_write", 0x100A0 },
};

/* perfmon ADL alderlake_uncore.json and _experimental.json, ARB and NCU. */
static const struct emu_event adl_events[] = {
	{ "UNC_ARB_TRK_REQUESTS.ALL", EMU_UNIT_ARB, 0x81, 0x01, 0x3, false },
	{ "UNC_ARB_COH_TRK_REQUESTS.ALL", EMU_UNIT_ARB, 0x84, 0x01, 0x3, false },
	{ "UNC_ARB_TRK_OCCUPANCY.ALL", EMU_UNIT_ARB, 0x80, 0x01, 0x1, false },
	{ "UNC_ARB_REQ_TRK_OCCUPANCY.DRD", EMU_UNIT_ARB, 0x80, 0x02, 0x1, false },
	{ "UNC_ARB_REQ_TRK_REQUEST.DRD", EMU_UNIT_ARB, 0x81, 0x02, 0x3, false },
	{ "UNC_ARB_DAT_OCCUPANCY.ALL", EMU_UNIT_ARB, 0x85, 0x01, 0x1, false },
	{ "UNC_ARB_DAT_OCCUPANCY.RD", EMU_UNIT_ARB, 0x85, 0x02, 0x1, false },
	{ "UNC_ARB_TRK_OCCUPANCY.RD", EMU_UNIT_ARB, 0x80, 0x02, 0x1, false },
	{ "UNC_ARB_TRK_REQUESTS.RD", EMU_UNIT_ARB, 0x81, 0x02, 0x3, false },
	{ "UNC_CLOCK.SOCKET", EMU_UNIT_FIXED, 0x00, 0x01, 0x80, false },
	/* the programmable IMC counters' (alderlake_uncore.json, Unit iMC) */
	{ "UNC_M_CAS_COUNT_RD", EMU_UNIT_ADL_IMCP, 0x22, 0x00, 0x1F, false },
	{ "UNC_M_CAS_COUNT_WR", EMU_UNIT_ADL_IMCP, 0x23, 0x00, 0x1F, false },
	{ "UNC_M_ACT_COUNT_RD", EMU_UNIT_ADL_IMCP, 0x24, 0x00, 0x1F, false },
	{ "UNC_M_ACT_COUNT_WR", EMU_UNIT_ADL_IMCP, 0x25, 0x00, 0x1F, false },
	{ "UNC_M_ACT_COUNT_TOTAL", EMU_UNIT_ADL_IMCP, 0x26, 0x00, 0x1F, false },
	{ "UNC_M_PRE_COUNT_PAGE_MISS", EMU_UNIT_ADL_IMCP, 0x27, 0x00, 0x1F, false },
	{ "UNC_M_PRE_COUNT_IDLE", EMU_UNIT_ADL_IMCP, 0x28, 0x00, 0x1F, false },
};

const struct emu_event *emu_adl_event_find(const char *name)
{
	for (unsigned i = 0; i < sizeof(adl_events) / sizeof(adl_events[0]); i++)
		if (str_ieq(name, adl_events[i].name))
			return &adl_events[i];
	return NULL;
}

int emu_adl_imc_find(const char *name)
{
	for (int i = 0; i < EMU_ADL_IMC_COUNTERS; i++)
		if (free_name_matches(name, "imc", emu_adl_imc[i].name, emu_adl_imc[i].perf_name))
			return i;
	return -1;
}

bool emu_adl_model(unsigned model)
{
	return model == 0x97 || model == 0x9A || model == 0xBE || model == 0xB7 || model == 0xBA || model == 0xBF;
}

bool emu_tgl_model(unsigned model)
{
	return model == 0x8C || model == 0x8D;
}

/* intel-family.h: ICELAKE 0x7D, ICELAKE_L 0x7E, ICELAKE_NNPI 0x9D
 * (icl_uncore_init); ROCKETLAKE 0xA7 (rkl_uncore_init). */
bool emu_icl_model(unsigned model)
{
	return model == 0x7D || model == 0x7E || model == 0x9D;
}

bool emu_rkl_model(unsigned model)
{
	return model == 0xA7;
}

/* uncore_snb.c's IMC IDs: ADL 0x4660, RPL 0xA700, TGL 0x9A14 (UP3) and
 * 0x9A36 (the TGL-H one chosen here); ICL 0x8A12 (PCI_DEVICE_ID_INTEL_ICL_U2_IMC),
 * RKL 0x4C43 (PCI_DEVICE_ID_INTEL_RKL_1_IMC). */
uint16_t emu_adl_host_bridge(unsigned model)
{
	switch (model) {
	case 0x7D: case 0x7E: case 0x9D: return 0x8A12;
	case 0xA7: return 0x4C43;
	case 0xB7: case 0xBA: case 0xBF: return 0xA700;
	case 0x8C: return 0x9A14;
	case 0x8D: return 0x9A36;
	default: return 0x4660;
	}
}

/* The IMC block's offset from MCHBAR: TGL-L's counters are at 0x5040...
 * (tgl_l_uncore_imc_freerunning), everyone else's at 0xD840... */
uint32_t emu_adl_imc_block(unsigned model)
{
	return model == 0x8C ? 0x5000 : 0xD800;
}

static uint64_t cbo_config_read(const struct emu *e)
{
	return e->cfg.no_cbo_banks & 0xF;
}

#define CBO_BOX(b)                                                                                                   \
	{ "ADL_UNC_CBO_" #b "_PERFEVTSEL0", CBO_SEL0 + 8 * (b), 2, 1, EMU_REG_CONTROL, 0, (b), EMU_ADL_CTR_CBO0 + 2 * (b), \
	  0, 0, SEL_RW, 0, ~SEL_RW, false, NULL, false, 0, false, 0 },                                                 \
	{ "ADL_UNC_CBO_" #b "_PER_CTR0", CBO_CTR0 + 8 * (b), 2, 1, EMU_REG_COUNTER, GP_WIDTH, (b),                      \
	  EMU_ADL_CTR_CBO0 + 2 * (b), EMU_UNIT_CBO, 3, MASK(GP_WIDTH), 0, ~MASK(GP_WIDTH), false, NULL, false, 0, false, 0 }
#define ARB_BOX(b)                                                                                                   \
	{ "ADL_UNC_ARB_" #b "_PERFEVTSEL0", ARB_SEL0 + 8 * (b), 2, 1, EMU_REG_CONTROL, 0, -1, EMU_ADL_CTR_ARB0 + 2 * (b), \
	  0, 0, SEL_RW, 0, ~SEL_RW, false, NULL, false, 0, false, 0 },                                                 \
	{ "ADL_UNC_ARB_" #b "_PER_CTR0", ARB_CTR0 + 8 * (b), 2, 1, EMU_REG_COUNTER, GP_WIDTH, -1,                      \
	  EMU_ADL_CTR_ARB0 + 2 * (b), EMU_UNIT_ARB, 1, MASK(GP_WIDTH), 0, ~MASK(GP_WIDTH), false, NULL, false, 0, false, 0 }

static const struct emu_reg adl_regs[] = {
	{ "ADL_UNC_PERF_GLOBAL_CTL", GCTL, 1, 1, EMU_REG_CONTROL, 0, -1, -1, 0, 0, GCTL_EN, 0, ~GCTL_EN, false, NULL, false,
	  0, false, 0 },
	{ "ICL_UNC_CBO_CONFIG", CBO_CONFIG, 1, 1, EMU_REG_CONFIG, 0, -1, -1, 0, 0, 0, 0, 0, true, cbo_config_read, false, 0,
	  false, 0 },
	{ "ADL_UNC_FIXED_CTR_CTRL", FIX_CTL, 1, 1, EMU_REG_CONTROL, 0, -1, EMU_ADL_CTR_FIXED, 0, 0, SEL_EN, 0, ~SEL_EN,
	  false, NULL, false, 0, false, 0 },
	{ "ADL_UNC_FIXED_CTR", FIX_CTR, 1, 1, EMU_REG_COUNTER, FIX_WIDTH, -1, EMU_ADL_CTR_FIXED, EMU_UNIT_FIXED, 0,
	  MASK(FIX_WIDTH), 0, ~MASK(FIX_WIDTH), false, NULL, false, 0, false, 0 },
	ARB_BOX(0), ARB_BOX(1),
	CBO_BOX(0), CBO_BOX(1), CBO_BOX(2), CBO_BOX(3), CBO_BOX(4), CBO_BOX(5), CBO_BOX(6), CBO_BOX(7),
	CBO_BOX(8), CBO_BOX(9), CBO_BOX(10), CBO_BOX(11), CBO_BOX(12), CBO_BOX(13), CBO_BOX(14),
};

/* The CBo and ARB blocks: an address in them that no register answers
 * (4..7 of a box, a box beyond the count) is a #GP. icl_get_cbox_num's
 * largest count, 15 (0x396 bits 3:0), ends at 0x2077. */
static const struct emu_window adl_windows[] = {
	{ CBO_SEL0, CBO_SEL0 + 8 * EMU_ADL_MAX_CBO - 1 },
	{ ARB_SEL0, ARB_SEL0 + 8 * 2 - 1 },
};

/* The CBos emulated for 0x396's count: every one, up to what the table
 * holds (15 here; 14 on Tiger Lake and Ice Lake, whose box 14 would be
 * IA32_PM_ENABLE: pmu_adl.h). */
static unsigned cbos(const struct emu *e, unsigned max)
{
	unsigned n = (unsigned)(e->cfg.no_cbo_banks & 0xF);

	return n > max ? max : n;
}

static void adl_init(struct emu *e)
{
	e->ncbo = cbos(e, e->pmu == &emu_pmu_adl ? EMU_ADL_MAX_CBO : EMU_TGL_MAX_CBO);
	if (e->cfg.pmu_in_use) {
		e->global_ctrl = GCTL_EN;
		e->ctr[EMU_ADL_CTR_ARB0].sel = SEL_EN | 0x0181;
	}
	if (e->cfg.global_ctrl_set)
		e->global_ctrl = e->cfg.global_ctrl & GCTL_EN;
}

static bool adl_enabled(const struct emu *e)
{
	return e->global_ctrl & GCTL_EN;
}

static bool adl_ctr_enabled(const struct emu *e, const struct emu_ctr *c)
{
	(void)e;
	return c->sel & SEL_EN;
}

/* No global status register: a wrap is not forwarded. */
static bool adl_ovf_forwarded(const struct emu_ctr *c)
{
	(void)c;
	return false;
}

static bool adl_freeze_on_ovf(const struct emu *e)
{
	(void)e;
	return false;
}

static void adl_freeze(struct emu *e)
{
	e->global_ctrl &= ~GCTL_EN;
}

static uint64_t rate_of(const struct emu *e, const struct emu_ctr *c)
{
	uint8_t code = c->sel & 0xff, umask = (c->sel >> 8) & 0xff;

	/* snb_uncore_arb_constraints: 0x80 and 0x83 on counter 0 only. */
	if (c->unit == EMU_UNIT_ARB && (code == 0x80 || code == 0x83) && c->index != 0)
		return 0;
	for (unsigned i = 0; i < e->cfg.nrates; i++) {
		const struct emu_rate *r = &e->cfg.rates[i];
		if (r->unit == c->unit && r->code == code && r->umask == umask)
			return r->per_sec;
	}
	return 0;
}

static uint64_t adl_increment(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1)
{
	if (c->unit == EMU_UNIT_FIXED)
		return c1 - c0;
	return emu_spread(e->clock_hz, rate_of(e, c), c0, c1, SEL_THR(c->sel), c->sel & (1ull << 23),
			  c->sel & (1ull << 18));
}

/* 0:0.0: its ID is the generation's host bridge; every other offset is
 * the real host bridge's (MCHBAR among them: driver.c publishes it). */
static enum unc_status hb_read32(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t *ret_val)
{
	(void)d;
	if (off != 0)
		return UNC_E_NOT_FOUND;
	*ret_val = 0x8086u | (uint32_t)e->cfg.host_bridge_id << 16;
	return UNC_OK;
}

static enum unc_status hb_write32(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t val)
{
	(void)e, (void)d, (void)val;
	return off == 0 ? UNC_OK : UNC_E_NOT_FOUND; /* the ID is read only */
}

const struct emu_pci_dev emu_client_pci[1] = { { 0, 0, 0, hb_read32, hb_write32, 0 } };

bool emu_client_imc(unsigned uncore)
{
	return uncore == EMU_UNCORE_ADL || uncore == EMU_UNCORE_TGL || uncore == EMU_UNCORE_MTL || uncore == EMU_UNCORE_LNL;
}

const struct emu_pmu emu_pmu_adl = {
	.name = "adl",
	.regs = adl_regs,
	.nregs = sizeof(adl_regs) / sizeof(adl_regs[0]),
	.windows = adl_windows,
	.nwindows = sizeof(adl_windows) / sizeof(adl_windows[0]),
	.pci = emu_client_pci,
	.npci = 1,
	.nctr = EMU_ADL_NCTR,
	.ops = {
		.init = adl_init,
		.enabled = adl_enabled,
		.ctr_enabled = adl_ctr_enabled,
		.ovf_forwarded = adl_ovf_forwarded,
		.freeze_on_ovf = adl_freeze_on_ovf,
		.freeze = adl_freeze,
		.increment = adl_increment,
	},
	.mmio_read32 = emu_adl_imcp_read32,
	.mmio_write32 = emu_adl_imcp_write32,
};

/* ---- Tiger Lake: uncore_snb.c tgl_uncore_* (icl_uncore_cbox,
 * snb_uncore_arb, icl_uncore_clockbox): SNB_UNC_PERF_GLOBAL_CTL 0xE01
 * (Linux writes bit 29, and the PMI selects 4:0 in enable_box), CBo
 * 0x700/0x702 + 8 per box, ARB selects 0x3B2 counters 0x3B0 (one box),
 * fixed 0x394/0x395; events take cmask5 (28:24). ---- */
#define TGL_GCTL_RW (GCTL_EN | 0x1Full)
#define TGL_SEL_RW  0x1FC4FFFFull

#define TGL_CBO_BOX(b)                                                                                                 \
	{ "ICL_UNC_CBO_" #b "_PERFEVTSEL0", 0x700 + 8 * (b), 2, 1, EMU_REG_CONTROL, 0, (b), EMU_ADL_CTR_CBO0 + 2 * (b), 0, \
	  0, TGL_SEL_RW, 0, ~TGL_SEL_RW, false, NULL, false, 0, false, 0 },                                             \
	{ "ICL_UNC_CBO_" #b "_PER_CTR0", 0x702 + 8 * (b), 2, 1, EMU_REG_COUNTER, GP_WIDTH, (b), EMU_ADL_CTR_CBO0 + 2 * (b), \
	  EMU_UNIT_CBO, 3, MASK(GP_WIDTH), 0, ~MASK(GP_WIDTH), false, NULL, false, 0, false, 0 }

static const struct emu_reg tgl_regs[] = {
	{ "SNB_UNC_PERF_GLOBAL_CTL", 0xE01, 1, 1, EMU_REG_CONTROL, 0, -1, -1, 0, 0, TGL_GCTL_RW, 0, ~TGL_GCTL_RW, false, NULL,
	  false, 0, false, 0 },
	{ "ICL_UNC_CBO_CONFIG", CBO_CONFIG, 1, 1, EMU_REG_CONFIG, 0, -1, -1, 0, 0, 0, 0, 0, true, cbo_config_read, false, 0,
	  false, 0 },
	{ "SNB_UNC_FIXED_CTR_CTRL", 0x394, 1, 1, EMU_REG_CONTROL, 0, -1, EMU_ADL_CTR_FIXED, 0, 0, SEL_EN, 0, ~SEL_EN, false,
	  NULL, false, 0, false, 0 },
	{ "SNB_UNC_FIXED_CTR", 0x395, 1, 1, EMU_REG_COUNTER, FIX_WIDTH, -1, EMU_ADL_CTR_FIXED, EMU_UNIT_FIXED, 0,
	  MASK(FIX_WIDTH), 0, ~MASK(FIX_WIDTH), false, NULL, false, 0, false, 0 },
	{ "SNB_UNC_ARB_PER_CTR0", 0x3B0, 2, 1, EMU_REG_COUNTER, GP_WIDTH, -1, EMU_ADL_CTR_ARB0, EMU_UNIT_ARB, 1,
	  MASK(GP_WIDTH), 0, ~MASK(GP_WIDTH), false, NULL, false, 0, false, 0 },
	{ "SNB_UNC_ARB_PERFEVTSEL0", 0x3B2, 2, 1, EMU_REG_CONTROL, 0, -1, EMU_ADL_CTR_ARB0, 0, 0, TGL_SEL_RW, 0,
	  ~TGL_SEL_RW, false, NULL, false, 0, false, 0 },
	TGL_CBO_BOX(0), TGL_CBO_BOX(1), TGL_CBO_BOX(2), TGL_CBO_BOX(3),
	TGL_CBO_BOX(4), TGL_CBO_BOX(5), TGL_CBO_BOX(6), TGL_CBO_BOX(7),
	TGL_CBO_BOX(8), TGL_CBO_BOX(9), TGL_CBO_BOX(10), TGL_CBO_BOX(11), TGL_CBO_BOX(12), TGL_CBO_BOX(13),
};

/* 14 boxes, 0x700-0x76F: 0x770 on is the processor's (IA32_PM_ENABLE). */
static const struct emu_window tgl_windows[] = { { 0x700, 0x700 + 8 * EMU_TGL_MAX_CBO - 1 } };

const struct emu_pmu emu_pmu_tgl = {
	.name = "tgl",
	.regs = tgl_regs,
	.nregs = sizeof(tgl_regs) / sizeof(tgl_regs[0]),
	.windows = tgl_windows,
	.nwindows = 1,
	.pci = emu_client_pci,
	.npci = 1,
	.nctr = EMU_ADL_NCTR,
	.ops = {
		.init = adl_init,
		.enabled = adl_enabled,
		.ctr_enabled = adl_ctr_enabled,
		.ovf_forwarded = adl_ovf_forwarded,
		.freeze_on_ovf = adl_freeze_on_ovf,
		.freeze = adl_freeze,
		.increment = adl_increment,
	},
};

/* ---- Ice Lake client: uncore_snb.c icl_uncore_* (icl_msr_uncores:
 * icl_uncore_cbox, icl_uncore_arb, icl_uncore_clockbox). No global control:
 * icl_uncore_msr_ops has no init_box or enable_box, and a counter counts
 * while SNB_UNC_CTL_EN (22) is set in its own select or control
 * (snb_uncore_msr_enable_event). CBo 0x700/0x702 + 8 per box; the ARB's one
 * counter ICL_UNC_ARB_PER_CTR 0x3B1, its select ICL_UNC_ARB_PERFEVTSEL
 * 0x3B3 (0x3B0 and 0x3B2, which Linux never touches on Ice Lake, fault
 * here, so that a driver that touched them would fail); fixed
 * SNB_UNC_FIXED_CTR_CTRL 0x394 / SNB_UNC_FIXED_CTR 0x395; events take
 * snb_uncore_formats_attr's cmask5 (28:24). The IMC is Skylake's
 * (pmu_skl.c's counters at MCHBAR + 0x5040 ... 0x5054). ---- */
static const struct emu_reg icl_regs[] = {
	{ "ICL_UNC_CBO_CONFIG", CBO_CONFIG, 1, 1, EMU_REG_CONFIG, 0, -1, -1, 0, 0, 0, 0, 0, true, cbo_config_read, false, 0,
	  false, 0 },
	{ "SNB_UNC_FIXED_CTR_CTRL", 0x394, 1, 1, EMU_REG_CONTROL, 0, -1, EMU_ADL_CTR_FIXED, 0, 0, SEL_EN, 0, ~SEL_EN, false,
	  NULL, false, 0, false, 0 },
	{ "SNB_UNC_FIXED_CTR", 0x395, 1, 1, EMU_REG_COUNTER, FIX_WIDTH, -1, EMU_ADL_CTR_FIXED, EMU_UNIT_FIXED, 0,
	  MASK(FIX_WIDTH), 0, ~MASK(FIX_WIDTH), false, NULL, false, 0, false, 0 },
	{ "ICL_UNC_ARB_PER_CTR", 0x3B1, 1, 1, EMU_REG_COUNTER, GP_WIDTH, -1, EMU_ADL_CTR_ARB0 + 1, EMU_UNIT_ARB, 1,
	  MASK(GP_WIDTH), 0, ~MASK(GP_WIDTH), false, NULL, false, 0, false, 0 },
	{ "ICL_UNC_ARB_PERFEVTSEL", 0x3B3, 1, 1, EMU_REG_CONTROL, 0, -1, EMU_ADL_CTR_ARB0 + 1, 0, 0, TGL_SEL_RW, 0,
	  ~TGL_SEL_RW, false, NULL, false, 0, false, 0 },
	TGL_CBO_BOX(0), TGL_CBO_BOX(1), TGL_CBO_BOX(2), TGL_CBO_BOX(3),
	TGL_CBO_BOX(4), TGL_CBO_BOX(5), TGL_CBO_BOX(6), TGL_CBO_BOX(7),
	TGL_CBO_BOX(8), TGL_CBO_BOX(9), TGL_CBO_BOX(10), TGL_CBO_BOX(11), TGL_CBO_BOX(12), TGL_CBO_BOX(13),
};

static const struct emu_window icl_windows[] = { { 0x700, 0x700 + 8 * EMU_TGL_MAX_CBO - 1 }, { 0x3B0, 0x3B3 } };

/* --fault pmu-in-use: the ARB's one counter already counting. */
static void icl_init(struct emu *e)
{
	e->ncbo = cbos(e, EMU_TGL_MAX_CBO);
	if (e->cfg.pmu_in_use)
		e->ctr[EMU_ADL_CTR_ARB0 + 1].sel = SEL_EN | 0x0181;
}

static bool icl_enabled(const struct emu *e)
{
	(void)e;
	return true;
}

const struct emu_pmu emu_pmu_icl = {
	.name = "icl",
	.regs = icl_regs,
	.nregs = sizeof(icl_regs) / sizeof(icl_regs[0]),
	.windows = icl_windows,
	.nwindows = 2,
	.pci = emu_client_pci,
	.npci = 1,
	.nctr = EMU_ADL_NCTR,
	.ops = {
		.init = icl_init,
		.enabled = icl_enabled,
		.ctr_enabled = adl_ctr_enabled,
		.ovf_forwarded = adl_ovf_forwarded,
		.freeze_on_ovf = adl_freeze_on_ovf,
		.freeze = adl_freeze,
		.increment = adl_increment,
	},
};

uint64_t emu_adl_imc_value(const struct emu_config *cfg, unsigned i, uint64_t t_ns)
{
	return cfg->adl_imc_start[i] + u64_muldiv(t_ns, cfg->adl_imc_per_sec[i], NS_PER_S);
}

bool emu_adl_imc_read32(const struct emu_config *cfg, uint32_t off, uint64_t t_ns, uint32_t *ret_val)
{
	for (unsigned i = 0; i < EMU_ADL_IMC_COUNTERS; i++) {
		if ((off & ~4u) == cfg->imc_block + emu_adl_imc[i].offset) {
			uint64_t v = emu_adl_imc_value(cfg, i, t_ns);
			*ret_val = (uint32_t)(off & 4 ? v >> 32 : v);
			return true;
		}
	}
	return false;
}

/* ---- The programmable IMC counters (pmu_adl.h). A box counts unless its
 * control's bit 0 freezes it; counter i counts its control's event at
 * that event's --rate per channel, times the channels its mask (bits
 * 11:8) selects. What a mask of 0 counts is not published (Intel's event
 * files give these events no mask, and Linux programs them so): here, every
 * channel. Edge detect is not modelled. ---- */
#define IMCP_GLOBAL 0xC0u
#define IMCP_BOX    0xC4u
#define IMCP_CTRL   0xD0u
#define IMCP_CTR    0xE8u
#define IMCP_FRZ    0x1u
#define IMCP_RST_CTRL 0x2u
#define IMCP_RST_CTRS 0x4u

static uint64_t imcp_rate(const struct emu *e, uint32_t ctl)
{
	unsigned mask = (ctl >> 8) & 0xF, n = 0;

	for (unsigned c = 0; c < EMU_ADL_IMCP_CHANNELS; c++)
		n += mask >> c & 1;
	if (!mask)
		n = EMU_ADL_IMCP_CHANNELS;
	for (unsigned i = 0; i < e->cfg.nrates; i++) {
		const struct emu_rate *r = &e->cfg.rates[i];
		if (r->unit == EMU_UNIT_ADL_IMCP && r->code == (ctl & 0xFF))
			return r->per_sec * n;
	}
	return 0;
}

/* The counters brought up to now: each of an unfrozen box adds what its
 * rate gives over [imcp.ns, now), from the absolute times (no drift). */
static void imcp_sync(struct emu *e)
{
	uint64_t t0 = e->imcp.ns, t1 = e->now_ns;

	if (t1 <= t0)
		return;
	for (unsigned b = 0; b < EMU_ADL_IMCP_BOXES; b++) {
		if (e->imcp.box[b] & IMCP_FRZ)
			continue;
		for (unsigned i = 0; i < EMU_ADL_IMCP_CTRS; i++) {
			uint64_t r = imcp_rate(e, e->imcp.ctl[b][i]);
			if (r)
				e->imcp.ctr[b][i] += u64_muldiv(t1, r, NS_PER_S) - u64_muldiv(t0, r, NS_PER_S);
		}
	}
	e->imcp.ns = t1;
}

/* The register at addr: its box and offset, or false when it is not one
 * of the programmable IMC registers. */
static bool imcp_decode(const struct emu *e, uint64_t addr, unsigned *ret_box, uint32_t *ret_off)
{
	uint64_t base = e->imcp.mchbar + EMU_ADL_IMCP_BASE;

	if (!e->imcp.mchbar || addr < base || addr >= base + EMU_ADL_IMCP_BOXES * EMU_ADL_IMCP_STRIDE)
		return false;
	uint32_t off = (uint32_t)((addr - base) % EMU_ADL_IMCP_STRIDE);
	*ret_box = (unsigned)((addr - base) / EMU_ADL_IMCP_STRIDE);
	*ret_off = off;
	return off == IMCP_GLOBAL || off == IMCP_BOX || (off >= IMCP_CTRL && off < IMCP_CTRL + 4 * EMU_ADL_IMCP_CTRS) ||
	       (off >= IMCP_CTR && off < IMCP_CTR + 8 * EMU_ADL_IMCP_CTRS);
}

enum unc_status emu_adl_imcp_read32(struct emu *e, uint64_t addr, uint32_t *ret_val)
{
	unsigned b;
	uint32_t off;

	if (!imcp_decode(e, addr, &b, &off))
		return UNC_E_NOT_FOUND;
	imcp_sync(e);
	if (off == IMCP_GLOBAL)
		*ret_val = e->imcp.global[b];
	else if (off == IMCP_BOX)
		*ret_val = e->imcp.box[b];
	else if (off < IMCP_CTR)
		*ret_val = e->imcp.ctl[b][(off - IMCP_CTRL) / 4];
	else {
		uint64_t v = e->imcp.ctr[b][(off - IMCP_CTR) / 8];
		*ret_val = (uint32_t)(off & 4 ? v >> 32 : v);
	}
	return UNC_OK;
}

enum unc_status emu_adl_imcp_write32(struct emu *e, uint64_t addr, uint32_t val)
{
	unsigned b;
	uint32_t off;

	if (!imcp_decode(e, addr, &b, &off))
		return UNC_E_NOT_FOUND;
	imcp_sync(e);
	e->imcp.writes++;
	bool ro = emu_ro(&e->cfg, EMU_RO_IMC_PROG); /* --fault ro-counters=imc_prog: no write changes a counter */
	if (off == IMCP_GLOBAL) {
		e->imcp.global[b] = val;
		/* MC1's controls both controllers; MC0's only keeps what is written. */
		for (unsigned m = 0; b == 1 && m < EMU_ADL_IMCP_BOXES; m++)
			for (unsigned i = 0; i < EMU_ADL_IMCP_CTRS; i++) {
				if (val & IMCP_RST_CTRL)
					e->imcp.ctl[m][i] = 0;
				if ((val & IMCP_RST_CTRS) && !ro)
					e->imcp.ctr[m][i] = 0;
			}
	} else if (off == IMCP_BOX) {
		e->imcp.box[b] = val;
	} else if (off < IMCP_CTR) {
		e->imcp.ctl[b][(off - IMCP_CTRL) / 4] = val;
	} else if (!ro) {
		uint64_t *c = &e->imcp.ctr[b][(off - IMCP_CTR) / 8];
		*c = off & 4 ? (*c & 0xFFFFFFFFull) | (uint64_t)val << 32 : (*c & ~0xFFFFFFFFull) | val;
	}
	return UNC_OK;
}
