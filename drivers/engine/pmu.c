#include "pmu.h"

#include <string.h>

#include "../base/parse.h"
#include "../base/pool.h"

const struct pmu_model *pmu_match_model(const struct pmu_driver *drv, const struct hw *hw, const struct cpu_info *cpu)
{
	if (drv->match)
		return drv->match(hw, cpu);
	if (strcmp(cpu->vendor, drv->vendor))
		return 0;
	for (const struct pmu_model *m = drv->models; m->family; m++)
		if (m->family == cpu->family && m->model == cpu->model)
			return m;
	return 0;
}

/* One block per unit: box_base first (8-byte aligned), then pci, group and
 * box_id, each `room` long. Grown by doubling, what it held copied. */
enum unc_status pmu_present_room(struct pmu_present *p, unsigned unit, unsigned n)
{
	if (unit >= PMU_MAX_UNITS)
		return UNC_E_INVALID;
	if (n <= p->room[unit])
		return UNC_OK;
	unsigned room = p->room[unit] ? p->room[unit] : 8, was = p->room[unit];
	while (room < n)
		room *= 2;
	uint8_t *m = unc_alloc((size_t)room * (sizeof(uint64_t) + sizeof(struct pci_addr) + 2));
	if (!m)
		return UNC_E_NO_MEMORY;
	uint64_t *base = (uint64_t *)(void *)m;
	struct pci_addr *pci = (struct pci_addr *)(void *)(m + (size_t)room * sizeof(uint64_t));
	uint8_t *group = (uint8_t *)(pci + room), *id = group + room;
	if (was) {
		memcpy(base, p->box_base[unit], was * sizeof(*base));
		memcpy(pci, p->pci[unit], was * sizeof(*pci));
		memcpy(group, p->group[unit], was);
		memcpy(id, p->box_id[unit], was);
		unc_free(p->box_base[unit]);
	}
	p->box_base[unit] = base, p->pci[unit] = pci, p->group[unit] = group, p->box_id[unit] = id;
	p->room[unit] = room;
	return UNC_OK;
}

void pmu_present_free(struct pmu_present *p)
{
	for (unsigned u = 0; u < PMU_MAX_UNITS; u++) {
		unc_free(p->box_base[u]);
		p->box_base[u] = NULL, p->pci[u] = NULL, p->group[u] = p->box_id[u] = NULL;
		p->room[u] = 0;
	}
}

static struct cpu_info events_cpu;
static bool events_cpu_set;
unsigned pmu_events_gen;

void pmu_events_cpu(const struct cpu_info *cpu)
{
	events_cpu_set = cpu != NULL;
	if (cpu)
		events_cpu = *cpu;
	pmu_events_gen++;
}

const struct event_desc *pmu_events(const struct pmu_driver *drv, unsigned *n, const uint16_t **by_hash)
{
	const struct event_table *t = drv->events_for && events_cpu_set ? drv->events_for(&events_cpu) : NULL;

	if (by_hash)
		*by_hash = t ? t->by_hash : NULL;
	*n = t ? t->count : *drv->nevents;
	return t ? t->events : drv->events;
}

static struct pmu_reg unit_reg(const struct pmu_unit *u, const struct pmu_present *p, unsigned unit, unsigned box,
			       unsigned idx, bool sel)
{
	if (u->probe_addr) {
		struct pmu_reg r = pmu_unit_box_ctl(u, p, unit, box);
		if (p && unit < PMU_MAX_UNITS)
			r.addr += sel ? p->sel_off[unit] : p->ctr_off[unit];
		r.addr += idx * (uint64_t)(sel ? u->sel_step : u->ctr_step);
		return r;
	}
	const uint64_t *list = sel ? u->box_sel : u->box_ctr;
	uint64_t first = list ? list[box] : (sel ? u->sel_base : u->ctr_base) + box * u->box_stride;
	struct pmu_reg r = { .space = u->space, .addr = first + idx * (uint64_t)(sel ? u->sel_step : u->ctr_step) };

	if (u->space == PMU_PCI && p && unit < PMU_MAX_UNITS && box < p->room[unit])
		r.pci = p->pci[unit][box];
	if (u->space == PMU_MMIO && p && unit < PMU_MAX_UNITS)
		r.addr += p->base[unit];
	return r;
}

/* A per-package unit's box: on its package (pmu_reg_pkg). */
static struct pmu_reg on_pkg(struct pmu_reg r, const struct pmu_unit *u, const struct pmu_present *p, unsigned unit,
			     unsigned box)
{
	if (u->per_pkg && r.space == PMU_MSR && p && unit < PMU_MAX_UNITS && box < p->room[unit])
		r.pci = (struct pci_addr){ .bus = (uint8_t)(p->group[unit][box] + 1) };
	return r;
}

