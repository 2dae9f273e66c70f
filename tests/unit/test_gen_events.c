/* tools/gen_events: good input makes the table; bad input gets one
 * "FILE:LINE: reason" line, a non-zero exit and no output file. Intel's
 * perfmon files are accepted as published: the test writes its own files in
 * their layout (one of 5,000 events among them), and also feeds Intel's
 * Skylake uncore and core files and Jaketown uncore file when they have
 * been placed in ../shared/perfmon (they are not kept in this repository). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "t.h"

#define GEN "build/host/gen_events"

static char msg[1024];
static char dir[] = "/tmp/gen_events_test.XXXXXX";

/* Writes json to a file, runs the generator with opts before its
 * arguments; returns its exit status. */
static int run_with(const char *opts, const char *json)
{
	char in[256], out[256], cmd[1024];
	FILE *f;

	snprintf(in, sizeof(in), "%s/in.json", dir);
	snprintf(out, sizeof(out), "%s/out.c", dir);
	unlink(out);
	f = fopen(in, "w");
	fputs(json, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s %s ev %s %s 2>%s/err", GEN, opts, in, out, dir);
	int st = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/err", dir);
	f = fopen(cmd, "r");
	size_t n = fread(msg, 1, sizeof(msg) - 1, f);
	msg[n] = '\0';
	fclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run(const char *json)
{
	return run_with("", json);
}

static bool output_exists(void)
{
	char out[256];

	snprintf(out, sizeof(out), "%s/out.c", dir);
	return access(out, F_OK) == 0;
}

#define EV(fields) "[\n  {\n" fields "\n  }\n]\n"
#define OK_FIELDS                                                                              \
	"    \"Unit\": \"ARB\", \"EventCode\": \"0x81\", \"UMask\": \"0x01\",\n"                   \
	"    \"EventName\": \"UNC_ARB_TRK_REQUESTS.ALL\", \"BriefDescription\": \"All.\",\n"      \
	"    \"Counter\": \"0,1\""

static void good_input(void)
{
	T_EQ(run(EV(OK_FIELDS)), 0);
	T_STREQ(msg, "");
	T_ASSERT(output_exists());
}

#define BAD(json, want)                          \
	do {                                     \
		T_EQ(run(json), 1);              \
		T_CONTAINS(msg, want);           \
		T_EQ(strchr(msg, '\n'), msg + strlen(msg) - 1); \
		T_ASSERT(!output_exists());      \
	} while (0)

static void malformed_json_names_file_and_line(void)
{
	BAD("", "in.json:1: unexpected end of file; expected '['");
	BAD("[\n", "in.json:2: unexpected end of file; expected '{'");
	BAD("[]", "in.json:1: the list of events is empty");
	BAD("[\n {\n \"Unit\" \"ARB\" }\n]", "in.json:3: expected ':' after a field name, found '\"'");
	BAD("[\n {\n \"Unit\": 5 }\n]", "in.json:3: field 'Unit': the value must be a string");
	BAD("[\n {\n \"Unit\": \"AR\nB\" }\n]", "in.json:3: control character inside a string");
	BAD("[\n {\n \"Unit\": \"ARB\" \n }\n\n,]", "in.json:6: expected '{' to start an event object, found ']'");
	BAD(EV(OK_FIELDS) "x", "in.json:8: unexpected text after the list of events");
	BAD("[\n {\n \"Unit\": \"A\\qB\" }\n]", "in.json:3: unknown escape '\\q'");
}

static void bad_fields_name_file_and_line(void)
{
	BAD(EV(OK_FIELDS ",\n    \"Umask\": \"0x02\""), "in.json:6: field 'Umask' is not used; did you mean 'UMask'?");
	BAD(EV(OK_FIELDS ",\n    \"Unit\": \"ARB\""), "in.json:6: field 'Unit' appears twice");
	BAD(EV("    \"Unit\": \"ARB\", \"EventCode\": \"0x81\",\n    \"EventName\": \"X\", \"Counter\": \"0\""),
	    "in.json:2: event is missing the required field 'BriefDescription'");
	BAD(EV(OK_FIELDS ",\n    \"CounterMask\": \"256\""),
	    "in.json:6: field 'CounterMask' is \"256\"; want a number from 0 to 255");
	BAD(EV(OK_FIELDS ",\n    \"Invert\": \"2\""), "field 'Invert' is \"2\"; want a number from 0 to 1");
	BAD(EV("    \"Unit\": \"ARB\", \"EventCode\": \"0x100\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"0\""),
	    "in.json:3: field 'EventCode' is \"0x100\"; want a number from 0 to 255");
	BAD(EV("    \"Unit\": \"\", \"EventCode\": \"0x1\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"0\""),
	    "in.json:3: Unit is empty");
	BAD(EV("    \"Unit\": \"C-BO\", \"EventCode\": \"0x1\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"0\""),
	    "in.json:3: Unit \"C-BO\" has a character other than letters, digits, '_' and ' '");
	BAD(EV("    \"Unit\": \"ARB\", \"EventCode\": \"0x1\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"7\""),
	    "in.json:4: Counter \"7\": want FIXED or a list of counters 0 to 6");
	BAD(EV("    \"Unit\": \"ARB\", \"EventCode\": \"0x1\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"0,1;2\""),
	    "in.json:4: Counter \"0,1;2\": want FIXED or a list of counters 0 to 6");
	BAD(EV("    \"Unit\": \"ARB\", \"EventCode\": \"0x1\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"0,2,0\""),
	    "in.json:4: Counter \"0,2,0\" lists counter 0 twice");
	BAD(EV("    \"Unit\": \"ARB\", \"EventCode\": \"0x1\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"\""),
	    "in.json:4: Counter is empty");
	BAD("[\n  {\n" OK_FIELDS "\n  },\n  {\n" OK_FIELDS "\n  }\n]",
	    "in.json:9: event \"UNC_ARB_TRK_REQUESTS.ALL\" is defined twice (first at line 2)");
	BAD(EV("    \"Unit\": \"ARB\", \"EventCode\": \"0x1\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"A B\", \"BriefDescription\": \"x\", \"Counter\": \"0\""),
	    "EventName \"A B\" has a character other than");
}

/* The generated row of event `name` in `file` contains `enc`
 * ("\"UNIT\", code, umask, counters, cmask, inv, edge", the Unit string as
 * given). */
static bool has_row(const char *file, const char *name, const char *enc)
{
	char line[1024], quoted[128];
	bool found = false;
	FILE *f = fopen(file, "r");

	if (!f)
		return false;
	snprintf(quoted, sizeof(quoted), "\t{ \"%s\"", name);
	while (fgets(line, sizeof(line), f))
		found |= !strncmp(line, quoted, strlen(quoted)) && strstr(line, enc);
	fclose(f);
	return found;
}

static bool out_has_row(const char *name, const char *enc)
{
	char out[256];

	snprintf(out, sizeof(out), "%s/out.c", dir);
	return has_row(out, name, enc);
}

/* A file in the layout of Intel's perfmon event files (written here, not
 * copied): the Header object, then "Events" whose entries carry Intel's
 * whole field set, all values strings, most of them unused by the
 * generator. The last event lists two event codes, as Intel's core files do
 * for the offcore-response events (one MSRIndex for each). */
#define INTEL_EVENT(unit, code, umask, name, counter, cmask, extra)                                  \
	"    {\n"                                                                                    \
	"      \"Unit\": \"" unit "\",\n"                                                             \
	"      \"EventCode\": \"" code "\",\n"                                                        \
	"      \"UMask\": \"" umask "\",\n"                                                           \
	"      \"EventName\": \"" name "\",\n"                                                        \
	"      \"BriefDescription\": \"Short text for " name ".\",\n"                                 \
	"      \"PublicDescription\": \"Longer text for " name ", which the generator does not use.\",\n" \
	"      \"Counter\": \"" counter "\",\n"                                                       \
	"      \"CounterMask\": \"" cmask "\",\n"                                                     \
	"      \"Invert\": \"0\",\n"                                                                  \
	"      \"EdgeDetect\": \"0\"" extra "\n"                                                      \
	"    }"
#define UNUSED_FIELDS                                                                               \
	",\n      \"PEBS\": \"0\", \"Deprecated\": \"0\", \"MSRIndex\": \"0x00\", \"MSRValue\": \"0x00\",\n" \
	"      \"ELLC\": \"0\", \"Filter\": \"na\", \"ExtSel\": \"0\", \"SampleAfterValue\": \"100003\",\n" \
	"      \"CounterHTOff\": \"0,1\", \"AnyThread\": \"0\", \"TakenAlone\": \"0\", \"PerPkg\": \"1\",\n" \
	"      \"Offcore\": \"0\", \"Errata\": \"null\", \"Speculative\": \"0\", \"Data_LA\": \"0\""
#define INTEL_HEADER                                                                                \
	"{\n"                                                                                        \
	"  \"Header\": {\n"                                                                          \
	"    \"Copyright\": \"Test data in the layout of Intel's perfmon event files.\",\n"           \
	"    \"Info\": \"Events of a test processor, version 1\",\n"                \
	"    \"DatePublished\": \"01/02/2026\",\n"                                                   \
	"    \"Version\": \"1\",\n"                                                                  \
	"    \"Legend\": \"\"\n"                                                                     \
	"  },\n"

static void intel_header_and_events(void)
{
	T_EQ(run(INTEL_HEADER "  \"Events\": [\n"
		 INTEL_EVENT("CBO", "0x34", "0x8f", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "0,1", "0", "") ",\n"
		 INTEL_EVENT("NCU", "0x0", "0x01", "UNC_CLOCK.SOCKET", "FIXED", "0", "") ",\n"
		 INTEL_EVENT("ARB", "0x80", "0x01", "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", "0", "1",
			     UNUSED_FIELDS) ",\n"
		 INTEL_EVENT("CBO", "0xB7, 0xBB", "0x01", "UNC_TEST.TWO_CODES", "0,1", "0",
			     ",\n      \"MSRIndex\": \"0x1a6,0x1a7\"") "\n"
		 "  ]\n"
		 "}\n"),
	     0);
	T_STREQ(msg, "");
	T_ASSERT(out_has_row("UNC_CBO_CACHE_LOOKUP.ANY_MESI", "\"CBO\", 0x34, 0x8f, 0x03, 0, 0, 0, 0 }"));
	T_ASSERT(out_has_row("UNC_CLOCK.SOCKET", "\"NCU\", 0x00, 0x01, 0x80, 0, 0, 0, 0 }"));
	T_ASSERT(out_has_row("UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", "\"ARB\", 0x80, 0x01, 0x01, 1, 0, 0, 0 }"));
	/* Several codes: the first is programmed, as Linux perf's jevents does. */
	T_ASSERT(out_has_row("UNC_TEST.TWO_CODES", "\"CBO\", 0xb7, 0x01, 0x03, 0, 0, 0, 0 }"));
}

/* Intel's FREERUN events (CounterType "FREERUN": no event select) are not
 * rows: a driver's free-running counters carry them; its PGMABLE and
 * FIXED ones are. */
static void freerun_events_are_not_rows(void)
{
	T_EQ(run(INTEL_HEADER "  \"Events\": [\n"
		 INTEL_EVENT("iMC", "0x22", "0x00", "UNC_M_CAS_COUNT_RD", "0,1,2,3,4", "0",
			     ",\n      \"CounterType\": \"PGMABLE\"") ",\n"
		 INTEL_EVENT("iMC", "0x00", "0x00", "UNC_MC0_RDCAS_COUNT_FREERUN", "0", "0",
			     ",\n      \"CounterType\": \"FREERUN\"") ",\n"
		 INTEL_EVENT("NCU", "0x00", "0x01", "UNC_CLOCK.SOCKET", "FIXED", "0",
			     ",\n      \"CounterType\": \"FIXED\"") "\n"
		 "  ]\n"
		 "}\n"),
	     0);
	T_STREQ(msg, "");
	T_ASSERT(out_has_row("UNC_M_CAS_COUNT_RD", "\"iMC\", 0x22, 0x00, 0x1f, 0, 0, 0, 0 }"));
	T_ASSERT(out_has_row("UNC_CLOCK.SOCKET", "\"NCU\", 0x00, 0x01, 0x80, 0, 0, 0, 0 }"));
	T_ASSERT(!out_has_row("UNC_MC0_RDCAS_COUNT_FREERUN", ""));
	char out[256], line[256];
	long count = -1;
	snprintf(out, sizeof(out), "%s/out.c", dir);
	FILE *f = fopen(out, "r");
	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "const unsigned ev_count = %ld;", &count);
	if (f)
		fclose(f);
	T_EQ(count, 2);
}

static void intel_bare_array(void)
{
	T_EQ(run("[\n" INTEL_EVENT("ARB", "0x81", "0x20", "UNC_ARB_TRK_REQUESTS.WRITES", "0,1", "0", UNUSED_FIELDS) ",\n"
		 INTEL_EVENT("NCU", "0x0", "0x01", "UNC_CLOCK.SOCKET", "FIXED", "0", "") "\n]\n"),
	     0);
	T_STREQ(msg, "");
	T_ASSERT(out_has_row("UNC_ARB_TRK_REQUESTS.WRITES", "\"ARB\", 0x81, 0x20, 0x03, 0, 0, 0, 0 }"));
	T_ASSERT(out_has_row("UNC_CLOCK.SOCKET", "\"NCU\", 0x00, 0x01, 0x80, 0, 0, 0, 0 }"));
}

/* Intel's core-PMU files: no Unit (the event's unit is ""), "Fixed counter
 * N" for a fixed counter, an 8-bit CounterMask; and uncore units with a
 * space in their name ("QPI LL"). */
static void intel_core_file_forms(void)
{
	T_EQ(run("[\n"
		 "  { \"EventCode\": \"0x00\", \"UMask\": \"0x01\", \"EventName\": \"INST_RETIRED.ANY\",\n"
		 "    \"BriefDescription\": \"Instructions.\", \"Counter\": \"Fixed counter 0\" },\n"
		 "  { \"EventCode\": \"0x00\", \"UMask\": \"0x02\", \"EventName\": \"CPU_CLK_UNHALTED.THREAD\",\n"
		 "    \"BriefDescription\": \"Cycles.\", \"Counter\": \"Fixed counter 1\" },\n"
		 "  { \"EventCode\": \"0xC0\", \"UMask\": \"0x00\", \"EventName\": \"INST_RETIRED.ANY_P\",\n"
		 "    \"BriefDescription\": \"Instructions.\", \"Counter\": \"0,1,2,3\", \"CounterMask\": \"200\" },\n"
		 "  { \"Unit\": \"QPI LL\", \"EventCode\": \"0x14\", \"UMask\": \"0x00\", \"EventName\": \"UNC_Q_CLOCKTICKS\",\n"
		 "    \"BriefDescription\": \"Clocks.\", \"Counter\": \"0,1,2,3\" }\n"
		 "]\n"),
	     0);
	T_STREQ(msg, "");
	T_ASSERT(out_has_row("INST_RETIRED.ANY", "\"\", 0x00, 0x01, 0x81, 0, 0, 0, 0 }"));
	T_ASSERT(out_has_row("CPU_CLK_UNHALTED.THREAD", "\"\", 0x00, 0x02, 0x82, 0, 0, 0, 0 }"));
	T_ASSERT(out_has_row("INST_RETIRED.ANY_P", "\"\", 0xc0, 0x00, 0x0f, 200, 0, 0, 0 }"));
	T_ASSERT(out_has_row("UNC_Q_CLOCKTICKS", "\"QPI LL\", 0x14, 0x00, 0x0f, 0, 0, 0, 0 }"));
	BAD(EV("\"Unit\": \"CBO\", \"EventCode\": \"0x34\", \"UMask\": \"0x8f\", \"EventName\": \"X\",\n"
	       "    \"BriefDescription\": \"x.\", \"Counter\": \"Fixed counter 7\""),
	    "in.json:4: Counter \"Fixed counter 7\": want \"Fixed counter N\" with N from 0 to 6");
}

/* Fields the generator does not use are skipped whatever their JSON value. */
static void unused_fields_of_any_type_are_ignored(void)
{
	T_EQ(run(EV(OK_FIELDS ",\n    \"Colour\": \"red\", \"PEBS\": 0, \"Extra\": [1, -2.5e3, true, null],\n"
			      "    \"Nested\": { \"a\": { \"b\": [\"\\u00e9\", false] } }")),
	     0);
	T_STREQ(msg, "");
	T_ASSERT(out_has_row("UNC_ARB_TRK_REQUESTS.ALL", "\"ARB\", 0x81, 0x01, 0x03, 0, 0, 0, 0 }"));
}

static void bad_intel_layout_names_file_and_line(void)
{
	BAD(INTEL_HEADER "  \"Version\": \"1\"\n}\n", "in.json:10: no \"Events\" list in the file");
	BAD("{\n  \"Events\": [\n" INTEL_EVENT("NCU", "0x0", "0x01", "UNC_CLOCK.SOCKET", "FIXED", "0", "") "\n  ],\n"
	    "  \"Events\": []\n}\n",
	    "in.json:16: \"Events\" appears twice");
	BAD("{\n  \"Events\": {}\n}\n", "in.json:2: expected '[' to start the list of events, found '{'");
	BAD("{\n  \"Header\": {\n    \"Info\": [1, 2\n  }\n}\n", "in.json:4: expected ',' or ']'");
	BAD("{\n  \"Header\": tru\n}\n", "in.json:2: bad value");
	BAD(EV(OK_FIELDS ",\n    \"PEBS\": 1.e5"), "in.json:6: bad number at \"1.e\"");
	BAD(EV(OK_FIELDS ",\n    \"PEBS\": 12x"), "in.json:6: bad number at \"12x\"");
	BAD(EV("    \"Unit\": \"CBO\", \"EventCode\": \"0xB7, 0x1BB\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"0\""),
	    "in.json:3: field 'EventCode' is \"0xB7, 0x1BB\"; want a number from 0 to 255, or several separated by commas");
	BAD(EV("    \"Unit\": \"CBO\", \"EventCode\": \"0xB7,\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"0\""),
	    "in.json:3: field 'EventCode' is \"0xB7,\"; want a number from 0 to 255, or several separated by commas");
	BAD(EV("    \"Unit\": \"CBO\", \"EventCode\": \"0x22\", \"UMask\": \"0x41, 0x81\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"0\""),
	    "in.json:3: field 'UMask' is \"0x41, 0x81\"; want a number from 0 to 255");
}

/* The generator takes Unit as Intel spells it and counters 0 to 6 (or
 * FIXED): which unit a Unit string is, and which counters and units
 * may go together, is the driver's to say (drivers/engine/pmu.h, intel_unit;
 * tests/unit/test_conformance.c checks the real table against the
 * driver). So what it refused before drivers (Unit "IMC", counter 2,
 * FIXED outside NCU, NCU on general counters) it now writes as given. */
static void units_and_counters_as_given(void)
{
	static const struct {
		const char *unit, *counter, *row;
	} ok[] = {
		{ "IMC", "0", "\"IMC\", 0x01, 0x01, 0x01, 0, 0, 0, 0 }" },
		{ "ARB", "2", "\"ARB\", 0x01, 0x01, 0x04, 0, 0, 0, 0 }" },
		{ "CBO", "0,1,2,3,4,5,6", "\"CBO\", 0x01, 0x01, 0x7f, 0, 0, 0, 0 }" },
		{ "CBO", "6,0", "\"CBO\", 0x01, 0x01, 0x41, 0, 0, 0, 0 }" },
		{ "ARB", "FIXED", "\"ARB\", 0x01, 0x01, 0x80, 0, 0, 0, 0 }" },
		{ "NCU", "0,1", "\"NCU\", 0x01, 0x01, 0x03, 0, 0, 0, 0 }" },
		{ "iMC_2", "3", "\"iMC_2\", 0x01, 0x01, 0x08, 0, 0, 0, 0 }" },
	};
	char json[512];

	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(json, sizeof(json),
			 EV("    \"Unit\": \"%s\", \"EventCode\": \"0x1\", \"UMask\": \"0x01\",\n"
			    "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"%s\""),
			 ok[i].unit, ok[i].counter);
		T_EQ(run(json), 0);
		T_STREQ(msg, "");
		if (!out_has_row("X", ok[i].row))
			t_fail(__FILE__, __LINE__, "Unit \"%s\" Counter \"%s\": no row with %s", ok[i].unit, ok[i].counter,
			       ok[i].row);
	}
}

