#include <stdlib.h>
#include <string.h>

#include "../../drivers/cmd/app.h"
#include "fake_hw.h"
#include "t.h"

static struct fake_hw f;
static char obuf[4096], ebuf[1024];

/* The firmware's memory map, as a test sets it. */
static struct mem_range map[8];
static size_t map_n;
static enum unc_status map_st;

static enum unc_status memory_map(struct mem_range **ret, size_t *ret_n, char *err, size_t errsize)
{
	if (map_st)
		UNC_ERR(map_st, "GetMemoryMap failed (status 0x8000000000000007)");
	*ret = malloc(sizeof(map));
	memcpy(*ret, map, sizeof(map));
	*ret_n = map_n;
	return UNC_OK;
}

static struct app_env env = { .alloc = malloc, .free = free, .memory_map = memory_map };

static enum unc_status run(int argc, const char **argv)
{
	struct strbuf so, se;
	struct out o, e;
	struct cli_cmd cmd;
	char msg[200];

	strbuf_init(&so, obuf, sizeof(obuf));
	strbuf_init(&se, ebuf, sizeof(ebuf));
	o = strbuf_out(&so);
	e = strbuf_out(&se);
	enum unc_status st = cli_parse(argc, (char **)argv, &cmd, msg, sizeof(msg));
	if (st)
		return st;
	st = app_run(&cmd, &f.hw, &env, &o, &e);
	if (cmd.json && obuf[0]) /* every -j output parses (tests/json_check.py) */
		T_JSON(obuf, false);
	return st;
}

#define RUN(...)                                                  \
	({                                                        \
		const char *av[] = { "uncore.efi", __VA_ARGS__ }; \
		run((int)(sizeof(av) / sizeof(av[0])), av);       \
	})

static void setup(void)
{
	/* OVMF's shape: RAM, then MMIO at the top of 4 GiB, nothing above */
	map[0] = (struct mem_range){ 0, 0xA0000 };
	map[1] = (struct mem_range){ 0x100000, 0xFF00000 };
	map[2] = (struct mem_range){ 0xFED10000, 0x8000 };
	map[3] = (struct mem_range){ 0xFFC00000, 0x400000 };
	map_n = 4;
	map_st = UNC_OK;
	env.memory_map = memory_map;
	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8);
	fake_skl_uncore(&f, 5);
	fake_host_bridge(&f, 0x8086, 0x1910, 0xFED10001);
}

static void msr_read_names_the_register(void)
{
	setup();
	fake_msr(&f, 0x396, 5);
	T_EQ(RUN("msr", "read", "0x396"), UNC_OK);
	T_STREQ(obuf, "msr 0x396 (MSR_UNC_CBO_CONFIG) = 0x0000000000000005\n");
	T_STREQ(ebuf, "");
}

static void msr_write_does_exactly_one_write(void)
{
	setup();
	T_EQ(RUN("msr", "write", "0x3b2", "0x400181"), UNC_OK);
	T_EQ(f.nlog, 1);
	T_EQ(f.log[0].kind, FAKE_MSR);
	T_EQ(f.log[0].addr, 0x3b2);
	T_EQ(f.log[0].value, 0x400181);
	T_CONTAINS(obuf, "msr 0x3b2 (MSR_UNC_ARB_PERFEVTSEL0) <- 0x0000000000400181");
}

static void msr_faults_are_reported(void)
{
	setup();
	fake_msr_gp(&f, 0x6E1, false, true);
	T_EQ(RUN("msr", "write", "0x6E1", "0x100000000"), UNC_E_FAULT);
	T_STREQ(ebuf, "uncore: error: wrmsr 0x6e1 value 0x100000000: general-protection fault\n");
	T_EQ(f.nlog, 0);
	fake_msr_gp(&f, 0x1234, true, false);
	T_EQ(RUN("msr", "read", "0x1234"), UNC_E_FAULT);
	T_STREQ(ebuf, "uncore: error: rdmsr 0x1234: general-protection fault\n");
	T_STREQ(obuf, "");
}

/* pmc read: RDPMC through the seam; #UD (QEMU's TCG) and #GP (no such
 * counter) each get their line, and nothing is written. */
static void pmc_read(void)
{
	setup();
	fake_pmc(&f, 0, 0, UNC_E_UNSUPPORTED);
	fake_pmc(&f, 0x20, 0, UNC_E_FAULT);
	fake_pmc(&f, 1, 0x123456789ull, UNC_OK);
	T_EQ(RUN("pmc", "read", "0"), UNC_E_UNSUPPORTED);
	T_STREQ(ebuf, "uncore: error: rdpmc 0x0: invalid opcode (#UD): RDPMC is not available on this processor\n");
	T_STREQ(obuf, "");
	T_EQ(RUN("pmc", "read", "0x20"), UNC_E_FAULT);
	T_STREQ(ebuf, "uncore: error: rdpmc 0x20: general-protection fault\n");
	T_EQ(RUN("pmc", "read", "1"), UNC_OK);
	T_STREQ(obuf, "pmc 0x1 = 0x0000000123456789\n");
	T_STREQ(ebuf, "");
	T_EQ(f.nlog, 0);
}

