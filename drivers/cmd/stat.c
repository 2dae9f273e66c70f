/* stat: count events (-e EVENT). Its other options are bw's too
 * (stat_bw_options.c); the run itself is pipeline.c. */
#include <string.h>

#include "pipeline.h"
#include "stat_bw_options.h"

struct add_ctx {
	struct stat_bw_options *so;
	char *err;
	size_t errsize;
};

static enum unc_status add_event(void *ctx, const char *piece)
{
	struct add_ctx *a = ctx;

	if (a->so->nevents == STAT_MAX_EVENTS) {
		fmt_snprintf(a->err, a->errsize, "too many events (at most %d)", STAT_MAX_EVENTS);
		return UNC_E_INVALID;
	}
	/* Kept as given: names are resolved once the CPU's drivers are known. */
	fmt_snprintf(a->so->events[a->so->nevents++], EVSEL_NAME_MAX, "%s", piece);
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
	struct add_ctx a = { CLI_OWN(cmd), err, errsize };

	(void)o;
	return evsel_split(val, add_event, &a, err, errsize);
}

static const struct cli_opt stat_opts[] = {
	CLI_FN_REPEAT_OPT("-e", "EVENT[,EVENT...]", opt_events,
			  "events to count, as 'list' names them or PMU/event=N,umask=N/; repeatable"),
	CLI_FLAG_OPT("--force", STAT_BW_FIELD(force), "take over a PMU in use (its registers are restored afterwards)"),
	CLI_FLAG_OPT("--no-multiplex", STAT_BW_FIELD(no_multiplex), "fail if the events do not fit the counters at once"),
	STAT_OPTIONS,
	CLI_END,
};

const struct cli_command cmd_stat = {
	.name = "stat", .flags = CMD_CLOCK | CMD_DEFAULT, .opts = stat_opts, STAT_OWN, .check = stat_bw_check,
	.run = pipeline_run, .help = "count events (a line that starts with an option is a stat)",
};
