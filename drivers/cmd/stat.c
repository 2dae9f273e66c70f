/* stat: count events (-e EVENT), and the options bw shares. The run itself
 * is drivers/cmd/pipeline.c. */
#include "pipeline.h"
#include "stat_bw_options.h"

#include <string.h>

#include "../engine/load.h"
#include "../base/parse.h"

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

enum unc_status app_opt_load(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
			     size_t errsize)
{
	(void)o;
	if ((cmd->load_kind = load_kind_parse(val)) < 0)
		FAIL("unknown load '%s' for --load (read, write, copy or triad)", val);
	return UNC_OK;
}

enum unc_status app_opt_cpus(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
			     size_t errsize)
{
	uint64_t v;

	(void)o;
	if (!strcmp(val, "all"))
		cmd->load_cpus = 0;
	else if (!parse_u64(val, 1024, &v) || v < 1)
		FAIL("bad count '%s' for --cpus (want 1 to 1024, or all)", val);
	else
		cmd->load_cpus = (uint32_t)v;
	return UNC_OK;
}

/* --min-bw, --min-read-bw, --min-write-bw: one of the three. */
enum unc_status app_opt_min_bw(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
			       size_t errsize)
{
	uint64_t v;

	if (cmd->check)
		FAIL("only one of --min-bw, --min-read-bw and --min-write-bw");
	if (!parse_decimal(val, 1000, 100000000000ull, &v) || v == 0)
		FAIL("bad bandwidth '%s' for %s (want MB/s above 0, e.g. 12000 or 12.5k)", val, o->name);
	cmd->check_kb_s = v;
	cmd->check = !strcmp(o->name, "--min-bw") ? CHECK_TOTAL : !strcmp(o->name, "--min-read-bw") ? CHECK_READ
												     : CHECK_WRITE;
	return UNC_OK;
}

struct add_ctx {
	struct cli_cmd *cmd;
	char *err;
	size_t errsize;
};

static enum unc_status add_event(void *ctx, const char *piece)
{
	struct add_ctx *a = ctx;

	if (a->cmd->nevents == STAT_MAX_EVENTS) {
		fmt_snprintf(a->err, a->errsize, "too many events (at most %d)", STAT_MAX_EVENTS);
		return UNC_E_INVALID;
	}
	/* Kept as given: names are resolved once the CPU's drivers are known. */
	fmt_snprintf(a->cmd->events[a->cmd->nevents++], EVSEL_NAME_MAX, "%s", piece);
	if (strlen(piece) >= EVSEL_NAME_MAX) {
		fmt_snprintf(a->err, a->errsize, "event '%.20s...' is too long (at most %d characters)", piece,
			     EVSEL_NAME_MAX - 1);
		return UNC_E_INVALID;
	}
	return UNC_OK;
}

static enum unc_status opt_events(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
				  size_t errsize)
{
	struct add_ctx a = { cmd, err, errsize };

	(void)o;
	return evsel_split(val, add_event, &a, err, errsize);
}

/* What no one option sees alone. */
enum unc_status app_stat_check(const struct cli_command *c, uint32_t seen, struct cli_cmd *cmd, char *err,
			       size_t errsize)
{
	static const char *const load_options[] = { "--nt", "--size", "--cpus" };
	enum unc_status st;

	if ((st = cli_one_format(c, seen, err, errsize)) || (st = cli_chunk_needs_var(c, seen, cmd, err, errsize)))
		return st;
	cmd->report.format = cmd->json ? REPORT_JSON : cmd->report.format;
	if (!cmd->nevents && cmd->verb == CLI_STAT)
		FAIL("no events given (-e EVENT; see 'uncore.efi list')");
	if (cmd->max_intervals && !cmd->interval_ms)
		FAIL("-n needs -I");
	for (unsigned k = 0; k < sizeof(load_options) / sizeof(load_options[0]); k++)
		if (cmd->load_kind < 0 && cli_given(c, seen, load_options[k]))
			FAIL("%s needs --load", load_options[k]);
	if (cmd->load_nt && cmd->load_kind == LOAD_READ)
		FAIL("--nt: the read load has no stores to make non-temporal (write, copy or triad have)");
	if (cmd->child[0] && cmd->load_kind >= 0)
		FAIL("--load and a child command cannot be used together");
	if (cmd->child[0] && (cmd->interval_ms || cmd->duration_ns))
		FAIL("a child command sets the measurement's length: no -d or -I with it");
	cmd->report.intervals = cmd->interval_ms != 0;
	return UNC_OK;
}

static const struct cli_opt stat_opts[] = {
	CLI_FN_REPEAT_OPT("-e", "EVENT[,EVENT...]", opt_events,
			  "events to count, as 'list' names them or PMU/event=N,umask=N/; repeatable"),
	CLI_FLAG_OPT("--force", force, "take over a PMU in use (its registers are restored afterwards)"),
	CLI_FLAG_OPT("--no-multiplex", no_multiplex, "fail if the events do not fit the counters at once"),
	STAT_OPTIONS,
	CLI_END,
};

const struct cli_command cmd_stat = {
	.name = "stat", .verb = CLI_STAT, .flags = CMD_CLOCK | CMD_DEFAULT, .opts = stat_opts,
	.check = app_stat_check, .run = app_run_stat,
	.help = "count events (a line that starts with an option is a stat)",
};
