#include <string.h>

#include "../../drivers/evsel.h"
#include "../../drivers/pmu/skl.h"
#include "t.h"

static struct ev_spec e;
static char err[200];

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
	/* Every driver the build has, as `pmu_drivers` (what efi/app.c passes
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

T_MAIN("evsel", T_CASE(named_events), T_CASE(raw_events), T_CASE(bad_events_name_the_problem), T_CASE(splitting_lists))
