/* The P6-family core PMU driver (p6-core) against literals typed from its
 * specifications, and run through the engine on the strict fake with a small
 * P6 model of its own: Intel's SDM Vol. 3B, "Performance Monitoring (P6 Family
 * Processor)" (PerfEvtSel0/1 0x186/0x187, PerfCtr0/1 0xC1/0xC2, 40 bits, EN
 * (bit 22) in PerfEvtSel0 alone, enabling both counters), and Table 6-2 of
 * the MMX Technology Developer's Guide, chapter 6 (the events, the MESI and
 * self/any unit masks of its notes 1 and 2, the counter restrictions). */
#include <stdio.h>
#include <string.h>

#include "../../drivers/base/cpu.h"
#include "../../drivers/engine/evsel.h"
#include "../../drivers/engine/info.h"
#include "../../drivers/pmu/p6.h"
#include "../../drivers/pmu/skl.h"
#include "../../drivers/engine/stat.h"
#include "fake_hw.h"
#include "run_help.h"
#include "t.h"

#define S  1000000000ull
#define MS 1000000ull

#define SEL0 0x186u
#define SEL1 0x187u
#define CTR0 0xC1u
#define CTR1 0xC2u
#define EN   (1ull << 22)
#define OS_USR 0x30000ull /* OS (17) and USR (16) */
#define MASK40 0xFFFFFFFFFFull

extern const struct event_desc p6_events[];
extern const unsigned p6_events_count;

static const struct pmu_driver *const p6_only[] = { &pmu_driver_p6, NULL };

/* ---- literals from the specifications ---- */

/* Table 6-2, row for row: name (the MESI unit masks of note 1 as .MESI 0x0F,
 * .M 0x08, .E 0x04, .S 0x02, .I 0x01; the bus unit masks of note 2 as .SELF
 * 0x00 and .ANY 0x20 where the table gives both), event number, unit mask,
 * counters (bit n: counter n). */
