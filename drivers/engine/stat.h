/* The engine: counting events of any PMU the drivers describe. Scheduling
 * onto counters, programming (freeze, program, reset, clear status,
 * unfreeze: a design choice, since the client manual gives no order),
 * sampling with deltas modulo each counter's width, multiplexing, and a
 * journal that restores every register written. No firmware headers and no
 * driver names: the host tests run it against the emulator's model on a
 * fake clock. */
#ifndef UNC_STAT_H
#define UNC_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "counts.h"
#include "evsel.h"
#include "../base/hw.h"
#include "pmu.h"

#define STAT_MAX_GROUPS 16
#define STAT_MAX_PMUS   4   /* drivers in one run */

/* A driver in the run: what its probe found and its run state. */
struct stat_pmu {
	struct pmu_present p;
	struct pmu_state s;
	struct pmu_use use;       /* what the in-use check saw */
	uint32_t used;            /* bit u: the run has events of unit u */
	bool programs;            /* some of those are programmed (not free-running) */
	uint32_t ctr_ignored;     /* bit u: a counter of unit u (PMU_CTR_WRITE) ignored a write: counted from
				   * the values read, never written again */
};

struct stat_saved {
	struct pmu_reg reg;
	uint64_t value; /* as found before the first write */
	uint64_t now;   /* what the run wrote last */
	uint8_t pmu;    /* the run's driver that named it */
	bool counter;   /* a counter (zeroed at each start), not a control */
	bool dirty;     /* written by us (successfully), so it must be restored */
};

struct stat_run {
	const struct hw *hw;
	struct count_run c;       /* the counts (counts.h): events, totals, times */
	struct ev_spec spec[STAT_MAX_EVENTS];
	uint8_t pmu_of[STAT_MAX_EVENTS]; /* index into pmu[] */
	uint8_t counter[STAT_MAX_EVENTS];/* counter index within its unit */
	unsigned group_of[STAT_MAX_EVENTS];
	uint8_t kind[STAT_MAX_EVENTS];   /* enum pmu_kind of its unit (the sampling path reads it often) */
	struct pmu_reg free_reg[STAT_MAX_EVENTS]; /* a free-running counter's register, found at the start */
	/* The free-running counters' own path, set up at the start: their
	 * events in the order they are read, the 32-bit MMIO ones first (nmmio
	 * of them, read by one seam call, hw_mmio_read32_n, from free_phys,
	 * where the seam has it),
	 * the rest one register each; what the last read gave (free_val), and
	 * for each what it read at the sample before, its width mask and the
	 * event it counts for. */
	uint8_t free_ev[STAT_MAX_EVENTS];
	unsigned nfree, nfree_mmio;
	uint64_t free_phys[STAT_MAX_EVENTS];
	uint64_t free_val[STAT_MAX_EVENTS];
	uint64_t free_last[STAT_MAX_EVENTS];
	struct count_event *free_e[STAT_MAX_EVENTS];
	uint64_t free_mask[STAT_MAX_EVENTS], free_half[STAT_MAX_EVENTS]; /* half: mask >> 1, the largest step that is no
									    * wrap backwards */
	unsigned free_slow;       /* of those, how many have not moved yet (count_event.moved), plus nfree - nfree_mmio */
	bool free_only;           /* no programmed counter: a sample is the free-running path alone */
	uint64_t max_rate[STAT_MAX_EVENTS];      /* the most a programmed event adds per second (0: no bound) */
	struct stat_pmu pmu[STAT_MAX_PMUS];
	unsigned npmu;

	/* The journal (saved_room entries, in the pool block of box_mem: sized
	 * at stat_start from the boxes in use, kept after the run for what it
	 * says was restored, given back by the next start or stat_free). */
	struct stat_saved *saved;
	unsigned nsaved, saved_room;
	/* The selects and controls of the active group's counters (indexes
	 * into saved[]), read at each sample: each must read what the run
	 * wrote last. */
	unsigned *watch;
	unsigned nwatch;
	/* Of each watched register of another package: what the sample's one
	 * trip there read (in the same pool block). */
	uint64_t *watch_val;
	/* What a sample reads, compiled at each programming (stat_int.h), in
	 * the same pool block. */
	struct stat_reads *reads;

	unsigned group;           /* the active group */
	bool counting;
	bool verify;              /* the first programming: read back what was written */
	uint64_t wrapped_prev[STAT_MAX_PMUS]; /* status bits of units that wrapped at the last sample */
	/* Per event, its boxes' values: at the last sample (last[i][b]), as
	 * the sample being taken read them (val), and the quickest read kept
	 * while a sample is read again (kept). From the pool, one block of
	 * three times box_slots, sized at stat_start from the probe's box
	 * counts; stat_free gives it back. */
	uint64_t *last[STAT_MAX_EVENTS], *val[STAT_MAX_EVENTS], *kept[STAT_MAX_EVENTS];
	/* Per slot, at an edge (stat_sample.c, edge_begin and edge_end): the
	 * clock read just after its counter (edge_t, edge_tk the kept read's;
	 * another package's: this processor's clock as its trip is posted,
	 * read_remote_edge), its offset
	 * from the clock of the window's first edge (edge_off) and its total
	 * there (edge_tot); in box_mem. edge_t0: that edge's clock. */
	uint64_t *edge_t, *edge_tk, *edge_off, *edge_tot, edge_t0;
	uint64_t *box_mem;
	size_t box_slots;
	uint64_t t_sample;        /* ticks at the last sample */
	uint64_t read_best;       /* the fewest ticks a read of a group's counters took */
	uint64_t read_slack;      /* what a read may take beyond 4 * read_best without being taken again */
	uint64_t read_span;       /* a read that took read_best + less than this is not taken again (0: none) */
	bool read_best_known;     /* read_best was measured (the run's first read is taken twice) */
	bool edge;                /* this read is the run's first or last: taken up to STAT_EDGE_READS (stat_sample.c) times */
	bool edge_last;           /* this read is the run's last: taken three times at least, as the first */
	bool any_in_use;          /* --force took over a PMU in use */