/* -x UNIT leaves out that Unit's events, after checking them; a -x that
 * matches no event, or a bad event of a left-out Unit, is an error. */
static void units_left_out(void)
{
#define ROW(unit, name, ctr)                                                                                 \
	"  {\n    \"Unit\": \"" unit "\", \"EventCode\": \"0x22\", \"EventName\": \"" name "\",\n" \
	"    \"BriefDescription\": \"x\", \"Counter\": \"" ctr "\"\n  }"
	static const char three[] = "[\n" ROW("ARB", "A", "0,1") ",\n" ROW("iMC", "B", "0,1,2,3,4") ",\n"
				    ROW("iMC", "C", "5") ",\n" ROW("SANTA", "D", "FIXED") "\n]\n";

	T_EQ(run_with("-x iMC", three), 0);
	T_STREQ(msg, "");
	T_ASSERT(out_has_row("A", "\"ARB\""));
	T_ASSERT(out_has_row("D", "\"SANTA\""));
	T_ASSERT(!out_has_row("B", "iMC"));
	T_ASSERT(!out_has_row("C", "iMC"));
	T_EQ(run_with("-x iMC -x SANTA", three), 0);
	T_ASSERT(out_has_row("A", "\"ARB\""));
	T_ASSERT(!out_has_row("D", "SANTA"));
	T_EQ(run_with("-x iMC -x SANTA -x ARB", three), 0); /* none left: an empty table */
	T_ASSERT(output_exists());
	T_ASSERT(!out_has_row("A", "ARB"));
	T_EQ(run_with("-x NCU", three), 1);
	T_CONTAINS(msg, "-x NCU: no event of that Unit");
	T_ASSERT(!output_exists());
	T_EQ(run_with("-x imc", three), 1); /* as the file spells it */
	T_EQ(run_with("-x", three), 2);
	static const char bad[] = "[\n" ROW("ARB", "A", "0,1") ",\n" ROW("iMC", "B", "7") "\n]\n";
	T_EQ(run_with("-x iMC", bad), 1);
	T_ASSERT(!output_exists());
#undef ROW
}

