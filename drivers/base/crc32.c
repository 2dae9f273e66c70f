#include "crc32.h"

/* Four bits at a time: NIBBLE[i] is what four steps of the bitwise
 * division (shift right, XOR the reflected polynomial if the bit out was
 * 1) make of the low four bits i, so that one lookup does four steps. */
static const uint32_t NIBBLE[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t crc32_ieee(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t crc = 0xFFFFFFFFu;

	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ NIBBLE[crc & 15];
		crc = (crc >> 4) ^ NIBBLE[crc & 15];
	}
	return ~crc;
}
