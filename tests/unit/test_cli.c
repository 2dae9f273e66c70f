#include <string.h>

#include "../../drivers/pmu/skl.h"
#include "../../drivers/cmd/access_options.h"
#include "../../drivers/cmd/app.h"
#include "../../drivers/cmd/cli.h"
#include "../../drivers/cmd/lab_command.h"
#include "../../drivers/cmd/stat_bw_options.h"
#include "../../drivers/engine/load.h"
#include "t.h"

static char err[256];
static struct cli_cmd cmd;
/* The parsed command's own options, as the struct its descriptor names. */
#define SO  ((const struct stat_bw_options *)CLI_OWN(&cmd))
#define ACC ((const struct access_options *)CLI_OWN(&cmd))

/* The words that name the parsed command ("msr read"). */
static const char *words(void)
{
	static char buf[64];

	fmt_snprintf(buf, sizeof(buf), "%s%s%s", cmd.command->name, cmd.command->sub ? " " : "",
		     cmd.command->sub ? cmd.command->sub : "");
	return buf;
}

/* The value option NAME of the parsed command stored, read where its
 * descriptor says (for the commands whose options struct is their own). */
static uint64_t value_of(const char *name)
{
	const struct cli_opt *o = cmd.command->opts;
	uint64_t v = 0;

	while (o->name && strcmp(o->name, name))
		o++;
	T_ASSERT(o->name != NULL);
	if (o->type == CLI_FLAG)
		return *((const bool *)((const char *)&cmd + o->at));
	memcpy(&v, (const char *)&cmd + o->at, o->size); /* little-endian */
	return v;
}

static struct ev_spec spec;
static char resolve_err[256];

/* What drivers/cmd/pipeline.c does with a kept event on a Skylake-client CPU. */
static enum unc_status resolve(const char *s, struct ev_spec *ret)
{
	static const struct pmu_driver *const present[] = { &pmu_driver_skl, NULL };

	resolve_err[0] = '\0';
	return evsel_parse(s, present, ret, resolve_err, sizeof(resolve_err));
}

static enum unc_status parse(int argc, const char **argv)
{
	err[0] = '\0';
	return cli_parse(argc, (char **)argv, &cmd, err, sizeof(err));
}

#define PARSE(...)                                                                \
	({                                                                        \
		const char *av[] = { "uncore.efi", __VA_ARGS__ };                  \
		parse((int)(sizeof(av) / sizeof(av[0])), av);                     \
	})

static void good_commands(void)
{
	T_EQ(PARSE("info"), UNC_OK);
	T_STREQ(words(), "info");
	T_ASSERT(!cmd.json);
	T_EQ(PARSE("info", "-j"), UNC_OK);
	T_ASSERT(cmd.json);
	T_EQ(PARSE("msr", "read", "0x396"), UNC_OK);
	T_STREQ(words(), "msr read");
	T_EQ(ACC->msr, 0x396);
	T_EQ(PARSE("msr", "write", "0x6E1", "0x100000000"), UNC_OK);
	T_STREQ(words(), "msr write");
	T_EQ(ACC->msr, 0x6e1);
	T_EQ(ACC->value, 0x100000000ull);
	T_EQ(PARSE("pci", "read", "0:0.0", "0x48"), UNC_OK);
	T_STREQ(words(), "pci read");
	T_EQ(ACC->offset, 0x48);
	T_EQ(PARSE("mmio", "read", "0xfed15040"), UNC_OK);
	T_STREQ(words(), "mmio read");
	T_EQ(ACC->addr, 0xfed15040ull);
	T_EQ(PARSE("pmc", "read", "0x40000001"), UNC_OK);
	T_STREQ(words(), "pmc read");
	T_EQ(ACC->pmc, 0x40000001);
	T_EQ(PARSE("help"), UNC_OK);
	T_STREQ(words(), "help");
	T_EQ(PARSE("--version"), UNC_OK);
	T_STREQ(words(), "version");
}

#define BAD(substr, ...)                               \
	do {                                           \
		T_EQ(PARSE(__VA_ARGS__), UNC_E_INVALID); \
		T_CONTAINS(err, substr);               \
		T_ASSERT(!strchr(err, '\n'));          \
	} while (0)

