/* The architectural core PMU of Intel cores that report CPUID leaf 0xA:
 * Intel SDM Vol. 3B, "Architectural Performance Monitoring" (versions 1 to
 * 5), the MSRs by the names of Vol. 4, "Architectural MSRs". Included only
 * by drivers/pmu/ and the tests. */
#ifndef UNC_PMU_ARCH_H
#define UNC_PMU_ARCH_H

#include "../engine/pmu.h"

/* Vol. 4, Table "IA-32 Architectural MSRs". */
#define IA32_PMC0                 0xC1u  /* IA32_PMCx at 0xC1 + x: writes take bits 31:0, sign-extended */
#define IA32_PERFEVTSEL0          0x186u /* IA32_PERFEVTSELx at 0x186 + x */
#define IA32_FIXED_CTR0           0x309u /* IA32_FIXED_CTRx at 0x309 + x */
#define IA32_PERF_CAPABILITIES    0x345u /* exists when CPUID.1:ECX.PDCM[15] */
#define IA32_FIXED_CTR_CTRL       0x38Du /* version 2 on */
#define IA32_PERF_GLOBAL_STATUS   0x38Eu /* version 2 on; read only */
#define IA32_PERF_GLOBAL_CTRL     0x38Fu /* version 2 on */
#define IA32_PERF_GLOBAL_OVF_CTRL 0x390u /* version 2 on; writing 1 clears a STATUS bit */
#define IA32_A_PMC0               0x4C1u /* full-width aliases of IA32_PMCx (IA32_PERF_CAPABILITIES bit 13) */

#define ARCH_CPUID_LEAF       0xAu
#define ARCH_CPUID1_ECX_PDCM  (1u << 15)
#define ARCH_CAPS_FW_WRITE    (1ull << 13)

/* IA32_PERFEVTSELx ("Layout of IA32_PERFEVTSELx MSRs"). */
#define ARCH_SEL_USR  (1ull << 16)
#define ARCH_SEL_OS   (1ull << 17)
#define ARCH_SEL_EDGE (1ull << 18)
#define ARCH_SEL_EN   (1ull << 22)
#define ARCH_SEL_INV  (1ull << 23)

/* IA32_FIXED_CTR_CTRL: a 4-bit field per fixed counter: OS (bit 0), USR
 * (bit 1), AnyThread (bit 2), PMI (bit 3). */
#define ARCH_FIXED_OS_USR     0x3u
#define ARCH_FIXED_FIELD_BITS 4u

/* RDPMC's ECX: bit 30 selects the fixed counters. */
#define ARCH_RDPMC_FIXED 0x40000000u

enum arch_unit { ARCH_UNIT_GP, ARCH_UNIT_FIXED, ARCH_NUNITS };

#define ARCH_MAX_GP    7 /* event files name counters 0 to 6 */
#define ARCH_MAX_FIXED 3 /* IA32_FIXED_CTR0 to 2, the events of this driver's table */

/* struct pmu_present.facts of this driver (stored in records: keep the meanings). */
enum arch_fact {
	ARCH_FACT_EAX,        /* CPUID.0AH:EAX: version 7:0, general counters 15:8, their width 23:16, EBX length 31:24 */
	ARCH_FACT_EBX,        /* CPUID.0AH:EBX: bit n set: architectural event n is unavailable */
	ARCH_FACT_ECX,        /* CPUID.0AH:ECX: fixed-counter bit mask (version 5 on) */
	ARCH_FACT_EDX,        /* CPUID.0AH:EDX: fixed counters 4:0, their width 12:5 (version 2 on) */
	ARCH_FACT_CPUID1_ECX, /* CPUID.1:ECX (PDCM, bit 15) in bits 31:0; the fixed counters the probe took in
			       * 39:32 and their width in 47:40 (0 in records written before these were kept) */
	ARCH_FACT_CAPS,       /* IA32_PERF_CAPABILITIES as read (a failed read: FW_WRITE alone if IA32_A_PMC0 reads, else 0) */
	ARCH_FACT_CAPS_ST,    /* its read status (enum unc_status); UNC_E_NOT_FOUND: not read, PDCM clear */
	ARCH_FACT_RDPMC_ST,   /* RDPMC of general counter 0 at the probe (enum unc_status): UNC_OK: sampling uses RDPMC */
};

/* Whether the probe took fixed counters that CPUID.0AH:EDX does not report
 * (versions 2 to 4, not under a hypervisor: Linux's assumption of three). */
bool arch_fixed_assumed(const struct pmu_present *p);

/* The fixed counters the probe took and their width, from the facts (so
 * also for a record read back); a record that did not keep them gives what
 * CPUID.0AH:EDX reports. */
unsigned arch_fixed_counters(const struct pmu_present *p);
unsigned arch_fixed_width(const struct pmu_present *p);

static inline unsigned arch_version(const struct pmu_present *p)
{
	return (unsigned)(p->facts[ARCH_FACT_EAX] & 0xFF);
}

/* Whether the general counters are written through IA32_A_PMCx (the
 * probe sets FW_WRITE in ARCH_FACT_CAPS when IA32_PERF_CAPABILITIES faulted
 * but IA32_A_PMC0 reads). */
static inline bool arch_full_width(const struct pmu_present *p)
{
	return (p->facts[ARCH_FACT_CAPS] & ARCH_CAPS_FW_WRITE) != 0;
}

/* The architectural events of CPUID.0AH:EBX, bit by bit ("Pre-defined
 * Architectural Performance Events"): code, umask and the SDM's name. */
struct arch_event {
	uint8_t code, umask;
	const char *name;
};
extern const struct arch_event arch_ebx_events[8];

extern const struct pmu_driver pmu_driver_arch;

/* The register's name as Vol. 4 has it, or NULL when it is not one of this PMU's. */
const char *arch_msr_name(uint32_t msr, char *buf, size_t size);

/* The counter register the run writes and rdmsr reads: IA32_A_PMCx when
 * full-width writes are on, else IA32_PMCx; IA32_FIXED_CTRx. */
struct pmu_reg arch_counter_reg(const struct pmu_present *p, unsigned unit, unsigned idx);

#endif
