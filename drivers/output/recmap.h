/* Between the live structures of a run and a stored record, both ways, in
 * one place: the writer (drivers/cmd/app.c) fills a record from them, `var show`
 * and the host decoder rebuild them from a record and print them with the
 * very report functions the console used. It links the counts and the
 * reports, never the counting engine. */
#ifndef UNC_RECMAP_H
#define UNC_RECMAP_H

#include "../engine/counts.h"
#include "../base/fmt.h"
#include "../base/hw.h"
#include "../engine/info.h"
#include "record.h"
#include "report.h"

void rec_from_info(struct rec *r, const struct platform_info *pi);
/* Parts of it: one driver's block, a fault, an event's view (also for a
 * driver converting a record of an older layout it wrote). */
void rec_pmu_from(struct rec_pmu *x, const struct info_pmu *ip);
struct rec_fault2 rec_fault_from(struct pmu_reg reg, bool write);
void rec_event_view(struct rec_event *x, const struct count_view *v);
/* The run's counts into r, every box of every event (layout 3): the
 * per-box values in one block from the pool, sized by the run, which
 * rec_free gives back (also on UNC_E_NO_MEMORY: none, r's events unset). */
enum unc_status rec_from_run(struct rec *r, const struct count_run *run, const struct report_opts *ro);
/* What the run's per-box fields add to a record, at most (to size its buffer). */
size_t rec_run_bytes(const struct count_run *run);
/* An interval sample of the run's totals now (every box of every event). */
void rec_put_run_sample(struct rec_buf *b, const struct count_run *run, uint64_t now);

/* The counts of a record (its totals; marks and times at the start), as
 * the engine had them at the end of the run. */
/* run must be zero or from an earlier rec_count_run (what it held is given
 * back); its per-box arrays come from the pool (count_free gives them back).
 * UNC_E_NO_MEMORY: none, and no counts. */
enum unc_status rec_count_run(struct count_run *run, const struct rec *r);

/* An interval sample's totals into the run (what rec_count_run made). */
void rec_sample_to_run(struct count_run *run, const struct rec *r, const struct rec_sample *s);

/* The record's clock and access mode, as the reports take them (the
 * emulator's line points into r). */
struct hw rec_hw(const struct rec *r);

/* Where rec_print works: large, so the caller places it. */
struct rec_print_ws {
	struct rec r;
	struct count_run run;
	struct platform_info pi;
};

/* Prints a record as the console did, in the given format (sep: the CSV
 * separator); stored_as names the variable for the first line (NULL: none;
 * JSON never has it). */
enum unc_status rec_print(struct out *o, const uint8_t *data, size_t len, enum report_format format, const char *sep,
			  const char *stored_as, struct rec_print_ws *ws, char *err, size_t errsize);

/* uncore_decode -x SEP --intervals: the interval samples as CSV, a header
 * row, then one row per interval per event: time_s (the interval's end,
 * seconds since the start), interval_s, event, pmu, count (in the
 * interval; empty when the event did not count in it), unit, rate_per_s,
 * run_time_ns, percent_running, mb_per_s (DRAM data counters only). A record
 * without samples is an error. */
enum unc_status rec_print_intervals(struct out *o, const uint8_t *data, size_t len, const char *sep,
				    struct rec_print_ws *ws, char *err, size_t errsize);

#endif
