/* The host half of `make bench` for the load kernels (drivers/load.c):
 * best-of-N MB/s for each kernel, plain and non-temporal, at 1 thread and at
 * all threads (pthreads, one contiguous slice each, as the EFI load splits
 * the arrays), next to glibc memcpy(a, b) on the same buffers. MB/s count
 * STREAM's way (copy: 16 bytes per element); memcpy's as 16 bytes per
 * element too (8 read, 8 written), so the ratio compares like with like. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../drivers/load.h"

#define NTIMES 10 /* as STREAM; the first pass is not counted */

static struct load_arrays arr;
static size_t n;
static pthread_barrier_t go, done;
static int nthreads;
static volatile int quit;
static enum load_kind kind;
static bool nt, use_memcpy;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *worker(void *arg)
{
	long id = (long)arg;

	for (;;) {
		pthread_barrier_wait(&go);
		if (quit)
			return NULL;
		size_t per = (n / (size_t)nthreads) & ~(size_t)1, lo = (size_t)id * per;
		size_t hi = id == nthreads - 1 ? n : lo + per;
		if (use_memcpy)
			memcpy(arr.a + lo, arr.b + lo, (hi - lo) * sizeof(double));
		else
			load_pass(kind, nt, &arr, lo, hi);
		pthread_barrier_wait(&done);
	}
}

/* Best of NTIMES passes over the whole arrays, in MB/s. */
static double run(int threads, enum load_kind k, bool nontemporal, bool mc)
{
	pthread_t t[64];
	double best = 0;

	nthreads = threads;
	kind = k;
	nt = nontemporal;
	use_memcpy = mc;
	quit = 0;
	pthread_barrier_init(&go, NULL, (unsigned)threads + 1);
	pthread_barrier_init(&done, NULL, (unsigned)threads + 1);
	for (long i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int r = 0; r <= NTIMES; r++) {
		double t0 = now();
		pthread_barrier_wait(&go);
		pthread_barrier_wait(&done);
		double mbs = (double)n * (mc ? 16 : load_bytes_per_element(k)) / (now() - t0) / 1e6;
		if (r > 0 && mbs > best) /* the first pass warms up, as STREAM skips it */
			best = mbs;
	}
	quit = 1;
	pthread_barrier_wait(&go);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&go);
	pthread_barrier_destroy(&done);
	return best;
}

int main(int argc, char **argv)
{
	/* STREAM's rule: each array at least 4x the last-level cache. */
	long llc = sysconf(_SC_LEVEL3_CACHE_SIZE) > 0 ? sysconf(_SC_LEVEL3_CACHE_SIZE) : sysconf(_SC_LEVEL2_CACHE_SIZE);
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : (size_t)(llc > 0 ? 3 * 4 * llc : 0) >> 20;
	if (mib < 256)
		mib = 256;
	int all = (int)sysconf(_SC_NPROCESSORS_ONLN);

	if (all < 1)
		all = 1;
	if (all > 64)
		all = 64;
	n = (mib << 20) / 3 / sizeof(double) & ~(size_t)7;
	size_t bytes = (n * sizeof(double) + 63) & ~(size_t)63;
	arr = (struct load_arrays){ aligned_alloc(64, bytes), aligned_alloc(64, bytes), aligned_alloc(64, bytes), n };
	for (size_t i = 0; i < n; i++)
		arr.a[i] = 1.0, arr.b[i] = 2.0, arr.c[i] = 0.5;
	printf("load kernels: %zu MiB working set (3 arrays of %zu doubles; last-level cache %ld KiB), best of %d "
	       "passes, MB/s = 10^6 bytes/s\n",
	       mib, n, llc > 0 ? llc >> 10 : -1L, NTIMES);
	printf("%-12s %7s %12s %12s %8s\n", "kernel", "threads", "MB/s", "memcpy MB/s", "ratio");
	int counts[2] = { 1, all };
	for (int c = 0; c < (all > 1 ? 2 : 1); c++) {
		double mc = run(counts[c], LOAD_COPY, false, true);
		for (int k = 0; k < LOAD_NKINDS; k++)
			for (int v = 0; v < 2; v++) {
				if (k == LOAD_READ && v)
					continue; /* read stores nothing */
				double mbs = run(counts[c], (enum load_kind)k, v, false);
				char name[24];
				snprintf(name, sizeof(name), "%s%s", load_kind_name((enum load_kind)k), v ? " (nt)" : "");
				printf("%-12s %7d %12.1f %12.1f %8.2f\n", name, counts[c], mbs, mc, mbs / mc);
			}
	}
	free(arr.a);
	free(arr.b);
	free(arr.c);
	return 0;
}
