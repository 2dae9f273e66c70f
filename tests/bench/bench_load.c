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
 * in blocks, the application's kernel and the reference loop on alternate
 * blocks (which of them starts alternates from pass to pass, so each runs
 * every block equally often). A block is 4x the last-level cache too: a
 * kernel that stores through the cache leaves up to a cache of dirty lines
 * behind when its block ends, so with blocks smaller than the cache part of
 * one side's write-backs can fall in the other's time (with 4 MiB blocks
 * and a 32 MiB cache, write (nt) came out at 0.98x of the plain loop,
 * against 1.1x over whole arrays).
 * Each block is timed by CLOCK_MONOTONIC read at both ends, and each pair
 * of neighbouring blocks gives a ratio. The kernels take turns too: RUNS
 * runs, each of every kernel in turn, NTIMES passes each. A run's figures
 * for a kernel are the median block of each side and the median of its
 * pairs' ratios, which blocks cut by a context switch do not move; the
 * figures printed are the median of the RUNS runs, with the lowest and
 * highest run's ratio beside (a host busy with other work moves whole
 * runs). One pass of each kernel first warms up and is not counted.
 *
 * The arrays are in the host's pages as malloc gives them (here 4 KiB);
 * `bench_load huge` asks for 2 MiB ones (madvise), as the firmware maps the
 * memory uncore.efi runs on in large pages (OVMF: 2 MiB or 1 GiB). The
 * header says how much came in huge pages. Arguments: a working set in MiB,
 * `huge`. GB/s count STREAM's bytes (copy: 16 per element), 10^9 bytes/s. */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../../drivers/engine/load.h"
#include "load_ref.h"

#define RUNS   5 /* runs, the kernels in turn in each */
#define NTIMES 4 /* counted passes of each kernel per run */
#define PAIRS  5 /* at least this many pairs of blocks in a pass */
#define HUGE   ((size_t)2 << 20)

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
static size_t blk; /* elements in a timed block: LOAD_CHUNK x a whole number */

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
	double bytes = (double)blk * load_bytes_per_element(x->kind);

	for (size_t lo = 0; lo + 2 * blk <= arr.n; lo += 2 * blk) {
		double t0 = now();
		block(x, ref_first, lo, lo + blk);
		double t1 = now();
		block(x, !ref_first, lo + blk, lo + 2 * blk);
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

/* The largest cache of the processor the bench runs on, as Linux's sysfs
 * describes processor 0's caches (the cache its core shares), or 0. */
static long sysfs_llc(void)
{
	long best = 0;

	for (int i = 0; i < 16; i++) {
		char path[80], unit = 0;
		long size = 0;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		FILE *f = fopen(path, "r");
		if (!f)
			break;
		if (fscanf(f, "%ld%c", &size, &unit) >= 1)
			size <<= unit == 'K' ? 10 : unit == 'M' ? 20 : 0;
		fclose(f);
		if (size > best)
			best = size;
	}
	return best;
}

/* Bytes of the arrays the host gave in huge pages (its smaps), or -1. */
static long huge_bytes(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[128];
	long kib = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib < 0 ? -1 : kib << 10;
}

static bool huge;

static double *alloc(size_t bytes)
{
	double *p = aligned_alloc(HUGE, bytes);

	if (p && huge)
		madvise(p, bytes, MADV_HUGEPAGE); /* a request: the header says what came of it */
	return p;
}

int main(int argc, char **argv)
{
	/* STREAM's rule, each array at least 4x the last-level cache, with the
	 * larger of the C library's figure (sysconf: on this AMD EPYC guest
	 * CPUID's legacy leaf 0x80000006, 320 MiB, the whole package's L3) and
	 * sysfs's (CPUID 0x8000001D: 32 MiB, the cache processor 0 shares). A
	 * block is 4x the latter, the cache a core's stores actually fill. */
	long conf = sysconf(_SC_LEVEL3_CACHE_SIZE) > 0 ? sysconf(_SC_LEVEL3_CACHE_SIZE) : sysconf(_SC_LEVEL2_CACHE_SIZE);
	long real = sysfs_llc();
	if (real <= 0)
		real = conf;
	size_t most = (size_t)(conf > real ? conf : real), chunk = (size_t)LOAD_CHUNK * sizeof(double);
	size_t bb = real > 0 ? 4 * (size_t)real : 0; /* a block's bytes per array */
	if (bb < (4u << 20))
		bb = 4u << 20;
	bb = (bb + chunk - 1) / chunk * chunk;
	blk = bb / sizeof(double);
	/* the arrays: whole pairs of blocks, at least PAIRS of them, each array
	 * 4x the larger cache figure (or the working set asked for, MiB) */
	size_t want = 4 * most, npairs;
	bool asked = false;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "huge"))
			huge = true;
		else
			want = (strtoul(argv[i], NULL, 10) << 20) / 3, asked = true;
	npairs = (want + 2 * bb - 1) / (2 * bb);
	if (npairs < PAIRS && !asked)
		npairs = PAIRS;
	if (!npairs)
		npairs = 1;
	size_t n = npairs * 2 * blk, bytes = n * sizeof(double);
	static const struct hw_ops cpuid_ops = { .cpuid = host_cpuid };
	arr = (struct load_arrays){ alloc(bytes), alloc(bytes), alloc(bytes), n,
				    load_choose(&(struct hw){ .ops = &cpuid_ops }, host_xcr0) };
	if (!arr.a || !arr.b || !arr.c) {
		fprintf(stderr, "bench_load: cannot allocate 3 arrays of %zu bytes\n", bytes);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		arr.a[i] = 1.0, arr.b[i] = 2.0, arr.c[i] = 0.5;
	long hb = huge_bytes();
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

	printf("load kernels, 1 thread: %zu MiB working set (3 arrays of %zu doubles; last-level cache %ld KiB, "
	       "sysconf says %ld KiB), %d runs of %d passes each\n",
	       3 * bytes >> 20, n, real >> 10, conf >> 10, RUNS, NTIMES);
	printf("  the arrays in huge pages: %ld of %zu MiB (%s)\n", hb >> 20, 3 * bytes >> 20,
	       huge ? "asked for: bench_load huge" : "not asked for; bench_load huge asks");
	printf("  uncore: build/efi/drivers/engine/load.o (what uncore.efi links), %d elements per call, here %s;\n"
	       "  reference: a plain C loop, gcc -O3 -march=native -fopenmp, a team of 1\n",
	       LOAD_CHUNK, load_how_name(arr.how));
	printf("  the two take turns on neighbouring blocks of %zu MiB per array: median block of each, median of the "
	       "%zu pairs' ratios;\n  the kernels take turns run by run: the median of the %d runs, and their lowest "
	       "and highest ratio;\n  GB/s = 10^9 bytes/s, STREAM's bytes; (nt) rows against the reference loop, "
	       "whose stores go through the cache\n",
	       bb >> 20, v[0].npair, RUNS);
	printf("%-12s %12s %15s %7s %13s\n", "kernel", "uncore GB/s", "reference GB/s", "ratio", "runs' range");
	for (size_t k = 0; k < NV; k++) {
		char name[24];
		snprintf(name, sizeof(name), "%s%s", load_kind_name(v[k].kind), v[k].nt ? " (nt)" : "");
		double unc = median(v[k].run_unc, RUNS), ref = median(v[k].run_ref, RUNS);
		double ratio = median(v[k].run_ratio, RUNS); /* sorts run_ratio */
		printf("%-12s %12.2f %15.2f %7.3f %6.3f-%.3f\n", name, unc, ref, ratio, v[k].run_ratio[0],
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
