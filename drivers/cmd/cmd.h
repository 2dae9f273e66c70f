/* What the commands (drivers/cmd/NAME.c) share: the work space, the drivers of
 * this CPU and storing results (drivers/cmd/app.c), the DRAM counters a run wants
 * (drivers/cmd/stat.c). No firmware headers: the host tests run every command
 * against the fake register file. */
#ifndef UNC_CMD_H
#define UNC_CMD_H

#include "app.h"
#include "../base/cpu.h"
#include "../engine/info.h"
#include "../engine/pmu.h"
#include "../output/recmap.h"
#include "../output/report.h"
#include "../output/record.h"
#include "../engine/stat.h"

/* The large structures, allocated when a command starts: gnu-efi's linker
 * script stores even zero-initialised data in the image, so they are not
 * static. One command at a time uses them. */
struct app_ws {
	struct stat_run run;
	struct rec rec;
	struct platform_info pi;
	struct rec_print_ws print;
};
extern struct app_ws *app_ws;

/* The drivers that match this CPU (NULL-terminated), after app_cpu_detect. */
extern const struct pmu_driver *app_present[STAT_MAX_PMUS + 1];

/* Identifies the CPU and fills app_present; returns how many drivers match. */
unsigned app_cpu_detect(const struct hw *hw, struct cpu_info *cpu);
/* The same; none is an error, printed. */
enum unc_status app_cpu_ready(const struct hw *hw, struct cpu_info *cpu, struct out *err);
/* "uncore: error: WHAT: STATUS" */
enum unc_status app_fail(struct out *err, enum unc_status st, const char *what);

/* Whether the run stores a record (-o, or lab mode's copy). */
bool app_wants_output(const struct cli_cmd *cmd, const struct app_env *env);
/* -o: the record of this run into an EFI variable and/or its JSON form
 * into a file. */
enum unc_status app_store(const struct cli_cmd *cmd, const struct app_env *env, const char *command,
			  const struct platform_info *pi, const struct stat_run *run, const struct run_extras *x,
			  const struct rec_buf *samples, enum unc_status run_status, struct out *err);

/* Adds the counters of a DRAM role (role 0: every counter of the units
 * that have DRAM roles, bw's whole table) from app_present; *ret_n says how
 * many there are. */
enum unc_status app_want_role(struct stat_run *run, unsigned role, unsigned *ret_n);

/* stat and bw: one run, from its plan to its stored record. */
enum unc_status app_run_stat(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
			     struct out *out, struct out *err);
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

extern const struct cli_command cmd_stat, cmd_bw, cmd_bench, cmd_list, cmd_info, cmd_regs, cmd_var_list,
	cmd_var_show, cmd_var_delete, cmd_msr_read, cmd_msr_write, cmd_pci_read, cmd_mmio_read, cmd_pmc_read, cmd_lab,
	cmd_help, cmd_version;

#endif
