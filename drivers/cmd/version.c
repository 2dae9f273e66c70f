/* version: the program's version. */
#include "app.h"

static enum unc_status run_version(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
				   struct out *out, struct out *err)
{
	(void)cmd, (void)hw, (void)env, (void)err;
	out_printf(out, "uncore.efi %s\n", UNC_VERSION);
	return UNC_OK;
}

const struct cli_command cmd_version = {
	.name = "version", .alias = { "--version" }, .flags = CMD_NO_OPTIONS, .run = run_version,
	.help = "the version of uncore.efi",
};
