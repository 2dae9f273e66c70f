/* The architectural core PMU (Intel SDM Vol. 3B, "Architectural
 * Performance Monitoring", versions 1 to 4; Vol. 2A/2B, CPUID leaf 0AH and
 * RDPMC; Vol. 4, the IA32_* MSRs): the register table, built from the
 * shape CPUID leaf 0xA reports (--arch-pmu), its hooks, and the
 * architectural events with Intel's perfmon names. Not taken from the
 * application. */
#include "model.h"

#define MASK(w)       ((1ull << (w)) - 1)
/* IA32_PERFEVTSELx: event 7:0, UMASK 15:8, USR 16, OS 17, E 18, PC 19,
 * INT 20, AnyThread 21 (from version 3; reserved before), EN 22, INV 23,
 * CMASK 31:24; 63:32 reserved. */
#define SEL_RW(v)     (0xFFDFFFFFull | ((v) >= 3 ? 1ull << 21 : 0))
#define SEL_EN        EMU_CORE_SEL_EN
/* IA32_FIXED_CTR_CTRL: four bits per fixed counter: OS 0 (ring 0), USR 1,
 * AnyThread 2 (from version 3), PMI 3. */
#define FIXED_FIELD(v) ((v) >= 3 ? 0xFull : 0xBull)
#define FIXED_OS       0x1ull
/* IA32_PERF_GLOBAL_OVF_CTRL also clears OvfBuf (62) and CondChgd (63). */
#define OVF_EXTRA     (3ull << 62)

/* Counters: general i is counter i, fixed i is counter ngp + i. */

const struct emu_core_event emu_arch_events[] = {
	/* The fixed counters' events (fixed counters 0, 1, 2); a rate of
	 * INST_RETIRED.ANY is INST_RETIRED.ANY_P's and one of
	 * CPU_CLK_UNHALTED.THREAD is THREAD_P's: the same events. REF_TSC
	 * has perfmon's pseudo-encoding 0x00/0x03. */
	{ "INST_RETIRED.ANY", EMU_UNIT_ARCH, 0xC0, 0x00, 0, 0, 0 },
	{ "CPU_CLK_UNHALTED.THREAD", EMU_UNIT_ARCH, 0x3C, 0x00, 0, 1, EMU_CORE_CLOCK },
	{ "CPU_CLK_UNHALTED.REF_TSC", EMU_UNIT_ARCH, 0x00, 0x03, 0, 2, 0 },
	/* The general counters' architectural events (SDM Table "UMask and
	 * Event Select Encodings for Pre-Defined Architectural Performance
	 * Events"), any counter. */
	{ "CPU_CLK_UNHALTED.THREAD_P", EMU_UNIT_ARCH, 0x3C, 0x00, 0xFF, -1, EMU_CORE_CLOCK },
	{ "INST_RETIRED.ANY_P", EMU_UNIT_ARCH, 0xC0, 0x00, 0xFF, -1, 0 },
	{ "CPU_CLK_UNHALTED.REF_XCLK", EMU_UNIT_ARCH, 0x3C, 0x01, 0xFF, -1, 0 },
	{ "LONGEST_LAT_CACHE.REFERENCE", EMU_UNIT_ARCH, 0x2E, 0x4F, 0xFF, -1, 0 },
	{ "LONGEST_LAT_CACHE.MISS", EMU_UNIT_ARCH, 0x2E, 0x41, 0xFF, -1, 0 },
	{ "BR_INST_RETIRED.ALL_BRANCHES", EMU_UNIT_ARCH, 0xC4, 0x00, 0xFF, -1, 0 },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", EMU_UNIT_ARCH, 0xC5, 0x00, 0xFF, -1, 0 },
};
const unsigned emu_arch_nevents = sizeof(emu_arch_events) / sizeof(emu_arch_events[0]);

static uint64_t perf_capabilities(const struct emu *e)
{
	return e->cfg.perf_capabilities;
}

/* The table of the shape in cfg; the model serves one architectural PMU
 * at a time (this storage is the last one built). */
static struct emu_reg arch_regs[10];
static struct emu_pmu arch_pmu;

