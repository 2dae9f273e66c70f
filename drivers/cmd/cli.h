/* The command line, parsed without firmware headers so the host tests can
 * drive it. efi/main.c converts the shell's UCS-2 arguments to ASCII first.
 *
 * Each command is a descriptor (struct cli_command, one per file in
 * drivers/cmd/, listed in drivers/cmd/table.c): its name, its options and its
 * arguments (struct cli_opt: a name, a type and where the value goes in
 * struct cli_cmd), a check of the whole line, its handler and one line of
 * help. cli_parse is one function over those descriptors, and `help` and
 * `COMMAND -?` print from the same descriptors. */
#ifndef UNC_CLI_H
#define UNC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../engine/evsel.h"
#include "../base/fmt.h"
#include "../base/hw.h"
#include "../output/report.h"
#include "../engine/stat.h"
#include "../output/varstore.h"

#define CLI_MAX_ARGS    64
#define CLI_MAX_ARG_LEN 255

enum cli_verb {
	CLI_HELP,
	CLI_VERSION,
	CLI_INFO,
	CLI_MSR_READ,
	CLI_MSR_WRITE,
	CLI_PCI_READ,
	CLI_MMIO_READ,
	CLI_PMC_READ,
	CLI_LIST,
	CLI_REGS,
	CLI_STAT,
	CLI_BW,
	CLI_BENCH,
	CLI_VAR_LIST,
	CLI_VAR_SHOW,
	CLI_VAR_DELETE,
	CLI_LAB,
};

struct cli_command;

struct cli_cmd {
	enum cli_verb verb;
	const struct cli_command *command; /* the descriptor that parsed it */
	const char *help_for;              /* help: one command's usage (its name), NULL: all */
	bool json;
	uint32_t msr;
	uint32_t msr_pkg; /* msr --pkg: 1 + the package whose processor makes the access; 0: this processor */
	uint32_t pmc; /* pmc read: RDPMC's index (ECX) */
	uint64_t value;
	struct pci_addr pci;
	uint16_t offset;
	uint64_t addr;
	/* stat */
	char events[STAT_MAX_EVENTS][EVSEL_NAME_MAX]; /* as given: resolved after the CPU is known */
	unsigned nevents;
	uint64_t duration_ns;   /* -d; 0 when not given */
	uint64_t interval_ms;   /* -I; 0 when not given */
	unsigned max_intervals; /* -n (bench: the number of samples) */
	bool list_all;          /* list --all */
	bool quiet;                     /* --quiet: no progress lines on a long stat or bw run */
	bool force, no_multiplex;       /* --force: stat takes over a busy PMU; mmio read reads outside the memory map */
	struct report_opts report;
	/* -o: stored results */
	bool out_var;
	char var_name[VAR_NAME_MAX + 1];  /* also var show/delete */
	char out_file[CLI_MAX_ARG_LEN + 1];
	uint32_t var_chunk;               /* --var-chunk: bytes per variable at most */
	/* measuring something */
	int load_kind;                    /* --load: enum load_kind, or -1 */
	bool load_nt;                     /* --nt */
	uint32_t load_size_mib;           /* --size; 0: the default */
	uint32_t load_cpus;               /* --cpus N; 0: all */
	uint8_t check;                    /* enum check_kind */
	uint64_t check_kb_s;              /* the required bandwidth, 10^3 bytes/s */
	char child[CLI_MAX_ARG_LEN + 1];  /* after --: the child's command line */
	char config[CLI_MAX_ARG_LEN + 1]; /* lab: the configuration file ("": chosen per board) */
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
	uint16_t at;      /* offsetof(struct cli_cmd, the field) */
	const struct cli_range *range; /* CLI_UINT, CLI_FIXED, CLI_REST */
	cli_opt_fn fn;    /* CLI_FN */
};

#define CLI_AT(field) ((uint16_t)offsetof(struct cli_cmd, field))
#define CLI_SIZE(field) ((uint16_t)sizeof(((struct cli_cmd *)0)->field))

struct app_env;

/* Command flags. */
#define CMD_CLOCK      1u /* needs the calibrated time source */
#define CMD_NO_OPTIONS 2u /* a word after it is an unexpected argument, not an unknown option */
#define CMD_DEFAULT    4u /* a line that starts with an option is this command's */

struct cli_command {
	const char *name;     /* "msr" */
	const char *sub;      /* "read": an operation of name; NULL when it has none */
	const char *alias[2]; /* other spellings of name ("-h", "--version") */
	uint8_t verb;         /* enum cli_verb */
	uint8_t flags;        /* CMD_* */
	uint8_t min_args, max_args;
	const struct cli_opt *opts; /* ended by CLI_END (no name) */
	const struct cli_opt *args; /* max_args of them */
	const char *needs;    /* too few arguments: "'msr read' needs NEEDS" */
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
#define CLI_FLAG_OPT(nm, field, text) \
	{ .name = (nm), .help = (text), .type = CLI_FLAG, .at = CLI_AT(field) }
#define CLI_UINT_OPT(nm, mt, field, wh, wa, lo, hi, text)                                                       \
	{ .name = (nm), .meta = (mt), .help = (text), .type = CLI_UINT, .size = CLI_SIZE(field), .at = CLI_AT(field), \
	  .range = CLI_RANGE(wh, wa, lo, hi, 0) }
#define CLI_FIXED_OPT(nm, mt, field, wh, wa, lo, hi, sc, text)                                                   \
	{ .name = (nm), .meta = (mt), .help = (text), .type = CLI_FIXED, .size = CLI_SIZE(field), .at = CLI_AT(field), \
	  .range = CLI_RANGE(wh, wa, lo, hi, sc) }
#define CLI_FN_OPT(nm, mt, f, text) { .name = (nm), .meta = (mt), .help = (text), .type = CLI_FN, .fn = (f) }
#define CLI_FN_REPEAT_OPT(nm, mt, f, text) \
	{ .name = (nm), .meta = (mt), .help = (text), .type = CLI_FN, .flags = CLI_REPEAT, .fn = (f) }
#define CLI_REST_OPT(nm, mt, field, wh, text)                                                                    \
	{ .name = (nm), .meta = (mt), .help = (text), .type = CLI_REST, .size = CLI_SIZE(field), .at = CLI_AT(field), \
	  .range = CLI_RANGE(wh, NULL, 0, 0, 0) }
#define CLI_UINT_ARG(mt, field, wh, wa, hi, al, text)                                                      \
	{ .meta = (mt), .help = (text), .type = CLI_UINT, .size = CLI_SIZE(field), .align = (al), .at = CLI_AT(field), \
	  .range = CLI_RANGE(wh, wa, 0, hi, 0) }
#define CLI_FN_ARG(mt, f, text) { .meta = (mt), .help = (text), .type = CLI_FN, .fn = (f) }
#define CLI_END { 0 }

#define CLI_OPT_JSON(field, text) CLI_FLAG_OPT("-j", field, text)
#define CLI_OPT_SEP CLI_FN_OPT("-x", "SEP", cli_opt_sep, "CSV with this separator")
#define CLI_OPT_OUTPUT                                      \
	CLI_FN_REPEAT_OPT("-o", "var[:NAME]|PATH", cli_opt_output, \
			  "store the results: an EFI variable (default UncoreResults) and/or a JSON file")
#define CLI_OPT_VAR_CHUNK \
	CLI_UINT_OPT("--var-chunk", "BYTES", var_chunk, "size", "64 to 65536 bytes", 64, 65536, \
		     "with -o var: bytes per variable at most")

#endif
