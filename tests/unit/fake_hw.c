#include "fake_hw.h"
#include "../../drivers/base/fmt.h"

#include <string.h>

#include "t.h"

static int find_msr_pkg(struct fake_hw *f, uint32_t pkg, uint32_t msr)
{
	for (unsigned i = 0; i < f->nmsr; i++)
		if (f->msr[i].msr == msr && f->msr[i].pkg == pkg)
			return (int)i;
	return -1;
}

/* On the package of the processor making the access. */
static int find_msr(struct fake_hw *f, uint32_t msr)
{
	return find_msr_pkg(f, f->cur_pkg, msr);
}

static enum unc_status f_msr_read(void *ctx, uint32_t msr, uint64_t *ret)
{
	struct fake_hw *f = ctx;
	int i = find_msr(f, msr);

	f->reads++;
	f->msr_reads++;
	if (f->cur_pkg < HW_MAX_PKGS)
		f->pkg_msr_reads[f->cur_pkg]++;
	if (i < 0) {
		t_fail(__FILE__, __LINE__, "fake_hw: rdmsr of undeclared MSR 0x%x on package %u", msr, f->cur_pkg);
		return UNC_E_FAULT;
	}
	if (f->msr[i].gp_read)
		return UNC_E_FAULT;
	*ret = f->msr[i].value;
	return UNC_OK;
}

static enum unc_status f_msr_write(void *ctx, uint32_t msr, uint64_t v)
{
	struct fake_hw *f = ctx;
	int i = find_msr(f, msr);

	if (i < 0) {
		t_fail(__FILE__, __LINE__, "fake_hw: wrmsr of undeclared MSR 0x%x on package %u", msr, f->cur_pkg);
		return UNC_E_FAULT;
	}
	if (f->msr[i].gp_write)
		return UNC_E_FAULT;
	if (f->cur_pkg < HW_MAX_PKGS)
		f->pkg_msr_writes[f->cur_pkg]++;
	if (f->nlog < FAKE_LOG) {
		f->log_pkg[f->nlog] = f->cur_pkg;
		f->log[f->nlog++] = (struct fake_write){ FAKE_MSR, msr, v };
	}
	if (f->sext.width && msr >= f->sext.first && msr <= f->sext.last)
		v = (uint64_t)(int64_t)(int32_t)(uint32_t)v & (f->sext.width >= 64 ? ~0ull : (1ull << f->sext.width) - 1);
	if (!f->drop_msr_writes && msr != f->msr_drop_write)
		f->msr[i].value = v;
	return UNC_OK;
}

static int find_pci(struct fake_hw *f, uint64_t key)
{
	for (unsigned i = 0; i < f->npci; i++)
		if (f->pci[i].addr == key)
			return (int)i;
	return -1;
}

static enum unc_status f_pci_read(void *ctx, struct pci_addr a, uint16_t off, uint32_t *ret)
{
	struct fake_hw *f = ctx;
	int i = find_pci(f, fake_pci_key(a, off));

	f->reads++;
	if (i < 0) {
		/* An absent function reads all ones on real PCI; a test must
		 * still declare it, so that no read goes unexamined. */
		t_fail(__FILE__, __LINE__, "fake_hw: PCI read of undeclared %02x:%02x.%x offset 0x%x", a.bus, a.dev,
		       a.func, off);
		return UNC_E_DEVICE;
	}
	*ret = f->pci[i].value;
	return UNC_OK;
}

static enum unc_status f_pci_write(void *ctx, struct pci_addr a, uint16_t off, uint32_t v)
{
	struct fake_hw *f = ctx;
	uint64_t key = fake_pci_key(a, off);
	int i = find_pci(f, key);

	if (i < 0) {
		t_fail(__FILE__, __LINE__, "fake_hw: PCI write of undeclared %02x:%02x.%x offset 0x%x", a.bus,
		       a.dev, a.func, off);
		return UNC_E_DEVICE;
	}
	if (f->nlog < FAKE_LOG)
		f->log[f->nlog++] = (struct fake_write){ FAKE_PCI, key, v };
	f->pci[i].value = v;
	return UNC_OK;
}

