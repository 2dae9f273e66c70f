/* 6th-generation Intel Core (Skylake-client) uncore: Intel 334060-001.
 * Register names and addresses are those of Table 2-1; the unit indexes
 * and the facts the driver's probe keeps. Data only, no file of its own:
 * skl.c (the driver), skl_info.c and skl_rec.c (and icl.c, for the IMC)
 * read it; only drivers/pmu/ and the tests include it. */
#ifndef UNC_PMU_SKL_REGS_H
#define UNC_PMU_SKL_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MSR_UNC_PERF_GLOBAL_CTRL   0xE01u
#define MSR_UNC_PERF_GLOBAL_STATUS 0xE02u
#define MSR_UNC_PERF_FIXED_CTRL    0x394u
#define MSR_UNC_PERF_FIXED_CTR     0x395u
#define MSR_UNC_CBO_CONFIG         0x396u
#define MSR_UNC_ARB_PERFCTR0       0x3B0u
#define MSR_UNC_ARB_PERFEVTSEL0    0x3B2u
#define MSR_UNC_CBO_0_PERFEVTSEL0  0x700u
#define MSR_UNC_CBO_0_PERFCTR0     0x706u
/* Boxes 4 to 7 are not in the manual, whose Table 2-1 stops at CBo 3 (Table
 * 1-2: 1 to 4 CBos). Linux programs up to 8 on these models
 * (arch/x86/events/intel/uncore_snb.c, skl_uncore_cbox: num_boxes 8, capped
 * at the core count): boxes 4 to 6 continue the stride of 0x10
 * (SNB_UNC_CBO_MSR_OFFSET), and box 7 has MSRs of its own
 * (arch/x86/events/intel/uncore.h, CFL_UNC_CBO_7_PERFEVTSEL0 0xf70 and
 * CFL_UNC_CBO_7_PER_CTR0 0xf76, each counter following the first). */
#define MSR_UNC_CBO_7_PERFEVTSEL0  0xF70u
#define MSR_UNC_CBO_7_PERFCTR0     0xF76u
#define SKL_MAX_CBO                8

/* Table 2-2 */
#define UNC_GLOBAL_CTRL_FRZ_ON_PMI  (1ull << 31)
#define UNC_GLOBAL_CTRL_WAKE_ON_PMI (1ull << 30)
#define UNC_GLOBAL_CTRL_EN          (1ull << 29)
/* PMI_SEL_CORE3..0 are bits 3:0; bit 4 is reserved in the manual, but
 * Linux writes it on Skylake (0x2000001F), so it is treated as a fifth
 * PMI select. */
#define UNC_GLOBAL_CTRL_PMI_SEL     0x1Full
/* What a run clears for its duration (and puts back at the end): the global
 * enable, and everything that would route or act on an overflow PMI. A
 * FRZ_ON_PMI left set would stop every counter at the first overflow of a
 * counter with OVF_EN, which every run now sets. */
#define SKL_GLOBAL_CTRL_RUN_CLEAR                                                                  \
	(UNC_GLOBAL_CTRL_FRZ_ON_PMI | UNC_GLOBAL_CTRL_WAKE_ON_PMI | UNC_GLOBAL_CTRL_EN | \
	 UNC_GLOBAL_CTRL_PMI_SEL)
/* Table 2-4 / 2-7 */
#define UNC_CTRL_EN                (1ull << 22)
/* Table 2-4 / 2-7: forwards the counter's overflow to GLOBAL_STATUS (and,
 * with a PMI_SEL bit set, as a PMI to a core). */
#define UNC_CTRL_OVF_EN            (1ull << 20)
/* Table 2-6 */
#define UNC_CBO_CONFIG_NO_CBO_BANKS 0xFull
/* Table 2-3: FIXED 0, ARB 1, CBO 3 (Intel SDM Vol. 4 and edk2 SkylakeMsr.h; the
 * extracted text of 334060-001 prints 31 for the CBO bit) */
#define SKL_GSTATUS_FIXED 0x1ull
#define SKL_GSTATUS_ARB   0x2ull
#define SKL_GSTATUS_CBO   0x8ull

enum skl_unit_id { SKL_UNIT_CBO, SKL_UNIT_ARB, SKL_UNIT_FIXED, SKL_UNIT_IMC, SKL_NUNITS };

/* How many of n CBos can be programmed: at most SKL_MAX_CBO. */
static inline unsigned skl_cbo_programmable(unsigned n)
{
	return n > SKL_MAX_CBO ? SKL_MAX_CBO : n;
}

/* Table 3-3: the IMC's free-running 32-bit counters, at MCHBAR + offset. */
#define SKL_IMC_COUNTERS 5
#define SKL_IMC_WIDTH    32
#define SKL_IMC_FIRST    0x5040u /* DRAM_GT_REQUESTS */
#define SKL_IMC_END      0x5058u /* past DRAM_DATA_WRITES, 0x5054 */

/* The facts the probe keeps in pmu_present.facts[]. */
enum skl_fact {
	SKL_FACT_CBO_CONFIG_ST,  /* enum unc_status of reading MSR_UNC_CBO_CONFIG */
	SKL_FACT_CBO_CONFIG,     /* its raw value */
	SKL_FACT_HB_ID,          /* 0:0.0 offset 0: device << 16 | vendor */
	SKL_FACT_MCHBAR_RAW,     /* 0x4C:0x48 */
	SKL_FACT_HB_ST,          /* enum unc_status of reading 0:0.0 */
	SKL_FACT_MCHBAR_ST,      /* ... and of reading MCHBAR */
	SKL_FACT_CORES,          /* the CPU's core count (CPUID; 0: unknown) */
	SKL_FACT_CPU,            /* its physical address width (bits 7:0) and model (bits 15:8), for MCHBAR */
};

#endif
