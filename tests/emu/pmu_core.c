/* What the core PMU tables share: which one a CPU gets, their rates and
 * clock, counting, and CPUID leaf 0xA. The tables are pmu_p6.c,
 * pmu_knc.c and pmu_arch.c. */
#include "model.h"

#include "../../drivers/base/parse.h"

void emu_family_model(uint32_t leaf1_eax, unsigned *ret_family, unsigned *ret_model)
{
	unsigned family = (leaf1_eax >> 8) & 0xf, model = (leaf1_eax >> 4) & 0xf;

	if (family == 0xf)
		family += (leaf1_eax >> 20) & 0xff;
	if (family == 6 || family == 0xf)
		model |= ((leaf1_eax >> 16) & 0xf) << 4;
	*ret_family = family;
	*ret_model = model;
}

/* Family 6 model 0x2D is Sandy Bridge-EP (Xeon E5-2600). */
enum emu_uncore emu_uncore_for(uint32_t leaf1_eax)
{
	unsigned family, model;

	emu_family_model(leaf1_eax, &family, &model);
	if (family == 6 && emu_adl_model(model))
		return EMU_UNCORE_ADL;
	if (family == 6 && emu_tgl_model(model))
		return EMU_UNCORE_TGL;
	if (family == 6 && emu_icl_model(model))
		return EMU_UNCORE_ICL;
	if (family == 6 && emu_rkl_model(model))
		return EMU_UNCORE_RKL;
	if (family == 6 && emu_mtl_model(model))
		return EMU_UNCORE_MTL;
	if (family == 6 && emu_lnl_model(model))
		return EMU_UNCORE_LNL;
	if (family == 6 && (model == 0x8F || model == 0xCF || model == 0xAD || model == 0xAE || model == 0xAF))
		return EMU_UNCORE_DISC; /* SPR, EMR, GNR, GNR-D, SRF: a discovery table */
	if (family == 6 && (model == 0x6A || model == 0x6C))
		return EMU_UNCORE_ICX; /* Ice Lake-SP, Ice Lake-D */
	/* the Xeon iMC in configuration space: Sandy Bridge-EP to Cooper Lake */
	return family == 6 && emu_imc_gen_for(model) >= 0 ? EMU_UNCORE_SNBEP : EMU_UNCORE_SKL;
}

const char *emu_uncore_name(unsigned uncore)
{
	static const char *const names[] = { "auto", "skl", "snbep", "adl", "tgl", "disc", "icl", "rkl", "mtl", "lnl", "icx" };
	return uncore < sizeof(names) / sizeof(names[0]) ? names[uncore] : "?";
}

enum emu_core emu_core_for(uint32_t leaf1_eax)
{
	unsigned family, model;

	emu_family_model(leaf1_eax, &family, &model);
	/* The MMX Developer's Guide (ch. 6) covers the P6 family: Pentium Pro (1), Pentium II (3, 5),
	 * Celeron (6), Pentium III (7, 8, 0xA, 0xB). */
	if (family == 6 && (model == 1 || model == 3 || model == 5 || model == 6 || model == 7 || model == 8 ||
			    model == 0xa || model == 0xb))
		return EMU_CORE_P6;
	if (family == 0xb && model == 1) /* Knights Corner */
		return EMU_CORE_KNC;
	/* The Skylake-client models (Skylake 0x4E, 0x5E; Kaby, Coffee, Whiskey,
	 * Amber Lake 0x8E, 0x9E; Comet Lake 0xA5, 0xA6) have the architectural
	 * PMU of cfg->arch's default: version 4, 4 general counters per
	 * logical processor (with Hyper-Threading) and 3 fixed, all 48 bits
	 * (SDM Vol. 3B, the Skylake microarchitecture's performance
	 * monitoring). */
	if (family == 6 && (model == 0x4e || model == 0x5e || model == 0x8e || model == 0x9e || model == 0xa5 ||
			    model == 0xa6))
		return EMU_CORE_ARCH;
	return EMU_CORE_NONE;
}

