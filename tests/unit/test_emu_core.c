/* The emulator's model core (tests/emu/model.c) over register tables: the
 * Skylake table is consistent, and the core does what a table says for a
 * PMU it has never seen (a small PMU of this file's own), including the
 * revision-2 paths: PCI configuration space and RDPMC. */
#include <string.h>

#include "../emu/model.h"
#include "t.h"

/* Every bit of a register is exactly one of writable, RW1C, reserved, or
 * (read-only register) none; no address answers twice; counters are in
 * range and each counter has one value and one control register. */
static void skl_table_is_consistent(void)
{
	const struct emu_pmu *p = &emu_pmu_skl;
	unsigned values[EMU_MSR_CTRS] = { 0 }, controls[EMU_MSR_CTRS] = { 0 };

	T_ASSERT(p->nregs > 0 && p->nctr <= EMU_MSR_CTRS);
	for (unsigned r = 0; r < p->nregs; r++) {
		const struct emu_reg *a = &p->regs[r];
		T_ASSERT(a->name && a->n >= 1 && a->stride >= 1);
		T_EQ(a->writable & a->rw1c, 0);
		T_EQ(a->writable & a->reserved, 0);
		T_EQ(a->rw1c & a->reserved, 0);
		if (a->read_only) {
			T_EQ(a->writable | a->rw1c, 0);
		} else {
			T_EQ(a->writable | a->rw1c | a->reserved, ~0ull);
		}
		if (a->kind == EMU_REG_CONFIG)
			T_ASSERT(a->read != NULL);
		if (a->kind == EMU_REG_COUNTER) {
			T_ASSERT(a->width > 0 && a->width < 64);
			T_EQ(a->writable, (1ull << a->width) - 1);
		}
		if (a->kind == EMU_REG_COUNTER || (a->kind == EMU_REG_CONTROL && a->ctr >= 0)) {
			T_ASSERT(a->ctr >= 0 && (unsigned)a->ctr + a->n <= p->nctr);
			for (unsigned i = 0; i < a->n; i++)
				(a->kind == EMU_REG_COUNTER ? values : controls)[a->ctr + i]++;
		}
		for (unsigned q = 0; q < r; q++) {
			const struct emu_reg *b = &p->regs[q];
			for (unsigned i = 0; i < a->n; i++)
				for (unsigned j = 0; j < b->n; j++)
					if (a->msr + i * a->stride == b->msr + j * b->stride)
						t_fail(__FILE__, __LINE__, "MSR 0x%x is both %s and %s", a->msr + i * a->stride,
						       a->name, b->name);
		}
	}
	for (unsigned c = 0; c < p->nctr; c++) {
		T_EQ(values[c], 1);
		T_EQ(controls[c], 1);
	}
}

/* A PMU of this test's own: one global control (EN bit 0, RW1C bit 1,
 * bits 3:2 read-only), a status, a read-only ID, two 16-bit counters at
 * 0x20/0x22 with controls at 0x21/0x23, a window 0x20-0x2F, a PCI
 * function 1:2.3 and RDPMC of its two counters. */
#define T_CTRL_EN  1ull
#define T_SEL_EN   1ull
static uint32_t pci_reg[4];

static uint64_t t_id(const struct emu *e)
{
	(void)e;
	return 0x1234;
}

static void t_init(struct emu *e)
{
	e->ncbo = 1; /* counter 1's registers are box 1: absent */
}

static bool t_enabled(const struct emu *e)
{
	return e->global_ctrl & T_CTRL_EN;
}

static bool t_ctr_enabled(const struct emu *e, const struct emu_ctr *c)
{
	(void)e;
	return c->sel & T_SEL_EN;
}

static bool t_ovf(const struct emu_ctr *c)
{
	(void)c;
	return true;
}

static bool t_no_freeze(const struct emu *e)
{
	(void)e;
	return false;
}

static void t_freeze(struct emu *e)
{
	(void)e;
}

/* 1000 per second on a 1 kHz clock: one per cycle. */
static uint64_t t_increment(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1)
{
	(void)e;
	(void)c;
	return c1 - c0;
}

static enum unc_status t_rdpmc(struct emu *e, uint32_t index, uint64_t *ret_val)
{
	if (index >= 1)
		return UNC_E_FAULT;
	*ret_val = e->ctr[index].value;
	return UNC_OK;
}

static enum unc_status t_pci_read(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t *ret_val)
{
	(void)e;
	(void)d;
	if (off >= sizeof(pci_reg))
		return UNC_E_FAULT;
	*ret_val = pci_reg[off / 4];
	return UNC_OK;
}

static enum unc_status t_pci_write(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t val)
{
	(void)e;
	(void)d;
	if (off >= sizeof(pci_reg))
		return UNC_E_FAULT;
	pci_reg[off / 4] = val;
	return UNC_OK;
}

