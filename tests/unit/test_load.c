/* The load kernels: results checked like STREAM's checker, bytes counted
 * exactly, non-temporal variants equal to the plain ones. */
#include <stdlib.h>
#include <string.h>

#include "../../drivers/load.h"
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

int main(void)
{
	static const struct t_case cases[] = { T_CASE(kernels_compute_stream_results),
					       T_CASE(partial_ranges_and_byte_accounting),
					       T_CASE(working_set_is_at_least_the_size_asked) };
	size_t bytes = (N * sizeof(double) + 63) & ~(size_t)63; /* a multiple of the alignment */
	A = aligned_alloc(64, bytes);
	B = aligned_alloc(64, bytes);
	C = aligned_alloc(64, bytes);
	int rc = t_main("load", cases, 3);
	free(A);
	free(B);
	free(C);
	return rc;
}
