/* gen_events: an event file in Intel's perfmon JSON format -> C tables.
 *
 *   gen_events [-x UNIT]... SYMBOL INPUT.json OUTPUT.c
 *   gen_events --units=U1,U2,... SYMBOL OUTPUT.c INPUT.json...
 *
 * The second form (a driver whose events are one of Intel's files per CPU
 * model, events/NAME/) keeps the events of the Units listed only, and
 * writes a table per input (inputs whose kept events are the same share
 * one; an input sharing half its rows with another is a run of that one's
 * array, its own rows after the other's) and `const struct event_table
 * SYMBOL_tables[]`, one per input in
 * the order given, and `SYMBOL_ntables`; the first input's table is also
 * SYMBOL, SYMBOL_count and SYMBOL_by_hash, as in the first form.
 * An event's UMaskExt (Intel's umask extension, which the unit's layout
 * puts in select bits 32 and up) is the row's umask_ext (0 for most).
 *
 * -x UNIT leaves out the events of that Unit, as the file spells it, after
 * they have been checked like the others: Intel's units the driver does not
 * program (the Makefile's GEN_EVENTS_FLAGS_NAME, events/README.md). A -x
 * that matches no event is an error.
 *
 * Reads Intel's perfmon layout as published, either {"Header": ...,
 * "Events": [...]} or a bare array of events. The fields it uses must be
 * strings, as Intel writes them; every other field (and the Header) is
 * skipped whatever its value. It checks every used field against the
 * manual's field widths (Table 2-7), and writes a C file
 * defining `const struct event_desc SYMBOL[]` and `const unsigned
 * SYMBOL_count`, as declared in drivers/engine/events.h, and the names' hash
 * index `const uint16_t SYMBOL_by_hash[]` (drivers/engine/pmu.h). Any problem is reported as
 * "FILE:LINE: reason", and then no output file is written. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../drivers/base/parse.h"
#include "gen_json.h"

static void put_c_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", out);
		else if (isprint((unsigned char)*s))
			fputc(*s, out);
		else
			fprintf(out, "\\%03o", (unsigned char)*s);
	}
	fputc('"', out);
}

struct row {
	const char *name, *brief, *unit;
	unsigned code, umask, counters, cmask, inv, edge;
	unsigned long umask_ext;
};

/* Counter: FIXED, "Fixed counter N" (Intel's core files) or a list of
 * counters 0 to 6; bit n is counter n, 0x80 a fixed counter. */
static unsigned counters_of(const char *ctr, int at)
{
	unsigned counters = 0;

	if (!strcmp(ctr, "FIXED"))
		return 0x80;
	if (!strncmp(ctr, "Fixed counter ", 14)) {
		/* Intel's core files: "Fixed counter 1" is fixed counter 1 */
		const char *n = ctr + 14;
		if (n[0] < '0' || n[0] > '6' || n[1])
			die(at, "Counter \"%s\": want \"Fixed counter N\" with N from 0 to 6", ctr);
		return 0x80u | 1u << (n[0] - '0');
	}
	for (const char *p = ctr; *p;) {
		if (*p < '0' || *p > '6')
			die(at, "Counter \"%s\": want FIXED or a list of counters 0 to 6", ctr);
		if (counters & 1u << (*p - '0'))
			die(at, "Counter \"%s\" lists counter %c twice", ctr, *p);
		counters |= 1u << (*p - '0');
		p++;
		if (*p == ',')
			p++;
		else if (*p)
			die(at, "Counter \"%s\": want FIXED or a list of counters 0 to 6", ctr);
	}
	if (!counters)
		die(at, "Counter is empty");
	return counters;
}

/* Event i of ev as a row, every field checked. */
static struct row row_of(struct object *ev, int i)
{
	struct object *o = &ev[i];
	int at;
	const char *name = get(o, "EventName", true, &at);
	if (!*name)
		die(at, "EventName is empty");
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
			die(at, "EventName \"%s\" has a character other than letters, digits, '_' and '.'", name);
	for (int j = 0; j < i; j++)
		if (!strcasecmp(get(&ev[j], "EventName", true, NULL), name))
			die(at, "event \"%s\" is defined twice (first at line %d)", name, ev[j].line);

