/* The model core: it walks a PMU's register table (struct emu_pmu, one
 * table file per PMU) and applies counting through the PMU's hooks. Nothing
 * here knows a PMU's addresses or bit fields. */
#include "model.h"

#include <string.h>

#include "../../drivers/base/arith.h"

#define NS_PER_S 1000000000ull

unsigned emu_cur_pkg;

void emu_config_default(struct emu_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->no_cbo_banks = 5;
	cfg->uclk_hz = 800000000;
	/* The architectural PMU of Skylake: version 4, four 48-bit general
	 * counters, three 48-bit fixed counters, full-width writes. */
	cfg->arch = (struct emu_arch_shape){ 4, 4, 48, 3, 48 };
	cfg->perf_capabilities = EMU_ARCH_FW_WRITE;
	cfg->sockets = EMU_SNBEP_DEFAULT_SOCKETS;
}

static uint64_t cycles_at(const struct emu *e, uint64_t t_ns)
{
	return u64_muldiv(t_ns, e->clock_hz, NS_PER_S);
}

static bool counting(const struct emu *e, const struct emu_ctr *c)
{
	return e->pmu->ops.enabled(e) && e->pmu->ops.ctr_enabled(e, c) && !c->stuck;
}

/* The model spreads an event evenly over cycles: after n cycles an event of
 * rate r has incremented floor(n * r / f) times, so each cycle's increment is
 * floor(r/f) or one more. The select's per-cycle fields then act:
 *  - thr = 0: the increment passes unchanged (inv has no effect);
 *  - thr > 0: the counter adds 1 in each cycle whose increment is >= thr,
 *    or, with inv, < thr;
 *  - edge: the counter adds 1 per rising edge of that per-cycle condition
 *    (for thr = 0, "increment > 0"). An evenly spread condition true in a
 *    fraction q of cycles has min(q, 1-q) rising edges per cycle: this is
 *    exact up to one edge at each end of [c0, c1), which is the model's
 *    approximation. */
uint64_t emu_spread(uint64_t f, uint64_t r, uint64_t c0, uint64_t c1, unsigned thr, bool inv, bool edge)
{
	uint64_t cycles = c1 - c0;
	uint64_t total = u64_muldiv(c1, r, f) - u64_muldiv(c0, r, f);

	if (thr == 0 && !edge)
		return total;
	uint64_t n = r / f, hi = total - n * cycles; /* cycles whose increment is n + 1 */
	uint64_t asserted;
	if (thr) {
		asserted = n >= thr ? cycles : n + 1 >= thr ? hi : 0;
		if (inv)
			asserted = cycles - asserted;
	} else {
		asserted = n >= 1 ? cycles : hi;
	}
	if (!edge)
		return asserted;
	return asserted < cycles - asserted ? asserted : cycles - asserted;
}

static uint64_t width_mask(unsigned w)
{
	return ((uint64_t)1 << w) - 1;
}

/* Applies counting up to the current time. A wrap sets the counter's
 * global status bit only when the PMU forwards its overflow; when the PMU
 * freezes on overflow, the first forwarded wrap stops every counter at
 * that cycle. */
static void sync(struct emu *e)
{
	const struct emu_pmu_ops *ops = &e->pmu->ops;
	uint64_t c_now = cycles_at(e, e->now_ns), c_end = c_now;
	bool freeze = false;

	if (c_now <= e->synced)
		return;
	if (!ops->enabled(e)) {
		e->synced = c_now;
		return;
	}
	if (ops->freeze_on_ovf(e)) {
		for (unsigned i = 0; i < e->pmu->nctr; i++) {
			struct emu_ctr *c = &e->ctr[i];
			if (!counting(e, c) || !ops->ovf_forwarded(c))
				continue;
			uint64_t need = width_mask(c->width) + 1 - c->value;
			if (ops->increment(e, c, e->synced, c_end) < need)
				continue;
			/* The first cycle at which this counter wraps. */
			uint64_t lo = e->synced + 1, hi = c_end;
			while (lo < hi) {
				uint64_t mid = lo + (hi - lo) / 2;
				if (ops->increment(e, c, e->synced, mid) >= need)
					hi = mid;
				else
					lo = mid + 1;
			}
			c_end = lo;
			freeze = true;
		}
	}
	for (unsigned i = 0; i < e->pmu->nctr; i++) {
		struct emu_ctr *c = &e->ctr[i];
		if (!counting(e, c))
			continue;
		uint64_t v = c->value + ops->increment(e, c, e->synced, c_end);
		if (v > width_mask(c->width) && ops->ovf_forwarded(c))
			e->global_status |= 1ull << c->status_bit;
		c->value = v & width_mask(c->width);
	}
	if (freeze)
		ops->freeze(e);
	e->synced = c_now;
}

