/* The command line, parsed without firmware headers so the host tests can
 * drive it. efi/main.c converts the shell's UCS-2 arguments to ASCII first.
 *
 * Each command is a descriptor (struct cli_command, one per file in
 * drivers/cmd/, listed in drivers/cmd/table.c): its name, its options and its
 * arguments (struct cli_opt: a name, a type and where the value goes: a
 * field of the command's own options, or of struct cli_cmd for what several
 * commands share), a check of the whole line, its handler and one line of
 * help. cli_parse is one function over those descriptors, and `help` and
 * `COMMAND -?` print from the same descriptors. */
#ifndef UNC_CLI_H
#define UNC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../base/fmt.h"
#include "../base/hw.h"
#include "../output/report.h"
#include "../output/varstore.h"

#define CLI_MAX_ARGS    64
#define CLI_MAX_ARG_LEN 255

/* Bytes for a command's own options. The largest, stat's and bw's (the
 * events as given and a child's command line), take about 2.4 KB; a
 * command whose options do not fit fails to build (CLI_OWN_FITS). */
#define CLI_OWN_MAX 2560

struct cli_command;

/* A parsed command line: the descriptor that parsed it, what the parser
 * and several commands share, and the command's own options. */
struct cli_cmd {
	const struct cli_command *command; /* the descriptor that parsed it */
	const char *help_for;              /* help COMMAND, COMMAND -?: the command asked about; NULL: all */
	bool json;                         /* -j */
	struct report_opts report;         /* -x (and stat's and bw's --per-box): how results print */
	/* -o: stored results */
	bool out_var;
	char var_name[VAR_NAME_MAX + 1];   /* also var show/delete */
	char out_file[CLI_MAX_ARG_LEN + 1];
	char out_metrics[CLI_MAX_ARG_LEN + 1]; /* -o metrics:PATH: OpenMetrics text */
	char out_push[CLI_MAX_ARG_LEN + 1];    /* -o http[s]://...: pushed (push.h) */
	uint32_t var_chunk;                /* --var-chunk: bytes per variable at most */
	/* The command's own options: the struct its descriptor's .own gives the
	 * defaults of (struct stat_bw_options, struct access_options, ...). */
	/* 8, not 16: a struct cli_cmd lives in memory from the firmware's pool
	 * (lab mode's context, the work space), which UEFI aligns to 8 bytes
	 * only; with 16 the compiler may use aligned 16-byte moves there (#GP). */
	_Alignas(8) unsigned char own[CLI_OWN_MAX];
};

/* ---- descriptors ---- */

/* How an option's value (or an argument) is read, and where it goes. */
enum cli_type {
	CLI_FLAG,  /* no value: the bool at .at becomes true */
	CLI_UINT,  /* parse_u64 (decimal or 0x hex), .min to .max, a multiple of .align if set */
	CLI_FIXED, /* parse_plain_decimal: a decimal fraction times .scale, .min to .max */
	CLI_FN,    /* .fn reads it (the value, or NULL when .meta is NULL) */
	CLI_REST,  /* every word after it, joined by spaces, into the char array at .at */
	CLI_NAME,  /* an argument naming a command of the table: its name (const char *) at .at */
};

#define CLI_REPEAT 1u /* may be given more than once (.fn decides what that means) */

struct cli_opt;
typedef enum unc_status (*cli_opt_fn)(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
				      size_t errsize);

/* A number's bounds, and the words of its error: "bad WHAT 'VAL' for NAME
 * (want WANT)" (an argument's: "bad WHAT 'VAL' (want WANT)"). CLI_REST
 * names what it keeps in .what ("the child's command line is longer..."). */
struct cli_range {
	const char *what, *want;
	uint64_t min, max, scale;
};

