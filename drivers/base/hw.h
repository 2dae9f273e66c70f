/* The hardware seam: the only way drivers/ touches hardware.
 *
 * efi/hw_native.c implements it with rdmsr/wrmsr/rdpmc (guarded against #GP,
 * and rdpmc against #UD), EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL, plain 32-bit
 * loads and the TSC; with the uncore emulator loaded (tests/emu), what the
 * emulator claims goes to it instead.
 * tests/unit/fake_hw.c implements it with a strict register file.
 * Nothing here includes a firmware header. */
#ifndef UNC_HW_H
#define UNC_HW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "status.h"

struct pci_addr {
	uint8_t bus, dev, func;
};

/* One dword of a function's configuration space (hw_ops.pci_read32_n). */
struct pci_dword {
	struct pci_addr a;
	uint16_t off; /* 4-byte aligned, below 0x1000 */
};

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* How MSR accesses reach the hardware; reported by `info` and stored with results. */
enum hw_msr_mode {
	HW_MSR_NATIVE,   /* rdmsr/wrmsr on this processor */
	HW_MSR_EMULATED, /* routed to the uncore emulator (tests/emu) */
};

/* What the emulator answered besides the MSRs (HW_MSR_EMULATED), as the
 * accesses so far found it: `info` names each emulated path. */
#define HW_EMULATED_MAX 8
struct hw_emulated {
	uint32_t cpuid_leaf[HW_EMULATED_MAX]; /* CPUID leaves it overrode */
	unsigned ncpuid;
	struct pci_addr pci[HW_EMULATED_MAX]; /* PCI functions whose configuration space it answered */
	unsigned npci;
	uint64_t mmio_page[HW_EMULATED_MAX]; /* 4 KiB pages of physical memory whose loads it answered */
	unsigned nmmio;
	bool rdpmc; /* it answered RDPMC */
};

