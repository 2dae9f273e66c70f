/* Lab mode at the firmware edge (lab.h): the console kept for console.txt,
 * each case run on its seam with the record variables, the configuration
 * read and the results written (through lab_vol.c, the volume and the
 * images started from it), the time of day, and the end of the run (power
 * off, reset, halt). The run's rules (which configuration, each case's
 * result, the LabNNN records, the verdict, the files' content) are
 * drivers/lab/. A run's state is one struct lab_ctx, passed to each part. */
#include "lab_edge.h"

#include <efilib.h>
#include <string.h>

#include "../drivers/cmd/push.h"
#include "../drivers/cmd/stat_bw_options.h"
#include "../drivers/lab/lab.h"
#include "console.h"
#include "lab_vol.h"
#include "measure.h"
#include "native.h"
#include "vars.h"

#define LAB_PFX "uncore: lab: "

/* Installed while a lab run goes on: a lab run started inside it, however
 * (`run \EFI\BOOT\BOOTX64.EFI lab`, `-- uncore.efi lab`, ...), finds it
 * and is refused, as a `lab` line is. Its interface is the run's context. */
#define LAB_RUNNING_GUID { 0xca574d42, 0x28f1, 0x44a5, { 0x83, 0x67, 0x0f, 0xa6, 0xde, 0x94, 0xcf, 0x84 } }

/* One lab run. Large (its cases and configuration): from the pool when the
 * run starts, as gnu-efi's images carry even zeroed static data. */
struct lab_ctx {
	struct lab_vol vol; /* the volume uncore.efi was loaded from */
	bool shell;         /* started by `lab` from a Shell */
	const struct app_env *tmpl;
	/* The firmware's console, and the run's own (out, err), which keep
	 * what they print; while a child runs, the console's OutputString is
	 * wrapped instead (hook_console). */
	struct out con_out, con_err, out, err;
	struct lab_console kept;
	bool hooked;
	SIMPLE_TEXT_OUTPUT_INTERFACE *hook_con[2];
	EFI_TEXT_OUTPUT_STRING hook_orig[2];
	/* the board and the clock */
	struct smbios_id board;
	struct hw hw;
	uint64_t tick_hz;
	struct hw_tsc tick_tsc; /* how tick_hz was found, for every case's record */
	/* the configuration */
	char cfg_path[LAB_CFG_PATH_MAX];
	char *cfg_text;
	size_t cfg_len;
	char cfg_error[LAB_ERR_MAX + LAB_PATH_MAX + 64];
	struct lab_cfg cfg;
	/* the results folder */
	char started[24], run_dir[LAB_DIR_MAX];
	bool writable, dir_made;
	/* the case running: its command (parsed from the words in line), its
	 * child's status, the JSON of its stored record, its record's name */
	struct cli_cmd cmd;
	char line[LAB_LINE_MAX];
	EFI_STATUS child_status;
	char *json;
	size_t json_len;
	struct run_extras x;
	bool has_x;
	struct lab_rec_watch rec;
	struct varstore vars;
	char push_err[LAB_ERR_MAX]; /* the case's push failed: the line that said so */
	/* the run */
	struct lab_case cases[LAB_MAX_CASES];
	struct lab_run run;
	struct lab_html html;
};

/* ---- everything printed, kept for console.txt ---- */

/* The run whose console is wrapped, while it is: the firmware calls
 * OutputString with its protocol alone, so the wrapper finds it here. */
static struct lab_ctx *hooked_run;

static EFI_STATUS EFIAPI kept_output(SIMPLE_TEXT_OUTPUT_INTERFACE *This, CHAR16 *str)
{
	struct lab_ctx *x = hooked_run;
	char b[128];
	size_t n = 0;

	for (CHAR16 *c = str; c && *c; c++) {
		if (*c == L'\r')
			continue;
		b[n++] = *c < 0x80 ? (char)*c : '?';
		if (n == sizeof(b)) {
			lab_keep(&x->kept, b, n);
			n = 0;
		}
	}
	lab_keep(&x->kept, b, n);
	return (This == x->hook_con[1] ? x->hook_orig[1] : x->hook_orig[0])(This, str);
}

