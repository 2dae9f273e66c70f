/* The time base (drivers/base/tsc.c): the ACPI tables it reads, typed here
 * from the specifications' offsets, and the calibration against a
 * simulated machine whose true time is known: the TSC and a reference
 * clock both derived from it, every access costing time, and delays (an
 * SMI, a preempted virtual CPU) injected anywhere, the way a busy host
 * or a real board adds them. */
#include <string.h>

#include "t.h"
#include "../../drivers/base/tsc.h"

/* ---- a simulated machine ---- */
static struct sim {
	uint64_t ns;          /* true time */
	uint64_t tsc_hz;      /* the TSC's true rate */
	uint64_t tsc_hz2;     /* from ns_switch on (0: no change) */
	uint64_t ns_switch, tsc_at_switch;
	uint64_t ref_hz;      /* the reference's rate */
	uint64_t ref_start;   /* its value at ns 0 */
	unsigned ref_bits;
	bool ref_stuck, stuck_io_only, hpet_stuck;
	uint16_t port;        /* the PM timer's port, or 0 */
	uint64_t hpet;        /* the HPET's base, or 0 */
	uint32_t hpet_cfg;
	uint64_t hpet_fs;
	unsigned calls, delay_every; /* every delay_every-th access adds delay_ns */
	uint64_t delay_ns;
	struct cpuid_regs leaf0, leaf15, leaf16;
	unsigned ref_reads;
} sim;

static void sim_reset(void)
{
	memset(&sim, 0, sizeof(sim));
	sim.tsc_hz = 2345678901ull;
	sim.ref_hz = TSC_PM_TIMER_HZ;
	sim.ref_bits = 24;
	sim.port = 0x608;
	sim.leaf0.eax = 0xd; /* no leaf 0x15 */
}

static void sim_cost(uint64_t ns)
{
	sim.ns += ns;
	if (sim.delay_every && ++sim.calls % sim.delay_every == 0)
		sim.ns += sim.delay_ns;
}

static uint64_t sim_tsc(void)
{
	if (sim.tsc_hz2 && sim.ns >= sim.ns_switch)
		return sim.tsc_at_switch + (sim.ns - sim.ns_switch) * sim.tsc_hz2 / 1000000000ull;
	return (uint64_t)((unsigned __int128)sim.ns * sim.tsc_hz / 1000000000ull);
}

static uint64_t s_ticks(void *ctx)
{
	(void)ctx;
	sim_cost(15);
	return sim_tsc();
}

static uint32_t sim_ref(bool io)
{
	bool stuck = io ? sim.ref_stuck : sim.stuck_io_only ? sim.hpet_stuck : sim.ref_stuck;
	uint64_t v = stuck ? sim.ref_start : sim.ref_start + (uint64_t)((unsigned __int128)sim.ns * sim.ref_hz / 1000000000ull);
	return sim.ref_bits < 32 ? (uint32_t)(v & ((1u << sim.ref_bits) - 1)) : (uint32_t)v;
}

static enum unc_status s_io(void *ctx, uint16_t port, uint32_t *v)
{
	(void)ctx;
	T_EQ(port, sim.port);
	sim_cost(700);
	sim.ref_reads++;
	/* The PM timer's unused high bits read 0 on a 24-bit part; make them noise to check the mask. */
	*v = sim_ref(true) | (sim.ref_bits < 32 ? 0xAB000000u : 0);
	return UNC_OK;
}

static enum unc_status s_mmio(void *ctx, uint64_t phys, uint32_t *v)
{
	(void)ctx;
	sim_cost(300);
	if (!sim.hpet || phys < sim.hpet || phys >= sim.hpet + 0x400)
		return UNC_E_RANGE;
	switch (phys - sim.hpet) {
	case 0x00: *v = 0x8086A201; return UNC_OK; /* vendor, COUNT_SIZE_CAP, revision */
	case 0x04: *v = (uint32_t)sim.hpet_fs; return UNC_OK;
	case 0x10: *v = sim.hpet_cfg; return UNC_OK;
	case 0xF0: sim.ref_reads++; *v = sim_ref(false); return UNC_OK;
	default: return UNC_E_RANGE;
	}
}