static void pci_and_mmio(void)
{
	setup();
	T_EQ(RUN("pci", "read", "0:0.0", "0x48"), UNC_OK);
	T_STREQ(obuf, "pci 00:00.0 [0x048] = 0xfed10001\n");
	fake_mmio(&f, 0xFED15050, 0x1234abcd);
	T_EQ(RUN("mmio", "read", "0xFED15050"), UNC_OK);
	T_STREQ(obuf, "mmio 0xfed15050 = 0x1234abcd\n");
}

static void mmio_beyond_phys_width_is_refused_unread(void)
{
	setup(); /* 39 physical address bits */
	unsigned before = f.reads;
	T_EQ(RUN("mmio", "read", "0x8000000000"), UNC_E_RANGE);
	T_EQ(f.reads, before);
	T_CONTAINS(ebuf, "above the CPU's 39-bit physical address width");
}

/* mmio read loads only from an address the UEFI memory map covers: OVMF's
 * page tables leave the rest of the physical address space unmapped, and a
 * load there is a page fault nobody catches. */
static void mmio_outside_the_memory_map_is_refused_unread(void)
{
	setup(); /* 39 physical address bits */
	unsigned before = f.reads;
	T_EQ(RUN("mmio", "read", "0x7FFFFFF000"), UNC_E_RANGE);
	T_STREQ(ebuf, "uncore: error: mmio read 0x7ffffff000: no UEFI memory map descriptor covers it, so it may be "
		      "unmapped and a load would fault the firmware; --force reads it anyway\n");
	T_STREQ(obuf, "");
	/* the edges of descriptors: the last word is in, the next one is not */
	T_EQ(RUN("mmio", "read", "0xA0000"), UNC_E_RANGE);
	T_EQ(RUN("mmio", "read", "0x10000000"), UNC_E_RANGE);
	T_EQ(RUN("mmio", "read", "0xFED0FFFC"), UNC_E_RANGE);
	T_EQ(RUN("mmio", "read", "0xFED18000"), UNC_E_RANGE);
	T_EQ(RUN("mmio", "read", "0x100000000"), UNC_E_RANGE);
	T_EQ(f.reads, before); /* nothing was loaded */
	fake_mmio(&f, 0x9FFFC, 0x11);
	fake_mmio(&f, 0x100000, 0x22);
	fake_mmio(&f, 0xFFFFFFFC, 0x33);
	T_EQ(RUN("mmio", "read", "0x9FFFC"), UNC_OK);
	T_STREQ(obuf, "mmio 0x9fffc = 0x00000011\n");
	T_EQ(RUN("mmio", "read", "0x100000"), UNC_OK);
	T_EQ(RUN("mmio", "read", "0xFFFFFFFC"), UNC_OK);
	T_STREQ(obuf, "mmio 0xfffffffc = 0x00000033\n");
	T_STREQ(ebuf, "");
}

/* --force reads what the map does not describe (OVMF's local APIC), with a
 * warning; it never overrides the physical address width. */
static void mmio_force_reads_outside_the_map(void)
{
	setup();
	fake_mmio(&f, 0xFEE00030, 0x50014);
	T_EQ(RUN("mmio", "read", "0xFEE00030", "--force"), UNC_OK);
	T_STREQ(obuf, "mmio 0xfee00030 = 0x00050014\n");
	T_STREQ(ebuf, "uncore: warning: mmio read 0xfee00030: no UEFI memory map descriptor covers it; reading it "
		      "because of --force\n");
	unsigned before = f.reads;
	T_EQ(RUN("mmio", "read", "--force", "0x8000000000"), UNC_E_RANGE);
	T_CONTAINS(ebuf, "above the CPU's 39-bit physical address width");
	T_EQ(f.reads, before);
}

/* The seam's MMIO check applies after the memory map's, --force or not:
 * memory the firmware does not map as MMIO is refused with its reason,
 * nothing loaded. */
