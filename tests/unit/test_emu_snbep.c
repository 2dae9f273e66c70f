/* The emulator's Xeon E5-2600 iMC (tests/emu/pmu_snbep.c) against literals
 * typed from Intel 327043-001 (register offsets, fields and access types; the
 * event table's codes and Max Inc/Cyc), Linux's snbep_uncore_pci_ids (the
 * device IDs) and Intel's perfmon JKT uncore file (unit masks): its
 * configuration space, counting, freeze, the options and faults. */
#include <stdio.h>
#include <string.h>

#include "../../drivers/base/arith.h"
#include "../../drivers/pmu/snbep.h"
#include "../emu/emu_hw.h"
#include "../emu/model.h"
#include "run_help.h"
#include "t.h"

#define S 1000000000ull /* ns */
#define SNBEP_ID 0x000206D7u /* family 6 model 0x2D stepping 7 */
#define SKL_ID 0x000506E3u   /* family 6 model 0x5E */
#define EN (1u << 22)
#define CAS 0x04u
#define BOX_CTL 0xF4
#define FIXED_CTL 0xF0
#define CTL0 0xD8
#define CTR0 0xA0
#define FIXED_CTR 0xD0
#define FRZ_EN (1u << 16)
#define FRZ (1u << 8)

static struct emu e, core;
static uint64_t now;

static void start_id(uint32_t id, int argc, char **argv)
{
	struct emu_config cfg;
	char err[300] = "";

	if (emu_parse_options(argc, argv, &cfg, err, sizeof(err)) != UNC_OK)
		t_fail(__FILE__, __LINE__, "options: %s", err);
	emu_init_cpu(&e, &core, &cfg, id);
	now = 0;
}

#define START(...) start_id(SNBEP_ID, (int)(sizeof((char *[]){ "emu", __VA_ARGS__ }) / sizeof(char *)), (char *[]){ "emu", __VA_ARGS__ })
#define START0() start_id(SNBEP_ID, 1, (char *[]){ "emu" })

static void advance(uint64_t ns)
{
	now += ns;
	emu_set_time(&e, now);
}

static uint32_t rd(uint8_t bus, uint8_t func, uint16_t off)
{
	uint32_t v = 0xdeadbeef;
	T_EQ(emu_pci_read32(&e, bus, 16, func, off, &v), UNC_OK);
	return v;
}

static void wr(uint8_t bus, uint8_t func, uint16_t off, uint32_t v)
{
	T_EQ(emu_pci_write32(&e, bus, 16, func, off, v), UNC_OK);
}

static uint64_t ctr(uint8_t bus, uint8_t func, uint16_t off)
{
	return (uint64_t)rd(bus, func, off + 4) << 32 | rd(bus, func, off);
}

static void set_ctr(uint8_t bus, uint8_t func, uint16_t off, uint64_t v)
{
	wr(bus, func, off, (uint32_t)v);
	wr(bus, func, off + 4, (uint32_t)(v >> 32));
}

/* Intel 327043-001: every register, its offset, count and stride, and which bits
 * are read-write, write-only and must-be-0 (the rest reserved). */
static void register_table_is_the_seeds(void)
{
	static const struct {
		uint16_t off;
		uint8_t n, stride, kind;
		uint32_t rw, wo, mbz;
	} want[] = {
		{ 0x00, 1, 4, EMU_SNBEP_ID, 0, 0, 0 },
		/* CTR0-3 at 0xA0/0xA4 ... 0xB8/0xBC, 47:0 RW-V, 63:48 reserved */
		{ 0xA0, 4, 8, EMU_SNBEP_CTR_LO, 0xFFFFFFFF, 0, 0 },
		{ 0xA4, 4, 8, EMU_SNBEP_CTR_HI, 0x0000FFFF, 0, 0 },
		{ 0xD0, 1, 4, EMU_SNBEP_CTR_LO, 0xFFFFFFFF, 0, 0 },
		{ 0xD4, 1, 4, EMU_SNBEP_CTR_HI, 0x0000FFFF, 0, 0 },
		/* CTL0-3: thresh 31:24, invert 23, en 22, edge 18, umask 15:8,
		 * ev_sel 7:0; 17:16 must be 0 */
		{ 0xD8, 4, 4, EMU_SNBEP_CTL, 0xFF000000 | 1u << 23 | 1u << 22 | 1u << 18 | 0xFF00 | 0xFF, 0, 3u << 16 },
		/* FIXED_CTL: en 22 RW-V, rst 19 WO */
		{ 0xF0, 1, 4, EMU_SNBEP_FIXED_CTL, 1u << 22, 1u << 19, 0 },
		/* BOX_CTL: frz_en 16 WO, frz 8 WO; 17 and 1:0 must be 0 */
		{ 0xF4, 1, 4, EMU_SNBEP_BOX_CTL, 0, 1u << 16 | 1u << 8, 1u << 17 | 3u },
	};
	T_EQ(emu_snbep_nregs, sizeof(want) / sizeof(want[0]));
	for (unsigned i = 0; i < emu_snbep_nregs && i < sizeof(want) / sizeof(want[0]); i++) {
		const struct emu_snbep_reg *g = &emu_snbep_regs[i];
		T_EQ(g->off, want[i].off);
		T_EQ(g->n, want[i].n);
		T_EQ(g->stride, want[i].stride);
		T_EQ(g->kind, want[i].kind);
		T_EQ(g->rw, want[i].rw);
		T_EQ(g->wo, want[i].wo);
		T_EQ(g->mbz, want[i].mbz);
		T_EQ(g->rw & g->wo, 0);
		T_EQ(g->rw & g->mbz, 0);
		T_EQ(g->wo & g->mbz, 0);
	}
	/* Intel 327043-001: D16:F0,1,4,5 for channels 0-3; Linux: 8086:3CB0, 3CB1, 3CB4, 3CB5 */
	T_EQ(EMU_SNBEP_DEV, 16);
	T_EQ(emu_snbep_func[0], 0);
	T_EQ(emu_snbep_func[1], 1);
	T_EQ(emu_snbep_func[2], 4);
	T_EQ(emu_snbep_func[3], 5);
	T_EQ(emu_snbep_device_id[0], 0x3CB0);
	T_EQ(emu_snbep_device_id[1], 0x3CB1);
	T_EQ(emu_snbep_device_id[2], 0x3CB4);
	T_EQ(emu_snbep_device_id[3], 0x3CB5);
	T_EQ(emu_snbep_bus[0], 0x3F);
	T_EQ(emu_snbep_bus[1], 0x7F);
}