static void s_cpuid(void *ctx, uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	(void)ctx;
	(void)sub;
	*r = leaf == 0 ? sim.leaf0 : leaf == 0x15 ? sim.leaf15 : leaf == 0x16 ? sim.leaf16 : (struct cpuid_regs){ 0 };
}

static enum unc_status s_none_r(void *ctx, uint32_t a, uint64_t *v)
{
	(void)ctx, (void)a, (void)v;
	T_ASSERT(!"no MSR or RDPMC access while calibrating");
	return UNC_E_FAULT;
}

static enum unc_status s_none_w(void *ctx, uint32_t a, uint64_t v)
{
	(void)ctx, (void)a, (void)v;
	T_ASSERT(!"no write while calibrating");
	return UNC_E_FAULT;
}

static enum unc_status s_pci_r(void *ctx, struct pci_addr a, uint16_t off, uint32_t *v)
{
	(void)ctx, (void)a, (void)off, (void)v;
	T_ASSERT(!"no PCI access while calibrating");
	return UNC_E_FAULT;
}

static enum unc_status s_pci_w(void *ctx, struct pci_addr a, uint16_t off, uint32_t v)
{
	(void)ctx, (void)a, (void)off, (void)v;
	T_ASSERT(!"no PCI access while calibrating");
	return UNC_E_FAULT;
}

static const struct hw_ops s_ops = {
	.msr_read = s_none_r, .msr_write = s_none_w, .pci_read32 = s_pci_r, .pci_write32 = s_pci_w,
	.mmio_read32 = s_mmio, .cpuid = s_cpuid, .ticks = s_ticks, .rdpmc = s_none_r, .io_read32 = s_io,
};

static const struct tsc_ref pm24 = { TSC_SRC_PM_TIMER, true, 0x608, 24, TSC_PM_TIMER_HZ };

static uint64_t ppm_off(uint64_t got, uint64_t want)
{
	uint64_t d = got > want ? got - want : want - got;
	return (uint64_t)((unsigned __int128)d * 1000000 / want);
}

static enum unc_status run(const struct tsc_ref *ref, struct hw *hw, char *err, char *warn)
{
	*hw = (struct hw){ .ops = &s_ops };
	return tsc_calibrate(hw, ref, ref ? 1 : 0, err, 200, warn, 200);
}

/* ---- ACPI tables, typed from ACPI 6.5 Table 5.9 and IA-PC HPET 1.0a 3.2.4 ---- */
static void fadt(uint8_t *t, uint32_t len, uint32_t pm_tmr_blk, uint8_t pm_tmr_len, uint32_t flags)
{
	memset(t, 0, 276);
	memcpy(t, "FACP", 4);
	t[4] = (uint8_t)len, t[5] = (uint8_t)(len >> 8);
	t[76] = (uint8_t)pm_tmr_blk, t[77] = (uint8_t)(pm_tmr_blk >> 8);
	t[91] = pm_tmr_len;
	t[112] = (uint8_t)flags, t[113] = (uint8_t)(flags >> 8), t[114] = (uint8_t)(flags >> 16);
}

