#ifndef UNC_VARS_H
#define UNC_VARS_H

#include <efi.h>
#include "../drivers/output/record.h"
#include "../drivers/output/varstore.h"

/* The project's vendor GUID for its variables (drivers/cmd/var.md). */
#define UNC_VAR_GUID \
	{ 0x7c3a5e91, 0x2b4d, 0x4f86, { 0x9e, 0x1a, 0x5d, 0x0c, 0x8b, 0x7f, 0x2a, 0x63 } }
/* NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS */
#define UNC_VAR_ATTRS 0x7

/* The boot check's GUID (BOOT_GUID_TEXT, drivers/cmd/bootcheck.h). */
#define UNC_BOOT_GUID \
	{ 0x3f1d6b2e, 0x8c47, 0x4a59, { 0xb0, 0xe3, 0x91, 0xd2, 0xc6, 0xa8, 0xf5, 0x14 } }

extern const struct varstore efi_varstore, efi_globalvars, efi_bootvars;

enum unc_status efi_write_file(void *ctx, const char *path, const void *data, size_t len, char *err, size_t errsize);
void efi_get_time(struct rec_time *ret);
void *efi_alloc(size_t n);
void efi_free(void *p);

#endif
