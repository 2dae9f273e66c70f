#include "cli.h"

#include <string.h>

#include "../drivers/fmt.h"
#include "../drivers/load.h"
#include "../drivers/parse.h"

const char cli_usage[] =
	"usage: uncore.efi COMMAND [ARGS]\n"
	"  [stat] -e EVENT[,EVENT...] [-e ...] [-d SECONDS] [-I MS] [-n COUNT] [--per-box]\n"
	"         [-x SEP | -j] [--force] [--no-multiplex]\n"
	"                               count events (names as in 'list', or PMU/event=N,umask=N/)\n"
	"  bw [-d SECONDS] [-I MS] [-n COUNT] [--per-box] [-x SEP | -j] [--force]\n"
	"                               DRAM bandwidth from the IMC counters (--force: a server's, in use)\n"
	"  bench [-n SAMPLES]           time full IMC samples (all five counters) with the TSC\n"
	"  list [--all] [-j]            this CPU's events by PMU (--all: every driver's)\n"
	"  var list | var show [NAME] [-x SEP | -j] | var delete [NAME]\n"
	"                               stored results (default NAME UncoreResults)\n"
	"stat, bw and info take -o var[:NAME] (an EFI variable), -o PATH (a JSON file), --var-chunk BYTES\n"
	"stat and bw also take --quiet (no progress line every 10 s), --load read|write|copy|triad [--nt] [--size MiB] [--cpus N|all],\n"
	"  --min-bw MBPS | --min-read-bw MBPS | --min-write-bw MBPS, and -- COMMAND [ARGS] (a child image)\n"
	"  regs                         the uncore MSRs of Table 2-1, read only\n"
	"  info [-j]                    platform facts: CPU, CBo count, PMU state, MCHBAR, TSC\n"
	"  msr read ADDR                read an MSR (guarded against #GP)\n"
	"  msr write ADDR VALUE         write an MSR (guarded against #GP)\n"
	"  pci read B:D.F OFFSET        read a 32-bit PCI configuration register\n"
	"  mmio read ADDR [--force]     one 32-bit read of physical memory (--force: outside the memory map)\n"
	"  pmc read INDEX               RDPMC of INDEX (guarded against #GP and #UD)\n"
	"  lab [CONFIG]                 lab mode: run a configuration file, results beside it (README: Lab mode)\n"
	"  help | version\n"
	"numbers are decimal or 0x-prefixed hex; B:D.F is hex as lspci prints it\n";

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Every option may be given once: a repeated one is an error, never "the
 * last one wins". -e is repeatable and -o may be given once for a variable
 * and once for a file (parse_output); the --min-* checks are one of three. */
static const char *const once_options[] = { "-d",     "-I",   "-n",	"-x",	 "-j",	      "--var-chunk",
					    "--load", "--nt", "--size", "--cpus", "--per-box", "--force",
					    "--no-multiplex", "--all", "--quiet" };

/* Records opt in *seen; fails if it was there already. */
static enum unc_status once(const char *opt, uint32_t *seen, char *err, size_t errsize)
{
	for (unsigned k = 0; k < COUNT(once_options); k++) {
		if (strcmp(opt, once_options[k]))
			continue;
		if (*seen & 1u << k)
			FAIL("%s given twice", opt);
		*seen |= 1u << k;
	}
	return UNC_OK;
}

static bool given(uint32_t seen, const char *opt)
{
	for (unsigned k = 0; k < COUNT(once_options); k++)
		if (!strcmp(opt, once_options[k]))
			return seen & 1u << k;
	return false;
}

/* The value after the option at argv[*i], which moves past it. */
static enum unc_status take_value(int argc, char **argv, int *i, const char **ret, char *err, size_t errsize)
{
	if (*i + 1 >= argc)
		FAIL("%s needs a value", argv[*i]);
	*ret = argv[++*i];
	return UNC_OK;
}

static enum unc_status parse_sep(const char *val, struct report_opts *r, char *err, size_t errsize)
{
	if (!*val || strlen(val) >= sizeof(r->sep))
		FAIL("bad separator '%s' for -x (want 1 to %zu characters)", val, sizeof(r->sep) - 1);
	fmt_snprintf(r->sep, sizeof(r->sep), "%s", val);
	r->format = REPORT_CSV;
	return UNC_OK;
}

