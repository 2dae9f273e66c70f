#include "lab.h"

#include <efilib.h>
#include <string.h>

#include "../drivers/cmd/stat_bw_options.h"
#include "../drivers/lab/lab.h"
#include "../drivers/output/report_html.h"
#include "console.h"
#include "measure.h"
#include "native.h"
#include "vars.h"

#define LAB_CONSOLE_MAX (4u << 20) /* bytes of console.txt kept */
#define LAB_FILE_MAX    65536      /* bytes of a configuration file */
#define LAB_MAX_CASES   (LAB_MAX_ITEMS * 4)
#define LAB_PFX         "uncore: lab: "

static EFI_HANDLE self, device;
static EFI_FILE_HANDLE root; /* the volume uncore.efi was loaded from */
static bool have_shell;

/* ---- everything printed, kept for console.txt ---- */

static char *cbuf;
static size_t clen;
static bool ccut;

static void keep(const char *s, size_t len)
{
	if (!cbuf)
		return;
	if (len > LAB_CONSOLE_MAX - clen) {
		len = LAB_CONSOLE_MAX - clen;
		ccut = true;
	}
	memcpy(cbuf + clen, s, len);
	clen += len;
}

/* While a child image runs, what it prints goes through the firmware's
 * console, not through lout/lerr: the console's OutputString is wrapped
 * for that time, so console.txt keeps the child's text too (and lout/lerr
 * stop keeping, since their text then passes the wrapper as well). */
static bool hooked;
static SIMPLE_TEXT_OUTPUT_INTERFACE *hook_con[2];
static EFI_TEXT_OUTPUT_STRING hook_orig[2];

static EFI_STATUS EFIAPI kept_output(SIMPLE_TEXT_OUTPUT_INTERFACE *This, CHAR16 *str)
{
	char b[128];
	size_t n = 0;

	for (CHAR16 *c = str; c && *c; c++) {
		if (*c == L'\r')
			continue;
		b[n++] = *c < 0x80 ? (char)*c : '?';
		if (n == sizeof(b)) {
			keep(b, n);
			n = 0;
		}
	}
	keep(b, n);
	return (This == hook_con[1] ? hook_orig[1] : hook_orig[0])(This, str);
}

static void hook_console(bool on)
{
	if (on == hooked || !cbuf)
		return;
	if (on) { /* unhooked from the same protocols, even if a child changed ST's */
		hook_con[0] = ST->ConOut;
		hook_con[1] = ST->StdErr && ST->StdErr != ST->ConOut ? ST->StdErr : NULL;
	}
	for (unsigned i = 0; i < 2; i++) {
		if (!hook_con[i])
			continue;
		if (on) {
			hook_orig[i] = hook_con[i]->OutputString;
			hook_con[i]->OutputString = kept_output;
		} else {
			hook_con[i]->OutputString = hook_orig[i];
		}
	}
	hooked = on;
}

static void tee_write(void *ctx, const char *s, size_t len)
{
	struct out *con = ctx;

	con->write(con->ctx, s, len);
	if (!hooked)
		keep(s, len);
}

static struct out con_out, con_err, lout, lerr;

/* ---- files on the volume ---- */

static void to_wide(CHAR16 *dst, size_t n, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < n; i++)
		dst[i] = (CHAR16)(unsigned char)src[i];
	dst[i] = 0;
}

static EFI_STATUS open_path(const char *path, UINT64 mode, UINT64 attr, EFI_FILE_HANDLE *fh)
{
	CHAR16 w[LAB_LINE_MAX];

	if (!root)
		return EFI_NOT_FOUND;
	to_wide(w, LAB_LINE_MAX, path);
	return root->Open(root, fh, w, mode, attr);
}

static enum unc_status read_text(const char *path, char **ret, size_t *ret_len, EFI_STATUS *ret_s)
{
	EFI_FILE_HANDLE fh;
	EFI_STATUS s = open_path(path, EFI_FILE_MODE_READ, 0, &fh);
	UINTN n = LAB_FILE_MAX;

	*ret = NULL;
	*ret_s = s;
	if (EFI_ERROR(s))
		return s == EFI_NOT_FOUND ? UNC_E_NOT_FOUND : UNC_E_DEVICE;
	char *buf = efi_alloc(LAB_FILE_MAX + 1);
	if (!buf) {
		fh->Close(fh);
		return UNC_E_NO_MEMORY;
	}
	s = fh->Read(fh, &n, buf);
	fh->Close(fh);
	*ret_s = s;
	if (EFI_ERROR(s)) {
		efi_free(buf);
		return UNC_E_DEVICE;
	}
	if (n >= LAB_FILE_MAX) {
		efi_free(buf);
		return UNC_E_RANGE;
	}
	buf[n] = '\0';
	*ret = buf;
	*ret_len = n;
	return UNC_OK;
}

/* Whether the volume takes bytes of new files and dirs new folders: it
 * is not read-only, and has that many clusters free, with one more for
 * each to grow its folder. Checked before anything is created, since a
 * folder or file made on a full FAT volume can leave it inconsistent
 * (a folder whose start cluster is 0: the root). */
static EFI_STATUS room_for(size_t bytes, unsigned dirs, unsigned files)
{
	EFI_FILE_SYSTEM_INFO *fs = root ? LibFileSystemInfo(root) : NULL;
	EFI_STATUS s = EFI_SUCCESS;

	if (!fs)
		return root ? EFI_SUCCESS : EFI_NOT_FOUND; /* unknown: the writes say */
	uint64_t cl = fs->BlockSize ? fs->BlockSize : 512;
	uint64_t need = (bytes + cl - 1) / cl * cl + (uint64_t)(dirs + files) * cl;
	if (fs->ReadOnly)
		s = EFI_WRITE_PROTECTED;
	else if (fs->FreeSpace < need)
		s = EFI_VOLUME_FULL;
	FreePool(fs);
	return s;
}

