/* The IMC path (Section 3.3, Table 3-3): discovery and its refusals, and
 * wrap-proof sampling of the 32-bit free-running counters. */
#include <stdio.h>
#include <string.h>

#include "../../drivers/base/cpu.h"
#include "../../drivers/pmu/adl.h"
#include "../../drivers/pmu/mchbar.h"
#include "../../drivers/pmu/mtl.h"
#include "../../drivers/pmu/skl.h"
#include "../../drivers/pmu/skl_info.h"
#include "../../drivers/engine/stat.h"
#include "../emu/emu_hw.h"
#include "run_help.h"
#include "t.h"

#define S 1000000000ull
#define MS 1000000ull

static struct fake_hw f;
static struct pmu_present p;
static char err[200], warn[200];

/* The Skylake-client driver's probe of its IMC alone, on a CPU of the given
 * model: the client drivers' one MCHBAR reader (drivers/pmu/mchbar.c). */
static enum unc_status discover_on(uint32_t model, uint16_t vendor, uint16_t device, uint64_t mchbar,
				   unsigned phys_bits)
{
	struct cpu_info cpu;

	fake_init(&f);
	fake_cpu_skylake(&f, model, 4, 8);
	if (phys_bits)
		fake_cpuid(&f, 0x80000008, 0, 0x3000 | phys_bits, 0, 0, 0);
	fake_host_bridge(&f, vendor, device, mchbar);
	cpu_identify(&f.hw, &cpu);
	err[0] = warn[0] = '\0';
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_skl;
	enum unc_status st = pmu_driver_skl.ops->probe(&f.hw, &cpu, 1u << SKL_UNIT_IMC, &p, err, sizeof(err), warn,
							sizeof(warn));
	T_EQ(f.nlog, 0); /* read only, always */
	return st;
}

static enum unc_status discover(uint16_t vendor, uint16_t device, uint64_t mchbar, unsigned phys_bits)
{
	return discover_on(0x5E, vendor, device, mchbar, phys_bits);
}

static const char *generation(void)
{
	return skl_host_bridge_name(p.facts[SKL_FACT_HB_ID] & 0xffff, (uint16_t)(p.facts[SKL_FACT_HB_ID] >> 16));
}

static void discovery(void)
{
	T_EQ(discover(0x8086, 0x1910, 0xFED10001, 0), UNC_OK);
	T_EQ(p.base[SKL_UNIT_IMC], 0xFED10000);
	T_STREQ(generation(), "Skylake");
	T_STREQ(warn, "");
	T_EQ(discover(0x8086, 0x9B54, 0x00000001FED18001ull, 0), UNC_OK);
	T_EQ(p.base[SKL_UNIT_IMC], 0x1FED18000ull); /* the high dword at 0x4C counts */
	T_STREQ(generation(), "Comet Lake");
	T_EQ(discover(0x8086, 0x3E30, 0xFED10001, 0), UNC_OK);
	T_STREQ(generation(), "Coffee Lake");
}

/* MCHBAR's base field per model, typed from the sources: Intel 334060-001
 * Section 3.3 (Skylake client to Comet Lake: bits 38:15, 0x7FFFFF8000);
 * chipsec cfg/8086 icl.xml, rkl.xml, hostctl1.xml (ADL), mtl.xml, lnl.xml
 * (bits 38:16, 0x7FFFFF0000); hostctl11gen.xml (TGL), hostctl13gen.xml
 * (RPL), arl.xml, arlh.xml (bits 41:17, 0x3FFFFFE0000). The offsets 0x48
 * and 0x4C and the enable bit 0 are Linux uncore_snb.c's
 * (SNB_UNCORE_PCI_IMC_BAR_OFFSET, its BIT(0) test). */
