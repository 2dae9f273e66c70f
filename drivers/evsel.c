#include "evsel.h"

#include <string.h>

#include "fmt.h"
#include "parse.h"
#include "skl.h"

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

/* ARB events 0x80 (occupancy, Table 3-2: counter 0) and 0x83 count on ARB
 * counter 0 only. The manual lists no event 0x83; the restriction comes from
 * Linux, arch/x86/events/intel/uncore_snb.c, snb_uncore_arb_constraints:
 * UNCORE_EVENT_CONSTRAINT(0x80, 0x1) and UNCORE_EVENT_CONSTRAINT(0x83, 0x1). */
static uint8_t raw_counters(uint8_t unit, uint8_t code)
{
	if (unit == EV_UNIT_ARB && (code == 0x80 || code == 0x83))
		return 0x1;
	return 0x3;
}

static enum unc_status parse_raw(const char *s, const char *slash, struct ev_spec *e, char *err, size_t errsize)
{
	char unit[8], terms[EVSEL_NAME_MAX];
	size_t ulen = (size_t)(slash - s), len = strlen(s);
	bool seen_event = false, seen_umask = false, seen_thr = false, seen_inv = false, seen_edge = false;

	if (ulen == 0 || ulen >= sizeof(unit))
		FAIL("bad raw event '%s' (want cbo/event=N,umask=N/ or arb/.../)", s);
	memcpy(unit, s, ulen);
	unit[ulen] = '\0';
	if (str_ieq(unit, "cbo") || str_ieq(unit, "cbox"))
		e->unit = EV_UNIT_CBO;
	else if (str_ieq(unit, "arb"))
		e->unit = EV_UNIT_ARB;
	else
		FAIL("unknown PMU '%s' in '%s' (want cbo, arb, or imc/NAME/ for an IMC counter)", unit, s);
	if (len < ulen + 2 || s[len - 1] != '/')
		FAIL("raw event '%s' must end with '/'", s);
	size_t tlen = len - ulen - 2;
	if (tlen >= sizeof(terms))
		FAIL("raw event '%s' is too long", s);
	memcpy(terms, slash + 1, tlen);
	terms[tlen] = '\0';
	if (strchr(terms, '/'))
		FAIL("raw event '%s' has a '/' inside its terms", s);

	char *p = terms;
	while (*p) {
		char *end = strchr(p, ','), *eq;
		if (end)
			*end = '\0';
		if (!*p)
			FAIL("empty term in '%s'", s);
		eq = strchr(p, '=');
		if (eq)
			*eq = '\0';
		const char *val = eq ? eq + 1 : NULL;
		uint64_t v = 1;
		bool *seen;
		uint64_t max;
		/* Table 2-7: EVT_SEL and UMASK 8 bits, THR 5 bits, INV and E 1 bit. */
		if (!strcmp(p, "event")) {
			seen = &seen_event;
			max = 0xff;
		} else if (!strcmp(p, "umask")) {
			seen = &seen_umask;
			max = 0xff;
		} else if (!strcmp(p, "thresh") || !strcmp(p, "cmask")) {
			seen = &seen_thr;
			max = 0x1f;
		} else if (!strcmp(p, "inv")) {
			seen = &seen_inv;
			max = 1;
		} else if (!strcmp(p, "edge")) {
			seen = &seen_edge;
			max = 1;
		} else {
			FAIL("unknown term '%s' in '%s' (event, umask, thresh, inv, edge)", p, s);
		}
		if (*seen)
			FAIL("term '%s' given twice in '%s'", p, s);
		*seen = true;
		if (!val && max != 1)
			FAIL("term '%s' needs a value in '%s'", p, s);
		if (val && !parse_u64(val, max, &v))
			FAIL("bad value '%s' for '%s' in '%s' (at most 0x%lx: Table 2-7)", val, p, s, (unsigned long)max);
		if (!strcmp(p, "event"))
			e->code = (uint8_t)v;
		else if (!strcmp(p, "umask"))
			e->umask = (uint8_t)v;
		else if (seen == &seen_thr)
			e->thr = (uint8_t)v;
		else if (seen == &seen_inv)
			e->inv = v;
		else
			e->edge = v;
		if (!end)
			break;
		p = end + 1;
		if (!*p)
			FAIL("empty term in '%s'", s);
	}
	if (!seen_event)
		FAIL("raw event '%s' has no event= term", s);
	e->counters = raw_counters(e->unit, e->code);
	return UNC_OK;
}

