#include <string.h>

#include "../../drivers/base/arith.h"
#include "../../drivers/base/parse.h"
#include "t.h"

static void numbers(void)
{
	uint64_t v;

	T_ASSERT(parse_u64("0", 10, &v) && v == 0);
	T_ASSERT(parse_u64("4096", UINT64_MAX, &v) && v == 4096);
	T_ASSERT(parse_u64("0x396", UINT32_MAX, &v) && v == 0x396);
	T_ASSERT(parse_u64("0XfFfF", UINT32_MAX, &v) && v == 0xffff);
	T_ASSERT(parse_u64("0xffffffffffffffff", UINT64_MAX, &v) && v == UINT64_MAX);
	T_ASSERT(parse_u64("18446744073709551615", UINT64_MAX, &v) && v == UINT64_MAX);
}

static void bad_numbers(void)
{
	uint64_t v = 77;

	T_ASSERT(!parse_u64("", UINT64_MAX, &v));
	T_ASSERT(!parse_u64("0x", UINT64_MAX, &v));
	T_ASSERT(!parse_u64("-1", UINT64_MAX, &v));
	T_ASSERT(!parse_u64("+1", UINT64_MAX, &v));
	T_ASSERT(!parse_u64("12z", UINT64_MAX, &v));
	T_ASSERT(!parse_u64("0x1g", UINT64_MAX, &v));
	T_ASSERT(!parse_u64("ff", UINT64_MAX, &v)); /* hex needs its prefix */
	T_ASSERT(!parse_u64("0x10000000000000000", UINT64_MAX, &v));
	T_ASSERT(!parse_u64("18446744073709551616", UINT64_MAX, &v));
	T_ASSERT(!parse_u64("0x100000000", UINT32_MAX, &v));
	T_ASSERT(!parse_u64(" 1", UINT64_MAX, &v));
	T_EQ(v, 77); /* untouched on failure */
}

static void bdf(void)
{
	struct pci_addr a;

	T_ASSERT(parse_pci_bdf("0:0.0", &a) && a.bus == 0 && a.dev == 0 && a.func == 0);
	T_ASSERT(parse_pci_bdf("00:1f.3", &a) && a.bus == 0 && a.dev == 0x1f && a.func == 3);
	T_ASSERT(parse_pci_bdf("ff:1F.7", &a) && a.bus == 0xff && a.dev == 0x1f && a.func == 7);
	T_ASSERT(!parse_pci_bdf("0:20.0", &a));  /* device above 31 */
	T_ASSERT(!parse_pci_bdf("0:0.8", &a));   /* function above 7 */
	T_ASSERT(!parse_pci_bdf("100:0.0", &a)); /* bus above 255 */
	T_ASSERT(!parse_pci_bdf("0:0", &a));
	T_ASSERT(!parse_pci_bdf("0.0.0", &a));
	T_ASSERT(!parse_pci_bdf(":0.0", &a));
	T_ASSERT(!parse_pci_bdf("0:.0", &a));
	T_ASSERT(!parse_pci_bdf("0:0.", &a));
	T_ASSERT(!parse_pci_bdf("0:0.0x", &a));
	T_ASSERT(!parse_pci_bdf("", &a));
}

/* Suffixes k/M/G only where a bare count is meant; a quantity that has its
 * unit already (seconds, MHz) takes none. */