/* Intel's files as published in the intel/perfmon repository
 * (https://github.com/intel/perfmon), unchanged, from ../shared/perfmon (or
 * $PERFMON_DIR). Each runs only when its file is there; main() prints a
 * skip line for each that is not. */
static char perfmon[3][400];
static const char *const perfmon_file[3] = { "SKL/events/skylake_uncore.json", "SKL/events/skylake_core.json",
					     "JKT/events/Jaketown_uncore.json" };

static void intel_skylake_uncore_file(void)
{
	char cmd[1024], out[256];

	snprintf(out, sizeof(out), "%s/intel.c", dir);
	snprintf(cmd, sizeof(cmd), "%s skl_events %s %s", GEN, perfmon[0], out);
	T_EQ(system(cmd), 0);
	/* Where Intel's values agree with the manual's Tables 3-1 and 3-2. */
	T_ASSERT(has_row(out, "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "\"CBO\", 0x34, 0x8f, 0x03, 0, 0, 0, 0 }"));
	T_ASSERT(has_row(out, "UNC_CBO_XSNP_RESPONSE.MISS_XCORE", "\"CBO\", 0x22, 0x41, 0x03, 0, 0, 0, 0 }"));
	T_ASSERT(has_row(out, "UNC_ARB_TRK_OCCUPANCY.ALL", "\"ARB\", 0x80, 0x01, 0x01, 0, 0, 0, 0 }"));
	T_ASSERT(has_row(out, "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", "\"ARB\", 0x80, 0x01, 0x01, 1, 0, 0, 0 }"));
	T_ASSERT(has_row(out, "UNC_CLOCK.SOCKET", "\"NCU\", "));
}