/* Replaces the file at path (never a directory) with data. */
static EFI_STATUS write_path(const char *path, const void *data, size_t len)
{
	EFI_FILE_HANDLE fh;
	EFI_STATUS s = room_for(len, 0, 1);

	if (EFI_ERROR(s))
		return s;
	s = open_path(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &fh);

	if (!EFI_ERROR(s)) {
		EFI_FILE_INFO *info = LibFileInfo(fh);
		bool dir = info && (info->Attribute & EFI_FILE_DIRECTORY);
		if (info)
			FreePool(info);
		if (dir) {
			fh->Close(fh);
			return EFI_ACCESS_DENIED;
		}
		s = fh->Delete(fh); /* closes it: replace, never append */
		if (s != EFI_SUCCESS)
			return EFI_ERROR(s) ? s : EFI_WRITE_PROTECTED;
	}
	s = open_path(path, EFI_FILE_MODE_CREATE | EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &fh);
	if (EFI_ERROR(s))
		return s;
	UINTN n = len;
	s = fh->Write(fh, &n, (VOID *)data);
	if (!EFI_ERROR(s) && n != len)
		s = EFI_VOLUME_FULL;
	EFI_STATUS c = fh->Close(fh);
	return EFI_ERROR(s) ? s : c;
}

/* Makes every folder of path (absolute, backslashes). */
static EFI_STATUS make_dirs(const char *path)
{
	char part[LAB_LINE_MAX];
	EFI_STATUS s = EFI_SUCCESS;
	unsigned n = 0;

	for (const char *c = path; *c; c++)
		n += *c == '\\';
	s = room_for(0, n, 0);
	if (EFI_ERROR(s))
		return s;
	for (size_t i = 1; ; i++) {
		if (path[i] && path[i] != '\\')
			continue;
		if (i >= sizeof(part))
			return EFI_INVALID_PARAMETER;
		memcpy(part, path, i);
		part[i] = '\0';
		EFI_FILE_HANDLE fh;
		s = open_path(part, EFI_FILE_MODE_CREATE | EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, EFI_FILE_DIRECTORY,
			      &fh);
		if (EFI_ERROR(s))
			return s;
		fh->Close(fh);
		if (!path[i])
			return s;
	}
}

static const char *status_text(EFI_STATUS s, char hex[20])
{
	return efi_status_str((uint64_t)s, hex);
}

/* -o NAME: a file of the run's results folder (efi/cmd/lab.md), however
 * the name came; the folder is made when the first file needs it. */
static const char out_rule[] = "in lab mode -o takes a plain file name, written in the run's results folder";
static char run_dir[LAB_PATH_MAX + 64];
static bool writable, dir_made;
static const char *volume_why(EFI_STATUS s);

static enum unc_status lab_write_file(void *ctx, const char *name, const void *data, size_t len, char *err,
				      size_t errsize)
{
	char path[sizeof(run_dir) + LAB_NAME_MAX + 2], hex[20];
	EFI_STATUS s = EFI_SUCCESS;

	(void)ctx;
	if (!lab_out_name_ok(name))
		UNC_ERR(UNC_E_INVALID, "%s", out_rule);
	if (!writable)
		UNC_ERR(UNC_E_DEVICE, "no results folder");
	if (!dir_made) {
		s = make_dirs(run_dir);
		dir_made = !EFI_ERROR(s);
	}
	fmt_snprintf(path, sizeof(path), "%s\\%s", run_dir, name);
	if (!EFI_ERROR(s))
		s = write_path(path, data, len);
	if (EFI_ERROR(s))
		UNC_ERR(UNC_E_DEVICE, "cannot write %s (%s)%s", path, status_text(s, hex), volume_why(s));
	return UNC_OK;
}

/* ---- images started directly: `run PATH [ARGS]`, and -- COMMAND without a Shell ---- */

static EFI_GUID params_guid = EFI_SHELL_PARAMETERS_PROTOCOL_GUID;


/* Loads the image a command line's first word names (a path on uncore.efi's
 * volume); *ret_h is the loaded image. */
static enum unc_status load_image(const char *cmdline, EFI_HANDLE *ret_h, char *err, size_t errsize)
{
	char line[LAB_LINE_MAX], *argv[CLI_MAX_ARGS], hex[20];
	CHAR16 w[LAB_LINE_MAX];
	int argc;

	*ret_h = NULL;
	fmt_snprintf(line, sizeof(line), "%s", cmdline);
	if (lab_split(line, argv, CLI_MAX_ARGS, &argc, err, errsize) || !argc)
		return UNC_E_INVALID;
	if (argv[0][0] != '\\' || strchr(argv[0], ':'))
		UNC_ERR(UNC_E_INVALID, "'%s': want the path of an EFI image on uncore.efi's volume, such as "
			"\\uncore\\tool.efi", argv[0]);
	to_wide(w, LAB_LINE_MAX, argv[0]);
	EFI_DEVICE_PATH *dp = FileDevicePath(device, w);
	if (!dp)
		UNC_ERR(UNC_E_NO_MEMORY, "'%s': no memory for its device path", argv[0]);
	EFI_STATUS s = BS->LoadImage(FALSE, self, dp, NULL, 0, ret_h);
	FreePool(dp);
	if (EFI_ERROR(s)) {
		if (*ret_h && s == EFI_SECURITY_VIOLATION)
			BS->UnloadImage(*ret_h);
		*ret_h = NULL;
		if (s == EFI_NOT_FOUND)
			UNC_ERR(UNC_E_NOT_FOUND, "'%s': no such file", argv[0]);
		UNC_ERR(UNC_E_INVALID, "'%s' is not an image this firmware can load (%s)", argv[0], status_text(s, hex));
	}
	return UNC_OK;
}

