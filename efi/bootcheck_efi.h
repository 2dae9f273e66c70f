/* The boot check's firmware side (efi/bootcheck.c), for efi/main.c. */
#ifndef UNC_BOOTCHECK_EFI_H
#define UNC_BOOTCHECK_EFI_H

#include <efi.h>
#include "../drivers/cmd/app.h"

/* Variables, the image's file: what `boot-check` needs of the firmware. */
extern const struct boot_env efi_boot_env;
/* The running image (install reads the volume it came from). */
void efi_boot_self(EFI_HANDLE image);
/* uncore-boot.efi started by the boot manager: the configured check, its
 * record, the policy on failure; an error status, so that it is unloaded. */
EFI_STATUS efi_boot_run(EFI_HANDLE image, struct app_env *env, struct hw *hw, struct out *out, struct out *err);

#endif