static const struct {
	const char *name;
	uint8_t code, umask, counters;
} table_6_2[] = {
	/* data cache unit (DCU) */
	{ "DATA_MEM_REFS", 0x43, 0x00, 3 },
	{ "DCU_LINES_IN", 0x45, 0x00, 3 },
	{ "DCU_M_LINES_IN", 0x46, 0x00, 3 },
	{ "DCU_M_LINES_OUT", 0x47, 0x00, 3 },
	{ "DCU_MISS_OUTSTANDING", 0x48, 0x00, 3 },
	/* instruction fetch unit (IFU) */
	{ "IFU_IFETCH", 0x80, 0x00, 3 },
	{ "IFU_IFETCH_MISS", 0x81, 0x00, 3 },
	{ "ITLB_MISS", 0x85, 0x00, 3 },
	{ "IFU_MEM_STALL", 0x86, 0x00, 3 },
	{ "ILD_STALL", 0x87, 0x00, 3 },
	/* L2 */
	{ "L2_LD.MESI", 0x29, 0x0F, 3 },
	{ "L2_LD.M", 0x29, 0x08, 3 },
	{ "L2_LD.E", 0x29, 0x04, 3 },
	{ "L2_LD.S", 0x29, 0x02, 3 },
	{ "L2_LD.I", 0x29, 0x01, 3 },
	{ "L2_ST.MESI", 0x2A, 0x0F, 3 },
	{ "L2_ST.M", 0x2A, 0x08, 3 },
	{ "L2_ST.E", 0x2A, 0x04, 3 },
	{ "L2_ST.S", 0x2A, 0x02, 3 },
	{ "L2_ST.I", 0x2A, 0x01, 3 },
	{ "L2_LINES_IN", 0x24, 0x00, 3 },
	{ "L2_LINES_OUT", 0x26, 0x00, 3 },
	{ "L2_M_LINES_INM", 0x25, 0x00, 3 },
	{ "L2_M_LINES_OUTM", 0x27, 0x00, 3 },
	{ "L2_RQSTS.MESI", 0x2E, 0x0F, 3 },
	{ "L2_RQSTS.M", 0x2E, 0x08, 3 },
	{ "L2_RQSTS.E", 0x2E, 0x04, 3 },
	{ "L2_RQSTS.S", 0x2E, 0x02, 3 },
	{ "L2_RQSTS.I", 0x2E, 0x01, 3 },
	{ "L2_ADS", 0x21, 0x00, 3 },
	{ "L2_DBUS_BUSY", 0x22, 0x00, 3 },
	{ "L2_DBUS_BUSY_RD", 0x23, 0x00, 3 },
	/* external bus logic (EBL) */
	{ "BUS_DRDY_CLOCKS.SELF", 0x62, 0x00, 3 },
	{ "BUS_DRDY_CLOCKS.ANY", 0x62, 0x20, 3 },
	{ "BUS_LOCK_CLOCKS.SELF", 0x63, 0x00, 3 },
	{ "BUS_LOCK_CLOCKS.ANY", 0x63, 0x20, 3 },
	{ "BUS_TRAN_RFO.SELF", 0x66, 0x00, 3 },
	{ "BUS_TRAN_RFO.ANY", 0x66, 0x20, 3 },
	{ "BUS_TRAN_IFETCH.SELF", 0x68, 0x00, 3 },
	{ "BUS_TRAN_IFETCH.ANY", 0x68, 0x20, 3 },
	{ "BUS_TRAN_INVAL.SELF", 0x69, 0x00, 3 },
	{ "BUS_TRAN_INVAL.ANY", 0x69, 0x20, 3 },
	{ "BUS_TRAN_PWR.SELF", 0x6A, 0x00, 3 },
	{ "BUS_TRAN_PWR.ANY", 0x6A, 0x20, 3 },
	{ "BUS_TRAN_P.SELF", 0x6B, 0x00, 3 },
	{ "BUS_TRAN_P.ANY", 0x6B, 0x20, 3 },
	{ "BUS_TRAN_IO.SELF", 0x6C, 0x00, 3 },
	{ "BUS_TRAN_IO.ANY", 0x6C, 0x20, 3 },
	{ "BUS_TRAN_DEF.SELF", 0x6D, 0x00, 3 },
	{ "BUS_TRAN_DEF.ANY", 0x6D, 0x20, 3 },
	{ "BUS_TRAN_BURST.SELF", 0x6E, 0x00, 3 },
	{ "BUS_TRAN_BURST.ANY", 0x6E, 0x20, 3 },
	{ "BUS_TRAN_ANY.SELF", 0x70, 0x00, 3 },
	{ "BUS_TRAN_ANY.ANY", 0x70, 0x20, 3 },
	{ "BUS_TRAN_MEM.SELF", 0x6F, 0x00, 3 },
	{ "BUS_TRAN_MEM.ANY", 0x6F, 0x20, 3 },
	{ "BUS_BNR_DRV", 0x61, 0x00, 3 },     /* the table gives "self" only */
	{ "BUS_HIT_DRV", 0x7A, 0x00, 3 },     /* likewise */
	{ "BUS_SNOOP_STALL", 0x7E, 0x00, 3 }, /* likewise */
	/* floating-point unit */
	{ "FLOPS", 0xC1, 0x00, 1 },           /* counter 0 only */
	{ "FP_COMP_OPS_EXE", 0x10, 0x00, 1 }, /* counter 0 only */
	{ "FP_ASSIST", 0x11, 0x00, 2 },       /* counter 1 only */
	{ "MUL", 0x12, 0x00, 2 },             /* counter 1 only */
	{ "DIV", 0x13, 0x00, 2 },             /* counter 1 only */
	{ "CYCLES_DIV_BUSY", 0x14, 0x00, 1 }, /* counter 0 only */
	/* memory ordering */
	{ "LD_BLOCKS", 0x03, 0x00, 3 },
	{ "SB_DRAINS", 0x04, 0x00, 3 },
	{ "MISALIGN_MEM_REF", 0x05, 0x00, 3 },
	/* instruction decoding and retirement */
	{ "INST_RETIRED", 0xC0, 0x00, 3 },
	{ "UOPS_RETIRED", 0xC2, 0x00, 3 },
	{ "INST_DECODER", 0xD0, 0x00, 3 }, /* the table's spelling (the SDM: INST_DECODED) */
	/* interrupts */
	{ "HW_INT_RX", 0xC8, 0x00, 3 },
	{ "CYCLES_INT_MASKED", 0xC6, 0x00, 3 },
	/* branches */
	{ "BR_INST_RETIRED", 0xC4, 0x00, 3 },
	{ "BR_MISS_PRED_RETIRED", 0xC5, 0x00, 3 },
	{ "BR_TAKEN_RETIRED", 0xC9, 0x00, 3 },
	{ "BR_MISS_PRED_TAKEN_RET", 0xCA, 0x00, 3 },
	{ "BR_INST_DECODED", 0xE0, 0x00, 3 },
	{ "BR_BOGUS", 0xE4, 0x00, 3 },
	{ "BACLEARS", 0xE6, 0x00, 3 },
	/* stalls */
	{ "RESOURCE_STALLS", 0xA2, 0x00, 3 },
	{ "PARTIAL_STALLS", 0xD2, 0x00, 3 }, /* the table's spelling (the SDM: PARTIAL_RAT_STALLS) */
	/* segment register loads */
	{ "SEGMENT_REG_LOADS", 0x06, 0x00, 3 },
	/* clocks */
	{ "CPU_CLK_UNHALTED", 0x79, 0x00, 3 },
};
#define N_TABLE (sizeof(table_6_2) / sizeof(table_6_2[0]))

/* Every row of Table 6-2 is in the driver's table with the same values,
 * in the same order, and the driver's table has no other row. */
static void conformance_event_table(void)
{
	T_EQ(N_TABLE, 84);
	T_EQ(p6_events_count, N_TABLE);
	for (unsigned i = 0; i < N_TABLE && i < p6_events_count; i++) {
		const struct event_desc *d = &p6_events[i];
		if (strcmp(d->name, table_6_2[i].name) || d->code != table_6_2[i].code || d->umask != table_6_2[i].umask ||
		    d->counters != table_6_2[i].counters)
			t_fail(__FILE__, __LINE__, "row %u: %s 0x%02x/0x%02x counters 0x%x, want %s 0x%02x/0x%02x counters 0x%x",
			       i, d->name, d->code, d->umask, d->counters, table_6_2[i].name, table_6_2[i].code,
			       table_6_2[i].umask, table_6_2[i].counters);
		T_STREQ(d->unit, ""); /* a core file: no Unit */
		T_EQ(d->cmask, 0);
		T_EQ(d->inv, 0);
		T_EQ(d->edge, 0);
		T_ASSERT(d->brief && d->brief[0]);
	}
}