static void bad_commands_name_the_bad_piece(void)
{
	BAD("unknown command 'frobnicate'", "frobnicate");
	BAD("unknown option '-x' for 'info'", "info", "-x");
	BAD("bad MSR address '0x39z'", "msr", "read", "0x39z");
	BAD("bad MSR address '0x100000000'", "msr", "read", "0x100000000");
	BAD("'msr write' needs an MSR address and a value", "msr", "write", "0x396");
	BAD("'msr read' needs an MSR address", "msr", "read");
	BAD("bad MSR value 'abc'", "msr", "write", "0x10", "abc");
	BAD("unexpected argument 'extra'", "msr", "read", "0x10", "extra");
	BAD("unknown msr operation 'poke'", "msr", "poke", "0x10");
	BAD("unknown pci operation 'write'", "pci", "write", "0:0.0", "0", "0");
	BAD("bad PCI address '0:32.0'", "pci", "read", "0:32.0", "0");
	BAD("bad PCI offset '0x49'", "pci", "read", "0:0.0", "0x49");
	BAD("bad PCI offset '0x1000'", "pci", "read", "0:0.0", "0x1000");
	BAD("bad MMIO address '0x1002'", "mmio", "read", "0x1002");
	BAD("'mmio' needs 'read'", "mmio");
	BAD("'pmc' needs 'read'", "pmc");
	BAD("unknown pmc operation 'write'", "pmc", "write", "0");
	BAD("'pmc read' needs a counter index", "pmc", "read");
	BAD("bad RDPMC index '0x100000000'", "pmc", "read", "0x100000000");
	BAD("unexpected argument 'extra'", "pmc", "read", "0", "extra");
	const char *none[] = { "uncore.efi" };
	T_EQ(parse(1, none), UNC_E_INVALID);
	T_CONTAINS(err, "no command given");
}

static void overlong_and_too_many(void)
{
	char longarg[CLI_MAX_ARG_LEN + 2];

	memset(longarg, '1', sizeof(longarg) - 1);
	longarg[sizeof(longarg) - 1] = '\0';
	BAD("argument 3 is too long (more than 255 characters)", "msr", "read", longarg);
	longarg[CLI_MAX_ARG_LEN] = '\0'; /* exactly at the limit: length is fine, value is not */
	BAD("bad MSR address", "msr", "read", longarg);

	const char *many[CLI_MAX_ARGS + 1];
	for (int i = 0; i <= CLI_MAX_ARGS; i++)
		many[i] = "info";
	T_EQ(parse(CLI_MAX_ARGS + 1, many), UNC_E_INVALID);
	T_CONTAINS(err, "too many arguments");
}

static void stat_options(void)
{
	T_EQ(PARSE("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CLOCK.SOCKET", "-I", "1000"), UNC_OK);
	T_STREQ(words(), "stat");
	T_EQ(SO->nevents, 2);
	T_EQ(SO->interval_ms, 1000);
	T_EQ(SO->duration_ns, 0);
	T_ASSERT(cmd.report.intervals);
	T_EQ(PARSE("stat", "-e", "cbo/event=0x34,umask=0x8f/,UNC_CLOCK.SOCKET", "-e", "UNC_ARB_TRK_REQUESTS.ALL", "-d",
		   "2.5", "--per-box", "-x", ";", "--force", "--no-multiplex"),
	     UNC_OK);
	T_EQ(SO->nevents, 3);
	/* -e keeps each event as given (resolved later, against the CPU's drivers) */
	T_STREQ(SO->events[0], "cbo/event=0x34,umask=0x8f/");
	T_STREQ(SO->events[1], "UNC_CLOCK.SOCKET");
	T_STREQ(SO->events[2], "UNC_ARB_TRK_REQUESTS.ALL");
	T_EQ(resolve(SO->events[0], &spec), UNC_OK);
	T_EQ(spec.code, 0x34);
	T_EQ(spec.umask, 0x8f);
	T_EQ(SO->duration_ns, 2500000000ull);
	T_ASSERT(cmd.report.per_box && SO->force && SO->no_multiplex);
	T_EQ(cmd.report.format, REPORT_CSV);
	T_STREQ(cmd.report.sep, ";");
	T_EQ(PARSE("-e", "UNC_CLOCK.SOCKET", "-j", "-I", "100", "-n", "5"), UNC_OK);
	T_EQ(cmd.report.format, REPORT_JSON);
	T_EQ(SO->max_intervals, 5);
	T_EQ(PARSE("list", "-j"), UNC_OK);
	T_STREQ(words(), "list");
	T_ASSERT(cmd.json);
	T_EQ(PARSE("regs"), UNC_OK);
	T_STREQ(words(), "regs");

	BAD("no events given (-e EVENT", "stat");
	BAD("no events given", "-d", "1");
	BAD("-e needs a value", "-e");
	BAD("bad duration '0' for -d", "-e", "UNC_CLOCK.SOCKET", "-d", "0");
	BAD("bad duration '1s' for -d", "-e", "UNC_CLOCK.SOCKET", "-d", "1s");
	BAD("bad duration '99999999' for -d", "-e", "UNC_CLOCK.SOCKET", "-d", "99999999");
	BAD("bad interval '5' for -I", "-e", "UNC_CLOCK.SOCKET", "-I", "5");
	BAD("bad interval '1.5' for -I", "-e", "UNC_CLOCK.SOCKET", "-I", "1.5");
	BAD("bad count '0' for -n", "-e", "UNC_CLOCK.SOCKET", "-I", "100", "-n", "0");
	BAD("-n needs -I", "-e", "UNC_CLOCK.SOCKET", "-n", "3");
	BAD("bad progress period '0' for --progress", "bw", "-d", "25", "--progress", "0");
	BAD("bad progress period '86401' for --progress", "bw", "-d", "25", "--progress", "86401");
	BAD("--progress and --quiet contradict each other: give one", "bw", "-d", "25", "--progress", "5", "--quiet");
	BAD("--progress: -I prints every interval already (no progress lines with it)", "bw", "-I", "500", "--progress",
	    "5");
	BAD("-x and -j cannot be used together", "-e", "UNC_CLOCK.SOCKET", "-x", ",", "-j");
	BAD("bad separator '' for -x", "-e", "UNC_CLOCK.SOCKET", "-x", "");
	BAD("unknown option '--perbox' for 'stat'", "-e", "UNC_CLOCK.SOCKET", "--perbox");
	BAD("unknown option '-q' for 'list'", "list", "-q");
}