/* Generates from file into dir/NAME.c; the count it declares. */
static long generate(const char *file, const char *name)
{
	char cmd[1024], line[512];
	long count = -1;

	snprintf(cmd, sizeof(cmd), "%s big %s %s/%s.c", GEN, file, dir, name);
	if (system(cmd) != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "%s/%s.c", dir, name);
	FILE *f = fopen(cmd, "r");
	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "const unsigned big_count = %ld;", &count);
	if (f)
		fclose(f);
	return count;
}

/* No fixed limit on the number of events: Intel publishes files of more
 * than 512 (skylake_core.json has 564). A file of 5,000, written here. */
static void many_events(void)
{
	char path[256], out[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/many.json", dir);
	f = fopen(path, "w");
	fputs("{\n  \"Header\": { \"Copyright\": \"Test data.\", \"Version\": \"1\" },\n  \"Events\": [\n", f);
	for (int i = 0; i < 5000; i++)
		fprintf(f, "    %s{ \"Unit\": \"CBO\", \"EventCode\": \"0x%02x\", \"UMask\": \"0x%02x\", "
			"\"EventName\": \"UNC_TEST.E%d\", \"BriefDescription\": \"Event %d.\", \"Counter\": \"0,1\", "
			"\"PEBS\": \"0\" }\n", i ? "," : "", i % 256, i / 256, i, i);
	fputs("  ]\n}\n", f);
	fclose(f);
	T_EQ(generate(path, "many"), 5000);
	snprintf(out, sizeof(out), "%s/many.c", dir);
	T_ASSERT(has_row(out, "UNC_TEST.E4999", "\"CBO\", 0x87, 0x13, 0x03, 0, 0, 0, 0 }"));
	T_ASSERT(has_row(out, "UNC_TEST.E0", "\"CBO\", 0x00, 0x00, 0x03, 0, 0, 0, 0 }"));
}

/* Intel's core file for Skylake (564 events) and uncore file for Jaketown,
 * the Xeon E5-2600 (540), as published. The values checked are the
 * manuals': INST_RETIRED.ANY and CPU_CLK_UNHALTED.THREAD are fixed
 * counters 0 and 1 (SDM Vol. 3B, the fixed-function performance counters
 * IA32_FIXED_CTR0 and IA32_FIXED_CTR1); the iMC's CAS_COUNT.RD
 * is event 0x04, umask 0x03 (Xeon E5-2600 Uncore Performance Monitoring
 * Guide, iMC events). */
static void intel_skylake_core_file(void)
{
	char out[256];

	T_EQ(generate(perfmon[1], "sklcore"), 564);
	snprintf(out, sizeof(out), "%s/sklcore.c", dir);
	T_ASSERT(has_row(out, "INST_RETIRED.ANY", "\"\", 0x00, 0x01, 0x81, 0, 0, 0, 0 }"));
	T_ASSERT(has_row(out, "CPU_CLK_UNHALTED.THREAD", "\"\", 0x00, 0x02, 0x82, 0, 0, 0, 0 }"));
}

static void intel_jaketown_uncore_file(void)
{
	char out[256];

	T_EQ(generate(perfmon[2], "jkt"), 540);
	snprintf(out, sizeof(out), "%s/jkt.c", dir);
	T_ASSERT(has_row(out, "UNC_M_CAS_COUNT.RD", "\"iMC\", 0x04, 0x03, "));
}

static void the_real_table(void)
{
	char cmd[512], line[512];
	int rows = 0;
	bool any_mesi = false, clock = false;

	snprintf(cmd, sizeof(cmd), "%s skl_events events/skl.json %s/real.c", GEN, dir);
	T_EQ(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/real.c", dir);
	FILE *f = fopen(cmd, "r");
	T_ASSERT(f);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "\t{ \"UNC_", 8))
			rows++;
		if (strstr(line, "\"UNC_CBO_CACHE_LOOKUP.ANY_MESI\"") && strstr(line, "\"CBO\", 0x34, 0x8f, 0x03, 0, 0, 0"))
			any_mesi = true;
		if (strstr(line, "\"UNC_CLOCK.SOCKET\"") && strstr(line, "\"NCU\", 0x00, 0x01, 0x80"))
			clock = true;
	}
	fclose(f);
	T_EQ(rows, 20); /* Tables 3-1 (14) and 3-2 (6, with UNC_CLOCK.SOCKET) */
	T_ASSERT(any_mesi);
	T_ASSERT(clock);
}