/* Intel 327043-001's event table: every row's code and Max Inc/Cyc (the guide's
 * blank POWER_SELF_REFRESH taken as 1), found by its short name. */
static void event_table_is_the_seeds(void)
{
	static const struct { const char *name; uint8_t code, max_inc; } rows[] = {
		{ "ACT_COUNT", 0x01, 1 },	   { "PRE_COUNT.PAGE_MISS", 0x02, 1 }, { "CAS_COUNT.RD", 0x04, 1 },
		{ "DRAM_REFRESH.HIGH", 0x05, 1 }, { "DRAM_PRE_ALL", 0x06, 1 },	     { "MAJOR_MODES.READ", 0x07, 1 },
		{ "PREEMPTION.RD_PREEMPT_RD", 0x08, 1 }, { "ECC_CORRECTABLE_ERRORS", 0x09, 1 },
		{ "RPQ_INSERTS", 0x10, 1 },	   { "RPQ_CYCLES_NE", 0x11, 1 },	     { "RPQ_CYCLES_FULL", 0x12, 1 },
		{ "WPQ_INSERTS", 0x20, 1 },	   { "WPQ_CYCLES_NE", 0x21, 1 },	     { "WPQ_CYCLES_FULL", 0x22, 1 },
		{ "WPQ_READ_HIT", 0x23, 1 },	   { "WPQ_WRITE_HIT", 0x24, 1 },
		{ "POWER_THROTTLE_CYCLES.RANK0", 0x41, 1 }, { "POWER_SELF_REFRESH", 0x43, 1 },
		{ "RPQ_OCCUPANCY", 0x80, 22 },	   { "WPQ_OCCUPANCY", 0x81, 32 },
		{ "POWER_CKE_CYCLES.RANK0", 0x83, 16 }, { "POWER_CHANNEL_DLLOFF", 0x84, 1 },
		{ "POWER_CHANNEL_PPD", 0x85, 4 }, { "POWER_CRITICAL_THROTTLE_CYCLES", 0x86, 1 },
	};
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct emu_snbep_event *ev = emu_snbep_event_find(rows[i].name);
		T_ASSERT(ev != NULL);
		if (!ev)
			continue;
		T_EQ(ev->code, rows[i].code);
		T_EQ(ev->max_inc, rows[i].max_inc);
	}
	/* Unit masks: Intel's JKT file (CAS_COUNT also Linux's) */
	static const struct { const char *name; uint8_t umask; } um[] = {
		{ "UNC_M_CAS_COUNT.RD_REG", 0x01 }, { "UNC_M_CAS_COUNT.RD_UNDERFILL", 0x02 }, { "UNC_M_CAS_COUNT.WR_WMM", 0x04 },
		{ "UNC_M_CAS_COUNT.WR_RMM", 0x08 }, { "UNC_M_CAS_COUNT.RD", 0x03 },	       { "UNC_M_CAS_COUNT.WR", 0x0C },
		{ "unc_m_cas_count.all", 0x0F },    { "UNC_M_ACT_COUNT", 0x00 },
	};
	for (unsigned i = 0; i < sizeof(um) / sizeof(um[0]); i++) {
		const struct emu_snbep_event *ev = emu_snbep_event_find(um[i].name);
		T_ASSERT(ev != NULL);
		if (ev)
			T_EQ(ev->umask, um[i].umask);
	}
	T_ASSERT(emu_snbep_event_find("UNC_M_NOPE") == NULL);
	T_ASSERT(emu_snbep_is_dclk("UNC_M_DCLOCKTICKS") && emu_snbep_is_dclk("DCLOCKTICKS"));
	T_ASSERT(emu_snbep_is_dclk("UNC_M_CLOCKTICKS") && !emu_snbep_is_dclk("UNC_M_ACT_COUNT"));
}

/* Family 6 model 0x2D gets the iMC and no Skylake-client MSR; other
 * identities Skylake-client and no iMC function; --uncore overrides. */