/* -e takes events as strings: an unknown name or a bad raw field is no
 * command-line error any more; the string is kept as given and refused
 * when it is resolved against the CPU's drivers (drivers/cmd/pipeline.c, after CPU
 * detection), with the message checked here on what the CLI kept. */
static void events_are_kept_as_given(void)
{
	T_EQ(PARSE("-e", "UNC_CLOCK.SOCKET,UNC_NOPE"), UNC_OK);
	T_EQ(SO->nevents, 2);
	T_STREQ(SO->events[1], "UNC_NOPE");
	T_EQ(resolve(SO->events[1], &spec), UNC_E_INVALID);
	T_STREQ(resolve_err, "unknown event 'UNC_NOPE' (see 'uncore.efi list')");
	T_EQ(PARSE("-e", "cbo/event=0x100/"), UNC_OK);
	T_EQ(SO->nevents, 1);
	T_STREQ(SO->events[0], "cbo/event=0x100/");
	T_EQ(resolve(SO->events[0], &spec), UNC_E_INVALID);
	T_STREQ(resolve_err, "bad value '0x100' for 'event' in 'cbo/event=0x100/' (at most 0xff: Table 2-7)");
	/* commas inside a raw event's slashes do not split it; spelling is kept */
	T_EQ(PARSE("-e", "unc_clock.socket,cbox/event=0x22,umask=0x41/", "-e", "DRAM_DATA_READS"), UNC_OK);
	T_EQ(SO->nevents, 3);
	T_STREQ(SO->events[0], "unc_clock.socket");
	T_STREQ(SO->events[1], "cbox/event=0x22,umask=0x41/");
	T_STREQ(SO->events[2], "DRAM_DATA_READS");
	/* what the CLI still refuses: the list's shape and the length of a name */
	BAD("empty event in list 'UNC_CLOCK.SOCKET,,UNC_ARB_TRK_REQUESTS.ALL'", "-e",
	    "UNC_CLOCK.SOCKET,,UNC_ARB_TRK_REQUESTS.ALL");
	char name[EVSEL_NAME_MAX + 1];
	memset(name, 'A', EVSEL_NAME_MAX - 1);
	name[EVSEL_NAME_MAX - 1] = '\0';
	T_EQ(PARSE("-e", name), UNC_OK); /* 63 characters: kept whole */
	T_STREQ(SO->events[0], name);
	name[EVSEL_NAME_MAX - 1] = 'A';
	name[EVSEL_NAME_MAX] = '\0';
	BAD("event 'AAAAAAAAAAAAAAAAAAAA...' is too long (at most 63 characters)", "-e", name);
	char many[STAT_MAX_EVENTS * 3 + 8] = "";
	for (unsigned i = 0; i <= STAT_MAX_EVENTS; i++)
		strcat(many, i ? ",E" : "E");
	BAD("too many events (at most 32)", "-e", many);
}

/* list shows this CPU's events; --all every driver's. */
static void list_all(void)
{
	T_EQ(PARSE("list"), UNC_OK);
	T_STREQ(words(), "list");
	T_ASSERT(!value_of("--all") && !cmd.json);
	T_EQ(PARSE("list", "--all"), UNC_OK);
	T_STREQ(words(), "list");
	T_ASSERT(value_of("--all") && !cmd.json);
	T_EQ(PARSE("list", "-j", "--all"), UNC_OK);
	T_ASSERT(value_of("--all") && cmd.json);
	BAD("--all given twice", "list", "--all", "--all");
	BAD("--all given twice", "list", "--all", "-j", "--all");
	BAD("unknown option '--all' for 'regs'", "regs", "--all");
	BAD("unknown option '--all' for 'stat'", "-e", "UNC_CLOCK.SOCKET", "--all");
}

