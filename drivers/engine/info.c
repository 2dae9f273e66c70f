#include "info.h"

#include <string.h>

#include "../base/tsc.h"

/* Every MSR read during gathering goes through this wrapper, which notes
 * the ones that faulted (a fault is recorded, never turned into a zero). */
struct noting {
	const struct hw *hw;
	struct platform_info *pi;
};

static void note_fault(struct platform_info *pi, struct pmu_reg reg)
{
	for (unsigned i = 0; i < pi->nfaults; i++)
		if (pmu_reg_eq(pi->faults[i].reg, reg))
			return;
	if (pi->nfaults < INFO_MAX_FAULTS)
		pi->faults[pi->nfaults++] = (struct reg_access){ reg, false };
}

static enum unc_status noting_msr_read(void *ctx, uint32_t msr, uint64_t *v)
{
	struct noting *n = ctx;
	enum unc_status st = hw_msr_read(n->hw, msr, v);

	if (st == UNC_E_FAULT)
		note_fault(n->pi, pmu_msr(msr));
	return st;
}

/* Gathering never writes: the wrapper refuses. */
static enum unc_status noting_msr_write(void *ctx, uint32_t msr, uint64_t v)
{
	(void)ctx, (void)msr, (void)v;
	return UNC_E_INVALID;
}

static enum unc_status noting_pci_read(void *ctx, struct pci_addr a, uint16_t off, uint32_t *v)
{
	struct noting *n = ctx;
	return hw_pci_read32(n->hw, a, off, v);
}

static enum unc_status noting_pci_write(void *ctx, struct pci_addr a, uint16_t off, uint32_t v)
{
	(void)ctx, (void)a, (void)off, (void)v;
	return UNC_E_INVALID;
}

static enum unc_status noting_mmio_read(void *ctx, uint64_t phys, uint32_t *v)
{
	struct noting *n = ctx;
	return hw_mmio_read32(n->hw, phys, v);
}

static void noting_cpuid(void *ctx, uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	struct noting *n = ctx;
	hw_cpuid(n->hw, leaf, sub, r);
}

static uint64_t noting_ticks(void *ctx)
{
	struct noting *n = ctx;
	return hw_ticks(n->hw);
}

static enum unc_status noting_rdpmc(void *ctx, uint32_t index, uint64_t *v)
{
	struct noting *n = ctx;
	return hw_rdpmc(n->hw, index, v);
}

static enum unc_status noting_io_read(void *ctx, uint16_t port, uint32_t *v)
{
	struct noting *n = ctx;
	return hw_io_read32(n->hw, port, v);
}

/* Another package's MSRs (the discovery CHAs' 0x2FFE and selects). */
static enum unc_status noting_msr_read_pkg(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *v)
{
	struct noting *c = ctx;
	enum unc_status st = c->hw->ops->msr_read_pkg(c->hw->ctx, pkg, msr, n, v);

	if (st == UNC_E_FAULT && n == 1)
		note_fault(c->pi, (struct pmu_reg){ .space = PMU_MSR, .pci = { .bus = (uint8_t)(pkg + 1) }, .addr = msr[0] });
	return st;
}

static void noting_idle(void *ctx, uint32_t us)
{
	struct noting *n = ctx;
	if (n->hw->ops->idle)
		n->hw->ops->idle(n->hw->ctx, us);
}

static enum unc_status noting_mmio_check(void *ctx, uint64_t phys, uint64_t len, char *why, size_t whysize)
{
	struct noting *n = ctx;
	return hw_mmio_check(n->hw, phys, len, why, whysize);
}

static const struct hw_ops noting_ops = { noting_msr_read, noting_msr_write, noting_pci_read, noting_pci_write,
					  noting_mmio_read, noting_cpuid, noting_ticks, noting_rdpmc, noting_io_read,
					  NULL /* no MMIO writes: info only reads */,
					  NULL /* each load through noting_mmio_read */, noting_idle, noting_mmio_check,
					  noting_msr_read_pkg, NULL /* info only reads */,
					  NULL /* each MSR through noting_msr_read */,
					  NULL /* each dword through noting_pci_read */,
					  NULL /* each through noting_rdpmc */,
					  NULL /* the clock and each read as above */,
					  NULL /* info reads no edges */ };

