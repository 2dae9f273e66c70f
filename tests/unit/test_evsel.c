#include <stdio.h>
#include <string.h>

#include "../../drivers/engine/evsel.h"
#include "../../drivers/base/parse.h"
#include "../../drivers/pmu/adl.h"
#include "../../drivers/pmu/mtl.h"
#include "../../drivers/pmu/skl.h"
#include "t.h"

static struct ev_spec e;
static char err[300];

/* The drivers of a Skylake-client CPU. */
static const struct pmu_driver *const skl_cpu[] = { &pmu_driver_skl, NULL };

#define PARSE(s) evsel_parse(s, skl_cpu, &e, err, sizeof(err))

static void named_events(void)
{
	T_EQ(PARSE("UNC_CBO_CACHE_LOOKUP.ANY_MESI"), UNC_OK);
	T_ASSERT(e.drv == &pmu_driver_skl);
	T_EQ(e.unit, SKL_UNIT_CBO);
	T_EQ(e.code, 0x34);
	T_EQ(e.umask, 0x8f);
	T_EQ(e.counters, 3);
	T_EQ(evsel_encode(&e), 0x408f34);
	T_EQ(PARSE("unc_cbo_cache_lookup.any_mesi"), UNC_OK);
	T_STREQ(e.name, "UNC_CBO_CACHE_LOOKUP.ANY_MESI"); /* the manual's spelling */
	T_EQ(PARSE("UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST"), UNC_OK);
	T_EQ(e.unit, SKL_UNIT_ARB);
	T_EQ(e.thr, 1);
	T_EQ(e.counters, 1);
	T_EQ(evsel_encode(&e), 0x01400180);
	T_EQ(PARSE("UNC_CLOCK.SOCKET"), UNC_OK);
	T_EQ(e.unit, SKL_UNIT_FIXED);
	T_EQ(e.counters, EV_COUNTER_FIXED);
	T_EQ(evsel_encode(&e), 1ull << 22); /* Table 2-4: CNT_EN; the run adds OVF_EN */
	/* Every driver the build has, as `pmu_drivers` (what drivers/cmd/pipeline.c passes
	 * on a CPU that matches them all), resolves the same. */
	T_EQ(evsel_parse("UNC_CBO_CACHE_LOOKUP.ANY_MESI", pmu_drivers, &e, err, sizeof(err)), UNC_OK);
	T_ASSERT(e.drv == &pmu_driver_skl);
	T_EQ(e.unit, SKL_UNIT_CBO);
}

static void raw_events(void)
{
	T_EQ(PARSE("cbo/event=0x34,umask=0x8f/"), UNC_OK);
	T_EQ(evsel_encode(&e), 0x408f34);
	T_STREQ(e.name, "cbo/event=0x34,umask=0x8f/");
	T_ASSERT(!e.desc);
	T_EQ(PARSE("arb/event=0x80,umask=0x01,thresh=1,inv,edge/"), UNC_OK);
	T_EQ(evsel_encode(&e), (1ull << 24) | (1ull << 23) | (1ull << 22) | (1ull << 18) | 0x0180);
	T_EQ(e.counters, 1); /* occupancy: counter 0 only */
	/* 0x83 too (Linux snb_uncore_arb_constraints), with any umask */
	T_EQ(PARSE("arb/event=0x83,umask=0x02/"), UNC_OK);
	T_EQ(e.counters, 1);
	T_EQ(PARSE("cbo/event=0x83/"), UNC_OK);
	T_EQ(e.counters, 3); /* a CBo event 0x83 is not the ARB's */
	T_EQ(PARSE("ARB/event=129,umask=32/"), UNC_OK);
	T_EQ(e.unit, SKL_UNIT_ARB);
	T_EQ(e.code, 0x81);
	T_EQ(e.umask, 0x20);
	T_EQ(e.counters, 3);
	T_EQ(PARSE("cbox/event=0x22,cmask=31,edge=0,inv=1/"), UNC_OK);
	T_EQ(e.thr, 31);
	T_ASSERT(!e.edge && e.inv);
	T_EQ(PARSE("cbo/event=0x22/"), UNC_OK);
	T_EQ(e.umask, 0);
}

#define BAD_ST(st, s, msg)                                                  \
	do {                                                                \
		err[0] = '\0';                                              \
		T_EQ(evsel_parse(s, skl_cpu, &e, err, sizeof(err)), st);    \
		T_CONTAINS(err, msg);                                       \
	} while (0)
#define BAD(s, msg) BAD_ST(UNC_E_INVALID, s, msg)

