/* What a lab run writes (lab.h): the UNCORE-LAB serial lines, results.json,
 * junit.xml and report.html, each rendered into memory of its size. */
#include "lab.h"

#include <string.h>

#include "../output/report_html.h"

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

void lab_line_start(struct out *o, const struct smbios_id *b, const char *config)
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

/* A JSON string, or null for NULL. */
static void json_str_or_null(struct out *o, const char *s)
{
	if (s)
		out_json_str(o, s);
	else
		out_puts(o, "null");
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

void lab_write_json(struct out *o, const struct lab_run *r)
{
	const struct smbios_id *b = r->board;
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
	json_str_or_null(o, r->error);
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
		json_str_or_null(o, c->check ? c->verdict : NULL);
		out_puts(o, ",\"verdict_line\":");
		json_str_or_null(o, c->verdict_line[0] ? c->verdict_line : NULL);
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

char *lab_render(void (*fill)(struct out *o, void *arg), void *arg, void *(*alloc)(size_t n), size_t *ret_len)
{
	struct strbuf sb;
	char one, *buf;

	strbuf_init(&sb, &one, 1); /* counts, keeps nothing */
	struct out o = strbuf_out(&sb);
	fill(&o, arg);
	size_t cap = sb.len + 1;
	if (!(buf = alloc(cap)))
		return NULL;
	strbuf_init(&sb, buf, cap);
	o = strbuf_out(&sb);
	fill(&o, arg);
	*ret_len = sb.len < cap ? sb.len : cap - 1; /* the same, unless a record changed meanwhile */
	return buf;
}

/* Every case's stored record, read back from its variable, with the
 * renderer the host decoder uses: an index with each verdict, then a
 * section per record. */
void lab_write_html(struct out *o, void *arg)
{
	struct lab_html *h = arg;
	const struct lab_run *r = h->run;
	char err[160];
	size_t len;
	bool say = h->pass++ > 0;

	h->records = 0;
	report_html_begin(o, lab_run_passed(r) ? "lab run: PASS" : "lab run: FAIL");
	lab_write_html_run(o, r);
	report_html_index_begin(o);
	for (unsigned i = 0; i < r->ncases; i++) {
		const struct lab_case *c = &r->cases[i];
		if (!c->record[0])
			continue;
		h->records++;
		if ((var_load(h->vars, c->record, h->rec, LAB_RECORD_MAX, &len, err, sizeof(err)) ||
		     report_html_index_row(o, h->rec, len, c->record, h->pws, err, sizeof(err))) && say)
			out_printf(h->err, "uncore: error: report.html: record %s: %s\n", c->record, err);
	}
	report_html_index_end(o);
	for (unsigned i = 0; i < r->ncases; i++) {
		const struct lab_case *c = &r->cases[i];
		if (c->record[0] && !var_load(h->vars, c->record, h->rec, LAB_RECORD_MAX, &len, err, sizeof(err)))
			report_html_section(o, h->rec, len, c->record, h->pws, err, sizeof(err));
	}
	report_html_end(o);
}