static void set_verdict(struct platform_info *pi, enum unc_status st, const char *why)
{
	pi->verdict = st;
	fmt_snprintf(pi->verdict_reason, sizeof(pi->verdict_reason), "%s", why);
}

/* Probes a driver's units in two calls: those with counters to program,
 * then the free-running ones, so that a failure in one (an MSR that
 * faults, MCHBAR disabled) leaves the other to be seen; without
 * probe_msrs, no unit in MSR space. The in-use check follows a successful
 * probe of the programmable units. */
static void probe_driver(const struct hw *hw, const struct cpu_info *cpu, struct info_pmu *ip, bool probe_msrs)
{
	const struct pmu_driver *drv = ip->drv;
	char err[160], warn[160];

	for (int free = 0; free < 2; free++) {
		uint32_t want = 0;
		for (unsigned u = 0; u < drv->nunits; u++)
			if ((drv->units[u].kind == PMU_FREE) == free && (probe_msrs || drv->units[u].space != PMU_MSR))
				want |= 1u << u;
		if (!want)
			continue;
		enum unc_status st = drv->ops->probe(hw, cpu, want, &ip->p, err, sizeof(err), warn, sizeof(warn));
		if (st == UNC_E_NOT_MMIO && !ip->refused[0])
			fmt_snprintf(ip->refused, sizeof(ip->refused), "%s", err);
		else if (st && !ip->probe_st) {
			ip->probe_st = st;
			ip->probe_free = free;
			fmt_snprintf(ip->probe_err, sizeof(ip->probe_err), "%s", err);
		}
		if (!free && st == UNC_OK && drv->ops->in_use) {
			drv->ops->in_use(hw, &ip->p, &ip->use, NULL, NULL);
			ip->use_checked = true;
		}
	}
}

enum unc_status info_gather_opt(const struct hw *hw, struct platform_info *pi, bool probe_msrs)
{
	memset(pi, 0, sizeof(*pi));
	cpu_identify(hw, &pi->cpu);
	pi->tsc_hz = hw->tick_hz;
	pi->tsc = hw->tsc;
	pi->msr_mode = hw->msr_mode;
	pi->emulator = hw->emulator;
	pi->emulated = hw->msr_mode == HW_MSR_EMULATED ? hw->emulated : NULL;
	pi->pkgs = hw->pkgs;

	struct noting n = { hw, pi };
	struct hw noting = *hw;
	static struct hw_ops ops;
	ops = noting_ops;
	if (!hw->ops->msr_read_pkg)
		ops.msr_read_pkg = NULL;
	noting.ops = &ops;
	noting.ctx = &n;
	/* Only a driver that matches the CPU gets its registers read:
	 * elsewhere these addresses mean something else or nothing. */
	for (unsigned d = 0; pmu_drivers[d] && pi->npmu < INFO_MAX_PMUS; d++) {
		const struct pmu_model *m = pmu_match_model(pmu_drivers[d], hw, &pi->cpu);
		if (!m)
			continue;
		struct info_pmu *ip = &pi->pmu[pi->npmu++];
		ip->drv = pmu_drivers[d];
		ip->p.drv = ip->drv;
		ip->p.model = m->name;
		probe_driver(&noting, &pi->cpu, ip, probe_msrs);
	}
	info_judge(pi);
	return pi->verdict;
}

void info_free(struct platform_info *pi)
{
	for (unsigned k = 0; k < INFO_MAX_PMUS; k++)
		pmu_present_free(&pi->pmu[k].p);
}

