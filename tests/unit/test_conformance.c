/* Conformance with the manual (Intel 334060-001), independently of every
 * table under test: Tables 3-1 and 3-2 (name, event code, umask, valid
 * counters) and Table 3-3 (name, offset from MCHBAR), typed below from the
 * manual's text. Both the application's tables (generated from
 * events/skl.json; drivers/skl.c) and the emulator's own
 * (tests/emu/model.c) must hold exactly these rows. */
#include <string.h>

#include "../../drivers/events.h"
#include "../../drivers/parse.h"
#include "../../drivers/skl.h"
#include "../emu/model.h"
#include "t.h"

struct manual_event {
	const char *name;
	unsigned code, umask;
	const char *counters; /* the "Valid Counters" column as printed */
	enum event_unit unit;
};

/* Table 3-1. CBo events (both sheets). */
static const struct manual_event table_3_1[] = {
	{ "UNC_CBO_XSNP_RESPONSE.MISS_XCORE", 0x22, 0x41, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_XSNP_RESPONSE.MISS_EVICTION", 0x22, 0x81, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_XSNP_RESPONSE.HIT_XCORE", 0x22, 0x44, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_XSNP_RESPONSE.HITM_XCORE", 0x22, 0x48, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_M", 0x34, 0x21, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_M", 0x34, 0x81, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.READ_I", 0x34, 0x18, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_I", 0x34, 0x88, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.READ_MESI", 0x34, 0x1F, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_MESI", 0x34, 0x2F, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_MESI", 0x34, 0x8F, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_ES", 0x34, 0x86, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.READ_ES", 0x34, 0x16, "0, 1", EV_UNIT_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_ES", 0x34, 0x26, "0, 1", EV_UNIT_CBO },
};

/* Table 3-2. ARB events, and the fixed counter's UNC_CLOCK.SOCKET. (The
 * English text splits CYCLES_WITH_A NY_REQUEST across a line.) */
static const struct manual_event table_3_2[] = {
	{ "UNC_ARB_TRK_OCCUPANCY.ALL", 0x80, 0x01, "0", EV_UNIT_ARB },
	{ "UNC_ARB_TRK_REQUESTS.ALL", 0x81, 0x01, "0, 1", EV_UNIT_ARB },
	{ "UNC_ARB_TRK_REQUESTS.WRITES", 0x81, 0x20, "0, 1", EV_UNIT_ARB },
	{ "UNC_ARB_COH_TRK_REQUESTS.ALL", 0x84, 0x01, "0, 1", EV_UNIT_ARB },
	{ "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", 0x80, 0x01, "0", EV_UNIT_ARB },
	{ "UNC_CLOCK.SOCKET", 0x00, 0x01, "Fixed", EV_UNIT_FIXED },
};

/* Table 3-3. IMC counters at BAR + offset. */
static const struct {
	const char *name;
	uint32_t offset;
} table_3_3[] = {
	{ "DRAM_GT_REQUESTS", 0x5040 }, { "DRAM_IA_REQUESTS", 0x5044 }, { "DRAM_IO_REQUESTS", 0x5048 },
	{ "DRAM_DATA_READS", 0x5050 },	{ "DRAM_DATA_WRITES", 0x5054 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* "0, 1" -> bits 0 and 1; "Fixed" -> the fixed counter (0x80 in both tables). */
static unsigned counter_mask(const char *s)
{
	if (!strcmp(s, "Fixed"))
		return 0x80;
	unsigned m = 0;
	for (; *s; s++)
		if (*s >= '0' && *s <= '9')
			m |= 1u << (*s - '0');
	return m;
}

/* Every manual row, in either table; calls check for each. */
static void each_manual_event(void (*check)(const struct manual_event *m))
{
	for (unsigned i = 0; i < N(table_3_1); i++)
		check(&table_3_1[i]);
	for (unsigned i = 0; i < N(table_3_2); i++)
		check(&table_3_2[i]);
}

/* A table's row for manual row m (found: whether it has one by that name). */
static void check_row(const char *table, const struct manual_event *m, bool found, unsigned unit, unsigned code,
		      unsigned umask, unsigned counters)
{
	if (!found)
		t_fail(__FILE__, __LINE__, "%s lacks %s", table, m->name);
	else if (unit != m->unit || code != m->code || umask != m->umask || counters != counter_mask(m->counters))
		t_fail(__FILE__, __LINE__,
		       "%s: %s is unit %u event 0x%02x umask 0x%02x counters 0x%x; the manual: unit %u event 0x%02x umask "
		       "0x%02x counters \"%s\"",
		       table, m->name, unit, code, umask, counters, m->unit, m->code, m->umask, m->counters);
}

static void in_generated_table(const struct manual_event *m)
{
	for (unsigned i = 0; i < skl_events_count; i++) {
		const struct event_desc *d = &skl_events[i];
		if (!strcmp(d->name, m->name)) {
			check_row("events/skl.json", m, true, d->unit, d->code, d->umask, d->counters);
			return;
		}
	}
	check_row("events/skl.json", m, false, 0, 0, 0, 0);
}

static void in_emulator_table(const struct manual_event *m)
{
	for (unsigned i = 0; i < EMU_NEVENTS; i++) {
		const struct emu_event *e = &emu_events[i];
		if (!strcmp(e->name, m->name)) {
			check_row("the emulator's table", m, true, e->unit, e->code, e->umask, e->counters);
			return;
		}
	}
	check_row("the emulator's table", m, false, 0, 0, 0, 0);
}

/* No row beyond the manual's: a table's row count equals the manual's, and
 * (above) each manual row is there once by name. */
static bool in_manual(const char *name)
{
	for (unsigned i = 0; i < N(table_3_1); i++)
		if (!strcmp(table_3_1[i].name, name))
			return true;
	for (unsigned i = 0; i < N(table_3_2); i++)
		if (!strcmp(table_3_2[i].name, name))
			return true;
	return false;
}

static void generated_event_table(void)
{
	T_EQ(N(table_3_1), 14);
	T_EQ(N(table_3_2), 6);
	T_EQ(skl_events_count, N(table_3_1) + N(table_3_2));
	for (unsigned i = 0; i < skl_events_count; i++)
		if (!in_manual(skl_events[i].name))
			t_fail(__FILE__, __LINE__, "events/skl.json has %s, which the manual does not list",
			       skl_events[i].name);
	each_manual_event(in_generated_table);
}

static void emulator_event_table(void)
{
	T_EQ(EMU_NEVENTS, N(table_3_1) + N(table_3_2));
	for (unsigned i = 0; i < EMU_NEVENTS; i++)
		if (!in_manual(emu_events[i].name))
			t_fail(__FILE__, __LINE__, "the emulator has %s, which the manual does not list", emu_events[i].name);
	each_manual_event(in_emulator_table);
}

/* Table 3-3: both tables in the manual's order, with its offsets. */
static void imc_offsets(void)
{
	T_EQ(SKL_IMC_COUNTERS, N(table_3_3));
	T_EQ(EMU_IMC_COUNTERS, N(table_3_3));
	for (unsigned i = 0; i < N(table_3_3); i++) {
		if (strcmp(skl_imc[i].name, table_3_3[i].name) || skl_imc[i].offset != table_3_3[i].offset)
			t_fail(__FILE__, __LINE__, "drivers/skl.c: IMC counter %u is %s at +0x%x; the manual: %s at +0x%x", i,
			       skl_imc[i].name, skl_imc[i].offset, table_3_3[i].name, table_3_3[i].offset);
		if (strcmp(emu_imc[i].name, table_3_3[i].name) || emu_imc[i].offset != table_3_3[i].offset)
			t_fail(__FILE__, __LINE__, "the emulator: IMC counter %u is %s at +0x%x; the manual: %s at +0x%x", i,
			       emu_imc[i].name, emu_imc[i].offset, table_3_3[i].name, table_3_3[i].offset);
	}
}

T_MAIN("conformance", T_CASE(generated_event_table), T_CASE(emulator_event_table), T_CASE(imc_offsets))