static bool in_not_mmio(const struct fake_hw *f, uint64_t addr)
{
	return addr >= f->not_mmio.lo && addr < f->not_mmio.hi;
}

static enum unc_status f_mmio_check(void *ctx, uint64_t phys, uint64_t len, char *why, size_t whysize)
{
	struct fake_hw *f = ctx;

	f->mmio_checks++;
	if (phys < f->not_mmio.hi && f->not_mmio.lo < phys + len) {
		fmt_snprintf(why, whysize, "%s", f->not_mmio.why);
		return UNC_E_NOT_MMIO;
	}
	return UNC_OK;
}

static enum unc_status f_mmio_read(void *ctx, uint64_t addr, uint32_t *ret)
{
	struct fake_hw *f = ctx;

	if (in_not_mmio(f, addr)) {
		t_fail(__FILE__, __LINE__, "fake_hw: MMIO read of 0x%llx, which is not MMIO", (unsigned long long)addr);
		return UNC_E_NOT_MMIO;
	}
	f->reads++;
	f->now += f->ticks_per_mmio_read;
	for (unsigned i = 0; i < f->nmmio; i++) {
		if (f->mmio[i].addr == addr) {
			*ret = f->mmio[i].value;
			return UNC_OK;
		}
	}
	t_fail(__FILE__, __LINE__, "fake_hw: MMIO read of undeclared address 0x%llx", (unsigned long long)addr);
	return UNC_E_DEVICE;
}

static enum unc_status f_mmio_write(void *ctx, uint64_t addr, uint32_t v)
{
	struct fake_hw *f = ctx;

	if (in_not_mmio(f, addr)) {
		t_fail(__FILE__, __LINE__, "fake_hw: MMIO write of 0x%llx, which is not MMIO", (unsigned long long)addr);
		return UNC_E_NOT_MMIO;
	}
	for (unsigned i = 0; i < f->nmmio; i++) {
		if (f->mmio[i].addr == addr) {
			if (f->nlog < FAKE_LOG)
				f->log[f->nlog++] = (struct fake_write){ FAKE_MMIO, addr, v };
			f->mmio[i].value = v;
			return UNC_OK;
		}
	}
	t_fail(__FILE__, __LINE__, "fake_hw: MMIO write of undeclared address 0x%llx", (unsigned long long)addr);
	return UNC_E_DEVICE;
}

static void f_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	struct fake_hw *f = ctx;

	for (unsigned i = 0; i < f->ncpuid; i++) {
		if (f->cpuid[i].leaf == leaf && f->cpuid[i].subleaf == subleaf) {
			*r = f->cpuid[i].r;
			return;
		}
	}
	t_fail(__FILE__, __LINE__, "fake_hw: CPUID leaf 0x%x subleaf %u is undeclared", leaf, subleaf);
	*r = (struct cpuid_regs){ 0 };
}

static enum unc_status f_rdpmc(void *ctx, uint32_t index, uint64_t *ret)
{
	struct fake_hw *f = ctx;

	f->reads++;
	for (unsigned i = 0; i < f->npmc; i++) {
		if (f->pmc[i].index == index) {
			if (f->pmc[i].fault)
				return f->pmc[i].fault;
			*ret = f->pmc[i].value;
			return UNC_OK;
		}
	}
	t_fail(__FILE__, __LINE__, "fake_hw: RDPMC of undeclared index 0x%x", index);
	return UNC_E_FAULT;
}

static uint64_t f_ticks(void *ctx)
{
	return ((struct fake_hw *)ctx)->now;
}

/* hw_ops.msr_read_n: each MSR as f_msr_read reads it, stopping at the
 * first that fails. */
static enum unc_status f_msr_read_n(void *ctx, const uint32_t *msr, unsigned n, uint64_t *ret, unsigned *ret_done)
{
	struct fake_hw *f = ctx;
	enum unc_status st = UNC_OK;
	unsigned i;

	f->msr_n_calls++;
	for (i = 0; i < n && (st = f_msr_read(ctx, msr[i], &ret[i])) == UNC_OK; i++)
		;
	*ret_done = i;
	return st;
}

/* hw_ops.pci_read32_n: each dword as f_pci_read reads it, stopping at the
 * first that fails. */
