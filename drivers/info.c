#include "info.h"

#include <string.h>

#include "imc.h"
#include "skl.h"

static const struct pci_addr host_bridge = { 0, 0, 0 };

static void note_fault(void *ctx, uint32_t msr)
{
	struct platform_info *pi = ctx;

	if (pi->nfaults < INFO_MAX_FAULTS)
		pi->faults[pi->nfaults++] = (struct msr_access){ msr, false };
}

/* Reads one MSR for a probe; a fault is recorded, never turned into a zero. */
static enum unc_status probe_msr(const struct hw *hw, struct platform_info *pi, uint32_t msr,
				 uint64_t *ret_val)
{
	enum unc_status st = hw_msr_read(hw, msr, ret_val);

	if (st == UNC_E_FAULT)
		note_fault(pi, msr);
	return st;
}

static void probe_pci(const struct hw *hw, struct platform_info *pi)
{
	uint32_t id, lo, hi;

	pi->host_bridge_st = hw_pci_read32(hw, host_bridge, 0, &id);
	if (pi->host_bridge_st == UNC_OK) {
		pi->hb_vendor = id & 0xffff;
		pi->hb_device = id >> 16;
		pi->hb_generation = skl_host_bridge_name(pi->hb_vendor, pi->hb_device);
		if (pi->hb_vendor == 0xffff)
			pi->host_bridge_st = UNC_E_NOT_FOUND;
	}
	if (pi->host_bridge_st != UNC_OK) {
		pi->mchbar_st = pi->host_bridge_st;
		return;
	}
	pi->mchbar_st = hw_pci_read32(hw, host_bridge, SKL_MCHBAR_LO, &lo);
	if (pi->mchbar_st == UNC_OK)
		pi->mchbar_st = hw_pci_read32(hw, host_bridge, SKL_MCHBAR_HI, &hi);
	if (pi->mchbar_st != UNC_OK)
		return;
	pi->mchbar_raw = (uint64_t)hi << 32 | lo;
	pi->mchbar_enabled = pi->mchbar_raw & SKL_MCHBAR_ENABLE;
	pi->mchbar_state = imc_check(pi->hb_vendor, pi->mchbar_raw, pi->cpu.phys_addr_bits, &pi->mchbar_base);
}

static void set_verdict(struct platform_info *pi, enum unc_status st, const char *why)
{
	pi->verdict = st;
	fmt_snprintf(pi->verdict_reason, sizeof(pi->verdict_reason), "%s", why);
}

enum unc_status info_gather_opt(const struct hw *hw, struct platform_info *pi, bool probe_msrs)
{
	memset(pi, 0, sizeof(*pi));
	cpu_identify(hw, &pi->cpu);
	const struct pmu_model *model = pmu_match_model(&skl_client_uncore, &pi->cpu);
	pi->model_name = model ? model->name : NULL;
	pi->tsc_hz = hw->tick_hz;
	pi->msr_mode = hw->msr_mode;
	pi->emulator = hw->emulator;
	pi->emulated = hw->msr_mode == HW_MSR_EMULATED ? hw->emulated : NULL;

	/* Only a supported model gets its uncore MSRs read: elsewhere these
	 * addresses mean something else or nothing. */
	if (pi->model_name && probe_msrs) {
		pi->msrs_probed = true;
		pi->cbo_config_st = probe_msr(hw, pi, MSR_UNC_CBO_CONFIG, &pi->cbo_config_raw);
		if (pi->cbo_config_st == UNC_OK) {
			pi->no_cbo_banks = pi->cbo_config_raw & UNC_CBO_CONFIG_NO_CBO_BANKS;
			pi->cbo_count = skl_cbo_programmable(skl_cbo_count_from_raw(pi->no_cbo_banks));
		}
		skl_check_in_use(hw, pi->cbo_count, pi->cbo_config_st == UNC_OK, &pi->use, note_fault, pi);
	}
	probe_pci(hw, pi);