void info_judge(struct platform_info *pi)
{
	char why[sizeof(pi->verdict_reason)];

	if (pi->npmu == 0) {
		if (!pi->cpu.is_intel) {
			set_verdict(pi, UNC_E_UNSUPPORTED, "not an Intel CPU");
			return;
		}
		/* the drivers' titles are info's "drivers:" line: no fixed
		 * buffer, so none is ever cut */
		unsigned n = 0;
		while (pmu_drivers[n])
			n++;
		fmt_snprintf(why, sizeof(why), "no driver matches family 0x%x model 0x%x (of the %u uncore.efi has)",
			     pi->cpu.family, pi->cpu.model, n);
		set_verdict(pi, UNC_E_UNSUPPORTED, why);
		return;
	}
	if (pi->nfaults) {
		set_verdict(pi, UNC_E_FAULT, "an uncore MSR faulted");
		return;
	}
	/* An MMIO base that is RAM or unmapped: nothing was read there. */
	for (unsigned k = 0; k < pi->npmu; k++)
		if (pi->pmu[k].refused[0]) {
			set_verdict(pi, UNC_E_NOT_MMIO, pi->pmu[k].refused);
			return;
		}
	/* A probe of the programmable units that failed (a discovery table
	 * refused, say) leaves them without boxes: its line says why. */
	for (unsigned k = 0; k < pi->npmu; k++)
		if (pi->pmu[k].probe_st && !pi->pmu[k].probe_free) {
			set_verdict(pi, pi->pmu[k].probe_st, pi->pmu[k].probe_err);
			return;
		}
	bool programmable = false;
	for (unsigned k = 0; k < pi->npmu; k++) {
		const struct info_pmu *ip = &pi->pmu[k];
		for (unsigned u = 0; u < ip->drv->nunits; u++) {
			const struct pmu_unit *pu = &ip->drv->units[u];
			if (pu->kind == PMU_FREE || !(ip->p.probed & 1u << u))
				continue;
			programmable = true;
			/* placed from what the free-running units' probe could not
			 * read (MCHBAR): judged by that refusal, below */
			if (pu->space == PMU_MMIO && ip->probe_st && ip->probe_free)
				continue;
			/* A unit whose box count comes from the hardware, which gives none;
			 * one it lists but the driver will not program, with the driver's
			 * caveat saying why, leaves the verdict to that caveat (below). */
			char c[200];
			if (pu->boxes_from && ip->p.boxes[u] == 0 &&
			    !(ip->p.found[u] && ip->drv->ops->caveat && ip->drv->ops->caveat(&ip->p, c, sizeof(c)))) {
				fmt_snprintf(why, sizeof(why), "%s reports no %s", pu->boxes_from,
					     pu->box_noun ? pu->box_noun : pu->name);
				set_verdict(pi, UNC_E_UNSUPPORTED, why);
				return;
			}
		}
	}
	/* Free-running counters that cannot be read (MCHBAR disabled, say) are
	 * as unusable as a unit without boxes. */
	for (unsigned k = 0; k < pi->npmu; k++)
		if (pi->pmu[k].probe_st && pi->pmu[k].probe_free) {
			set_verdict(pi, pi->pmu[k].probe_st, pi->pmu[k].probe_err);
			return;
		}
	if (!programmable) {
		set_verdict(pi, UNC_OK, "not checked (no MSR read)");
		return;
	}
	/* Usable, but a driver's probe found something its counts will lack. */
	for (unsigned k = 0; k < pi->npmu; k++) {
		char c[200];
		const struct info_pmu *ip = &pi->pmu[k];
		if (ip->drv->ops->caveat && ip->drv->ops->caveat(&ip->p, c, sizeof(c))) {
			fmt_snprintf(why, sizeof(why), "ready, but %s", c);
			set_verdict(pi, UNC_OK, why);
			return;
		}
	}
	set_verdict(pi, UNC_OK, "ready");
}

const char *info_what(const struct platform_info *pi)
{
	if (pi->npmu == 1)
		return pi->pmu[0].drv->what;
	return pi->npmu ? "PMUs" : "uncore PMU";
}

static const char *reg_label(const struct platform_info *pi, struct pmu_reg reg, char *buf, size_t size)
{
	for (unsigned k = 0; k < pi->npmu; k++) {
		const char *n = pi->pmu[k].drv->ops->reg_name(&pi->pmu[k].p, reg, buf, size);
		if (n)
			return n;
	}
	return "?";
}

