#include "lab.h"

#include <string.h>

#include "../base/parse.h"
#include "../output/report_html.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static const char *const end_names[] = { "", "shutdown", "reboot", "exit", "halt" };

const char *lab_end_name(uint8_t end)
{
	return end < sizeof(end_names) / sizeof(end_names[0]) ? end_names[end] : "";
}

/* The first problem wins; later ones are not kept. */
#define BAD(...)                                                                   \
	do {                                                                        \
		if (!cfg->err[0]) {                                                 \
			cfg->err_line = lineno;                                     \
			fmt_snprintf(cfg->err, sizeof(cfg->err), __VA_ARGS__);      \
		}                                                                   \
		goto next;                                                          \
	} while (0)

/* A results folder: absolute, backslashes, no characters FAT refuses, no
 * empty, "." or ".." component. */
static bool results_ok(const char *p)
{
	if (p[0] != '\\' || !p[1])
		return false;
	for (const char *c = p; *c; c++) {
		if (strchr("\"*/:<>?|", *c))
			return false;
		if (*c == '\\' && (c[1] == '\\' || !c[1] || (c[1] == '.' && (!c[2] || c[2] == '\\' || c[2] == '.'))))
			return false;
	}
	return true;
}

enum unc_status lab_parse(const char *text, size_t len, struct lab_cfg *cfg)
{
	char name[LAB_NAME_MAX] = "";
	unsigned name_line = 0, lineno = 0;
	bool repeat_seen = false, results_seen = false;
	size_t at = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->repeat = 1;
	fmt_snprintf(cfg->results, sizeof(cfg->results), "\\uncore\\results");
	if (len >= 3 && (uint8_t)text[0] == 0xef && (uint8_t)text[1] == 0xbb && (uint8_t)text[2] == 0xbf)
		at = 3; /* a UTF-8 byte order mark, as editors write */
	while (at < len) {
		char line[LAB_LINE_MAX];
		size_t n = 0, end = at;
		lineno++;
		while (end < len && text[end] != '\n')
			end++;
		size_t from = at;
		at = end + 1;
		for (size_t i = from; i < end; i++) {
			char c = text[i];
			if (c == '#')
				break;
			if (c == '\r' && i + 1 == end)
				break;
			if ((uint8_t)c < 0x20 && c != '\t')
				BAD("a control character (0x%02x)", (unsigned)(uint8_t)c);
			if ((uint8_t)c > 0x7e)
				BAD("a character that is not ASCII (0x%02x)", (unsigned)(uint8_t)c);
			if (n + 1 >= sizeof(line))
				BAD("longer than %u characters", (unsigned)sizeof(line) - 1);
			line[n++] = c == '\t' ? ' ' : c;
		}
		while (n && is_blank(line[n - 1]))
			n--;
		line[n] = '\0';
		char *s = line;
		while (is_blank(*s))
			s++;
		if (!*s)
			continue;
		char *arg = s;
		while (*arg && !is_blank(*arg))
			arg++;
		size_t wlen = (size_t)(arg - s);
		while (is_blank(*arg))
			arg++;
#define WORD(w) (wlen == sizeof(w) - 1 && !memcmp(s, w, wlen))
		if (WORD("name")) {
			if (!*arg)
				BAD("'name' needs a text");
			if (name_line)
				BAD("a second 'name' before the test case of the one on line %u", name_line);
			if (strlen(arg) >= sizeof(name))
				BAD("the name is longer than %u characters", (unsigned)sizeof(name) - 1);
			fmt_snprintf(name, sizeof(name), "%s", arg);
			name_line = lineno;
		} else if (WORD("repeat")) {
			uint64_t v;
			if (repeat_seen)
				BAD("'repeat' given twice");
			if (!parse_u64(arg, LAB_REPEAT_MAX, &v) || !v)
				BAD("bad count '%s' for 'repeat' (want 1 to %u)", arg, LAB_REPEAT_MAX);
			cfg->repeat = (unsigned)v;
			repeat_seen = true;
		} else if (WORD("on-pass") || WORD("on-fail")) {
			uint8_t *e = s[3] == 'p' ? &cfg->on_pass : &cfg->on_fail, v = LAB_END_UNSET;
			for (uint8_t k = LAB_END_SHUTDOWN; k <= LAB_END_HALT; k++)
				if (!strcmp(arg, end_names[k]))
					v = k;
			if (*e)
				BAD("'%.*s' given twice", (int)wlen, s);
			if (!v)
				BAD("bad action '%s' for '%.*s' (want shutdown, reboot, exit or halt)", arg, (int)wlen, s);
			*e = v;
		} else if (WORD("results")) {
			if (results_seen)
				BAD("'results' given twice");
			if (strlen(arg) >= sizeof(cfg->results))
				BAD("the results folder is longer than %u characters", (unsigned)sizeof(cfg->results) - 1);
			if (!results_ok(arg))
				BAD("bad results folder '%s' (want an absolute path such as \\uncore\\results)", arg);
			fmt_snprintf(cfg->results, sizeof(cfg->results), "%s", arg);
			results_seen = true;
		} else if (WORD("lab")) {
			BAD("'lab' cannot run inside lab mode");
		} else {
			bool run = WORD("run");
			if (run && !*arg)
				BAD("'run' needs the path of an EFI image");
			if (cfg->n >= LAB_MAX_ITEMS)
				BAD("more than %u test cases", LAB_MAX_ITEMS);
			struct lab_item *it = &cfg->item[cfg->n++];
			it->kind = run ? LAB_RUN : LAB_CMD;
			it->line = lineno;
			fmt_snprintf(it->text, sizeof(it->text), "%s", run ? arg : s);
			fmt_snprintf(it->name, sizeof(it->name), "%s", name_line ? name : s);
			name_line = 0;
		}
#undef WORD
next:;
	}
	/* After the loop: BAD's goto would re-enter it. */
	if (name_line && !cfg->err[0]) {
		cfg->err_line = name_line;
		fmt_snprintf(cfg->err, sizeof(cfg->err), "'name' with no test case after it");
	}
	if (!cfg->n && !cfg->err[0]) {
		cfg->err_line = 0;
		fmt_snprintf(cfg->err, sizeof(cfg->err), "no test case (an uncore.efi command line or 'run PATH')");
	}
	return cfg->err[0] ? UNC_E_INVALID : UNC_OK;
}
#undef BAD

