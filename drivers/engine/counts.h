/* The counts of a run, apart from how they were taken: each event's totals
 * per box, the times, and what a report must know of each event (its view).
 * The engine (stat.c) fills them while counting; a stored record fills them
 * when read back, so the decoder links this and the reports, not the engine. */
#ifndef UNC_COUNTS_H
#define UNC_COUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../base/status.h"

#define STAT_MAX_EVENTS 32
#define COUNT_MAX_BOXINFO 4

/* 64-byte DRAM transfers: what counters of the DRAM roles count. */
#define COUNT_LINE_BYTES 64

/* What a report needs of an event besides its counts, from its driver. */
struct count_view {
	char driver[24];     /* the driver that counted it: "skl-client-uncore" */
	char pmu[16];        /* perf's PMU name: "cbox", "imc" */
	char box_label[8];   /* --per-box rows NAME@cbo0; "": none */
	char box_noun[12];   /* a box in notes: "CBo" */
	char short_name[8];  /* a request counter's name in bw's shares: "GT" */
	char count_word[12]; /* what it counts, plural: "events", "cycles", "lines", "requests" */
	char enc_prefix[12]; /* before the encoding: "" or "MCHBAR+" for a free-running counter */
	uint64_t encoding;   /* the event select (or the counter's offset) */
	uint8_t kind;        /* enum pmu_kind */
	uint16_t nboxes;     /* boxes it counts in */
	uint8_t width;       /* counter width in bits */
	uint8_t role;        /* enum pmu_role */
	bool clock;          /* counts a clock: never still while counting */
	/* Boxes in groups (a socket's channels): box b is box_id[b] of group
	 * group[b], named <group_noun><group>.<box_label><box_id>; "": no
	 * groups (box b is <box_label><b>). nboxes each (count_room). */
	char group_noun[8];
	uint8_t *group, *box_id;
};

struct count_totals {
	uint64_t *box;     /* raw counts per box: nboxes of them (count_room) */
	uint64_t running;  /* ticks during which the event was counting */
};

struct count_event {
	char name[64];
	struct count_view v;
	uint8_t *moved;      /* per box: 1 once its counter changed (nboxes of them) */
	struct count_totals total;
	struct count_totals mark; /* totals at the last interval */
};

/* The box counts a header shows: "8 CBos (REGISTER gives 14; at most 8 can
 * be programmed)". */
struct count_boxinfo {
	char noun[12];       /* "CBo" */
	char label[8];       /* JSON keys: "cbo_count", "cbo_derived" */
	char from[32];       /* the register that gives the count */
	uint32_t n, found;
};

struct count_run {
	struct count_event ev[STAT_MAX_EVENTS];
	unsigned nev, ngroups, rotations;
	uint64_t t_start, t_mark, t_end; /* ticks */
	bool iv_short;       /* the interval reported now ends the run before its -I boundary: marked shorter */
	struct count_boxinfo boxes[COUNT_MAX_BOXINFO];
	unsigned nboxes;
	bool programs;       /* some counter was programmed (else free-running ones only) */
	char where[96];      /* where the DRAM counters are ("at MCHBAR 0x... (...)"), for bw */
	char free_pmu[16];   /* the free-running counters' PMU ("imc"), for headers */
	char req_note[160];  /* what bw says of its request counters */
	/* The per-box arrays of every event (totals, marks, moved, groups
	 * and numbers): one block from the pool (base/pool.h), sized by each
	 * event's v.nboxes (at least 1) by count_room; count_free gives it
	 * back. NULL: none yet. */
	void *mem;
};

/* Places every event's per-box arrays, each event's v.nboxes (at least one
 * box) long, zero: after the views are set, before any count. UNC_OK, or
 * UNC_E_NO_MEMORY. What was there before is given back. */
enum unc_status count_room(struct count_run *r);
void count_free(struct count_run *r);
/* Every event's totals, marks and moved flags back to zero. */
void count_zero(struct count_run *r);

/* The count of event i, scaled to the whole run for multiplexed events;
 * box < 0 sums the boxes. */
uint64_t count_total(const struct count_run *r, unsigned i, int box);
uint64_t count_enabled(const struct count_run *r);

/* The same for the interval since the last count_mark. */
uint64_t count_interval(const struct count_run *r, unsigned i, int box, uint64_t now);
void count_mark(struct count_run *r, uint64_t now);

/* How many boxes' counters never changed in the whole run, of an event
 * that did count for some of it (a multiplexed event that never had its
 * turn has no count at all, see report_stat.c); and whether box b's is one. */
unsigned count_still(const struct count_run *r, unsigned i);
bool count_still_box(const struct count_run *r, unsigned i, unsigned b);
/* Whether any box of event i moved. */
bool count_moved(const struct count_event *e);

/* The free-running counters' PMU as a heading word ("IMC"), into buf. */
const char *count_free_upper(const struct count_run *r, char *buf, size_t size);

/* Box b of an event, as --per-box rows name it: "socket1.ch2" in groups,
 * else "cbo0". */
const char *count_box_name(const struct count_view *v, unsigned b, char *buf, size_t size);

/* The groups an event's boxes fall in, each counted once (0: no groups);
 * a group no box has (a gap in the package IDs) is none. */
unsigned count_groups(const struct count_view *v);
/* The k-th of them in ascending order (its group number), or -1. */
int count_group_id(const struct count_view *v, unsigned k);

/* The count of event i in group g (the sum of its boxes there), scaled as
 * count_total, or over the interval ending at now. */
uint64_t count_group(const struct count_run *r, unsigned i, unsigned g, bool interval, uint64_t now);

/* The run's event with this role (enum pmu_role), or -1. */
int count_find_role(const struct count_run *r, unsigned role);
/* The counts of a role (PMU_ROLE_*): every event of it summed over its boxes
 * (the free-running counters of several memory controllers, one each), over
 * the run or, with interval, since the last mark up to now. */
uint64_t count_role(const struct count_run *r, unsigned role, bool interval, uint64_t now);
/* Likewise in group k (group) or box k of each event of the role (a unit
 * whose role sums several events: Granite Rapids' two sub-channels). */
uint64_t count_role_part(const struct count_run *r, unsigned role, unsigned k, bool group, bool interval, uint64_t now);

#endif