static void mmio_the_seam_refuses_is_refused_unread(void)
{
	setup();
	fake_not_mmio(&f, 0x100000, 0x200000, "0x100000 is system memory, not MMIO (GCD: 0x100000-0x1fffff)");
	unsigned before = f.reads;
	T_EQ(RUN("mmio", "read", "0x100000"), UNC_E_NOT_MMIO);
	T_STREQ(ebuf, "uncore: error: mmio read 0x100000: 0x100000 is system memory, not MMIO (GCD: 0x100000-0x1fffff)\n");
	T_STREQ(obuf, "");
	T_EQ(RUN("mmio", "read", "0x100000", "--force"), UNC_E_NOT_MMIO);
	T_CONTAINS(ebuf, "uncore: error: mmio read 0x100000: 0x100000 is system memory, not MMIO");
	T_EQ(f.reads, before);
}

/* Without a memory map there is nothing to check against: refused unless
 * --force, and the reason is given. */
static void mmio_without_a_memory_map(void)
{
	setup();
	fake_mmio(&f, 0x100000, 0x22);
	map_st = UNC_E_DEVICE;
	T_EQ(RUN("mmio", "read", "0x100000"), UNC_E_DEVICE);
	T_STREQ(ebuf, "uncore: error: mmio read 0x100000: cannot check it against the UEFI memory map (GetMemoryMap "
		      "failed (status 0x8000000000000007)); --force reads it unchecked\n");
	T_STREQ(obuf, "");
	T_EQ(RUN("mmio", "read", "0x100000", "--force"), UNC_OK);
	T_STREQ(obuf, "mmio 0x100000 = 0x00000022\n");
	T_CONTAINS(ebuf, "uncore: warning: mmio read 0x100000: not checked against the UEFI memory map; reading it");
	env.memory_map = NULL;
	T_EQ(RUN("mmio", "read", "0x100000"), UNC_E_NOT_FOUND);
	T_CONTAINS(ebuf, "(no memory map service)");
}

static void info_exit_status_follows_verdict(void)
{
	setup();
	T_EQ(RUN("info"), UNC_OK);
	T_STREQ(ebuf, "");
	fake_init(&f);
	fake_cpu_epyc(&f);
	fake_host_bridge(&f, 0x8086, 0x29C0, 0);
	T_EQ(RUN("info", "-j"), UNC_E_UNSUPPORTED);
	T_CONTAINS(obuf, "\"vendor\":\"AuthenticAMD\"");
	T_STREQ(ebuf, "uncore: error: uncore PMU unusable: not an Intel CPU\n");
}

/* bench divides TSC ticks per sample: 20 s per sample at 1 GHz is 2 * 10^10
 * ticks, and 2 * 10^10 * 10^9 does not fit 64 bits. All five counters are
 * read in each sample. */
static void bench_long_samples_do_not_overflow(void)
{
	setup();
	for (unsigned k = 0; k < 5; k++)
		fake_mmio(&f, 0xFED10000 + 0x5040 + (k < 3 ? 4 * k : 0x10 + 4 * (k - 3)), 0);
	f.ticks_per_mmio_read = 4000000000; /* five reads a sample: 20 s */
	T_EQ(RUN("bench", "-n", "1"), UNC_OK);
	T_CONTAINS(obuf, "imc sample: 1 samples of 5 counters, 20000000000 TSC cycles each (20000000000.0 ns)");
}

/* bench times full samples: all five IMC counters, each read once per
 * sample (it used to add the five under one empty name, so four were
 * dropped as "listed twice" and one counter was timed). */
static void bench_reads_all_five_counters(void)
{
	static const uint16_t off[] = { 0x5040, 0x5044, 0x5048, 0x5050, 0x5054 };

	setup();
	for (unsigned i = 0; i < 5; i++)
		fake_mmio(&f, 0xFED10000 + off[i], 100 * i);
	unsigned r0 = f.reads;
	T_EQ(RUN("bench", "-n", "1"), UNC_OK);
	unsigned r1 = f.reads;
	T_EQ(RUN("bench", "-n", "3"), UNC_OK);
	unsigned r3 = f.reads;
	T_EQ((r3 - r1) - (r1 - r0), 2 * 5); /* two more samples, five loads each */
	T_CONTAINS(obuf, "imc sample: 3 samples of 5 counters, ");
	T_STREQ(ebuf, "");
}

T_MAIN("app", T_CASE(msr_read_names_the_register), T_CASE(msr_write_does_exactly_one_write),
       T_CASE(msr_faults_are_reported), T_CASE(pmc_read), T_CASE(pci_and_mmio), T_CASE(mmio_beyond_phys_width_is_refused_unread),
       T_CASE(mmio_outside_the_memory_map_is_refused_unread), T_CASE(mmio_force_reads_outside_the_map), T_CASE(mmio_the_seam_refuses_is_refused_unread),
       T_CASE(mmio_without_a_memory_map),
       T_CASE(info_exit_status_follows_verdict), T_CASE(bench_reads_all_five_counters),
       T_CASE(bench_long_samples_do_not_overflow))
