/* The Alder Lake / Raptor Lake client uncore driver, after Linux's
 * arch/x86/events/intel/uncore_snb.c (adl_uncore_msr_ops, adl_uncore_cbox,
 * adl_uncore_arb, adl_uncore_clockbox, adl_uncore_imc_freerunning): CBo,
 * ARB and the fixed UCLK counter in MSRs under the global control 0x2FF0,
 * and the IMC's free-running 64-bit counters, one set per memory
 * controller, in MCHBAR. Units as data, behaviour as ops. */
#include "adl.h"
#include "mchbar.h"

#include "../base/fmt.h"
#include "../base/parse.h"

/* arch/x86/include/asm/intel-family.h; adl_uncore_init for all six. */
static const struct pmu_model adl_models[] = {
	{ 6, 0x97, "Alder Lake (desktop)" },
	{ 6, 0x9A, "Alder Lake (mobile)" },
	{ 6, 0xBE, "Alder Lake-N" },
	{ 6, 0xB7, "Raptor Lake (desktop)" },
	{ 6, 0xBA, "Raptor Lake-P" },
	{ 6, 0xBF, "Raptor Lake-S" },
	{ 0, 0, 0 },
};

/* uncore_snb.c, adl_uncore_formats_attr: event 0-7, umask 8-15, edge 18,
 * inv 23, cmask6 24-29; SNB_UNC_CTL_EN 22. The ADL uncore has no global
 * status register in Linux, so no overflow-forwarding bit is set. */
const struct pmu_layout adl_layout = {
	.event = { 0, 8 },
	.umask = { 8, 8 },
	.thresh = { 24, 6 },
	.inv = 1ull << 23,
	.edge = 1ull << 18,
	.enable = ADL_CTL_EN,
	.rw_mask = 0x3FC4FFFFull,
	.cite = "uncore_snb.c adl_uncore_formats_attr",
};

/* As on Skylake-client: bounds, not measurements (see skl.c). */
#define ADL_EVENTS_MAX_PER_SEC (1ull << 40)
#define ADL_UCLK_MAX_HZ        (1ull << 33)

/* snb_uncore_arb_constraints, which adl_uncore_arb uses: 0x80 and 0x83 on
 * counter 0 only. */
static const struct pmu_constraint adl_arb_constraints[] = { { 0x80, 0x1 }, { 0x83, 0x1 }, { 0, 0 } };
static const struct pmu_inc adl_arb_incs[] = { { 0x80, 64 }, { 0x85, 64 }, { 0, 0 } };

#define RAW_HELP "/event=N,umask=N[,thresh=N][,inv][,edge]/"

/* Intel perfmon ADL/events/alderlake_uncore.json names the read and write
 * counters; the total (Linux's data_total) takes the name Intel gives it on
 * the later client parts. Each counts 64-byte requests. */
const struct pmu_free adl_imc[ADL_IMC_COUNTERS] = {
	{ "UNC_MC0_TOTAL_REQCOUNT_FREERUN", "mc0_data_total", ADL_IMC_TOTAL, PMU_ROLE_NONE, "requests", "MC0",
	  "MC0 read and write requests (64 B)." },
	{ "UNC_MC0_RDCAS_COUNT_FREERUN", "mc0_data_read", ADL_IMC_READ, PMU_ROLE_DRAM_READ, "lines", "mc0",
	  "MC0 64 B reads, all channels." },
	{ "UNC_MC0_WRCAS_COUNT_FREERUN", "mc0_data_write", ADL_IMC_WRITE, PMU_ROLE_DRAM_WRITE, "lines", "mc0",
	  "MC0 64 B writes, all channels." },
	{ "UNC_MC1_TOTAL_REQCOUNT_FREERUN", "mc1_data_total", ADL_IMC_MC_OFFSET + ADL_IMC_TOTAL, PMU_ROLE_NONE,
	  "requests", "MC1", "MC1 read and write requests (64 B)." },
	{ "UNC_MC1_RDCAS_COUNT_FREERUN", "mc1_data_read", ADL_IMC_MC_OFFSET + ADL_IMC_READ, PMU_ROLE_DRAM_READ, "lines",
	  "mc1", "MC1 64 B reads, all channels." },
	{ "UNC_MC1_WRCAS_COUNT_FREERUN", "mc1_data_write", ADL_IMC_MC_OFFSET + ADL_IMC_WRITE, PMU_ROLE_DRAM_WRITE,
	  "lines", "mc1", "MC1 64 B writes, all channels." },
};

