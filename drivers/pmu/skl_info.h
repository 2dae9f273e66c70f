/* skl_info.c: what the Skylake-client driver adds to `info`, and the
 * names of its host bridges (the driver's ops, skl.c, take both). */
#ifndef UNC_PMU_SKL_INFO_H
#define UNC_PMU_SKL_INFO_H

#include "../engine/pmu.h"

void skl_info(struct out *o, const struct pmu_present *p, bool json);

/* The generation of a Skylake-client-uncore host bridge (0:0.0 device ID)
 * as Linux's uncore_snb.c matches them ("Skylake", "Kaby Lake", ...), or
 * NULL for an ID it does not list. */
const char *skl_host_bridge_name(uint16_t vendor, uint16_t device);

#endif