enum unc_status lab_split(char *line, char **argv, int max, int *ret_argc, char *err, size_t errsize)
{
	char *r = line, *w = line;
	int n = 0;

	*ret_argc = 0;
	for (;;) {
		while (is_blank(*r))
			r++;
		if (!*r)
			break;
		if (n >= max)
			UNC_ERR(UNC_E_INVALID, "more than %d words", max);
		argv[n++] = w;
		bool quoted = false;
		for (; *r && (quoted || !is_blank(*r)); r++) {
			if (*r == '"')
				quoted = !quoted;
			else
				*w++ = *r;
		}
		if (quoted)
			UNC_ERR(UNC_E_INVALID, "a quote that is not closed");
		if (*r)
			r++;
		*w++ = '\0';
	}
	*ret_argc = n;
	return UNC_OK;
}

void lab_sanitize(const char *in, char *out, size_t size)
{
	size_t n = 0, len = strlen(in);

	if (!size)
		return;
	while (len && is_blank(in[len - 1]))
		len--;
	while (len && is_blank(*in))
		in++, len--;
	for (size_t i = 0; i < len && n + 1 < size; i++)
		out[n++] = is_name_char(in[i]) ? in[i] : '_';
	out[n] = '\0';
}

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

bool lab_out_name_ok(const char *name)
{
	static const char *const own[] = { "results.json", "junit.xml", "console.txt", "report.html" };
	size_t n = strlen(name);

	if (!n || n >= LAB_NAME_MAX || name[0] == '.')
		return false;
	for (const char *c = name; *c; c++)
		if (!is_name_char(*c) && *c != '.')
			return false;
	for (unsigned k = 0; k < sizeof(own) / sizeof(own[0]); k++) {
		if (strlen(own[k]) != n)
			continue;
		size_t i = 0;
		while (i < n && (name[i] | 0x20) == own[k][i])
			i++;
		if (i == n)
			return false;
	}
	return true;
}

/* ---- SMBIOS types 1 and 2 ---- */

/* String number k (from 1) of the structure at s, whose formatted part is
 * flen bytes and whose strings end before limit; "" for 0 or one beyond. */
