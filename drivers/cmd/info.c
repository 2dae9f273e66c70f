/* info [-j] [-o ...]: platform facts (CPU, PMUs and their state, TSC). */
#include "app.h"

static enum unc_status run_info(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
				struct out *out, struct out *err)
{
	struct platform_info *pi = &app_ws->pi;
	enum unc_status st = info_gather(hw, pi);

	if (cmd->json)
		info_print_json(out, pi);
	else
		info_print(out, pi);
	if (st)
		out_printf(err, "uncore: error: %s unusable: %s\n", info_what(pi), pi->verdict_reason);
	if (app_wants_output(cmd, env)) {
		enum unc_status sst = app_store(cmd, env, "info", pi, NULL, 0, NULL, NULL, st, err);
		if (!st)
			st = sst;
	}
	return st;
}

static enum unc_status info_check(const struct cli_command *c, uint32_t seen, struct cli_cmd *cmd, char *err,
				  size_t errsize)
{
	return cli_chunk_needs_var(c, seen, cmd, err, errsize);
}

static const struct cli_opt info_opts[] = {
	CLI_OPT_JSON("JSON"),
	CLI_OPT_OUTPUT,
	CLI_OPT_VAR_CHUNK,
	CLI_END,
};

const struct cli_command cmd_info = {
	.name = "info", .flags = CMD_CLOCK, .opts = info_opts, .check = info_check, .run = run_info,
	.help = "platform facts: CPU, PMUs and their state, memory controller, TSC",
};
