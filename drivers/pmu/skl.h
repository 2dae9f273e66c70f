/* skl.c: the 6th-generation Intel Core (Skylake-client) uncore driver,
 * pmu_driver_skl, and what it defines for the others: the CBo count rule,
 * the register names, the IMC's counters (which Ice Lake and Rocket Lake
 * share, icl.c). Only drivers/pmu/ and the tests include it. */
#ifndef UNC_PMU_SKL_H
#define UNC_PMU_SKL_H

#include "../engine/pmu.h"
#include "skl_regs.h"

extern const struct pmu_driver pmu_driver_skl;

/* Section 2.4.1: "read this register and subtract one". A raw field of 0
 * would give -1; it is reported as 0 CBos (and flagged by the caller). The
 * result is not capped: see SKL_MAX_CBO for how many can be programmed. */
unsigned skl_cbo_count_from_raw(unsigned no_cbo_banks);

/* Names an uncore MSR as the manual does ("MSR_UNC_CBO_2_PERFEVTSEL1"), or
 * returns NULL for an address outside Table 2-1. */
const char *skl_msr_name(uint32_t msr, char *buf, size_t size);

/* Table 3-3: the IMC's free-running 32-bit counters, at MCHBAR + offset
 * (SKL_IMC_FIRST ... SKL_IMC_END). */
extern const struct pmu_free skl_imc[SKL_IMC_COUNTERS];

#endif
