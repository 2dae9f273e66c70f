/* The one MCHBAR reader of the client drivers (mchbar.h). */
#include "mchbar.h"

#include "../base/fmt.h"

#define MASK_38_15 0x7FFFFF8000ull
#define MASK_38_16 0x7FFFFF0000ull
#define MASK_41_17 0x3FFFFFE0000ull

/* The base field per model (intel-family.h's model numbers): Skylake
 * client and its successors to Comet Lake, Intel 334060-001 Section 3.3
 * (bits 38:15); chipsec's chipsec/cfg/8086 files for the later ones:
 * icl.xml and rkl.xml, hostctl1.xml (Alder Lake), mtl.xml and lnl.xml (bits
 * 38:16; in chipsec's tree up to 386b4e42); hostctl11gen.xml (Tiger Lake),
 * hostctl13gen.xml (Raptor Lake), arl.xml and arlh.xml (bits 41:17). */
static const struct {
	uint8_t model;
	uint64_t mask;
} masks[] = {
	{ 0x4E, MASK_38_15 }, { 0x5E, MASK_38_15 }, { 0x8E, MASK_38_15 }, { 0x9E, MASK_38_15 }, /* SKL, KBL, CFL */
	{ 0xA5, MASK_38_15 }, { 0xA6, MASK_38_15 },                                             /* CML */
	{ 0x7D, MASK_38_16 }, { 0x7E, MASK_38_16 }, { 0x9D, MASK_38_16 },                       /* ICL */
	{ 0xA7, MASK_38_16 },                                                                   /* RKL */
	{ 0x97, MASK_38_16 }, { 0x9A, MASK_38_16 }, { 0xBE, MASK_38_16 },                       /* ADL */
	{ 0xAA, MASK_38_16 }, { 0xAC, MASK_38_16 },                                             /* MTL */
	{ 0xBD, MASK_38_16 },                                                                   /* LNL */
	{ 0x8C, MASK_41_17 }, { 0x8D, MASK_41_17 },                                             /* TGL */
	{ 0xB7, MASK_41_17 }, { 0xBA, MASK_41_17 }, { 0xBF, MASK_41_17 },                       /* RPL */
	{ 0xC5, MASK_41_17 }, { 0xC6, MASK_41_17 }, { 0xB5, MASK_41_17 },                       /* ARL */
};

UNC_COLD uint64_t mchbar_mask(uint32_t model)
{
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++)
		if (masks[i].model == model)
			return masks[i].mask;
	return 0;
}

UNC_COLD enum mchbar_state mchbar_judge(uint16_t vendor, uint64_t raw, uint64_t mask, unsigned phys_addr_bits,
					uint64_t *ret_base)
{
	*ret_base = raw & mask;
	if (vendor != 0x8086)
		return MCHBAR_NOT_INTEL;
	if (!(raw & MCHBAR_ENABLE))
		return MCHBAR_DISABLED;
	if (*ret_base == 0)
		return MCHBAR_ZERO;
	if (phys_addr_bits < 64 && *ret_base >= (uint64_t)1 << phys_addr_bits)
		return MCHBAR_HIGH;
	return MCHBAR_OK;
}

UNC_COLD enum unc_status mchbar_read(const struct hw *hw, const struct cpu_info *cpu, const struct mchbar_imc *imc,
				    struct mchbar *m, char *err, size_t errsize, char *warn, size_t warnsize)
{
	static const struct pci_addr hb = { 0, 0, 0 };
	uint32_t id = 0, lo = 0, hi = 0;
	enum unc_status st;

	warn[0] = '\0';
	*m = (struct mchbar){ .mask = mchbar_mask(cpu->model) };
	m->hb_st = m->st = hw_pci_read32(hw, hb, 0, &id);
	if (m->hb_st == UNC_OK) {
		m->vendor = id & 0xffff;
		m->device = (uint16_t)(id >> 16);
		/* All ones: no device at 00:00.0, so no MCHBAR to read. */
		if (m->vendor == 0xffff)
			m->st = UNC_E_NOT_FOUND;
		else if ((m->st = hw_pci_read32(hw, hb, MCHBAR_LO, &lo)) == UNC_OK)
			m->st = hw_pci_read32(hw, hb, MCHBAR_HI, &hi);
	}
	m->raw = (uint64_t)hi << 32 | lo;
	if (m->hb_st == UNC_OK && m->vendor == 0xffff) {
		fmt_snprintf(err, errsize, "PCI 00:00.0 is %04x:%04x, not an Intel host bridge: no IMC counters",
			     m->vendor, m->device);
		return UNC_E_UNSUPPORTED;
	}
	if ((st = m->st)) {
		fmt_snprintf(err, errsize, "cannot read the host bridge at PCI 00:00.0: %s", unc_strerror(st));
		return st;
	}
	if (!m->mask) {
		fmt_snprintf(err, errsize, "no MCHBAR base field is known for CPU model 0x%x: no IMC counters",
			     cpu->model);
		return UNC_E_UNSUPPORTED;
	}
	switch (mchbar_judge(m->vendor, m->raw, m->mask, cpu->phys_addr_bits, &m->base)) {
	case MCHBAR_NOT_INTEL:
		fmt_snprintf(err, errsize, "PCI 00:00.0 is %04x:%04x, not an Intel host bridge: no IMC counters",
			     m->vendor, m->device);
		return UNC_E_UNSUPPORTED;
	case MCHBAR_DISABLED:
		fmt_snprintf(err, errsize,
			     "MCHBAR is disabled: 00:00.0 offsets 0x4C:0x48 read 0x%016lx (bit 0 clear); "
			     "uncore.efi never enables it",
			     (unsigned long)m->raw);
		return UNC_E_UNSUPPORTED;
	case MCHBAR_ZERO:
		fmt_snprintf(err, errsize, "MCHBAR base is zero: 00:00.0 offsets 0x4C:0x48 read 0x%016lx",
			     (unsigned long)m->raw);
		return UNC_E_UNSUPPORTED;
	case MCHBAR_HIGH:
		fmt_snprintf(err, errsize,
			     "MCHBAR base 0x%lx (00:00.0 offsets 0x4C:0x48 read 0x%016lx) is above the CPU's %u-bit "
			     "physical address width",
			     (unsigned long)m->base, (unsigned long)m->raw, cpu->phys_addr_bits);
		return UNC_E_RANGE;
	case MCHBAR_OK:
		break;
	}
	uint64_t first = m->base + imc->first, end = m->base + imc->end;
	if (cpu->phys_addr_bits < 64 && end > (uint64_t)1 << cpu->phys_addr_bits) {
		fmt_snprintf(err, errsize,
			     "IMC counters at MCHBAR 0x%lx + 0x%x end above the CPU's %u-bit physical address width",
			     (unsigned long)m->base, imc->first, cpu->phys_addr_bits);
		return UNC_E_RANGE;
	}
	/* Nothing is read where the firmware maps no MMIO (hw.h, mmio_check). */
	char why[140];
	if ((st = hw_mmio_check(hw, first, end - first, why, sizeof(why)))) {
		fmt_snprintf(err, errsize, "IMC counters at MCHBAR 0x%lx + 0x%x refused: %s", (unsigned long)m->base,
			     imc->first, why);
		return st;
	}
	if (!imc->name(m->vendor, m->device))
		fmt_snprintf(warn, warnsize,
			     "host bridge 8086:%04x is not one uncore.efi knows (%s); reading its IMC counters anyway",
			     m->device, imc->known);
	return UNC_OK;
}
