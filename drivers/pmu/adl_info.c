/* What the Alder Lake / Raptor Lake driver adds to `info`: the CBo count of
 * 0x396, whether the PMU is in use, the host bridge and MCHBAR. Data first
 * (adl_facts), then its wording. */
#include "adl.h"

struct adl_facts {
	bool msrs, imc, cbo_ok, hb_ok;
	unsigned cbo_raw, cbos;
	uint16_t vendor, device;
	const char *generation;
	uint64_t mchbar_raw, mask;
};

static void facts_of(const struct pmu_present *p, struct adl_facts *f)
{
	f->msrs = p->probed & 1u << ADL_UNIT_CBO;
	f->imc = p->probed & 1u << ADL_UNIT_IMC;
	f->cbo_ok = p->facts[ADL_FACT_CBO_CONFIG_ST] == UNC_OK;
	f->cbo_raw = (unsigned)(p->facts[ADL_FACT_CBO_CONFIG] & ADL_UNC_NUM_CBO_MASK);
	f->cbos = p->boxes[ADL_UNIT_CBO];
	f->hb_ok = p->facts[ADL_FACT_HB_ST] == UNC_OK;
	f->vendor = p->facts[ADL_FACT_HB_ID] & 0xffff;
	f->device = (uint16_t)(p->facts[ADL_FACT_HB_ID] >> 16);
	f->generation = adl_host_bridge_name(f->vendor, f->device);
	f->mchbar_raw = p->facts[ADL_FACT_MCHBAR_RAW];
	f->mask = p->facts[ADL_FACT_MCHBAR_MASK];
}

static void info_json(struct out *o, const struct adl_facts *f, const struct pmu_use *use)
{
	if (f->msrs && f->cbo_ok)
		out_printf(o, ",\"cbo_config\":{\"raw\":\"0x%x\",\"cbo_count\":%u}", f->cbo_raw, f->cbos);
	else
		out_puts(o, ",\"cbo_config\":null");
	if (use && use->known)
		out_printf(o, ",\"pmu_in_use\":%s", use->in_use ? "true" : "false");
	else
		out_puts(o, ",\"pmu_in_use\":null");
	if (f->imc && f->hb_ok) {
		out_printf(o, ",\"host_bridge\":{\"vendor\":\"0x%04x\",\"device\":\"0x%04x\",\"known\":%s,\"generation\":",
			   f->vendor, f->device, f->generation ? "true" : "false");
		if (f->generation)
			out_json_str(o, f->generation);
		else
			out_puts(o, "null");
		out_printf(o, "},\"mchbar\":{\"raw\":\"0x%lx\",\"mask\":\"0x%lx\",\"base\":\"0x%lx\"}",
			   (unsigned long)f->mchbar_raw, (unsigned long)f->mask, (unsigned long)(f->mchbar_raw & f->mask));
	} else {
		out_puts(o, ",\"host_bridge\":null,\"mchbar\":null");
	}
}

void adl_info(struct out *o, const struct pmu_present *p, const struct pmu_use *use, bool json)
{
	struct adl_facts f;
	char name[40];

	facts_of(p, &f);
	if (json) {
		info_json(o, &f, use);
		return;
	}
	if (f.msrs) {
		if (!f.cbo_ok)
			out_printf(o, "0x396: read failed: %s\n",
				   unc_strerror((enum unc_status)p->facts[ADL_FACT_CBO_CONFIG_ST]));
		else
			out_printf(o, "0x396: %u CBos, %u programmed\n", f.cbo_raw, f.cbos);
		if (!use || !use->known)
			out_printf(o, "pmu in use:   unknown (a register could not be read)\n");
		else
			out_printf(o, "pmu in use:   %s (0x2ff0 = 0x%lx, %u selects)\n",
				   use->in_use ? "yes" : "no", (unsigned long)use->global_ctrl, use->selects_checked);
		for (unsigned i = 0; use && i < use->nbusy; i++) {
			const char *n = adl_reg_name_of(p, use->busy[i].reg, name, sizeof(name));
			out_printf(o, "  %s (0x%lx) = 0x%lx\n", n ? n : "?", (unsigned long)use->busy[i].reg.addr,
				   (unsigned long)use->busy[i].value);
		}
	}
	if (!f.imc)
		return;
	if (!f.hb_ok) {
		out_printf(o, "host bridge:  00:00.0 not readable\n");
		return;
	}
	out_printf(o, "host bridge:  00:00.0 vendor 0x%04x device 0x%04x (%s%s)\n", f.vendor, f.device,
		   f.generation ? "" : "unknown", f.generation ? f.generation : "");
	out_printf(o, "MCHBAR:       raw 0x%lx, enable %u, base 0x%lx (mask 0x%lx); MC1 at +0x10000\n",
		   (unsigned long)f.mchbar_raw, (unsigned)(f.mchbar_raw & ADL_MCHBAR_ENABLE),
		   (unsigned long)(f.mchbar_raw & f.mask), (unsigned long)f.mask);
}