/* The registers, the layout and the CPUs, from the SDM. */
static void conformance_registers(void)
{
	const struct pmu_driver *d = &pmu_driver_p6;
	const struct pmu_unit *u = &d->units[0];
	static const unsigned models[] = { 0x1, 0x3, 0x5, 0x6, 0x7, 0x8, 0xA, 0xB };
	unsigned n = 0;

	T_STREQ(d->name, "p6-core");
	T_STREQ(d->vendor, "GenuineIntel");
	for (const struct pmu_model *m = d->models; m->family; m++, n++) {
		T_EQ(m->family, 6);
		T_ASSERT(n < 8 && m->model == models[n]);
	}
	T_EQ(n, 8);
	T_EQ(d->nunits, 1);
	T_STREQ(u->pmu, "p6");
	T_STREQ(u->intel_unit, "");
	T_EQ(u->kind, PMU_GENERAL);
	T_EQ(u->space, PMU_MSR);
	T_EQ(u->counters, 2);
	T_EQ(u->width, 40);
	T_EQ(u->max_boxes, 1);
	T_EQ(pmu_unit_sel(u, NULL, 0, 0, 0).addr, 0x186);
	T_EQ(pmu_unit_sel(u, NULL, 0, 0, 1).addr, 0x187);
	T_EQ(pmu_unit_ctr(u, NULL, 0, 0, 0).addr, 0xC1);
	T_EQ(pmu_unit_ctr(u, NULL, 0, 0, 1).addr, 0xC2);
	T_EQ(u->status_bit, 0); /* no overflow status register */
	T_EQ(d->ops->clear_status, NULL);
	T_EQ(d->ops->read_counter, NULL); /* sampled by RDMSR */
	/* PerfEvtSel: event 7:0, unit mask 15:8, USR 16, OS 17, E 18, INV 23,
	 * CMASK 31:24; no enable of its own in any select (EN is PerfEvtSel0's). */
	const struct pmu_layout *l = u->layout;
	T_EQ(l->event.shift, 0);
	T_EQ(l->event.bits, 8);
	T_EQ(l->umask.shift, 8);
	T_EQ(l->umask.bits, 8);
	T_EQ(l->thresh.shift, 24);
	T_EQ(l->thresh.bits, 8);
	T_EQ(l->inv, 1ull << 23);
	T_EQ(l->edge, 1ull << 18);
	T_EQ(l->enable, 0);
	T_EQ(l->os_usr, (1ull << 17) | (1ull << 16));
	T_EQ(l->run_bits, 0); /* no INT (20), no PC (19) */
	T_EQ(l->rw_mask & (1ull << 22), 0);
	/* The counter restrictions, for every event code (raw ones too). */
	for (unsigned code = 0; code < 256; code++) {
		uint8_t want = code == 0xC1 || code == 0x10 || code == 0x14 ? 1 : code >= 0x11 && code <= 0x13 ? 2 : 3;
		if (evsel_raw_counters(u, (uint8_t)code) != want)
			t_fail(__FILE__, __LINE__, "event 0x%02x: counters 0x%x, want 0x%x", code,
			       evsel_raw_counters(u, (uint8_t)code), want);
	}
	char buf[32];
	T_STREQ(d->ops->reg_name(NULL, pmu_msr(0x186), buf, sizeof(buf)), "PerfEvtSel0");
	T_STREQ(d->ops->reg_name(NULL, pmu_msr(0x187), buf, sizeof(buf)), "PerfEvtSel1");
	T_STREQ(d->ops->reg_name(NULL, pmu_msr(0xC1), buf, sizeof(buf)), "PerfCtr0");
	T_STREQ(d->ops->reg_name(NULL, pmu_msr(0xC2), buf, sizeof(buf)), "PerfCtr1");
	T_EQ(d->ops->reg_name(NULL, pmu_msr(0x188), buf, sizeof(buf)), NULL);
	T_EQ(d->ops->reg_name(NULL, pmu_msr(0xC3), buf, sizeof(buf)), NULL);
}

/* ---- names and encodings ---- */

static struct ev_spec e;
static char err[200];

#define PARSE(s) evsel_parse(s, p6_only, &e, err, sizeof(err))