void emu_init_pmu(struct emu *e, const struct emu_pmu *pmu, const struct emu_config *cfg)
{
	memset(e, 0, sizeof(*e));
	e->cfg = *cfg;
	e->pmu = pmu;
	e->clock_hz = cfg->uclk_hz;
	/* The counters as the table describes them. */
	for (unsigned r = 0; r < pmu->nregs; r++) {
		const struct emu_reg *reg = &pmu->regs[r];
		if (reg->kind != EMU_REG_COUNTER || reg->alias)
			continue;
		for (unsigned i = 0; i < reg->n; i++)
			e->ctr[reg->ctr + i] = (struct emu_ctr){ .width = reg->width, .status_bit = reg->status_bit,
								 .unit = reg->unit, .index = (uint8_t)i };
	}
	/* --fault stuck= numbers its counters as the Skylake-client table does
	 * (enum emu_ctr_id); the other tables number theirs otherwise, and
	 * emu_uncore_check refuses the fault there. */
	for (unsigned i = 0; pmu == &emu_pmu_skl && i < pmu->nctr && i < EMU_NCTR; i++)
		e->ctr[i].stuck = cfg->stuck[i];
	pmu->ops.init(e);
}

void emu_set_time(struct emu *e, uint64_t now_ns)
{
	for (; e; e = e->next)
		if (now_ns > e->now_ns)
			e->now_ns = now_ns;
}

/* The register at msr: UNC_OK with *ret_reg and *ret_i (its place in the
 * range); UNC_E_FAULT when the PMU owns the address but nothing present
 * answers it; UNC_E_NOT_FOUND when the address is not the PMU's. */
static enum unc_status decode(const struct emu *e, uint32_t msr, const struct emu_reg **ret_reg, unsigned *ret_i)
{
	const struct emu_pmu *pmu = e->pmu;

	for (unsigned r = 0; r < pmu->nregs; r++) {
		const struct emu_reg *reg = &pmu->regs[r];
		if (msr < reg->msr || (msr - reg->msr) % reg->stride || (msr - reg->msr) / reg->stride >= reg->n)
			continue;
		if (reg->box >= 0 && (unsigned)reg->box >= e->ncbo)
			return UNC_E_FAULT;
		*ret_reg = reg;
		*ret_i = (msr - reg->msr) / reg->stride;
		return UNC_OK;
	}
	for (unsigned w = 0; w < pmu->nwindows; w++)
		if (msr >= pmu->windows[w].first && msr <= pmu->windows[w].last)
			return UNC_E_FAULT;
	return UNC_E_NOT_FOUND;
}

/* Where a register's value lives. EMU_REG_CONFIG has no storage (read());
 * a write to EMU_REG_STATUS_CLEAR changes the global status. */
static uint64_t *storage(struct emu *e, const struct emu_reg *reg, unsigned i)
{
	switch (reg->kind) {
	case EMU_REG_COUNTER: return &e->ctr[reg->ctr + i].value;
	case EMU_REG_CONTROL: return reg->ctr < 0 ? &e->global_ctrl : &e->ctr[reg->ctr + i].sel;
	case EMU_REG_STATUS: return &e->global_status;
	case EMU_REG_PLAIN: return &e->plain[reg->slot + i];
	default: return NULL;
	}
}

static bool injected_gp(const struct emu *e, uint32_t msr, bool write)
{
	for (unsigned i = 0; i < e->cfg.ngp; i++)
		if (e->cfg.gp[i].msr == msr && (write || !e->cfg.gp[i].write_only))
			return true;
	return false;
}

static enum unc_status pmu_msr_read(struct emu *e, uint32_t msr, uint64_t *ret_val)
{
	const struct emu_reg *reg = NULL;
	unsigned i = 0;
	enum unc_status st;