/* A number in seconds takes no unit suffix: "-d 0.001k" is not 1 s. */
static void duration_takes_no_suffix(void)
{
	BAD("bad duration '0.001k' for -d", "-e", "UNC_CLOCK.SOCKET", "-d", "0.001k");
	BAD("bad duration '2k' for -d", "bw", "-d", "2k");
	BAD("bad duration '1M' for -d", "bw", "-d", "1M");
	T_EQ(PARSE("bw", "-d", "0.001"), UNC_OK);
	T_EQ(SO->duration_ns, 1000000);
	/* --min-bw keeps its documented suffix */
	T_EQ(PARSE("bw", "--min-bw", "12.5k"), UNC_OK);
	T_EQ(SO->check_kb_s, 12500000);
}

/* Options that only mean something with another one. */
static void options_that_need_another(void)
{
	BAD("--cpus needs --load", "bw", "--cpus", "all");
	BAD("--cpus needs --load", "bw", "--cpus", "2");
	BAD("--size needs --load", "-e", "UNC_CLOCK.SOCKET", "--size", "64");
	BAD("--nt needs --load", "bw", "--nt");
	BAD("--nt: the read load has no stores", "bw", "--load", "read", "--nt");
	BAD("--nt: the read load has no stores", "bw", "--nt", "--load", "read");
	BAD("--var-chunk needs -o var", "bw", "--var-chunk", "64");
	BAD("--var-chunk needs -o var", "bw", "-o", "fs0:\\r.json", "--var-chunk", "64");
	BAD("--var-chunk needs -o var", "info", "--var-chunk", "64");
	T_EQ(PARSE("info", "--var-chunk", "64", "-o", "var"), UNC_OK);
	T_EQ(cmd.var_chunk, 64);
	T_EQ(PARSE("bw", "--load", "write", "--nt", "--cpus", "all"), UNC_OK);
	T_ASSERT(SO->load_nt);
	T_EQ(SO->load_cpus, 0);
}

/* help and version take nothing after them. */
static void help_and_version_take_no_arguments(void)
{
	BAD("unexpected argument 'me' after 'help'", "help", "me");
	BAD("unexpected argument 'x' after '-h'", "-h", "x");
	BAD("unexpected argument '--all' after '--help'", "--help", "--all");
	BAD("unexpected argument 'now' after 'version'", "version", "now");
	BAD("unexpected argument '-j' after '--version'", "--version", "-j");
}

/* An option given twice is an error: never "the last one wins". */
static void repeated_options_are_refused(void)
{
	BAD("-d given twice", "-e", "UNC_CLOCK.SOCKET", "-d", "1", "-d", "2");
	BAD("-d given twice", "bw", "-d", "1", "-d", "1");
	BAD("-I given twice", "bw", "-I", "100", "-I", "200");
	BAD("-n given twice", "bw", "-I", "100", "-n", "1", "-n", "2");
	BAD("-x given twice", "bw", "-x", ",", "-x", ";");
	BAD("-j given twice", "bw", "-j", "-j");
	BAD("--var-chunk given twice", "bw", "-o", "var", "--var-chunk", "64", "--var-chunk", "128");
	BAD("--load given twice", "bw", "--load", "read", "--load", "copy");
	BAD("--size given twice", "bw", "--load", "read", "--size", "8", "--size", "16");
	BAD("--cpus given twice", "bw", "--load", "read", "--cpus", "1", "--cpus", "all");
	BAD("--nt given twice", "bw", "--load", "copy", "--nt", "--nt");
	BAD("--per-box given twice", "-e", "UNC_CLOCK.SOCKET", "--per-box", "--per-box");
	BAD("--force given twice", "-e", "UNC_CLOCK.SOCKET", "--force", "--force");
	BAD("--no-multiplex given twice", "-e", "UNC_CLOCK.SOCKET", "--no-multiplex", "--no-multiplex");
	BAD("-o FILE given twice", "bw", "-o", "fs0:\\a.json", "-o", "fs0:\\b.json");
	BAD("-o var given twice", "bw", "-o", "var", "-o", "var:Other");
	BAD("-j given twice", "info", "-j", "-j");
	BAD("-o var given twice", "info", "-o", "var", "-o", "var:X");
	BAD("-j given twice", "list", "-j", "-j");
	BAD("-n given twice", "bench", "-n", "5", "-n", "6");
	BAD("-x given twice", "var", "show", "-x", ",", "-x", ";");
	BAD("-j given twice", "var", "show", "-j", "-j");
	BAD("-x and -j cannot be used together", "var", "show", "-x", ",", "-j");
	BAD("-x and -j cannot be used together", "var", "show", "Name", "-j", "-x", ",");
	/* -e and one -o of each kind may be given together */
	T_EQ(PARSE("-e", "UNC_CLOCK.SOCKET", "-e", "UNC_ARB_TRK_REQUESTS.ALL", "-o", "var", "-o", "fs0:\\r.json"), UNC_OK);
	T_EQ(SO->nevents, 2);
	T_ASSERT(cmd.out_var);
	T_STREQ(cmd.out_file, "fs0:\\r.json");
}

