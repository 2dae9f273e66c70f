/* The host half of `make bench`: the cost of one full IMC sample (all five
 * counters) in the sampler itself. Its MCHBAR is host memory mapped at the
 * physical address it claims, so its seam's loads are efi/hw_native.c's
 * (a physical address is a pointer, as UEFI identity-maps memory), and what
 * callgrind counts inside one_sample() is the project's code: the five
 * loads through the seam, the wrap arithmetic and the bookkeeping.
 *
 *   bench_imc N     takes N samples and prints ns per sample (wall clock,
 *                   for a feel only; callgrind's count is the figure). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "../../drivers/pmu/mchbar.h"
#include "../../drivers/pmu/skl.h"
#include "../../drivers/engine/stat.h"

#define BASE 0xFED10000ull

#define MCHBAR_SIZE 0x8000
static uint32_t *mchbar; /* mapped at BASE */
static uint64_t now;

static enum unc_status b_mmio(void *ctx, uint64_t phys, uint32_t *v)
{
	(void)ctx;
	*v = *(volatile uint32_t *)(uintptr_t)phys;
	return UNC_OK;
}

/* efi/hw_native.c's native_mmio_read32_n, on this seam's clock. */
static enum unc_status b_mmio_n(void *ctx, const uint64_t *phys, unsigned n, uint64_t *v, uint64_t *ret_ticks)
{
	(void)ctx;
	ret_ticks[0] = now;
	if (n & 1)
		*v++ = *(volatile uint32_t *)(uintptr_t)*phys++;
	for (const uint64_t *end = phys + (n & ~1u); phys != end; phys += 2, v += 2) { /* two a turn */
		v[0] = *(volatile uint32_t *)(uintptr_t)phys[0];
		v[1] = *(volatile uint32_t *)(uintptr_t)phys[1];
	}
	ret_ticks[1] = now;
	return UNC_OK;
}

static enum unc_status b_msr_r(void *ctx, uint32_t msr, uint64_t *v)
{
	(void)ctx, (void)msr, (void)v;
	abort(); /* an IMC-only run must touch no MSR */
}

static enum unc_status b_msr_w(void *ctx, uint32_t msr, uint64_t v)
{
	(void)ctx, (void)msr, (void)v;
	abort();
}

/* The host bridge 0:0.0, for the IMC probe before the samples: an
 * 8086:1910 (Skylake) with MCHBAR enabled at BASE. Nothing else. */
static enum unc_status b_pci_r(void *ctx, struct pci_addr a, uint16_t off, uint32_t *v)
{
	(void)ctx;
	if (a.bus || a.dev || a.func)
		abort();
	switch (off) {
	case 0:
		*v = 0x1910u << 16 | 0x8086;
		return UNC_OK;
	case MCHBAR_LO:
		*v = (uint32_t)BASE | MCHBAR_ENABLE;
		return UNC_OK;
	case MCHBAR_HI:
		*v = (uint32_t)(BASE >> 32);
		return UNC_OK;
	}
	abort();
}

static enum unc_status b_pci_w(void *ctx, struct pci_addr a, uint16_t off, uint32_t v)
{
	(void)ctx, (void)a, (void)off, (void)v;
	abort();
}

static void b_cpuid(void *ctx, uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	(void)ctx, (void)leaf, (void)sub, (void)r;
	abort();
}

static enum unc_status b_rdpmc(void *ctx, uint32_t index, uint64_t *ret)
{
	(void)ctx, (void)index, (void)ret;
	abort();
}

static uint64_t b_ticks(void *ctx)
{
	(void)ctx;
	return now;
}

static const struct hw_ops ops = { b_msr_r, b_msr_w, b_pci_r, b_pci_w, b_mmio, b_cpuid, b_ticks, b_rdpmc, NULL, NULL, b_mmio_n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
static const struct hw hw = { .ops = &ops, .tick_hz = 1000000000 };
static struct stat_run run;

__attribute__((noinline)) static enum unc_status one_sample(void)
{
	return stat_sample(&run);
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 100000;
	static const struct pmu_driver *const present[] = { &pmu_driver_skl, NULL };
	/* A Skylake desktop part, given rather than read: this seam has no CPUID. */
	const struct cpu_info cpu = { .vendor = "GenuineIntel", .family = 6, .model = 0x5E, .phys_addr_bits = 39,
				      .cores = 4, .threads = 8, .is_intel = true };
	struct timespec a, b;
	char msg[200];
	void *m = mmap((void *)(uintptr_t)BASE, MCHBAR_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (m != (void *)(uintptr_t)BASE) {
		fprintf(stderr, "bench_imc: cannot map the fake MCHBAR at 0x%llx\n", BASE);
		return 1;
	}
	mchbar = m;

	for (unsigned i = 0; i < SKL_IMC_COUNTERS; i++) {
		struct ev_spec e;
		if (evsel_parse(skl_imc[i].name, present, &e, msg, sizeof(msg))) {
			fprintf(stderr, "bench_imc: %s\n", msg);
			return 1;
		}
		if (stat_add(&run, &e)) {
			fprintf(stderr, "bench_imc: %s\n", run.err);
			return 1;
		}
	}
	if (stat_probe(&run, &hw, &cpu, msg, sizeof(msg)) || stat_schedule(&run, false) ||
	    stat_start(&run, &hw, false)) {
		fprintf(stderr, "bench_imc: %s\n", run.err);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (unsigned i = 0; i < n; i++) {
		for (unsigned k = 0; k < SKL_IMC_COUNTERS; k++) /* the counters move between samples */
			mchbar[(skl_imc[k].offset) / 4] += 1000003u * (k + 1);
		now += 100000000;
		if (one_sample()) {
			fprintf(stderr, "bench_imc: %s\n", run.err);
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / n;
	printf("bench_imc: %u samples, %.1f ns per sample (wall clock on this host)\n", n, ns);
	return 0;
}