/* What a started image is given: its command line and its words. */
struct image_args {
	char line[LAB_LINE_MAX];
	CHAR16 wline[LAB_LINE_MAX], wargs[LAB_LINE_MAX + CLI_MAX_ARGS];
	CHAR16 *wargv[CLI_MAX_ARGS + 1];
};

static enum unc_status start_image_args(EFI_HANDLE h, const char *cmdline, EFI_STATUS *ret_status, unsigned period_ms,
					void (*tick)(void *), void *tctx, struct image_args *a, char *err,
					size_t errsize)
{
	char *line = a->line;
	CHAR16 *wline = a->wline, *wargs = a->wargs, **wargv = a->wargv;
	char *argv[CLI_MAX_ARGS];
	int argc;
	EFI_LOADED_IMAGE *li = NULL;
	EFI_EVENT ev = NULL;
	struct efi_ticker t = { tick, tctx };

	fmt_snprintf(line, sizeof(a->line), "%s", cmdline);
	to_wide(wline, LAB_LINE_MAX, cmdline);
	if (lab_split(line, argv, CLI_MAX_ARGS, &argc, err, errsize)) {
		BS->UnloadImage(h);
		return UNC_E_INVALID;
	}
	size_t at = 0;
	for (int i = 0; i < argc; i++) {
		wargv[i] = wargs + at;
		to_wide(wargs + at, sizeof(a->wargs) / sizeof(a->wargs[0]) - at, argv[i]);
		at += strlen(argv[i]) + 1;
	}
	wargv[argc] = NULL;
	EFI_SHELL_PARAMETERS_PROTOCOL params = { wargv, (UINTN)argc, NULL, NULL, NULL };
	if (!EFI_ERROR(BS->HandleProtocol(h, &LoadedImageProtocol, (void **)&li)) && li) {
		li->LoadOptions = wline;
		li->LoadOptionsSize = (UINT32)((StrLen(wline) + 1) * sizeof(CHAR16));
	}
	if (EFI_ERROR(BS->InstallProtocolInterface(&h, &params_guid, EFI_NATIVE_INTERFACE, &params))) {
		BS->UnloadImage(h);
		UNC_ERR(UNC_E_DEVICE, "cannot give '%s' its arguments", cmdline);
	}
	if (tick && (EFI_ERROR(BS->CreateEvent(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, efi_on_tick, &t, &ev)) ||
		     EFI_ERROR(BS->SetTimer(ev, TimerPeriodic, (UINT64)period_ms * 10000)))) {
		if (ev)
			BS->CloseEvent(ev);
		BS->UninstallProtocolInterface(h, &params_guid, &params);
		BS->UnloadImage(h);
		UNC_ERR(UNC_E_DEVICE, "cannot start the sampling timer");
	}
	hook_console(true);
	*ret_status = BS->StartImage(h, NULL, NULL);
	hook_console(false);
	if (ev) {
		BS->SetTimer(ev, TimerCancel, 0);
		BS->CloseEvent(ev);
	}
	/* An application is unloaded when it returns; its handle stays while
	 * this protocol is on it, and goes with it. */
	BS->UninstallProtocolInterface(h, &params_guid, &params);
	return UNC_OK;
}

/* Starts a loaded image with the command line's words as its Shell
 * parameters (what a Shell would give it) and the line as its
 * LoadOptions, both from the pool while it runs; tick(tctx) every
 * period_ms meanwhile when tick is set. */
static enum unc_status start_image(EFI_HANDLE h, const char *cmdline, EFI_STATUS *ret_status, unsigned period_ms,
				   void (*tick)(void *), void *tctx, char *err, size_t errsize)
{
	struct image_args *a = efi_alloc(sizeof(*a));

	if (!a) {
		BS->UnloadImage(h);
		UNC_ERR(UNC_E_NO_MEMORY, "out of memory for %zu bytes of arguments for '%s'", sizeof(*a), cmdline);
	}
	enum unc_status st = start_image_args(h, cmdline, ret_status, period_ms, tick, tctx, a, err, errsize);
	efi_free(a);
	return st;
}

/* A child (-- COMMAND): the Shell's way when there is one, else directly. */
static EFI_STATUS child_status;

static enum unc_status lab_child_find(void *ctx, const char *cmdline, char *ret, size_t size, char *err, size_t errsize)
{
	EFI_HANDLE h;
	enum unc_status st;

	(void)ctx;
	if (have_shell)
		return efi_child_find(self, cmdline, ret, size, err, errsize);
	if ((st = load_image(cmdline, &h, err, errsize)))
		return st;
	BS->UnloadImage(h);
	fmt_snprintf(ret, size, "%s", cmdline);
	return UNC_OK;
}

