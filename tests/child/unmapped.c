/* unmapped.efi: for the boot test of uncore.efi's #PF guard on MMIO
 * (drivers/base/hw.md, MMIO). It makes one page that the firmware's GCD
 * memory space map calls MMIO but that its page tables leave unmapped, as
 * real firmware may leave an MMIO range: at 0xFED40000, a page OVMF's map
 * (QEMU q35, no TPM) calls non-existent, it adds MMIO to the GCD map
 * (AddMemorySpace) and marks the page not present
 * (EFI_CPU_ARCH_PROTOCOL.SetMemoryAttributes with EFI_MEMORY_RP). A load
 * there passes uncore.efi's map checks, and only its #PF guard stands
 * between the load and a firmware exception. The page stays so until the
 * machine resets. */
#include <efi.h>
#include <efilib.h>

#include "../../efi/console.h"
#include "../../efi/pi.h"

#define AT     0xFED40000ull
#define PAGE   0x1000ull
#define MEM_UC 0x1ull    /* EFI_MEMORY_UC */
#define MEM_RP 0x2000ull /* EFI_MEMORY_RP: read protected, not present */

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static EFI_GUID dxe_guid = UNC_DXE_SERVICES_TABLE_GUID, cpu_guid = UNC_EFI_CPU_ARCH_PROTOCOL_GUID;
	UNC_EFI_DXE_SERVICES *ds = NULL;
	UNC_EFI_CPU_ARCH_PROTOCOL *cpu = NULL;
	UNC_EFI_GCD_MEMORY_SPACE_DESCRIPTOR d;
	struct out out, err;
	EFI_STATUS s;

	InitializeLib(image, systab);
	out = console_out();
	err = console_err();
	for (UINTN i = 0; i < ST->NumberOfTableEntries; i++)
		if (!CompareGuid(&ST->ConfigurationTable[i].VendorGuid, &dxe_guid))
			ds = ST->ConfigurationTable[i].VendorTable;
	if (!ds || EFI_ERROR(BS->LocateProtocol(&cpu_guid, NULL, (void **)&cpu)) || !cpu) {
		out_printf(&err, "unmapped: error: no DXE services table or CPU architecture protocol\n");
		return EFI_NOT_FOUND;
	}
	if (EFI_ERROR(ds->GetMemorySpaceDescriptor(AT, &d)) || d.GcdMemoryType != UncGcdMemoryTypeNonExistent) {
		out_printf(&err, "unmapped: error: 0x%llx is not non-existent in the GCD map\n", (unsigned long long)AT);
		return EFI_UNSUPPORTED;
	}
	s = ds->AddMemorySpace(UncGcdMemoryTypeMemoryMappedIo, AT, PAGE, MEM_UC | MEM_RP);
	if (EFI_ERROR(s)) {
		out_printf(&err, "unmapped: error: AddMemorySpace: 0x%llx\n", (unsigned long long)s);
		return s;
	}
	s = cpu->SetMemoryAttributes(cpu, AT, PAGE, MEM_UC | MEM_RP);
	if (EFI_ERROR(s)) {
		out_printf(&err, "unmapped: error: SetMemoryAttributes: 0x%llx\n", (unsigned long long)s);
		return s;
	}
	out_printf(&out, "unmapped: 0x%llx is MMIO in the GCD map and not present in the page tables\n",
		   (unsigned long long)AT);
	return EFI_SUCCESS;
}