	if (!pi->cpu.is_intel)
		set_verdict(pi, UNC_E_UNSUPPORTED, "not an Intel CPU");
	else if (!pi->model_name)
		set_verdict(pi, UNC_E_UNSUPPORTED, "not a Skylake-client uncore (family 6, models 0x4E 0x5E 0x8E 0x9E 0xA5 0xA6)");
	else if (pi->nfaults)
		set_verdict(pi, UNC_E_FAULT, "an uncore MSR faulted");
	else if (!pi->msrs_probed)
		set_verdict(pi, UNC_OK, "not checked (no MSR read)");
	else if (pi->cbo_count == 0)
		set_verdict(pi, UNC_E_UNSUPPORTED, "MSR_UNC_CBO_CONFIG reports no CBo");
	else
		set_verdict(pi, UNC_OK, "ready");
	return pi->verdict;
}

static const char *msr_label(uint32_t msr, char *buf, size_t size)
{
	const char *n = skl_msr_name(msr, buf, size);

	return n ? n : "?";
}

/* Each path besides the MSRs that the emulator answered: only those it did. */
static void print_emulated(struct out *o, const struct hw_emulated *em)
{
	if (!em)
		return;
	for (unsigned i = 0; i < em->ncpuid; i++)
		out_printf(o, "cpuid:        leaf 0x%x emulated\n", em->cpuid_leaf[i]);
	for (unsigned i = 0; i < em->npci; i++)
		out_printf(o, "pci config:   emulated for %02x:%02x.%x\n", em->pci[i].bus, em->pci[i].dev, em->pci[i].func);
	if (em->rdpmc)
		out_printf(o, "rdpmc:        emulated\n");
}

static void json_emulated(struct out *o, const struct hw_emulated *em)
{
	if (!em || !(em->ncpuid || em->npci || em->rdpmc))
		return;
	out_puts(o, ",\"emulated\":{\"cpuid_leaves\":[");
	for (unsigned i = 0; i < em->ncpuid; i++)
		out_printf(o, "%s%u", i ? "," : "", em->cpuid_leaf[i]);
	out_puts(o, "],\"pci\":[");
	for (unsigned i = 0; i < em->npci; i++)
		out_printf(o, "%s\"%02x:%02x.%x\"", i ? "," : "", em->pci[i].bus, em->pci[i].dev, em->pci[i].func);
	out_printf(o, "],\"rdpmc\":%s}", em->rdpmc ? "true" : "false");
}

