#ifndef UNC_SHELL_H
#define UNC_SHELL_H

#include <efi.h>
#include "../drivers/base/fmt.h"
#include "../drivers/cmd/cli.h"

/* The UEFI Shell's arguments for this image, converted to ASCII. Arguments
 * longer than CLI_MAX_ARG_LEN are cut one character past the limit, so the
 * parser still sees (and names) them as too long. */
enum unc_status shell_args_ascii(EFI_HANDLE image, const char *prog, int *ret_argc, char ***ret_argv, struct out *err);
/* Frees what shell_args_ascii allocated; the arguments are gone after it. */
void shell_args_free(void);

#endif