static void bad_events_name_the_problem(void)
{
	BAD("UNC_CBO_NOPE", "unknown event 'UNC_CBO_NOPE' (see 'uncore.efi list')");
	BAD("", "empty event name");
	/* The IMC is a PMU of this CPU now, but one of named counters. */
	BAD("imc/event=1/", "'imc/event=1/': the imc PMU takes no raw events (see 'uncore.efi list')");
	BAD("foo/event=1/", "unknown PMU 'foo' in 'foo/event=1/' (PMUs with raw events here: cbox, arb)");
	BAD("/event=1/", "bad raw event '/event=1/'");
	BAD("cbo/event=0x34", "raw event 'cbo/event=0x34' must end with '/'");
	BAD("cbo/event=0x134/", "bad value '0x134' for 'event' in 'cbo/event=0x134/' (at most 0xff: Table 2-7)");
	BAD("cbo/event=1,umask=256/", "bad value '256' for 'umask'");
	BAD("arb/event=0x80,thresh=32/", "bad value '32' for 'thresh'");
	BAD("arb/event=0x80,inv=2/", "bad value '2' for 'inv'");
	BAD("arb/event=0x80,edge=yes/", "bad value 'yes' for 'edge'");
	BAD("cbo/umask=0x8f/", "raw event 'cbo/umask=0x8f/' has no event= term");
	BAD("cbo/event=1,event=2/", "term 'event' given twice");
	BAD("cbo/event=1,,umask=2/", "empty term in");
	BAD("cbo/event=1,/", "empty term in");
	BAD("cbo/event=1,colour=2/", "unknown term 'colour'");
	BAD("cbo/event/", "term 'event' needs a value");
	BAD("cbo/event=1/x/", "has a '/' inside its terms");
	BAD("cbo/event=-1/", "bad value '-1'");
	BAD("UNC_CBO_CACHE_LOOKUP.ANY_MESI_AND_A_VERY_LONG_TAIL_THAT_GOES_ON_AND_ON", "is too long");
}

/* Exactly this one line, with this status. */
#define REFUSED(present, st, s, msg)                                            \
	do {                                                                    \
		err[0] = '\0';                                                  \
		T_EQ(evsel_parse(s, present, &e, err, sizeof(err)), st);        \
		T_STREQ(err, msg);                                              \
	} while (0)

/* On a CPU without a driver's PMU, its events are refused as such (the
 * status the app turns into "not supported"), whichever way they are
 * spelled; names no driver has are still unknown. */