static void names_and_encodings(void)
{
	T_EQ(PARSE("INST_RETIRED"), UNC_OK);
	T_ASSERT(e.drv == &pmu_driver_p6);
	T_EQ(evsel_encode(&e), OS_USR | 0xC0); /* OS and USR in every select, no EN */
	T_EQ(PARSE("l2_ld.m"), UNC_OK);
	T_STREQ(e.name, "L2_LD.M");
	T_EQ(evsel_encode(&e), OS_USR | 0x0829);
	T_EQ(PARSE("L2_RQSTS.MESI"), UNC_OK);
	T_EQ(evsel_encode(&e), OS_USR | 0x0F2E);
	T_EQ(PARSE("BUS_TRAN_ANY.ANY"), UNC_OK);
	T_EQ(evsel_encode(&e), OS_USR | 0x2070);
	T_EQ(PARSE("BUS_TRAN_ANY.SELF"), UNC_OK);
	T_EQ(evsel_encode(&e), OS_USR | 0x0070);
	T_EQ(PARSE("FLOPS"), UNC_OK);
	T_EQ(e.counters, 1);
	T_EQ(PARSE("DIV"), UNC_OK);
	T_EQ(e.counters, 2);
	/* raw: perf's p6/event=..,umask=../, CMASK as cmask (or thresh) */
	T_EQ(PARSE("p6/event=0xc0,umask=0x00,cmask=2,inv,edge/"), UNC_OK);
	T_EQ(evsel_encode(&e), (2ull << 24) | (1ull << 23) | (1ull << 18) | OS_USR | 0xC0);
	T_EQ(PARSE("p6/event=0xc1/"), UNC_OK);
	T_EQ(e.counters, 1); /* FLOPS spelled raw: still counter 0 only */
	T_EQ(PARSE("p6/event=0x13,umask=0x5/"), UNC_OK);
	T_EQ(e.counters, 2);
	T_EQ(PARSE("p6/event=0x100/"), UNC_E_INVALID);
	T_STREQ(err, "bad value '0x100' for 'event' in 'p6/event=0x100/' (at most 0xff: SDM Vol. 3B, PerfEvtSel0/1)");
	T_EQ(PARSE("p6/event=0x29,cmask=256/"), UNC_E_INVALID);
	T_CONTAINS(err, "bad value '256' for 'cmask'");
	/* not on a Skylake-client CPU */
	static const struct pmu_driver *const skl_only[] = { &pmu_driver_skl, NULL };
	T_EQ(evsel_parse("L2_LD.M", skl_only, &e, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_STREQ(err, "L2_LD.M is a p6 event; this CPU has no p6 PMU");
	T_EQ(evsel_parse("p6/event=0xc0/", skl_only, &e, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_STREQ(err, "p6/event=0xc0/ is a p6 event; this CPU has no p6 PMU");
}

/* ---- the engine on a P6 ----
 *
 * The strict fake holds the four registers; this model makes the counters
 * count between two waits: while EN (bit 22) of PerfEvtSel0 is set, counter
 * i counts the rate of the event its select names (code and unit mask),
 * modulo 2^40, if the select counts at ring 0 (OS), where the run is. */
static struct fake_hw f;
static struct stat_run run;
static struct {
	uint8_t code, umask;
	uint64_t per_sec;
} rates[4];
static unsigned nrates;
static uint64_t clobber_at = UINT64_MAX, clobber_val;
static uint32_t clobber_msr;

static uint64_t *reg(uint32_t msr)
{
	return fake_msr_value(&f, msr);
}

static void advance(uint64_t when)
{
	if (when <= f.now || !(*reg(SEL0) & EN))
		return;
	for (unsigned c = 0; c < 2; c++) {
		uint64_t sel = *reg(SEL0 + c);
		if (!(sel & (1ull << 17)))
			continue;
		for (unsigned k = 0; k < nrates; k++)
			if (rates[k].code == (sel & 0xFF) && rates[k].umask == (sel >> 8 & 0xFF))
				*reg(CTR0 + c) = (*reg(CTR0 + c) + rates[k].per_sec * (when - f.now) / S) & MASK40;
	}
}

static bool wait_until(void *ctx, uint64_t when)
{
	(void)ctx;
	if (when > clobber_at && clobber_msr) {
		advance(clobber_at);
		f.now = clobber_at;
		*reg(clobber_msr) = clobber_val;
		clobber_msr = 0;
	}
	advance(when);
	f.now = when;
	return false;
}

static const struct stat_env env = { wait_until, NULL, NULL, NULL };

static void pentium3(void)
{
	/* "GenuineIntel" is EBX, EDX, ECX = "Genu", "ineI", "ntel"; family 6
	 * model 7 stepping 3, as QEMU's pentium3; no brand string, no
	 * topology leaves. */
	fake_cpuid(&f, 0, 0, 2, 0x756e6547, 0x6c65746e, 0x49656e69);
	fake_cpuid(&f, 1, 0, 0x673, 0, 0, 0);
	fake_cpuid(&f, 0x80000000, 0, 0, 0, 0, 0);
}

/* A Pentium III with the four registers as given. */
static void fresh(uint64_t sel0, uint64_t sel1, uint64_t ctr0, uint64_t ctr1)
{
	fake_init(&f);
	pentium3();
	fake_msr(&f, SEL0, sel0);
	fake_msr(&f, SEL1, sel1);
	fake_msr(&f, CTR0, ctr0);
	fake_msr(&f, CTR1, ctr1);
	f.sext.first = CTR0, f.sext.last = CTR1, f.sext.width = 40; /* as the SDM says a P6 counter takes a write */
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	nrates = 0;
	clobber_at = UINT64_MAX;
	clobber_msr = 0;
}

static void rate(uint8_t code, uint8_t umask, uint64_t per_sec)
{
	rates[nrates].code = code;
	rates[nrates].umask = umask;
	rates[nrates++].per_sec = per_sec;
}

static void add(const char *name)
{
	run_add(&run, p6_only, name);
}

static enum unc_status schedule(bool allow_mux)
{
	return run_schedule(&run, &f.hw, allow_mux);
}

static enum unc_status run_for(uint64_t duration, uint64_t sample, bool force)
{
	struct stat_opts o = { .duration = duration, .slice = 20 * MS, .sample = sample };

	return stat_loop(&run, &f.hw, force, &o, &env);
}

/* The four registers hold what they held before the run. */
static void restored(uint64_t sel0, uint64_t sel1, uint64_t ctr0, uint64_t ctr1)
{
	T_EQ(*reg(SEL0), sel0);
	T_EQ(*reg(SEL1), sel1);
	T_EQ(*reg(CTR0), ctr0);
	T_EQ(*reg(CTR1), ctr1);
}

static void no_en_in_perfevtsel1(void)
{
	for (unsigned i = 0; i < f.nlog; i++)
		if (f.log[i].addr == SEL1 && (f.log[i].value & EN))
			t_fail(__FILE__, __LINE__, "write %u: PerfEvtSel1 <- 0x%llx has EN (bit 22, reserved there)", i,
			       (unsigned long long)f.log[i].value);
}

static void check_writes(const struct fake_write *want, unsigned n)
{
	T_EQ(f.nlog, n);
	for (unsigned i = 0; i < f.nlog && i < n; i++)
		if (f.log[i].addr != want[i].addr || f.log[i].value != want[i].value)
			t_fail(__FILE__, __LINE__, "write %u: 0x%llx <- 0x%llx, want 0x%llx <- 0x%llx", i,
			       (unsigned long long)f.log[i].addr, (unsigned long long)f.log[i].value,
			       (unsigned long long)want[i].addr, (unsigned long long)want[i].value);
}

/* The EN quirk, write by write: each event select gets its event with OS
 * and USR, never EN; unfreeze sets EN in PerfEvtSel0 by read-modify-write,
 * which starts both counters; the stop clears it the same way, and the
 * restore puts back the counters and selects as found, PerfEvtSel0 last. */
static void en_in_perfevtsel0_alone(void)
{
	static const struct fake_write want[] = {
		/* freeze: EN off in PerfEvtSel0 (found 0) */ { FAKE_MSR, SEL0, 0 },
		/* the selects: INST_RETIRED on counter 0, MUL on counter 1 */
		{ FAKE_MSR, SEL0, OS_USR | 0xC0 }, { FAKE_MSR, SEL1, OS_USR | 0x12 },
		/* the counters to 2^30 (bits 31:0, sign-extended) */ { FAKE_MSR, CTR0, 0x40000000 },
		{ FAKE_MSR, CTR1, 0x40000000 },
		/* unfreeze: EN on in PerfEvtSel0 */ { FAKE_MSR, SEL0, EN | OS_USR | 0xC0 },
		/* stop: EN off again */ { FAKE_MSR, SEL0, OS_USR | 0xC0 },
		/* restore, the reverse of the snapshot (PerfEvtSel0, PerfCtr0, PerfEvtSel1, PerfCtr1) */
		{ FAKE_MSR, CTR1, 0x2222 }, { FAKE_MSR, SEL1, 0 }, { FAKE_MSR, CTR0, 0x1111 }, { FAKE_MSR, SEL0, 0 },
	};

	fresh(0, 0, 0x1111, 0x2222);
	rate(0xC0, 0x00, 300000000);
	rate(0x12, 0x00, 7000000);
	add("INST_RETIRED");
	add("MUL");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run.c.ngroups, 1);
	T_EQ(run_for(S / 100, 100 * MS, false), UNC_OK); /* 10 ms: no sample in between */
	check_writes(want, sizeof(want) / sizeof(want[0]));
	T_EQ(count_total(&run.c, 0, -1), 3000000);
	T_EQ(count_total(&run.c, 1, -1), 70000);
	no_en_in_perfevtsel1();
	restored(0, 0, 0x1111, 0x2222);
}

/* Only counter 1 has an event: PerfEvtSel0 gets no event (0) and EN alone,
 * which starts counter 1; PerfEvtSel1 still never gets bit 22. */
static void en_when_only_counter_1_counts(void)
{
	static const struct fake_write want[] = {
		{ FAKE_MSR, SEL0, 0 },
		{ FAKE_MSR, SEL0, 0 }, { FAKE_MSR, SEL1, OS_USR | 0x13 },
		{ FAKE_MSR, CTR0, 0x40000000 }, { FAKE_MSR, CTR1, 0x40000000 },
		{ FAKE_MSR, SEL0, EN },
		{ FAKE_MSR, SEL0, 0 },
		{ FAKE_MSR, CTR1, 0x2222 }, { FAKE_MSR, SEL1, 0 }, { FAKE_MSR, CTR0, 0x1111 }, { FAKE_MSR, SEL0, 0 },
	};

	fresh(0, 0, 0x1111, 0x2222);
	rate(0x13, 0x00, 5000000);
	add("DIV");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run.counter[0], 1);
	T_EQ(run_for(S / 100, 100 * MS, false), UNC_OK);
	check_writes(want, sizeof(want) / sizeof(want[0]));
	T_EQ(count_total(&run.c, 0, -1), 50000);
	no_en_in_perfevtsel1();
	restored(0, 0, 0x1111, 0x2222);
}

/* The counter restrictions: FLOPS and CYCLES_DIV_BUSY both need counter 0,
 * so they take two rounds, refused when multiplexing is not allowed
 * (--no-multiplex); FLOPS and MUL fit in one, whatever their order. */
static void counter_restrictions(void)
{
	fresh(0, 0, 0, 0);
	add("FLOPS");
	add("CYCLES_DIV_BUSY");
	T_EQ(schedule(false), UNC_E_INVALID);
	T_STREQ(run.err, "the events need 2 rounds of counters (P6: 2 counters, events 0x10 and 0x14 and 0xc1 only counter "
			 "0, events 0x11 and 0x12 and 0x13 only counter 1); without --no-multiplex they take turns");
	fresh(0, 0, 0, 0);
	add("p6/event=0xc1/");
	add("p6/event=0x14,umask=0x1/");
	T_EQ(schedule(false), UNC_E_INVALID); /* raw, the same */
	fresh(0, 0, 0, 0);
	add("FP_ASSIST");
	add("DIV");
	T_EQ(schedule(false), UNC_E_INVALID); /* both counter 1 */
	fresh(0, 0, 0, 0);
	add("FLOPS");
	add("CYCLES_DIV_BUSY");
	T_EQ(schedule(true), UNC_OK);
	T_EQ(run.c.ngroups, 2);
	T_EQ(run.counter[0], 0);
	T_EQ(run.counter[1], 0);

	fresh(0, 0, 0, 0);
	add("MUL");
	add("FLOPS");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run.c.ngroups, 1);
	T_EQ(run.counter[0], 1); /* MUL */
	T_EQ(run.counter[1], 0); /* FLOPS */
	fresh(0, 0, 0, 0);
	add("INST_RETIRED");
	add("FLOPS");
	T_EQ(schedule(false), UNC_OK); /* the restricted one first: INST_RETIRED takes counter 1 */
	T_EQ(run.counter[0], 1);
	T_EQ(run.counter[1], 0);
}

/* FLOPS and CYCLES_DIV_BUSY taking turns on counter 0: each counted while
 * its round runs (half the time), and scaled to the whole run. */
static void restricted_events_take_turns(void)
{
	fresh(0, 0, 0, 0);
	rate(0xC1, 0x00, 1000000);
	rate(0x14, 0x00, 3000000);
	add("FLOPS");
	add("CYCLES_DIV_BUSY");
	T_EQ(schedule(true), UNC_OK);
	T_EQ(run_for(S, 100 * MS, false), UNC_OK);
	T_EQ(run.c.ev[0].total.box[0], 500000); /* counted half the time */
	T_EQ(run.c.ev[1].total.box[0], 1500000);
	T_EQ(run.c.ev[0].total.running, S / 2);
	T_EQ(run.c.ev[1].total.running, S / 2);
	T_EQ(count_total(&run.c, 0, -1), 1000000); /* scaled to the whole second */
	T_EQ(count_total(&run.c, 1, -1), 3000000);
	no_en_in_perfevtsel1();
	restored(0, 0, 0, 0);
}

/* 40-bit counters: 2 * 10^9 per second wraps one every 550 s; sampled
 * every second, 1500 s count 3 * 10^12 (2.7 times 2^40) exactly. Samples
 * 600 s apart cannot vouch for a count: at the event's fastest rate (2^31
 * per second) a 40-bit counter can wrap in 512 s. */
static void counters_wrap_at_40_bits(void)
{
	fresh(0, 0, 0, 0);
	rate(0x79, 0x00, 2000000000ull); /* within the bound: one a cycle at 2^31 Hz */
	add("CPU_CLK_UNHALTED");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run.c.ev[0].v.width, 40);
	T_EQ(run_for(1500 * S, S, false), UNC_OK);
	T_EQ(count_total(&run.c, 0, -1), 3000000000000ull);
	T_ASSERT(count_total(&run.c, 0, -1) > 2 * (MASK40 + 1));
	restored(0, 0, 0, 0);

	fresh(0, 0, 0, 0);
	rate(0x79, 0x00, 1000000);
	add("CPU_CLK_UNHALTED");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(1200 * S, 600 * S, false), UNC_E_OVERFLOW);
	T_STREQ(run.err, "the P6 counters were not sampled for 600000.0 ms: at up to 2147483648 per second a 40-bit "
			 "counter can wrap unseen in that time, so no count can be vouched for");
	restored(0, 0, 0, 0);
}

