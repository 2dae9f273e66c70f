#include "arith.h"

uint64_t u64_muldiv(uint64_t a, uint64_t b, uint64_t d)
{
	unsigned __int128 n = (unsigned __int128)a * b;
	uint64_t hi = (uint64_t)(n >> 64), lo = (uint64_t)n;

	if (d == 0)
		return UINT64_MAX;
	if (hi == 0)
		return lo / d;
	if (hi >= d)
		return UINT64_MAX; /* the quotient needs more than 64 bits */
#if defined(__x86_64__)
	/* 128 by 64 bits in one DIV (hi < d: the quotient fits, no #DE);
	 * __udivti3 is not available. */
	uint64_t q, r;
	__asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d) : "cc");
	(void)r;
	return q;
#else
	/* Shift and subtract. */
	unsigned __int128 q = 0, rem = 0;
	for (int i = 127; i >= 0; i--) {
		rem = rem << 1 | ((n >> i) & 1);
		if (rem >= d) {
			rem -= d;
			q |= (unsigned __int128)1 << i;
		}
	}
	return (uint64_t)q;
#endif
}
