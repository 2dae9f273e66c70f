/* The Meteor Lake, Arrow Lake and Lunar Lake client uncore drivers, after
 * Linux's arch/x86/events/intel/uncore_snb.c: mtl_uncore_init (cbox,
 * hac_arb, arb, hac_cbox, cncu, sncu in MSRs; the IMC of
 * adl_uncore_mmio_init) for Meteor Lake and Arrow Lake, lnl_uncore_init
 * (cbox and arb in MSRs under the global control 0x240E; the IMC of
 * lnl_mmio_uncores) for Lunar Lake. Units as data; the ops enable the box
 * controls only while the run counts, and the IMC, free-running counters
 * (adl.c) and programmable ones (adl_imcp.c, under their own box
 * controls' freeze), is Alder Lake's. */
#include "mtl.h"

#include "../base/fmt.h"

/* intel-family.h: METEORLAKE 0xAC, METEORLAKE_L 0xAA; ARROWLAKE 0xC6,
 * ARROWLAKE_H 0xC5, ARROWLAKE_U 0xB5; LUNARLAKE_M 0xBD. */
static const struct pmu_model mtl_models[] = {
	{ 6, 0xAC, "Meteor Lake" },
	{ 6, 0xAA, "Meteor Lake (mobile)" },
	{ 0, 0, 0 },
};
static const struct pmu_model arl_models[] = {
	{ 6, 0xC6, "Arrow Lake (desktop)" },
	{ 6, 0xC5, "Arrow Lake-H" },
	{ 6, 0xB5, "Arrow Lake-U" },
	{ 0, 0, 0 },
};
static const struct pmu_model lnl_models[] = {
	{ 6, 0xBD, "Lunar Lake (mobile)" },
	{ 0, 0, 0 },
};

/* Bounds, not measurements, as on Alder Lake (skl.c explains them). The
 * ARB's occupancies add up to 64 per cycle. */
#define MAX_PER_SEC (1ull << 40)
#define UCLK_MAX_HZ (1ull << 33)
static const struct pmu_inc mtl_arb_incs[] = { { 0x80, 64 }, { 0x85, 64 }, { 0, 0 } };

#define RAW_HELP "/event=N,umask=N[,thresh=N][,inv][,edge]/"

/* A unit of two boxes of two 48-bit counters, SNB_UNC_CBO_MSR_OFFSET apart
 * (mtl_uncore_arb, mtl_uncore_hac_arb, mtl_uncore_hac_cbox), with the
 * event-select layout of adl_uncore_format_group. No constraints: Linux
 * gives the MTL units none. */
#define PAIR_UNIT(PMU, INTEL, NAME, LABEL, SEL, CTR, INCS)                                                            \
	{ .pmu = PMU, .intel_unit = INTEL, .name = NAME, .box_label = LABEL, .kind = PMU_GENERAL, .space = PMU_MSR,  \
	  .counters = 2, .width = MTL_WIDTH, .max_boxes = MTL_PAIR_BOXES, .sel_base = SEL, .ctr_base = CTR,          \
	  .box_stride = MTL_UNC_MSR_OFFSET, .sel_step = 1, .ctr_step = 1, .layout = &adl_layout,                    \
	  .max_per_sec = MAX_PER_SEC, .clock_hz = UCLK_MAX_HZ, .incs = INCS, .raw_help = PMU RAW_HELP,               \
	  CLIENT_CTR_NEVER }

/* mtl_uncore_cbox: the count from ICL_UNC_CBO_CONFIG (MTL, ARL) or 4 (LNL). */
#define CBO_UNIT(FROM)                                                                                               \
	{ .pmu = "cbox", .alias = "cbo", .name = "CBO", .box_noun = "CBo", .box_label = "cbo", .boxes_from = FROM,   \
	  .kind = PMU_GENERAL, .space = PMU_MSR, .counters = 2, .width = MTL_WIDTH, .max_boxes = ADL_MAX_CBO,         \
	  .sel_base = MTL_UNC_CBO_0_PERFEVTSEL0, .ctr_base = MTL_UNC_CBO_0_PER_CTR0, .box_stride = MTL_UNC_MSR_OFFSET, \
	  .sel_step = 1, .ctr_step = 1, .layout = &adl_layout, .max_per_sec = MAX_PER_SEC, .clock_hz = UCLK_MAX_HZ,   \
	  .raw_help = "cbox" RAW_HELP, CLIENT_CTR_NEVER }