static const struct pmu_unit adl_units[ADL_NUNITS] = {
	[ADL_UNIT_CBO] = { .pmu = "cbox", .alias = "cbo", .intel_unit = "CBO", .name = "CBO", .box_noun = "CBo",
			   .box_label = "cbo", .boxes_from = "ICL_UNC_CBO_CONFIG", .kind = PMU_GENERAL, .space = PMU_MSR,
			   .counters = 2, .width = 44, .max_boxes = ADL_MAX_CBO, .sel_base = ADL_UNC_CBO_0_PERFEVTSEL0,
			   .ctr_base = ADL_UNC_CBO_0_PER_CTR0, .box_stride = ADL_UNC_CBOX_MSR_OFFSET, .sel_step = 1,
			   .ctr_step = 1, .layout = &adl_layout, .max_per_sec = ADL_EVENTS_MAX_PER_SEC,
			   .clock_hz = ADL_UCLK_MAX_HZ, .raw_help = "cbox" RAW_HELP,
			   CLIENT_CTR_NEVER },
	[ADL_UNIT_ARB] = { .pmu = "arb", .intel_unit = "ARB", .name = "ARB", .box_label = "arb", .kind = PMU_GENERAL,
			   .space = PMU_MSR, .counters = 2, .width = 44, .max_boxes = ADL_ARB_BOXES,
			   .sel_base = ADL_UNC_ARB_PERFEVTSEL0, .ctr_base = ADL_UNC_ARB_PER_CTR0,
			   .box_stride = ADL_UNC_ARB_MSR_OFFSET, .sel_step = 1, .ctr_step = 1, .layout = &adl_layout,
			   .constraints = adl_arb_constraints, .max_per_sec = ADL_EVENTS_MAX_PER_SEC,
			   .clock_hz = ADL_UCLK_MAX_HZ, .incs = adl_arb_incs, .raw_help = "arb" RAW_HELP,
			   CLIENT_CTR_NEVER },
	/* adl_uncore_clockbox: 48 bits, started by SNB_UNC_CTL_EN in its
	 * control (snb_uncore_msr_enable_event). Intel's files put
	 * UNC_CLOCK.SOCKET in Unit "NCU". */
	[ADL_UNIT_FIXED] = { .pmu = "clock", .intel_unit = "NCU", .name = "FIXED", .kind = PMU_FIXED, .space = PMU_MSR,
			     .counters = 1, .width = 48, .max_boxes = 1, .sel_base = ADL_UNC_FIXED_CTR_CTRL,
			     .ctr_base = ADL_UNC_FIXED_CTR, .sel_step = 1, .ctr_step = 1, .fixed_ctrl = ADL_CTL_EN,
			     .max_per_sec = ADL_UCLK_MAX_HZ, .clock_hz = ADL_UCLK_MAX_HZ, .clock = true,
			     CLIENT_CTR_NEVER },
	/* Free-running, read only, never written: both controllers' counters,
	 * each 64 bits read as two dwords. */
	[ADL_UNIT_IMC] = { .pmu = "imc", .name = "IMC", .kind = PMU_FREE, .space = PMU_MMIO, .counters = ADL_IMC_COUNTERS,
			   .width = ADL_IMC_WIDTH, .max_boxes = 1, .free = adl_imc, .base_name = "MCHBAR" },
	[ADL_UNIT_IMCP] = ADL_IMCP_UNIT,
};

