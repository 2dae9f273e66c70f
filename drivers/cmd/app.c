/* Runs a parsed command: the work space, this CPU's drivers, and storing
 * results, which the commands in drivers/cmd/ share. */
#include "app.h"
#include "push.h"

#include <string.h>

struct app_ws *app_ws;
const struct pmu_driver *app_present[STAT_MAX_PMUS + 1];

enum unc_status app_fail(struct out *err, enum unc_status st, const char *what)
{
	out_printf(err, "uncore: error: %s: %s\n", what, unc_strerror(st));
	return st;
}

unsigned app_cpu_detect(const struct hw *hw, struct cpu_info *cpu)
{
	unsigned n = 0;

	cpu_identify(hw, cpu);
	pmu_events_cpu(cpu);
	for (unsigned d = 0; pmu_drivers[d] && n < STAT_MAX_PMUS; d++)
		if (pmu_match_model(pmu_drivers[d], hw, cpu))
			app_present[n++] = pmu_drivers[d];
	app_present[n] = NULL;
	return n;
}

enum unc_status app_cpu_ready(const struct hw *hw, struct cpu_info *cpu, struct out *err)
{
	if (!app_cpu_detect(hw, cpu)) {
		out_printf(err, "uncore: error: %s family 0x%x model 0x%x matches no PMU driver (see 'uncore.efi info' "
				"and 'uncore.efi list --all')\n",
			   cpu->vendor, cpu->family, cpu->model);
		return UNC_E_UNSUPPORTED;
	}
	return UNC_OK;
}

bool app_needs_clock(const struct cli_cmd *cmd)
{
	return cmd->command && (cmd->command->flags & CMD_CLOCK);
}

bool app_stores_record(const struct cli_cmd *cmd)
{
	return cmd->command && cli_takes(cmd->command, "-o");
}

bool app_wants_output(const struct cli_cmd *cmd, const struct app_env *env)
{
	return cmd->out_var || cmd->out_file[0] || cmd->out_metrics[0] || cmd->out_push[0] || (env && env->json_copy);
}

/* The stored record b as OpenMetrics text, decoded as a reader would (so
 * it says what `uncore_decode --openmetrics` says), in memory from
 * env->alloc into *ret; an error status with msg set when it cannot be
 * made (a record that does not decode keeps the decoder's status). */
static enum unc_status metrics_text(const struct app_env *env, const struct rec_buf *b, char **ret,
				    size_t *ret_len, char *msg, size_t msize)
{
	struct rec *r = &app_ws->print.r;
	enum unc_status st = rec_decode(b->p, b->len, r, NULL, NULL, msg, msize);
	size_t n = st ? 0 : om_write(NULL, 0, r, env->om_labels, env->om_nlabels);
	char *text = n ? env->alloc(n + 1) : NULL;

	if (!st && !text) {
		fmt_snprintf(msg, msize, "out of memory for %zu bytes", n + 1);
		st = UNC_E_NO_MEMORY;
	}
	if (text && om_write(text, n + 1, r, env->om_labels, env->om_nlabels) != n) {
		fmt_snprintf(msg, msize, "no memory for the record's counts");
		env->free(text);
		text = NULL;
		st = UNC_E_NO_MEMORY;
	}
	*ret = text;
	*ret_len = n;
	return st;
}

/* -o metrics:PATH: the text into a file. */
static enum unc_status store_metrics(const char *path, const struct app_env *env, const struct rec_buf *b,
				     struct out *err)
{
	char msg[240];
	size_t n;
	char *text;
	enum unc_status st = metrics_text(env, b, &text, &n, msg, sizeof(msg));

	if (!st)
		st = env->write_file(env->ctx, path, text, n, msg, sizeof(msg));
	if (st)
		out_printf(err, "uncore: error: %s not written: %s\n", path, msg);
	else
		out_printf(err, "uncore: results written to %s: %zu bytes of OpenMetrics text\n", path, n);
	if (text)
		env->free(text);
	return st;
}

/* -o URL: the text PUT to a Pushgateway, after everything stored locally. */
static enum unc_status push_metrics(const char *url, const struct app_env *env, const struct rec_buf *b,
				    struct out *err)
{
	char msg[240];
	size_t n;
	unsigned code = 0;
	char *text;
	enum unc_status st = metrics_text(env, b, &text, &n, msg, sizeof(msg));

