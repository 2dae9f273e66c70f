#include "load.h"

#include <immintrin.h>

#include "../base/parse.h"

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

/* CPUID.1:ECX bit 27 OSXSAVE (the firmware set CR4.OSXSAVE: XGETBV is
 * there), bit 28 AVX; XCR0 bits 1 and 2, the SSE and AVX state (SDM vol. 1,
 * 13.2 and 14.3); CPUID.7.0:EBX bit 9, ERMS (SDM vol. 1, 7.3.9.3). */
unsigned load_choose(const struct hw *hw, uint64_t (*xcr0)(void))
{
	struct cpuid_regs r = { 0 };
	unsigned how = 0;

	hw_cpuid(hw, 0, 0, &r);
	uint32_t max = r.eax;
	if (max >= 1) {
		hw_cpuid(hw, 1, 0, &r);
		if ((r.ecx >> 27 & 1) && (r.ecx >> 28 & 1) && xcr0 && (xcr0() & 6) == 6)
			how |= LOAD_AVX;
	}
	if (max >= 7) {
		hw_cpuid(hw, 7, 0, &r);
		if (r.ebx >> 9 & 1)
			how |= LOAD_ERMS;
	}
	return how;
}

const char *load_how_name(unsigned how)
{
	static const char *const name[] = { "SSE2", "AVX", "SSE2, rep stosq", "AVX" };

	return name[how & 3];
}

uint64_t load_elements(uint64_t size, uint64_t llc_bytes)
{
	const uint64_t per = 3 * sizeof(double);

	if (!size)
		size = llc_bytes > LOAD_MIN_DEFAULT / 4 ? 4 * llc_bytes : LOAD_MIN_DEFAULT;
	uint64_t n = size / per + (size % per != 0);
	return n + (n & 1);
}

/* The kernels go a 64-byte line at a time: a scalar head up to the line of
 * a (the array stored to; b for read) where the element lo falls, whole
 * lines with SSE2 (every x86-64 processor has it; UEFI hands an x64 image
 * the SSE state initialised, spec 2.3.4), then a scalar tail. Beside
 * non-temporal stores (copy --nt, triad --nt) each line read asks for the
 * line AHEAD bytes further on (prefetcht0, a hint, which never faults): the
 * hardware prefetchers follow the streams too, but one thread keeps more
 * misses in flight with it. The other kernels ask for nothing: on an AMD
 * EPYC asking for the lines read or written (prefetcht0 or prefetchw) made
 * read 0.96-1.01x and write, copy and triad 0.9-0.95x of the plain loops'
 * rate, against 1.0-1.06x without (`make bench`, tests/bench/README.md).
 * Without nt the stores go through the cache (the line written is first
 * read, as STREAM's are); with nt every store is non-temporal, whole lines
 * in movntpd and the head and tail in movnti, so no alignment is asked of
 * the arrays beyond a double's.
 *
 * write, the one kernel that stores alone, stores a line an iteration in two
 * 32-byte stores where load_choose allows AVX (with nt, 16-byte
 * non-temporal stores wrote at 0.7x of the plain loop's rate on the same
 * EPYC, 32-byte ones at 1.0x or more), else, through the cache, with rep
 * stosq where the processor says its fast strings are (ERMS). */
#define LINE  8 /* doubles in a 64-byte line */
#define AHEAD 512

static inline void ahead(const double *p)
{
	_mm_prefetch((const char *)((uintptr_t)p + AHEAD), _MM_HINT_T0);
}

static inline bool in_line(const double *p)
{
	return ((uintptr_t)p & 63) != 0;
}

static inline void stream1(double *p, double v)
{
	union {
		double d;
		long long i;
	} u = { v };
	_mm_stream_si64((long long *)p, u.i);
}

static void read_pass(const double *restrict b, size_t i, size_t hi)
{
	__m128d s0 = _mm_setzero_pd(), s1 = s0, s2 = s0, s3 = s0; /* four chains, so the adds overlap */
	double t = 0, u[2];

	for (; i < hi && in_line(b + i); i++)
		t += b[i];
	for (; i + LINE <= hi; i += LINE) {
		s0 = _mm_add_pd(s0, _mm_load_pd(b + i));
		s1 = _mm_add_pd(s1, _mm_load_pd(b + i + 2));
		s2 = _mm_add_pd(s2, _mm_load_pd(b + i + 4));
		s3 = _mm_add_pd(s3, _mm_load_pd(b + i + 6));
	}
	for (; i < hi; i++)
		t += b[i];
	_mm_storeu_pd(u, _mm_add_pd(_mm_add_pd(s0, s1), _mm_add_pd(s2, s3)));
	load_sink = t + u[0] + u[1];
}

/* write's whole lines, [i, end) from a line's start, a line per iteration:
 * two 32-byte stores in AVX, four 16-byte ones in SSE2. With nt the line's
 * stores follow each other, so that its write-combining buffer fills whole
 * and goes out at once. */
