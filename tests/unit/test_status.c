/* EFI_STATUS names and the UEFI Shell's form of a command's status. */
#include <string.h>

#include "../../drivers/base/status.h"
#include "t.h"

static void names_from_the_specification(void)
{
	char hex[20];

	T_STREQ(efi_status_name(0), "EFI_SUCCESS");
	T_STREQ(efi_status_name(0x8000000000000001ull), "EFI_LOAD_ERROR");
	T_STREQ(efi_status_name(0x8000000000000007ull), "EFI_DEVICE_ERROR");
	T_STREQ(efi_status_name(0x800000000000000Eull), "EFI_NOT_FOUND");
	T_STREQ(efi_status_name(0x8000000000000021ull), "EFI_COMPROMISED_DATA");
	T_STREQ(efi_status_name(0x8000000000000023ull), "EFI_HTTP_ERROR");
	T_STREQ(efi_status_name(5), "EFI_WARN_STALE_DATA");
	T_STREQ(efi_status_name(7), "EFI_WARN_RESET_REQUIRED");
	/* holes and values past the tables have no name */
	T_ASSERT(!efi_status_name(0x800000000000001Dull));
	T_ASSERT(!efi_status_name(0x8000000000000024ull));
	T_ASSERT(!efi_status_name(8));
	T_ASSERT(!efi_status_name(0x8000000400030000ull));
	T_STREQ(efi_status_str(0x800000000000000Full, hex), "EFI_ACCESS_DENIED");
	T_STREQ(efi_status_str(0x8000000400030000ull, hex), "0x8000000400030000");
	T_STREQ(efi_status_str(8, hex), "0x8");
	T_STREQ(efi_status_str(0xFFFFFFFFFFFFFFFFull, hex), "0xffffffffffffffff");
}

/* The Shell clears bit 63 of an image's error (%lasterror% 0x7 for
 * EFIERR(7)) and keeps it for its own commands; non-zero is a failure. */
static void shell_form_decoded(void)
{
	T_EQ(efi_status_from_shell(0), 0);
	T_EQ(efi_status_from_shell(7), 0x8000000000000007ull);
	T_EQ(efi_status_from_shell(0x21), 0x8000000000000021ull);
	T_EQ(efi_status_from_shell(0x800000000000000Eull), 0x800000000000000Eull);
}

T_MAIN("status", T_CASE(names_from_the_specification), T_CASE(shell_form_decoded))
