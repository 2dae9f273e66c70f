/* The native seam's own state, shared by its files: hw_native.c (MSRs,
 * PCI, the emulator, time), hw_mmio.c (MMIO only where the firmware maps
 * it) and hw_pkg.c (MSRs of another package, through MP services). Only
 * they include it. */
#ifndef UNC_NATIVE_INT_H
#define UNC_NATIVE_INT_H

#include <efi.h>
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
extern bool bs_ending;          /* in the ExitBootServices notification (native_boot_services_ending) */

/* efi/msr.S: the guarded instructions */
extern uint64_t unc_asm_rdmsr(uint32_t msr);
extern void unc_asm_wrmsr(uint32_t msr, uint64_t value);

/* hw_native.c */
enum unc_status guard_on(void);
enum unc_status guard_off(void);
uint64_t native_ticks(void *ctx);
void native_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r);
enum unc_status emu_status(EFI_STATUS s);

/* hw_mmio.c */
enum unc_status native_mmio_read32(void *ctx, uint64_t phys, uint32_t *ret_val);
enum unc_status native_mmio_write32(void *ctx, uint64_t phys, uint32_t val);
enum unc_status native_mmio_read32_n(void *ctx, const uint64_t *phys, unsigned n, uint64_t *ret_val,
				     uint64_t *ret_ticks);
enum unc_status native_mmio_check(void *ctx, uint64_t phys, uint64_t len, char *why, size_t whysize);
/* The ranges accepted so far given back (native_release). */
void mmio_forget(void);
/* The memory map's buffer, once, at start-up (native_init). */
void memmap_alloc(void);

/* hw_pkg.c */
enum unc_status native_msr_read_pkg(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret_val);
enum unc_status native_msr_write_pkg(void *ctx, uint32_t pkg, uint32_t msr, uint64_t val);
/* Ends each serving processor's loop; close: also its completion event. */
void pkg_stop_all(bool close);
/* Forgets what the last run could not put back (at native_init). */
void pkg_reset(void);
/* native.pkgs from MP services and the x2APIC topology. */
void find_packages(struct out *err);

#endif
