/* The Skylake IMC: finding its free-running counters through MCHBAR
 * (Section 3.3), read only. MCHBAR is never enabled or written. */
#include "skl.h"

#include "../base/fmt.h"

enum imc_state imc_check(uint16_t vendor, uint64_t raw, unsigned phys_addr_bits, uint64_t *ret_base)
{
	*ret_base = raw & SKL_MCHBAR_MASK;
	if (vendor != 0x8086)
		return IMC_NOT_INTEL;
	if (!(raw & SKL_MCHBAR_ENABLE))
		return IMC_DISABLED;
	if (*ret_base == 0)
		return IMC_ZERO;
	if (phys_addr_bits < 64 && *ret_base >= (uint64_t)1 << phys_addr_bits)
		return IMC_HIGH;
	return IMC_OK;
}

UNC_COLD enum unc_status imc_discover(const struct hw *hw, const struct cpu_info *cpu, struct imc *m, char *err,
			     size_t errsize, char *warn, size_t warnsize)
{
	static const struct pci_addr hb = { 0, 0, 0 };
	uint32_t id, lo, hi;
	enum unc_status st;

	warn[0] = '\0';
	m->hb_st = m->mchbar_st = hw_pci_read32(hw, hb, 0, &id);
	if (m->hb_st == UNC_OK) {
		m->vendor = id & 0xffff;
		m->device = id >> 16;
		/* All ones: no device at 00:00.0, so no MCHBAR to read. */
		if (m->vendor == 0xffff) {
			m->mchbar_st = UNC_E_NOT_FOUND;
			fmt_snprintf(err, errsize, "PCI 00:00.0 is %04x:%04x, not an Intel host bridge: no IMC counters",
				     m->vendor, m->device);
			return UNC_E_UNSUPPORTED;
		}
		if ((m->mchbar_st = hw_pci_read32(hw, hb, SKL_MCHBAR_LO, &lo)) == UNC_OK)
			m->mchbar_st = hw_pci_read32(hw, hb, SKL_MCHBAR_HI, &hi);
	}
	if ((st = m->mchbar_st)) {
		fmt_snprintf(err, errsize, "cannot read the host bridge at PCI 00:00.0: %s", unc_strerror(st));
		return st;
	}
	m->generation = skl_host_bridge_name(m->vendor, m->device);
	m->mchbar_raw = (uint64_t)hi << 32 | lo;
	switch (imc_check(m->vendor, m->mchbar_raw, cpu->phys_addr_bits, &m->base)) {
	case IMC_NOT_INTEL:
		fmt_snprintf(err, errsize, "PCI 00:00.0 is %04x:%04x, not an Intel host bridge: no IMC counters",
			     m->vendor, m->device);
		return UNC_E_UNSUPPORTED;
	case IMC_DISABLED:
		fmt_snprintf(err, errsize,
			     "MCHBAR is disabled: 00:00.0 offsets 0x4C:0x48 read 0x%016lx (bit 0 clear); "
			     "uncore.efi never enables it",
			     (unsigned long)m->mchbar_raw);
		return UNC_E_UNSUPPORTED;
	case IMC_ZERO:
		fmt_snprintf(err, errsize, "MCHBAR base is zero: 00:00.0 offsets 0x4C:0x48 read 0x%016lx",
			     (unsigned long)m->mchbar_raw);
		return UNC_E_UNSUPPORTED;
	case IMC_HIGH:
		fmt_snprintf(err, errsize,
			     "MCHBAR base 0x%lx (00:00.0 offsets 0x4C:0x48 read 0x%016lx) is above the CPU's %u-bit "
			     "physical address width",
			     (unsigned long)m->base, (unsigned long)m->mchbar_raw, cpu->phys_addr_bits);
		return UNC_E_RANGE;
	case IMC_OK:
		break;
	}
	/* Nothing is read where the firmware maps no MMIO (hw.h, mmio_check). */
	char why[140];
	uint64_t first = m->base + skl_imc[0].offset, end = m->base + skl_imc[SKL_IMC_COUNTERS - 1].offset + 4;
	if ((st = hw_mmio_check(hw, first, end - first, why, sizeof(why)))) {
		fmt_snprintf(err, errsize, "IMC counters at MCHBAR 0x%lx + 0x%x refused: %s", (unsigned long)m->base,
			     skl_imc[0].offset, why);
		return st;
	}
	if (!m->generation)
		fmt_snprintf(warn, warnsize,
			     "host bridge 8086:%04x is not one uncore.efi knows (Skylake, Kaby, Coffee, Whiskey, Amber, "
			     "Comet Lake); reading its IMC counters anyway",
			     m->device);
	return UNC_OK;
}