static void test_fadt(void)
{
	uint8_t t[276];
	struct tsc_ref r;
	char why[120];

	fadt(t, 276, 0x608, 4, 0);
	T_ASSERT(tsc_ref_from_fadt(t, sizeof(t), &r, why, sizeof(why)));
	T_EQ(r.source, TSC_SRC_PM_TIMER);
	T_ASSERT(r.io);
	T_EQ(r.addr, 0x608);
	T_EQ(r.bits, 24);
	T_EQ(r.hz, 3579545);

	fadt(t, 276, 0x408, 4, 1u << 8); /* TMR_VAL_EXT: 32 bits */
	T_ASSERT(tsc_ref_from_fadt(t, sizeof(t), &r, why, sizeof(why)));
	T_EQ(r.bits, 32);
	T_EQ(r.addr, 0x408);

	/* X_PM_TMR_BLK (offset 208) over PM_TMR_BLK: system I/O, then memory. */
	t[208] = 1, t[209] = 32, t[211] = 3, t[212] = 0x08, t[213] = 0x18;
	T_ASSERT(tsc_ref_from_fadt(t, sizeof(t), &r, why, sizeof(why)));
	T_ASSERT(r.io);
	T_EQ(r.addr, 0x1808);
	t[208] = 0, t[212] = 0x08, t[213] = 0x10, t[214] = 0xD0, t[215] = 0xFE;
	T_ASSERT(tsc_ref_from_fadt(t, sizeof(t), &r, why, sizeof(why)));
	T_ASSERT(!r.io);
	T_EQ(r.addr, 0xFED01008);
	/* An X_PM_TMR_BLK in a space it cannot read: PM_TMR_BLK then. */
	t[208] = 2;
	T_ASSERT(tsc_ref_from_fadt(t, sizeof(t), &r, why, sizeof(why)));
	T_ASSERT(r.io);
	T_EQ(r.addr, 0x408);
	/* An ACPI 1.0 FADT (116 bytes) has no X_PM_TMR_BLK. */
	fadt(t, 116, 0x808, 4, 0);
	t[208] = 1, t[212] = 0x99;
	T_ASSERT(tsc_ref_from_fadt(t, sizeof(t), &r, why, sizeof(why)));
	T_EQ(r.addr, 0x808);

	fadt(t, 276, 0, 0, 0);
	T_ASSERT(!tsc_ref_from_fadt(t, sizeof(t), &r, why, sizeof(why)));
	T_CONTAINS(why, "no PM timer (PM_TMR_BLK 0x0");
	fadt(t, 276, 0x608, 2, 0);
	T_ASSERT(!tsc_ref_from_fadt(t, sizeof(t), &r, why, sizeof(why)));
	fadt(t, 276, 0x608, 4, 1u << 20);
	T_ASSERT(!tsc_ref_from_fadt(t, sizeof(t), &r, why, sizeof(why)));
	T_CONTAINS(why, "HW_REDUCED_ACPI");
	fadt(t, 100, 0x608, 4, 0);
	T_ASSERT(!tsc_ref_from_fadt(t, sizeof(t), &r, why, sizeof(why)));
	T_CONTAINS(why, "too short");
	T_ASSERT(!tsc_ref_from_fadt(NULL, 0, &r, why, sizeof(why)));
	memcpy(t, "APIC", 4);
	T_ASSERT(!tsc_ref_from_fadt(t, sizeof(t), &r, why, sizeof(why)));
}

static void test_hpet_table(void)
{
	uint8_t t[56] = "HPET";
	struct tsc_ref r;
	char why[120];

	t[4] = 56;
	t[44] = 0x00, t[45] = 0x00, t[46] = 0xD0, t[47] = 0xFE; /* 0xFED00000 */
	T_ASSERT(tsc_ref_from_hpet(t, sizeof(t), &r, why, sizeof(why)));
	T_EQ(r.source, TSC_SRC_HPET);
	T_ASSERT(!r.io);
	T_EQ(r.addr, 0xFED000F0);
	T_EQ(r.bits, 32);
	/* 10 ns (10,000,000 fs): 100 MHz; QEMU's 69.841279 ns: 14.318179 MHz. */
	T_ASSERT(tsc_hpet_set_period(&r, 10000000ull << 32 | 0x8086A201, 1, why, sizeof(why)));
	T_EQ(r.hz, 100000000);
	T_ASSERT(tsc_hpet_set_period(&r, 69841279ull << 32, 3, why, sizeof(why)));
	T_EQ(r.hz, 14318179);
	T_ASSERT(!tsc_hpet_set_period(&r, 10000000ull << 32, 0, why, sizeof(why)));
	T_CONTAINS(why, "ENABLE_CNF is 0");
	T_ASSERT(!tsc_hpet_set_period(&r, 100000001ull << 32, 1, why, sizeof(why)));
	T_ASSERT(!tsc_hpet_set_period(&r, 0, 1, why, sizeof(why)));
	t[40] = 1; /* not system memory */
	T_ASSERT(!tsc_ref_from_hpet(t, sizeof(t), &r, why, sizeof(why)));
	t[40] = 0, t[44] = 0x10; /* not 1 KiB aligned */
	T_ASSERT(!tsc_ref_from_hpet(t, sizeof(t), &r, why, sizeof(why)));
	T_ASSERT(!tsc_ref_from_hpet(t, 40, &r, why, sizeof(why)));
}