/* Free-running, read only: Alder Lake's counters and names (Intel's MTL,
 * ARL and LNL files name them alike). */
#define IMC_UNIT                                                                                                     \
	{ .pmu = "imc", .name = "IMC", .kind = PMU_FREE, .space = PMU_MMIO, .counters = ADL_IMC_COUNTERS,             \
	  .width = ADL_IMC_WIDTH, .max_boxes = 1, .free = adl_imc, .base_name = "MCHBAR" }

static const struct pmu_unit mtl_units[MTL_NUNITS] = {
	[MTL_UNIT_CBO] = CBO_UNIT("ICL_UNC_CBO_CONFIG"),
	[MTL_UNIT_ARB] = PAIR_UNIT("arb", "ARB", "ARB", "arb", MTL_UNC_ARB_CTRL, MTL_UNC_ARB_CTR, mtl_arb_incs),
	[MTL_UNIT_HAC_ARB] = PAIR_UNIT("hac_arb", "HAC_ARB", "HAC_ARB", "hac_arb", MTL_UNC_HAC_ARB_CTRL,
				       MTL_UNC_HAC_ARB_CTR, NULL),
	[MTL_UNIT_HAC_CBO] = PAIR_UNIT("hac_cbox", "HAC_CBO", "HAC_CBO", "hac_cbo", MTL_UNC_HBO_CTRL, MTL_UNC_HBO_CTR,
				       NULL),
	/* mtl_uncore_cncu: one 48-bit fixed counter started by SNB_UNC_CTL_EN
	 * in its control (snb_uncore_msr_enable_event); Intel's files put
	 * UNC_CLOCK.SOCKET in Unit "NCU". Named "clock" as on the earlier
	 * client parts (Linux: "cncu"). */
	[MTL_UNIT_FIXED] = { .pmu = "clock", .intel_unit = "NCU", .name = "CNCU", .kind = PMU_FIXED, .space = PMU_MSR,
			     .counters = 1, .width = MTL_WIDTH, .max_boxes = 1, .sel_base = MTL_UNC_CNCU_FIXED_CTRL,
			     .ctr_base = MTL_UNC_CNCU_FIXED_CTR, .sel_step = 1, .ctr_step = 1, .fixed_ctrl = ADL_CTL_EN,
			     .max_per_sec = UCLK_MAX_HZ, .clock_hz = UCLK_MAX_HZ, .clock = true,
			     CLIENT_CTR_NEVER },
	[MTL_UNIT_IMC] = IMC_UNIT,
	[MTL_UNIT_IMCP] = ADL_IMCP_UNIT,
};

static const struct pmu_unit lnl_units[LNL_NUNITS] = {
	[LNL_UNIT_CBO] = CBO_UNIT(NULL),
	[LNL_UNIT_ARB] = PAIR_UNIT("arb", "ARB", "ARB", "arb", MTL_UNC_ARB_CTRL, MTL_UNC_ARB_CTR, mtl_arb_incs),
	[LNL_UNIT_IMC] = IMC_UNIT,
	[LNL_UNIT_IMCP] = ADL_IMCP_UNIT,
};

static bool is_lnl(const struct pmu_driver *drv)
{
	return drv == &pmu_driver_lnl;
}

/* The IMC's free-running counters, then its programmable ones, are the
 * last units; every unit before them is in MSRs. */
static unsigned imc_unit(const struct pmu_driver *drv)
{
	return is_lnl(drv) ? LNL_UNIT_IMC : MTL_UNIT_IMC;
}

/* Whether the run has the programmable IMC counters (probed, boxes found). */
static bool has_imcp(const struct pmu_present *p)
{
	unsigned u = imc_unit(p->drv) + 1;

	return (p->probed & 1u << u) && p->boxes[u];
}

static uint32_t msr_units(const struct pmu_driver *drv)
{
	return (1u << imc_unit(drv)) - 1;
}

/* The controls enabled while counting: globals[0..n-1] (MTL and ARL: the
 * cNCU and sNCU box controls; LNL: the global control). */
static unsigned nctl(const struct pmu_driver *drv)
{
	return is_lnl(drv) ? 1 : 2;
}

UNC_COLD static enum unc_status mtl_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want,
					  struct pmu_present *p, char *err, size_t errsize, char *warn, size_t warnsize)
{
	const struct pmu_driver *drv = p->drv;
	unsigned imc = imc_unit(drv);