	/* Unit as Intel spells it (CBO, NCU, ARB, ...): the driver says
	 * which of its units each name is (drivers/engine/pmu.h, intel_unit). */
	/* Intel's core-PMU files have no Unit: such events are "" (a
	 * driver's core unit has intel_unit ""). */
	const char *unit = get(o, "Unit", false, &at);
	if (!unit)
		unit = "";
	else if (!*unit)
		die(at, "Unit is empty");
	for (const char *p = unit; *p; p++) /* Intel writes "QPI LL" */
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != ' ')
			die(at, "Unit \"%s\" has a character other than letters, digits, '_' and ' '", unit);

	const char *ctr = get(o, "Counter", true, &at);
	unsigned counters = counters_of(ctr, at);
	unsigned code = num_of(o, "EventCode", 0xff, 0, true), umask = num(o, "UMask", 0xff, 0);
	get(o, "EventCode", true, NULL);
	/* 8 bits, the widest threshold field (a core CMASK); each driver's
	 * own width is checked against its layout by test_evsel. */
	unsigned cmask = num(o, "CounterMask", 0xff, 0);
	unsigned inv = num(o, "Invert", 1, 0), edge = num(o, "EdgeDetect", 1, 0);
	const char *brief = get(o, "BriefDescription", true, NULL);
	unsigned long ext = num(o, "UMaskExt", 0xFFFFFFFFu, 0);
	return (struct row){ name, brief, unit, code, umask, counters, cmask, inv, edge, ext };
}

/* The table and its names' index as C, into out: the array holds narray
 * rows (more than nev: another table's own rows after this one's, below),
 * the table and its index the first nev. 0, or 1 with a message. */
static int write_rows(FILE *out, const char *symbol, const char *opath, const struct row *rows, int nev, int narray,
		      bool index_only)
{
	if (!index_only)
		fprintf(out, "\nconst struct event_desc %s[] = {\n", symbol);
	for (int i = 0; i < narray && !index_only; i++) {
		const struct row *r = &rows[i];
		fprintf(out, "\t{ ");
		put_c_string(out, r->name);
		fprintf(out, ", ");
		put_c_string(out, r->brief);
		fprintf(out, ", ");
		put_c_string(out, r->unit);
		fprintf(out, ", 0x%02x, 0x%02x, 0x%02x, %u, %u, %u", r->code, r->umask, r->counters, r->cmask, r->inv,
			r->edge);
		if (r->umask_ext)
			fprintf(out, ", 0x%08lx },\n", r->umask_ext);
		else
			fprintf(out, ", 0 },\n");
	}
	if (!index_only)
		fprintf(out, "};\n\nconst unsigned %s_count = %d;\n", symbol, nev);
	/* The names' index, for drivers/engine/evsel.c: an open-addressing hash table
	 * of the rows by str_ihash of their names (any case), linear probing,
	 * at most half full. by_hash[0] is the mask (the slots less one), then
	 * each slot holds a row + 1, or 0 when empty. */
	unsigned slots = 2;
	while (slots < 2u * (unsigned)nev)
		slots *= 2;
	uint16_t *slot = calloc(slots, sizeof(*slot));
	if (!slot) {
		fprintf(stderr, "%s: out of memory\n", opath);
		return 1;
	}
	for (int i = 0; i < nev; i++) {
		unsigned h = str_ihash(STR_IHASH_INIT, rows[i].name) & (slots - 1);
		while (slot[h])
			h = (h + 1) & (slots - 1);
		slot[h] = (uint16_t)(i + 1);
	}
	fprintf(out, "\nconst uint16_t %s_by_hash[] = {\n\t%u,", symbol, slots - 1);
	for (unsigned i = 0; i < slots; i++)
		fprintf(out, "%s%u,", i % 16 ? " " : "\n\t", slot[i]);
	fprintf(out, "\n};\n");
	free(slot);
	return 0;
}

