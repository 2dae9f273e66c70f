#include "cpu.h"

#include <string.h>

static void put_regs(char *dst, const struct cpuid_regs *r)
{
	memcpy(dst + 0, &r->eax, 4);
	memcpy(dst + 4, &r->ebx, 4);
	memcpy(dst + 8, &r->ecx, 4);
	memcpy(dst + 12, &r->edx, 4);
}

/* Leaf 0xB: walk the levels; type 1 = SMT, type 2 = core (SDM Vol. 2A, CPUID). */
static bool topology_leaf_b(const struct hw *hw, struct cpu_info *ci)
{
	unsigned per_core = 0, per_pkg = 0;

	for (uint32_t level = 0; level < 8; level++) {
		struct cpuid_regs r;

		hw_cpuid(hw, 0xB, level, &r);
		unsigned type = (r.ecx >> 8) & 0xff, count = r.ebx & 0xffff;
		if (type == 0)
			break;
		if (type == 1)
			per_core = count;
		else if (type == 2)
			per_pkg = count;
	}
	if (!per_core || !per_pkg || per_pkg < per_core)
		return false;
	ci->threads = per_pkg;
	ci->cores = per_pkg / per_core;
	ci->topology_source = "CPUID leaf 0xB";
	return true;
}

void cpu_identify(const struct hw *hw, struct cpu_info *ci)
{
	struct cpuid_regs r;

	memset(ci, 0, sizeof(*ci));
	ci->topology_source = "unknown";
	ci->phys_addr_bits = 36;

	hw_cpuid(hw, 0, 0, &r);
	ci->max_leaf = r.eax;
	memcpy(ci->vendor + 0, &r.ebx, 4);
	memcpy(ci->vendor + 4, &r.edx, 4);
	memcpy(ci->vendor + 8, &r.ecx, 4);
	ci->is_intel = memcmp(ci->vendor, "GenuineIntel", 12) == 0;

	if (ci->max_leaf >= 1) {
		hw_cpuid(hw, 1, 0, &r);
		uint32_t base_family = (r.eax >> 8) & 0xf, base_model = (r.eax >> 4) & 0xf;
		ci->stepping = r.eax & 0xf;
		ci->family = base_family;
		if (base_family == 0xf)
			ci->family += (r.eax >> 20) & 0xff;
		ci->model = base_model;
		if (base_family == 0x6 || base_family == 0xf)
			ci->model |= ((r.eax >> 16) & 0xf) << 4;
		ci->hypervisor = (r.ecx >> 31) & 1;
		if (r.edx & (1u << 28)) /* HTT: EBX[23:16] is meaningful */
			ci->threads = (r.ebx >> 16) & 0xff;
		else
			ci->threads = 1;
	}

	if (!(ci->max_leaf >= 0xB && topology_leaf_b(hw, ci)) && ci->max_leaf >= 4) {
		hw_cpuid(hw, 4, 0, &r);
		if (r.eax & 0x1f) { /* cache type 0 means no leaf-4 data */
			ci->cores = ((r.eax >> 26) & 0x3f) + 1;
			if (ci->threads < ci->cores)
				ci->threads = ci->cores;
			ci->topology_source = "CPUID leaves 1 and 4";
		}
	}
	if (!ci->cores)
		ci->threads = 0;

	hw_cpuid(hw, 0x80000000, 0, &r);
	ci->max_ext_leaf = r.eax >= 0x80000000 && r.eax < 0x8000ffff ? r.eax : 0;
	if (ci->max_ext_leaf >= 0x80000004) {
		for (uint32_t i = 0; i < 3; i++) {
			hw_cpuid(hw, 0x80000002 + i, 0, &r);
			put_regs(ci->brand + 16 * i, &r);
		}
		ci->brand[48] = '\0';
		/* Intel pads the brand string with leading spaces; drop them. */
		size_t lead = 0;
		while (ci->brand[lead] == ' ')
			lead++;
		memmove(ci->brand, ci->brand + lead, sizeof(ci->brand) - lead);
		size_t n = strlen(ci->brand);
		while (n && ci->brand[n - 1] == ' ')
			ci->brand[--n] = '\0';
	}
	if (ci->max_ext_leaf >= 0x80000008) {
		hw_cpuid(hw, 0x80000008, 0, &r);
		if (r.eax & 0xff)
			ci->phys_addr_bits = r.eax & 0xff;
	}
}

bool cpu_tsc_steady(const struct cpu_info *ci, bool invariant)
{
	return invariant || (ci->family == 6 && ci->model >= 0x0E) || (ci->family == 0xF && ci->model >= 3);
}

uint64_t cpu_llc_bytes(const struct hw *hw)
{
	struct cpuid_regs r;
	uint64_t best = 0;

	hw_cpuid(hw, 0, 0, &r);
	if (r.eax < 4) /* above the highest leaf, CPUID answers with the highest one */
		return 0;
	for (uint32_t i = 0; i < 16; i++) {
		hw_cpuid(hw, 4, i, &r);
		if ((r.eax & 0x1f) == 0) /* cache type 0: no more caches */
			break;
		uint64_t size = (uint64_t)((r.ebx >> 22) + 1) * (((r.ebx >> 12) & 0x3ff) + 1) * ((r.ebx & 0xfff) + 1) *
				((uint64_t)r.ecx + 1);
		if (size > best)
			best = size;
	}
	return best;
}

unsigned cpu_pkg_shift(const struct hw *hw, const char **how)
{
	struct cpuid_regs r;
	uint32_t max;

	hw_cpuid(hw, 0, 0, &r);
	max = r.eax;
	for (unsigned k = 0; k < 2; k++) {
		uint32_t leaf = k ? 0xB : 0x1F;
		unsigned shift = 0;
		bool any = false;
		if (max < leaf)
			continue;
		for (uint32_t level = 0; level < 8; level++) {
			hw_cpuid(hw, leaf, level, &r);
			if (((r.ecx >> 8) & 0xFF) == 0) /* level type 0: past the last */
				break;
			shift = r.eax & 0x1F, any = true;
		}
		if (any) {
			*how = leaf == 0x1F ? "CPUID leaf 0x1F" : "CPUID leaf 0xB";
			return shift;
		}
	}
	*how = "CPUID leaves 1 and 4";
	if (max < 1)
		return 0;
	hw_cpuid(hw, 1, 0, &r);
	unsigned ids = r.edx & (1u << 28) ? (r.ebx >> 16) & 0xFF : 1, shift = 0;
	while ((1u << shift) < ids)
		shift++;
	return shift;
}