	char err[200];            /* the last error, one line */
	char restore_note[800];   /* each register that reads otherwise after it was put back (a P6 counter
				   * takes 32 bits, sign-extended), one line each ('\n' between); "": none */
	unsigned restore_more;    /* more such registers than restore_note has room for */
	char write_note[200];     /* a counter that ignored the write of its start, said once ("": none) */
	/* The journal entries (indexes into saved[]) one box's counter reset
	 * wrote, while tracked (tracking: reset_counters' first programming). */
	uint16_t box_wrote[2 * PMU_MAX_CTRS];
	unsigned nbox_wrote;
	bool tracking;
};

/* Adds one event; rejects an event listed twice (evsel_same: the same unit
 * and encoding, however it is spelled). */
enum unc_status stat_add(struct stat_run *r, const struct ev_spec *e);

/* Finds what the events need: each driver's probe for the units used (box
 * counts, bases). Reads only. On failure r->err holds the driver's line. */
enum unc_status stat_probe(struct stat_run *r, const struct hw *hw, const struct cpu_info *cpu, char *warn,
			   size_t warnsize);

/* Whether the run programs any counter (else free-running ones only: it
 * writes nothing at all). */
bool stat_programs(const struct stat_run *r);

/* Places the events on counters: each event's allowed counters in its
 * unit's boxes (every box of a unit counts the same events); fixed and
 * free-running counters count in every group. Events that do not fit
 * together go into further groups that take turns (multiplexing), unless
 * allow_mux is false. */
enum unc_status stat_schedule(struct stat_run *r, bool allow_mux);

/* Refuses a PMU in use unless force; programs group 0 and starts counting.
 * On any error everything already written is restored. */
enum unc_status stat_start(struct stat_run *r, const struct hw *hw, bool force);

/* Reads the active group's counters and each PMU's status into the totals,
 * after checking that the select (or fixed control) of each counter the
 * group uses reads what the run wrote (one read each);
 * a driver with sample_frozen is frozen (ops->freeze) while its counters
 * are read and unfrozen (ops->unfreeze, no verify) after. */
enum unc_status stat_sample(struct stat_run *r);

/* One register, read without the journal: one access in its space, or a
 * counter wider than 32 bits outside MSR space as two dwords (the high at
 * +4: high, low, high again, and the low once more if the high changed). */
enum unc_status stat_read_reg(const struct hw *hw, struct pmu_reg reg, unsigned width, uint64_t *ret_val);

/* Samples, then gives the next slice to the group that has counted least
 * (the next in turn among equals; the current one goes on when it is it). */
enum unc_status stat_rotate(struct stat_run *r);

/* Samples (unless a sample already failed), stops counting and restores
 * every register written. Returns the first error. */
enum unc_status stat_stop(struct stat_run *r, enum unc_status so_far);
/* Puts every register the run wrote back from its journal, at once (an
 * ExitBootServices notification: a child leaving for an OS): through the
 * seam only, with no memory allocated. The run counts no more; stat_stop
 * after it restores nothing twice. */
enum unc_status stat_put_back(struct stat_run *r);

/* Gives back what the run took from the pool: its sampling buffers, its
 * counts' per-box arrays (count_free: report before) and each driver's
 * per-box arrays (pmu_present_free); it may be probed and started again.
 * Every owner of a probed run calls it on every exit path. */
void stat_free(struct stat_run *r);

/* How the loop waits and hears of intervals. */
struct stat_env {
	/* Waits until ticks() >= when; returns true if the user asked to stop. */
	bool (*wait_until)(void *ctx, uint64_t when);
	/* Called at each interval boundary (after sampling); the run's last
	 * interval after its last read (stat_stop), so the intervals add up to
	 * the totals: one the run's end cut short has count_run.iv_short set. */
	void (*on_interval)(void *ctx, struct stat_run *r, uint64_t now);
	void *ctx;
	/* Called at each progress boundary before the end (after sampling);
	 * the k-th since the start. NULL: none. */
	void (*on_progress)(void *ctx, struct stat_run *r, uint64_t now, unsigned k);
};

struct stat_opts {
	uint64_t duration;       /* ticks; 0: until max_intervals or the user stops */
	uint64_t interval;       /* ticks; 0: no intervals */
	unsigned max_intervals;  /* 0: no limit */
	uint64_t slice;          /* multiplexing time slice, ticks */
	uint64_t sample;         /* longest time between two samples, ticks */
	uint64_t progress;       /* ticks between progress calls; 0: none */
};

/* stat_start, then samples, rotates and reports intervals until the end,
 * then stat_stop. */
enum unc_status stat_loop(struct stat_run *r, const struct hw *hw, bool force, const struct stat_opts *o,
			  const struct stat_env *env);

#endif
