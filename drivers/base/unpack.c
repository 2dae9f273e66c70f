/* The packed stream's decoder (the format: unpack.h, after RFC 1951).
 *
 * It runs before the image's relocations are applied and before .data is
 * there: no static tables, no switch that could become a jump table (the
 * Makefile also builds this file with -fno-jump-tables), no pointer to a
 * function. The Huffman codes are canonical: a code of up to 9 bits is
 * looked up in a table built on the stack for each block, a longer one
 * decoded bit by bit from the count of codes of each length. */
#include "unpack.h"

struct bits {
	const uint8_t *p, *end;
	uint32_t buf; /* bits not used yet, lowest first */
	unsigned n;   /* how many */
	int bad;      /* ran past the end */
};

static unsigned get(struct bits *b, unsigned k)
{
	while (b->n < k) {
		if (b->p == b->end) {
			b->bad = 1;
			return 0;
		}
		b->buf |= (uint32_t)*b->p++ << b->n;
		b->n += 8;
	}
	unsigned v = b->buf & ((1u << k) - 1);
	b->buf >>= k;
	b->n -= k;
	return v;
}

/* A canonical code: how many codes of each length (1 to 15), and the
 * symbols in the order of their codes. The codes of up to FAST bits are
 * also looked up at once: fast[the next FAST bits of the stream] is the
 * symbol (times 16) and its code's length, or 0 for a longer code. */
#define FAST 9
struct code {
	uint16_t count[16];
	uint16_t sym[288];
	uint16_t fast[1 << FAST];
};

/* The code of n symbols with the given lengths (0: not used); -1 when the
 * lengths ask for more codes than exist. A code with codes missing is
 * allowed (RFC 1951 has one-code distance codes); its missing codes fail
 * in decode. */
static int build(struct code *c, const uint8_t *len, unsigned n)
{
	uint16_t at[16];
	int left = 1;

	for (unsigned l = 0; l < 16; l++)
		c->count[l] = 0;
	for (unsigned s = 0; s < n; s++)
		c->count[len[s]]++;
	at[1] = 0;
	for (unsigned l = 1; l < 16; l++) {
		left = 2 * left - c->count[l];
		if (left < 0)
			return -1;
		if (l < 15)
			at[l + 1] = (uint16_t)(at[l] + c->count[l]);
	}
	for (unsigned s = 0; s < n; s++)
		if (len[s])
			c->sym[at[len[s]]++] = (uint16_t)s;
	/* the canonical codes in order: each length's first code is the last
	 * one of the length before, plus one, doubled (RFC 1951, 3.2.2) */
	for (unsigned i = 0; i < 1u << FAST; i++)
		c->fast[i] = 0;
	unsigned code = 0, index = 0;
	for (unsigned l = 1; l <= FAST; l++, code <<= 1)
		for (unsigned k = 0; k < c->count[l]; k++, code++, index++) {
			unsigned rev = 0; /* the code as it comes from the stream: first bit lowest */
			for (unsigned j = 0; j < l; j++)
				rev |= (code >> j & 1) << (l - 1 - j);
			for (unsigned i = rev; i < 1u << FAST; i += 1u << l)
				c->fast[i] = (uint16_t)(c->sym[index] << 4 | l);
		}
	return 0;
}