/* One option ("-d") or one argument (name NULL, placed by its position). */
struct cli_opt {
	const char *name; /* "-d", "--load"; NULL for an argument */
	const char *meta; /* the value's placeholder ("SECONDS"); NULL: the option takes none */
	const char *help; /* one line for `help COMMAND`; NULL: not shown */
	uint8_t type;     /* enum cli_type */
	uint8_t flags;    /* CLI_REPEAT */
	uint8_t align;    /* CLI_UINT: the value is a multiple of it (0: any) */
	uint16_t size;    /* bytes of the field at .at (CLI_UINT, CLI_FIXED, CLI_REST) */
	uint16_t at;      /* where the field is in struct cli_cmd (CLI_FIELD, CLI_OWN_FIELD) */
	const struct cli_range *range; /* CLI_UINT, CLI_FIXED, CLI_REST */
	cli_opt_fn fn;    /* CLI_FN */
};

/* 0, and a build error if struct T does not fit in CLI_OWN_MAX or needs
 * more than the area's 8-byte alignment. */
#define CLI_OWN_FITS(T)                                                                               \
	(0 * sizeof(struct {                                                                          \
		_Static_assert(sizeof(T) <= CLI_OWN_MAX, "a command's own options exceed CLI_OWN_MAX"); \
		_Static_assert(_Alignof(T) <= 8, "a command's own options need more than 8-byte alignment"); \
		char c;                                                                               \
	}))
/* Where an option's value goes: a field of struct cli_cmd (what several
 * commands share), or field f of the command's own options, struct T. */
#define CLI_FIELD(f) .at = (uint16_t)offsetof(struct cli_cmd, f), .size = (uint16_t)sizeof(((struct cli_cmd *)0)->f)
#define CLI_OWN_FIELD(T, f)                                                          \
	.at = (uint16_t)(offsetof(struct cli_cmd, own) + offsetof(T, f) + CLI_OWN_FITS(T)), \
	.size = (uint16_t)sizeof(((T *)0)->f)
/* A descriptor's own options: struct T, all zero (CLI_OWN_ZERO) or from
 * defaults, a const T (CLI_OWN_FROM). */
#define CLI_OWN_ZERO(T) .own_size = (uint16_t)(sizeof(T) + CLI_OWN_FITS(T))
#define CLI_OWN_FROM(T, defaults) .own = (defaults), CLI_OWN_ZERO(T)
/* A command's own options, as the struct they are (the descriptor's .own). */
#define CLI_OWN(cmd) ((void *)(cmd)->own)

struct app_env;

/* Command flags. */
#define CMD_CLOCK      1u /* needs the calibrated time source */
#define CMD_NO_OPTIONS 2u /* a word after it is an unexpected argument, not an unknown option */
#define CMD_DEFAULT    4u /* a line that starts with an option is this command's */
#define CMD_HELP       8u /* `COMMAND -?` and `-?` run it, help_for the command asked about */

struct cli_command {
	const char *name;     /* "msr" */
	const char *sub;      /* "read": an operation of name; NULL when it has none */
	const char *alias[2]; /* other spellings of name ("-h", "--version") */
	uint8_t flags;        /* CMD_* */
	uint8_t min_args, max_args;
	const struct cli_opt *opts; /* ended by CLI_END (no name) */
	const struct cli_opt *args; /* max_args of them */
	const char *needs;    /* too few arguments: "'msr read' needs NEEDS" */
	/* The command's own options (struct cli_cmd's own): their defaults,
	 * copied there before the words are read (NULL: all zero), and their
	 * size (CLI_OWN_ZERO, CLI_OWN_FROM). Commands that share a struct share
	 * its defaults, which say which struct the options are. */
	const void *own;
	uint16_t own_size;
	/* After the last word: what one option or argument cannot see alone
	 * (seen has bit k for opts[k] given). */
	enum unc_status (*check)(const struct cli_command *c, uint32_t seen, struct cli_cmd *cmd, char *err,
				 size_t errsize);
	enum unc_status (*run)(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env, struct out *out,
			       struct out *err);
	const char *help;     /* one line */
};

/* Every command, in the order `help` lists them (drivers/cmd/table.c). */
extern const struct cli_command *const cli_commands[];

/* argv[0] is the program name. On error returns UNC_E_INVALID and writes a
 * one-line message naming the bad argument into err. */