static void uncore_follows_cpu_identity(void)
{
	uint64_t v;
	uint32_t x;

	START0();
	T_EQ(e.cfg.uncore_active, EMU_UNCORE_SNBEP);
	T_EQ(emu_msr_read(&e, 0x396, &v), UNC_E_NOT_FOUND);
	T_EQ(emu_msr_read(&e, 0xE01, &v), UNC_E_NOT_FOUND);
	T_EQ(emu_pci_read32(&e, 0x3F, 16, 0, 0, &x), UNC_OK);
	start_id(SKL_ID, 1, (char *[]){ "emu" });
	T_EQ(e.cfg.uncore_active, EMU_UNCORE_SKL);
	T_EQ(emu_msr_read(&e, 0x396, &v), UNC_OK);
	T_EQ(emu_pci_read32(&e, 0x3F, 16, 0, 0, &x), UNC_E_NOT_FOUND);
	start_id(SKL_ID, 3, (char *[]){ "emu", "--uncore", "snbep" });
	T_EQ(e.cfg.uncore_active, EMU_UNCORE_SNBEP);
	T_EQ(emu_pci_read32(&e, 0x7F, 16, 5, 0, &x), UNC_OK);
	START("--uncore", "skl");
	T_EQ(e.cfg.uncore_active, EMU_UNCORE_SKL);
	T_EQ(emu_pci_read32(&e, 0x7F, 16, 5, 0, &x), UNC_E_NOT_FOUND);
	/* Model 0x3E (Ivy Bridge-EP) is served as the Xeon iMC too, its generation's */
	T_EQ(emu_uncore_for(0x000306E4u), EMU_UNCORE_SNBEP);
	T_EQ(emu_imc_gen_for(0x3E), EMU_GEN_IVB);
	T_EQ(emu_uncore_for(SNBEP_ID), EMU_UNCORE_SNBEP);
}

static void device_ids_and_other_offsets(void)
{
	static const uint32_t id[4] = { 0x3CB08086, 0x3CB18086, 0x3CB48086, 0x3CB58086 };
	static const uint8_t fn[4] = { 0, 1, 4, 5 };
	uint32_t v;

	START0();
	for (unsigned s = 0; s < 2; s++)
		for (unsigned c = 0; c < 4; c++)
			T_EQ(rd(s ? 0x7F : 0x3F, fn[c], 0), id[c]);
	/* functions 2, 3, 6, 7, other devices and buses: not the model's */
	T_EQ(emu_pci_read32(&e, 0x3F, 16, 2, 0, &v), UNC_E_NOT_FOUND);
	T_EQ(emu_pci_read32(&e, 0x3F, 15, 0, 0, &v), UNC_E_NOT_FOUND);
	T_EQ(emu_pci_read32(&e, 0xFF, 16, 0, 0, &v), UNC_E_NOT_FOUND);
	/* the ID is read-only; unlisted offsets read 0 and drop writes */
	wr(0x3F, 0, 0, 0x12345678);
	T_EQ(rd(0x3F, 0, 0), 0x3CB08086);
	wr(0x3F, 0, 0x40, 0xFFFFFFFF);
	T_EQ(rd(0x3F, 0, 0x40), 0);
	T_EQ(rd(0x3F, 0, 0xF8), 0);
	T_EQ(emu_pci_read32(&e, 0x3F, 16, 0, 0xD9, &v), UNC_E_RANGE);
	/* Each socket's UBox (Linux's snbep_pci2phy_map_init: device 3CE0,
	 * CPUNODEID 0x40 bits 2:0, GIDNIDMAP 0x54 three bits per socket), at
	 * 11.0 here: socket s is node s. */
	for (unsigned s = 0; s < 2; s++) {
		uint8_t bus = s ? 0x7F : 0x3F;
		T_EQ(emu_pci_read32(&e, bus, 11, 0, 0, &v), UNC_OK);
		T_EQ(v, 0x3CE08086);
		T_EQ(emu_pci_read32(&e, bus, 11, 0, 0x40, &v), UNC_OK);
		T_EQ(v & 7, s);
		T_EQ(emu_pci_read32(&e, bus, 11, 0, 0x54, &v), UNC_OK);
		T_EQ(v >> (3 * s) & 7, s);
		T_EQ(emu_pci_write32(&e, bus, 11, 0, 0x54, 0), UNC_OK); /* dropped */
		T_EQ(emu_pci_read32(&e, bus, 11, 0, 0x54, &v), UNC_OK);
		T_EQ(v >> (3 * s) & 7, s);
	}
	/* with one socket, bus 0x7F's UBox is not there either */
	START("--sockets", "1");
	T_EQ(emu_pci_read32(&e, 0x7F, 11, 0, 0, &v), UNC_E_NOT_FOUND);
	T_EQ(emu_pci_read32(&e, 0x3F, 11, 0, 0, &v), UNC_OK);
}

/* Write-only fields read 0, reserved bits read 0 and drop writes, both
 * dwords of a counter are writable. */
