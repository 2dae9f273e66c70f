/* child.efi: a workload for the boot tests of `uncore.efi -- CHILD`.
 *
 *   fs0:\child.efi MS STATUS
 *
 * Busy-waits MS milliseconds (gBS->Stall), says so, and returns STATUS
 * (0 is EFI_SUCCESS; N > 0 is the error status EFIERR(N)). */
#include <efi.h>
#include <efilib.h>

#include "../../drivers/base/parse.h"
#include "../../efi/console.h"
#include "../../efi/shell.h"

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	struct out out, err;
	char **argv;
	int argc;
	uint64_t ms, status;

	InitializeLib(image, systab);
	out = console_out();
	err = console_err();
	bool ok = !shell_args_ascii(image, "child", &argc, &argv, &err) && argc == 3 && parse_u64(argv[1], 600000, &ms) &&
		  parse_u64(argv[2], 0xFFFF, &status);
	shell_args_free();
	if (!ok) {
		out_printf(&err, "child: usage: child.efi MS STATUS\n");
		return EFI_INVALID_PARAMETER;
	}
	BS->Stall(ms * 1000);
	out_printf(&out, "child: spun %lu ms, returning %lu\n", (unsigned long)ms, (unsigned long)status);
	return status ? EFIERR(status) : EFI_SUCCESS;
}
