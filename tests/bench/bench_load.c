/* The host half of `make bench` for the load kernels (build/efi/drivers/engine/load.o,
 * the very object uncore.efi links): each kernel against the same kernel as a
 * plain C loop built the way STREAM is built (load_ref.c: gcc -O3
 * -march=native -fopenmp), one thread each, on the same arrays.
 *
 * The application runs a kernel on each processor over a slice of its own,
 * LOAD_CHUNK elements per call; with --cpus N that is N such threads side by
 * side. So the figure that is the load's own is one thread's, compared here
 * with one thread of the reference (an OpenMP team of one).
 *
 * Fairness: the same arrays, the same sizes (each array at least 4x the
 * last-level cache, STREAM's rule), the same number of passes, and the two
 * take turns so that a busy host slows them alike: a pass walks the arrays
 * in blocks of LOAD_CHUNK * BLOCK_CHUNKS elements, the application's kernel
 * and the reference loop on alternate blocks (which of them starts
 * alternates from pass to pass, so each runs every block equally often).
 * Each block is timed by CLOCK_MONOTONIC (the TSC here) read at both ends.
 * Each pair of neighbouring blocks, run a millisecond apart, gives a ratio.
 * The kernels take turns too: RUNS runs, each of every kernel in turn, NTIMES
 * passes each. A run's figures for a kernel are the median block of each side
 * and the median of its pairs' ratios, which blocks cut by a context switch
 * do not move; the figures printed are the median of the RUNS runs, with the
 * lowest and highest run's ratio beside (a host busy with other work moves
 * whole runs). One pass of each kernel first warms up and is not counted.
 * GB/s count STREAM's bytes (copy: 16 per element), 10^9 bytes/s. */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../drivers/engine/load.h"
#include "load_ref.h"

#define RUNS         5 /* runs, the kernels in turn in each */
#define NTIMES       2 /* counted passes of each kernel per run: 10 in all, as STREAM */
#define BLOCK_CHUNKS 4  /* the application's chunks in a timed block */
#define BLOCK        ((size_t)LOAD_CHUNK * BLOCK_CHUNKS)

struct variant {
	enum load_kind kind;
	int nt;       /* the application's --nt */
	double *unc;  /* GB/s of the application's blocks, this run */
	double *ref;  /* GB/s of the reference's blocks, this run */
	double *pair; /* their ratio, pair by pair, this run */
	size_t n, npair;
	double run_unc[RUNS], run_ref[RUNS], run_ratio[RUNS]; /* each run's medians */
};

static struct variant v[] = {
	{ .kind = LOAD_READ },	{ .kind = LOAD_WRITE }, { .kind = LOAD_WRITE, .nt = 1 }, { .kind = LOAD_COPY },
	{ .kind = LOAD_COPY, .nt = 1 }, { .kind = LOAD_TRIAD }, { .kind = LOAD_TRIAD, .nt = 1 },
};
#define NV (sizeof(v) / sizeof(v[0]))

static struct load_arrays arr;

/* The kernels the application would choose on this processor (load_choose),
 * from its CPUID and XCR0 as uncore.efi reads them. */
static void host_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	(void)ctx;
	__cpuid_count(leaf, subleaf, r->eax, r->ebx, r->ecx, r->edx);
}

static uint64_t host_xcr0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Elements [lo, hi): the application's kernel chunk by chunk, as its
 * processors run it, or the reference loop at once. */
static void block(const struct variant *x, bool ref, size_t lo, size_t hi)
{
	if (!ref) {
		for (size_t at = lo; at < hi; at += LOAD_CHUNK)
			load_pass(x->kind, x->nt, &arr, at, at + LOAD_CHUNK < hi ? at + LOAD_CHUNK : hi);
		return;
	}
	switch (x->kind) {
	case LOAD_READ:
		ref_read(arr.b + lo, hi - lo, 1);
		break;
	case LOAD_WRITE:
		ref_write(arr.a + lo, hi - lo, 1);
		break;
	case LOAD_COPY:
		ref_copy(arr.a + lo, arr.b + lo, hi - lo, 1);
		break;
	default:
		ref_triad(arr.a + lo, arr.b + lo, arr.c + lo, hi - lo, 1);
		break;
	}
}

/* One pass over whole pairs of blocks; the reference runs the first block
 * of each pair when ref_first. */
static void pass(struct variant *x, bool ref_first, bool counted)
{
	double bytes = (double)BLOCK * load_bytes_per_element(x->kind);

	for (size_t lo = 0; lo + 2 * BLOCK <= arr.n; lo += 2 * BLOCK) {
		double t0 = now();
		block(x, ref_first, lo, lo + BLOCK);
		double t1 = now();
		block(x, !ref_first, lo + BLOCK, lo + 2 * BLOCK);
		double t2 = now();
		double first = bytes / (t1 - t0) / 1e9, second = bytes / (t2 - t1) / 1e9;
		double u = ref_first ? second : first, r = ref_first ? first : second;
		if (counted) {
			x->unc[x->n] = u;
			x->ref[x->n++] = r;
			x->pair[x->npair++] = u / r;
		}
	}
}

