/* The hardware seam over the uncore model, for host tests: MSRs and the
 * MCHBAR IMC counters come from the model, and so do the PCI functions,
 * CPUID leaves (--cpuid) and RDPMC it claims; the rest of CPUID and PCI
 * from the strict fake (a Skylake desktop part, host bridge 8086:1910), time from a fake
 * clock in nanoseconds. */
#ifndef EMU_HW_H
#define EMU_HW_H

#include "../unit/fake_hw.h"
#include "model.h"

#define EMU_HW_MCHBAR 0xFED10000ull

struct emu_hw {
	struct fake_hw fake; /* fake.hw is not used; see .hw */
	struct emu emu;
	struct hw hw;
	struct hw_emulated emulated; /* hw.emulated */
};

void emu_hw_init(struct emu_hw *h, const struct emu_config *cfg);
void emu_hw_advance(struct emu_hw *h, uint64_t ns);

#endif
