/* Runs a parsed command against a hardware seam (app.c), and what the
 * commands share from it: the work space, the drivers of this CPU, errors
 * and storing results. No firmware headers: the host tests run it against
 * the fake register file. */
#ifndef UNC_APP_H
#define UNC_APP_H

#include "../base/cpu.h"
#include "../base/fmt.h"
#include "../base/hw.h"
#include "../base/smbios.h"
#include "../engine/info.h"
#include "../engine/pmu.h"
#include "../engine/stat.h"
#include "../output/openmetrics.h"
#include "../output/record.h"
#include "../output/recmap.h"
#include "../output/report.h"
#include "../output/varstore.h"
#include "cli.h"

struct boot_env;

#define UNC_VERSION "0.1.0"

/* One descriptor of the firmware's memory map (GetMemoryMap), in bytes. */
struct mem_range {
	uint64_t base, size;
};

/* How a measurement waits: until ticks() >= when, returning true when the
 * user asked to stop (ESC). efi/main.c polls the keyboard; tests move a
 * fake clock. */
struct app_env {
	bool (*wait_until)(void *ctx, uint64_t when);
	void *ctx;
	/* Stored results (-o): the variable store, a file writer, memory and
	 * the time of day. Any may be NULL; -o then fails with a message. */
	const struct varstore *vars;
	enum unc_status (*write_file)(void *ctx, const char *path, const void *data, size_t len, char *err,
				      size_t errsize);
	void *(*alloc)(size_t n);
	void (*free)(void *p);
	void (*get_time)(struct rec_time *ret);
	/* Measuring something (NULL: not available). */
	enum unc_status (*load_start)(int kind, bool nt, uint64_t size, uint32_t cpus, uint64_t llc_bytes,
				      uint32_t *ret_cpus, uint64_t *ret_size, char *err, size_t errsize);
	uint64_t (*load_bytes)(void);
	void (*load_stop)(void);
	/* A child (-- COMMAND). child_find, called before anything runs, checks
	 * that the command's first word names an EFI image or a .nsh script the
	 * Shell can run, and writes the command line that runs exactly that file
	 * into ret_cmdline. run_child runs a command line so found, calling
	 * tick(tctx) every period_ms meanwhile; *ret_status gets the child's
	 * EFI_STATUS (decoded from the Shell's form) and *ret_known whether the
	 * Shell gave one at all. */
	enum unc_status (*child_find)(void *ctx, const char *cmdline, char *ret_cmdline, size_t size, char *err,
				      size_t errsize);
	enum unc_status (*run_child)(void *ctx, const char *cmdline, uint64_t *ret_status, bool *ret_known,
				     unsigned period_ms, void (*tick)(void *tctx), void *tctx, char *err, size_t errsize);
	enum unc_status (*smbios)(struct smbios_mem *ret, char *err, size_t errsize);
	/* The firmware's memory map, for `mmio read` (NULL: not available): an
	 * array of *ret_n ranges that the caller gives back to free(). */
	enum unc_status (*memory_map)(struct mem_range **ret, size_t *ret_n, char *err, size_t errsize);
	/* Lab mode (NULL: none): every stored record's JSON text, as `-j`
	 * prints it and `-o PATH` writes it, with its extras (the check's
	 * verdict; NULL for info), whether or not -o asked for it. */
	void (*json_copy)(void *ctx, const char *json, size_t len, const struct run_extras *x);
	/* While a child runs with counters programmed (NULL: not available):
	 * called with the run to arm a notification that puts every register
	 * back from the run's journal should the child exit boot services (an
	 * OS loader), and with NULL to close it when the child returns. False:
	 * it could not be armed. */
	bool (*exit_guard)(void *ctx, struct stat_run *run);
	/* The machine's identity from SMBIOS, stored in every record (NULL, or
	 * an error: the record names none). */
	enum unc_status (*smbios_id)(struct smbios_id *ret, char *err, size_t errsize);
	/* Labels every OpenMetrics text of the run carries besides its own
	 * (lab mode: case="NAME"); none when om_nlabels is 0. */
	const struct om_label *om_labels;
	size_t om_nlabels;
	/* The firmware's HTTP sender (NULL: none; efi/http.c). http_ready,
	 * asked before anything is measured: whether a URL of this scheme can
	 * be sent at all (https: TLS and a CA certificate configured).
	 * http_put: one PUT of body to url (host:port its server), giving the
	 * NIC an address by DHCP first when it has none (within dhcp_ms), then
	 * at most timeout_ms for the answer; UNC_OK on a 2xx answer, else err
	 * gets one line naming the cause. *ret_code: the HTTP status (0: none). */
	enum unc_status (*http_ready)(void *ctx, bool https, char *err, size_t errsize);
	enum unc_status (*http_put)(void *ctx, const char *url, const char *ctype, const void *body, size_t len,
				    unsigned dhcp_ms, unsigned timeout_ms, unsigned *ret_code, char *err, size_t errsize);
	/* Lab mode (NULL: none): a failed push's line, which then leaves the
	 * run's status alone (the lab makes it a case of its own). */
	void (*push_failed)(void *ctx, const char *line);
	/* The boot check (bootcheck.h): the firmware's side of `boot-check`
	 * (NULL: none), and the boot number a run's record carries (0: not a
	 * boot-time check). */
	const struct boot_env *boot;
	uint32_t boot_seq;
};

#define UNC_VAR_GUID_TEXT "7c3a5e91-2b4d-4f86-9e1a-5d0c8b7f2a63"

/* out gets results, err gets one-line "uncore: error: ..." messages. */
enum unc_status app_run(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env, struct out *out,
			struct out *err);

/* Whether the command needs the calibrated time source. */
bool app_needs_clock(const struct cli_cmd *cmd);

/* The large structures, allocated when a command starts: gnu-efi's linker
 * script stores even zero-initialised data in the image, so they are not
 * static. One command at a time uses them. */
struct app_ws {
	struct stat_run run;
	struct rec rec;
	struct platform_info pi;
	struct rec_print_ws print;
};
extern struct app_ws *app_ws;

/* The drivers that match this CPU (NULL-terminated), after app_cpu_detect. */
extern const struct pmu_driver *app_present[STAT_MAX_PMUS + 1];

/* Identifies the CPU and fills app_present; returns how many drivers match. */
unsigned app_cpu_detect(const struct hw *hw, struct cpu_info *cpu);
/* The same; none is an error, printed. */
enum unc_status app_cpu_ready(const struct hw *hw, struct cpu_info *cpu, struct out *err);
/* "uncore: error: WHAT: STATUS" */
enum unc_status app_fail(struct out *err, enum unc_status st, const char *what);

/* Whether the command stores a record when asked (it takes -o: info, stat,
 * bw); lab mode gives each such run a variable of its own. */
bool app_stores_record(const struct cli_cmd *cmd);
/* Whether the run stores a record (-o, or lab mode's copy). */
bool app_wants_output(const struct cli_cmd *cmd, const struct app_env *env);
/* -o: the record of this run (with its -I period, interval_ms; 0: none)
 * into an EFI variable, its JSON form into a file, its OpenMetrics text
 * into another. */
enum unc_status app_store(const struct cli_cmd *cmd, const struct app_env *env, const char *command,
			  const struct platform_info *pi, const struct stat_run *run, uint64_t interval_ms,
			  const struct run_extras *x, const struct rec_buf *samples, enum unc_status run_status,
			  struct out *err);

#endif
