/* The Knights Corner (Intel Xeon Phi coprocessor) core PMU: Intel
 * 327357-001JA, "Knights Corner Performance Monitoring Units" (Japanese,
 * revision 1.01). Register names and addresses are those of Table 1-2. The
 * driver's own header: only drivers/pmu/knc*.c and its tests include it. */
#ifndef UNC_PMU_KNC_H
#define UNC_PMU_KNC_H

#include "../engine/pmu.h"

#define MSR_KNC_PERFCNT0            0x20u /* IA32_PerfCnt0, 40 bits (Table 1-4) */
#define MSR_KNC_PERFCNT1            0x21u
#define MSR_KNC_PERFEVTSEL0         0x28u /* IA32_PerfEvtSel0, 32 bits (Table 1-5) */
#define MSR_KNC_PERFEVTSEL1         0x29u
#define MSR_KNC_SPFLT_CONTROL       0x2Cu /* PERF_SPFLT_CONTROL, RW (Table 1-7) */
#define MSR_KNC_PERF_GLOBAL_STATUS  0x2Du /* IA32_PERF_GLOBAL_STATUS, RO (Table 1-8) */
#define MSR_KNC_PERF_GLOBAL_OVF_CTRL 0x2Eu /* IA32_PERF_GLOBAL_OVF_CTRL, WO (Table 1-9) */
#define MSR_KNC_PERF_GLOBAL_CTRL    0x2Fu /* IA32_PERF_GLOBAL_CTRL, RW (Table 1-10) */

/* Tables 1-8, 1-9 and 1-10: bit n is counter n in STATUS, OVF_CTRL and
 * GLOBAL_CTRL alike. */
#define KNC_COUNTERS_MASK 0x3ull
/* Table 1-7: bits 1:0 make SPFLT (the user preference, bit 63) gate
 * counter 1 and 0. */
#define KNC_SPFLT_GATE    0x3ull

extern const struct pmu_driver pmu_driver_knc;

#endif