#define IMCP (1u << ADL_UNIT_IMCP)
/* Whether the run has the programmable IMC counters (probed, boxes found). */
static bool has_imcp(const struct pmu_present *p)
{
	return p->drv->nunits > ADL_UNIT_IMCP && (p->probed & IMCP) && p->boxes[ADL_UNIT_IMCP];
}

#define MSR_UNITS (1u << ADL_UNIT_CBO | 1u << ADL_UNIT_ARB | 1u << ADL_UNIT_FIXED)

/* Where a driver's IMC block is from MCHBAR: its free-running counters'
 * offsets are from there. Alder/Raptor Lake's are from MCHBAR itself;
 * Tiger Lake's from 0x5000 (TGL-L, 0x8C) or 0xD800 (TGL-H). */
static uint32_t imc_block(const struct pmu_present *p, uint32_t model)
{
	if (p->drv != &pmu_driver_tgl)
		return 0;
	return model == 0x8C ? TGL_L_IMC_BLOCK : TGL_H_IMC_BLOCK;
}

/* MCHBAR through the client drivers' one reader (mchbar.h), the unit's
 * counters from the driver's IMC block. */
UNC_COLD enum unc_status adl_probe_imc(const struct hw *hw, const struct cpu_info *cpu, struct pmu_present *p,
				       unsigned unit, char *err, size_t errsize, char *warn, size_t warnsize)
{
	const struct pmu_unit *imc = &p->drv->units[unit];
	uint32_t blk = imc_block(p, cpu->model);
	const struct mchbar_imc where = {
		blk + imc->free[0].offset, blk + imc->free[imc->counters - 1].offset + imc->width / 8,
		adl_host_bridge_name, "Ice Lake to Lunar Lake",
	};
	struct mchbar m;
	enum unc_status st = mchbar_read(hw, cpu, &where, &m, err, errsize, warn, warnsize);

	p->facts[ADL_FACT_HB_ID] = (uint32_t)m.device << 16 | m.vendor;
	p->facts[ADL_FACT_MCHBAR_RAW] = m.raw;
	p->facts[ADL_FACT_HB_ST] = m.hb_st ? m.hb_st : m.st;
	p->facts[ADL_FACT_MCHBAR_MASK] = m.mask;
	if (st)
		return st;
	p->base[unit] = m.base + blk;
	p->found[unit] = p->boxes[unit] = 1;
	return UNC_OK;
}

UNC_COLD enum unc_status adl_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want, struct pmu_present *p,
				 char *err, size_t errsize, char *warn, size_t warnsize)
{
	warn[0] = '\0';
	p->facts[ADL_FACT_MODEL] = cpu->model;
	if (want & MSR_UNITS) {
		uint64_t raw = 0;
		enum unc_status st = hw_msr_read(hw, ADL_UNC_CBO_CONFIG, &raw);
		p->facts[ADL_FACT_CBO_CONFIG_ST] = st;
		p->facts[ADL_FACT_CBO_CONFIG] = raw;
		p->probed |= MSR_UNITS;
		if (st) {
			fmt_snprintf(err, errsize, "rdmsr 0x396 (ICL_UNC_CBO_CONFIG): %s", unc_strerror(st));
			return st;
		}
		/* icl_get_cbox_num: bits 3:0 are the count, nothing subtracted. */
		unsigned n = (unsigned)(raw & ADL_UNC_NUM_CBO_MASK);
		p->found[ADL_UNIT_CBO] = n;
		unsigned max = p->drv->units[ADL_UNIT_CBO].max_boxes;
		p->boxes[ADL_UNIT_CBO] = n > max ? max : n; /* more: adl_event_ok refuses CBo events */
		p->found[ADL_UNIT_ARB] = p->boxes[ADL_UNIT_ARB] = p->drv->units[ADL_UNIT_ARB].max_boxes;
		p->found[ADL_UNIT_FIXED] = p->boxes[ADL_UNIT_FIXED] = 1;
	}
	if (p->drv->nunits <= ADL_UNIT_IMCP)
		want &= ~IMCP;
	return adl_probe_imcs(hw, cpu, p, want, ADL_UNIT_IMC, MSR_UNITS, err, errsize, warn, warnsize);
}