	warn[0] = '\0';
	p->facts[ADL_FACT_MODEL] = cpu->model;
	if (want & msr_units(drv)) {
		unsigned n = LNL_CBOS;
		p->probed |= msr_units(drv);
		p->facts[ADL_FACT_CBO_CONFIG_ST] = UNC_OK;
		if (!is_lnl(drv)) {
			uint64_t raw = 0;
			enum unc_status st = hw_msr_read(hw, ADL_UNC_CBO_CONFIG, &raw);
			p->facts[ADL_FACT_CBO_CONFIG_ST] = st;
			p->facts[ADL_FACT_CBO_CONFIG] = raw;
			if (st) {
				fmt_snprintf(err, errsize, "rdmsr 0x396 (ICL_UNC_CBO_CONFIG): %s", unc_strerror(st));
				return st;
			}
			/* icl_get_cbox_num: bits 3:0, nothing subtracted. */
			n = (unsigned)(raw & ADL_UNC_NUM_CBO_MASK);
		}
		p->found[0] = n;
		p->boxes[0] = n > ADL_MAX_CBO ? ADL_MAX_CBO : n;
		for (unsigned u = 1; u < imc; u++)
			p->found[u] = p->boxes[u] = drv->units[u].max_boxes;
	}
	return adl_probe_imcs(hw, cpu, p, want, imc, msr_units(drv), err, errsize, warn, warnsize);
}

/* In use: bit 29 set in a box control the run enables, or any event
 * select or fixed control non-zero (the MSR units, when probed); any
 * programmable IMC event control non-zero. */
UNC_COLD static void mtl_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
				void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	const struct pmu_driver *drv = p->drv;
	unsigned imc = imc_unit(drv);
	uint64_t v;

	bool msrs = p->probed & msr_units(drv);

	*r = (struct pmu_use){ .known = msrs ? p->facts[ADL_FACT_CBO_CONFIG_ST] == UNC_OK : has_imcp(p) };
	for (unsigned g = 0; msrs && g < nctl(drv); g++) {
		if (hw_msr_read(hw, (uint32_t)drv->globals[g].addr, &v) != UNC_OK) {
			r->known = false;
			if (on_fault)
				on_fault(ctx, drv->globals[g]);
			continue;
		}
		if (g == 0)
			r->global_ctrl = v;
		if (!(v & ADL_GLOBAL_CTL_EN))
			continue;
		r->in_use = true;
		if (r->nbusy < PMU_MAX_BUSY)
			r->busy[r->nbusy++] = (struct pmu_busy){ drv->globals[g], v };
	}
	for (unsigned u = 0; msrs && u < imc; u++) {
		const struct pmu_unit *unit = &drv->units[u];
		for (unsigned box = 0; box < (u == 0 ? p->boxes[0] : unit->max_boxes); box++)
			for (unsigned i = 0; i < unit->counters; i++) {
				struct pmu_reg reg = pmu_unit_sel(unit, p, u, box, i);
				if (!pmu_use_read(r, reg, hw_msr_read(hw, (uint32_t)reg.addr, &v), on_fault, ctx))
					continue;
				r->selects_checked++;
				if (v)
					pmu_use_busy(r, reg, v);
			}
	}
	if (has_imcp(p))
		adl_imcp_in_use(hw, p, imc + 1, r, on_fault, ctx);
}

/* Bit 29 (SNB_UNC_GLOBAL_CTL_EN, which mtl_uncore_msr_init_box writes into
 * the cNCU and sNCU box controls and lnl_uncore_msr_init_box into 0x240E)
 * is set only while the run counts: freeze clears it, unfreeze sets it, the
 * other bits stay as found, and the journal puts back the values found
 * when the run ends. They are written only when the run has MSR units: the
 * programmable IMC counters have their own box controls, frozen and
 * unfrozen by adl_imcp.c (bit 0), after the MSR ones. */
static enum unc_status mtl_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	const struct pmu_reg *g = p->drv->globals;
	bool two = nctl(p->drv) == 2;
	enum unc_status st;

	if (p->probed & msr_units(p->drv)) {
		if (s->first) {
			if ((st = pmu_io_read(io, g[0], &s->found)) || (two && (st = pmu_io_read(io, g[1], &s->found2))))
				return st;
			s->base = s->found & ~ADL_GLOBAL_CTL_EN;
			s->base2 = s->found2 & ~ADL_GLOBAL_CTL_EN;
		}
		if ((st = pmu_io_write(io, g[0], s->base)) || (two && (st = pmu_io_write(io, g[1], s->base2))))
			return st;
	}
	return has_imcp(p) ? adl_imcp_freeze(io, p, imc_unit(p->drv) + 1) : UNC_OK;
}

