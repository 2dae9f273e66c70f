/* The packed .data of the images: the decoder (drivers/base/unpack.c) against
 * streams typed from RFC 1951 (the format of drivers/base/unpack.h), and the packer
 * (tools/pack.c) round-tripped through it. */
#include <stdlib.h>
#include <string.h>

#include "../../drivers/base/unpack.h"
#define PACK_NO_MAIN
#include "../../tools/pack.c"
#include "t.h"

/* A stream written bit by bit, as RFC 1951 3.1.1 packs it: data elements
 * from the lowest bit of each byte, Huffman codes from their first bit. */
struct w {
	uint8_t b[256];
	size_t bits;
};

static void put(struct w *w, unsigned v, unsigned n) /* a data element of n bits */
{
	for (unsigned i = 0; i < n; i++, w->bits++)
		if (v >> i & 1)
			w->b[w->bits / 8] |= (uint8_t)(1u << w->bits % 8);
}

static void put_code(struct w *w, unsigned code, unsigned n) /* a Huffman code of n bits */
{
	for (unsigned i = n; i-- > 0;)
		put(w, code >> i & 1, 1);
}

/* A literal/length symbol in the fixed code (RFC 1951 3.2.6). */
static void fixed_sym(struct w *w, unsigned s)
{
	if (s < 144)
		put_code(w, 0x30 + s, 8);
	else if (s < 256)
		put_code(w, 0x190 + s - 144, 9);
	else if (s < 280)
		put_code(w, s - 256, 7);
	else
		put_code(w, 0xc0 + s - 280, 8);
}

static size_t bytes(const struct w *w)
{
	return (w->bits + 7) / 8;
}

static void decodes_stored_blocks(void)
{
	uint8_t out[64];
	/* BFINAL 1, BTYPE 00, then from the next byte LEN 3, NLEN ~3, "abc" */
	static const uint8_t abc[] = { 0x01, 0x03, 0x00, 0xfc, 0xff, 'a', 'b', 'c' };
	T_EQ(unc_unpack(out, sizeof(out), abc, sizeof(abc)), 3);
	T_ASSERT(!memcmp(out, "abc", 3));
	/* two blocks: "ab" not final, then "c" final; and an empty one */
	static const uint8_t two[] = { 0x00, 0x02, 0x00, 0xfd, 0xff, 'a', 'b', 0x01, 0x01, 0x00, 0xfe, 0xff, 'c' };
	T_EQ(unc_unpack(out, sizeof(out), two, sizeof(two)), 3);
	T_ASSERT(!memcmp(out, "abc", 3));
	static const uint8_t empty[] = { 0x01, 0x00, 0x00, 0xff, 0xff };
	T_EQ(unc_unpack(out, sizeof(out), empty, sizeof(empty)), 0);
}

static void decodes_fixed_codes(void)
{
	uint8_t out[600];
	struct w w = { { 0 }, 0 };
	/* "abc", then length 6 (symbol 260) from distance 3 (distance code 2,
	 * 5 bits), then length 258 (285) from distance 1 (0), length 11 (265,
	 * one extra bit 0), and the end of the block */
	put(&w, 1, 1), put(&w, 1, 2);
	fixed_sym(&w, 'a'), fixed_sym(&w, 'b'), fixed_sym(&w, 'c');
	fixed_sym(&w, 260), put_code(&w, 2, 5);
	fixed_sym(&w, 285), put_code(&w, 0, 5);
	fixed_sym(&w, 265), put(&w, 0, 1), put_code(&w, 0, 5);
	fixed_sym(&w, 256);
	T_EQ(unc_unpack(out, sizeof(out), w.b, bytes(&w)), 3 + 6 + 258 + 11);
	T_ASSERT(!memcmp(out, "abcabcabc", 9));
	for (int i = 9; i < 3 + 6 + 258 + 11; i++)
		if (out[i] != 'c')
			t_fail(__FILE__, __LINE__, "byte %d is 0x%02x, want 'c'", i, out[i]);
	/* length 10 + extra 1 (symbol 264 is 10, 265 is 11 + 1 extra bit),
	 * distance 5 + 1 (code 4: 5, one extra bit): "abcdef" then 12 more */
	memset(&w, 0, sizeof(w));
	put(&w, 1, 1), put(&w, 1, 2);
	for (const char *p = "abcdef"; *p; p++)
		fixed_sym(&w, (unsigned)*p);
	fixed_sym(&w, 265), put(&w, 1, 1), put_code(&w, 4, 5), put(&w, 1, 1);
	fixed_sym(&w, 256);
	T_EQ(unc_unpack(out, sizeof(out), w.b, bytes(&w)), 18);
	T_ASSERT(!memcmp(out, "abcdef" "abcdef" "abcdef", 18));
	/* "abcabcabc" as zlib's deflate writes it with Z_FIXED */
	static const uint8_t z[] = { 0x4b, 0x4c, 0x4a, 0x4e, 0x04, 0x23, 0x00 };
	T_EQ(unc_unpack(out, sizeof(out), z, sizeof(z)), 9);
	T_ASSERT(!memcmp(out, "abcabcabc", 9));
}