static void mchbar_fields_per_model(void)
{
	static const struct {
		uint32_t model;
		uint64_t mask;
	} want[] = {
		{ 0x4E, 0x7FFFFF8000ull }, { 0x5E, 0x7FFFFF8000ull }, { 0x8E, 0x7FFFFF8000ull }, { 0x9E, 0x7FFFFF8000ull },
		{ 0xA5, 0x7FFFFF8000ull }, { 0xA6, 0x7FFFFF8000ull }, { 0x7D, 0x7FFFFF0000ull }, { 0x7E, 0x7FFFFF0000ull },
		{ 0x9D, 0x7FFFFF0000ull }, { 0xA7, 0x7FFFFF0000ull }, { 0x97, 0x7FFFFF0000ull }, { 0x9A, 0x7FFFFF0000ull },
		{ 0xBE, 0x7FFFFF0000ull }, { 0xAA, 0x7FFFFF0000ull }, { 0xAC, 0x7FFFFF0000ull }, { 0xBD, 0x7FFFFF0000ull },
		{ 0x8C, 0x3FFFFFE0000ull }, { 0x8D, 0x3FFFFFE0000ull }, { 0xB7, 0x3FFFFFE0000ull }, { 0xBA, 0x3FFFFFE0000ull },
		{ 0xBF, 0x3FFFFFE0000ull }, { 0xC5, 0x3FFFFFE0000ull }, { 0xC6, 0x3FFFFFE0000ull }, { 0xB5, 0x3FFFFFE0000ull },
	};

	T_EQ(MCHBAR_LO, 0x48);
	T_EQ(MCHBAR_HI, 0x4C);
	T_EQ(MCHBAR_ENABLE, 1);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (mchbar_mask(want[i].model) != want[i].mask)
			t_fail(__FILE__, __LINE__, "model 0x%x: mask 0x%llx, want 0x%llx", want[i].model,
			       (unsigned long long)mchbar_mask(want[i].model), (unsigned long long)want[i].mask);
	/* every model a client driver matches has its field: none is guessed */
	const struct pmu_driver *const clients[] = { &pmu_driver_skl, &pmu_driver_icl, &pmu_driver_rkl, &pmu_driver_tgl,
						     &pmu_driver_adl, &pmu_driver_mtl, &pmu_driver_arl, &pmu_driver_lnl };
	unsigned n = 0;
	for (size_t d = 0; d < sizeof(clients) / sizeof(clients[0]); d++)
		for (const struct pmu_model *m = clients[d]->models; m->family; m++, n++)
			if (!mchbar_mask(m->model))
				t_fail(__FILE__, __LINE__, "%s model 0x%x has no MCHBAR field", clients[d]->name, m->model);
	T_EQ(n, sizeof(want) / sizeof(want[0]));
	T_EQ(mchbar_mask(0x55), 0); /* a server part: no MCHBAR of this kind */
}

static void refusals_name_the_raw_value(void)
{
	T_EQ(discover(0x1022, 0x1450, 0xFED10001, 0), UNC_E_UNSUPPORTED);
	T_STREQ(err, "PCI 00:00.0 is 1022:1450, not an Intel host bridge: no IMC counters");
	T_EQ(discover(0x8086, 0x1910, 0xFED10000, 0), UNC_E_UNSUPPORTED);
	T_STREQ(err, "MCHBAR is disabled: 00:00.0 offsets 0x4C:0x48 read 0x00000000fed10000 (bit 0 clear); uncore.efi "
		     "never enables it");
	T_EQ(discover(0x8086, 0x1910, 0x1, 0), UNC_E_UNSUPPORTED);
	T_STREQ(err, "MCHBAR base is zero: 00:00.0 offsets 0x4C:0x48 read 0x0000000000000001");
	T_EQ(discover(0x8086, 0x1910, 0, 0), UNC_E_UNSUPPORTED);
	T_CONTAINS(err, "MCHBAR is disabled");
	T_EQ(discover(0x8086, 0x1910, 0x7FFFFF8001ull, 36), UNC_E_RANGE);
	T_STREQ(err, "MCHBAR base 0x7fffff8000 (00:00.0 offsets 0x4C:0x48 read 0x0000007fffff8001) is above the CPU's "
		     "36-bit physical address width");
}

/* MCHBAR inside the physical address width, but at memory the firmware
 * maps as no MMIO (the seam's mmio_check): refused in one line naming the
 * address and why, and nothing is loaded there (the strict fake fails any
 * MMIO access in that range). */
