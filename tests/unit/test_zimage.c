/* uncore.efi's packed application (drivers/base/zimage.h): the branch
 * filter against instructions typed from the Intel SDM's encodings (E8 call
 * rel32, E9 jmp rel32, REX.W 8D/8B with ModRM mod 00 r/m 101: RIP + disp32),
 * its inverse, and whole blobs from the packer (tools/pack.c) read back
 * by the stub's checks: a corrupt, truncated or inconsistent blob gives an
 * error, never an image. */
#include <stdlib.h>
#include <string.h>

#define PACK_NO_MAIN
#include "../../tools/pack.c"
#include "t.h"

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void filter_converts_typed_instructions(void)
{
	uint8_t c[64];
	memset(c, 0x90, sizeof(c)); /* nop */
	/* at 0x1000 (offsets from the image's base, code from 0x1000): */
	uint8_t *p = c;
	memcpy(p + 0, "\xe8\x10\x00\x00\x00", 5);         /* call +0x10 -> 0x1015 */
	memcpy(p + 5, "\xe9\xe0\xff\xff\xff", 5);         /* jmp -0x20 -> 0x0fea */
	memcpy(p + 10, "\x48\x8d\x05\x00\x01\x00\x00", 7); /* lea rax, [rip + 0x100] -> 0x1111 */
	memcpy(p + 17, "\x4c\x8b\x0d\xfc\xff\xff\xff", 7); /* mov r9, [rip - 4] -> 0x1014 */
	memcpy(p + 24, "\x48\x8d\x04\x24", 4);             /* lea rax, [rsp]: SIB, no displacement */
	memcpy(p + 28, "\xe8\xff\xff\xff\x7f", 5);         /* call +0x7fffffff: out of the filter's range */
	memcpy(p + 33, "\x8d\x05\x10\x00\x00\x00", 6);     /* lea eax, [rip + 0x10]: no REX.W, left */
	uint8_t img[0x1000 + sizeof(c)];
	memset(img, 0, 0x1000);
	memcpy(img + 0x1000, c, sizeof(c));
	zimage_filter(img, 0x1000, 0x1000 + sizeof(c), 1);
	T_EQ(img[0x1000], 0xe8);
	T_EQ(le32(img + 0x1001), 0x1015);
	T_EQ(le32(img + 0x1006), 0x0fea);
	T_EQ(le32(img + 0x100d), 0x1111);
	T_EQ(le32(img + 0x1014), 0x1014);
	T_ASSERT(!memcmp(img + 0x1018, "\x48\x8d\x04\x24", 4));
	T_EQ(le32(img + 0x101d), 0x7fffffff);
	T_ASSERT(!memcmp(img + 0x1021, "\x8d\x05\x10\x00\x00\x00", 6));
	zimage_filter(img, 0x1000, 0x1000 + sizeof(c), 0);
	T_ASSERT(!memcmp(img + 0x1000, c, sizeof(c)));
	/* at the edge of the range, modulo 2^25: 2^24 - 1 from 0x10 is -2^24 + 0xf */
	uint8_t e[16] = { 0xe8, 0xff, 0xff, 0xff, 0x00 };
	memcpy(img + 0x0b, e, 5);
	zimage_filter(img, 0x0b, 0x10, 1);
	T_EQ(le32(img + 0x0c), 0xff00000f);
	zimage_filter(img, 0x0b, 0x10, 0);
	T_EQ(le32(img + 0x0c), 0x00ffffff);
	/* an instruction cut by the end of the range is left */
	memcpy(img + 0x20, "\xe8\x10\x00\x00\x00", 5);
	zimage_filter(img, 0x20, 0x24, 1);
	T_EQ(le32(img + 0x21), 0x10);
}