static void access_types(void)
{
	START0();
	wr(0x3F, 0, BOX_CTL, FRZ_EN | FRZ);
	T_EQ(rd(0x3F, 0, BOX_CTL), 0);
	wr(0x3F, 0, BOX_CTL, 0xFFFCFFFC); /* every bit but the must-be-0 ones */
	T_EQ(rd(0x3F, 0, BOX_CTL), 0);
	wr(0x3F, 0, FIXED_CTL, 0xFFFFFFFF);
	T_EQ(rd(0x3F, 0, FIXED_CTL), EN);
	wr(0x3F, 0, CTL0 + 4, 0xFFFCFFFF);
	T_EQ(rd(0x3F, 0, CTL0 + 4), 0xFFC4FFFF); /* 21:19 reserved */
	wr(0x3F, 0, CTR0 + 8, 0x89ABCDEF);
	wr(0x3F, 0, CTR0 + 12, 0xFFFF1234);
	T_EQ(rd(0x3F, 0, CTR0 + 8), 0x89ABCDEF);
	T_EQ(rd(0x3F, 0, CTR0 + 12), 0x1234); /* 63:48 reserved */
	T_EQ(e.mbz.n, 0);
	/* another channel is untouched */
	T_EQ(rd(0x3F, 1, CTL0 + 4), 0);
	T_EQ(rd(0x7F, 0, CTR0 + 8), 0);
}

/* A write that sets a must-be-0 bit: its other fields take effect, the
 * model counts it and the description names the first. */
static void must_be_zero_writes_are_noted(void)
{
	char buf[640];

	START0();
	wr(0x3F, 0, CTL0, EN | 0x0304);
	wr(0x3F, 0, BOX_CTL, FRZ_EN | FRZ | 0x2); /* frozen, bit 1 set */
	T_EQ(e.mbz.n, 1);
	wr(0x7F, 5, CTL0, EN | 1u << 16 | 0x0304);
	T_EQ(e.mbz.n, 2);
	T_EQ(rd(0x7F, 5, CTL0), EN | 0x0304);
	emu_describe_model(&e, buf, sizeof(buf));
	T_CONTAINS(buf, "; must-be-0 writes: 2, first 3f:10.0 [0x0f4] = 0x00010102");
	/* the box did freeze: counter 0 of channel 0 stays */
	advance(S);
	T_EQ(ctr(0x3F, 0, CTR0), 0);
	T_EQ(ctr(0x7F, 5, CTR0), 0); /* no rate given */
}

/* Rates per channel, the same everywhere; a select with umask U counts
 * the rates given for unit masks inside U. Exact after one second. */
static void counting_at_the_rates(void)
{
	START("--rate", "UNC_M_CAS_COUNT.RD=10M", "--rate", "CAS_COUNT.WR=5M", "--rate", "ACT_COUNT=3M");
	for (unsigned b = 0; b < 8; b++) {
		uint8_t bus = b < 4 ? 0x3F : 0x7F, fn = (uint8_t[]){ 0, 1, 4, 5 }[b % 4];
		wr(bus, fn, CTL0, EN | 0x0300 | CAS);
		wr(bus, fn, CTL0 + 4, EN | 0x0C00 | CAS);
		wr(bus, fn, CTL0 + 8, EN | 0x0F00 | CAS);
		wr(bus, fn, CTL0 + 12, EN | 0x0100 | CAS); /* RD_REG: inside RD, not given alone */
		wr(bus, fn, FIXED_CTL, EN);
	}
	advance(S);
	for (unsigned b = 0; b < 8; b++) {
		uint8_t bus = b < 4 ? 0x3F : 0x7F, fn = (uint8_t[]){ 0, 1, 4, 5 }[b % 4];
		T_EQ(ctr(bus, fn, CTR0), 10000000);
		T_EQ(ctr(bus, fn, CTR0 + 8), 5000000);
		T_EQ(ctr(bus, fn, CTR0 + 16), 15000000);
		T_EQ(ctr(bus, fn, CTR0 + 24), 0);
		T_EQ(ctr(bus, fn, FIXED_CTR), 800000000); /* DCLK 800 MHz */
	}
	/* ACT_COUNT has no unit mask: any select of code 1 counts it */
	wr(0x3F, 0, CTL0, EN | 0x0001);
	wr(0x3F, 0, CTL0 + 4, EN | 0x5501);
	set_ctr(0x3F, 0, CTR0, 0);
	set_ctr(0x3F, 0, CTR0 + 8, 0);
	advance(S / 2);
	T_EQ(ctr(0x3F, 0, CTR0), 1500000);
	T_EQ(ctr(0x3F, 0, CTR0 + 8), 1500000);

	/* Rates of the parts sum; DCLK set */
	START("--rate", "CAS_COUNT.RD_REG=1M", "--rate", "UNC_M_CAS_COUNT.RD_UNDERFILL=2M", "--rate", "UNC_M_DCLOCKTICKS=1G");
	wr(0x3F, 5, CTL0, EN | 0x0300 | CAS);
	wr(0x3F, 5, CTL0 + 4, EN | 0x0200 | CAS);
	wr(0x3F, 5, FIXED_CTL, EN);
	advance(2 * S);
	T_EQ(ctr(0x3F, 5, CTR0), 6000000);
	T_EQ(ctr(0x3F, 5, CTR0 + 8), 4000000);
	T_EQ(ctr(0x3F, 5, FIXED_CTR), 2000000000);
	/* en clear: nothing */
	T_EQ(ctr(0x3F, 4, FIXED_CTR), 0);
}

