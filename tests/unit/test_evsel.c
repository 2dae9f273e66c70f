#include <string.h>

#include "../../drivers/evsel.h"
#include "t.h"

static struct ev_spec e;
static char err[200];

static void named_events(void)
{
	T_EQ(evsel_parse("UNC_CBO_CACHE_LOOKUP.ANY_MESI", &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.unit, EV_UNIT_CBO);
	T_EQ(e.code, 0x34);
	T_EQ(e.umask, 0x8f);
	T_EQ(e.counters, 3);
	T_EQ(evsel_encode(&e), 0x408f34);
	T_EQ(evsel_parse("unc_cbo_cache_lookup.any_mesi", &e, err, sizeof(err)), UNC_OK);
	T_STREQ(e.name, "UNC_CBO_CACHE_LOOKUP.ANY_MESI"); /* the manual's spelling */
	T_EQ(evsel_parse("UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.thr, 1);
	T_EQ(e.counters, 1);
	T_EQ(evsel_encode(&e), 0x01400180);
	T_EQ(evsel_parse("UNC_CLOCK.SOCKET", &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.unit, EV_UNIT_FIXED);
	T_EQ(evsel_encode(&e), 1ull << 22);
}

static void raw_events(void)
{
	T_EQ(evsel_parse("cbo/event=0x34,umask=0x8f/", &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), 0x408f34);
	T_STREQ(e.name, "cbo/event=0x34,umask=0x8f/");
	T_ASSERT(!e.desc);
	T_EQ(evsel_parse("arb/event=0x80,umask=0x01,thresh=1,inv,edge/", &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), (1ull << 24) | (1ull << 23) | (1ull << 22) | (1ull << 18) | 0x0180);
	T_EQ(e.counters, 1); /* occupancy: counter 0 only */
	/* 0x83 too (Linux snb_uncore_arb_constraints), with any umask */
	T_EQ(evsel_parse("arb/event=0x83,umask=0x02/", &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.counters, 1);
	T_EQ(evsel_parse("cbo/event=0x83/", &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.counters, 3); /* a CBo event 0x83 is not the ARB's */
	T_EQ(evsel_parse("ARB/event=129,umask=32/", &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.code, 0x81);
	T_EQ(e.umask, 0x20);
	T_EQ(e.counters, 3);
	T_EQ(evsel_parse("cbox/event=0x22,cmask=31,edge=0,inv=1/", &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.thr, 31);
	T_ASSERT(!e.edge && e.inv);
	T_EQ(evsel_parse("cbo/event=0x22/", &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.umask, 0);
}

#define BAD(s, msg)                                                     \
	do {                                                            \
		err[0] = '\0';                                          \
		T_EQ(evsel_parse(s, &e, err, sizeof(err)), UNC_E_INVALID); \
		T_CONTAINS(err, msg);                                   \
	} while (0)

static void bad_events_name_the_problem(void)
{
	BAD("UNC_CBO_NOPE", "unknown event 'UNC_CBO_NOPE' (see 'uncore.efi list')");
	BAD("", "empty event name");
	BAD("imc/event=1/", "unknown PMU 'imc' in 'imc/event=1/' (want cbo, arb, or imc/NAME/ for an IMC counter)");
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
