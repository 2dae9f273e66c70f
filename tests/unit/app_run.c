#include "app_run.h"

#include <string.h>

#include "t.h"

enum unc_status app_test_run(struct app_test *t, const struct hw *hw, const struct app_env *env, int argc,
			     const char **argv)
{
	static struct cli_cmd cmd;
	struct strbuf so, se;
	char msg[200];

	strbuf_init(&so, t->obuf, t->osize);
	strbuf_init(&se, t->ebuf, t->esize);
	struct out o = strbuf_out(&so), e = strbuf_out(&se);
	enum unc_status st = cli_parse(argc, (char **)argv, &cmd, msg, sizeof(msg));
	if (st) {
		t_fail(__FILE__, __LINE__, "cli: %s", msg);
		return st;
	}
	/* JSON Lines: with -I, and var show (a record may hold intervals) */
	t->json_lines = cmd.report.intervals || (!strcmp(cmd.command->name, "var") && !strcmp(cmd.command->sub, "show"));
	st = app_run(&cmd, hw, env, &o, &e);
	if ((cmd.report.format == REPORT_JSON || cmd.json) && t->obuf[0])
		T_JSON(t->obuf, t->json_lines);
	return st;
}
