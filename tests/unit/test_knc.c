/* The Knights Corner core PMU driver (drivers/pmu/knc.c) against Intel
 * 327357-001JA, "Knights Corner Performance Monitoring Units" (Japanese,
 * revision 1.01), whose table and section numbers are cited: conformance
 * with literals typed from the manual (Table 1-2's addresses, Table 1-5's
 * select layout, every row of Table 1-6 in its own column order: FUB,
 * UMASK, event code, name), and the engine running the driver on the
 * strict fake register file, where a small model of the PMU counts: exact
 * counts and write sequence, 40-bit wraps, the write-only
 * IA32_PERF_GLOBAL_OVF_CTRL never read and the read-only
 * IA32_PERF_GLOBAL_STATUS never written, PERF_SPFLT_CONTROL cleared and
 * restored, and every register restored after a #GP on each write. */
#include <stdio.h>
#include <string.h>

#include "../../drivers/base/cpu.h"
#include "../../drivers/engine/info.h"
#include "../../drivers/pmu/knc.h"
#include "../../drivers/pmu/skl.h"
#include "../../drivers/engine/stat.h"
#include "fake_hw.h"
#include "run_help.h"
#include "t.h"

#define S  1000000000ull
#define MS 1000000ull
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Table 1-2, typed from the manual. */
#define PERFCNT0    0x20u
#define PERFCNT1    0x21u
#define PERFEVTSEL0 0x28u
#define PERFEVTSEL1 0x29u
#define SPFLT_CTL   0x2Cu
#define G_STATUS    0x2Du
#define G_OVF_CTRL  0x2Eu
#define G_CTRL      0x2Fu
#define MASK40      0xFFFFFFFFFFull

/* Table 1-5: EN 22, OS 17, USR 16 (and CMASK 31:24, INV 23, E 18). */
#define SEL_EN_OS_USR 0x00430000ull

/* ---- Table 1-6, in the manual's column order: FUB, UMASK, event code,
 * mnemonic (CODE_READ's FUB cell is empty in the manual). ---- */
