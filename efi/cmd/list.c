/* list [--all] [-j]: the events of this CPU's PMUs (--all: every driver's). */
#include "cmd.h"

#include "../../drivers/output/report.h"

static enum unc_status run_list(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
				struct out *out, struct out *err)
{
	struct cpu_info cpu;

	(void)env, (void)err;
	if (!cmd->list_all)
		app_cpu_detect(hw, &cpu); /* no driver: an empty list that says so */
	report_list(out, cmd->json, cmd->list_all ? pmu_drivers : app_present, cmd->list_all, cmd->list_all ? NULL : hw);
	return UNC_OK;
}

static const struct cli_opt list_opts[] = {
	CLI_FLAG_OPT("--all", list_all, "every driver's events, not only this CPU's"),
	CLI_OPT_JSON(json, "JSON"),
	CLI_END,
};

const struct cli_command cmd_list = {
	.name = "list", .verb = CLI_LIST, .opts = list_opts, .run = run_list,
	.help = "this CPU's events by PMU (--all: every driver's)",
};