/* The next symbol, or -1. Codes are stored from their first bit. */
static int decode(struct bits *b, const struct code *c)
{
	int code = 0, first = 0, index = 0;

	while (b->n < FAST && b->p != b->end) {
		b->buf |= (uint32_t)*b->p++ << b->n;
		b->n += 8;
	}
	if (b->n >= FAST) {
		unsigned e = c->fast[b->buf & ((1u << FAST) - 1)];
		if (e) {
			b->buf >>= e & 15;
			b->n -= e & 15;
			return (int)(e >> 4);
		}
	}

	for (unsigned l = 1; l < 16; l++) {
		code |= (int)get(b, 1);
		int count = c->count[l];
		if (code - first < count)
			return b->bad ? -1 : c->sym[index + code - first];
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return -1;
}

/* Length symbol s (257 + s, s up to 28) and distance symbol s (up to 29):
 * base value and extra bits, computed from the pattern of RFC 1951's
 * tables. */
static unsigned len_extra(unsigned s)
{
	return s < 8 || s == 28 ? 0 : (s >> 2) - 1;
}

static unsigned len_base(unsigned s)
{
	return s < 8 ? 3 + s : s == 28 ? 258 : ((4 + (s & 3)) << len_extra(s)) + 3;
}

static unsigned dist_extra(unsigned s)
{
	return s < 4 ? 0 : (s >> 1) - 1;
}

static unsigned dist_base(unsigned s)
{
	return s < 4 ? 1 + s : ((2 + (s & 1)) << dist_extra(s)) + 1;
}

/* The order of the code length code's lengths: 16, 17, 18, 0, 8, 7, 9,
 * 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15. */
static unsigned clen_order(unsigned k)
{
	unsigned j = k - 4;

	return k < 3 ? 16 + k : k == 3 ? 0 : j & 1 ? 8 - (j + 1) / 2 : 8 + j / 2;
}

/* The code lengths of a dynamic block into lit and dist; -1 if malformed. */
static int dynamic(struct bits *b, struct code *lit, struct code *dist)
{
	uint8_t len[320];
	unsigned nlit = get(b, 5) + 257, ndist = get(b, 5) + 1, nclen = get(b, 4) + 4;

	if (nlit > 286 || ndist > 30)
		return -1;
	for (unsigned k = 0; k < 19; k++)
		len[clen_order(k)] = (uint8_t)(k < nclen ? get(b, 3) : 0);
	if (b->bad || build(lit, len, 19))
		return -1;
	for (unsigned i = 0; i < nlit + ndist;) {
		int s = decode(b, lit);
		unsigned times, value = 0;
		if (s < 0)
			return -1;
		if (s < 16) {
			len[i++] = (uint8_t)s;
			continue;
		}
		if (s == 16) {
			if (!i)
				return -1;
			value = len[i - 1];
			times = 3 + get(b, 2);
		} else {
			times = s == 17 ? 3 + get(b, 3) : 11 + get(b, 7);
		}
		if (b->bad || times > nlit + ndist - i)
			return -1;
		while (times--)
			len[i++] = (uint8_t)value;
	}
	if (!len[256] || build(lit, len, nlit) || build(dist, len + nlit, ndist))
		return -1;
	return 0;
}

/* The fixed codes (RFC 1951, 3.2.6). */
static void fixed(struct code *lit, struct code *dist)
{
	uint8_t len[288];

	for (unsigned s = 0; s < 288; s++)
		len[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
	build(lit, len, 288);
	for (unsigned s = 0; s < 30; s++)
		len[s] = 5;
	build(dist, len, 30);
}

size_t unc_unpack(uint8_t *dst, size_t cap, const uint8_t *src, size_t n)
{
	struct bits b = { src, src + n, 0, 0, 0 };
	struct code lit, dist;
	size_t at = 0;
	unsigned last;

	do {
		last = get(&b, 1);
		unsigned type = get(&b, 2);
		if (b.bad)
			return 0;
		if (type == 0) { /* stored: from the next byte, LEN, ~LEN, the bytes */
			/* the whole bytes decode() read ahead are the block's: given
			 * back; the rest of the partial byte is dropped */
			b.p -= b.n / 8;
			b.buf = 0, b.n = 0;
			if (b.end - b.p < 4)
				return 0;
			size_t len = b.p[0] | (size_t)b.p[1] << 8;
			if ((len ^ (b.p[2] | (size_t)b.p[3] << 8)) != 0xffff)
				return 0;
			b.p += 4;
			if (len > (size_t)(b.end - b.p) || len > cap - at)
				return 0;
			while (len--)
				dst[at++] = *b.p++;
			continue;
		}
		if (type == 1)
			fixed(&lit, &dist);
		else if (type != 2 || dynamic(&b, &lit, &dist))
			return 0;
		for (;;) {
			int s = decode(&b, &lit);
			if (s < 0)
				return 0;
			if (s < 256) {
				if (at == cap)
					return 0;
				dst[at++] = (uint8_t)s;
				continue;
			}
			if (s == 256)
				break;
			s -= 257;
			if (s > 28)
				return 0;
			size_t len = len_base((unsigned)s) + get(&b, len_extra((unsigned)s));
			int d = decode(&b, &dist);
			if (d < 0 || d > 29)
				return 0;
			size_t back = dist_base((unsigned)d) + get(&b, dist_extra((unsigned)d));
			if (b.bad || back > at || len > cap - at)
				return 0;
			for (; len; len--, at++)
				dst[at] = dst[at - back];
		}
	} while (!last);
	return at;
}