/* While a child image runs, what it prints goes through the firmware's
 * console, not through out/err: the console's OutputString is wrapped for
 * that time, so console.txt keeps the child's text too (and out/err stop
 * keeping, since their text then passes the wrapper as well). */
static void hook_console(struct lab_ctx *x, bool on)
{
	if (on == x->hooked || !x->kept.buf)
		return;
	if (on) { /* unhooked from the same protocols, even if a child changed ST's */
		x->hook_con[0] = ST->ConOut;
		x->hook_con[1] = ST->StdErr && ST->StdErr != ST->ConOut ? ST->StdErr : NULL;
		hooked_run = x;
	}
	for (unsigned i = 0; i < 2; i++) {
		if (!x->hook_con[i])
			continue;
		if (on) {
			x->hook_orig[i] = x->hook_con[i]->OutputString;
			x->hook_con[i]->OutputString = kept_output;
		} else {
			x->hook_con[i]->OutputString = x->hook_orig[i];
		}
	}
	x->hooked = on;
	if (!on)
		hooked_run = NULL;
}

static void hook(void *ctx, bool on)
{
	hook_console(ctx, on);
}

static void tee(struct lab_ctx *x, struct out *con, const char *s, size_t len)
{
	con->write(con->ctx, s, len);
	if (!x->hooked)
		lab_keep(&x->kept, s, len);
}

static void tee_out(void *ctx, const char *s, size_t len)
{
	struct lab_ctx *x = ctx;

	tee(x, &x->con_out, s, len);
}

static void tee_err(void *ctx, const char *s, size_t len)
{
	struct lab_ctx *x = ctx;

	tee(x, &x->con_err, s, len);
}

static const char *status_text(EFI_STATUS s, char hex[20])
{
	return efi_status_str((uint64_t)s, hex);
}

/* -o NAME: a file of the run's results folder (drivers/cmd/lab.md), however
 * the name came; the folder is made when the first file needs it. */
static enum unc_status lab_write_file(void *ctx, const char *name, const void *data, size_t len, char *err,
				      size_t errsize)
{
	struct lab_ctx *x = ctx;
	char path[LAB_DIR_MAX + LAB_NAME_MAX + 2], hex[20];
	EFI_STATUS s = EFI_SUCCESS;

	if (!lab_out_name_ok(name))
		UNC_ERR(UNC_E_INVALID, "%s", lab_out_rule);
	if (!x->writable)
		UNC_ERR(UNC_E_DEVICE, "no results folder");
	if (!x->dir_made) {
		s = lab_vol_mkdirs(&x->vol, x->run_dir);
		x->dir_made = !EFI_ERROR(s);
	}
	lab_file_path(x->run_dir, name, path, sizeof(path));
	if (!EFI_ERROR(s))
		s = lab_vol_write(&x->vol, path, data, len);
	if (EFI_ERROR(s))
		UNC_ERR(UNC_E_DEVICE, "cannot write %s (%s)%s", path, status_text(s, hex), lab_vol_why(&x->vol, s));
	return UNC_OK;
}

/* A child (-- COMMAND): the Shell's way when there is one, else directly. */
static enum unc_status lab_child_find(void *ctx, const char *cmdline, char *ret, size_t size, char *err, size_t errsize)
{
	struct lab_ctx *x = ctx;
	EFI_HANDLE h;
	enum unc_status st;

	if (x->shell)
		return efi_child_find(x->vol.self, cmdline, ret, size, err, errsize);
	if ((st = lab_image_load(&x->vol, cmdline, &h, err, errsize)))
		return st;
	BS->UnloadImage(h);
	fmt_snprintf(ret, size, "%s", cmdline);
	return UNC_OK;
}

