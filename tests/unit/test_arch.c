/* The architectural core PMU driver (drivers/pmu/arch.c) against the strict
 * fake: the SDM's registers and events as literals, CPUID leaf 0xA decoded,
 * the exact write sequence (fixed counters through IA32_FIXED_CTR_CTRL, the
 * global control's enable bits, the full-width aliases), RDPMC used where it
 * works and rdmsr where it raises #UD or #GP, every register put back after
 * a #GP on each one written, and a run mixed with Skylake-client uncore
 * events. Literals come from Intel's SDM Vol. 3B, "Architectural
 * Performance Monitoring", and Vol. 4, "Architectural MSRs". */
#include <stdio.h>
#include <string.h>

#include "../../drivers/base/cpu.h"
#include "../../drivers/engine/evsel.h"
#include "../../drivers/base/fmt.h"
#include "../../drivers/engine/info.h"
#include "../../drivers/pmu/arch.h"
#include "../../drivers/pmu/skl.h"
#include "../../drivers/engine/stat.h"
#include "../../drivers/output/recmap.h"
#include "../../drivers/output/record.h"
#include "../../drivers/output/report.h"
#include "../emu/emu_hw.h"
#include "run_help.h"
#include "t.h"

#define S  1000000000ull
#define MS 1000000ull

/* ---- a core PMU behind the strict fake ----
 *
 * The fake holds the registers; this wrapper adds what a core does: a
 * general counter counts its event's rate while its select has EN and
 * (version 2 on) its IA32_PERF_GLOBAL_CTRL bit is set, a fixed counter
 * while its field of IA32_FIXED_CTR_CTRL has OS or USR and its global bit
 * is set; IA32_PMCx and IA32_A_PMCx are one counter; RDPMC reads it, or
 * raises the fault the test chose. */
static struct fake_hw f;          /* the arch registers (and, alone, the whole machine) */
static struct emu_hw eh;          /* the Skylake-client uncore model, for the mixed run */
static const struct hw *under;    /* f.hw, or eh.hw */
static struct hw wrap;
static enum unc_status rdpmc_fault; /* what RDPMC raises (UNC_OK: none) */
static unsigned rdpmc_calls;
static unsigned version, ngp, nfixed, gp_width = 48, fixed_width = 48;
static bool full_width;

struct rate {
	uint8_t code, umask;
	uint64_t per_sec;
};
static struct rate rates[8];
static unsigned nrates;
static uint64_t fixed_rate[3];

static struct fake_hw *cur = &f; /* where the core PMU's registers are */

static uint64_t *reg(uint32_t msr)
{
	return fake_msr_value(cur, msr);
}

static uint64_t gctrl(void)
{
	return version >= 2 ? *reg(IA32_PERF_GLOBAL_CTRL) : ~0ull;
}

/* Counter i's value lives at IA32_PMCx; IA32_A_PMCx mirrors it. */
static void set_gp(unsigned i, uint64_t v)
{
	*reg(IA32_PMC0 + i) = v & pmu_width_mask(gp_width);
	if (full_width)
		*reg(IA32_A_PMC0 + i) = v & pmu_width_mask(gp_width);
}

static void advance(uint64_t when)
{
	uint64_t dt = when > f.now ? when - f.now : 0;

	for (unsigned i = 0; i < ngp; i++) {
		uint64_t sel = *reg(IA32_PERFEVTSEL0 + i);
		if (!(sel & ARCH_SEL_EN) || !(gctrl() >> i & 1))
			continue;
		for (unsigned r = 0; r < nrates; r++)
			if (rates[r].code == (sel & 0xFF) && rates[r].umask == (sel >> 8 & 0xFF))
				set_gp(i, *reg(IA32_PMC0 + i) + rates[r].per_sec * dt / S);
	}
	for (unsigned i = 0; i < nfixed; i++)
		if ((*reg(IA32_FIXED_CTR_CTRL) >> (4 * i) & 3) && (gctrl() >> (32 + i) & 1))
			*reg(IA32_FIXED_CTR0 + i) =
				(*reg(IA32_FIXED_CTR0 + i) + fixed_rate[i] * dt / S) & pmu_width_mask(fixed_width);
	f.now = when;
	eh.fake.now = when;
}

static enum unc_status w_msr_read(void *ctx, uint32_t msr, uint64_t *v)
{
	(void)ctx;
	return hw_msr_read(under, msr, v);
}

static enum unc_status w_msr_write(void *ctx, uint32_t msr, uint64_t v)
{
	enum unc_status st;

	(void)ctx;
	if ((st = hw_msr_write(under, msr, v)))
		return st;
	if (msr >= IA32_PMC0 && msr < IA32_PMC0 + ngp) /* bits 31:0, sign-extended, unless full width */
		set_gp(msr - IA32_PMC0, (uint64_t)(int64_t)(int32_t)(uint32_t)v);
	if (full_width && msr >= IA32_A_PMC0 && msr < IA32_A_PMC0 + ngp)
		set_gp(msr - IA32_A_PMC0, v);
	return UNC_OK;
}

static enum unc_status w_pci_read(void *ctx, struct pci_addr a, uint16_t off, uint32_t *v)
{
	(void)ctx;
	return hw_pci_read32(under, a, off, v);
}

static enum unc_status w_pci_write(void *ctx, struct pci_addr a, uint16_t off, uint32_t v)
{
	(void)ctx;
	return hw_pci_write32(under, a, off, v);
}

static enum unc_status w_mmio_read(void *ctx, uint64_t a, uint32_t *v)
{
	(void)ctx;
	return hw_mmio_read32(under, a, v);
}

static void w_cpuid(void *ctx, uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	(void)ctx;
	hw_cpuid(under, leaf, sub, r);
}

static uint64_t w_ticks(void *ctx)
{
	(void)ctx;
	return f.now;
}

static enum unc_status w_rdpmc(void *ctx, uint32_t index, uint64_t *v)
{
	(void)ctx;
	rdpmc_calls++;
	if (rdpmc_fault)
		return rdpmc_fault;
	if (index < ngp)
		*v = *reg(IA32_PMC0 + index);
	else if ((index & ~ARCH_RDPMC_FIXED) < nfixed && (index & ARCH_RDPMC_FIXED))
		*v = *reg(IA32_FIXED_CTR0 + (index & ~ARCH_RDPMC_FIXED));
	else
		return UNC_E_FAULT; /* #GP: no such counter */
	return UNC_OK;
}

static const struct hw_ops wrap_ops = { w_msr_read, w_msr_write, w_pci_read, w_pci_write,
					w_mmio_read, w_cpuid,	  w_ticks,    w_rdpmc, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };

/* A Skylake-client CPU (the strict fake's) whose CPUID leaf 0xA reports a
 * PMU of `v`, with `gp` general and `fx` fixed counters, the EBX mask, and
 * whether IA32_PERF_CAPABILITIES exists (PDCM) and allows full-width
 * writes. The global control is found as at power-up: every enable bit set. */