static void mchbar_not_mmio_refused(void)
{
	struct cpu_info cpu;

	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8);
	fake_host_bridge(&f, 0x8086, 0x1910, 0x7FFFFF8001ull);
	fake_not_mmio(&f, 0x7FFFFF0000ull, 0x8000000000ull,
		      "the firmware has not mapped 0x7fffffd040 (no GCD memory space descriptor covers it)");
	cpu_identify(&f.hw, &cpu);
	T_EQ(cpu.phys_addr_bits, 39); /* within it: only the map check refuses */
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_skl;
	T_EQ(pmu_driver_skl.ops->probe(&f.hw, &cpu, 1u << SKL_UNIT_IMC, &p, err, sizeof(err), warn, sizeof(warn)),
	     UNC_E_NOT_MMIO);
	T_STREQ(err, "IMC counters at MCHBAR 0x7fffff8000 + 0x5040 refused: the firmware has not mapped 0x7fffffd040 (no "
		     "GCD memory space descriptor covers it)");
	T_EQ(f.mmio_checks, 1);
	T_EQ(f.nlog, 0);
	/* system memory the same way, through a run: refused before any load */
	fake_not_mmio(&f, 0x7FFFFF8000ull, 0x7FFFFF9000ull, "0x7fffffd040 is system memory (UEFI memory map: "
		      "EfiBootServicesData, 0x7fffff8000-0x7fffffffff)");
	f.not_mmio.hi = 0x8000000000ull;
	static struct stat_run r;
	static const struct pmu_driver *const skl_only[] = { &pmu_driver_skl, NULL };
	memset(&r, 0, sizeof(r));
	run_add(&r, skl_only, "DRAM_DATA_READS");
	T_EQ(stat_probe(&r, &f.hw, &cpu, warn, sizeof(warn)), UNC_E_NOT_MMIO);
	T_STREQ(r.err, "IMC counters at MCHBAR 0x7fffff8000 + 0x5040 refused: 0x7fffffd040 is system memory (UEFI memory "
		       "map: EfiBootServicesData, 0x7fffff8000-0x7fffffffff)");
	T_EQ(f.nlog, 0);
	/* the same MCHBAR where the map calls it MMIO: accepted */
	fake_not_mmio(&f, 0, 0, NULL);
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_skl;
	T_EQ(pmu_driver_skl.ops->probe(&f.hw, &cpu, 1u << SKL_UNIT_IMC, &p, err, sizeof(err), warn, sizeof(warn)),
	     UNC_OK);
	T_EQ(p.base[SKL_UNIT_IMC], 0x7FFFFF8000ull);
}

static void unknown_id_is_a_warning(void)
{
	T_EQ(discover(0x8086, 0x29C0, 0xFED10001, 0), UNC_OK);
	T_ASSERT(!generation());
	T_STREQ(warn, "host bridge 8086:29c0 is not one uncore.efi knows (Skylake, Kaby, Coffee, Whiskey, Amber, Comet "
		      "Lake); reading its IMC counters anyway");
}

/* ---- sampling against the model ---- */

static struct emu_hw h;
static struct emu_config cfg;
static struct stat_run run;
static uint64_t ivs[32];
static unsigned nivs;
static const struct pmu_driver *const skl_only[] = { &pmu_driver_skl, NULL };

/* Adds one event, then probes the run on hw's CPU (the IMC's probe finds
 * MCHBAR) and schedules it, as drivers/cmd/pipeline.c does. */
static void add_and_probe(const char *name, const struct hw *hw)
{
	struct ev_spec e;
	struct cpu_info cpu;
	char msg[100];

	T_EQ(evsel_parse(name, skl_only, &e, msg, sizeof(msg)), UNC_OK);
	T_EQ(stat_add(&run, &e), UNC_OK);
	cpu_identify(hw, &cpu);
	T_EQ(stat_probe(&run, hw, &cpu, msg, sizeof(msg)), UNC_OK);
	T_STREQ(msg, ""); /* no warning: 8086:1910 is a Skylake host bridge */
	T_EQ(stat_schedule(&run, false), UNC_OK);
}

static bool jump(void *ctx, uint64_t when)
{
	(void)ctx;
	h.fake.now = when;
	return false;
}

static void on_iv(void *ctx, struct stat_run *r, uint64_t now)
{
	(void)ctx;
	if (nivs < 32)
		ivs[nivs++] = count_interval(&r->c, 0, -1, now);
}

/* The emulator's seam with every MSR access failing the test: the
 * emulated MSRs never reach the strict fake, so its count alone would not
 * see them. */
static enum unc_status no_msr_read(void *ctx, uint32_t msr, uint64_t *ret_val)
{
	(void)ctx, (void)ret_val;
	t_fail(__FILE__, __LINE__, "rdmsr 0x%x in an IMC-only run", msr);
	return UNC_E_FAULT;
}

static enum unc_status no_msr_write(void *ctx, uint32_t msr, uint64_t val)
{
	(void)ctx, (void)val;
	t_fail(__FILE__, __LINE__, "wrmsr 0x%x in an IMC-only run", msr);
	return UNC_E_FAULT;
}

