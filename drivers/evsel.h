/* Event specifications from the command line: the manual's names
 * (case-insensitive) or perf's raw syntax for the uncore units,
 *
 *   cbo/event=0x34,umask=0x8f/
 *   arb/event=0x80,umask=0x01,thresh=1,inv,edge/
 *
 * with every field checked against Table 2-7's widths; and the IMC's
 * free-running counters by Table 3-3's names (DRAM_DATA_READS) or perf's
 * (imc/data_reads/). */
#ifndef UNC_EVSEL_H
#define UNC_EVSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "events.h"
#include "status.h"

#define EVSEL_NAME_MAX 64

struct ev_spec {
	char name[EVSEL_NAME_MAX];     /* EventName, or the raw string as given */
	const struct event_desc *desc; /* NULL for a raw encoding */
	uint8_t unit;                  /* enum event_unit */
	uint8_t code, umask, thr;
	bool inv, edge;
	uint8_t counters;              /* allowed counters: bits 0/1, or EV_COUNTER_FIXED; 0 for IMC */
	uint8_t imc;                   /* EV_UNIT_IMC: index into skl_imc[] */
};

/* One event, named or raw. On error, one line naming the bad piece in err. */
enum unc_status evsel_parse(const char *s, struct ev_spec *ret, char *err, size_t errsize);

/* Splits "A,B,cbo/event=1,umask=2/" at the commas outside raw encodings;
 * calls fn for each piece (as a NUL-terminated string). Stops at the first
 * error fn returns. Rejects empty pieces. */
enum unc_status evsel_split(const char *list, enum unc_status (*fn)(void *ctx, const char *piece), void *ctx,
			    char *err, size_t errsize);

/* Whether a and b are one hardware event: the same unit and the same
 * encoding (event, umask, THR, INV, E; for the IMC, the same counter),
 * however each was spelled (a name, cbo/ or cbox/, terms in any order). */
bool evsel_same(const struct ev_spec *a, const struct ev_spec *b);

/* The PERFEVTSEL value for this event, with EN (bit 22) set. For the fixed
 * counter: MSR_UNC_PERF_FIXED_CTRL with CNT_EN. */
uint64_t evsel_encode(const struct ev_spec *e);

#endif