static void rejects_bad_streams(void)
{
	uint8_t out[16];
	struct w w = { { 0 }, 0 };
	static const uint8_t type3[] = { 0x07, 0x00 };
	static const uint8_t bad_nlen[] = { 0x01, 0x03, 0x00, 0xfc, 0xfe, 'a', 'b', 'c' };
	static const uint8_t short_stored[] = { 0x01, 0x03, 0x00, 0xfc, 0xff, 'a', 'b' };
	T_EQ(unc_unpack(out, sizeof(out), type3, sizeof(type3)), 0);
	T_EQ(unc_unpack(out, sizeof(out), bad_nlen, sizeof(bad_nlen)), 0);
	T_EQ(unc_unpack(out, sizeof(out), short_stored, sizeof(short_stored)), 0);
	T_EQ(unc_unpack(out, 2, (const uint8_t[]){ 0x01, 0x03, 0x00, 0xfc, 0xff, 'a', 'b', 'c' }, 8), 0);
	T_EQ(unc_unpack(out, sizeof(out), NULL, 0), 0);
	/* a match before the start: "a", then length 3 from distance 2 */
	put(&w, 1, 1), put(&w, 1, 2), fixed_sym(&w, 'a'), fixed_sym(&w, 257), put_code(&w, 1, 5), fixed_sym(&w, 256);
	T_EQ(unc_unpack(out, sizeof(out), w.b, bytes(&w)), 0);
	/* distance codes 30 and 31 and length symbols 286 and 287 do not exist */
	memset(&w, 0, sizeof(w));
	put(&w, 1, 1), put(&w, 1, 2), fixed_sym(&w, 'a'), fixed_sym(&w, 257), put_code(&w, 30, 5), fixed_sym(&w, 256);
	T_EQ(unc_unpack(out, sizeof(out), w.b, bytes(&w)), 0);
	memset(&w, 0, sizeof(w));
	put(&w, 1, 1), put(&w, 1, 2), fixed_sym(&w, 'a'), fixed_sym(&w, 286), put_code(&w, 0, 5), fixed_sym(&w, 256);
	T_EQ(unc_unpack(out, sizeof(out), w.b, bytes(&w)), 0);
	/* more than fits: 17 literals into 16 bytes */
	memset(&w, 0, sizeof(w));
	put(&w, 1, 1), put(&w, 1, 2);
	for (int i = 0; i < 17; i++)
		fixed_sym(&w, 'x');
	fixed_sym(&w, 256);
	T_EQ(unc_unpack(out, sizeof(out), w.b, bytes(&w)), 0);
	/* no end of block: the stream stops after the literals */
	memset(&w, 0, sizeof(w));
	put(&w, 1, 1), put(&w, 1, 2), fixed_sym(&w, 'a'), fixed_sym(&w, 'b');
	T_EQ(unc_unpack(out, sizeof(out), w.b, bytes(&w)), 0);
	/* a dynamic block whose code length code asks for 19 codes of 1 bit */
	memset(&w, 0, sizeof(w));
	put(&w, 1, 1), put(&w, 2, 2), put(&w, 0, 5), put(&w, 0, 5), put(&w, 15, 4);
	for (int i = 0; i < 19; i++)
		put(&w, 1, 3);
	T_EQ(unc_unpack(out, sizeof(out), w.b, bytes(&w)), 0);
	/* a dynamic block with 287 literal/length codes (at most 286) */
	memset(&w, 0, sizeof(w));
	put(&w, 1, 1), put(&w, 2, 2), put(&w, 30, 5), put(&w, 0, 5), put(&w, 0, 4);
	T_EQ(unc_unpack(out, sizeof(out), w.b, bytes(&w)), 0);
}