static enum unc_status lab_run_child(void *ctx, const char *cmdline, uint64_t *ret_status, bool *ret_known,
				     unsigned period_ms, void (*tick)(void *tctx), void *tctx, char *err, size_t errsize)
{
	struct lab_ctx *x = ctx;
	enum unc_status st;
	EFI_STATUS s = EFI_SUCCESS;
	EFI_HANDLE h;

	*ret_known = false;
	if (x->shell) {
		hook_console(x, true);
		st = efi_run_child(x->vol.self, cmdline, ret_status, ret_known, period_ms, tick, tctx, err, errsize);
		hook_console(x, false);
	} else if (!(st = lab_image_load(&x->vol, cmdline, &h, err, errsize)) &&
		 !(st = lab_image_start(&x->vol, h, cmdline, &s, period_ms, tick, tctx, err, errsize))) {
		*ret_status = s;
		*ret_known = true;
	}
	if (!st && *ret_known)
		x->child_status = (EFI_STATUS)*ret_status;
	return st;
}

/* The JSON each stored record makes. */
static void json_copy(void *ctx, const char *json, size_t len, const struct run_extras *rx)
{
	struct lab_ctx *x = ctx;

	if (x->json)
		efi_free(x->json);
	if ((x->json = efi_alloc(len + 1))) {
		memcpy(x->json, json, len);
		x->json[len] = '\0';
		x->json_len = len;
	}
	x->has_x = rx != NULL;
	if (rx)
		x->x = *rx;
}

/* How a case's command waits: as efi/main.c's, on the case's seam. */
static bool lab_wait_until(void *ctx, uint64_t when)
{
	struct lab_ctx *x = ctx;

	return x->tmpl->wait_until(&x->hw, when);
}

/* ---- one case ---- */

static uint64_t ms_since(const struct lab_ctx *x, uint64_t t0)
{
	return x->tick_hz ? (hw_ticks(&x->hw) - t0) * 1000 / x->tick_hz : 0;
}

/* A command line into x->cmd; the words are kept in x->line. */
static enum unc_status parse_line(struct lab_ctx *x, const char *text, char *err, size_t errsize)
{
	char *argv[CLI_MAX_ARGS];
	int argc;
	enum unc_status st;

	fmt_snprintf(x->line, sizeof(x->line), "%s", text);
	argv[0] = "uncore";
	if ((st = lab_split(x->line, argv + 1, CLI_MAX_ARGS - 1, &argc, err, errsize)))
		return st;
	return cli_parse(argc + 1, argv, &x->cmd, err, errsize);
}

/* A `run PATH [ARGS]` line: the image loaded and started. */
static void run_image(struct lab_ctx *x, const struct lab_item *it, struct lab_case *c)
{
	char msg[240], hex[20];
	EFI_HANDLE h;
	EFI_STATUS s = EFI_SUCCESS;
	enum unc_status st;

	out_printf(&x->out, LAB_PFX "run %s\n", it->text);
	st = lab_image_load(&x->vol, it->text, &h, msg, sizeof(msg));
	if (!st)
		st = lab_image_start(&x->vol, h, it->text, &s, 0, NULL, NULL, msg, sizeof(msg));
	if (st) {
		out_printf(&x->err, "uncore: error: %s\n", msg);
		s = efi_status_from(st);
	} else if (EFI_ERROR(s)) {
		out_printf(&x->err, "uncore: error: %s returned %s\n", it->text, status_text(s, hex));
	}
	lab_case_image(c, s);
}

/* A case in error before its command ran. */
static void not_run(struct lab_ctx *x, struct lab_case *c, enum unc_status st, const char *msg)
{
	out_printf(&x->err, "uncore: error: %s\n", msg);
	lab_case_status(c, efi_status_from(st));
	c->result = LAB_ERROR;
}

/* `push URL`: the firmware's sender with the run's clock (the template's
 * ctx is main's struct hw; a case's is the run). */
static enum unc_status lab_http_ready(void *ctx, bool https, char *err, size_t errsize)
{
	struct lab_ctx *x = ctx;

	return x->tmpl->http_ready(&x->hw, https, err, errsize);
}