static int write_table(FILE *out, const char *symbol, const char *opath, const struct row *rows, int nev)
{
	fprintf(out, "/* Generated by tools/gen_events from %s. Do not edit. */\n", json_path());
	fprintf(out, "#include \"events.h\"\n");
	return write_rows(out, symbol, opath, rows, nev, nev, false);
}

/* One input file: its events as rows (with units, but those of other
 * Units); returns how many. */
#define MAX_INPUTS 16

/* Each input's events and text, held until the exit. */
static struct object *evs[MAX_INPUTS];
static char *srcs[MAX_INPUTS];
static int nread;

static int read_rows(const char *file, const char *units, struct row **ret)
{
	struct object *ev = NULL;

	int nev = json_events(file, &ev, &srcs[nread]);
	evs[nread++] = ev;
	if (nev > 32768) /* the name index's slots are 16-bit */
		die(json_line(), "%d events: at most 32768 in one file", nev);
	struct row *rows = calloc((size_t)nev, sizeof(*rows));
	if (!rows)
		die(json_line(), "out of memory for %d events", nev);
	int n = 0;
	for (int i = 0; i < nev; i++) {
		/* Events of other Units are not read (their counters may be
		 * ones the tables cannot hold: IIO's 0 to 7). */
		const char *unit = get(&ev[i], "Unit", false, NULL);
		if (units) {
			size_t ul = unit ? strlen(unit) : 0;
			bool listed = false;
			for (const char *p = units; *p && !listed; p += strcspn(p, ","), p += *p == ',')
				listed = unit && strcspn(p, ",") == ul && !strncmp(p, unit, ul);
			if (!listed)
				continue;
		}
		/* Intel's FREERUN events (CounterType "FREERUN": counters with
		 * no event select) are a driver's free-running counters (struct
		 * pmu_free), not rows of its table. */
		const char *type = get(&ev[i], "CounterType", false, NULL);
		if (type && !strcmp(type, "FREERUN"))
			continue;
		rows[n++] = row_of(ev, i);
	}
	*ret = rows;
	return n;
}

static bool same_row(const struct row *a, const struct row *b)
{
	return !strcmp(a->name, b->name) && !strcmp(a->brief, b->brief) && !strcmp(a->unit, b->unit) &&
	       a->code == b->code && a->umask == b->umask && a->counters == b->counters && a->cmask == b->cmask &&
	       a->inv == b->inv && a->edge == b->edge && a->umask_ext == b->umask_ext;
}

static bool same_rows(const struct row *a, int na, const struct row *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		if (!same_row(&a[i], &b[i]))
			return false;
	return true;
}

/* Whether every row of a is one of b's. */
static bool rows_within(const struct row *a, int na, const struct row *b, int nb)
{
	for (int i = 0; i < na; i++) {
		int j = 0;
		while (j < nb && !same_row(&a[i], &b[j]))
			j++;
		if (j == nb)
			return false;
	}
	return true;
}

/* b's rows reordered: a's first (in a's order), then b's others in b's
 * order, so that a is the first na rows of b. */
static void put_first(const struct row *a, int na, struct row *b, int nb)
{
	struct row *t = calloc((size_t)nb, sizeof(*t));
	int n = 0;

	if (!t)
		die(1, "out of memory");
	for (int i = 0; i < na; i++)
		t[n++] = a[i];
	for (int j = 0; j < nb; j++) {
		bool in_a = false;
		for (int i = 0; i < na && !in_a; i++)
			in_a = same_row(&a[i], &b[j]);
		if (!in_a)
			t[n++] = b[j];
	}
	memcpy(b, t, (size_t)nb * sizeof(*t));
	free(t);
}

