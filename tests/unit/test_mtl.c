/* The Meteor Lake, Arrow Lake and Lunar Lake drivers (drivers/pmu/mtl.c):
 * their addresses, widths and strides against literals typed from Linux's
 * arch/x86/events/intel/uncore_snb.c (MTL_UNC_*, mtl_uncore_*,
 * lnl_uncore_*), chipsec's MCHBAR fields and host-bridge IDs; the exact
 * writes of a run on a strict fake (the cNCU and sNCU box controls, or
 * Lunar Lake's 0x240E, enabled only while counting and restored as found);
 * and, on the emulator, both controllers' IMC counters, a 48-bit counter
 * across its wrap, and the programmable IMC counters' exact stores beside
 * the box controls. */
#include <stdio.h>
#include <string.h>

#include "../../drivers/base/cpu.h"
#include "../../drivers/engine/evsel.h"
#include "../../drivers/pmu/mchbar.h"
#include "../../drivers/pmu/mtl.h"
#include "../../drivers/engine/stat.h"
#include "../../drivers/output/report.h"
#include "../emu/emu_hw.h"
#include "fake_hw.h"
#include "run_help.h"
#include "t.h"

#define S  1000000000ull
#define MS 1000000ull

static const struct pmu_driver *const mtl_only[] = { &pmu_driver_mtl, NULL };
static const struct pmu_driver *const lnl_only[] = { &pmu_driver_lnl, NULL };

/* ---- literals from uncore_snb.c ---- */

/* A unit's select and counter i of box b at sel0/ctr0 + 0x10 b + i. */
static void unit_at(const struct pmu_driver *drv, unsigned u, unsigned boxes, uint64_t sel0, uint64_t ctr0)
{
	const struct pmu_unit *pu = &drv->units[u];

	T_EQ(pu->counters, 2);
	T_EQ(pu->width, 48);
	T_EQ(pu->space, PMU_MSR);
	T_EQ(pu->kind, PMU_GENERAL);
	T_ASSERT(pu->max_boxes >= boxes);
	for (unsigned b = 0; b < boxes; b++)
		for (unsigned i = 0; i < 2; i++) {
			T_EQ(pmu_unit_sel(pu, NULL, u, b, i).addr, sel0 + 0x10 * b + i);
			T_EQ(pmu_unit_ctr(pu, NULL, u, b, i).addr, ctr0 + 0x10 * b + i);
		}
}

static void mtl_units_at_linux_addresses(void)
{
	for (int d = 0; d < 2; d++) {
		const struct pmu_driver *drv = d ? &pmu_driver_arl : &pmu_driver_mtl;
		const struct pmu_unit *u = drv->units;
		T_EQ(drv->nunits, 7);
		/* MTL_UNC_CBO_0_PERFEVTSEL0 0x2442, PER_CTR0 0x2448,
		 * SNB_UNC_CBO_MSR_OFFSET 0x10; the count from 0x396. */
		T_STREQ(u[MTL_UNIT_CBO].pmu, "cbox");
		unit_at(drv, MTL_UNIT_CBO, 8, 0x2442, 0x2448);
		T_EQ(u[MTL_UNIT_CBO].max_boxes, 15); /* icl_get_cbox_num: 0x396's bits 3:0 */
		/* boxes 8-14, typed: MTL_UNC_CBO_0_PERFEVTSEL0 + 0x10 * box */
		static const uint32_t sel8[] = { 0x24C2, 0x24D2, 0x24E2, 0x24F2, 0x2502, 0x2512, 0x2522 };
		static const uint32_t ctr8[] = { 0x24C8, 0x24D8, 0x24E8, 0x24F8, 0x2508, 0x2518, 0x2528 };
		for (unsigned b = 8; b < 15; b++)
			for (unsigned i = 0; i < 2; i++) {
				T_EQ(pmu_unit_sel(&u[MTL_UNIT_CBO], NULL, MTL_UNIT_CBO, b, i).addr, sel8[b - 8] + i);
				T_EQ(pmu_unit_ctr(&u[MTL_UNIT_CBO], NULL, MTL_UNIT_CBO, b, i).addr, ctr8[b - 8] + i);
			}
		/* mtl_uncore_arb, _hac_arb, _hac_cbox: 2 boxes each. */
		T_STREQ(u[MTL_UNIT_ARB].pmu, "arb");
		unit_at(drv, MTL_UNIT_ARB, 2, 0x2412, 0x2418);
		T_STREQ(u[MTL_UNIT_HAC_ARB].pmu, "hac_arb");
		unit_at(drv, MTL_UNIT_HAC_ARB, 2, 0x2012, 0x2018);
		T_STREQ(u[MTL_UNIT_HAC_CBO].pmu, "hac_cbox");
		unit_at(drv, MTL_UNIT_HAC_CBO, 2, 0x2042, 0x2048);
		for (unsigned k = MTL_UNIT_ARB; k <= MTL_UNIT_HAC_CBO; k++)
			T_EQ(u[k].max_boxes, 2);
		/* mtl_uncore_cncu: MTL_UNC_CNCU_FIXED_CTRL 0x2402, _CTR 0x2408,
		 * 48 bits, started by SNB_UNC_CTL_EN (bit 22). */
		T_EQ(u[MTL_UNIT_FIXED].kind, PMU_FIXED);
		T_EQ(pmu_unit_sel(&u[MTL_UNIT_FIXED], NULL, MTL_UNIT_FIXED, 0, 0).addr, 0x2402);
		T_EQ(pmu_unit_ctr(&u[MTL_UNIT_FIXED], NULL, MTL_UNIT_FIXED, 0, 0).addr, 0x2408);
		T_EQ(u[MTL_UNIT_FIXED].width, 48);
		T_EQ(u[MTL_UNIT_FIXED].fixed_ctrl, 0x400000);
		/* adl_uncore_formats_attr: event 7:0, umask 15:8, edge 18, EN 22,
		 * inv 23, threshold 29:24. */
		const struct pmu_layout *l = u[MTL_UNIT_CBO].layout;
		T_EQ(l->event.shift, 0);
		T_EQ(l->event.bits, 8);
		T_EQ(l->umask.shift, 8);
		T_EQ(l->umask.bits, 8);
		T_EQ(l->thresh.shift, 24);
		T_EQ(l->thresh.bits, 6);
		T_EQ(l->edge, 1ull << 18);
		T_EQ(l->enable, 1ull << 22);
		T_EQ(l->inv, 1ull << 23);
		/* MTL_UNC_CNCU_BOX_CTL 0x240e, MTL_UNC_SNCU_BOX_CTL 0x200e, ICL_UNC_CBO_CONFIG 0x396. */
		T_EQ(drv->nglobals, 3);
		T_EQ(drv->globals[0].addr, 0x240E);
		T_EQ(drv->globals[1].addr, 0x200E);
		T_EQ(drv->globals[2].addr, 0x396);
	}
}