UNC_COLD enum unc_status adl_probe_imcs(const struct hw *hw, const struct cpu_info *cpu, struct pmu_present *p,
					uint32_t want, unsigned imc, uint32_t msr_units, char *err, size_t errsize,
					char *warn, size_t warnsize)
{
	uint32_t imcs = 1u << imc | 1u << (imc + 1);

	if (!(want & imcs))
		return UNC_OK;
	enum unc_status st = adl_probe_imc(hw, cpu, p, imc, err, errsize, warn, warnsize);
	p->probed |= want & imcs;
	if (!st && (want & 1u << (imc + 1)) && !adl_imcp_place(p, imc + 1, p->base[imc], cpu->phys_addr_bits, err, errsize))
		st = UNC_E_RANGE;
	if (!st && (want & 1u << (imc + 1))) {
		/* the programmable counters' windows, MC0's to the end of MC1's */
		char why[140];
		uint64_t first = p->base[imc + 1], len = (ADL_IMCP_BOXES - 1) * ADL_IMCP_MC_STRIDE + ADL_IMCP_MAP_SIZE;
		if ((st = hw_mmio_check(hw, first, len, why, sizeof(why))))
			fmt_snprintf(err, errsize, "programmable IMC counters at 0x%lx refused: %s", (unsigned long)first,
				     why);
	}
	/* With the MSR units (regs, info), the programmable IMC counters
	 * missing is a warning: the unit keeps no box. */
	if (st && (want & msr_units) && !(want & 1u << imc)) {
		fmt_snprintf(warn, warnsize, "no programmable IMC counters: %s", err);
		p->boxes[imc + 1] = p->found[imc + 1] = 0;
		st = UNC_OK;
	}
	return st;
}

/* The limit is the unit's max_boxes: 15 (0x396's largest count) on Alder
 * Lake and Meteor Lake, 14 where box 14 would be IA32_PM_ENABLE (adl.h). */
UNC_COLD const char *adl_cbo_limit_note(const struct pmu_present *p, char *buf, size_t size)
{
	const struct pmu_unit *cbo = &p->drv->units[0];
	unsigned n = p->found[0], max = cbo->max_boxes;

	buf[0] = '\0';
	if (!(p->probed & 1u) || n <= max)
		return buf;
	uint64_t at = pmu_unit_sel(cbo, NULL, 0, max, 0).addr;
	fmt_snprintf(buf, size, "%s reports %u CBos; CBo %u would be MSR 0x%lx%s: at most %u can be counted",
		     cbo->boxes_from ? cbo->boxes_from : "0x396", n, max, (unsigned long)at,
		     at == TGL_CBO_LIMIT_REG ? " (IA32_PM_ENABLE, Intel SDM Vol. 4)" : "", max);
	return buf;
}

/* info's verdict: ready, but no CBo event can be counted. */
UNC_COLD const char *adl_caveat(const struct pmu_present *p, char *buf, size_t size)
{
	char note[160];

	if (!adl_cbo_limit_note(p, note, sizeof(note))[0])
		return NULL;
	fmt_snprintf(buf, size, "no CBo event can be counted: %s", note);
	return buf;
}

UNC_COLD bool adl_event_ok(const struct pmu_present *p, unsigned unit, uint8_t code, uint8_t umask, uint8_t thresh,
			   char *err, size_t errsize)
{
	(void)code, (void)umask, (void)thresh;
	if (unit != 0 || p->found[0] <= p->boxes[0])
		return true;
	adl_cbo_limit_note(p, err, errsize);
	return false;
}

/* In use: the global control's enable set (a driver with one), or any
 * event select or the fixed control non-zero. */
