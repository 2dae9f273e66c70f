/* Conformance of the uncore model to Intel 334060-001, through the same
 * hardware seam the application uses, on a fake clock (1 tick = 1 ns). */
#include <string.h>

#include "../../drivers/engine/info.h"
#include "../../drivers/pmu/arch.h"
#include "../../drivers/pmu/mchbar.h"
#include "../../drivers/pmu/skl.h"
#include "../emu/emu_hw.h"
#include "t.h"

#define S 1000000000ull
#define EN22 (1ull << 22)
#define OVF_EN (1ull << 20)
#define GEN (1ull << 29)
#define FRZ (1ull << 31)

static struct emu_hw h;
static struct emu_config cfg;

static uint64_t sel(unsigned code, unsigned umask, unsigned thr, bool inv, bool edge)
{
	return EN22 | (uint64_t)thr << 24 | (uint64_t)inv << 23 | (uint64_t)edge << 18 | umask << 8 | code;
}

static void start(void)
{
	emu_hw_init(&h, &cfg);
}

static void fresh(void)
{
	emu_config_default(&cfg);
}

static void add_rate(unsigned unit, unsigned code, unsigned umask, uint64_t per_sec)
{
	cfg.rates[cfg.nrates++] = (struct emu_rate){ (uint8_t)unit, (uint8_t)code, (uint8_t)umask, per_sec };
}

#define RD(msr)                                                          \
	({                                                               \
		uint64_t v_ = 0xdeadbeef;                                \
		T_EQ(hw_msr_read(&h.hw, (msr), &v_), UNC_OK);            \
		v_;                                                      \
	})
#define WR(msr, v) T_EQ(hw_msr_write(&h.hw, (msr), (v)), UNC_OK)
#define GP_WR(msr, v) T_EQ(hw_msr_write(&h.hw, (msr), (v)), UNC_E_FAULT)
#define GP_RD(msr)                                                       \
	do {                                                             \
		uint64_t v_;                                             \
		T_EQ(hw_msr_read(&h.hw, (msr), &v_), UNC_E_FAULT);       \
	} while (0)

/* Table 2-1: every listed register exists for four CBos; the unlisted
 * addresses inside a box, and CBos beyond the count, fault. */
static void table_2_1_register_map(void)
{
	static const uint32_t listed[] = { 0xE01, 0xE02, 0x394, 0x395, 0x396, 0x3B0, 0x3B1, 0x3B2, 0x3B3 };

	fresh();
	start();
	for (unsigned i = 0; i < sizeof(listed) / sizeof(listed[0]); i++)
		RD(listed[i]);
	for (uint32_t box = 0; box < 4; box++) {
		RD(0x700 + 0x10 * box);
		RD(0x701 + 0x10 * box);
		RD(0x706 + 0x10 * box);
		RD(0x707 + 0x10 * box);
		GP_RD(0x702 + 0x10 * box);
		GP_RD(0x705 + 0x10 * box);
		GP_RD(0x708 + 0x10 * box);
	}
	cfg.no_cbo_banks = 2; /* one CBo */
	start();
	RD(0x700);
	RD(0x707);
	GP_RD(0x710);
	GP_RD(0x717);
	GP_WR(0x711, 0);
	GP_RD(0x736);
}

/* Table 2-6: NO_CBO_BANKS is read-only; any raw value, 0 and above 5 too. */
static void table_2_6_cbo_config_read_only(void)
{
	fresh();
	for (unsigned raw = 0; raw <= 15; raw++) {
		cfg.no_cbo_banks = raw;
		start();
		T_EQ(RD(0x396), raw);
		GP_WR(0x396, 3);
		T_EQ(RD(0x396), raw);
		unsigned boxes = raw == 0 ? 0 : raw - 1 > 8 ? 8 : raw - 1; /* 8 CBos emulated at most */
		if (boxes)
			RD(boxes == 8 ? 0xF70 : 0x700 + 0x10 * (boxes - 1));
		if (boxes < 8)
			GP_RD(boxes == 7 ? 0xF70 : 0x700 + 0x10 * boxes);
	}
	/* --cbo-config-reserved: bits 63:4 read back as set, beside the field */
	cfg.no_cbo_banks = 5;
	cfg.cbo_config_reserved = 0xFFFFFFFFFFFFFFF0ull;
	start();
	T_EQ(RD(0x396), 0xFFFFFFFFFFFFFFF5ull);
	RD(0x730);
}

/* --global-ctrl: GLOBAL_CTRL at load, as Linux leaves it or with FRZ. */
static void global_ctrl_at_load(void)
{
	fresh();
	cfg.global_ctrl_set = true;
	cfg.global_ctrl = 0x8000001F;
	start();
	T_EQ(RD(0xE01), 0x8000001F);
	cfg.pmu_in_use = true; /* the option wins over pmu-in-use's EN */
	start();
	T_EQ(RD(0xE01), 0x8000001F);
	T_EQ(RD(0x700), EN22 | 0x8f34);
	T_ASSERT(emu_global_ctrl_valid(0xE000001F));
	T_ASSERT(!emu_global_ctrl_valid(1ull << 5));
	T_ASSERT(!emu_global_ctrl_valid(1ull << 32));
}

/* CBos 4-7, beyond the manual's Table 2-1: boxes 4-6 continue the stride of
 * 0x10, box 7 is at PERFEVTSEL0 0xF70 and PERFCTR0 0xF76 (Linux uncore.h,
 * CFL_UNC_CBO_7_*), its second counter following the first. 0x770 is not
 * an uncore MSR the model covers. */
