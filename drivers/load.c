#include "load.h"

#include <emmintrin.h>

#include "parse.h"

volatile double load_sink;

static const char *const names[LOAD_NKINDS] = { "read", "write", "copy", "triad" };
static const unsigned bytes[LOAD_NKINDS] = { 8, 8, 16, 24 };

int load_kind_parse(const char *s)
{
	for (int k = 0; k < LOAD_NKINDS; k++)
		if (str_ieq(s, names[k]))
			return k;
	return -1;
}

const char *load_kind_name(enum load_kind k)
{
	return k < LOAD_NKINDS ? names[k] : "?";
}

unsigned load_bytes_per_element(enum load_kind k)
{
	return k < LOAD_NKINDS ? bytes[k] : 0;
}

uint64_t load_elements(uint64_t size, uint64_t llc_bytes)
{
	const uint64_t per = 3 * sizeof(double);

	if (!size)
		size = llc_bytes > LOAD_MIN_DEFAULT / 4 ? 4 * llc_bytes : LOAD_MIN_DEFAULT;
	uint64_t n = size / per + (size % per != 0);
	return n + (n & 1);
}

uint64_t load_pass(enum load_kind k, bool nt, const struct load_arrays *x, size_t lo, size_t hi)
{
	double *restrict a = x->a;
	const double *restrict b = x->b, *restrict c = x->c;

	if (hi > x->n)
		hi = x->n;
	if (lo >= hi)
		return 0;
	switch (k) {
	case LOAD_READ: {
		double s0 = 0, s1 = 0; /* two chains, so the adds overlap */
		size_t i = lo;
		for (; i + 1 < hi; i += 2) {
			s0 += b[i];
			s1 += b[i + 1];
		}
		if (i < hi)
			s0 += b[i];
		load_sink = s0 + s1;
		break;
	}
	case LOAD_WRITE:
		if (nt) {
			__m128d v = _mm_set1_pd(LOAD_SCALAR);
			for (size_t i = lo; i < hi; i += 2)
				_mm_stream_pd(a + i, v);
		} else {
			for (size_t i = lo; i < hi; i++)
				a[i] = LOAD_SCALAR;
		}
		break;
	case LOAD_COPY:
		if (nt) {
			for (size_t i = lo; i < hi; i += 2)
				_mm_stream_pd(a + i, _mm_load_pd(b + i));
		} else {
			for (size_t i = lo; i < hi; i++)
				a[i] = b[i];
		}
		break;
	case LOAD_TRIAD:
		if (nt) {
			__m128d s = _mm_set1_pd(LOAD_SCALAR);
			for (size_t i = lo; i < hi; i += 2)
				_mm_stream_pd(a + i, _mm_add_pd(_mm_load_pd(b + i), _mm_mul_pd(s, _mm_load_pd(c + i))));
		} else {
			for (size_t i = lo; i < hi; i++)
				a[i] = b[i] + LOAD_SCALAR * c[i];
		}
		break;
	default:
		return 0;
	}
	if (nt && k != LOAD_READ)
		_mm_sfence(); /* streaming stores are weakly ordered */
	return (uint64_t)(hi - lo) * bytes[k];
}