	if (!st && !env->http_put)
		fmt_snprintf(msg, sizeof(msg), "no HTTP sender"), st = UNC_E_UNSUPPORTED;
	if (!st)
		st = env->http_put(env->ctx, url, PUSH_CONTENT_TYPE, text, n, PUSH_DHCP_MS, PUSH_TIMEOUT_MS, &code,
				   msg, sizeof(msg));

	if (st) {
		char line[400];
		fmt_snprintf(line, sizeof(line), "uncore: error: push to %s failed: %s", url, msg);
		out_printf(err, "%s\n", line);
		if (env->push_failed)
			env->push_failed(env->ctx, line), st = UNC_OK;
	} else
		out_printf(err, "uncore: results pushed to %s: %zu bytes of OpenMetrics text (HTTP %u)\n", url, n, code);
	if (text)
		env->free(text);
	return st;
}

/* -o: the record of this run into an EFI variable and/or the JSON form of
 * it into a file. The console output is already printed and stays, whatever
 * happens here. */
enum unc_status app_store(const struct cli_cmd *cmd, const struct app_env *env, const char *command,
			  const struct platform_info *pi, const struct stat_run *run, uint64_t interval_ms,
			  const struct run_extras *x, const struct rec_buf *samples, enum unc_status run_status,
			  struct out *err)
{
	struct rec *r = &app_ws->rec;
	char msg[240];
	enum unc_status st = UNC_OK, fst;

