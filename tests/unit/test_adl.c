/* The Alder Lake / Raptor Lake driver (drivers/pmu/adl.c), the Tiger
 * Lake driver on its ops (drivers/pmu/tgl.c), and the Ice Lake client and
 * Rocket Lake drivers (drivers/pmu/icl.c): their addresses,
 * widths and strides against literals typed from Linux's
 * arch/x86/events/intel/uncore_snb.c (ADL_UNC_*, adl_uncore_*,
 * adl_uncore_imc_freerunning) and chipsec's MCHBAR fields; the exact
 * writes of a run on a strict fake (0x2FF0 enabled only while counting and
 * restored); and the IMC's 64-bit free-running counters of both
 * controllers on the emulator, across a wrap of their low dword. */
#include <stdio.h>
#include <string.h>

#include "../../drivers/base/cpu.h"
#include "../../drivers/engine/evsel.h"
#include "../../drivers/pmu/adl.h"
#include "../../drivers/pmu/mchbar.h"
#include "../../drivers/pmu/skl.h"
#include "../../drivers/engine/stat.h"
#include "../../drivers/engine/info.h"
#include "../emu/emu_hw.h"
#include "fake_hw.h"
#include "run_help.h"
#include "t.h"

#define S  1000000000ull
#define MS 1000000ull

static const struct pmu_driver *const adl_only[] = { &pmu_driver_adl, NULL };

/* ---- literals from uncore_snb.c ---- */

static void units_at_linux_addresses(void)
{
	const struct pmu_unit *u = pmu_driver_adl.units;

	T_EQ(pmu_driver_adl.nunits, 5);
	/* CBo: ADL_UNC_CBO_0_PERFEVTSEL0 0x2000, ADL_UNC_CBO_0_PER_CTR0 0x2002,
	 * ADL_UNC_CBOX_MSR_OFFSET 0x8; 2 counters of 44 bits. */
	T_STREQ(u[ADL_UNIT_CBO].pmu, "cbox");
	T_EQ(u[ADL_UNIT_CBO].counters, 2);
	T_EQ(u[ADL_UNIT_CBO].width, 44);
	for (unsigned b = 0; b < 8; b++)
		for (unsigned i = 0; i < 2; i++) {
			T_EQ(pmu_unit_sel(&u[ADL_UNIT_CBO], NULL, ADL_UNIT_CBO, b, i).addr, 0x2000 + 8 * b + i);
			T_EQ(pmu_unit_ctr(&u[ADL_UNIT_CBO], NULL, ADL_UNIT_CBO, b, i).addr, 0x2002 + 8 * b + i);
		}
	/* ARB: ADL_UNC_ARB_PERFEVTSEL0 0x2fd0, PER_CTR0 0x2fd2, MSR_OFFSET 0x8, 2 boxes. */
	T_STREQ(u[ADL_UNIT_ARB].pmu, "arb");
	T_EQ(u[ADL_UNIT_ARB].max_boxes, 2);
	T_EQ(u[ADL_UNIT_ARB].width, 44);
	T_EQ(pmu_unit_sel(&u[ADL_UNIT_ARB], NULL, ADL_UNIT_ARB, 0, 0).addr, 0x2FD0);
	T_EQ(pmu_unit_ctr(&u[ADL_UNIT_ARB], NULL, ADL_UNIT_ARB, 0, 1).addr, 0x2FD3);
	T_EQ(pmu_unit_sel(&u[ADL_UNIT_ARB], NULL, ADL_UNIT_ARB, 1, 1).addr, 0x2FD9);
	T_EQ(pmu_unit_ctr(&u[ADL_UNIT_ARB], NULL, ADL_UNIT_ARB, 1, 0).addr, 0x2FDA);
	/* The clock box: ADL_UNC_FIXED_CTR_CTRL 0x2fde, ADL_UNC_FIXED_CTR 0x2fdf, 48 bits, EN bit 22. */
	T_EQ(pmu_unit_sel(&u[ADL_UNIT_FIXED], NULL, ADL_UNIT_FIXED, 0, 0).addr, 0x2FDE);
	T_EQ(pmu_unit_ctr(&u[ADL_UNIT_FIXED], NULL, ADL_UNIT_FIXED, 0, 0).addr, 0x2FDF);
	T_EQ(u[ADL_UNIT_FIXED].width, 48);
	T_EQ(u[ADL_UNIT_FIXED].fixed_ctrl, 0x400000);
	/* The select layout: event 7:0, umask 15:8, edge 18, EN 22, inv 23, cmask 29:24. */
	const struct pmu_layout *l = u[ADL_UNIT_CBO].layout;
	T_EQ(l->event.shift, 0);
	T_EQ(l->event.bits, 8);
	T_EQ(l->umask.shift, 8);
	T_EQ(l->umask.bits, 8);
	T_EQ(l->thresh.shift, 24);
	T_EQ(l->thresh.bits, 6);
	T_EQ(l->edge, 1ull << 18);
	T_EQ(l->enable, 1ull << 22);
	T_EQ(l->inv, 1ull << 23);
	/* The global control and the CBo count. */
	T_EQ(pmu_driver_adl.nglobals, 2);
	T_EQ(pmu_driver_adl.globals[0].addr, 0x2FF0);
	T_EQ(pmu_driver_adl.globals[1].addr, 0x396);
}

