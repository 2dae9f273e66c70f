/* Lab mode's configuration (lab.h): its language, the words of a line,
 * board strings made file names, the -o rule, and the board's identity from
 * SMBIOS types 1 and 2. */
#include "lab.h"

#include <string.h>

#include "../base/parse.h"

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
		} else if (WORD("push")) {
			if (cfg->push_line)
				BAD("'push' given twice");
			if (!*arg || strlen(arg) >= sizeof(cfg->push))
				BAD("'push' needs a URL of 1 to %u characters", (unsigned)sizeof(cfg->push) - 1);
			fmt_snprintf(cfg->push, sizeof(cfg->push), "%s", arg);
			cfg->push_line = lineno;
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

static bool has_text(const char *s)
{
	for (; *s; s++)
		if (!is_blank(*s))
			return true;
	return false;
}

const char *lab_board_name(const struct smbios_id *b)
{
	return has_text(b->board_product) ? b->board_product : has_text(b->sys_product) ? b->sys_product : "unknown";
}

const char *lab_board_serial(const struct smbios_id *b)
{
	return has_text(b->sys_serial) ? b->sys_serial : has_text(b->board_serial) ? b->board_serial : "";
}