/* An option without its value says so, whatever the command. */
static void missing_values_are_named(void)
{
	BAD("-o needs a value", "info", "-o");
	BAD("--var-chunk needs a value", "info", "-o", "var", "--var-chunk");
	BAD("-n needs a value", "bench", "-n");
	BAD("-x needs a value", "var", "show", "-x");
	BAD("-x needs a value", "var", "show", "Name", "-x");
	BAD("-o needs a value", "bw", "-o");
	BAD("-d needs a value", "-e", "UNC_CLOCK.SOCKET", "-d");
	BAD("--cpus needs a value", "bw", "--load", "read", "--cpus");
	T_EQ(PARSE("info", "-o", "var:Facts"), UNC_OK);
	T_STREQ(cmd.var_name, "Facts");
	T_EQ(PARSE("bench", "-n", "7"), UNC_OK);
	T_EQ(value_of("-n"), 7);
	T_EQ(PARSE("var", "show", "-x", ";"), UNC_OK);
	T_STREQ(cmd.report.sep, ";");
}

/* mmio read takes --force (read an address no memory map descriptor covers). */
static void mmio_force(void)
{
	T_EQ(PARSE("mmio", "read", "0xfee00030"), UNC_OK);
	T_ASSERT(!ACC->force);
	T_EQ(PARSE("mmio", "read", "0xfee00030", "--force"), UNC_OK);
	T_STREQ(words(), "mmio read");
	T_EQ(ACC->addr, 0xfee00030ull);
	T_ASSERT(ACC->force);
	T_EQ(PARSE("mmio", "read", "--force", "0xfee00030"), UNC_OK);
	T_ASSERT(ACC->force);
	T_EQ(ACC->addr, 0xfee00030ull);
	BAD("--force given twice", "mmio", "read", "--force", "0x1000", "--force");
	BAD("'mmio read' needs a physical address", "mmio", "read", "--force");
	BAD("unexpected argument '0x2000' after 'mmio read'", "mmio", "read", "0x1000", "0x2000");
	BAD("unknown option '--force' for 'msr read'", "msr", "read", "0x10", "--force");
	/* msr's own option: the package whose processor makes the access */
	T_EQ(PARSE("msr", "read", "--pkg", "1", "0x2ffe"), UNC_OK);
	T_EQ(ACC->pkg, 2);
	T_EQ(ACC->msr, 0x2ffe);
	BAD("bad package '255' for --pkg (want 0 to 254)", "msr", "read", "--pkg", "255", "0x10");
	BAD("unexpected argument '--force' after 'pci read'", "pci", "read", "0:0.0", "0", "--force");
}

/* What the firmware edge asks of a parsed line, from its descriptor: lab
 * mode's own variable for each record a line stores, its check's verdict,
 * and the lab command, which efi/main.c runs itself. */
static void descriptors_answer_the_firmware_edge(void)
{
	static const char *const stores[] = { "info", "stat", "bw" };

	for (unsigned k = 0; cli_commands[k]; k++) {
		bool want = false;
		for (unsigned i = 0; i < 3; i++)
			want |= !strcmp(cli_commands[k]->name, stores[i]);
		cmd.command = cli_commands[k];
		T_EQ(app_stores_record(&cmd), want);
	}
	T_EQ(PARSE("bw", "--min-bw", "1k"), UNC_OK);
	T_ASSERT(stat_bw_asks_check(&cmd));
	T_EQ(PARSE("-e", "UNC_CLOCK.SOCKET", "--min-write-bw", "5"), UNC_OK);
	T_ASSERT(stat_bw_asks_check(&cmd));
	T_EQ(PARSE("bw"), UNC_OK);
	T_ASSERT(!stat_bw_asks_check(&cmd));
	T_EQ(PARSE("pmc", "read", "1"), UNC_OK); /* its own options are another struct, whatever they hold */
	memset(cmd.own, 0xff, sizeof(cmd.own));
	T_ASSERT(!stat_bw_asks_check(&cmd));
	T_EQ(PARSE("lab"), UNC_OK);
	T_STREQ(lab_command_config(&cmd), "");
	T_EQ(PARSE("lab", "\\uncore\\x.cfg"), UNC_OK);
	T_STREQ(lab_command_config(&cmd), "\\uncore\\x.cfg");
	T_EQ(PARSE("info"), UNC_OK);
	T_ASSERT(lab_command_config(&cmd) == NULL);
	/* each line starts from its command's defaults: nothing left from the last */
	T_EQ(PARSE("bw", "--load", "copy", "--nt", "-I", "100"), UNC_OK);
	T_EQ(SO->load_kind, LOAD_COPY);
	T_EQ(PARSE("bw"), UNC_OK);
	T_EQ(SO->load_kind, -1);
	T_ASSERT(!SO->load_nt && !SO->interval_ms && SO->bw);
	T_EQ(PARSE("-e", "UNC_CLOCK.SOCKET"), UNC_OK);
	T_ASSERT(!SO->bw && SO->load_kind == -1);
}

