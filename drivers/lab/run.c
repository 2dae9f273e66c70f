/* Lab mode's rules for one run (lab.h): which configuration file, the
 * results folder and its files' names, each case's result and message,
 * the LabNNN record a case stores, the cases of every round, and the run's
 * verdict, status and ending. efi/lab_edge.c does the firmware's part. */
#include "lab.h"

#include <string.h>

/* EFI_STATUS values a run gives, numbered as in the UEFI specification's
 * Appendix D. */
#define INVALID_PARAMETER (EFI_STATUS_ERROR_BIT | 2)
#define NOT_FOUND         (EFI_STATUS_ERROR_BIT | 14)
#define DEVICE_ERROR      (EFI_STATUS_ERROR_BIT | 7)
#define COMPROMISED_DATA  (EFI_STATUS_ERROR_BIT | 33)

const char lab_out_rule[] = "in lab mode -o takes a plain file name, written in the run's results folder";

/* ---- the configuration ---- */

unsigned lab_config_names(const char *given, const struct smbios_id *b, char names[LAB_CFG_NAMES][LAB_CFG_PATH_MAX])
{
	unsigned n = 0;

	if (given && given[0]) {
		fmt_snprintf(names[n++], LAB_CFG_PATH_MAX, "%s", given);
		return n;
	}
	const char *products[2] = { b->board_product, b->sys_product };
	for (int k = 0; k < 2; k++) {
		char f[LAB_STR_MAX];
		lab_sanitize(products[k], f, sizeof(f));
		if (f[0])
			fmt_snprintf(names[n++], LAB_CFG_PATH_MAX, "\\uncore\\%s.cfg", f);
	}
	fmt_snprintf(names[n++], LAB_CFG_PATH_MAX, "\\uncore\\uncore.cfg");
	return n;
}

void lab_config_missing(const char names[][LAB_CFG_PATH_MAX], unsigned n, char *buf, size_t size)
{
	size_t at = (size_t)fmt_snprintf(buf, size, "uncore: error: no configuration: neither ");

	for (unsigned k = 0; k < n && at < size; k++)
		at += (size_t)fmt_snprintf(buf + at, size - at, "%s%s", k ? (k + 1 == n ? " nor " : ", ") : "", names[k]);
	if (at < size)
		fmt_snprintf(buf + at, size - at, " exists");
}

void lab_config_error(const char *path, unsigned line, const char *msg, char *buf, size_t size)
{
	if (line)
		fmt_snprintf(buf, size, "uncore: error: %s line %u: %s", path, line, msg);
	else
		fmt_snprintf(buf, size, "uncore: error: %s: %s", path, msg);
}

bool lab_image_path_ok(const char *path)
{
	return path[0] == '\\' && !strchr(path, ':');
}

enum unc_status lab_check_run(const char *text, char *err, size_t errsize)
{
	char line[LAB_LINE_MAX], *argv[LAB_MAX_WORDS];
	int argc;

	fmt_snprintf(line, sizeof(line), "%s", text);
	if (lab_split(line, argv, LAB_MAX_WORDS, &argc, err, errsize))
		return UNC_E_INVALID;
	if (!argc || !lab_image_path_ok(argv[0]))
		UNC_ERR(UNC_E_INVALID, "'run %s': want the path of an EFI image on uncore.efi's volume, such as "
			"\\uncore\\tool.efi", argc ? argv[0] : "");
	return UNC_OK;
}

/* ---- the results folder ---- */

/* The time of day, or 1970-01-01 00:00:00 when the firmware gave none. */
static struct rec_time known_time(const struct rec_time *t)
{
	return t->valid ? *t : (struct rec_time){ .year = 1970, .month = 1, .day = 1 };
}

void lab_started(const struct rec_time *t, char *buf, size_t size)
{
	struct rec_time k = known_time(t);

	fmt_snprintf(buf, size, "%04u-%02u-%02uT%02u:%02u:%02u", k.year, k.month, k.day, k.hour, k.minute, k.second);
}