static void decimals_with_and_without_suffix(void)
{
	uint64_t v = 77;

	T_ASSERT(parse_decimal("12.5k", 1000, UINT64_MAX, &v) && v == 12500000);
	T_ASSERT(parse_decimal("2.5M", 1, UINT64_MAX, &v) && v == 2500000);
	T_ASSERT(parse_plain_decimal("0.001", 1000000000, UINT64_MAX, &v) && v == 1000000);
	T_ASSERT(parse_plain_decimal("86400", 1000000000, 86400000000000ull, &v) && v == 86400000000000ull);
	v = 77;
	T_ASSERT(!parse_plain_decimal("0.001k", 1000000000, UINT64_MAX, &v));
	T_ASSERT(!parse_plain_decimal("1M", 1000000000, UINT64_MAX, &v));
	T_ASSERT(!parse_plain_decimal("1G", 1, UINT64_MAX, &v));
	T_ASSERT(!parse_plain_decimal("1K", 1, UINT64_MAX, &v));
	T_ASSERT(!parse_plain_decimal("", 1, UINT64_MAX, &v));
	T_ASSERT(!parse_plain_decimal("1.", 1, UINT64_MAX, &v));
	T_ASSERT(!parse_plain_decimal("0.5", 1, UINT64_MAX, &v)); /* not whole */
	T_EQ(v, 77);
}

/* a * b / d with a 128-bit product, against values worked by hand. */
static void muldiv(void)
{
	T_EQ(u64_muldiv(6, 7, 3), 14);
	T_EQ(u64_muldiv(5, 1, 0), UINT64_MAX);
	/* 2^64 * 3 / 4 = 3 * 2^62 */
	T_EQ(u64_muldiv(1ull << 32, 3ull << 32, 4), 0xC000000000000000ull);
	/* (2^64 - 1)^2 / (2^64 - 1) = 2^64 - 1 */
	T_EQ(u64_muldiv(UINT64_MAX, UINT64_MAX, UINT64_MAX), UINT64_MAX);
	/* (2^64 - 1) * (2^64 - 2) / (2^64 - 1) = 2^64 - 2 */
	T_EQ(u64_muldiv(UINT64_MAX, UINT64_MAX - 1, UINT64_MAX), UINT64_MAX - 1);
	/* 10^12 * (10^12 + 1) / 10^9 = 10^15 + 1000 */
	T_EQ(u64_muldiv(1000000000000ull, 1000000000001ull, 1000000000ull), 1000000000001000ull);
	/* 2^80 / 3 needs 79 bits: more than a uint64_t */
	T_EQ(u64_muldiv(1ull << 40, 1ull << 40, 3), UINT64_MAX);
	/* 2^40 * 2^40 / 2^20 = 2^60 */
	T_EQ(u64_muldiv(1ull << 40, 1ull << 40, 1ull << 20), 1ull << 60);
	/* (2^63 + 5) * 6 / 7: 55340232221128654878 / 7 = 7905747460161236411 (remainder 1) */
	T_EQ(u64_muldiv((1ull << 63) + 5, 6, 7), 7905747460161236411ull);
}

/* The event index's hash: 32-bit FNV-1a (its published values for "a" and
 * "foobar") over the lower-case bytes, continued over a second string. */
static void case_blind_hash(void)
{
	T_EQ(str_ihash(STR_IHASH_INIT, ""), 0x811c9dc5u);
	T_EQ(str_ihash(STR_IHASH_INIT, "a"), 0xe40c292cu);
	T_EQ(str_ihash(STR_IHASH_INIT, "foobar"), 0xbf9cf968u);
	T_EQ(str_ihash(STR_IHASH_INIT, "FooBAR"), 0xbf9cf968u);
	T_EQ(str_ihash(str_ihash(STR_IHASH_INIT, "UNC_M_"), "cas_count.rd"), str_ihash(STR_IHASH_INIT, "unc_m_CAS_COUNT.RD"));
	T_ASSERT(str_ihash(STR_IHASH_INIT, "[") != str_ihash(STR_IHASH_INIT, "{")); /* only A-Z fold */
	T_ASSERT(str_ihash(STR_IHASH_INIT, "@") != str_ihash(STR_IHASH_INIT, "`"));
}

T_MAIN("parse", T_CASE(numbers), T_CASE(bad_numbers), T_CASE(bdf), T_CASE(decimals_with_and_without_suffix),
       T_CASE(muldiv), T_CASE(case_blind_hash))