/* ---- the generic parser, over a table of its own ---- */

/* The test commands' own options. */
struct t_options {
	bool force, quiet;
	uint64_t interval_ms;
	uint32_t max_intervals;
	uint64_t duration_ns;
	char config[16];
	char child[CLI_MAX_ARG_LEN + 1];
	uint64_t addr;
	uint16_t offset;
};
#define TO ((const struct t_options *)CLI_OWN(&cmd))
#define T_FIELD(f) CLI_OWN_FIELD(struct t_options, f)

static bool fn_called;

static enum unc_status fn_upper(const struct cli_opt *o, const char *val, struct cli_cmd *c, char *e, size_t esize)
{
	(void)o;
	fn_called = true;
	if (val[0] < 'A' || val[0] > 'Z')
		return fmt_snprintf(e, esize, "bad name '%s' (want a capital first)", val), UNC_E_INVALID;
	struct t_options *to = CLI_OWN(c);

	fmt_snprintf(to->config, sizeof(to->config), "%s", val);
	return UNC_OK;
}

static enum unc_status check_n_needs_i(const struct cli_command *c, uint32_t seen, struct cli_cmd *x, char *e,
				       size_t esize)
{
	(void)x;
	if (cli_given(c, seen, "-n") && !cli_given(c, seen, "-I"))
		return fmt_snprintf(e, esize, "-n needs -I"), UNC_E_INVALID;
	return UNC_OK;
}

static const struct cli_opt t_opts[] = {
	CLI_FLAG_OPT("-f", T_FIELD(force), "a flag"),
	CLI_UINT_OPT("-I", "MS", T_FIELD(interval_ms), "interval", "10 to 100", 10, 100, "a number"),
	CLI_UINT_OPT("-n", "N", T_FIELD(max_intervals), "count", "1 to 5", 1, 5, "a 32-bit field"),
	CLI_FIXED_OPT("-d", "SECONDS", T_FIELD(duration_ns), "duration", "seconds, 0.001 to 10", 1000000, 10000000000ull,
		      1000000000, "a fraction"),
	CLI_FN_OPT("-c", "NAME", fn_upper, "a function's"),
	CLI_FN_REPEAT_OPT("-o", "X", cli_opt_output, "repeatable"),
	CLI_REST_OPT("--", "COMMAND", T_FIELD(child), "the command", "the rest"),
	CLI_FLAG_OPT("--hidden", T_FIELD(quiet), NULL),
	CLI_END,
};

static const struct cli_opt t_args[] = {
	CLI_UINT_ARG("ADDR", T_FIELD(addr), "address", "a multiple of 8", UINT64_MAX, 8, "an aligned address"),
	CLI_UINT_ARG("OFF", T_FIELD(offset), "offset", "below 0x100", 0xFF, 0, "an offset"),
};

static const struct cli_command t_run = {
	.name = "run", .flags = CMD_DEFAULT, .opts = t_opts, CLI_OWN_ZERO(struct t_options), .check = check_n_needs_i,
	.help = "runs",
};
static const struct cli_command t_peek = {
	.name = "mem", .sub = "peek", CLI_OWN_ZERO(struct t_options), .min_args = 1, .max_args = 2, .args = t_args,
	.needs = "an address", .help = "peeks",
};
static const struct cli_command t_poke = {
	.name = "mem", .sub = "poke", .help = "pokes",
};
static const struct cli_command t_bare = { .name = "bare", .help = "takes nothing" };
static const struct cli_command t_help = {
	.name = "help", .alias = { "-h" }, .flags = CMD_NO_OPTIONS | CMD_HELP, .help = "helps",
};
static const struct cli_command *const t_table[] = { &t_run, &t_peek, &t_poke, &t_bare, &t_help, NULL };