static enum unc_status f_pci_read_n(void *ctx, const struct pci_dword *d, unsigned n, uint32_t *ret, unsigned *ret_done)
{
	enum unc_status st = UNC_OK;
	unsigned i;

	((struct fake_hw *)ctx)->pci_n_calls++;
	for (i = 0; i < n && (st = f_pci_read(ctx, d[i].a, d[i].off, &ret[i])) == UNC_OK; i++)
		;
	*ret_done = i;
	return st;
}

/* hw_ops.rdpmc_n: each as f_rdpmc reads it, stopping at the first that
 * fails. */
static enum unc_status f_rdpmc_n(void *ctx, const uint32_t *index, unsigned n, uint64_t *ret, unsigned *ret_done)
{
	enum unc_status st = UNC_OK;
	unsigned i;

	for (i = 0; i < n && (st = f_rdpmc(ctx, index[i], &ret[i])) == UNC_OK; i++)
		;
	*ret_done = i;
	return st;
}

/* A processor of package pkg makes the accesses (MP services' StartupThisAP). */
static enum unc_status f_msr_read_pkg(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret)
{
	struct fake_hw *f = ctx;
	enum unc_status st = UNC_OK;

	if (pkg == f->pkgs.id[0] || pkg >= f->pkgs.n) {
		t_fail(__FILE__, __LINE__, "fake_hw: a trip to package %u (this processor's, or none)", pkg);
		return UNC_E_NOT_FOUND;
	}
	f->pkg_calls[pkg]++;
	f->now += f->ticks_per_pkg_call;
	f->cur_pkg = pkg;
	for (unsigned i = 0; i < n && st == UNC_OK; i++)
		st = f_msr_read(ctx, msr[i], &ret[i]);
	f->cur_pkg = f->pkgs.id[0];
	return st;
}

static enum unc_status f_msr_write_pkg(void *ctx, uint32_t pkg, uint32_t msr, uint64_t v)
{
	struct fake_hw *f = ctx;
	enum unc_status st;

	if (pkg == f->pkgs.id[0] || pkg >= f->pkgs.n) {
		t_fail(__FILE__, __LINE__, "fake_hw: a trip to package %u (this processor's, or none)", pkg);
		return UNC_E_NOT_FOUND;
	}
	f->pkg_calls[pkg]++;
	f->cur_pkg = pkg;
	st = f_msr_write(ctx, msr, v);
	f->cur_pkg = f->pkgs.id[0];
	return st;
}

static const struct hw_ops fake_ops = {
	.msr_read = f_msr_read,
	.msr_write = f_msr_write,
	.pci_read32 = f_pci_read,
	.pci_write32 = f_pci_write,
	.mmio_read32 = f_mmio_read,
	.cpuid = f_cpuid,
	.ticks = f_ticks,
	.rdpmc = f_rdpmc,
	.mmio_write32 = f_mmio_write,
	.mmio_check = f_mmio_check,
	.msr_read_n = f_msr_read_n,
	.pci_read32_n = f_pci_read_n,
	.rdpmc_n = f_rdpmc_n,
};

static struct hw_ops fake_pkg_ops;

void fake_pkgs_ids(struct hw_pkgs *p, unsigned n, const char *how)
{
	*p = (struct hw_pkgs){ .n = n, .cpus = n, .how = how, .mp_agrees = true };
	for (unsigned i = 0; i < n && i < HW_MAX_PKGS; i++)
		p->id[i] = p->mp_pkg[i] = i, p->cpu[i] = i;
}

void fake_pkgs(struct fake_hw *f, unsigned n)
{
	fake_pkgs_ids(&f->pkgs, n, "the fake's");
	fake_pkg_ops = fake_ops;
	fake_pkg_ops.msr_read_pkg = f_msr_read_pkg;
	fake_pkg_ops.msr_write_pkg = f_msr_write_pkg;
	f->hw.ops = &fake_pkg_ops;
	f->hw.pkgs = &f->pkgs;
}

