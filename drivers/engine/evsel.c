#include "evsel.h"

#include <string.h>

#include "../base/fmt.h"
#include "../base/parse.h"

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

/* src into dst[size], cut to fit: the names the parser keeps. */
static void copy_name(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static bool listed(const struct pmu_driver *const *list, const struct pmu_driver *drv)
{
	for (unsigned d = 0; list && list[d]; d++)
		if (list[d] == drv)
			return true;
	return false;
}

uint8_t evsel_raw_counters(const struct pmu_unit *u, uint8_t code)
{
	for (const struct pmu_constraint *c = u->constraints; c && c->counters; c++)
		if (c->code == code)
			return c->counters;
	return (uint8_t)((1u << u->counters) - 1);
}

/* The generated index of a driver's events by name (pmu_event_index,
 * build/gen/pmu_event_index.c); NULL for a table with none (tests' own). */
static const uint16_t *name_index(const struct pmu_driver *drv)
{
	unsigned n;
	const uint16_t *by;
	const struct event_desc *ev = pmu_events(drv, &n, &by);

	for (const struct pmu_event_index *x = pmu_event_index; !by && x->events; x++)
		if (x->events == ev)
			return x->by_hash;
	return by;
}

static char fold(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

/* Whether name (any case) is pre (may be "") followed by rest. */
static bool ieq_cat(const char *name, const char *pre, const char *rest)
{
	for (; *pre; pre++, name++)
		if (fold(*name) != fold(*pre))
			return false;
	return str_ieq(name, rest);
}

/* What the lookups need of pmu_drivers, worked out once per run
 * (run_index): each driver's hash index, the units whose short_prefix
 * find_short looks under, and a filter of every name of theirs. A list of drivers other than pmu_drivers (those present on a
 * CPU, the tests' own) goes the long way. */
#define IDX_MAX_DRIVERS 32
/* The name filters' size: 2 bits of each name's hash in 16384 (2 KB, in
 * .bss): with the ~450 names of today's drivers, about 1 name in 300 that
 * is none of them gets past it (1 in 8 with 2048 bits). */
#define FILTER_BITS 16384

static struct {
	bool built, usable;
	unsigned gen; /* pmu_events_gen it was built for */
	const uint16_t *by_hash[IDX_MAX_DRIVERS];
	/* Bit u: unit u is the first of pmu_drivers[d] with its short_prefix. */
	uint8_t short_first[IDX_MAX_DRIVERS];
	/* The hashes (str_ihash) of every name the drivers answer to: their
	 * events', their free-running counters' three (NAME, perf's name,
	 * PMU/perf's name/) and their units' perf names and aliases. Bits
	 * h % 16384 and h / 16384 % 16384 of each are set: a name with either
	 * bit clear is none of them. */
	uint64_t names[FILTER_BITS / 64];
	/* The same filter of the free-running counters' names alone (a few
	 * dozen): find_free walks a driver's units only for a name it may have. */
	uint64_t free_names[FILTER_BITS / 64];
} run_idx;

static void filter_add(uint64_t *filter, uint32_t h)
{
	filter[(h & (FILTER_BITS - 1)) / 64] |= (uint64_t)1 << (h & 63);
	filter[(h >> 14 & (FILTER_BITS - 1)) / 64] |= (uint64_t)1 << (h >> 14 & 63);
}

static bool filter_has(const uint64_t *filter, uint32_t h)
{
	return (filter[(h & (FILTER_BITS - 1)) / 64] >> (h & 63) & 1) &&
	       (filter[(h >> 14 & (FILTER_BITS - 1)) / 64] >> (h >> 14 & 63) & 1);
}

static void note_name(uint32_t h)
{
	filter_add(run_idx.names, h);
}

/* A free-running counter's name: in both filters. */
static void note_free_name(uint32_t h)
{
	filter_add(run_idx.names, h);
	filter_add(run_idx.free_names, h);
}

/* Whether a driver of pmu_drivers may have a name whose hash is h. */
static bool may_be_name(uint32_t h)
{
	return filter_has(run_idx.names, h);
}


/* The short_prefix of unit u of drv, if u is the first unit with it (units
 * sharing a prefix: one lookup); NULL otherwise. */
static const char *first_prefix(const struct pmu_driver *drv, unsigned u)
{
	const char *pre = drv->units[u].short_prefix;

	if (!pre || !*pre)
		return NULL;
	for (unsigned v = 0; v < u; v++)
		if (drv->units[v].short_prefix && !strcmp(drv->units[v].short_prefix, pre))
			return NULL;
	return pre;
}

static bool build_index(void)
{
	unsigned n = 0;

	for (; pmu_drivers[n]; n++) {
		const struct pmu_driver *drv = pmu_drivers[n];
		if (n >= IDX_MAX_DRIVERS || drv->nunits > PMU_MAX_UNITS)
			return false;
		unsigned nev;
		const struct event_desc *ev = pmu_events(drv, &nev, NULL);
		run_idx.by_hash[n] = name_index(drv);
		for (unsigned i = 0; i < nev; i++)
			note_name(str_ihash(STR_IHASH_INIT, ev[i].name));
		for (unsigned u = 0; u < drv->nunits; u++) {
			const struct pmu_unit *pu = &drv->units[u];
			const char *pre = first_prefix(drv, u);
			if (pre) {
				run_idx.short_first[n] |= (uint8_t)(1u << u);
			}
			note_name(str_ihash(STR_IHASH_INIT, pu->pmu));
			if (pu->alias)
				note_name(str_ihash(STR_IHASH_INIT, pu->alias));
			for (unsigned k = 0; pu->kind == PMU_FREE && k < pu->counters; k++) {
				const struct pmu_free *c = &pu->free[k];
				note_free_name(str_ihash(STR_IHASH_INIT, c->name));
				note_free_name(str_ihash(STR_IHASH_INIT, c->perf_name));
				note_free_name(str_ihash(
					str_ihash(str_ihash(str_ihash(STR_IHASH_INIT, pu->pmu), "/"), c->perf_name), "/"));
			}
		}
	}
	return true;
}

/* Whether the run's index is there (false: pmu_drivers does not fit it,
 * and every lookup goes the long way). */
static bool run_index(void)
{
	if (!run_idx.built || run_idx.gen != pmu_events_gen) {
		memset(&run_idx, 0, sizeof(run_idx));
		run_idx.gen = pmu_events_gen;
		run_idx.usable = build_index();
		run_idx.built = true;
	}
	return run_idx.usable;
}


/* The event named pre + rest (any case) in drv's table, h being
 * str_ihash of that name: one probe sequence of the driver's hash index.
 * di: drv's place in pmu_drivers with the run's index (its filter may
 * tell at once that there is none), or -1. */
static const struct event_desc *find_hashed(const struct pmu_driver *drv, int di, const char *pre, const char *rest,
					    uint32_t h)
{
	if (di >= 0 && !may_be_name(h))
		return NULL;
	const uint16_t *by = di >= 0 ? run_idx.by_hash[di] : name_index(drv);
	unsigned nev;
	const struct event_desc *ev = pmu_events(drv, &nev, NULL);

	if (!by) {
		for (unsigned i = 0; i < nev; i++)
			if (ieq_cat(ev[i].name, pre, rest))
				return &ev[i];
		return NULL;
	}
	for (unsigned mask = by[0], k = h & mask; by[1 + k]; k = (k + 1) & mask) {
		const struct event_desc *d = &ev[by[1 + k] - 1];
		if (ieq_cat(d->name, pre, rest))
			return d;
	}
	return NULL;
}

const struct event_desc *evsel_find(const struct pmu_driver *drv, const char *name)
{
	return find_hashed(drv, -1, "", name, str_ihash(STR_IHASH_INIT, name));
}

/* The event `name` names without its unit's short_prefix, in a unit that
 * has one; NULL: none. */
static const struct event_desc *find_short(const struct pmu_driver *drv, int di, const char *name)
{
	for (unsigned u = 0; u < drv->nunits; u++) {
		const char *pre = drv->units[u].short_prefix;
		if (di >= 0 ? !(run_idx.short_first[di] >> u & 1) : !first_prefix(drv, u)) /* the run's index knows */
			continue;
		const struct event_desc *d =
			find_hashed(drv, di, pre, name, str_ihash(str_ihash(STR_IHASH_INIT, pre), name));
		int du = d ? pmu_unit_of_event(drv, d) : -1;
		if (du >= 0 && drv->units[du].short_prefix && !strcmp(drv->units[du].short_prefix, pre))
			return d;
	}
	return NULL;
}

static uint64_t field_max(struct pmu_field f)
{
	return f.bits ? pmu_width_mask(f.bits) : 0;
}

/* A unit by its perf name in the given drivers (NULL-terminated list) but
 * those of skip (looked in already). */
static bool find_unit(const struct pmu_driver *const *drivers, const struct pmu_driver *const *skip, bool indexed,
		      const char *name, const struct pmu_driver **ret_drv, int *ret_unit)
{
	/* in pmu_drivers with the run's index: a name it rules out is no unit's */
	bool skip_all = indexed && drivers == pmu_drivers && !may_be_name(str_ihash(STR_IHASH_INIT, name));

	for (unsigned d = 0; !skip_all && drivers && drivers[d]; d++) {
		if (listed(skip, drivers[d]))
			continue;
		int u = pmu_unit_by_name(drivers[d], name);
		if (u >= 0) {
			*ret_drv = drivers[d];
			*ret_unit = u;
			return true;
		}
	}
	return false;
}

/* s after "PMU/" (any case); NULL when s does not start so. */
static const char *after_pmu(const char *s, const char *pmu)
{
	for (; *pmu; pmu++, s++)
		if (fold(*s) != fold(*pmu))
			return NULL;
	return *s == '/' ? s + 1 : NULL;
}

/* A free-running counter of drv that s (not empty; c0: fold(s[0])) names,
 * as free_name_matches says: its manual's name, perf's name or PMU/NAME/;
 * the unit's PMU/ is compared once, and a name only when its first letter
 * is s's. On the way, *ret_short: whether a unit of drv has a short_prefix
 * (find_short has something to do). */
static bool find_free(const struct pmu_driver *drv, const char *s, char c0, struct ev_spec *e, bool *ret_short)
{
	*ret_short = false;
	for (unsigned u = 0; u < drv->nunits; u++) {
		const struct pmu_unit *pu = &drv->units[u];
		if (pu->short_prefix && *pu->short_prefix)
			*ret_short = true;
		if (pu->kind != PMU_FREE)
			continue;
		const char *after = after_pmu(s, pu->pmu);
		for (unsigned k = 0; k < pu->counters; k++) {
			const struct pmu_free *c = &pu->free[k];
			if (!(fold(c->name[0]) == c0 && str_ieq(s, c->name)) &&
			    !(fold(c->perf_name[0]) == c0 && str_ieq(s, c->perf_name)) &&
			    !(after && ieq_cat(after, c->perf_name, "/")))
				continue;
			e->drv = drv;
			e->unit = (uint8_t)u;
			e->free = (uint8_t)k;
			copy_name(e->name, sizeof(e->name), c->name);
			return true;
		}
	}
	return false;
}

/* "a cbox event", "an imc event" */
static const char *article(const char *word)
{
	return strchr("aeiouAEIOU", word[0]) && word[0] ? "an" : "a";
}

/* The refusal of an event of unit u of drv, a driver this CPU lacks:
 * "X is a cbox event; this CPU has no cbox PMU (why, if the driver says)".
 * Where a driver present has a PMU of that name (Alder Lake's cbox, Lunar
 * Lake's arb: another generation's event names), the PMU is there and the
 * name is not in its table: said so, naming the table searched. */
static enum unc_status absent(const char *name, const struct pmu_driver *const *present, const struct pmu_driver *drv,
			      int u, char *err, size_t errsize)
{
	const char *pmu = drv->units[u].pmu;
	const struct pmu_driver *here;
	int hu;

	if (find_unit(present, NULL, false, pmu, &here, &hu)) { /* at most about 200 characters with a 64-character name */
		const struct pmu_unit *hp = &here->units[hu];
		UNC_ERR(UNC_E_UNSUPPORTED, "%s is %s %s %s event, not in the %s table (%s); this CPU's %s PMU %s (see 'uncore.efi list')",
			name, article(drv->title), drv->title, pmu, here->title, here->name, hp->pmu,
			hp->raw_help ? "takes raw events" : "has other events");
	}
	UNC_ERR(UNC_E_UNSUPPORTED, "%s is %s %s event; this CPU has no %s PMU%s%s%s", name, article(pmu), pmu, pmu,
		drv->absent ? " (" : "", drv->absent ? drv->absent : "", drv->absent ? ")" : "");
}

/* s put at buf[n] of buf[size] (size > 0), cut to fit as fmt_snprintf
 * at buf + n cuts: the length without the cut. */
static size_t append(char *buf, size_t size, size_t n, const char *s)
{
	for (; *s; s++, n++)
		if (n < size - 1)
			buf[n] = *s;
	buf[n < size ? n : size - 1] = '\0';
	return n;
}

/* The general units' perf names, for a message: "cbox, arb". */
static void unit_names(const struct pmu_driver *const *drivers, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned d = 0; drivers && drivers[d]; d++)
		for (unsigned u = 0; u < drivers[d]->nunits; u++)
			if (drivers[d]->units[u].kind == PMU_GENERAL && n < size)
				n = append(buf, size, append(buf, size, n, n ? ", " : ""), drivers[d]->units[u].pmu);
	if (!n)
		append(buf, size, 0, "none on this CPU");
}

static enum unc_status parse_raw(const char *s, const char *slash, const struct pmu_driver *const *present,
				 bool indexed, struct ev_spec *e, char *err, size_t errsize)
{
	char unit[16], terms[EVSEL_NAME_MAX], names[80];
	size_t ulen = (size_t)(slash - s), len = strlen(s);
	bool seen_event = false, seen_umask = false, seen_thr = false, seen_inv = false, seen_edge = false;
	int u;

	if (ulen == 0 || ulen >= sizeof(unit))
		FAIL("bad raw event '%s' (want PMU/event=N,umask=N/)", s);
	memcpy(unit, s, ulen);
	unit[ulen] = '\0';
	if (!find_unit(present, NULL, indexed, unit, &e->drv, &u)) {
		const struct pmu_driver *any;
		if (present != pmu_drivers && find_unit(pmu_drivers, present, indexed, unit, &any, &u))
			return absent(s, present, any, u, err, errsize);
		unit_names(present, names, sizeof(names));
		FAIL("unknown PMU '%s' in '%s' (PMUs with raw events here: %s)", unit, s, names);
	}
	e->unit = (uint8_t)u;
	const struct pmu_unit *pu = ev_unit(e);
	if (pu->kind != PMU_GENERAL)
		FAIL("'%s': the %s PMU takes no raw events (see 'uncore.efi list')", s, pu->pmu);
	const struct pmu_layout *l = pu->layout;
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
		/* Each field as wide as the unit's event select has it. */
		if (!strcmp(p, "event")) {
			seen = &seen_event;
			max = field_max(l->event);
		} else if (!strcmp(p, l->umask_term ? l->umask_term : "umask")) {
			seen = &seen_umask;
			/* with an extension: its bits above the umask field's */
			max = field_max(l->umask) | field_max(l->umask_ext) << l->umask.bits;
		} else if (!strcmp(p, "thresh") || !strcmp(p, "cmask")) {
			seen = &seen_thr;
			max = field_max(l->thresh);
		} else if (!strcmp(p, "inv")) {
			seen = &seen_inv;
			max = l->inv ? 1 : 0;
		} else if (!strcmp(p, "edge")) {
			seen = &seen_edge;
			max = l->edge ? 1 : 0;
		} else {
			FAIL("unknown term '%s' in '%s' (event, %s, thresh, inv, edge)", p, s,
			     l->umask_term ? l->umask_term : "umask");
		}
		if (max == 0)
			FAIL("term '%s' in '%s': the %s PMU's event select has no such field", p, s, pu->pmu);
		if (*seen)
			FAIL("term '%s' given twice in '%s'", p, s);
		*seen = true;
		if (!val && max != 1)
			FAIL("term '%s' needs a value in '%s'", p, s);
		if (val && !parse_u64(val, max, &v))
			FAIL("bad value '%s' for '%s' in '%s' (at most 0x%lx: %s)", val, p, s, (unsigned long)max,
			     l->cite ? l->cite : "the event select's field");
		if (seen == &seen_event)
			e->code = (uint8_t)v;
		else if (seen == &seen_umask)
			e->umask = (uint8_t)(v & field_max(l->umask)), e->umask_ext = (uint32_t)(v >> l->umask.bits);
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
	e->counters = evsel_raw_counters(pu, e->code);
	return UNC_OK;
}

static enum unc_status from_desc(const char *s, const struct pmu_driver *drv, const struct event_desc *d,
				 struct ev_spec *e, char *err, size_t errsize)
{
	int u = pmu_unit_of_event(drv, d);

	if (u < 0) /* the host tests check every table against its driver */
		FAIL("event '%s' has Unit '%s', which driver %s does not have", s, d->unit, drv->name);
	e->desc = d;
	e->drv = drv;
	e->unit = (uint8_t)u;
	copy_name(e->name, sizeof(e->name), d->name); /* the table's spelling */
	e->code = d->code;
	e->umask = d->umask;
	e->thr = d->cmask;
	e->inv = d->inv;
	e->edge = d->edge;
	e->umask_ext = d->umask_ext;
	if (d->umask_ext && drv->units[u].kind == PMU_GENERAL && !drv->units[u].layout->umask_ext.bits)
		FAIL("cannot count %s: its umask extension (0x%08x) has no field in the %s PMU's event select", d->name,
		     (unsigned)d->umask_ext, drv->units[u].pmu);
	e->counters = d->counters & EV_COUNTER_FIXED ? d->counters : (uint8_t)(d->counters >> drv->units[u].first_counter);
	return UNC_OK;
}

enum unc_status evsel_parse(const char *s, const struct pmu_driver *const *present, struct ev_spec *e, char *err,
			    size_t errsize)
{
	memset(e, 0, sizeof(*e));
	if (!*s)
		FAIL("empty event name");
	if (strlen(s) >= EVSEL_NAME_MAX)
		FAIL("event '%.20s...' is too long (at most %d characters)", s, EVSEL_NAME_MAX - 1);
	copy_name(e->name, sizeof(e->name), s);

	/* One walk of the drivers present: a free-running counter of any of
	 * them first, else the first with the name, else the first with it as
	 * a short name (the manual's CAS_COUNT.RD: a unit's prefix and the
	 * name, in a unit that has one). */
	const char *slash = strchr(s, '/');
	uint32_t hash = str_ihash(STR_IHASH_INIT, s);
	char c0 = fold(s[0]);
	const struct pmu_driver *name_drv = NULL, *short_drv = NULL;
	const struct event_desc *name_desc = NULL, *short_desc = NULL;
	/* With the run's index, a name its filter rules out is looked for in
	 * none of pmu_drivers (di: a driver's place in it, -1: not known). */
	bool indexed = run_index(), maybe = indexed && may_be_name(hash),
	     maybe_free = maybe && filter_has(run_idx.free_names, hash);
	for (unsigned d = 0; present && present[d]; d++) {
		int di = indexed && present == pmu_drivers ? (int)d : -1;
		bool shorts = di >= 0 && run_idx.short_first[di];
		/* free-running: no event select, no counter to take */
		if ((di < 0 || maybe_free) && find_free(present[d], s, c0, e, &shorts))
			return UNC_OK;
		if (slash || name_desc)
			continue;
		if ((name_desc = find_hashed(present[d], di, "", s, hash)))
			name_drv = present[d];
		else if (shorts && !short_desc && (short_desc = find_short(present[d], di, s)))
			short_drv = present[d];
	}
	if (name_desc)
		return from_desc(s, name_drv, name_desc, e, err, errsize);
	if (short_desc) {
		/* A short name is its event's full name: the driver that name
		 * gives first (with every driver present, SPR's UNC_M_CLOCKTICKS
		 * before the E5-2600's, whose imc unit's prefix made it). */
		uint32_t h = str_ihash(STR_IHASH_INIT, short_desc->name);
		for (unsigned d = 0; present[d] && present[d] != short_drv; d++) {
			const struct event_desc *full =
				find_hashed(present[d], indexed && present == pmu_drivers ? (int)d : -1, "", short_desc->name, h);
			if (full)
				return from_desc(s, present[d], full, e, err, errsize);
		}
		return from_desc(s, short_drv, short_desc, e, err, errsize);
	}

	/* Not on this CPU: whose is it? One walk of the other drivers: a
	 * free-running counter of any of them first, else a raw event of the
	 * drivers present, else each driver with the name or the short name:
	 * a name several drivers have (P6's and Knights Corner's
	 * CPU_CLK_UNHALTED) is refused naming each of their PMUs. */
	/* A PMU name several drivers share (the client generations' arb,
	 * clock; imc) is named once. */
	struct ev_spec other;
	char pmus[80];
	size_t n = 0;
	const struct pmu_driver *only = NULL;
	const struct event_desc *only_desc = NULL;
	int only_u = -1, found = 0;
	for (unsigned d = 0; present != pmu_drivers && pmu_drivers[d]; d++) { /* else all are present */
		const struct pmu_driver *drv = pmu_drivers[d];
		int di = indexed ? (int)d : -1;
		if (listed(present, drv))
			continue;
		bool shorts = indexed && run_idx.short_first[d];
		if ((!indexed || maybe_free) && find_free(drv, s, c0, &other, &shorts))
			return absent(s, present, other.drv, other.unit, err, errsize);
		if (slash || n >= sizeof(pmus))
			continue;
		const struct event_desc *desc = find_hashed(drv, di, "", s, hash);
		if (!desc && shorts) /* or its short name */
			desc = find_short(drv, di, s);
		int u = desc ? pmu_unit_of_event(drv, desc) : -1;
		if (u < 0 || (only && !strcmp(only->units[only_u].pmu, drv->units[u].pmu)))
			continue;
		n += fmt_snprintf(pmus + n, sizeof(pmus) - n, "%s%s", found++ ? " or " : "", drv->units[u].pmu);
		only = drv;
		only_desc = desc;
		only_u = u;
	}
	if (slash)
		return parse_raw(s, slash, present, indexed, e, err, errsize);
	if (found == 1)
		return absent(only_desc->name, present, only, only_u, err, errsize);
	if (found > 1)
		UNC_ERR(UNC_E_UNSUPPORTED, "%s is an event of the %s PMUs; this CPU has none of them", s, pmus);
	FAIL("unknown event '%s' (see 'uncore.efi list')", s);
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
	if (a->drv != b->drv || a->unit != b->unit)
		return false;
	if (ev_unit(a)->kind == PMU_FREE)
		return a->free == b->free;
	if (ev_unit(a)->kind == PMU_FIXED) /* one event per fixed counter: the same counter, the same event */
		return (a->counters & (uint8_t)~EV_COUNTER_FIXED) == (b->counters & (uint8_t)~EV_COUNTER_FIXED);
	return evsel_encode(a) == evsel_encode(b);
}

static uint64_t put(struct pmu_field f, uint64_t v)
{
	return f.bits ? (v & pmu_width_mask(f.bits)) << f.shift : 0;
}

uint64_t evsel_encode(const struct ev_spec *e)
{
	const struct pmu_unit *u = ev_unit(e);

	if (u->kind == PMU_FREE)
		return u->free[e->free].offset; /* not an event select: the counter's offset */
	if (u->kind == PMU_FIXED)
		return u->fixed_ctrl;
	const struct pmu_layout *l = u->layout;
	return put(l->thresh, e->thr) | (e->inv ? l->inv : 0) | l->enable | (e->edge ? l->edge : 0) |
	       put(l->umask, e->umask) | put(l->umask_ext, e->umask_ext) | put(l->event, e->code) | l->os_usr;
}

uint8_t evsel_role(const struct ev_spec *e)
{
	const struct pmu_unit *u = ev_unit(e);

	if (u->kind == PMU_FREE)
		return u->free[e->free].role;
	/* A general event that programs what a role event does, however it is spelled. */
	for (const struct pmu_role_event *x = u->role_events; u->kind == PMU_GENERAL && x && x->event; x++) {
		const struct event_desc *d = evsel_find(e->drv, x->event);
		if (d && pmu_unit_of_event(e->drv, d) == e->unit && d->code == e->code && d->umask == e->umask && d->umask_ext == e->umask_ext &&
		    d->cmask == e->thr && !d->inv == !e->inv && !d->edge == !e->edge)
			return x->role;
	}
	return PMU_ROLE_NONE;
}

void evsel_view(const struct ev_spec *e, unsigned nboxes, struct count_view *v)
{
	const struct pmu_unit *u = ev_unit(e);

	*v = (struct count_view){ .kind = u->kind, .width = u->width, .clock = u->clock, .encoding = evsel_encode(e) };
	fmt_snprintf(v->pmu, sizeof(v->pmu), "%s", u->pmu);
	fmt_snprintf(v->driver, sizeof(v->driver), "%s", e->drv->name);
	v->nboxes = (uint16_t)(u->kind == PMU_FREE ? 1 : nboxes);
	if (u->box_label && u->max_boxes > 1)
		fmt_snprintf(v->box_label, sizeof(v->box_label), "%s", u->box_label);
	if (u->box_noun)
		fmt_snprintf(v->box_noun, sizeof(v->box_noun), "%s", u->box_noun);
	if (u->group_noun && u->box_label && u->max_boxes > 1)
		fmt_snprintf(v->group_noun, sizeof(v->group_noun), "%s", u->group_noun);
	v->role = evsel_role(e);
	if (u->kind == PMU_FREE) {
		const struct pmu_free *c = &u->free[e->free];
		fmt_snprintf(v->count_word, sizeof(v->count_word), "%s", c->count_word);
		if (c->short_name)
			fmt_snprintf(v->short_name, sizeof(v->short_name), "%s", c->short_name);
		fmt_snprintf(v->enc_prefix, sizeof(v->enc_prefix), "%s+", u->base_name ? u->base_name : u->pmu);
	} else {
		fmt_snprintf(v->count_word, sizeof(v->count_word), "%s",
			     (u->kind == PMU_FIXED && u->clock) || (e->thr && !e->edge) ? "cycles" : "events");
	}
}