static enum unc_status tparse(int argc, const char **argv)
{
	err[0] = '\0';
	fn_called = false;
	return cli_parse_table(t_table, argc, (char **)argv, &cmd, err, sizeof(err));
}

#define TPARSE(...)                                                               \
	({                                                                        \
		const char *av[] = { "t", __VA_ARGS__ };                           \
		tparse((int)(sizeof(av) / sizeof(av[0])), av);                    \
	})

#define TBAD(msg, ...)                                 \
	do {                                           \
		T_EQ(TPARSE(__VA_ARGS__), UNC_E_INVALID); \
		T_STREQ(err, msg);                     \
	} while (0)

/* Each type stores where its descriptor says, and says what is wrong
 * with its value in one line naming it. */
static void generic_types(void)
{
	T_EQ(TPARSE("run", "-f", "-I", "0x40", "-n", "5", "-d", "0.25", "-c", "Abc"), UNC_OK);
		T_ASSERT(cmd.command == &t_run);
	T_ASSERT(TO->force && !TO->quiet && fn_called);
	T_EQ(TO->interval_ms, 64);
	T_EQ(TO->max_intervals, 5);
	T_EQ(TO->duration_ns, 250000000);
	T_STREQ(TO->config, "Abc");
	T_EQ(TPARSE("run", "--hidden"), UNC_OK);
	T_ASSERT(TO->quiet && !TO->force);
	TBAD("bad interval '9' for -I (want 10 to 100)", "run", "-I", "9");
	TBAD("bad interval '101' for -I (want 10 to 100)", "run", "-I", "101");
	TBAD("bad interval '1.5' for -I (want 10 to 100)", "run", "-I", "1.5");
	TBAD("bad count '6' for -n (want 1 to 5)", "run", "-I", "10", "-n", "6");
	TBAD("bad duration '0.0001' for -d (want seconds, 0.001 to 10)", "run", "-d", "0.0001");
	TBAD("bad duration '1k' for -d (want seconds, 0.001 to 10)", "run", "-d", "1k");
	TBAD("bad name 'abc' (want a capital first)", "run", "-c", "abc");
	/* the rest of the line, as one string; options after it are its own */
	T_EQ(TPARSE("run", "--", "fs0:\\x.efi", "-f", "-?"), UNC_OK);
	T_STREQ(TO->child, "fs0:\\x.efi -f -?");
	T_ASSERT(!TO->force);
	TBAD("'--' needs a command after it", "run", "--");
	/* the command's own check sees which options were given */
	TBAD("-n needs -I", "run", "-n", "2");
}

static void generic_unknown_missing_repeated(void)
{
	TBAD("unknown option '-q' for 'run'", "run", "-q");
	TBAD("unknown option 'word' for 'run'", "run", "word");
	TBAD("unknown option '-f' for 'bare'", "bare", "-f");
	TBAD("unexpected argument 'x' after 'help'", "help", "x");
	TBAD("unexpected argument '-f' after '-h'", "-h", "-f");
	TBAD("-I needs a value", "run", "-I");
	TBAD("-f given twice", "run", "-f", "-f");
	T_EQ(TPARSE("run", "-o", "var", "-o", "fs0:\\f"), UNC_OK); /* CLI_REPEAT: the function decides */
	TBAD("-o var given twice", "run", "-o", "var", "-o", "var:B");
	TBAD("unknown command 'walk' (try 'uncore.efi help')", "walk");
	/* a line that starts with an option is the CMD_DEFAULT command's */
	T_EQ(TPARSE("-f"), UNC_OK);
	T_ASSERT(cmd.command == &t_run && TO->force);
	TBAD("unknown option '-z' for 'run'", "-z");
}

/* Arguments by position, after the operation. */
static void generic_arguments(void)
{
	T_EQ(TPARSE("mem", "peek", "0x1000"), UNC_OK);
	T_ASSERT(cmd.command == &t_peek);
	T_EQ(TO->addr, 0x1000);
	T_EQ(TPARSE("mem", "peek", "0x1000", "0x40"), UNC_OK);
	T_EQ(TO->offset, 0x40);
	TBAD("'mem peek' needs an address", "mem", "peek");
	TBAD("bad address '0x1004' (want a multiple of 8)", "mem", "peek", "0x1004");
	TBAD("bad offset '0x100' (want below 0x100)", "mem", "peek", "0", "0x100");
	TBAD("unexpected argument '3' after 'mem peek'", "mem", "peek", "1", "2", "3");
	TBAD("'mem' needs 'peek' or 'poke'", "mem");
	TBAD("unknown mem operation 'prod'", "mem", "prod");
	T_EQ(TPARSE("mem", "poke"), UNC_OK);
	T_ASSERT(cmd.command == &t_poke);
}