static void arch_cpu_on(struct fake_hw *x, unsigned v, unsigned gp, unsigned fx, uint32_t ebx, bool pdcm, bool fw)
{
	version = v, ngp = gp, nfixed = fx, full_width = pdcm && fw;
	fake_cpuid(x, 0xA, 0, v | gp << 8 | gp_width << 16 | 7u << 24, ebx, 0, fx | fixed_width << 5);
	fake_cpuid(x, 1, 0, 0x506E3, 8u << 16, 0x80000000u | (pdcm ? ARCH_CPUID1_ECX_PDCM : 0), 1u << 28);
	for (unsigned i = 0; i < gp; i++) {
		fake_msr(x, IA32_PERFEVTSEL0 + i, 0);
		fake_msr(x, IA32_PMC0 + i, 0x1000 * (i + 1));
		if (full_width)
			fake_msr(x, IA32_A_PMC0 + i, 0x1000 * (i + 1));
	}
	for (unsigned i = 0; i < fx; i++)
		fake_msr(x, IA32_FIXED_CTR0 + i, 0x100 * (i + 1));
	if (v >= 2) {
		fake_msr(x, IA32_FIXED_CTR_CTRL, 0);
		fake_msr(x, IA32_PERF_GLOBAL_STATUS, 0);
		fake_msr(x, IA32_PERF_GLOBAL_CTRL, pmu_width_mask(gp) | pmu_width_mask(fx) << 32);
		fake_msr(x, IA32_PERF_GLOBAL_OVF_CTRL, 0);
	}
	if (pdcm)
		fake_msr(x, IA32_PERF_CAPABILITIES, fw ? ARCH_CAPS_FW_WRITE | 0x3 : 0x3);
}

static struct stat_run run;
static const struct pmu_driver *const arch_only[] = { &pmu_driver_arch, NULL };
static const struct pmu_driver *const arch_and_skl[] = { &pmu_driver_arch, &pmu_driver_skl, NULL };
static const struct pmu_driver *const skl_only[] = { &pmu_driver_skl, NULL };
static const struct pmu_driver *const *present = arch_only;
static char err[256];

static void reset_model(void)
{
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	memset(rates, 0, sizeof(rates));
	memset(fixed_rate, 0, sizeof(fixed_rate));
	nrates = 0;
	rdpmc_fault = UNC_OK;
	rdpmc_calls = 0;
	gp_width = fixed_width = 48;
	present = arch_only;
	cur = &f;
}

/* The plain fake: a Skylake desktop part with the given core PMU. */
static void fresh(unsigned v, unsigned gp, unsigned fx, bool pdcm, bool fw)
{
	reset_model();
	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8);
	arch_cpu_on(&f, v, gp, fx, 0, pdcm, fw);
	under = &f.hw;
	wrap = (struct hw){ .ops = &wrap_ops, .tick_hz = S, .msr_mode = HW_MSR_NATIVE };
}

static void rate(uint8_t code, uint8_t umask, uint64_t per_sec)
{
	rates[nrates++] = (struct rate){ code, umask, per_sec };
}

static void add(const char *name)
{
	run_add(&run, present, name);
}

static enum unc_status schedule(bool mux)
{
	return run_schedule(&run, &wrap, mux);
}

static bool wait_until(void *ctx, uint64_t when)
{
	(void)ctx;
	advance(when);
	return false;
}

static const struct stat_env env = { wait_until, NULL, NULL, NULL };

static enum unc_status run_for(uint64_t duration)
{
	struct stat_opts o = { .duration = duration, .slice = 20 * MS, .sample = 100 * MS };

	return stat_loop(&run, &wrap, false, &o, &env);
}

/* The index of the first logged write to msr with value v at or after
 * `from`; -1: none. */
static int wrote(uint32_t msr, uint64_t v, int from)
{
	for (unsigned i = (unsigned)from; i < f.nlog; i++)
		if (f.log[i].kind == FAKE_MSR && f.log[i].addr == msr && f.log[i].value == v)
			return (int)i;
	return -1;
}

/* Every register of the core PMU, as found. */
struct snap {
	uint32_t msr[FAKE_MAX];
	uint64_t v[FAKE_MAX];
	unsigned n;
};

static void snap(struct snap *s)
{
	s->n = 0;
	for (unsigned i = 0; i < cur->nmsr; i++) {
		uint32_t m = cur->msr[i].msr;
		if ((m >= IA32_PMC0 && m < IA32_PMC0 + 8) || (m >= IA32_PERFEVTSEL0 && m < IA32_PERFEVTSEL0 + 8) ||
		    (m >= IA32_FIXED_CTR0 && m < IA32_FIXED_CTR0 + 3) || (m >= IA32_A_PMC0 && m < IA32_A_PMC0 + 8) ||
		    m == IA32_FIXED_CTR_CTRL || m == IA32_PERF_GLOBAL_CTRL) {
			s->msr[s->n] = m;
			s->v[s->n++] = cur->msr[i].value;
		}
	}
}

static bool same_as(const struct snap *s)
{
	bool ok = true;

	for (unsigned i = 0; i < s->n; i++)
		if (*reg(s->msr[i]) != s->v[i]) {
			printf("    0x%x: 0x%llx as found, 0x%llx after\n", s->msr[i], (unsigned long long)s->v[i],
			       (unsigned long long)*reg(s->msr[i]));
			ok = false;
		}
	return ok;
}

/* ---- conformance: the SDM's literals ---- */