void fake_msr_pkg(struct fake_hw *f, uint32_t pkg, uint32_t msr, uint64_t value)
{
	uint32_t cur = f->cur_pkg;

	f->cur_pkg = pkg;
	fake_msr(f, msr, value);
	f->cur_pkg = cur;
}

uint64_t *fake_msr_value_pkg(struct fake_hw *f, uint32_t pkg, uint32_t msr)
{
	static uint64_t none;
	int i = find_msr_pkg(f, pkg, msr);

	if (i >= 0)
		return &f->msr[i].value;
	t_fail(__FILE__, __LINE__, "fake_hw: MSR 0x%x of package %u is not declared", msr, pkg);
	return &none;
}

void fake_init(struct fake_hw *f)
{
	memset(f, 0, sizeof(*f));
	f->hw = (struct hw){ .ops = &fake_ops, .ctx = f, .tick_hz = 1000000000, .msr_mode = HW_MSR_NATIVE };
}

static void declare_fail(const char *what)
{
	t_fail(__FILE__, __LINE__, "fake_hw: too many %s declared", what);
}

uint64_t *fake_msr_value(struct fake_hw *f, uint32_t msr)
{
	static uint64_t none;
	int i = find_msr(f, msr);

	if (i >= 0)
		return &f->msr[i].value;
	t_fail(__FILE__, __LINE__, "fake_hw: MSR 0x%x is not declared", msr);
	return &none;
}

void fake_msr(struct fake_hw *f, uint32_t msr, uint64_t value)
{
	int i = find_msr(f, msr);

	if (i < 0) {
		if (f->nmsr == FAKE_MAX)
			return declare_fail("MSRs");
		i = (int)f->nmsr++;
		f->msr[i].msr = msr;
		f->msr[i].pkg = f->cur_pkg;
	}
	f->msr[i].value = value;
}

void fake_msr_gp(struct fake_hw *f, uint32_t msr, bool on_read, bool on_write)
{
	int i = find_msr(f, msr);

	if (i < 0) {
		fake_msr(f, msr, 0);
		i = find_msr(f, msr);
	}
	f->msr[i].gp_read = on_read;
	f->msr[i].gp_write = on_write;
}

void fake_pci(struct fake_hw *f, struct pci_addr a, uint16_t off, uint32_t value)
{
	uint64_t key = fake_pci_key(a, off);
	int i = find_pci(f, key);

	if (i < 0) {
		if (f->npci == FAKE_MAX)
			return declare_fail("PCI registers");
		i = (int)f->npci++;
		f->pci[i].addr = key;
	}
	f->pci[i].value = value;
}

void fake_not_mmio(struct fake_hw *f, uint64_t lo, uint64_t hi, const char *why)
{
	f->not_mmio.lo = lo;
	f->not_mmio.hi = hi;
	f->not_mmio.why = why;
}

void fake_mmio(struct fake_hw *f, uint64_t addr, uint32_t value)
{
	if (f->nmmio == FAKE_MAX)
		return declare_fail("MMIO words");
	f->mmio[f->nmmio].addr = addr;
	f->mmio[f->nmmio++].value = value;
}

void fake_pmc(struct fake_hw *f, uint32_t index, uint64_t value, enum unc_status fault)
{
	if (f->npmc == FAKE_MAX)
		t_fail(__FILE__, __LINE__, "fake_hw: too many RDPMC indexes");
	else
		f->pmc[f->npmc++] = (typeof(f->pmc[0])){ index, value, fault };
}

void fake_cpuid(struct fake_hw *f, uint32_t leaf, uint32_t subleaf, uint32_t eax, uint32_t ebx, uint32_t ecx,
		uint32_t edx)
{
	unsigned i = 0;

	while (i < f->ncpuid && !(f->cpuid[i].leaf == leaf && f->cpuid[i].subleaf == subleaf))
		i++;
	if (i == FAKE_MAX)
		return declare_fail("CPUID leaves");
	if (i == f->ncpuid)
		f->ncpuid++;
	f->cpuid[i].leaf = leaf;
	f->cpuid[i].subleaf = subleaf;
	f->cpuid[i].r = (struct cpuid_regs){ eax, ebx, ecx, edx };
}

static uint32_t str4(const char *s)
{
	uint32_t v;

	memcpy(&v, s, 4);
	return v;
}

