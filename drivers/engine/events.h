/* Event descriptions, generated at build time from events/NAME.json (Intel's
 * perfmon format) by tools/gen_events. Each driver points at its own table;
 * the Unit field says which of its units an event belongs to. */
#ifndef UNC_EVENTS_H
#define UNC_EVENTS_H

#include <stdint.h>

#define EV_COUNTER_FIXED 0x80 /* in event_desc.counters: a fixed counter ("Counter": "FIXED") */

struct event_desc {
	const char *name;  /* EventName */
	const char *brief; /* BriefDescription */
	const char *unit;  /* Unit, as Intel's file spells it ("CBO", "NCU", "ARB") */
	uint8_t code;      /* EventCode (the first, where Intel lists several) */
	uint8_t umask;     /* UMask */
	uint8_t counters;  /* Counter: bit n = counter n, or EV_COUNTER_FIXED */
	uint8_t cmask;     /* CounterMask: the threshold field */
	uint8_t inv;       /* Invert */
	uint8_t edge;      /* EdgeDetect */
	/* UMaskExt: the umask's extension (most CHA TOR events of Sapphire
	 * Rapids and later), in the select where the unit's layout puts it
	 * (pmu_layout.umask_ext); 0 for nearly every event. */
	uint32_t umask_ext;
};

/* One of a driver's tables where its events are one of Intel's files per
 * CPU model (events/NAME/: tools/gen_events writes NAME_events_tables[],
 * one per file); the driver's events_for chooses (drivers/engine/pmu.h). */
struct event_table {
	const struct event_desc *events;
	const uint16_t *by_hash; /* the names' index (pmu.h, struct pmu_event_index) */
	unsigned count;
	const char *file;        /* the file's name, "sapphirerapids_uncore.json" */
};

#endif
