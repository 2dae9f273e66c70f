/* What the Alder Lake / Raptor Lake and Tiger Lake drivers add to `info`:
 * the CBo count of 0x396, the host bridge and MCHBAR (the engine prints
 * whether the PMU is in use, from adl_in_use's data). */
#include "adl.h"

void adl_info(struct out *o, const struct pmu_present *p, bool json)
{
	bool msrs = p->probed & 1u << ADL_UNIT_CBO;
	bool cbo_ok = msrs && p->facts[ADL_FACT_CBO_CONFIG_ST] == UNC_OK;

	if (json) {
		if (cbo_ok)
			out_printf(o, ",\"cbo_count\":%u", p->found[ADL_UNIT_CBO]);
	} else if (cbo_ok) {
		char note[200];
		out_printf(o, "0x396:        %u CBos, %u programmed\n", p->found[ADL_UNIT_CBO], p->boxes[ADL_UNIT_CBO]);
		if (adl_cbo_limit_note(p, note, sizeof(note))[0])
			out_printf(o, "  warning: %s; CBo events are refused\n", note);
	}
	adl_info_host_bridge(o, p, ADL_UNIT_IMC, json);
}

void adl_info_host_bridge(struct out *o, const struct pmu_present *p, unsigned imc_unit, bool json)
{
	bool hb_ok = (p->probed & 1u << imc_unit) && p->facts[ADL_FACT_HB_ST] == UNC_OK;
	uint16_t device = (uint16_t)(p->facts[ADL_FACT_HB_ID] >> 16);
	const char *gen = adl_host_bridge_name(p->facts[ADL_FACT_HB_ID] & 0xffff, device);
	uint64_t raw = p->facts[ADL_FACT_MCHBAR_RAW], mask = p->facts[ADL_FACT_MCHBAR_MASK];

	if (json) {
		if (hb_ok) {
			out_printf(o, ",\"host_bridge\":\"0x%04x\",\"generation\":", device);
			if (gen)
				out_json_str(o, gen);
			else
				out_puts(o, "null");
			out_printf(o, ",\"mchbar\":\"0x%lx\",\"mchbar_base\":\"0x%lx\"", (unsigned long)raw,
				   (unsigned long)(raw & mask));
		}
		return;
	}
	if (hb_ok)
		out_printf(o, "host bridge:  8086:%04x (%s); MCHBAR 0x%lx, base 0x%lx (mask 0x%lx)\n", device,
			   gen ? gen : "unknown", (unsigned long)raw, (unsigned long)(raw & mask), (unsigned long)mask);
}