enum unc_status evsel_parse(const char *s, struct ev_spec *e, char *err, size_t errsize)
{
	memset(e, 0, sizeof(*e));
	if (!*s)
		FAIL("empty event name");
	if (strlen(s) >= EVSEL_NAME_MAX)
		FAIL("event '%.20s...' is too long (at most %d characters)", s, EVSEL_NAME_MAX - 1);
	fmt_snprintf(e->name, sizeof(e->name), "%s", s);

	int imc = skl_imc_find(s);
	if (imc >= 0) { /* free-running: no event select, no counter to take */
		e->unit = EV_UNIT_IMC;
		e->imc = (uint8_t)imc;
		fmt_snprintf(e->name, sizeof(e->name), "%s", skl_imc[imc].name);
		return UNC_OK;
	}
	const char *slash = strchr(s, '/');
	if (slash)
		return parse_raw(s, slash, e, err, errsize);

	const struct event_desc *d = event_find(s);
	if (!d)
		FAIL("unknown event '%s' (see 'uncore.efi list')", s);
	e->desc = d;
	fmt_snprintf(e->name, sizeof(e->name), "%s", d->name); /* the manual's spelling */
	e->unit = d->unit;
	e->code = d->code;
	e->umask = d->umask;
	e->thr = d->cmask;
	e->inv = d->inv;
	e->edge = d->edge;
	e->counters = d->counters;
	return UNC_OK;
}

enum unc_status evsel_split(const char *list, enum unc_status (*fn)(void *ctx, const char *piece), void *ctx,
			    char *err, size_t errsize)
{
	char piece[EVSEL_NAME_MAX * 2];
	const char *start = list;
	int slashes = 0;

	for (const char *p = list;; p++) {
		if (*p == '/')
			slashes++;
		/* A comma separates events only outside "unit/.../". */
		if (*p == '\0' || (*p == ',' && slashes % 2 == 0)) {
			size_t n = (size_t)(p - start);
			if (n == 0)
				FAIL("empty event in list '%s'", list);
			if (n >= sizeof(piece))
				FAIL("event '%.20s...' is too long", start);
			memcpy(piece, start, n);
			piece[n] = '\0';
			enum unc_status st = fn(ctx, piece);
			if (st)
				return st;
			if (*p == '\0')
				return UNC_OK;
			start = p + 1;
			slashes = 0;
		}
	}
}

bool evsel_same(const struct ev_spec *a, const struct ev_spec *b)
{
	if (a->unit != b->unit)
		return false;
	if (a->unit == EV_UNIT_IMC)
		return a->imc == b->imc;
	return evsel_encode(a) == evsel_encode(b);
}

uint64_t evsel_encode(const struct ev_spec *e)
{
	if (e->unit == EV_UNIT_IMC)
		return skl_imc[e->imc].offset; /* not an event select: the counter's MCHBAR offset */
	if (e->unit == EV_UNIT_FIXED)
		return 1ull << 22; /* Table 2-4: CNT_EN */
	/* Table 2-7: THR 28:24, INV 23, EN 22, E 18, UMASK 15:8, EVT_SEL 7:0. */
	return (uint64_t)e->thr << 24 | (uint64_t)e->inv << 23 | 1ull << 22 | (uint64_t)e->edge << 18 |
	       (uint64_t)e->umask << 8 | e->code;
}
