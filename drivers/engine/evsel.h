/* Event specifications, resolved against the drivers that match the CPU:
 *
 *   UNC_CBO_CACHE_LOOKUP.ANY_MESI            a name from a driver's table
 *   cbox/event=0x34,umask=0x8f/              perf's raw form: PMU/terms/
 *   DRAM_DATA_READS, imc/data_reads/         a free-running counter
 *
 * Raw terms (event, umask, thresh/cmask, inv, edge) are checked against the
 * unit's event-select layout; where it has a umask extension the umask term
 * is wider (cha/event=0x35,umask=0xc001fe01/: 0x01 in bits 15:8, 0xc001fe
 * from bit 32). A name that belongs to a PMU this CPU does
 * not have is refused as such. */
#ifndef UNC_EVSEL_H
#define UNC_EVSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "counts.h"
#include "events.h"
#include "pmu.h"
#include "../base/status.h"

#define EVSEL_NAME_MAX 64

struct ev_spec {
	char name[EVSEL_NAME_MAX];     /* EventName, the free counter's name, or the raw string as given */
	const struct event_desc *desc; /* NULL for a raw encoding or a free-running counter */
	const struct pmu_driver *drv;
	uint8_t unit;                  /* index into drv->units */
	uint8_t code, umask, thr;
	bool inv, edge;
	uint32_t umask_ext;            /* the umask's extension (pmu_layout.umask_ext; 0: none) */
	uint8_t counters;              /* allowed counters (bit n: counter n); EV_COUNTER_FIXED; 0 for free-running */
	uint8_t free;                  /* PMU_FREE: index into the unit's free[] */
};

static inline const struct pmu_unit *ev_unit(const struct ev_spec *e)
{
	return &e->drv->units[e->unit];
}

/* One event, looked up in `present` (NULL-terminated: the drivers that
 * match this CPU), then in every driver to say which PMU it would need.
 * On error, one line naming the bad piece in err. */
enum unc_status evsel_parse(const char *s, const struct pmu_driver *const *present, struct ev_spec *ret, char *err,
			    size_t errsize);

/* Splits "A,B,cbox/event=1,umask=2/" at the commas outside raw encodings;
 * calls fn for each piece (as a NUL-terminated string). Stops at the first
 * error fn returns. Rejects empty pieces. */
enum unc_status evsel_split(const char *list, enum unc_status (*fn)(void *ctx, const char *piece), void *ctx,
			    char *err, size_t errsize);

/* Whether a and b are one hardware event: the same unit and the same
 * encoding (for a free-running counter, the same counter), however each was
 * spelled (a name, cbo/ or cbox/, terms in any order). */
bool evsel_same(const struct ev_spec *a, const struct ev_spec *b);

/* The event-select value for this event, with EN set (without the run's
 * own bits, e.g. OVF_EN); for a fixed counter its control value; for a
 * free-running counter its offset. */
uint64_t evsel_encode(const struct ev_spec *e);

/* The DRAM role (enum pmu_role) of an event: a free-running counter's, or
 * a general event that encodes one of its unit's role_events. */
uint8_t evsel_role(const struct ev_spec *e);

/* What reports and records show of an event counted in nboxes boxes (the
 * groups and box numbers are the caller's: count_view_boxes). */
void evsel_view(const struct ev_spec *e, unsigned nboxes, struct count_view *ret);

/* The counters an event of code `code` may use in unit u (its constraints). */
uint8_t evsel_raw_counters(const struct pmu_unit *u, uint8_t code);

/* The event named `name` in drv's table (case-insensitive); NULL: none. */
const struct event_desc *evsel_find(const struct pmu_driver *drv, const char *name);

#endif
