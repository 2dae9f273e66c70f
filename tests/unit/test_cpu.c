#include <string.h>

#include "../../drivers/base/cpu.h"
#include "fake_hw.h"
#include "t.h"

static struct fake_hw f;

static void skylake_desktop(void)
{
	struct cpu_info c;

	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8);
	cpu_identify(&f.hw, &c);
	T_STREQ(c.vendor, "GenuineIntel");
	T_ASSERT(c.is_intel);
	T_EQ(c.family, 6);
	T_EQ(c.model, 0x5E);
	T_EQ(c.stepping, 3);
	T_EQ(c.cores, 4);
	T_EQ(c.threads, 8);
	T_STREQ(c.topology_source, "CPUID leaf 0xB");
	T_STREQ(c.brand, "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz"); /* padding trimmed */
	T_EQ(c.phys_addr_bits, 39);
	T_ASSERT(c.hypervisor);
}

static void amd_epyc(void)
{
	struct cpu_info c;

	fake_init(&f);
	fake_cpu_epyc(&f);
	cpu_identify(&f.hw, &c);
	T_STREQ(c.vendor, "AuthenticAMD");
	T_ASSERT(!c.is_intel);
	T_EQ(c.family, 0x17); /* 0xF + extended family 8 */
	T_EQ(c.model, 0x01);
	T_EQ(c.phys_addr_bits, 48);
}

static void leaf4_fallback(void)
{
	struct cpu_info c;

	fake_init(&f);
	/* max leaf 4: no leaf 0xB; leaf 4 EAX[31:26] = cores - 1 */
	fake_cpuid(&f, 0, 0, 4, 0x756e6547, 0x6c65746e, 0x49656e69);
	fake_cpuid(&f, 1, 0, 0x506E3, 4 << 16, 0, 1u << 28);
	fake_cpuid(&f, 4, 0, (3u << 26) | 0x121, 0, 0, 0);
	fake_cpuid(&f, 0x80000000, 0, 0x80000001, 0, 0, 0);
	cpu_identify(&f.hw, &c);
	T_EQ(c.cores, 4);
	T_EQ(c.threads, 4);
	T_STREQ(c.topology_source, "CPUID leaves 1 and 4");
	T_STREQ(c.brand, "");
	T_EQ(c.phys_addr_bits, 36); /* no leaf 0x80000008 */
}

/* The load's default working set follows the largest cache of CPUID leaf
 * 4 (SDM Vol. 2A, CPUID leaf 04H: (ways + 1) x (partitions + 1) x (line
 * size + 1) x (sets + 1)), read through the seam like every other leaf. */
static void largest_cache_from_leaf_4(void)
{
	fake_init(&f);
	fake_cpuid(&f, 0, 0, 0x16, 0x756e6547, 0x6c65746e, 0x49656e69);
	fake_cpuid(&f, 4, 0, 1 | 1 << 5, 7u << 22 | 63, 63, 0);    /* L1d: 8 ways x 64 B x 64 sets = 32 KiB */
	fake_cpuid(&f, 4, 1, 3 | 3 << 5, 15u << 22 | 63, 8191, 0); /* L3: 16 ways x 64 B x 8192 sets = 8 MiB */
	fake_cpuid(&f, 4, 2, 3 | 2 << 5, 3u << 22 | 63, 1023, 0);  /* L2: 4 ways x 64 B x 1024 sets = 256 KiB */
	fake_cpuid(&f, 4, 3, 0, 0, 0, 0);                          /* type 0: the end */
	T_EQ(cpu_llc_bytes(&f.hw), 8ull << 20);

	fake_init(&f); /* no leaf 4 (highest leaf 2): 0, and leaf 4 is never read (the fake fails on it) */
	fake_cpuid(&f, 0, 0, 2, 0x756e6547, 0x6c65746e, 0x49656e69);
	T_EQ(cpu_llc_bytes(&f.hw), 0);
}

/* Linux's constant_tsc models and CPUID's invariant TSC: only these idle. */
static void tsc_steady_models(void)
{
	T_ASSERT(!cpu_tsc_steady(&(struct cpu_info){ .family = 6, .model = 0x07 }, false));  /* Pentium III */
	T_ASSERT(!cpu_tsc_steady(&(struct cpu_info){ .family = 6, .model = 0x0D }, false));  /* Pentium M */
	T_ASSERT(cpu_tsc_steady(&(struct cpu_info){ .family = 6, .model = 0x0E }, false));   /* Core Duo */
	T_ASSERT(cpu_tsc_steady(&(struct cpu_info){ .family = 6, .model = 0x5E }, false));   /* Skylake */
	T_ASSERT(!cpu_tsc_steady(&(struct cpu_info){ .family = 0xF, .model = 2 }, false));   /* Northwood */
	T_ASSERT(cpu_tsc_steady(&(struct cpu_info){ .family = 0xF, .model = 3 }, false));    /* Prescott */
	T_ASSERT(!cpu_tsc_steady(&(struct cpu_info){ .family = 0xB, .model = 1 }, false));   /* Knights Corner */
	T_ASSERT(cpu_tsc_steady(&(struct cpu_info){ .family = 0xB, .model = 1 }, true));
}

/* The package shift of an APIC ID, from each leaf in turn (SDM Vol. 2A,
 * CPUID leaves 0x1F and 0xB: EAX[4:0] of a level is the shift to the next
 * level's ID; leaf 1 EBX[23:16] the addressable IDs of a package). */
static void package_shift_from_each_leaf(void)
{
	struct fake_hw f;
	const char *how = NULL;

	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8); /* leaf 0xB: SMT shift 1, core shift 4 */
	T_EQ(cpu_pkg_shift(&f.hw, &how), 4);
	T_STREQ(how, "CPUID leaf 0xB");
	/* leaf 0x1F with a die level: SMT 1, core 6, die 7 */
	fake_cpuid(&f, 0, 0, 0x1F, 0, 0, 0);
	fake_cpuid(&f, 0x1F, 0, 1, 2, 0x100, 0);
	fake_cpuid(&f, 0x1F, 1, 6, 64, 0x201, 0);
	fake_cpuid(&f, 0x1F, 2, 7, 128, 0x502, 0);
	fake_cpuid(&f, 0x1F, 3, 0, 0, 3, 0);
	T_EQ(cpu_pkg_shift(&f.hw, &how), 7);
	T_STREQ(how, "CPUID leaf 0x1F");
	/* no topology leaf: 12 logical processors (HTT) round up to 16 */
	fake_cpuid(&f, 0, 0, 0x4, 0, 0, 0);
	fake_cpuid(&f, 1, 0, 0x506E3, 12u << 16, 0, 1u << 28);
	T_EQ(cpu_pkg_shift(&f.hw, &how), 4);
	T_STREQ(how, "CPUID leaves 1 and 4");
	fake_cpuid(&f, 1, 0, 0x506E3, 12u << 16, 0, 0); /* no HTT: one per package */
	T_EQ(cpu_pkg_shift(&f.hw, &how), 0);
}

T_MAIN("cpu", T_CASE(package_shift_from_each_leaf), T_CASE(tsc_steady_models), T_CASE(skylake_desktop), T_CASE(amd_epyc), T_CASE(leaf4_fallback), T_CASE(largest_cache_from_leaf_4))
