/* What the Skylake-client driver adds to `info`: the CBo count of
 * MSR_UNC_CBO_CONFIG, the host bridge and MCHBAR; and the host bridges'
 * names, which the driver's probe and `where` use too. */
#include "skl_info.h"

#include "mchbar.h"
#include "skl_regs.h"

struct skl_facts {
	bool msrs_probed, imc_probed;
	enum unc_status cbo_config_st;
	uint64_t cbo_config_raw;
	unsigned no_cbo_banks, cbo_count;
	enum unc_status hb_st, mchbar_st;
	uint16_t hb_vendor, hb_device;
	const char *generation;
	uint64_t mchbar_raw, mchbar_base;
	unsigned cores;
	enum mchbar_state mchbar_state;
	uint64_t mchbar_mask;
};

static void facts_of(const struct pmu_present *p, struct skl_facts *f)
{
	*f = (struct skl_facts){ 0 };
	f->msrs_probed = p->probed & 1u << SKL_UNIT_CBO;
	f->imc_probed = p->probed & 1u << SKL_UNIT_IMC;
	f->cbo_config_st = (enum unc_status)p->facts[SKL_FACT_CBO_CONFIG_ST];
	f->cbo_config_raw = p->facts[SKL_FACT_CBO_CONFIG];
	f->no_cbo_banks = f->cbo_config_raw & UNC_CBO_CONFIG_NO_CBO_BANKS;
	f->cbo_count = p->boxes[SKL_UNIT_CBO];
	f->hb_st = (enum unc_status)p->facts[SKL_FACT_HB_ST];
	f->mchbar_st = (enum unc_status)p->facts[SKL_FACT_MCHBAR_ST];
	f->hb_vendor = p->facts[SKL_FACT_HB_ID] & 0xffff;
	f->hb_device = (uint16_t)(p->facts[SKL_FACT_HB_ID] >> 16);
	if (f->hb_st == UNC_OK && f->hb_vendor == 0xffff)
		f->hb_st = f->mchbar_st = UNC_E_NOT_FOUND;
	f->generation = skl_host_bridge_name(f->hb_vendor, f->hb_device);
	f->mchbar_raw = p->facts[SKL_FACT_MCHBAR_RAW];
	uint64_t cpu = p->facts[SKL_FACT_CPU];
	f->mchbar_mask = mchbar_mask((uint32_t)(cpu >> 8 & 0xFF));
	f->mchbar_state = mchbar_judge(f->hb_vendor, f->mchbar_raw, f->mchbar_mask, (unsigned)(cpu & 0xFF), &f->mchbar_base);
	f->cores = (unsigned)p->facts[SKL_FACT_CORES];
}

static void json_hex(struct out *o, const char *key, uint64_t v, bool comma)
{
	out_printf(o, "\"%s\":\"0x%lx\"%s", key, (unsigned long)v, comma ? "," : "");
}

static void info_json(struct out *o, const struct skl_facts *f)
{
	out_puts(o, ",");
	if (f->msrs_probed && f->cbo_config_st == UNC_OK) {
		out_puts(o, "\"cbo_config\":{");
		json_hex(o, "raw", f->cbo_config_raw, true);
		out_printf(o, "\"no_cbo_banks\":%u,\"cbo_count\":%u},", f->no_cbo_banks, f->cbo_count);
	} else {
		out_puts(o, "\"cbo_config\":null,");
	}
	if (f->imc_probed && f->hb_st == UNC_OK) {
		out_printf(o, "\"host_bridge\":{\"vendor\":\"0x%04x\",\"device\":\"0x%04x\",\"known\":%s,\"generation\":",
			   f->hb_vendor, f->hb_device, f->generation ? "true" : "false");
		if (f->generation)
			out_json_str(o, f->generation);
		else
			out_puts(o, "null");
		out_puts(o, "},");
	} else {
		out_puts(o, "\"host_bridge\":null,");
	}
	if (f->imc_probed && f->mchbar_st == UNC_OK) {
		out_puts(o, "\"mchbar\":{");
		json_hex(o, "raw", f->mchbar_raw, true);
		out_printf(o, "\"enabled\":%s,", f->mchbar_raw & MCHBAR_ENABLE ? "true" : "false");
		json_hex(o, "base", f->mchbar_base, true);
		out_printf(o, "\"usable\":%s}", f->mchbar_state == MCHBAR_OK ? "true" : "false");
	} else {
		out_puts(o, "\"mchbar\":null");
	}
}