static enum unc_status mtl_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	const struct pmu_reg *g = p->drv->globals;
	enum unc_status (*write)(struct pmu_io *, struct pmu_reg, uint64_t) = verify ? pmu_io_write_check : pmu_io_write;
	enum unc_status st;

	if ((p->probed & msr_units(p->drv)) &&
	    ((st = write(io, g[0], s->base | ADL_GLOBAL_CTL_EN)) ||
	     (nctl(p->drv) == 2 && (st = write(io, g[1], s->base2 | ADL_GLOBAL_CTL_EN)))))
		return st;
	return has_imcp(p) ? adl_imcp_unfreeze(io, p, imc_unit(p->drv) + 1, verify) : UNC_OK;
}

/* No overflow status (the engine's deltas modulo 48 and 64 bits stand for
 * it); the controls must still read as the run wrote them. */
static enum unc_status mtl_check(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s,
				 uint64_t *ret_status)
{
	enum unc_status st;
	char name[40];

	*ret_status = 0;
	if (has_imcp(p) && (st = adl_imcp_check(io, p, imc_unit(p->drv) + 1)))
		return st;
	for (unsigned g = 0; (p->probed & msr_units(p->drv)) && g < nctl(p->drv); g++) {
		struct pmu_reg reg = p->drv->globals[g];
		uint64_t v, want = (g ? s->base2 : s->base) | ADL_GLOBAL_CTL_EN;
		if ((st = pmu_io_read(io, reg, &v)))
			return st;
		if (v != want)
			return pmu_io_fail(io, UNC_E_CLOBBERED, "%s (0x%lx) reads 0x%lx, not the 0x%lx this run wrote: %s during the run",
					   p->drv->ops->reg_name(p, reg, name, sizeof(name)), (unsigned long)reg.addr,
					   (unsigned long)v, (unsigned long)want,
					   v & ADL_GLOBAL_CTL_EN ? "written by someone else" : "its enable (bit 29) was cleared");
	}
	return UNC_OK;
}

/* Linux's macro names, with the box and counter numbered after them. */
UNC_COLD static const char *mtl_reg_name(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size)
{
	static const char *const pre[][3] = {
		{ "MTL_UNC_CBO", "PERFEVTSEL", "PER_CTR" }, { "MTL_UNC_ARB", "CTRL", "CTR" },
		{ "MTL_UNC_HAC_ARB", "CTRL", "CTR" },	    { "MTL_UNC_HBO", "CTRL", "CTR" },
		{ "MTL_UNC_CNCU_FIXED", "CTRL", "CTR" },
	};
	const struct pmu_driver *drv = p ? p->drv : &pmu_driver_mtl;
	unsigned imc = imc_unit(drv);

	if (reg.space == PMU_MMIO && p && has_imcp(p)) {
		const char *n = adl_imcp_reg_name(p, imc + 1, reg, buf, size);
		if (n)
			return n;
	}
	if (reg.space == PMU_MMIO) {
		const struct pmu_unit *u = &drv->units[imc];
		for (unsigned k = 0; k < u->counters; k++)
			if (reg.addr == (p ? p->base[imc] : 0) + u->free[k].offset)
				return u->free[k].name;
		return NULL;
	}
	if (reg.space != PMU_MSR)
		return NULL;
	if (reg.addr == MTL_UNC_CNCU_BOX_CTL)
		return is_lnl(drv) ? "LNL_UNC_MSR_GLOBAL_CTL" : "MTL_UNC_CNCU_BOX_CTL";
	if (!is_lnl(drv) && reg.addr == MTL_UNC_SNCU_BOX_CTL)
		return "MTL_UNC_SNCU_BOX_CTL";
	if (!is_lnl(drv) && reg.addr == ADL_UNC_CBO_CONFIG)
		return "ICL_UNC_CBO_CONFIG";
	for (unsigned u = 0; u < imc; u++) {
		const struct pmu_unit *pu = &drv->units[u];
		for (unsigned box = 0; box < pu->max_boxes; box++)
			for (unsigned i = 0; i < pu->counters; i++) {
				bool sel = reg.addr == pmu_unit_sel(pu, NULL, u, box, i).addr;
				if (!sel && reg.addr != pmu_unit_ctr(pu, NULL, u, box, i).addr)
					continue;
				if (pu->kind == PMU_FIXED)
					fmt_snprintf(buf, size, "%s_%s", pre[u][0], pre[u][sel ? 1 : 2]);
				else
					fmt_snprintf(buf, size, "%s_%u_%s%u", pre[u][0], box, pre[u][sel ? 1 : 2], i);
				return buf;
			}
	}
	return NULL;
}

