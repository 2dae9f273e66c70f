#include "emu_hw.h"

#include "../unit/t.h"

/* An access: the clock moves by access_ns, then the model answers at the new time. */
static void access(struct emu_hw *h)
{
	h->fake.now += h->access_ns;
	bool spell = !h->stall_to || (h->fake.now >= h->stall_from && h->fake.now < h->stall_to);

	if (h->stall_every && spell && !emu_cur_pkg && ++h->accesses % h->stall_every == 0)
		h->fake.now += h->stall_ns;
	emu_set_time(&h->emu, h->fake.now);
}

static enum unc_status e_msr_read(void *ctx, uint32_t msr, uint64_t *ret)
{
	struct emu_hw *h = ctx;

	access(h);
	enum unc_status st = emu_msr_read(&h->emu, msr, ret);
	if (st == UNC_E_NOT_FOUND) /* not an uncore MSR: the strict fake answers */
		return h->fake.hw.ops->msr_read(&h->fake, msr, ret);
	return st;
}

/* hw_ops.msr_read_n: each MSR as e_msr_read reads it (an access each,
 * on the model's clock), stopping at the first that fails. */
static enum unc_status e_msr_read_n(void *ctx, const uint32_t *msr, unsigned n, uint64_t *ret, unsigned *ret_done)
{
	enum unc_status st = UNC_OK;
	unsigned i;

	for (i = 0; i < n && (st = e_msr_read(ctx, msr[i], &ret[i])) == UNC_OK; i++)
		;
	*ret_done = i;
	return st;
}

static enum unc_status e_msr_write(void *ctx, uint32_t msr, uint64_t v)
{
	struct emu_hw *h = ctx;

	access(h);
	enum unc_status st = emu_msr_write(&h->emu, msr, v);
	if (st == UNC_E_NOT_FOUND)
		return h->fake.hw.ops->msr_write(&h->fake, msr, v);
	if (st == UNC_OK && h->fake.nlog < FAKE_LOG) {
		h->fake.log_pkg[h->fake.nlog] = emu_cur_pkg;
		h->fake.log[h->fake.nlog++] = (struct fake_write){ FAKE_MSR, msr, v };
	}
	return st;
}

static bool fake_declares(const struct fake_hw *f, struct pci_addr a, uint16_t off)
{
	for (unsigned i = 0; i < f->npci; i++)
		if (f->pci[i].addr == fake_pci_key(a, off))
			return true;
	return false;
}

/* PCI, CPUID and RDPMC: the model answers what it claims (protocol
 * revision 2), the strict fake the rest, as the real bus and processor do
 * under uncore-emu.efi. */
static enum unc_status e_pci_read(void *ctx, struct pci_addr a, uint16_t off, uint32_t *ret)
{
	struct emu_hw *h = ctx;

	access(h);
	enum unc_status st = emu_pci_read32(&h->emu, a.bus, a.dev, a.func, off, ret);
	if (st == UNC_E_NOT_FOUND && h->open_bus && !fake_declares(&h->fake, a, off)) {
		*ret = 0xFFFFFFFFu;
		return UNC_OK;
	}
	if (st == UNC_E_NOT_FOUND)
		return h->fake.hw.ops->pci_read32(&h->fake, a, off, ret);
	hw_emulated_pci(&h->emulated, a);
	return st;
}

/* hw_ops.pci_read32_n: each dword as e_pci_read reads it (an access
 * each), stopping at the first that fails. */
static enum unc_status e_pci_read_n(void *ctx, const struct pci_dword *d, unsigned n, uint32_t *ret, unsigned *ret_done)
{
	enum unc_status st = UNC_OK;
	unsigned i;

	for (i = 0; i < n && (st = e_pci_read(ctx, d[i].a, d[i].off, &ret[i])) == UNC_OK; i++)
		;
	*ret_done = i;
	return st;
}

static enum unc_status e_pci_write(void *ctx, struct pci_addr a, uint16_t off, uint32_t v)
{
	struct emu_hw *h = ctx;

	access(h);
	enum unc_status st = emu_pci_write32(&h->emu, a.bus, a.dev, a.func, off, v);
	if (st == UNC_E_NOT_FOUND)
		return h->fake.hw.ops->pci_write32(&h->fake, a, off, v);
	if (st == UNC_OK && h->fake.nlog < FAKE_LOG) /* logged as the strict fake logs its own */
		h->fake.log[h->fake.nlog++] = (struct fake_write){ FAKE_PCI, fake_pci_key(a, off), v };
	hw_emulated_pci(&h->emulated, a);
	return st;
}

static enum unc_status e_rdpmc(void *ctx, uint32_t index, uint64_t *ret)
{
	struct emu_hw *h = ctx;

	access(h);
	enum unc_status st = emu_rdpmc(&h->emu, index, ret);
	if (st == UNC_E_NOT_FOUND)
		return h->fake.hw.ops->rdpmc(&h->fake, index, ret);
	h->emulated.rdpmc = true;
	return st;
}

