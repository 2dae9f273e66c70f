/* The options stat and bw share: a load, a check, and what no one option
 * sees alone. The run itself is pipeline.c. */
#include "stat_bw_options.h"

#include <string.h>

#include "../base/parse.h"
#include "../engine/load.h"

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

const struct stat_bw_options stat_defaults = { .load_kind = -1 }, bw_defaults = { .load_kind = -1, .bw = true };

enum unc_status stat_bw_opt_load(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
				 size_t errsize)
{
	struct stat_bw_options *so = CLI_OWN(cmd);

	(void)o;
	if ((so->load_kind = load_kind_parse(val)) < 0)
		FAIL("unknown load '%s' for --load (read, write, copy or triad)", val);
	return UNC_OK;
}

enum unc_status stat_bw_opt_cpus(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
				 size_t errsize)
{
	struct stat_bw_options *so = CLI_OWN(cmd);
	uint64_t v;

	(void)o;
	if (!strcmp(val, "all"))
		so->load_cpus = 0;
	else if (!parse_u64(val, 1024, &v) || v < 1)
		FAIL("bad count '%s' for --cpus (want 1 to 1024, or all)", val);
	else
		so->load_cpus = (uint32_t)v;
	return UNC_OK;
}

/* --min-bw, --min-read-bw, --min-write-bw: one of the three. */
enum unc_status stat_bw_opt_min_bw(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
				   size_t errsize)
{
	struct stat_bw_options *so = CLI_OWN(cmd);
	uint64_t v;

	if (so->check)
		FAIL("only one of --min-bw, --min-read-bw and --min-write-bw");
	if (!parse_decimal(val, 1000, 100000000000ull, &v) || v == 0)
		FAIL("bad bandwidth '%s' for %s (want MB/s above 0, e.g. 12000 or 12.5k)", val, o->name);
	so->check_kb_s = v;
	so->check = !strcmp(o->name, "--min-bw") ? CHECK_TOTAL : !strcmp(o->name, "--min-read-bw") ? CHECK_READ
												 : CHECK_WRITE;
	return UNC_OK;
}

/* What no one option sees alone. */
enum unc_status stat_bw_check(const struct cli_command *c, uint32_t seen, struct cli_cmd *cmd, char *err,
			      size_t errsize)
{
	static const char *const load_options[] = { "--nt", "--size", "--cpus" };
	struct stat_bw_options *so = CLI_OWN(cmd);
	enum unc_status st;

	if ((st = cli_one_format(c, seen, err, errsize)) || (st = cli_chunk_needs_var(c, seen, cmd, err, errsize)))
		return st;
	cmd->report.format = cmd->json ? REPORT_JSON : cmd->report.format;
	if (!so->nevents && !so->bw)
		FAIL("no events given (-e EVENT; see 'uncore.efi list')");
	if (so->max_intervals && !so->interval_ms)
		FAIL("-n needs -I");
	if (so->progress_s && so->quiet)
		FAIL("--progress and --quiet contradict each other: give one");
	if (so->progress_s && so->interval_ms)
		FAIL("--progress: -I prints every interval already (no progress lines with it)");
	for (unsigned k = 0; k < sizeof(load_options) / sizeof(load_options[0]); k++)
		if (so->load_kind < 0 && cli_given(c, seen, load_options[k]))
			FAIL("%s needs --load", load_options[k]);
	if (so->load_nt && so->load_kind == LOAD_READ)
		FAIL("--nt: the read load has no stores to make non-temporal (write, copy or triad have)");
	if (so->child[0] && so->load_kind >= 0)
		FAIL("--load and a child command cannot be used together");
	if (so->child[0] && (so->interval_ms || so->duration_ns))
		FAIL("a child command sets the measurement's length: no -d or -I with it");
	cmd->report.intervals = so->interval_ms != 0;
	return UNC_OK;
}

bool stat_bw_asks_check(const struct cli_cmd *cmd)
{
	const struct stat_bw_options *so = CLI_OWN(cmd);

	return cmd->command && (cmd->command->own == &stat_defaults || cmd->command->own == &bw_defaults) && so->check;
}
