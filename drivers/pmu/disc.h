/* The uncore driver of Intel's discovery tables (Sapphire Rapids, Emerald
 * Rapids, Granite Rapids, Sierra Forest and any later Xeon that has them).
 * disc.c's header, the driver's own: only drivers/pmu/disc*.c and its tests
 * include it. The table parser is disc_table.h's, info's part disc_info.h's. */
#ifndef UNC_PMU_DISC_H
#define UNC_PMU_DISC_H

#include "../engine/pmu.h"
#include "disc_regs.h"
#include "disc_table.h"

extern const struct pmu_driver pmu_driver_disc;

#endif