/* The architectural PMU's addresses: inside them, what the enumerated
 * counts leave out is #GP (and so are 0x4C1+ without FW_WRITE, the fixed
 * and global registers in version 1). */
static const struct emu_window arch_windows[] = {
	{ 0xC1, 0xC1 + EMU_ARCH_MAX_GP - 1 },	  { 0x186, 0x186 + EMU_ARCH_MAX_GP - 1 },
	{ 0x4C1, 0x4C1 + EMU_ARCH_MAX_GP - 1 }, { 0x309, 0x309 + EMU_ARCH_MAX_FIXED - 1 },
	{ 0x38D, 0x390 },
};

static void arch_init(struct emu *e)
{
	const struct emu_arch_shape *a = &e->cfg.arch;

	e->clock_hz = emu_core_clock(&e->cfg, EMU_UNIT_ARCH);
	/* IA32_PERF_GLOBAL_STATUS: general counter i is bit i, fixed counter
	 * i bit 32 + i. */
	for (unsigned i = 0; i < a->ngp; i++)
		e->ctr[i].status_bit = (uint8_t)i;
	for (unsigned i = 0; i < a->nfixed; i++)
		e->ctr[a->ngp + i].status_bit = (uint8_t)(32 + i);
}

/* Version 1 has no global control: a select's EN alone enables its
 * counter. From version 2, IA32_PERF_GLOBAL_CTRL's bit for the counter
 * must be set too (general i: bit i, fixed i: bit 32 + i). A fixed counter
 * counts at CPL 0 with its OS field bit set in IA32_FIXED_CTR_CTRL. */
static bool arch_enabled(const struct emu *e)
{
	(void)e;
	return true;
}

static bool arch_ctr_enabled(const struct emu *e, const struct emu_ctr *c)
{
	const struct emu_arch_shape *a = &e->cfg.arch;
	bool global = a->version < 2 || (e->global_ctrl >> c->status_bit & 1);

	if (c->unit == EMU_UNIT_ARCH_FIXED)
		return global && (e->plain[0] >> (4 * c->index) & FIXED_OS);
	return global && (c->sel & SEL_EN);
}

/* Fixed counter 0 counts INST_RETIRED.ANY, 1 CPU_CLK_UNHALTED.THREAD, 2
 * CPU_CLK_UNHALTED.REF_TSC, at their events' rates. */
static uint64_t arch_increment(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1)
{
	if (c->unit != EMU_UNIT_ARCH_FIXED)
		return emu_core_increment(e, c, c0, c1);
	for (unsigned i = 0; i < emu_arch_nevents; i++) {
		const struct emu_core_event *ev = &emu_arch_events[i];
		if (ev->fixed != (int8_t)c->index)
			continue;
		uint64_t r = ev->flags & EMU_CORE_CLOCK ? e->clock_hz : emu_core_rate_key(&e->cfg, ev->unit, ev->code, ev->umask);
		return emu_spread(e->clock_hz, r, c0, c1, 0, false, false);
	}
	return 0;
}

/* RDPMC (SDM Vol. 2B): ECX[30] selects the fixed counters, ECX[29:0] the
 * counter; an index beyond the enumerated counters, or any other bit set,
 * is #GP(0). The value is the counter, zero-extended. */
static enum unc_status arch_rdpmc(struct emu *e, uint32_t index, uint64_t *ret_val)
{
	const struct emu_arch_shape *a = &e->cfg.arch;
	bool fixed = index & (1u << 30);
	uint32_t i = index & ~(1u << 30);

	if (fixed ? a->version < 2 || i >= a->nfixed : i >= a->ngp)
		return UNC_E_FAULT;
	*ret_val = e->ctr[fixed ? a->ngp + i : i].value;
	return UNC_OK;
}

static void add(unsigned *n, struct emu_reg r)
{
	arch_regs[(*n)++] = r;
}