	if (e->pmu->msr_read) {
		sync(e);
		if ((st = e->pmu->msr_read(e, msr, ret_val)) != UNC_E_NOT_FOUND)
			return st;
	}
	st = decode(e, msr, &reg, &i);
	if (st)
		return st;
	if (reg->write_only)
		return UNC_E_FAULT;
	sync(e);
	if (reg->kind == EMU_REG_CONFIG) {
		*ret_val = reg->read(e);
		return UNC_OK;
	}
	if (reg->kind == EMU_REG_STATUS_CLEAR) {
		*ret_val = 0;
		return UNC_OK;
	}
	*ret_val = *storage(e, reg, i);
	return UNC_OK;
}

static uint64_t sign_extend(uint64_t v, unsigned bits)
{
	uint64_t m = 1ull << (bits - 1);
	v &= (m << 1) - 1;
	return (v ^ m) - m;
}

/* The unit numbers of the register tables (every MSR or PCI counter's);
 * the programmable IMC counters of pmu_adl.c, which are MMIO only, and the
 * discovery iMC's apply EMU_RO_IMC_PROG and EMU_RO_IMC themselves. */
int emu_ro_of_unit(unsigned unit)
{
	switch (unit) {
	case EMU_UNIT_CBO: return EMU_RO_CBOX;
	case EMU_UNIT_ARB: return EMU_RO_ARB;
	case EMU_UNIT_FIXED: return EMU_RO_CLOCK;
	case EMU_UNIT_HAC_ARB: return EMU_RO_HAC_ARB;
	case EMU_UNIT_HAC_CBO: return EMU_RO_HAC_CBOX;
	case EMU_UNIT_IMC: return EMU_RO_IMC;
	case EMU_UNIT_IMC_FIXED: return EMU_RO_IMC_FIXED;
	case EMU_UNIT_DISC_IMC: return EMU_RO_IMC;
	case EMU_UNIT_DISC_CHA: return EMU_RO_CHA;
	case EMU_UNIT_P6: return EMU_RO_P6;
	case EMU_UNIT_KNC: return EMU_RO_KNC;
	case EMU_UNIT_ARCH: return EMU_RO_CPU;
	case EMU_UNIT_ARCH_FIXED: return EMU_RO_CPU_FIXED;
	default: return -1;
	}
}

static enum unc_status pmu_msr_write(struct emu *e, uint32_t msr, uint64_t v)
{
	const struct emu_reg *reg = NULL;
	unsigned i = 0;
	enum unc_status st;

	if (e->pmu->msr_write) {
		sync(e);
		if ((st = e->pmu->msr_write(e, msr, v)) != UNC_E_NOT_FOUND)
			return st;
	}
	st = decode(e, msr, &reg, &i);
	if (st)
		return st;
	if (reg->sext)
		v = sign_extend(v, reg->sext) & reg->writable;
	/* Every check before any change: a faulting write changes nothing. */
	uint64_t *p = reg->kind == EMU_REG_STATUS_CLEAR ? &e->global_status : storage(e, reg, i);
	if (reg->read_only || (v & reg->reserved) || !p)
		return UNC_E_FAULT;
	int ro = reg->kind == EMU_REG_COUNTER ? emu_ro_of_unit(reg->unit) : -1;
	if (ro >= 0 && emu_ro(&e->cfg, (unsigned)ro))
		return UNC_OK; /* --fault ro-counters: taken, and ignored */
	sync(e);
	if (reg->kind == EMU_REG_STATUS_CLEAR)
		*p &= ~(v & reg->writable);
	else
		*p = ((*p & ~reg->writable) | (v & reg->writable)) & ~(v & reg->rw1c);
	return UNC_OK;
}

/* Injected faults first (they are the configuration's, whichever PMU owns
 * the address), then each PMU served in turn. */
enum unc_status emu_msr_read(struct emu *e, uint32_t msr, uint64_t *ret_val)
{
	if (injected_gp(e, msr, false))
		return UNC_E_FAULT;
	for (struct emu *f = e; f; f = f->next) {
		enum unc_status st = f->pmu->msr_first ? pmu_msr_read(f, msr, ret_val) : UNC_E_NOT_FOUND;
		if (st != UNC_E_NOT_FOUND)
			return st;
	}
	for (; e; e = e->next) {
		enum unc_status st = pmu_msr_read(e, msr, ret_val);
		if (st != UNC_E_NOT_FOUND)
			return st;
	}
	return UNC_E_NOT_FOUND;
}

