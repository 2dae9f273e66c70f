#include "pmu.h"

const struct pmu_model *pmu_match_model(const struct pmu_driver *drv, const struct cpu_info *cpu)
{
	if (!cpu->is_intel)
		return 0;
	for (const struct pmu_model *m = drv->models; m->family; m++)
		if (m->family == cpu->family && m->model == cpu->model)
			return m;
	return 0;
}
