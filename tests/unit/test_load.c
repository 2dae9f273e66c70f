/* The load kernels: results checked like STREAM's checker, bytes counted
 * exactly, non-temporal variants equal to the plain ones. */
#include <stdlib.h>
#include <string.h>

#include "../../drivers/engine/load.h"
#include "t.h"

#define N 10002

static double *A, *B, *C;

static void arrays(struct load_arrays *x)
{
	for (size_t i = 0; i < N; i++) {
		A[i] = -1.0;
		B[i] = (double)i;
		C[i] = 2.0 * (double)i;
	}
	*x = (struct load_arrays){ A, B, C, N };
}

static void kernels_compute_stream_results(void)
{
	struct load_arrays x;

	for (int nt = 0; nt < 2; nt++) {
		arrays(&x);
		T_EQ(load_pass(LOAD_WRITE, nt, &x, 0, N), 8ull * N);
		for (size_t i = 0; i < N; i++)
			if (A[i] != LOAD_SCALAR)
				t_fail(__FILE__, __LINE__, "write%s: a[%zu] = %g", nt ? " nt" : "", i, A[i]);
		arrays(&x);
		T_EQ(load_pass(LOAD_COPY, nt, &x, 0, N), 16ull * N);
		T_EQ(memcmp(A, B, N * sizeof(double)), 0);
		arrays(&x);
		T_EQ(load_pass(LOAD_TRIAD, nt, &x, 0, N), 24ull * N);
		for (size_t i = 0; i < N; i++)
			if (A[i] != 7.0 * (double)i) /* b + 3c = i + 6i, exact in double */
				t_fail(__FILE__, __LINE__, "triad%s: a[%zu] = %g, want %g", nt ? " nt" : "", i, A[i],
				       7.0 * (double)i);
		arrays(&x);
		T_EQ(load_pass(LOAD_READ, nt, &x, 0, N), 8ull * N);
		T_EQ(load_sink == (double)N * (N - 1) / 2, 1); /* the sum of b */
		T_ASSERT(A[0] == -1.0);                             /* read writes nothing */
	}
}

static void partial_ranges_and_byte_accounting(void)
{
	struct load_arrays x;

	arrays(&x);
	T_EQ(load_pass(LOAD_COPY, false, &x, 100, 200), 1600);
	T_ASSERT(A[99] == -1.0);
	T_ASSERT(A[100] == 100.0);
	T_ASSERT(A[199] == 199.0);
	T_ASSERT(A[200] == -1.0);
	T_EQ(load_pass(LOAD_TRIAD, true, &x, 5000, N + 500), 24ull * (N - 5000)); /* clipped at n */
	T_EQ(load_pass(LOAD_READ, false, &x, 7, 7), 0);
	T_EQ(load_pass(LOAD_NKINDS, false, &x, 0, N), 0);
	static const unsigned want[] = { 8, 8, 16, 24 };
	for (int k = 0; k < LOAD_NKINDS; k++)
		T_EQ(load_bytes_per_element((enum load_kind)k), want[k]);
	T_EQ(load_kind_parse("Triad"), LOAD_TRIAD);
	T_EQ(load_kind_parse("scale"), -1);
	T_STREQ(load_kind_name(LOAD_COPY), "copy");
}

/* Every path of every kernel: a head and a tail of any length (lo and hi
 * anywhere in a 64-byte line), ranges shorter than a line, and arrays whose
 * lines do not line up with each other's (a, b and c each offset by 0 to 7
 * doubles from the 64-byte boundary). Every element of [lo, hi) gets its
 * value, none outside it is written, and read sums exactly [lo, hi). */
