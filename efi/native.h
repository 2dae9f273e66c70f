/* The native hardware seam (rdmsr/wrmsr under a #GP guard, PCI through
 * EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL, plain MMIO loads, the TSC). */
#ifndef UNC_NATIVE_H
#define UNC_NATIVE_H

#include <efi.h>
#include <stdbool.h>
#include "../drivers/base/fmt.h"
#include "../drivers/base/hw.h"

/* Finds the protocols it needs; anything missing is reported on err and
 * makes the matching accesses fail with a status, never a hang. With an
 * emu_client (the calling image), MSR accesses go to the uncore emulator's
 * protocol when it is installed (efi/emu_protocol.h), and ret_hw says so;
 * emu_client then holds the protocol open, so that the emulator cannot be
 * unloaded, until native_release. NULL: native MSR access only. */
void native_init(struct hw *ret_hw, struct out *err, EFI_HANDLE emu_client);

/* Whether MP services' processor `cpu` serves another package's MSRs
 * (struct hw_pkgs): the built-in load leaves it free for those trips. */
bool native_serves_pkg(UINTN cpu);

/* The ExitBootServices notification begins: from now on nothing is
 * allocated and no event created; MMIO reaches only the ranges the run
 * accepted before, other packages' MSRs only through processors already
 * serving (or one blocking StartupThisAP). */
void native_boot_services_ending(void);

/* Sends the processors that serve other packages' MSRs back to the
 * firmware, freeing nothing (for an ExitBootServices notification;
 * native_release does it too), and names on the console, one line a
 * package, the MSRs the notification could not put back there. */
void native_stop_aps(void);

/* Lets go of the emulator (native_init); call before the image exits. */
void native_release(void);

/* Calibrates the TSC against gBS->Stall; sets hw->tick_hz. */
enum unc_status native_calibrate(struct hw *hw, struct out *err);

/* Waits in the firmware (WaitForEvent: its idle loop halts the processor)
 * until a timer fires after us microseconds or, with key, a key comes.
 * True: the timer fired. False: a key came, or it did not wait (a TSC
 * that may slow down in a halt, a firmware error): the caller polls. */
bool efi_idle(uint64_t us, bool key);

/* The running processor's own CPUID, not an emulator's (CPUID alone: its
 * other accesses are not there), for what the code may run on it. */
extern const struct hw native_cpu;
/* Its XCR0 (XGETBV 0): only where its CPUID.1:ECX.OSXSAVE is set, else XGETBV faults. */
uint64_t native_xcr0(void);

/* The project status at the firmware edge (drivers/cmd/README.md, "Errors and exit status"). */
EFI_STATUS efi_status_from(enum unc_status st);

#endif
