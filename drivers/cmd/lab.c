/* lab [CONFIG]: lab mode, a configuration file's runs with the results
 * beside it. efi/main.c runs it (efi/lab_edge.c): it needs the firmware. */
#include "lab_command.h"

#include <string.h>

/* lab's own options. */
struct lab_options {
	char config[CLI_MAX_ARG_LEN + 1]; /* the configuration file ("": chosen per board) */
};

static enum unc_status run_lab(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
			       struct out *out, struct out *err)
{
	(void)cmd, (void)hw, (void)env, (void)out;
	out_printf(err, "uncore: error: lab mode is not available here\n");
	return UNC_E_UNSUPPORTED;
}

static enum unc_status opt_config(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
				  size_t errsize)
{
	struct lab_options *lo = CLI_OWN(cmd);

	(void)o;
	if (val[0] != '\\' || strchr(val, ':'))
		UNC_ERR(UNC_E_INVALID, "bad configuration path '%s' for 'lab' (want one on uncore.efi's volume, such as "
				       "\\uncore\\uncore.cfg)", val);
	fmt_snprintf(lo->config, sizeof(lo->config), "%s", val);
	return UNC_OK;
}

static const struct cli_opt lab_args[] = {
	CLI_FN_ARG("CONFIG", opt_config, "the configuration file on uncore.efi's volume (default: chosen per board)"),
};

const struct cli_command cmd_lab = {
	.name = "lab", .max_args = 1, .args = lab_args, CLI_OWN_ZERO(struct lab_options), .run = run_lab,
	.help = "lab mode: run a configuration file, the results beside it",
};

const char *lab_command_config(const struct cli_cmd *cmd)
{
	const struct lab_options *lo = CLI_OWN(cmd);

	return cmd->command == &cmd_lab ? lo->config : NULL;
}