static enum unc_status lab_http_put(void *ctx, const char *url, const char *ctype, const void *body, size_t len,
				    unsigned dhcp_ms, unsigned timeout_ms, unsigned *ret_code, char *err, size_t errsize)
{
	struct lab_ctx *x = ctx;

	if (!x->tmpl->http_put)
		UNC_ERR(UNC_E_UNSUPPORTED, "no HTTP sender");
	return x->tmpl->http_put(&x->hw, url, ctype, body, len, dhcp_ms, timeout_ms, ret_code, err, errsize);
}

static void lab_push_failed(void *ctx, const char *line)
{
	struct lab_ctx *x = ctx;

	fmt_snprintf(x->push_err, sizeof(x->push_err), "%s", line);
}

/* The run's verdict pushed to the `push` URL itself (its grouping key
 * without a case); a failure is a case `push` in error. Returns how many
 * cases there are now. */
static unsigned push_verdict(struct lab_ctx *x, unsigned nc)
{
	char body[512], msg[240];
	unsigned code = 0;
	size_t n = lab_write_metrics(body, sizeof(body), &x->run);
	enum unc_status st = lab_http_put(x, x->cfg.push, PUSH_CONTENT_TYPE, body, n, PUSH_DHCP_MS, PUSH_TIMEOUT_MS,
					  &code, msg, sizeof(msg));

	if (!st) {
		out_printf(&x->err, "uncore: lab verdict pushed to %s (HTTP %u)\n", x->cfg.push, code);
		return nc;
	}
	fmt_snprintf(x->push_err, sizeof(x->push_err), "uncore: error: push to %s failed: %s", x->cfg.push, msg);
	out_printf(&x->err, "%s\n", x->push_err);
	if (nc >= LAB_MAX_CASES)
		return nc;
	lab_case_push(&x->cases[nc], x->cfg.push, x->push_err, x->cases, nc);
	lab_line_result(&x->out, &x->cases[nc]);
	return nc + 1;
}

/* An uncore.efi command line, run on a seam of its own, its record stored
 * in LabNNN (drivers/cmd/lab.md); from is where its output starts. */
static void run_command(struct lab_ctx *x, const struct lab_item *it, unsigned idx, struct lab_case *c, size_t from)
{
	struct cli_cmd *cmd = &x->cmd;
	char msg[240];
	enum unc_status st;

	out_printf(&x->out, LAB_PFX "%s\n", it->text);
	if ((st = parse_line(x, it->text, msg, sizeof(msg)))) { /* checked before the run: not here */
		not_run(x, c, st, msg);
		return;
	}
	if (app_needs_clock(cmd) && !x->tick_hz) { /* the calibration at the start said why */
		fmt_snprintf(msg, sizeof(msg), "%s needs the TSC's frequency, which could not be trusted", it->text);
		not_run(x, c, UNC_E_DEVICE, msg);
		return;
	}
	if (lab_record_name(app_stores_record(cmd), cmd->out_var, idx,
			    cmd->var_name, sizeof(cmd->var_name)))
		cmd->out_var = true;
	native_init(&x->hw, &x->err, x->vol.self);
	x->hw.tick_hz = x->tick_hz;
	x->hw.tsc = x->tick_tsc;
	struct app_env env = *x->tmpl;
	env.ctx = x;
	env.wait_until = lab_wait_until;
	env.write_file = lab_write_file;
	env.child_find = lab_child_find;
	env.run_child = lab_run_child;
	env.json_copy = json_copy;
	env.vars = &x->vars;
	const struct om_label om_case = { "case", c->name }; /* on every series of -o metrics:NAME */
	env.om_labels = &om_case;
	env.om_nlabels = 1;
	/* `push URL`: every record also to URL/case/ID */
	if (x->cfg.push[0] && app_stores_record(cmd) && !cmd->out_push[0])
		fmt_snprintf(cmd->out_push, sizeof(cmd->out_push), "%s/case/%s", x->cfg.push, c->id);
	env.http_ready = x->tmpl->http_ready ? lab_http_ready : NULL;
	env.http_put = lab_http_put;
	env.push_failed = lab_push_failed;
	x->json = NULL, x->json_len = 0, x->has_x = false, x->child_status = EFI_SUCCESS;
	lab_rec_watch(&x->rec, cmd->out_var ? cmd->var_name : NULL);
	st = app_run(cmd, &x->hw, &env, &x->out, &x->err);
	native_release();
	lab_rec_end(&x->rec, c);
	lab_case_status(c, st == UNC_E_CHILD ? x->child_status : efi_status_from(st));
	c->json = x->json;
	c->json_len = x->json_len;
	lab_case_ran(c, st, stat_bw_asks_check(cmd), x->has_x ? &x->x : NULL, x->kept.buf + from, x->kept.len - from);
}

