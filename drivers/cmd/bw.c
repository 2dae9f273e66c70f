/* bw: DRAM bandwidth from the memory controller's counters, with stat's
 * timing, output, load, check and child options (stat_bw_options.c). */
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
	CLI_FLAG_OPT("--force", STAT_BW_FIELD(force), "take over a server's DRAM counters in use"),
	STAT_OPTIONS,
	CLI_FN_REPEAT_OPT("-e", NULL, opt_not_bw, NULL), /* no help: not bw's */
	CLI_FN_REPEAT_OPT("--no-multiplex", NULL, opt_not_bw, NULL),
	CLI_END,
};

const struct cli_command cmd_bw = {
	.name = "bw", .flags = CMD_CLOCK, .opts = bw_opts, BW_OWN, .check = stat_bw_check, .run = pipeline_run,
	.help = "DRAM bandwidth from the memory controller's counters",
};
