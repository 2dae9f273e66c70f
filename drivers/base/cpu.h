/* Processor identification from CPUID, through the hardware seam. */
#ifndef UNC_CPU_H
#define UNC_CPU_H

#include <stdbool.h>
#include <stdint.h>
#include "hw.h"

struct cpu_info {
	char vendor[13];
	char brand[49];          /* "" when leaf 0x80000004 is absent */
	uint32_t family, model, stepping; /* display values (extended fields folded in) */
	uint32_t max_leaf, max_ext_leaf;
	bool is_intel;
	bool hypervisor;         /* CPUID.1:ECX[31] */
	unsigned phys_addr_bits; /* CPUID.80000008H:EAX[7:0], 36 when absent */
	/* Per package; 0 when CPUID does not say. */
	unsigned cores, threads;
	const char *topology_source; /* "CPUID leaf 0xB", "CPUID leaves 1 and 4" or "unknown" */
};

void cpu_identify(const struct hw *hw, struct cpu_info *ret);

/* Whether the TSC keeps its rate while the processor halts: an invariant
 * TSC (CPUID.80000007H:EDX[8], which cpu_identify does not read), or a model whose TSC runs at a constant rate (as Linux sets
 * X86_FEATURE_CONSTANT_TSC: family 6 from model 0x0E, family 0xF from
 * model 3). On older parts it may slow down in a halt. */
bool cpu_tsc_steady(const struct cpu_info *ci, bool invariant);

/* The largest cache CPUID leaf 4 describes, in bytes (ways x partitions x
 * line size x sets); 0 when the leaf is absent or describes none. */
uint64_t cpu_llc_bytes(const struct hw *hw);

/* How far an APIC ID is shifted right to give its physical package ID:
 * the last level of CPUID leaf 0x1F, else of leaf 0xB (EAX[4:0]: the
 * x2APIC ID bits below the next level), else the logical processors per
 * package of leaf 1 (EBX[23:16], HTT) rounded up to a power of two. *how
 * names the leaf. */
unsigned cpu_pkg_shift(const struct hw *hw, const char **how);

#endif