/* A #GP on each register the run writes, in turn: the run stops with that
 * write's error and everything it wrote is put back. A #GP reading any of
 * them stops it before any write. */
static void restore_after_a_fault_on_each_register(void)
{
	static const uint32_t regs[] = { SEL0, SEL1, CTR0, CTR1 };

	for (unsigned k = 0; k < 4; k++) {
		char want[40];
		fresh(0, 0, 0x1111, 0x2222);
		rate(0xC0, 0x00, 1000000);
		fake_msr_gp(&f, regs[k], false, true);
		add("INST_RETIRED");
		add("MUL");
		T_EQ(schedule(false), UNC_OK);
		T_EQ(run_for(S, 100 * MS, false), UNC_E_FAULT);
		snprintf(want, sizeof(want), "wrmsr 0x%x (", regs[k]);
		if (!strstr(run.err, want) || strstr(run.err, "restor"))
			t_fail(__FILE__, __LINE__, "#GP writing 0x%x: '%s'", regs[k], run.err);
		no_en_in_perfevtsel1();
		restored(0, 0, 0x1111, 0x2222);
		if (k == 0)
			T_EQ(f.nlog, 0); /* the freeze was the first write: nothing changed */
		else
			T_EQ(f.log[f.nlog - 1].addr, SEL0); /* PerfEvtSel0 back last */
	}
	for (unsigned k = 0; k < 4; k++) {
		fresh(0, 0, 0x1111, 0x2222);
		fake_msr_gp(&f, regs[k], true, false);
		add("INST_RETIRED");
		add("MUL");
		T_EQ(schedule(false), UNC_OK);
		T_EQ(run_for(S, 100 * MS, false), UNC_E_FAULT);
		T_EQ(f.nlog, 0);
	}
}