/* An event's UMaskExt is its row's last field (0 when absent or zero,
 * as every other row's); a bad one is refused. Literals from Intel's
 * perfmon SPR uncore file: UNC_CHA_TOR_INSERTS.IA_MISS is EventCode 0x35,
 * UMask 0x01, UMaskExt 0x00c001fe. */
static void umask_ext(void)
{
	T_EQ(run("[ { \"Unit\": \"CHA\", \"EventCode\": \"0x35\", \"UMask\": \"0x01\", \"UMaskExt\": \"0x00c001fe\",\n"
		 "    \"EventName\": \"TOR\", \"BriefDescription\": \"t\", \"Counter\": \"0\" },\n"
		 "  { \"Unit\": \"CHA\", \"EventCode\": \"0x35\", \"UMask\": \"0x01\", \"UMaskExt\": \"0x10CCD782\",\n"
		 "    \"EventName\": \"TOR_WIDE\", \"BriefDescription\": \"w\", \"Counter\": \"0\" },\n"
		 "  { \"Unit\": \"CHA\", \"EventCode\": \"0x50\", \"UMask\": \"0x01\", \"UMaskExt\": \"0x00000000\",\n"
		 "    \"EventName\": \"REQ\", \"BriefDescription\": \"r\", \"Counter\": \"0,1\" } ]\n"),
	     0);
	T_ASSERT(out_has_row("TOR", "\"CHA\", 0x35, 0x01, 0x01, 0, 0, 0, 0x00c001fe }"));
	T_ASSERT(out_has_row("TOR_WIDE", "\"CHA\", 0x35, 0x01, 0x01, 0, 0, 0, 0x10ccd782 }"));
	T_ASSERT(out_has_row("REQ", "\"CHA\", 0x50, 0x01, 0x03, 0, 0, 0, 0 }"));
	T_EQ(run(EV(OK_FIELDS ", \"UMaskExt\": \"0x1ffffffff\"")), 1);
	T_CONTAINS(msg, "field 'UMaskExt' is \"0x1ffffffff\"; want a number from 0 to 4294967295");
}