static enum unc_status e_mmio_read(void *ctx, uint64_t addr, uint32_t *ret)
{
	struct emu_hw *h = ctx;
	uint64_t size = h->emu.cfg.uncore_active >= EMU_UNCORE_ADL ? EMU_ADL_MCHBAR_SIZE : 0x8000;

	h->fake.reads++;
	access(h);
	enum unc_status st = emu_mmio_read32(&h->emu, addr, ret);
	if (st != UNC_E_NOT_FOUND) {
		hw_emulated_mmio(&h->emulated, addr);
		return st;
	}
	if (addr >= EMU_HW_MCHBAR && addr < EMU_HW_MCHBAR + size &&
	    emu_imc_read32(&h->emu.cfg, (uint32_t)(addr - EMU_HW_MCHBAR), h->fake.now, ret)) {
		hw_emulated_mmio(&h->emulated, addr);
		return UNC_OK;
	}
	t_fail(__FILE__, __LINE__, "emu_hw: MMIO read of 0x%llx, not an IMC counter", (unsigned long long)addr);
	return UNC_E_DEVICE;
}

static enum unc_status e_mmio_write(void *ctx, uint64_t addr, uint32_t v)
{
	struct emu_hw *h = ctx;
	access(h);
	enum unc_status st = emu_mmio_write32(&h->emu, addr, v);

	if (st != UNC_E_NOT_FOUND) {
		hw_emulated_mmio(&h->emulated, addr);
		if (st == UNC_OK && h->fake.nlog < FAKE_LOG)
			h->fake.log[h->fake.nlog++] = (struct fake_write){ FAKE_MMIO, addr, v };
		return st;
	}
	t_fail(__FILE__, __LINE__, "emu_hw: MMIO write of 0x%llx, not the model's", (unsigned long long)addr);
	return UNC_E_DEVICE;
}

static void e_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	struct emu_hw *h = ctx;
	struct emu_cpuid o;

	if (emu_cpuid(&h->emu.cfg, leaf, subleaf, &o)) {
		*r = (struct cpuid_regs){ o.eax, o.ebx, o.ecx, o.edx };
		hw_emulated_cpuid(&h->emulated, leaf);
		return;
	}
	h->fake.hw.ops->cpuid(&h->fake, leaf, subleaf, r);
}

static uint64_t e_ticks(void *ctx)
{
	return ((struct emu_hw *)ctx)->fake.now;
}

/* Another package's processor makes the accesses: the model answers
 * for that package (emu_cur_pkg), the fake likewise; in a spell
 * (stall_from, stall_to) it takes the trip trip_ns after it was posted.
 * With ticks, each read's time. */
static enum unc_status pkg_reads(struct emu_hw *h, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret,
				 uint64_t *ticks)
{
	enum unc_status st = UNC_OK;

	if (pkg == 0 || pkg >= h->pkgs.n) {
		t_fail(__FILE__, __LINE__, "emu_hw: a trip to package %u (this processor's, or none)", pkg);
		return UNC_E_NOT_FOUND;
	}
	h->fake.pkg_calls[pkg]++;
	if (h->trip_ns && h->fake.now >= h->stall_from && h->fake.now < h->stall_to)
		h->fake.now += h->trip_ns;
	emu_cur_pkg = h->fake.cur_pkg = pkg;
	for (unsigned i = 0; i < n && st == UNC_OK; i++) {
		st = e_msr_read(h, msr[i], &ret[i]);
		if (ticks)
			ticks[i] = h->fake.now + (uint64_t)h->pkg_clock_ns;
	}
	emu_cur_pkg = h->fake.cur_pkg = 0;
	return st;
}

static enum unc_status e_msr_read_pkg(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret)
{
	return pkg_reads(ctx, pkg, msr, n, ret, NULL);
}

static enum unc_status e_msr_read_pkg_t(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret,
					uint64_t *ticks)
{
	return pkg_reads(ctx, pkg, msr, n, ret, ticks);
}

static enum unc_status e_msr_write_pkg(void *ctx, uint32_t pkg, uint32_t msr, uint64_t v)
{
	struct emu_hw *h = ctx;
	enum unc_status st;

	if (pkg == 0 || pkg >= h->pkgs.n) {
		t_fail(__FILE__, __LINE__, "emu_hw: a trip to package %u (this processor's, or none)", pkg);
		return UNC_E_NOT_FOUND;
	}
	h->fake.pkg_calls[pkg]++;
	emu_cur_pkg = h->fake.cur_pkg = pkg;
	st = e_msr_write(ctx, msr, v);
	emu_cur_pkg = h->fake.cur_pkg = 0;
	return st;
}

/* hw_ops.rdpmc_n: each as e_rdpmc reads it, stopping at the first that
 * fails. */
static enum unc_status e_rdpmc_n(void *ctx, const uint32_t *index, unsigned n, uint64_t *ret, unsigned *ret_done)
{
	enum unc_status st = UNC_OK;
	unsigned i;

