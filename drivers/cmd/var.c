/* var list | var show [NAME] | var delete [NAME]: the stored results. */
#include "app.h"

#include <string.h>

extern const struct cli_command cmd_var_show, cmd_var_delete;

static enum unc_status var_delete_one(const struct cli_cmd *cmd, const struct varstore *vs, struct out *out,
				      struct out *err)
{
	char msg[240];
	enum unc_status st;
	bool record;
	unsigned chunks;

	if ((st = var_delete(vs, cmd->var_name, &record, &chunks, msg, sizeof(msg)))) {
		out_printf(err, "uncore: error: %s\n", msg);
		return st;
	}
	if (!record)
		out_printf(out, "deleted %s: %u orphan chunk%s\n", cmd->var_name, chunks, chunks == 1 ? "" : "s");
	else if (chunks)
		out_printf(out, "deleted %s and its %u chunk%s\n", cmd->var_name, chunks, chunks == 1 ? "" : "s");
	else
		out_printf(out, "deleted %s\n", cmd->var_name);
	return UNC_OK;
}

static enum unc_status var_show_one(const struct cli_cmd *cmd, const struct varstore *vs, uint8_t *buf, size_t cap,
				    struct out *out, struct out *err)
{
	char msg[240];
	size_t len;
	enum unc_status st = var_load(vs, cmd->var_name, buf, cap, &len, msg, sizeof(msg));

	if (!st)
		st = rec_print(out, buf, len, cmd->report.format, cmd->report.sep, cmd->var_name, &app_ws->print, msg,
			      sizeof(msg));
	if (st)
		out_printf(err, "uncore: error: %s: %s\n", cmd->var_name, msg);
	return st;
}

/* list: every record under our GUID, chunks folded into their record;
 * chunks that no record claims (a store or delete cut short) shown as
 * orphans, so that `var delete NAME` can be asked to remove them */
static enum unc_status var_list_all(const struct app_env *env, const struct varstore *vs, uint8_t *buf, size_t cap,
				    struct out *out, struct out *err)
{
	char msg[240];
	enum unc_status st;
	size_t len;
	struct rec *r = &app_ws->rec;
	size_t max = VAR_LIST_MAX, count;
	struct var_entry *e = env->alloc(max * sizeof(*e));
	if (!e) {
		out_printf(err, "uncore: error: out of memory\n");
		return UNC_E_NO_MEMORY;
	}
	if ((st = var_entries(vs, e, max, &count, msg, sizeof(msg)))) {
		out_printf(err, "uncore: error: %s\n", msg);
		goto done;
	}
	unsigned n = 0, orphaned = 0, unusable = 0;
	out_printf(out, "%-24s %10s  %-8s %-19s  %s\n", "name", "bytes", "command", "stored", "events");
	for (size_t i = 0; i < count; i++) {
		if (e[i].unusable) {
			out_printf(out, "%-24s %10s  unusable: %s\n", e[i].name, "-", VAR_UNUSABLE_WHY);
			unusable++;
			continue;
		}
		if (e[i].present) {
			n++;
			if (var_load(vs, e[i].name, buf, cap, &len, msg, sizeof(msg)) ||
			    rec_decode(buf, len, r, NULL, NULL, msg, sizeof(msg))) {
				out_printf(out, "%-24s %10s  unreadable: %s\n", e[i].name, "-", msg);
			} else {
				char when[24] = "-";
				if (r->time.valid)
					rec_time_text(&r->time, when, sizeof(when));
				out_printf(out, "%-24s %10zu  %-8s %-19s  %u\n", e[i].name, len, r->command, when, r->nevents);
			}
		}
		unsigned orphans = var_orphans(vs, &e[i]);
		if (orphans) {
			out_printf(out, "%s (orphan chunks: %u)\n", e[i].name, orphans);
			orphaned++;
		}
	}
	out_printf(out, "%u record%s (vendor GUID " UNC_VAR_GUID_TEXT ")\n", n, n == 1 ? "" : "s");
	if (orphaned)
		out_printf(out, "orphan chunks are what a store or delete cut short left behind; `var delete NAME` removes them\n");
	if (unusable)
		out_printf(out, "%u variable%s under the GUID %s no record name; uncore.efi neither reads nor deletes %s\n",
			   unusable, unusable == 1 ? "" : "s", unusable == 1 ? "has" : "have", unusable == 1 ? "it" : "them");
done:
	env->free(e);
	return st;
}

static enum unc_status run_var(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
			       struct out *out, struct out *err)
{
	size_t cap = 16u << 20;
	enum unc_status st;

	(void)hw;
	if (!env || !env->vars || !env->alloc) {
		out_printf(err, "uncore: error: no variable store on this platform\n");
		return UNC_E_NOT_FOUND;
	}
	if (cmd->command == &cmd_var_delete)
		return var_delete_one(cmd, env->vars, out, err);
	uint8_t *buf = env->alloc(cap);
	if (!buf) {
		out_printf(err, "uncore: error: out of memory\n");
		return UNC_E_NO_MEMORY;
	}
	if (cmd->command == &cmd_var_show)
		st = var_show_one(cmd, env->vars, buf, cap, out, err);
	else
		st = var_list_all(env, env->vars, buf, cap, out, err);
	env->free(buf);
	return st;
}

static enum unc_status opt_name(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
			       size_t errsize)
{
	(void)o;
	if (!var_name_ok(val))
		UNC_ERR(UNC_E_INVALID, "bad variable name '%s' (1 to 24 letters, digits, '_' or '-')", val);
	fmt_snprintf(cmd->var_name, sizeof(cmd->var_name), "%s", val);
	return UNC_OK;
}

/* The default name; show's -j. */
static enum unc_status var_check(const struct cli_command *c, uint32_t seen, struct cli_cmd *cmd, char *err,
				 size_t errsize)
{
	if (!cmd->var_name[0])
		fmt_snprintf(cmd->var_name, sizeof(cmd->var_name), "%s", VAR_DEFAULT_NAME);
	if (cmd->json)
		cmd->report.format = REPORT_JSON;
	return cli_one_format(c, seen, err, errsize);
}

static const struct cli_opt var_args[] = {
	CLI_FN_ARG("NAME", opt_name, "the record's name (default " VAR_DEFAULT_NAME ")"),
};

static const struct cli_opt show_opts[] = {
	CLI_OPT_SEP,
	CLI_OPT_JSON("JSON (JSON Lines for a record with intervals)"),
	CLI_END,
};

const struct cli_command cmd_var_list = {
	.name = "var", .sub = "list", .check = var_check, .run = run_var,
	.help = "the records stored in EFI variables (-o var)",
};

const struct cli_command cmd_var_show = {
	.name = "var", .sub = "show", .max_args = 1, .args = var_args, .opts = show_opts,
	.check = var_check, .run = run_var, .help = "print a stored record as its run printed it",
};

const struct cli_command cmd_var_delete = {
	.name = "var", .sub = "delete", .max_args = 1, .args = var_args, .check = var_check,
	.run = run_var, .help = "delete a stored record and its chunks",
};
