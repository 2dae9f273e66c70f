#ifndef UNC_CRC32_H
#define UNC_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as zlib computes it. */
uint32_t crc32_ieee(const void *data, size_t len);

#endif