/* ---- calibration ---- */
static void test_quiet(void)
{
	struct hw hw;
	char err[200], warn[200];

	sim_reset();
	sim.ref_start = 0xFFFF00; /* wraps 24 bits at once */
	T_EQ(run(&pm24, &hw, err, warn), UNC_OK);
	T_ASSERT(ppm_off(hw.tick_hz, sim.tsc_hz) <= 5);
	T_EQ(hw.tsc.source, TSC_SRC_PM_TIMER);
	T_EQ(hw.tsc.ref, TSC_SRC_PM_TIMER);
	T_EQ(hw.tsc.windows, TSC_WINDOWS);
	T_ASSERT(hw.tsc.spread_ppm <= 22); /* the PM timer's 279 ns step at each end of 50 ms */
	T_EQ(hw.tsc.measured_hz, hw.tick_hz);
	T_EQ(warn[0], '\0');
	/* 6 windows of 50 ms: 300 ms, and not much more. */
	T_ASSERT(sim.ns >= 300000000 && sim.ns < 305000000);
	char how[120];
	tsc_describe(&hw.tsc, how, sizeof(how));
	T_CONTAINS(how, "measured against the ACPI PM timer (6 windows within ");
}

/* Delays land everywhere: inside brackets, between the two clocks' reads,
 * in the waits. A Stall-timed window would take each whole; both clocks
 * read at both ends cancel them. */
static void test_delays_anywhere(void)
{
	static const unsigned every[] = { 5, 7, 13, 101, 997 };
	static const uint64_t delay[] = { 2000, 50000, 3000000, 20000000 };

	for (unsigned i = 0; i < sizeof(every) / sizeof(every[0]); i++)
		for (unsigned j = 0; j < sizeof(delay) / sizeof(delay[0]); j++) {
			struct hw hw;
			char err[200], warn[200];
			sim_reset();
			sim.delay_every = every[i];
			sim.delay_ns = delay[j];
			enum unc_status st = run(&pm24, &hw, err, warn);
			if (st != UNC_OK) {
				t_fail(__FILE__, __LINE__, "every %u calls %lu ns: %s", every[i], (unsigned long)delay[j], err);
				continue;
			}
			if (ppm_off(hw.tick_hz, sim.tsc_hz) > 20)
				t_fail(__FILE__, __LINE__, "every %u calls %lu ns: %lu Hz is %lu ppm off", every[i],
				       (unsigned long)delay[j], (unsigned long)hw.tick_hz,
				       (unsigned long)ppm_off(hw.tick_hz, sim.tsc_hz));
		}
}

/* A 32-bit PM timer, and the HPET through MMIO. */
static void test_other_refs(void)
{
	struct hw hw;
	char err[200], warn[200];
	struct tsc_ref pm32 = pm24, hpet = { TSC_SRC_HPET, false, 0xFED000F0, 32, 0 };

	sim_reset();
	sim.ref_bits = 32;
	sim.ref_start = 0xFFFFF000;
	pm32.bits = 32;
	T_EQ(run(&pm32, &hw, err, warn), UNC_OK);
	T_ASSERT(ppm_off(hw.tick_hz, sim.tsc_hz) <= 5);

	sim_reset();
	sim.port = 0;
	sim.hpet = 0xFED00000;
	sim.hpet_fs = 69841279;
	sim.hpet_cfg = 1;
	sim.ref_hz = 14318179;
	sim.ref_bits = 32;
	sim.ref_start = 0xFFFF0000;
	T_ASSERT(tsc_hpet_set_period(&hpet, (uint64_t)sim.hpet_fs << 32, sim.hpet_cfg, err, sizeof(err)));
	T_EQ(run(&hpet, &hw, err, warn), UNC_OK);
	T_ASSERT(ppm_off(hw.tick_hz, sim.tsc_hz) <= 5);
	T_EQ(hw.tsc.source, TSC_SRC_HPET);
}