static void smbios_str(const uint8_t *s, size_t flen, const uint8_t *limit, uint8_t k, char *out)
{
	const uint8_t *p = s + flen;

	out[0] = '\0';
	if (!k)
		return;
	for (uint8_t i = 1; p < limit && *p; i++) {
		const uint8_t *e = p;
		while (e < limit && *e)
			e++;
		if (i == k) {
			size_t n = 0;
			for (; p < e && n + 1 < LAB_STR_MAX; p++)
				out[n++] = *p >= 0x20 && *p <= 0x7e ? (char)*p : '?';
			out[n] = '\0';
			return;
		}
		p = e + 1;
	}
}

enum unc_status lab_smbios_board(const uint8_t *t, size_t len, struct lab_board *b, char *err, size_t errsize)
{
	size_t off = 0;
	bool sys = false, board = false;

	memset(b, 0, sizeof(*b));
	while (off < len) {
		if (off + 2 > len)
			UNC_ERR(UNC_E_INVALID, "SMBIOS structure at offset %zu: cut short", off);
		uint8_t type = t[off], flen = t[off + 1];
		if (flen < 4 || off + flen > len)
			UNC_ERR(UNC_E_INVALID, "SMBIOS structure at offset %zu: length %u runs past the table", off, flen);
		/* the strings end at a double NUL */
		size_t e = off + flen;
		while (e + 1 < len && (t[e] || t[e + 1]))
			e++;
		if (e + 1 >= len)
			UNC_ERR(UNC_E_INVALID, "SMBIOS structure at offset %zu: its strings run past the table", off);
		const uint8_t *s = t + off, *limit = t + e + 1;
		if (type == 1 && !sys && flen >= 8) {
			smbios_str(s, flen, limit, s[4], b->sys_vendor);
			smbios_str(s, flen, limit, s[5], b->sys_product);
			smbios_str(s, flen, limit, s[7], b->sys_serial);
			sys = true;
		} else if (type == 2 && !board && flen >= 8) {
			smbios_str(s, flen, limit, s[4], b->board_vendor);
			smbios_str(s, flen, limit, s[5], b->board_product);
			smbios_str(s, flen, limit, s[7], b->board_serial);
			board = true;
		}
		if (type == 127)
			break;
		off = e + 2;
	}
	return UNC_OK;
}

static bool has_text(const char *s)
{
	for (; *s; s++)
		if (!is_blank(*s))
			return true;
	return false;
}

const char *lab_board_name(const struct lab_board *b)
{
	return has_text(b->board_product) ? b->board_product : has_text(b->sys_product) ? b->sys_product : "unknown";
}

const char *lab_board_serial(const struct lab_board *b)
{
	return has_text(b->sys_serial) ? b->sys_serial : has_text(b->board_serial) ? b->board_serial : "";
}

/* ---- what a run writes ---- */

void lab_mb_s(uint64_t kb_s, char *buf, size_t size)
{
	fmt_fixed(buf, size, kb_s, 1000, 3);
}

/* A quoted value of a serial line: '"' and '\\' become '\''. */
static void put_quoted(struct out *o, const char *s)
{
	out_puts(o, "\"");
	for (; *s; s++) {
		char c = *s == '"' || *s == '\\' ? '\'' : *s;
		o->write(o->ctx, &c, 1);
	}
	out_puts(o, "\"");
}

static const char *const results[] = { "pass", "fail", "error" };

void lab_line_start(struct out *o, const struct lab_board *b, const char *config)
{
	out_puts(o, "UNCORE-LAB START board=");
	put_quoted(o, lab_board_name(b));
	out_puts(o, " serial=");
	put_quoted(o, lab_board_serial(b));
	out_printf(o, " config=%s\n", config[0] ? config : "none");
}

void lab_line_result(struct out *o, const struct lab_case *c)
{
	out_printf(o, "UNCORE-LAB RESULT name=%s result=%s", c->id, results[c->result]);
	if (c->check && c->measured) {
		char mb[32];
		lab_mb_s(c->kb_s, mb, sizeof(mb));
		out_printf(o, " measurement=%s units=MB/s", mb);
	}
	out_puts(o, "\n");
}

void lab_line_end(struct out *o, const struct lab_run *r)
{
	out_printf(o, "UNCORE-LAB END result=%s passed=%u failed=%u\n", lab_run_passed(r) ? "pass" : "fail",
		   r->passed, r->failed);
}

static void json_kv(struct out *o, const char *key, const char *val, bool comma)
{
	out_printf(o, "%s\"%s\":", comma ? "," : "", key);
	out_json_str(o, val);
}