static void eight_cbos_box_7_apart(void)
{
	fresh();
	cfg.no_cbo_banks = 9;
	add_rate(EMU_UNIT_CBO, 0x34, 0x8f, 1000);
	start();
	T_EQ(h.emu.ncbo, 8);
	for (uint32_t box = 4; box < 7; box++) {
		RD(0x700 + 0x10 * box);
		RD(0x707 + 0x10 * box);
		GP_RD(0x702 + 0x10 * box);
	}
	uint64_t v;
	T_EQ(emu_msr_read(&h.emu, 0x770, &v), UNC_E_NOT_FOUND);
	T_EQ(emu_msr_read(&h.emu, 0x777, &v), UNC_E_NOT_FOUND);
	GP_RD(0xF72);
	GP_RD(0xF75);
	GP_RD(0xF78);
	WR(0x760, sel(0x34, 0x8f, 0, 0, 0));
	WR(0xF70, sel(0x34, 0x8f, 0, 0, 0));
	WR(0xF71, sel(0x34, 0x8f, 0, 0, 0));
	WR(0xE01, GEN);
	emu_hw_advance(&h, S);
	T_EQ(RD(0x766), 1000);
	T_EQ(RD(0xF76), 1000);
	T_EQ(RD(0xF77), 1000);
	GP_WR(0xF76, 1ull << 44); /* 44 bits, as every CBo counter */
	WR(0xF76, 5);
	T_EQ(RD(0xF76), 5);
	cfg.no_cbo_banks = 8; /* seven CBos: box 7 absent */
	start();
	RD(0x767);
	GP_RD(0xF70);
	GP_RD(0xF76);
}

/* Table 2-2: bits 31:29 and 3:0 are RW; 63:32 and 28:4 reserved. Bit 4
 * is taken too: Linux writes 0x2000001F on Skylake. */
static void table_2_2_global_ctrl(void)
{
	fresh();
	start();
	WR(0xE01, 0xE000001F);
	T_EQ(RD(0xE01), 0xE000001F);
	GP_WR(0xE01, 1ull << 5);
	GP_WR(0xE01, 1ull << 28);
	GP_WR(0xE01, 1ull << 32);
	T_EQ(RD(0xE01), 0xE000001F); /* a faulting write changes nothing */
	WR(0xE01, 0x2000001F);
	T_EQ(RD(0xE01), 0x2000001F);
	WR(0xE01, 0);
	T_EQ(RD(0xE01), 0);
}

/* Table 2-3 (bit 3 per Intel SDM Vol. 4 and edk2's SkylakeMsr.h): RW1C, writing 0 is ignored. */
static void table_2_3_global_status_rw1c(void)
{
	fresh();
	add_rate(EMU_UNIT_ARB, 0x81, 0x01, 1000);
	add_rate(EMU_UNIT_CBO, 0x34, 0x8f, 1000);
	start();
	WR(0x395, (1ull << 48) - 1);      /* fixed: one cycle from the top */
	WR(0x3B0, (1ull << 44) - 1);      /* ARB counter 0 */
	WR(0x706, (1ull << 44) - 1);      /* CBo 0 counter 0 */
	WR(0x394, EN22 | OVF_EN);
	WR(0x3B2, sel(0x81, 0x01, 0, 0, 0) | OVF_EN);
	WR(0x700, sel(0x34, 0x8f, 0, 0, 0) | OVF_EN);
	WR(0xE01, GEN);
	emu_hw_advance(&h, S / 100);
	T_EQ(RD(0xE02), 0xB);
	WR(0xE02, 0);                     /* writing 0 is ignored */
	T_EQ(RD(0xE02), 0xB);
	WR(0xE02, 0x2);                   /* clears ARB only */
	T_EQ(RD(0xE02), 0x9);
	GP_WR(0xE02, 0x4);                /* bit 2 is reserved */
	GP_WR(0xE02, 0x10);
	T_EQ(RD(0xE02), 0x9);
	WR(0xE02, 0x9);
	T_EQ(RD(0xE02), 0);
}

/* Table 2-4 and 2-5: CNT_EN 22 and OVF_EN 20 RW; a 48-bit counter. */
static void table_2_4_2_5_fixed_counter(void)
{
	fresh();
	start();
	WR(0x394, EN22 | OVF_EN);
	T_EQ(RD(0x394), EN22 | OVF_EN);
	GP_WR(0x394, 1ull << 21);
	GP_WR(0x394, 1ull << 0);
	GP_WR(0x394, 1ull << 23);
	WR(0x395, 0xFFFFFFFFFFFFull);
	T_EQ(RD(0x395), 0xFFFFFFFFFFFFull);
	GP_WR(0x395, 1ull << 48);
	WR(0x395, 12345);
	T_EQ(RD(0x395), 12345);       /* writing a counter sets it */
	WR(0xE01, GEN);
	emu_hw_advance(&h, 2 * S);
	T_EQ(RD(0x395), 12345 + 1600000000ull); /* 800 MHz UCLK */
}

/* Table 2-7: writable fields; bits 63:29, 21, 19, 17:16 reserved. */
static void table_2_7_event_select_fields(void)
{
	fresh();
	start();
	WR(0x700, 0x1FD4FFFF);
	T_EQ(RD(0x700), 0x1FD4FFFF);
	WR(0x3B3, 0x1FD4FFFF);
	T_EQ(RD(0x3B3), 0x1FD4FFFF);
	GP_WR(0x701, 1ull << 16);
	GP_WR(0x701, 1ull << 17);
	GP_WR(0x701, 1ull << 19);
	GP_WR(0x701, 1ull << 21);
	GP_WR(0x701, 1ull << 29);
	GP_WR(0x3B2, 1ull << 63);
	T_EQ(RD(0x701), 0);
}

/* Table 2-8: a 44-bit counter, RW. */
static void table_2_8_counter_width(void)
{
	fresh();
	start();
	WR(0x737, 0xFFFFFFFFFFFull);
	T_EQ(RD(0x737), 0xFFFFFFFFFFFull);
	GP_WR(0x737, 1ull << 44);
	GP_WR(0x3B1, 1ull << 44);
	WR(0x3B1, 7);
	T_EQ(RD(0x3B1), 7);
}