static const struct {
	const char *fub;
	unsigned umask, code;
	const char *name;
} table_1_6[] = {
	{ "P54C", 0x00, 0x00, "DATA_READ" },
	{ "P54C", 0x00, 0x01, "DATA_WRITE" },
	{ "P54C", 0x00, 0x02, "DATA_PAGE_WALK" },
	{ "P54C", 0x00, 0x03, "DATA_READ_MISS" },
	{ "P54C", 0x00, 0x04, "DATA_WRITE_MISS" },
	{ "P54C", 0x00, 0x06, "DATA_CACHE_LINES_WRITTEN_BACK" },
	{ "P54C", 0x00, 0x09, "MEMORY_ACCESSES_IN_BOTH_PIPES" },
	{ "P54C", 0x00, 0x0A, "BANK_CONFLICTS" },
	{ "", 0x00, 0x0C, "CODE_READ" },
	{ "P54C", 0x00, 0x0D, "CODE_PAGE_WALK" },
	{ "P54C", 0x00, 0x0E, "CODE_CACHE_MISS" },
	{ "P54C", 0x00, 0x11, "L1_DATA_PF1" },
	{ "P54C", 0x00, 0x12, "BRANCHES" },
	{ "P54C", 0x00, 0x15, "PIPELINE_FLUSHES" },
	{ "P54C", 0x00, 0x16, "INSTRUCTIONS_EXECUTED" },
	{ "P54C", 0x00, 0x17, "INSTRUCTIONS_EXECUTED_V_PIPE" },
	{ "P54C", 0x00, 0x1C, "L1_DATA_PF1_MISS" },
	{ "P54C", 0x00, 0x1E, "L1_DATA_PF1_DROP" },
	{ "P54C", 0x00, 0x1F, "PIPELINE_AGI_STALLS" },
	{ "P54C", 0x00, 0x20, "L1_DATA_HIT_INFLIGHT_PF1" },
	{ "P54C", 0x00, 0x21, "PIPELINE_SG_AGI_STALLS" },
	{ "P54C", 0x00, 0x28, "DATA_READ_OR_WRITE" },
	{ "P54C", 0x00, 0x29, "DATA_READ_MISS_OR_WRITE_MISS" },
	{ "P54C", 0x00, 0x2A, "CPU_CLK_UNHALTED" },
	{ "P54C", 0x00, 0x2B, "BRANCHES_MISPREDICTED" },
	{ "P54C", 0x00, 0x2C, "MICROCODE_CYCLES" },
	{ "P54C", 0x00, 0x2D, "FE_STALLED" },
	{ "P54C", 0x00, 0x2E, "EXEC_STAGE_CYCLES" },
	{ "P54C", 0x00, 0x37, "L1_DATA_PF2" },
	{ "P54C", 0x00, 0x38, "L2_DATA_PF1_MISS" },
	{ "P54C", 0x00, 0x3A, "LONG_DATA_PAGE_WALK" },
	{ "P54C", 0x00, 0x3B, "LONG_CODE_PAGE_WALK" },
	{ "CRI", 0x10, 0xC8, "L2_READ_HIT_E" },
	{ "CRI", 0x10, 0xC9, "L2_READ_HIT_M" },
	{ "CRI", 0x10, 0xCA, "L2_READ_HIT_S" },
	{ "CRI", 0x10, 0xCB, "L2_READ_MISS" },
	{ "CRI", 0x10, 0xCC, "L2_WRITE_HIT" },
	{ "CRI", 0x10, 0xD7, "L2_VICTIM_REQ_WITH_DATA" },
	{ "CRI", 0x10, 0xE3, "SNP_HITM_BUNIT" },
	{ "CRI", 0x10, 0xE6, "SNP_HIT_L2" },
	{ "CRI", 0x10, 0xE7, "SNP_HITM_L2" },
	{ "CRI", 0x10, 0xF0, "L2_CODE_READ_MISS_CACHE_FILL" },
	{ "CRI", 0x10, 0xF1, "L2_DATA_READ_MISS_CACHE_FILL" },
	{ "CRI", 0x10, 0xF2, "L2_DATA_WRITE_MISS_CACHE_FILL" },
	{ "CRI", 0x10, 0xF5, "L2_CODE_READ_MISS_MEM_FILL" },
	{ "CRI", 0x10, 0xF6, "L2_DATA_READ_MISS_MEM_FILL" },
	{ "CRI", 0x10, 0xF7, "L2_DATA_WRITE_MISS_MEM_FILL" },
	{ "CRI", 0x10, 0xFC, "L2_DATA_PF2" },
	{ "CRI", 0x10, 0xFD, "L2_DATA_PF2_DROP" },
	{ "CRI", 0x10, 0xFE, "L2_DATA_PF2_MISS" },
	{ "CRI", 0x10, 0xFF, "L2_DATA_HIT_INFLIGHT_PF2" },
	{ "VPU", 0x20, 0x00, "VPU_DATA_READ" },
	{ "VPU", 0x20, 0x01, "VPU_DATA_WRITE" },
	{ "VPU", 0x20, 0x03, "VPU_DATA_READ_MISS" },
	{ "VPU", 0x20, 0x04, "VPU_DATA_WRITE_MISS" },
	{ "VPU", 0x20, 0x05, "VPU_STALL_REG" },
	{ "VPU", 0x20, 0x16, "VPU_INSTRUCTIONS_EXECUTED" },
	{ "VPU", 0x20, 0x17, "VPU_INSTRUCTIONS_EXECUTED_V_PIPE" },
	{ "VPU", 0x20, 0x18, "VPU_ELEMENTS_ACTIVE" },
};

/* The manual gives no counter restrictions; Linux's knc_event_constraints
 * (arch/x86/events/intel/knc.c) puts these event codes on counter 0 only. */
static const unsigned linux_counter0_codes[] = { 0xC3, 0xC4, 0xC8, 0xC9, 0xCA, 0xCB, 0xCC, 0xCE, 0xCF, 0xD7, 0xE3,
						 0xE6, 0xE7, 0xF1, 0xF2, 0xF6, 0xF7, 0xFC, 0xFD, 0xFE, 0xFF };

static unsigned expected_counters(unsigned code)
{
	for (unsigned i = 0; i < N(linux_counter0_codes); i++)
		if (linux_counter0_codes[i] == code)
			return 0x1;
	return 0x3; /* Table 1-2: IA32_PerfCnt0 and 1 */
}

/* ---- the fake machine: a Knights Corner CPU and a model of its PMU ---- */

static struct fake_hw f;
static struct stat_run run;
static const struct pmu_driver *const knc_only[] = { &pmu_driver_knc, NULL };
static const struct pmu_driver *const skl_only[] = { &pmu_driver_skl, NULL };

/* Events per second, by the select's low 16 bits (umask << 8 | code). */
static struct {
	uint16_t ev;
	uint64_t per_sec;
} rates[4];
static unsigned nrates, log_seen;
/* Someone else at work during the run: at clobber_at, msr gets value. */
static uint64_t clobber_at, clobber_val;
static uint32_t clobber_msr;

static uint64_t *reg(uint32_t msr)
{
	return fake_msr_value(&f, msr);
}

static uint64_t rate_of(uint64_t sel)
{
	for (unsigned i = 0; i < nrates; i++)
		if (rates[i].ev == (sel & 0xFFFF))
			return rates[i].per_sec;
	return 0;
}

