/* The packed .data of the images: the decoder (drivers/base/unpack.c) against
 * streams typed from the format in drivers/base/unpack.h, and the packer
 * (tools/pack.c) round-tripped through it. */
#include <stdlib.h>
#include <string.h>

#include "../../drivers/base/unpack.h"
#define PACK_NO_MAIN
#include "../../tools/pack.c"
#include "t.h"

/* Streams typed from the format. */
static void decodes_literals_and_matches(void)
{
	uint8_t out[64];
	/* 3 literals and the end */
	static const uint8_t lit[] = { 0x30, 'a', 'b', 'c' };
	T_EQ(unc_unpack(out, sizeof(out), lit, sizeof(lit)), 3);
	T_ASSERT(!memcmp(out, "abc", 3));
	/* 1 literal, then 4 bytes from 1 back (a run), then the end */
	static const uint8_t run[] = { 0x10, 'a', 0x01, 0x00 };
	T_EQ(unc_unpack(out, sizeof(out), run, sizeof(run)), 5);
	T_ASSERT(!memcmp(out, "aaaaa", 5));
	/* "ab", 6 bytes from 2 back, then the literal "c" in a second sequence */
	static const uint8_t two[] = { 0x22, 'a', 'b', 0x02, 0x00, 0x10, 'c' };
	T_EQ(unc_unpack(out, sizeof(out), two, sizeof(two)), 9);
	T_ASSERT(!memcmp(out, "abababab" "c", 9));
}

static void decodes_long_counts(void)
{
	uint8_t out[600];
	/* 15 + 0 literals: the count's extra byte is 0 */
	uint8_t s[64] = { 0xf0, 0x00 };
	for (int i = 0; i < 15; i++)
		s[2 + i] = (uint8_t)('A' + i);
	T_EQ(unc_unpack(out, sizeof(out), s, 17), 15);
	T_ASSERT(!memcmp(out, "ABCDEFGHIJKLMNO", 15));
	/* 1 literal, then a match of 4 + 15 + 255 + 2 = 276 bytes from 1 back */
	static const uint8_t m[] = { 0x1f, 'z', 0x01, 0x00, 0xff, 0x02 };
	T_EQ(unc_unpack(out, sizeof(out), m, sizeof(m)), 277);
	for (int i = 0; i < 277; i++)
		if (out[i] != 'z')
			t_fail(__FILE__, __LINE__, "byte %d is 0x%02x, want 'z'", i, out[i]);
}

static void rejects_bad_streams(void)
{
	uint8_t out[16];
	static const uint8_t offset0[] = { 0x10, 'a', 0x00, 0x00 };
	static const uint8_t too_far[] = { 0x10, 'a', 0x02, 0x00 };
	static const uint8_t short_lit[] = { 0x30, 'a', 'b' };
	static const uint8_t short_off[] = { 0x10, 'a', 0x01 };
	static const uint8_t no_count[] = { 0xf0 };
	static const uint8_t too_long[] = { 0x1f, 'a', 0x01, 0x00, 0x00 }; /* 20 bytes */
	T_EQ(unc_unpack(out, sizeof(out), offset0, sizeof(offset0)), 0);
	T_EQ(unc_unpack(out, sizeof(out), too_far, sizeof(too_far)), 0);
	T_EQ(unc_unpack(out, sizeof(out), short_lit, sizeof(short_lit)), 0);
	T_EQ(unc_unpack(out, sizeof(out), short_off, sizeof(short_off)), 0);
	T_EQ(unc_unpack(out, sizeof(out), no_count, sizeof(no_count)), 0);
	T_EQ(unc_unpack(out, sizeof(out), too_long, sizeof(too_long)), 0);
	T_EQ(unc_unpack(out, 2, (const uint8_t[]){ 0x30, 'a', 'b', 'c' }, 4), 0);
}

static void round_trip(const uint8_t *in, size_t n)
{
	uint8_t *z = malloc(pack_bound(n)), *back = malloc(n + 1);
	T_ASSERT(z && back);
	size_t m = pack(z, in, n);
	T_ASSERT(m <= pack_bound(n));
	T_EQ(unc_unpack(back, n, z, m), n);
	if (n && memcmp(back, in, n))
		t_fail(__FILE__, __LINE__, "%zu bytes do not come back as they went in", n);
	free(z);
	free(back);
}

static void packs_and_unpacks(void)
{
	enum { N = 70000 };
	uint8_t *b = calloc(N, 1);
	T_ASSERT(b);
	round_trip(b, 0);
	b[0] = 7;
	round_trip(b, 1);
	memset(b, 0, N); /* one long run */
	round_trip(b, N);
	uint32_t x = 12345; /* bytes with no match: long literal runs */
	for (size_t i = 0; i < N; i++)
		b[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
	round_trip(b, N);
	/* a block repeated further back than a match can reach, and near it */
	memcpy(b + 68000, b + 100, 1500);
	memcpy(b + 65000, b + 100, 1500);
	round_trip(b, N);
	for (size_t i = 0; i < N; i++) /* text-like: words from a small set */
		b[i] = (uint8_t)"the uncore counts events; "[(i * 7 + i / 26) % 26];
	round_trip(b, N);
	free(b);
}

/* Text shrinks to well under half: what the images rely on. */
static void packs_repeats_small(void)
{
	static char text[8192];
	size_t n = 0;
	while (n + 40 < sizeof(text))
		n += (size_t)snprintf(text + n, sizeof(text) - n, "uncore: error: event %zu is not known\n", n % 97);
	uint8_t *z = malloc(pack_bound(n));
	T_ASSERT(z);
	size_t m = pack(z, (const uint8_t *)text, n);
	T_ASSERT(m < n / 2);
	free(z);
}

T_MAIN("pack", T_CASE(decodes_literals_and_matches), T_CASE(decodes_long_counts), T_CASE(rejects_bad_streams),
       T_CASE(packs_and_unpacks), T_CASE(packs_repeats_small))