/* Counting needs the local enable (bit 22) and the global EN (bit 29). */
static void counting_needs_local_and_global_enable(void)
{
	fresh();
	add_rate(EMU_UNIT_CBO, 0x34, 0x8f, 1000000);
	start();
	WR(0x700, sel(0x34, 0x8f, 0, 0, 0));
	WR(0x701, sel(0x34, 0x8f, 0, 0, 0) & ~EN22); /* programmed, not enabled */
	WR(0x394, EN22);
	emu_hw_advance(&h, S);
	T_EQ(RD(0x706), 0); /* global EN clear */
	T_EQ(RD(0x395), 0);
	WR(0xE01, GEN);
	emu_hw_advance(&h, S);
	T_EQ(RD(0x706), 1000000);
	T_EQ(RD(0x707), 0); /* local EN clear */
	T_EQ(RD(0x395), 800000000);
	WR(0xE01, 0);
	emu_hw_advance(&h, S);
	T_EQ(RD(0x706), 1000000); /* stopped */
	WR(0xE01, GEN);
	emu_hw_advance(&h, S / 2);
	T_EQ(RD(0x706), 1500000);
}

/* CBo events count per box, ARB events once, an unconfigured event not at all. */
static void event_rates_per_box(void)
{
	fresh();
	add_rate(EMU_UNIT_CBO, 0x34, 0x8f, 3000000);
	add_rate(EMU_UNIT_CBO, 0x22, 0x41, 1000);
	add_rate(EMU_UNIT_ARB, 0x81, 0x01, 5000000);
	start();
	for (uint32_t b = 0; b < 4; b++) {
		WR(0x700 + 0x10 * b, sel(0x34, 0x8f, 0, 0, 0));
		WR(0x701 + 0x10 * b, sel(0x22, 0x41, 0, 0, 0));
	}
	WR(0x3B2, sel(0x81, 0x01, 0, 0, 0));
	WR(0x3B3, sel(0x81, 0x20, 0, 0, 0)); /* no rate configured */
	WR(0xE01, GEN);
	emu_hw_advance(&h, 2500 * 1000000ull); /* 2.5 s */
	for (uint32_t b = 0; b < 4; b++) {
		T_EQ(RD(0x706 + 0x10 * b), 7500000);
		T_EQ(RD(0x707 + 0x10 * b), 2500);
	}
	T_EQ(RD(0x3B0), 12500000);
	T_EQ(RD(0x3B1), 0);
}

/* Counts follow time: reading often changes nothing. */
static void reads_do_not_advance_counts(void)
{
	uint64_t once, often = 0;

	fresh();
	add_rate(EMU_UNIT_ARB, 0x81, 0x01, 3333333);
	start();
	WR(0x3B2, sel(0x81, 0x01, 0, 0, 0));
	WR(0xE01, GEN);
	emu_hw_advance(&h, 3 * S);
	once = RD(0x3B0);
	start();
	WR(0x3B2, sel(0x81, 0x01, 0, 0, 0));
	WR(0xE01, GEN);
	for (int i = 0; i < 3000; i++) {
		emu_hw_advance(&h, S / 1000);
		often = RD(0x3B0);
	}
	T_EQ(once, 9999999);
	T_EQ(often, once);
}

/* 44-bit and 48-bit wraps set their GLOBAL_STATUS bit (3 CBo, 1 ARB, 0
 * fixed), only for a counter with OVF_EN (Table 2-4: "0: Counter overflow
 * is not forwarded"; Table 2-7: "0: Disable transmission of overflow
 * indication"). */
static void wraps_set_status_bits(void)
{
	for (int ovf = 1; ovf >= 0; ovf--) {
		uint64_t ovf_en = ovf ? OVF_EN : 0;
		fresh();
		add_rate(EMU_UNIT_CBO, 0x34, 0x8f, 1000000);
		add_rate(EMU_UNIT_ARB, 0x81, 0x01, 1000000);
		start();
		WR(0x716, (1ull << 44) - 500000);
		WR(0x710, sel(0x34, 0x8f, 0, 0, 0) | ovf_en);
		WR(0x3B1, (1ull << 44) - 500000);
		WR(0x3B3, sel(0x81, 0x01, 0, 0, 0) | ovf_en);
		WR(0xE01, GEN);
		emu_hw_advance(&h, S / 4);
		T_EQ(RD(0x716), (1ull << 44) - 250000);
		T_EQ(RD(0xE02), 0);
		emu_hw_advance(&h, S / 2);
		T_EQ(RD(0x716), 250000);
		T_EQ(RD(0x3B1), 250000);
		T_EQ(RD(0xE02), ovf ? (1ull << 3) | (1ull << 1) : 0);

		fresh();
		start();
		WR(0x395, (1ull << 48) - 100);
		WR(0x394, EN22 | ovf_en);
		WR(0xE01, GEN);
		emu_hw_advance(&h, S);
		T_EQ(RD(0x395), 800000000 - 100);
		T_EQ(RD(0xE02), ovf ? 1ull << 0 : 0);
	}
}

/* Table 2-2 FRZ_ON_PMI: an overflow with OVF_EN freezes every counter at
 * that cycle and clears EN; without OVF_EN nothing freezes. */
static void freeze_on_pmi(void)
{
	fresh();
	add_rate(EMU_UNIT_CBO, 0x34, 0x8f, 800000000); /* one per UCLK */
	start();
	WR(0x395, (1ull << 48) - 800);
	WR(0x394, EN22 | OVF_EN);
	WR(0x700, sel(0x34, 0x8f, 0, 0, 0));
	WR(0xE01, GEN | FRZ);
	emu_hw_advance(&h, S);
	T_EQ(RD(0x395), 0);
	T_EQ(RD(0x706), 800); /* stopped at the overflow cycle */
	T_EQ(RD(0xE01), FRZ);
	T_EQ(RD(0xE02), 1);
	emu_hw_advance(&h, S);
	T_EQ(RD(0x706), 800);

	start(); /* the same without OVF_EN */
	WR(0x395, (1ull << 48) - 800);
	WR(0x394, EN22);
	WR(0x700, sel(0x34, 0x8f, 0, 0, 0));
	WR(0xE01, GEN | FRZ);
	emu_hw_advance(&h, S);
	T_EQ(RD(0x395), 800000000 - 800);
	T_EQ(RD(0x706), 800000000);
	T_EQ(RD(0xE01), GEN | FRZ);
	T_EQ(RD(0xE02), 0); /* and no status either: OVF_EN forwards it */
}