void skl_info(struct out *o, const struct pmu_present *p, bool json)
{
	struct skl_facts f;

	facts_of(p, &f);
	if (json) {
		info_json(o, &f);
		return;
	}
	if (!f.msrs_probed) {
		out_printf(o, "MSR_UNC_CBO_CONFIG: not read (this command reads no MSR)\n");
	} else {
		if (f.cbo_config_st != UNC_OK) {
			out_printf(o, "MSR_UNC_CBO_CONFIG (0x396): read failed: %s\n", unc_strerror(f.cbo_config_st));
		} else {
			out_printf(o, "MSR_UNC_CBO_CONFIG (0x396): raw 0x%lx, NO_CBO_BANKS %u, CBo count %u (manual: subtract one)\n",
				   (unsigned long)f.cbo_config_raw, f.no_cbo_banks, f.cbo_count);
			if (f.no_cbo_banks == 0)
				out_printf(o, "  warning: NO_CBO_BANKS is 0; no CBo can be programmed\n");
			else if (f.no_cbo_banks - 1 > f.cbo_count)
				out_printf(o, "  warning: NO_CBO_BANKS %u implies %u CBos; at most %u can be programmed, so CBo "
					      "events are refused\n",
					   f.no_cbo_banks, f.no_cbo_banks - 1, f.cbo_count);
			if (f.cores && f.cores != f.cbo_count)
				out_printf(o, "  warning: CBo count %u differs from the core count %u\n", f.cbo_count,
					   f.cores);
		}
	}
	if (!f.imc_probed)
		return;
	if (f.hb_st != UNC_OK) {
		out_printf(o, "host bridge:  00:00.0 not readable: %s\n", unc_strerror(f.hb_st));
	} else {
		out_printf(o, "host bridge:  00:00.0 vendor 0x%04x device 0x%04x (%s%s)\n", f.hb_vendor, f.hb_device,
			   f.generation ? "known: " : "not a known Skylake-client ID", f.generation ? f.generation : "");
	}
	if (f.mchbar_st != UNC_OK) {
		out_printf(o, "MCHBAR:       not read: %s\n", unc_strerror(f.mchbar_st));
	} else {
		static const char *states[] = {
			[MCHBAR_OK] = "enabled",
			[MCHBAR_NOT_INTEL] = "not an Intel host bridge",
			[MCHBAR_DISABLED] = "disabled (bit 0 clear)",
			[MCHBAR_ZERO] = "enabled but base is zero",
			[MCHBAR_HIGH] = "enabled but base is above the physical address width",
		};
		out_printf(o, "MCHBAR:       raw 0x%016lx (0x4C:0x48), enable %u, base 0x%lx (mask 0x%lX): %s\n",
			   (unsigned long)f.mchbar_raw, (unsigned)(f.mchbar_raw & MCHBAR_ENABLE),
			   (unsigned long)f.mchbar_base, (unsigned long)f.mchbar_mask, states[f.mchbar_state]);
	}
}

const char *skl_host_bridge_name(uint16_t vendor, uint16_t device)
{
	/* The IMC device IDs of arch/x86/events/intel/uncore_snb.c. */
	static const struct {
		uint16_t id;
		const char *name;
	} ids[] = {
		{ 0x1900, "Skylake" },	     { 0x1904, "Skylake" },	   { 0x190C, "Skylake" },
		{ 0x190F, "Skylake" },	     { 0x1910, "Skylake" },	   { 0x191F, "Skylake" },
		{ 0x1918, "Skylake" },	     { 0x5904, "Kaby Lake" },	   { 0x590C, "Kaby/Amber Lake" },
		{ 0x590F, "Kaby Lake" },     { 0x5910, "Kaby Lake" },	   { 0x5914, "Kaby Lake" },
		{ 0x5918, "Kaby Lake" },     { 0x591F, "Kaby Lake" },	   { 0x590D, "Amber Lake" },
		{ 0x3E0F, "Coffee Lake" },   { 0x3E10, "Coffee Lake" },	   { 0x3E18, "Coffee Lake" },
		{ 0x3E1F, "Coffee Lake" },   { 0x3E30, "Coffee Lake" },	   { 0x3E31, "Coffee Lake" },
		{ 0x3E32, "Coffee Lake" },   { 0x3E33, "Coffee Lake" },	   { 0x3EC2, "Coffee Lake" },
		{ 0x3EC4, "Coffee Lake" },   { 0x3EC6, "Coffee Lake" },	   { 0x3ECA, "Coffee Lake" },
		{ 0x3ECC, "Coffee Lake" },   { 0x3ED0, "Coffee/Whiskey Lake" }, { 0x3E34, "Whiskey Lake" },
		{ 0x3E35, "Whiskey Lake" },  { 0x9B33, "Comet Lake" },	   { 0x9B43, "Comet Lake" },
		{ 0x9B44, "Comet Lake" },    { 0x9B51, "Comet Lake" },	   { 0x9B53, "Comet Lake" },
		{ 0x9B54, "Comet Lake" },    { 0x9B61, "Comet Lake" },	   { 0x9B63, "Comet Lake" },
		{ 0x9B64, "Comet Lake" },    { 0x9B71, "Comet Lake" },	   { 0x9B73, "Comet Lake" },
	};

	if (vendor != 0x8086)
		return NULL;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (ids[i].id == device)
			return ids[i].name;
	return NULL;
}