UNC_COLD void adl_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
			 void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	uint64_t v;

	bool msrs = p->probed & MSR_UNITS;

	*r = (struct pmu_use){ .known = msrs ? p->facts[ADL_FACT_CBO_CONFIG_ST] == UNC_OK : has_imcp(p) };
	for (int u = p->drv->use_global ? -1 : 0; msrs && u <= ADL_UNIT_FIXED; u++) {
		const struct pmu_unit *unit = u < 0 ? NULL : &p->drv->units[u];
		unsigned boxes = !unit ? 1 : u == ADL_UNIT_CBO ? p->boxes[ADL_UNIT_CBO] : unit->max_boxes;
		for (unsigned box = 0; box < boxes; box++) {
			for (unsigned i = 0; i < (unit ? unit->counters : 1u); i++) {
				struct pmu_reg reg = unit ? pmu_unit_sel(unit, p, (unsigned)u, box, i) : p->drv->globals[0];
				if (!pmu_use_read(r, reg, hw_msr_read(hw, (uint32_t)reg.addr, &v), on_fault, ctx))
					continue;
				if (unit)
					r->selects_checked++;
				else
					r->global_ctrl = v;
				if (unit ? v != 0 : (v & ADL_GLOBAL_CTL_EN) != 0)
					pmu_use_busy(r, reg, v);
			}
		}
	}
	if (has_imcp(p))
		adl_imcp_in_use(hw, p, ADL_UNIT_IMCP, r, on_fault, ctx);
}

/* 0x2FF0's enable is set only while the run counts (after Linux's
 * adl_uncore_msr_enable_box / disable_box; Linux stopped setting it at
 * init, tip 9a0bb848a371, as a globally enabled uncore may raise power on
 * some Raptor Cove parts): freeze clears it, unfreeze sets it, and the
 * journal puts back the value found when the run ends. */
static enum unc_status adl_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	enum unc_status st;

	if (p->probed & MSR_UNITS) {
		if (s->first) {
			if ((st = pmu_io_read(io, p->drv->globals[0], &s->found)))
				return st;
			s->base = s->found & ~ADL_GLOBAL_CTL_EN;
		}
		if ((st = pmu_io_write(io, p->drv->globals[0], s->base)))
			return st;
	}
	return has_imcp(p) ? adl_imcp_freeze(io, p, ADL_UNIT_IMCP) : UNC_OK;
}

static enum unc_status adl_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	struct pmu_reg ctl = p->drv->globals[0];
	enum unc_status st;

	if ((p->probed & MSR_UNITS) && (st = verify ? pmu_io_write_check(io, ctl, s->base | ADL_GLOBAL_CTL_EN)
						     : pmu_io_write(io, ctl, s->base | ADL_GLOBAL_CTL_EN)))
		return st;
	return has_imcp(p) ? adl_imcp_unfreeze(io, p, ADL_UNIT_IMCP, verify) : UNC_OK;
}

/* No overflow status: the engine's deltas modulo 44 and 48 bits, sampled
 * far more often than a wrap, stand for it. The global control must still
 * read as the run wrote it. */
static enum unc_status adl_check(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s,
				 uint64_t *ret_status)
{
	uint64_t v, want = s->base | ADL_GLOBAL_CTL_EN;
	enum unc_status st;

	*ret_status = 0;
	if (has_imcp(p) && (st = adl_imcp_check(io, p, ADL_UNIT_IMCP)))
		return st;
	if (!(p->probed & MSR_UNITS))
		return UNC_OK;
	if ((st = pmu_io_read(io, p->drv->globals[0], &v)))
		return st;
	if (v != want)
		return pmu_io_fail(io, UNC_E_CLOBBERED,
				   "the global control (0x%lx) reads 0x%lx, not the 0x%lx this run wrote: %s during the run",
				   (unsigned long)p->drv->globals[0].addr, (unsigned long)v, (unsigned long)want,
				   v & ADL_GLOBAL_CTL_EN ? "written by someone else" : "its enable (bit 29) was cleared");
	return UNC_OK;
}