static enum unc_status lab_run_child(void *ctx, const char *cmdline, uint64_t *ret_status, bool *ret_known,
				     unsigned period_ms, void (*tick)(void *tctx), void *tctx, char *err, size_t errsize)
{
	enum unc_status st;
	EFI_STATUS s = EFI_SUCCESS;
	EFI_HANDLE h;

	(void)ctx;
	*ret_known = false;
	if (have_shell) {
		hook_console(true);
		st = efi_run_child(self, cmdline, ret_status, ret_known, period_ms, tick, tctx, err, errsize);
		hook_console(false);
	} else if (!(st = load_image(cmdline, &h, err, errsize)) &&
		 !(st = start_image(h, cmdline, &s, period_ms, tick, tctx, err, errsize))) {
		*ret_status = s;
		*ret_known = true;
	}
	if (!st && *ret_known)
		child_status = (EFI_STATUS)*ret_status;
	return st;
}

/* ---- the JSON each stored record makes ---- */

static char *cur_json;
static size_t cur_json_len;
static struct run_extras cur_x;
static bool cur_has_x;

static void json_copy(void *ctx, const char *json, size_t len, const struct run_extras *x)
{
	(void)ctx;
	if (cur_json)
		efi_free(cur_json);
	if ((cur_json = efi_alloc(len + 1))) {
		memcpy(cur_json, json, len);
		cur_json[len] = '\0';
		cur_json_len = len;
	}
	cur_has_x = x != NULL;
	if (x)
		cur_x = *x;
}

/* ---- the record a case stores: only one this run wrote is its record ---- */

static const char *rec_name; /* the case's LabNNN, while it runs */
static bool rec_written;     /* ... and whether it was written, last, whole */

static enum unc_status rec_set(void *ctx, const char *name, const uint8_t *buf, size_t len)
{
	(void)ctx;
	enum unc_status st = efi_varstore.set(efi_varstore.ctx, name, buf, len);
	if (rec_name && !strcmp(name, rec_name)) /* a record's variable itself is written last */
		rec_written = !st && len;
	return st;
}

static struct varstore lab_vars;

/* ---- one run ---- */

/* Large: allocated when the run starts (gnu-efi's images carry even
 * zeroed static data). */
struct lab_ws {
	struct lab_cfg cfg;
	struct lab_case cases[LAB_MAX_CASES];
	struct cli_cmd cmd;
};
static struct lab_ws *ws;
#define the_cfg   (ws->cfg)
#define the_cases (ws->cases)
static struct lab_board board;
static struct hw hw;
static uint64_t tick_hz;
static struct hw_tsc tick_tsc; /* how tick_hz was found, for every case's record */

static uint64_t ms_since(uint64_t t0)
{
	return tick_hz ? (hw_ticks(&hw) - t0) * 1000 / tick_hz : 0;
}

/* The first "uncore: error: " line printed since offset from, into buf. */
static void first_error(size_t from, char *buf, size_t size)
{
	static const char head[] = "uncore: error: ";

	for (size_t at = from; at < clen;) {
		size_t e = at;
		while (e < clen && cbuf[e] != '\n')
			e++;
		if (e - at >= sizeof(head) - 1 && !memcmp(cbuf + at, head, sizeof(head) - 1)) {
			size_t n = e - at;
			while (n && cbuf[at + n - 1] == '\r')
				n--;
			fmt_snprintf(buf, size, "%.*s", (int)n, cbuf + at);
			return;
		}
		at = e + 1;
	}
}

static void set_status(struct lab_case *c, EFI_STATUS s)
{
	char hex[20];

	c->status = (uint64_t)s;
	fmt_snprintf(c->status_name, sizeof(c->status_name), "%s", status_text(s, hex));
}

/* A command line into a parsed command; the words are kept in line. */
static enum unc_status parse_line(const char *text, struct cli_cmd *cmd, char *err, size_t errsize)
{
	static char line[LAB_LINE_MAX];
	char *argv[CLI_MAX_ARGS];
	int argc;
	enum unc_status st;

	fmt_snprintf(line, sizeof(line), "%s", text);
	argv[0] = "uncore";
	if ((st = lab_split(line, argv + 1, CLI_MAX_ARGS - 1, &argc, err, errsize)))
		return st;
	return cli_parse(argc + 1, argv, cmd, err, errsize);
}

static void run_case(const struct app_env *tmpl, const struct lab_item *it, unsigned round, unsigned idx,
		     struct lab_case *c)
{
	struct cli_cmd *cmd = &ws->cmd;
	char msg[240];
	size_t from = clen;
	uint64_t t0 = hw_ticks(&hw);
	enum unc_status st;