static void events_of_an_absent_pmu_are_refused(void)
{
	const struct pmu_driver *const *none = (const struct pmu_driver *[]){ NULL };

	REFUSED(none, UNC_E_UNSUPPORTED, "UNC_CBO_CACHE_LOOKUP.ANY_MESI",
		"UNC_CBO_CACHE_LOOKUP.ANY_MESI is a cbox event; this CPU has no cbox PMU");
	REFUSED(none, UNC_E_UNSUPPORTED, "unc_cbo_cache_lookup.any_mesi", /* named as the table spells it */
		"UNC_CBO_CACHE_LOOKUP.ANY_MESI is a cbox event; this CPU has no cbox PMU");
	REFUSED(none, UNC_E_UNSUPPORTED, "cbo/event=0x34/", "cbo/event=0x34/ is a cbox event; this CPU has no cbox PMU");
	/* a name two drivers have: each PMU named, none preferred */
	REFUSED(none, UNC_E_UNSUPPORTED, "CPU_CLK_UNHALTED",
		"CPU_CLK_UNHALTED is an event of the knc or p6 PMUs; this CPU has none of them");
	/* before its terms are judged: they are the absent PMU's */
	REFUSED(none, UNC_E_UNSUPPORTED, "cbox/event=0x134/",
		"cbox/event=0x134/ is a cbox event; this CPU has no cbox PMU");
	REFUSED(none, UNC_E_UNSUPPORTED, "imc/data_reads/", "imc/data_reads/ is an imc event; this CPU has no imc PMU");
	REFUSED(none, UNC_E_UNSUPPORTED, "DRAM_DATA_READS", "DRAM_DATA_READS is an imc event; this CPU has no imc PMU");
	REFUSED(none, UNC_E_UNSUPPORTED, "UNC_CLOCK.SOCKET", "UNC_CLOCK.SOCKET is a clock event; this CPU has no clock PMU");
	REFUSED(none, UNC_E_UNSUPPORTED, "UNC_ARB_TRK_REQUESTS.ALL",
		"UNC_ARB_TRK_REQUESTS.ALL is an arb event; this CPU has no arb PMU");
	REFUSED(none, UNC_E_INVALID, "UNC_CBO_NOPE", "unknown event 'UNC_CBO_NOPE' (see 'uncore.efi list')");
	REFUSED(none, UNC_E_INVALID, "foo/event=1/",
		"unknown PMU 'foo' in 'foo/event=1/' (PMUs with raw events here: none on this CPU)");
	/* Another generation's name for a PMU this CPU has: not in the table
	 * searched, which is named, and the PMU said to be here. */
	const struct pmu_driver *const *adl = (const struct pmu_driver *[]){ &pmu_driver_adl, NULL };
	const struct pmu_driver *const *lnl = (const struct pmu_driver *[]){ &pmu_driver_lnl, NULL };
	REFUSED(adl, UNC_E_UNSUPPORTED, "UNC_CBO_CACHE_LOOKUP.ANY_MESI",
		"UNC_CBO_CACHE_LOOKUP.ANY_MESI is a Skylake-client cbox event, not in the Alder/Raptor Lake table "
		"(adl-client-uncore); this CPU's cbox PMU takes raw events (see 'uncore.efi list')");
	REFUSED(lnl, UNC_E_UNSUPPORTED, "UNC_ARB_TRK_REQUESTS.ALL",
		"UNC_ARB_TRK_REQUESTS.ALL is an Alder/Raptor Lake arb event, not in the Lunar Lake table (lnl-client-uncore); "
		"this CPU's arb PMU takes raw events (see 'uncore.efi list')");
	REFUSED(adl, UNC_E_UNSUPPORTED, "DRAM_DATA_READS",
		"DRAM_DATA_READS is an Ice Lake imc event, not in the Alder/Raptor Lake table (adl-client-uncore); this "
		"CPU's imc PMU has other events (see 'uncore.efi list')");
	T_EQ(evsel_parse("cbox/event=0x34,umask=0x8f/", adl, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_parse("arb/event=0x81,umask=0x01/", lnl, &e, err, sizeof(err)), UNC_OK);
	/* The same events resolve where the driver is present. */
	T_EQ(PARSE("UNC_CBO_CACHE_LOOKUP.ANY_MESI"), UNC_OK);
	T_EQ(PARSE("cbo/event=0x34/"), UNC_OK);
	T_EQ(PARSE("imc/data_reads/"), UNC_OK);
	T_EQ(PARSE("DRAM_DATA_READS"), UNC_OK);
}

/* cbox/ (perf's name) and cbo/ (the alias) are one PMU, in any case; an
 * event is the same however it is spelled, and only then. */
static void cbox_and_cbo_are_one_pmu(void)
{
	struct ev_spec a, b;

	T_EQ(evsel_parse("cbox/event=0x34,umask=0x8f/", skl_cpu, &a, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_parse("CBO/umask=0x8f,event=0x34/", skl_cpu, &b, err, sizeof(err)), UNC_OK);
	T_ASSERT(a.drv == &pmu_driver_skl && b.drv == &pmu_driver_skl);
	T_EQ(a.unit, SKL_UNIT_CBO);
	T_EQ(b.unit, SKL_UNIT_CBO);
	T_ASSERT(evsel_same(&a, &b));
	T_EQ(PARSE("UNC_CBO_CACHE_LOOKUP.ANY_MESI"), UNC_OK);
	T_ASSERT(evsel_same(&a, &e));
	T_EQ(PARSE("arb/event=0x34,umask=0x8f/"), UNC_OK); /* the same encoding in another unit */
	T_ASSERT(!evsel_same(&a, &e));
	T_EQ(PARSE("cbo/event=0x34,umask=0x8e/"), UNC_OK);
	T_ASSERT(!evsel_same(&a, &e));
	/* A free-running counter by each of its names. */
	T_EQ(evsel_parse("imc/data_reads/", skl_cpu, &a, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_parse("dram_data_reads", skl_cpu, &b, err, sizeof(err)), UNC_OK);
	T_ASSERT(evsel_same(&a, &b));
	T_EQ(PARSE("data_reads"), UNC_OK);
	T_ASSERT(evsel_same(&a, &e));
	T_EQ(PARSE("imc/data_writes/"), UNC_OK);
	T_ASSERT(!evsel_same(&a, &e));
}

/* A made-up PMU whose event select differs from Table 2-7: a 4-bit umask,
 * an 8-bit threshold (like the core PMU's CMASK), no edge bit, 4 counters;
 * its layout cites no table. */
static const struct pmu_layout wide_layout = {
	.event = { 0, 8 }, .umask = { 8, 4 }, .thresh = { 24, 8 }, .inv = 1ull << 23, .enable = 1ull << 22,
	.rw_mask = 0xFFC00FFFull,
};
static const struct pmu_unit wide_units[] = {
	{ .pmu = "wide", .intel_unit = "WIDE", .name = "WIDE", .kind = PMU_GENERAL, .space = PMU_MSR, .counters = 4,
	  .width = 48, .max_boxes = 1, .layout = &wide_layout },
};
static const struct event_desc wide_events[] = {
	{ "WIDE.OK", "An event of the unit.", "WIDE", 0x01, 0x02, 0x1, 0, 0, 0, 0 },
	{ "WIDE.ORPHAN", "An event of a unit the driver lacks.", "CBO", 0x01, 0x02, 0x1, 0, 0, 0, 0 },
	{ "WIDE.EXT", "An event with a umask extension, which the layout has no field for.", "WIDE", 0x01, 0x02, 0x1, 0,
	  0, 0, 0x1234 },
};
static const unsigned wide_nevents = sizeof(wide_events) / sizeof(wide_events[0]);
static const struct pmu_driver wide_driver = {
	.name = "test-wide", .units = wide_units, .nunits = 1, .events = wide_events, .nevents = &wide_nevents,
};

/* A made-up PMU with a umask extension of 12 bits at bit 40 (the layout
 * says where: Sapphire Rapids' CHA has 32 at bit 32). */
static const struct pmu_layout ext_layout = {
	.event = { 0, 8 }, .umask = { 8, 8 }, .umask_ext = { 40, 12 }, .rw_mask = 0xFFF000000000FFFFull,
};
static const struct pmu_unit ext_units[] = {
	{ .pmu = "extu", .intel_unit = "EXTU", .name = "EXTU", .kind = PMU_GENERAL, .space = PMU_MSR, .counters = 2,
	  .width = 48, .max_boxes = 1, .layout = &ext_layout },
};
static const struct event_desc ext_events[] = {
	{ "EXTU.TOR", "An event with a UMaskExt.", "EXTU", 0x35, 0x01, 0x3, 0, 0, 0, 0xABC },
};
static const unsigned ext_nevents = sizeof(ext_events) / sizeof(ext_events[0]);
static const struct pmu_driver ext_driver = {
	.name = "test-ext", .units = ext_units, .nunits = 1, .events = ext_events, .nevents = &ext_nevents,
};

/* A core PMU as Intel's core-event files describe it: no Unit at all (""),
 * so a general and a fixed unit share it, and an event's Counter decides. */
static const struct pmu_unit core_units[] = {
	{ .pmu = "core", .intel_unit = "", .name = "PMC", .kind = PMU_GENERAL, .space = PMU_MSR, .counters = 4,
	  .width = 48, .max_boxes = 1, .layout = &wide_layout },
	{ .pmu = "core_fixed", .intel_unit = "", .name = "FIXED", .kind = PMU_FIXED, .space = PMU_MSR, .counters = 3,
	  .width = 48, .max_boxes = 1, .fixed_ctrl = 0x3 },
};
static const struct event_desc core_events[] = {
	{ "INST.ANY", "fixed counter 0", "", 0x00, 0x01, 0x81, 0, 0, 0, 0 },
	{ "INST.ANY_P", "a general event", "", 0xC0, 0x00, 0xF, 0, 0, 0, 0 },
	{ "REF.TSC", "fixed counter 2", "", 0x00, 0x03, 0x84, 0, 0, 0, 0 },
};
static const unsigned core_nevents = sizeof(core_events) / sizeof(core_events[0]);
static const struct pmu_driver core_driver = {
	.name = "test-core", .units = core_units, .nunits = 2, .events = core_events, .nevents = &core_nevents,
};

static void unitless_events_by_their_counter(void)
{
	T_EQ(pmu_unit_of_event(&core_driver, &core_events[0]), 1);
	T_EQ(pmu_unit_of_event(&core_driver, &core_events[1]), 0);
	T_EQ(pmu_unit_of_event(&core_driver, &core_events[2]), 1);
	/* a Skylake event of a unit that is not shared: by its Unit, as before */
	const struct event_desc *d = evsel_find(&pmu_driver_skl, "UNC_CLOCK.SOCKET");
	T_ASSERT(d != NULL);
	T_EQ(pmu_unit_of_event(&pmu_driver_skl, d), SKL_UNIT_FIXED);
}

/* Raw terms are as wide as the unit's event select has them, and only the
 * general units take them. */
static void raw_field_widths_are_the_units(void)
{
	const struct pmu_driver *const *wide = (const struct pmu_driver *[]){ &wide_driver, NULL };

	T_EQ(PARSE("cbox/event=1,thresh=0x1f/"), UNC_OK);
	T_EQ(e.thr, 0x1f);
	T_EQ(evsel_encode(&e), 0x1f400001);
	REFUSED(skl_cpu, UNC_E_INVALID, "cbox/event=1,thresh=0x20/",
		"bad value '0x20' for 'thresh' in 'cbox/event=1,thresh=0x20/' (at most 0x1f: Table 2-7)");
	REFUSED(skl_cpu, UNC_E_INVALID, "arb/event=1,cmask=32/",
		"bad value '32' for 'cmask' in 'arb/event=1,cmask=32/' (at most 0x1f: Table 2-7)");
	REFUSED(skl_cpu, UNC_E_INVALID, "clock/event=1/",
		"'clock/event=1/': the clock PMU takes no raw events (see 'uncore.efi list')");

	T_EQ(evsel_parse("wide/event=0xff,umask=0xf,thresh=0xff,inv/", wide, &e, err, sizeof(err)), UNC_OK);
	T_ASSERT(e.drv == &wide_driver);
	T_EQ(evsel_encode(&e), 0xFFC00FFFull);
	T_EQ(e.counters, 0xf); /* no constraints: every counter of the unit */
	/* a layout that cites no table says so */
	REFUSED(wide, UNC_E_INVALID, "wide/event=1,umask=0x10/",
		"bad value '0x10' for 'umask' in 'wide/event=1,umask=0x10/' (at most 0xf: the event select's field)");
	REFUSED(wide, UNC_E_INVALID, "wide/event=1,edge/",
		"term 'edge' in 'wide/event=1,edge/': the wide PMU's event select has no such field");
	REFUSED(wide, UNC_E_INVALID, "foo/event=1/", "unknown PMU 'foo' in 'foo/event=1/' (PMUs with raw events here: wide)");
	REFUSED(wide, UNC_E_UNSUPPORTED, "cbox/event=1/", "cbox/event=1/ is a cbox event; this CPU has no cbox PMU");
	/* A table event of a unit its driver lacks is refused, not guessed. */
	T_EQ(evsel_parse("WIDE.OK", wide, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), 0x400201);
	REFUSED(wide, UNC_E_INVALID, "wide.orphan",
		"event 'wide.orphan' has Unit 'CBO', which driver test-wide does not have");
	/* a UMaskExt with no field to go in would count another event */
	REFUSED(wide, UNC_E_INVALID, "WIDE.EXT",
		"cannot count WIDE.EXT: its umask extension (0x00001234) has no field in the wide PMU's event select");
	REFUSED(wide, UNC_E_INVALID, "wide/event=1,umask=0x12/",
		"bad value '0x12' for 'umask' in 'wide/event=1,umask=0x12/' (at most 0xf: the event select's field)");

	/* Where the layout puts the extension: the named event's, and the
	 * raw umask as wide as both fields, its bits above the umask's there. */
	const struct pmu_driver *const *ext = (const struct pmu_driver *[]){ &ext_driver, NULL };
	T_EQ(evsel_parse("EXTU.TOR", ext, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.umask, 0x01);
	T_EQ(e.umask_ext, 0xABC);
	T_EQ(evsel_encode(&e), 0x000ABC0000000135ull);
	struct ev_spec r;
	T_EQ(evsel_parse("extu/event=0x35,umask=0xabc01/", ext, &r, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&r), 0x000ABC0000000135ull);
	T_ASSERT(evsel_same(&e, &r));
	T_EQ(evsel_parse("extu/event=0x35,umask=0x01/", ext, &r, err, sizeof(err)), UNC_OK);
	T_ASSERT(!evsel_same(&e, &r));
	REFUSED(ext, UNC_E_INVALID, "extu/event=1,umask=0x100000/",
		"bad value '0x100000' for 'umask' in 'extu/event=1,umask=0x100000/' (at most 0xfffff: the event select's field)");
}

/* The Alder Lake IMC's programmable counters: the umask field is the
 * channel mask, named chmask (Linux's format: chmask 11:8), no threshold
 * or invert; Intel's events carry no mask. */
static void imc_prog_chmask(void)
{
	const struct pmu_driver *const *adl = (const struct pmu_driver *[]){ &pmu_driver_adl, NULL };

	T_EQ(evsel_parse("imc_prog/event=0x23,chmask=0x3/", adl, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), 0x323);
	T_EQ(evsel_parse("imc_prog/event=0x22,chmask=0xf,edge/", adl, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), 0x40F22);
	T_EQ(evsel_parse("UNC_M_CAS_COUNT_RD", adl, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), 0x22);
	REFUSED(adl, UNC_E_INVALID, "imc_prog/event=0x22,chmask=0x10/",
		"bad value '0x10' for 'chmask' in 'imc_prog/event=0x22,chmask=0x10/' (at most 0xf: uncore_snb.c "
		"ADL_UNC_IMC_EVENT_MASK)");
	REFUSED(adl, UNC_E_INVALID, "imc_prog/event=0x22,umask=1/",
		"unknown term 'umask' in 'imc_prog/event=0x22,umask=1/' (event, chmask, thresh, inv, edge)");
	REFUSED(adl, UNC_E_INVALID, "imc_prog/event=0x22,thresh=1/",
		"term 'thresh' in 'imc_prog/event=0x22,thresh=1/': the imc_prog PMU's event select has no such field");
}

/* The ARB's constraints hold for raw events: 0x80 and 0x83 on counter 0
 * only, other codes on both counters; the CBo has none. */
static void arb_constraints(void)
{
	const struct pmu_unit *arb = &pmu_driver_skl.units[SKL_UNIT_ARB];
	const struct pmu_unit *cbo = &pmu_driver_skl.units[SKL_UNIT_CBO];

	T_EQ(PARSE("arb/event=0x80/"), UNC_OK);
	T_EQ(e.counters, 0x1);
	T_EQ(PARSE("arb/event=0x83/"), UNC_OK);
	T_EQ(e.counters, 0x1);
	T_EQ(PARSE("arb/event=0x81/"), UNC_OK);
	T_EQ(e.counters, 0x3);
	T_EQ(evsel_raw_counters(arb, 0x80), 0x1);
	T_EQ(evsel_raw_counters(arb, 0x83), 0x1);
	T_EQ(evsel_raw_counters(arb, 0x81), 0x3);
	T_EQ(evsel_raw_counters(cbo, 0x80), 0x3);
	T_EQ(evsel_raw_counters(cbo, 0x83), 0x3);
}

/* Every field of the view of `event` counted in nboxes boxes. */
#define VIEW_IS(event, nboxes, ...) view_is(__LINE__, event, nboxes, &(const struct count_view){ __VA_ARGS__ })
#define VIEW_STR(f)                                                                                            \
	do {                                                                                                   \
		if (strcmp(v.f, want->f))                                                                      \
			t_fail(__FILE__, line, "%s: view." #f " is \"%s\", want \"%s\"", event, v.f, want->f);  \
	} while (0)
#define VIEW_NUM(f)                                                                                            \
	do {                                                                                                   \
		if (v.f != want->f)                                                                            \
			t_fail(__FILE__, line, "%s: view." #f " is 0x%llx, want 0x%llx", event,                \
			       (unsigned long long)v.f, (unsigned long long)want->f);                          \
	} while (0)

static void view_is(int line, const char *event, unsigned nboxes, const struct count_view *want)
{
	struct count_view v;

	if (PARSE(event) != UNC_OK) {
		t_fail(__FILE__, line, "%s: %s", event, err);
		return;
	}
	evsel_view(&e, nboxes, &v);
	VIEW_STR(driver);
	VIEW_STR(pmu);
	VIEW_STR(box_label);
	VIEW_STR(box_noun);
	VIEW_STR(short_name);
	VIEW_STR(count_word);
	VIEW_STR(enc_prefix);
	VIEW_NUM(encoding);
	VIEW_NUM(kind);
	VIEW_NUM(nboxes);
	VIEW_NUM(width);
	VIEW_NUM(role);
	VIEW_NUM(clock);
}

#define SKL .driver = "skl-client-uncore"

/* What reports and records show of an event. */
static void views(void)
{
	VIEW_IS("UNC_CBO_CACHE_LOOKUP.ANY_MESI", 4, SKL, .pmu = "cbox", .box_label = "cbo", .box_noun = "CBo",
		.count_word = "events", .encoding = 0x408f34, .kind = PMU_GENERAL, .nboxes = 4, .width = 44);
	/* a threshold without edge counts cycles; with edge, events */
	VIEW_IS("cbox/event=0x22,thresh=1/", 4, SKL, .pmu = "cbox", .box_label = "cbo", .box_noun = "CBo",
		.count_word = "cycles", .encoding = 0x01400022, .kind = PMU_GENERAL, .nboxes = 4, .width = 44);
	VIEW_IS("cbox/event=0x22,thresh=1,edge/", 4, SKL, .pmu = "cbox", .box_label = "cbo", .box_noun = "CBo",
		.count_word = "events", .encoding = 0x01440022, .kind = PMU_GENERAL, .nboxes = 4, .width = 44);
	/* the ARB: one box, no per-box rows */
	VIEW_IS("UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", 1, SKL, .pmu = "arb", .count_word = "cycles",
		.encoding = 0x01400180, .kind = PMU_GENERAL, .nboxes = 1, .width = 44);
	VIEW_IS("UNC_CLOCK.SOCKET", 1, SKL, .pmu = "clock", .count_word = "cycles", .encoding = 1ull << 22,
		.kind = PMU_FIXED, .nboxes = 1, .width = 48, .clock = true);
	/* free-running: one counter whatever the CBo count, at MCHBAR + offset */
	VIEW_IS("imc/data_reads/", 4, SKL, .pmu = "imc", .count_word = "lines", .enc_prefix = "MCHBAR+",
		.encoding = 0x5050, .kind = PMU_FREE, .nboxes = 1, .width = 32, .role = PMU_ROLE_DRAM_READ);
	VIEW_IS("DRAM_DATA_WRITES", 1, SKL, .pmu = "imc", .count_word = "lines", .enc_prefix = "MCHBAR+",
		.encoding = 0x5054, .kind = PMU_FREE, .nboxes = 1, .width = 32, .role = PMU_ROLE_DRAM_WRITE);
	VIEW_IS("imc/gt_requests/", 1, SKL, .pmu = "imc", .short_name = "GT", .count_word = "requests",
		.enc_prefix = "MCHBAR+", .encoding = 0x5040, .kind = PMU_FREE, .nboxes = 1, .width = 32);

	/* A free-running counter's spec: Table 3-3's name, no table entry, no counter. */
	T_EQ(PARSE("imc/data_reads/"), UNC_OK);
	T_STREQ(e.name, "DRAM_DATA_READS");
	T_ASSERT(!e.desc);
	T_ASSERT(e.drv == &pmu_driver_skl);
	T_EQ(e.unit, SKL_UNIT_IMC);
	T_EQ(e.counters, 0);
}

/* Every event of every driver's table is one of its units', fits that
 * unit's event select and counters, and resolves by its name; an event on
 * the FIXED counter is a fixed unit's, and a fixed unit has no other. (The
 * generator checked this for the one table before drivers existed.) */
static void every_table_event_is_its_drivers(void)
{
	unsigned general = 0, fixed = 0;

	for (unsigned d = 0; pmu_drivers[d]; d++) {
		const struct pmu_driver *drv = pmu_drivers[d];
		for (unsigned i = 0; i < *drv->nevents; i++) {
			const struct event_desc *ev = &drv->events[i];
			int u = pmu_unit_of_event(drv, ev);
			if (u < 0) {
				t_fail(__FILE__, __LINE__, "%s: event %s has Unit %s, not one of its units", drv->name,
				       ev->name, ev->unit);
				continue;
			}
			const struct pmu_unit *pu = &drv->units[u];
			T_EQ((ev->counters & EV_COUNTER_FIXED) != 0, pu->kind == PMU_FIXED); /* FIXED, or Fixed counter N */
			T_ASSERT(pu->kind != PMU_FREE); /* free-running counters are not in the table */
			if (pu->kind == PMU_GENERAL) {
				general++;
				/* Intel's numbering: the unit's counter 0 is its first_counter */
				T_ASSERT(ev->counters && !(ev->counters & ~(pmu_width_mask(pu->counters) << pu->first_counter)));
				T_EQ(ev->code & ~pmu_width_mask(pu->layout->event.bits), 0);
				T_EQ(ev->umask & ~pmu_width_mask(pu->layout->umask.bits), 0);
				T_EQ(ev->cmask & ~pmu_width_mask(pu->layout->thresh.bits), 0);
				/* a UMaskExt only where the layout has its field */
				T_EQ(ev->umask_ext & ~pmu_width_mask(pu->layout->umask_ext.bits), 0);
				T_ASSERT(!ev->inv || pu->layout->inv);
				T_ASSERT(!ev->edge || pu->layout->edge);
			} else {
				fixed++;
				T_EQ(ev->umask_ext, 0);
			}
			const struct pmu_driver *const one[] = { drv, NULL };
			T_EQ(evsel_parse(ev->name, one, &e, err, sizeof(err)), UNC_OK);
			T_ASSERT(e.desc == ev && e.drv == drv);
			T_EQ(e.unit, u);
		}
	}
	T_ASSERT(general > 0 && fixed > 0); /* both kinds were seen */
}

struct collect {
	char got[8][80];
	int n;
};

static enum unc_status take(void *ctx, const char *piece)
{
	struct collect *c = ctx;

	strcpy(c->got[c->n++], piece);
	return UNC_OK;
}

static void splitting_lists(void)
{
	struct collect c = { .n = 0 };

	T_EQ(evsel_split("UNC_CLOCK.SOCKET,cbo/event=0x34,umask=0x8f/,arb/event=0x80,thresh=1/,X", take, &c, err,
			 sizeof(err)),
	     UNC_OK);
	T_EQ(c.n, 4);
	T_STREQ(c.got[0], "UNC_CLOCK.SOCKET");
	T_STREQ(c.got[1], "cbo/event=0x34,umask=0x8f/");
	T_STREQ(c.got[2], "arb/event=0x80,thresh=1/");
	T_STREQ(c.got[3], "X");
	c.n = 0;
	T_EQ(evsel_split("A,,B", take, &c, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "empty event in list 'A,,B'");
	T_EQ(evsel_split(",A", take, &c, err, sizeof(err)), UNC_E_INVALID);
	T_EQ(evsel_split("A,", take, &c, err, sizeof(err)), UNC_E_INVALID);
}

/* Every generated table's name index: a hash table at most half full whose
 * slots hold each of its rows once, each row reached from its name's home
 * slot (str_ihash, any case) without an empty slot between; evsel_find
 * finds each event by its name in any case, and nothing else. */
static void name_index_finds_every_event(void)
{
	unsigned tables = 0;

	for (const struct pmu_event_index *x = pmu_event_index; x->events; x++, tables++) {
		const struct pmu_driver *drv = NULL;
		for (unsigned d = 0; pmu_drivers[d]; d++)
			if (pmu_drivers[d]->events == x->events)
				drv = pmu_drivers[d];
		T_ASSERT(drv);
		if (!drv)
			continue;
		unsigned n = *drv->nevents;
		static bool seen[4096];
		T_ASSERT(n <= 4096);
		memset(seen, 0, sizeof(seen));
		unsigned mask = x->by_hash[0], used = 0;
		T_ASSERT(!(mask & (mask + 1)) && mask + 1 >= 2 * n); /* a power of two, at most half full */
		for (unsigned k = 0; k <= mask; k++) {
			unsigned row = x->by_hash[1 + k];
			if (!row)
				continue;
			T_ASSERT(row <= n && !seen[row - 1]);
			if (row > n || seen[row - 1])
				continue;
			seen[row - 1] = true;
			used++;
			/* from its home slot to here: no empty slot */
			for (unsigned j = str_ihash(STR_IHASH_INIT, drv->events[row - 1].name) & mask; j != k; j = (j + 1) & mask)
				T_ASSERT(x->by_hash[1 + j]);
		}
		T_EQ(used, n);
		for (unsigned i = 0; i < n; i++) {
			char lower[EVSEL_NAME_MAX], after[EVSEL_NAME_MAX + 1];
			const char *name = drv->events[i].name;
			size_t k = 0;
			for (; name[k] && k + 1 < sizeof(lower); k++)
				lower[k] = (char)(name[k] >= 'A' && name[k] <= 'Z' ? name[k] + 32 : name[k]);
			lower[k] = '\0';
			T_ASSERT(evsel_find(drv, name) == &drv->events[i]);
			T_ASSERT(evsel_find(drv, lower) == &drv->events[i]);
			snprintf(after, sizeof(after), "%s_", name); /* found only if the table has it */
			const struct event_desc *d = evsel_find(drv, after);
			T_ASSERT(!d || str_ieq(d->name, after));
		}
		T_ASSERT(!evsel_find(drv, ""));
		T_ASSERT(!evsel_find(drv, "~"));
	}
	T_ASSERT(tables >= 5);
}

/* With every driver present, a short name gives the event its full name
 * gives: CLOCKTICKS is the E5-2600 imc unit's short name for
 * UNC_M_CLOCKTICKS, which Sapphire Rapids' table (the discovery driver,
 * earlier in the list) has too. */
static void short_name_is_its_full_names_event(void)
{
	struct ev_spec full;

	T_EQ(evsel_parse("CLOCKTICKS", pmu_drivers, &e, err, sizeof(err)), UNC_OK);
	T_STREQ(e.name, "UNC_M_CLOCKTICKS");
	T_EQ(evsel_parse("UNC_M_CLOCKTICKS", pmu_drivers, &full, err, sizeof(err)), UNC_OK);
	T_ASSERT(evsel_same(&e, &full));
}

T_MAIN("evsel", T_CASE(named_events), T_CASE(short_name_is_its_full_names_event), T_CASE(raw_events), T_CASE(bad_events_name_the_problem),
       T_CASE(events_of_an_absent_pmu_are_refused), T_CASE(cbox_and_cbo_are_one_pmu),
       T_CASE(unitless_events_by_their_counter), T_CASE(raw_field_widths_are_the_units), T_CASE(imc_prog_chmask), T_CASE(arb_constraints), T_CASE(views),
       T_CASE(every_table_event_is_its_drivers), T_CASE(splitting_lists),
       T_CASE(name_index_finds_every_event))