/* A seam's mmio_read32_n made of its own ticks and mmio_read32 (what the
 * engine does where a seam has none), counting its calls and loads: with it
 * the engine reads the free-running counters as one batch. */
static const struct hw_ops *base_ops;
static unsigned batch_calls, batch_loads;

static enum unc_status batch_read(void *ctx, const uint64_t *phys, unsigned n, uint64_t *ret_val, uint64_t *ret_ticks)
{
	enum unc_status st;
	uint32_t v;

	batch_calls++;
	ret_ticks[0] = base_ops->ticks(ctx);
	for (unsigned i = 0; i < n; i++) {
		if ((st = base_ops->mmio_read32(ctx, phys[i], &v)))
			return st;
		ret_val[i] = v;
		batch_loads++;
	}
	ret_ticks[1] = base_ops->ticks(ctx);
	return UNC_OK;
}

static bool batch; /* the runs below give their seam batch_read */

static void imc_run(uint64_t rate, uint32_t start, uint64_t interval, unsigned n)
{
	struct stat_opts o = { .interval = interval, .max_intervals = n, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump, on_iv, NULL, NULL };
	static struct hw_ops no_msr_ops;
	struct hw hw;

	emu_config_default(&cfg);
	cfg.imc_per_sec[3] = rate; /* DRAM_DATA_READS */
	cfg.imc_start[3] = start;
	emu_hw_init(&h, &cfg);
	no_msr_ops = *h.hw.ops;
	no_msr_ops.msr_read = no_msr_read;
	no_msr_ops.msr_write = no_msr_write;
	no_msr_ops.msr_read_n = NULL; /* each through no_msr_read */
	no_msr_ops.read_timed_n = NULL; /* it would read through e_msr_read_n, not no_msr_read */
	base_ops = h.hw.ops;
	no_msr_ops.mmio_read32_n = batch ? batch_read : NULL;
	batch_calls = batch_loads = 0;
	hw = h.hw;
	hw.ops = &no_msr_ops;
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	nivs = 0;
	add_and_probe("imc/data_reads/", &hw);
	T_EQ(run.pmu[0].p.base[SKL_UNIT_IMC], EMU_HW_MCHBAR);
	T_EQ(stat_loop(&run, &hw, false, &o, &env), UNC_OK);
}

/* 150,000 MB/s of reads is 2,343,750,000 lines a second: the 32-bit
 * counter wraps every 1.83 s. Intervals of 2 s, 4 s and 20 s see 1, 2 and
 * 10 wraps each; every count is exact. */
static void exact_across_wraps(void)
{
	static const struct {
		uint64_t interval;
		unsigned wraps;
	} cases[] = { { 2 * S, 1 }, { 4 * S, 2 }, { 20 * S, 10 } };

	for (unsigned c = 0; c < 6; c++) {
		batch = c >= 3;
		imc_run(2343750000ull, 0xF0000000u, cases[c % 3].interval, 3);
		T_EQ(batch_calls != 0, batch);
		T_EQ(batch_loads, batch_calls); /* one counter: one load a call */
		T_EQ(nivs, 3);
		uint64_t want = 2343750000ull * (cases[c % 3].interval / S);
		T_EQ(want >> 32, cases[c % 3].wraps);
		for (unsigned i = 0; i < nivs; i++)
			if (ivs[i] != want)
				t_fail(__FILE__, __LINE__, "interval %llu s #%u: %llu lines, want %llu",
				       (unsigned long long)(cases[c % 3].interval / S), i, (unsigned long long)ivs[i],
				       (unsigned long long)want);
		T_EQ(count_total(&run.c, 0, -1), 3 * want);
		T_ASSERT(count_moved(&run.c.ev[0]));
		T_EQ(h.fake.msr_reads, 0); /* an IMC-only run touches no MSR */
		T_EQ(h.fake.nlog, 0);
	}
	batch = false;
}

static void stuck_counter_does_not_move(void)
{
	for (int b = 0; b < 2; b++) {
		batch = b;
		imc_run(0, 0x12345678, S, 2); /* a rate of 0: the counter stays */
		T_EQ(count_total(&run.c, 0, -1), 0);
		T_ASSERT(!count_moved(&run.c.ev[0]));
		T_EQ(batch_calls != 0, batch);
	}
	batch = false;
}

/* All five counters in one run, one of them still: each total exact, the
 * still one never moved; with batch_read, one call a sample reads all five. */