/* The packages, and the processor that serves each (per-package MSRs). */
static void print_pkgs(struct out *o, const struct hw_pkgs *k, bool json)
{
	if (json && !k) {
		out_puts(o, ",\"packages\":null");
		return;
	}
	if (!k)
		return;
	if (json) {
		out_printf(o, ",\"packages\":{\"count\":%u,\"how\":", k->n);
		out_json_str(o, k->how ? k->how : "");
		out_printf(o, ",\"mp_agrees\":%s,\"more\":%u,\"processors\":%u,\"ids\":[", k->mp_agrees ? "true" : "false",
			   k->more, k->cpus);
		for (unsigned i = 0; i < k->n; i++)
			out_printf(o, "%s%u", i ? "," : "", k->id[i]);
		out_puts(o, "],\"served_by\":[");
		for (unsigned i = 0; i < k->n; i++)
			out_printf(o, "%s%u", i ? "," : "", k->cpu[i]);
		out_puts(o, "]}");
		return;
	}
	out_printf(o, "packages:     %u of %u processor%s, from %s%s\n", k->n, k->cpus, k->cpus == 1 ? "" : "s",
		   k->how ? k->how : "?", k->mp_agrees ? "" : " (MP services' Location.Package disagrees)");
	for (unsigned i = 0; i < k->n; i++) {
		out_printf(o, "  package %u: processor %u%s", k->id[i], k->cpu[i], i ? "" : " (this one)");
		if (k->mp_pkg[i] != k->id[i])
			out_printf(o, " (MP services: package %u)", k->mp_pkg[i]);
		out_puts(o, "\n");
	}
	if (k->more)
		out_printf(o, "  %u more package%s beyond the %d served: their units are refused\n", k->more,
			   k->more == 1 ? "" : "s", HW_MAX_PKGS);
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
	for (unsigned i = 0; i < em->nmmio; i++)
		out_printf(o, "mmio:         emulated in 0x%llx-0x%llx\n", (unsigned long long)em->mmio_page[i],
			   (unsigned long long)em->mmio_page[i] + 0xFFF);
	if (em->rdpmc)
		out_printf(o, "rdpmc:        emulated\n");
}

static void json_emulated(struct out *o, const struct hw_emulated *em)
{
	if (!em || !(em->ncpuid || em->npci || em->nmmio || em->rdpmc))
		return;
	out_puts(o, ",\"emulated\":{\"cpuid_leaves\":[");
	for (unsigned i = 0; i < em->ncpuid; i++)
		out_printf(o, "%s%u", i ? "," : "", em->cpuid_leaf[i]);
	out_puts(o, "],\"pci\":[");
	for (unsigned i = 0; i < em->npci; i++)
		out_printf(o, "%s\"%02x:%02x.%x\"", i ? "," : "", em->pci[i].bus, em->pci[i].dev, em->pci[i].func);
	out_puts(o, "],\"mmio_pages\":[");
	for (unsigned i = 0; i < em->nmmio; i++)
		out_printf(o, "%s\"0x%llx\"", i ? "," : "", (unsigned long long)em->mmio_page[i]);
	out_printf(o, "],\"rdpmc\":%s}", em->rdpmc ? "true" : "false");
}

/* Whether the driver's units with counters to program were probed (its
 * in-use check reads their registers); *msr_only: all of them are MSRs. */
static bool use_probed(const struct info_pmu *ip, bool *msr_only)
{
	bool probed = false;

	*msr_only = true;
	for (unsigned u = 0; u < ip->drv->nunits; u++) {
		const struct pmu_unit *pu = &ip->drv->units[u];
		if (pu->kind == PMU_FREE)
			continue;
		*msr_only &= pu->space == PMU_MSR;
		probed |= (ip->p.probed & 1u << u) != 0;
	}
	return probed;
}

/* The in-use facts of a driver, as its check returned them. */
static void print_use(struct out *o, const struct info_pmu *ip)
{
	const struct pmu_use *use = &ip->use;
	char name[48], addr[32];
	bool msr_only;

	if (!ip->drv->ops->in_use)
		return;
	if (!use_probed(ip, &msr_only)) {
		out_printf(o, "pmu in use:   not checked%s\n", msr_only ? " (this command reads no MSR)" : "");
		return;
	}
	if (!ip->use_checked && ip->probe_st && !ip->probe_free) {
		out_printf(o, "pmu in use:   unknown (not checked: %s)\n", ip->probe_err);
	} else if (!ip->use_checked || !use->known) {
		out_puts(o, "pmu in use:   unknown (a register could not be read)\n");
	} else if (!use->in_use) {
		out_puts(o, "pmu in use:   no (");
		if (ip->drv->use_global)
			out_printf(o, "global control 0x%lx, ", (unsigned long)use->global_ctrl);
		out_printf(o, "%u event selects %s)\n", use->selects_checked,
			   ip->drv->use_idle == PMU_IDLE_NO_EN ? "without EN" : "all zero");
	} else {
		out_puts(o, "pmu in use:   yes\n");
	}
	for (unsigned i = 0; ip->use_checked && i < use->nbusy; i++)
		out_printf(o, "  %s (%s) = 0x%lx\n", pmu_reg_name(ip->drv, &ip->p, use->busy[i].reg, name, sizeof(name)),
			   pmu_reg_addr(use->busy[i].reg, addr, sizeof(addr)), (unsigned long)use->busy[i].value);
}