/* thresh, invert and edge act per DCLK cycle on the increment. */
static void threshold_invert_edge(void)
{
	/* 10 per DCLK cycle: RPQ_OCCUPANCY (Max Inc/Cyc 22) at 8G with DCLK 800M */
	START("--rate", "RPQ_OCCUPANCY=8G");
	wr(0x3F, 0, CTL0, EN | 10u << 24 | 0x80);
	wr(0x3F, 0, CTL0 + 4, EN | 11u << 24 | 0x80);
	wr(0x3F, 0, CTL0 + 8, EN | 1u << 23 | 11u << 24 | 0x80);
	wr(0x3F, 0, CTL0 + 12, EN | 1u << 18 | 0x80);
	advance(S);
	T_EQ(ctr(0x3F, 0, CTR0), 800000000);
	T_EQ(ctr(0x3F, 0, CTR0 + 8), 0);
	T_EQ(ctr(0x3F, 0, CTR0 + 16), 800000000);
	T_EQ(ctr(0x3F, 0, CTR0 + 24), 0); /* always asserted: no rising edge */
}

/* Frozen = frz_en and frz both set in the last BOX_CTL write: nothing
 * counts, exactly; either bit alone freezes nothing. Both dwords read
 * while frozen are of one value, however far apart. */
static void freeze_stops_counting(void)
{
	START("--rate", "CAS_COUNT.RD=10M");
	wr(0x3F, 1, CTL0, EN | 0x0300 | CAS);
	wr(0x3F, 1, FIXED_CTL, EN);
	advance(S);
	wr(0x3F, 1, BOX_CTL, FRZ_EN | FRZ);
	uint32_t lo = rd(0x3F, 1, CTR0);
	advance(5 * S);
	uint32_t hi = rd(0x3F, 1, CTR0 + 4);
	T_EQ((uint64_t)hi << 32 | lo, 10000000);
	T_EQ(ctr(0x3F, 1, FIXED_CTR), 800000000);
	/* other boxes count on */
	wr(0x3F, 4, CTL0, EN | 0x0300 | CAS);
	advance(S);
	T_EQ(ctr(0x3F, 4, CTR0), 10000000);
	T_EQ(ctr(0x3F, 1, CTR0), 10000000);
	wr(0x3F, 1, BOX_CTL, FRZ_EN); /* unfrozen */
	advance(S);
	T_EQ(ctr(0x3F, 1, CTR0), 20000000);
	wr(0x3F, 1, BOX_CTL, FRZ); /* frz without frz_en: not frozen */
	advance(S);
	T_EQ(ctr(0x3F, 1, CTR0), 30000000);
	wr(0x3F, 1, BOX_CTL, FRZ_EN | FRZ);
	advance(S);
	T_EQ(ctr(0x3F, 1, CTR0), 30000000);
	wr(0x3F, 1, BOX_CTL, 0);
	advance(S);
	T_EQ(ctr(0x3F, 1, CTR0), 40000000);
}

/* 48-bit counters wrap at 2^48, several times between two reads. */
static void counters_wrap_at_48_bits(void)
{
	const uint64_t m = (1ull << 48) - 1;

	START("--rate", "UNC_M_DCLOCKTICKS=4G", "--rate", "UNC_M_RPQ_OCCUPANCY=80G");
	set_ctr(0x7F, 4, CTR0, m - 99);
	set_ctr(0x7F, 4, FIXED_CTR, m - 9);
	T_EQ(ctr(0x7F, 4, CTR0), m - 99);
	wr(0x7F, 4, CTL0, EN | 0x80);
	wr(0x7F, 4, FIXED_CTL, EN);
	advance(10000 * S); /* 8 * 10^14 = 2.84 * 2^48 events */
	T_EQ(ctr(0x7F, 4, CTR0), (m - 99 + 800000000000000ull) & m);
	T_EQ(ctr(0x7F, 4, FIXED_CTR), (m - 9 + 40000000000000ull) & m);
	T_EQ(rd(0x7F, 4, CTR0 + 4) >> 16, 0);
}

/* FIXED_CTL.rst (write-only) clears the fixed counter; it reads 0. */
static void fixed_rst_clears(void)
{
	START0();
	wr(0x3F, 0, FIXED_CTL, EN);
	advance(S);
	T_EQ(ctr(0x3F, 0, FIXED_CTR), 800000000);
	wr(0x3F, 0, FIXED_CTL, EN | 1u << 19);
	T_EQ(rd(0x3F, 0, FIXED_CTL), EN);
	T_EQ(ctr(0x3F, 0, FIXED_CTR), 0);
	advance(S / 4);
	T_EQ(ctr(0x3F, 0, FIXED_CTR), 200000000);
	wr(0x3F, 0, FIXED_CTL, 1u << 19); /* rst and en clear: stays 0 */
	advance(S);
	T_EQ(ctr(0x3F, 0, FIXED_CTR), 0);
}