struct hw_ops {
	/* UNC_E_FAULT when the access raised #GP; *ret_val is then left untouched. */
	enum unc_status (*msr_read)(void *ctx, uint32_t msr, uint64_t *ret_val);
	enum unc_status (*msr_write)(void *ctx, uint32_t msr, uint64_t val);
	/* 32-bit configuration access; off must be 4-byte aligned, below 0x1000.
	 * UNC_E_NOT_FOUND: no root bridge decodes the bus (nothing is there). */
	enum unc_status (*pci_read32)(void *ctx, struct pci_addr a, uint16_t off, uint32_t *ret_val);
	enum unc_status (*pci_write32)(void *ctx, struct pci_addr a, uint16_t off, uint32_t val);
	/* One 32-bit load from physical memory; phys must be 4-byte aligned. */
	enum unc_status (*mmio_read32)(void *ctx, uint64_t phys, uint32_t *ret_val);
	void (*cpuid)(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *ret);
	/* Monotonic ticks; struct hw.tick_hz says how many make a second. */
	uint64_t (*ticks)(void *ctx);
	/* RDPMC of index (ECX). UNC_E_FAULT when it raised #GP (a counter
	 * that does not exist), UNC_E_UNSUPPORTED when it raised #UD (QEMU's
	 * TCG does for every RDPMC); *ret_val is then left untouched. */
	enum unc_status (*rdpmc)(void *ctx, uint32_t index, uint64_t *ret_val);
	/* A 32-bit read of an I/O port (the ACPI PM timer); NULL: no port I/O. */
	enum unc_status (*io_read32)(void *ctx, uint16_t port, uint32_t *ret_val);
	/* One 32-bit store to physical memory (MMIO PMON registers); phys
	 * 4-byte aligned. NULL: no MMIO writes (UNC_E_UNSUPPORTED). */
	enum unc_status (*mmio_write32)(void *ctx, uint64_t phys, uint32_t val);
	/* A sample's free-running counters in one call: ticks() into
	 * ret_ticks[0], then n 32-bit loads, one from each phys[i] in order
	 * (each 4-byte aligned: the caller checks), zero-extended into
	 * ret_val[i], then ticks() into ret_ticks[1]: what ticks, n calls of
	 * mmio_read32 and ticks give. On failure ret_val and ret_ticks are
	 * undefined. NULL: none (the engine then makes those calls). */
	enum unc_status (*mmio_read32_n)(void *ctx, const uint64_t *phys, unsigned n, uint64_t *ret_val,
					 uint64_t *ret_ticks);
	/* The processor idles for about us microseconds, or less (the
	 * firmware's idle loop until its timer fires): nothing is read or
	 * written. For waits whose time is a clock read at both ends anyway.
	 * NULL: no idling (callers poll). */
	void (*idle)(void *ctx, uint32_t us);
	/* Whether [phys, phys + len) is MMIO that may be loaded and stored:
	 * UNC_OK, or UNC_E_NOT_MMIO with one phrase in why naming the address
	 * and the reason (system memory in the firmware's maps, or not mapped
	 * by it). The native seam makes the same check before every MMIO load
	 * and store that reaches memory, and refuses them with that status.
	 * NULL: every address is MMIO (a fake without memory). */
	enum unc_status (*mmio_check)(void *ctx, uint64_t phys, uint64_t len, char *why, size_t whysize);
	/* MSR access by a processor of another package (struct hw_pkgs): pkg
	 * is one of its IDs other than the running processor's. n reads in one
	 * call, in order (a sample's MSRs of that package: one trip to it);
	 * UNC_E_FAULT when one raised #GP (which one is not said: the caller
	 * reads them one at a time to name it). NULL: no other package is
	 * reachable (one package, or no MP services). */
	enum unc_status (*msr_read_pkg)(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret_val);
	enum unc_status (*msr_write_pkg)(void *ctx, uint32_t pkg, uint32_t msr, uint64_t val);
	/* n MSRs of the running processor in one call, in order: msr[i]
	 * into ret_val[i], each read guarded as msr_read's. The first that
	 * fails stops the call: its status, and its index in *ret_done (the
	 * ones before it are read; it and those after are not); n in
	 * *ret_done on UNC_OK. What n calls of msr_read give, less the calls.
	 * NULL: none (hw_msr_read_n makes those calls). */
	enum unc_status (*msr_read_n)(void *ctx, const uint32_t *msr, unsigned n, uint64_t *ret_val, unsigned *ret_done);
	/* n configuration reads in one call, in order: d[i] into ret_val[i]
	 * (each offset 4-byte aligned, below 0x1000: the caller checks). The
	 * first that fails stops the call as msr_read_n's does (*ret_done its
	 * index). What n calls of pci_read32 give, less the calls. NULL: none
	 * (hw_pci_read32_n makes those calls). */
	enum unc_status (*pci_read32_n)(void *ctx, const struct pci_dword *d, unsigned n, uint32_t *ret_val,
					unsigned *ret_done);
	/* n RDPMC in one call, in order (index[i] into ret_val[i]), each
	 * guarded as rdpmc's; the first that fails stops the call as
	 * msr_read_n's does. NULL: none (hw_rdpmc_n makes n rdpmc calls). */
	enum unc_status (*rdpmc_n)(void *ctx, const uint32_t *index, unsigned n, uint64_t *ret_val, unsigned *ret_done);
	/* A sample's reads of the running processor in one call: ticks()
	 * into ret_ticks[0], the nmsr MSRs idx[0, nmsr) and then the npmc
	 * RDPMC idx[nmsr, nmsr + npmc) into ret_val in the same places, then
	 * ticks() into ret_ticks[1]: what ticks, msr_read_n, rdpmc_n and
	 * ticks give, less the calls (natively one guard for all). The first
	 * read that fails stops the call with its status; which one is not
	 * said (the caller reads them again one at a time to name it), and
	 * ret_val and ret_ticks are then undefined. NULL: none
	 * (hw_read_timed_n makes those calls). */
	enum unc_status (*read_timed_n)(void *ctx, const uint32_t *idx, unsigned nmsr, unsigned npmc, uint64_t *ret_val,
					uint64_t *ret_ticks);
	/* msr_read_pkg's trip with each read's time: ret_ticks[i] what
	 * ticks() gives on that package's processor right after it read
	 * msr[i]. One count where the processors' clocks agree (the TSCs of
	 * one board, QEMU's vCPUs), which the caller checks: a time outside
	 * its own clock's readings before and after the call is not used.
	 * NULL: none (msr_read_pkg alone). */
	enum unc_status (*msr_read_pkg_t)(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret_val,
					  uint64_t *ret_ticks);
};