static void test_not_steady(void)
{
	struct hw hw;
	char err[200], warn[200];

	/* The TSC changes rate by 0.5% two windows in (a TSC that follows
	 * the core clock): an error naming the spread, no rate. */
	sim_reset();
	sim.tsc_hz2 = sim.tsc_hz + sim.tsc_hz / 200;
	sim.ns_switch = 120000000;
	sim.tsc_at_switch = sim.ns_switch * sim.tsc_hz / 1000000000ull;
	T_EQ(run(&pm24, &hw, err, warn), UNC_E_DEVICE);
	T_CONTAINS(err, "the TSC against the ACPI PM timer: 6 windows of 50 ms disagree by ");
	T_CONTAINS(err, "ppm (at most 1000): the TSC is not steady, no rate can be trusted");
	T_EQ(hw.tick_hz, 0);

	sim_reset();
	sim.ref_stuck = true;
	T_EQ(run(&pm24, &hw, err, warn), UNC_E_NOT_FOUND);
	T_STREQ(err, "no hardware clock to measure the TSC against (no usable ACPI PM timer or running HPET: the ACPI PM "
		     "timer at port 0x608 does not advance) and CPUID 0x15 gives no frequency");
	T_EQ(hw.tick_hz, 0);
}

/* A PM timer the FADT names but that does not tick (some boards turn it
 * off): the HPET next, then CPUID alone, each saying why. */
