/* The packed stream's decoder (the format: drivers/base/unpack.h). */
#include "unpack.h"

/* A count of 15 continued by bytes added to it, up to the first below 255. */
static int more(const uint8_t **src, const uint8_t *end, size_t *count)
{
	uint8_t b;

	do {
		if (*src == end)
			return -1;
		b = *(*src)++;
		*count += b;
	} while (b == 255);
	return 0;
}

size_t unc_unpack(uint8_t *dst, size_t cap, const uint8_t *src, size_t n)
{
	const uint8_t *end = src + n;
	size_t at = 0;

	while (src < end) {
		unsigned token = *src++;
		size_t lit = token >> 4, len = (token & 15) + UNC_PACK_MIN_MATCH;
		if (lit == 15 && more(&src, end, &lit))
			return 0;
		if (lit > (size_t)(end - src) || lit > cap - at)
			return 0;
		while (lit--)
			dst[at++] = *src++;
		if (src == end)
			break;
		if (end - src < 2)
			return 0;
		size_t back = src[0] | (size_t)src[1] << 8;
		src += 2;
		if ((token & 15) == 15 && more(&src, end, &len))
			return 0;
		if (!back || back > at || len > cap - at)
			return 0;
		for (; len; len--, at++)
			dst[at] = dst[at - back];
	}
	return at;
}
