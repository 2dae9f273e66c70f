/* The firmware side of "measure something": the built-in load on the BSP
 * and the APs, a child image run through the UEFI Shell with the counters
 * sampled by a timer meanwhile, and the SMBIOS memory peak. */
#ifndef UNC_MEASURE_H
#define UNC_MEASURE_H

#include <efi.h>
#include "../drivers/base/fmt.h"
#include "../drivers/engine/load.h"
#include "../drivers/base/smbios.h"

struct load_cfg {
	enum load_kind kind;
	bool nt;
	uint64_t size;  /* bytes, all arrays; 0: at least 4x the LLC, at least 64 MiB */
	uint32_t cpus;  /* 0: all */
	uint64_t llc;   /* the largest cache, bytes (cpu_llc_bytes, through the seam); 0: unknown */
};

/* Allocates and fills the arrays, starts the APs. *ret_cpus and *ret_size
 * say what was used. */
enum unc_status efi_load_start(const struct load_cfg *cfg, uint32_t *ret_cpus, uint64_t *ret_size, char *err,
			       size_t errsize);
/* One BSP chunk (about 1 MiB per array); called while waiting. False:
 * there is no load running (nothing was done). */
bool efi_load_chunk(void);
/* Bytes moved so far by every processor, STREAM's way. */
uint64_t efi_load_bytes(void);
/* Stops the APs, waits for them, frees the arrays. */
void efi_load_stop(void);

/* A child (-- COMMAND), before anything runs: the command's first word must
 * name, as the Shell finds it, a .nsh script or an EFI image that loads.
 * ret_cmdline gets the line that runs exactly that file (its full path). */
enum unc_status efi_child_find(EFI_HANDLE image, const char *cmdline, char *ret_cmdline, size_t size, char *err,
			       size_t errsize);

/* Runs a command line from efi_child_find through the Shell; *ret_status
 * gets the child's EFI_STATUS, decoded from the Shell's form, and *ret_known
 * whether the Shell gave one. While it runs, tick(ctx) is called every
 * period_ms. */
enum unc_status efi_run_child(EFI_HANDLE image, const char *cmdline, uint64_t *ret_status, bool *ret_known,
			      unsigned period_ms, void (*tick)(void *ctx), void *ctx, char *err, size_t errsize);

/* The SMBIOS structure table, its entry point checked; UNC_E_NOT_FOUND
 * when there is none. */
enum unc_status efi_smbios_table(const uint8_t **ret_table, uint32_t *ret_len, char *err, size_t errsize);

/* The SMBIOS memory peak; UNC_E_NOT_FOUND when there is no SMBIOS table. */
enum unc_status efi_smbios_memory(struct smbios_mem *ret, char *err, size_t errsize);
/* The machine's identity (types 0, 1, 2: base/smbios.h). */
enum unc_status efi_smbios_id(struct smbios_id *ret, char *err, size_t errsize);

/* A periodic timer's notify function that calls tick(ctx): the sampling
 * while a child image runs (measure.c's children and lab mode's). */
struct efi_ticker {
	void (*tick)(void *ctx);
	void *ctx;
};
VOID EFIAPI efi_on_tick(EFI_EVENT ev, VOID *arg);

#endif
