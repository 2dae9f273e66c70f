/* A strict fake of the hardware seam for host tests (after edk2's MtrrLib
 * unit-test support): every address must be declared first, an access to an
 * undeclared one fails the running test, and every write is logged so a
 * test can assert the exact sequence. */
#ifndef FAKE_HW_H
#define FAKE_HW_H

#include <stdbool.h>
#include "../../drivers/base/hw.h"

#define FAKE_MAX 128
#define FAKE_LOG 512

enum fake_kind { FAKE_MSR, FAKE_PCI, FAKE_MMIO };

struct fake_write {
	enum fake_kind kind;
	uint64_t addr; /* MSR number, PCI bus<<16|dev<<11|func<<8 plus offset, or physical address */
	uint64_t value;
};

struct fake_hw {
	struct hw hw;
	/* each MSR of each package (pkg: its physical package ID; 0 unless
	 * declared by fake_msr_pkg) */
	struct { uint32_t msr, pkg; uint64_t value; bool gp_read, gp_write; } msr[FAKE_MAX];
	unsigned nmsr;
	struct { uint64_t addr; uint32_t value; } pci[FAKE_MAX];
	unsigned npci;
	struct { uint64_t addr; uint32_t value; } mmio[FAKE_MAX];
	unsigned nmmio;
	struct { uint32_t leaf, subleaf; struct cpuid_regs r; } cpuid[FAKE_MAX];
	unsigned ncpuid;
	struct { uint32_t index; uint64_t value; enum unc_status fault; } pmc[FAKE_MAX];
	unsigned npmc;
	uint64_t now;
	struct fake_write log[FAKE_LOG];
	unsigned nlog;
	uint32_t log_pkg[FAKE_LOG]; /* each MSR write's package: that of the processor that made it (fake_pkgs) */
	bool drop_msr_writes; /* like QEMU: MSR writes are logged but change nothing */
	uint32_t msr_drop_write; /* this one MSR (0: none) likewise, as a stuck register would */
	unsigned reads; /* every read of any kind, counted */
	unsigned msr_reads;
	unsigned msr_n_calls, pci_n_calls; /* calls of hw_ops.msr_read_n, pci_read32_n (each of their reads counts too) */
	uint64_t ticks_per_mmio_read; /* the clock moves this much on each MMIO read */
	/* MSRs first..last take bits 31:0 of a write, sign-extended to `width`
	 * bits (the P6's PerfCtr0/1, the SDM's "PerfCtr0 and PerfCtr1 MSRs"). */
	struct { uint32_t first, last; unsigned width; } sext;
	/* Memory that is not MMIO (fake_not_mmio): the seam's mmio_check
	 * refuses a range overlapping [lo, hi) with `why`, and an MMIO load or
	 * store there fails the running test (nothing may touch it). */
	struct { uint64_t lo, hi; const char *why; } not_mmio;
	unsigned mmio_checks; /* calls of mmio_check */
	/* fake_pkgs: packages 0..n-1, this processor on package 0; an access
	 * by another package's processor (hw_ops.msr_read_pkg/_write_pkg)
	 * reaches that package's MSRs only. */
	struct hw_pkgs pkgs;
	uint32_t cur_pkg;                 /* the package of the processor making the access */
	unsigned pkg_calls[HW_MAX_PKGS];  /* trips to each package (by ID) */
	unsigned pkg_msr_reads[HW_MAX_PKGS], pkg_msr_writes[HW_MAX_PKGS]; /* MSR accesses made on each package */
	uint64_t ticks_per_pkg_call;      /* the clock moves this much on each trip */
};

void fake_init(struct fake_hw *f);
void fake_msr(struct fake_hw *f, uint32_t msr, uint64_t value);
/* n packages (IDs 0..n-1; n <= HW_MAX_PKGS), reachable through the
 * seam's per-package MSR ops. */
void fake_pkgs(struct fake_hw *f, unsigned n);
/* Packages 0..n-1, package i served by processor i (MP services agreeing),
 * as fake_pkgs and the emulator's host seam give them. */
void fake_pkgs_ids(struct hw_pkgs *p, unsigned n, const char *how);
/* Declares an MSR of package pkg (fake_msr: package 0's). */
void fake_msr_pkg(struct fake_hw *f, uint32_t pkg, uint32_t msr, uint64_t value);
uint64_t *fake_msr_value_pkg(struct fake_hw *f, uint32_t pkg, uint32_t msr);
/* A declared MSR's value, for a test's own hardware model to move (an
 * undeclared one fails the test). */
uint64_t *fake_msr_value(struct fake_hw *f, uint32_t msr);
void fake_msr_gp(struct fake_hw *f, uint32_t msr, bool on_read, bool on_write);
void fake_pci(struct fake_hw *f, struct pci_addr a, uint16_t off, uint32_t value);
void fake_mmio(struct fake_hw *f, uint64_t addr, uint32_t value);
void fake_not_mmio(struct fake_hw *f, uint64_t lo, uint64_t hi, const char *why);
/* Declares one RDPMC index: its value, or the fault RDPMC of it raises
 * (UNC_E_FAULT for #GP, UNC_E_UNSUPPORTED for #UD; UNC_OK for none). */
void fake_pmc(struct fake_hw *f, uint32_t index, uint64_t value, enum unc_status fault);
/* Declares (or redeclares) one CPUID leaf/subleaf. */
void fake_cpuid(struct fake_hw *f, uint32_t leaf, uint32_t subleaf, uint32_t eax, uint32_t ebx, uint32_t ecx,
		uint32_t edx);

static inline uint64_t fake_pci_key(struct pci_addr a, uint16_t off)
{
	return (uint64_t)a.bus << 16 | (uint64_t)a.dev << 11 | (uint64_t)a.func << 8 | (uint64_t)off << 24;
}

/* CPUID of a Skylake desktop part (family 6 model 0x5E) with `cores` cores
 * and `threads` threads, or of an AMD EPYC (family 0x17). */
void fake_cpu_skylake(struct fake_hw *f, unsigned model, unsigned cores, unsigned threads);
void fake_cpu_epyc(struct fake_hw *f);

/* The uncore MSRs of Table 2-1 for a raw NO_CBO_BANKS value (CBos that
 * exist per the manual's subtract-one rule, at most 8: boxes 4-6 at the
 * stride of 0x10, box 7 at 0xF70/0xF76 as Linux has them), all zero, and PCI 0:0.0 with the
 * given host bridge ID and MCHBAR. */
void fake_skl_uncore(struct fake_hw *f, unsigned no_cbo_banks);
void fake_host_bridge(struct fake_hw *f, uint16_t vendor, uint16_t device, uint64_t mchbar);

#endif