static void one_socket(void)
{
	uint32_t v;
	char buf[640];

	START("--sockets", "1");
	T_EQ(rd(0x3F, 5, 0), 0x3CB58086);
	T_EQ(emu_pci_read32(&e, 0x7F, 16, 0, 0, &v), UNC_E_NOT_FOUND);
	T_EQ(emu_pci_write32(&e, 0x7F, 16, 0, CTL0, EN), UNC_E_NOT_FOUND);
	emu_describe(&e.cfg, buf, sizeof(buf));
	T_STREQ(buf, "Xeon E5-2600 iMC, 1 socket (bus 0x3f), 4 channels, DCLK 800.000 MHz, 0 iMC rates, faults: none");
	START("--rate", "CAS_COUNT.WR=7M", "--rate", "DCLOCKTICKS=933.333333M");
	emu_describe(&e.cfg, buf, sizeof(buf));
	T_STREQ(buf, "Xeon E5-2600 iMC, 2 sockets (buses 0x3f, 0x7f), 8 channels, DCLK 933.333 MHz, 1 iMC rates, faults: none");
}

/* A missing function reads all ones and drops writes; a function whose
 * writes do not stick reads as before. Other functions are not affected. */
static void pci_faults(void)
{
	char buf[640];

	START("--fault", "pci-missing=3f:10.1", "--fault", "pci-ignore-write=7f:10.4", "--rate", "CAS_COUNT.RD=1M");
	T_EQ(rd(0x3F, 1, 0), 0xFFFFFFFF);
	T_EQ(rd(0x3F, 1, CTL0), 0xFFFFFFFF);
	T_EQ(rd(0x3F, 1, 0x100), 0xFFFFFFFF);
	wr(0x3F, 1, CTL0, EN | 0x0304);
	T_EQ(rd(0x3F, 1, CTL0), 0xFFFFFFFF);
	T_EQ(rd(0x3F, 0, 0), 0x3CB08086);
	T_EQ(rd(0x7F, 6 - 2, 0), 0x3CB48086);
	wr(0x7F, 4, CTL0, EN | 0x0304);
	wr(0x7F, 4, CTR0, 123);
	wr(0x7F, 4, BOX_CTL, 3); /* dropped: not even noted */
	T_EQ(rd(0x7F, 4, CTL0), 0);
	T_EQ(rd(0x7F, 4, CTR0), 0);
	T_EQ(e.mbz.n, 0);
	wr(0x7F, 5, CTL0, EN | 0x0304);
	T_EQ(rd(0x7F, 5, CTL0), EN | 0x0304);
	advance(S);
	T_EQ(ctr(0x7F, 4, CTR0), 0);
	T_EQ(ctr(0x7F, 5, CTR0), 1000000);
	emu_describe(&e.cfg, buf, sizeof(buf));
	T_CONTAINS(buf, ", faults: pci-missing=3f:10.1 pci-ignore-write=7f:10.4");
}