/* What the PMU did since the last look: each write to OVF_CTRL clears its
 * bits in STATUS (Table 1-9); time runs to `to`, and a counter whose EN
 * (Table 1-5) and GLOBAL_CTRL bit (Table 1-10) are set, and which SPFLT
 * does not gate (Table 1-7: control bit N set and USER_PREF clear), counts
 * at its event's rate, wrapping at 40 bits and setting its STATUS bit
 * (Table 1-8). */
static void advance(uint64_t to)
{
	for (; log_seen < f.nlog; log_seen++)
		if (f.log[log_seen].kind == FAKE_MSR && f.log[log_seen].addr == G_OVF_CTRL)
			*reg(G_STATUS) &= ~f.log[log_seen].value;
	if (to <= f.now)
		return;
	uint64_t dt = to - f.now, gctrl = *reg(G_CTRL), spflt = *reg(SPFLT_CTL);
	for (unsigned c = 0; c < 2; c++) {
		uint64_t sel = *reg(PERFEVTSEL0 + c), r = rate_of(sel);
		if (!(sel & 1ull << 22) || !(gctrl >> c & 1) || ((spflt >> c & 1) && !(spflt >> 63)))
			continue;
		uint64_t v = *reg(PERFCNT0 + c) + (r / S) * dt + (r % S) * dt / S;
		if (v >> 40)
			*reg(G_STATUS) |= 1ull << c;
		*reg(PERFCNT0 + c) = v & MASK40;
	}
	f.now = to;
}

static bool wait_until(void *ctx, uint64_t when)
{
	(void)ctx;
	if (clobber_msr && when > clobber_at) {
		advance(clobber_at);
		*reg(clobber_msr) = clobber_val;
		clobber_msr = 0;
	}
	advance(when);
	return false;
}

static const struct stat_env env = { wait_until, NULL, NULL, NULL };

static uint32_t str4(const char *s)
{
	uint32_t v;

	memcpy(&v, s, 4);
	return v;
}

/* GenuineIntel, family 0xB model 1 (CPUID.1:EAX 0xB11): what QEMU's
 * `-cpu qemu64,vendor=GenuineIntel,family=11,model=1` reports, without
 * the leaves it adds. */
static void knc_cpu(void)
{
	fake_cpuid(&f, 0, 0, 1, str4("Genu"), str4("ntel"), str4("ineI"));
	fake_cpuid(&f, 1, 0, 0xB11, 0, 0, 0);
	fake_cpuid(&f, 0x80000000, 0, 0, 0, 0, 0);
}

/* Every register of Table 1-2 the driver may touch, with the values
 * given; OVF_CTRL raises #GP on read (it is write only, and the strict
 * fake fails the test besides) and STATUS on write (read only). */
static void machine(uint64_t gctrl, uint64_t spflt, uint64_t sel0, uint64_t sel1, uint64_t ctr0, uint64_t ctr1)
{
	fake_init(&f);
	knc_cpu();
	fake_msr(&f, G_CTRL, gctrl);
	fake_msr(&f, SPFLT_CTL, spflt);
	fake_msr(&f, G_STATUS, 0);
	fake_msr_gp(&f, G_STATUS, false, true);
	fake_msr_gp(&f, G_OVF_CTRL, true, false);
	fake_msr(&f, PERFEVTSEL0, sel0);
	fake_msr(&f, PERFEVTSEL1, sel1);
	fake_msr(&f, PERFCNT0, ctr0);
	fake_msr(&f, PERFCNT1, ctr1);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	nrates = log_seen = 0;
	clobber_msr = 0;
}

static void rate(unsigned umask, unsigned code, uint64_t per_sec)
{
	rates[nrates++] = (typeof(rates[0])){ (uint16_t)(umask << 8 | code), per_sec };
}

static void add(const char *name)
{
	run_add(&run, knc_only, name);
}

static enum unc_status schedule(bool allow_mux)
{
	return run_schedule(&run, &f.hw, allow_mux);
}

static enum unc_status run_for(uint64_t duration, bool force)
{
	struct stat_opts o = { .duration = duration, .slice = 20 * MS, .sample = 100 * MS };

	return stat_loop(&run, &f.hw, force, &o, &env);
}

static bool wrote(uint32_t msr)
{
	for (unsigned i = 0; i < f.nlog; i++)
		if (f.log[i].kind == FAKE_MSR && f.log[i].addr == msr)
			return true;
	return false;
}

/* A run of CPU_CLK_UNHALTED (and `also`, if any) in which someone else
 * writes `val` to `msr` at `at`: what the run returns. */
static enum unc_status clobbered_run(const char *also, uint32_t msr, uint64_t val, uint64_t at)
{
	machine(0, 0, 0, 0, 0, 0);
	rate(0x00, 0x2A, 1000000000);
	if (also)
		add(also);
	add("CPU_CLK_UNHALTED");
	T_EQ(schedule(false), UNC_OK);
	clobber_at = at;
	clobber_msr = msr;
	clobber_val = val;
	return run_for(1 * S, false);
}