void lab_run_dir(const char *results, const struct rec_time *t, const struct smbios_id *b, char *buf, size_t size)
{
	struct rec_time k = known_time(t);
	char serial[LAB_STR_MAX];

	lab_sanitize(lab_board_serial(b), serial, sizeof(serial));
	fmt_snprintf(buf, size, "%s\\%04u%02u%02u-%02u%02u%02u-%s", results, k.year, k.month, k.day, k.hour, k.minute,
		     k.second, serial[0] ? serial : "noserial");
}

void lab_file_path(const char *dir, const char *name, char *buf, size_t size)
{
	fmt_snprintf(buf, size, "%s\\%s", dir, name);
}

/* ---- what was printed ---- */

void lab_keep(struct lab_console *k, const char *s, size_t len)
{
	if (!k->buf)
		return;
	if (len > k->cap - k->len) {
		len = k->cap - k->len;
		k->cut = true;
	}
	memcpy(k->buf + k->len, s, len);
	k->len += len;
}

/* The first line of text that begins with one of heads, without its line
 * end, into buf; false (buf "") when there is none. */
static bool first_line(const char *text, size_t len, const char *const *heads, unsigned nheads, char *buf,
		       size_t size)
{
	if (size)
		buf[0] = '\0';
	for (size_t at = 0; at < len;) {
		size_t e = at;
		while (e < len && text[e] != '\n')
			e++;
		for (unsigned k = 0; k < nheads; k++) {
			size_t hl = strlen(heads[k]);
			if (e - at >= hl && !memcmp(text + at, heads[k], hl)) {
				size_t n = e - at;
				while (n && text[at + n - 1] == '\r')
					n--;
				fmt_snprintf(buf, size, "%.*s", (int)n, text + at);
				return true;
			}
		}
		at = e + 1;
	}
	return false;
}

bool lab_find_verdict(const char *text, size_t len, char *buf, size_t size)
{
	static const char *const heads[] = { "PASS: ", "FAIL: ", "NO VERDICT: " };

	return first_line(text, len, heads, 3, buf, size);
}

bool lab_first_error(const char *text, size_t len, char *buf, size_t size)
{
	static const char *const heads[] = { "uncore: error: " };

	return first_line(text, len, heads, 1, buf, size);
}

/* ---- one case ---- */

static bool is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

void lab_case_id(const char *name, unsigned round, const struct lab_case *prev, unsigned n, char *out, size_t size)
{
	size_t len = 0, base;

	if (size < 16)
		return;
	/* room for "_rN_M" after the name */
	for (bool gap = false; *name && len + 1 < size - 15; name++) {
		char c = *name >= 'A' && *name <= 'Z' ? (char)(*name - 'A' + 'a') : *name;
		if (is_word_char(c)) {
			out[len++] = c;
			gap = false;
		} else if (!gap) {
			out[len++] = '_';
			gap = true;
		}
	}
	out[len] = '\0';
	if (!len || !strcmp(out, "_"))
		len = (size_t)fmt_snprintf(out, size, "case");
	if (round > 1)
		len += (size_t)fmt_snprintf(out + len, size - len, "_r%u", round);
	base = len;
	for (unsigned k = 2;; k++) {
		bool taken = false;
		for (unsigned i = 0; i < n && !taken; i++)
			taken = !strcmp(prev[i].id, out);
		if (!taken)
			return;
		fmt_snprintf(out + base, size - base, "_%u", k);
	}
}

void lab_case_begin(struct lab_case *c, const struct lab_item *it, unsigned round, const struct lab_case *prev,
		    unsigned n)
{
	memset(c, 0, sizeof(*c));
	fmt_snprintf(c->name, sizeof(c->name), "%s", it->name);
	lab_case_id(it->name, round, prev, n, c->id, sizeof(c->id));
	c->command = it->text;
	c->kind = it->kind;
	c->round = round;
}