	memset(c, 0, sizeof(*c));
	fmt_snprintf(c->name, sizeof(c->name), "%s", it->name);
	lab_case_id(it->name, round, the_cases, idx, c->id, sizeof(c->id));
	c->command = it->text;
	c->kind = it->kind;
	c->round = round;
	if (it->kind == LAB_RUN) {
		EFI_HANDLE h;
		EFI_STATUS s = EFI_SUCCESS;
		out_printf(&lout, LAB_PFX "run %s\n", it->text);
		st = load_image(it->text, &h, msg, sizeof(msg));
		if (!st)
			st = start_image(h, it->text, &s, 0, NULL, NULL, msg, sizeof(msg));
		if (st) {
			out_printf(&lerr, "uncore: error: %s\n", msg);
			s = efi_status_from(st);
		} else if (EFI_ERROR(s)) {
			char hex[20];
			out_printf(&lerr, "uncore: error: %s returned %s\n", it->text, status_text(s, hex));
		}
		set_status(c, s);
		c->result = EFI_ERROR(s) ? LAB_ERROR : LAB_PASS;
	} else {
		out_printf(&lout, LAB_PFX "%s\n", it->text);
		if ((st = parse_line(it->text, cmd, msg, sizeof(msg)))) { /* checked before the run: not here */
			out_printf(&lerr, "uncore: error: %s\n", msg);
			set_status(c, efi_status_from(st));
			c->result = LAB_ERROR;
			goto done;
		}
		if (app_needs_clock(cmd) && !tick_hz) { /* the calibration at the start said why */
			out_printf(&lerr, "uncore: error: %s needs the TSC's frequency, which could not be trusted\n", it->text);
			set_status(c, efi_status_from(UNC_E_DEVICE));
			c->result = LAB_ERROR;
			goto done;
		}
		/* Each record also goes to a variable of its own (efi/cmd/lab.md). */
		if (!cmd->out_var && app_stores_record(cmd)) {
			cmd->out_var = true;
			fmt_snprintf(cmd->var_name, sizeof(cmd->var_name), "Lab%03u", idx + 1);
		}
		native_init(&hw, &lerr, self);
		hw.tick_hz = tick_hz;
		hw.tsc = tick_tsc;
		struct app_env env = *tmpl;
		env.ctx = &hw;
		env.write_file = lab_write_file;
		env.child_find = lab_child_find;
		env.run_child = lab_run_child;
		env.json_copy = json_copy;
		lab_vars = efi_varstore;
		lab_vars.set = rec_set;
		env.vars = &lab_vars;
		cur_json = NULL, cur_json_len = 0, cur_has_x = false, child_status = EFI_SUCCESS;
		rec_name = cmd->out_var ? cmd->var_name : NULL, rec_written = false;
		st = app_run(cmd, &hw, &env, &lout, &lerr);
		native_release();
		if (rec_name && rec_written) /* not a variable of that name an earlier boot left */
			fmt_snprintf(c->record, sizeof(c->record), "%s", cmd->var_name);
		rec_name = NULL;
		set_status(c, st == UNC_E_CHILD ? child_status : efi_status_from(st));
		c->json = cur_json;
		c->json_len = cur_json_len;
		c->check = stat_bw_asks_check(cmd);
		if (c->check && cur_has_x && cur_x.check) {
			static const char *const v[] = { "FAIL", "PASS", "none" };
			c->measured = true;
			c->kb_s = cur_x.check_measured_kb_s;
			fmt_snprintf(c->verdict, sizeof(c->verdict), "%s", cur_x.check_verdict <= 2 ? v[cur_x.check_verdict] : "none");
		} else if (c->check) {
			fmt_snprintf(c->verdict, sizeof(c->verdict), "none");
		}
		c->result = !st ? LAB_PASS : c->check && st == UNC_E_CHECK ? LAB_FAIL : LAB_ERROR;
		if (c->check)
			lab_find_verdict(cbuf + from, clen - from, c->verdict_line, sizeof(c->verdict_line));
	}
done:
	/* An error after a PASS line (a stuck counter, a failed child): the
	 * error line is the message, not the PASS. */
	if (c->result == LAB_ERROR && (!c->verdict_line[0] || !strncmp(c->verdict_line, "PASS", 4))) {
		char e[sizeof(c->verdict_line)];
		first_error(from, e, sizeof(e));
		if (e[0] || !c->verdict_line[0])
			fmt_snprintf(c->verdict_line, sizeof(c->verdict_line), "%s", e);
	}
	c->ms = ms_since(t0);
	c->output = cbuf + from;
	c->output_len = clen - from;
}

/* ---- choosing and checking the configuration ---- */

static char cfg_path[LAB_PATH_MAX + 16];
static char *cfg_text;
static size_t cfg_len;
static char cfg_error[LAB_ERR_MAX + LAB_PATH_MAX + 64];

/* Reads the configuration; false, with cfg_error set, when there is none. */
static bool read_config(const char *given)
{
	char names[3][LAB_PATH_MAX + 16], tried[3 * (LAB_PATH_MAX + 16)] = "", hex[20];
	unsigned n = 0;

	if (given && given[0]) {
		fmt_snprintf(names[n++], sizeof(names[0]), "%s", given);
	} else {
		const char *products[2] = { board.board_product, board.sys_product };
		for (int k = 0; k < 2; k++) {
			char f[LAB_STR_MAX];
			lab_sanitize(products[k], f, sizeof(f));
			if (f[0])
				fmt_snprintf(names[n++], sizeof(names[0]), "\\uncore\\%s.cfg", f);
		}
		fmt_snprintf(names[n++], sizeof(names[0]), "\\uncore\\uncore.cfg");
	}
	for (unsigned k = 0; k < n; k++) {
		EFI_STATUS s;
		enum unc_status st = read_text(names[k], &cfg_text, &cfg_len, &s);
		size_t tl = strlen(tried);
		fmt_snprintf(tried + tl, sizeof(tried) - tl, "%s%s", k ? (k + 1 == n ? " nor " : ", ") : "", names[k]);
		if (st == UNC_E_NOT_FOUND)
			continue;
		fmt_snprintf(cfg_path, sizeof(cfg_path), "%s", names[k]);
		if (st == UNC_E_RANGE)
			fmt_snprintf(cfg_error, sizeof(cfg_error), "uncore: error: %s: larger than %u bytes", names[k],
				     LAB_FILE_MAX);
		else if (st)
			fmt_snprintf(cfg_error, sizeof(cfg_error), "uncore: error: %s: cannot read it (%s)", names[k],
				     st == UNC_E_NO_MEMORY ? "out of memory" : status_text(s, hex));
		return !st;
	}
	if (!root)
		fmt_snprintf(cfg_error, sizeof(cfg_error), "uncore: error: no configuration: the volume uncore.efi was "
			     "loaded from has no file system");
	else
		fmt_snprintf(cfg_error, sizeof(cfg_error), "uncore: error: no configuration: neither %s exists", tried);
	return false;
}