__attribute__((target("avx"))) static void write_lines_avx(double *restrict a, bool nt, size_t i, size_t end)
{
	const __m256d v = _mm256_set1_pd(LOAD_SCALAR);

	if (nt)
		for (; i < end; i += LINE) {
			_mm256_stream_pd(a + i, v);
			_mm256_stream_pd(a + i + 4, v);
		}
	else
		for (; i < end; i += LINE) {
			_mm256_store_pd(a + i, v);
			_mm256_store_pd(a + i + 4, v);
		}
}

static void write_lines_sse2(double *restrict a, bool nt, size_t i, size_t end)
{
	const __m128d v = _mm_set1_pd(LOAD_SCALAR);

	if (nt)
		for (; i < end; i += LINE)
			for (int k = 0; k < LINE; k += 2)
				_mm_stream_pd(a + i + k, v);
	else
		for (; i < end; i += LINE)
			for (int k = 0; k < LINE; k += 2)
				_mm_store_pd(a + i + k, v);
}

static void write_pass(double *restrict a, bool nt, unsigned how, size_t i, size_t hi)
{
	if (!nt && !(how & LOAD_AVX) && (how & LOAD_ERMS)) {
		union {
			double d;
			uint64_t u;
		} s = { LOAD_SCALAR };
		double *p = a + i;
		size_t n = hi - i;
		__asm__ volatile("rep stosq" : "+D"(p), "+c"(n) : "a"(s.u) : "memory");
		return;
	}
	for (; i < hi && in_line(a + i); i++)
		nt ? stream1(a + i, LOAD_SCALAR) : (void)(a[i] = LOAD_SCALAR);
	size_t end = i + (hi - i) / LINE * LINE;
	if (how & LOAD_AVX)
		write_lines_avx(a, nt, i, end);
	else
		write_lines_sse2(a, nt, i, end);
	for (i = end; i < hi; i++)
		nt ? stream1(a + i, LOAD_SCALAR) : (void)(a[i] = LOAD_SCALAR);
}

static void copy_pass(double *restrict a, const double *restrict b, bool nt, size_t i, size_t hi)
{
	if (nt) {
		for (; i < hi && in_line(a + i); i++)
			stream1(a + i, b[i]);
		for (; i + LINE <= hi; i += LINE) {
			ahead(b + i);
			for (int k = 0; k < LINE; k += 2)
				_mm_stream_pd(a + i + k, _mm_loadu_pd(b + i + k));
		}
		for (; i < hi; i++)
			stream1(a + i, b[i]);
		return;
	}
	for (; i < hi && in_line(a + i); i++)
		a[i] = b[i];
	for (; i + LINE <= hi; i += LINE)
		for (int k = 0; k < LINE; k += 2)
			_mm_store_pd(a + i + k, _mm_loadu_pd(b + i + k));
	for (; i < hi; i++)
		a[i] = b[i];
}

static void triad_pass(double *restrict a, const double *restrict b, const double *restrict c, bool nt, size_t i,
		       size_t hi)
{
	const __m128d s = _mm_set1_pd(LOAD_SCALAR);

	if (nt) {
		for (; i < hi && in_line(a + i); i++)
			stream1(a + i, b[i] + LOAD_SCALAR * c[i]);
		for (; i + LINE <= hi; i += LINE) {
			ahead(b + i);
			ahead(c + i);
			for (int k = 0; k < LINE; k += 2)
				_mm_stream_pd(a + i + k,
					      _mm_add_pd(_mm_loadu_pd(b + i + k), _mm_mul_pd(s, _mm_loadu_pd(c + i + k))));
		}
		for (; i < hi; i++)
			stream1(a + i, b[i] + LOAD_SCALAR * c[i]);
		return;
	}
	for (; i < hi && in_line(a + i); i++)
		a[i] = b[i] + LOAD_SCALAR * c[i];
	for (; i + LINE <= hi; i += LINE)
		for (int k = 0; k < LINE; k += 2)
			_mm_store_pd(a + i + k, _mm_add_pd(_mm_loadu_pd(b + i + k), _mm_mul_pd(s, _mm_loadu_pd(c + i + k))));
	for (; i < hi; i++)
		a[i] = b[i] + LOAD_SCALAR * c[i];
}

uint64_t load_pass(enum load_kind k, bool nt, const struct load_arrays *x, size_t lo, size_t hi)
{
	if (hi > x->n)
		hi = x->n;
	if (lo >= hi || k >= LOAD_NKINDS)
		return 0;
	switch (k) {
	case LOAD_READ:
		read_pass(x->b, lo, hi);
		break;
	case LOAD_WRITE:
		write_pass(x->a, nt, x->how, lo, hi);
		break;
	case LOAD_COPY:
		copy_pass(x->a, x->b, nt, lo, hi);
		break;
	default:
		triad_pass(x->a, x->b, x->c, nt, lo, hi);
		break;
	}
	if (nt && k != LOAD_READ)
		_mm_sfence(); /* streaming stores are weakly ordered */
	return (uint64_t)(hi - lo) * bytes[k];
}