/* ---- conformance ---- */

/* Table 1-2 (addresses, widths), Table 1-5 (the select's fields) and the
 * CPU the driver matches. */
static void registers_are_the_manuals(void)
{
	const struct pmu_driver *d = &pmu_driver_knc;
	const struct pmu_unit *u = &d->units[0];
	struct cpu_info cpu;

	T_STREQ(d->name, "knc-core");
	T_EQ(d->nunits, 1);
	T_STREQ(u->pmu, "knc");
	T_STREQ(u->intel_unit, ""); /* Table 1-6 has no Unit column */
	T_EQ(u->kind, PMU_GENERAL);
	T_EQ(u->space, PMU_MSR);
	T_EQ(u->counters, 2);
	T_EQ(u->width, 40);
	T_EQ(u->max_boxes, 1);
	T_EQ(pmu_unit_ctr(u, NULL, 0, 0, 0).addr, 0x20);
	T_EQ(pmu_unit_ctr(u, NULL, 0, 0, 1).addr, 0x21);
	T_EQ(pmu_unit_sel(u, NULL, 0, 0, 0).addr, 0x28);
	T_EQ(pmu_unit_sel(u, NULL, 0, 0, 1).addr, 0x29);
	/* Tables 1-8 and 1-10: one bit per counter, bits 0 and 1 */
	T_EQ(u->status_bit, 0x3);
	/* Table 1-5 */
	T_EQ(u->layout->event.shift, 0);
	T_EQ(u->layout->event.bits, 8);
	T_EQ(u->layout->umask.shift, 8);
	T_EQ(u->layout->umask.bits, 8);
	T_EQ(u->layout->thresh.shift, 24);
	T_EQ(u->layout->thresh.bits, 8);
	T_EQ(u->layout->inv, 1u << 23);
	T_EQ(u->layout->enable, 1u << 22);
	T_EQ(u->layout->edge, 1u << 18);
	T_EQ(u->layout->os_usr, 1u << 17 | 1u << 16);
	T_EQ(u->layout->run_bits, 0); /* INT (20) and the thread count mode (21) stay clear */
	T_EQ(u->layout->rw_mask, 0xFFF7FFFF); /* 32 bits, 19 reserved */
	/* The globals the snapshot reads: GLOBAL_CTRL, SPFLT_CONTROL, STATUS;
	 * never the write-only OVF_CTRL. */
	T_EQ(d->nglobals, 3);
	bool has[0x30] = { false };
	for (unsigned i = 0; i < d->nglobals; i++)
		if (d->globals[i].space == PMU_MSR && d->globals[i].addr < 0x30)
			has[d->globals[i].addr] = true;
	T_EQ(has[0x2F] && has[0x2C] && has[0x2D], true);
	T_EQ(has[0x2E], false);
	/* Table 1-2's names */
	static const struct {
		uint32_t msr;
		const char *name;
	} names[] = { { 0x20, "IA32_PerfCnt0" },	  { 0x21, "IA32_PerfCnt1" },	      { 0x28, "IA32_PerfEvtSel0" },
		      { 0x29, "IA32_PerfEvtSel1" },	  { 0x2C, "PERF_SPFLT_CONTROL" },      { 0x2D, "IA32_PERF_GLOBAL_STATUS" },
		      { 0x2E, "IA32_PERF_GLOBAL_OVF_CTRL" }, { 0x2F, "IA32_PERF_GLOBAL_CTRL" } };
	char buf[48];
	for (unsigned i = 0; i < N(names); i++)
		T_STREQ(pmu_reg_name(d, NULL, pmu_msr(names[i].msr), buf, sizeof(buf)), names[i].name);
	T_STREQ(pmu_reg_name(d, NULL, pmu_msr(0x10), buf, sizeof(buf)), "?"); /* the TSC: not the driver's */
	/* family 0xB model 1, and nothing else */
	fake_init(&f);
	knc_cpu();
	cpu_identify(&f.hw, &cpu);
	T_EQ(cpu.family, 0xB);
	T_EQ(cpu.model, 0x1);
	T_ASSERT(pmu_match_model(d, &f.hw, &cpu) != NULL);
	T_ASSERT(pmu_match_model(&pmu_driver_skl, &f.hw, &cpu) == NULL);
	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8);
	cpu_identify(&f.hw, &cpu);
	T_ASSERT(pmu_match_model(d, &f.hw, &cpu) == NULL);
}

/* Every row of Table 1-6, and no other, in the generated table: name,
 * event code, umask, counters, no Unit. */
