/* Runs a parsed command against a hardware seam. No firmware headers: the
 * host tests run it against the fake register file. */
#ifndef UNC_APP_H
#define UNC_APP_H

#include "../base/fmt.h"
#include "../base/hw.h"
#include "cli.h"
#include "../output/record.h"
#include "../base/smbios.h"
#include "../output/varstore.h"

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
};

#define APP_SAMPLE_BUF (1u << 20) /* bytes of interval samples kept for -o */
#define UNC_VAR_GUID_TEXT "7c3a5e91-2b4d-4f86-9e1a-5d0c8b7f2a63"

/* out gets results, err gets one-line "uncore: error: ..." messages. */
enum unc_status app_run(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env, struct out *out,
			struct out *err);

/* Internal sampling and multiplexing periods (milliseconds). A 44-bit
 * counter needs more than 1.7 * 10^14 events per second to wrap twice
 * between two samples. */
#define APP_SAMPLE_MS 100
#define APP_SLICE_MS  20
/* A stat or bw run longer than this without -I prints a progress line this often. */
#define APP_PROGRESS_S 10

/* Whether the command needs the calibrated time source. */
bool app_needs_clock(const struct cli_cmd *cmd);

#endif
