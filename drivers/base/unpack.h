#ifndef UNC_UNPACK_H
#define UNC_UNPACK_H

#include <stddef.h>
#include <stdint.h>

/* uncore.efi stores its .data section packed (tools/pack.c) and unpacks it
 * at start, before relocating (efi/reloc.c): the tables and texts in it
 * take about 40% of their size in the file.
 *
 * The packed stream is a run of sequences, each:
 *   - a token byte: literal count L in its high 4 bits, match length M - 4
 *     in its low 4 bits;
 *   - when L is 15, more bytes added to it, up to and including the first
 *     that is not 255;
 *   - L literal bytes, copied to the output;
 *   - unless the stream ends here (the last sequence has literals only):
 *     the match offset D, 2 bytes little-endian, 1 to 65535;
 *   - when M - 4 is 15, more bytes added to it as for L;
 *   - then M bytes copied from D bytes back in the output, one at a time
 *     (a match may overlap what it writes: a run of one byte is D = 1).
 *
 * In the image, the section .zdata holds the packed size (4 bytes, little
 * endian; 0: nothing packed, .data was loaded as it is), the unpacked size
 * (4 bytes) and the stream. */
#define UNC_PACK_MIN_MATCH 4
#define UNC_PACK_MAX_OFFSET 65535u

/* Unpacks the n bytes at src into dst (room for cap bytes): the number of
 * bytes written, or 0 for a stream that is malformed, runs past src + n,
 * refers back before dst or does not fit in cap. Uses no pointer that
 * needs relocating: it runs before the image's relocations are applied. */
size_t unc_unpack(uint8_t *dst, size_t cap, const uint8_t *src, size_t n);

#endif