static void json_text(struct out *o, const char *s, size_t len)
{
	char buf[256];

	/* out_json_str takes a C string: in pieces */
	out_puts(o, "\"");
	for (size_t i = 0; i < len;) {
		size_t n = 0;
		while (i < len && n + 1 < sizeof(buf))
			buf[n++] = s[i++] ? s[i - 1] : ' ';
		buf[n] = '\0';
		struct strbuf sb;
		char tmp[6 * sizeof(buf) + 4];
		strbuf_init(&sb, tmp, sizeof(tmp));
		struct out so = strbuf_out(&sb);
		out_json_str(&so, buf);
		o->write(o->ctx, tmp + 1, sb.len - 2); /* without its quotes */
	}
	out_puts(o, "\"");
}

static void json_board(struct out *o, const char *vendor, const char *product, const char *serial)
{
	json_kv(o, "manufacturer", vendor, false);
	json_kv(o, "product", product, true);
	json_kv(o, "serial", serial, true);
}

static bool json_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Past the blanks from at. */
static size_t json_skip(const char *s, size_t len, size_t at)
{
	while (at < len && json_blank(s[at]))
		at++;
	return at;
}

/* The end of the JSON value at s[at]: found by its brackets, outside
 * strings (a scalar ends at a blank). */
static size_t json_end(const char *s, size_t len, size_t at)
{
	int depth = 0;
	bool str = false;

	for (; at < len; at++) {
		char c = s[at];
		if (str) {
			at += c == '\\';
			str = c != '"';
		} else if (c == '"') {
			str = true;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (--depth <= 0)
				return at + 1;
		} else if (!depth && json_blank(c)) {
			break;
		}
	}
	return at < len ? at : len;
}

/* A command's -j output as one JSON value: null when empty, the value when
 * there is one, else (-I: one value per interval) an array of them. */
static void json_values(struct out *o, const char *s, size_t len)
{
	unsigned n = 0, k = 0;

	for (size_t at = json_skip(s, len, 0); at < len; at = json_skip(s, len, json_end(s, len, at)))
		n++;
	out_puts(o, !n ? "null" : n > 1 ? "[" : "");
	for (size_t at = json_skip(s, len, 0); at < len; k++) {
		size_t e = json_end(s, len, at);
		if (k)
			out_puts(o, ",");
		o->write(o->ctx, s + at, e - at);
		at = json_skip(s, len, e);
	}
	if (n > 1)
		out_puts(o, "]");
}

bool lab_run_passed(const struct lab_run *r)
{
	return !r->failed && r->passed;
}

void lab_write_json(struct out *o, const struct lab_run *r)
{
	const struct lab_board *b = r->board;
	const struct lab_cfg *cfg = r->cfg;

	out_puts(o, "{");
	json_kv(o, "tool", r->tool, false);
	json_kv(o, "started", r->started, true);
	out_puts(o, ",\"board\":{\"system\":{");
	json_board(o, b->sys_vendor, b->sys_product, b->sys_serial);
	out_puts(o, "},\"baseboard\":{");
	json_board(o, b->board_vendor, b->board_product, b->board_serial);
	out_puts(o, "}},\"config\":{");
	json_kv(o, "path", r->config_path, false);
	out_puts(o, ",\"text\":");
	if (r->config_text)
		json_text(o, r->config_text, r->config_len);
	else
		out_puts(o, "null");
	if (cfg) {
		out_printf(o, ",\"repeat\":%u", cfg->repeat);
		json_kv(o, "on_pass", lab_end_name(cfg->on_pass), true);
		json_kv(o, "on_fail", lab_end_name(cfg->on_fail), true);
		json_kv(o, "results", cfg->results, true);
	}
	out_puts(o, "},\"error\":");
	if (r->error)
		out_json_str(o, r->error);
	else
		out_puts(o, "null");
	out_puts(o, ",\"cases\":[");
	for (unsigned i = 0; i < r->ncases; i++) {
		const struct lab_case *c = &r->cases[i];
		out_puts(o, i ? ",{" : "{");
		json_kv(o, "name", c->name, false);
		json_kv(o, "id", c->id, true);
		out_printf(o, ",\"round\":%u", c->round);
		json_kv(o, "kind", c->kind == LAB_RUN ? "run" : "command", true);
		json_kv(o, "command", c->command, true);
		json_kv(o, "result", results[c->result], true);
		json_kv(o, "exit_status", c->status_name, true);
		out_printf(o, ",\"exit_code\":\"0x%lx\"", (unsigned long)c->status);
		out_puts(o, ",\"verdict\":");
		if (c->check)
			out_json_str(o, c->verdict);
		else
			out_puts(o, "null");
		out_puts(o, ",\"verdict_line\":");
		if (c->verdict_line[0])
			out_json_str(o, c->verdict_line);
		else
			out_puts(o, "null");
		out_puts(o, ",\"measured_mb_per_s\":");
		if (c->check && c->measured) {
			char mb[32];
			lab_mb_s(c->kb_s, mb, sizeof(mb));
			out_puts(o, mb);
		} else {
			out_puts(o, "null");
		}
		out_printf(o, ",\"duration_ms\":%lu,\"json\":", (unsigned long)c->ms);
		json_values(o, c->json, c->json ? c->json_len : 0);
		out_puts(o, "}");
	}
	out_printf(o, "],\"result\":\"%s\",\"passed\":%u,\"failed\":%u,\"duration_ms\":%lu}\n",
		   lab_run_passed(r) ? "pass" : "fail", r->passed, r->failed, (unsigned long)r->ms);
}

