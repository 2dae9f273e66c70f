/* The emulation protocol that uncore-emu.efi (tests/emu/driver.c) installs
 * and uncore.efi looks for. While it is present, uncore.efi sends every MSR
 * access, PCI configuration access, CPUID and RDPMC to it first, uses the
 * processor's or the root bridge's own for whatever it does not claim, and
 * reports `msr access: emulated` (and, in `info`, each other path the
 * emulator answered).
 *
 * Revision 2 adds PciRead32/PciWrite32, CpuidOverride and Rdpmc after the
 * revision-1 members, revision 3 MmioRead32 after those, revision 4
 * MmioWrite32 (stores to the MMIO PMON registers it claims, the uncore
 * discovery table's units); older members keep
 * their places. uncore.efi takes only the revision it was built for: with
 * any other it warns and runs native. */
#ifndef UNC_EMU_PROTOCOL_H
#define UNC_EMU_PROTOCOL_H

#include <efi.h>

#define UNC_EMU_PROTOCOL_GUID \
	{ 0x5e1f0c7a, 0x3b2d, 0x4c69, { 0x9a, 0x41, 0x7d, 0x2e, 0x86, 0x13, 0xc0, 0x5b } }

#define UNC_EMU_PROTOCOL_REVISION 4

/* The longest Description, its NUL included: uncore.efi keeps a copy this
 * size (efi/hw_core.h), so a description is never cut on the way; the
 * emulator marks one too long for it where it cuts it (fmt_mark_cut). */
#define UNC_EMU_DESCRIPTION_SIZE 640

struct _UNC_EMU_PROTOCOL;

/* Every member returns EFI_SUCCESS; EFI_DEVICE_ERROR when the access
 * raised (emulated) #GP; EFI_UNSUPPORTED when the emulator does not model
 * that MSR, PCI function, CPUID leaf, RDPMC or physical address, in which
 * case the caller uses the processor's own instruction, the real root
 * bridge or a plain load.
 * Rdpmc also returns EFI_ABORTED for an emulated #UD. */
typedef EFI_STATUS(EFIAPI *UNC_EMU_MSR_READ)(struct _UNC_EMU_PROTOCOL *This, UINT32 Msr, UINT64 *Value);
typedef EFI_STATUS(EFIAPI *UNC_EMU_MSR_WRITE)(struct _UNC_EMU_PROTOCOL *This, UINT32 Msr, UINT64 Value);
/* Revision 2. Offset: a 4-byte-aligned configuration-space offset below 0x1000. */
typedef EFI_STATUS(EFIAPI *UNC_EMU_PCI_READ32)(struct _UNC_EMU_PROTOCOL *This, UINT8 Bus, UINT8 Device,
					       UINT8 Function, UINT16 Offset, UINT32 *Value);
typedef EFI_STATUS(EFIAPI *UNC_EMU_PCI_WRITE32)(struct _UNC_EMU_PROTOCOL *This, UINT8 Bus, UINT8 Device,
						UINT8 Function, UINT16 Offset, UINT32 Value);
/* Regs: EAX, EBX, ECX, EDX of the overridden leaf/subleaf. */
typedef EFI_STATUS(EFIAPI *UNC_EMU_CPUID_OVERRIDE)(struct _UNC_EMU_PROTOCOL *This, UINT32 Leaf, UINT32 Subleaf,
						   UINT32 Regs[4]);
typedef EFI_STATUS(EFIAPI *UNC_EMU_RDPMC)(struct _UNC_EMU_PROTOCOL *This, UINT32 Index, UINT64 *Value);
/* Revision 3. A 32-bit load from a 4-byte-aligned physical address of a
 * range the emulator claims (its MCHBAR region), its value at the moment
 * of the call. */
typedef EFI_STATUS(EFIAPI *UNC_EMU_MMIO_READ32)(struct _UNC_EMU_PROTOCOL *This, UINT64 Address, UINT32 *Value);

/* Revision 4. A 32-bit store to a 4-byte-aligned physical address of a
 * range the emulator claims. */
typedef EFI_STATUS(EFIAPI *UNC_EMU_MMIO_WRITE32)(struct _UNC_EMU_PROTOCOL *This, UINT64 Address, UINT32 Value);

typedef struct _UNC_EMU_PROTOCOL {
	UINT32 Revision;
	UNC_EMU_MSR_READ MsrRead;
	UNC_EMU_MSR_WRITE MsrWrite;
	CONST CHAR8 *Description; /* ASCII: the emulated configuration */
	/* Revision 2 */
	UNC_EMU_PCI_READ32 PciRead32;
	UNC_EMU_PCI_WRITE32 PciWrite32;
	UNC_EMU_CPUID_OVERRIDE CpuidOverride;
	UNC_EMU_RDPMC Rdpmc;
	/* Revision 3 */
	UNC_EMU_MMIO_READ32 MmioRead32;
	/* Revision 4 */
	UNC_EMU_MMIO_WRITE32 MmioWrite32;
} UNC_EMU_PROTOCOL;

#endif
