/* The command line, parsed without firmware headers so the host tests can
 * drive it. efi/main.c converts the shell's UCS-2 arguments to ASCII first. */
#ifndef UNC_CLI_H
#define UNC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../drivers/evsel.h"
#include "../drivers/hw.h"
#include "../drivers/report.h"
#include "../drivers/stat.h"
#include "../drivers/varstore.h"

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

struct cli_cmd {
	enum cli_verb verb;
	bool json;
	uint32_t msr;
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

/* argv[0] is the program name. On error returns UNC_E_INVALID and writes a
 * one-line message naming the bad argument into err. */
enum unc_status cli_parse(int argc, char **argv, struct cli_cmd *ret, char *err, size_t errsize);

extern const char cli_usage[];

#endif
