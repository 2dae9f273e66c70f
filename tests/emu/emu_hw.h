/* The hardware seam over the uncore model, for host tests: MSRs and the
 * MCHBAR IMC counters come from the model (the uncore and the core PMU it
 * serves), and so do the PCI functions,
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
	struct emu emu;  /* the uncore; emu.next is core when a core PMU is served */
	struct emu core;
	struct hw hw;
	struct hw_emulated emulated; /* hw.emulated */
	/* Each MSR, PCI or RDPMC access takes this long (the clock moves before
	 * the model answers), as accesses through uncore-emu.efi or to real
	 * configuration space do: 0 by default. */
	uint64_t access_ns;
	/* Every stall_every-th access of this processor (package 0; another
	 * package's in a trip: never) takes stall_ns more: a preempted vCPU or
	 * an SMI landing in the middle of a sample's reads. 0: never. */
	unsigned stall_every, accesses;
	uint64_t stall_ns;
	/* With stall_to: only accesses at a time in [stall_from, stall_to) are
	 * counted for stall_every (a spell of host load); 0: at any time. */
	uint64_t stall_from, stall_to;
	/* In that spell, another package's processor takes each trip trip_ns
	 * after it was posted (a vCPU scheduled late). */
	uint64_t trip_ns;
	/* What another package's processor's clock reads less this one's
	 * (the times msr_read_pkg_t gives): 0, one clock. */
	int64_t pkg_clock_ns;
	/* PCI functions that neither the model nor the fake declares read all
	 * ones, as absent functions on QEMU's bus do (a probe's bus scan);
	 * false: such a read fails the test. */
	bool open_bus;
	struct hw_pkgs pkgs; /* emu_hw_pkgs */
};

/* A Skylake desktop part (family 6 model 0x5E): the core PMU is the one
 * cfg asks for (--core-pmu, --arch-pmu), by default the architectural PMU
 * of Skylake's shape (cfg.core_pmu = EMU_CORE_NONE: the uncore alone). */
void emu_hw_init(struct emu_hw *h, const struct emu_config *cfg);
/* The same with CPUID leaf 1 EAX replaced by leaf1_eax (a P6 or Knights
 * Corner identity selects its core PMU). */
void emu_hw_init_cpu(struct emu_hw *h, const struct emu_config *cfg, uint32_t leaf1_eax);
void emu_hw_advance(struct emu_hw *h, uint64_t ns);
/* n packages (IDs 0..n-1, this processor on 0): MSR accesses on package p
 * reach the model with emu_cur_pkg p (fake.pkg_calls counts the trips). */
void emu_hw_pkgs(struct emu_hw *h, unsigned n);

/* A stat_env's wait_until over the strict fake's clock (ctx: the struct
 * emu_hw): time jumps to `when`, and nobody asks to stop. */
bool emu_hw_wait_until(void *ctx, uint64_t when);

#endif
