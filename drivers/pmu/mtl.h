/* Meteor Lake, Arrow Lake and Lunar Lake client uncore (drivers/pmu/mtl.c).
 * Registers are those of Linux arch/x86/events/intel/uncore_snb.c (the
 * MTL_UNC_* MSRs, mtl_uncore_*, lnl_uncore_msr_ops, LNL_UNC_MSR_GLOBAL_CTL);
 * the IMC is Alder Lake's (adl.h). The driver's own header: only
 * drivers/pmu/mtl.c and its tests include it. */
#ifndef UNC_PMU_MTL_H
#define UNC_PMU_MTL_H

#include "adl.h"

/* uncore_snb.c: MTL_UNC_CBO_0_PERFEVTSEL0/PER_CTR0, MTL_UNC_ARB_CTRL/CTR,
 * MTL_UNC_HAC_ARB_CTRL/CTR, MTL_UNC_HBO_CTRL/CTR (the HAC CBo),
 * MTL_UNC_CNCU_FIXED_CTRL/CTR, MTL_UNC_CNCU_BOX_CTL, MTL_UNC_SNCU_BOX_CTL;
 * every MTL unit's msr_offset is SNB_UNC_CBO_MSR_OFFSET, 0x10. */
#define MTL_UNC_CBO_0_PERFEVTSEL0 0x2442u
#define MTL_UNC_CBO_0_PER_CTR0    0x2448u
#define MTL_UNC_ARB_CTRL          0x2412u
#define MTL_UNC_ARB_CTR           0x2418u
#define MTL_UNC_HAC_ARB_CTRL      0x2012u
#define MTL_UNC_HAC_ARB_CTR       0x2018u
#define MTL_UNC_HBO_CTRL          0x2042u
#define MTL_UNC_HBO_CTR           0x2048u
#define MTL_UNC_CNCU_FIXED_CTRL   0x2402u
#define MTL_UNC_CNCU_FIXED_CTR    0x2408u
#define MTL_UNC_CNCU_BOX_CTL      0x240Eu
#define MTL_UNC_SNCU_BOX_CTL      0x200Eu
#define MTL_UNC_MSR_OFFSET        0x10u
#define MTL_WIDTH                 48
#define MTL_PAIR_BOXES            2 /* ARB, HAC_ARB, HAC_CBO: num_boxes 2 */
/* lnl_uncore_cpu_init: the CBo count is 4, not read from 0x396; the
 * global control is MTL's cNCU box control, LNL_UNC_MSR_GLOBAL_CTL. */
#define LNL_UNC_MSR_GLOBAL_CTL    0x240Eu
#define LNL_CBOS                  4

/* Unit indexes (kept once released: records store them). Meteor Lake and
 * Arrow Lake (the IMC's programmable counters, adl_imcp.h, right after its
 * free-running ones): */
enum mtl_unit_id {
	MTL_UNIT_CBO, MTL_UNIT_ARB, MTL_UNIT_HAC_ARB, MTL_UNIT_HAC_CBO, MTL_UNIT_FIXED, MTL_UNIT_IMC, MTL_UNIT_IMCP,
	MTL_NUNITS
};
/* Lunar Lake (lnl_msr_uncores: cbox and arb; lnl_mmio_uncores: the IMC): */
enum lnl_unit_id { LNL_UNIT_CBO, LNL_UNIT_ARB, LNL_UNIT_IMC, LNL_UNIT_IMCP, LNL_NUNITS };

/* The facts in pmu_present.facts[] are enum adl_fact's; on Lunar Lake
 * ADL_FACT_CBO_CONFIG_ST is UNC_OK and 0x396 is not read. */

extern const struct pmu_driver pmu_driver_mtl, pmu_driver_arl, pmu_driver_lnl;

#endif