void lab_case_status(struct lab_case *c, uint64_t status)
{
	char hex[20];

	c->status = status;
	fmt_snprintf(c->status_name, sizeof(c->status_name), "%s", efi_status_str(status, hex));
}

void lab_case_image(struct lab_case *c, uint64_t status)
{
	lab_case_status(c, status);
	c->result = status & EFI_STATUS_ERROR_BIT ? LAB_ERROR : LAB_PASS;
}

void lab_case_ran(struct lab_case *c, enum unc_status st, bool check, const struct run_extras *x,
		  const char *printed, size_t len)
{
	static const char *const verdicts[] = { [VERDICT_FAIL] = "FAIL", [VERDICT_PASS] = "PASS",
						[VERDICT_NONE] = "none" };

	c->check = check;
	if (check && x && x->check) {
		c->measured = true;
		c->kb_s = x->check_measured_kb_s;
		fmt_snprintf(c->verdict, sizeof(c->verdict), "%s",
			     x->check_verdict <= VERDICT_NONE ? verdicts[x->check_verdict] : "none");
	} else if (check) {
		fmt_snprintf(c->verdict, sizeof(c->verdict), "none");
	}
	c->result = !st ? LAB_PASS : check && st == UNC_E_CHECK ? LAB_FAIL : LAB_ERROR;
	if (check)
		lab_find_verdict(printed, len, c->verdict_line, sizeof(c->verdict_line));
}

void lab_case_end(struct lab_case *c, const char *printed, size_t len, uint64_t ms)
{
	/* An error after a PASS line (a stuck counter, a failed child): the
	 * error line is the message, not the PASS. */
	if (c->result == LAB_ERROR && (!c->verdict_line[0] || !strncmp(c->verdict_line, "PASS", 4))) {
		char e[sizeof(c->verdict_line)];
		if (lab_first_error(printed, len, e, sizeof(e)) || !c->verdict_line[0])
			fmt_snprintf(c->verdict_line, sizeof(c->verdict_line), "%s", e);
	}
	c->ms = ms;
	c->output = printed;
	c->output_len = len;
}

void lab_case_config(struct lab_case *c, const char *path, bool read, const char *error)
{
	memset(c, 0, sizeof(*c));
	fmt_snprintf(c->name, sizeof(c->name), "config");
	fmt_snprintf(c->id, sizeof(c->id), "config");
	c->command = path[0] ? path : "none";
	c->round = 1;
	c->result = LAB_ERROR;
	lab_case_status(c, read ? INVALID_PARAMETER : NOT_FOUND);
	fmt_snprintf(c->verdict_line, sizeof(c->verdict_line), "%s", error);
}

void lab_case_push(struct lab_case *c, const char *url, const char *line, const struct lab_case *prev, unsigned n)
{
	memset(c, 0, sizeof(*c));
	fmt_snprintf(c->name, sizeof(c->name), "push");
	lab_case_id("push", 1, prev, n, c->id, sizeof(c->id));
	c->command = url;
	c->round = 1;
	c->result = LAB_ERROR;
	lab_case_status(c, DEVICE_ERROR);
	fmt_snprintf(c->verdict_line, sizeof(c->verdict_line), "%s", line);
	c->output = c->verdict_line;
	c->output_len = strlen(c->verdict_line);
}

size_t lab_write_metrics(char *buf, size_t cap, const struct lab_run *r)
{
	struct strbuf sb;
	struct out o;

	strbuf_init(&sb, buf, cap);
	o = strbuf_out(&sb);
	out_printf(&o, "# TYPE uncore_lab_passed gauge\n# HELP uncore_lab_passed Whether every case of the lab run passed\n"
		       "uncore_lab_passed %d\n# TYPE uncore_lab_cases gauge\n# HELP uncore_lab_cases The lab run's cases\n"
		       "uncore_lab_cases{result=\"passed\"} %u\nuncore_lab_cases{result=\"failed\"} %u\n# EOF\n",
		   lab_run_passed(r) ? 1 : 0, r->passed, r->failed);
	return sb.len;
}

