#include "cli.h"

#include <string.h>

#include "../base/parse.h"
#include "push.h"

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

static bool has_options(const struct cli_command *c)
{
	return c->opts && c->opts[0].name;
}

static int opt_index(const struct cli_command *c, const char *name)
{
	for (int k = 0; c->opts && c->opts[k].name; k++)
		if (!strcmp(c->opts[k].name, name))
			return k;
	return -1;
}

bool cli_takes(const struct cli_command *c, const char *name)
{
	return opt_index(c, name) >= 0;
}

bool cli_given(const struct cli_command *c, uint32_t seen, const char *name)
{
	int k = opt_index(c, name);

	return k >= 0 && (seen >> k & 1);
}

static void store_uint(struct cli_cmd *cmd, const struct cli_opt *o, uint64_t v)
{
	char *p = (char *)cmd + o->at;

	switch (o->size) {
	case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
	case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}

/* One option's value (or one argument) into cmd. */
static enum unc_status take(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err, size_t errsize)
{
	const struct cli_range *r = o->range;
	uint64_t v = 0;
	bool ok = false;

	switch (o->type) {
	case CLI_FLAG:
		*(bool *)((char *)cmd + o->at) = true;
		return UNC_OK;
	case CLI_FN:
		return o->fn(o, val, cmd, err, errsize);
	case CLI_UINT:
		ok = parse_u64(val, r->max, &v) && v >= r->min && (!o->align || v % o->align == 0);
		break;
	case CLI_FIXED:
		ok = parse_plain_decimal(val, r->scale, r->max, &v) && v >= r->min;
		break;
	}
	if (!ok && o->name)
		FAIL("bad %s '%s' for %s (want %s)", r->what, val, o->name, r->want);
	if (!ok)
		FAIL("bad %s '%s' (want %s)", r->what, val, r->want);
	store_uint(cmd, o, v);
	return UNC_OK;
}

/* CLI_REST: argv[i + 1] onwards, joined by spaces. */
static enum unc_status take_rest(const struct cli_opt *o, int argc, char **argv, int i, struct cli_cmd *cmd, char *err,
				 size_t errsize)
{
	char *dst = (char *)cmd + o->at;
	size_t n = 0;

	if (i + 1 >= argc)
		FAIL("'%s' needs a command after it", o->name);
	for (int k = i + 1; k < argc; k++) {
		size_t len = strlen(argv[k]);
		if (n + len + 2 > o->size)
			FAIL("%s is longer than %u characters", o->range->what, o->size - 1u);
		if (n)
			dst[n++] = ' ';
		memcpy(dst + n, argv[k], len + 1);
		n += len;
	}
	return UNC_OK;
}

/* The command `-?` runs (CMD_HELP). */
static const struct cli_command *find_help(const struct cli_command *const *table)
{
	for (unsigned k = 0; table[k]; k++)
		if (table[k]->flags & CMD_HELP)
			return table[k];
	return NULL;
}

/* c's own options, from their defaults. */
static void own_defaults(const struct cli_command *c, struct cli_cmd *cmd)
{
	if (c && c->own)
		memcpy(cmd->own, c->own, c->own_size);
}

static bool is_named(const struct cli_command *c, const char *word)
{
	return !strcmp(c->name, word) || (c->alias[0] && !strcmp(c->alias[0], word)) ||
	       (c->alias[1] && !strcmp(c->alias[1], word));
}

/* "'read' or 'write'": the operations of a command name. */
static void list_subs(const struct cli_command *const *table, const char *name, char *buf, size_t size)
{
	unsigned n = 0, total = 0, len = 0;

	for (unsigned k = 0; table[k]; k++)
		total += !strcmp(table[k]->name, name) && table[k]->sub;
	buf[0] = '\0';
	for (unsigned k = 0; table[k] && len < size; k++) {
		if (strcmp(table[k]->name, name) || !table[k]->sub)
			continue;
		n++;
		len += fmt_snprintf(buf + len, size - len, "%s'%s'", n == 1 ? "" : n == total ? " or " : ", ",
				    table[k]->sub);
	}
}

/* The command argv names; *first gets the index of its first argument. A
 * line that starts with an option is the CMD_DEFAULT command's. */
static enum unc_status find_command(const struct cli_command *const *table, int argc, char **argv,
				    const struct cli_command **ret, int *first, char *err, size_t errsize)
{
	const char *word = argv[1];
	const struct cli_command *c = NULL;
	char subs[80];

	for (unsigned k = 0; table[k] && !c; k++)
		if (is_named(table[k], word))
			c = table[k];
	if (!c) {
		for (unsigned k = 0; word[0] == '-' && table[k] && !c; k++)
			if (table[k]->flags & CMD_DEFAULT)
				c = table[k];
		if (!c)
			FAIL("unknown command '%s' (try 'uncore.efi help')", word);
		*ret = c;
		*first = 1;
		return UNC_OK;
	}
	*ret = c;
	*first = 2;
	if (!c->sub)
		return UNC_OK;
	list_subs(table, c->name, subs, sizeof(subs));
	if (argc < 3)
		FAIL("'%s' needs %s", c->name, subs);
	if (!strcmp(argv[2], "-?")) /* the usage of every operation */
		return UNC_OK;
	for (unsigned k = 0; table[k]; k++) {
		if (!strcmp(table[k]->name, c->name) && table[k]->sub && !strcmp(table[k]->sub, argv[2])) {
			*ret = table[k];
			*first = 3;
			return UNC_OK;
		}
	}
	FAIL("unknown %s operation '%s'", c->name, argv[2]);
}

/* -? among a command's words (up to a "--", after which the words are the
 * child's), as the UEFI Shell's commands take it. */
static bool wants_help(int argc, char **argv, int first)
{
	for (int i = first; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-?"))
			return true;
	return false;
}

static enum unc_status check_line(int argc, char **argv, char *err, size_t errsize)
{
	if (argc > CLI_MAX_ARGS)
		FAIL("too many arguments (%d; at most %d)", argc - 1, CLI_MAX_ARGS - 1);
	for (int i = 1; i < argc; i++) {
		if (strlen(argv[i]) > CLI_MAX_ARG_LEN)
			FAIL("argument %d is too long (more than %d characters)", i, CLI_MAX_ARG_LEN);
	}
	if (argc < 2)
		FAIL("no command given (try 'uncore.efi help')");
	return UNC_OK;
}

/* A word that is none of c's options and no room for an argument. */
static enum unc_status stray(const struct cli_command *c, const char *a, const char *words, char *err, size_t errsize)
{
	if ((a[0] == '-' && has_options(c)) || (!c->max_args && !(c->flags & CMD_NO_OPTIONS)))
		FAIL("unknown option '%s' for '%s'", a, words);
	FAIL("unexpected argument '%s' after '%s'", a, words);
}

/* CLI_NAME: a word that names a command of the table. */
static enum unc_status take_name(const struct cli_command *const *table, const struct cli_opt *o, const char *val,
				 const char *words, struct cli_cmd *cmd, char *err, size_t errsize)
{
	for (unsigned k = 0; table[k]; k++) {
		if (!strcmp(table[k]->name, val)) {
			memcpy((char *)cmd + o->at, &table[k]->name, sizeof(table[k]->name));
			return UNC_OK;
		}
	}
	FAIL("unexpected argument '%s' after '%s' (not a command; see 'uncore.efi help')", val, words);
}

/* The options and arguments of c, from argv[first]. */
static enum unc_status parse_words(const struct cli_command *const *table, const struct cli_command *c, int argc,
				   char **argv, int first, struct cli_cmd *cmd, char *err, size_t errsize)
{
	char words[2 * CLI_MAX_ARG_LEN + 2];
	const char *pos[CLI_MAX_ARGS];
	uint32_t seen = 0;
	unsigned npos = 0;
	enum unc_status st;

	fmt_snprintf(words, sizeof(words), "%s%s%s", first > 1 ? argv[1] : c->name, c->sub ? " " : "",
		     c->sub ? c->sub : "");
	for (int i = first; i < argc; i++) {
		const char *a = argv[i];
		int k = opt_index(c, a);
		if (k < 0) {
			if (npos < c->max_args && (a[0] != '-' || !has_options(c)))
				pos[npos++] = a;
			else if ((st = stray(c, a, words, err, errsize)))
				return st;
			continue;
		}
		const struct cli_opt *o = &c->opts[k];
		if (!(o->flags & CLI_REPEAT) && (seen >> k & 1))
			FAIL("%s given twice", a);
		seen |= 1u << k;
		if (o->type == CLI_REST) {
			if ((st = take_rest(o, argc, argv, i, cmd, err, errsize)))
				return st;
			break;
		}
		const char *val = NULL;
		if (o->meta) {
			if (i + 1 >= argc)
				FAIL("%s needs a value", a);
			val = argv[++i];
		}
		if ((st = take(o, val, cmd, err, errsize)))
			return st;
	}
	if (npos < c->min_args)
		FAIL("'%s' needs %s", words, c->needs);
	for (unsigned k = 0; k < npos; k++) {
		if (c->args[k].type == CLI_NAME)
			st = take_name(table, &c->args[k], pos[k], words, cmd, err, errsize);
		else
			st = take(&c->args[k], pos[k], cmd, err, errsize);
		if (st)
			return st;
	}
	return c->check ? c->check(c, seen, cmd, err, errsize) : UNC_OK;
}

enum unc_status cli_parse_table(const struct cli_command *const *table, int argc, char **argv, struct cli_cmd *cmd,
				char *err, size_t errsize)
{
	const struct cli_command *c = NULL;
	enum unc_status st;
	int first = 2;

	memset(cmd, 0, sizeof(*cmd));
	if ((st = check_line(argc, argv, err, errsize)))
		return st;
	if (strcmp(argv[1], "-?") && (st = find_command(table, argc, argv, &c, &first, err, errsize)))
		return st;
	if (!c || wants_help(argc, argv, first)) { /* uncore.efi -?, or COMMAND ... -? */
		cmd->command = find_help(table);
		own_defaults(cmd->command, cmd);
		cmd->help_for = c ? c->name : NULL;
		return UNC_OK;
	}
	cmd->command = c;
	own_defaults(c, cmd);
	return parse_words(table, c, argc, argv, first, cmd, err, errsize);
}

enum unc_status cli_parse(int argc, char **argv, struct cli_cmd *cmd, char *err, size_t errsize)
{
	return cli_parse_table(cli_commands, argc, argv, cmd, err, errsize);
}

/* ---- help ---- */

/* "msr write ADDR VALUE [OPTIONS]" */
static void synopsis(const struct cli_command *c, char *buf, size_t size)
{
	size_t n = fmt_snprintf(buf, size, "%s%s%s", c->name, c->sub ? " " : "", c->sub ? c->sub : "");

	for (unsigned k = 0; k < c->max_args && n < size; k++)
		n += fmt_snprintf(buf + n, size - n, k < c->min_args ? " %s" : " [%s]", c->args[k].meta);
	if (has_options(c) && n < size)
		fmt_snprintf(buf + n, size - n, " [OPTIONS]");
}

static void opt_line(struct out *out, const struct cli_opt *o)
{
	char left[64];

	if (!o->help)
		return;
	fmt_snprintf(left, sizeof(left), "%s%s%s", o->name ? o->name : o->meta, o->name && o->meta ? " " : "",
		     o->name && o->meta ? o->meta : "");
	if (strlen(left) > 24)
		out_printf(out, "  %s\n  %-24s %s\n", left, "", o->help);
	else
		out_printf(out, "  %-24s %s\n", left, o->help);
}

static void command_usage(struct out *out, const struct cli_command *c)
{
	char syn[160];

	synopsis(c, syn, sizeof(syn));
	out_printf(out, "usage: uncore.efi %s\n  %s\n", syn, c->help);
	if (c->alias[0])
		out_printf(out, "  also spelt %s%s%s\n", c->alias[0], c->alias[1] ? " or " : "", c->alias[1] ? c->alias[1] : "");
	for (unsigned k = 0; k < c->max_args; k++)
		opt_line(out, &c->args[k]);
	for (unsigned k = 0; has_options(c) && c->opts[k].name; k++)
		opt_line(out, &c->opts[k]);
}

void cli_help(struct out *out, const struct cli_command *const *table, const char *name)
{
	char syn[160];

	if (name) {
		for (unsigned k = 0, n = 0; table[k]; k++)
			if (!strcmp(table[k]->name, name))
				out_puts(out, n++ ? "\n" : ""), command_usage(out, table[k]);
		return;
	}
	out_printf(out, "usage: uncore.efi COMMAND [ARGS]; uncore.efi help COMMAND shows its options\n");
	for (unsigned k = 0; table[k]; k++) {
		synopsis(table[k], syn, sizeof(syn));
		if (strlen(syn) > 26)
			out_printf(out, "  %s\n  %-26s %s\n", syn, "", table[k]->help);
		else
			out_printf(out, "  %-26s %s\n", syn, table[k]->help);
	}
	out_printf(out, "numbers are decimal or 0x-prefixed hex; B:D.F is hex as lspci prints it\n");
}

/* ---- options several commands share ---- */

enum unc_status cli_opt_sep(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err, size_t errsize)
{
	struct report_opts *r = &cmd->report;

	(void)o;
	if (!*val || strlen(val) >= sizeof(r->sep))
		FAIL("bad separator '%s' for -x (want 1 to %zu characters)", val, sizeof(r->sep) - 1);
	fmt_snprintf(r->sep, sizeof(r->sep), "%s", val);
	r->format = REPORT_CSV;
	return UNC_OK;
}

/* -o var, -o var:NAME, -o PATH, -o metrics:PATH, -o URL: once each. */
enum unc_status cli_opt_output(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
			       size_t errsize)
{
	(void)o;
	if (!strcmp(val, "var") || !strncmp(val, "var:", 4)) {
		const char *name = val[3] ? val + 4 : VAR_DEFAULT_NAME;
		if (cmd->out_var)
			FAIL("-o var given twice");
		if (!var_name_ok(name))
			FAIL("bad variable name '%s' in -o (1 to 24 letters, digits, '_' or '-')", name);
		cmd->out_var = true;
		fmt_snprintf(cmd->var_name, sizeof(cmd->var_name), "%s", name);
		return UNC_OK;
	}
	if (!strncmp(val, "metrics:", 8)) {
		if (cmd->out_metrics[0] || !val[8])
			FAIL(val[8] ? "-o metrics:PATH given twice" : "-o metrics: needs a file path");
		fmt_snprintf(cmd->out_metrics, sizeof(cmd->out_metrics), "%s", val + 8);
		return UNC_OK;
	}
	if (push_scheme_end(val)) {
		struct push_url u;
		enum unc_status st = push_url_parse(val, &u, err, errsize);
		if (st)
			return st;
		if (cmd->out_push[0])
			FAIL("-o URL given twice");
		fmt_snprintf(cmd->out_push, sizeof(cmd->out_push), "%s", val);
		return UNC_OK;
	}
	if (cmd->out_file[0])
		FAIL("-o FILE given twice");
	if (!*val)
		FAIL("-o needs var, var:NAME or a file path");
	fmt_snprintf(cmd->out_file, sizeof(cmd->out_file), "%s", val);
	return UNC_OK;
}

enum unc_status cli_one_format(const struct cli_command *c, uint32_t seen, char *err, size_t errsize)
{
	if (cli_given(c, seen, "-x") && cli_given(c, seen, "-j"))
		FAIL("-x and -j cannot be used together");
	return UNC_OK;
}

enum unc_status cli_chunk_needs_var(const struct cli_command *c, uint32_t seen, const struct cli_cmd *cmd, char *err,
				    size_t errsize)
{
	if (cli_given(c, seen, "--var-chunk") && !cmd->out_var)
		FAIL("--var-chunk needs -o var");
	return UNC_OK;
}