/* Whether table k shares at least half its rows with table j; then j's
 * rows are put in the order j's own, the shared ones (in k's order), k's
 * own after them in j's array (narray[j]); k's rows the shared ones, then
 * its own, which are j's array from at[k] on. */
static void overlap(struct row **rows, int *nrows, int *narray, int *at, int k, int j, bool *j_reordered, int *k_slice)
{
	int shared = 0;

	for (int i = 0; i < nrows[k]; i++)
		shared += rows_within(&rows[k][i], 1, rows[j], nrows[j]);
	if (!shared || 2 * shared < nrows[k])
		return;
	int nj = nrows[j], nk = nrows[k], own_j = nj - shared;
	struct row *a = calloc((size_t)(nj + nk - shared), sizeof(*a)), *b = calloc((size_t)nk, sizeof(*b));
	int na = 0, nb = 0;
	if (!a || !b)
		die(1, "out of memory");
	for (int i = 0; i < nj; i++) /* j's own */
		if (!rows_within(&rows[j][i], 1, rows[k], nk))
			a[na++] = rows[j][i];
	for (int i = 0; i < nk; i++) /* the shared ones, in k's order */
		if (rows_within(&rows[k][i], 1, rows[j], nj))
			a[na++] = b[nb++] = rows[k][i];
	for (int i = 0; i < nk; i++) /* k's own */
		if (!rows_within(&rows[k][i], 1, rows[j], nj))
			a[na++] = b[nb++] = rows[k][i];
	free(rows[j]);
	free(rows[k]);
	rows[j] = a;
	rows[k] = b;
	narray[j] = na;
	at[k] = own_j;
	*j_reordered = true;
	*k_slice = j;
}