/* Any bytes come back as they were: the filter is one to one. */
static void filter_undoes_itself(void)
{
	enum { N = 1 << 16 };
	uint8_t *a = malloc(N), *b = malloc(N);
	T_ASSERT(a && b);
	uint32_t x = 7;
	for (int round = 0; round < 8; round++) {
		for (size_t i = 0; i < N; i++) {
			x = x * 1103515245u + 12345u;
			uint8_t r = (uint8_t)(x >> 16);
			/* dense in opcodes the filter looks at */
			a[i] = (x >> 28) < 4 ? "\xe8\xe9\x48\x4c"[x >> 28] : (x >> 28) < 7 ? "\x8d\x8b\x05"[(x >> 28) - 4] : r;
		}
		memcpy(b, a, N);
		zimage_filter(b, round, N - round, 1);
		T_ASSERT(memcmp(a, b, N));
		zimage_filter(b, round, N - round, 0);
		T_ASSERT(!memcmp(a, b, N));
	}
	free(a);
	free(b);
}

enum { MEM = 4 * ZIMAGE_PAGE };

/* A small image: code in its second page (calls among themselves), text in
 * the third, zeros to the end; its blob (room for it in *blob). */
static size_t make_blob(uint8_t *img, uint8_t **blob, struct zimage *z)
{
	memset(img, 0, MEM);
	memcpy(img, "header", 6);
	for (uint32_t at = ZIMAGE_PAGE; at + 16 <= 2 * ZIMAGE_PAGE - 300; at += 16) {
		uint32_t rel = 0x1200 - (at + 5);
		img[at] = 0xe8;
		memcpy(img + at + 1, &rel, 4);
		memcpy(img + at + 5, "\x48\x8d\x05\x00\x10\x00\x00\xc3\x90\x90\x90", 11);
	}
	for (uint32_t at = 2 * ZIMAGE_PAGE; at < 2 * ZIMAGE_PAGE + 1000; at++)
		img[at] = (uint8_t)"uncore: error: event is not known\n"[at % 34];
	*z = (struct zimage){ 0 };
	z->raw = 2 * ZIMAGE_PAGE + 1000;
	z->memory = MEM;
	z->code = ZIMAGE_PAGE;
	z->code_size = ZIMAGE_PAGE - 300;
	z->entry = ZIMAGE_PAGE + 32;
	*blob = malloc(ZIMAGE_HEADER + pack_bound(z->raw));
	T_ASSERT(*blob);
	return pack_zimage(*blob, img, z);
}

static void blob_unpacks_to_the_image(void)
{
	static uint8_t img[MEM], out[MEM];
	uint8_t *blob;
	struct zimage z, got;
	size_t n = make_blob(img, &blob, &z);
	T_ASSERT(n < z.raw / 2);
	T_ASSERT(!memcmp(blob, "UNCZ", 4));
	T_EQ(le32(blob + 4), n - ZIMAGE_HEADER);
	T_EQ(le32(blob + 8), z.raw);
	T_EQ(le32(blob + 12), MEM);
	T_EQ(le32(blob + 16), ZIMAGE_PAGE + 32);
	T_EQ(le32(blob + 20), ZIMAGE_PAGE);
	T_EQ(le32(blob + 24), ZIMAGE_PAGE - 300);
	T_EQ(le32(blob + 28), crc32_ieee(img, z.raw));
	T_ASSERT(zimage_parse(&got, blob, n) == NULL);
	memset(out, 0xa5, sizeof(out)); /* pages as the firmware may hand them out */
	T_ASSERT(zimage_unpack(out, &got) == NULL);
	T_ASSERT(!memcmp(out, img, MEM));
	free(blob);
}

/* The stub's checks, each named by its error. */
static uint8_t out[MEM];
static const char *try(const uint8_t *blob, size_t n)
{
	struct zimage z;
	const char *why = zimage_parse(&z, blob, n);
	return why ? why : zimage_unpack(out, &z);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int k = 0; k < 4; k++)
		p[k] = (uint8_t)(v >> 8 * k);
}