UNC_COLD static void mtl_where(const struct pmu_present *p, unsigned unit, char *buf, size_t size)
{
	buf[0] = '\0';
	if (unit == imc_unit(p->drv))
		adl_imc_where(p, unit, buf, size);
}

/* The CBo count (0x396's, or Lunar Lake's fixed 4), then the host bridge
 * and MCHBAR (adl_info.c). */
UNC_COLD static void mtl_info(struct out *o, const struct pmu_present *p, bool json)
{
	bool cbo_ok = (p->probed & 1u) && p->facts[ADL_FACT_CBO_CONFIG_ST] == UNC_OK;

	if (json && cbo_ok)
		out_printf(o, ",\"cbo_count\":%u", p->found[0]);
	else if (cbo_ok && is_lnl(p->drv))
		out_printf(o, "CBos:         %u (fixed on Lunar Lake), %u programmed\n", p->found[0], p->boxes[0]);
	else if (cbo_ok)
		out_printf(o, "0x396:        %u CBos, %u programmed\n", p->found[0], p->boxes[0]);
	adl_info_host_bridge(o, p, imc_unit(p->drv), json);
}

static const struct pmu_ops mtl_ops = {
	.probe = mtl_probe,
	.in_use = mtl_in_use,
	.freeze = mtl_freeze,
	.unfreeze = mtl_unfreeze,
	.check = mtl_check,
	.event_ok = adl_event_ok,
	.caveat = adl_caveat,
	.reg_name = mtl_reg_name,
	.info = mtl_info,
	.where = mtl_where,
};

/* The controls the run enables first, then the CBo count (read, never
 * written). Lunar Lake has the one global control. */
static const struct pmu_reg mtl_globals[] = { { PMU_MSR, { 0, 0, 0 }, MTL_UNC_CNCU_BOX_CTL },
					      { PMU_MSR, { 0, 0, 0 }, MTL_UNC_SNCU_BOX_CTL },
					      { PMU_MSR, { 0, 0, 0 }, ADL_UNC_CBO_CONFIG } };
static const struct pmu_reg lnl_globals[] = { { PMU_MSR, { 0, 0, 0 }, LNL_UNC_MSR_GLOBAL_CTL } };

extern const struct event_desc mtl_events[], arl_events[], lnl_events[];
extern const unsigned mtl_events_count, arl_events_count, lnl_events_count;

#define CLIENT_DRIVER(NAME, TITLE, MODELS, UNITS, NUNITS, GLOBALS, NGLOBALS, EVENTS, NEVENTS)                       \
	{ .name = NAME, .title = TITLE, .what = "uncore PMU", .status_name = "(no overflow status)",                  \
	  .vendor = "GenuineIntel", .models = MODELS, .units = UNITS, .nunits = NUNITS, .globals = GLOBALS,          \
	  .nglobals = NGLOBALS, .events = EVENTS, .nevents = &NEVENTS, .ops = &mtl_ops, .use_global = true,         \
	  .use_idle = PMU_IDLE_ZERO }

const struct pmu_driver pmu_driver_mtl = CLIENT_DRIVER("mtl-client-uncore", "Meteor Lake", mtl_models, mtl_units,
						       MTL_NUNITS, mtl_globals, 3, mtl_events, mtl_events_count);
const struct pmu_driver pmu_driver_arl = CLIENT_DRIVER("arl-client-uncore", "Arrow Lake", arl_models, mtl_units,
						       MTL_NUNITS, mtl_globals, 3, arl_events, arl_events_count);
const struct pmu_driver pmu_driver_lnl = CLIENT_DRIVER("lnl-client-uncore", "Lunar Lake", lnl_models, lnl_units,
						       LNL_NUNITS, lnl_globals, 1, lnl_events, lnl_events_count);
