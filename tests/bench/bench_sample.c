/* The host half of `make bench`, per PMU family: what one sample costs the
 * engine itself (drivers/engine/stat*.c and the driver's ops), counted by callgrind
 * inside one_sample() with the seam left out (its functions are seam_*,
 * which run.sh gives callgrind as toggles), and how many accesses of each
 * kind the sample makes through the seam. The seam under it is the uncore
 * emulator's model (tests/emu), which stands for the hardware:
 *
 *   msr    the Skylake client uncore's CBo and ARB general counters (rdmsr)
 *   rdpmc  the architectural core PMU's general counters (RDPMC)
 *   pci    the Xeon E5-2600 iMC's two-dword counters in PCI configuration
 *          space (4 channels)
 *   mmio   the Skylake client IMC's five free-running MCHBAR counters, read
 *          by the seam's mmio_read32_n (one call a sample)
 *   cha    a discovery CHA's counter (Sapphire Rapids, rdmsr), on the
 *          package of the processor running the tool
 *   chapkg the same CHA taken as package 1's (two packages): its MSRs read
 *          in one trip to that package a sample (msr_read_pkg), the
 *          per-package path's own cost against cha's
 * and at a real part's size:
 *   cha4   a discovery CHA box's 4 counters (4 events on one CHA)
 *   rdpmc7 the architectural PMU's 4 general and 3 fixed counters, by RDPMC
 *   pci16  a full E5 iMC: 4 events on each of 4 channels
 *
 *   bench_sample FAMILY N   takes N samples, 100 ms apart on the model's
 *                           clock, and prints the counters a sample reads
 *                           and the accesses per sample. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/pmu/arch.h"
#include "../../drivers/pmu/disc.h"
#include "../../drivers/pmu/skl.h"
#include "../../drivers/pmu/snbep.h"
#include "../../drivers/engine/stat.h"
#include "../../drivers/engine/stat_int.h"
#include "../emu/emu_hw.h"

#define MS 1000000ull /* the model's clock counts nanoseconds */

static struct emu_hw h;
static const struct hw_ops *inner;
static struct hw seam;
static struct stat_run run;
static unsigned long n_msr, n_pci, n_mmio, n_pmc, n_ticks, n_write, n_trip;

static enum unc_status seam_msr_read(void *ctx, uint32_t msr, uint64_t *v)
{
	n_msr++;
	return inner->msr_read(ctx, msr, v);
}

/* The seam's batched rdmsr (efi/hw_native.c's native_msr_read_n): one
 * call for a list of MSRs, each counted. */
static enum unc_status seam_msr_read_n(void *ctx, const uint32_t *msr, unsigned n, uint64_t *v, unsigned *done)
{
	enum unc_status st = inner->msr_read_n(ctx, msr, n, v, done);

	n_msr += st ? *done + 1 : n;
	return st;
}

static enum unc_status seam_msr_write(void *ctx, uint32_t msr, uint64_t v)
{
	n_write++;
	return inner->msr_write(ctx, msr, v);
}

static enum unc_status seam_pci_read(void *ctx, struct pci_addr a, uint16_t off, uint32_t *v)
{
	n_pci++;
	return inner->pci_read32(ctx, a, off, v);
}

/* The seam's batched configuration reads (native_pci_read32_n). */
static enum unc_status seam_pci_read_n(void *ctx, const struct pci_dword *d, unsigned n, uint32_t *v, unsigned *done)
{
	enum unc_status st = inner->pci_read32_n(ctx, d, n, v, done);

	n_pci += st ? *done + 1 : n;
	return st;
}

static enum unc_status seam_pci_write(void *ctx, struct pci_addr a, uint16_t off, uint32_t v)
{
	n_write++;
	return inner->pci_write32(ctx, a, off, v);
}

static enum unc_status seam_mmio_read(void *ctx, uint64_t phys, uint32_t *v)
{
	n_mmio++;
	return inner->mmio_read32(ctx, phys, v);
}

static enum unc_status seam_mmio_read_n(void *ctx, const uint64_t *phys, unsigned n, uint64_t *v, uint64_t *t)
{
	enum unc_status st;
	uint32_t x;

	n_ticks += 2;
	t[0] = inner->ticks(ctx);
	for (unsigned i = 0; i < n; i++) {
		n_mmio++;
		if ((st = inner->mmio_read32(ctx, phys[i], &x)))
			return st;
		v[i] = x;
	}
	t[1] = inner->ticks(ctx);
	return UNC_OK;
}