/* One case (lab_run_cases' lab_run_fn). */
static void run_case(void *ctx, const struct lab_item *it, unsigned round, unsigned idx, struct lab_case *c)
{
	struct lab_ctx *x = ctx;
	size_t from = x->kept.len;
	uint64_t t0 = hw_ticks(&x->hw);

	lab_case_begin(c, it, round, x->cases, idx);
	x->push_err[0] = '\0';
	if (it->kind == LAB_RUN)
		run_image(x, it, c);
	else
		run_command(x, it, idx, c, from);
	lab_case_end(c, x->kept.buf + from, x->kept.len - from, ms_since(x, t0));
	fmt_snprintf(c->push_error, sizeof(c->push_error), "%s", x->push_err);
}

/* ---- choosing and checking the configuration ---- */

/* Reads the configuration; false, with cfg_error set, when there is none. */
static bool read_config(struct lab_ctx *x, const char *given)
{
	char names[LAB_CFG_NAMES][LAB_CFG_PATH_MAX], msg[80], hex[20];
	unsigned n = lab_config_names(given, &x->board, names);

	for (unsigned k = 0; k < n; k++) {
		EFI_STATUS s;
		enum unc_status st = lab_vol_read(&x->vol, names[k], &x->cfg_text, &x->cfg_len, &s);
		if (st == UNC_E_NOT_FOUND)
			continue;
		fmt_snprintf(x->cfg_path, sizeof(x->cfg_path), "%s", names[k]);
		if (st == UNC_E_RANGE)
			fmt_snprintf(msg, sizeof(msg), "larger than %u bytes", LAB_FILE_MAX);
		else if (st)
			fmt_snprintf(msg, sizeof(msg), "cannot read it (%s)",
				     st == UNC_E_NO_MEMORY ? "out of memory" : status_text(s, hex));
		if (st)
			lab_config_error(names[k], 0, msg, x->cfg_error, sizeof(x->cfg_error));
		return !st;
	}
	if (!x->vol.root)
		fmt_snprintf(x->cfg_error, sizeof(x->cfg_error), "uncore: error: no configuration: the volume uncore.efi "
			     "was loaded from has no file system");
	else
		lab_config_missing(names, n, x->cfg_error, sizeof(x->cfg_error));
	return false;
}

/* Parses the configuration and every command line in it; false, with
 * cfg_error set, at the first problem. */