	for (i = 0; i < n && (st = e_rdpmc(ctx, index[i], &ret[i])) == UNC_OK; i++)
		;
	*ret_done = i;
	return st;
}

/* hw_ops.read_timed_n: the clock, the MSRs and the RDPMC as
 * e_msr_read_n and e_rdpmc_n read them, the clock again. */
static enum unc_status e_read_timed_n(void *ctx, const uint32_t *idx, unsigned nmsr, unsigned npmc, uint64_t *ret,
				      uint64_t *ret_ticks)
{
	enum unc_status st;
	unsigned done;

	ret_ticks[0] = e_ticks(ctx);
	if ((st = e_msr_read_n(ctx, idx, nmsr, ret, &done)) ||
	    (npmc && (st = e_rdpmc_n(ctx, idx + nmsr, npmc, ret + nmsr, &done))))
		return st;
	ret_ticks[1] = e_ticks(ctx);
	return UNC_OK;
}

static const struct hw_ops emu_ops = {
	.msr_read = e_msr_read,
	.msr_write = e_msr_write,
	.pci_read32 = e_pci_read,
	.pci_write32 = e_pci_write,
	.mmio_read32 = e_mmio_read,
	.cpuid = e_cpuid,
	.ticks = e_ticks,
	.rdpmc = e_rdpmc,
	.mmio_write32 = e_mmio_write,
	.msr_read_n = e_msr_read_n,
	.pci_read32_n = e_pci_read_n,
	.rdpmc_n = e_rdpmc_n,
	.read_timed_n = e_read_timed_n,
};

static struct hw_ops emu_pkg_ops;

void emu_hw_pkgs(struct emu_hw *h, unsigned n)
{
	fake_pkgs_ids(&h->pkgs, n, "the host seam's");
	emu_pkg_ops = emu_ops;
	emu_pkg_ops.msr_read_pkg = e_msr_read_pkg;
	emu_pkg_ops.msr_write_pkg = e_msr_write_pkg;
	emu_pkg_ops.msr_read_pkg_t = e_msr_read_pkg_t;
	h->hw.ops = &emu_pkg_ops;
	h->hw.pkgs = &h->pkgs;
}

static void init(struct emu_hw *h, const struct emu_config *cfg, bool set_leaf1, uint32_t leaf1_eax)
{
	struct cpuid_regs r;
	struct emu_cpuid o;

	fake_init(&h->fake);
	emu_cur_pkg = 0;
	h->access_ns = 0;
	h->stall_every = h->accesses = 0;
	h->stall_ns = h->stall_from = h->stall_to = h->trip_ns = 0;
	h->pkg_clock_ns = 0;
	h->open_bus = false;
	h->emulated = (struct hw_emulated){ 0 };
	fake_cpu_skylake(&h->fake, 0x5E, 4, 8);
	if (set_leaf1) {
		h->fake.hw.ops->cpuid(&h->fake, 1, 0, &r);
		fake_cpuid(&h->fake, 1, 0, leaf1_eax, r.ebx, r.ecx, r.edx);
	}
	fake_host_bridge(&h->fake, 0x8086, 0x1910, emu_mchbar_value(cfg, EMU_HW_MCHBAR));
	/* The identity the guest sees: --cpuid's leaf 1, else the fake's. */
	if (emu_cpuid(cfg, 1, 0, &o))
		r = (struct cpuid_regs){ o.eax, o.ebx, o.ecx, o.edx };
	else
		h->fake.hw.ops->cpuid(&h->fake, 1, 0, &r);
	emu_init_cpu(&h->emu, &h->core, cfg, r.eax);
	emu_core_leaf1(&h->emu, r.eax, r.ebx, r.ecx, r.edx);
	if (h->emu.cfg.uncore_active == EMU_UNCORE_ADL || h->emu.cfg.uncore_active == EMU_UNCORE_MTL ||
	    h->emu.cfg.uncore_active == EMU_UNCORE_LNL)
		h->emu.imcp.mchbar = EMU_HW_MCHBAR;
	h->hw = (struct hw){ .ops = &emu_ops, .ctx = h, .tick_hz = 1000000000, .msr_mode = HW_MSR_EMULATED,
			   .emulated = &h->emulated };
}

void emu_hw_init(struct emu_hw *h, const struct emu_config *cfg)
{
	init(h, cfg, false, 0);
}

void emu_hw_init_cpu(struct emu_hw *h, const struct emu_config *cfg, uint32_t leaf1_eax)
{
	init(h, cfg, true, leaf1_eax);
}

void emu_hw_advance(struct emu_hw *h, uint64_t ns)
{
	h->fake.now += ns;
}

bool emu_hw_wait_until(void *ctx, uint64_t when)
{
	struct emu_hw *eh = ctx;

	if (when > eh->fake.now)
		eh->fake.now = when;
	return false;
}