static void imc_free_running_at_linux_offsets(void)
{
	const struct pmu_unit *u = &pmu_driver_adl.units[ADL_UNIT_IMC];
	/* adl_uncore_imc_freerunning: 0xd840 total, 0xd858 read, 0xd8a0 write,
	 * 64 bits; TGL_UNCORE_MMIO_IMC_MEM_OFFSET 0x10000 per controller. */
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

/* uncore_snb.c adl_uncore_imc: ADL_UNCORE_IMC_BASE 0xd900 from MCHBAR,
 * TGL_UNCORE_MMIO_IMC_MEM_OFFSET 0x10000 per controller, 2 boxes of 5
 * counters of 64 bits; ADL_UNCORE_IMC_BOX_CTL 0xc4, _CTRL 0xd0 (+ 4 per
 * counter), _CTR 0xe8 (+ 8); ADL_UNC_IMC_EVENT_MASK: event 0xff, chmask
 * 0xf00, edge 1 << 18, no enable bit. */
static void imc_prog_at_linux_offsets(void)
{
	const struct pmu_unit *u = &pmu_driver_adl.units[ADL_UNIT_IMCP];
	struct pmu_present p = { .drv = &pmu_driver_adl };
	char err[160];

	T_STREQ(u->pmu, "imc_prog");
	T_STREQ(u->intel_unit, "iMC");
	T_EQ(u->kind, PMU_GENERAL);
	T_EQ(u->space, PMU_MMIO);
	T_EQ(u->counters, 5);
	T_EQ(u->width, 64);
	T_EQ(u->max_boxes, 2);
	T_ASSERT(adl_imcp_place(&p, ADL_UNIT_IMCP, 0xFED10000ull, 39, err, sizeof(err)));
	T_EQ(p.boxes[ADL_UNIT_IMCP], 2);
	T_EQ(pmu_unit_box_ctl(u, &p, ADL_UNIT_IMCP, 0).addr, 0xFED1D9C4ull);
	T_EQ(pmu_unit_box_ctl(u, &p, ADL_UNIT_IMCP, 1).addr, 0xFED2D9C4ull);
	T_EQ(adl_imcp_global(&p, ADL_UNIT_IMCP).addr, 0xFED2D9C0ull); /* MC1's */
	for (unsigned b = 0; b < 2; b++)
		for (unsigned i = 0; i < 5; i++) {
			T_EQ(pmu_unit_sel(u, &p, ADL_UNIT_IMCP, b, i).addr, 0xFED1D9D0ull + 0x10000 * b + 4 * i);
			T_EQ(pmu_unit_ctr(u, &p, ADL_UNIT_IMCP, b, i).addr, 0xFED1D9E8ull + 0x10000 * b + 8 * i);
		}
	const struct pmu_layout *l = u->layout;
	T_EQ(l->event.shift, 0);
	T_EQ(l->event.bits, 8);
	T_EQ(l->umask.shift, 8);
	T_EQ(l->umask.bits, 4);
	T_STREQ(l->umask_term, "chmask");
	T_EQ(l->thresh.bits, 0);
	T_EQ(l->inv, 0);
	T_EQ(l->edge, 1ull << 18);
	T_EQ(l->enable, 0);
	/* The window's end beyond the address width is refused. */
	struct pmu_present q = { .drv = &pmu_driver_adl };
	T_ASSERT(!adl_imcp_place(&q, ADL_UNIT_IMCP, 0x7FFFFF0000ull, 39, err, sizeof(err)));
	T_EQ(q.boxes[ADL_UNIT_IMCP], 0);
}

static void models_and_mchbar_fields(void)
{
	/* intel-family.h: ALDERLAKE 0x97, ALDERLAKE_L 0x9A, ATOM_GRACEMONT
	 * 0xBE, RAPTORLAKE 0xB7, RAPTORLAKE_P 0xBA, RAPTORLAKE_S 0xBF. */
	static const uint32_t models[] = { 0x97, 0x9A, 0xBE, 0xB7, 0xBA, 0xBF };
	unsigned n = 0;

	for (const struct pmu_model *m = pmu_driver_adl.models; m->family; m++, n++)
		T_EQ(m->model, models[n]);
	T_EQ(n, 6);
	/* chipsec: hostctl1.xml [38:16] (ADL), hostctl13gen.xml [41:17] (RPL). */
	T_EQ(mchbar_mask(0x97), 0x7FFFFF0000ull);
	T_EQ(mchbar_mask(0xBE), 0x7FFFFF0000ull);
	T_EQ(mchbar_mask(0xB7), 0x3FFFFFE0000ull);
	T_EQ(mchbar_mask(0xBF), 0x3FFFFFE0000ull);
	/* uncore_snb.c's IMC IDs: first and last of ADL, RPL's ranges. */
	T_STREQ(adl_host_bridge_name(0x8086, 0x4660), "Alder Lake");
	T_STREQ(adl_host_bridge_name(0x8086, 0x461C), "Alder Lake");
	T_STREQ(adl_host_bridge_name(0x8086, 0xA700), "Raptor Lake");
	T_STREQ(adl_host_bridge_name(0x8086, 0xA70B), "Raptor Lake");
	T_STREQ(adl_host_bridge_name(0x8086, 0xA72A), "Raptor Lake");
	T_ASSERT(!adl_host_bridge_name(0x8086, 0xA70C));
	T_ASSERT(!adl_host_bridge_name(0x8086, 0x1910));
}

/* perfmon ADL alderlake_uncore.json: the events kept, as published. */
static void events_as_published(void)
{
	static const struct {
		const char *name, *unit;
		uint8_t code, umask;
	} want[] = {
		{ "UNC_ARB_TRK_REQUESTS.ALL", "ARB", 0x81, 0x01 },
		{ "UNC_ARB_COH_TRK_REQUESTS.ALL", "ARB", 0x84, 0x01 },
		{ "UNC_CLOCK.SOCKET", "NCU", 0x00, 0x01 },
		{ "UNC_ARB_TRK_OCCUPANCY.ALL", "ARB", 0x80, 0x01 },
		{ "UNC_ARB_REQ_TRK_REQUEST.DRD", "ARB", 0x81, 0x02 },
		{ "UNC_ARB_TRK_REQUESTS.RD", "ARB", 0x81, 0x02 },
		/* the programmable IMC counters' (Unit iMC, V1.40) */
		{ "UNC_M_CLOCKTICKS", "iMC", 0x01, 0x00 },
		{ "UNC_M_CAS_COUNT_RD", "iMC", 0x22, 0x00 },
		{ "UNC_M_CAS_COUNT_WR", "iMC", 0x23, 0x00 },
		{ "UNC_M_ACT_COUNT_RD", "iMC", 0x24, 0x00 },
		{ "UNC_M_ACT_COUNT_WR", "iMC", 0x25, 0x00 },
		{ "UNC_M_ACT_COUNT_TOTAL", "iMC", 0x26, 0x00 },
		{ "UNC_M_PRE_COUNT_PAGE_MISS", "iMC", 0x27, 0x00 },
		{ "UNC_M_PRE_COUNT_IDLE", "iMC", 0x28, 0x00 },
	};

	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct event_desc *d = evsel_find(&pmu_driver_adl, want[i].name);
		T_ASSERT(d != NULL);
		if (!d)
			continue;
		T_STREQ(d->unit, want[i].unit);
		T_EQ(d->code, want[i].code);
		T_EQ(d->umask, want[i].umask);
		T_ASSERT(pmu_unit_of_event(&pmu_driver_adl, d) >= 0);
	}
	for (unsigned i = 0; i < *pmu_driver_adl.nevents; i++)
		T_ASSERT(pmu_unit_of_event(&pmu_driver_adl, &pmu_driver_adl.events[i]) >= 0);
	/* 31 events published, 27 rows: the 4 FREERUN ones are the imc unit's
	 * free-running counters, not rows. */
	T_EQ(*pmu_driver_adl.nevents, 27);
	T_EQ(pmu_unit_of_event(&pmu_driver_adl, evsel_find(&pmu_driver_adl, "UNC_M_CAS_COUNT_RD")), ADL_UNIT_IMCP);
	T_ASSERT(evsel_find(&pmu_driver_adl, "UNC_MC0_RDCAS_COUNT_FREERUN") == NULL);
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

static void fake_adl(uint64_t gctl)
{
	fake_init(&f);
	fake_cpu_skylake(&f, 0x97, 8, 16);
	fake_msr(&f, 0x2FF0, gctl);
	fake_msr(&f, 0x396, 4);
	for (unsigned b = 0; b < 4; b++)
		for (unsigned r = 0; r < 4; r++)
			fake_msr(&f, 0x2000 + 8 * b + r, 0);
	for (unsigned b = 0; b < 2; b++)
		for (unsigned r = 0; r < 4; r++)
			fake_msr(&f, 0x2FD0 + 8 * b + r, 0);
	fake_msr(&f, 0x2FDE, 0);
	fake_msr(&f, 0x2FDF, 0);
	fake_host_bridge(&f, 0x8086, 0x4660, 0xFED10001);
}

/* 0x2FF0 is written 0 (its enable clear) before programming, the enable
 * only to start counting, and the value found back at the end, after the
 * selects and counters. */
static void global_control_only_during_the_run(void)
{
	struct stat_opts o = { .duration = 300 * MS, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_f, NULL, NULL, NULL };
	fake_adl(0x0);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, adl_only, "UNC_ARB_TRK_REQUESTS.ALL");
	T_EQ(run_schedule(&run, &f.hw, true), UNC_OK);
	T_EQ(run.pmu[0].p.boxes[ADL_UNIT_ARB], 2);
	T_EQ(stat_loop(&run, &f.hw, false, &o, &env), UNC_OK);
	static const struct {
		uint32_t msr;
		uint64_t v;
	} want[] = {
		{ 0x2FF0, 0 },			  /* stopped */
		{ 0x2FD0, 0x400181 }, { 0x2FD8, 0x400181 }, /* counter 0 of each ARB box: EN | umask 1 | 0x81 */
		{ 0x2FD1, 0 },	      { 0x2FD9, 0 },
		{ 0x2FF0, 1ull << 29 },		  /* counting: no counter is written (Linux writes none) */
	};
	unsigned n = sizeof(want) / sizeof(want[0]);
	T_ASSERT(f.nlog > n);
	for (unsigned i = 0; i < n && i < f.nlog; i++) {
		T_EQ(f.log[i].kind, FAKE_MSR);
		T_EQ(f.log[i].addr, want[i].msr);
		T_EQ(f.log[i].value, want[i].v);
	}
	/* Everything as found at the end, 0x2FF0 last. */
	T_EQ(f.log[f.nlog - 1].addr, 0x2FF0);
	T_EQ(f.log[f.nlog - 1].value, 0);
	T_EQ(*fake_msr_value(&f, 0x2FF0), 0);
	for (unsigned r = 0; r < 4; r++) {
		T_EQ(*fake_msr_value(&f, 0x2FD0 + r), 0);
		T_EQ(*fake_msr_value(&f, 0x2FD8 + r), 0);
	}
	for (unsigned i = 0; i < f.nlog; i++) { /* no counter: 0x2FD2/3, 0x2FDA/B (adl_uncore_arb) */
		T_ASSERT(f.log[i].kind == FAKE_MSR && f.log[i].addr >= 0x2FD0 && f.log[i].addr <= 0x2FF0);
		T_ASSERT(f.log[i].addr != 0x2FD2 && f.log[i].addr != 0x2FD3 && f.log[i].addr != 0x2FDA &&
			 f.log[i].addr != 0x2FDB);
	}
}

/* A global control found with the enable set (someone's measurement) is
 * refused as in use; with force, it is back as found after the run. */
static void global_control_restored_as_found(void)
{
	struct stat_opts o = { .duration = 200 * MS, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_f, NULL, NULL, NULL };

	fake_adl(1ull << 29);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, adl_only, "UNC_CLOCK.SOCKET");
	T_EQ(run_schedule(&run, &f.hw, true), UNC_OK);
	T_EQ(stat_loop(&run, &f.hw, true, &o, &env), UNC_OK);
	T_EQ(f.log[0].addr, 0x2FF0);
	T_EQ(f.log[0].value, 0);
	T_EQ(*fake_msr_value(&f, 0x2FF0), 1ull << 29);
	T_EQ(*fake_msr_value(&f, 0x2FDE), 0);
	T_EQ(f.log[f.nlog - 1].addr, 0x2FF0);
}

/* ---- the IMC on the emulator ---- */

static struct emu_hw h;
static struct emu_config cfg;
static uint64_t ivs[8][2];
static unsigned nivs;

static bool jump_h(void *ctx, uint64_t when)
{
	(void)ctx;
	h.fake.now = when;
	return false;
}

static void on_iv(void *ctx, struct stat_run *r, uint64_t now)
{
	(void)ctx;
	if (nivs < 8) {
		ivs[nivs][0] = count_interval(&r->c, 0, -1, now);
		ivs[nivs][1] = count_interval(&r->c, 1, -1, now);
		nivs++;
	}
}

#define ADL_EAX 0x00090671u /* family 6, model 0x97 */

static void probe_finds_both_controllers(void)
{
	char msg[200];

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	emu_hw_init_cpu(&h, &cfg, ADL_EAX);
	T_EQ(h.emu.cfg.uncore_active, EMU_UNCORE_ADL);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, adl_only, "UNC_MC1_RDCAS_COUNT_FREERUN");
	struct cpu_info cpu;
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_STREQ(msg, ""); /* 8086:4660, shown by the emulator, is known */
	T_EQ(run.pmu[0].p.base[ADL_UNIT_IMC], EMU_HW_MCHBAR);
	T_EQ(pmu_unit_ctr(&pmu_driver_adl.units[ADL_UNIT_IMC], &run.pmu[0].p, ADL_UNIT_IMC, 0, 4).addr,
	     EMU_HW_MCHBAR + 0x1D858);
	/* bw's header names MCHBAR itself: no block offset, nothing after it */
	char where[120];
	pmu_driver_adl.ops->where(&run.pmu[0].p, ADL_UNIT_IMC, where, sizeof(where));
	T_STREQ(where, "at MCHBAR 0xfed10000, MC1 at +0x10000 (host bridge 8086:4660, Alder Lake)");
}