/* -x and -j are two output forms: one of them at most. */
static enum unc_status one_format(uint32_t seen, char *err, size_t errsize)
{
	if (given(seen, "-x") && given(seen, "-j"))
		FAIL("-x and -j cannot be used together");
	return UNC_OK;
}

/* --var-chunk sizes the variables of -o var and means nothing without it. */
static enum unc_status chunk_needs_var(uint32_t seen, const struct cli_cmd *cmd, char *err, size_t errsize)
{
	if (given(seen, "--var-chunk") && !cmd->out_var)
		FAIL("--var-chunk needs -o var");
	return UNC_OK;
}

static enum unc_status want_args(int argc, char **argv, int first, int n, const char *what, char *err,
				 size_t errsize)
{
	if (argc - first < n)
		FAIL("'%s %s' needs %s", argv[1], argv[2], what);
	if (argc - first > n)
		FAIL("unexpected argument '%s' after '%s %s'", argv[first + n], argv[1], argv[2]);
	return UNC_OK;
}

/* -o var, -o var:NAME, -o PATH; and --var-chunk. Returns 1 if opt was one. */
static int parse_output(const char *opt, const char *val, struct cli_cmd *cmd, char *err, size_t errsize,
			enum unc_status *st)
{
	uint64_t v;

	*st = UNC_OK;
	if (!strcmp(opt, "--var-chunk")) {
		if (!parse_u64(val, 65536, &v) || v < 64) {
			fmt_snprintf(err, errsize, "bad size '%s' for --var-chunk (want 64 to 65536 bytes)", val);
			*st = UNC_E_INVALID;
		}
		cmd->var_chunk = (uint32_t)v;
		return 1;
	}
	if (strcmp(opt, "-o"))
		return 0;
	if (!strcmp(val, "var") || !strncmp(val, "var:", 4)) {
		const char *name = val[3] ? val + 4 : VAR_DEFAULT_NAME;
		if (cmd->out_var)
			fmt_snprintf(err, errsize, "-o var given twice"), *st = UNC_E_INVALID;
		else if (!var_name_ok(name))
			fmt_snprintf(err, errsize, "bad variable name '%s' in -o (1 to 24 letters, digits, '_' or '-')", name),
				*st = UNC_E_INVALID;
		else
			cmd->out_var = true, fmt_snprintf(cmd->var_name, sizeof(cmd->var_name), "%s", name);
		return 1;
	}
	if (cmd->out_file[0])
		fmt_snprintf(err, errsize, "-o FILE given twice"), *st = UNC_E_INVALID;
	else if (!*val)
		fmt_snprintf(err, errsize, "-o needs var, var:NAME or a file path"), *st = UNC_E_INVALID;
	else
		fmt_snprintf(cmd->out_file, sizeof(cmd->out_file), "%s", val);
	return 1;
}

struct add_ctx {
	struct cli_cmd *cmd;
	char *err;
	size_t errsize;
};

static enum unc_status add_event(void *ctx, const char *piece)
{
	struct add_ctx *a = ctx;

	if (a->cmd->nevents == STAT_MAX_EVENTS) {
		fmt_snprintf(a->err, a->errsize, "too many events (at most %d)", STAT_MAX_EVENTS);
		return UNC_E_INVALID;
	}
	/* Kept as given: names are resolved once the CPU's drivers are known. */
	fmt_snprintf(a->cmd->events[a->cmd->nevents++], EVSEL_NAME_MAX, "%s", piece);
	if (strlen(piece) >= EVSEL_NAME_MAX) {
		fmt_snprintf(a->err, a->errsize, "event '%.20s...' is too long (at most %d characters)", piece,
			     EVSEL_NAME_MAX - 1);
		return UNC_E_INVALID;
	}
	return UNC_OK;
}

