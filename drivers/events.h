/* Event descriptions, generated at build time from the JSON in events/ by
 * tools/gen_events (Intel perfmon field names). */
#ifndef UNC_EVENTS_H
#define UNC_EVENTS_H

#include <stdint.h>

/* EV_UNIT_IMC: the free-running counters of Table 3-3 (no event select). */
enum event_unit { EV_UNIT_CBO, EV_UNIT_ARB, EV_UNIT_FIXED, EV_UNIT_IMC };

#define EV_COUNTER_FIXED 0x80 /* in event_desc.counters: the fixed counter */

struct event_desc {
	const char *name;  /* EventName */
	const char *brief; /* BriefDescription */
	uint8_t unit;      /* enum event_unit, from Unit */
	uint8_t code;      /* EventCode */
	uint8_t umask;     /* UMask */
	uint8_t counters;  /* Counter: bit n = counter n, or EV_COUNTER_FIXED */
	uint8_t cmask;     /* CounterMask: the THR field */
	uint8_t inv;       /* Invert */
	uint8_t edge;      /* EdgeDetect */
};

extern const struct event_desc skl_events[];
extern const unsigned skl_events_count;

/* Case-insensitive lookup by EventName; NULL when unknown. */
const struct event_desc *event_find(const char *name);

const char *event_unit_name(enum event_unit u);

#endif