static void round_trip_with(const uint8_t *in, size_t n, int strategy)
{
	uint8_t *z = malloc(pack_bound(n)), *back = malloc(n + 1);
	T_ASSERT(z && back);
	size_t m = strategy < 0 ? pack(z, in, n) : deflate_with(z, in, n, 8, strategy);
	T_ASSERT(m <= pack_bound(n));
	T_EQ(unc_unpack(back, n, z, m), n);
	if (n && memcmp(back, in, n))
		t_fail(__FILE__, __LINE__, "%zu bytes do not come back as they went in", n);
	if (n)
		T_EQ(unc_unpack(back, n - 1, z, m), 0);
	free(z);
	free(back);
}

/* pack's stream, and zlib's others: fixed codes only, codes of their own
 * for literals only, runs only. */
static void round_trip(const uint8_t *in, size_t n)
{
	round_trip_with(in, n, -1);
	round_trip_with(in, n, Z_FIXED);
	round_trip_with(in, n, Z_HUFFMAN_ONLY);
	round_trip_with(in, n, Z_RLE);
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
	uint32_t x = 12345; /* bytes with no match: stored blocks */
	for (size_t i = 0; i < N; i++)
		b[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
	round_trip(b, N);
	/* a block repeated further back than a match can reach, and near it */
	memcpy(b + 68000, b + 100, 1500);
	memcpy(b + 65000, b + 40000, 1500);
	round_trip(b, N);
	for (size_t i = 0; i < N; i++) /* text-like: words from a small set */
		b[i] = (uint8_t)"the uncore counts events; "[(i * 7 + i / 26) % 26];
	round_trip(b, N);
	free(b);
}

/* A compressed block whose end-of-block code is short (a run of zeros),
 * then stored blocks: zlib's full flush ends the first block with an empty
 * stored one, and level 0 stores the rest. The decoder reads ahead to fill
 * its lookup; a stored block must start at the byte after the header's
 * bits, not after what it had read ahead. */
static void stored_after_compressed(void)
{
	enum { MAX_ZEROS = 65536 + 64, TAIL = 4096, N = MAX_ZEROS + TAIL };
	static uint8_t in[N], z[2 * N], back[N];

	/* zero runs of 64 lengths: the header of the stored block lands at
	 * every bit offset and read-ahead */
	for (size_t zeros = 65536; zeros < MAX_ZEROS; zeros++) {
		z_stream s = { 0 };
		size_t n = zeros + TAIL;
		memset(in, 0, zeros);
		for (size_t i = zeros; i < n; i++)
			in[i] = (uint8_t)(i * 31 + 7);
		T_EQ(deflateInit2(&s, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
		s.next_out = z, s.avail_out = sizeof(z);
		s.next_in = in, s.avail_in = (uInt)zeros;
		T_EQ(deflate(&s, Z_FULL_FLUSH), Z_OK);
		T_EQ(z[0] & 7, 4); /* the first block: not the last (bit 0), dynamic codes (type 2) */
		T_EQ(deflateParams(&s, 0, Z_DEFAULT_STRATEGY), Z_OK);
		s.next_in = in + zeros, s.avail_in = TAIL;
		T_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
		size_t m = sizeof(z) - s.avail_out;
		deflateEnd(&s);
		if (unc_unpack(back, sizeof(back), z, m) != n || memcmp(back, in, n)) {
			t_fail(__FILE__, __LINE__, "%zu zeros, then 4096 stored bytes: not unpacked as packed", zeros);
			return;
		}
	}
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

T_MAIN("pack", T_CASE(decodes_stored_blocks), T_CASE(decodes_fixed_codes), T_CASE(rejects_bad_streams),
       T_CASE(packs_and_unpacks), T_CASE(stored_after_compressed), T_CASE(packs_repeats_small))