static void test_fallbacks(void)
{
	struct hw hw = { .ops = &s_ops };
	char err[400], warn[400];
	struct tsc_ref refs[2] = { pm24, { TSC_SRC_HPET, false, 0xFED000F0, 32, 0 } };

	sim_reset();
	sim.hpet = 0xFED00000, sim.hpet_fs = 10000000, sim.hpet_cfg = 1;
	/* One simulated clock serves both: stuck through the PM timer's port,
	 * ticking at 100 MHz through the HPET's counter. */
	sim.ref_stuck = true;
	T_ASSERT(tsc_hpet_set_period(&refs[1], (uint64_t)sim.hpet_fs << 32, 1, err, sizeof(err)));
	sim.ref_hz = 100000000;
	sim.ref_bits = 32;
	sim.stuck_io_only = true;
	T_EQ(tsc_calibrate(&hw, refs, 2, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_ASSERT(ppm_off(hw.tick_hz, sim.tsc_hz) <= 5);
	T_EQ(hw.tsc.source, TSC_SRC_HPET);
	T_STREQ(warn, "the ACPI PM timer at port 0x608 does not advance; measured against the HPET instead");

	sim.hpet_stuck = true;
	sim.leaf0.eax = 0x15;
	sim.leaf15 = (struct cpuid_regs){ 1, 100, 24000000, 0 };
	hw = (struct hw){ .ops = &s_ops };
	T_EQ(tsc_calibrate(&hw, refs, 2, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(hw.tick_hz, 2400000000ull);
	T_EQ(hw.tsc.source, TSC_SRC_CPUID_UNCHECKED);
	T_STREQ(warn, "no ACPI PM timer or HPET to check CPUID 0x15's TSC frequency against (the ACPI PM timer at "
		      "port 0x608 does not advance; the HPET at 0xfed000f0 does not advance)");

	/* A TSC that is not steady against the first clock is an error, not
	 * a reason to try the next. */
	sim_reset();
	sim.hpet = 0xFED00000, sim.hpet_fs = 10000000, sim.hpet_cfg = 1;
	sim.tsc_hz2 = sim.tsc_hz + sim.tsc_hz / 200;
	sim.ns_switch = 120000000;
	sim.tsc_at_switch = sim.ns_switch * sim.tsc_hz / 1000000000ull;
	hw = (struct hw){ .ops = &s_ops };
	T_EQ(tsc_calibrate(&hw, refs, 2, err, sizeof(err), warn, sizeof(warn)), UNC_E_DEVICE);
	T_CONTAINS(err, "the TSC against the ACPI PM timer: 6 windows of 50 ms disagree");
	T_EQ(hw.tick_hz, 0);
}

static void test_cpuid(void)
{
	struct hw hw;
	char err[200], warn[200];

	/* Leaf 0x15: 24 MHz crystal, ratio 2345678901/24000000 kept exact by
	 * choosing a TSC of 24 MHz * 98 / 1 = 2352 MHz. */
	sim_reset();
	sim.tsc_hz = 2352000000ull;
	sim.leaf0.eax = 0x16;
	sim.leaf15 = (struct cpuid_regs){ 1, 98, 24000000, 0 };
	T_EQ(tsc_cpuid_hz(&(struct hw){ .ops = &s_ops }), 2352000000ull);
	T_EQ(run(&pm24, &hw, err, warn), UNC_OK);
	T_EQ(hw.tick_hz, 2352000000ull);
	T_EQ(hw.tsc.source, TSC_SRC_CPUID);
	T_EQ(hw.tsc.ref, TSC_SRC_PM_TIMER);
	T_EQ(hw.tsc.cpuid_hz, 2352000000ull);
	T_ASSERT(ppm_off(hw.tsc.measured_hz, 2352000000ull) <= 5);
	T_EQ(warn[0], '\0');

	/* No crystal in 0x15: 0x16's base frequency (MHz). */
	sim.leaf15 = (struct cpuid_regs){ 2, 196, 0, 0 };
	sim.leaf16 = (struct cpuid_regs){ 2352, 4000, 100, 0 };
	T_EQ(tsc_cpuid_hz(&(struct hw){ .ops = &s_ops }), 2352000000ull);
	sim.leaf0.eax = 0x15; /* ... which this processor lacks */
	T_EQ(tsc_cpuid_hz(&(struct hw){ .ops = &s_ops }), 0);

	/* CPUID that disagrees by 2%: the measurement, and a warning. */
	sim_reset();
	sim.leaf0.eax = 0x15;
	sim.leaf15 = (struct cpuid_regs){ 1, 100, 24000000, 0 };
	T_EQ(run(&pm24, &hw, err, warn), UNC_OK);
	T_ASSERT(ppm_off(hw.tick_hz, sim.tsc_hz) <= 5);
	T_EQ(hw.tsc.source, TSC_SRC_PM_TIMER);
	T_CONTAINS(warn, "CPUID 0x15 gives the TSC 2400.000 MHz but it runs at 2345.6");
	T_CONTAINS(warn, "MHz against the ACPI PM timer; using the measurement");

	/* No reference: CPUID alone, said to be unchecked. */
	sim_reset();
	sim.leaf0.eax = 0x15;
	sim.leaf15 = (struct cpuid_regs){ 1, 100, 24000000, 0 };
	T_EQ(run(NULL, &hw, err, warn), UNC_OK);
	T_EQ(hw.tick_hz, 2400000000ull);
	T_EQ(hw.tsc.source, TSC_SRC_CPUID_UNCHECKED);
	T_CONTAINS(warn, "no ACPI PM timer or HPET to check CPUID 0x15");
	T_EQ(sim.ref_reads, 0);

	/* Neither: an error, no rate. */
	sim_reset();
	T_EQ(run(NULL, &hw, err, warn), UNC_E_NOT_FOUND);
	T_CONTAINS(err, "no hardware clock to measure the TSC against");
	T_EQ(hw.tick_hz, 0);
}

/* The phrase info, records and reports print after the frequency. */
static void test_describe(void)
{
	char how[120];

	tsc_describe(&(struct hw_tsc){ .source = TSC_SRC_CPUID, .ref = TSC_SRC_PM_TIMER, .windows = 6, .spread_ppm = 9 },
		     how, sizeof(how));
	T_STREQ(how, "from CPUID 0x15; the ACPI PM timer agrees (6 windows within 9 ppm)");
	tsc_describe(&(struct hw_tsc){ .source = TSC_SRC_HPET, .ref = TSC_SRC_HPET, .windows = 6, .spread_ppm = 1 }, how,
		     sizeof(how));
	T_STREQ(how, "measured against the HPET (6 windows within 1 ppm)");
	tsc_describe(&(struct hw_tsc){ .source = TSC_SRC_CPUID_UNCHECKED }, how, sizeof(how));
	T_STREQ(how, "from CPUID 0x15, unchecked");
	tsc_describe(&(struct hw_tsc){ 0 }, how, sizeof(how));
	T_STREQ(how, "");
}

T_MAIN("tsc", T_CASE(test_describe), T_CASE(test_fadt), T_CASE(test_hpet_table), T_CASE(test_quiet), T_CASE(test_delays_anywhere),
       T_CASE(test_other_refs), T_CASE(test_not_steady), T_CASE(test_fallbacks), T_CASE(test_cpuid))
