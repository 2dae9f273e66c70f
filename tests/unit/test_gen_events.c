/* tools/gen_events: good input makes the table; bad input gets one
 * "FILE:LINE: reason" line, a non-zero exit and no output file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "t.h"

#define GEN "build/host/gen_events"

static char msg[1024];
static char dir[] = "/tmp/gen_events_test.XXXXXX";

/* Writes json to a file, runs the generator; returns its exit status. */
static int run(const char *json)
{
	char in[256], out[256], cmd[1024];
	FILE *f;

	snprintf(in, sizeof(in), "%s/in.json", dir);
	snprintf(out, sizeof(out), "%s/out.c", dir);
	unlink(out);
	f = fopen(in, "w");
	fputs(json, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s ev %s %s 2>%s/err", GEN, in, out, dir);
	int st = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/err", dir);
	f = fopen(cmd, "r");
	size_t n = fread(msg, 1, sizeof(msg) - 1, f);
	msg[n] = '\0';
	fclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
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
	BAD(EV(OK_FIELDS ",\n    \"Colour\": \"red\""), "in.json:6: unknown field 'Colour'");
	BAD(EV(OK_FIELDS ",\n    \"Unit\": \"ARB\""), "in.json:6: field 'Unit' appears twice");
	BAD(EV("    \"Unit\": \"ARB\", \"EventCode\": \"0x81\",\n    \"EventName\": \"X\", \"Counter\": \"0\""),
	    "in.json:2: event is missing the required field 'BriefDescription'");
	BAD(EV(OK_FIELDS ",\n    \"CounterMask\": \"32\""),
	    "in.json:6: field 'CounterMask' is \"32\"; want a number from 0 to 31");
	BAD(EV(OK_FIELDS ",\n    \"Invert\": \"2\""), "field 'Invert' is \"2\"; want a number from 0 to 1");
	BAD(EV("    \"Unit\": \"ARB\", \"EventCode\": \"0x100\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"0\""),
	    "in.json:3: field 'EventCode' is \"0x100\"; want a number from 0 to 255");
	BAD(EV("    \"Unit\": \"IMC\", \"EventCode\": \"0x1\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"0\""),
	    "in.json:3: Unit \"IMC\" is not CBOX, ARB or CLOCK");
	BAD(EV("    \"Unit\": \"ARB\", \"EventCode\": \"0x1\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"2\""),
	    "Counter \"2\": want FIXED or a list of counters 0 and 1");
	BAD(EV("    \"Unit\": \"ARB\", \"EventCode\": \"0x1\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"X\", \"BriefDescription\": \"x\", \"Counter\": \"FIXED\""),
	    "Counter \"FIXED\" does not fit Unit \"ARB\"");
	BAD("[\n  {\n" OK_FIELDS "\n  },\n  {\n" OK_FIELDS "\n  }\n]",
	    "in.json:9: event \"UNC_ARB_TRK_REQUESTS.ALL\" is defined twice (first at line 2)");
	BAD(EV("    \"Unit\": \"ARB\", \"EventCode\": \"0x1\", \"UMask\": \"0x01\",\n"
	       "    \"EventName\": \"A B\", \"BriefDescription\": \"x\", \"Counter\": \"0\""),
	    "EventName \"A B\" has a character other than");
}

static void the_real_table(void)
{
	char cmd[512], line[512];
	int rows = 0;
	bool any_mesi = false, clock = false;

	snprintf(cmd, sizeof(cmd), "%s skl_events events/skl_uncore.json %s/real.c", GEN, dir);
	T_EQ(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/real.c", dir);
	FILE *f = fopen(cmd, "r");
	T_ASSERT(f);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "\t{ \"UNC_", 8))
			rows++;
		if (strstr(line, "\"UNC_CBO_CACHE_LOOKUP.ANY_MESI\"") && strstr(line, "EV_UNIT_CBO, 0x34, 0x8f, 0x03, 0, 0, 0"))
			any_mesi = true;
		if (strstr(line, "\"UNC_CLOCK.SOCKET\"") && strstr(line, "EV_UNIT_FIXED, 0x00, 0x01, 0x80"))
			clock = true;
	}
	fclose(f);
	T_EQ(rows, 20); /* Tables 3-1 (14) and 3-2 (6, with UNC_CLOCK.SOCKET) */
	T_ASSERT(any_mesi);
	T_ASSERT(clock);
}

int main(void)
{
	static const struct t_case cases[] = { T_CASE(good_input), T_CASE(malformed_json_names_file_and_line),
					       T_CASE(bad_fields_name_file_and_line), T_CASE(the_real_table) };
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	int rc = t_main("gen_events", cases, sizeof(cases) / sizeof(cases[0]));
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}
