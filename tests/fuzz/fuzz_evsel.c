/* libFuzzer harness for the event parser (drivers/engine/evsel.c): any input
 * either resolves to an event its driver can program or fails with a
 * message; nothing crashes, reads out of bounds or overflows (ASan +
 * UBSan). Each piece is resolved twice: on a CPU with every driver
 * (pmu_drivers), and on one with none, where nothing resolves and what
 * resolved on the first is refused as the absent PMU's (or PMUs'). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/engine/evsel.h"

static const struct pmu_driver *const no_pmu[] = { NULL };

static void says_something(const char *err, size_t size)
{
	if (!memchr(err, '\0', size) || err[0] == '\0')
		abort(); /* every failure says something */
}

/* What the driver's unit can take: the select's writable bits and counters
 * it has; the fixed counter's control; a free-running counter's offset. */
static void programmable(const struct ev_spec *e)
{
	if (!e->drv || e->unit >= e->drv->nunits || !memchr(e->name, '\0', sizeof(e->name)))
		abort();
	const struct pmu_unit *u = ev_unit(e);
	uint64_t enc = evsel_encode(e);

	switch (u->kind) {
	case PMU_GENERAL:
		/* enable 0: the PMU's enable is elsewhere (the P6's EN, in PerfEvtSel0 alone) */
		if (enc & ~u->layout->rw_mask || (u->layout->enable && !(enc & u->layout->enable)))
			abort();
		if (!e->counters || e->counters & ~pmu_width_mask(u->counters))
			abort();
		break;
	case PMU_FIXED:
		if (enc != u->fixed_ctrl || e->counters != EV_COUNTER_FIXED)
			abort();
		break;
	case PMU_FREE:
		if (e->free >= u->counters || enc != u->free[e->free].offset || e->counters)
			abort();
		break;
	default:
		abort();
	}
}

static enum unc_status check(void *ctx, const char *piece)
{
	struct ev_spec e, again;
	char err[200];

	(void)ctx;
	err[0] = 'x';
	if (evsel_parse(piece, pmu_drivers, &e, err, sizeof(err)) == UNC_OK) {
		programmable(&e);
		/* the name it got resolves to the same event */
		if (evsel_parse(e.name, pmu_drivers, &again, err, sizeof(err)) != UNC_OK || !evsel_same(&e, &again))
			abort();
		err[0] = 'x';
		/* refused as one PMU's event, or as several PMUs' (a short name
		 * two drivers' units have: CLOCKTICKS) */
		if (evsel_parse(piece, no_pmu, &again, err, sizeof(err)) != UNC_E_UNSUPPORTED ||
		    (!strstr(err, " event; this CPU has no ") && !strstr(err, " PMUs; this CPU has none of them")))
			abort();
	} else {
		says_something(err, sizeof(err));
		err[0] = 'x';
		if (evsel_parse(piece, no_pmu, &again, err, sizeof(err)) == UNC_OK)
			abort();
	}
	says_something(err, sizeof(err));
	return UNC_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[256], err[200];

	if (size >= sizeof(s))
		size = sizeof(s) - 1;
	memcpy(s, data, size);
	s[size] = '\0';
	evsel_split(s, check, NULL, err, sizeof(err));
	return 0;
}