void info_print(struct out *o, const struct platform_info *pi)
{
	const struct cpu_info *c = &pi->cpu;
	char name[40], num[32];

	out_printf(o, "cpu:          %s family 0x%x model 0x%x stepping %u%s\n", c->vendor, c->family,
		   c->model, c->stepping, c->hypervisor ? " (under a hypervisor)" : "");
	out_printf(o, "brand:        %s\n", c->brand[0] ? c->brand : "(not reported)");
	if (c->cores)
		out_printf(o, "topology:     %u cores, %u threads per package (%s)\n", c->cores, c->threads,
			   c->topology_source);
	else
		out_printf(o, "topology:     unknown (CPUID reports no topology)\n");
	out_printf(o, "phys address: %u bits\n", c->phys_addr_bits);
	if (!c->is_intel)
		out_printf(o, "uncore:       unsupported: not an Intel CPU (vendor %s)\n", c->vendor);
	else if (!pi->model_name)
		out_printf(o, "uncore:       unsupported model: family 0x%x model 0x%x is not a Skylake-client uncore\n",
			   c->family, c->model);
	else
		out_printf(o, "uncore:       supported: Skylake-client, %s\n", pi->model_name);
	out_printf(o, "msr access:   %s\n", hw_msr_mode_name(pi->msr_mode));
	if (pi->msr_mode == HW_MSR_EMULATED)
		out_printf(o, "emulator:     %s\n", pi->emulator ? pi->emulator : "(no description)");
	print_emulated(o, pi->emulated);

	if (!pi->msrs_probed) {
		const char *why = pi->model_name ? "this command reads no MSR" : "unsupported CPU";
		out_printf(o, "MSR_UNC_CBO_CONFIG: not read (%s)\n", why);
		out_printf(o, "pmu in use:   not checked (%s)\n", why);
	} else {
		if (pi->cbo_config_st != UNC_OK) {
			out_printf(o, "MSR_UNC_CBO_CONFIG (0x396): read failed: %s\n", unc_strerror(pi->cbo_config_st));
		} else {
			out_printf(o, "MSR_UNC_CBO_CONFIG (0x396): raw 0x%lx, NO_CBO_BANKS %u, CBo count %u (manual: subtract one)\n",
				   (unsigned long)pi->cbo_config_raw, pi->no_cbo_banks, pi->cbo_count);
			if (pi->no_cbo_banks == 0)
				out_printf(o, "  warning: NO_CBO_BANKS is 0; no CBo can be programmed\n");
			else if (pi->no_cbo_banks - 1 > pi->cbo_count)
				out_printf(o, "  warning: NO_CBO_BANKS %u implies %u CBos; at most %u can be programmed\n",
					   pi->no_cbo_banks, pi->no_cbo_banks - 1, pi->cbo_count);
			if (c->cores && c->cores != pi->cbo_count)
				out_printf(o, "  warning: CBo count %u differs from the core count %u\n", pi->cbo_count,
					   c->cores);
		}
		if (!pi->use.known)
			out_printf(o, "pmu in use:   unknown (a register could not be read)\n");
		else if (!pi->use.in_use)
			out_printf(o, "pmu in use:   no (global control 0x%lx, %u event selects all zero)\n",
				   (unsigned long)pi->use.global_ctrl, pi->use.selects_checked);
		else
			out_printf(o, "pmu in use:   yes\n");
		for (unsigned i = 0; i < pi->use.nbusy; i++)
			out_printf(o, "  %s (0x%x) = 0x%lx\n", msr_label(pi->use.busy[i].msr, name, sizeof(name)),
				   pi->use.busy[i].msr, (unsigned long)pi->use.busy[i].value);
	}

	if (pi->host_bridge_st != UNC_OK) {
		out_printf(o, "host bridge:  00:00.0 not readable: %s\n", unc_strerror(pi->host_bridge_st));
	} else {
		out_printf(o, "host bridge:  00:00.0 vendor 0x%04x device 0x%04x (%s%s)\n", pi->hb_vendor, pi->hb_device,
			   pi->hb_generation ? "known: " : "not a known Skylake-client ID",
			   pi->hb_generation ? pi->hb_generation : "");
	}
	if (pi->mchbar_st != UNC_OK) {
		out_printf(o, "MCHBAR:       not read: %s\n", unc_strerror(pi->mchbar_st));
	} else {
		static const char *states[] = {
			[IMC_OK] = "enabled",
			[IMC_NOT_INTEL] = "not an Intel host bridge",
			[IMC_DISABLED] = "disabled (bit 0 clear)",
			[IMC_ZERO] = "enabled but base is zero",
			[IMC_HIGH] = "enabled but base is above the physical address width",
		};
		const char *state = states[pi->mchbar_state];
		out_printf(o, "MCHBAR:       raw 0x%016lx (0x4C:0x48), enable %u, base 0x%lx (mask 0x7FFFFF8000): %s\n",
			   (unsigned long)pi->mchbar_raw, pi->mchbar_enabled ? 1 : 0, (unsigned long)pi->mchbar_base,
			   state);
	}
	fmt_fixed(num, sizeof(num), pi->tsc_hz, 1000000, 3);
	out_printf(o, "tsc:          %s MHz\n", num);
	if (!pi->nfaults)
		out_printf(o, "faults:       none\n");
	for (unsigned i = 0; i < pi->nfaults; i++)
		out_printf(o, "fault:        %s 0x%x (%s) raised #GP\n", pi->faults[i].write ? "wrmsr" : "rdmsr",
			   pi->faults[i].msr, msr_label(pi->faults[i].msr, name, sizeof(name)));
	out_printf(o, "verdict:      %s%s\n", pi->verdict == UNC_OK ? "uncore PMU usable: " : "uncore PMU unusable: ",
		   pi->verdict_reason);
}

static void json_hex(struct out *o, const char *key, uint64_t v, bool comma)
{
	out_printf(o, "\"%s\":\"0x%lx\"%s", key, (unsigned long)v, comma ? "," : "");
}

