/* One stat or bw run, from its plan to its stored record (pipeline.c), and
 * the DRAM counters a run (or bench) wants. */
#ifndef UNC_PIPELINE_H
#define UNC_PIPELINE_H

#include "app.h"

#define APP_SAMPLE_BUF (1u << 20) /* bytes of interval samples kept for -o */

/* Internal sampling and multiplexing periods (milliseconds). A 44-bit
 * counter needs more than 1.7 * 10^14 events per second to wrap twice
 * between two samples. */
#define APP_SAMPLE_MS 100
#define APP_SLICE_MS  20
/* A stat or bw run longer than this without -I prints a progress line this often. */
#define APP_PROGRESS_S 10

/* Adds the counters of a DRAM role (role 0: every counter of the units
 * that have DRAM roles, bw's whole table) from app_present; *ret_n says how
 * many there are. */
enum unc_status pipeline_want_role(struct stat_run *run, unsigned role, unsigned *ret_n);

/* stat and bw: one run of cmd, whose own options are a struct
 * stat_bw_options, from its plan to its stored record. */
enum unc_status pipeline_run(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
			     struct out *out, struct out *err);

#endif