/* events/disc/ as the Makefile feeds it: Intel's four files, the Units
 * iMC, IMC and CHA kept, UMaskExt events included; SPR's and EMR's table
 * one, GNR's and SRF's two runs of one array; rows typed from the files. */
static void per_model_files(void)
{
	char cmd[1024], line[512];
	int tables = 0, tor = 0, ngnr = 0;
	bool cas = false, sch1 = false, iio = false, spr = false, emr = false, gnr = false, srf = false;

	snprintf(cmd, sizeof(cmd),
		 "%s --units=iMC,IMC,CHA disc_events %s/disc.c events/disc/emeraldrapids_uncore.json "
		 "events/disc/graniterapids_uncore.json events/disc/sapphirerapids_uncore.json "
		 "events/disc/sierraforest_uncore.json",
		 GEN, dir);
	T_EQ(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/disc.c", dir);
	FILE *f = fopen(cmd, "r");
	T_ASSERT(f);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		cas |= strstr(line, "{ \"UNC_M_CAS_COUNT.RD\",") && strstr(line, "\"iMC\", 0x05, 0xcf, 0x0f, 0, 0, 0, 0 }");
		sch1 |= strstr(line, "{ \"UNC_M_CAS_COUNT_SCH1.RD\",") && strstr(line, "\"IMC\", 0x06, 0xcf, 0x0f, 0, 0, 0, 0 }");
		/* UMaskExt 0x00c001fe in SPR's (EMR's) and GNR's (SRF's) files */
		tor += strstr(line, "{ \"UNC_CHA_TOR_INSERTS.IA_MISS\",") && strstr(line, "\"CHA\", 0x35, 0x01, 0x0f, 0, 0, 0, 0x00c001fe }");
		iio |= strstr(line, "\"IIO\"") != NULL;
		tables += !strncmp(line, "const struct event_desc ", 24);
		emr |= !strcmp(line, "\t{ disc_events, disc_events_by_hash, 160, \"emeraldrapids_uncore.json\" },\n");
		spr |= !strcmp(line, "\t{ disc_events, disc_events_by_hash, 160, \"sapphirerapids_uncore.json\" },\n");
		/* GNR's 249: a run of SRF's array, after SRF's 17 own rows */
		gnr |= !strcmp(line, "\t{ disc_events_3 + 17, disc_events_1_by_hash, 249, \"graniterapids_uncore.json\" },\n");
		srf |= !strcmp(line, "\t{ disc_events_3, disc_events_3_by_hash, 226, \"sierraforest_uncore.json\" },\n");
		ngnr += !strcmp(line, "const unsigned disc_events_3_count = 226;\n");
	}
	fclose(f);
	T_ASSERT(cas);
	T_ASSERT(sch1);
	T_EQ(tor, 2); /* one table for SPR and EMR; one array for GNR's and SRF's */
	T_ASSERT(!iio);
	/* SRF's file has 17 TOR events GNR's lacks (the DRD_OPT and CLFLUSHOPT
	 * ones), GNR's 40 SRF's lacks: one array of 17 + 209 + 40 rows */
	T_EQ(tables, 2);
	T_EQ(ngnr, 1);
	T_ASSERT(emr && spr && gnr && srf);
}