enum unc_status emu_msr_write(struct emu *e, uint32_t msr, uint64_t v)
{
	if (injected_gp(e, msr, true))
		return UNC_E_FAULT;
	for (struct emu *f = e; f; f = f->next) {
		enum unc_status st = f->pmu->msr_first ? pmu_msr_write(f, msr, v) : UNC_E_NOT_FOUND;
		if (st != UNC_E_NOT_FOUND)
			return st;
	}
	for (; e; e = e->next) {
		enum unc_status st = pmu_msr_write(e, msr, v);
		if (st != UNC_E_NOT_FOUND)
			return st;
	}
	return UNC_E_NOT_FOUND;
}

/* The PMU's PCI function at bus/dev/func, with the model brought up to
 * now; NULL when the PMU does not emulate it. */
static const struct emu_pci_dev *pci_dev(struct emu **pe, uint8_t bus, uint8_t dev, uint8_t func)
{
	for (struct emu *e = *pe; e; e = e->next) {
		const struct emu_pci_dev *tab = e->pci ? e->pci : e->pmu->pci;
		for (unsigned d = 0, n = e->pci ? e->npci : e->pmu->npci; d < n; d++) {
			const struct emu_pci_dev *p = &tab[d];
			if (p->bus == bus && p->dev == dev && p->func == func) {
				sync(e);
				*pe = e;
				return p;
			}
		}
	}
	return NULL;
}

enum unc_status emu_pci_read32(struct emu *e, uint8_t bus, uint8_t dev, uint8_t func, uint16_t off,
			       uint32_t *ret_val)
{
	if (off & 3 || off >= 0x1000)
		return UNC_E_RANGE;
	const struct emu_pci_dev *p = pci_dev(&e, bus, dev, func);
	return p ? p->read32(e, p, off, ret_val) : UNC_E_NOT_FOUND;
}

enum unc_status emu_pci_write32(struct emu *e, uint8_t bus, uint8_t dev, uint8_t func, uint16_t off, uint32_t val)
{
	if (off & 3 || off >= 0x1000)
		return UNC_E_RANGE;
	const struct emu_pci_dev *p = pci_dev(&e, bus, dev, func);
	return p ? p->write32(e, p, off, val) : UNC_E_NOT_FOUND;
}

enum unc_status emu_mmio_read32(struct emu *e, uint64_t addr, uint32_t *ret_val)
{
	for (; e; e = e->next) {
		if (!e->pmu->mmio_read32)
			continue;
		sync(e);
		enum unc_status st = e->pmu->mmio_read32(e, addr, ret_val);
		if (st != UNC_E_NOT_FOUND)
			return st;
	}
	return UNC_E_NOT_FOUND;
}

enum unc_status emu_mmio_write32(struct emu *e, uint64_t addr, uint32_t val)
{
	for (; e; e = e->next) {
		if (!e->pmu->mmio_write32)
			continue;
		sync(e);
		enum unc_status st = e->pmu->mmio_write32(e, addr, val);
		if (st != UNC_E_NOT_FOUND)
			return st;
	}
	return UNC_E_NOT_FOUND;
}

enum unc_status emu_rdpmc(struct emu *e, uint32_t index, uint64_t *ret_val)
{
	for (; e; e = e->next) {
		if (e->pmu->ops.rdpmc) {
			sync(e);
			return e->pmu->ops.rdpmc(e, index, ret_val);
		}
	}
	return UNC_E_NOT_FOUND;
}

bool emu_cpuid(const struct emu_config *cfg, uint32_t leaf, uint32_t subleaf, struct emu_cpuid *ret)
{
	for (unsigned i = 0; i < cfg->ncpuid; i++) {
		if (cfg->cpuid[i].leaf == leaf && cfg->cpuid[i].subleaf == subleaf) {
			*ret = cfg->cpuid[i];
			return true;
		}
	}
	return emu_core_cpuid(cfg, leaf, subleaf, ret);
}

unsigned emu_cur_pkg;
