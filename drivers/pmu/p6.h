/* The P6-family core PMU (Pentium Pro, Pentium II, Celeron, Pentium III):
 * the events of the MMX Technology Developer's Guide's Table 6-2 and the
 * programming model of Intel's SDM Vol. 3B, "Performance Monitoring (P6
 * Family Processor)". The driver's own header: only drivers/pmu/p6.c and
 * its tests include it. */
#ifndef UNC_PMU_P6_H
#define UNC_PMU_P6_H

#include "../engine/pmu.h"

/* SDM Vol. 3B, P6 family: PerfEvtSel0/1 and PerfCtr0/1 (the MSR table
 * "MSRs in the P6 Family Processors": EVNTSEL0/1 186H/187H, PERFCTR0/1
 * C1H/C2H). */
#define P6_PERFEVTSEL0 0x186u
#define P6_PERFEVTSEL1 0x187u
#define P6_PERFCTR0    0xC1u
#define P6_PERFCTR1    0xC2u
#define P6_CTR_WIDTH   40

/* PerfEvtSel bits: USR 16, OS 17, E 18, PC 19, INT 20, EN 22 (PerfEvtSel0
 * only), INV 23, CMASK 31:24. */
#define P6_SEL_USR (1ull << 16)
#define P6_SEL_OS  (1ull << 17)
#define P6_SEL_EN  (1ull << 22)

extern const struct pmu_driver pmu_driver_p6;

#endif