UNC_COLD const char *adl_reg_name_of(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size)
{
	const struct pmu_driver *drv = p ? p->drv : &pmu_driver_adl;
	bool snb = drv != &pmu_driver_adl;

	if (reg.space == PMU_MMIO && p && has_imcp(p)) {
		const char *n = adl_imcp_reg_name(p, ADL_UNIT_IMCP, reg, buf, size);
		if (n)
			return n;
	}
	if (reg.space == PMU_MMIO) {
		const struct pmu_unit *imc = &drv->units[ADL_UNIT_IMC];
		uint64_t base = p ? p->base[ADL_UNIT_IMC] : 0;
		for (unsigned k = 0; k < imc->counters; k++)
			if (reg.addr == base + imc->free[k].offset)
				return imc->free[k].name;
		return NULL;
	}
	if (reg.space != PMU_MSR)
		return NULL;
	/* Linux's macro names: SNB_UNC_* (TGL's and RKL's global control, the
	 * fixed counter, the two-counter ARB), ICL_UNC_* (the CBos from Ice
	 * Lake to Rocket Lake, the CBo count, Ice Lake's one-counter ARB),
	 * ADL_UNC_*. */
	if (drv->use_global && reg.addr == drv->globals[0].addr)
		return snb ? "SNB_UNC_PERF_GLOBAL_CTL" : "ADL_UNC_PERF_GLOBAL_CTL";
	if (reg.addr == ADL_UNC_CBO_CONFIG)
		return "ICL_UNC_CBO_CONFIG";
	for (unsigned u = ADL_UNIT_CBO; u <= ADL_UNIT_FIXED; u++) {
		const struct pmu_unit *pu = &drv->units[u];
		bool one = pu->counters == 1; /* Ice Lake's ARB: ICL_UNC_ARB_PERFEVTSEL, no index */
		const char *pre = !snb ? "ADL" : u == ADL_UNIT_CBO || (u == ADL_UNIT_ARB && one) ? "ICL" : "SNB";
		for (unsigned box = 0; box < pu->max_boxes; box++)
			for (unsigned i = 0; i < pu->counters; i++) {
				bool sel = reg.addr == pmu_unit_sel(pu, NULL, u, box, i).addr;
				if (!sel && reg.addr != pmu_unit_ctr(pu, NULL, u, box, i).addr)
					continue;
				if (u == ADL_UNIT_FIXED)
					fmt_snprintf(buf, size, "%s_UNC_FIXED_CTR%s", pre, sel ? "_CTRL" : "");
				else if (pu->max_boxes > 1)
					fmt_snprintf(buf, size, "%s_UNC_%s_%u_%s%u", pre, pu->name, box, sel ? "PERFEVTSEL" : "PER_CTR", i);
				else
					fmt_snprintf(buf, size, one ? "%s_UNC_%s_%s" : "%s_UNC_%s_%s%u", pre, pu->name,
						     sel ? "PERFEVTSEL" : "PER_CTR", i);
				return buf;
			}
	}
	return NULL;
}

UNC_COLD void adl_imc_where(const struct pmu_present *p, unsigned unit, char *buf, size_t size)
{
	uint16_t vendor = p->facts[ADL_FACT_HB_ID] & 0xffff, device = (uint16_t)(p->facts[ADL_FACT_HB_ID] >> 16);
	const char *gen = adl_host_bridge_name(vendor, device);

	uint32_t blk = imc_block(p, (uint32_t)p->facts[ADL_FACT_MODEL]);

	const struct pmu_unit *imc = &p->drv->units[unit];
	bool mc1 = imc->free[imc->counters - 1].offset >= ADL_IMC_MC_OFFSET;

	char at[24] = "";
	if (blk)
		fmt_snprintf(at, sizeof(at), " + 0x%x", blk);
	fmt_snprintf(buf, size, "at MCHBAR 0x%lx%s%s (host bridge %04x:%04x%s%s)", (unsigned long)(p->base[unit] - blk),
		     at, mc1 ? ", MC1 at +0x10000" : "", vendor, device, gen ? ", " : "", gen ? gen : "");
}