static void events_are_table_1_6(void)
{
	const struct pmu_driver *d = &pmu_driver_knc;

	T_EQ(*d->nevents, N(table_1_6));
	for (unsigned i = 0; i < N(table_1_6); i++) {
		const struct event_desc *e = evsel_find(d, table_1_6[i].name);
		if (!e) {
			t_fail(__FILE__, __LINE__, "%s (Table 1-6) is not in the driver's table", table_1_6[i].name);
			continue;
		}
		if (e->code != table_1_6[i].code || e->umask != table_1_6[i].umask ||
		    e->counters != expected_counters(table_1_6[i].code) || strcmp(e->unit, "") || e->cmask || e->inv ||
		    e->edge)
			t_fail(__FILE__, __LINE__, "%s: event 0x%02x umask 0x%02x counters 0x%x unit \"%s\"; Table 1-6: "
				   "umask 0x%02x event 0x%02x, counters 0x%x", e->name, e->code, e->umask, e->counters,
			       e->unit, table_1_6[i].umask, table_1_6[i].code, expected_counters(table_1_6[i].code));
	}
	/* The column order the brief and Linux agree on (knc.c: 0x10cb is
	 * L2_READ_MISS): umask first, then the code. */
	const struct event_desc *clk = evsel_find(d, "CPU_CLK_UNHALTED"), *l2 = evsel_find(d, "L2_READ_MISS");
	T_ASSERT(clk && l2);
	if (clk && l2) {
		T_EQ(clk->code, 0x2A);
		T_EQ(clk->umask, 0x00);
		T_EQ(l2->code, 0xCB);
		T_EQ(l2->umask, 0x10);
	}
}

/* Names resolve to the KNC unit, raw encodings follow Table 1-5, the
 * constraints hold for raw codes, and the events are refused by name on a
 * CPU without the driver. */
