/* The options stat and bw share (stat.c defines them; each command's
 * table lists them with STAT_OPTIONS) and the check of the whole line. */
#ifndef UNC_STAT_BW_OPTIONS_H
#define UNC_STAT_BW_OPTIONS_H

#include "cli.h"

/* What stat and bw check of the whole line. */
enum unc_status app_stat_check(const struct cli_command *c, uint32_t seen, struct cli_cmd *cmd, char *err,
			       size_t errsize);
/* The options stat and bw share (each table lists them; see STAT_OPTIONS). */
enum unc_status app_opt_load(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
			     size_t errsize);
enum unc_status app_opt_cpus(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
			     size_t errsize);
enum unc_status app_opt_min_bw(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
			       size_t errsize);

/* stat's and bw's common options: timing, output, a load, a check, a child. */
#define STAT_OPTIONS                                                                                                \
	CLI_FIXED_OPT("-d", "SECONDS", duration_ns, "duration", "seconds, 0.001 to 86400", 1000000, 86400000000000ull, \
		      1000000000, "run this long (default 1; with -I: until -n or ESC)"),                           \
	CLI_UINT_OPT("-I", "MS", interval_ms, "interval", "milliseconds, 10 to 3600000", 10, 3600000,                 \
		     "print the counts every MS milliseconds"),                                                    \
	CLI_UINT_OPT("-n", "COUNT", max_intervals, "count", "1 to 1000000", 1, 1000000,                               \
		     "with -I: stop after COUNT intervals"),                                                       \
	CLI_FLAG_OPT("--per-box", report.per_box, "a count per box (CBo, channel) as well as the total"),             \
	CLI_OPT_SEP,                                                                                                  \
	CLI_OPT_JSON(json, "JSON (JSON Lines with -I)"),                                                              \
	CLI_FLAG_OPT("--quiet", quiet, "no progress line every 10 s on a long run"),                                  \
	CLI_OPT_OUTPUT,                                                                                               \
	CLI_OPT_VAR_CHUNK,                                                                                            \
	CLI_FN_OPT("--load", "KIND", app_opt_load, "run a memory load meanwhile: read, write, copy or triad"),         \
	CLI_FLAG_OPT("--nt", load_nt, "the load's stores are non-temporal"),                                          \
	CLI_UINT_OPT("--size", "MIB", load_size_mib, "size", "MiB, 1 to 65536", 1, 65536,                             \
		     "the load's working set (default: from the largest cache)"),                                  \
	CLI_FN_OPT("--cpus", "N|all", app_opt_cpus, "processors that run the load (default all)"),                    \
	CLI_FN_REPEAT_OPT("--min-bw", "MBPS", app_opt_min_bw,                                                         \
			  "fail unless read+write bandwidth reaches MBPS (12000, 12.5k)"),                          \
	CLI_FN_REPEAT_OPT("--min-read-bw", "MBPS", app_opt_min_bw, "fail unless read bandwidth reaches MBPS"),        \
	CLI_FN_REPEAT_OPT("--min-write-bw", "MBPS", app_opt_min_bw, "fail unless write bandwidth reaches MBPS"),      \
	CLI_REST_OPT("--", "COMMAND [ARGS]", child, "the child's command line",                                       \
		     "measure while the Shell runs this image or script")

#endif