static struct pmu_reg box_ctl(const struct pmu_unit *u, const struct pmu_present *p, unsigned unit, unsigned box);

struct pmu_reg pmu_unit_box_ctl(const struct pmu_unit *u, const struct pmu_present *p, unsigned unit, unsigned box)
{
	return on_pkg(box_ctl(u, p, unit, box), u, p, unit, box);
}

static struct pmu_reg box_ctl(const struct pmu_unit *u, const struct pmu_present *p, unsigned unit, unsigned box)
{
	struct pmu_reg r = { .space = u->space, .addr = u->box_ctl + box * u->box_stride };

	if (u->probe_addr) {
		r.addr = p && unit < PMU_MAX_UNITS && box < p->room[unit] ? p->box_base[unit][box] : 0;
		if (u->space == PMU_PCI && p && unit < PMU_MAX_UNITS && box < p->room[unit])
			r.pci = p->pci[unit][box];
		return r;
	}
	if (u->space == PMU_PCI && p && unit < PMU_MAX_UNITS && box < p->room[unit])
		r.pci = p->pci[unit][box];
	if (u->space == PMU_MMIO && p && unit < PMU_MAX_UNITS)
		r.addr += p->base[unit];
	return r;
}

struct pmu_reg pmu_unit_sel(const struct pmu_unit *u, const struct pmu_present *p, unsigned unit, unsigned box,
			    unsigned idx)
{
	return on_pkg(unit_reg(u, p, unit, box, idx, true), u, p, unit, box);
}

struct pmu_reg pmu_unit_ctr(const struct pmu_unit *u, const struct pmu_present *p, unsigned unit, unsigned box,
			    unsigned idx)
{
	if (u->kind == PMU_FREE) {
		struct pmu_reg r = { .space = u->space, .addr = u->free[idx].offset };
		if (p && unit < PMU_MAX_UNITS) {
			r.addr += p->base[unit];
			if (p->room[unit])
				r.pci = p->pci[unit][0];
		}
		return r;
	}
	return on_pkg(unit_reg(u, p, unit, box, idx, false), u, p, unit, box);
}

const char *pmu_reg_addr(struct pmu_reg reg, char *buf, size_t size)
{
	if (reg.space == PMU_PCI)
		fmt_snprintf(buf, size, "%02x:%02x.%x+0x%lx", reg.pci.bus, reg.pci.dev, reg.pci.func,
			     (unsigned long)reg.addr);
	else
		fmt_snprintf(buf, size, "0x%lx", (unsigned long)reg.addr);
	return buf;
}

const char *pmu_reg_name(const struct pmu_driver *drv, const struct pmu_present *p, struct pmu_reg reg, char *buf,
			 size_t size)
{
	const char *n = drv && drv->ops->reg_name ? drv->ops->reg_name(p, reg, buf, size) : NULL;

	return n ? n : "?";
}

int pmu_unit_by_name(const struct pmu_driver *drv, const char *name)
{
	for (unsigned u = 0; u < drv->nunits; u++) {
		const struct pmu_unit *pu = &drv->units[u];
		if (str_ieq(pu->pmu, name) || (pu->alias && str_ieq(pu->alias, name)))
			return (int)u;
	}
	return -1;
}

/* Intel's core-event files give no Unit at all: a general and a fixed unit
 * may then share one intel_unit (""), and the event's Counter decides
 * (FIXED or "Fixed counter N": the fixed unit; else the other). */
int pmu_unit_of_event(const struct pmu_driver *drv, const struct event_desc *d)
{
	int first = -1;

	for (unsigned u = 0; u < drv->nunits; u++) {
		const struct pmu_unit *pu = &drv->units[u];
		if (!pu->intel_unit || !str_ieq(pu->intel_unit, d->unit)) /* Intel's files: iMC (SPR), IMC (GNR) */
			continue;
		if ((pu->kind == PMU_FIXED) == ((d->counters & EV_COUNTER_FIXED) != 0))
			return (int)u;
		if (first < 0)
			first = (int)u;
	}
	return first;
}

UNC_COLD bool pmu_use_read(struct pmu_use *r, struct pmu_reg reg, enum unc_status st,
			   void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	if (st == UNC_OK)
		return true;
	r->known = false;
	if (on_fault)
		on_fault(ctx, reg);
	return false;
}

UNC_COLD void pmu_use_busy(struct pmu_use *r, struct pmu_reg reg, uint64_t v)
{
	r->in_use = true;
	if (r->nbusy < PMU_MAX_BUSY)
		r->busy[r->nbusy++] = (struct pmu_busy){ reg, v };
}