static void names_raw_and_constraints(void)
{
	struct ev_spec a, b;
	char err[200];

	T_EQ(evsel_parse("cpu_clk_unhalted", knc_only, &a, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&a), 0x0043002A);
	T_EQ(evsel_parse("knc/event=0x2a,umask=0/", knc_only, &b, err, sizeof(err)), UNC_OK);
	T_ASSERT(evsel_same(&a, &b));
	T_EQ(evsel_parse("VPU_ELEMENTS_ACTIVE", knc_only, &a, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&a), 0x00432018);
	T_EQ(evsel_parse("L2_READ_MISS", knc_only, &a, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&a), 0x004310CB);
	T_EQ(a.counters, 0x1);
	/* every field of Table 1-5 a raw event can set */
	T_EQ(evsel_parse("knc/event=0x16,umask=0x20,cmask=0xff,inv,edge/", knc_only, &a, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&a), 0xFFC72016);
	T_EQ(evsel_parse("knc/event=0x16,cmask=0x100/", knc_only, &a, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "Table 1-5");
	for (unsigned i = 0; i < N(linux_counter0_codes); i++)
		T_EQ(evsel_raw_counters(&pmu_driver_knc.units[0], (uint8_t)linux_counter0_codes[i]), 0x1);
	T_EQ(evsel_raw_counters(&pmu_driver_knc.units[0], 0xF0), 0x3);
	T_EQ(evsel_raw_counters(&pmu_driver_knc.units[0], 0x16), 0x3);
	T_EQ(evsel_parse("INSTRUCTIONS_EXECUTED", skl_only, &a, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_STREQ(err, "INSTRUCTIONS_EXECUTED is a knc event; this CPU has no knc PMU");
}

/* ---- the driver in the engine ---- */

/* Exact counts, and the exact writes: freeze (GLOBAL_CTRL 0), selects
 * with EN|OS|USR, counters zeroed, STATUS cleared through OVF_CTRL,
 * GLOBAL_CTRL bits 1:0; then at the end the freeze and every register
 * back in the reverse order, GLOBAL_CTRL last. SPFLT_CONTROL, found 0,
 * is never written, STATUS never, OVF_CTRL never read. */
static void exact_counts_and_writes(void)
{
	machine(0, 0, 0, 0, 0x1111, 0x2222);
	fake_msr_gp(&f, SPFLT_CTL, false, true);
	rate(0x00, 0x16, 2000000000);
	rate(0x00, 0x2A, 1000000000);
	add("INSTRUCTIONS_EXECUTED");
	add("CPU_CLK_UNHALTED");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(2 * S, false), UNC_OK);
	T_EQ(count_total(&run.c, 0, -1), 4000000000ull);
	T_EQ(count_total(&run.c, 1, -1), 2000000000ull);
	static const struct {
		uint32_t msr;
		uint64_t v;
	} want[] = {
		{ G_CTRL, 0 },		       { PERFEVTSEL0, 0x00430016 }, { PERFEVTSEL1, 0x0043002A },
		{ PERFCNT0, 0x4000000000 },    { PERFCNT1, 0x4000000000 },  { G_OVF_CTRL, 0x3 }, /* 2^38 in 40 bits */
		{ G_CTRL, 0x3 },	       /* the end */
		{ G_CTRL, 0 },		       { PERFCNT1, 0x2222 },	    { PERFEVTSEL1, 0 },
		{ PERFCNT0, 0x1111 },	       { PERFEVTSEL0, 0 },	    { G_CTRL, 0 },
	};
	T_EQ(f.nlog, N(want));
	for (unsigned i = 0; i < f.nlog && i < N(want); i++)
		if (f.log[i].addr != want[i].msr || f.log[i].value != want[i].v)
			t_fail(__FILE__, __LINE__, "write %u: 0x%llx <- 0x%llx, want 0x%llx <- 0x%llx", i,
			       (unsigned long long)f.log[i].addr, (unsigned long long)f.log[i].value,
			       (unsigned long long)want[i].msr, (unsigned long long)want[i].v);
	T_EQ(wrote(SPFLT_CTL) || wrote(G_STATUS), false);
}

/* Table 1-7: SPFLT_CONTROL found with bits 1:0 set and USER_PREF clear
 * gates both counters off. The run clears bits 1:0 (keeping the rest),
 * counts, and puts the value back at the end; a gate set again during
 * the run is an error, and the value is restored then too. */
static void spflt_control_cleared_and_restored(void)
{
	const uint64_t found = 0x3;

	machine(0, found, 0, 0, 0, 0);
	rate(0x20, 0x16, 500000000);
	add("VPU_INSTRUCTIONS_EXECUTED");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(1 * S, false), UNC_OK);
	T_EQ(count_total(&run.c, 0, -1), 500000000);
	T_ASSERT(wrote(SPFLT_CTL));
	T_EQ(f.log[1].addr, SPFLT_CTL); /* right after the freeze */
	T_EQ(f.log[1].value, 0);
	T_EQ(*reg(SPFLT_CTL), found);
	T_EQ(f.log[f.nlog - 2].addr, SPFLT_CTL); /* restored before GLOBAL_CTRL */
	T_EQ(f.log[f.nlog - 2].value, found);

	/* USER_PREF (63) is kept as found */
	machine(0, 1ull << 63 | 0x1, 0, 0, 0, 0);
	add("CPU_CLK_UNHALTED");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(1 * S, false), UNC_OK);
	T_EQ(f.log[1].addr, SPFLT_CTL);
	T_EQ(f.log[1].value, 1ull << 63);
	T_EQ(*reg(SPFLT_CTL), 1ull << 63 | 0x1);

	/* someone sets a gate during the run */
	T_EQ(clobbered_run(NULL, SPFLT_CTL, 0x1, 500 * MS), UNC_E_CLOBBERED);
	T_CONTAINS(run.err, "PERF_SPFLT_CONTROL (0x2c) reads 0x1");
}

/* Counters are 40 bits (Table 1-4): a wrap is counted modulo 2^40, its
 * STATUS bit (Table 1-8) is explained by the wrap and cleared through
 * OVF_CTRL; a STATUS bit no wrap explains is an error. */
static void counters_wrap_at_40_bits(void)
{
	machine(0, 0, 0, 0, 0, 0);
	rate(0x20, 0x18, 30000000000ull); /* 3 * 10^10/s (within 32 a cycle at 2^31 Hz): from 2^38 past 2^40 in 27.5 s */
	add("VPU_ELEMENTS_ACTIVE");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(40 * S, false), UNC_OK);
	T_EQ(count_total(&run.c, 0, -1), 1200000000000ull);
	T_ASSERT(count_total(&run.c, 0, -1) > MASK40);
	unsigned clears = 0;
	for (unsigned i = 7; i < f.nlog; i++) /* after the programming */
		if (f.log[i].addr == G_OVF_CTRL) {
			T_EQ(f.log[i].value, 0x1);
			clears++;
		}
	T_EQ(clears, 1);
	T_EQ(*reg(G_STATUS), 0);

	/* counter 1's bit with no wrap: it moved 2^40 unseen */
	T_EQ(clobbered_run("INSTRUCTIONS_EXECUTED", G_STATUS, 0x2, 300 * MS), UNC_E_OVERFLOW);
	T_CONTAINS(run.err, "IA32_PERF_GLOBAL_STATUS shows an overflow (0x2)");
}

struct snap {
	uint64_t v[8];
};

static const uint32_t all_regs[] = { G_CTRL, SPFLT_CTL, G_STATUS, PERFEVTSEL0, PERFEVTSEL1, PERFCNT0, PERFCNT1 };