const char *emu_core_name(unsigned core)
{
	static const char *const names[] = { "auto", "none", "p6", "knc", "arch" };
	return core < sizeof(names) / sizeof(names[0]) ? names[core] : "?";
}

const struct emu_core_event *emu_core_events(uint8_t unit, unsigned *n)
{
	switch (unit) {
	case EMU_UNIT_P6: *n = emu_p6_nevents; return emu_p6_events;
	case EMU_UNIT_KNC: *n = emu_knc_nevents; return emu_knc_events;
	case EMU_UNIT_ARCH: *n = emu_arch_nevents; return emu_arch_events;
	default: *n = 0; return NULL;
	}
}

const struct emu_core_event *emu_core_event_find(uint8_t unit, const char *name)
{
	unsigned n;
	const struct emu_core_event *t = emu_core_events(unit, &n);

	for (unsigned i = 0; i < n; i++)
		if (str_ieq(name, t[i].name))
			return &t[i];
	return NULL;
}

/* The configured rate of one event key; 0 when none was given. */
uint64_t emu_core_rate_key(const struct emu_config *cfg, uint8_t unit, uint8_t code, uint8_t umask)
{
	for (unsigned i = 0; i < cfg->nrates; i++) {
		const struct emu_rate *r = &cfg->rates[i];
		if (r->unit == unit && r->code == code && r->umask == umask)
			return r->per_sec;
	}
	return 0;
}

/* The table's cycles event (EMU_CORE_CLOCK). */
static const struct emu_core_event *clock_event(uint8_t unit)
{
	unsigned n;
	const struct emu_core_event *t = emu_core_events(unit, &n);

	for (unsigned i = 0; i < n; i++)
		if (t[i].flags & EMU_CORE_CLOCK)
			return &t[i];
	return NULL;
}

uint64_t emu_core_clock(const struct emu_config *cfg, uint8_t unit)
{
	const struct emu_core_event *ev = clock_event(unit);
	uint64_t r = ev ? emu_core_rate_key(cfg, unit, ev->code, ev->umask) : 0;
	return r ? r : EMU_CORE_DEFAULT_HZ;
}

/* The rate of what a general counter's select (code, umask) counts on
 * counter `counter`: the event the table lists with that code and umask,
 * on a counter the table allows it (else nothing: the MMX Developer's
 * Guide, chapter 6: "counter 0 only" and "counter 1 only"). A unit mask of several states of an
 * EMU_CORE_SUM event (P6 note 1: UMSK[3:0] = M, E, S, I) counts the sum of
 * the states' rates; a unit mask of 0 counts nothing. The cycles event
 * counts at the core clock. An encoding the table does not list counts
 * nothing (MMX Developer's Guide, chapter 6: reserved encodings give
 * undefined results). */
uint64_t emu_core_rate(const struct emu *e, uint8_t unit, uint8_t code, uint8_t umask, unsigned counter)
{
	unsigned n;
	const struct emu_core_event *t = emu_core_events(unit, &n), *ev = NULL, *sum = NULL;

	for (unsigned i = 0; i < n; i++) {
		if (t[i].code != code || t[i].fixed >= 0)
			continue;
		if (t[i].umask == umask)
			ev = &t[i];
		if (t[i].flags & EMU_CORE_SUM)
			sum = &t[i];
	}
	if (sum) {
		if (!(sum->counters >> counter & 1) || !umask || (umask & ~sum->umask))
			return 0;
		uint64_t r = 0;
		for (unsigned b = 0; b < 8; b++)
			if (umask >> b & 1)
				r += emu_core_rate_key(&e->cfg, unit, code, (uint8_t)(1u << b));
		return r;
	}
	if (!ev || !(ev->counters >> counter & 1))
		return 0;
	if (ev->flags & EMU_CORE_CLOCK)
		return e->clock_hz;
	return emu_core_rate_key(&e->cfg, unit, code, umask);
}

