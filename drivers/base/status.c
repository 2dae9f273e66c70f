#include "status.h"

#include <stddef.h>

const char *unc_strerror(enum unc_status st)
{
	switch (st) {
	case UNC_OK: return "success";
	case UNC_E_INVALID: return "invalid argument";
	case UNC_E_FAULT: return "general-protection fault";
	case UNC_E_UNSUPPORTED: return "unsupported";
	case UNC_E_NOT_FOUND: return "not found";
	case UNC_E_DEVICE: return "firmware service failed";
	case UNC_E_BUSY: return "in use";
	case UNC_E_RANGE: return "out of range";
	case UNC_E_NO_MEMORY: return "out of memory";
	case UNC_E_ABORTED: return "stopped by the user";
	case UNC_E_OVERFLOW: return "counter overflow lost";
	case UNC_E_CHECK: return "bandwidth check failed";
	case UNC_E_CLOBBERED: return "a counter was written by someone else";
	case UNC_E_STUCK: return "a counter is stuck";
	case UNC_E_CHILD: return "the child failed";
	case UNC_E_NOT_MMIO: return "not MMIO that the firmware maps";
	}
	return "unknown status";
}

static const char *const efi_errors[] = {
	[1] = "EFI_LOAD_ERROR", [2] = "EFI_INVALID_PARAMETER", [3] = "EFI_UNSUPPORTED",
	[4] = "EFI_BAD_BUFFER_SIZE", [5] = "EFI_BUFFER_TOO_SMALL", [6] = "EFI_NOT_READY",
	[7] = "EFI_DEVICE_ERROR", [8] = "EFI_WRITE_PROTECTED", [9] = "EFI_OUT_OF_RESOURCES",
	[10] = "EFI_VOLUME_CORRUPTED", [11] = "EFI_VOLUME_FULL", [12] = "EFI_NO_MEDIA",
	[13] = "EFI_MEDIA_CHANGED", [14] = "EFI_NOT_FOUND", [15] = "EFI_ACCESS_DENIED",
	[16] = "EFI_NO_RESPONSE", [17] = "EFI_NO_MAPPING", [18] = "EFI_TIMEOUT",
	[19] = "EFI_NOT_STARTED", [20] = "EFI_ALREADY_STARTED", [21] = "EFI_ABORTED",
	[22] = "EFI_ICMP_ERROR", [23] = "EFI_TFTP_ERROR", [24] = "EFI_PROTOCOL_ERROR",
	[25] = "EFI_INCOMPATIBLE_VERSION", [26] = "EFI_SECURITY_VIOLATION", [27] = "EFI_CRC_ERROR",
	[28] = "EFI_END_OF_MEDIA", [31] = "EFI_END_OF_FILE", [32] = "EFI_INVALID_LANGUAGE",
	[33] = "EFI_COMPROMISED_DATA", [34] = "EFI_IP_ADDRESS_CONFLICT", [35] = "EFI_HTTP_ERROR",
};

static const char *const efi_warnings[] = {
	[0] = "EFI_SUCCESS", [1] = "EFI_WARN_UNKNOWN_GLYPH", [2] = "EFI_WARN_DELETE_FAILURE",
	[3] = "EFI_WARN_WRITE_FAILURE", [4] = "EFI_WARN_BUFFER_TOO_SMALL", [5] = "EFI_WARN_STALE_DATA",
	[6] = "EFI_WARN_FILE_SYSTEM", [7] = "EFI_WARN_RESET_REQUIRED",
};

const char *efi_status_name(uint64_t status)
{
	uint64_t code = status & ~EFI_STATUS_ERROR_BIT;

	if (status & EFI_STATUS_ERROR_BIT)
		return code < sizeof(efi_errors) / sizeof(efi_errors[0]) ? efi_errors[code] : NULL;
	return code < sizeof(efi_warnings) / sizeof(efi_warnings[0]) ? efi_warnings[code] : NULL;
}

const char *efi_status_str(uint64_t status, char buf[20])
{
	const char *name = efi_status_name(status);
	int n = 0;

	if (name)
		return name;
	buf[0] = '0', buf[1] = 'x';
	while (n < 15 && status >> 4 * (n + 1))
		n++;
	for (int i = 0; i <= n; i++)
		buf[2 + i] = "0123456789abcdef"[(status >> 4 * (n - i)) & 0xf];
	buf[3 + n] = '\0';
	return buf;
}

uint64_t efi_status_from_shell(uint64_t shell_status)
{
	return shell_status ? shell_status | EFI_STATUS_ERROR_BIT : 0;
}