/* Both controllers' read counters start 0x100 below a wrap of their low
 * dword (MC0) and of bit 40 (MC1); 1 s intervals of 3 * 10^9 lines are
 * exact, the two halves read high, low, high. */
static void sixty_four_bits_across_the_low_dword(void)
{
	struct stat_opts o = { .interval = S, .max_intervals = 3, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_h, on_iv, NULL, NULL };
	char msg[200];

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.adl_imc_per_sec[1] = 3000000000ull;
	cfg.adl_imc_start[1] = 0xFFFFFF00ull;
	cfg.adl_imc_per_sec[4] = 1000000000ull;
	cfg.adl_imc_start[4] = 0xFFFFFFFF00ull;
	emu_hw_init_cpu(&h, &cfg, ADL_EAX);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	nivs = 0;
	run_add(&run, adl_only, "UNC_MC0_RDCAS_COUNT_FREERUN");
	run_add(&run, adl_only, "imc/mc1_data_read/");
	struct cpu_info cpu;
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_EQ(stat_schedule(&run, false), UNC_OK);
	T_EQ(stat_loop(&run, &h.hw, false, &o, &env), UNC_OK);
	T_EQ(nivs, 3);
	for (unsigned i = 0; i < nivs; i++) {
		T_EQ(ivs[i][0], 3000000000ull);
		T_EQ(ivs[i][1], 1000000000ull);
	}
	T_EQ(count_total(&run.c, 0, -1), 9000000000ull);
	T_EQ(run.c.ev[0].v.width, 64);
	T_EQ(h.fake.nlog, 0); /* free-running: nothing written */
}


/* The programmable IMC counters on the emulator: the exact stores of a
 * run (MCHBAR offsets typed from uncore_snb.c: box controls 0xd9c4 and
 * 0x1d9c4 FRZ, the event controls 0xd9d0 + 4i of MC0 and MC1, the boxes
 * unfrozen; at the end frozen, then every register as found, the box
 * controls last). No counter and no global control is written: Linux
 * writes no imc_prog counter, and the run does not copy its one reset at
 * init (adl.md), so it counts from the values found (0xAB00000001 in MC1's
 * counter 0). The counts exact (8 * 10^6 CAS reads a second: 10^6 per
 * channel, 4 channels with mask 0, 2 controllers; 4 * 10^6 writes: 10^6
 * per channel, mask 0x3, 2 controllers). */
static void imc_prog_sequence_and_counts(void)
{
	struct stat_opts o = { .duration = S, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_h, NULL, NULL, NULL };
	const uint64_t M = EMU_HW_MCHBAR;
	char msg[200];

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.rates[0] = (struct emu_rate){ EMU_UNIT_ADL_IMCP, 0x22, 0, 1000000 };
	cfg.rates[1] = (struct emu_rate){ EMU_UNIT_ADL_IMCP, 0x23, 0, 1000000 };
	cfg.nrates = 2;
	emu_hw_init_cpu(&h, &cfg, ADL_EAX);
	/* As found: both boxes frozen, some counts in the counters. */
	h.emu.imcp.box[0] = h.emu.imcp.box[1] = 1;
	h.emu.imcp.ctr[0][2] = 0x123456789ull;
	h.emu.imcp.ctr[1][0] = 0xAB00000001ull;
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, adl_only, "UNC_M_CAS_COUNT_RD");
	run_add(&run, adl_only, "imc_prog/event=0x23,chmask=0x3/");
	struct cpu_info cpu;
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_EQ(stat_schedule(&run, false), UNC_OK);
	T_EQ(stat_loop(&run, &h.hw, false, &o, &env), UNC_OK);
	if (run.err[0])
		t_fail(__FILE__, __LINE__, "%s", run.err);
	T_EQ(count_total(&run.c, 0, -1), 8000000ull);
	T_EQ(count_total(&run.c, 1, -1), 4000000ull);
	static const struct {
		uint32_t off, v;
	} want[] = {
		{ 0xD9C4, 1 }, { 0x1D9C4, 1 },			      /* freeze */
		{ 0xD9D0, 0x22 }, { 0x1D9D0, 0x22 }, { 0xD9D4, 0x323 }, { 0x1D9D4, 0x323 }, /* controls */
		{ 0xD9D8, 0 },	  { 0x1D9D8, 0 },    { 0xD9DC, 0 },	{ 0x1D9DC, 0 },
		{ 0xD9E0, 0 },	  { 0x1D9E0, 0 },
		{ 0xD9C4, 0 }, { 0x1D9C4, 0 },			      /* counting */
		{ 0xD9C4, 1 }, { 0x1D9C4, 1 },			      /* stopped */
	};
	unsigned n = sizeof(want) / sizeof(want[0]);
	T_EQ(h.fake.nlog, n + 10 + 2); /* then the controls and the box controls as found */
	for (unsigned i = n; i < h.fake.nlog; i++) { /* no counter, no global control */
		uint64_t off = (h.fake.log[i].addr - M) & 0xFFFF;
		T_ASSERT(off == 0xD9C4 || (off >= 0xD9D0 && off < 0xD9E4));
	}
	for (unsigned i = 0; i < n && i < h.fake.nlog; i++) {
		T_EQ(h.fake.log[i].kind, FAKE_MMIO);
		T_EQ(h.fake.log[i].addr, M + want[i].off);
		T_EQ(h.fake.log[i].value, want[i].v);
	}
	T_EQ(h.fake.log[h.fake.nlog - 2].addr, M + 0x1D9C4);
	T_EQ(h.fake.log[h.fake.nlog - 1].addr, M + 0xD9C4);
	T_EQ(h.fake.log[h.fake.nlog - 1].value, 1);
	T_EQ(h.emu.imcp.box[0], 1);
	T_EQ(h.emu.imcp.box[1], 1);
	T_EQ(h.emu.imcp.global[1], 0);
	/* The counters as found plus what they counted: 4 * 10^6 reads and
	 * 2 * 10^6 writes a controller. */
	static const uint64_t end[2][5] = { { 4000000, 2000000, 0x123456789ull, 0, 0 },
					    { 0xAB00000001ull + 4000000, 2000000, 0, 0, 0 } };
	for (unsigned b = 0; b < 2; b++)
		for (unsigned i = 0; i < 5; i++) {
			T_EQ(h.emu.imcp.ctl[b][i], 0);
			T_EQ(h.emu.imcp.ctr[b][i], end[b][i]);
		}
}

/* The emulator's programmable IMC registers, typed apart from the driver:
 * a frozen box does not count; a counter counts its event's rate per
 * channel times the channels of its mask (every channel with mask 0); MC1's
 * global control resets both controllers (bit 2 the counters, bit 1 the
 * controls), MC0's only keeps what is written; the options that set them. */