static enum unc_status seam_msr_read_pkg(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *v)
{
	n_trip++;
	n_msr += n;
	return inner->msr_read_pkg(ctx, pkg, msr, n, v);
}

static enum unc_status seam_msr_write_pkg(void *ctx, uint32_t pkg, uint32_t msr, uint64_t v)
{
	n_trip++;
	n_write++;
	return inner->msr_write_pkg(ctx, pkg, msr, v);
}

static void seam_cpuid(void *ctx, uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	inner->cpuid(ctx, leaf, sub, r);
}

static uint64_t seam_ticks(void *ctx)
{
	n_ticks++;
	return inner->ticks(ctx);
}

static enum unc_status seam_rdpmc(void *ctx, uint32_t index, uint64_t *v)
{
	n_pmc++;
	return inner->rdpmc(ctx, index, v);
}

/* The seam's batched RDPMC (native_rdpmc_n). */
static enum unc_status seam_rdpmc_n(void *ctx, const uint32_t *index, unsigned n, uint64_t *v, unsigned *done)
{
	enum unc_status st = inner->rdpmc_n(ctx, index, n, v, done);

	n_pmc += st ? *done + 1 : n;
	return st;
}

/* The seam's sample call (native_read_timed_n): the clock, the MSRs and
 * the RDPMC, the clock again, each counted. */
static enum unc_status seam_read_timed_n(void *ctx, const uint32_t *idx, unsigned nmsr, unsigned npmc, uint64_t *v,
					 uint64_t *t)
{
	enum unc_status st = inner->read_timed_n(ctx, idx, nmsr, npmc, v, t);

	n_ticks += 2, n_msr += nmsr, n_pmc += npmc;
	return st;
}

static struct hw_ops seam_ops = { seam_msr_read, seam_msr_write, seam_pci_read, seam_pci_write, seam_mmio_read,
				  seam_cpuid,	 seam_ticks,	 seam_rdpmc,	NULL,		NULL, NULL, NULL, NULL, NULL, NULL,
				  seam_msr_read_n, seam_pci_read_n, seam_rdpmc_n, seam_read_timed_n, NULL };

__attribute__((noinline)) static enum unc_status one_sample(void)
{
	return stat_sample(&run);
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_sample msr|rdpmc|pci|mmio|cha|chapkg|cha4|rdpmc7|pci16 N\n");
	return 2;
}

