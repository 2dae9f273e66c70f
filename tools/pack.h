#ifndef UNC_PACK_H
#define UNC_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "../drivers/base/zimage.h"

/* The most bytes pack() writes for n bytes of input. */
size_t pack_bound(size_t n);
/* Packs in[0..n) into out (pack_bound(n) bytes) as drivers/base/unpack.h's stream:
 * the stream's size. */
size_t pack(uint8_t *out, const uint8_t *in, size_t n);

/* The application image img (z: its raw and memory sizes, entry and code
 * range) as drivers/base/zimage.h's blob into out (ZIMAGE_HEADER +
 * pack_bound(z->raw) bytes): sets z's CRC and packed size; the blob's size. */
size_t pack_zimage(uint8_t *out, const uint8_t *img, struct zimage *z);

#endif