static bool takes_value(const char *opt)
{
	static const char *const with_value[] = { "-e",	   "-d",	  "-I",	    "-n",	     "-x",
						  "-o",	   "--var-chunk", "--load", "--size",	     "--cpus",
						  "--min-bw", "--min-read-bw", "--min-write-bw" };

	for (unsigned k = 0; k < COUNT(with_value); k++)
		if (!strcmp(opt, with_value[k]))
			return true;
	return false;
}

/* -d/-I/-n and friends, from argv[first]; `bw` takes the output and timing
 * options only. */
static enum unc_status parse_stat(int argc, char **argv, int first, enum cli_verb verb, struct cli_cmd *cmd, char *err,
				  size_t errsize)
{
	enum unc_status st;
	uint32_t seen = 0;
	uint64_t v;

	cmd->verb = verb;
	cmd->report.format = REPORT_HUMAN;
	for (int i = first; i < argc; i++) {
		const char *opt = argv[i], *val = NULL;
		if (!strcmp(opt, "--")) { /* the rest is the child's command line */
			size_t n = 0;
			if (i + 1 >= argc)
				FAIL("'--' needs a command after it");
			for (int k = i + 1; k < argc; k++) {
				size_t len = strlen(argv[k]);
				if (n + len + 2 > sizeof(cmd->child))
					FAIL("the child's command line is longer than %zu characters", sizeof(cmd->child) - 1);
				if (n)
					cmd->child[n++] = ' ';
				memcpy(cmd->child + n, argv[k], len + 1);
				n += len;
			}
			break;
		}
		if (verb == CLI_BW && (!strcmp(opt, "-e") || !strcmp(opt, "--no-multiplex")))
			FAIL("unknown option '%s' for 'bw' (bw counts the DRAM counters; use -e for others)", opt);
		if ((st = once(opt, &seen, err, errsize)))
			return st;
		if (takes_value(opt) && (st = take_value(argc, argv, &i, &val, err, errsize)))
			return st;
		if (val && parse_output(opt, val, cmd, err, errsize, &st)) {
			if (st)
				return st;
		} else if (!strcmp(opt, "--load")) {
			if ((cmd->load_kind = load_kind_parse(val)) < 0)
				FAIL("unknown load '%s' for --load (read, write, copy or triad)", val);
		} else if (!strcmp(opt, "--size")) {
			if (!parse_u64(val, 65536, &v) || v < 1)
				FAIL("bad size '%s' for --size (want MiB, 1 to 65536)", val);
			cmd->load_size_mib = (uint32_t)v;
		} else if (!strcmp(opt, "--cpus")) {
			if (!strcmp(val, "all"))
				cmd->load_cpus = 0;
			else if (!parse_u64(val, 1024, &v) || v < 1)
				FAIL("bad count '%s' for --cpus (want 1 to 1024, or all)", val);
			else
				cmd->load_cpus = (uint32_t)v;
		} else if (!strcmp(opt, "--min-bw") || !strcmp(opt, "--min-read-bw") || !strcmp(opt, "--min-write-bw")) {
			if (cmd->check)
				FAIL("only one of --min-bw, --min-read-bw and --min-write-bw");
			if (!parse_decimal(val, 1000, 100000000000ull, &v) || v == 0)
				FAIL("bad bandwidth '%s' for %s (want MB/s above 0, e.g. 12000 or 12.5k)", val, opt);
			cmd->check_kb_s = v;
			cmd->check = !strcmp(opt, "--min-bw") ? CHECK_TOTAL : !strcmp(opt, "--min-read-bw") ? CHECK_READ
												   : CHECK_WRITE;
		} else if (!strcmp(opt, "--nt")) {
			cmd->load_nt = true;
		} else if (!strcmp(opt, "-e")) {
			struct add_ctx a = { cmd, err, errsize };
			if ((st = evsel_split(val, add_event, &a, err, errsize)))
				return st;
		} else if (!strcmp(opt, "-d")) {
			/* seconds, so no k/M/G: "-d 0.001k" is not one second */
			if (!parse_plain_decimal(val, 1000000000, 86400000000000ull, &v) || v < 1000000)
				FAIL("bad duration '%s' for -d (want seconds, 0.001 to 86400)", val);
			cmd->duration_ns = v;
		} else if (!strcmp(opt, "-I")) {
			if (!parse_u64(val, 3600000, &v) || v < 10)
				FAIL("bad interval '%s' for -I (want milliseconds, 10 to 3600000)", val);
			cmd->interval_ms = v;
		} else if (!strcmp(opt, "-n")) {
			if (!parse_u64(val, 1000000, &v) || v == 0)
				FAIL("bad count '%s' for -n (want 1 to 1000000)", val);
			cmd->max_intervals = (unsigned)v;
		} else if (!strcmp(opt, "-x")) {
			if ((st = parse_sep(val, &cmd->report, err, errsize)))
				return st;
		} else if (!strcmp(opt, "-j")) {
			cmd->json = true;
		} else if (!strcmp(opt, "--per-box")) {
			cmd->report.per_box = true;
		} else if (!strcmp(opt, "--force")) {
			cmd->force = true;
		} else if (!strcmp(opt, "--no-multiplex")) {
			cmd->no_multiplex = true;
		} else if (!strcmp(opt, "--quiet")) {
			cmd->quiet = true;
		} else {
			FAIL("unknown option '%s' for '%s'", opt, verb == CLI_BW ? "bw" : "stat");
		}
	}
	if ((st = one_format(seen, err, errsize)) || (st = chunk_needs_var(seen, cmd, err, errsize)))
		return st;
	if (cmd->json)
		cmd->report.format = REPORT_JSON;
	if (!cmd->nevents && verb == CLI_STAT)
		FAIL("no events given (-e EVENT; see 'uncore.efi list')");
	if (cmd->max_intervals && !cmd->interval_ms)
		FAIL("-n needs -I");
	static const char *const load_options[] = { "--nt", "--size", "--cpus" };
	for (unsigned k = 0; k < COUNT(load_options); k++)
		if (cmd->load_kind < 0 && given(seen, load_options[k]))
			FAIL("%s needs --load", load_options[k]);
	if (cmd->load_nt && cmd->load_kind == LOAD_READ)
		FAIL("--nt: the read load has no stores to make non-temporal (write, copy or triad have)");
	if (cmd->child[0] && cmd->load_kind >= 0)
		FAIL("--load and a child command cannot be used together");
	if (cmd->child[0] && (cmd->interval_ms || cmd->duration_ns))
		FAIL("a child command sets the measurement's length: no -d or -I with it");
	cmd->report.intervals = cmd->interval_ms != 0;
	return UNC_OK;
}