/* Parses the configuration and every command line in it; false, with
 * cfg_error set, at the first problem. */
static bool check_config(void)
{
	struct cli_cmd *cmd = &ws->cmd;
	char msg[240], line[LAB_LINE_MAX], *argv[CLI_MAX_ARGS];
	int argc;

	if (lab_parse(cfg_text, cfg_len, &the_cfg)) {
		if (the_cfg.err_line)
			fmt_snprintf(cfg_error, sizeof(cfg_error), "uncore: error: %s line %u: %s", cfg_path, the_cfg.err_line,
				     the_cfg.err);
		else
			fmt_snprintf(cfg_error, sizeof(cfg_error), "uncore: error: %s: %s", cfg_path, the_cfg.err);
		return false;
	}
	for (unsigned i = 0; i < the_cfg.n; i++) {
		const struct lab_item *it = &the_cfg.item[i];
		enum unc_status st;
		if (it->kind == LAB_RUN) {
			fmt_snprintf(line, sizeof(line), "%s", it->text);
			st = lab_split(line, argv, CLI_MAX_ARGS, &argc, msg, sizeof(msg));
			if (!st && (argv[0][0] != '\\' || strchr(argv[0], ':')))
				st = UNC_E_INVALID, fmt_snprintf(msg, sizeof(msg), "'run %s': want the path of an EFI image on "
								 "uncore.efi's volume, such as \\uncore\\tool.efi", argv[0]);
		} else {
			st = parse_line(it->text, cmd, msg, sizeof(msg));
			if (!st && cmd->out_file[0] && !lab_out_name_ok(cmd->out_file))
				st = UNC_E_INVALID, fmt_snprintf(msg, sizeof(msg), "-o %s: %s", cmd->out_file, out_rule);
		}
		if (st) {
			fmt_snprintf(cfg_error, sizeof(cfg_error), "uncore: error: %s line %u: %s", cfg_path, it->line, msg);
			return false;
		}
	}
	return true;
}

/* ---- the results folder ---- */

static char started[24];

static void name_run(void)
{
	EFI_TIME t;
	char serial[LAB_STR_MAX];

	lab_sanitize(lab_board_serial(&board), serial, sizeof(serial));
	if (EFI_ERROR(RT->GetTime(&t, NULL)))
		t = (EFI_TIME){ .Year = 1970, .Month = 1, .Day = 1 };
	fmt_snprintf(started, sizeof(started), "%04u-%02u-%02uT%02u:%02u:%02u", t.Year, t.Month, t.Day, t.Hour, t.Minute,
		     t.Second);
	fmt_snprintf(run_dir, sizeof(run_dir), "%s\\%04u%02u%02u-%02u%02u%02u-%s", the_cfg.results, t.Year, t.Month, t.Day,
		     t.Hour, t.Minute, t.Second, serial[0] ? serial : "noserial");
}

/* What a failed write says of the volume ("" when nothing). */
static const char *volume_why(EFI_STATUS s)
{
	return s == EFI_WRITE_PROTECTED ? ": the volume is read-only"
	     : s == EFI_VOLUME_FULL     ? ": the volume is full"
	     : s == EFI_NOT_FOUND && !root ? ": no file system"
	     : s == EFI_NO_MEDIA || s == EFI_MEDIA_CHANGED ? ": the medium is gone"
	     : s == EFI_DEVICE_ERROR || s == EFI_VOLUME_CORRUPTED ? ": the volume failed"
	     : "";
}

/* A file of the folder not written: the run goes on; a volume that cannot
 * be written any more is not tried again. */
static void results_unwritable(const char *what, EFI_STATUS s)
{
	char hex[20];
	const char *why = volume_why(s);

	if (!writable)
		return;
	if (why[0]) {
		out_printf(&lerr, LAB_PFX "cannot write %s (%s)%s; the run goes on with its results in EFI variables "
			   "only\n", what, status_text(s, hex), why);
		writable = false;
	} else {
		out_printf(&lerr, LAB_PFX "cannot write %s (%s)\n", what, status_text(s, hex));
	}
}

/* Renders a file with fill into memory of exactly its size: counted first. */
static char *render(void (*fill)(struct out *o, const void *arg), const void *arg, size_t *ret_len)
{
	struct strbuf sb;
	char one, *buf;

	strbuf_init(&sb, &one, 1); /* counts, keeps nothing */
	struct out o = strbuf_out(&sb);
	fill(&o, arg);
	size_t cap = sb.len + 1;
	if (!(buf = efi_alloc(cap)))
		return NULL;
	strbuf_init(&sb, buf, cap);
	o = strbuf_out(&sb);
	fill(&o, arg);
	*ret_len = sb.len < cap ? sb.len : cap - 1; /* the same, unless a record changed meanwhile */
	return buf;
}

static void html_fill(struct out *o, const void *arg);
static unsigned html_records;

/* Writes one file of the run's folder. */
static void write_file(const char *file, void (*fill)(struct out *o, const void *arg), const void *arg)
{
	char path[sizeof(run_dir) + 16];
	size_t len;
	char *buf;

	if (!writable)
		return;
	fmt_snprintf(path, sizeof(path), "%s\\%s", run_dir, file);
	if (!(buf = render(fill, arg, &len))) {
		out_printf(&lerr, "uncore: error: %s not written: out of memory\n", path);
		return;
	}
	EFI_STATUS s = write_path(path, buf, len);
	if (EFI_ERROR(s))
		results_unwritable(path, s);
	else if (fill == html_fill)
		out_printf(&lout, LAB_PFX "report: %s (%u record%s)\n", path, html_records, html_records == 1 ? "" : "s");
	efi_free(buf);
}