static void json_use(struct out *o, const struct info_pmu *ip)
{
	static const char *const space_key[] = { [PMU_MSR] = "msr", [PMU_PCI] = "pci", [PMU_MMIO] = "mmio" };
	const struct pmu_use *use = &ip->use;
	char name[48], addr[32];
	bool msr_only, known = ip->drv->ops->in_use && use_probed(ip, &msr_only) && ip->use_checked && use->known;

	if (!ip->drv->ops->in_use)
		return;
	out_printf(o, ",\"pmu_in_use\":%s", known ? (use->in_use ? "true" : "false") : "null");
	if (ip->drv->use_global) {
		if (known)
			out_printf(o, ",\"global_ctrl\":\"0x%lx\"", (unsigned long)use->global_ctrl);
		else
			out_puts(o, ",\"global_ctrl\":null");
	}
	out_puts(o, ",\"pmu_busy_registers\":[");
	for (unsigned i = 0; ip->use_checked && i < use->nbusy; i++) {
		struct pmu_reg reg = use->busy[i].reg;
		out_printf(o, "%s{\"%s\":\"%s\",\"name\":", i ? "," : "", space_key[reg.space <= PMU_MMIO ? reg.space : PMU_MSR],
			   pmu_reg_addr(reg, addr, sizeof(addr)));
		out_json_str(o, pmu_reg_name(ip->drv, &ip->p, reg, name, sizeof(name)));
		out_printf(o, ",\"value\":\"0x%lx\"}", (unsigned long)use->busy[i].value);
	}
	out_puts(o, "]");
}

void info_print_use(struct out *o, const struct info_pmu *ip, bool json)
{
	if (json)
		json_use(o, ip);
	else
		print_use(o, ip);
}

void info_print(struct out *o, const struct platform_info *pi)
{
	const struct cpu_info *c = &pi->cpu;
	char name[40], num[32], addr[32], how[120];

	out_printf(o, "cpu:          %s family 0x%x model 0x%x stepping %u%s\n", c->vendor, c->family,
		   c->model, c->stepping, c->hypervisor ? " (under a hypervisor)" : "");
	out_printf(o, "brand:        %s\n", c->brand[0] ? c->brand : "(not reported)");
	if (c->cores)
		out_printf(o, "topology:     %u cores, %u threads per package (%s)\n", c->cores, c->threads,
			   c->topology_source);
	else
		out_printf(o, "topology:     unknown (CPUID reports no topology)\n");
	out_printf(o, "phys address: %u bits\n", c->phys_addr_bits);
	if (!pi->npmu && !c->is_intel)
		out_printf(o, "uncore:       unsupported: not an Intel CPU (vendor %s)\n", c->vendor);
	else if (!pi->npmu) {
		out_printf(o, "uncore:       unsupported model: %s\n", pi->verdict_reason);
		out_puts(o, "drivers:      ");
		for (unsigned d = 0; pmu_drivers[d]; d++)
			out_printf(o, "%s%s", d ? ", " : "", pmu_drivers[d]->title);
		out_puts(o, "\n");
	}
	for (unsigned k = 0; k < pi->npmu; k++)
		out_printf(o, "uncore:       supported: %s, %s\n", pi->pmu[k].drv->title, pi->pmu[k].p.model);
	out_printf(o, "msr access:   %s\n", hw_msr_mode_name(pi->msr_mode));
	if (pi->msr_mode == HW_MSR_EMULATED)
		out_printf(o, "emulator:     %s\n", pi->emulator ? pi->emulator : "(no description)");
	print_pkgs(o, pi->pkgs, false);
	print_emulated(o, pi->emulated);
	for (unsigned k = 0; k < pi->npmu; k++) {
		pi->pmu[k].drv->ops->info(o, &pi->pmu[k].p, false);
		info_print_use(o, &pi->pmu[k], false);
	}
	fmt_fixed(num, sizeof(num), pi->tsc_hz, 1000000, 3);
	tsc_describe(&pi->tsc, how, sizeof(how));
	out_printf(o, "tsc:          %s MHz%s%s\n", num, how[0] ? ", " : "", how);
	if (!pi->nfaults)
		out_printf(o, "faults:       none\n");
	for (unsigned i = 0; i < pi->nfaults; i++)
		out_printf(o, "fault:        %s %s (%s) raised #GP\n", pi->faults[i].write ? "wrmsr" : "rdmsr",
			   pmu_reg_addr(pi->faults[i].reg, addr, sizeof(addr)),
			   reg_label(pi, pi->faults[i].reg, name, sizeof(name)));
	out_printf(o, "verdict:      %s %s: %s\n", info_what(pi), pi->verdict == UNC_OK ? "usable" : "unusable",
		   pi->verdict_reason);
}

