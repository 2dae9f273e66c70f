/* Lab mode at the firmware edge (drivers/cmd/lab.md): the configuration read
 * from the volume uncore.efi was loaded from, each line run, the results
 * written beside it, the run ended as configured. */
#ifndef UNC_EFI_LAB_EDGE_H
#define UNC_EFI_LAB_EDGE_H

#include <efi.h>
#include <stdbool.h>

#include "../drivers/cmd/app.h"

/* Runs lab mode. tmpl is efi/main.c's environment (its ctx is replaced by
 * each case's hardware seam); config is the file to run ("" or NULL: the
 * per-board choice); shell says uncore.efi runs under a Shell (`lab`),
 * which makes `exit` the default ending. Returns only to exit. */
EFI_STATUS efi_lab(EFI_HANDLE image, const struct app_env *tmpl, const char *config, bool shell);

#endif