static const struct emu_reg t_regs[] = {
	{ "CTRL", 0x10, 1, 1, EMU_REG_CONTROL, 0, -1, -1, 0, 0, 0x1, 0x2, ~0xFull, false, NULL, false, 0, false, 0 },
	{ "STATUS", 0x11, 1, 1, EMU_REG_STATUS, 0, -1, -1, 0, 0, 0, 0x3, ~0x3ull, false, NULL, false, 0, false, 0 },
	{ "ID", 0x12, 1, 1, EMU_REG_CONFIG, 0, -1, -1, 0, 0, 0, 0, 0, true, t_id, false, 0, false, 0 },
	{ "CTR0", 0x20, 1, 1, EMU_REG_COUNTER, 16, -1, 0, 0, 0, 0xFFFF, 0, ~0xFFFFull, false, NULL, false, 0, false, 0 },
	{ "SEL0", 0x21, 1, 1, EMU_REG_CONTROL, 0, -1, 0, 0, 0, 0xFF, 0, ~0xFFull, false, NULL, false, 0, false, 0 },
	{ "CTR1", 0x22, 1, 1, EMU_REG_COUNTER, 16, 1, 1, 0, 1, 0xFFFF, 0, ~0xFFFFull, false, NULL, false, 0, false, 0 },
	{ "SEL1", 0x23, 1, 1, EMU_REG_CONTROL, 0, 1, 1, 0, 0, 0xFF, 0, ~0xFFull, false, NULL, false, 0, false, 0 },
};
static const struct emu_window t_windows[] = { { 0x20, 0x2F } };
static const struct emu_pci_dev t_pci[] = { { 1, 2, 3, t_pci_read, t_pci_write, 0 } };
static const struct emu_pmu t_pmu = {
	.name = "test",
	.regs = t_regs,
	.nregs = 7,
	.windows = t_windows,
	.nwindows = 1,
	.pci = t_pci,
	.npci = 1,
	.nctr = 2,
	.ops = { t_init, t_enabled, t_ctr_enabled, t_ovf, t_no_freeze, t_freeze, t_increment, t_rdpmc },
};

static struct emu e;

static void start(void)
{
	struct emu_config cfg;

	emu_config_default(&cfg);
	cfg.uclk_hz = 1000;
	emu_init_pmu(&e, &t_pmu, &cfg);
}

static uint64_t rd(uint32_t msr)
{
	uint64_t v = 0xdead;
	T_EQ(emu_msr_read(&e, msr, &v), UNC_OK);
	return v;
}

static void a_new_table_needs_no_core_change(void)
{
	uint64_t v = 0;

	start();
	/* writable, RW1C, read-only bits, reserved bits */
	T_EQ(emu_msr_write(&e, 0x10, 0x1), UNC_OK);
	T_EQ(rd(0x10), 0x1);
	T_EQ(emu_msr_write(&e, 0x10, 0x10), UNC_E_FAULT);
	T_EQ(rd(0x10), 0x1);
	T_EQ(emu_msr_write(&e, 0x10, 0xC), UNC_OK); /* bits 3:2 read-only: ignored */
	T_EQ(rd(0x10), 0x0);
	T_EQ(rd(0x12), 0x1234);
	T_EQ(emu_msr_write(&e, 0x12, 0), UNC_E_FAULT);
	/* window and box: 0x24 is the PMU's but nothing answers it; counter
	 * 1 is box 1, absent; 0x30 is not the PMU's */
	T_EQ(emu_msr_read(&e, 0x24, &v), UNC_E_FAULT);
	T_EQ(emu_msr_read(&e, 0x22, &v), UNC_E_FAULT);
	T_EQ(emu_msr_read(&e, 0x30, &v), UNC_E_NOT_FOUND);
	/* counting through the hooks, a 16-bit wrap sets status bit 0 */
	T_EQ(emu_msr_write(&e, 0x20, 0xFFF0), UNC_OK);
	T_EQ(emu_msr_write(&e, 0x21, T_SEL_EN), UNC_OK);
	T_EQ(emu_msr_write(&e, 0x10, T_CTRL_EN), UNC_OK);
	emu_set_time(&e, 100000000); /* 100 ms: 100 cycles */
	T_EQ(rd(0x20), (0xFFF0 + 100) & 0xFFFF);
	T_EQ(rd(0x11), 0x1);
	T_EQ(emu_msr_write(&e, 0x11, 0x1), UNC_OK);
	T_EQ(rd(0x11), 0x0);
	T_EQ(emu_msr_write(&e, 0x20, 0x10000), UNC_E_FAULT);
}

static void pci_and_rdpmc_paths(void)
{
	uint32_t v = 0;
	uint64_t q = 0;

	start();
	T_EQ(emu_pci_write32(&e, 1, 2, 3, 4, 0xCAFE), UNC_OK);
	T_EQ(emu_pci_read32(&e, 1, 2, 3, 4, &v), UNC_OK);
	T_EQ(v, 0xCAFE);
	T_EQ(emu_pci_read32(&e, 0, 0, 0, 0, &v), UNC_E_NOT_FOUND); /* not emulated: the real bus */
	T_EQ(emu_pci_read32(&e, 1, 2, 3, 2, &v), UNC_E_RANGE);
	T_EQ(emu_msr_write(&e, 0x20, 77), UNC_OK);
	T_EQ(emu_rdpmc(&e, 0, &q), UNC_OK);
	T_EQ(q, 77);
	T_EQ(emu_rdpmc(&e, 1, &q), UNC_E_FAULT);

	/* The Skylake model has neither: PCI and RDPMC go to the processor. */
	struct emu_config cfg;
	emu_config_default(&cfg);
	emu_init(&e, &cfg);
	T_EQ(emu_pci_read32(&e, 0, 0, 0, 0x48, &v), UNC_E_NOT_FOUND);
	T_EQ(emu_rdpmc(&e, 0, &q), UNC_E_NOT_FOUND);
}

T_MAIN("emu_core", T_CASE(skl_table_is_consistent), T_CASE(a_new_table_needs_no_core_change),
       T_CASE(pci_and_rdpmc_paths))