static bool check_config(struct lab_ctx *x)
{
	char msg[240];

	if (lab_parse(x->cfg_text, x->cfg_len, &x->cfg)) {
		lab_config_error(x->cfg_path, x->cfg.err_line, x->cfg.err, x->cfg_error, sizeof(x->cfg_error));
		return false;
	}
	if (x->cfg.push[0]) { /* -o URL's rules; https only where the firmware can */
		struct push_url u;
		enum unc_status st = push_url_parse(x->cfg.push, &u, msg, sizeof(msg));
		if (!st && !x->tmpl->http_ready)
			st = UNC_E_UNSUPPORTED, fmt_snprintf(msg, sizeof(msg), "no HTTP sender on this platform");
		else if (!st)
			st = x->tmpl->http_ready(&x->hw, u.https, msg, sizeof(msg));
		if (st) {
			lab_config_error(x->cfg_path, x->cfg.push_line, msg, x->cfg_error, sizeof(x->cfg_error));
			return false;
		}
	}
	for (unsigned i = 0; i < x->cfg.n; i++) {
		const struct lab_item *it = &x->cfg.item[i];
		enum unc_status st;
		if (it->kind == LAB_RUN) {
			st = lab_check_run(it->text, msg, sizeof(msg));
		} else {
			st = parse_line(x, it->text, msg, sizeof(msg));
			for (int k = 0; k < 2 && !st; k++) { /* -o FILE, -o metrics:FILE */
				const char *f = k ? x->cmd.out_metrics : x->cmd.out_file;
				if (f[0] && !lab_out_name_ok(f)) {
					fmt_snprintf(msg, sizeof(msg), "-o %s: %s", f, lab_out_rule);
					st = UNC_E_INVALID;
				}
			}
		}
		if (st) {
			lab_config_error(x->cfg_path, it->line, msg, x->cfg_error, sizeof(x->cfg_error));
			return false;
		}
	}
	return true;
}

/* ---- the results folder ---- */

/* A file of the folder not written: the run goes on; a volume that cannot
 * be written any more is not tried again. */
static void results_unwritable(struct lab_ctx *x, const char *what, EFI_STATUS s)
{
	char hex[20];
	const char *why = lab_vol_why(&x->vol, s);

	if (!x->writable)
		return;
	if (why[0]) {
		out_printf(&x->err, LAB_PFX "cannot write %s (%s)%s; the run goes on with its results in EFI variables "
			   "only\n", what, status_text(s, hex), why);
		x->writable = false;
	} else {
		out_printf(&x->err, LAB_PFX "cannot write %s (%s)\n", what, status_text(s, hex));
	}
}

/* Writes one file of the run's folder, rendered by fill; true when written. */
static bool write_file(struct lab_ctx *x, const char *file, void (*fill)(struct out *o, void *arg), void *arg)
{
	char path[LAB_DIR_MAX + 16];
	size_t len;
	char *buf;

	if (!x->writable)
		return false;
	lab_file_path(x->run_dir, file, path, sizeof(path));
	if (!(buf = lab_render(fill, arg, efi_alloc, &len))) {
		out_printf(&x->err, "uncore: error: %s not written: out of memory\n", path);
		return false;
	}
	EFI_STATUS s = lab_vol_write(&x->vol, path, buf, len);
	if (EFI_ERROR(s))
		results_unwritable(x, path, s);
	efi_free(buf);
	return !EFI_ERROR(s);
}

/* report.html: every case's stored record on one page, read back from its
 * variable. Rendered twice (counted, then written): the errors are said
 * the second time. */
static void write_html(struct lab_ctx *x)
{
	struct lab_html *h = &x->html;
	char path[LAB_DIR_MAX + 16];

	*h = (struct lab_html){ &x->run, &efi_varstore, efi_alloc(LAB_RECORD_MAX), efi_alloc(sizeof(*h->pws)), &x->err,
				0, 0 };
	if (h->pws) /* zero: its counts' pool block is given back between records (count_free) */
		memset(h->pws, 0, sizeof(*h->pws));
	if (h->rec && h->pws) {
		lab_file_path(x->run_dir, "report.html", path, sizeof(path));
		if (write_file(x, "report.html", lab_write_html, h))
			out_printf(&x->out, LAB_PFX "report: %s (%u record%s)\n", path, h->records,
				   h->records == 1 ? "" : "s");
	} else {
		out_printf(&x->err, "uncore: error: report.html not written: out of memory\n");
	}
	efi_free(h->rec);
	efi_free(h->pws);
	h->rec = NULL, h->pws = NULL;
}

static void json_fill(struct out *o, void *arg)
{
	lab_write_json(o, arg);
}

static void junit_fill(struct out *o, void *arg)
{
	lab_write_junit(o, arg);
}

static void console_fill(struct out *o, void *arg)
{
	const struct lab_console *k = arg;

	o->write(o->ctx, k->buf, k->len);
}