/* -? anywhere before a "--" asks for the command's usage, from the table. */
static void generic_question_mark(void)
{
	char text[2048];
	struct strbuf sb;

	T_EQ(TPARSE("run", "-I", "-?"), UNC_OK);
	T_ASSERT(cmd.command == &t_help);
	T_STREQ(cmd.help_for, "run");
	T_EQ(TPARSE("mem", "-?"), UNC_OK);
	T_STREQ(cmd.help_for, "mem");
	T_EQ(TPARSE("-?"), UNC_OK);
	T_ASSERT(cmd.command == &t_help);
	T_ASSERT(!cmd.help_for);
	strbuf_init(&sb, text, sizeof(text));
	struct out o = strbuf_out(&sb);
	cli_help(&o, t_table, "run");
	T_CONTAINS(text, "usage: uncore.efi run [OPTIONS]\n  runs\n");
	T_CONTAINS(text, "\n  -I MS                    a number\n");
	T_CONTAINS(text, "\n  -f                       a flag\n");
	T_NOT_CONTAINS(text, "--hidden");
	T_NOT_CONTAINS(text, "peek");
	strbuf_init(&sb, text, sizeof(text));
	cli_help(&o, t_table, "mem");
	T_CONTAINS(text, "usage: uncore.efi mem peek ADDR [OFF]\n  peeks\n  ADDR                     an aligned address\n");
	T_CONTAINS(text, "usage: uncore.efi mem poke\n  pokes\n");
	strbuf_init(&sb, text, sizeof(text));
	cli_help(&o, t_table, NULL);
	T_CONTAINS(text, "\n  mem peek ADDR [OFF]        peeks\n");
	T_CONTAINS(text, "\n  bare                       takes nothing\n");
}

/* The real table: every command is listed by help and has a usage. */
static void help_lists_every_command(void)
{
	static char text[16384];
	struct strbuf sb;

	strbuf_init(&sb, text, sizeof(text));
	struct out o = strbuf_out(&sb);
	cli_help(&o, cli_commands, NULL);
	T_ASSERT(!strncmp(text, "usage: uncore.efi COMMAND", 25));
	for (unsigned k = 0; cli_commands[k]; k++) {
		char line[64];
		fmt_snprintf(line, sizeof(line), "\n  %s%s%s", cli_commands[k]->name, cli_commands[k]->sub ? " " : "",
			     cli_commands[k]->sub ? cli_commands[k]->sub : "");
		T_CONTAINS(text, line);
		T_ASSERT(cli_commands[k]->run && cli_commands[k]->help);
	}
	T_EQ(PARSE("stat", "-e", "UNC_CLOCK.SOCKET", "-?"), UNC_OK);
	T_STREQ(words(), "help");
	T_STREQ(cmd.help_for, "stat");
	T_EQ(PARSE("-e", "UNC_CLOCK.SOCKET", "--", "fs0:\\child.efi", "-?"), UNC_OK);
	T_STREQ(words(), "stat");
	T_STREQ(SO->child, "fs0:\\child.efi -?");
	T_EQ(PARSE("msr", "read", "-?"), UNC_OK);
	T_STREQ(cmd.help_for, "msr");
	/* at the Shell's prompt (which takes -? for itself): help COMMAND */
	T_EQ(PARSE("help", "var"), UNC_OK);
	T_STREQ(words(), "help");
	T_STREQ(cmd.help_for, "var");
	T_EQ(PARSE("--help", "bw"), UNC_OK);
	T_STREQ(cmd.help_for, "bw");
	BAD("unexpected argument 'frob' after 'help' (not a command; see 'uncore.efi help')", "help", "frob");
	BAD("unexpected argument 'bw' after 'help'", "help", "stat", "bw");
	strbuf_init(&sb, text, sizeof(text));
	cli_help(&o, cli_commands, "stat");
	T_CONTAINS(text, "usage: uncore.efi stat [OPTIONS]\n");
	T_CONTAINS(text, "\n  -e EVENT[,EVENT...]  ");
}

T_MAIN("cli", T_CASE(stat_options), T_CASE(events_are_kept_as_given), T_CASE(list_all), T_CASE(good_commands), T_CASE(bad_commands_name_the_bad_piece), T_CASE(overlong_and_too_many),
       T_CASE(duration_takes_no_suffix), T_CASE(options_that_need_another),
       T_CASE(help_and_version_take_no_arguments), T_CASE(repeated_options_are_refused),
       T_CASE(missing_values_are_named), T_CASE(mmio_force), T_CASE(descriptors_answer_the_firmware_edge), T_CASE(generic_types),
       T_CASE(generic_unknown_missing_repeated), T_CASE(generic_arguments), T_CASE(generic_question_mark),
       T_CASE(help_lists_every_command))
