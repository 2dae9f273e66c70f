/* Conformance with the manual (Intel 334060-001), independently of every
 * table under test: Tables 3-1 and 3-2 (name, event code, umask, valid
 * counters) and Table 3-3 (name, offset from MCHBAR), typed below from the
 * manual's text. Both the application's tables (the Skylake-client
 * driver's: its events generated from events/skl.json, its IMC counters
 * in drivers/pmu/skl.c) and the emulator's own (tests/emu/pmu_skl.c) must
 * hold exactly these rows. Each table names units its own way: the
 * driver's events by Intel's Unit string, the emulator by its enum
 * emu_unit; the manual's unit of each row is mapped to both below. */
#include <stdio.h>
#include <string.h>

#include "../../drivers/engine/events.h"
#include "../../drivers/base/parse.h"
#include "../../drivers/pmu/skl.h"
#include "../emu/model.h"
#include "t.h"

/* The manual's units: Table 3-1 is the CBo's, Table 3-2 the ARB's and
 * (UNC_CLOCK.SOCKET) the fixed counter's. */
enum manual_unit { M_CBO, M_ARB, M_FIXED };

static const struct {
	const char *intel_unit; /* the Unit string of Intel's perfmon files (events/skl.json) */
	const char *driver_unit; /* the driver's unit of that name (struct pmu_unit.name) */
	unsigned emu_unit;       /* the emulator's enum emu_unit */
} unit_map[] = {
	[M_CBO] = { "CBO", "CBO", EMU_UNIT_CBO },
	[M_ARB] = { "ARB", "ARB", EMU_UNIT_ARB },
	[M_FIXED] = { "NCU", "FIXED", EMU_UNIT_FIXED },
};

struct manual_event {
	const char *name;
	unsigned code, umask;
	const char *counters; /* the "Valid Counters" column as printed */
	enum manual_unit unit;
};

/* Table 3-1. CBo events (both sheets). */
static const struct manual_event table_3_1[] = {
	{ "UNC_CBO_XSNP_RESPONSE.MISS_XCORE", 0x22, 0x41, "0, 1", M_CBO },
	{ "UNC_CBO_XSNP_RESPONSE.MISS_EVICTION", 0x22, 0x81, "0, 1", M_CBO },
	{ "UNC_CBO_XSNP_RESPONSE.HIT_XCORE", 0x22, 0x44, "0, 1", M_CBO },
	{ "UNC_CBO_XSNP_RESPONSE.HITM_XCORE", 0x22, 0x48, "0, 1", M_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_M", 0x34, 0x21, "0, 1", M_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_M", 0x34, 0x81, "0, 1", M_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.READ_I", 0x34, 0x18, "0, 1", M_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_I", 0x34, 0x88, "0, 1", M_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.READ_MESI", 0x34, 0x1F, "0, 1", M_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_MESI", 0x34, 0x2F, "0, 1", M_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_MESI", 0x34, 0x8F, "0, 1", M_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_ES", 0x34, 0x86, "0, 1", M_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.READ_ES", 0x34, 0x16, "0, 1", M_CBO },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_ES", 0x34, 0x26, "0, 1", M_CBO },
};

/* Table 3-2. ARB events, and the fixed counter's UNC_CLOCK.SOCKET. (The
 * English text splits CYCLES_WITH_A NY_REQUEST across a line.) */
