/* hw_core.c: the native seam's own state and the primitives its files
 * share, hw_native.c (MSRs, PCI, the emulator, time), hw_mmio.c (MMIO only
 * where the firmware maps it) and hw_pkg.c (MSRs of another package,
 * through MP services). Only they include it. */
#ifndef UNC_HW_CORE_H
#define UNC_HW_CORE_H

#include <efi.h>
#include <efilib.h>
#include <stdbool.h>
#include "../drivers/base/fmt.h"
#include "../drivers/base/hw.h"
#include "../drivers/base/pcibus.h"
#include "emu_protocol.h"
#include "pi.h"

struct native {
	UNC_EFI_CPU_ARCH_PROTOCOL *cpu;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb[PCIBUS_MAX_ROOTS]; /* segment 0's root bridges */
	struct pci_root rb_range[PCIBUS_MAX_ROOTS];         /* the bus range each reports */
	unsigned nrb;
	UNC_EMU_PROTOCOL *emu;
	EFI_HANDLE emu_handle, emu_client; /* the emulator's handle, and who holds it open */
	char emu_desc[UNC_EMU_DESCRIPTION_SIZE]; /* the whole Description (an older emulator's longer one marked cut) */
	struct hw_emulated emulated; /* what the emulator answered besides MSRs */
	/* Per-package MSRs: MP services, and each processor's package */
	UNC_EFI_MP_SERVICES_PROTOCOL *mp;
	struct hw_pkgs pkgs;
	uint32_t *cpu_pkg; /* each processor's package ID; UINT32_MAX: disabled (pool, ncpu of them) */
	UINTN ncpu, bsp;
	char pkgs_how[80];
};

extern struct native native;
extern volatile int gp_faulted; /* set by the #GP guard's handler */
extern bool bs_ending;          /* in the ExitBootServices notification (native_boot_services_ending, hw_pkg.c) */

/* efi/msr.S: the guarded instructions */
extern uint64_t unc_asm_rdmsr(uint32_t msr);
extern void unc_asm_wrmsr(uint32_t msr, uint64_t value);

enum unc_status guard_on(void);
enum unc_status guard_off(void);
uint64_t native_ticks(void *ctx);
void native_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r);
enum unc_status emu_status(EFI_STATUS s);

#endif