UNC_COLD void adl_where(const struct pmu_present *p, unsigned unit, char *buf, size_t size)
{
	buf[0] = '\0';
	if (unit == ADL_UNIT_IMC)
		adl_imc_where(p, unit, buf, size);
}

const struct pmu_ops adl_ops = {
	.probe = adl_probe,
	.in_use = adl_in_use,
	.freeze = adl_freeze,
	.unfreeze = adl_unfreeze,
	.check = adl_check,
	.event_ok = adl_event_ok,
	.caveat = adl_caveat,
	.reg_name = adl_reg_name_of,
	.info = adl_info,
	.where = adl_where,
};

static const struct pmu_reg adl_globals[] = { { PMU_MSR, { 0, 0, 0 }, ADL_UNC_PERF_GLOBAL_CTL },
					      { PMU_MSR, { 0, 0, 0 }, ADL_UNC_CBO_CONFIG } };

extern const struct event_desc adl_events[];
extern const unsigned adl_events_count;

const struct pmu_driver pmu_driver_adl = {
	.name = "adl-client-uncore",
	.title = "Alder/Raptor Lake",
	.what = "uncore PMU",
	.status_name = "(no overflow status)",
	.vendor = "GenuineIntel",
	.models = adl_models,
	.units = adl_units,
	.nunits = ADL_NUNITS,
	.globals = adl_globals,
	.nglobals = sizeof(adl_globals) / sizeof(adl_globals[0]),
	.events = adl_events,
	.nevents = &adl_events_count,
	.ops = &adl_ops,
	.use_global = true,
	.use_idle = PMU_IDLE_ZERO,
};

UNC_COLD const char *adl_host_bridge_name(uint16_t vendor, uint16_t device)
{
	/* uncore_snb.c's IMC device IDs (icl_uncore_pci_ids: ICL, RKL;
	 * tgl_uncore_pci_ids: TGL, ADL, RPL, MTL). */
	static const uint16_t adl[] = { 0x4660, 0x4641, 0x4601, 0x4602, 0x4609, 0x460A, 0x4621, 0x4623, 0x4629, 0x4637, 0x463B,
					0x4648, 0x4649, 0x4650, 0x4668, 0x4670, 0x4614, 0x4617, 0x4618, 0x461B, 0x461C };
	static const uint16_t mtl[] = { 0x7D00, 0x7D01, 0x7D02, 0x7D05, 0x7D10, 0x7D14, 0x7D15,
					0x7D16, 0x7D21, 0x7D22, 0x7D23, 0x7D24, 0x7D28 };

	if (vendor != 0x8086)
		return NULL;
	if (device == 0x8A02 || device == 0x8A12)
		return "Ice Lake";
	if (device == 0x4C43 || device == 0x4C53)
		return "Rocket Lake";
	if (device == 0x9A02 || device == 0x9A04 || device == 0x9A12 || device == 0x9A14 || device == 0x9A36)
		return "Tiger Lake";
	for (size_t i = 0; i < sizeof(adl) / sizeof(adl[0]); i++)
		if (adl[i] == device)
			return "Alder Lake";
	if ((device >= 0xA700 && device <= 0xA70B) || (device >= 0xA715 && device <= 0xA71C) ||
	    (device >= 0xA728 && device <= 0xA72A))
		return "Raptor Lake";
	for (size_t i = 0; i < sizeof(mtl) / sizeof(mtl[0]); i++)
		if (mtl[i] == device)
			return "Meteor Lake";
	/* Linux lists none for ARL and LNL (its 0:0.0 fallback); chipsec's
	 * arl.xml, arlh.xml and lnl.xml HOSTCTL device IDs. */
	if ((device >= 0x7D1A && device <= 0x7D1C) || (device >= 0x7D2A && device <= 0x7D2F) || device == 0x7D35 ||
	    device == 0x7D06 || device == 0x7D30)
		return "Arrow Lake";
	if (device == 0x6400)
		return "Lunar Lake";
	return NULL;
}