/* A PMU found in use (EN and an event in PerfEvtSel0) is refused; with
 * --force it is taken over and given back: the counters and PerfEvtSel1 as
 * found, then PerfEvtSel0 with its EN, last. */
static void in_use_and_force(void)
{
	fresh(EN | OS_USR | 0x79, OS_USR | 0xC0, 0x123456789Aull, 0x5);
	add("INST_RETIRED");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(S, 100 * MS, false), UNC_E_BUSY);
	T_STREQ(run.err, "the P6 core PMU is in use (PerfEvtSel0 = 0x430079); --force takes it over and restores it");
	T_EQ(f.nlog, 0);

	fresh(EN | OS_USR | 0x79, OS_USR | 0xC0, 0x123456789Aull, 0x5);
	rate(0xC0, 0x00, 2000000);
	rate(0x79, 0x00, 900000000); /* the previous owner's event: not counted into ours */
	add("INST_RETIRED");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(S, 100 * MS, true), UNC_OK);
	T_EQ(count_total(&run.c, 0, -1), 2000000);
	T_EQ(f.log[0].addr, SEL0);
	T_EQ(f.log[0].value, OS_USR | 0x79); /* the freeze: EN off, the rest as found */
	T_EQ(f.log[f.nlog - 1].addr, SEL0);
	T_EQ(f.log[f.nlog - 1].value, EN | OS_USR | 0x79);
	no_en_in_perfevtsel1();
	/* the model counted the owner's event again once EN came back last: 0
	 * ns later. PerfCtr0 cannot get 0x123456789A back: it takes bits 31:0,
	 * sign-extended; the run says so. */
	restored(EN | OS_USR | 0x79, OS_USR | 0xC0, 0x3456789Aull, 0x5);
	T_STREQ(run.restore_note, "PerfCtr0 (0xc1) was 0x123456789a before the run and reads 0x3456789a after it was put "
				  "back: the register does not take the whole value");
}