/* The processor packages the seam found (efi/hw_native.c: the x2APIC
 * topology of CPUID 0x1F, else 0x0B, else 0x01/0x04, applied to each
 * processor's APIC ID from MP services, and MP services' own
 * Location.Package beside it). More packages than HW_MAX_PKGS (twice the
 * biggest machine, 8 sockets) are refused by name. */
#define HW_MAX_PKGS 16
struct hw_pkgs {
	unsigned n;                 /* packages found (the running processor's first) */
	uint32_t id[HW_MAX_PKGS];   /* each one's physical package ID */
	uint32_t cpu[HW_MAX_PKGS];  /* the processor (MP services' number) that serves it */
	uint32_t mp_pkg[HW_MAX_PKGS]; /* MP services' Location.Package of that processor */
	uint32_t cpus;              /* processors MP services reports (enabled) */
	const char *how;            /* where the IDs came from ("CPUID leaf 0xB and MP services") */
	bool mp_agrees;             /* MP services' Location.Package gave the same packages */
	unsigned more;              /* packages found beyond HW_MAX_PKGS (none is used then) */
};

/* Notes that the emulator answered a path, once. */
static inline void hw_emulated_cpuid(struct hw_emulated *e, uint32_t leaf)
{
	for (unsigned i = 0; i < e->ncpuid; i++)
		if (e->cpuid_leaf[i] == leaf)
			return;
	if (e->ncpuid < HW_EMULATED_MAX)
		e->cpuid_leaf[e->ncpuid++] = leaf;
}

static inline void hw_emulated_pci(struct hw_emulated *e, struct pci_addr a)
{
	for (unsigned i = 0; i < e->npci; i++)
		if (e->pci[i].bus == a.bus && e->pci[i].dev == a.dev && e->pci[i].func == a.func)
			return;
	if (e->npci < HW_EMULATED_MAX)
		e->pci[e->npci++] = a;
}

static inline void hw_emulated_mmio(struct hw_emulated *e, uint64_t phys)
{
	uint64_t page = phys & ~0xFFFull;

	for (unsigned i = 0; i < e->nmmio; i++)
		if (e->mmio_page[i] == page)
			return;
	if (e->nmmio < HW_EMULATED_MAX)
		e->mmio_page[e->nmmio++] = page;
}

/* How struct hw.tick_hz was found (drivers/base/tsc.h: enum tsc_source). */
struct hw_tsc {
	uint8_t source;       /* where tick_hz came from */
	uint8_t ref;          /* the hardware clock measured against; 0: none */
	uint16_t windows;     /* windows measured */
	uint32_t spread_ppm;  /* how far the windows disagreed: (max - min) / median */
	uint64_t measured_hz; /* the measurement's median; 0: not measured */
	uint64_t cpuid_hz;    /* CPUID 0x15/0x16's figure; 0: not given */
};

struct hw {
	const struct hw_ops *ops;
	void *ctx;
	uint64_t tick_hz;
	struct hw_tsc tsc;
	enum hw_msr_mode msr_mode;
	const char *emulator; /* HW_MSR_EMULATED: the emulator's own description */
	const struct hw_emulated *emulated; /* HW_MSR_EMULATED: its other paths; NULL: none */
	/* The packages (pkgs->id[0] is the running processor's); NULL: one
	 * package, the running processor's, whose ID is taken as 0. */
	const struct hw_pkgs *pkgs;
};

static inline enum unc_status hw_msr_read(const struct hw *hw, uint32_t msr, uint64_t *ret_val)
{
	return hw->ops->msr_read(hw->ctx, msr, ret_val);
}

/* n MSRs of the running processor (struct hw_ops.msr_read_n, or one
 * msr_read each): on failure, *ret_done is the index of the one that
 * failed, and nothing after it is read. */
static inline enum unc_status hw_msr_read_n(const struct hw *hw, const uint32_t *msr, unsigned n, uint64_t *ret_val,
					    unsigned *ret_done)
{
	enum unc_status st = UNC_OK;
	unsigned i;

	if (hw->ops->msr_read_n)
		return hw->ops->msr_read_n(hw->ctx, msr, n, ret_val, ret_done);
	for (i = 0; i < n && (st = hw->ops->msr_read(hw->ctx, msr[i], &ret_val[i])) == UNC_OK; i++)
		;
	*ret_done = i;
	return st;
}

