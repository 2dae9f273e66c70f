#include "cli.h"

#include <string.h>

#include "../drivers/fmt.h"
#include "../drivers/parse.h"

const char cli_usage[] =
	"usage: uncore.efi COMMAND [ARGS]\n"
	"  info [-j]                    platform facts: CPU, CBo count, PMU state, MCHBAR, TSC\n"
	"  msr read ADDR                read an MSR (guarded against #GP)\n"
	"  msr write ADDR VALUE         write an MSR (guarded against #GP)\n"
	"  pci read B:D.F OFFSET        read a 32-bit PCI configuration register\n"
	"  mmio read ADDR               one 32-bit read of physical memory\n"
	"  help | version\n"
	"numbers are decimal or 0x-prefixed hex; B:D.F is hex as lspci prints it\n";

#define FAIL(...)                                         \
	do {                                              \
		fmt_snprintf(err, errsize, __VA_ARGS__); \
		return UNC_E_INVALID;                     \
	} while (0)

static enum unc_status want_args(int argc, char **argv, int first, int n, const char *what, char *err,
				 size_t errsize)
{
	if (argc - first < n)
		FAIL("'%s %s' needs %s", argv[1], argv[2], what);
	if (argc - first > n)
		FAIL("unexpected argument '%s' after '%s %s'", argv[first + n], argv[1], argv[2]);
	return UNC_OK;
}

enum unc_status cli_parse(int argc, char **argv, struct cli_cmd *cmd, char *err, size_t errsize)
{
	uint64_t v;
	enum unc_status st;

	memset(cmd, 0, sizeof(*cmd));
	if (argc > CLI_MAX_ARGS)
		FAIL("too many arguments (%d; at most %d)", argc - 1, CLI_MAX_ARGS - 1);
	for (int i = 1; i < argc; i++) {
		if (strlen(argv[i]) > CLI_MAX_ARG_LEN)
			FAIL("argument %d is too long (more than %d characters)", i, CLI_MAX_ARG_LEN);
	}
	if (argc < 2)
		FAIL("no command given (try 'uncore.efi help')");

	const char *verb = argv[1];
	if (!strcmp(verb, "help") || !strcmp(verb, "-h") || !strcmp(verb, "--help")) {
		cmd->verb = CLI_HELP;
		return UNC_OK;
	}
	if (!strcmp(verb, "version") || !strcmp(verb, "--version")) {
		cmd->verb = CLI_VERSION;
		return UNC_OK;
	}
	if (!strcmp(verb, "info")) {
		cmd->verb = CLI_INFO;
		for (int i = 2; i < argc; i++) {
			if (!strcmp(argv[i], "-j"))
				cmd->json = true;
			else
				FAIL("unknown option '%s' for 'info'", argv[i]);
		}
		return UNC_OK;
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
		if ((st = want_args(argc, argv, 3, 1, "a physical address", err, errsize)))
			return st;
		if (!parse_u64(argv[3], UINT64_MAX, &cmd->addr) || (cmd->addr & 3))
			FAIL("bad MMIO address '%s' (want a 4-byte-aligned physical address)", argv[3]);
		cmd->verb = CLI_MMIO_READ;
		return UNC_OK;
	}
	FAIL("unknown command '%s' (try 'uncore.efi help')", verb);
}