/* PerfEvtSel0 is checked at every sample: cleared EN (both counters stopped)
 * or another value stops the run with one line, never a short count. */
static void perfevtsel0_changed_during_the_run(void)
{
	static const struct {
		uint64_t val;
		const char *msg;
	} cases[] = {
		{ OS_USR | 0xC0, "PerfEvtSel0 (0x186) reads 0x300c0, not the 0x4300c0 this run wrote: EN (bit 22) is clear, "
				 "so both counters stopped (written by someone else) during the run" },
		{ EN | OS_USR | 0x79, "PerfEvtSel0 (0x186) reads 0x430079, not the 0x4300c0 this run wrote: written by "
				      "someone else during the run" },
	};

	for (unsigned c = 0; c < 2; c++) {
		fresh(0, 0, 0x1111, 0x2222);
		rate(0xC0, 0x00, 1000000);
		add("INST_RETIRED");
		T_EQ(schedule(false), UNC_OK);
		clobber_at = 550 * MS;
		clobber_msr = SEL0;
		clobber_val = cases[c].val;
		T_EQ(run_for(2 * S, 100 * MS, false), UNC_E_CLOBBERED);
		T_STREQ(run.err, cases[c].msg);
		T_EQ(f.now, 600 * MS); /* the first sample after the write */
		restored(0, 0, 0x1111, 0x2222);
	}
}

/* PerfEvtSel1, whose counter the run reads, is checked at each sample
 * too: someone else clearing or reprogramming it stops the run, and
 * everything goes back. A write to PerfCtr1 before the first sample shows
 * as a jump from the run's start (2^30). */
static void perfevtsel1_and_counter_written_during_the_run(void)
{
	static const struct {
		uint32_t msr;
		uint64_t val, at;
		const char *msg;
	} cases[] = {
		{ SEL1, 0, 550 * MS, "PerfEvtSel1 (0x187) reads 0x0, not the 0x30012 this run wrote: written by someone else "
				     "during the run" },
		{ SEL1, OS_USR | 0x13, 550 * MS, "PerfEvtSel1 (0x187) reads 0x30013, not the 0x30012 this run wrote: written "
						 "by someone else during the run" },
		{ CTR1, 0x7fffffff, 50 * MS, "PerfCtr1 (0xc2) went from 0x40000000 to 0x7fffffff within 100.0 ms: written by "
					     "someone else during the run (no wrap moves it that far)" },
	};

	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		fresh(0, 0, 0x1111, 0x2222);
		add("INST_RETIRED");
		add("MUL");
		T_EQ(schedule(false), UNC_OK);
		clobber_at = cases[c].at;
		clobber_msr = cases[c].msr;
		clobber_val = cases[c].val;
		T_EQ(run_for(2 * S, 100 * MS, false), UNC_E_CLOBBERED);
		T_STREQ(run.err, cases[c].msg);
		restored(0, 0, 0x1111, 0x2222);
	}

	/* each event's bound: what it adds per cycle at 2^31 Hz (MUL's 1 is
	 * why 2^30 in 100 ms above is no count) */
	fresh(0, 0, 0, 0);
	add("INST_RETIRED");
	add("MUL");
	add("CPU_CLK_UNHALTED");
	add("p6/event=0xc0,cmask=1/");
	T_EQ(schedule(true), UNC_OK);
	T_EQ(run.max_rate[0], 3ull << 31);
	T_EQ(run.max_rate[1], 1ull << 31);
	T_EQ(run.max_rate[2], 1ull << 31);
	T_EQ(run.max_rate[3], 1ull << 31);
}

