/* Counting uncore events: scheduling onto counters, programming them (in
 * the order stat.c explains: the manual gives none), sampling, multiplexing
 * and restoring. No firmware headers: the host tests run it against the
 * model on a fake clock. */
#ifndef UNC_STAT_H
#define UNC_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "evsel.h"
#include "hw.h"
#include "skl.h"

#define STAT_MAX_EVENTS 32
#define STAT_MAX_GROUPS 16
#define STAT_MAX_BOXES  SKL_MAX_CBO
/* GLOBAL_CTRL, then a select and a counter per counter: fixed 1, ARB 2, CBo 2 per box */
#define STAT_MAX_SAVED  (1 + 2 * (1 + 2 + 2 * STAT_MAX_BOXES))

struct stat_counts {
	uint64_t box[STAT_MAX_BOXES]; /* raw counts per CBo box; [0] for ARB and fixed */
	uint64_t running;             /* ticks during which this event was counting */
};

struct stat_event {
	struct ev_spec spec;
	uint8_t moved;    /* bit b: box b's counter changed at least once (IMC: bit 0) */
	unsigned group;   /* the group it counts in; the fixed counter counts in all */
	uint8_t counter;  /* counter index within its unit */
	struct stat_counts total;
	struct stat_counts mark; /* totals at the last interval */
};

struct stat_saved {
	uint32_t msr;
	uint64_t value;
	bool counter; /* a counter (zeroed at each start), not a control */
	bool dirty;   /* written by us (successfully), so it must be restored */
};

struct stat_run {
	const struct hw *hw;
	unsigned ncbo;            /* CBos programmed: ncbo_found, at most STAT_MAX_BOXES */
	unsigned ncbo_found;      /* CBos MSR_UNC_CBO_CONFIG gives (Section 2.4.1) */
	uint64_t imc_base;        /* MCHBAR base, for IMC events (see imc_discover) */
	struct stat_event ev[STAT_MAX_EVENTS];
	unsigned nev, ngroups;

	struct stat_saved saved[STAT_MAX_SAVED];
	unsigned nsaved;
	uint64_t ctrl_base;       /* MSR_UNC_PERF_GLOBAL_CTRL as found, without EN */
	uint64_t status_at_start; /* MSR_UNC_PERF_GLOBAL_STATUS as found */
	struct skl_in_use use;    /* what the in-use check saw */

	unsigned group;           /* the active group */
	bool counting;
	uint64_t wrapped_prev;    /* GLOBAL_STATUS bits of units that wrapped at the last sample */
	uint64_t last[STAT_MAX_EVENTS][STAT_MAX_BOXES];
	uint64_t t_start, t_sample, t_mark, t_end; /* ticks */
	unsigned rotations;

	char err[200];            /* the last error, one line */
};

/* Whether the run has events counted through MSRs (else IMC only: MMIO). */
bool stat_uses_msrs(const struct stat_run *r);

/* Adds one event; rejects an event listed twice (evsel_same: the same unit
 * and encoding, however it is spelled). */
enum unc_status stat_add(struct stat_run *r, const struct ev_spec *e);

/* Places the events on counters: each event's allowed counters, two per
 * CBo (every CBo counts the same events), two in the ARB, the one fixed
 * counter. ncbo is the count MSR_UNC_CBO_CONFIG gives; the first
 * STAT_MAX_BOXES of them are programmed (the report says when fewer). Events that do not fit together go into further groups that
 * take turns (multiplexing), unless allow_mux is false. */
enum unc_status stat_schedule(struct stat_run *r, unsigned ncbo, bool allow_mux);

/* Refuses a PMU in use unless force; snapshots every MSR the run will
 * write; programs group 0 (see program() in stat.c) and starts counting. On any error
 * everything already written is restored. A run of IMC events only reads
 * MMIO and touches no MSR at all. */
enum unc_status stat_start(struct stat_run *r, const struct hw *hw, bool force);

/* Reads the active group's counters and GLOBAL_STATUS into the totals. */
enum unc_status stat_sample(struct stat_run *r);

/* Samples, then switches to the next group. */
enum unc_status stat_rotate(struct stat_run *r);

/* Samples (unless a sample already failed), stops counting and restores
 * every register written. Returns the first error. */
enum unc_status stat_stop(struct stat_run *r, enum unc_status so_far);

/* The count of event i, scaled to the whole run for multiplexed events;
 * box < 0 sums the CBos. */
uint64_t stat_count(const struct stat_run *r, unsigned i, int box);
uint64_t stat_enabled(const struct stat_run *r);

/* The boxes (bit b: box b) whose counter never changed in the whole run,
 * of an event that did count for some of it (a multiplexed event that never
 * had its turn has no count at all, see report_stat.c). */
uint8_t stat_still(const struct stat_run *r, unsigned i);

/* Whether event i counts a clock, which cannot stay still while the PMU
 * counts: a still counter there is stuck, not idle. */
bool stat_is_clock(const struct stat_run *r, unsigned i);

/* The same for the interval since the last stat_mark. */
uint64_t stat_interval_count(const struct stat_run *r, unsigned i, int box, uint64_t now);
void stat_mark(struct stat_run *r, uint64_t now);

/* How the loop waits and hears of intervals. */
struct stat_env {
	/* Waits until ticks() >= when; returns true if the user asked to stop. */
	bool (*wait_until)(void *ctx, uint64_t when);
	/* Called at each interval boundary (after sampling). */
	void (*on_interval)(void *ctx, struct stat_run *r, uint64_t now);
	void *ctx;
};

struct stat_opts {
	uint64_t duration;       /* ticks; 0: until max_intervals or the user stops */
	uint64_t interval;       /* ticks; 0: no intervals */
	unsigned max_intervals;  /* 0: no limit */
	uint64_t slice;          /* multiplexing time slice, ticks */
	uint64_t sample;         /* longest time between two samples, ticks */
};

/* stat_start, then samples, rotates and reports intervals until the end,
 * then stat_stop. */
enum unc_status stat_loop(struct stat_run *r, const struct hw *hw, bool force, const struct stat_opts *o,
			  const struct stat_env *env);

#endif