/* ---- the record a case stores ---- */

bool lab_record_name(bool stores, bool named, unsigned idx, char *buf, size_t size)
{
	if (!stores || named)
		return false;
	fmt_snprintf(buf, size, "Lab%03u", idx + 1);
	return true;
}

static enum unc_status w_get(void *ctx, const char *name, uint8_t *buf, size_t cap, size_t *ret_len)
{
	const struct varstore *u = ((struct lab_rec_watch *)ctx)->under;

	return u->get(u->ctx, name, buf, cap, ret_len);
}

static enum unc_status w_set(void *ctx, const char *name, const uint8_t *buf, size_t len)
{
	struct lab_rec_watch *w = ctx;
	enum unc_status st = w->under->set(w->under->ctx, name, buf, len);

	if (w->name && !strcmp(name, w->name)) /* a record's variable itself is written last */
		w->written = !st && len;
	return st;
}

static enum unc_status w_next(void *ctx, char *name, size_t size)
{
	const struct varstore *u = ((struct lab_rec_watch *)ctx)->under;

	return u->next(u->ctx, name, size);
}

static enum unc_status w_query(void *ctx, uint64_t *ret_max_var, uint64_t *ret_remaining)
{
	const struct varstore *u = ((struct lab_rec_watch *)ctx)->under;

	return u->query(u->ctx, ret_max_var, ret_remaining);
}

static const char *w_why(void *ctx)
{
	const struct varstore *u = ((struct lab_rec_watch *)ctx)->under;

	return u->why(u->ctx);
}

struct varstore lab_rec_store(struct lab_rec_watch *w, const struct varstore *under)
{
	w->under = under;
	return (struct varstore){ w_get, w_set, w_next, w_query, w, under->why ? w_why : NULL };
}

void lab_rec_watch(struct lab_rec_watch *w, const char *name)
{
	w->name = name;
	w->written = false;
}

void lab_rec_end(struct lab_rec_watch *w, struct lab_case *c)
{
	if (w->name && w->written)
		fmt_snprintf(c->record, sizeof(c->record), "%s", w->name);
	lab_rec_watch(w, NULL);
}

/* ---- the run ---- */

unsigned lab_run_cases(const struct lab_cfg *cfg, struct lab_case *cases, unsigned max, lab_run_fn run, void *ctx,
		       struct out *out, struct out *err)
{
	unsigned n = 0;

	for (unsigned round = 1; round <= cfg->repeat; round++) {
		for (unsigned i = 0; i < cfg->n; i++) {
			if (n >= max) {
				out_printf(err, "uncore: error: more than %u test cases in one run; the rest are not run\n", max);
				return n;
			}
			run(ctx, &cfg->item[i], round, n, &cases[n]);
			lab_line_result(out, &cases[n]);
			n++;
			if (cases[n - 1].push_error[0] && n < max) {
				lab_case_push(&cases[n], cfg->push, cases[n - 1].push_error, cases, n);
				cases[n].round = round;
				lab_line_result(out, &cases[n]);
				n++;
			}
		}
	}
	return n;
}

void lab_run_count(struct lab_run *r)
{
	r->passed = r->failed = 0;
	for (unsigned i = 0; i < r->ncases; i++) {
		if (r->cases[i].result == LAB_PASS)
			r->passed++;
		else
			r->failed++;
	}
}

uint64_t lab_run_status(const struct lab_run *r)
{
	if (lab_run_passed(r))
		return 0;
	for (unsigned i = 0; i < r->ncases; i++)
		if (r->cases[i].result != LAB_PASS)
			return r->cases[i].status ? r->cases[i].status : COMPROMISED_DATA;
	return NOT_FOUND; /* no test case at all */
}

uint8_t lab_run_ending(const struct lab_cfg *cfg, bool passed, bool shell)
{
	uint8_t how = passed ? cfg->on_pass : cfg->on_fail;

	return how ? how : shell ? LAB_END_EXIT : LAB_END_SHUTDOWN;
}