/* report.html: every case's stored record on one page (an index with each
 * verdict, then a section per record), read back from its variable, with
 * the renderer the host decoder uses. Rendered twice (counted, then
 * written): the errors are said the second time. */
#define LAB_RECORD_MAX (1u << 20)
static uint8_t *html_rec;
static struct rec_print_ws *html_pws; /* large: from the pool, not in the image */
static unsigned html_pass, html_records;

static void html_fill(struct out *o, const void *arg)
{
	const struct lab_run *r = arg;
	char err[160];
	size_t len;
	bool say = html_pass++ > 0;

	html_records = 0;
	report_html_begin(o, lab_run_passed(r) ? "lab run: PASS" : "lab run: FAIL");
	lab_write_html_run(o, r);
	report_html_index_begin(o);
	for (unsigned i = 0; i < r->ncases; i++) {
		const struct lab_case *c = &r->cases[i];
		if (!c->record[0])
			continue;
		html_records++;
		if ((var_load(&efi_varstore, c->record, html_rec, LAB_RECORD_MAX, &len, err, sizeof(err)) ||
		     report_html_index_row(o, html_rec, len, c->record, html_pws, err, sizeof(err))) && say)
			out_printf(&lerr, "uncore: error: report.html: record %s: %s\n", c->record, err);
	}
	report_html_index_end(o);
	for (unsigned i = 0; i < r->ncases; i++) {
		const struct lab_case *c = &r->cases[i];
		if (c->record[0] && !var_load(&efi_varstore, c->record, html_rec, LAB_RECORD_MAX, &len, err, sizeof(err)))
			report_html_section(o, html_rec, len, c->record, html_pws, err, sizeof(err));
	}
	report_html_end(o);
}

static void write_html(const struct lab_run *r)
{
	html_rec = efi_alloc(LAB_RECORD_MAX);
	html_pws = efi_alloc(sizeof(*html_pws));
	if (html_pws) /* zero: its counts' pool block is given back between records (count_free) */
		memset(html_pws, 0, sizeof(*html_pws));
	if (html_rec && html_pws) {
		html_pass = 0;
		write_file("report.html", html_fill, r);
	} else {
		out_printf(&lerr, "uncore: error: report.html not written: out of memory\n");
	}
	efi_free(html_rec);
	efi_free(html_pws);
	html_rec = NULL, html_pws = NULL;
}

static void json_fill(struct out *o, const void *arg)
{
	lab_write_json(o, arg);
}

static void junit_fill(struct out *o, const void *arg)
{
	lab_write_junit(o, arg);
}

static void console_fill(struct out *o, const void *arg)
{
	(void)arg;
	o->write(o->ctx, cbuf, clen);
}

/* ---- the whole run ---- */

static void end_run(uint8_t how, EFI_STATUS status, bool passed, const struct lab_run *r)
{
	switch (how) {
	case LAB_END_SHUTDOWN:
	case LAB_END_REBOOT:
		out_printf(&lout, LAB_PFX "%s\n", how == LAB_END_SHUTDOWN ? "shutting down" : "rebooting");
		RT->ResetSystem(how == LAB_END_SHUTDOWN ? EfiResetShutdown : EfiResetCold, status, 0, NULL);
		break;
	case LAB_END_HALT:
		out_printf(&lout, "\n%s: %u passed, %u failed. Halted: power off or reset the machine.\n",
			   passed ? "PASS" : "FAIL", r->passed, r->failed);
		for (;;)
			BS->Stall(1000000);
	default:
		break;
	}
}

/* Installed while a lab run goes on: a lab run started inside it, however
 * (`run \EFI\BOOT\BOOTX64.EFI lab`, `-- uncore.efi lab`, ...), finds it
 * and is refused, as a `lab` line is. */
static EFI_GUID running_guid = { 0xca574d42, 0x28f1, 0x44a5, { 0x83, 0x67, 0x0f, 0xa6, 0xde, 0x94, 0xcf, 0x84 } };
static EFI_HANDLE running;
static uint32_t running_mark;

/* The run's test cases: the configuration's items, each round, or one case
 * for a configuration that could not be read (its error). Each case's line
 * is printed as it ends; *status takes the first failure's. */
static unsigned run_cases(const struct app_env *tmpl, bool ok, EFI_STATUS *status)
{
	unsigned nc = 0;

	if (!ok) {
		struct lab_case *c = &the_cases[nc++];
		memset(c, 0, sizeof(*c));
		out_printf(&lerr, "%s\n", cfg_error);
		fmt_snprintf(c->name, sizeof(c->name), "config");
		fmt_snprintf(c->id, sizeof(c->id), "config");
		c->command = cfg_path[0] ? cfg_path : "none";
		c->round = 1;
		c->result = LAB_ERROR;
		set_status(c, cfg_text ? EFI_INVALID_PARAMETER : EFI_NOT_FOUND);
		fmt_snprintf(c->verdict_line, sizeof(c->verdict_line), "%s", cfg_error);
		lab_line_result(&lout, c);
		*status = (EFI_STATUS)c->status;
		return nc;
	}
	for (unsigned round = 1; round <= the_cfg.repeat; round++) {
		for (unsigned i = 0; i < the_cfg.n; i++) {
			if (nc >= LAB_MAX_CASES) {
				out_printf(&lerr, "uncore: error: more than %u test cases in one run; the rest are not run\n",
					   LAB_MAX_CASES);
				return nc;
			}
			struct lab_case *c = &the_cases[nc];
			run_case(tmpl, &the_cfg.item[i], round, nc, c);
			nc++;
			lab_line_result(&lout, c);
			if (c->result != LAB_PASS && *status == EFI_SUCCESS)
				*status = (EFI_STATUS)c->status ? (EFI_STATUS)c->status : EFI_COMPROMISED_DATA;
		}
	}
	return nc;
}