/* Tables of several files sharing rows: a file whose rows are all
 * another's is that one's first rows; one sharing at least half its rows
 * is a run of the other's array, which holds the other's own rows, the
 * shared ones, then this one's own. */
static void shared_tables(void)
{
#define SROW(name) "  { \"Unit\": \"CHA\", \"EventCode\": \"0x35\", \"UMask\": \"0x01\", \"EventName\": \"" name "\",\n" \
		   "    \"BriefDescription\": \"b\", \"Counter\": \"0\" }"
	static const char *const files[][2] = {
		{ "f1.json", "[\n" SROW("P") ",\n" SROW("Q") ",\n" SROW("R") ",\n" SROW("S") "\n]\n" },
		{ "f2.json", "[\n" SROW("Q") ",\n" SROW("R") "\n]\n" },
		{ "f3.json", "[\n" SROW("X") ",\n" SROW("Y") ",\n" SROW("Z") ",\n" SROW("W") "\n]\n" },
		{ "f4.json", "[\n" SROW("Y") ",\n" SROW("Z") ",\n" SROW("W") ",\n" SROW("V") "\n]\n" },
	};
#undef SROW
	static const char *const want[] = {
		"\t{ ev, ev_by_hash, 4, \"f1.json\" },\n",
		"\t{ ev, ev_1_by_hash, 2, \"f2.json\" },\n",   /* f1's first 2 rows */
		"\t{ ev_3 + 1, ev_2_by_hash, 4, \"f3.json\" },\n", /* f4's array from row 1 */
		"\t{ ev_3, ev_3_by_hash, 4, \"f4.json\" },\n",
		"const unsigned ev_3_count = 4;\n",
	};
	static const char order[] = "QRPSVYZWX"; /* ev's rows, then ev_3's 5 */
	char cmd[1024], line[512], got[16] = "";
	unsigned ngot = 0, found = 0;
	int arrays = 0;

	for (unsigned i = 0; i < 4; i++) {
		snprintf(cmd, sizeof(cmd), "%s/%s", dir, files[i][0]);
		FILE *f = fopen(cmd, "w");
		T_ASSERT(f);
		if (!f)
			return;
		fputs(files[i][1], f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "%s --units=CHA ev %s/shared.c %s/f1.json %s/f2.json %s/f3.json %s/f4.json", GEN, dir,
		 dir, dir, dir, dir);
	T_EQ(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/shared.c", dir);
	FILE *f = fopen(cmd, "r");
	T_ASSERT(f);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		arrays += !strncmp(line, "const struct event_desc ", 24);
		if (!strncmp(line, "\t{ \"", 4) && line[5] == '"' && ngot < sizeof(got) - 1)
			got[ngot++] = line[4];
		for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			found |= (unsigned)!strcmp(line, want[i]) << i;
	}
	fclose(f);
	T_EQ(arrays, 2);
	T_STREQ(got, order);
	T_EQ(found, 0x1f);
}

int main(int argc, char **argv)
{
	static const struct t_case cases[] = {
		T_CASE(good_input),
		T_CASE(malformed_json_names_file_and_line),
		T_CASE(bad_fields_name_file_and_line),
		T_CASE(the_real_table),
		T_CASE(intel_header_and_events),
		T_CASE(intel_bare_array),
		T_CASE(freerun_events_are_not_rows),
		T_CASE(unused_fields_of_any_type_are_ignored),
		T_CASE(bad_intel_layout_names_file_and_line),
		T_CASE(units_and_counters_as_given),
		T_CASE(umask_ext),
		T_CASE(per_model_files),
		T_CASE(units_left_out),
		T_CASE(shared_tables),
		T_CASE(intel_core_file_forms),
		T_CASE(many_events),
		/* the last three: each left out when its file is absent */
		T_CASE(intel_skylake_uncore_file),
		T_CASE(intel_skylake_core_file),
		T_CASE(intel_jaketown_uncore_file),
	};
	static struct t_case run_cases[sizeof(cases) / sizeof(cases[0])];
	size_t n = 0, all = sizeof(cases) / sizeof(cases[0]);
	const char *pm = getenv("PERFMON_DIR") ? getenv("PERFMON_DIR") : "../shared/perfmon";
	for (size_t i = 0; i < all; i++) {
		size_t k = i + 3 - all; /* which of Intel's files, for the last three */
		if (i + 3 >= all) {
			snprintf(perfmon[k], sizeof(perfmon[k]), "%s/%s", pm, perfmon_file[k]);
			if (access(perfmon[k], R_OK) != 0) {
				printf("# skip: Intel's %s is not in %s\n", perfmon_file[k], pm);
				continue;
			}
		}
		run_cases[n++] = cases[i];
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	t_cmdline(argc, argv);
	int rc = t_main("gen_events", run_cases, n);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}