static void registers_are_the_sdms(void)
{
	const struct pmu_unit *gp = &pmu_driver_arch.units[ARCH_UNIT_GP], *fx = &pmu_driver_arch.units[ARCH_UNIT_FIXED];

	/* Vol. 4: IA32_PERFEVTSEL0-3 0x186-0x189, IA32_PMC0-3 0xC1-0xC4. */
	for (unsigned i = 0; i < 4; i++) {
		T_EQ(pmu_unit_sel(gp, NULL, ARCH_UNIT_GP, 0, i).addr, 0x186 + i);
		T_EQ(pmu_unit_ctr(gp, NULL, ARCH_UNIT_GP, 0, i).addr, 0xC1 + i);
	}
	/* IA32_FIXED_CTR0-2 0x309-0x30B, one control IA32_FIXED_CTR_CTRL 0x38D. */
	for (unsigned i = 0; i < 3; i++) {
		T_EQ(pmu_unit_ctr(fx, NULL, ARCH_UNIT_FIXED, 0, i).addr, 0x309 + i);
		T_EQ(pmu_unit_sel(fx, NULL, ARCH_UNIT_FIXED, 0, i).addr, 0x38D);
	}
	T_EQ(gp->kind, PMU_GENERAL);
	T_EQ(fx->kind, PMU_FIXED);
	T_EQ(gp->space, PMU_MSR);
	T_EQ(fx->space, PMU_MSR);
	T_EQ(IA32_PERF_GLOBAL_STATUS, 0x38E);
	T_EQ(IA32_PERF_GLOBAL_CTRL, 0x38F);
	T_EQ(IA32_PERF_GLOBAL_OVF_CTRL, 0x390);
	T_EQ(IA32_PERF_CAPABILITIES, 0x345);
	T_EQ(IA32_A_PMC0, 0x4C1);
	/* Layout of IA32_PERFEVTSELx: event 7:0, umask 15:8, USR 16, OS 17,
	 * E 18, EN 22, INV 23, CMASK 31:24. */
	const struct pmu_layout *l = gp->layout;
	T_EQ(l->event.shift, 0);
	T_EQ(l->event.bits, 8);
	T_EQ(l->umask.shift, 8);
	T_EQ(l->umask.bits, 8);
	T_EQ(l->thresh.shift, 24);
	T_EQ(l->thresh.bits, 8);
	T_EQ(l->edge, 1ull << 18);
	T_EQ(l->inv, 1ull << 23);
	T_EQ(l->os_usr, 1ull << 16 | 1ull << 17);
	T_EQ(l->enable, 0); /* EN (bit 22) is set by the driver's unfreeze */
	T_EQ(fx->fixed_ctrl, 0x3); /* a FIXED_CTR_CTRL field: OS (bit 0) and USR (bit 1) */
	char buf[32];
	T_STREQ(pmu_reg_name(&pmu_driver_arch, NULL, pmu_msr(0x4C2), buf, sizeof(buf)), "IA32_A_PMC1");
	T_STREQ(pmu_reg_name(&pmu_driver_arch, NULL, pmu_msr(0x38D), buf, sizeof(buf)), "IA32_FIXED_CTR_CTRL");
	T_STREQ(pmu_reg_name(&pmu_driver_arch, NULL, pmu_msr(0x30A), buf, sizeof(buf)), "IA32_FIXED_CTR1");
	T_STREQ(pmu_reg_name(&pmu_driver_arch, NULL, pmu_msr(0x700), buf, sizeof(buf)), "?");
}

/* Intel's perfmon names; codes and umasks of the SDM's "Pre-defined
 * Architectural Performance Events"; fixed counters 0 to 2. Row for row,
 * no extra row. */
static void events_are_the_sdms(void)
{
	static const struct {
		const char *name;
		uint8_t code, umask, counters;
	} want[] = {
		{ "INST_RETIRED.ANY", 0x00, 0x01, 0x81 },
		{ "CPU_CLK_UNHALTED.THREAD", 0x00, 0x02, 0x82 },
		{ "CPU_CLK_UNHALTED.REF_TSC", 0x00, 0x03, 0x84 },
		{ "INST_RETIRED.ANY_P", 0xC0, 0x00, 0x7F },
		{ "CPU_CLK_UNHALTED.THREAD_P", 0x3C, 0x00, 0x7F },
		{ "CPU_CLK_UNHALTED.REF_XCLK", 0x3C, 0x01, 0x7F },
		{ "LONGEST_LAT_CACHE.REFERENCE", 0x2E, 0x4F, 0x7F },
		{ "LONGEST_LAT_CACHE.MISS", 0x2E, 0x41, 0x7F },
		{ "BR_INST_RETIRED.ALL_BRANCHES", 0xC4, 0x00, 0x7F },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 0xC5, 0x00, 0x7F },
	};
	const unsigned n = sizeof(want) / sizeof(want[0]);

	T_EQ(*pmu_driver_arch.nevents, n);
	for (unsigned i = 0; i < n && i < *pmu_driver_arch.nevents; i++) {
		const struct event_desc *d = &pmu_driver_arch.events[i];
		T_STREQ(d->name, want[i].name);
		T_EQ(d->code, want[i].code);
		T_EQ(d->umask, want[i].umask);
		T_EQ(d->counters, want[i].counters);
		T_EQ(pmu_unit_of_event(&pmu_driver_arch, d), want[i].counters & 0x80 ? ARCH_UNIT_FIXED : ARCH_UNIT_GP);
	}
	/* The CPUID.0AH:EBX bits, 0 to 7. */
	static const uint8_t ebx[8][2] = { { 0x3C, 0x00 }, { 0xC0, 0x00 }, { 0x3C, 0x01 }, { 0x2E, 0x4F },
					   { 0x2E, 0x41 }, { 0xC4, 0x00 }, { 0xC5, 0x00 }, { 0xA4, 0x01 } };
	for (unsigned b = 0; b < 8; b++) {
		T_EQ(arch_ebx_events[b].code, ebx[b][0]);
		T_EQ(arch_ebx_events[b].umask, ebx[b][1]);
	}
	/* OS and USR in every select: INST_RETIRED.ANY_P is 0x300C0. */
	struct ev_spec e;
	T_EQ(evsel_parse("INST_RETIRED.ANY_P", arch_only, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), 0x300C0);
	T_EQ(evsel_parse("cpu/event=0xc0,umask=0x00,cmask=2,inv,edge/", arch_only, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), 0x028700C0ull); /* CMASK 2, INV, E, OS, USR, C0 */
	T_EQ(e.counters, 0x7F);
	T_EQ(evsel_parse("cpu/event=0xc0,cmask=0x100/", arch_only, &e, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "bad value '0x100' for 'cmask' in 'cpu/event=0xc0,cmask=0x100/' (at most 0xff: SDM Vol. 3B, "
		     "IA32_PERFEVTSELx)");
	T_EQ(evsel_parse("cpu_fixed/event=0/", arch_only, &e, err, sizeof(err)), UNC_E_INVALID);
}

/* ---- matching and CPUID leaf 0xA ---- */