static void emu_imc_prog_model(void)
{
	struct emu_config c;
	char err[300] = "";
	uint32_t v;
	const uint64_t M = EMU_HW_MCHBAR;

	T_EQ(emu_parse_options(5, (char *[]){ "emu", "--mchbar", "0x4000000", "--rate", "UNC_M_CAS_COUNT_RD=1M" }, &c, err,
			       sizeof(err)),
	     UNC_OK);
	T_EQ(c.mchbar_at, 0x4000000);
	T_EQ(c.nrates, 1);
	T_EQ(c.rates[0].unit, EMU_UNIT_ADL_IMCP);
	T_EQ(c.rates[0].code, 0x22);
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--mchbar", "0x4010000" }, &c, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "bad value '0x4010000' for --mchbar (want an address below 4 GiB, a multiple of 0x20000)");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--mchbar", "0x100000000" }, &c, err, sizeof(err)), UNC_E_INVALID);

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.rates[0] = (struct emu_rate){ EMU_UNIT_ADL_IMCP, 0x22, 0, 1000 };
	cfg.nrates = 1;
	emu_hw_init_cpu(&h, &cfg, ADL_EAX);
	T_EQ(hw_mmio_write32(&h.hw, M + 0xD9C4, 1), UNC_OK);  /* MC0 frozen */
	T_EQ(hw_mmio_write32(&h.hw, M + 0xD9D0, 0x22), UNC_OK); /* MC0 counter 0: mask 0 */
	T_EQ(hw_mmio_write32(&h.hw, M + 0x1D9D8, 0x522), UNC_OK); /* MC1 counter 2: channels 0 and 2 */
	emu_hw_advance(&h, S);
	T_EQ(hw_mmio_read32(&h.hw, M + 0xD9E8, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(hw_mmio_read32(&h.hw, M + 0x1D9F8, &v), UNC_OK);
	T_EQ(v, 2000);
	T_EQ(hw_mmio_write32(&h.hw, M + 0xD9C4, 0), UNC_OK);
	emu_hw_advance(&h, S);
	T_EQ(hw_mmio_read32(&h.hw, M + 0xD9E8, &v), UNC_OK);
	T_EQ(v, 4000);
	T_EQ(hw_mmio_read32(&h.hw, M + 0xD9EC, &v), UNC_OK); /* the high dword */
	T_EQ(v, 0);
	T_EQ(hw_mmio_write32(&h.hw, M + 0xD9C0, 6), UNC_OK); /* MC0's: kept, no effect */
	T_EQ(hw_mmio_read32(&h.hw, M + 0xD9C0, &v), UNC_OK);
	T_EQ(v, 6);
	T_EQ(hw_mmio_read32(&h.hw, M + 0xD9D0, &v), UNC_OK);
	T_EQ(v, 0x22);
	T_EQ(hw_mmio_write32(&h.hw, M + 0x1D9C0, 4), UNC_OK); /* MC1's RST_CTRS: both controllers' counters */
	T_EQ(hw_mmio_read32(&h.hw, M + 0xD9E8, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(hw_mmio_read32(&h.hw, M + 0x1D9F8, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(hw_mmio_read32(&h.hw, M + 0xD9D0, &v), UNC_OK);
	T_EQ(v, 0x22);
	T_EQ(hw_mmio_write32(&h.hw, M + 0x1D9C0, 2), UNC_OK); /* RST_CTRL: both controllers' controls */
	T_EQ(hw_mmio_read32(&h.hw, M + 0xD9D0, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(hw_mmio_read32(&h.hw, M + 0x1D9D8, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(h.emu.imcp.writes, 7);
}

/* A select found programmed is someone's measurement: refused as in use,
 * nothing written. */
static void imc_prog_in_use(void)
{
	struct stat_opts o = { .duration = 100 * MS, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_h, NULL, NULL, NULL };
	char msg[200];

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	emu_hw_init_cpu(&h, &cfg, ADL_EAX);
	h.emu.imcp.ctl[1][3] = 0x22;
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, adl_only, "UNC_M_CAS_COUNT_WR");
	struct cpu_info cpu;
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_EQ(stat_schedule(&run, false), UNC_OK);
	T_EQ(stat_loop(&run, &h.hw, false, &o, &env), UNC_E_BUSY);
	T_ASSERT(strstr(run.err, "ADL_UNCORE_IMC_CTRL3 (MC1) = 0x22") != NULL);
	T_EQ(h.fake.nlog, 0);
}

/* ---- Tiger Lake (drivers/pmu/tgl.c), the same ops ---- */

static const struct pmu_driver *const tgl_only[] = { &pmu_driver_tgl, NULL };

static void tgl_units_at_linux_addresses(void)
{
	const struct pmu_unit *u = pmu_driver_tgl.units;

	/* ICL_UNC_CBO_0_PER_CTR0 0x702 (select 0x700), ICL_UNC_CBO_MSR_OFFSET 8. */
	for (unsigned b = 0; b < 8; b++)
		for (unsigned i = 0; i < 2; i++) {
			T_EQ(pmu_unit_sel(&u[ADL_UNIT_CBO], NULL, ADL_UNIT_CBO, b, i).addr, 0x700 + 8 * b + i);
			T_EQ(pmu_unit_ctr(&u[ADL_UNIT_CBO], NULL, ADL_UNIT_CBO, b, i).addr, 0x702 + 8 * b + i);
		}
	/* snb_uncore_arb: SNB_UNC_ARB_PER_CTR0 0x3b0, SNB_UNC_ARB_PERFEVTSEL0 0x3b2, one box. */
	T_EQ(u[ADL_UNIT_ARB].max_boxes, 1);
	T_EQ(pmu_unit_sel(&u[ADL_UNIT_ARB], NULL, ADL_UNIT_ARB, 0, 0).addr, 0x3B2);
	T_EQ(pmu_unit_sel(&u[ADL_UNIT_ARB], NULL, ADL_UNIT_ARB, 0, 1).addr, 0x3B3);
	T_EQ(pmu_unit_ctr(&u[ADL_UNIT_ARB], NULL, ADL_UNIT_ARB, 0, 0).addr, 0x3B0);
	T_EQ(pmu_unit_ctr(&u[ADL_UNIT_ARB], NULL, ADL_UNIT_ARB, 0, 1).addr, 0x3B1);
	/* SNB_UNC_FIXED_CTR_CTRL 0x394, SNB_UNC_FIXED_CTR 0x395. */
	T_EQ(pmu_unit_sel(&u[ADL_UNIT_FIXED], NULL, ADL_UNIT_FIXED, 0, 0).addr, 0x394);
	T_EQ(pmu_unit_ctr(&u[ADL_UNIT_FIXED], NULL, ADL_UNIT_FIXED, 0, 0).addr, 0x395);
	T_EQ(u[ADL_UNIT_CBO].layout->thresh.bits, 5); /* cmask5 */
	T_EQ(pmu_driver_tgl.globals[0].addr, 0xE01);
	T_EQ(pmu_driver_tgl.models[0].model, 0x8C);
	T_EQ(pmu_driver_tgl.models[1].model, 0x8D);
	T_EQ(pmu_driver_tgl.models[2].family, 0);
	T_EQ(mchbar_mask(0x8C), 0x3FFFFFE0000ull);
	T_STREQ(adl_host_bridge_name(0x8086, 0x9A14), "Tiger Lake");
	T_STREQ(adl_host_bridge_name(0x8086, 0x9A36), "Tiger Lake");
}

/* TGL-L keeps its IMC counters at MCHBAR + 0x5040/0x5058/0x50A0, TGL-H at
 * + 0xD840/0xD858/0xD8A0; both controllers 0x10000 apart. */
static void tgl_l_and_h_imc_offsets(void)
{
	static const uint32_t tgl_l[] = { 0x5040, 0x5058, 0x50A0, 0x15040, 0x15058, 0x150A0 };
	static const uint32_t tgl_h[] = { 0xD840, 0xD858, 0xD8A0, 0x1D840, 0x1D858, 0x1D8A0 };
	const struct pmu_unit *imc = &pmu_driver_tgl.units[ADL_UNIT_IMC];

	for (unsigned m = 0; m < 2; m++) {
		char msg[200];
		struct cpu_info cpu;
		fake_init(&f);
		fake_cpu_skylake(&f, m ? 0x8D : 0x8C, 4, 8);
		fake_host_bridge(&f, 0x8086, m ? 0x9A36 : 0x9A14, 0xFED20001);
		stat_free(&run);
		memset(&run, 0, sizeof(run));
		run_add(&run, tgl_only, "UNC_MC1_WRCAS_COUNT_FREERUN");
		cpu_identify(&f.hw, &cpu);
		T_EQ(stat_probe(&run, &f.hw, &cpu, msg, sizeof(msg)), UNC_OK);
		T_STREQ(msg, "");
		T_EQ(f.nlog, 0);
		for (unsigned k = 0; k < 6; k++)
			T_EQ(pmu_unit_ctr(imc, &run.pmu[0].p, ADL_UNIT_IMC, 0, k).addr, 0xFED20000ull + (m ? tgl_h : tgl_l)[k]);
		T_STREQ(imc->free[5].name, "UNC_MC1_WRCAS_COUNT_FREERUN");
		char where[120];
		pmu_driver_tgl.ops->where(&run.pmu[0].p, ADL_UNIT_IMC, where, sizeof(where));
		T_STREQ(where, m ? "at MCHBAR 0xfed20000 + 0xd800, MC1 at +0x10000 (host bridge 8086:9a36, Tiger Lake)"
				 : "at MCHBAR 0xfed20000 + 0x5000, MC1 at +0x10000 (host bridge 8086:9a14, Tiger Lake)");
	}
}

/* 0xE01: bit 29 only, and only while counting; restored as found. */
static void tgl_global_control_only_during_the_run(void)
{
	struct stat_opts o = { .duration = 300 * MS, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_f, NULL, NULL, NULL };

	fake_init(&f);
	fake_cpu_skylake(&f, 0x8C, 4, 8);
	fake_msr(&f, 0xE01, 0x5); /* PMI selects someone left */
	fake_msr(&f, 0x396, 4);
	for (unsigned b = 0; b < 4; b++)
		for (unsigned r = 0; r < 4; r++)
			fake_msr(&f, 0x700 + 8 * b + r, 0);
	for (unsigned r = 0; r < 4; r++)
		fake_msr(&f, 0x3B0 + r, 0);
	fake_msr(&f, 0x394, 0);
	fake_msr(&f, 0x395, 0);
	fake_host_bridge(&f, 0x8086, 0x9A14, 0xFED20001);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, tgl_only, "UNC_ARB_TRK_REQUESTS.ALL");
	run_add(&run, tgl_only, "UNC_CLOCK.SOCKET");
	T_EQ(run_schedule(&run, &f.hw, true), UNC_OK);
	T_EQ(stat_loop(&run, &f.hw, false, &o, &env), UNC_OK);
	if (!f.nlog) {
		t_fail(__FILE__, __LINE__, "no write: %s", run.err);
		return;
	}
	static const struct {
		uint32_t msr;
		uint64_t v;
	} want[] = {
		{ 0xE01, 0x5 }, { 0x3B2, 0x400181 }, { 0x3B3, 0 }, { 0x394, 0x400000 }, { 0xE01, 0x5 | 1ull << 29 },
	};
	unsigned n = sizeof(want) / sizeof(want[0]);
	T_ASSERT(f.nlog > n);
	for (unsigned i = 0; i < n && i < f.nlog; i++) {
		T_EQ(f.log[i].addr, want[i].msr);
		T_EQ(f.log[i].value, want[i].v);
	}
	T_EQ(f.log[f.nlog - 1].addr, 0xE01);
	T_EQ(*fake_msr_value(&f, 0xE01), 0x5);
	T_EQ(*fake_msr_value(&f, 0x394), 0);
	T_EQ(*fake_msr_value(&f, 0x3B2), 0);
	for (unsigned i = 0; i < f.nlog; i++) /* no counter (ARB 0x3B0/0x3B1, fixed 0x395): Linux writes none */
		T_ASSERT(f.log[i].addr != 0x3B0 && f.log[i].addr != 0x3B1 && f.log[i].addr != 0x395);
}

/* ---- Ice Lake client and Rocket Lake (drivers/pmu/icl.c) ---- */

static const struct pmu_driver *const icl_only[] = { &pmu_driver_icl, NULL };
static const struct pmu_driver *const rkl_only[] = { &pmu_driver_rkl, NULL };

/* uncore_snb.c: icl_uncore_cbox (SNB_UNC_CBO_0_PERFEVTSEL0 0x700,
 * ICL_UNC_CBO_0_PER_CTR0 0x702, ICL_UNC_CBO_MSR_OFFSET 8, 2 counters of 44
 * bits), icl_uncore_arb (num_counters 1, ICL_UNC_ARB_PER_CTR 0x3b1,
 * ICL_UNC_ARB_PERFEVTSEL 0x3b3, 44 bits), icl_uncore_clockbox
 * (SNB_UNC_FIXED_CTR_CTRL 0x394, SNB_UNC_FIXED_CTR 0x395, 48 bits); no
 * global control (icl_uncore_msr_ops); snb_uncore_imc_freerunning
 * (SNB_UNCORE_PCI_IMC_*_BASE: 0x5040 GT, 0x5044 IA, 0x5048 IO, 0x5050
 * reads, 0x5054 writes, 32 bits, one box). Rocket Lake: the Tiger Lake
 * MSRs (snb_uncore_arb: 2 counters, 0x3b0/0x3b2) and the same IMC. */
static void icl_rkl_units_at_linux_addresses(void)
{
	static const struct {
		const char *name;
		uint32_t off;
		uint8_t role;
	} imc[] = {
		{ "DRAM_GT_REQUESTS", 0x5040, PMU_ROLE_NONE },	  { "DRAM_IA_REQUESTS", 0x5044, PMU_ROLE_NONE },
		{ "DRAM_IO_REQUESTS", 0x5048, PMU_ROLE_NONE },	  { "DRAM_DATA_READS", 0x5050, PMU_ROLE_DRAM_READ },
		{ "DRAM_DATA_WRITES", 0x5054, PMU_ROLE_DRAM_WRITE },
	};

	for (unsigned d = 0; d < 2; d++) {
		const struct pmu_driver *drv = d ? &pmu_driver_rkl : &pmu_driver_icl;
		const struct pmu_unit *u = drv->units;
		T_EQ(drv->nunits, 4);
		T_EQ(u[ADL_UNIT_CBO].counters, 2);
		T_EQ(u[ADL_UNIT_CBO].width, 44);
		T_EQ(u[ADL_UNIT_CBO].max_boxes, 14); /* box 14 would be 0x770: cbo_boxes_8_to_14_at_linux_addresses */
		for (unsigned b = 0; b < 8; b++)
			for (unsigned i = 0; i < 2; i++) {
				T_EQ(pmu_unit_sel(&u[ADL_UNIT_CBO], NULL, ADL_UNIT_CBO, b, i).addr, 0x700 + 8 * b + i);
				T_EQ(pmu_unit_ctr(&u[ADL_UNIT_CBO], NULL, ADL_UNIT_CBO, b, i).addr, 0x702 + 8 * b + i);
			}
		T_EQ(u[ADL_UNIT_CBO].layout->thresh.bits, 5); /* cmask5, 28:24 */
		T_EQ(u[ADL_UNIT_CBO].layout->thresh.shift, 24);
		T_EQ(u[ADL_UNIT_ARB].max_boxes, 1);
		T_EQ(u[ADL_UNIT_ARB].width, 44);
		T_EQ(pmu_unit_sel(&u[ADL_UNIT_FIXED], NULL, ADL_UNIT_FIXED, 0, 0).addr, 0x394);
		T_EQ(pmu_unit_ctr(&u[ADL_UNIT_FIXED], NULL, ADL_UNIT_FIXED, 0, 0).addr, 0x395);
		T_EQ(u[ADL_UNIT_FIXED].width, 48);
		T_EQ(u[ADL_UNIT_FIXED].fixed_ctrl, 0x400000);
		const struct pmu_unit *m = &u[ADL_UNIT_IMC];
		T_EQ(m->kind, PMU_FREE);
		T_EQ(m->space, PMU_MMIO);
		T_EQ(m->width, 32);
		T_EQ(m->counters, 5);
		for (unsigned k = 0; k < 5; k++) {
			T_STREQ(m->free[k].name, imc[k].name);
			T_EQ(m->free[k].offset, imc[k].off);
			T_EQ(m->free[k].role, imc[k].role);
		}
	}
	/* Ice Lake: one ARB counter, at 0x3b3/0x3b1, EN not in the encoding
	 * (the run sets it last); no global control, only the CBo count. */
	const struct pmu_unit *a = &pmu_driver_icl.units[ADL_UNIT_ARB];
	T_EQ(a->counters, 1);
	T_EQ(pmu_unit_sel(a, NULL, ADL_UNIT_ARB, 0, 0).addr, 0x3B3);
	T_EQ(pmu_unit_ctr(a, NULL, ADL_UNIT_ARB, 0, 0).addr, 0x3B1);
	T_EQ(pmu_driver_icl.nglobals, 1);
	T_EQ(pmu_driver_icl.globals[0].addr, 0x396);
	T_ASSERT(!pmu_driver_icl.use_global);
	T_EQ(pmu_driver_icl.units[ADL_UNIT_CBO].layout->enable, 0);
	/* Rocket Lake: two ARB counters, 0x3b2/0x3b0 and 0x3b3/0x3b1; 0xe01. */
	a = &pmu_driver_rkl.units[ADL_UNIT_ARB];
	T_EQ(a->counters, 2);
	T_EQ(pmu_unit_sel(a, NULL, ADL_UNIT_ARB, 0, 0).addr, 0x3B2);
	T_EQ(pmu_unit_sel(a, NULL, ADL_UNIT_ARB, 0, 1).addr, 0x3B3);
	T_EQ(pmu_unit_ctr(a, NULL, ADL_UNIT_ARB, 0, 0).addr, 0x3B0);
	T_EQ(pmu_unit_ctr(a, NULL, ADL_UNIT_ARB, 0, 1).addr, 0x3B1);
	T_EQ(pmu_driver_rkl.globals[0].addr, 0xE01);
	T_EQ(pmu_driver_rkl.units[ADL_UNIT_CBO].layout->enable, 1ull << 22);
	/* intel-family.h: ICELAKE 0x7D, ICELAKE_L 0x7E, ICELAKE_NNPI 0x9D; ROCKETLAKE 0xA7. */
	T_EQ(pmu_driver_icl.models[0].model, 0x7D);
	T_EQ(pmu_driver_icl.models[1].model, 0x7E);
	T_EQ(pmu_driver_icl.models[2].model, 0x9D);
	T_EQ(pmu_driver_icl.models[3].family, 0);
	T_EQ(pmu_driver_rkl.models[0].model, 0xA7);
	T_EQ(pmu_driver_rkl.models[1].family, 0);
	/* chipsec icl.xml, rkl.xml: MCHBAR mask 0x7FFFFF0000 (bits 38:16). */
	T_EQ(mchbar_mask(0x7E), 0x7FFFFF0000ull);
	T_EQ(mchbar_mask(0x7D), 0x7FFFFF0000ull);
	T_EQ(mchbar_mask(0xA7), 0x7FFFFF0000ull);
	/* uncore_snb.c: PCI_DEVICE_ID_INTEL_ICL_U_IMC 0x8a02, ICL_U2 0x8a12,
	 * RKL_1 0x4c43, RKL_2 0x4c53. */
	T_STREQ(adl_host_bridge_name(0x8086, 0x8A02), "Ice Lake");
	T_STREQ(adl_host_bridge_name(0x8086, 0x8A12), "Ice Lake");
	T_STREQ(adl_host_bridge_name(0x8086, 0x4C43), "Rocket Lake");
	T_STREQ(adl_host_bridge_name(0x8086, 0x4C53), "Rocket Lake");
	T_ASSERT(!adl_host_bridge_name(0x8086, 0x8A00));
}

/* perfmon ICL/events/icelake_uncore.json and RKL/events/rocketlake_uncore.json:
 * the ARB events on "Counter" "1", which on Ice Lake is the ARB's one
 * counter (0x3b1) and on Rocket Lake the second of two. */
static void icl_rkl_events_as_published(void)
{
	struct ev_spec e;
	char err[160];

	T_EQ(*pmu_driver_icl.nevents, 3);
	T_EQ(*pmu_driver_rkl.nevents, 3);
	T_EQ(evsel_parse("UNC_ARB_TRK_REQUESTS.ALL", icl_only, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.code, 0x81);
	T_EQ(e.umask, 0x01);
	T_EQ(e.unit, ADL_UNIT_ARB);
	T_EQ(e.counters, 0x1); /* "1" in Intel's file: the unit's counter 0 */
	T_EQ(evsel_parse("UNC_ARB_COH_TRK_REQUESTS.ALL", rkl_only, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.code, 0x84);
	T_EQ(e.counters, 0x2);
	T_EQ(evsel_parse("UNC_CLOCK.SOCKET", icl_only, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.unit, ADL_UNIT_FIXED);
	T_EQ(evsel_parse("DRAM_DATA_READS", rkl_only, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.unit, ADL_UNIT_IMC);
	T_EQ(evsel_parse("imc/data_writes/", icl_only, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_parse("arb/event=0x80,umask=0x1/", icl_only, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.counters, 0x1);
	T_ASSERT(evsel_parse("UNC_MC0_RDCAS_COUNT_FREERUN", icl_only, &e, err, sizeof(err)) != UNC_OK);
}

static void fake_icl(unsigned model, uint64_t gctl)
{
	fake_init(&f);
	fake_cpu_skylake(&f, model, 4, 8);
	if (model == 0xA7)
		fake_msr(&f, 0xE01, gctl);
	fake_msr(&f, 0x396, 4);
	for (unsigned b = 0; b < 4; b++)
		for (unsigned r = 0; r < 4; r++)
			fake_msr(&f, 0x700 + 8 * b + r, 0);
	for (unsigned r = model == 0xA7 ? 0 : 1; r < 4; r += model == 0xA7 ? 1 : 2)
		fake_msr(&f, 0x3B0 + r, 0); /* Ice Lake: only 0x3b1 and 0x3b3 */
	fake_msr(&f, 0x394, 0);
	fake_msr(&f, 0x395, 0);
	fake_host_bridge(&f, 0x8086, model == 0xA7 ? 0x4C43 : 0x8A12, 0xFED20001);
}

/* Ice Lake: no global register is read or written. The ARB select is
 * written without EN, the fixed counter started, and EN set in the select
 * last; no counter is written (Linux writes none); the freeze at the end
 * clears EN and everything written is put back as found. */
static void icl_enable_in_the_select_only(void)
{
	struct stat_opts o = { .duration = 300 * MS, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_f, NULL, NULL, NULL };

	fake_icl(0x7E, 0);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, icl_only, "UNC_ARB_TRK_REQUESTS.ALL");
	run_add(&run, icl_only, "UNC_CLOCK.SOCKET");
	T_EQ(run_schedule(&run, &f.hw, true), UNC_OK);
	T_EQ(stat_loop(&run, &f.hw, false, &o, &env), UNC_OK);
	if (!f.nlog) {
		t_fail(__FILE__, __LINE__, "no write: %s", run.err);
		return;
	}
	static const struct {
		uint32_t msr;
		uint64_t v;
	} want[] = {
		{ 0x3B3, 0x181 }, { 0x394, 0x400000 }, { 0x3B3, 0x400181 }, /* counting */
		{ 0x3B3, 0x181 },    { 0x394, 0 },	    /* the freeze at the end */
	};
	unsigned n = sizeof(want) / sizeof(want[0]);
	T_ASSERT(f.nlog > n);
	for (unsigned i = 0; i < n && i < f.nlog; i++) {
		T_EQ(f.log[i].kind, FAKE_MSR);
		T_EQ(f.log[i].addr, want[i].msr);
		T_EQ(f.log[i].value, want[i].v);
	}
	for (unsigned i = 0; i < f.nlog; i++) /* the selects only: never the counters 0x3B1, 0x395 */
		T_ASSERT(f.log[i].addr == 0x3B3 || f.log[i].addr == 0x394);
	T_EQ(*fake_msr_value(&f, 0x3B3), 0);
	T_EQ(*fake_msr_value(&f, 0x3B1), 0);
	T_EQ(*fake_msr_value(&f, 0x394), 0);
	T_EQ(*fake_msr_value(&f, 0x395), 0);
	T_ASSERT(run.c.ev[0].v.width == 44);
}

/* Ice Lake: a CBo select found enabled (someone's event) is in use; with
 * force, the run takes the CBos and puts the select back as found. The
 * ARB, not asked for, is not written. */
static void icl_found_select_restored(void)
{
	struct stat_opts o = { .duration = 200 * MS, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_f, NULL, NULL, NULL };

	fake_icl(0x7E, 0);
	*fake_msr_value(&f, 0x3B3) = 0x400184;
	*fake_msr_value(&f, 0x700) = 0x408F34;
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, icl_only, "cbox/event=0x34,umask=0x8f/");
	T_EQ(run_schedule(&run, &f.hw, true), UNC_OK);
	T_EQ(stat_loop(&run, &f.hw, false, &o, &env), UNC_E_BUSY);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, icl_only, "cbox/event=0x34,umask=0x8f/");
	T_EQ(run_schedule(&run, &f.hw, true), UNC_OK);
	T_EQ(stat_loop(&run, &f.hw, true, &o, &env), UNC_OK);
	T_EQ(f.log[0].addr, 0x700); /* the freeze: EN cleared */
	T_EQ(f.log[0].value, 0x8F34);
	T_EQ(*fake_msr_value(&f, 0x700), 0x408F34);
	T_EQ(*fake_msr_value(&f, 0x3B3), 0x400184);
	for (unsigned i = 0; i < f.nlog; i++)
		T_ASSERT(f.log[i].addr >= 0x700 && f.log[i].addr < 0x720);
}

/* Rocket Lake: 0xE01's bit 29 only while counting, as Tiger Lake; the
 * event on the ARB's counter 1 (Intel's "Counter": "1"). */
static void rkl_global_control_only_during_the_run(void)
{
	struct stat_opts o = { .duration = 300 * MS, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_f, NULL, NULL, NULL };

	fake_icl(0xA7, 0x5);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, rkl_only, "UNC_ARB_TRK_REQUESTS.ALL");
	T_EQ(run_schedule(&run, &f.hw, true), UNC_OK);
	T_EQ(stat_loop(&run, &f.hw, false, &o, &env), UNC_OK);
	if (!f.nlog) {
		t_fail(__FILE__, __LINE__, "no write: %s", run.err);
		return;
	}
	static const struct {
		uint32_t msr;
		uint64_t v;
	} want[] = {
		{ 0xE01, 0x5 }, { 0x3B2, 0 }, { 0x3B3, 0x400181 }, { 0xE01, 0x5 | 1ull << 29 },
	};
	unsigned n = sizeof(want) / sizeof(want[0]);
	T_ASSERT(f.nlog > n);
	for (unsigned i = 0; i < n && i < f.nlog; i++) {
		T_EQ(f.log[i].addr, want[i].msr);
		T_EQ(f.log[i].value, want[i].v);
	}
	T_EQ(f.log[f.nlog - 1].addr, 0xE01);
	T_EQ(*fake_msr_value(&f, 0xE01), 0x5);
	T_EQ(*fake_msr_value(&f, 0x3B3), 0);
	for (unsigned i = 0; i < f.nlog; i++) /* no ARB counter (0x3B0, 0x3B1) */
		T_ASSERT(f.log[i].addr != 0x3B0 && f.log[i].addr != 0x3B1);
}

#define ICL_EAX 0x000706E5u /* family 6, model 0x7E */
#define RKL_EAX 0x000A0671u /* family 6, model 0xA7 */

/* On the emulator: the probe finds MCHBAR (bits 38:16) and the host
 * bridge the emulator shows (8086:8a12, 8086:4c43), DRAM_DATA_READS at
 * MCHBAR + 0x5050; the ARB's 0x3b0 and 0x3b2 fault on the emulated Ice Lake. */
static void icl_rkl_probe_on_the_emulator(void)
{
	for (unsigned d = 0; d < 2; d++) {
		char msg[200];
		struct cpu_info cpu;
		const struct pmu_driver *const *only = d ? rkl_only : icl_only;
		emu_config_default(&cfg);
		cfg.core_pmu = EMU_CORE_NONE;
		emu_hw_init_cpu(&h, &cfg, d ? RKL_EAX : ICL_EAX);
		T_EQ(h.emu.cfg.uncore_active, d ? EMU_UNCORE_RKL : EMU_UNCORE_ICL);
		stat_free(&run);
		memset(&run, 0, sizeof(run));
		run_add(&run, only, "DRAM_DATA_READS");
		cpu_identify(&h.hw, &cpu);
		T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
		T_STREQ(msg, "");
		T_EQ(run.pmu[0].p.base[ADL_UNIT_IMC], EMU_HW_MCHBAR);
		T_EQ(run.pmu[0].p.facts[ADL_FACT_HB_ID] >> 16, d ? 0x4C43u : 0x8A12u);
		T_EQ(pmu_unit_ctr(&only[0]->units[ADL_UNIT_IMC], &run.pmu[0].p, ADL_UNIT_IMC, 0, 3).addr,
		     EMU_HW_MCHBAR + 0x5050);
		char where[120];
		only[0]->ops->where(&run.pmu[0].p, ADL_UNIT_IMC, where, sizeof(where));
		T_STREQ(where, d ? "at MCHBAR 0xfed10000 (host bridge 8086:4c43, Rocket Lake)"
				 : "at MCHBAR 0xfed10000 (host bridge 8086:8a12, Ice Lake)");
		uint64_t v;
		T_EQ(hw_msr_read(&h.hw, 0x3B0, &v), d ? UNC_OK : UNC_E_FAULT);
		T_EQ(hw_msr_read(&h.hw, 0x3B1, &v), UNC_OK);
	}
	/* Ice Lake has no global control to preset. */
	char err[200];
	emu_config_default(&cfg);
	cfg.global_ctrl_set = true;
	T_EQ(emu_uncore_check(&cfg, EMU_UNCORE_ICL, err, sizeof(err)), UNC_E_INVALID);
	T_EQ(emu_uncore_check(&cfg, EMU_UNCORE_RKL, err, sizeof(err)), UNC_OK);
}

/* The 32-bit IMC counters across their wrap: DRAM_DATA_READS starts 0x100
 * below 2^32 and moves 3 * 10^9 lines a second, so each 1 s interval
 * wraps it or nearly; DRAM_DATA_WRITES 10^9. Both exact. */
static void icl_imc_32_bits_across_the_wrap(void)
{
	struct stat_opts o = { .interval = S, .max_intervals = 3, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_h, on_iv, NULL, NULL };
	char msg[200];

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.imc_per_sec[3] = 3000000000ull;
	cfg.imc_start[3] = 0xFFFFFF00u;
	cfg.imc_per_sec[4] = 1000000000ull;
	cfg.imc_start[4] = 0xFFFFFFF0u;
	emu_hw_init_cpu(&h, &cfg, ICL_EAX);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	nivs = 0;
	run_add(&run, icl_only, "DRAM_DATA_READS");
	run_add(&run, icl_only, "imc/data_writes/");
	struct cpu_info cpu;
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_EQ(stat_schedule(&run, false), UNC_OK);
	T_EQ(stat_loop(&run, &h.hw, false, &o, &env), UNC_OK);
	T_EQ(nivs, 3);
	for (unsigned i = 0; i < nivs; i++) {
		T_EQ(ivs[i][0], 3000000000ull);
		T_EQ(ivs[i][1], 1000000000ull);
	}
	T_EQ(count_total(&run.c, 0, -1), 9000000000ull);
	T_EQ(run.c.ev[0].v.width, 32);
	T_EQ(h.fake.nlog, 0);
}

/* Ice Lake on the emulator: two ARB events take turns on its one counter,
 * a CBo event counts in every box throughout, each scaled count within
 * 0.1% of its rate; nothing is left enabled (every register as found). */
static void icl_multiplexed_on_one_arb_counter(void)
{
	struct stat_opts o = { .duration = 3 * S, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_h, NULL, NULL, NULL };
	char msg[200];

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.rates[cfg.nrates++] = (struct emu_rate){ EMU_UNIT_ARB, 0x81, 0x01, 9000000 };
	cfg.rates[cfg.nrates++] = (struct emu_rate){ EMU_UNIT_ARB, 0x84, 0x01, 4000000 };
	cfg.rates[cfg.nrates++] = (struct emu_rate){ EMU_UNIT_CBO, 0x34, 0x8f, 1000000 };
	emu_hw_init_cpu(&h, &cfg, ICL_EAX);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, icl_only, "UNC_ARB_TRK_REQUESTS.ALL");
	run_add(&run, icl_only, "UNC_ARB_COH_TRK_REQUESTS.ALL");
	run_add(&run, icl_only, "cbox/event=0x34,umask=0x8f/");
	struct cpu_info cpu;
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_EQ(stat_schedule(&run, true), UNC_OK);
	T_EQ(run.c.ngroups, 2);
	T_EQ(stat_loop(&run, &h.hw, false, &o, &env), UNC_OK);
	/* the emulator's default --cbo-config 5: 5 CBos (0x396[3:0], nothing subtracted) */
	T_EQ(run.pmu[0].p.boxes[ADL_UNIT_CBO], 5);
	static const uint64_t exp[] = { 27000000, 12000000, 3ull * 5 * 1000000 };
	for (unsigned i = 0; i < 3; i++) {
		uint64_t got = count_total(&run.c, i, -1), d = got > exp[i] ? got - exp[i] : exp[i] - got;
		if (d > exp[i] / 1000)
			t_fail(__FILE__, __LINE__, "%s: %llu, want %llu", run.spec[i].name, (unsigned long long)got,
			       (unsigned long long)exp[i]);
	}
	T_ASSERT(run.c.rotations >= 100);
	uint64_t v;
	T_EQ(hw_msr_read(&h.hw, 0x3B3, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(hw_msr_read(&h.hw, 0x700, &v), UNC_OK);
	T_EQ(v, 0);
}

/* ---- every CBo 0x396 reports ---- */

/* icl_get_cbox_num takes 0x396's bits 3:0, up to 15 boxes. Literals from
 * uncore_snb.c: ADL_UNC_CBO_0_PERFEVTSEL0 0x2000 / PER_CTR0 0x2002 +
 * ADL_UNC_CBOX_MSR_OFFSET 8 per box; ICL_UNC_CBO_0_PER_CTR0 0x702 (select
 * 0x700) + ICL_UNC_CBO_MSR_OFFSET 8, whose box 14 would be 0x770,
 * IA32_PM_ENABLE (Intel SDM Vol. 4, msr-index.h), so 14 boxes there. */
static void cbo_boxes_8_to_14_at_linux_addresses(void)
{
	static const uint32_t adl_sel[] = { 0x2040, 0x2048, 0x2050, 0x2058, 0x2060, 0x2068, 0x2070 };
	static const uint32_t adl_ctr[] = { 0x2042, 0x204A, 0x2052, 0x205A, 0x2062, 0x206A, 0x2072 };
	static const uint32_t icl_sel[] = { 0x740, 0x748, 0x750, 0x758, 0x760, 0x768 };
	static const uint32_t icl_ctr[] = { 0x742, 0x74A, 0x752, 0x75A, 0x762, 0x76A };
	const struct pmu_unit *a = &pmu_driver_adl.units[ADL_UNIT_CBO];

	T_EQ(a->max_boxes, 15);
	for (unsigned b = 8; b < 15; b++)
		for (unsigned i = 0; i < 2; i++) {
			T_EQ(pmu_unit_sel(a, NULL, ADL_UNIT_CBO, b, i).addr, adl_sel[b - 8] + i);
			T_EQ(pmu_unit_ctr(a, NULL, ADL_UNIT_CBO, b, i).addr, adl_ctr[b - 8] + i);
		}
	const struct pmu_driver *tgl_family[] = { &pmu_driver_tgl, &pmu_driver_icl, &pmu_driver_rkl };
	for (unsigned d = 0; d < 3; d++) {
		const struct pmu_unit *u = &tgl_family[d]->units[ADL_UNIT_CBO];
		T_EQ(u->max_boxes, 14);
		for (unsigned b = 8; b < 14; b++)
			for (unsigned i = 0; i < 2; i++) {
				T_EQ(pmu_unit_sel(u, NULL, ADL_UNIT_CBO, b, i).addr, icl_sel[b - 8] + i);
				T_EQ(pmu_unit_ctr(u, NULL, ADL_UNIT_CBO, b, i).addr, icl_ctr[b - 8] + i);
			}
		T_EQ(pmu_unit_sel(u, NULL, ADL_UNIT_CBO, 14, 0).addr, 0x770); /* why 14 */
	}
}

#define RPL_EAX 0x000B0671u /* family 6, model 0xB7 */
#define TGL_EAX 0x000806C1u /* family 6, model 0x8C */

/* Raptor Lake reporting 12 CBos on the emulator: all 12 programmed, each
 * box counts its 10^6 a second, the sum is 12 * 10^6 within 0.1%, and
 * every CBo register is as found afterwards. */
static void twelve_cbos_counted_on_raptor_lake(void)
{
	struct stat_opts o = { .duration = 1 * S, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump_h, NULL, NULL, NULL };
	char msg[200];
	struct cpu_info cpu;
	uint64_t v;

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.no_cbo_banks = 12;
	cfg.rates[cfg.nrates++] = (struct emu_rate){ EMU_UNIT_CBO, 0x34, 0x8f, 1000000 };
	emu_hw_init_cpu(&h, &cfg, RPL_EAX);
	T_EQ(h.emu.ncbo, 12);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, adl_only, "cbox/event=0x34,umask=0x8f/");
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_EQ(run.pmu[0].p.found[ADL_UNIT_CBO], 12);
	T_EQ(run.pmu[0].p.boxes[ADL_UNIT_CBO], 12);
	T_EQ(stat_schedule(&run, false), UNC_OK);
	T_EQ(stat_loop(&run, &h.hw, false, &o, &env), UNC_OK);
	T_EQ(run.c.ev[0].v.nboxes, 12);
	uint64_t got = count_total(&run.c, 0, -1), want = 12000000;
	T_ASSERT((got > want ? got - want : want - got) <= want / 1000);
	for (int b = 0; b < 12; b++) {
		uint64_t one = count_total(&run.c, 0, b);
		T_ASSERT(one >= 999000 && one <= 1001000);
	}
	for (unsigned b = 0; b < 12; b++) {
		T_EQ(hw_msr_read(&h.hw, 0x2000 + 8 * b, &v), UNC_OK);
		T_EQ(v, 0);
	}
	T_EQ(hw_msr_read(&h.hw, 0x2000 + 8 * 12, &v), UNC_E_FAULT); /* box 12: not there */
}

/* The emulator's tables for boxes 8-14, typed apart from the driver: on
 * Alder/Raptor Lake every box 0x396 gives, box 14 at 0x2070/0x2072, the
 * block ending at 0x2077; on Tiger Lake 14 boxes, 0x770 (IA32_PM_ENABLE)
 * left to the processor (not claimed). */
static void emulated_cbo_boxes_beyond_eight(void)
{
	uint64_t v;

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.no_cbo_banks = 15;
	emu_hw_init_cpu(&h, &cfg, RPL_EAX);
	T_EQ(h.emu.ncbo, 15);
	T_EQ(emu_msr_write(&h.emu, 0x2070, 0x408F34), UNC_OK);
	T_EQ(emu_msr_read(&h.emu, 0x2073, &v), UNC_OK);
	T_EQ(emu_msr_read(&h.emu, 0x2074, &v), UNC_E_FAULT); /* between boxes */
	T_EQ(emu_msr_read(&h.emu, 0x2078, &v), UNC_E_NOT_FOUND); /* past the block */
	emu_hw_init_cpu(&h, &cfg, TGL_EAX);
	T_EQ(h.emu.ncbo, 14);
	T_EQ(emu_msr_read(&h.emu, 0x396, &v), UNC_OK);
	T_EQ(v, 15);
	T_EQ(emu_msr_read(&h.emu, 0x768, &v), UNC_OK);
	T_EQ(emu_msr_read(&h.emu, 0x76B, &v), UNC_OK);
	T_EQ(emu_msr_read(&h.emu, 0x770, &v), UNC_E_NOT_FOUND);
	cfg.no_cbo_banks = 9;
	emu_hw_init_cpu(&h, &cfg, TGL_EAX);
	T_EQ(emu_msr_read(&h.emu, 0x740, &v), UNC_OK);
	T_EQ(emu_msr_read(&h.emu, 0x748, &v), UNC_E_FAULT); /* box 9 of 9: absent */
}

/* Tiger Lake reporting 15: 14 boxes can be addressed, so a CBo event is
 * refused naming the limit, before anything is written; other units
 * still count. */
static void tgl_fifteen_cbos_refused(void)
{
	char msg[200];
	struct cpu_info cpu;

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.no_cbo_banks = 15;
	emu_hw_init_cpu(&h, &cfg, TGL_EAX);
	T_EQ(h.emu.ncbo, 14);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, tgl_only, "cbox/event=0x34,umask=0x8f/");
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_E_UNSUPPORTED);
	T_STREQ(run.err, "cannot count cbox/event=0x34,umask=0x8f/: ICL_UNC_CBO_CONFIG reports 15 CBos; CBo 14 would be "
			 "MSR 0x770 (IA32_PM_ENABLE, Intel SDM Vol. 4): at most 14 can be counted");
	T_EQ(run.pmu[0].p.found[ADL_UNIT_CBO], 15);
	T_EQ(run.pmu[0].p.boxes[ADL_UNIT_CBO], 14);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, tgl_only, "UNC_ARB_TRK_REQUESTS.ALL");
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	/* info: usable, with the limit as the verdict's caveat */
	static struct platform_info pi;
	T_EQ(info_gather(&h.hw, &pi), UNC_OK);
	T_STREQ(pi.verdict_reason, "ready, but no CBo event can be counted: ICL_UNC_CBO_CONFIG reports 15 CBos; CBo 14 "
				   "would be MSR 0x770 (IA32_PM_ENABLE, Intel SDM Vol. 4): at most 14 can be counted");
}

/* Skylake-client: NO_CBO_BANKS 12 means 11 CBos, and CBo MSRs are known
 * for 8 (Intel 334060 Table 2-1's four, Linux's boxes 4-7): a CBo event is
 * refused naming the limit; the ARB still counts. */
static void skl_eleven_cbos_refused(void)
{
	static const struct pmu_driver *const skl_only[] = { &pmu_driver_skl, NULL };
	char msg[200];
	struct cpu_info cpu;

	emu_config_default(&cfg);
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.no_cbo_banks = 12;
	emu_hw_init_cpu(&h, &cfg, 0x000506E3u); /* family 6, model 0x5E */
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, skl_only, "UNC_CBO_CACHE_LOOKUP.ANY_MESI");
	cpu_identify(&h.hw, &cpu);
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_E_UNSUPPORTED);
	T_STREQ(run.err, "cannot count UNC_CBO_CACHE_LOOKUP.ANY_MESI: MSR_UNC_CBO_CONFIG reports 11 CBos; CBo MSRs are "
			 "known for 8 (Table 2-1, Linux's CFL_UNC_CBO_7): at most 8 can be counted");
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, skl_only, "UNC_ARB_TRK_REQUESTS.ALL");
	T_EQ(stat_probe(&run, &h.hw, &cpu, msg, sizeof(msg)), UNC_OK);
}

/* MCHBAR disabled (the emulator's fault): info is unusable on every client
 * generation alike, naming the raw value, whether or not the driver has
 * programmable IMC counters placed from the same MCHBAR. */
static void mchbar_disabled_unusable_everywhere(void)
{
	static const struct {
		uint32_t eax;
		const char *name;
	} cpus[] = {
		{ 0x000706E5u, "Ice Lake" },    { 0x000A0671u, "Rocket Lake" }, { 0x000806C1u, "Tiger Lake" },
		{ 0x00090671u, "Alder/Raptor Lake" }, { 0x000B0671u, "Alder/Raptor Lake" }, { 0x000A06A1u, "Meteor Lake" },
		{ 0x000B06D1u, "Lunar Lake" },
	};
	static struct platform_info pi;

	for (size_t c = 0; c < sizeof(cpus) / sizeof(cpus[0]); c++) {
		emu_config_default(&cfg);
		cfg.core_pmu = EMU_CORE_NONE;
		cfg.mchbar_fault = EMU_MCHBAR_DISABLED;
		emu_hw_init_cpu(&h, &cfg, cpus[c].eax);
		T_EQ(info_gather(&h.hw, &pi), UNC_E_UNSUPPORTED);
		T_STREQ(pi.pmu[0].drv->title, cpus[c].name);
		T_STREQ(pi.verdict_reason, "MCHBAR is disabled: 00:00.0 offsets 0x4C:0x48 read 0x00000000fed10000 (bit 0 "
					   "clear); uncore.efi never enables it");
		info_free(&pi);
	}
}

/* ---- MMIO that is not MMIO ---- */

/* MCHBAR at memory the firmware maps as no MMIO (the seam's mmio_check):
 * the free-running counters, or the programmable ones alone, are refused
 * in one line naming the address and why, before anything is read or
 * written there (the strict fake fails any access in the range); info's
 * verdict names it and is UNC_E_NOT_MMIO. */
static void mchbar_not_mmio_refused(void)
{
	static struct platform_info pi;
	char msg[200];
	struct cpu_info cpu;
	const char *why = "the firmware has not mapped 0xfed1d840 (GCD: non-existent, 0xfed10000-0xfed2ffff)";

	fake_adl(0);
	fake_not_mmio(&f, 0xFED10000, 0xFED30000, why);
	cpu_identify(&f.hw, &cpu);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, adl_only, "UNC_MC0_RDCAS_COUNT_FREERUN");
	T_EQ(stat_probe(&run, &f.hw, &cpu, msg, sizeof(msg)), UNC_E_NOT_MMIO);
	T_STREQ(run.err, "IMC counters at MCHBAR 0xfed10000 + 0xd840 refused: the firmware has not mapped 0xfed1d840 "
			 "(GCD: non-existent, 0xfed10000-0xfed2ffff)");
	T_EQ(f.nlog, 0);
	/* only the tail of MC1's programmable window (past the free-running
	 * counters' 0xfed2d8a8) is system memory */
	fake_not_mmio(&f, 0xFED2DA00, 0xFED2DB00, "0xfed2da00 is system memory (UEFI memory map: EfiConventionalMemory, "
						  "0xfed2da00-0xfed2daff)");
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, adl_only, "UNC_M_CAS_COUNT_RD");
	T_EQ(stat_probe(&run, &f.hw, &cpu, msg, sizeof(msg)), UNC_E_NOT_MMIO);
	T_STREQ(run.err, "programmable IMC counters at 0xfed1d900 refused: 0xfed2da00 is system memory (UEFI memory map: "
			 "EfiConventionalMemory, 0xfed2da00-0xfed2daff)");
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, adl_only, "UNC_MC0_RDCAS_COUNT_FREERUN"); /* the free-running ones are clear of it */
	T_EQ(stat_probe(&run, &f.hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_EQ(f.nlog, 0);
	/* info: no fault, the verdict names the refusal */
	fake_not_mmio(&f, 0xFED10000, 0xFED30000, why);
	T_EQ(info_gather(&f.hw, &pi), UNC_E_NOT_MMIO);
	T_STREQ(pi.verdict_reason, "IMC counters at MCHBAR 0xfed10000 + 0xd840 refused: the firmware has not mapped "
				   "0xfed1d840 (GCD: non-existent, 0xfed10000-0xfed2ffff)");
	T_EQ(f.nlog, 0);
	/* MCHBAR's base inside a 36-bit width, MC1's counters (+ 0x1d8a0) past it */
	fake_adl(0);
	fake_cpuid(&f, 0x80000008, 0, 0x3024, 0, 0, 0);
	fake_host_bridge(&f, 0x8086, 0x4660, 0xFFFFF0001ull);
	cpu_identify(&f.hw, &cpu);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	run_add(&run, adl_only, "UNC_MC0_RDCAS_COUNT_FREERUN");
	T_EQ(stat_probe(&run, &f.hw, &cpu, msg, sizeof(msg)), UNC_E_RANGE);
	T_STREQ(run.err, "IMC counters at MCHBAR 0xfffff0000 + 0xd840 end above the CPU's 36-bit physical address width");
	T_EQ(f.nlog, 0);
}

T_MAIN("adl", T_CASE(mchbar_disabled_unusable_everywhere), T_CASE(units_at_linux_addresses), T_CASE(imc_free_running_at_linux_offsets),
       T_CASE(models_and_mchbar_fields), T_CASE(events_as_published), T_CASE(global_control_only_during_the_run),
       T_CASE(global_control_restored_as_found), T_CASE(probe_finds_both_controllers),
       T_CASE(sixty_four_bits_across_the_low_dword), T_CASE(imc_prog_at_linux_offsets),
       T_CASE(imc_prog_sequence_and_counts), T_CASE(imc_prog_in_use), T_CASE(emu_imc_prog_model),
       T_CASE(tgl_units_at_linux_addresses),
       T_CASE(tgl_l_and_h_imc_offsets), T_CASE(tgl_global_control_only_during_the_run),
       T_CASE(icl_rkl_units_at_linux_addresses), T_CASE(icl_rkl_events_as_published),
       T_CASE(icl_enable_in_the_select_only), T_CASE(icl_found_select_restored),
       T_CASE(rkl_global_control_only_during_the_run), T_CASE(icl_rkl_probe_on_the_emulator),
       T_CASE(icl_imc_32_bits_across_the_wrap), T_CASE(icl_multiplexed_on_one_arb_counter),
       T_CASE(cbo_boxes_8_to_14_at_linux_addresses), T_CASE(twelve_cbos_counted_on_raptor_lake),
       T_CASE(emulated_cbo_boxes_beyond_eight), T_CASE(tgl_fifteen_cbos_refused), T_CASE(skl_eleven_cbos_refused), T_CASE(mchbar_not_mmio_refused))