static void lnl_units_at_linux_addresses(void)
{
	const struct pmu_unit *u = pmu_driver_lnl.units;

	/* lnl_msr_uncores: mtl_uncore_cbox and mtl_uncore_arb; the IMC's
	 * free-running and programmable counters. */
	T_EQ(pmu_driver_lnl.nunits, 4);
	unit_at(&pmu_driver_lnl, LNL_UNIT_CBO, 4, 0x2442, 0x2448);
	unit_at(&pmu_driver_lnl, LNL_UNIT_ARB, 2, 0x2412, 0x2418);
	T_EQ(u[LNL_UNIT_ARB].max_boxes, 2);
	T_EQ(u[LNL_UNIT_CBO].layout->thresh.bits, 6);
	T_EQ(u[LNL_UNIT_IMC].kind, PMU_FREE);
	/* LNL_UNC_MSR_GLOBAL_CTL 0x240e alone: 0x396 is not read. */
	T_EQ(pmu_driver_lnl.nglobals, 1);
	T_EQ(pmu_driver_lnl.globals[0].addr, 0x240E);
}

static void imc_free_running_at_linux_offsets(void)
{
	/* adl_uncore_imc_freerunning (mtl_uncore_init's mmio_init is
	 * adl_uncore_mmio_init; lnl_mmio_uncores has adl_uncore_imc): 0xd840
	 * total, 0xd858 read, 0xd8a0 write, 64 bits; + 0x10000 for MC1. */
	static const struct {
		const char *name;
		uint32_t off;
		uint8_t role;
	} want[] = {
		{ "UNC_MC0_TOTAL_REQCOUNT_FREERUN", 0xD840, PMU_ROLE_NONE },
		{ "UNC_MC0_RDCAS_COUNT_FREERUN", 0xD858, PMU_ROLE_DRAM_READ },
		{ "UNC_MC0_WRCAS_COUNT_FREERUN", 0xD8A0, PMU_ROLE_DRAM_WRITE },
		{ "UNC_MC1_TOTAL_REQCOUNT_FREERUN", 0x1D840, PMU_ROLE_NONE },
		{ "UNC_MC1_RDCAS_COUNT_FREERUN", 0x1D858, PMU_ROLE_DRAM_READ },
		{ "UNC_MC1_WRCAS_COUNT_FREERUN", 0x1D8A0, PMU_ROLE_DRAM_WRITE },
	};
	const struct pmu_unit *imcs[] = { &pmu_driver_mtl.units[MTL_UNIT_IMC], &pmu_driver_arl.units[MTL_UNIT_IMC],
					  &pmu_driver_lnl.units[LNL_UNIT_IMC] };

	for (unsigned d = 0; d < 3; d++) {
		const struct pmu_unit *u = imcs[d];
		T_EQ(u->kind, PMU_FREE);
		T_EQ(u->space, PMU_MMIO);
		T_EQ(u->width, 64);
		T_EQ(u->counters, 6);
		for (unsigned k = 0; k < 6; k++) {
			T_STREQ(u->free[k].name, want[k].name);
			T_EQ(u->free[k].offset, want[k].off);
			T_EQ(u->free[k].role, want[k].role);
		}
	}
}

/* uncore_snb.c: mtl_uncore_init's mmio_init is adl_uncore_mmio_init and
 * lnl_mmio_uncores lists adl_uncore_imc: ADL_UNCORE_IMC_BASE 0xd900 from
 * MCHBAR, TGL_UNCORE_MMIO_IMC_MEM_OFFSET 0x10000 per controller, 2 boxes
 * of 5 counters of 64 bits; _BOX_CTL 0xc4, _CTRL 0xd0 (+ 4 per counter),
 * _CTR 0xe8 (+ 8), MC1's _GLOBAL_CTL 0xc0; ADL_UNC_IMC_EVENT_MASK: event
 * 0xff, chmask 0xf00, edge 1 << 18, no enable bit. */
static void imc_prog_at_linux_offsets(void)
{
	static const struct {
		const struct pmu_driver *drv;
		unsigned unit;
	} cases[] = { { &pmu_driver_mtl, MTL_UNIT_IMCP }, { &pmu_driver_arl, MTL_UNIT_IMCP },
		      { &pmu_driver_lnl, LNL_UNIT_IMCP } };
	char err[160];

	for (unsigned d = 0; d < 3; d++) {
		unsigned k = cases[d].unit;
		const struct pmu_unit *u = &cases[d].drv->units[k];
		struct pmu_present p = { .drv = cases[d].drv };
		T_STREQ(u->pmu, "imc_prog");
		T_STREQ(u->intel_unit, "iMC");
		T_EQ(u->kind, PMU_GENERAL);
		T_EQ(u->space, PMU_MMIO);
		T_EQ(u->counters, 5);
		T_EQ(u->width, 64);
		T_EQ(u->max_boxes, 2);
		T_ASSERT(adl_imcp_place(&p, k, 0xFED10000ull, 39, err, sizeof(err)));
		T_EQ(p.boxes[k], 2);
		T_EQ(pmu_unit_box_ctl(u, &p, k, 0).addr, 0xFED1D9C4ull);
		T_EQ(pmu_unit_box_ctl(u, &p, k, 1).addr, 0xFED2D9C4ull);
		T_EQ(adl_imcp_global(&p, k).addr, 0xFED2D9C0ull);
		for (unsigned b = 0; b < 2; b++)
			for (unsigned i = 0; i < 5; i++) {
				T_EQ(pmu_unit_sel(u, &p, k, b, i).addr, 0xFED1D9D0ull + 0x10000 * b + 4 * i);
				T_EQ(pmu_unit_ctr(u, &p, k, b, i).addr, 0xFED1D9E8ull + 0x10000 * b + 8 * i);
			}
		T_EQ(u->layout->event.shift, 0);
		T_EQ(u->layout->event.bits, 8);
		T_EQ(u->layout->umask.shift, 8);
		T_EQ(u->layout->umask.bits, 4);
		T_STREQ(u->layout->umask_term, "chmask");
		T_EQ(u->layout->edge, 1ull << 18);
		T_EQ(u->layout->enable, 0);
	}
}