static void brand(struct fake_hw *f, const char *text)
{
	char b[48];

	memset(b, ' ', sizeof(b));
	memcpy(b, text, strlen(text) < 48 ? strlen(text) : 47);
	b[47] = '\0';
	for (uint32_t i = 0; i < 3; i++)
		fake_cpuid(f, 0x80000002 + i, 0, str4(b + 16 * i), str4(b + 16 * i + 4), str4(b + 16 * i + 8),
			   str4(b + 16 * i + 12));
}

void fake_cpu_skylake(struct fake_hw *f, unsigned model, unsigned cores, unsigned threads)
{
	/* "GenuineIntel" is EBX, EDX, ECX = "Genu", "ineI", "ntel". */
	fake_cpuid(f, 0, 0, 0x16, str4("Genu"), str4("ntel"), str4("ineI"));
	uint32_t eax = 0x3 | (model & 0xf) << 4 | 6 << 8 | (model >> 4) << 16;
	fake_cpuid(f, 1, 0, eax, threads << 16, 0x80000000u /* hypervisor */, 1u << 28);
	/* No architectural PMU, as QEMU's TCG reports (a test of the core PMU
	 * driver redeclares it) */
	fake_cpuid(f, 0xA, 0, 0, 0, 0, 0);
	fake_cpuid(f, 0xB, 0, 1, threads / cores, 0x100, 0);
	fake_cpuid(f, 0xB, 1, 4, threads, 0x201, 0);
	fake_cpuid(f, 0xB, 2, 0, 0, 2, 0);
	fake_cpuid(f, 0x80000000, 0, 0x80000008, 0, 0, 0);
	brand(f, "  Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz");
	fake_cpuid(f, 0x80000008, 0, 0x3027, 0, 0, 0);
}

void fake_cpu_epyc(struct fake_hw *f)
{
	/* "AuthenticAMD": EBX "Auth", EDX "enti", ECX "cAMD". */
	fake_cpuid(f, 0, 0, 0xd, str4("Auth"), str4("cAMD"), str4("enti"));
	fake_cpuid(f, 1, 0, 0x00800f12, 0x10000, 0, 1u << 28);
	fake_cpuid(f, 0xB, 0, 1, 1, 0x100, 0);
	fake_cpuid(f, 0xB, 1, 1, 1, 0x201, 0);
	fake_cpuid(f, 0xB, 2, 0, 0, 2, 0);
	fake_cpuid(f, 0x80000000, 0, 0x80000008, 0, 0, 0);
	brand(f, "AMD EPYC Processor");
	fake_cpuid(f, 0x80000008, 0, 0x3030, 0, 0, 0);
}

void fake_skl_uncore(struct fake_hw *f, unsigned no_cbo_banks)
{
	unsigned cbos = no_cbo_banks ? no_cbo_banks - 1 : 0;

	if (cbos > 8)
		cbos = 8;
	fake_msr(f, 0xE01, 0);
	fake_msr(f, 0xE02, 0);
	fake_msr(f, 0x394, 0);
	fake_msr(f, 0x395, 0);
	fake_msr(f, 0x396, no_cbo_banks);
	for (uint32_t m = 0x3B0; m <= 0x3B3; m++)
		fake_msr(f, m, 0);
	for (unsigned box = 0; box < cbos; box++) {
		uint32_t sel = box == 7 ? 0xF70 : 0x700 + 0x10 * box, ctr = box == 7 ? 0xF76 : 0x706 + 0x10 * box;
		fake_msr(f, sel, 0);
		fake_msr(f, sel + 1, 0);
		fake_msr(f, ctr, 0);
		fake_msr(f, ctr + 1, 0);
	}
}

void fake_host_bridge(struct fake_hw *f, uint16_t vendor, uint16_t device, uint64_t mchbar)
{
	struct pci_addr hb = { 0, 0, 0 };

	fake_pci(f, hb, 0, (uint32_t)device << 16 | vendor);
	fake_pci(f, hb, 0x48, (uint32_t)mchbar);
	fake_pci(f, hb, 0x4C, (uint32_t)(mchbar >> 32));
}