static void option_errors(void)
{
	static const struct { const char *args[6]; const char *err; } cases[] = {
		{ { "--uncore", "skx", "--fault", "pci-missing=3f:10.0" },
		  "--fault pci-*=3f:10.0: not a channel function of the emulated Skylake-SP iMC" },
		{ { "--sockets", "0" }, "bad value '0' for --sockets (want 1 to 8; the Xeon iMC in configuration space 1 to 8)" },
		{ { "--uncore", "skl", "--sockets", "1" },
		  "--sockets is for the Xeon E5-2600 iMC or the discovery-table uncore, but the emulator serves the "
		  "Skylake-client uncore (CPUID leaf 1, or --uncore)" },
		{ { "--sockets", "1", "--sockets", "2" }, "--sockets given twice" },
		{ { "--uncore", "knl" },
		  "bad value 'knl' for --uncore (want auto, skl, snbep, ivbep, hswep, bdx, skx, adl, tgl, disc, icl, rkl, mtl, "
		  "lnl or icx)" },
		{ { "--uncore", "skl", "--uncore", "skl" }, "--uncore given twice" },
		{ { "--fault", "pci-missing" }, "--fault pci-missing needs a value (pci-missing=...)" },
		{ { "--fault", "pci-missing=3f:10" }, "bad PCI function '3f:10' in --fault pci-missing (want BUS:DEV.FN in hex, e.g. 3f:10.1)" },
		{ { "--fault", "pci-ignore-write=3f:10.2" },
		  "--fault pci-ignore-write=3f:10.2: not an emulated iMC channel function (E5-2600: 3f:10.0, 3f:10.1, 3f:10.4, "
		  "3f:10.5, 7f:...; tests/emu/options.md lists each generation's)" },
		{ { "--fault", "pci-missing=3f:10.0", "--fault", "pci-ignore-write=3f:10.0" },
		  "--fault pci-* for 3f:10.0 given twice" },
		{ { "--fault", "pci-missing=7f:10.5", "--sockets", "1" }, "--fault pci-*=7f:10.5: socket 1 is absent with --sockets 1" },
		{ { "--rate", "CAS_COUNT.RD=1M", "--rate", "UNC_M_CAS_COUNT.RD=2M" }, "--rate for UNC_M_CAS_COUNT.RD given twice" },
		{ { "--rate", "CAS_COUNT.RD=1M", "--rate", "CAS_COUNT.RD_REG=2M" },
		  "--rate for UNC_M_CAS_COUNT.RD_REG overlaps the one for UNC_M_CAS_COUNT.RD (unit masks 0x01 and 0x03): give "
		  "each unit-mask bit one rate" },
		{ { "--rate", "DCLOCKTICKS=1G", "--rate", "UNC_M_CLOCKTICKS=1G" }, "--rate for UNC_M_DCLOCKTICKS given twice" },
		{ { "--rate", "UNC_M_DCLOCKTICKS=5G" }, "bad rate 5000000000 for UNC_M_DCLOCKTICKS (the DCLK: at most 4294967295 per second)" },
		{ { "--rate", "ACT_COUNT=801M" },
		  "--rate: ACT_COUNT (event 0x01) at 801000000 per second adds more than 1 per DCLK cycle (DCLK 800.000 MHz; "
		  "Intel 327043-001's Max Inc/Cyc)" },
		{ { "--rate", "CAS_COUNT.RD=500M", "--rate", "CAS_COUNT.WR=400M" },
		  "--rate: CAS_COUNT (event 0x04) at 900000000 per second adds more than 1 per DCLK cycle (DCLK 800.000 MHz; "
		  "Intel 327043-001's Max Inc/Cyc)" },
		{ { "--uncore", "snbep", "--cbo-config", "3" },
		  "--cbo-config is for the Skylake-client uncore, but the emulator serves the Xeon E5-2600 iMC (CPUID leaf 1, or --uncore)" },
		{ { "--uncore", "skl", "--rate", "CAS_COUNT.RD=1M" },
		  "--rate of an iMC event is for the Xeon E5-2600 iMC, but the emulator serves the Skylake-client uncore (CPUID leaf 1, or --uncore)" },
		{ { "--uncore", "skl", "--fault", "pci-missing=3f:10.0" },
		  "--fault pci-* is for the Xeon E5-2600 iMC, but the emulator serves the Skylake-client uncore (CPUID leaf 1, or --uncore)" },
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[8] = { "emu" };
		int argc = 1;
		for (unsigned k = 0; k < 6 && cases[i].args[k]; k++)
			argv[argc++] = (char *)cases[i].args[k];
		struct emu_config cfg;
		char err[300] = "";
		T_EQ(emu_parse_options(argc, argv, &cfg, err, sizeof(err)), UNC_E_INVALID);
		T_STREQ(err, cases[i].err);
	}
	/* --rate RPQ_OCCUPANCY up to 22 per cycle is fine */
	START("--rate", "RPQ_OCCUPANCY=17.6G");
	/* With auto, an option of the other uncore is refused when the model
	 * starts (uncore-emu.efi's driver) */
	struct emu_config cfg;
	char err[300] = "";
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--uclk-mhz", "100" }, &cfg, err, sizeof(err)), UNC_OK);
	T_EQ(emu_uncore_check(&cfg, EMU_UNCORE_SKL, err, sizeof(err)), UNC_OK);
	T_EQ(emu_uncore_check(&cfg, EMU_UNCORE_SNBEP, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "--uclk-mhz is for the Skylake-client uncore, but the emulator serves the Xeon E5-2600 iMC (CPUID leaf 1, or --uncore)");
	/* core options fit both */
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--core-pmu", "arch" }, &cfg, err, sizeof(err)), UNC_OK);
	T_EQ(emu_uncore_check(&cfg, EMU_UNCORE_SNBEP, err, sizeof(err)), UNC_OK);
}

/* ---- uncore.efi's engine and driver on this model ---- */

static struct emu_hw eh;
static struct stat_run srun;

/* DCLK counted by uncore.efi against the emulated 800 MHz: each channel's
 * count over the run's measured time, in parts per million off. */
static void dclk_run(unsigned access_ns, uint64_t duration, int64_t *ret_worst_ppm)
{
	static const struct pmu_driver *const drivers[] = { &pmu_driver_snbep, NULL };
	static const struct stat_env env = { .wait_until = emu_hw_wait_until, .ctx = &eh };
	struct emu_config cfg;
	char err[300] = "";

	T_EQ(emu_parse_options(1, (char *[]){ "emu" }, &cfg, err, sizeof(err)), UNC_OK);
	emu_hw_init_cpu(&eh, &cfg, SNBEP_ID);
	eh.access_ns = access_ns;
	eh.open_bus = true;
	eh.fake.now = 7 * S;
	stat_free(&srun);
	memset(&srun, 0, sizeof(srun));
	run_add(&srun, drivers, "UNC_M_DCLOCKTICKS");
	run_add(&srun, drivers, "UNC_M_CAS_COUNT.RD");
	T_EQ(run_schedule(&srun, &eh.hw, false), UNC_OK);
	struct stat_opts o = { .duration = duration, .slice = 20 * 1000000ull, .sample = 100 * 1000000ull };
	T_EQ(stat_loop(&srun, &eh.hw, false, &o, &env), UNC_OK);
	uint64_t elapsed = srun.c.t_end - srun.c.t_start;
	*ret_worst_ppm = 0;
	T_EQ(srun.c.ev[0].v.nboxes, 8);
	for (unsigned b = 0; b < 8; b++) {
		double want = 0.8 * (double)elapsed, got = (double)srun.c.ev[0].total.box[b];
		int64_t ppm = want > 0 ? (int64_t)((got - want) / want * 1e6) : -1000000;
		if (b == 0)
			printf("    channel 0: %.0f DCLK in %llu ns\n", got, (unsigned long long)elapsed);
		if ((ppm < 0 ? -ppm : ppm) > (*ret_worst_ppm < 0 ? -*ret_worst_ppm : *ret_worst_ppm))
			*ret_worst_ppm = ppm;
	}
}

/* Sampling loses no counting time: with every configuration access
 * taking 20 us (8 channels, 20 samples), each channel's DCLK count over
 * the measured time is 800 MHz within 0.1%. */
static void dclk_exact_with_slow_accesses(void)
{
	static const struct { uint64_t duration; } runs[] = { { 2 * S } };
	for (unsigned i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		int64_t ppm;
		dclk_run(20000, runs[i].duration, &ppm);
		printf("    %llu ms: worst channel %+lld ppm off 800 MHz\n", (unsigned long long)(runs[i].duration / 1000000),
		       (long long)ppm);
		T_ASSERT(ppm >= -1000 && ppm <= 1000);
	}
}

/* The E5-2600 iMC's counters are written (the guide resets them by
 * writing 0): on a machine where they ignore writes (--fault ro-counters
 * on both units, every counter found at a value of its own), the run
 * counts from the values read, says so once, ends OK with exact counts,
 * and writes each counter's dwords once only (the ignored start: none put
 * back); the selects are put back. */
static void read_only_counters_counted_from_their_values(void)
{
	static const struct pmu_driver *const drivers[] = { &pmu_driver_snbep, NULL };
	static const struct stat_env env = { .wait_until = emu_hw_wait_until, .ctx = &eh };
	struct emu_config cfg;
	char err[300] = "";

	T_EQ(emu_parse_options(7, (char *[]){ "emu", "--rate", "UNC_M_CAS_COUNT.RD=10M", "--fault", "ro-counters=imc",
					     "--fault", "ro-counters=imc_fixed" }, &cfg, err, sizeof(err)), UNC_OK);
	emu_hw_init_cpu(&eh, &cfg, SNBEP_ID);
	eh.open_bus = true;
	eh.fake.now = 7 * S;
	for (unsigned b = 0; b < 8; b++)
		for (unsigned i = 0; i < EMU_SNBEP_BOX_CTRS; i++)
			eh.emu.ctr[b * EMU_SNBEP_BOX_CTRS + i].value = /* near 2^48; on channel 1 a low dword of 0, as the start's */
				b == 1 ? 0x5500000000ull * (i + 1) : 0xFFFFFFFF0000ull + 0x100 * b + i;
	stat_free(&srun);
	memset(&srun, 0, sizeof(srun));
	run_add(&srun, drivers, "UNC_M_DCLOCKTICKS");
	run_add(&srun, drivers, "UNC_M_CAS_COUNT.RD");
	T_EQ(run_schedule(&srun, &eh.hw, false), UNC_OK);
	struct stat_opts o = { .duration = S, .slice = 20 * 1000000ull, .sample = 100 * 1000000ull };
	T_EQ(stat_loop(&srun, &eh.hw, false, &o, &env), UNC_OK);
	T_STREQ(srun.err, "");
	T_STREQ(srun.restore_note, ""); /* nothing put back reads otherwise: no counter was */
	T_CONTAINS(srun.write_note, "reads 0xffffffff0000 after writing 0x400000000000 with counting stopped: it ignores "
				    "writes; its unit is counted from the values read");
	uint64_t elapsed = srun.c.t_end - srun.c.t_start;
	for (unsigned b = 0; b < 8; b++) {
		T_EQ(srun.c.ev[1].total.box[b], u64_muldiv(elapsed, 10000000, S));
		T_EQ(srun.c.ev[0].total.box[b], u64_muldiv(elapsed, 800000000, S));
	}
	unsigned ctr_writes = 0, ctl0_writes = 0;
	for (unsigned i = 0; i < eh.fake.nlog; i++) {
		unsigned off = (unsigned)(eh.fake.log[i].addr >> 24) & 0xFFF;
		if (eh.fake.log[i].kind != FAKE_PCI)
			continue;
		ctr_writes += (off >= 0xA0 && off < 0xC0) || (off >= 0xD0 && off < 0xD8);
		ctl0_writes += off == 0xD8;
	}
	T_EQ(ctr_writes, 8 * (4 + 1) * 2); /* each dword of each counter, once */
	T_ASSERT(ctl0_writes >= 2 * 8);    /* programmed, and put back */
}

T_MAIN("emu_snbep", T_CASE(read_only_counters_counted_from_their_values), T_CASE(register_table_is_the_seeds), T_CASE(event_table_is_the_seeds),
       T_CASE(uncore_follows_cpu_identity), T_CASE(device_ids_and_other_offsets), T_CASE(access_types),
       T_CASE(must_be_zero_writes_are_noted), T_CASE(counting_at_the_rates), T_CASE(threshold_invert_edge),
       T_CASE(freeze_stops_counting), T_CASE(counters_wrap_at_48_bits), T_CASE(fixed_rst_clears), T_CASE(one_socket),
       T_CASE(pci_faults), T_CASE(option_errors), T_CASE(dclk_exact_with_slow_accesses))
