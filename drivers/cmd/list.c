/* list [--all] [-j]: the events of this CPU's PMUs (--all: every driver's). */
#include "app.h"

#include "../output/report.h"

/* list's own options. */
struct list_options {
	bool all; /* --all: every driver's events */
};

static enum unc_status run_list(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
				struct out *out, struct out *err)
{
	const struct list_options *lo = CLI_OWN(cmd);
	struct cpu_info cpu;

	(void)env, (void)err;
	if (!lo->all)
		app_cpu_detect(hw, &cpu); /* no driver: an empty list that says so */
	report_list(out, cmd->json, lo->all ? pmu_drivers : app_present, lo->all, lo->all ? NULL : hw);
	return UNC_OK;
}

static const struct cli_opt list_opts[] = {
	CLI_FLAG_OPT("--all", CLI_OWN_FIELD(struct list_options, all), "every driver's events, not only this CPU's"),
	CLI_OPT_JSON("JSON"),
	CLI_END,
};

const struct cli_command cmd_list = {
	.name = "list", .opts = list_opts, CLI_OWN_ZERO(struct list_options), .run = run_list,
	.help = "this CPU's events by PMU (--all: every driver's)",
};