static void bad_blobs_are_refused(void)
{
	static uint8_t img[MEM];
	uint8_t *blob, *bad;
	struct zimage z;
	size_t n = make_blob(img, &blob, &z);
	bad = malloc(n + 1);
	T_ASSERT(bad);

	T_STREQ(try(blob, 0), "no packed image header");
	T_STREQ(try(blob, ZIMAGE_HEADER - 1), "no packed image header");
	memcpy(bad, blob, n), bad[3] = 'X';
	T_STREQ(try(bad, n), "no packed image header");
	for (size_t cut = ZIMAGE_HEADER; cut < n; cut += 97)
		T_STREQ(try(blob, cut), "the packed image is truncated");
	T_STREQ(try(blob, n - 1), "the packed image is truncated");
	memcpy(bad, blob, n), bad[n] = 0;
	T_STREQ(try(bad, n + 1), "the packed image has bytes past its stream");

	/* the header's fields */
	memcpy(bad, blob, n), put_le32(bad + 12, MEM + 1);
	T_STREQ(try(bad, n), "the packed image's sizes are not possible");
	memcpy(bad, blob, n), put_le32(bad + 12, ZIMAGE_MAX_MEMORY + ZIMAGE_PAGE);
	T_STREQ(try(bad, n), "the packed image's sizes are not possible");
	memcpy(bad, blob, n), put_le32(bad + 8, MEM + 1);
	T_STREQ(try(bad, n), "the packed image's sizes are not possible");
	memcpy(bad, blob, n), put_le32(bad + 20, ZIMAGE_PAGE + 1);
	T_STREQ(try(bad, n), "the packed image's code range is not inside it");
	memcpy(bad, blob, n), put_le32(bad + 20, 3 * ZIMAGE_PAGE);
	T_STREQ(try(bad, n), "the packed image's code range is not inside it");
	memcpy(bad, blob, n), put_le32(bad + 24, 0);
	T_STREQ(try(bad, n), "the packed image's code range is not inside it");
	memcpy(bad, blob, n), put_le32(bad + 24, 0xfffff000u);
	T_STREQ(try(bad, n), "the packed image's code range is not inside it");
	memcpy(bad, blob, n), put_le32(bad + 16, ZIMAGE_PAGE - 1);
	T_STREQ(try(bad, n), "the packed image's entry point is not in its code");
	memcpy(bad, blob, n), put_le32(bad + 16, 2 * ZIMAGE_PAGE - 300);
	T_STREQ(try(bad, n), "the packed image's entry point is not in its code");
	memcpy(bad, blob, n), put_le32(bad + 8, z.raw - 1);
	T_STREQ(try(bad, n), "the packed image's stream is corrupt");
	memcpy(bad, blob, n), put_le32(bad + 28, z.crc ^ 1);
	T_STREQ(try(bad, n), "the packed image does not match its CRC");

	/* any one bit of the stream changed: an error, whichever, or (a bit
	 * that changes nothing the decoder writes: the last byte's padding,
	 * the length of a code no symbol uses) the image itself */
	unsigned errors = 0;
	for (size_t at = ZIMAGE_HEADER; at < n; at++)
		for (unsigned bit = 0; bit < 8; bit++) {
			memcpy(bad, blob, n);
			bad[at] ^= (uint8_t)(1u << bit);
			const char *why = try(bad, n);
			if (!why) {
				if (memcmp(out, img, MEM))
					t_fail(__FILE__, __LINE__, "bit %u of byte %zu changed: no error", bit, at);
				continue;
			}
			errors++;
			if (strcmp(why, "the packed image's stream is corrupt") &&
			    strcmp(why, "the packed image does not match its CRC"))
				t_fail(__FILE__, __LINE__, "bit %u of byte %zu changed: %s", bit, at, why);
		}
	T_ASSERT(errors > 8 * (n - ZIMAGE_HEADER) * 9 / 10);
	free(bad);
	free(blob);
}

T_MAIN("zimage", T_CASE(filter_converts_typed_instructions), T_CASE(filter_undoes_itself),
       T_CASE(blob_unpacks_to_the_image), T_CASE(bad_blobs_are_refused))