static int cmp_double(const void *p, const void *q)
{
	double a = *(const double *)p, b = *(const double *)q;

	return a < b ? -1 : a > b;
}

static double median(double *d, size_t n)
{
	qsort(d, n, sizeof(double), cmp_double);
	return n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	/* STREAM's rule: each array at least 4x the last-level cache. */
	long llc = sysconf(_SC_LEVEL3_CACHE_SIZE) > 0 ? sysconf(_SC_LEVEL3_CACHE_SIZE) : sysconf(_SC_LEVEL2_CACHE_SIZE);
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : (size_t)(llc > 0 ? 3 * 4 * llc : 0) >> 20;
	if (mib < 256)
		mib = 256;
	size_t n = (mib << 20) / 3 / sizeof(double) & ~(size_t)7;
	size_t bytes = (n * sizeof(double) + 63) & ~(size_t)63;
	static const struct hw_ops cpuid_ops = { .cpuid = host_cpuid };
	arr = (struct load_arrays){ aligned_alloc(64, bytes), aligned_alloc(64, bytes), aligned_alloc(64, bytes), n,
				    load_choose(&(struct hw){ .ops = &cpuid_ops }, host_xcr0) };
	if (!arr.a || !arr.b || !arr.c) {
		fprintf(stderr, "bench_load: cannot allocate 3 arrays of %zu bytes\n", bytes);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		arr.a[i] = 1.0, arr.b[i] = 2.0, arr.c[i] = 0.5;
	size_t npairs = n / (2 * BLOCK);
	if (!npairs) {
		fprintf(stderr, "bench_load: %zu elements are less than two blocks of %zu\n", n, BLOCK);
		return 1;
	}
	for (size_t k = 0; k < NV; k++) {
		v[k].unc = malloc(NTIMES * npairs * sizeof(double));
		v[k].ref = malloc(NTIMES * npairs * sizeof(double));
		v[k].pair = malloc(NTIMES * npairs * sizeof(double));
		if (!v[k].unc || !v[k].ref || !v[k].pair)
			return 1;
	}
	for (size_t k = 0; k < NV; k++)
		pass(&v[k], false, false);
	for (int run = 0; run < RUNS; run++)
		for (size_t k = 0; k < NV; k++) {
			v[k].n = v[k].npair = 0;
			for (int r = 0; r < NTIMES; r++)
				pass(&v[k], (run + r) % 2, true);
			v[k].run_unc[run] = median(v[k].unc, v[k].n);
			v[k].run_ref[run] = median(v[k].ref, v[k].n);
			v[k].run_ratio[run] = median(v[k].pair, v[k].npair);
		}

	printf("load kernels, 1 thread: %zu MiB working set (3 arrays of %zu doubles; last-level cache %ld KiB), "
	       "%d runs of %d passes each\n",
	       mib, n, llc > 0 ? llc >> 10 : -1L, RUNS, NTIMES);
	printf("  uncore: build/efi/drivers/engine/load.o (what uncore.efi links), %d elements per call, here %s;\n"
	       "  reference: a plain C loop, gcc -O3 -march=native -fopenmp, a team of 1\n",
	       LOAD_CHUNK, load_how_name(arr.how));
	printf("  the two take turns on neighbouring blocks of %zu MiB per array: median block of each, median of the "
	       "%zu pairs' ratios;\n  the kernels take turns run by run: the median of the %d runs, and their lowest "
	       "and highest ratio;\n  GB/s = 10^9 bytes/s, STREAM's bytes; (nt) rows against the reference loop, "
	       "whose stores go through the cache\n",
	       BLOCK * sizeof(double) >> 20, v[0].npair, RUNS);
	printf("%-12s %12s %15s %7s %13s\n", "kernel", "uncore GB/s", "reference GB/s", "ratio", "runs' range");
	for (size_t k = 0; k < NV; k++) {
		char name[24];
		snprintf(name, sizeof(name), "%s%s", load_kind_name(v[k].kind), v[k].nt ? " (nt)" : "");
		double unc = median(v[k].run_unc, RUNS), ref = median(v[k].run_ref, RUNS);
		double ratio = median(v[k].run_ratio, RUNS); /* sorts run_ratio */
		printf("%-12s %12.2f %15.2f %7.2f %6.2f-%.2f\n", name, unc, ref, ratio, v[k].run_ratio[0],
		       v[k].run_ratio[RUNS - 1]);
		free(v[k].unc);
		free(v[k].ref);
		free(v[k].pair);
	}
	free(arr.a);
	free(arr.b);
	free(arr.c);
	return 0;
}
