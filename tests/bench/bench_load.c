/* The host half of `make bench` for the load kernels (drivers/load.c, built
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
 * last-level cache, STREAM's rule), the same number of passes. The passes
 * of all variants are interleaved, each round starting with the next one, so
 * that a busy host slows them alike; the first round warms up and is not
 * counted. Each pass is timed in blocks of LOAD_CHUNK * BLOCK_CHUNKS elements
 * (CLOCK_MONOTONIC, the TSC here, read at both ends of each block); a
 * variant's figure is the median block, which a block cut by a context
 * switch does not move, and, as STREAM gives it, its best whole pass.
 * GB/s count STREAM's bytes (copy: 16 per element), 10^9 bytes/s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../drivers/load.h"
#include "load_ref.h"

#define NTIMES       10 /* counted passes of each variant, as STREAM */
#define BLOCK_CHUNKS 4  /* the application's chunks in a timed block */
#define BLOCK        ((size_t)LOAD_CHUNK * BLOCK_CHUNKS)

struct variant {
	const char *name;
	enum load_kind kind;
	int nt;  /* the application's --nt */
	int ref; /* the reference loop, not the application's kernel */
	double *rate; /* GB/s of each timed block, NTIMES passes */
	size_t nblock;
	double best; /* GB/s of the best whole pass */
};

#define UNC(name, kind, nt) { name, kind, nt, 0, NULL, 0, 0 }
#define REF(name, kind)     { name, kind, 0, 1, NULL, 0, 0 }
static struct variant v[] = {
	REF("read", LOAD_READ),        UNC("read", LOAD_READ, 0),  REF("write", LOAD_WRITE),
	UNC("write", LOAD_WRITE, 0),   UNC("write", LOAD_WRITE, 1), REF("copy", LOAD_COPY),
	UNC("copy", LOAD_COPY, 0),     UNC("copy", LOAD_COPY, 1),   REF("triad", LOAD_TRIAD),
	UNC("triad", LOAD_TRIAD, 0),   UNC("triad", LOAD_TRIAD, 1),
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
static void block(const struct variant *x, size_t lo, size_t hi)
{
	if (!x->ref) {
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

static void pass(struct variant *x, bool counted)
{
	double bytes = load_bytes_per_element(x->kind), t0 = now(), t = t0;

	for (size_t lo = 0; lo < arr.n; lo += BLOCK) {
		size_t hi = lo + BLOCK < arr.n ? lo + BLOCK : arr.n;
		block(x, lo, hi);
		double t1 = now();
		if (counted)
			x->rate[x->nblock++] = (double)(hi - lo) * bytes / (t1 - t) / 1e9;
		t = t1;
	}
	double gbs = (double)arr.n * bytes / (t - t0) / 1e9;
	if (counted && gbs > x->best)
		x->best = gbs;
}

static int cmp_double(const void *p, const void *q)
{
	double a = *(const double *)p, b = *(const double *)q;

	return a < b ? -1 : a > b;
}

static double median(struct variant *x)
{
	qsort(x->rate, x->nblock, sizeof(double), cmp_double);
	return x->nblock % 2 ? x->rate[x->nblock / 2] : (x->rate[x->nblock / 2 - 1] + x->rate[x->nblock / 2]) / 2;
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
	size_t nblocks = (n + BLOCK - 1) / BLOCK;
	for (size_t k = 0; k < NV; k++)
		if (!(v[k].rate = malloc(NTIMES * nblocks * sizeof(double))))
			return 1;

	for (int r = 0; r <= NTIMES; r++)
		for (size_t k = 0; k < NV; k++)
			pass(&v[(k + (size_t)r) % NV], r > 0);

	printf("load kernels, 1 thread: %zu MiB working set (3 arrays of %zu doubles; last-level cache %ld KiB), "
	       "%d passes each, interleaved\n",
	       mib, n, llc > 0 ? llc >> 10 : -1L, NTIMES);
	printf("  uncore: drivers/load.c as the EFI build compiles it, %d elements per call; reference: a plain C loop, "
	       "gcc -O3 -march=native -fopenmp, a team of 1\n",
	       LOAD_CHUNK);
	printf("  median of %zu blocks of %zu MiB per array, and the best whole pass; GB/s = 10^9 bytes/s, STREAM's "
	       "bytes; (nt) rows against the plain reference loop\n",
	       v[0].nblock, BLOCK * sizeof(double) >> 20);
	printf("%-12s %13s %15s %7s   %11s %13s %7s\n", "kernel", "uncore GB/s", "reference GB/s", "ratio",
	       "best uncore", "best reference", "ratio");
	for (size_t k = 0; k < NV; k++) {
		if (v[k].ref)
			continue;
		struct variant *ref = NULL;
		for (size_t j = 0; j < NV; j++)
			if (v[j].ref && v[j].kind == v[k].kind)
				ref = &v[j];
		char name[24];
		snprintf(name, sizeof(name), "%s%s", v[k].name, v[k].nt ? " (nt)" : "");
		double mu = median(&v[k]), mr = median(ref);
		printf("%-12s %13.2f %15.2f %7.2f   %11.2f %13.2f %7.2f\n", name, mu, mr, mu / mr, v[k].best, ref->best,
		       v[k].best / ref->best);
	}
	for (size_t k = 0; k < NV; k++)
		free(v[k].rate);
	free(arr.a);
	free(arr.b);
	free(arr.c);
	return 0;
}