/* Table 2-7 THR, INV and E, on an event averaging 2.5 per UCLK (half the
 * cycles see 3, half see 2) and one at 0.25 per UCLK. */
static void threshold_invert_edge(void)
{
	static const struct {
		uint64_t rate;
		unsigned thr;
		bool inv, edge;
		uint64_t want;
	} cases[] = {
		{ 2500000000ull, 0, 0, 0, 2500000000ull }, /* THR 0: the increment itself */
		{ 2500000000ull, 0, 1, 0, 2500000000ull }, /* INV alone changes nothing */
		{ 2500000000ull, 2, 0, 0, 1000000000ull }, /* every cycle has >= 2 */
		{ 2500000000ull, 3, 0, 0, 500000000ull },  /* half the cycles have >= 3 */
		{ 2500000000ull, 4, 0, 0, 0 },
		{ 2500000000ull, 3, 1, 0, 500000000ull },  /* cycles with < 3 */
		{ 2500000000ull, 2, 1, 0, 0 },
		{ 2500000000ull, 3, 0, 1, 500000000ull },  /* rising edges of ">= 3" */
		{ 2500000000ull, 0, 0, 1, 0 },             /* "> 0" never falls */
		{ 250000000ull, 1, 0, 0, 250000000ull },   /* cycles with any request */
		{ 250000000ull, 0, 0, 1, 250000000ull },   /* isolated events: one edge each */
		{ 250000000ull, 1, 1, 0, 750000000ull },
		{ 750000000ull, 1, 0, 1, 250000000ull },   /* q = 3/4: edges = 1 - q */
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fresh();
		cfg.uclk_hz = 1000000000;
		add_rate(EMU_UNIT_ARB, 0x80, 0x01, cases[i].rate);
		start();
		WR(0x3B2, sel(0x80, 0x01, cases[i].thr, cases[i].inv, cases[i].edge));
		WR(0xE01, GEN);
		emu_hw_advance(&h, S);
		uint64_t got = RD(0x3B0);
		if (got != cases[i].want)
			t_fail(__FILE__, __LINE__, "case %u: rate %llu THR %u INV %d E %d: %llu, want %llu", i,
			       (unsigned long long)cases[i].rate, cases[i].thr, cases[i].inv, cases[i].edge,
			       (unsigned long long)got, (unsigned long long)cases[i].want);
	}
}

/* Table 3-2: UNC_ARB_TRK_OCCUPANCY only on counter 0. */
static void arb_occupancy_counter_0_only(void)
{
	fresh();
	add_rate(EMU_UNIT_ARB, 0x80, 0x01, 1000);
	start();
	WR(0x3B2, sel(0x80, 0x01, 0, 0, 0));
	WR(0x3B3, sel(0x80, 0x01, 0, 0, 0));
	WR(0xE01, GEN);
	emu_hw_advance(&h, S);
	T_EQ(RD(0x3B0), 1000);
	T_EQ(RD(0x3B1), 0);
}

/* Table 3-3: five free-running 32-bit counters at MCHBAR + 0x5040.. */
static void imc_counters_free_run_and_wrap(void)
{
	uint32_t v;

	fresh();
	cfg.imc_per_sec[3] = 1000000; /* DRAM_DATA_READS */
	cfg.imc_start[3] = 0xFFFFFF00;
	cfg.imc_per_sec[4] = 3;
	start();
	emu_hw_advance(&h, S / 1000);
	T_EQ(hw_mmio_read32(&h.hw, EMU_HW_MCHBAR + 0x5050, &v), UNC_OK);
	T_EQ(v, 744); /* 0xFFFFFF00 + 1000, modulo 2^32 */
	emu_hw_advance(&h, S - S / 1000);
	T_EQ(hw_mmio_read32(&h.hw, EMU_HW_MCHBAR + 0x5054, &v), UNC_OK);
	T_EQ(v, 3);
	T_EQ(hw_mmio_read32(&h.hw, EMU_HW_MCHBAR + 0x5040, &v), UNC_OK);
	T_EQ(v, 0);
	/* 150,000 MB/s of reads: 2,343,750,000 lines/s wraps every 1.83 s */
	cfg.imc_per_sec[3] = 2343750000ull;
	cfg.imc_start[3] = 0;
	T_EQ(emu_imc_value(&cfg, 3, 6 * S), (uint32_t)(6 * 2343750000ull));
}

static void fault_msr_gp(void)
{
	fresh();
	cfg.gp[0].msr = 0x396;
	cfg.gp[1].msr = 0x711;
	cfg.gp[1].write_only = true;
	cfg.ngp = 2;
	start();
	GP_RD(0x396);
	GP_WR(0x396, 0);
	RD(0x711); /* write-only fault: reads work */
	GP_WR(0x711, sel(0x34, 0x8f, 0, 0, 0));
	T_EQ(RD(0x711), 0);
}

static void fault_pmu_in_use(void)
{
	fresh();
	cfg.pmu_in_use = true;
	start();
	T_EQ(RD(0xE01), GEN);
	T_EQ(RD(0x700), sel(0x34, 0x8f, 0, 0, 0));
}

static void fault_stuck_counter(void)
{
	fresh();
	add_rate(EMU_UNIT_CBO, 0x34, 0x8f, 1000);
	cfg.stuck[EMU_CTR_CBO0 + 2 * 1 + 0] = true;      /* cbo1.0 */
	cfg.stuck[EMU_CTR_IMC0 + 3] = true;              /* DRAM_DATA_READS */
	cfg.imc_per_sec[3] = 1000;
	cfg.imc_start[3] = 77;
	start();
	WR(0x700, sel(0x34, 0x8f, 0, 0, 0));
	WR(0x710, sel(0x34, 0x8f, 0, 0, 0));
	WR(0xE01, GEN);
	emu_hw_advance(&h, S);
	T_EQ(RD(0x706), 1000);
	T_EQ(RD(0x716), 0);
	T_EQ(emu_imc_value(&h.emu.cfg, 3, 5 * S), 77);
}

