#ifndef UNC_UNPACK_H
#define UNC_UNPACK_H

#include <stddef.h>
#include <stdint.h>

/* uncore.efi stores its .data section packed (tools/pack.c) and unpacks it
 * at start, before relocating (efi/reloc.c): the tables and texts in it
 * take about a third of their size in the file.
 *
 * The packed stream is a raw DEFLATE stream (RFC 1951: blocks stored, with
 * the fixed codes or with codes of their own; matches up to 32 KiB back)
 * with no zlib or gzip wrapper, as zlib's deflate writes it.
 *
 * In the image, the section .zdata holds the packed size (4 bytes, little
 * endian; 0: nothing packed, .data was loaded as it is), the unpacked size
 * (4 bytes) and the stream. */

/* Unpacks the n bytes at src into dst (room for cap bytes): the number of
 * bytes written, or 0 for a stream that is malformed, runs past src + n,
 * refers back before dst or does not fit in cap. Uses no pointer that
 * needs relocating and nothing in .data: it runs before the image's
 * relocations are applied and before .data is unpacked. It takes under
 * 4 KB of stack. */
size_t unc_unpack(uint8_t *dst, size_t cap, const uint8_t *src, size_t n);

#endif
