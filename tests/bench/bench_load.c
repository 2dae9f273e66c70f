/* The host half of `make bench` for the load kernels (drivers/engine/load.c, built
 * with the EFI build's flags): each kernel against the same kernel as a
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
 * Each pair of neighbouring blocks, run a millisecond apart, gives a ratio;
 * a kernel's figures are the median block of each side and the median of
 * its pairs' ratios, which blocks cut by a context switch do not move.
 * The first pass warms up and is not counted. GB/s count STREAM's bytes
 * (copy: 16 per element), 10^9 bytes/s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../drivers/engine/load.h"
#include "load_ref.h"

#define NTIMES       10 /* counted passes of each kernel, as STREAM */
#define BLOCK_CHUNKS 4  /* the application's chunks in a timed block */
#define BLOCK        ((size_t)LOAD_CHUNK * BLOCK_CHUNKS)

struct variant {
	enum load_kind kind;
	int nt;       /* the application's --nt */
	double *unc;  /* GB/s of the application's blocks */
	double *ref;  /* GB/s of the reference's blocks */
	double *pair; /* their ratio, pair by pair */
	size_t n, npair;
};

static struct variant v[] = {
	{ LOAD_READ, 0, 0, 0, 0, 0, 0 },  { LOAD_WRITE, 0, 0, 0, 0, 0, 0 }, { LOAD_WRITE, 1, 0, 0, 0, 0, 0 },
	{ LOAD_COPY, 0, 0, 0, 0, 0, 0 },  { LOAD_COPY, 1, 0, 0, 0, 0, 0 },  { LOAD_TRIAD, 0, 0, 0, 0, 0, 0 },
	{ LOAD_TRIAD, 1, 0, 0, 0, 0, 0 },
};
#define NV (sizeof(v) / sizeof(v[0]))

static struct load_arrays arr;

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
	arr = (struct load_arrays){ aligned_alloc(64, bytes), aligned_alloc(64, bytes), aligned_alloc(64, bytes), n };
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
		for (int r = 0; r <= NTIMES; r++)
			pass(&v[k], r % 2, r > 0);

	printf("load kernels, 1 thread: %zu MiB working set (3 arrays of %zu doubles; last-level cache %ld KiB), "
	       "%d passes each\n",
	       mib, n, llc > 0 ? llc >> 10 : -1L, NTIMES);
	printf("  uncore: drivers/engine/load.c as the EFI build compiles it, %d elements per call; reference: a plain C loop, "
	       "gcc -O3 -march=native -fopenmp, a team of 1\n",
	       LOAD_CHUNK);
	printf("  the two take turns on neighbouring blocks of %zu MiB per array: median block of each, median of the "
	       "%zu pairs' ratios;\n  GB/s = 10^9 bytes/s, STREAM's bytes; (nt) rows against the reference loop, "
	       "whose stores go through the cache\n",
	       BLOCK * sizeof(double) >> 20, v[0].npair);
	printf("%-12s %12s %15s %7s\n", "kernel", "uncore GB/s", "reference GB/s", "ratio");
	for (size_t k = 0; k < NV; k++) {
		char name[24];
		snprintf(name, sizeof(name), "%s%s", load_kind_name(v[k].kind), v[k].nt ? " (nt)" : "");
		printf("%-12s %12.2f %15.2f %7.2f\n", name, median(v[k].unc, v[k].n), median(v[k].ref, v[k].n),
		       median(v[k].pair, v[k].npair));
		free(v[k].unc);
		free(v[k].ref);
		free(v[k].pair);
	}
	free(arr.a);
	free(arr.b);
	free(arr.c);
	return 0;
}