const struct emu_pmu *emu_pmu_arch(const struct emu_config *cfg)
{
	const struct emu_arch_shape *a = &cfg->arch;
	uint64_t gp = MASK(a->gp_width), fx = MASK(a->fixed_width), sel = SEL_RW(a->version);
	unsigned n = 0, nfixed = a->version >= 2 ? a->nfixed : 0;
	int8_t fixed0 = (int8_t)a->ngp;

	if (a->ngp) {
		/* IA32_PMCx: a WRMSR writes EAX[31:0] sign-extended (SDM,
		 * "Full-Width Writes to Performance Counter Registers"). */
		add(&n, (struct emu_reg){ "IA32_PMC0", 0xC1, a->ngp, 1, EMU_REG_COUNTER, a->gp_width, -1, 0, EMU_UNIT_ARCH,
					  0, gp, 0, 0, false, NULL, false, 32, false, 0 });
		/* IA32_A_PMCx, with IA32_PERF_CAPABILITIES.FW_WRITE: all the
		 * counter's bits, those above it reserved. */
		if (cfg->perf_capabilities & EMU_ARCH_FW_WRITE)
			add(&n, (struct emu_reg){ "IA32_A_PMC0", 0x4C1, a->ngp, 1, EMU_REG_COUNTER, a->gp_width, -1, 0,
						  EMU_UNIT_ARCH, 0, gp, 0, ~gp, false, NULL, false, 0, true, 0 });
		add(&n, (struct emu_reg){ "IA32_PERFEVTSEL0", 0x186, a->ngp, 1, EMU_REG_CONTROL, 0, -1, 0, 0, 0, sel, 0,
					  ~sel, false, NULL, false, 0, false, 0 });
	}
	if (nfixed)
		add(&n, (struct emu_reg){ "IA32_FIXED_CTR0", 0x309, nfixed, 1, EMU_REG_COUNTER, a->fixed_width, -1, fixed0,
					  EMU_UNIT_ARCH_FIXED, 0, fx, 0, ~fx, false, NULL, false, 0, false, 0 });
	if (a->version >= 2) {
		uint64_t fctrl = 0, status = MASK(a->ngp) | MASK(nfixed) << 32;
		for (unsigned i = 0; i < nfixed; i++)
			fctrl |= FIXED_FIELD(a->version) << (4 * i);
		add(&n, (struct emu_reg){ "IA32_FIXED_CTR_CTRL", 0x38D, 1, 1, EMU_REG_PLAIN, 0, -1, -1, 0, 0, fctrl, 0, ~fctrl,
					  false, NULL, false, 0, false, 0 });
		add(&n, (struct emu_reg){ "IA32_PERF_GLOBAL_STATUS", 0x38E, 1, 1, EMU_REG_STATUS, 0, -1, -1, 0, 0, 0, 0, 0,
					  true, NULL, false, 0, false, 0 });
		add(&n, (struct emu_reg){ "IA32_PERF_GLOBAL_CTRL", 0x38F, 1, 1, EMU_REG_CONTROL, 0, -1, -1, 0, 0, status, 0,
					  ~status, false, NULL, false, 0, false, 0 });
		add(&n, (struct emu_reg){ "IA32_PERF_GLOBAL_OVF_CTRL", 0x390, 1, 1, EMU_REG_STATUS_CLEAR, 0, -1, -1, 0, 0,
					  status | OVF_EXTRA, 0, ~(status | OVF_EXTRA), false, NULL, false, 0, false, 0 });
	}
	/* Read-only; only FW_WRITE (bit 13) is modelled. */
	add(&n, (struct emu_reg){ "IA32_PERF_CAPABILITIES", 0x345, 1, 1, EMU_REG_CONFIG, 0, -1, -1, 0, 0, 0, 0, 0, true,
				  perf_capabilities, false, 0, false, 0 });
	arch_pmu = (struct emu_pmu){
		.name = "arch",
		.regs = arch_regs,
		.nregs = n,
		.windows = arch_windows,
		.nwindows = sizeof(arch_windows) / sizeof(arch_windows[0]),
		.nctr = a->ngp + nfixed,
		.ops = {
			.init = arch_init,
			.enabled = arch_enabled,
			.ctr_enabled = arch_ctr_enabled,
			.ovf_forwarded = emu_core_forwarded,
			.freeze_on_ovf = emu_core_no_freeze,
			.freeze = emu_core_freeze,
			.increment = arch_increment,
			.rdpmc = arch_rdpmc,
		},
	};
	return &arch_pmu;
}