static void ms_text(uint64_t ms, char *buf, size_t size);

static void html_row(struct out *o, const char *what, const char *val)
{
	out_puts(o, "<tr><th>");
	report_html_text(o, what);
	out_puts(o, "</th><td>");
	report_html_text(o, val);
	out_puts(o, "</td></tr>\n");
}

void lab_write_html_run(struct out *o, const struct lab_run *r)
{
	bool pass = lab_run_passed(r);
	char t[32], n[48];

	out_printf(o, "<h1>Lab run</h1>\n<p class=\"verdict %s\">%s</p>\n<p class=\"why\">%u passed, %u failed</p>\n",
		   pass ? "pass" : "fail", pass ? "PASS" : "FAIL", r->passed, r->failed);
	out_puts(o, "<table class=\"run\">\n");
	html_row(o, "board", lab_board_name(r->board));
	html_row(o, "serial", lab_board_serial(r->board)[0] ? lab_board_serial(r->board) : "none");
	html_row(o, "configuration", r->config_path[0] ? r->config_path : "none");
	html_row(o, "started", r->started[0] ? r->started : "unknown");
	ms_text(r->ms, t, sizeof(t));
	fmt_snprintf(n, sizeof(n), "%s s", t);
	html_row(o, "duration", n);
	html_row(o, "tool", r->tool);
	out_puts(o, "</table>\n<h2>Cases</h2>\n<table class=\"cases\">\n<tr><th>case</th><th>command</th>"
		    "<th>result</th><th>MB/s</th><th>message</th><th>record</th></tr>\n");
	for (unsigned i = 0; i < r->ncases; i++) {
		const struct lab_case *c = &r->cases[i];
		static const char *const cls[] = { "pass", "fail", "fail" }, *const word[] = { "PASS", "FAIL", "ERROR" };
		out_printf(o, "<tr id=\"case-%s\"><td>", c->id);
		report_html_text(o, c->id);
		out_puts(o, "</td><td><code>");
		report_html_text(o, c->kind == LAB_RUN ? "run " : "");
		report_html_text(o, c->command ? c->command : "");
		out_printf(o, "</code></td><td class=\"%s\"><b>%s</b></td><td>", cls[c->result], word[c->result]);
		if (c->check && c->measured) {
			lab_mb_s(c->kb_s, n, sizeof(n));
			out_puts(o, n);
		}
		out_puts(o, "</td><td>");
		report_html_text(o, c->verdict_line[0] ? c->verdict_line : c->result == LAB_PASS ? "" : c->status_name);
		out_puts(o, "</td><td>");
		if (c->record[0]) {
			char id[48];
			report_html_id(id, sizeof(id), c->record);
			out_printf(o, "<a href=\"#%s\">", id);
			report_html_text(o, c->record);
			out_puts(o, "</a>");
		} else {
			out_puts(o, "none");
		}
		out_puts(o, "</td></tr>\n");
	}
	out_puts(o, "</table>\n");
}

/* XML text or attribute value: the five entities, and no control
 * character but tab and newline (XML 1.0 allows no other). */
static void xml_text(struct out *o, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		const char *e = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;"
			      : c == '\'' ? "&apos;" : NULL;
		if (e)
			out_puts(o, e);
		else if ((uint8_t)c >= 0x20 || c == '\n' || c == '\t')
			o->write(o->ctx, &c, 1);
	}
}

