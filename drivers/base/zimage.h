#ifndef UNC_ZIMAGE_H
#define UNC_ZIMAGE_H

#include <stddef.h>
#include <stdint.h>

/* uncore.efi holds the application packed: a small image of its own
 * (efi/stub.c) carries the application's memory image as one packed blob,
 * unpacks it into pages it allocates and calls its entry point. The format
 * (efi/image.md tells the whole of it), all fields little endian:
 *
 *   0  "UNCZ"
 *   4  packed size: the bytes of the stream after the header
 *   8  raw size: the bytes the stream unpacks to (the image from its base,
 *      less the zero bytes at its end)
 *  12  memory size: the image's size in memory (raw size, then zeros),
 *      a multiple of 4096
 *  16  entry: the offset of the entry point, inside the code
 *  20  code offset (a multiple of 4096) and
 *  24  code size: the code's range, run through the branch filter below
 *      before packing; the pages it starts in are made executable
 *  28  CRC-32 (drivers/base/crc32.h) of the raw image
 *  32  the stream: raw DEFLATE (drivers/base/unpack.h)
 *
 * The branch filter makes the code pack better: the 32-bit displacement of
 * a relative call or jump (E8, E9) and of a RIP-relative LEA or MOV with a
 * 64-bit register (REX.W 8D or 8B, ModRM mod 00 r/m 101) becomes the
 * address it points to, so that calls to one function are the same bytes
 * wherever they are. A displacement is converted only from -2^24 to
 * 2^24 - 1, modulo 2^25, so that the conversion is one to one and the
 * decoder sees the same instructions the encoder saw. */

#define ZIMAGE_HEADER 32
#define ZIMAGE_PAGE 4096
/* The largest image in memory the format accepts (the filter needs under 16 MiB). */
#define ZIMAGE_MAX_MEMORY (16u << 20)

struct zimage {
	uint32_t packed, raw, memory, entry, code, code_size, crc;
	const uint8_t *stream;
};

/* Reads and checks the header of the n bytes at blob into z: NULL, or what
 * is wrong with it (a phrase for a one-line error). */
const char *zimage_parse(struct zimage *z, const uint8_t *blob, size_t n);

/* Unpacks the image z describes into dst (z->memory bytes): the stream,
 * the filter undone, zeros to the end; NULL, or what is wrong (a stream
 * that does not unpack to the raw size, a CRC that does not match). */
const char *zimage_unpack(uint8_t *dst, const struct zimage *z);

/* The branch filter over p[from..to) of an image (offsets from its base):
 * encode 1 turns displacements into addresses, 0 back. */
void zimage_filter(uint8_t *p, uint32_t from, uint32_t to, int encode);

/* Writes the header for z's fields (but stream) into out[0..ZIMAGE_HEADER). */
void zimage_header(uint8_t *out, const struct zimage *z);

#endif
