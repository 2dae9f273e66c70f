/* The packed application image of uncore.efi (the format: zimage.h). */
#include "zimage.h"

#include "crc32.h"
#include "unpack.h"

static uint32_t get32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int k = 0; k < 4; k++)
		p[k] = (uint8_t)(v >> 8 * k);
}

const char *zimage_parse(struct zimage *z, const uint8_t *blob, size_t n)
{
	if (n < ZIMAGE_HEADER || get32(blob) != get32((const uint8_t *)"UNCZ"))
		return "no packed image header";
	z->packed = get32(blob + 4);
	z->raw = get32(blob + 8);
	z->memory = get32(blob + 12);
	z->entry = get32(blob + 16);
	z->code = get32(blob + 20);
	z->code_size = get32(blob + 24);
	z->crc = get32(blob + 28);
	z->stream = blob + ZIMAGE_HEADER;
	if (z->packed != n - ZIMAGE_HEADER)
		return z->packed > n - ZIMAGE_HEADER ? "the packed image is truncated" : "the packed image has bytes past its stream";
	if (z->memory > ZIMAGE_MAX_MEMORY || z->memory % ZIMAGE_PAGE || z->raw > z->memory)
		return "the packed image's sizes are not possible";
	if (z->code % ZIMAGE_PAGE || z->code > z->raw || !z->code_size || z->code_size > z->raw - z->code)
		return "the packed image's code range is not inside it";
	if (z->entry < z->code || z->entry - z->code >= z->code_size)
		return "the packed image's entry point is not in its code";
	return 0;
}

const char *zimage_unpack(uint8_t *dst, const struct zimage *z)
{
	if (unc_unpack(dst, z->raw, z->stream, z->packed) != z->raw)
		return "the packed image's stream is corrupt";
	zimage_filter(dst, z->code, z->code + z->code_size, 0);
	for (uint32_t at = z->raw; at < z->memory; at++)
		dst[at] = 0;
	if (crc32_ieee(dst, z->raw) != z->crc)
		return "the packed image does not match its CRC";
	return 0;
}

/* A displacement d of the instruction ending at next, from -2^24 to
 * 2^24 - 1: to the address, or back, modulo 2^25. */
static void convert(uint8_t *p, uint32_t next, int encode)
{
	uint32_t d = get32(p);

	if ((d + 0x1000000u) & 0xfe000000u)
		return;
	d = encode ? d + next : d - next;
	put32(p, ((d + 0x1000000u) & 0x1ffffffu) - 0x1000000u);
}

void zimage_filter(uint8_t *p, uint32_t from, uint32_t to, int encode)
{
	for (uint32_t i = from; i + 5 <= to;) {
		if (p[i] == 0xe8 || p[i] == 0xe9) {
			convert(p + i + 1, i + 5, encode);
			i += 5;
		} else if (i + 7 <= to && (p[i] & 0xfb) == 0x48 && (p[i + 1] == 0x8d || p[i + 1] == 0x8b) &&
			   (p[i + 2] & 0xc7) == 0x05) {
			convert(p + i + 3, i + 7, encode);
			i += 7;
		} else {
			i++;
		}
	}
}

void zimage_header(uint8_t *out, const struct zimage *z)
{
	out[0] = 'U', out[1] = 'N', out[2] = 'C', out[3] = 'Z';
	put32(out + 4, z->packed);
	put32(out + 8, z->raw);
	put32(out + 12, z->memory);
	put32(out + 16, z->entry);
	put32(out + 20, z->code);
	put32(out + 24, z->code_size);
	put32(out + 28, z->crc);
}
