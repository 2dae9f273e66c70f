/* What the architectural core PMU driver adds to `info`: CPUID leaf 0xA
 * decoded, the unavailable events, and how counters are written and read. */
#include "arch.h"

#include "../base/fmt.h"

void arch_info(struct out *o, const struct pmu_present *p, bool json);

static const char *read_path(const struct pmu_present *p)
{
	switch ((enum unc_status)p->facts[ARCH_FACT_RDPMC_ST]) {
	case UNC_OK: return "RDPMC";
	case UNC_E_UNSUPPORTED: return "rdmsr (RDPMC raised #UD)";
	case UNC_E_FAULT: return "rdmsr (RDPMC raised #GP)";
	default: return "rdmsr (no general counter to try RDPMC on)";
	}
}

static const char *caps_text(const struct pmu_present *p, char *buf, size_t size)
{
	enum unc_status st = (enum unc_status)p->facts[ARCH_FACT_CAPS_ST];

	if (st == UNC_E_NOT_FOUND)
		return "not read (CPUID.1:ECX.PDCM is clear)";
	if (st != UNC_OK)
		fmt_snprintf(buf, size, "read failed: %s", unc_strerror(st));
	else
		fmt_snprintf(buf, size, "0x%lx", (unsigned long)p->facts[ARCH_FACT_CAPS]);
	return buf;
}

/* Unavailable architectural events: EBX bit n set, or n at or beyond the
 * bit vector's length (EAX[31:24]). */
static bool unavailable(const struct pmu_present *p, unsigned n)
{
	unsigned len = (unsigned)(p->facts[ARCH_FACT_EAX] >> 24 & 0xFF);

	return n >= len || (p->facts[ARCH_FACT_EBX] >> n & 1);
}

void arch_info(struct out *o, const struct pmu_present *p, bool json)
{
	uint64_t eax = p->facts[ARCH_FACT_EAX], edx = p->facts[ARCH_FACT_EDX];
	unsigned gp = (unsigned)(eax >> 8 & 0xFF), fixed = p->boxes[ARCH_UNIT_FIXED] ? arch_fixed_counters(p) : 0;
	char buf[48];

	if (!(p->probed & 1u << ARCH_UNIT_GP))
		return;
	if (json) {
		out_printf(o, ",\"cpuid_0a\":{\"eax\":\"0x%lx\",\"ebx\":\"0x%lx\",\"ecx\":\"0x%lx\",\"edx\":\"0x%lx\"}",
			   (unsigned long)eax, (unsigned long)p->facts[ARCH_FACT_EBX], (unsigned long)p->facts[ARCH_FACT_ECX],
			   (unsigned long)edx);
		out_printf(o, ",\"version\":%u,\"general_counters\":%u,\"general_width\":%u,\"fixed_counters\":%u,"
			      "\"fixed_width\":%u",
			   arch_version(p), gp, (unsigned)(eax >> 16 & 0xFF), fixed,
			   fixed ? arch_fixed_width(p) : 0);
		out_printf(o, ",\"fixed_counters_assumed\":%s", arch_fixed_assumed(p) ? "true" : "false");
		out_puts(o, ",\"unavailable_events\":[");
		for (unsigned n = 0, k = 0; n < 8; n++)
			if (unavailable(p, n)) {
				out_printf(o, "%s", k++ ? "," : "");
				out_json_str(o, arch_ebx_events[n].name);
			}
		out_printf(o, "],\"full_width_writes\":%s,\"counters_read_with\":\"%s\"",
			   arch_full_width(p) ? "true" : "false", p->facts[ARCH_FACT_RDPMC_ST] == UNC_OK ? "rdpmc" : "rdmsr");
		return;
	}
	out_printf(o, "CPUID 0xA:    version %u, %u general counters of %u bits, %u fixed counters of %u bits\n",
		   arch_version(p), gp, (unsigned)(eax >> 16 & 0xFF), fixed, fixed ? arch_fixed_width(p) : 0);
	if (gp > ARCH_MAX_GP)
		out_printf(o, "  note: %u general counters; this driver uses %u\n", gp, ARCH_MAX_GP);
	if (arch_fixed_assumed(p))
		out_printf(o, "  note: EDX reports %u fixed counters; versions 2 to 4 may omit them, so %u are assumed "
			      "(not under a hypervisor, as Linux does)\n",
			   (unsigned)(edx & 0x1F), fixed);
	out_puts(o, "unavailable:  ");
	unsigned k = 0;
	for (unsigned n = 0; n < 8; n++)
		if (unavailable(p, n))
			out_printf(o, "%s%s (%02X/%02X)", k++ ? ", " : "", arch_ebx_events[n].name, arch_ebx_events[n].code,
				   arch_ebx_events[n].umask);
	out_printf(o, "%s (CPUID.0AH:EBX 0x%lx, length %u)\n", k ? "" : "none", (unsigned long)p->facts[ARCH_FACT_EBX],
		   (unsigned)(eax >> 24));
	out_printf(o, "IA32_PERF_CAPABILITIES: %s; counters written at %s\n", caps_text(p, buf, sizeof(buf)),
		   arch_full_width(p) ? "IA32_A_PMCx (0x4C1, full width)" : "IA32_PMCx (0xC1, bits 31:0)");
	out_printf(o, "counters read with: %s\n", read_path(p));
}
