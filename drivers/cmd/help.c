/* help, and COMMAND -? (the UEFI Shell's convention): usage from the
 * command table the parser reads. */
#include "app.h"

static enum unc_status run_help(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
				struct out *out, struct out *err)
{
	(void)hw, (void)env, (void)err;
	cli_help(out, cli_commands, cmd->help_for);
	return UNC_OK;
}

static const struct cli_opt help_args[] = {
	{ .meta = "COMMAND", .help = "a command's usage, options and arguments", .type = CLI_NAME,
	  CLI_FIELD(help_for) },
};

const struct cli_command cmd_help = {
	.name = "help", .alias = { "-h", "--help" }, .flags = CMD_NO_OPTIONS | CMD_HELP, .max_args = 1,
	.args = help_args, .run = run_help, .help = "this list, or one command's usage (also COMMAND -?)",
};
