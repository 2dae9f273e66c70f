/* bw: DRAM bandwidth from the memory controller's counters, with stat's
 * timing, output, load, check and child options (drivers/cmd/stat.c). */
#include "pipeline.h"
#include "stat_bw_options.h"

/* -e and --no-multiplex are stat's: bw names them to say so. */
static enum unc_status opt_not_bw(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
				  size_t errsize)
{
	(void)val, (void)cmd;
	UNC_ERR(UNC_E_INVALID, "unknown option '%s' for 'bw' (bw counts the DRAM counters; use -e for others)", o->name);
}

static const struct cli_opt bw_opts[] = {
	CLI_FLAG_OPT("--force", force, "take over a server's DRAM counters in use"),
	STAT_OPTIONS,
	CLI_FN_REPEAT_OPT("-e", NULL, opt_not_bw, NULL), /* no help: not bw's */
	CLI_FN_REPEAT_OPT("--no-multiplex", NULL, opt_not_bw, NULL),
	CLI_END,
};

const struct cli_command cmd_bw = {
	.name = "bw", .verb = CLI_BW, .flags = CMD_CLOCK, .opts = bw_opts, .check = app_stat_check,
	.run = app_run_stat, .help = "DRAM bandwidth from the memory controller's counters",
};
