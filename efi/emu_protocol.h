/* The MSR-emulation protocol that uncore-emu.efi (tests/emu/driver.c)
 * installs and uncore.efi looks for. While it is present, uncore.efi sends
 * every MSR access to it first and reports `msr access: emulated`. */
#ifndef UNC_EMU_PROTOCOL_H
#define UNC_EMU_PROTOCOL_H

#include <efi.h>

#define UNC_EMU_PROTOCOL_GUID \
	{ 0x5e1f0c7a, 0x3b2d, 0x4c69, { 0x9a, 0x41, 0x7d, 0x2e, 0x86, 0x13, 0xc0, 0x5b } }

#define UNC_EMU_PROTOCOL_REVISION 1

struct _UNC_EMU_PROTOCOL;

/* EFI_SUCCESS; EFI_DEVICE_ERROR when the access raised (emulated) #GP;
 * EFI_UNSUPPORTED when the MSR is not an uncore MSR the emulator models,
 * in which case the caller uses the processor's own MSR. */
typedef EFI_STATUS(EFIAPI *UNC_EMU_MSR_READ)(struct _UNC_EMU_PROTOCOL *This, UINT32 Msr, UINT64 *Value);
typedef EFI_STATUS(EFIAPI *UNC_EMU_MSR_WRITE)(struct _UNC_EMU_PROTOCOL *This, UINT32 Msr, UINT64 Value);

typedef struct _UNC_EMU_PROTOCOL {
	UINT32 Revision;
	UNC_EMU_MSR_READ MsrRead;
	UNC_EMU_MSR_WRITE MsrWrite;
	CONST CHAR8 *Description; /* ASCII: the emulated configuration */
} UNC_EMU_PROTOCOL;

#endif