static void models_host_bridges_and_mchbar_fields(void)
{
	/* intel-family.h: METEORLAKE 0xAC, METEORLAKE_L 0xAA; ARROWLAKE 0xC6,
	 * ARROWLAKE_H 0xC5, ARROWLAKE_U 0xB5; LUNARLAKE_M 0xBD. */
	static const uint32_t mtl[] = { 0xAC, 0xAA, 0 }, arl[] = { 0xC6, 0xC5, 0xB5, 0 }, lnl[] = { 0xBD, 0 };
	const uint32_t *want[] = { mtl, arl, lnl };
	const struct pmu_driver *drv[] = { &pmu_driver_mtl, &pmu_driver_arl, &pmu_driver_lnl };

	for (unsigned d = 0; d < 3; d++) {
		unsigned n = 0;
		for (const struct pmu_model *m = drv[d]->models; m->family; m++, n++) {
			T_EQ(m->family, 6);
			T_EQ(m->model, want[d][n]);
		}
		T_EQ(want[d][n], 0);
	}
	/* chipsec: hostctl1.xml [38:16] (mtl.xml, lnl.xml); hostctl13gen.xml
	 * [41:17] (arl.xml, arlh.xml). */
	T_EQ(mchbar_mask(0xAA), 0x7FFFFF0000ull);
	T_EQ(mchbar_mask(0xAC), 0x7FFFFF0000ull);
	T_EQ(mchbar_mask(0xBD), 0x7FFFFF0000ull);
	T_EQ(mchbar_mask(0xC5), 0x3FFFFFE0000ull);
	T_EQ(mchbar_mask(0xC6), 0x3FFFFFE0000ull);
	T_EQ(mchbar_mask(0xB5), 0x3FFFFFE0000ull);
	/* uncore_snb.c's MTL IMC IDs; chipsec's ARL and LNL HOSTCTL IDs. */
	static const uint16_t mtl_ids[] = { 0x7D00, 0x7D01, 0x7D02, 0x7D05, 0x7D10, 0x7D14, 0x7D15,
					    0x7D16, 0x7D21, 0x7D22, 0x7D23, 0x7D24, 0x7D28 };
	static const uint16_t arl_ids[] = { 0x7D1A, 0x7D1B, 0x7D1C, 0x7D2A, 0x7D2B, 0x7D2C,
					    0x7D2D, 0x7D2E, 0x7D2F, 0x7D35, 0x7D06, 0x7D30 };
	for (unsigned i = 0; i < sizeof(mtl_ids) / sizeof(mtl_ids[0]); i++)
		T_STREQ(adl_host_bridge_name(0x8086, mtl_ids[i]), "Meteor Lake");
	for (unsigned i = 0; i < sizeof(arl_ids) / sizeof(arl_ids[0]); i++)
		T_STREQ(adl_host_bridge_name(0x8086, arl_ids[i]), "Arrow Lake");
	T_STREQ(adl_host_bridge_name(0x8086, 0x6400), "Lunar Lake");
	T_ASSERT(!adl_host_bridge_name(0x8086, 0x7D03)); /* arlh.xml's DTT, not a host bridge */
	T_ASSERT(!adl_host_bridge_name(0x8086, 0x7D29));
	T_ASSERT(!adl_host_bridge_name(0x1022, 0x7D00));
}

/* perfmon's files as published: the names kept, with their units. */
static void events_as_published(void)
{
	static const struct {
		const struct pmu_driver *drv;
		const char *name, *unit;
		uint8_t code, umask;
		int unit_index;
	} want[] = {
		{ &pmu_driver_mtl, "UNC_HAC_ARB_TRANSACTIONS.READS", "HAC_ARB", 0x8A, 0x02, MTL_UNIT_HAC_ARB },
		{ &pmu_driver_mtl, "UNC_HAC_CBO_TOR_ALLOCATION.ALL", "HAC_CBO", 0x35, 0x08, MTL_UNIT_HAC_CBO },
		{ &pmu_driver_mtl, "UNC_ARB_DAT_OCCUPANCY.RD", "ARB", 0x85, 0x02, MTL_UNIT_ARB },
		{ &pmu_driver_mtl, "UNC_CLOCK.SOCKET", "NCU", 0x00, 0x01, MTL_UNIT_FIXED },
		{ &pmu_driver_arl, "UNC_HAC_ARB_TRK_REQUESTS.ALL", "HAC_ARB", 0x81, 0x01, MTL_UNIT_HAC_ARB },
		{ &pmu_driver_arl, "UNC_CLOCK.SOCKET", "NCU", 0x00, 0x01, MTL_UNIT_FIXED },
		/* Unit iMC: the programmable IMC counters; RD_DATA, WR_DATA and
		 * TOTAL_DATA count 32-byte chunks. */
		{ &pmu_driver_mtl, "UNC_M_CAS_COUNT_RD", "iMC", 0x22, 0x00, MTL_UNIT_IMCP },
		{ &pmu_driver_mtl, "UNC_M_PRE_COUNT_IDLE", "iMC", 0x28, 0x00, MTL_UNIT_IMCP },
		{ &pmu_driver_mtl, "UNC_M_RD_DATA", "iMC", 0x3A, 0x00, MTL_UNIT_IMCP },
		{ &pmu_driver_arl, "UNC_M_CAS_COUNT_WR", "iMC", 0x23, 0x00, MTL_UNIT_IMCP },
		{ &pmu_driver_arl, "UNC_M_TOTAL_DATA", "iMC", 0x3C, 0x00, MTL_UNIT_IMCP },
		{ &pmu_driver_lnl, "UNC_M_ACT_COUNT_TOTAL", "iMC", 0x26, 0x00, LNL_UNIT_IMCP },
		{ &pmu_driver_lnl, "UNC_M_WR_DATA", "iMC", 0x3B, 0x00, LNL_UNIT_IMCP },
	};

	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct event_desc *d = evsel_find(want[i].drv, want[i].name);
		T_ASSERT(d != NULL);
		if (!d)
			continue;
		T_STREQ(d->unit, want[i].unit);
		T_EQ(d->code, want[i].code);
		T_EQ(d->umask, want[i].umask);
		T_EQ(pmu_unit_of_event(want[i].drv, d), want[i].unit_index);
	}
	/* MTL V1.22: 5 HAC_ARB, 2 HAC_CBO, 1 NCU, 1 ARB and 10 programmable
	 * iMC (0x22-0x28, 0x3A-0x3C); ARL V1.20 the same less the ARB's; LNL
	 * V1.26 9 iMC (no PRE_COUNT_IDLE), its SANTA clock left out (-x
	 * SANTA). The iMC FREERUN entries (UNC_MC0_RDCAS_COUNT_FREERUN, and
	 * the UNC_M_MC0_* aliases of MTL and ARL) are not rows. */
	T_EQ(*pmu_driver_mtl.nevents, 19);
	T_EQ(*pmu_driver_arl.nevents, 18);
	T_EQ(*pmu_driver_lnl.nevents, 9);
	T_ASSERT(!evsel_find(&pmu_driver_arl, "UNC_ARB_DAT_OCCUPANCY.RD"));
	T_ASSERT(!evsel_find(&pmu_driver_lnl, "UNC_M_PRE_COUNT_IDLE"));
	T_ASSERT(!evsel_find(&pmu_driver_mtl, "UNC_M_MC0_RDCAS_COUNT_FREERUN"));
	T_ASSERT(!evsel_find(&pmu_driver_mtl, "UNC_MC0_RDCAS_COUNT_FREERUN"));
	for (unsigned i = 0; i < *pmu_driver_lnl.nevents; i++)
		T_EQ(pmu_unit_of_event(&pmu_driver_lnl, &pmu_driver_lnl.events[i]), LNL_UNIT_IMCP);
	for (unsigned i = 0; i < *pmu_driver_mtl.nevents; i++)
		T_ASSERT(pmu_unit_of_event(&pmu_driver_mtl, &pmu_driver_mtl.events[i]) >= 0);
	for (unsigned i = 0; i < *pmu_driver_arl.nevents; i++)
		T_ASSERT(pmu_unit_of_event(&pmu_driver_arl, &pmu_driver_arl.events[i]) >= 0);
}

