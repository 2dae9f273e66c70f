#include "native.h"

EFI_STATUS efi_status_from(enum unc_status st)
{
	switch (st) {
	case UNC_OK: return EFI_SUCCESS;
	case UNC_E_INVALID: return EFI_INVALID_PARAMETER;
	case UNC_E_FAULT: return EFI_DEVICE_ERROR;
	case UNC_E_UNSUPPORTED: return EFI_UNSUPPORTED;
	case UNC_E_NOT_FOUND: return EFI_NOT_FOUND;
	case UNC_E_DEVICE: return EFI_PROTOCOL_ERROR;
	case UNC_E_BUSY: return EFI_ACCESS_DENIED;
	case UNC_E_RANGE: return EFI_BAD_BUFFER_SIZE;
	case UNC_E_NO_MEMORY: return EFI_OUT_OF_RESOURCES;
	case UNC_E_ABORTED: return EFI_ABORTED;
	case UNC_E_OVERFLOW: return EFI_CRC_ERROR;
	case UNC_E_CHECK: return EFI_COMPROMISED_DATA;
	case UNC_E_CLOBBERED: return EFI_MEDIA_CHANGED;
	case UNC_E_STUCK: return EFI_NOT_READY;
	case UNC_E_CHILD: return EFI_LOAD_ERROR; /* a stand-in: efi/main.c returns the child's own status */
	case UNC_E_NOT_MMIO: return EFI_NO_MAPPING;
	}
	return EFI_ABORTED;
}