static inline enum unc_status hw_msr_write(const struct hw *hw, uint32_t msr, uint64_t val)
{
	return hw->ops->msr_write(hw->ctx, msr, val);
}

/* The running processor's package ID (0 when not known). */
static inline uint32_t hw_pkg_here(const struct hw *hw)
{
	return hw->pkgs && hw->pkgs->n ? hw->pkgs->id[0] : 0;
}

/* Whether a processor of package `pkg` can be reached. */
static inline bool hw_pkg_known(const struct hw *hw, uint32_t pkg)
{
	if (pkg == hw_pkg_here(hw))
		return true;
	for (unsigned i = 1; hw->pkgs && hw->ops->msr_read_pkg && i < hw->pkgs->n; i++)
		if (hw->pkgs->id[i] == pkg)
			return true;
	return false;
}

/* MSR access on a processor of package `pkg`: the running processor for
 * its own package, else one of that package (UNC_E_NOT_FOUND: none). */
static inline enum unc_status hw_msr_read_pkg(const struct hw *hw, uint32_t pkg, uint32_t msr, uint64_t *ret_val)
{
	if (pkg == hw_pkg_here(hw))
		return hw_msr_read(hw, msr, ret_val);
	if (!hw_pkg_known(hw, pkg))
		return UNC_E_NOT_FOUND;
	return hw->ops->msr_read_pkg(hw->ctx, pkg, &msr, 1, ret_val);
}

static inline enum unc_status hw_msr_write_pkg(const struct hw *hw, uint32_t pkg, uint32_t msr, uint64_t val)
{
	if (pkg == hw_pkg_here(hw))
		return hw_msr_write(hw, msr, val);
	if (!hw_pkg_known(hw, pkg) || !hw->ops->msr_write_pkg)
		return UNC_E_NOT_FOUND;
	return hw->ops->msr_write_pkg(hw->ctx, pkg, msr, val);
}

/* n MSRs of package `pkg` in one trip (the running processor reads its
 * own package's itself). */
static inline enum unc_status hw_msr_read_n_pkg(const struct hw *hw, uint32_t pkg, const uint32_t *msr, unsigned n,
						uint64_t *ret_val)
{
	enum unc_status st = UNC_OK;

	if (pkg != hw_pkg_here(hw))
		return hw_pkg_known(hw, pkg) ? hw->ops->msr_read_pkg(hw->ctx, pkg, msr, n, ret_val) : UNC_E_NOT_FOUND;
	for (unsigned i = 0; i < n && st == UNC_OK; i++)
		st = hw_msr_read(hw, msr[i], &ret_val[i]);
	return st;
}

static inline enum unc_status hw_pci_read32(const struct hw *hw, struct pci_addr a, uint16_t off,
					    uint32_t *ret_val)
{
	if (off & 3 || off >= 0x1000)
		return UNC_E_RANGE;
	return hw->ops->pci_read32(hw->ctx, a, off, ret_val);
}

/* n configuration dwords (struct hw_ops.pci_read32_n, or one pci_read32
 * each), as hw_msr_read_n reads MSRs; the offsets checked by the caller. */
static inline enum unc_status hw_pci_read32_n(const struct hw *hw, const struct pci_dword *d, unsigned n,
					      uint32_t *ret_val, unsigned *ret_done)
{
	enum unc_status st = UNC_OK;
	unsigned i;

	if (hw->ops->pci_read32_n)
		return hw->ops->pci_read32_n(hw->ctx, d, n, ret_val, ret_done);
	for (i = 0; i < n && (st = hw->ops->pci_read32(hw->ctx, d[i].a, d[i].off, &ret_val[i])) == UNC_OK; i++)
		;
	*ret_done = i;
	return st;
}

static inline enum unc_status hw_pci_write32(const struct hw *hw, struct pci_addr a, uint16_t off,
					     uint32_t val)
{
	if (off & 3 || off >= 0x1000)
		return UNC_E_RANGE;
	return hw->ops->pci_write32(hw->ctx, a, off, val);
}

static inline enum unc_status hw_mmio_read32(const struct hw *hw, uint64_t phys, uint32_t *ret_val)
{
	if (phys & 3)
		return UNC_E_RANGE;
	return hw->ops->mmio_read32(hw->ctx, phys, ret_val);
}