/* Raw events of each unit, with adl_uncore_formats_attr's widths: threshold
 * 29:24 (at most 0x3f); the ARB's occupancy 0x80 on both counters (no
 * constraint on MTL). The HAC units are Meteor Lake's, not Lunar Lake's. */
static void raw_syntax(void)
{
	const struct pmu_driver *const *lnl = lnl_only;
	struct ev_spec e;
	char err[200];

	T_EQ(evsel_parse("hac_arb/event=0x8a,umask=0x02,thresh=0x3f,inv,edge/", mtl_only, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.unit, MTL_UNIT_HAC_ARB);
	T_EQ(evsel_encode(&e), (0x3full << 24) | (1ull << 23) | (1ull << 22) | (1ull << 18) | 0x028A);
	T_EQ(evsel_parse("hac_arb/event=0x8a,thresh=0x40/", mtl_only, &e, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "0x3f");
	T_EQ(evsel_parse("hac_cbox/event=0x35,umask=0x08/", mtl_only, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.unit, MTL_UNIT_HAC_CBO);
	T_EQ(evsel_parse("arb/event=0x80,umask=0x01/", mtl_only, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.counters, 3);
	T_EQ(evsel_parse("cbo/event=0x34,umask=0x8f/", lnl, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.unit, LNL_UNIT_CBO);
	T_EQ(evsel_parse("hac_arb/event=0x8a/", lnl, &e, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_EQ(evsel_parse("UNC_CLOCK.SOCKET", lnl, &e, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_EQ(evsel_parse("UNC_MC1_WRCAS_COUNT_FREERUN", lnl, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.unit, LNL_UNIT_IMC);
}

/* ---- the exact writes of a run, on a strict fake ---- */

static struct fake_hw f;
static struct stat_run run;

static bool jump_f(void *ctx, uint64_t when)
{
	(void)ctx;
	f.now = when;
	return false;
}

static void fake_pair(uint32_t sel0)
{
	for (unsigned b = 0; b < 2; b++)
		for (unsigned r = 0; r < 8; r++)
			if (r < 2 || r >= 6) /* selects at +0, +1; counters at +6, +7 */
				fake_msr(&f, sel0 + 0x10 * b + r, 0);
}

static void fake_mtl(uint64_t cncu, uint64_t sncu)
{
	fake_init(&f);
	fake_cpu_skylake(&f, 0xAA, 8, 16);
	fake_msr(&f, 0x240E, cncu);
	fake_msr(&f, 0x200E, sncu);
	fake_msr(&f, 0x396, 4);
	for (unsigned b = 0; b < 4; b++)
		for (unsigned r = 0; r < 8; r++)
			if (r < 2 || r >= 6)
				fake_msr(&f, 0x2442 + 0x10 * b + r, 0);
	fake_pair(0x2412);
	fake_pair(0x2012);
	fake_pair(0x2042);
	fake_msr(&f, 0x2402, 0);
	fake_msr(&f, 0x2408, 0);
	fake_host_bridge(&f, 0x8086, 0x7D00, 0xFED10001);
}

struct w {
	uint32_t msr;
	uint64_t v;
};

static void writes_begin_with(const struct w *want, unsigned n)
{
	T_ASSERT(f.nlog > n);
	for (unsigned i = 0; i < n && i < f.nlog; i++) {
		T_EQ(f.log[i].kind, FAKE_MSR);
		T_EQ(f.log[i].addr, want[i].msr);
		T_EQ(f.log[i].value, want[i].v);
	}
}

/* Both box controls written with bit 29 clear before programming (their
 * other bits kept: 0x240E found 0x1), set only to start counting, and put
 * back as found at the end, after the selects. No counter is written
 * (Linux's uncore_snb.c writes none). */
static void box_controls_only_during_the_run(void)
{
	struct stat_opts o = { .duration = 300 * MS, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_f, NULL, NULL, NULL };
	const uint64_t en = 1ull << 29; /* SNB_UNC_GLOBAL_CTL_EN */

	fake_mtl(0x1, 0x0);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, mtl_only, "UNC_HAC_ARB_TRANSACTIONS.ALL");
	T_EQ(run_schedule(&run, &f.hw, true), UNC_OK);
	T_EQ(run.pmu[0].p.boxes[MTL_UNIT_HAC_ARB], 2);
	T_EQ(run.pmu[0].p.boxes[MTL_UNIT_CBO], 4);
	T_EQ(stat_loop(&run, &f.hw, false, &o, &env), UNC_OK);
	static const struct w want[] = {
		{ 0x240E, 0x1 }, { 0x200E, 0 }, /* stopped */
		{ 0x2012, 0x40018A }, { 0x2022, 0x40018A }, /* counter 0 of each HAC_ARB box: EN | umask 1 | 0x8A */
		{ 0x2013, 0 }, { 0x2023, 0 },
		{ 0x240E, 0x1 | en }, { 0x200E, en }, /* counting */
	};
	writes_begin_with(want, sizeof(want) / sizeof(want[0]));
	/* Everything as found at the end, the box controls last. */
	T_EQ(f.log[f.nlog - 2].addr, 0x200E);
	T_EQ(f.log[f.nlog - 2].value, 0);
	T_EQ(f.log[f.nlog - 1].addr, 0x240E);
	T_EQ(f.log[f.nlog - 1].value, 0x1);
	T_EQ(*fake_msr_value(&f, 0x240E), 0x1);
	T_EQ(*fake_msr_value(&f, 0x200E), 0);
	for (unsigned r = 0; r < 2; r++) {
		T_EQ(*fake_msr_value(&f, 0x2012 + r), 0);
		T_EQ(*fake_msr_value(&f, 0x2022 + r), 0);
	}
	for (unsigned i = 0; i < f.nlog; i++) { /* never a HAC_ARB counter (0x2018/9, 0x2028/9) */
		T_ASSERT(f.log[i].kind == FAKE_MSR && f.log[i].addr >= 0x200E && f.log[i].addr <= 0x240E);
		T_ASSERT((f.log[i].addr & ~0x31u) != 0x2008);
	}
	T_ASSERT(strstr(run.pmu[0].p.model, "Meteor Lake") != NULL);
}

/* The sNCU box control found enabled (someone's measurement) is refused as
 * in use; with force, both are back as found after the run. */
static void in_use_and_restored_as_found(void)
{
	struct stat_opts o = { .duration = 200 * MS, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_f, NULL, NULL, NULL };

	fake_mtl(0, 1ull << 29);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, mtl_only, "UNC_CLOCK.SOCKET");
	T_EQ(run_schedule(&run, &f.hw, true), UNC_OK);
	T_EQ(stat_loop(&run, &f.hw, false, &o, &env), UNC_E_BUSY);
	T_CONTAINS(run.err, "MTL_UNC_SNCU_BOX_CTL");
	T_EQ(f.nlog, 0);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, mtl_only, "UNC_CLOCK.SOCKET");
	T_EQ(run_schedule(&run, &f.hw, true), UNC_OK);
	T_EQ(stat_loop(&run, &f.hw, true, &o, &env), UNC_OK);
	T_EQ(f.log[0].addr, 0x240E);
	T_EQ(f.log[0].value, 0);
	T_EQ(f.log[1].addr, 0x200E);
	T_EQ(f.log[1].value, 0);
	T_EQ(*fake_msr_value(&f, 0x200E), 1ull << 29);
	T_EQ(*fake_msr_value(&f, 0x240E), 0);
	T_EQ(*fake_msr_value(&f, 0x2402), 0);
	T_EQ(f.log[f.nlog - 1].addr, 0x240E);
}

/* Lunar Lake: 4 CBos without reading 0x396 (the strict fake has no 0x396:
 * a read of it would fail the run), 0x240E alone. */
static void lnl_global_control_and_four_cbos(void)
{
	struct stat_opts o = { .duration = 300 * MS, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_f, NULL, NULL, NULL };
	const uint64_t en = 1ull << 29;

	fake_init(&f);
	fake_cpu_skylake(&f, 0xBD, 8, 8);
	fake_msr(&f, 0x240E, 0);
	for (unsigned b = 0; b < 4; b++)
		for (unsigned r = 0; r < 8; r++)
			if (r < 2 || r >= 6)
				fake_msr(&f, 0x2442 + 0x10 * b + r, 0);
	fake_pair(0x2412);
	fake_host_bridge(&f, 0x8086, 0x6400, 0xFED10001);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, lnl_only, "cbox/event=0x34,umask=0x8f/");
	T_EQ(run_schedule(&run, &f.hw, true), UNC_OK);
	T_EQ(run.pmu[0].p.boxes[LNL_UNIT_CBO], 4);
	T_EQ(run.pmu[0].p.found[LNL_UNIT_CBO], 4);
	T_EQ(stat_loop(&run, &f.hw, false, &o, &env), UNC_OK);
	static const struct w want[] = {
		{ 0x240E, 0 },
		{ 0x2442, 0x408F34 }, { 0x2452, 0x408F34 }, { 0x2462, 0x408F34 }, { 0x2472, 0x408F34 },
		{ 0x2443, 0 }, { 0x2453, 0 }, { 0x2463, 0 }, { 0x2473, 0 },
		{ 0x240E, en },
	};
	writes_begin_with(want, sizeof(want) / sizeof(want[0]));
	for (unsigned i = 0; i < f.nlog; i++) /* no CBo counter (0x2448 + 0x10b, + 1) */
		T_ASSERT((f.log[i].addr & 0xF) != 0x8 && (f.log[i].addr & 0xF) != 0x9);
	T_EQ(f.log[f.nlog - 1].addr, 0x240E);
	T_EQ(*fake_msr_value(&f, 0x240E), 0);
	for (unsigned b = 0; b < 4; b++)
		T_EQ(*fake_msr_value(&f, 0x2442 + 0x10 * b), 0);
}

/* A known model with an unknown host bridge: a warning, not a refusal. */
static void unknown_host_bridge_is_a_warning(void)
{
	char warn[200];
	struct cpu_info cpu;

	fake_mtl(0, 0);
	fake_host_bridge(&f, 0x8086, 0x7D99, 0xFED10001);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, mtl_only, "UNC_MC0_RDCAS_COUNT_FREERUN");
	cpu_identify(&f.hw, &cpu);
	T_EQ(stat_probe(&run, &f.hw, &cpu, warn, sizeof(warn)), UNC_OK);
	T_STREQ(warn, "host bridge 8086:7d99 is not one uncore.efi knows (Ice Lake to Lunar Lake); reading its IMC "
		      "counters anyway");
	T_EQ(run.pmu[0].p.base[MTL_UNIT_IMC], 0xFED10000ull);
}

/* ---- on the emulator ---- */

static struct emu_hw h;
static struct emu_config cfg;

static bool jump_h(void *ctx, uint64_t when)
{
	(void)ctx;
	h.fake.now = when;
	return false;
}

#define MTL_EAX 0x000A06A0u /* family 6, model 0xAA */

static void emulated_probe_finds_both_controllers(void)
{
	static const struct {
		uint32_t eax;
		const struct pmu_driver *drv;
		unsigned imc;
		uint64_t mask; /* chipsec's MCHBAR base field */
	} cases[] = {
		{ 0x000A06A0u, &pmu_driver_mtl, MTL_UNIT_IMC, 0x7FFFFF0000ull },  /* 0xAA: [38:16] */
		{ 0x000C0650u, &pmu_driver_arl, MTL_UNIT_IMC, 0x3FFFFFE0000ull }, /* 0xC5: [41:17] */
		{ 0x000B06D0u, &pmu_driver_lnl, LNL_UNIT_IMC, 0x7FFFFF0000ull },  /* 0xBD: [38:16] */
	};
	char msg[200];

	for (unsigned c = 0; c < 3; c++) {
		const struct pmu_driver *only[] = { cases[c].drv, NULL };
		emu_config_default(&cfg);
		cfg.core_pmu = EMU_CORE_NONE;
		emu_hw_init_cpu(&h, &cfg, cases[c].eax);
		stat_free(&run);
		memset(&run, 0, sizeof(run));
		run_add(&run, only, "UNC_MC1_RDCAS_COUNT_FREERUN");
		struct cpu_info cpu;
		cpu_identify(&h.hw, &cpu);
		T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
		T_STREQ(msg, ""); /* the host bridge the emulator shows is known */
		/* The emulator's MCHBAR (bit 16 set): ARL's field drops bit 16. */
		uint64_t base = EMU_HW_MCHBAR & cases[c].mask;
		T_EQ(run.pmu[0].p.base[cases[c].imc], base);
		T_EQ(pmu_unit_ctr(&cases[c].drv->units[cases[c].imc], &run.pmu[0].p, cases[c].imc, 0, 4).addr,
		     base + 0x1D858);
	}
}

/* An ARB occupancy at 5 * 10^11 per second and box (within its bound of
 * 64 per UCLK cycle) takes each 48-bit counter from its value as found (0:
 * it is never written) past 2^48 in 563 s: 600 s count exactly, the deltas
 * taken modulo 2^48. */
static void forty_eight_bits_across_the_wrap(void)
{
	struct stat_opts o = { .duration = 600 * S, .slice = 600 * S, .sample = 50 * S };
	struct stat_env env = { jump_h, NULL, NULL, NULL };
	char msg[200];

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.rates[cfg.nrates++] = (struct emu_rate){ EMU_UNIT_ARB, 0x85, 0x02, 500000000000ull };
	emu_hw_init_cpu(&h, &cfg, MTL_EAX);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, mtl_only, "UNC_ARB_DAT_OCCUPANCY.RD");
	struct cpu_info cpu;
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_EQ(stat_schedule(&run, false), UNC_OK);
	T_EQ(stat_loop(&run, &h.hw, false, &o, &env), UNC_OK);
	T_EQ(run.c.ev[0].v.width, 48);
	T_EQ(count_total(&run.c, 0, -1), 2 * 600 * 500000000000ull);
	uint64_t v = 0;
	T_EQ(emu_msr_read(&h.emu, 0x2418, &v), UNC_OK);
	T_EQ(v, 600 * 500000000000ull & ((1ull << 48) - 1)); /* what it counted: not written back */
}

/* The emulator's table, as typed: 5 CBos for NO_CBO_BANKS 5 (nothing
 * subtracted), the gaps of the CBo block a #GP, the box controls' bit 29
 * alone writable; a HAC_ARB counter counts with the sNCU's bit 29, a CBo
 * counter with the cNCU's. Lunar Lake: 4 CBos, no 0x200E. */
static void emulated_tables(void)
{
	uint64_t v;

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.rates[cfg.nrates++] = (struct emu_rate){ EMU_UNIT_HAC_ARB, 0x8A, 0x01, 1000000 };
	cfg.rates[cfg.nrates++] = (struct emu_rate){ EMU_UNIT_CBO, 0x34, 0x8F, 1000000 };
	emu_hw_init_cpu(&h, &cfg, MTL_EAX);
	T_EQ(h.emu.cfg.uncore_active, EMU_UNCORE_MTL);
	T_EQ(h.emu.cfg.host_bridge_id, 0x7D00);
	T_EQ(emu_msr_read(&h.emu, 0x2442 + 0x40, &v), UNC_OK);
	T_EQ(emu_msr_read(&h.emu, 0x2442 + 0x50, &v), UNC_E_FAULT);
	T_EQ(emu_msr_read(&h.emu, 0x2444, &v), UNC_E_FAULT);
	T_EQ(emu_msr_write(&h.emu, 0x200E, 1), UNC_E_FAULT);
	T_EQ(emu_msr_write(&h.emu, 0x240E, 1ull << 28), UNC_E_FAULT);
	T_EQ(emu_msr_write(&h.emu, 0x2012, 0x40018A), UNC_OK); /* HAC_ARB box 0 */
	T_EQ(emu_msr_write(&h.emu, 0x2442, 0x408F34), UNC_OK); /* CBo 0 */
	T_EQ(emu_msr_write(&h.emu, 0x240E, 1ull << 29), UNC_OK);
	emu_set_time(&h.emu, S);
	T_EQ(emu_msr_read(&h.emu, 0x2018, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(emu_msr_read(&h.emu, 0x2448, &v), UNC_OK);
	T_EQ(v, 1000000);
	T_EQ(emu_msr_write(&h.emu, 0x200E, 1ull << 29), UNC_OK);
	emu_set_time(&h.emu, 2 * S);
	T_EQ(emu_msr_read(&h.emu, 0x2018, &v), UNC_OK);
	T_EQ(v, 1000000);

	cfg.no_cbo_banks = 2;
	emu_hw_init_cpu(&h, &cfg, 0x000B06D0u);
	T_EQ(h.emu.cfg.uncore_active, EMU_UNCORE_LNL);
	T_EQ(h.emu.cfg.host_bridge_id, 0x6400);
	T_EQ(emu_msr_read(&h.emu, 0x2442 + 0x30, &v), UNC_OK);
	T_EQ(emu_msr_read(&h.emu, 0x2442 + 0x40, &v), UNC_E_FAULT);
	T_EQ(emu_msr_read(&h.emu, 0x240E, &v), UNC_OK);
	T_ASSERT(emu_msr_read(&h.emu, 0x200E, &v) != UNC_OK);
	cfg.no_cbo_banks = 15; /* Lunar Lake: 4 whatever 0x396 would say */
	emu_hw_init_cpu(&h, &cfg, 0x000B06D0u);
	T_EQ(h.emu.ncbo, 4);

	/* Meteor Lake with 15 CBos (0x396's largest count): box 14 at
	 * MTL_UNC_CBO_0_PERFEVTSEL0 + 0x10 * 14 = 0x2522, counter 0x2528;
	 * past it, the CBo block ends (0x2532 is no box). */
	emu_hw_init_cpu(&h, &cfg, MTL_EAX);
	T_EQ(h.emu.ncbo, 15);
	T_EQ(emu_msr_read(&h.emu, 0x396, &v), UNC_OK);
	T_EQ(v, 15);
	T_EQ(emu_msr_write(&h.emu, 0x2522, 0x408F34), UNC_OK);
	T_EQ(emu_msr_read(&h.emu, 0x2529, &v), UNC_OK);
	T_ASSERT(emu_msr_read(&h.emu, 0x2532, &v) != UNC_OK);
	cfg.no_cbo_banks = 12;
	emu_hw_init_cpu(&h, &cfg, MTL_EAX);
	T_EQ(emu_msr_read(&h.emu, 0x2442 + 0x10 * 11, &v), UNC_OK);
	T_EQ(emu_msr_read(&h.emu, 0x2442 + 0x10 * 12, &v), UNC_E_FAULT);
}

/* The programmable IMC counters beside the MSR units on Meteor Lake, on
 * the emulator: each unit's own enable. The exact stores (MSRs as typed
 * from uncore_snb.c, MCHBAR offsets as typed from adl_uncore_imc): the
 * cNCU and sNCU box controls stopped (bit 29 clear), the IMC boxes frozen
 * (box controls 0xd9c4, 0x1d9c4: FRZ); the HAC_ARB selects and the IMC
 * event controls (0xd9d0 + 4i, both controllers); the HAC_ARB counters to
 * their start and the IMC counters reset (RST_CTRS in MC1's global
 * control 0x1d9c0); the box controls' bit 29 set, then the IMC boxes
 * unfrozen. At the end all stopped again and every register put back as
 * found, the box controls last. Counts exact: HAC_ARB 10^6 per box (2
 * boxes), CAS reads 10^6 per channel (mask 0: 4 channels, 2 controllers),
 * RD_DATA 3 * 10^6 32-byte chunks per channel with mask 0x5 (2 channels,
 * 2 controllers). */
static void imc_prog_beside_the_box_controls(void)
{
	struct stat_opts o = { .duration = S, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_h, NULL, NULL, NULL };
	const uint64_t M = EMU_HW_MCHBAR, en = 1ull << 29;
	char msg[200];

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.rates[cfg.nrates++] = (struct emu_rate){ EMU_UNIT_HAC_ARB, 0x8A, 0x01, 1000000 };
	cfg.rates[cfg.nrates++] = (struct emu_rate){ EMU_UNIT_ADL_IMCP, 0x22, 0, 1000000 };
	cfg.rates[cfg.nrates++] = (struct emu_rate){ EMU_UNIT_ADL_IMCP, 0x3A, 0, 3000000 };
	emu_hw_init_cpu(&h, &cfg, MTL_EAX);
	/* As found: MC0 frozen, MC1 not; counts in two counters. */
	h.emu.imcp.box[0] = 1;
	h.emu.imcp.ctr[0][1] = 0x1234567890ull;
	h.emu.imcp.ctr[1][4] = 0xFFFFFFFFull;
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, mtl_only, "UNC_HAC_ARB_TRANSACTIONS.ALL");
	run_add(&run, mtl_only, "UNC_M_CAS_COUNT_RD");
	run_add(&run, mtl_only, "imc_prog/event=0x3a,chmask=0x5/");
	struct cpu_info cpu;
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_EQ(stat_schedule(&run, false), UNC_OK);
	T_EQ(stat_loop(&run, &h.hw, false, &o, &env), UNC_OK);
	if (run.err[0])
		t_fail(__FILE__, __LINE__, "%s", run.err);
	T_EQ(count_total(&run.c, 0, -1), 2000000ull);
	T_EQ(count_total(&run.c, 1, -1), 8000000ull);
	T_EQ(count_total(&run.c, 2, -1), 12000000ull);
	static const struct {
		uint8_t kind;
		uint32_t addr; /* an MSR, or the offset from MCHBAR */
		uint64_t v;
	} want[] = {
		{ FAKE_MSR, 0x240E, 0 }, { FAKE_MSR, 0x200E, 0 },		   /* stopped */
		{ FAKE_MMIO, 0xD9C4, 1 }, { FAKE_MMIO, 0x1D9C4, 1 },		   /* frozen */
		{ FAKE_MSR, 0x2012, 0x40018A }, { FAKE_MSR, 0x2022, 0x40018A }, /* HAC_ARB counter 0, both boxes */
		{ FAKE_MSR, 0x2013, 0 }, { FAKE_MSR, 0x2023, 0 },
		{ FAKE_MMIO, 0xD9D0, 0x22 }, { FAKE_MMIO, 0x1D9D0, 0x22 },	   /* UNC_M_CAS_COUNT_RD */
		{ FAKE_MMIO, 0xD9D4, 0x53A }, { FAKE_MMIO, 0x1D9D4, 0x53A },	   /* event 0x3a, chmask 0x5 */
		{ FAKE_MMIO, 0xD9D8, 0 }, { FAKE_MMIO, 0x1D9D8, 0 }, { FAKE_MMIO, 0xD9DC, 0 }, { FAKE_MMIO, 0x1D9DC, 0 },
		{ FAKE_MMIO, 0xD9E0, 0 }, { FAKE_MMIO, 0x1D9E0, 0 },
		{ FAKE_MSR, 0x240E, en }, { FAKE_MSR, 0x200E, en },		   /* counting */
		{ FAKE_MMIO, 0xD9C4, 0 }, { FAKE_MMIO, 0x1D9C4, 0 },
		{ FAKE_MSR, 0x240E, 0 }, { FAKE_MSR, 0x200E, 0 },		   /* stopped */
		{ FAKE_MMIO, 0xD9C4, 1 }, { FAKE_MMIO, 0x1D9C4, 1 },
	};
	unsigned n = sizeof(want) / sizeof(want[0]);
	/* Then, as found in reverse, the 10 event controls, the 2 IMC box
	 * controls, the 4 HAC_ARB selects... No counter and no IMC global
	 * control is written (Linux writes no counter of either unit). */
	T_EQ(h.fake.nlog, n + 10 + 2 + 4 + 2);
	for (unsigned i = 0; i < n && i < h.fake.nlog; i++) {
		T_EQ(h.fake.log[i].kind, want[i].kind);
		T_EQ(h.fake.log[i].addr, want[i].addr + (want[i].kind == FAKE_MMIO ? M : 0));
		T_EQ(h.fake.log[i].value, want[i].v);
	}
	/* ...the IMC box controls as found (MC1 counting, MC0 frozen), the
	 * MSR box controls last. */
	T_EQ(h.fake.log[h.fake.nlog - 8].addr, M + 0x1D9C4);
	T_EQ(h.fake.log[h.fake.nlog - 8].value, 0);
	T_EQ(h.fake.log[h.fake.nlog - 7].addr, M + 0xD9C4);
	T_EQ(h.fake.log[h.fake.nlog - 7].value, 1);
	for (unsigned i = 0; i < h.fake.nlog; i++) {
		uint64_t a = h.fake.log[i].addr;
		T_ASSERT(h.fake.log[i].kind == FAKE_MMIO ? (a - M) % 0x10000 == 0xD9C4 || ((a - M) % 0x10000 >= 0xD9D0 &&
											     (a - M) % 0x10000 < 0xD9E4)
							 : (a & ~0x31u) != 0x2008);
	}
	T_EQ(h.fake.log[h.fake.nlog - 2].addr, 0x200E);
	T_EQ(h.fake.log[h.fake.nlog - 1].addr, 0x240E);
	T_EQ(h.emu.imcp.box[0], 1);
	T_EQ(h.emu.imcp.box[1], 0);
	T_EQ(h.emu.imcp.global[1], 0);
	/* Each counter as found plus what it counted: 4 * 10^6 CAS reads and
	 * 6 * 10^6 RD_DATA (2 channels) a controller. */
	static const uint64_t end[2][5] = { { 4000000, 0x1234567890ull + 6000000, 0, 0, 0 },
					    { 4000000, 6000000, 0, 0, 0xFFFFFFFFull } };
	for (unsigned b = 0; b < 2; b++)
		for (unsigned i = 0; i < 5; i++) {
			T_EQ(h.emu.imcp.ctl[b][i], 0);
			T_EQ(h.emu.imcp.ctr[b][i], end[b][i]);
		}
	uint64_t v = 1;
	T_EQ(emu_msr_read(&h.emu, 0x240E, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(emu_msr_read(&h.emu, 0x200E, &v), UNC_OK);
	T_EQ(v, 0);
}

/* Lunar Lake, the programmable IMC counters alone: only their registers
 * are written (not the global control 0x240E, which the run does not
 * need); the count exact (CAS writes 10^6 per channel, mask 0x3: 2
 * channels, 2 controllers). An event control found programmed is
 * someone's measurement: refused, nothing written. */
static void lnl_imc_prog_alone_and_in_use(void)
{
	struct stat_opts o = { .duration = S, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_h, NULL, NULL, NULL };
	char msg[200];

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.rates[cfg.nrates++] = (struct emu_rate){ EMU_UNIT_ADL_IMCP, 0x23, 0, 1000000 };
	emu_hw_init_cpu(&h, &cfg, 0x000B06D0u);
	T_EQ(h.emu.cfg.uncore_active, EMU_UNCORE_LNL);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, lnl_only, "imc_prog/event=0x23,chmask=0x3/");
	struct cpu_info cpu;
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_EQ(stat_schedule(&run, false), UNC_OK);
	T_EQ(stat_loop(&run, &h.hw, false, &o, &env), UNC_OK);
	if (run.err[0])
		t_fail(__FILE__, __LINE__, "%s", run.err);
	T_EQ(count_total(&run.c, 0, -1), 4000000ull);
	T_ASSERT(h.fake.nlog > 0);
	for (unsigned i = 0; i < h.fake.nlog; i++) {
		T_EQ(h.fake.log[i].kind, FAKE_MMIO);
		T_ASSERT(h.fake.log[i].addr >= EMU_HW_MCHBAR + 0xD900 && h.fake.log[i].addr < EMU_HW_MCHBAR + 0x1DA10);
	}
	T_EQ(h.fake.log[0].addr, EMU_HW_MCHBAR + 0xD9C4);
	T_EQ(h.fake.log[2].addr, EMU_HW_MCHBAR + 0xD9D0);
	T_EQ(h.fake.log[2].value, 0x323);

	emu_hw_init_cpu(&h, &cfg, 0x000B06D0u);
	h.emu.imcp.ctl[0][2] = 0x3A;
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, lnl_only, "UNC_M_RD_DATA");
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_EQ(stat_schedule(&run, false), UNC_OK);
	T_EQ(stat_loop(&run, &h.hw, false, &o, &env), UNC_E_BUSY);
	T_CONTAINS(run.err, "ADL_UNCORE_IMC_CTRL2 (MC0) = 0x3a");
	T_EQ(h.fake.nlog, 0);
}

/* `list`: the columns as wide as the widest name listed (hac_cbox and
 * imc_prog are 8 characters), every row under its heading. */
static void list_columns_line_up(void)
{
	static char buf[1 << 16];
	struct strbuf sb;

	strbuf_init(&sb, buf, sizeof(buf));
	struct out o = strbuf_out(&sb);
	report_list(&o, false, mtl_only, false, NULL);
	T_CONTAINS(buf, "\npmu       code  umask  counters   event                            description\n");
	T_CONTAINS(buf, "\nhac_arb   0x8a  0x02   0,1        UNC_HAC_ARB_TRANSACTIONS.READS   Number of all CMI reads\n");
	T_CONTAINS(buf, "\nimc_prog  0x3a  0x00   0,1,2,3,4  UNC_M_RD_DATA                    Number of bytes read");
	T_CONTAINS(buf, "\nimc                    free       UNC_MC1_WRCAS_COUNT_FREERUN      MC1 64 B writes");
	/* a unit whose table names no event: said, raw events only */
	T_CONTAINS(buf, "cbox PMU (Meteor Lake, mtl-client-uncore); raw: cbox/event=N,umask=N[,thresh=N][,inv][,edge]/\n"
			"no named events in this driver's table: raw events only\n\n");
	/* under each heading, code, counters and event start where their headings do */
	size_t code = 0, ctr = 0, ev = 0;
	for (char *line = buf, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		if (!strncmp(line, "pmu ", 4)) {
			code = (size_t)(strstr(line, "code") - line);
			ctr = (size_t)(strstr(line, "counters") - line);
			ev = (size_t)(strstr(line, "event") - line);
		} else if (code && strlen(line) > ev && strstr(line, "  0x")) {
			T_EQ(line[code - 1], ' ');
			T_EQ(line[code], '0');
			T_ASSERT(line[ctr - 1] == ' ' && line[ctr] != ' ');
			T_ASSERT(line[ev - 1] == ' ' && !strncmp(line + ev, "UNC_", 4));
		}
		*nl = '\n';
	}
	T_ASSERT(code && ctr && ev);
}

T_MAIN("mtl", T_CASE(list_columns_line_up), T_CASE(mtl_units_at_linux_addresses), T_CASE(lnl_units_at_linux_addresses),
       T_CASE(imc_free_running_at_linux_offsets), T_CASE(models_host_bridges_and_mchbar_fields),
       T_CASE(events_as_published), T_CASE(box_controls_only_during_the_run), T_CASE(in_use_and_restored_as_found),
       T_CASE(lnl_global_control_and_four_cbos), T_CASE(unknown_host_bridge_is_a_warning),
       T_CASE(emulated_probe_finds_both_controllers), T_CASE(forty_eight_bits_across_the_wrap), T_CASE(raw_syntax),
       T_CASE(emulated_tables), T_CASE(imc_prog_at_linux_offsets), T_CASE(imc_prog_beside_the_box_controls),
       T_CASE(lnl_imc_prog_alone_and_in_use))