static void take(struct snap *s)
{
	for (unsigned i = 0; i < N(all_regs); i++)
		s->v[i] = *reg(all_regs[i]);
}

static void same(const struct snap *a, const struct snap *b, const char *what)
{
	for (unsigned i = 0; i < N(all_regs); i++)
		if (a->v[i] != b->v[i])
			t_fail(__FILE__, __LINE__, "%s: MSR 0x%x was 0x%llx, is 0x%llx", what, all_regs[i],
			       (unsigned long long)a->v[i], (unsigned long long)b->v[i]);
}

/* A PMU in use (GLOBAL_CTRL enabling both counters, both selects set,
 * SPFLT gating with USER_PREF set) is refused without --force; with it,
 * a #GP on each register the run writes, in turn, fails the run with a
 * line naming it, and every register is as found afterwards. */
static void restore_after_a_fault_on_each_write(void)
{
	static const struct {
		uint32_t msr;
		const char *line;
	} faults[] = {
		{ G_CTRL, "wrmsr 0x2f (IA32_PERF_GLOBAL_CTRL) value 0x0" },
		{ SPFLT_CTL, "wrmsr 0x2c (PERF_SPFLT_CONTROL) value 0x8000000000000000" },
		{ PERFEVTSEL0, "wrmsr 0x28 (IA32_PerfEvtSel0) value 0x430016" },
		{ PERFEVTSEL1, "wrmsr 0x29 (IA32_PerfEvtSel1) value 0x43002a" },
		{ PERFCNT0, "wrmsr 0x20 (IA32_PerfCnt0) value 0x4000000000" },
		{ PERFCNT1, "wrmsr 0x21 (IA32_PerfCnt1) value 0x4000000000" },
		{ G_OVF_CTRL, "wrmsr 0x2e (IA32_PERF_GLOBAL_OVF_CTRL) value 0x3" },
	};
	struct snap before, after;

	machine(0x3, 1ull << 63 | 0x3, 0x0041002A, 0x00410016, 0x123, 0x456);
	add("INSTRUCTIONS_EXECUTED");
	add("CPU_CLK_UNHALTED");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(1 * S, false), UNC_E_BUSY);
	T_CONTAINS(run.err, "the Knights Corner core PMU is in use (IA32_PERF_GLOBAL_CTRL = 0x3)");
	T_EQ(f.nlog, 0);

	for (unsigned k = 0; k < N(faults); k++) {
		machine(0x3, 1ull << 63 | 0x3, 0x0041002A, 0x00410016, 0x123, 0x456);
		rate(0x00, 0x16, 1000000);
		add("INSTRUCTIONS_EXECUTED");
		add("CPU_CLK_UNHALTED");
		T_EQ(schedule(false), UNC_OK);
		fake_msr_gp(&f, faults[k].msr, faults[k].msr == G_OVF_CTRL, true);
		take(&before);
		T_EQ(run_for(1 * S, true), UNC_E_FAULT);
		T_CONTAINS(run.err, faults[k].line);
		take(&after);
		same(&before, &after, faults[k].line);
	}
	/* and with no fault, taken over and handed back */
	machine(0x3, 1ull << 63 | 0x3, 0x0041002A, 0x00410016, 0x123, 0x456);
	add("INSTRUCTIONS_EXECUTED");
	T_EQ(schedule(false), UNC_OK);
	take(&before);
	T_EQ(run_for(1 * S, true), UNC_OK);
	take(&after);
	same(&before, &after, "--force");
}

/* GLOBAL_CTRL changed during the run is an error, not a short count. */
static void global_ctrl_changed_during_the_run(void)
{
	T_EQ(clobbered_run(NULL, G_CTRL, 0x2, 250 * MS), UNC_E_CLOBBERED);
	T_CONTAINS(run.err, "IA32_PERF_GLOBAL_CTRL (0x2f) reads 0x2, not the 0x3 this run wrote");
	T_EQ(*reg(G_CTRL), 0);
}

/* Linux's constraints: two L2 events both need counter 0, so they take
 * turns (and are refused with --no-multiplex); an L2 event and a P54C
 * event fit, the L2 one on counter 0. */
static void l2_events_on_counter_0(void)
{
	machine(0, 0, 0, 0, 0, 0);
	add("L2_READ_MISS");
	add("L2_READ_HIT_E");
	T_EQ(schedule(false), UNC_E_INVALID);
	T_CONTAINS(run.err, "KNC: 2 counters, events ");
	machine(0, 0, 0, 0, 0, 0);
	add("CPU_CLK_UNHALTED");
	add("L2_READ_MISS");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run.c.ngroups, 1);
	T_EQ(run.counter[1], 0);
	T_EQ(run.counter[0], 1);
}

/* `info` on Knights Corner: the driver's line and the in-use check, in
 * text and JSON; and a GLOBAL_CTRL that faults makes the use unknown. */