static inline enum unc_status hw_mmio_write32(const struct hw *hw, uint64_t phys, uint32_t val)
{
	if (phys & 3)
		return UNC_E_RANGE;
	if (!hw->ops->mmio_write32)
		return UNC_E_UNSUPPORTED;
	return hw->ops->mmio_write32(hw->ctx, phys, val);
}

/* Before a driver accepts an MMIO base: the range it will touch is MMIO
 * the firmware maps (struct hw_ops.mmio_check). */
static inline enum unc_status hw_mmio_check(const struct hw *hw, uint64_t phys, uint64_t len, char *why,
					    size_t whysize)
{
	if (whysize)
		why[0] = '\0';
	return hw->ops->mmio_check ? hw->ops->mmio_check(hw->ctx, phys, len, why, whysize) : UNC_OK;
}

/* Whether the seam reads many MMIO dwords in one call (else each is a
 * call of hw_mmio_read32). */
static inline bool hw_has_mmio_read32_n(const struct hw *hw)
{
	return hw->ops->mmio_read32_n != 0;
}

/* Only where hw_has_mmio_read32_n. */
static inline enum unc_status hw_mmio_read32_n(const struct hw *hw, const uint64_t *phys, unsigned n,
					      uint64_t *ret_val, uint64_t *ret_ticks)
{
	return hw->ops->mmio_read32_n(hw->ctx, phys, n, ret_val, ret_ticks);
}

static inline void hw_cpuid(const struct hw *hw, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *ret)
{
	hw->ops->cpuid(hw->ctx, leaf, subleaf, ret);
}

static inline enum unc_status hw_rdpmc(const struct hw *hw, uint32_t index, uint64_t *ret_val)
{
	return hw->ops->rdpmc(hw->ctx, index, ret_val);
}

/* n RDPMC (struct hw_ops.rdpmc_n, or one rdpmc each), as hw_msr_read_n. */
static inline enum unc_status hw_rdpmc_n(const struct hw *hw, const uint32_t *index, unsigned n, uint64_t *ret_val,
					 unsigned *ret_done)
{
	enum unc_status st = UNC_OK;
	unsigned i;

	if (hw->ops->rdpmc_n)
		return hw->ops->rdpmc_n(hw->ctx, index, n, ret_val, ret_done);
	for (i = 0; i < n && (st = hw->ops->rdpmc(hw->ctx, index[i], &ret_val[i])) == UNC_OK; i++)
		;
	*ret_done = i;
	return st;
}

/* A sample's MSRs and RDPMC counters between two clock reads
 * (struct hw_ops.read_timed_n, or ticks, hw_msr_read_n, hw_rdpmc_n and
 * ticks). */
static inline enum unc_status hw_read_timed_n(const struct hw *hw, const uint32_t *idx, unsigned nmsr, unsigned npmc,
					      uint64_t *ret_val, uint64_t *ret_ticks)
{
	enum unc_status st;
	unsigned done;

	if (hw->ops->read_timed_n)
		return hw->ops->read_timed_n(hw->ctx, idx, nmsr, npmc, ret_val, ret_ticks);
	ret_ticks[0] = hw->ops->ticks(hw->ctx);
	if ((st = hw_msr_read_n(hw, idx, nmsr, ret_val, &done)) ||
	    (npmc && (st = hw_rdpmc_n(hw, idx + nmsr, npmc, ret_val + nmsr, &done))))
		return st;
	ret_ticks[1] = hw->ops->ticks(hw->ctx);
	return UNC_OK;
}

static inline enum unc_status hw_io_read32(const struct hw *hw, uint16_t port, uint32_t *ret_val)
{
	if (port & 3)
		return UNC_E_RANGE;
	if (!hw->ops->io_read32)
		return UNC_E_UNSUPPORTED;
	return hw->ops->io_read32(hw->ctx, port, ret_val);
}

static inline uint64_t hw_ticks(const struct hw *hw)
{
	return hw->ops->ticks(hw->ctx);
}

static inline const char *hw_msr_mode_name(enum hw_msr_mode m)
{
	return m == HW_MSR_EMULATED ? "emulated" : "native";
}

#endif