enum unc_status cli_parse(int argc, char **argv, struct cli_cmd *ret, char *err, size_t errsize);
/* The same over another table (NULL-terminated). */
enum unc_status cli_parse_table(const struct cli_command *const *table, int argc, char **argv, struct cli_cmd *ret,
				char *err, size_t errsize);

/* `help` (name NULL): every command on a line; `COMMAND -?`: that command's
 * usage, options and arguments. */
void cli_help(struct out *out, const struct cli_command *const *table, const char *name);

/* Whether seen has the bit of c's option name. */
bool cli_given(const struct cli_command *c, uint32_t seen, const char *name);
/* Whether c has the option name. */
bool cli_takes(const struct cli_command *c, const char *name);

/* Options several commands share. */
enum unc_status cli_opt_output(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
			       size_t errsize);
enum unc_status cli_opt_sep(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err, size_t errsize);
/* -x and -j are two output forms: one of them at most. */
enum unc_status cli_one_format(const struct cli_command *c, uint32_t seen, char *err, size_t errsize);
/* --var-chunk sizes the variables of -o var and means nothing without it. */
enum unc_status cli_chunk_needs_var(const struct cli_command *c, uint32_t seen, const struct cli_cmd *cmd, char *err,
				    size_t errsize);

/* Descriptors, by type. An argument (by position) has no name: its
 * placeholder is its meta. */
#define CLI_RANGE(wh, wa, lo, hi, sc) (&(const struct cli_range){ (wh), (wa), (lo), (hi), (sc) })
/* WHERE is CLI_FIELD(f) or CLI_OWN_FIELD(T, f). */
#define CLI_FLAG_OPT(nm, where, text) { .name = (nm), .help = (text), .type = CLI_FLAG, where }
#define CLI_UINT_OPT(nm, mt, where, wh, wa, lo, hi, text) \
	{ .name = (nm), .meta = (mt), .help = (text), .type = CLI_UINT, where, .range = CLI_RANGE(wh, wa, lo, hi, 0) }
#define CLI_FIXED_OPT(nm, mt, where, wh, wa, lo, hi, sc, text) \
	{ .name = (nm), .meta = (mt), .help = (text), .type = CLI_FIXED, where, .range = CLI_RANGE(wh, wa, lo, hi, sc) }
#define CLI_FN_OPT(nm, mt, f, text) { .name = (nm), .meta = (mt), .help = (text), .type = CLI_FN, .fn = (f) }
#define CLI_FN_REPEAT_OPT(nm, mt, f, text) \
	{ .name = (nm), .meta = (mt), .help = (text), .type = CLI_FN, .flags = CLI_REPEAT, .fn = (f) }
#define CLI_REST_OPT(nm, mt, where, wh, text) \
	{ .name = (nm), .meta = (mt), .help = (text), .type = CLI_REST, where, .range = CLI_RANGE(wh, NULL, 0, 0, 0) }
#define CLI_UINT_ARG(mt, where, wh, wa, hi, al, text) \
	{ .meta = (mt), .help = (text), .type = CLI_UINT, where, .align = (al), .range = CLI_RANGE(wh, wa, 0, hi, 0) }
#define CLI_FN_ARG(mt, f, text) { .meta = (mt), .help = (text), .type = CLI_FN, .fn = (f) }
#define CLI_END { 0 }

#define CLI_OPT_JSON(text) CLI_FLAG_OPT("-j", CLI_FIELD(json), text)
#define CLI_OPT_SEP CLI_FN_OPT("-x", "SEP", cli_opt_sep, "CSV with this separator")
#define CLI_OPT_OUTPUT                                      \
	CLI_FN_REPEAT_OPT("-o", "var[:NAME]|PATH|metrics:PATH|http://HOST[:PORT]/metrics/job/JOB", cli_opt_output, \
			  "store the results: an EFI variable (default UncoreResults), a JSON file, OpenMetrics text, a push")
#define CLI_OPT_VAR_CHUNK \
	CLI_UINT_OPT("--var-chunk", "BYTES", CLI_FIELD(var_chunk), "size", "64 to 65536 bytes", 64, 65536, \
		     "with -o var: bytes per variable at most")

#endif