static struct platform_info pi;

static const char *render(bool json)
{
	static char text[8192];

	return render_info(&pi, json, text, sizeof(text));
}

static void info_lines(void)
{
	const char *text;

	machine(0, 0, 0, 0, 0, 0);
	T_EQ(info_gather(&f.hw, &pi), UNC_OK);
	T_EQ(f.nlog, 0);
	text = render(false);
	T_CONTAINS(text, "uncore:       supported: Knights Corner, Knights Corner (Xeon Phi coprocessor)\n");
	T_CONTAINS(text, "knc core:     2 counters of 40 bits per hardware thread (Table 1-2)");
	T_CONTAINS(text, "pmu in use:   no (global control 0x0, 2 event selects all zero)\n");
	T_CONTAINS(text, "verdict:      Knights Corner core PMU usable: ready\n");
	text = render(true);
	T_CONTAINS(text, "\"counters\":2,\"width\":40,\"pmu_in_use\":false,\"global_ctrl\":\"0x0\",\"pmu_busy_registers\":[]");
	T_JSON(text, false);

	machine(0x1, 0, 0x0043002A, 0, 0, 0);
	T_EQ(info_gather(&f.hw, &pi), UNC_OK);
	text = render(false);
	T_CONTAINS(text, "pmu in use:   yes\n  IA32_PERF_GLOBAL_CTRL (0x2f) = 0x1\n  IA32_PerfEvtSel0 (0x28) = 0x43002a\n");

	machine(0, 0, 0, 0, 0, 0);
	fake_msr_gp(&f, G_CTRL, true, true);
	T_EQ(info_gather(&f.hw, &pi), UNC_E_FAULT);
	text = render(false);
	T_CONTAINS(text, "pmu in use:   unknown (a register could not be read)\n");
	T_CONTAINS(text, "fault:        rdmsr 0x2f (IA32_PERF_GLOBAL_CTRL) raised #GP\n");
}

/* An overflow status found set is noted: the run clears it for good. */
static void status_found_set_is_noted(void)
{
	char buf[512];
	struct strbuf sb;
	struct out o;

	machine(0, 0, 0, 0, 0, 0);
	*reg(G_STATUS) = 0x2;
	add("CPU_CLK_UNHALTED");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(1 * S, false), UNC_OK);
	T_EQ(*reg(G_STATUS), 0);
	strbuf_init(&sb, buf, sizeof(buf));
	o = strbuf_out(&sb);
	pmu_driver_knc.ops->notes(&o, &run.pmu[0].p, &run.pmu[0].s);
	T_STREQ(buf, "uncore: note: IA32_PERF_GLOBAL_STATUS was 0x2 at start; its overflow bits were cleared and cannot "
		     "be set again\n");
}

/* IA32_PerfEvtSel1 cleared, or IA32_PerfCnt0 written, by someone else:
 * the sample after stops the run naming the register (the counter before
 * the first sample too: a jump back from 2^38). */
static void select_or_counter_written_during_the_run(void)
{
	T_EQ(clobbered_run("INSTRUCTIONS_EXECUTED", PERFEVTSEL1, 0, 250 * MS), UNC_E_CLOBBERED);
	T_CONTAINS(run.err, "IA32_PerfEvtSel1 (0x29) reads 0x0, not the 0x43002a this run wrote: written by someone else "
			    "during the run");
	T_EQ(clobbered_run(NULL, PERFCNT0, 5, 50 * MS), UNC_E_CLOBBERED);
	T_CONTAINS(run.err, "IA32_PerfCnt0 (0x20) went from 0x4000000000 to 0x");

	/* each event's bound: what it adds per cycle at 2^31 Hz */
	machine(0, 0, 0, 0, 0, 0);
	add("CPU_CLK_UNHALTED");
	add("INSTRUCTIONS_EXECUTED");
	add("VPU_ELEMENTS_ACTIVE");
	T_EQ(schedule(true), UNC_OK);
	T_EQ(run.max_rate[0], 1ull << 31);
	T_EQ(run.max_rate[1], 2ull << 31);
	T_EQ(run.max_rate[2], 32ull << 31);
}

T_MAIN("knc", T_CASE(registers_are_the_manuals), T_CASE(events_are_table_1_6), T_CASE(names_raw_and_constraints),
       T_CASE(exact_counts_and_writes), T_CASE(spflt_control_cleared_and_restored), T_CASE(counters_wrap_at_40_bits),
       T_CASE(restore_after_a_fault_on_each_write), T_CASE(global_ctrl_changed_during_the_run),
       T_CASE(l2_events_on_counter_0), T_CASE(info_lines), T_CASE(status_found_set_is_noted),
       T_CASE(select_or_counter_written_during_the_run))
