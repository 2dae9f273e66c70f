/* The load kernels: results checked like STREAM's checker, bytes counted
 * exactly, non-temporal variants equal to the plain ones, on every path this
 * processor can run (SSE2, rep stosq, AVX); which path load_choose allows,
 * from CPUID and XCR0. */
#include <stdio.h>
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
	*x = (struct load_arrays){ A, B, C, N, 0 };
}

/* The paths this processor runs: SSE2 always, rep stosq (any x86-64 runs
 * it; ERMS only says it is fast), AVX where it and the OS allow it. */
static unsigned hows[3], nhows;

static void find_hows(void)
{
	hows[nhows++] = 0;
	hows[nhows++] = LOAD_ERMS;
	if (__builtin_cpu_supports("avx"))
		hows[nhows++] = LOAD_AVX;
	else
		printf("# this processor has no AVX: its kernels are not run here\n");
}

static void stream_results(unsigned how)
{
	struct load_arrays x;

	for (int nt = 0; nt < 2; nt++) {
		arrays(&x);
		x.how = how;
		T_EQ(load_pass(LOAD_WRITE, nt, &x, 0, N), 8ull * N);
		for (size_t i = 0; i < N; i++)
			if (A[i] != LOAD_SCALAR)
				t_fail(__FILE__, __LINE__, "write%s: a[%zu] = %g", nt ? " nt" : "", i, A[i]);
		arrays(&x);
		x.how = how;
		T_EQ(load_pass(LOAD_COPY, nt, &x, 0, N), 16ull * N);
		T_EQ(memcmp(A, B, N * sizeof(double)), 0);
		arrays(&x);
		x.how = how;
		T_EQ(load_pass(LOAD_TRIAD, nt, &x, 0, N), 24ull * N);
		for (size_t i = 0; i < N; i++)
			if (A[i] != 7.0 * (double)i) /* b + 3c = i + 6i, exact in double */
				t_fail(__FILE__, __LINE__, "triad%s: a[%zu] = %g, want %g", nt ? " nt" : "", i, A[i],
				       7.0 * (double)i);
		arrays(&x);
		x.how = how;
		T_EQ(load_pass(LOAD_READ, nt, &x, 0, N), 8ull * N);
		T_EQ(load_sink == (double)N * (N - 1) / 2, 1); /* the sum of b */
		T_ASSERT(A[0] == -1.0);                             /* read writes nothing */
	}
}

static void kernels_compute_stream_results(void)
{
	for (unsigned h = 0; h < nhows && !t_failed(); h++) {
		stream_results(hows[h]);
		if (t_failed())
			t_fail(__FILE__, __LINE__, "on the %s path", load_how_name(hows[h]));
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
static void ranges_and_alignment(unsigned how)
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
							struct load_arrays x = { A + oa, B + ob, C + oc, M, how };
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

static void any_range_and_alignment(void)
{
	for (unsigned h = 0; h < nhows && !t_failed(); h++) {
		ranges_and_alignment(hows[h]);
		if (t_failed())
			t_fail(__FILE__, __LINE__, "on the %s path", load_how_name(hows[h]));
	}
}

/* load_choose against CPUID leaves given here: AVX only with CPUID's AVX and
 * OSXSAVE and XCR0's SSE and AVX state; XCR0 read only when OSXSAVE says
 * XGETBV is there; ERMS from leaf 7, asked only when leaf 0 says it exists. */
static struct cpuid_regs leaf0, leaf1, leaf7;
static uint64_t xcr0_value;
static unsigned xcr0_reads, leaf7_reads;

static void given_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	(void)ctx;
	(void)subleaf;
	*r = leaf == 0 ? leaf0 : leaf == 1 ? leaf1 : leaf == 7 ? (leaf7_reads++, leaf7) : (struct cpuid_regs){ 0 };
}

static uint64_t given_xcr0(void)
{
	xcr0_reads++;
	return xcr0_value;
}

static void choice_follows_cpuid_and_xcr0(void)
{
	static const struct hw_ops ops = { .cpuid = given_cpuid };
	const struct hw hw = { .ops = &ops };
	static const struct {
		uint32_t max, ecx1, ebx7;
		uint64_t xcr0;
		unsigned want, reads;
	} c[] = {
		{ 7, 1u << 27 | 1u << 28, 1u << 9, 7, LOAD_AVX | LOAD_ERMS, 1 }, /* AVX, OSXSAVE, x87+SSE+AVX state */
		{ 7, 1u << 28, 1u << 9, 7, LOAD_ERMS, 0 },         /* no OSXSAVE: XGETBV would #UD, not run */
		{ 7, 1u << 27, 0, 7, 0, 0 },                      /* OSXSAVE, no AVX: XCR0 not read */
		{ 7, 1u << 27 | 1u << 28, 0, 3, 0, 1 },           /* the AVX state not enabled */
		{ 7, 1u << 27 | 1u << 28, 0, 5, 0, 1 },           /* nor the SSE state */
		{ 6, 1u << 27 | 1u << 28, 1u << 9, 7, LOAD_AVX, 1 }, /* no leaf 7: ERMS not asked */
		{ 0, 1u << 27 | 1u << 28, 1u << 9, 7, 0, 0 },     /* not even leaf 1 */
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		leaf0 = (struct cpuid_regs){ .eax = c[i].max };
		leaf1 = (struct cpuid_regs){ .ecx = c[i].ecx1 };
		leaf7 = (struct cpuid_regs){ .ebx = c[i].ebx7 };
		xcr0_value = c[i].xcr0;
		xcr0_reads = leaf7_reads = 0;
		T_EQ(load_choose(&hw, given_xcr0), c[i].want);
		T_EQ(xcr0_reads, c[i].reads);
		T_EQ(leaf7_reads, c[i].max >= 7);
	}
	T_STREQ(load_how_name(0), "SSE2");
	T_STREQ(load_how_name(LOAD_ERMS), "SSE2, rep stosq");
	T_STREQ(load_how_name(LOAD_AVX | LOAD_ERMS), "AVX");
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
					       T_CASE(working_set_is_at_least_the_size_asked),
					       T_CASE(choice_follows_cpuid_and_xcr0) };
	find_hows();
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
