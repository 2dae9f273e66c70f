/* The options of a stat or bw run (stat_bw_options.c): the struct the
 * pipeline reads, the options both commands list (STAT_OPTIONS) and the
 * check of the whole line. */
#ifndef UNC_STAT_BW_OPTIONS_H
#define UNC_STAT_BW_OPTIONS_H

#include "../engine/counts.h"
#include "../engine/evsel.h"
#include "cli.h"

/* stat's and bw's own options (struct cli_cmd's own). */
struct stat_bw_options {
	char events[STAT_MAX_EVENTS][EVSEL_NAME_MAX]; /* -e, as given: resolved after the CPU is known */
	unsigned nevents;
	uint64_t duration_ns;             /* -d; 0 when not given */
	uint64_t interval_ms;             /* -I; 0 when not given */
	unsigned max_intervals;           /* -n */
	bool quiet;                       /* --quiet: no progress lines on a long run */
	uint32_t progress_s;              /* --progress: their period in seconds; 0: APP_PROGRESS_S */
	bool force;                       /* --force: take over a PMU in use */
	bool no_multiplex;                /* --no-multiplex */
	int load_kind;                    /* --load: enum load_kind, or -1 */
	bool load_nt;                     /* --nt */
	uint32_t load_size_mib;           /* --size; 0: the default */
	uint32_t load_cpus;               /* --cpus N; 0: all */
	uint8_t check;                    /* enum check_kind */
	uint64_t check_kb_s;              /* the required bandwidth, 10^3 bytes/s */
	char child[CLI_MAX_ARG_LEN + 1];  /* after --: the child's command line */
	bool bw;                          /* bw (its defaults say so): the DRAM counters; stat: -e's events */
};

/* Their defaults (no load), in stat's and bw's descriptors. */
extern const struct stat_bw_options stat_defaults, bw_defaults;
#define STAT_OWN CLI_OWN_FROM(struct stat_bw_options, &stat_defaults)
#define BW_OWN   CLI_OWN_FROM(struct stat_bw_options, &bw_defaults)
#define STAT_BW_FIELD(f) CLI_OWN_FIELD(struct stat_bw_options, f)

/* What stat and bw check of the whole line (stat: -e is required). */
enum unc_status stat_bw_check(const struct cli_command *c, uint32_t seen, struct cli_cmd *cmd, char *err,
			      size_t errsize);
/* The options stat and bw share (each table lists them; see STAT_OPTIONS). */
enum unc_status stat_bw_opt_load(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
				 size_t errsize);
enum unc_status stat_bw_opt_cpus(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
				 size_t errsize);
enum unc_status stat_bw_opt_min_bw(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
				   size_t errsize);

/* Whether cmd is a stat or bw run asked for a bandwidth check (--min-bw,
 * --min-read-bw, --min-write-bw): lab mode reports its verdict. */
bool stat_bw_asks_check(const struct cli_cmd *cmd);

/* stat's and bw's common options: timing, output, a load, a check, a child. */
#define STAT_OPTIONS                                                                                                 \
	CLI_FIXED_OPT("-d", "SECONDS", STAT_BW_FIELD(duration_ns), "duration", "seconds, 0.001 to 86400", 1000000,     \
		      86400000000000ull, 1000000000, "run this long (default 1; with -I: until -n or ESC)"),            \
	CLI_UINT_OPT("-I", "MS", STAT_BW_FIELD(interval_ms), "interval", "milliseconds, 10 to 3600000", 10, 3600000,   \
		     "print the counts every MS milliseconds"),                                                     \
	CLI_UINT_OPT("-n", "COUNT", STAT_BW_FIELD(max_intervals), "count", "1 to 1000000", 1, 1000000,                 \
		     "with -I: stop after COUNT intervals"),                                                        \
	CLI_FLAG_OPT("--per-box", CLI_FIELD(report.per_box), "a count per box (CBo, channel) as well as the total"),   \
	CLI_OPT_SEP,                                                                                                   \
	CLI_OPT_JSON("JSON (JSON Lines with -I)"),                                                                     \
	CLI_FLAG_OPT("--quiet", STAT_BW_FIELD(quiet), "no progress line every 10 s on a long run"),                    \
	CLI_UINT_OPT("--progress", "SECONDS", STAT_BW_FIELD(progress_s), "progress period", "seconds, 1 to 86400", 1,  \
		     86400, "a progress line every SECONDS on a long run (default 10)"),                             \
	CLI_OPT_OUTPUT,                                                                                                \
	CLI_OPT_VAR_CHUNK,                                                                                             \
	CLI_FN_OPT("--load", "KIND", stat_bw_opt_load, "run a memory load meanwhile: read, write, copy or triad"),     \
	CLI_FLAG_OPT("--nt", STAT_BW_FIELD(load_nt), "the load's stores are non-temporal"),                            \
	CLI_UINT_OPT("--size", "MIB", STAT_BW_FIELD(load_size_mib), "size", "MiB, 1 to 65536", 1, 65536,               \
		     "the load's working set (default: from the largest cache)"),                                   \
	CLI_FN_OPT("--cpus", "N|all", stat_bw_opt_cpus, "processors that run the load (default all)"),                \
	CLI_FN_REPEAT_OPT("--min-bw", "MBPS", stat_bw_opt_min_bw,                                                      \
			  "fail unless read+write bandwidth reaches MBPS (12000, 12.5k)"),                           \
	CLI_FN_REPEAT_OPT("--min-read-bw", "MBPS", stat_bw_opt_min_bw, "fail unless read bandwidth reaches MBPS"),     \
	CLI_FN_REPEAT_OPT("--min-write-bw", "MBPS", stat_bw_opt_min_bw, "fail unless write bandwidth reaches MBPS"),   \
	CLI_REST_OPT("--", "COMMAND [ARGS]", STAT_BW_FIELD(child), "the child's command line",                         \
		     "measure while the Shell runs this image or script")

#endif