	if (!env || !env->alloc || !env->free || (cmd->out_var && !env->vars) ||
	    ((cmd->out_file[0] || cmd->out_metrics[0]) && !env->write_file)) {
		out_printf(err, "uncore: error: results not stored: no storage on this platform\n");
		return UNC_E_NOT_FOUND;
	}
	memset(r, 0, sizeof(*r));
	/* A boot check's record names the image that made it, as its error
	 * records do (bootrun.c). */
	fmt_snprintf(r->tool, sizeof(r->tool), "%s %s", env->boot_seq ? "uncore-boot.efi" : "uncore.efi", UNC_VERSION);
	fmt_snprintf(r->command, sizeof(r->command), "%s", command);
	if (env->get_time)
		env->get_time(&r->time);
	r->status = run_status;
	r->boot_seq = env->boot_seq;
	if (env->smbios_id && env->smbios_id(&r->id, msg, sizeof(msg)))
		memset(&r->id, 0, sizeof(r->id));
	rec_from_info(r, pi);
	if (run && rec_from_run(r, &run->c, &cmd->report)) {
		out_printf(err, "uncore: error: results not stored: out of memory for the boxes' counts\n");
		return UNC_E_NO_MEMORY;
	}
	if (run)
		r->interval = interval_ms;
	if (x)
		r->x = *x;
	/* sized by the run: every box of every event, and the samples */
	size_t cap = 65536 + (run ? rec_run_bytes(&run->c) : 0) + (samples ? samples->len : 0);
	struct rec_buf b = { env->alloc(cap), 0, cap, false };
	if (!b.p) {
		out_printf(err, "uncore: error: results not stored: out of memory for %zu bytes\n", cap);
		rec_free(r);
		return UNC_E_NO_MEMORY;
	}
	rec_begin(&b);
	rec_put(&b, r);
	rec_free(r); /* the per-box values are in b now */
	if (samples)
		rec_put_raw(&b, samples->p, samples->len);
	if ((st = rec_end(&b))) {
		out_printf(err, "uncore: error: results not stored: the record is larger than %zu bytes\n", cap);
		env->free(b.p);
		return st;
	}
	if (cmd->out_var) {
		unsigned chunks = 0;
		st = var_save(env->vars, cmd->var_name, b.p, b.len, cmd->var_chunk, &chunks, msg, sizeof(msg));
		if (st)
			out_printf(err, "uncore: error: results not stored in %s: %s\n", cmd->var_name, msg);
		else if (chunks)
			out_printf(err, "uncore: results stored in EFI variable %s: %zu bytes in %u chunks %s.0001..%04u "
					"(vendor GUID " UNC_VAR_GUID_TEXT ")\n",
				   cmd->var_name, b.len, chunks, cmd->var_name, chunks);
		else
			out_printf(err, "uncore: results stored in EFI variable %s: %zu bytes (vendor GUID " UNC_VAR_GUID_TEXT ")\n",
				   cmd->var_name, b.len);
	}
	if (cmd->out_file[0] || env->json_copy) {
		/* sized from the text: its length first (a strbuf counts what does
		 * not fit), then the text; a record of many boxes and samples
		 * prints far more per byte stored than a small one */
		char one;
		struct strbuf sb;
		strbuf_init(&sb, &one, 1);
		struct out o = strbuf_out(&sb);
		fst = rec_print(&o, b.p, b.len, REPORT_JSON, NULL, NULL, &app_ws->print, msg, sizeof(msg));
		size_t tcap = sb.len + 1;
		char *text = fst ? NULL : env->alloc(tcap);
		if (fst) {
			out_printf(err, "uncore: error: %s not written: %s\n", cmd->out_file[0] ? cmd->out_file : "the JSON", msg);
		} else if (!text) {
			out_printf(err, "uncore: error: %s not written: out of memory for %zu bytes\n",
				   cmd->out_file[0] ? cmd->out_file : "the JSON", tcap);
			fst = UNC_E_NO_MEMORY;
		} else {
			strbuf_init(&sb, text, tcap);
			o = strbuf_out(&sb);
			fst = rec_print(&o, b.p, b.len, REPORT_JSON, NULL, NULL, &app_ws->print, msg, sizeof(msg));
			if (!fst && sb.len >= tcap)
				fst = UNC_E_NO_MEMORY, fmt_snprintf(msg, sizeof(msg), "the JSON text is too long");
			if (!fst && env->json_copy)
				env->json_copy(env->ctx, text, sb.len, x);
			if (!fst && cmd->out_file[0])
				fst = env->write_file(env->ctx, cmd->out_file, text, sb.len, msg, sizeof(msg));
			if (fst)
				out_printf(err, "uncore: error: %s not written: %s\n", cmd->out_file[0] ? cmd->out_file : "the JSON", msg);
			else if (cmd->out_file[0])
				out_printf(err, "uncore: results written to %s: %zu bytes of JSON\n", cmd->out_file, sb.len);
			env->free(text);
		}
		if (!st)
			st = fst;
	}
	if (cmd->out_metrics[0] && (fst = store_metrics(cmd->out_metrics, env, &b, err)) && !st)
		st = fst;
	if (cmd->out_push[0] && (fst = push_metrics(cmd->out_push, env, &b, err)) && !st)
		st = fst;
	env->free(b.p);
	return st;
}

enum unc_status app_run(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env, struct out *out,
			struct out *err)
{
	if (!cmd->command || !cmd->command->run) {
		out_printf(err, "uncore: error: no handler for this command\n");
		return UNC_E_INVALID;
	}
	if (!env || !env->alloc || !env->free) {
		out_printf(err, "uncore: error: no memory allocator on this platform\n");
		return UNC_E_NO_MEMORY;
	}
	if (cmd->out_push[0]) { /* before anything is measured */
		char msg[200];
		bool https = !strncmp(cmd->out_push, "https:", 6);
		enum unc_status st = env->http_ready ? env->http_ready(env->ctx, https, msg, sizeof(msg)) : UNC_E_UNSUPPORTED;
		if (st) {
			out_printf(err, "uncore: error: cannot push to %s: %s\n", cmd->out_push,
				   env->http_ready ? msg : "no HTTP sender on this platform");
			return st;
		}
	}
	if (!(app_ws = env->alloc(sizeof(*app_ws)))) {
		out_printf(err, "uncore: error: out of memory for %zu bytes of work space\n", sizeof(*app_ws));
		return UNC_E_NO_MEMORY;
	}
	memset(app_ws, 0, sizeof(*app_ws));
	enum unc_status st = cmd->command->run(cmd, hw, env, out, err);
	stat_free(&app_ws->run); /* what the probes took from the pool */
	info_free(&app_ws->pi);
	env->free(app_ws);
	app_ws = NULL;
	return st;
}