/* The second form: a table per distinct input, and SYMBOL_tables[]. */
static int multi(const char *units, const char *symbol, const char *opath, char **inputs, int ninputs)
{
	static struct row *rows[MAX_INPUTS];
	static int nrows[MAX_INPUTS], table_of[MAX_INPUTS], slice_of[MAX_INPUTS], narray[MAX_INPUTS], at[MAX_INPUTS];
	static bool reordered[MAX_INPUTS];
	char name[128];

	if (ninputs > MAX_INPUTS) {
		fprintf(stderr, "gen_events: at most %d inputs\n", MAX_INPUTS);
		return 2;
	}
	for (int k = 0; k < ninputs; k++) {
		nrows[k] = read_rows(inputs[k], units, &rows[k]);
		if (!nrows[k])
			die(1, "no event of the Units %s", units);
		table_of[k] = slice_of[k] = k;
		for (int j = 0; j < k && table_of[k] == k; j++)
			if (same_rows(rows[j], nrows[j], rows[k], nrows[k]))
				table_of[k] = slice_of[k] = table_of[j];
	}
	/* A table whose events are all another's (Sierra Forest's within
	 * Granite Rapids'): the first rows of that one, which takes them
	 * first, with an index of its own. Never the first input's, which is
	 * also SYMBOL and so keeps an array of its own. */
	for (int k = 1; k < ninputs; k++)
		for (int j = 0; j < ninputs && slice_of[k] == k && table_of[k] == k; j++)
			if (j != k && table_of[j] == j && slice_of[j] == j && !reordered[j] && nrows[j] > nrows[k] &&
			    rows_within(rows[k], nrows[k], rows[j], nrows[j])) {
				put_first(rows[k], nrows[k], rows[j], nrows[j]);
				reordered[j] = true;
				slice_of[k] = j;
			}
	for (int k = 0; k < ninputs; k++)
		narray[k] = nrows[k];
	/* A table sharing most of its events with another (Sierra Forest's
	 * and Granite Rapids', whose TOR events differ): that one's rows
	 * become its own, then the shared ones, and this one's own follow them
	 * in its array, so that this table is a run of it from the shared
	 * rows on (again never the first input's). */
	for (int k = 1; k < ninputs; k++)
		for (int j = 0; j < ninputs && slice_of[k] == k && table_of[k] == k && !reordered[k]; j++)
			if (j != k && table_of[j] == j && slice_of[j] == j && !reordered[j])
				overlap(rows, nrows, narray, at, k, j, &reordered[j], &slice_of[k]);
	FILE *out = fopen(opath, "w");
	if (!out) {
		fprintf(stderr, "%s: cannot create: %s\n", opath, strerror(errno));
		return 1;
	}
	fprintf(out, "/* Generated by tools/gen_events from");
	for (int k = 0; k < ninputs; k++)
		fprintf(out, " %s", inputs[k]);
	fprintf(out, " (Units %s). Do not edit. */\n#include \"events.h\"\n", units);
	int rc = 0;
	for (int k = 0; k < ninputs && !rc; k++) {
		if (table_of[k] != k)
			continue;
		if (k)
			snprintf(name, sizeof(name), "%s_%d", symbol, k);
		else
			snprintf(name, sizeof(name), "%s", symbol);
		rc = write_rows(out, name, opath, rows[k], nrows[k], narray[k], slice_of[k] != k);
	}
	fprintf(out, "\nconst struct event_table %s_tables[] = {\n", symbol);
	for (int k = 0; k < ninputs; k++) {
		char rows_name[128];
		int own = table_of[k], from = slice_of[own];
		if (own)
			snprintf(name, sizeof(name), "%s_%d", symbol, own);
		else
			snprintf(name, sizeof(name), "%s", symbol);
		if (from)
			snprintf(rows_name, sizeof(rows_name), "%s_%d", symbol, from);
		else
			snprintf(rows_name, sizeof(rows_name), "%s", symbol);
		const char *base = strrchr(inputs[k], '/');
		if (at[own])
			fprintf(out, "\t{ %s + %d, %s_by_hash, %d, ", rows_name, at[own], name, nrows[k]);
		else
			fprintf(out, "\t{ %s, %s_by_hash, %d, ", rows_name, name, nrows[k]);
		put_c_string(out, base ? base + 1 : inputs[k]);
		fprintf(out, " },\n");
	}
	fprintf(out, "};\n\nconst unsigned %s_ntables = %d;\n", symbol, ninputs);
	if (fclose(out) && !rc) {
		fprintf(stderr, "%s: write failed\n", opath);
		return 1;
	}
	if (rc)
		remove(opath);
	return rc;
}

int main(int argc, char **argv)
{
	static struct row *rows;
	const char *skip[8];
	unsigned nskip = 0;

	if (argc >= 5 && !strncmp(argv[1], "--units=", 8) && argv[1][8])
		return multi(argv[1] + 8, argv[2], argv[3], argv + 4, argc - 4);
	while (argc > 2 && !strcmp(argv[1], "-x") && nskip < sizeof(skip) / sizeof(skip[0])) {
		skip[nskip++] = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: gen_events [-x UNIT]... SYMBOL INPUT.json OUTPUT.c (at most %u -x)\n"
				"       gen_events --units=U1,U2,... SYMBOL OUTPUT.c INPUT.json...\n",
			(unsigned)(sizeof(skip) / sizeof(skip[0])));
		return 2;
	}
	int nev = read_rows(argv[2], NULL, &rows);
	for (unsigned k = 0; k < nskip; k++) {
		int kept = 0;
		for (int i = 0; i < nev; i++)
			if (strcmp(rows[i].unit, skip[k]))
				rows[kept++] = rows[i];
		if (kept == nev)
			die(json_line(), "-x %s: no event of that Unit", skip[k]);
		nev = kept;
	}

	FILE *out = fopen(argv[3], "w");
	if (!out) {
		fprintf(stderr, "%s: cannot create: %s\n", argv[3], strerror(errno));
		return 1;
	}
	int rc = write_table(out, argv[1], argv[3], rows, nev);
	if (fclose(out) && !rc) {
		fprintf(stderr, "%s: write failed\n", argv[3]);
		return 1;
	}
	return rc;
}