static void fault_mchbar(void)
{
	fresh();
	T_EQ(emu_mchbar_value(&cfg, 0x7f000000), 0x7f000001);
	cfg.mchbar_fault = EMU_MCHBAR_DISABLED;
	T_EQ(emu_mchbar_value(&cfg, 0x7f000000), 0x7f000000);
	cfg.mchbar_fault = EMU_MCHBAR_ZERO;
	T_EQ(emu_mchbar_value(&cfg, 0x7f000000), 1);
	cfg.mchbar_fault = EMU_MCHBAR_HIGH;
	T_EQ(emu_mchbar_value(&cfg, 0x7f000000), 0x7FFFFF8001ull);
}

/* The options of uncore-emu.efi. */
static void options(void)
{
	char err[200];
	const char *good[] = { "uncore-emu.efi", "--cbo-config", "2", "--uclk-mhz", "1000.5",
			       "--rate", "UNC_CBO_CACHE_LOOKUP.ANY_MESI=2.5M", "--rate", "unc_arb_trk_requests.all=1500",
			       "--rate", "DRAM_DATA_READS=150000000", "--rate", "imc/data_writes/=1G",
			       "--fault", "msr-gp=0x396", "--fault", "msr-gp-write=0x700", "--fault", "pmu-in-use",
			       "--fault", "stuck=cbo0.1", "--fault", "mchbar-disabled", "--global-ctrl", "0x8000001F",
			       "--cbo-config-reserved", "0xfffffffffffffff0" };
	T_EQ(emu_parse_options(sizeof(good) / sizeof(good[0]), (char **)good, &cfg, err, sizeof(err)), UNC_OK);
	T_ASSERT(!cfg.unload);
	T_EQ(cfg.no_cbo_banks, 2);
	T_EQ(cfg.uclk_hz, 1000500000);
	T_EQ(cfg.nrates, 2);
	T_EQ(cfg.rates[0].code, 0x34);
	T_EQ(cfg.rates[0].umask, 0x8f);
	T_EQ(cfg.rates[0].per_sec, 2500000);
	T_EQ(cfg.rates[1].per_sec, 1500);
	T_EQ(cfg.imc_per_sec[3], 150000000);
	T_EQ(cfg.imc_per_sec[4], 1000000000);
	T_EQ(cfg.ngp, 2);
	T_ASSERT(cfg.gp[1].write_only);
	T_ASSERT(cfg.pmu_in_use);
	T_ASSERT(cfg.stuck[EMU_CTR_CBO0 + 1]);
	T_EQ(cfg.mchbar_fault, EMU_MCHBAR_DISABLED);
	T_ASSERT(cfg.global_ctrl_set);
	T_EQ(cfg.global_ctrl, 0x8000001F);
	T_EQ(cfg.cbo_config_reserved, 0xFFFFFFFFFFFFFFF0ull);
	char desc[256];
	emu_describe(&cfg, desc, sizeof(desc));
	T_STREQ(desc, "NO_CBO_BANKS 2 (bits 63:4 0xfffffffffffffff0), UCLK 1000.500 MHz, 2 event rates, 2 IMC rates, "
		      "GLOBAL_CTRL 0x8000001f, faults: msr-gp=0x396 msr-gp-write=0x700 mchbar-disabled pmu-in-use "
		      "stuck=cbo0.1");
	/* too long for the buffer: cut between items, and said */
	char small[64];
	emu_describe(&cfg, small, sizeof(small));
	T_STREQ(small, "NO_CBO_BANKS 2 (bits 63:4 0xfffffffffffffff0) [cut]");

	static const struct {
		const char *a, *b, *msg;
	} bad[] = {
		{ "--cbo-config", "16", "bad value '16' for --cbo-config" },
		{ "--cbo-config", "-1", "bad value '-1' for --cbo-config" },
		{ "--uclk-mhz", "0", "bad value '0' for --uclk-mhz" },
		{ "--uclk-mhz", "5000", "bad value '5000' for --uclk-mhz" },
		{ "--uclk-mhz", "1.0000001", "bad value '1.0000001' for --uclk-mhz" },
		{ "--rate", "NOPE=5", "unknown event 'NOPE' in --rate" },
		{ "--rate", "UNC_CLOCK.SOCKET=5", "UNC_CLOCK.SOCKET counts UCLK cycles: set --uclk-mhz instead" },
		{ "--rate", "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST=5", "is a threshold view of event 0x80" },
		{ "--rate", "DRAM_DATA_READS=1.5", "bad rate '1.5' for DRAM_DATA_READS" },
		{ "--rate", "DRAM_DATA_READS=2T", "bad rate '2T'" },
		{ "--rate", "DRAM_DATA_READS", "bad --rate 'DRAM_DATA_READS' (want NAME=PER_SECOND)" },
		{ "--rate", "DRAM_DATA_READS=1000000000001", "bad rate" },
		{ "--fault", "explode", "unknown fault 'explode'" },
		{ "--fault", "msr-gp", "--fault msr-gp needs a value" },
		{ "--fault", "msr-gp=0xZZ", "bad MSR address '0xZZ' in --fault msr-gp" },
		{ "--fault", "pmu-in-use=1", "--fault pmu-in-use takes no value" },
		{ "--fault", "stuck=cbo8.0", "unknown counter 'cbo8.0'" },
		{ "--verbose", "1", "unknown option '--verbose'" },
		{ "--global-ctrl", "0x20", "bad value '0x20' for --global-ctrl" },
		{ "--global-ctrl", "0x100000000", "bad value '0x100000000' for --global-ctrl" },
		{ "--global-ctrl", "x", "bad value 'x' for --global-ctrl" },
		{ "--cbo-config-reserved", "0x15", "bad value '0x15' for --cbo-config-reserved" },
		{ "--cbo-config-reserved", "-16", "bad value '-16' for --cbo-config-reserved" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *argv[] = { "uncore-emu.efi", bad[i].a, bad[i].b };
		err[0] = '\0';
		T_EQ(emu_parse_options(3, (char **)argv, &cfg, err, sizeof(err)), UNC_E_INVALID);
		T_CONTAINS(err, bad[i].msg);
	}
	const char *missing[] = { "uncore-emu.efi", "--rate" };
	T_EQ(emu_parse_options(2, (char **)missing, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "--rate needs a value");
}

/* uncore-emu.efi refuses what it would otherwise take silently: an option
 * given twice (a rate for one counter, by any of its names), a unit suffix
 * on --uclk-mhz, two faults for one thing, and --unload with anything else. */
static void options_given_twice_or_misplaced(void)
{
	char err[200];
	static const struct {
		const char *argv[6];
		const char *msg;
	} bad[] = {
		{ { "--rate", "UNC_ARB_TRK_REQUESTS.ALL=1M", "--rate", "UNC_ARB_TRK_REQUESTS.ALL=2M" },
		  "--rate for UNC_ARB_TRK_REQUESTS.ALL given twice" },
		{ { "--rate", "unc_arb_trk_requests.all=1M", "--rate", "UNC_ARB_TRK_REQUESTS.ALL=1M" },
		  "--rate for UNC_ARB_TRK_REQUESTS.ALL given twice" },
		{ { "--rate", "DRAM_DATA_READS=1M", "--rate", "data_reads=2M" }, "--rate for DRAM_DATA_READS given twice" },
		{ { "--rate", "imc/data_reads/=1", "--rate", "DRAM_DATA_READS=2" }, "--rate for DRAM_DATA_READS given twice" },
		{ { "--cbo-config", "5", "--cbo-config", "2" }, "--cbo-config given twice" },
		{ { "--uclk-mhz", "800", "--uclk-mhz", "1000" }, "--uclk-mhz given twice" },
		{ { "--global-ctrl", "0", "--global-ctrl", "0" }, "--global-ctrl given twice" },
		{ { "--cbo-config-reserved", "0x10", "--cbo-config-reserved", "0x10" }, "--cbo-config-reserved given twice" },
		{ { "--uclk-mhz", "0.8k" }, "bad value '0.8k' for --uclk-mhz" },
		{ { "--uclk-mhz", "1G" }, "bad value '1G' for --uclk-mhz" },
		{ { "--fault", "mchbar-disabled", "--fault", "mchbar-zero" }, "--fault mchbar-zero: only one MCHBAR fault" },
		{ { "--fault", "mchbar-high", "--fault", "mchbar-high" }, "--fault mchbar-high: only one MCHBAR fault" },
		{ { "--fault", "pmu-in-use", "--fault", "pmu-in-use" }, "--fault pmu-in-use given twice" },
		{ { "--fault", "stuck=fixed", "--fault", "stuck=FIXED" }, "--fault stuck=FIXED given twice" },
		{ { "--fault", "msr-gp=0x396", "--fault", "msr-gp-write=0x396" }, "--fault for MSR 0x396 given twice" },
		{ { "--unload", "extra" }, "--unload takes nothing else: unexpected 'extra'" },
		{ { "--cbo-config", "5", "--unload" }, "--unload takes nothing else: unexpected '--cbo-config'" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *argv[7] = { "uncore-emu.efi" };
		int argc = 1;
		while (argc < 7 && bad[i].argv[argc - 1])
			argv[argc] = bad[i].argv[argc - 1], argc++;
		err[0] = '\0';
		T_EQ(emu_parse_options(argc, (char **)argv, &cfg, err, sizeof(err)), UNC_E_INVALID);
		T_CONTAINS(err, bad[i].msg);
	}
	const char *lone[] = { "uncore-emu.efi", "--unload" };
	T_EQ(emu_parse_options(2, (char **)lone, &cfg, err, sizeof(err)), UNC_OK);
	T_ASSERT(cfg.unload);
	/* one rate per counter, each once, by any of the names */
	const char *rates[] = { "uncore-emu.efi", "--rate", "data_reads=5", "--rate", "DRAM_DATA_WRITES=6", "--rate",
				"unc_arb_trk_requests.all=7", "--rate", "UNC_ARB_TRK_REQUESTS.WRITES=8" };
	T_EQ(emu_parse_options(9, (char **)rates, &cfg, err, sizeof(err)), UNC_OK);
	T_ASSERT(!cfg.unload);
	T_EQ(cfg.imc_per_sec[3], 5);
	T_EQ(cfg.imc_per_sec[4], 6);
	T_EQ(cfg.nrates, 2);
}

/* The application's info, run against the model through the seam: the
 * Skylake-client driver matches its CPU, and so does the architectural
 * core PMU's, which the emulator serves beside it on a Skylake identity. */
static const struct info_pmu *skl_of(const struct platform_info *pi)
{
	T_EQ(pi->npmu, 2);
	T_ASSERT(pi->pmu[0].drv == &pmu_driver_arch);
	T_ASSERT(pi->pmu[1].drv == &pmu_driver_skl);
	return &pi->pmu[1];
}

static void info_against_the_model(void)
{
	static struct platform_info pi;
	uint64_t base;

	fresh();
	start();
	T_EQ(info_gather(&h.hw, &pi), UNC_OK);
	T_EQ(skl_of(&pi)->p.boxes[SKL_UNIT_CBO], 4);
	T_EQ(pi.msr_mode, HW_MSR_EMULATED);
	T_EQ(skl_of(&pi)->p.facts[SKL_FACT_MCHBAR_RAW] & 0x1, 1);
	T_EQ(skl_of(&pi)->p.base[SKL_UNIT_IMC], EMU_HW_MCHBAR);
	T_ASSERT(skl_of(&pi)->use_checked && skl_of(&pi)->use.known);
	T_ASSERT(!skl_of(&pi)->use.in_use);

	cfg.no_cbo_banks = 2;
	start();
	T_EQ(info_gather(&h.hw, &pi), UNC_OK);
	T_EQ(skl_of(&pi)->p.boxes[SKL_UNIT_CBO], 1);

	fresh();
	cfg.pmu_in_use = true;
	start();
	info_gather(&h.hw, &pi);
	T_ASSERT(skl_of(&pi)->use.in_use);
	T_ASSERT(pmu_reg_eq(skl_of(&pi)->use.busy[0].reg, pmu_msr(0xE01)));
	T_ASSERT(pmu_reg_eq(skl_of(&pi)->use.busy[1].reg, pmu_msr(0x700)));

	fresh();
	cfg.gp[cfg.ngp++].msr = 0x396;
	start();
	T_EQ(info_gather(&h.hw, &pi), UNC_E_FAULT);
	T_ASSERT(pmu_reg_eq(pi.faults[0].reg, pmu_msr(0x396)));

	fresh();
	cfg.mchbar_fault = EMU_MCHBAR_DISABLED;
	start();
	info_gather(&h.hw, &pi);
	const struct pmu_present *p = &skl_of(&pi)->p;
	T_EQ(p->facts[SKL_FACT_MCHBAR_RAW] & 0x1, 0);
	T_EQ(mchbar_judge(p->facts[SKL_FACT_HB_ID] & 0xffff, p->facts[SKL_FACT_MCHBAR_RAW], 0x7FFFFF8000ull,
			  pi.cpu.phys_addr_bits, &base),
	     MCHBAR_DISABLED);
	T_EQ(base, EMU_HW_MCHBAR);
	T_EQ(p->boxes[SKL_UNIT_IMC], 0);
}

/* Protocol revision 2 through the host seam: --cpuid answers one leaf
 * instead of the processor, and `info` shows it and names the path; the
 * leaves not given, PCI functions the model does not claim, and RDPMC (no
 * RDPMC path in this uncore) reach the strict fake, and are not named. */
static void cpuid_override_pci_and_rdpmc(void)
{
	static struct platform_info pi;
	char err[200], buf[2048];
	struct strbuf sb;
	struct out o;
	uint64_t v = 0;

	/* the uncore alone: the core PMU would answer RDPMC and leaf 0xA */
	const char *argv[] = { "uncore-emu.efi", "--cpuid", "1:0=0x000906EA,0x80000,0x80000000,0x10000000", "--core-pmu",
			       "none" };
	T_EQ(emu_parse_options(5, (char **)argv, &cfg, err, sizeof(err)), UNC_OK);
	start();
	T_EQ(info_gather(&h.hw, &pi), UNC_OK);
	T_EQ(pi.cpu.model, 0x9E);
	T_EQ(pi.cpu.stepping, 0xA);
	strbuf_init(&sb, buf, sizeof(buf));
	o = strbuf_out(&sb);
	info_print(&o, &pi);
	T_CONTAINS(buf, "family 0x6 model 0x9e stepping 10");
	T_CONTAINS(buf, "\ncpuid:        leaf 0x1 emulated\n");
	T_NOT_CONTAINS(buf, "leaf 0x0 ");
	T_NOT_CONTAINS(buf, "pci config:");
	T_NOT_CONTAINS(buf, "rdpmc:");
	emu_describe(&cfg, buf, sizeof(buf)); /* the reports name it through the description */
	T_CONTAINS(buf, ", cpuid 0x1:0, faults: none");
	strbuf_init(&sb, buf, sizeof(buf));
	o = strbuf_out(&sb);
	info_print_json(&o, &pi);
	T_CONTAINS(buf, "\"emulated\":{\"cpuid_leaves\":[1],\"pci\":[],\"mmio_pages\":[],\"rdpmc\":false}");

	fake_pmc(&h.fake, 0, 0, UNC_E_UNSUPPORTED); /* QEMU's TCG: #UD */
	T_EQ(hw_rdpmc(&h.hw, 0, &v), UNC_E_UNSUPPORTED);
	T_ASSERT(!h.emulated.rdpmc);
	uint32_t id = 0;
	T_EQ(hw_pci_read32(&h.hw, (struct pci_addr){ 0, 0, 0 }, 0, &id), UNC_OK);
	T_EQ(id, 0x19108086);
	T_EQ(h.emulated.npci, 0);

	/* without --cpuid (and no core PMU, whose leaves 0xA and 1 the
	 * emulator would answer), CPUID is the processor's and info names no
	 * path */
	fresh();
	cfg.core_pmu = EMU_CORE_NONE;
	start();
	T_EQ(info_gather(&h.hw, &pi), UNC_OK);
	T_EQ(pi.cpu.model, 0x5E);
	strbuf_init(&sb, buf, sizeof(buf));
	o = strbuf_out(&sb);
	info_print(&o, &pi);
	T_NOT_CONTAINS(buf, "cpuid:");
	strbuf_init(&sb, buf, sizeof(buf));
	o = strbuf_out(&sb);
	info_print_json(&o, &pi);
	T_NOT_CONTAINS(buf, "\"emulated\":{");
}

/* Protocol revision 3: the IMC counters are read from the emulator, each
 * exact at its read, and info names the page of MCHBAR it answered. */
static void imc_reads_noted(void)
{
	static struct platform_info pi;
	char buf[2048];
	struct strbuf sb;
	struct out o;
	uint32_t v = 0;

	fresh();
	cfg.core_pmu = EMU_CORE_NONE;
	cfg.imc_per_sec[3] = 15625000; /* DRAM_DATA_READS */
	start();
	emu_hw_advance(&h, 3 * S / 10 + 7);
	T_EQ(hw_mmio_read32(&h.hw, EMU_HW_MCHBAR + 0x5050, &v), UNC_OK);
	T_EQ(v, 4687500);
	T_EQ(h.emulated.nmmio, 1);
	T_EQ(h.emulated.mmio_page[0], EMU_HW_MCHBAR + 0x5000);
	T_EQ(info_gather(&h.hw, &pi), UNC_OK);
	strbuf_init(&sb, buf, sizeof(buf));
	o = strbuf_out(&sb);
	info_print(&o, &pi);
	T_CONTAINS(buf, "\nmmio:         emulated in 0xfed15000-0xfed15fff\n");
	strbuf_init(&sb, buf, sizeof(buf));
	o = strbuf_out(&sb);
	info_print_json(&o, &pi);
	T_CONTAINS(buf, "\"emulated\":{\"cpuid_leaves\":[],\"pci\":[],\"mmio_pages\":[\"0xfed15000\"],\"rdpmc\":false}");
}

static void cpuid_option(void)
{
	char err[200];
	static const struct {
		const char *argv[5];
		const char *msg;
	} bad[] = {
		{ { "--cpuid", "0xA=1,2,3,4" }, "bad --cpuid '0xA=1,2,3,4' (want LEAF:SUBLEAF=EAX,EBX,ECX,EDX)" },
		{ { "--cpuid", "0xA:0" }, "bad --cpuid '0xA:0'" },
		{ { "--cpuid", "x:0=1,2,3,4" }, "bad leaf 'x' in --cpuid" },
		{ { "--cpuid", "0xA:y=1,2,3,4" }, "bad subleaf 'y' in --cpuid" },
		{ { "--cpuid", "0xA:0=1,2,3" }, "--cpuid '0xA:0=1,2,3' needs four registers" },
		{ { "--cpuid", "0xA:0=1,2,0x100000000,4" }, "bad ECX value '0x100000000' in --cpuid" },
		{ { "--cpuid", "0xA:0=1,2,3,4", "--cpuid", "10:0=5,6,7,8" }, "--cpuid for leaf 0xa subleaf 0 given twice" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *argv[6] = { "uncore-emu.efi" };
		int argc = 1;
		while (argc < 6 && bad[i].argv[argc - 1])
			argv[argc] = bad[i].argv[argc - 1], argc++;
		err[0] = '\0';
		T_EQ(emu_parse_options(argc, (char **)argv, &cfg, err, sizeof(err)), UNC_E_INVALID);
		T_CONTAINS(err, bad[i].msg);
	}
	const char *good[] = { "uncore-emu.efi", "--cpuid", "0xA:0=0x07300404,0,0,0x603", "--cpuid", "0xA:1=1,2,3,4" };
	T_EQ(emu_parse_options(5, (char **)good, &cfg, err, sizeof(err)), UNC_OK);
	struct emu_cpuid c;
	T_ASSERT(emu_cpuid(&cfg, 0xA, 0, &c));
	T_EQ(c.eax, 0x07300404);
	T_EQ(c.edx, 0x603);
	T_ASSERT(emu_cpuid(&cfg, 0xA, 1, &c));
	T_EQ(c.ecx, 3);
	T_ASSERT(!emu_cpuid(&cfg, 0xA, 2, &c));
	T_ASSERT(!emu_cpuid(&cfg, 1, 0, &c));
}

/* --fault slow-stall=PCT: the firmware's Stall made longer, which no
 * rate may notice (the QEMU bw boot); here its option and description. */
static void slow_stall_option(void)
{
	char err[200], desc[256];
	const char *good[] = { "uncore-emu.efi", "--fault", "slow-stall=50" };
	T_EQ(emu_parse_options(3, (char **)good, &cfg, err, sizeof(err)), UNC_OK);
	T_EQ(cfg.slow_stall_pct, 50);
	emu_describe(&cfg, desc, sizeof(desc));
	T_CONTAINS(desc, "faults: slow-stall=50%");
	static const struct {
		const char *argv[4];
		const char *msg;
	} bad[] = {
		{ { "--fault", "slow-stall" }, "--fault slow-stall needs a value (slow-stall=...)" },
		{ { "--fault", "slow-stall=0" }, "bad percentage '0' in --fault slow-stall (1 to 1000)" },
		{ { "--fault", "slow-stall=1001" }, "bad percentage '1001' in --fault slow-stall (1 to 1000)" },
		{ { "--fault", "slow-stall=5%" }, "bad percentage '5%' in --fault slow-stall" },
		{ { "--fault", "slow-stall=5", "--fault", "slow-stall=6" }, "--fault slow-stall given twice" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *argv[5] = { "uncore-emu.efi" };
		int argc = 1;
		while (argc < 5 && bad[i].argv[argc - 1])
			argv[argc] = bad[i].argv[argc - 1], argc++;
		err[0] = '\0';
		T_EQ(emu_parse_options(argc, (char **)argv, &cfg, err, sizeof(err)), UNC_E_INVALID);
		T_CONTAINS(err, bad[i].msg);
	}
}

T_MAIN("model", T_CASE(slow_stall_option), T_CASE(table_2_1_register_map), T_CASE(table_2_6_cbo_config_read_only), T_CASE(global_ctrl_at_load), T_CASE(eight_cbos_box_7_apart),
       T_CASE(table_2_2_global_ctrl), T_CASE(table_2_3_global_status_rw1c), T_CASE(table_2_4_2_5_fixed_counter),
       T_CASE(table_2_7_event_select_fields), T_CASE(table_2_8_counter_width),
       T_CASE(counting_needs_local_and_global_enable), T_CASE(event_rates_per_box),
       T_CASE(reads_do_not_advance_counts), T_CASE(wraps_set_status_bits), T_CASE(freeze_on_pmi),
       T_CASE(threshold_invert_edge), T_CASE(arb_occupancy_counter_0_only), T_CASE(imc_counters_free_run_and_wrap),
       T_CASE(fault_msr_gp), T_CASE(fault_pmu_in_use), T_CASE(fault_stuck_counter), T_CASE(fault_mchbar),
       T_CASE(options), T_CASE(options_given_twice_or_misplaced), T_CASE(info_against_the_model),
       T_CASE(cpuid_option), T_CASE(cpuid_override_pci_and_rdpmc), T_CASE(imc_reads_noted))