static void any_range_and_alignment(void)
{
	enum { M = 72, FILL = M + 16 };

	for (int k = 0; k < LOAD_NKINDS; k++)
		for (int nt = 0; nt < 2; nt++)
			for (size_t oa = 0; oa < 8; oa++)
				for (size_t ob = 0; ob < 8; ob += 3)
					for (size_t lo = 0; lo < 18; lo++)
						for (size_t hi = lo; hi <= M + 4; hi += hi < lo + 20 ? 1 : 7) {
							size_t oc = (oa + ob + 5) % 8;
							for (size_t i = 0; i < FILL; i++) {
								A[i] = -1.0;
								B[i] = (double)i;
								C[i] = 2.0 * (double)i;
							}
							struct load_arrays x = { A + oa, B + ob, C + oc, M };
							size_t end = hi < M ? hi : M, n = end > lo ? end - lo : 0;
							load_sink = -1.0;
							uint64_t got = load_pass((enum load_kind)k, nt, &x, lo, hi);
							if (got != (uint64_t)n * load_bytes_per_element((enum load_kind)k)) {
								t_fail(__FILE__, __LINE__, "%s%s a+%zu b+%zu [%zu, %zu): %llu bytes",
								       load_kind_name((enum load_kind)k), nt ? " nt" : "", oa, ob, lo, hi,
								       (unsigned long long)got);
								return;
							}
							double sum = 0;
							for (size_t i = lo; i < end; i++)
								sum += x.b[i];
							if (k == LOAD_READ && load_sink != (n ? sum : -1.0)) {
								t_fail(__FILE__, __LINE__, "read b+%zu [%zu, %zu): sum %g, want %g", ob, lo,
								       hi, load_sink, sum);
								return;
							}
							for (size_t i = 0; i < FILL; i++) {
								size_t j = i - oa; /* a's index; huge below a */
								double want = -1.0;
								if (i >= oa && j >= lo && j < end)
									want = k == LOAD_WRITE  ? LOAD_SCALAR
									       : k == LOAD_COPY ? x.b[j]
									       : k == LOAD_TRIAD ? x.b[j] + LOAD_SCALAR * x.c[j]
												: -1.0;
								if (A[i] != want) {
									t_fail(__FILE__, __LINE__,
									       "%s%s a+%zu b+%zu c+%zu [%zu, %zu): A[%zu] = %g, want %g",
									       load_kind_name((enum load_kind)k), nt ? " nt" : "", oa, ob, oc,
									       lo, hi, i, A[i], want);
									return;
								}
							}
						}
}

/* The working set is never smaller than asked: 64 MiB over three arrays of
 * doubles is 2796202.67 elements each, which must round up, not down. */
static void working_set_is_at_least_the_size_asked(void)
{
	T_EQ(load_elements(0, 8 << 20), 2796204);                /* default: 64 MiB floor */
	T_EQ(load_elements(64ull << 20, 0), 2796204);
	T_EQ(load_elements(0, 32 << 20), 5592406);               /* default: 4 x a 32 MiB cache */
	T_EQ(load_elements(24, 0), 2);
	T_EQ(load_elements(25, 0), 2);                           /* 2 elements = 48 bytes */
	T_EQ(load_elements(49, 0), 4);                           /* 3 rounds up to even */
	for (uint64_t mib = 1; mib <= 65536; mib = mib * 3 + 1) {
		uint64_t n = load_elements(mib << 20, 0), size = 3 * sizeof(double) * n;
		T_ASSERT(n % 2 == 0);
		T_ASSERT(size >= mib << 20);
		T_ASSERT(size < (mib << 20) + 2 * 3 * sizeof(double));
	}
}

int main(int argc, char **argv)
{
	static const struct t_case cases[] = { T_CASE(kernels_compute_stream_results),
					       T_CASE(partial_ranges_and_byte_accounting),
					       T_CASE(any_range_and_alignment),
					       T_CASE(working_set_is_at_least_the_size_asked) };
	size_t bytes = (N * sizeof(double) + 63) & ~(size_t)63; /* a multiple of the alignment */
	A = aligned_alloc(64, bytes);
	B = aligned_alloc(64, bytes);
	C = aligned_alloc(64, bytes);
	t_cmdline(argc, argv);
	int rc = t_main("load", cases, sizeof(cases) / sizeof(cases[0]));
	free(A);
	free(B);
	free(C);
	return rc;
}
