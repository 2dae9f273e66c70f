/* The programmable IMC counters of Alder Lake and later client parts
 * (adl_imcp.h): after Linux uncore_snb.c adl_uncore_imc and
 * adl_uncore_mmio_ops. Box control bit 0 freezes a box and 0 lets it count
 * (adl_uncore_mmio_disable_box / enable_box); each event control takes the
 * event as given, with no enable bit (intel_generic_uncore_mmio_enable_event);
 * the counters are 64 bits, read as two dwords, and never written (Linux
 * writes none). Linux's init_box writes RST_CTRL | RST_CTRS (0x6) to MC1's
 * global control once; the run does not (adl.md): it writes every event
 * control itself (through the journal, which puts each back at the end)
 * and counts from the counters' values as read. */
#include "adl_imcp.h"

#include "../base/fmt.h"

const struct pmu_layout adl_imcp_layout = {
	.event = { 0, 8 },
	.umask = { 8, 4 },
	.edge = 1ull << 18,
	.rw_mask = 0x40FFFull,
	.cite = "uncore_snb.c ADL_UNC_IMC_EVENT_MASK",
	.umask_term = "chmask",
};

UNC_COLD bool adl_imcp_place(struct pmu_present *p, unsigned unit, uint64_t mchbar, unsigned phys_bits, char *err,
		    size_t errsize)
{
	uint64_t base = mchbar + ADL_IMCP_BASE, end = base + (ADL_IMCP_BOXES - 1) * ADL_IMCP_MC_STRIDE + ADL_IMCP_MAP_SIZE;

	p->probed |= 1u << unit;
	if (phys_bits < 64 && end > (uint64_t)1 << phys_bits) {
		fmt_snprintf(err, errsize, "programmable IMC counters at 0x%lx are above the CPU's %u-bit physical address width",
			     (unsigned long)base, phys_bits);
		return false;
	}
	p->base[unit] = base;
	p->found[unit] = p->boxes[unit] = ADL_IMCP_BOXES;
	return true;
}

UNC_COLD struct pmu_reg adl_imcp_global(const struct pmu_present *p, unsigned unit)
{
	return (struct pmu_reg){ .space = PMU_MMIO,
				 .addr = p->base[unit] + ADL_IMCP_GLOBAL_BOX * ADL_IMCP_MC_STRIDE + ADL_IMCP_GLOBAL_CTL };
}

UNC_COLD void adl_imcp_in_use(const struct hw *hw, const struct pmu_present *p, unsigned unit, struct pmu_use *r,
			      void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	const struct pmu_unit *u = &p->drv->units[unit];

	for (unsigned b = 0; b < p->boxes[unit]; b++)
		for (unsigned i = 0; i < u->counters; i++) {
			struct pmu_reg reg = pmu_unit_sel(u, p, unit, b, i);
			uint32_t v;

			if (!pmu_use_read(r, reg, hw_mmio_read32(hw, reg.addr, &v), on_fault, ctx))
				continue;
			r->selects_checked++;
			if (v)
				pmu_use_busy(r, reg, v);
		}
}

UNC_COLD static enum unc_status box_write(struct pmu_io *io, const struct pmu_present *p, unsigned unit, uint64_t v, bool verify)
{
	const struct pmu_unit *u = &p->drv->units[unit];
	enum unc_status st;

	for (unsigned b = 0; b < p->boxes[unit]; b++) {
		struct pmu_reg ctl = pmu_unit_box_ctl(u, p, unit, b);
		if ((st = verify ? pmu_io_write_check(io, ctl, v) : pmu_io_write(io, ctl, v)))
			return st;
	}
	return UNC_OK;
}

UNC_COLD enum unc_status adl_imcp_freeze(struct pmu_io *io, const struct pmu_present *p, unsigned unit)
{
	return box_write(io, p, unit, ADL_IMCP_CTL_FRZ, false);
}

UNC_COLD enum unc_status adl_imcp_unfreeze(struct pmu_io *io, const struct pmu_present *p, unsigned unit, bool verify)
{
	return box_write(io, p, unit, 0, verify);
}

enum unc_status adl_imcp_check(struct pmu_io *io, const struct pmu_present *p, unsigned unit)
{
	const struct pmu_unit *u = &p->drv->units[unit];
	enum unc_status st;
	uint64_t v;

	for (unsigned b = 0; b < p->boxes[unit]; b++) {
		struct pmu_reg ctl = pmu_unit_box_ctl(u, p, unit, b);
		if ((st = pmu_io_read(io, ctl, &v)))
			return st;
		if (v)
			return pmu_io_fail(io, UNC_E_CLOBBERED,
					   "the MC%u IMC box control (0x%lx) reads 0x%lx, not the 0 this run wrote: written by "
					   "someone else during the run",
					   b, (unsigned long)ctl.addr, (unsigned long)v);
	}
	return UNC_OK;
}

UNC_COLD const char *adl_imcp_reg_name(const struct pmu_present *p, unsigned unit, struct pmu_reg reg, char *buf,
				       size_t size)
{
	const struct pmu_unit *u = &p->drv->units[unit];

	if (reg.space != PMU_MMIO || !p->boxes[unit] || reg.addr < p->base[unit])
		return NULL;
	uint64_t off = reg.addr - p->base[unit];
	unsigned b = (unsigned)(off / ADL_IMCP_MC_STRIDE);
	uint32_t r = (uint32_t)(off % ADL_IMCP_MC_STRIDE);

	if (b >= p->boxes[unit])
		return NULL;
	if (r == ADL_IMCP_BOX_CTL || (r == ADL_IMCP_GLOBAL_CTL && b == ADL_IMCP_GLOBAL_BOX))
		fmt_snprintf(buf, size, "ADL_UNCORE_IMC_%s (MC%u)", r == ADL_IMCP_BOX_CTL ? "BOX_CTL" : "GLOBAL_CTL", b);
	else if (r >= ADL_IMCP_CTRL && r < ADL_IMCP_CTRL + 4u * u->counters && !(r & 3))
		fmt_snprintf(buf, size, "ADL_UNCORE_IMC_CTRL%u (MC%u)", (r - ADL_IMCP_CTRL) / 4, b);
	else if (r >= ADL_IMCP_CTR && r < ADL_IMCP_CTR + 8u * u->counters && !(r & 3))
		fmt_snprintf(buf, size, "ADL_UNCORE_IMC_CTR%u%s (MC%u)", (r - ADL_IMCP_CTR) / 8, r & 4 ? "[63:32]" : "", b);
	else
		return NULL;
	return buf;
}