void info_print_json(struct out *o, const struct platform_info *pi)
{
	const struct cpu_info *c = &pi->cpu;
	char name[40];

	out_puts(o, "{\"cpu\":{\"vendor\":");
	out_json_str(o, c->vendor);
	out_printf(o, ",\"family\":%u,\"model\":%u,\"stepping\":%u,\"brand\":", c->family, c->model, c->stepping);
	out_json_str(o, c->brand);
	out_printf(o, ",\"cores\":%u,\"threads\":%u,\"topology_source\":", c->cores, c->threads);
	out_json_str(o, c->topology_source);
	out_printf(o, ",\"hypervisor\":%s,\"phys_addr_bits\":%u},", c->hypervisor ? "true" : "false",
		   c->phys_addr_bits);
	out_printf(o, "\"supported\":%s,\"model_name\":", pi->model_name ? "true" : "false");
	if (pi->model_name)
		out_json_str(o, pi->model_name);
	else
		out_puts(o, "null");
	out_printf(o, ",\"msr_access\":\"%s\",\"emulator\":", hw_msr_mode_name(pi->msr_mode));
	if (pi->msr_mode == HW_MSR_EMULATED)
		out_json_str(o, pi->emulator ? pi->emulator : "");
	else
		out_puts(o, "null");
	json_emulated(o, pi->emulated);
	out_puts(o, ",");
	if (pi->msrs_probed && pi->cbo_config_st == UNC_OK) {
		out_puts(o, "\"cbo_config\":{");
		json_hex(o, "raw", pi->cbo_config_raw, true);
		out_printf(o, "\"no_cbo_banks\":%u,\"cbo_count\":%u},", pi->no_cbo_banks, pi->cbo_count);
	} else {
		out_puts(o, "\"cbo_config\":null,");
	}
	if (pi->msrs_probed && pi->use.known) {
		out_printf(o, "\"pmu_in_use\":%s,", pi->use.in_use ? "true" : "false");
	} else {
		out_puts(o, "\"pmu_in_use\":null,");
	}
	out_puts(o, "\"pmu_busy_registers\":[");
	for (unsigned i = 0; i < pi->use.nbusy; i++) {
		out_printf(o, "%s{\"msr\":\"0x%x\",\"name\":\"%s\",", i ? "," : "", pi->use.busy[i].msr,
			   msr_label(pi->use.busy[i].msr, name, sizeof(name)));
		json_hex(o, "value", pi->use.busy[i].value, false);
		out_puts(o, "}");
	}
	out_puts(o, "],");
	if (pi->host_bridge_st == UNC_OK)
	{
		out_printf(o, "\"host_bridge\":{\"vendor\":\"0x%04x\",\"device\":\"0x%04x\",\"known\":%s,\"generation\":",
			   pi->hb_vendor, pi->hb_device, pi->hb_generation ? "true" : "false");
		if (pi->hb_generation)
			out_json_str(o, pi->hb_generation);
		else
			out_puts(o, "null");
		out_puts(o, "},");
	}
	else
		out_puts(o, "\"host_bridge\":null,");
	if (pi->mchbar_st == UNC_OK) {
		out_puts(o, "\"mchbar\":{");
		json_hex(o, "raw", pi->mchbar_raw, true);
		out_printf(o, "\"enabled\":%s,", pi->mchbar_enabled ? "true" : "false");
		json_hex(o, "base", pi->mchbar_base, true);
		out_printf(o, "\"usable\":%s},", pi->mchbar_state == IMC_OK ? "true" : "false");
	} else {
		out_puts(o, "\"mchbar\":null,");
	}
	out_printf(o, "\"tsc_hz\":%lu,\"faults\":[", (unsigned long)pi->tsc_hz);
	for (unsigned i = 0; i < pi->nfaults; i++)
		out_printf(o, "%s{\"op\":\"%s\",\"msr\":\"0x%x\",\"name\":\"%s\"}", i ? "," : "",
			   pi->faults[i].write ? "wrmsr" : "rdmsr", pi->faults[i].msr,
			   msr_label(pi->faults[i].msr, name, sizeof(name)));
	out_printf(o, "],\"usable\":%s,\"verdict\":", pi->verdict == UNC_OK ? "true" : "false");
	out_json_str(o, pi->verdict_reason);
	out_puts(o, "}\n");
}