int main(int argc, char **argv)
{
	static const struct pmu_driver *const skl[] = { &pmu_driver_skl, NULL };
	static const struct pmu_driver *const arch[] = { &pmu_driver_arch, NULL };
	static const struct pmu_driver *const snbep[] = { &pmu_driver_snbep, NULL };
	static const struct pmu_driver *const disc[] = { &pmu_driver_disc, NULL };
	static const char *const cha_ev[] = { "UNC_CHA_CLOCKTICKS", NULL };
	static char *cha_opt[] = { "emu", "--uncore", "disc", "--core-pmu", "none", "--rate", "UNC_CHA_CLOCKTICKS=2G", NULL };
	static char *chapkg_opt[] = { "emu",  "--uncore", "disc", "--sockets", "2", "--core-pmu", "none",
				      "--rate", "UNC_CHA_CLOCKTICKS=2G", NULL };
	bool pkg1 = false;
	static const char *const msr_ev[] = { "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "UNC_ARB_TRK_REQUESTS.ALL", NULL };
	static const char *const pmc_ev[] = { "INST_RETIRED.ANY_P", "CPU_CLK_UNHALTED.THREAD_P", NULL };
	static const char *const pci_ev[] = { "UNC_M_CAS_COUNT.RD", "UNC_M_CAS_COUNT.WR", NULL };
	static const char *mmio_ev[SKL_IMC_COUNTERS + 1];
	/* the realistic sizes: a CHA box's 4 counters, the architectural
	 * PMU's 4 general and 3 fixed counters (all by RDPMC), a full E5 iMC
	 * (4 channels x 4 counters) */
	static const char *const cha4_ev[] = { "UNC_CHA_CLOCKTICKS", "UNC_CHA_TOR_INSERTS.IA_MISS", "cha/event=0x1,thresh=1/",
					       "cha/event=0x1,inv=1,thresh=2/", NULL };
	static char *cha4_opt[] = { "emu",  "--uncore", "disc", "--core-pmu", "none", "--rate", "UNC_CHA_CLOCKTICKS=2G",
				    "--rate", "UNC_CHA_TOR_INSERTS.IA_MISS=1M", NULL };
	static const char *const pmc7_ev[] = { "INST_RETIRED.ANY", "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.REF_TSC",
					       "INST_RETIRED.ANY_P", "CPU_CLK_UNHALTED.THREAD_P",
					       "BR_INST_RETIRED.ALL_BRANCHES", "LONGEST_LAT_CACHE.MISS", NULL };
	static char *pmc7_opt[] = { "emu", "--core-pmu", "arch", "--rate", "INST_RETIRED.ANY=5M", "--rate",
				    "CPU_CLK_UNHALTED.THREAD=4M", "--rate", "CPU_CLK_UNHALTED.REF_TSC=3M", "--rate",
				    "BR_INST_RETIRED.ALL_BRANCHES=1M", "--rate", "LONGEST_LAT_CACHE.MISS=2M", NULL };
	static const char *const pci16_ev[] = { "UNC_M_CAS_COUNT.RD", "UNC_M_CAS_COUNT.WR", "UNC_M_ACT_COUNT",
						"UNC_M_PRE_COUNT.PAGE_MISS", NULL };
	static char *pci16_opt[] = { "emu", "--uncore", "snbep", "--sockets", "1", "--core-pmu", "none", "--rate",
				     "UNC_M_CAS_COUNT.RD=3M", "--rate", "UNC_M_CAS_COUNT.WR=2M", "--rate",
				     "UNC_M_ACT_COUNT=1M", "--rate", "UNC_M_PRE_COUNT.PAGE_MISS=1M", NULL };
	const struct pmu_driver *const *present;
	const char *const *names;
	struct emu_config cfg;
	struct cpu_info cpu;
	char msg[200];

	if (argc != 3)
		return usage();
	unsigned n = (unsigned)strtoul(argv[2], NULL, 10);
	/* The model, as uncore-emu.efi's options give it. */
	static char *msr_opt[] = { "emu", "--core-pmu", "none", "--rate", "UNC_CBO_CACHE_LOOKUP.ANY_MESI=3M",
				   "--rate", "UNC_ARB_TRK_REQUESTS.ALL=2M", NULL };
	static char *pmc_opt[] = { "emu", "--core-pmu", "arch", "--rate", "INST_RETIRED.ANY=5M", "--rate",
				   "CPU_CLK_UNHALTED.THREAD=4M", NULL };
	static char *pci_opt[] = { "emu", "--uncore", "snbep", "--sockets", "1", "--core-pmu", "none", "--rate",
				   "UNC_M_CAS_COUNT.RD=3M", "--rate", "UNC_M_CAS_COUNT.WR=2M", NULL };
	static char *mmio_opt[] = { "emu", "--core-pmu", "none", "--rate", "DRAM_GT_REQUESTS=1M", "--rate",
				    "DRAM_IA_REQUESTS=2M", "--rate", "DRAM_IO_REQUESTS=3M", "--rate", "DRAM_DATA_READS=4M",
				    "--rate", "DRAM_DATA_WRITES=5M", NULL };
	char **opt;
	uint32_t leaf1 = 0x000506E3u; /* a Skylake desktop part: family 6 model 0x5E */

	if (!strcmp(argv[1], "msr")) {
		opt = msr_opt, present = skl, names = msr_ev;
	} else if (!strcmp(argv[1], "rdpmc")) {
		opt = pmc_opt, present = arch, names = pmc_ev;
	} else if (!strcmp(argv[1], "pci")) {
		opt = pci_opt, present = snbep, names = pci_ev;
		leaf1 = 0x000206D7u; /* a Xeon E5-2600: family 6 model 0x2D */
	} else if (!strcmp(argv[1], "rdpmc7")) {
		opt = pmc7_opt, present = arch, names = pmc7_ev;
	} else if (!strcmp(argv[1], "pci16")) {
		opt = pci16_opt, present = snbep, names = pci16_ev;
		leaf1 = 0x000206D7u;
	} else if (!strcmp(argv[1], "cha4")) {
		opt = cha4_opt, present = disc, names = cha4_ev;
		leaf1 = 0x000806F8u;
	} else if (!strcmp(argv[1], "mmio")) {
		opt = mmio_opt, present = skl, names = mmio_ev;
		for (unsigned k = 0; k < SKL_IMC_COUNTERS; k++)
			mmio_ev[k] = skl_imc[k].name;
		seam_ops.mmio_read32_n = seam_mmio_read_n;
	} else if (!strcmp(argv[1], "cha") || !strcmp(argv[1], "chapkg")) {
		opt = cha_opt, present = disc, names = cha_ev;
		leaf1 = 0x000806F8u; /* a Sapphire Rapids: family 6 model 0x8F */
		pkg1 = !strcmp(argv[1], "chapkg");
		if (pkg1)
			opt = chapkg_opt; /* two sockets, each with its CHA on its own package */
	} else {
		return usage();
	}
	int nopt = 0;
	while (opt[nopt])
		nopt++;
	if (emu_parse_options(nopt, opt, &cfg, msg, sizeof(msg))) {
		fprintf(stderr, "bench_sample: emulator: %s\n", msg);
		return 1;
	}
	emu_hw_init_cpu(&h, &cfg, leaf1);
	h.open_bus = true; /* a probe's bus scan reads absent functions as all ones */
	if (pkg1) {
		emu_hw_pkgs(&h, 2);
		seam_ops.msr_read_pkg = seam_msr_read_pkg;
		seam_ops.msr_write_pkg = seam_msr_write_pkg;
	}
	inner = h.hw.ops;
	seam = h.hw;
	seam.ops = &seam_ops;
	for (unsigned i = 0; names[i]; i++) {
		struct ev_spec e;
		if (evsel_parse(names[i], present, &e, msg, sizeof(msg))) {
			fprintf(stderr, "bench_sample: %s\n", msg);
			return 1;
		}
		if (stat_add(&run, &e)) {
			fprintf(stderr, "bench_sample: %s\n", run.err);
			return 1;
		}
	}
	cpu_identify(&seam, &cpu);
	if (stat_probe(&run, &seam, &cpu, msg, sizeof(msg))) {
		fprintf(stderr, "bench_sample: %s\n", run.err);
		return 1;
	}
	/* chapkg: of the two sockets' CHAs, socket 1's alone (on package 1),
	 * so that the sample reads one CHA as cha does, only through a trip */
	for (unsigned k = 0; pkg1 && k < run.npmu; k++) {
		struct pmu_present *p = &run.pmu[k].p;
		if (p->boxes[DISC_UNIT_CHA] != 2 || p->group[DISC_UNIT_CHA][1] != 1) {
			fprintf(stderr, "bench_sample: chapkg: expected a CHA on each of two sockets, found %u\n",
				p->boxes[DISC_UNIT_CHA]);
			return 1;
		}
		p->box_base[DISC_UNIT_CHA][0] = p->box_base[DISC_UNIT_CHA][1];
		p->group[DISC_UNIT_CHA][0] = p->group[DISC_UNIT_CHA][1];
		p->box_id[DISC_UNIT_CHA][0] = p->box_id[DISC_UNIT_CHA][1];
		p->boxes[DISC_UNIT_CHA] = 1;
	}
	if (stat_schedule(&run, false) || stat_start(&run, &seam, false)) {
		fprintf(stderr, "bench_sample: %s\n", run.err);
		return 1;
	}
	n_msr = n_pci = n_mmio = n_pmc = n_ticks = n_write = n_trip = 0;
	for (unsigned i = 0; i < n; i++) {
		emu_hw_advance(&h, 100 * MS);
		if (one_sample()) {
			fprintf(stderr, "bench_sample: %s\n", run.err);
			return 1;
		}
	}
	if (stat_stop(&run, UNC_OK)) {
		fprintf(stderr, "bench_sample: %s\n", run.err);
		return 1;
	}
	for (unsigned i = 0; i < run.c.nev; i++)
		if (!count_moved(&run.c.ev[i])) {
			fprintf(stderr, "bench_sample: %s never moved: the model counts nothing\n", run.c.ev[i].name);
			return 1;
		}
	/* the counters a sample reads: each box of a programmed event, one
	 * register of a free-running one */
	unsigned counters = 0;
	for (unsigned i = 0; i < run.c.nev; i++)
		counters += ev_unit(&run.spec[i])->kind == PMU_FREE ? 1 : run.pmu[run.pmu_of[i]].p.boxes[run.spec[i].unit];
	double k = n ? (double)n : 1;
	printf("%-5s %u events, %u counters: per sample %.1f rdmsr, %.1f PCI reads, %.1f MMIO loads, %.1f RDPMC, %.1f writes, "
	       "%.1f clock reads, %.1f trips to another package; %u registers checked besides the counters' selects\n",
	       argv[1], run.c.nev, counters, (double)n_msr / k, (double)n_pci / k, (double)n_mmio / k, (double)n_pmc / k,
	       (double)n_write / k, (double)n_ticks / k, (double)n_trip / k, (unsigned)(run.reads->cmp_end - run.reads->cmp));
	return 0;
}
