/* How a PMU is described: units of identical boxes as data, behaviour in ops.
 *
 * A new PMU (the P6 core PMU, the Xeon E5 iMC in PCI space, the Knights
 * Corner core PMU) is a new `struct pmu_driver` with its own unit table; the
 * address arithmetic below is shared by all MSR-based units. */
#ifndef UNC_PMU_H
#define UNC_PMU_H

#include <stdbool.h>
#include <stdint.h>
#include "cpu.h"

struct pmu_unit {
	const char *name;     /* as in the manual's register names: "CBO", "ARB" */
	uint8_t counters;     /* per box */
	uint8_t width;        /* counter width in bits */
	uint8_t max_boxes;    /* architectural maximum; the live count may be lower */
	uint32_t sel_base;    /* first event-select MSR of box 0 */
	uint32_t ctr_base;    /* first counter MSR of box 0 */
	uint32_t box_stride;  /* MSR distance between boxes (0: a single box) */
	/* One box may sit apart from the stride (0: none does): box `apart_box`
	 * has its first select at apart_sel and its first counter at apart_ctr,
	 * each further counter following the first. */
	uint8_t apart_box;
	uint32_t apart_sel, apart_ctr;
	uint64_t sel_rw_mask; /* event-select bits that are not reserved */
	/* The fastest any of its counters can move, per second and box. A
	 * step between two samples beyond what this allows in the time
	 * between them is no wrap: someone else wrote the counter. */
	uint64_t max_per_sec;
	bool clock;           /* counts a clock: it cannot stay still while the PMU counts */
};

static inline uint32_t pmu_unit_sel(const struct pmu_unit *u, unsigned box, unsigned idx)
{
	if (u->apart_sel && box == u->apart_box)
		return u->apart_sel + idx;
	return u->sel_base + box * u->box_stride + idx;
}

static inline uint32_t pmu_unit_ctr(const struct pmu_unit *u, unsigned box, unsigned idx)
{
	if (u->apart_ctr && box == u->apart_box)
		return u->apart_ctr + idx;
	return u->ctr_base + box * u->box_stride + idx;
}

static inline uint64_t pmu_unit_ctr_mask(const struct pmu_unit *u)
{
	return u->width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << u->width) - 1;
}

struct pmu_model {
	uint32_t family, model;
	const char *name;
};

struct pmu_driver {
	const char *name;
	const struct pmu_model *models; /* terminated by a zero family */
	const struct pmu_unit *units;
	unsigned nunits;
};

/* The model entry that matches this CPU, or NULL. Intel only. */
const struct pmu_model *pmu_match_model(const struct pmu_driver *drv, const struct cpu_info *cpu);

#endif