/* A general counter: its select's event, counted through CMASK, INV and E
 * (SDM Vol. 3B; Intel 327357-001 Table 1-5: the same fields as the uncore's THR,
 * INV and E, emu_spread). UEFI runs at CPL 0, so an event counts only
 * with OS (bit 17) set; USR alone counts nothing. */
uint64_t emu_core_increment(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1)
{
	uint64_t sel = c->sel;

	if (!(sel & EMU_CORE_SEL_OS))
		return 0;
	uint64_t r = emu_core_rate(e, c->unit, sel & 0xff, (sel >> 8) & 0xff, c->index);
	return emu_spread(e->clock_hz, r, c0, c1, EMU_CORE_SEL_CMASK(sel), sel & EMU_CORE_SEL_INV,
			  sel & EMU_CORE_SEL_EDGE);
}

bool emu_core_no_freeze(const struct emu *e)
{
	(void)e;
	return false;
}

void emu_core_freeze(struct emu *e)
{
	(void)e;
}

bool emu_core_forwarded(const struct emu_ctr *c)
{
	(void)c;
	return true;
}

enum unc_status emu_core_rdpmc_two(struct emu *e, uint32_t index, uint64_t *ret_val)
{
	if (index > 1)
		return UNC_E_FAULT;
	*ret_val = e->ctr[index].value;
	return UNC_OK;
}

/* CPUID leaf 0xA of the architectural PMU served (SDM Vol. 2A, CPUID,
 * leaf 0AH; Vol. 3B, "Architectural Performance Monitoring"): EAX version
 * 7:0, general counters 15:8, their width 23:16, the length of EBX's
 * vector 31:24 (7 events, all available: EBX 0); EDX fixed counters 4:0
 * and their width 12:5, from version 2. */
bool emu_core_cpuid(const struct emu_config *cfg, uint32_t leaf, uint32_t subleaf, struct emu_cpuid *ret)
{
	const struct emu_arch_shape *a = &cfg->arch;

	(void)subleaf;
	if (leaf == 1 && cfg->core_active == EMU_CORE_ARCH && cfg->leaf1_set) {
		*ret = (struct emu_cpuid){ .leaf = 1, .subleaf = subleaf, .eax = cfg->leaf1[0], .ebx = cfg->leaf1[1],
					   .ecx = cfg->leaf1[2] | 1u << 15 /* PDCM */, .edx = cfg->leaf1[3] };
		return true;
	}
	if (leaf != 0xA || cfg->core_active != EMU_CORE_ARCH)
		return false;
	*ret = (struct emu_cpuid){ .leaf = leaf, .subleaf = subleaf };
	ret->eax = a->version | (uint32_t)a->ngp << 8 | (uint32_t)a->gp_width << 16 | 7u << 24;
	if (a->version >= 2)
		ret->edx = a->nfixed | (uint32_t)a->fixed_width << 5;
	return true;
}