enum unc_status cli_parse(int argc, char **argv, struct cli_cmd *cmd, char *err, size_t errsize)
{
	uint64_t v;
	enum unc_status st;
	uint32_t seen = 0;
	const char *val;

	memset(cmd, 0, sizeof(*cmd));
	cmd->load_kind = -1;
	if (argc > CLI_MAX_ARGS)
		FAIL("too many arguments (%d; at most %d)", argc - 1, CLI_MAX_ARGS - 1);
	for (int i = 1; i < argc; i++) {
		if (strlen(argv[i]) > CLI_MAX_ARG_LEN)
			FAIL("argument %d is too long (more than %d characters)", i, CLI_MAX_ARG_LEN);
	}
	if (argc < 2)
		FAIL("no command given (try 'uncore.efi help')");

	const char *verb = argv[1];
	if (!strcmp(verb, "stat"))
		return parse_stat(argc, argv, 2, CLI_STAT, cmd, err, errsize);
	if (!strcmp(verb, "bw"))
		return parse_stat(argc, argv, 2, CLI_BW, cmd, err, errsize);
	if (verb[0] == '-' && strcmp(verb, "-h") && strcmp(verb, "--help") && strcmp(verb, "--version"))
		return parse_stat(argc, argv, 1, CLI_STAT, cmd, err, errsize);
	if (!strcmp(verb, "bench")) {
		cmd->verb = CLI_BENCH;
		cmd->max_intervals = 10000;
		for (int i = 2; i < argc; i++) {
			if (strcmp(argv[i], "-n"))
				FAIL("unknown option '%s' for 'bench'", argv[i]);
			if ((st = once(argv[i], &seen, err, errsize)) || (st = take_value(argc, argv, &i, &val, err, errsize)))
				return st;
			if (!parse_u64(val, 10000000, &v) || v == 0)
				FAIL("bad count '%s' for -n (want 1 to 10000000 samples)", val);
			cmd->max_intervals = (unsigned)v;
		}
		return UNC_OK;
	}
	if (!strcmp(verb, "list") || !strcmp(verb, "regs")) {
		cmd->verb = !strcmp(verb, "list") ? CLI_LIST : CLI_REGS;
		for (int i = 2; i < argc; i++) {
			if (cmd->verb != CLI_LIST || (strcmp(argv[i], "-j") && strcmp(argv[i], "--all")))
				FAIL("unknown option '%s' for '%s'", argv[i], verb);
			if ((st = once(argv[i], &seen, err, errsize)))
				return st;
			if (!strcmp(argv[i], "-j"))
				cmd->json = true;
			else
				cmd->list_all = true;
		}
		return UNC_OK;
	}
	if (!strcmp(verb, "help") || !strcmp(verb, "-h") || !strcmp(verb, "--help") || !strcmp(verb, "version") ||
	    !strcmp(verb, "--version")) {
		if (argc > 2)
			FAIL("unexpected argument '%s' after '%s'", argv[2], verb);
		cmd->verb = !strcmp(verb, "version") || !strcmp(verb, "--version") ? CLI_VERSION : CLI_HELP;
		return UNC_OK;
	}
	if (!strcmp(verb, "lab")) {
		cmd->verb = CLI_LAB;
		if (argc > 3)
			FAIL("unexpected argument '%s' after 'lab %s'", argv[3], argv[2]);
		if (argc == 3) {
			if (argv[2][0] != '\\' || strchr(argv[2], ':'))
				FAIL("bad configuration path '%s' for 'lab' (want one on uncore.efi's volume, such as "
				     "\\uncore\\uncore.cfg)", argv[2]);
			fmt_snprintf(cmd->config, sizeof(cmd->config), "%s", argv[2]);
		}
		return UNC_OK;
	}
	if (!strcmp(verb, "info")) {
		cmd->verb = CLI_INFO;
		for (int i = 2; i < argc; i++) {
			const char *opt = argv[i];
			if (strcmp(opt, "-j") && strcmp(opt, "-o") && strcmp(opt, "--var-chunk"))
				FAIL("unknown option '%s' for 'info'", opt);
			if ((st = once(opt, &seen, err, errsize)))
				return st;
			if (!strcmp(opt, "-j")) {
				cmd->json = true;
				continue;
			}
			if ((st = take_value(argc, argv, &i, &val, err, errsize)))
				return st;
			parse_output(opt, val, cmd, err, errsize, &st);
			if (st)
				return st;
		}
		return chunk_needs_var(seen, cmd, err, errsize);
	}
	if (!strcmp(verb, "var")) {
		const char *op = argc > 2 ? argv[2] : "";
		int i = 3;
		if (!strcmp(op, "list"))
			cmd->verb = CLI_VAR_LIST;
		else if (!strcmp(op, "show"))
			cmd->verb = CLI_VAR_SHOW;
		else if (!strcmp(op, "delete"))
			cmd->verb = CLI_VAR_DELETE;
		else
			FAIL("'var' needs list, show or delete%s%s%s", *op ? " (not '" : "", op, *op ? "')" : "");
		fmt_snprintf(cmd->var_name, sizeof(cmd->var_name), "%s", VAR_DEFAULT_NAME);
		if (cmd->verb != CLI_VAR_LIST && i < argc && argv[i][0] != '-') {
			if (!var_name_ok(argv[i]))
				FAIL("bad variable name '%s' (1 to 24 letters, digits, '_' or '-')", argv[i]);
			fmt_snprintf(cmd->var_name, sizeof(cmd->var_name), "%s", argv[i++]);
		}
		cmd->report.format = REPORT_HUMAN;
		for (; i < argc; i++) {
			const char *opt = argv[i];
			if (cmd->verb != CLI_VAR_SHOW || (strcmp(opt, "-j") && strcmp(opt, "-x")))
				FAIL("unexpected argument '%s' for 'var %s'", opt, op);
			if ((st = once(opt, &seen, err, errsize)))
				return st;
			if (!strcmp(opt, "-j"))
				cmd->report.format = REPORT_JSON;
			else if ((st = take_value(argc, argv, &i, &val, err, errsize)) ||
				 (st = parse_sep(val, &cmd->report, err, errsize)))
				return st;
		}
		return one_format(seen, err, errsize);
	}
	if (!strcmp(verb, "msr") || !strcmp(verb, "pci") || !strcmp(verb, "mmio")) {
		if (argc < 3)
			FAIL("'%s' needs 'read'%s", verb, strcmp(verb, "msr") ? "" : " or 'write'");
		const char *op = argv[2];
		bool is_msr = !strcmp(verb, "msr");
		if (strcmp(op, "read") && !(is_msr && !strcmp(op, "write")))
			FAIL("unknown %s operation '%s'", verb, op);

		if (is_msr && !strcmp(op, "read")) {
			if ((st = want_args(argc, argv, 3, 1, "an MSR address", err, errsize)))
				return st;
		} else if (is_msr) {
			if ((st = want_args(argc, argv, 3, 2, "an MSR address and a value", err, errsize)))
				return st;
			if (!parse_u64(argv[4], UINT64_MAX, &cmd->value))
				FAIL("bad MSR value '%s' (want a 64-bit number)", argv[4]);
		}
		if (is_msr) {
			if (!parse_u64(argv[3], UINT32_MAX, &v))
				FAIL("bad MSR address '%s' (want a 32-bit number)", argv[3]);
			cmd->msr = (uint32_t)v;
			cmd->verb = !strcmp(op, "read") ? CLI_MSR_READ : CLI_MSR_WRITE;
			return UNC_OK;
		}
		if (!strcmp(verb, "pci")) {
			if ((st = want_args(argc, argv, 3, 2, "B:D.F and an offset", err, errsize)))
				return st;
			if (!parse_pci_bdf(argv[3], &cmd->pci))
				FAIL("bad PCI address '%s' (want B:D.F in hex, e.g. 0:0.0)", argv[3]);
			if (!parse_u64(argv[4], 0xFFF, &v) || (v & 3))
				FAIL("bad PCI offset '%s' (want a multiple of 4 below 0x1000)", argv[4]);
			cmd->offset = (uint16_t)v;
			cmd->verb = CLI_PCI_READ;
			return UNC_OK;
		}
		/* mmio read [--force] ADDR, --force before or after ADDR */
		const char *addr = NULL;
		for (int i = 3; i < argc; i++) {
			if (!strcmp(argv[i], "--force")) {
				if ((st = once(argv[i], &seen, err, errsize)))
					return st;
				cmd->force = true;
			} else if (!addr) {
				addr = argv[i];
			} else {
				FAIL("unexpected argument '%s' after 'mmio read'", argv[i]);
			}
		}
		if (!addr)
			FAIL("'mmio read' needs a physical address");
		if (!parse_u64(addr, UINT64_MAX, &cmd->addr) || (cmd->addr & 3))
			FAIL("bad MMIO address '%s' (want a 4-byte-aligned physical address)", addr);
		cmd->verb = CLI_MMIO_READ;
		return UNC_OK;
	}
	if (!strcmp(verb, "pmc")) {
		if (argc < 3)
			FAIL("'pmc' needs 'read'");
		if (strcmp(argv[2], "read"))
			FAIL("unknown pmc operation '%s'", argv[2]);
		if ((st = want_args(argc, argv, 3, 1, "a counter index", err, errsize)))
			return st;
		if (!parse_u64(argv[3], UINT32_MAX, &v))
			FAIL("bad RDPMC index '%s' (want a 32-bit number)", argv[3]);
		cmd->pmc = (uint32_t)v;
		cmd->verb = CLI_PMC_READ;
		return UNC_OK;
	}
	FAIL("unknown command '%s' (try 'uncore.efi help')", verb);
}
