/* disc_info.c: what the discovery-table driver adds to `info`, and the
 * caveat of info's verdict (the driver's ops, disc.c, take both). */
#ifndef UNC_PMU_DISC_INFO_H
#define UNC_PMU_DISC_INFO_H

#include "../engine/pmu.h"
#include "disc_regs.h"
#include "disc_table.h"

void disc_info(struct out *o, const struct pmu_present *p, bool json);
/* What the counts lack (the tables against the packages), for info's
 * verdict; the probe's warning is the same. NULL: nothing. */
const char *disc_caveat(const struct pmu_present *p, char *buf, size_t size);

#endif