void emu_init_cpu(struct emu *e, struct emu *core, const struct emu_config *cfg, uint32_t leaf1_eax)
{
	struct emu_config c = *cfg;

	c.core_active = cfg->core_pmu != EMU_CORE_AUTO ? cfg->core_pmu
			: cfg->arch_set			? EMU_CORE_ARCH
							: emu_core_for(leaf1_eax);
	c.uncore_active = cfg->uncore != EMU_UNCORE_AUTO ? cfg->uncore : emu_uncore_for(leaf1_eax);
	c.xcha_active = emu_xcha_for(cfg, leaf1_eax);
	if (c.uncore_active == EMU_UNCORE_ADL || c.uncore_active == EMU_UNCORE_TGL) {
		unsigned family, model;
		emu_family_model(leaf1_eax, &family, &model);
		bool tgl = c.uncore_active == EMU_UNCORE_TGL;
		/* --uncore on another CPU: the generation's first model */
		if (tgl ? !emu_tgl_model(model) : !emu_adl_model(model))
			model = tgl ? 0x8C : 0x97;
		c.host_bridge_id = emu_adl_host_bridge(model);
		c.imc_block = emu_adl_imc_block(model);
	} else if (c.uncore_active == EMU_UNCORE_MTL || c.uncore_active == EMU_UNCORE_LNL) {
		unsigned family, model;
		emu_family_model(leaf1_eax, &family, &model);
		bool lnl = c.uncore_active == EMU_UNCORE_LNL;
		/* --uncore on another CPU: the generation's first model */
		if (lnl ? !emu_lnl_model(model) : !emu_mtl_model(model))
			model = lnl ? 0xBD : 0xAA;
		c.host_bridge_id = emu_mtl_host_bridge(model);
		c.imc_block = emu_adl_imc_block(model); /* 0xD800, as ADL's */
	}
	if (c.uncore_active == EMU_UNCORE_DISC) {
		/* a UBox 8086:3250 per socket on SPR and EMR (Linux spr_uncore_pci_init);
		 * none on GNR and SRF (gnr_uncore_pci_init maps no bus); --uncore disc
		 * on another CPU: SPR's */
		unsigned family, model;
		emu_family_model(leaf1_eax, &family, &model);
		c.disc_ubox = !(family == 6 && (model == 0xAD || model == 0xAE || model == 0xAF || model == 0xB6 ||
						model == 0xDD));
	}
	if (c.uncore_active == EMU_UNCORE_SNBEP && !c.pci_gen_set) { /* the CPU's generation; another CPU: SNB-EP's */
		unsigned family, model;
		emu_family_model(leaf1_eax, &family, &model);
		int g = family == 6 ? emu_imc_gen_for(model) : -1;
		c.pci_gen = (uint8_t)(g < 0 ? EMU_GEN_SNB : g);
	}
	if (c.uncore_active == EMU_UNCORE_ICL || c.uncore_active == EMU_UNCORE_RKL) /* their IMC is Skylake's */
		c.host_bridge_id = emu_adl_host_bridge(c.uncore_active == EMU_UNCORE_ICL ? 0x7E : 0xA7);
	emu_init_pmu(e, c.uncore_active == EMU_UNCORE_SNBEP ? &emu_pmu_snbep
			: c.uncore_active == EMU_UNCORE_ADL	? &emu_pmu_adl
			: c.uncore_active == EMU_UNCORE_TGL || c.uncore_active == EMU_UNCORE_RKL ? &emu_pmu_tgl
			: c.uncore_active == EMU_UNCORE_ICL	? &emu_pmu_icl
			: c.uncore_active == EMU_UNCORE_DISC	? &emu_pmu_disc
			: c.uncore_active == EMU_UNCORE_ICX	? &emu_pmu_icx
			: c.uncore_active == EMU_UNCORE_MTL	? &emu_pmu_mtl
			: c.uncore_active == EMU_UNCORE_LNL	? &emu_pmu_lnl
								: &emu_pmu_skl,
		     &c);
	switch (c.core_active) {
	case EMU_CORE_P6: emu_init_pmu(core, &emu_pmu_p6, &c); break;
	case EMU_CORE_KNC: emu_init_pmu(core, &emu_pmu_knc, &c); break;
	case EMU_CORE_ARCH: emu_init_pmu(core, emu_pmu_arch(&c), &c); break;
	default: e->next = emu_xcha_attach(&c); return; /* the CHAs beside the uncore (pmu_xcha.c) */
	}
	e->next = core;
	core->next = emu_xcha_attach(&c);
}

void emu_core_leaf1(struct emu *e, uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx)
{
	for (; e; e = e->next) {
		e->cfg.leaf1_set = true;
		e->cfg.leaf1[0] = eax, e->cfg.leaf1[1] = ebx, e->cfg.leaf1[2] = ecx, e->cfg.leaf1[3] = edx;
	}
}