/* Every counter that cannot take back its value (bits 31:0, sign-extended)
 * is named, each in its own line: both here. */
static void every_register_not_restored_is_named(void)
{
	fresh(0, 0, 0xfb880db5, 0x80000001);
	rate(0xC0, 0x00, 1000000);
	add("INST_RETIRED");
	add("MUL");
	T_EQ(schedule(false), UNC_OK);
	T_EQ(run_for(S, 100 * MS, false), UNC_OK);
	restored(0, 0, 0xfffb880db5, 0xff80000001);
	T_STREQ(run.restore_note,
		"PerfCtr1 (0xc2) was 0x80000001 before the run and reads 0xff80000001 after it was put back: the register "
		"does not take the whole value\n"
		"PerfCtr0 (0xc1) was 0xfb880db5 before the run and reads 0xfffb880db5 after it was put back: the register "
		"does not take the whole value");
	T_EQ(run.restore_more, 0);
}

/* ---- info ---- */

static struct platform_info pi;
static char text[8192];

static const char *render(bool json)
{
	return render_info(&pi, json, text, sizeof(text));
}

static void info_lines(void)
{
	fresh(0, 0, 0x1111, 0x2222);
	T_EQ(info_gather(&f.hw, &pi), UNC_OK);
	T_EQ(pi.npmu, 1);
	T_ASSERT(pi.pmu[0].drv == &pmu_driver_p6);
	T_EQ(f.nlog, 0);
	render(false);
	T_CONTAINS(text, "uncore:       supported: P6 family, Pentium III (Katmai)\n");
	T_CONTAINS(text, "core pmu:     P6: PerfEvtSel0/1 at 0x186/0x187, PerfCtr0/1 at 0xc1/0xc2, 40 bits; EN (bit 22) of "
			 "PerfEvtSel0 starts both\n");
	T_CONTAINS(text, "pmu in use:   no (2 event selects all zero)\n");
	T_CONTAINS(text, "verdict:      P6 core PMU usable: ready\n");
	render(true);
	T_JSON(text, false);
	T_CONTAINS(text, "{\"driver\":\"p6-core\",\"counters\":2,\"counter_width\":40,\"pmu_in_use\":false,"
			 "\"pmu_busy_registers\":[]}");

	fresh(EN | OS_USR | 0x79, 0, 0, 0);
	T_EQ(info_gather(&f.hw, &pi), UNC_OK);
	render(false);
	T_CONTAINS(text, "pmu in use:   yes\n  PerfEvtSel0 (0x186) = 0x430079\n");
	render(true);
	T_JSON(text, false);
	T_CONTAINS(text, "\"pmu_in_use\":true,\"pmu_busy_registers\":[{\"msr\":\"0x186\",\"name\":\"PerfEvtSel0\","
			 "\"value\":\"0x430079\"}]");

	/* a #GP reading PerfEvtSel1 */
	fresh(0, 0, 0, 0);
	fake_msr_gp(&f, SEL1, true, false);
	T_EQ(info_gather(&f.hw, &pi), UNC_E_FAULT);
	render(false);
	T_CONTAINS(text, "pmu in use:   unknown (a register could not be read)\n");
	T_CONTAINS(text, "fault:        rdmsr 0x187 (PerfEvtSel1) raised #GP\n");
	render(true);
	T_JSON(text, false);
	T_CONTAINS(text, "\"pmu_in_use\":null");

	/* without MSR reads: nothing of the PMU is read */
	fresh(0, 0, 0, 0);
	unsigned before = f.msr_reads;
	info_gather_opt(&f.hw, &pi, false);
	T_EQ(f.msr_reads, before);
	render(false);
	T_CONTAINS(text, "pmu in use:   not checked (this command reads no MSR)\n");

	/* a Skylake CPU is no P6, and the reverse */
	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8);
	struct cpu_info cpu;
	cpu_identify(&f.hw, &cpu);
	T_EQ(pmu_match_model(&pmu_driver_p6, &f.hw, &cpu), NULL);
	fresh(0, 0, 0, 0);
	cpu_identify(&f.hw, &cpu);
	T_EQ(pmu_match_model(&pmu_driver_skl, &f.hw, &cpu), NULL);
	T_STREQ(pmu_match_model(&pmu_driver_p6, &f.hw, &cpu)->name, "Pentium III (Katmai)");
}

T_MAIN("p6", T_CASE(conformance_event_table), T_CASE(conformance_registers), T_CASE(names_and_encodings),
       T_CASE(en_in_perfevtsel0_alone), T_CASE(en_when_only_counter_1_counts), T_CASE(counter_restrictions),
       T_CASE(restricted_events_take_turns), T_CASE(counters_wrap_at_40_bits),
       T_CASE(restore_after_a_fault_on_each_register), T_CASE(in_use_and_force),
       T_CASE(perfevtsel0_changed_during_the_run), T_CASE(perfevtsel1_and_counter_written_during_the_run),
       T_CASE(every_register_not_restored_is_named), T_CASE(info_lines))
