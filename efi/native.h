/* The native hardware seam (rdmsr/wrmsr under a #GP guard, PCI through
 * EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL, plain MMIO loads, the TSC). */
#ifndef UNC_NATIVE_H
#define UNC_NATIVE_H

#include <efi.h>
#include "../drivers/fmt.h"
#include "../drivers/hw.h"

/* Finds the protocols it needs; anything missing is reported on err and
 * makes the matching accesses fail with a status, never a hang. */
void native_init(struct hw *ret_hw, struct out *err);

/* Calibrates the TSC against gBS->Stall; sets hw->tick_hz. */
enum unc_status native_calibrate(struct hw *hw, struct out *err);

#endif
