#include "arith.h"

uint64_t u64_muldiv(uint64_t a, uint64_t b, uint64_t d)
{
	/* The 128-bit product is inline code; the division is done here by
	 * shift and subtract, since __udivti3 is not available. */
	unsigned __int128 n = (unsigned __int128)a * b, q = 0, r = 0;

	if (d == 0)
		return UINT64_MAX;
	if ((n >> 64) == 0)
		return (uint64_t)n / d;
	for (int i = 127; i >= 0; i--) {
		r = r << 1 | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= (unsigned __int128)1 << i;
		}
	}
	return (q >> 64) ? UINT64_MAX : (uint64_t)q;
}
