/* skl_rec.c: the Skylake-client driver's rec_convert op (layout-1
 * records, which it alone wrote). */
#ifndef UNC_PMU_SKL_REC_H
#define UNC_PMU_SKL_REC_H

#include "../engine/pmu.h"

enum unc_status skl_rec_convert(const struct pmu_driver *drv, const struct rec_old *old, struct rec *r, char *err,
				size_t errsize);

#endif