static void xml_attr(struct out *o, const char *key, const char *val)
{
	out_printf(o, " %s=\"", key);
	xml_text(o, val, strlen(val));
	out_puts(o, "\"");
}

static void xml_prop(struct out *o, const char *indent, const char *key, const char *val)
{
	out_printf(o, "%s<property", indent);
	xml_attr(o, "name", key);
	xml_attr(o, "value", val);
	out_puts(o, "/>\n");
}

static void case_prop(struct out *o, const char *id, const char *key, const char *val)
{
	char name[LAB_ID_MAX + 16];

	fmt_snprintf(name, sizeof(name), "%s.%s", id, key);
	xml_prop(o, "    ", name, val);
}

static void ms_text(uint64_t ms, char *buf, size_t size)
{
	fmt_fixed(buf, size, ms, 1000, 3);
}

void lab_write_junit(struct out *o, const struct lab_run *r)
{
	char t[32];
	unsigned failures = 0, errors = 0;

	for (unsigned i = 0; i < r->ncases; i++) {
		failures += r->cases[i].result == LAB_FAIL;
		errors += r->cases[i].result == LAB_ERROR;
	}
	ms_text(r->ms, t, sizeof(t));
	out_puts(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite");
	xml_attr(o, "name", "uncore-lab");
	out_printf(o, " tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"0\" time=\"%s\"", r->ncases, failures,
		   errors, t);
	xml_attr(o, "timestamp", r->started[0] ? r->started : "1970-01-01T00:00:00");
	xml_attr(o, "hostname", lab_board_name(r->board));
	out_puts(o, ">\n  <properties>\n");
	xml_prop(o, "    ", "tool", r->tool);
	xml_prop(o, "    ", "board", lab_board_name(r->board));
	xml_prop(o, "    ", "serial", lab_board_serial(r->board));
	xml_prop(o, "    ", "config", r->config_path[0] ? r->config_path : "none");
	/* A <testcase> has no <properties> in the JUnit schema Jenkins reads
	 * (junit-10.xsd): each case's are the suite's, named ID.KEY. */
	for (unsigned i = 0; i < r->ncases; i++) {
		const struct lab_case *c = &r->cases[i];
		case_prop(o, c->id, "command", c->command);
		case_prop(o, c->id, "exit_status", c->status_name);
		if (c->check && c->measured) {
			char mb[32];
			lab_mb_s(c->kb_s, mb, sizeof(mb));
			case_prop(o, c->id, "measurement", mb);
			case_prop(o, c->id, "units", "MB/s");
		}
	}
	out_puts(o, "  </properties>\n");
	for (unsigned i = 0; i < r->ncases; i++) {
		const struct lab_case *c = &r->cases[i];
		char mb[32] = "";
		ms_text(c->ms, t, sizeof(t));
		out_puts(o, "  <testcase");
		xml_attr(o, "name", c->id);
		xml_attr(o, "classname", "uncore.lab");
		out_printf(o, " time=\"%s\">\n", t);
		if (c->check && c->measured)
			lab_mb_s(c->kb_s, mb, sizeof(mb));
		if (c->result != LAB_PASS) {
			const char *msg = c->verdict_line[0] ? c->verdict_line : c->status_name;
			bool fail = c->result == LAB_FAIL;
			out_printf(o, "    <%s", fail ? "failure" : "error");
			xml_attr(o, "message", msg);
			xml_attr(o, "type", fail ? "check" : c->status_name);
			out_puts(o, ">");
			xml_text(o, msg, strlen(msg));
			out_printf(o, "</%s>\n", fail ? "failure" : "error");
		}
		out_puts(o, "    <system-out>");
		if (mb[0])
			out_printf(o, "measured: %s MB/s\n", mb);
		if (c->output)
			xml_text(o, c->output, c->output_len);
		out_puts(o, "</system-out>\n  </testcase>\n");
	}
	out_puts(o, "</testsuite>\n");
}

bool lab_find_verdict(const char *text, size_t len, char *buf, size_t size)
{
	static const char *const heads[] = { "PASS: ", "FAIL: ", "NO VERDICT: " };

	for (size_t at = 0; at < len;) {
		size_t e = at;
		while (e < len && text[e] != '\n')
			e++;
		for (unsigned k = 0; k < 3; k++) {
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