/* The run's files beside the configuration (results.json, junit.xml,
 * report.html, console.txt), when the volume takes them. */
static void write_results(struct lab_ctx *x)
{
	if (x->writable && !x->dir_made) {
		EFI_STATUS ds = lab_vol_mkdirs(&x->vol, x->run_dir);
		if (EFI_ERROR(ds))
			results_unwritable(x, x->run_dir, ds);
	}
	write_file(x, "results.json", json_fill, &x->run);
	write_file(x, "junit.xml", junit_fill, &x->run);
	if (x->writable)
		write_html(x);
	if (x->writable)
		out_printf(&x->out, LAB_PFX "results in %s\n", x->run_dir);
	if (x->kept.cut)
		out_printf(&x->err, LAB_PFX "console.txt holds the first %u bytes printed\n", LAB_CONSOLE_MAX);
	if (x->kept.buf)
		write_file(x, "console.txt", console_fill, &x->kept);
}

/* ---- the whole run ---- */

static void end_run(struct lab_ctx *x, uint8_t how, EFI_STATUS status, bool passed)
{
	switch (how) {
	case LAB_END_SHUTDOWN:
	case LAB_END_REBOOT:
		out_printf(&x->out, LAB_PFX "%s\n", how == LAB_END_SHUTDOWN ? "shutting down" : "rebooting");
		RT->ResetSystem(how == LAB_END_SHUTDOWN ? EfiResetShutdown : EfiResetCold, status, 0, NULL);
		break;
	case LAB_END_HALT:
		out_printf(&x->out, "\n%s: %u passed, %u failed. Halted: power off or reset the machine.\n",
			   passed ? "PASS" : "FAIL", x->run.passed, x->run.failed);
		for (;;) /* halted, not spinning: a spin only where the firmware cannot idle */
			if (!efi_idle(1000000, false))
				BS->Stall(1000000);
	default:
		break;
	}
}

/* The volume, the board, the clock: what the run starts from. */
static void start_run(struct lab_ctx *x, EFI_HANDLE image, const struct app_env *tmpl, bool shell)
{
	EFI_LOADED_IMAGE *li = NULL;
	const uint8_t *table;
	uint32_t tlen;
	char msg[200];

	x->vol = (struct lab_vol){ .self = image, .hook = hook, .hook_ctx = x };
	x->shell = shell;
	x->tmpl = tmpl;
	x->con_out = console_out();
	x->con_err = console_err();
	x->out = (struct out){ tee_out, x };
	x->err = (struct out){ tee_err, x };
	x->kept = (struct lab_console){ efi_alloc(LAB_CONSOLE_MAX), 0, LAB_CONSOLE_MAX, false };
	x->vars = lab_rec_store(&x->rec, &efi_varstore);
	/* An unattended run may take longer than the boot manager's 5 minutes. */
	BS->SetWatchdogTimer(0, 0, 0, NULL);
	if (!EFI_ERROR(BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&li)) && li) {
		x->vol.device = li->DeviceHandle;
		x->vol.root = LibOpenRoot(x->vol.device);
	}
	if (efi_smbios_table(&table, &tlen, msg, sizeof(msg)) ||
	    smbios_identity(table, tlen, &x->board, msg, sizeof(msg)))
		out_printf(&x->err, "uncore: warning: board identity unknown: %s\n", msg);
	native_init(&x->hw, &x->err, NULL);
	if (!native_calibrate(&x->hw, &x->err))
		x->tick_hz = x->hw.tick_hz, x->tick_tsc = x->hw.tsc;
	native_release();
}

/* The configuration's one case in error, when it could not be read or checked. */
static unsigned config_case(struct lab_ctx *x)
{
	struct lab_case *c = &x->cases[0];

	out_printf(&x->err, "%s\n", x->cfg_error);
	lab_case_config(c, x->cfg_path, x->cfg_text != NULL, x->cfg_error);
	lab_line_result(&x->out, c);
	return 1;
}