/* The run's files beside the configuration (results.json, junit.xml,
 * report.html, console.txt), when the volume takes them. */
static void write_results(const struct lab_run *r)
{
	if (writable && !dir_made) {
		EFI_STATUS ds = make_dirs(run_dir);
		if (EFI_ERROR(ds))
			results_unwritable(run_dir, ds);
	}
	write_file("results.json", json_fill, r);
	write_file("junit.xml", junit_fill, r);
	if (writable)
		write_html(r);
	if (writable)
		out_printf(&lout, LAB_PFX "results in %s\n", run_dir);
	if (ccut)
		out_printf(&lerr, LAB_PFX "console.txt holds the first %u bytes printed\n", LAB_CONSOLE_MAX);
	if (cbuf)
		write_file("console.txt", console_fill, NULL);
}

EFI_STATUS efi_lab(EFI_HANDLE image, const struct app_env *tmpl, const char *config, bool shell)
{
	static struct lab_run r;
	EFI_LOADED_IMAGE *li = NULL;
	char msg[200];
	EFI_STATUS status = EFI_SUCCESS;
	void *other;

	con_out = console_out();
	con_err = console_err();
	if (!EFI_ERROR(BS->LocateProtocol(&running_guid, NULL, &other))) {
		out_printf(&con_err, "uncore: error: 'lab' cannot run inside lab mode (a lab run is going on)\n");
		return EFI_ACCESS_DENIED;
	}
	running = NULL;
	if (EFI_ERROR(BS->InstallProtocolInterface(&running, &running_guid, EFI_NATIVE_INTERFACE, &running_mark))) {
		out_printf(&con_err, "uncore: error: lab mode: no memory\n");
		return EFI_OUT_OF_RESOURCES;
	}
	self = image;
	have_shell = shell;
	lout = (struct out){ tee_write, &con_out };
	lerr = (struct out){ tee_write, &con_err };
	cbuf = efi_alloc(LAB_CONSOLE_MAX);
	if (!(ws = efi_alloc(sizeof(*ws)))) {
		out_printf(&lerr, "uncore: error: out of memory for %zu bytes of work space\n", sizeof(*ws));
		BS->UninstallProtocolInterface(running, &running_guid, &running_mark);
		return EFI_OUT_OF_RESOURCES;
	}
	memset(ws, 0, sizeof(*ws));
	/* An unattended run may take longer than the boot manager's 5 minutes. */
	BS->SetWatchdogTimer(0, 0, 0, NULL);
	if (!EFI_ERROR(BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&li)) && li) {
		device = li->DeviceHandle;
		root = LibOpenRoot(device);
	}
	const uint8_t *table;
	uint32_t tlen;
	if (efi_smbios_table(&table, &tlen, msg, sizeof(msg)) ||
	    lab_smbios_board(table, tlen, &board, msg, sizeof(msg)))
		out_printf(&lerr, "uncore: warning: board identity unknown: %s\n", msg);
	native_init(&hw, &lerr, NULL);
	if (!native_calibrate(&hw, &lerr))
		tick_hz = hw.tick_hz, tick_tsc = hw.tsc;
	native_release();
	uint64_t t0 = hw_ticks(&hw);

	bool ok = read_config(config) && check_config();
	if (!ok) { /* ends as on-fail says, if the file got that far */
		memset(&the_cfg.item, 0, sizeof(the_cfg.item));
		the_cfg.n = 0;
		if (!cfg_text)
			lab_parse("", 0, &the_cfg), the_cfg.err[0] = '\0';
	}
	name_run();
	lab_line_start(&lout, &board, cfg_path);
	/* Nothing is created yet: a volume that cannot take the folder is
	 * said now, and left as it is. */
	writable = true, dir_made = false;
	EFI_STATUS ds = room_for(0, 4, 4);
	if (EFI_ERROR(ds))
		results_unwritable(run_dir, ds);
	unsigned nc = run_cases(tmpl, ok, &status);
	r = (struct lab_run){ 0 };
	r.board = &board, r.config_path = cfg_path, r.config_text = cfg_text, r.config_len = cfg_len;
	r.cfg = cfg_text ? &the_cfg : NULL, r.started = started, r.error = ok ? NULL : cfg_error;
	r.tool = "uncore.efi " UNC_VERSION, r.cases = the_cases, r.ncases = nc;
	for (unsigned i = 0; i < nc; i++) {
		if (the_cases[i].result == LAB_PASS)
			r.passed++;
		else
			r.failed++;
	}
	r.ms = ms_since(t0);
	bool passed = lab_run_passed(&r);
	if (!passed && status == EFI_SUCCESS)
		status = EFI_NOT_FOUND; /* no test case at all */
	lab_line_end(&lout, &r);
	write_results(&r);
	uint8_t how = passed ? the_cfg.on_pass : the_cfg.on_fail;
	if (!how)
		how = shell ? LAB_END_EXIT : LAB_END_SHUTDOWN;
	if (root)
		root->Close(root);
	BS->UninstallProtocolInterface(running, &running_guid, &running_mark);
	end_run(how, passed ? EFI_SUCCESS : status, passed, &r);
	return passed ? EFI_SUCCESS : status;
}