void info_print_json(struct out *o, const struct platform_info *pi)
{
	const struct cpu_info *c = &pi->cpu;
	char name[40], addr[32];

	out_puts(o, "{\"cpu\":{\"vendor\":");
	out_json_str(o, c->vendor);
	out_printf(o, ",\"family\":%u,\"model\":%u,\"stepping\":%u,\"brand\":", c->family, c->model, c->stepping);
	out_json_str(o, c->brand);
	out_printf(o, ",\"cores\":%u,\"threads\":%u,\"topology_source\":", c->cores, c->threads);
	out_json_str(o, c->topology_source);
	out_printf(o, ",\"hypervisor\":%s,\"phys_addr_bits\":%u},", c->hypervisor ? "true" : "false",
		   c->phys_addr_bits);
	out_printf(o, "\"supported\":%s,\"model_name\":", pi->npmu ? "true" : "false");
	if (pi->npmu)
		out_json_str(o, pi->pmu[0].p.model);
	else
		out_puts(o, "null");
	out_printf(o, ",\"msr_access\":\"%s\",\"emulator\":", hw_msr_mode_name(pi->msr_mode));
	if (pi->msr_mode == HW_MSR_EMULATED)
		out_json_str(o, pi->emulator ? pi->emulator : "");
	else
		out_puts(o, "null");
	print_pkgs(o, pi->pkgs, true);
	json_emulated(o, pi->emulated);
	out_puts(o, ",\"drivers\":[");
	for (unsigned k = 0; k < pi->npmu; k++) {
		out_printf(o, "%s{\"driver\":", k ? "," : "");
		out_json_str(o, pi->pmu[k].drv->name);
		pi->pmu[k].drv->ops->info(o, &pi->pmu[k].p, true);
		info_print_use(o, &pi->pmu[k], true);
		out_puts(o, "}");
	}
	out_printf(o, "],\"tsc_hz\":%lu,\"tsc\":{\"source\":", (unsigned long)pi->tsc_hz);
	out_json_str(o, tsc_source_name(pi->tsc.source));
	out_puts(o, ",\"measured_against\":");
	if (pi->tsc.ref)
		out_json_str(o, tsc_source_name(pi->tsc.ref));
	else
		out_puts(o, "null");
	out_printf(o, ",\"windows\":%u,\"spread_ppm\":%u,\"measured_hz\":%lu,\"cpuid_hz\":%lu},\"faults\":[",
		   pi->tsc.windows, pi->tsc.spread_ppm, (unsigned long)pi->tsc.measured_hz, (unsigned long)pi->tsc.cpuid_hz);
	for (unsigned i = 0; i < pi->nfaults; i++)
		out_printf(o, "%s{\"op\":\"%s\",\"msr\":\"%s\",\"name\":\"%s\"}", i ? "," : "",
			   pi->faults[i].write ? "wrmsr" : "rdmsr", pmu_reg_addr(pi->faults[i].reg, addr, sizeof(addr)),
			   reg_label(pi, pi->faults[i].reg, name, sizeof(name)));
	out_printf(o, "],\"usable\":%s,\"verdict\":", pi->verdict == UNC_OK ? "true" : "false");
	out_json_str(o, pi->verdict_reason);
	out_puts(o, "}\n");
}