static void five_counters(void)
{
	static const uint64_t rate[SKL_IMC_COUNTERS] = { 1000000, 2000000, 0, 3000000, 4000000 };
	struct stat_opts o = { .duration = 2 * S, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { jump, NULL, NULL, NULL };
	static struct hw_ops ops;
	struct cpu_info cpu;
	struct ev_spec e;
	struct hw hw;
	char msg[100];

	for (int b = 0; b < 2; b++) {
		emu_config_default(&cfg);
		for (unsigned k = 0; k < SKL_IMC_COUNTERS; k++) {
			cfg.imc_per_sec[k] = rate[k];
			cfg.imc_start[k] = 0xFFFF0000u - k; /* each wraps in the run, but the still one */
		}
		emu_hw_init(&h, &cfg);
		base_ops = h.hw.ops;
		ops = *h.hw.ops;
		ops.msr_read = no_msr_read;
		ops.msr_write = no_msr_write;
		ops.msr_read_n = NULL; /* each through no_msr_read */
		ops.read_timed_n = NULL; /* it would read through e_msr_read_n, not no_msr_read */
		ops.mmio_read32_n = b ? batch_read : NULL;
		hw = h.hw;
		hw.ops = &ops;
		batch_calls = batch_loads = 0;
		stat_free(&run);
		memset(&run, 0, sizeof(run));
		for (unsigned k = 0; k < SKL_IMC_COUNTERS; k++) {
			T_EQ(evsel_parse(skl_imc[k].name, skl_only, &e, msg, sizeof(msg)), UNC_OK);
			T_EQ(stat_add(&run, &e), UNC_OK);
		}
		cpu_identify(&hw, &cpu);
		T_EQ(stat_probe(&run, &hw, &cpu, msg, sizeof(msg)), UNC_OK);
		T_EQ(stat_schedule(&run, false), UNC_OK);
		T_EQ(stat_loop(&run, &hw, false, &o, &env), UNC_OK);
		for (unsigned k = 0; k < SKL_IMC_COUNTERS; k++) {
			T_EQ(count_total(&run.c, k, -1), 2 * rate[k]);
			T_EQ(count_moved(&run.c.ev[k]), rate[k] != 0);
		}
		T_EQ(batch_calls != 0, b);
		T_EQ(batch_loads, SKL_IMC_COUNTERS * batch_calls);
	}
}

/* A plain fake whose counter goes backwards between two samples. */
static struct fake_hw bf;
static unsigned calls;
static void backwards_run(void);

static bool step_back(void *ctx, uint64_t when)
{
	(void)ctx;
	bf.now = when;
	if (++calls == 3)
		bf.mmio[0].value -= 10; /* 10 lines backwards */
	else
		bf.mmio[0].value += 1000;
	return false;
}

static void backwards_counter_is_an_error(void)
{
	for (int b = 0; b < 2; b++) {
		batch = b;
		backwards_run();
		T_EQ(batch_calls != 0, batch);
	}
	batch = false;
}

static void backwards_run(void)
{
	struct stat_opts o = { .duration = S, .slice = 20 * MS, .sample = 100 * MS };
	struct stat_env env = { step_back, NULL, NULL, NULL };
	static struct hw_ops ops;

	fake_init(&bf);
	base_ops = bf.hw.ops;
	ops = *bf.hw.ops;
	ops.mmio_read32_n = batch ? batch_read : NULL;
	bf.hw.ops = &ops;
	batch_calls = batch_loads = 0;
	fake_cpu_skylake(&bf, 0x5E, 4, 8);
	fake_host_bridge(&bf, 0x8086, 0x1910, 0xFED10001);
	fake_mmio(&bf, 0xFED15050, 0x5000);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	calls = 0;
	add_and_probe("DRAM_DATA_READS", &bf.hw);
	T_EQ(run.pmu[0].p.base[SKL_UNIT_IMC], 0xFED10000);
	T_EQ(stat_loop(&run, &bf.hw, false, &o, &env), UNC_E_DEVICE);
	T_STREQ(run.err, "DRAM_DATA_READS went from 0x000057d0 to 0x000057c6: it ran backwards (or moved 2^31 lines or "
			 "more between two samples)");
}

T_MAIN("imc", T_CASE(discovery), T_CASE(mchbar_fields_per_model), T_CASE(refusals_name_the_raw_value), T_CASE(mchbar_not_mmio_refused), T_CASE(unknown_id_is_a_warning),
       T_CASE(exact_across_wraps), T_CASE(stuck_counter_does_not_move), T_CASE(five_counters),
       T_CASE(backwards_counter_is_an_error))