static const struct manual_event table_3_2[] = {
	{ "UNC_ARB_TRK_OCCUPANCY.ALL", 0x80, 0x01, "0", M_ARB },
	{ "UNC_ARB_TRK_REQUESTS.ALL", 0x81, 0x01, "0, 1", M_ARB },
	{ "UNC_ARB_TRK_REQUESTS.WRITES", 0x81, 0x20, "0, 1", M_ARB },
	{ "UNC_ARB_COH_TRK_REQUESTS.ALL", 0x84, 0x01, "0, 1", M_ARB },
	{ "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", 0x80, 0x01, "0", M_ARB },
	{ "UNC_CLOCK.SOCKET", 0x00, 0x01, "Fixed", M_FIXED },
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

/* A table's row for manual row m (found: whether it has one by that name);
 * unit and want_unit: its unit and the manual's, each in the table's own
 * terms. */
static void check_row(const char *table, const struct manual_event *m, bool found, const char *unit,
		      const char *want_unit, unsigned code, unsigned umask, unsigned counters)
{
	if (!found)
		t_fail(__FILE__, __LINE__, "%s lacks %s", table, m->name);
	else if (strcmp(unit, want_unit) || code != m->code || umask != m->umask || counters != counter_mask(m->counters))
		t_fail(__FILE__, __LINE__,
		       "%s: %s is unit %s event 0x%02x umask 0x%02x counters 0x%x; the manual: unit %s event 0x%02x umask "
		       "0x%02x counters \"%s\"",
		       table, m->name, unit, code, umask, counters, want_unit, m->code, m->umask, m->counters);
}

static const struct event_desc *skl_events(void)
{
	return pmu_driver_skl.events;
}

static unsigned skl_nevents(void)
{
	return *pmu_driver_skl.nevents;
}

static void in_generated_table(const struct manual_event *m)
{
	char unit[64], want[64];

	for (unsigned i = 0; i < skl_nevents(); i++) {
		const struct event_desc *d = &skl_events()[i];
		if (!strcmp(d->name, m->name)) {
			/* Intel's Unit string, and the driver's unit it names */
			int u = pmu_unit_of_event(&pmu_driver_skl, d);
			snprintf(unit, sizeof(unit), "%s (the driver's %s)", d->unit,
				 u >= 0 ? pmu_driver_skl.units[u].name : "none");
			snprintf(want, sizeof(want), "%s (the driver's %s)", unit_map[m->unit].intel_unit,
				 unit_map[m->unit].driver_unit);
			check_row("events/skl.json", m, true, unit, want, d->code, d->umask, d->counters);
			return;
		}
	}
	check_row("events/skl.json", m, false, "", "", 0, 0, 0);
}

static void in_emulator_table(const struct manual_event *m)
{
	char unit[16], want[16];

	for (unsigned i = 0; i < EMU_NEVENTS; i++) {
		const struct emu_event *e = &emu_events[i];
		if (!strcmp(e->name, m->name)) {
			snprintf(unit, sizeof(unit), "%u", e->unit);
			snprintf(want, sizeof(want), "%u", unit_map[m->unit].emu_unit);
			check_row("the emulator's table", m, true, unit, want, e->code, e->umask, e->counters);
			return;
		}
	}
	check_row("the emulator's table", m, false, "", "", 0, 0, 0);
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
	T_EQ(skl_nevents(), N(table_3_1) + N(table_3_2));
	for (unsigned i = 0; i < skl_nevents(); i++)
		if (!in_manual(skl_events()[i].name))
			t_fail(__FILE__, __LINE__, "events/skl.json has %s, which the manual does not list",
			       skl_events()[i].name);
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

/* Table 3-3: both tables in the manual's order, with its offsets; the
 * driver's IMC unit counts on exactly these. */
static void imc_offsets(void)
{
	const struct pmu_unit *imc = &pmu_driver_skl.units[SKL_UNIT_IMC];

	T_EQ(SKL_IMC_COUNTERS, N(table_3_3));
	T_EQ(EMU_IMC_COUNTERS, N(table_3_3));
	T_EQ(imc->kind, PMU_FREE);
	T_EQ(imc->counters, N(table_3_3));
	T_ASSERT(imc->free == skl_imc);
	for (unsigned i = 0; i < N(table_3_3); i++) {
		if (strcmp(skl_imc[i].name, table_3_3[i].name) || skl_imc[i].offset != table_3_3[i].offset)
			t_fail(__FILE__, __LINE__, "drivers/pmu/skl.c: IMC counter %u is %s at +0x%x; the manual: %s at +0x%x",
			       i, skl_imc[i].name, skl_imc[i].offset, table_3_3[i].name, table_3_3[i].offset);
		if (strcmp(emu_imc[i].name, table_3_3[i].name) || emu_imc[i].offset != table_3_3[i].offset)
			t_fail(__FILE__, __LINE__, "the emulator: IMC counter %u is %s at +0x%x; the manual: %s at +0x%x", i,
			       emu_imc[i].name, emu_imc[i].offset, table_3_3[i].name, table_3_3[i].offset);
	}
}

T_MAIN("conformance", T_CASE(generated_event_table), T_CASE(emulator_event_table), T_CASE(imc_offsets))