/* The run itself: its configuration, cases and files; returns how it ends. */
static uint8_t lab_run(struct lab_ctx *x, const char *config)
{
	struct rec_time now;
	uint64_t t0 = hw_ticks(&x->hw);
	bool ok = read_config(x, config) && check_config(x);

	if (!ok) { /* ends as on-fail says, if the file got that far */
		memset(&x->cfg.item, 0, sizeof(x->cfg.item));
		x->cfg.n = 0;
		if (!x->cfg_text)
			lab_parse("", 0, &x->cfg), x->cfg.err[0] = '\0';
	}
	efi_get_time(&now);
	lab_started(&now, x->started, sizeof(x->started));
	lab_run_dir(x->cfg.results, &now, &x->board, x->run_dir, sizeof(x->run_dir));
	lab_line_start(&x->out, &x->board, x->cfg_path);
	/* Nothing is created yet: a volume that cannot take the folder is
	 * said now, and left as it is. */
	x->writable = true, x->dir_made = false;
	EFI_STATUS ds = lab_vol_room(&x->vol, 0, 4, 4);
	if (EFI_ERROR(ds))
		results_unwritable(x, x->run_dir, ds);
	unsigned nc = ok ? lab_run_cases(&x->cfg, x->cases, LAB_MAX_CASES, run_case, x, &x->out, &x->err)
			 : config_case(x);
	x->run = (struct lab_run){ .board = &x->board, .config_path = x->cfg_path, .config_text = x->cfg_text,
				   .config_len = x->cfg_len, .cfg = x->cfg_text ? &x->cfg : NULL, .started = x->started,
				   .error = ok ? NULL : x->cfg_error, .tool = "uncore.efi " UNC_VERSION, .cases = x->cases,
				   .ncases = nc };
	lab_run_count(&x->run);
	if (ok && x->cfg.push[0]) {
		x->run.ncases = push_verdict(x, nc);
		lab_run_count(&x->run);
	}
	x->run.ms = ms_since(x, t0);
	lab_line_end(&x->out, &x->run);
	write_results(x);
	return lab_run_ending(&x->cfg, lab_run_passed(&x->run), x->shell);
}

EFI_STATUS efi_lab(EFI_HANDLE image, const struct app_env *tmpl, const char *config, bool shell)
{
	EFI_GUID running_guid = LAB_RUNNING_GUID;
	EFI_HANDLE running = NULL;
	struct out con_err = console_err();
	void *other;

	if (!EFI_ERROR(BS->LocateProtocol(&running_guid, NULL, &other))) {
		out_printf(&con_err, "uncore: error: 'lab' cannot run inside lab mode (a lab run is going on)\n");
		return EFI_ACCESS_DENIED;
	}
	struct lab_ctx *x = efi_alloc(sizeof(*x));
	if (!x) {
		out_printf(&con_err, "uncore: error: out of memory for %zu bytes of work space\n", sizeof(*x));
		return EFI_OUT_OF_RESOURCES;
	}
	memset(x, 0, sizeof(*x));
	if (EFI_ERROR(BS->InstallProtocolInterface(&running, &running_guid, EFI_NATIVE_INTERFACE, x))) {
		out_printf(&con_err, "uncore: error: lab mode: no memory\n");
		efi_free(x);
		return EFI_OUT_OF_RESOURCES;
	}
	start_run(x, image, tmpl, shell);
	uint8_t how = lab_run(x, config);
	bool passed = lab_run_passed(&x->run);
	EFI_STATUS status = (EFI_STATUS)lab_run_status(&x->run);
	if (x->vol.root)
		x->vol.root->Close(x->vol.root);
	BS->UninstallProtocolInterface(running, &running_guid, x);
	end_run(x, how, status, passed);
	/* exit: what the run took back to the pool */
	for (unsigned i = 0; i < x->run.ncases; i++)
		efi_free((void *)x->cases[i].json);
	efi_free(x->cfg_text);
	efi_free(x->kept.buf);
	efi_free(x);
	return status;
}