static void leaf_0a_decoded(void)
{
	struct cpu_info cpu;
	struct pmu_present p;
	char warn[80];

	/* Skylake: version 4, 4 general counters of 48 bits, 3 fixed of 48. */
	fresh(4, 4, 3, true, true);
	cpu_identify(&wrap, &cpu);
	const struct pmu_model *m = pmu_match_model(&pmu_driver_arch, &wrap, &cpu);
	T_ASSERT(m != NULL);
	T_STREQ(m ? m->name : "", "architectural PMU version 4");
	memset(&p, 0, sizeof(p));
	T_EQ(pmu_driver_arch.ops->probe(&wrap, &cpu, 1, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.boxes[ARCH_UNIT_GP], 1);
	T_EQ(p.counters[ARCH_UNIT_GP], 4);
	T_EQ(p.width[ARCH_UNIT_GP], 48);
	T_EQ(p.boxes[ARCH_UNIT_FIXED], 1);
	T_EQ(p.counters[ARCH_UNIT_FIXED], 3);
	T_EQ(p.width[ARCH_UNIT_FIXED], 48);
	T_ASSERT(arch_full_width(&p));
	T_EQ(p.facts[ARCH_FACT_RDPMC_ST], UNC_OK);
	T_EQ(f.nlog, 0); /* the probe only reads */

	/* Version 2 of Core 2: 2 general counters of 40 bits, 3 fixed of 40, no PDCM. */
	gp_width = fixed_width = 40;
	reset_model();
	gp_width = fixed_width = 40;
	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8);
	arch_cpu_on(&f, 2, 2, 3, 0, false, false);
	cpu_identify(&wrap, &cpu);
	memset(&p, 0, sizeof(p));
	T_EQ(pmu_driver_arch.ops->probe(&wrap, &cpu, 1, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.counters[ARCH_UNIT_GP], 2);
	T_EQ(p.width[ARCH_UNIT_GP], 40);
	T_EQ(p.width[ARCH_UNIT_FIXED], 40);
	T_ASSERT(!arch_full_width(&p));
	T_EQ(p.facts[ARCH_FACT_CAPS_ST], UNC_E_NOT_FOUND); /* IA32_PERF_CAPABILITIES not read: PDCM clear */

	/* Version 1: no fixed counters, whatever EDX says. */
	fresh(1, 2, 3, false, false);
	cpu_identify(&wrap, &cpu);
	memset(&p, 0, sizeof(p));
	T_EQ(pmu_driver_arch.ops->probe(&wrap, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.boxes[ARCH_UNIT_FIXED], 0);
	T_STREQ(pmu_match_model(&pmu_driver_arch, &wrap, &cpu)->name, "architectural PMU version 1");

	/* Version 0 (QEMU's TCG): no driver. */
	fresh(0, 0, 0, false, false);
	cpu_identify(&wrap, &cpu);
	T_ASSERT(pmu_match_model(&pmu_driver_arch, &wrap, &cpu) == NULL);
	/* An AMD CPU: leaf 0xA is not read at all (the strict fake would fail on it). */
	fake_init(&f);
	fake_cpu_epyc(&f);
	cpu_identify(&wrap, &cpu);
	T_ASSERT(pmu_match_model(&pmu_driver_arch, &wrap, &cpu) == NULL);
}

/* Version 0: what `stat -e INST_RETIRED.ANY` is told on a CPU where only
 * the Skylake-client driver matches. The engine's wording names the PMU,
 * not CPUID leaf 0xA (see drivers/README.md, "Limits of the engine"). */
static void version_0_refuses_core_events(void)
{
	struct ev_spec e;

	fresh(0, 0, 0, false, false);
	T_EQ(evsel_parse("INST_RETIRED.ANY", skl_only, &e, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_STREQ(err, "INST_RETIRED.ANY is a cpu_fixed event; this CPU has no cpu_fixed PMU (CPUID leaf 0xA reports version 0 or is absent: no architectural PMU)");
	T_EQ(evsel_parse("INST_RETIRED.ANY_P", skl_only, &e, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_STREQ(err, "INST_RETIRED.ANY_P is a cpu event; this CPU has no cpu PMU (CPUID leaf 0xA reports version 0 or is absent: no architectural PMU)");
	T_EQ(evsel_parse("cpu/event=0xc0/", skl_only, &e, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_STREQ(err, "cpu/event=0xc0/ is a cpu event; this CPU has no cpu PMU (CPUID leaf 0xA reports version 0 or is absent: no architectural PMU)");
}

/* ---- runs ---- */

/* Fixed and general counters on version 4 with full-width writes: the
 * exact sequence, exact counts, and everything as found afterwards. */
static void run_v4_sequence_and_counts(void)
{
	struct snap before;

	fresh(4, 4, 3, true, true);
	rate(0x3C, 0x00, 3000000000ull); /* 3 GHz */
	rate(0xC4, 0x00, 500000000ull);
	fixed_rate[0] = 6000000000ull;
	fixed_rate[2] = 2500000000ull;
	snap(&before);
	add("INST_RETIRED.ANY");
	add("CPU_CLK_UNHALTED.REF_TSC");
	add("CPU_CLK_UNHALTED.THREAD_P");
	add("BR_INST_RETIRED.ALL_BRANCHES");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run.c.ngroups, 1);
	T_EQ(run_for(2 * S), UNC_OK);
	T_EQ(count_total(&run.c, 0, -1), 12000000000ull);
	T_EQ(count_total(&run.c, 1, -1), 5000000000ull);
	T_EQ(count_total(&run.c, 2, -1), 6000000000ull);
	T_EQ(count_total(&run.c, 3, -1), 1000000000ull);
	T_ASSERT(rdpmc_calls > 0);

	/* Freeze: the global control without the enables (4 general, 3 fixed). */
	int at = wrote(IA32_PERF_GLOBAL_CTRL, 0, 0);
	T_EQ(at, 0);
	/* Selects without EN, then the counters at the full-width aliases set
	 * to their start, 2^46 in 48 bits; the fixed ones to 2^30 (a write
	 * they take whether or not they take all their bits). */
	T_ASSERT((at = wrote(IA32_PERFEVTSEL0, 0x3003C, at)) > 0);
	T_ASSERT((at = wrote(IA32_PERFEVTSEL0 + 1, 0x300C4, at)) > 0);
	T_ASSERT((at = wrote(IA32_PERFEVTSEL0 + 2, 0, at)) > 0);
	T_ASSERT((at = wrote(IA32_PERFEVTSEL0 + 3, 0, at)) > 0);
	T_ASSERT((at = wrote(IA32_A_PMC0, 0x400000000000, at)) > 0);
	T_ASSERT((at = wrote(IA32_A_PMC0 + 3, 0x400000000000, at)) > 0);
	T_ASSERT(wrote(IA32_PMC0, 0x400000000000, 0) < 0); /* never the 32-bit IA32_PMCx */
	T_ASSERT((at = wrote(IA32_FIXED_CTR0, 0x40000000, at)) > 0);
	T_ASSERT((at = wrote(IA32_FIXED_CTR0 + 2, 0x40000000, at)) > 0);
	/* Fixed counters 0 and 2: OS and USR in fields 0 and 2. */
	T_ASSERT((at = wrote(IA32_FIXED_CTR_CTRL, 0x303, at)) > 0);
	/* The overflow bits cleared, EN set in the selects with an event, then the enables. */
	T_ASSERT((at = wrote(IA32_PERF_GLOBAL_OVF_CTRL, 0x70000000Full, at)) > 0);
	T_ASSERT((at = wrote(IA32_PERFEVTSEL0, 0x43003C, at)) > 0);
	T_ASSERT((at = wrote(IA32_PERFEVTSEL0 + 1, 0x4300C4, at)) > 0);
	T_ASSERT((at = wrote(IA32_PERF_GLOBAL_CTRL, 0x70000000Full, at)) > 0);
	T_ASSERT(wrote(IA32_PERFEVTSEL0 + 2, ARCH_SEL_EN, 0) < 0); /* a counter without an event is not enabled */
	T_ASSERT(same_as(&before));
}

/* Two general counters and three fixed: the global control's enable bits
 * are bits 0-1 and 32-34. A value found in the global control beyond them
 * is kept while counting and put back. */
static void global_enable_bits(void)
{
	struct snap before;

	fresh(3, 2, 3, false, false);
	*reg(IA32_PERF_GLOBAL_CTRL) = 0x700000003ull | 1ull << 48; /* bit 48: not one of this driver's */
	rate(0xC0, 0x00, 1000000);
	snap(&before);
	add("INST_RETIRED.ANY_P");
	add("CPU_CLK_UNHALTED.THREAD");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(S), UNC_OK);
	T_EQ(count_total(&run.c, 0, -1), 1000000);
	T_ASSERT(wrote(IA32_PERF_GLOBAL_CTRL, 1ull << 48, 0) == 0);
	T_ASSERT(wrote(IA32_PERF_GLOBAL_CTRL, 0x700000003ull | 1ull << 48, 1) > 0);
	T_ASSERT(wrote(IA32_FIXED_CTR_CTRL, 0x30, 0) > 0);
	/* without full-width writes: IA32_PMCx, at 2^30 (bits 31:0 sign-extended) */
	T_ASSERT(wrote(IA32_PMC0, 0x40000000, 0) > 0);
	T_ASSERT(same_as(&before));
	T_EQ(*reg(IA32_PERF_GLOBAL_CTRL), 0x700000003ull | 1ull << 48);
}

/* RDPMC that worked at the probe and raises #GP or #UD later: each read
 * falls back to rdmsr (IA32_A_PMCx, IA32_FIXED_CTRx), as arch_read_counter
 * does, the sample's own RDPMC being tried first; the counts are the same
 * and the run does not fail. */
static void rdmsr_when_rdpmc_faults_later(void)
{
	static const enum unc_status faults[] = { UNC_E_UNSUPPORTED, UNC_E_FAULT };

	for (unsigned k = 0; k < 2; k++) {
		fresh(4, 4, 3, true, true);
		rate(0xC0, 0x00, 7000000);
		fixed_rate[1] = 3000000;
		add("INST_RETIRED.ANY_P");
		add("CPU_CLK_UNHALTED.THREAD");
		T_EQ(schedule(false), UNC_OK);
		T_EQ(rdpmc_calls, 1); /* the probe's, which worked */
		rdpmc_fault = faults[k];
		unsigned reads = f.msr_reads;
		T_EQ(run_for(S), UNC_OK);
		T_EQ(count_total(&run.c, 0, -1), 7000000);
		T_EQ(count_total(&run.c, 1, -1), 3000000);
		T_ASSERT(rdpmc_calls > 20); /* each sample's two, each then read by rdmsr */
		T_ASSERT(f.msr_reads > reads + 20);
	}
}

/* RDPMC raising #UD (QEMU's TCG) or #GP: the counters are read with rdmsr
 * (IA32_A_PMCx, IA32_FIXED_CTRx), and the counts are the same. `info` says
 * which. */
static void rdmsr_when_rdpmc_faults(void)
{
	static const enum unc_status faults[] = { UNC_E_UNSUPPORTED, UNC_E_FAULT };

	for (unsigned k = 0; k < 2; k++) {
		fresh(4, 4, 3, true, true);
		rdpmc_fault = faults[k];
		rate(0xC0, 0x00, 7000000);
		fixed_rate[1] = 3000000;
		add("INST_RETIRED.ANY_P");
		add("CPU_CLK_UNHALTED.THREAD");
		T_EQ(schedule(false), UNC_OK);
		unsigned reads = f.msr_reads;
		T_EQ(run_for(S), UNC_OK);
		T_EQ(count_total(&run.c, 0, -1), 7000000);
		T_EQ(count_total(&run.c, 1, -1), 3000000);
		T_EQ(rdpmc_calls, 1); /* the probe's one try */
		T_ASSERT(f.msr_reads > reads + 20);

		fake_skl_uncore(&f, 5); /* info probes the Skylake-client driver too */
		fake_host_bridge(&f, 0x8086, 0x1910, 0xFED10001ull);
		fake_mmio(&f, 0xFED15050, 0);
		struct platform_info pi;
		static char text[8192];
		struct strbuf sb;
		strbuf_init(&sb, text, sizeof(text));
		struct out o = strbuf_out(&sb);
		T_EQ(info_gather(&wrap, &pi), pi.verdict);
		for (unsigned d = 0; d < pi.npmu; d++)
			if (pi.pmu[d].drv == &pmu_driver_arch)
				pmu_driver_arch.ops->info(&o, &pi.pmu[d].p, false);
		T_CONTAINS(text, k == 0 ? "counters read with: rdmsr (RDPMC raised #UD)\n"
					: "counters read with: rdmsr (RDPMC raised #GP)\n");
		T_CONTAINS(text, "CPUID 0xA:    version 4, 4 general counters of 48 bits, 3 fixed counters of 48 bits\n");
		T_CONTAINS(text, "IA32_PERF_CAPABILITIES: 0x2003; counters written at IA32_A_PMCx (0x4C1, full width)\n");
	}
	/* And RDPMC when it works. */
	fresh(4, 4, 3, true, true);
	rate(0xC0, 0x00, 7000000);
	add("INST_RETIRED.ANY_P");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(S), UNC_OK);
	T_EQ(count_total(&run.c, 0, -1), 7000000);
	T_ASSERT(rdpmc_calls > 10);
}

/* An info record read back says what the probe found: the three fixed
 * counters and their width (48 bits, CPUID.0AH:EDX 12:5), as the console
 * did; also the three that versions 2 to 4 omit (EDX 0: the general
 * counters' 40 bits). */
static void stored_info_keeps_the_fixed_counters(void)
{
	static struct platform_info pi;
	static struct rec r;
	static struct rec_print_ws ws;
	static uint8_t buf[65536];
	static char text[8192];
	char err[160];

	for (unsigned k = 0; k < 2; k++) {
		fresh(4, 4, 3, true, true);
		if (k) { /* EDX reports no fixed counter: 3 assumed (no hypervisor), 40 bits */
			fake_cpuid(&f, 0xA, 0, 0x07280404, 0, 0, 0);
			fake_cpuid(&f, 1, 0, 0x506E3, 8u << 16, ARCH_CPUID1_ECX_PDCM, 1u << 28);
		}
		fake_skl_uncore(&f, 5); /* info probes the Skylake-client driver too */
		fake_host_bridge(&f, 0x8086, 0x1910, 0xFED10001ull);
		fake_mmio(&f, 0xFED15050, 0);
		T_EQ(info_gather(&wrap, &pi), pi.verdict);
		memset(&r, 0, sizeof(r));
		strcpy(r.command, "info");
		rec_from_info(&r, &pi);
		info_free(&pi);
		struct rec_buf b = { buf, 0, sizeof(buf), false };
		rec_begin(&b);
		rec_put(&b, &r);
		rec_free(&r);
		T_EQ(rec_end(&b), UNC_OK);
		struct strbuf sb;
		strbuf_init(&sb, text, sizeof(text));
		struct out o = strbuf_out(&sb);
		T_EQ(rec_print(&o, buf, b.len, REPORT_HUMAN, ",", NULL, &ws, err, sizeof(err)), UNC_OK);
		T_CONTAINS(text, k ? "CPUID 0xA:    version 4, 4 general counters of 40 bits, 3 fixed counters of 40 bits\n"
				   : "CPUID 0xA:    version 4, 4 general counters of 48 bits, 3 fixed counters of 48 bits\n");
	}
	/* Under a hypervisor whose EDX reports none, none is assumed: the
	 * verdict names the unit (it once read "reports no (null)") */
	fresh(4, 4, 3, true, true);
	fake_cpuid(&f, 0xA, 0, 0x07300404, 0, 0, 0);
	fake_skl_uncore(&f, 5);
	fake_host_bridge(&f, 0x8086, 0x1910, 0xFED10001ull);
	fake_mmio(&f, 0xFED15050, 0);
	info_gather(&wrap, &pi);
	T_STREQ(pi.verdict_reason, "CPUID leaf 0xA reports no FIXED_CTR");
	info_free(&pi);
}

/* list on a CPU of 4 general counters (CPUID.0AH:EAX[15:8]): the general
 * events on counters 0 to 3, not the 0 to 6 of events/arch.json; the fixed
 * ones as named; list --all (no CPU) keeps the file's counters. */
static void list_follows_cpuid_counters(void)
{
	static char text[65536];
	static const struct pmu_driver *const arch_drv[] = { &pmu_driver_arch, NULL };

	for (unsigned k = 0; k < 3; k++) {
		fresh(4, k == 1 ? 2 : 4, 3, true, true);
		struct strbuf sb;
		strbuf_init(&sb, text, sizeof(text));
		struct out o = strbuf_out(&sb);
		report_list(&o, false, arch_drv, k == 2, k == 2 ? NULL : &wrap);
		/* the pmu column as wide as cpu_fixed, the counters column as its
		 * heading or its widest entry on this CPU */
		T_CONTAINS(text, k == 0   ? "\ncpu        0xc0  0x00   0,1,2,3   INST_RETIRED.ANY_P "
				 : k == 1 ? "\ncpu        0xc0  0x00   0,1       INST_RETIRED.ANY_P "
					  : "\ncpu        0xc0  0x00   0,1,2,3,4,5,6  INST_RETIRED.ANY_P ");
		T_CONTAINS(text, k < 2 ? "\ncpu_fixed  0x00  0x01   FIXED 0   INST_RETIRED.ANY "
				       : "\ncpu_fixed  0x00  0x01   FIXED 0        INST_RETIRED.ANY ");
		strbuf_init(&sb, text, sizeof(text));
		report_list(&o, true, arch_drv, k == 2, k == 2 ? NULL : &wrap);
		T_CONTAINS(text, k == 0   ? "\"EventName\":\"INST_RETIRED.ANY_P\""
				 : "\"EventName\":\"INST_RETIRED.ANY_P\"");
		T_CONTAINS(text, k == 0 ? "\"Counter\":\"0,1,2,3\",\"CounterMask\":\"0\",\"Invert\":\"0\",\"EdgeDetect\":\"0\"}"
				 : k == 1 ? "\"Counter\":\"0,1\","
					  : "\"Counter\":\"0,1,2,3,4,5,6\",");
	}
}

/* The unavailable events of CPUID.0AH:EBX, as info shows them. */
static void info_names_unavailable_events(void)
{
	struct pmu_present p;
	struct cpu_info cpu;
	static char text[4096];
	struct strbuf sb;
	char warn[80];

	fresh(4, 4, 3, true, false);
	fake_cpuid(&f, 0xA, 0, 4 | 4 << 8 | 48 << 16 | 7u << 24, 0x18, 0, 3 | 48 << 5); /* bits 3, 4: LLC */
	cpu_identify(&wrap, &cpu);
	memset(&p, 0, sizeof(p));
	T_EQ(pmu_driver_arch.ops->probe(&wrap, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	strbuf_init(&sb, text, sizeof(text));
	struct out o = strbuf_out(&sb);
	pmu_driver_arch.ops->info(&o, &p, false);
	/* length 7: Topdown Slots (bit 7) is beyond the vector, so unavailable too */
	T_CONTAINS(text, "unavailable:  LLC Reference (2E/4F), LLC Misses (2E/41), Topdown Slots (A4/01) (CPUID.0AH:EBX 0x18, "
			 "length 7)\n");
	T_CONTAINS(text, "IA32_PERF_CAPABILITIES: 0x3; counters written at IA32_PMCx (0xC1, bits 31:0)\n");
	strbuf_init(&sb, text, sizeof(text));
	pmu_driver_arch.ops->info(&o, &p, true);
	T_CONTAINS(text, "\"unavailable_events\":[\"LLC Reference\",\"LLC Misses\",\"Topdown Slots\"]");
}

/* IA32_PERF_CAPABILITIES faulting on read says nothing of full-width
 * writes: IA32_A_PMC0 answers, so the counters are written there, and
 * values above bit 31 come back whole (through IA32_PMCx they would not). */
static void caps_fault_keeps_full_width_writes(void)
{
	struct snap before;

	fresh(4, 4, 3, true, true);
	fake_msr_gp(&f, IA32_PERF_CAPABILITIES, true, false);
	for (unsigned i = 0; i < 4; i++)
		set_gp(i, 0x123456789Aull + i);
	rate(0xC0, 0x00, 1000000);
	snap(&before);
	add("INST_RETIRED.ANY_P");
	add("CPU_CLK_UNHALTED.THREAD_P");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(S), UNC_OK);
	T_EQ(count_total(&run.c, 0, -1), 1000000);
	T_ASSERT(wrote(IA32_A_PMC0, 0x400000000000, 0) >= 0);
	T_ASSERT(wrote(IA32_PMC0, 0x40000000, 0) < 0);
	T_ASSERT(same_as(&before));
	T_STREQ(run.restore_note, "");
}

/* IA32_FIXED_CTR_CTRL or an event select changed by someone else mid-run
 * (the fixed counters stop, or count at another ring): each sample reads
 * them, and the run stops naming the register. */
static void fixed_ctrl_or_select_changed_during_the_run(void)
{
	static const struct {
		uint32_t msr;
		uint64_t v;
		const char *err;
	} cases[] = {
		{ IA32_FIXED_CTR_CTRL, 0, "IA32_FIXED_CTR_CTRL (0x38d) reads 0x0, not the 0x30 this run wrote: written by "
					  "someone else during the run" },
		{ IA32_PERFEVTSEL0, 0x4100C0, "IA32_PERFEVTSEL0 (0x186) reads 0x4100c0, not the 0x4300c0 this run wrote: "
					      "written by someone else during the run" },
	};

	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct snap before;
		fresh(4, 4, 3, true, true);
		rate(0xC0, 0x00, 1000000);
		snap(&before);
		add("INST_RETIRED.ANY_P");
		add("CPU_CLK_UNHALTED.THREAD");
		T_EQ(schedule(false), UNC_OK);
		T_EQ(stat_start(&run, &wrap, false), UNC_OK);
		advance(f.now + 50 * MS);
		*reg(cases[k].msr) = cases[k].v;
		advance(f.now + 50 * MS);
		T_EQ(stat_sample(&run), UNC_E_CLOBBERED);
		T_STREQ(run.err, cases[k].err);
		T_EQ(stat_stop(&run, UNC_E_CLOBBERED), UNC_E_CLOBBERED);
		T_ASSERT(same_as(&before));
	}
}

/* Someone else's EN in a select, or a counting field of FIXED_CTR_CTRL, is
 * in use; the power-up enables of the global control are not. */
static void in_use(void)
{
	fresh(4, 4, 3, true, true);
	*reg(IA32_PERFEVTSEL0 + 2) = 0x43003C;
	add("INST_RETIRED.ANY_P");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(stat_start(&run, &wrap, false), UNC_E_BUSY);
	T_STREQ(run.err, "the core PMU is in use (IA32_PERFEVTSEL2 = 0x43003c); --force takes it over and restores it");
	T_EQ(f.nlog, 0);

	fresh(4, 4, 3, true, true);
	*reg(IA32_FIXED_CTR_CTRL) = 0x020;
	add("INST_RETIRED.ANY");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(stat_start(&run, &wrap, false), UNC_E_BUSY);
	T_STREQ(run.err, "the core PMU is in use (IA32_FIXED_CTR_CTRL = 0x20); --force takes it over and restores it");
	T_EQ(f.nlog, 0);
}

/* A #GP on each register the run writes, in turn: the run fails, and every
 * register is as found. */
static void gp_on_each_register_restores_the_rest(void)
{
	static const uint32_t written[] = { IA32_PERF_GLOBAL_CTRL, IA32_PERFEVTSEL0, IA32_PERFEVTSEL0 + 1,
					    IA32_A_PMC0,	   IA32_A_PMC0 + 1,  IA32_FIXED_CTR0,
					    IA32_FIXED_CTR0 + 1,   IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_OVF_CTRL };

	for (unsigned k = 0; k < sizeof(written) / sizeof(written[0]); k++) {
		struct snap before;
		fresh(4, 2, 2, true, true);
		rate(0xC0, 0x00, 1000000);
		snap(&before);
		add("INST_RETIRED.ANY_P");
		add("BR_MISP_RETIRED.ALL_BRANCHES");
		add("INST_RETIRED.ANY");
		add("CPU_CLK_UNHALTED.THREAD");
		T_EQ(schedule(false), UNC_OK);
		fake_msr_gp(&f, written[k], false, true);
		enum unc_status st = run_for(S);
		if (st != UNC_E_FAULT)
			t_fail(__FILE__, __LINE__, "#GP on 0x%x: status %d (%s)", written[k], st, run.err);
		char want[40];
		fmt_snprintf(want, sizeof(want), "wrmsr 0x%x", written[k]);
		T_CONTAINS(run.err, want);
		f.msr[0].gp_write = false;
		for (unsigned i = 0; i < f.nmsr; i++)
			f.msr[i].gp_write = false;
		if (!same_as(&before))
			t_fail(__FILE__, __LINE__, "after a #GP on 0x%x a register is not as found", written[k]);
	}
}

/* Version 1: no global control, so the snapshot's read of
 * IA32_PERF_GLOBAL_CTRL faults and nothing is written (drivers/README.md's
 * limits: the model has no per-CPU list of global registers). */
/* An event CPUID leaf 0xA's EBX marks unavailable is refused (after the
 * probe, before anything is written); one beyond EBX's length too. */
static void unavailable_events_refused(void)
{
	reset_model();
	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8);
	arch_cpu_on(&f, 4, 4, 3, 1u << 4 /* LLC Misses */, false, false);
	under = &f.hw;
	wrap = (struct hw){ .ops = &wrap_ops, .tick_hz = S, .msr_mode = HW_MSR_NATIVE };
	add("LONGEST_LAT_CACHE.MISS");
	T_EQ(schedule(false), UNC_E_UNSUPPORTED);
	T_STREQ(run.err, "cannot count LONGEST_LAT_CACHE.MISS: CPUID leaf 0xA marks LLC Misses (event 0x2e, umask 0x41) "
			 "unavailable on this CPU (EBX 0x10, 7 bits)");
	T_EQ(f.nlog, 0);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	add("LONGEST_LAT_CACHE.REFERENCE"); /* bit 3 clear: available */
	T_EQ(schedule(false), UNC_OK);
}

/* Version 1 has no IA32_PERF_GLOBAL_CTRL: the probe marks it absent, so
 * the snapshot does not read it and nothing touches it; each event's EN is
 * the only enable. Counts are exact and everything is put back. */
static void version_1_runs_without_global_ctrl(void)
{
	struct snap before;

	fresh(1, 2, 0, false, false);
	fake_msr_gp(&f, IA32_PERF_GLOBAL_CTRL, true, true);
	snap(&before);
	rate(0xC0, 0x00, 3000000);
	add("INST_RETIRED.ANY_P");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(S), UNC_OK);
	T_EQ(count_total(&run.c, 0, -1), 3000000);
	for (unsigned i = 0; i < f.nlog; i++)
		T_ASSERT(f.log[i].addr != IA32_PERF_GLOBAL_CTRL);
	T_ASSERT(same_as(&before));
}

/* Core and uncore events in one run on a Skylake-client CPU whose leaf 0xA
 * reports the architectural PMU: both drivers, each with its counts. */
static void mixed_with_skylake_uncore(void)
{
	struct emu_config cfg;
	struct snap before;

	reset_model();
	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE; /* the core PMU is the fake's, below */
	cfg.rates[cfg.nrates++] = (struct emu_rate){ EMU_UNIT_CBO, 0x34, 0x8f, 3000000 };
	emu_hw_init(&eh, &cfg);
	fake_init(&f);
	f.now = 0;
	/* The core PMU's registers are in the strict fake behind the model. */
	arch_cpu_on(&eh.fake, 4, 4, 3, 0, true, true);
	cur = &eh.fake;
	under = &eh.hw;
	wrap = (struct hw){ .ops = &wrap_ops, .tick_hz = S, .msr_mode = HW_MSR_NATIVE };
	present = arch_and_skl;
	rate(0xC0, 0x00, 2000000);
	fixed_rate[1] = 4000000;
	struct cpu_info cpu;
	cpu_identify(&wrap, &cpu);
	T_ASSERT(pmu_match_model(&pmu_driver_arch, &wrap, &cpu) != NULL);
	T_ASSERT(pmu_match_model(&pmu_driver_skl, &wrap, &cpu) != NULL);
	snap(&before);
	add("CPU_CLK_UNHALTED.THREAD");
	add("INST_RETIRED.ANY_P");
	add("UNC_CBO_CACHE_LOOKUP.ANY_MESI");
	add("UNC_CLOCK.SOCKET");
	add("imc/data_reads/");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run.npmu, 2);
	T_EQ(run_for(S), UNC_OK);
	T_EQ(count_total(&run.c, 2, -1), 4 * 3000000);
	T_ASSERT(count_total(&run.c, 3, -1) > 0);
	T_STREQ(run.c.ev[0].v.driver, "arch-core");
	T_EQ(count_total(&run.c, 0, -1), 4000000);
	T_EQ(count_total(&run.c, 1, -1), 2000000);
	T_STREQ(run.c.ev[0].v.driver, "arch-core");
	T_STREQ(run.c.ev[2].v.driver, "skl-client-uncore");
	T_ASSERT(same_as(&before));
}

/* Versions 2 to 4 whose CPUID.0AH:EDX reports no fixed counters (nor their
 * width) have the three: not under a hypervisor they are assumed, as Linux
 * does, with the general counters' width, and INST_RETIRED.ANY,
 * CPU_CLK_UNHALTED.THREAD and .REF_TSC count; under one, EDX is believed. */
static void fixed_counters_assumed_when_edx_reports_none(void)
{
	struct cpu_info cpu;
	struct pmu_present p;
	char warn[80];

	for (unsigned v = 2; v <= 4; v++) {
		reset_model();
		fake_init(&f);
		fake_cpu_skylake(&f, 0x5E, 4, 8);
		gp_width = 40;
		fixed_width = 0;
		arch_cpu_on(&f, v, 2, 0, 0, false, false);
		fake_cpuid(&f, 1, 0, 0x506E3, 8u << 16, 0, 1u << 28); /* no hypervisor */
		for (unsigned i = 0; i < 3; i++)
			fake_msr(&f, IA32_FIXED_CTR0 + i, 0x100 * (i + 1));
		*reg(IA32_PERF_GLOBAL_CTRL) = 0x700000003ull; /* as at power-up */
		nfixed = 3;
		fixed_width = 40;
		under = &f.hw;
		wrap = (struct hw){ .ops = &wrap_ops, .tick_hz = S, .msr_mode = HW_MSR_NATIVE };
		cpu_identify(&wrap, &cpu);
		T_ASSERT(!cpu.hypervisor);
		memset(&p, 0, sizeof(p));
		T_EQ(pmu_driver_arch.ops->probe(&wrap, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
		T_EQ(p.boxes[ARCH_UNIT_FIXED], 1);
		T_EQ(p.counters[ARCH_UNIT_FIXED], 3);
		T_EQ(p.width[ARCH_UNIT_FIXED], 40);
		T_ASSERT(arch_fixed_assumed(&p));
		fixed_rate[0] = 2000000000ull;
		fixed_rate[1] = 3000000000ull;
		fixed_rate[2] = 1000000000ull;
		add("INST_RETIRED.ANY");
		add("CPU_CLK_UNHALTED.THREAD");
		add("CPU_CLK_UNHALTED.REF_TSC");
		T_EQ(schedule(false), UNC_OK);
		T_EQ(run_for(S), UNC_OK);
		T_EQ(count_total(&run.c, 0, -1), 2000000000ull);
		T_EQ(count_total(&run.c, 1, -1), 3000000000ull);
		T_EQ(count_total(&run.c, 2, -1), 1000000000ull);
		char buf[2048];
		struct strbuf sb;
		strbuf_init(&sb, buf, sizeof(buf));
		struct out o = strbuf_out(&sb);
		pmu_driver_arch.ops->info(&o, &p, false);
		T_CONTAINS(buf, "2 general counters of 40 bits, 3 fixed counters of 40 bits\n  note: EDX reports 0 fixed "
				"counters; versions 2 to 4 may omit them, so 3 are assumed (not under a hypervisor, as Linux does)\n");
	}
	/* Under a hypervisor (arch_cpu_on's leaf 1 has bit 31): EDX's none. */
	reset_model();
	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8);
	fixed_width = 0;
	arch_cpu_on(&f, 4, 2, 0, 0, false, false);
	under = &f.hw;
	wrap = (struct hw){ .ops = &wrap_ops, .tick_hz = S, .msr_mode = HW_MSR_NATIVE };
	cpu_identify(&wrap, &cpu);
	T_ASSERT(cpu.hypervisor);
	memset(&p, 0, sizeof(p));
	T_EQ(pmu_driver_arch.ops->probe(&wrap, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.boxes[ARCH_UNIT_FIXED], 0);
	T_ASSERT(!arch_fixed_assumed(&p));
	/* Version 5 says what it has in ECX and EDX: believed. */
	reset_model();
	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8);
	arch_cpu_on(&f, 5, 2, 0, 0, false, false);
	fake_cpuid(&f, 1, 0, 0x506E3, 8u << 16, 0, 1u << 28);
	cpu_identify(&wrap, &cpu);
	memset(&p, 0, sizeof(p));
	T_EQ(pmu_driver_arch.ops->probe(&wrap, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.boxes[ARCH_UNIT_FIXED], 0);
}

T_MAIN("arch", T_CASE(list_follows_cpuid_counters), T_CASE(stored_info_keeps_the_fixed_counters), T_CASE(registers_are_the_sdms), T_CASE(events_are_the_sdms), T_CASE(leaf_0a_decoded),
       T_CASE(version_0_refuses_core_events), T_CASE(run_v4_sequence_and_counts), T_CASE(global_enable_bits),
       T_CASE(rdmsr_when_rdpmc_faults), T_CASE(rdmsr_when_rdpmc_faults_later), T_CASE(info_names_unavailable_events), T_CASE(in_use),
       T_CASE(gp_on_each_register_restores_the_rest), T_CASE(unavailable_events_refused), T_CASE(version_1_runs_without_global_ctrl),
       T_CASE(mixed_with_skylake_uncore), T_CASE(caps_fault_keeps_full_width_writes),
       T_CASE(fixed_ctrl_or_select_changed_during_the_run), T_CASE(fixed_counters_assumed_when_edx_reports_none))
