/* The discovery-table driver (drivers/pmu/disc.c) in the engine, against a
 * model of its hardware typed here: one 8086:09A7 device whose DVSEC 0x23
 * points (BIR 0) at a table of 8 iMC channel units (MMIO), one CHA (MSR) and
 * one broken entry; the registers as Linux's uncore_discovery.c addresses
 * them (MSR ctl + offset + i; MMIO selects + 4i, counters + 8i) and the box
 * control's freeze bit 0 (GENERIC_PMON_BOX_CTL_FRZ). The entries are typed
 * from Linux's struct uncore_unit_discovery layout (num_regs 7:0,
 * ctl_offset 15:8, bit_width 23:16, ctr_offset 31:24, access_type 63:62;
 * box_type 15:0, box_id 31:16 of the third qword). */
#include <stdio.h>
#include <string.h>
#include "fake_hw.h"
#include "run_help.h"
#include "t.h"
#include "../../drivers/base/fmt.h"
#include "../../drivers/engine/evsel.h"
#include "../../drivers/pmu/disc.h"

#define S  1000000000ull
#define MS 1000000ull
#define NCH 8
#define TABLE 0xFE000000ull
#define IMC(c) (0xFE010000ull + 0x4000ull * (c))
#define MASK48 0xFFFFFFFFFFFFull

struct wlog {
	int space; /* 0 MSR, 1 MMIO */
	uint64_t addr, v;
};

static struct {
	struct fake_hw f;
	struct hw hw;
	uint32_t box[NCH], sel[NCH][4];
	uint64_t ctr[NCH][4], rate[NCH];
	uint64_t cha_box, cha_sel[4], cha_ctr[4], cha_rate, cbo_config;
	bool cbo_fault; /* MSR 0x2FFE raises #GP */
	struct wlog log[256];
	unsigned nlog;
	uint64_t table[64][3];
	unsigned nentries;
} m;

static enum unc_status m_msr_read(void *ctx, uint32_t msr, uint64_t *v)
{
	(void)ctx;
	if (msr == 0x2000)
		*v = m.cha_box;
	else if (msr >= 0x2002 && msr <= 0x2005)
		*v = m.cha_sel[msr - 0x2002];
	else if (msr >= 0x2008 && msr <= 0x200B)
		*v = m.cha_ctr[msr - 0x2008];
	else if (msr == 0x2FFE && !m.cbo_fault)
		*v = m.cbo_config;
	else
		return UNC_E_FAULT;
	return UNC_OK;
}

static enum unc_status m_msr_write(void *ctx, uint32_t msr, uint64_t v)
{
	(void)ctx;
	if (m.nlog < 256)
		m.log[m.nlog++] = (struct wlog){ 0, msr, v };
	if (msr == 0x2000) { /* RST_CTRS (bit 9) zeroes the counters and reads 0 (uncore_discovery.h) */
		m.cha_box = v & ~0x300ull;
		for (unsigned i = 0; (v & 0x200) && i < 4; i++)
			m.cha_ctr[i] = 0;
	} else if (msr >= 0x2002 && msr <= 0x2005)
		m.cha_sel[msr - 0x2002] = v;
	else if (msr >= 0x2008 && msr <= 0x200B)
		m.cha_ctr[msr - 0x2008] = v & MASK48;
	else
		return UNC_E_FAULT;
	return UNC_OK;
}

static enum unc_status m_pci_read(void *ctx, struct pci_addr a, uint16_t off, uint32_t *v)
{
	(void)ctx;
	*v = 0xFFFFFFFFu;
	if (a.bus || a.dev != 0x1F || a.func)
		return UNC_OK;
	switch (off) {
	case 0x0: *v = 0x09A78086; break;
	case 0xC: *v = 0; break;
	case 0x10: *v = (uint32_t)TABLE | 4; break; /* 64-bit, non-prefetchable */
	case 0x14: *v = 0; break;
	case 0x100: *v = 0x00010023; break; /* cap 0x23, version 1, next 0 */
	case 0x104: *v = 0x01008086; break;
	case 0x108: *v = 1; break;          /* entryID PMON */
	case 0x10C: *v = 0; break;          /* BIR 0 */
	default: *v = 0;
	}
	return UNC_OK;
}

static enum unc_status m_pci_write(void *ctx, struct pci_addr a, uint16_t off, uint32_t v)
{
	(void)ctx, (void)a, (void)off, (void)v;
	t_fail(__FILE__, __LINE__, "model: PCI write");
	return UNC_E_FAULT;
}

static uint32_t *imc_reg(uint64_t addr, bool *hi_half, uint64_t **ctr)
{
	*ctr = NULL;
	for (unsigned c = 0; c < NCH; c++) {
		uint64_t off = addr - IMC(c);
		if (addr < IMC(c) || off >= 0x4000)
			continue;
		if (off == 0)
			return &m.box[c];
		if (off >= 0x40 && off < 0x50)
			return &m.sel[c][(off - 0x40) / 4];
		if (off >= 0x08 && off < 0x28) {
			*ctr = &m.ctr[c][(off - 0x08) / 8];
			*hi_half = off % 8 != 0;
			return NULL;
		}
	}
	return NULL;
}

static enum unc_status m_mmio_read(void *ctx, uint64_t addr, uint32_t *v)
{
	bool hi = false;
	uint64_t *ctr;
	uint32_t *r;

	(void)ctx;
	if (addr >= TABLE && addr < TABLE + 0x20 * 64) {
		uint64_t off = addr - TABLE;
		uint64_t q = m.table[off / 32][off % 32 / 8];
		*v = off % 32 >= 24 ? 0 : (uint32_t)(q >> (off % 8 ? 32 : 0));
		return UNC_OK;
	}
	if ((r = imc_reg(addr, &hi, &ctr))) {
		*v = *r;
		return UNC_OK;
	}
	if (ctr) {
		*v = (uint32_t)(*ctr >> (hi ? 32 : 0));
		return UNC_OK;
	}
	t_fail(__FILE__, __LINE__, "model: MMIO read 0x%llx", (unsigned long long)addr);
	return UNC_E_FAULT;
}

static enum unc_status m_mmio_write(void *ctx, uint64_t addr, uint32_t v)
{
	bool hi = false;
	uint64_t *ctr;
	uint32_t *r;

	(void)ctx;
	if (m.nlog < 256)
		m.log[m.nlog++] = (struct wlog){ 1, addr, v };
	if ((r = imc_reg(addr, &hi, &ctr))) {
		*r = v;
		for (unsigned c = 0; c < NCH; c++) /* a box control's RST_CTRS (bit 9): its counters 0 */
			if (r == &m.box[c] && (v & 0x200)) {
				m.box[c] = v & ~0x300u;
				for (unsigned i = 0; i < 4; i++)
					m.ctr[c][i] = 0;
			}
		return UNC_OK;
	}
	if (ctr) {
		*ctr = hi ? (*ctr & 0xFFFFFFFFull) | ((uint64_t)(v & 0xFFFF) << 32) : (*ctr & ~0xFFFFFFFFull) | v;
		return UNC_OK;
	}
	t_fail(__FILE__, __LINE__, "model: MMIO write 0x%llx", (unsigned long long)addr);
	return UNC_E_FAULT;
}

static void m_cpuid(void *ctx, uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	(void)ctx;
	m.f.hw.ops->cpuid(m.f.hw.ctx, leaf, sub, r);
}

static uint64_t m_ticks(void *ctx)
{
	(void)ctx;
	return m.f.now;
}

static enum unc_status m_rdpmc(void *ctx, uint32_t i, uint64_t *v)
{
	(void)ctx, (void)i, (void)v;
	return UNC_E_UNSUPPORTED;
}

static const struct hw_ops m_ops = {
	.msr_read = m_msr_read,
	.msr_write = m_msr_write,
	.pci_read32 = m_pci_read,
	.pci_write32 = m_pci_write,
	.mmio_read32 = m_mmio_read,
	.cpuid = m_cpuid,
	.ticks = m_ticks,
	.rdpmc = m_rdpmc,
	.mmio_write32 = m_mmio_write,
};

static void advance(uint64_t when)
{
	uint64_t dt = when - m.f.now;

	for (unsigned c = 0; c < NCH; c++)
		for (unsigned i = 0; i < 4; i++)
			if (!(m.box[c] & 1) && m.sel[c][i])
				m.ctr[c][i] = (m.ctr[c][i] + m.rate[c] * dt / S) & MASK48;
	for (unsigned i = 0; i < 4; i++)
		if (!(m.cha_box & 1) && m.cha_sel[i])
			m.cha_ctr[i] = (m.cha_ctr[i] + m.cha_rate * dt / S) & MASK48;
	m.f.now = when;
}

static struct stat_run run;
static const struct pmu_driver *const present[] = { &pmu_driver_disc, NULL };

static void entry(unsigned i, uint64_t t1, uint64_t ctl, uint64_t t3)
{
	m.table[i][0] = t1;
	m.table[i][1] = ctl;
	m.table[i][2] = t3;
}

/* SPR's identity (family 6 model 0x8F) unless told. The table: global
 * (stride 4, max_units 10: 0x00000000000A0400), 8 iMC channels (4 regs,
 * ctl_offset 0x40, 48 bits, ctr_offset 8, MMIO: 0x4000000008304004; box
 * IDs 0-7), an iMC entry with no counter offset (0x4000000000304004, box
 * 8), one CHA (4 regs, ctl_offset 2, 48 bits, ctr_offset 8, MSR:
 * 0x0000000008300204 at 0x2000). Counters found holding values of their own. */
static void model(unsigned cpu_model)
{
	memset(&m, 0, sizeof(m));
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	fake_init(&m.f);
	fake_cpu_skylake(&m.f, cpu_model, 8, 16);
	m.hw = (struct hw){ .ops = &m_ops, .ctx = &m, .tick_hz = S, .msr_mode = HW_MSR_NATIVE };
	m.f.now = 5 * S;
	entry(0, 0x00000000000A0400ull, 0x2FF0, 0);
	for (unsigned c = 0; c < NCH; c++) {
		entry(1 + c, 0x4000000008304004ull, IMC(c), (uint64_t)c << 16 | 6);
		m.rate[c] = 1000000ull * (c + 1);
		for (unsigned i = 0; i < 4; i++)
			m.ctr[c][i] = 0x123400000000ull + (c << 8) + i;
	}
	entry(9, 0x4000000000304004ull, 0xFE030000ull, 8ull << 16 | 6);
	entry(10, 0x0000000008300204ull, 0x2000, 0);
	m.cha_rate = 2000000000ull;
	for (unsigned i = 0; i < 4; i++)
		m.cha_ctr[i] = 0x555500000000ull + i;
}

static void add(const char *name)
{
	run_add(&run, present, name);
}

/* Every control as found, and no counter written: Linux never writes a
 * discovery unit's counter (it resets them through the box control's
 * RST_CTRS, which the model applies), so the journal puts none back. */
static bool as_found(void)
{
	bool ok = m.cha_box == 0;

	for (unsigned c = 0; c < NCH; c++) {
		ok &= m.box[c] == 0;
		for (unsigned i = 0; i < 4; i++)
			ok &= m.sel[c][i] == 0;
	}
	for (unsigned i = 0; i < 4; i++)
		ok &= m.cha_sel[i] == 0;
	for (unsigned k = 0; k < m.nlog; k++) {
		const struct wlog *w = &m.log[k];
		ok &= !(w->space == 0 && w->addr >= 0x2008 && w->addr <= 0x200B);
		for (unsigned c = 0; c < NCH; c++)
			ok &= !(w->space == 1 && w->addr >= IMC(c) + 0x08 && w->addr < IMC(c) + 0x28);
	}
	return ok;
}

static unsigned log_at;
static void expect(int space, uint64_t addr, uint64_t v, int line)
{
	if (log_at >= m.nlog) {
		t_fail(__FILE__, line, "write #%u: none (expected 0x%llx = 0x%llx)", log_at, (unsigned long long)addr,
		       (unsigned long long)v);
		return;
	}
	struct wlog *w = &m.log[log_at];
	if (w->space != space || w->addr != addr || w->v != v)
		t_fail(__FILE__, line, "write #%u: %s 0x%llx = 0x%llx, expected %s 0x%llx = 0x%llx", log_at,
		       w->space ? "MMIO" : "MSR", (unsigned long long)w->addr, (unsigned long long)w->v,
		       space ? "MMIO" : "MSR", (unsigned long long)addr, (unsigned long long)v);
	log_at++;
}
#define EXPECT(space, addr, v) expect((space), (addr), (v), __LINE__)

static void probe_and_info(void)
{
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_disc };
	char err[200] = "", warn[100] = "", buf[4096], name[64];

	model(0x8F);
	m.cbo_config = 1;
	cpu_identify(&m.hw, &cpu);
	T_ASSERT(pmu_match_model(&pmu_driver_disc, &m.hw, &cpu) != NULL);
	T_EQ(pmu_driver_disc.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(m.nlog, 0); /* reads only */
	T_EQ(p.boxes[DISC_UNIT_IMC], 8);
	T_EQ(p.found[DISC_UNIT_IMC], 8);
	T_EQ(p.boxes[DISC_UNIT_CHA], 1);
	T_EQ(p.found[DISC_UNIT_CHA], 1); /* MSR 0x2FFE: 1 per socket, one table */
	T_EQ(p.counters[DISC_UNIT_IMC], 4);
	T_EQ(p.width[DISC_UNIT_IMC], 48);
	for (unsigned c = 0; c < NCH; c++) {
		T_EQ(pmu_unit_box_ctl(&pmu_driver_disc.units[0], &p, 0, c).addr, IMC(c));
		T_EQ(pmu_unit_sel(&pmu_driver_disc.units[0], &p, 0, c, 3).addr, IMC(c) + 0x40 + 12);
		T_EQ(pmu_unit_ctr(&pmu_driver_disc.units[0], &p, 0, c, 3).addr, IMC(c) + 0x08 + 24);
		T_EQ(pmu_unit_ctr(&pmu_driver_disc.units[0], &p, 0, c, 3).space, PMU_MMIO);
		T_EQ(p.box_id[0][c], c);
		T_EQ(p.group[0][c], 0);
	}
	T_EQ(pmu_unit_box_ctl(&pmu_driver_disc.units[1], &p, 1, 0).addr, 0x2000);
	T_EQ(pmu_unit_sel(&pmu_driver_disc.units[1], &p, 1, 0, 3).addr, 0x2005);
	T_EQ(pmu_unit_ctr(&pmu_driver_disc.units[1], &p, 1, 0, 0).addr, 0x2008);
	T_EQ(pmu_unit_ctr(&pmu_driver_disc.units[1], &p, 1, 0, 0).space, PMU_MSR);
	struct strbuf sb;
	strbuf_init(&sb, buf, sizeof(buf));
	struct out o = strbuf_out(&sb);
	struct pmu_use use;
	pmu_driver_disc.ops->in_use(&m.hw, &p, &use, NULL, NULL);
	T_ASSERT(use.known && !use.in_use);
	T_EQ(use.selects_checked, 36);
	pmu_driver_disc.ops->info(&o, &p, false);
	T_CONTAINS(buf, "discovery:    1 table, 9 units kept, 1 entry skipped (devices 8086:09a7)\n");
	T_CONTAINS(buf, "  sockets:    1, socket numbers by table order: no UBox device\n");
	T_CONTAINS(buf, "  table 0: 00:1f.0 (8086:09a7) capability 0x100, BIR 0, BAR 0xfe000000, socket 0, 9 units: 8 imc "
			"(type 6), 1 cha (type 0)\n");
	T_CONTAINS(buf, "  skipped: table 0 entry 8 (imc (type 6), box 8): no counter offset\n");
	{
		char js[2048];
		struct strbuf jb;
		strbuf_init(&jb, js, sizeof(js));
		struct out jo = strbuf_out(&jb);
		pmu_driver_disc.ops->info(&jo, &p, true);
		T_CONTAINS(js, "\"table_list\":[{\"pci\":\"00:1f.0\",\"device\":\"8086:09a7\",\"cap\":\"0x100\",\"bar\":"
			       "\"0xfe000000\",\"socket\":0,\"units\":9,\"types\":{\"6\":8,\"0\":1}}]");
		T_CONTAINS(js, "\"imc_boxes\":8,\"cha_boxes\":1,\"sockets\":1,\"sockets_by\":\"table_order\",\"cha_capped\":0");
	}
	T_CONTAINS(buf, "imc:          8 boxes programmable of 8 found; 4 counters, 48 bits, controls at +0x40, counters at "
			"+0x8 (MMIO)\n");
	T_CONTAINS(buf, "cha:          1 box programmable of 1 found; 4 counters, 48 bits, controls at +0x2, counters at +0x8 "
			"(MSR)\n");
	T_CONTAINS(buf, "  CHA count from MSR 0x2FFE, each socket's read by a processor of its package: socket 0: 1\n");
	/* the in-use line is the engine's (info.c), from the data checked above */
	strbuf_init(&sb, buf, sizeof(buf));
	out_puts(&o, "{\"x\":1");
	pmu_driver_disc.ops->info(&o, &p, true);
	out_puts(&o, "}");
	T_JSON(buf, false);
	T_CONTAINS(buf, "\"skips\":[{\"table\":0,\"entry\":8,\"reason\":\"no counter offset\"}]");
	struct pmu_reg r = pmu_unit_ctr(&pmu_driver_disc.units[0], &p, 0, 6, 1);
	T_STREQ(pmu_reg_name(&pmu_driver_disc, &p, r, name, sizeof(name)), "imc box 6 CTR1 (socket 0)");
	r.addr += 4;
	T_STREQ(pmu_reg_name(&pmu_driver_disc, &p, r, name, sizeof(name)), "imc box 6 CTR1[63:32] (socket 0)");
	r = pmu_unit_sel(&pmu_driver_disc.units[1], &p, 1, 0, 2);
	T_STREQ(pmu_reg_name(&pmu_driver_disc, &p, r, name, sizeof(name)), "cha box 0 CTL2 (socket 0)");
	pmu_present_free(&p);
}

/* The CHA count from MSR 0x2FFE on SPR; 0 is ignored; GNR does not read it. */
static void cha_count_from_msr(void)
{
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_disc };
	char err[200] = "", warn[200] = "";

	model(0x8F);
	m.cbo_config = 56;
	cpu_identify(&m.hw, &cpu);
	T_EQ(pmu_driver_disc.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.found[DISC_UNIT_CHA], 1); /* the table's: the MSR caps, it does not add */
	T_EQ(p.boxes[DISC_UNIT_CHA], 1);
	/* read (63), tried (62), socket 0 read (bit 32), its count */
	T_EQ(p.facts[DISC_FACT_CBO], 1ull << 63 | 1ull << 62 | 1ull << 32 | 56);
	T_EQ(p.facts[DISC_FACT_SOCKETS] >> 32 & 1, 1); /* the table lists 1, the MSR says 56 */

	/* A table over-reporting: 5 CHAs (box IDs 0-4 at 0x2000 + 0x10 b),
	 * MSR 0x2FFE says 3: CHAs 3 and 4 are not programmed (Linux
	 * spr_uncore_cpu_init sets the type's num_boxes to the MSR's count). */
	model(0x8F);
	m.table[0][0] = 0x00000000000E0400ull; /* max_units 14 */
	for (unsigned b = 1; b < 5; b++)
		entry(10 + b, 0x0000000008300204ull, 0x2000 + 0x10 * b, (uint64_t)b << 16);
	m.cbo_config = 3;
	pmu_present_free(&p);
	memset(&p, 0, sizeof(p));
	cpu_identify(&m.hw, &cpu);
	T_EQ(pmu_driver_disc.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.found[DISC_UNIT_CHA], 5);
	T_EQ(p.boxes[DISC_UNIT_CHA], 3);
	for (unsigned b = 0; b < 3; b++)
		T_EQ(p.box_base[DISC_UNIT_CHA][b], 0x2000 + 0x10 * b);
	T_EQ(p.facts[DISC_FACT_SOCKETS] >> 16 & 0xFFFF, 2);
	{
		char buf[4096];
		struct strbuf sb;
		strbuf_init(&sb, buf, sizeof(buf));
		struct out o = strbuf_out(&sb);
		pmu_driver_disc.ops->info(&o, &p, false);
		T_CONTAINS(buf, "cha:          3 boxes programmable of 5 found;");
		T_CONTAINS(buf, "  CHA count differs: a table lists 5 CHAs, MSR 0x2FFE says 3; 2 beyond it not programmed "
				"(Linux spr_uncore_cpu_init)\n");
	}

	/* The read faults on this processor: its socket is left uncapped (all
	 * 5 CHAs programmed), and info says so. */
	m.cbo_fault = true;
	pmu_present_free(&p);
	memset(&p, 0, sizeof(p));
	T_EQ(pmu_driver_disc.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.boxes[DISC_UNIT_CHA], 5);
	T_EQ(p.facts[DISC_FACT_CBO], 1ull << 62 | 1ull << 40); /* tried, socket 0 failed, none read */
	{
		char buf[4096];
		struct strbuf sb;
		strbuf_init(&sb, buf, sizeof(buf));
		struct out o = strbuf_out(&sb);
		pmu_driver_disc.ops->info(&o, &p, false);
		T_CONTAINS(buf, "cha:          5 boxes programmable of 5 found;");
		T_CONTAINS(buf, ": socket 0: unreadable, its CHAs not capped\n");
		T_NOT_CONTAINS(buf, "beyond");
	}
	m.cbo_fault = false;
	/* a record from before the per-socket reads: bit 63 and one value */
	p.facts[DISC_FACT_CBO] = 1ull << 63 | 7;
	{
		char buf[4096];
		struct strbuf sb;
		strbuf_init(&sb, buf, sizeof(buf));
		struct out o = strbuf_out(&sb);
		pmu_driver_disc.ops->info(&o, &p, false);
		T_CONTAINS(buf, "  CHA count from MSR 0x2FFE: 7\n");
	}

	model(0x8F);
	m.cbo_config = 0;
	pmu_present_free(&p);
	memset(&p, 0, sizeof(p));
	cpu_identify(&m.hw, &cpu);
	T_EQ(pmu_driver_disc.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.found[DISC_UNIT_CHA], 1);

	model(0xAD);
	m.cbo_config = 56;
	pmu_present_free(&p);
	memset(&p, 0, sizeof(p));
	cpu_identify(&m.hw, &cpu);
	T_EQ(pmu_driver_disc.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.found[DISC_UNIT_CHA], 1);
	T_EQ(p.facts[DISC_FACT_CBO], 0);
	/* GNR: bw sums both sub-channels' CAS counts: nothing to warn of */
	T_STREQ(warn, "");
	model(0x8F);
	pmu_present_free(&p);
	memset(&p, 0, sizeof(p));
	cpu_identify(&m.hw, &cpu);
	T_EQ(pmu_driver_disc.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_STREQ(warn, "");
	pmu_present_free(&p);
}

/* A model in no list still matches (its table decides); a hypervisor bit
 * changes nothing; an older model or another vendor does not match. */
static void matching(void)
{
	struct cpu_info cpu;

	model(0xD0); /* no entry */
	cpu_identify(&m.hw, &cpu);
	T_ASSERT(pmu_match_model(&pmu_driver_disc, &m.hw, &cpu) != NULL);
	cpu.hypervisor = true;
	T_ASSERT(pmu_match_model(&pmu_driver_disc, &m.hw, &cpu) != NULL);
	model(0x5E);
	cpu_identify(&m.hw, &cpu);
	T_ASSERT(pmu_match_model(&pmu_driver_disc, &m.hw, &cpu) == NULL);
	model(0x9E); /* a client model */
	cpu_identify(&m.hw, &cpu);
	T_ASSERT(pmu_match_model(&pmu_driver_disc, &m.hw, &cpu) == NULL);
	model(0xCF);
	cpu_identify(&m.hw, &cpu);
	T_STREQ(pmu_match_model(&pmu_driver_disc, &m.hw, &cpu)->name, "Emerald Rapids");
}

/* One event on 8 iMC channels, as an exact write log: FRZ (bit 0) in each
 * box control, the selects (the event 0xCF05 on CTL0, 0 on the others:
 * no enable bit), each box's counters reset by FRZ | RST_CTRS (0x201, bit 9:
 * uncore_discovery.h GENERIC_PMON_BOX_CTL_RST_CTRS), no counter written,
 * then each box control 0. */
static void imc_programming_sequence(void)
{
	model(0x8F);
	add("UNC_M_CAS_COUNT.RD");
	T_EQ(run_schedule(&run, &m.hw, false), UNC_OK);
	T_EQ(stat_start(&run, &m.hw, false), UNC_OK);
	log_at = 0;
	for (unsigned c = 0; c < NCH; c++)
		EXPECT(1, IMC(c), 0x1);
	for (unsigned i = 0; i < 4; i++)
		for (unsigned c = 0; c < NCH; c++)
			EXPECT(1, IMC(c) + 0x40 + 4 * i, i == 0 ? 0xCF05 : 0);
	for (unsigned c = 0; c < NCH; c++)
		EXPECT(1, IMC(c), 0x201);
	for (unsigned c = 0; c < NCH; c++)
		EXPECT(1, IMC(c), 0);
	T_EQ(log_at, m.nlog);
	advance(m.f.now + S / 10);
	T_EQ(stat_stop(&run, UNC_OK), UNC_OK);
	for (unsigned c = 0; c < NCH; c++) {
		T_EQ(run.c.ev[0].total.box[c], 100000ull * (c + 1));
		T_EQ(m.ctr[c][0], 100000ull * (c + 1)); /* from the reset's 0, not written back */
	}
	T_ASSERT(as_found());
}

/* Raw events on the iMC with every field, and on the CHA (MSR). */
static void raw_fields_and_cha(void)
{
	model(0x8F);
	add("imc/event=0x05,umask=0xcf,edge,inv,thresh=2/");
	T_EQ(run_schedule(&run, &m.hw, false), UNC_OK);
	T_EQ(stat_start(&run, &m.hw, false), UNC_OK);
	/* event 7:0, umask 15:8, edge 18, inv 23, thresh 31:24 */
	T_EQ(m.sel[3][0], 0x0284CF05);
	T_EQ(stat_stop(&run, UNC_OK), UNC_OK);
	T_ASSERT(as_found());

	model(0x8F);
	add("cha/event=0x01/");
	T_EQ(run_schedule(&run, &m.hw, false), UNC_OK);
	T_EQ(stat_start(&run, &m.hw, false), UNC_OK);
	log_at = 0;
	EXPECT(0, 0x2000, 0x1);
	EXPECT(0, 0x2002, 0x01);
	EXPECT(0, 0x2003, 0);
	EXPECT(0, 0x2004, 0);
	EXPECT(0, 0x2005, 0);
	EXPECT(0, 0x2000, 0x201); /* FRZ | RST_CTRS: no counter written */
	EXPECT(0, 0x2000, 0);
	T_EQ(log_at, m.nlog);
	advance(m.f.now + S / 10);
	T_EQ(stat_stop(&run, UNC_OK), UNC_OK);
	T_EQ(run.c.ev[0].total.box[0], 200000000ull);
	T_ASSERT(as_found());
}

/* Events with a UMaskExt (Intel's perfmon files: SPR's and GNR's
 * UNC_CHA_TOR_INSERTS.IA_MISS, EventCode 0x35, UMask 0x01, UMaskExt
 * 0x00C001FE; GNR's UNC_CHA_TOR_INSERTS.IA_MISS_LLCPREFDATA_CXL_ACC, UMaskExt
 * 0x10CCD782; UNC_CHA_TOR_OCCUPANCY.IA_MISS, EventCode 0x36) in the CHA's select as Linux's SPR CHA format puts a umask
 * (config:8-15,32-63): the extension in bits 63:32. perf's raw form takes
 * the umask whole, 40 bits. */
static void umask_ext_events(void)
{
	const struct pmu_driver *const only[] = { &pmu_driver_disc, NULL };
	static const struct {
		unsigned model;
		const char *name;
		uint64_t sel;
	} ok[] = {
		{ 0x8F, "UNC_CHA_TOR_INSERTS.IA_MISS", 0x00C001FE00000135ull },
		{ 0x8F, "cha/event=0x35,umask=0xc001fe01/", 0x00C001FE00000135ull },
		{ 0x8F, "UNC_CHA_TOR_OCCUPANCY.IA_MISS", 0x00C001FE00000136ull },
		{ 0xCF, "UNC_CHA_TOR_INSERTS.IA_MISS", 0x00C001FE00000135ull },
		{ 0xAD, "UNC_CHA_TOR_INSERTS.IA_MISS", 0x00C001FE00000135ull },
		{ 0xAD, "UNC_CHA_TOR_INSERTS.IA_MISS_LLCPREFDATA_CXL_ACC", 0x10CCD78200000135ull },
		{ 0xAD, "cha/event=0x35,umask=0x10ccd78201,thresh=1/", 0x10CCD78201000135ull },
		/* SRF's own (not in GNR's file): UMaskExt 0x00C827FE */
		{ 0xAF, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD_OPT", 0x00C827FE00000135ull },
		{ 0xD0, "cha/event=0x35,umask=0xffffffffff/", 0xFFFFFFFF0000FF35ull },
	};
	struct cpu_info cpu;

	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct ev_spec e;
		char err[200] = "";
		model(ok[i].model);
		cpu_identify(&m.hw, &cpu);
		pmu_events_cpu(&cpu);
		T_EQ(evsel_parse(ok[i].name, only, &e, err, sizeof(err)), UNC_OK);
		T_STREQ(err, "");
		T_STREQ(ev_unit(&e)->pmu, "cha");
		T_EQ(evsel_encode(&e), ok[i].sel);
	}
	/* a name and perf's raw form are one event */
	struct ev_spec a, b;
	char err[200] = "";
	model(0x8F);
	cpu_identify(&m.hw, &cpu);
	pmu_events_cpu(&cpu);
	T_EQ(evsel_parse("UNC_CHA_TOR_INSERTS.IA_MISS", only, &a, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_parse("cha/event=0x35,umask=0xc001fe01/", only, &b, err, sizeof(err)), UNC_OK);
	T_ASSERT(evsel_same(&a, &b));
	T_EQ(evsel_parse("cha/event=0x35,umask=0x01/", only, &b, err, sizeof(err)), UNC_OK);
	T_ASSERT(!evsel_same(&a, &b)); /* the umask alone counts another event */
	/* 40 bits on the CHA; the iMC's select has no extension */
	T_EQ(evsel_parse("cha/event=0x35,umask=0x10000000000/", only, &b, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "at most 0xffffffffff");
	T_EQ(evsel_parse("imc/event=0x05,umask=0x1cf/", only, &b, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "at most 0xff");
	pmu_events_cpu(NULL);

	/* programmed whole: the 64-bit select written and read back, counted */
	model(0x8F);
	add("UNC_CHA_TOR_INSERTS.IA_MISS");
	T_EQ(run_schedule(&run, &m.hw, false), UNC_OK);
	T_EQ(stat_start(&run, &m.hw, false), UNC_OK);
	log_at = 0;
	EXPECT(0, 0x2000, 0x1);
	EXPECT(0, 0x2002, 0x00C001FE00000135ull);
	EXPECT(0, 0x2003, 0);
	EXPECT(0, 0x2004, 0);
	EXPECT(0, 0x2005, 0);
	EXPECT(0, 0x2000, 0x201); /* FRZ | RST_CTRS: no counter written */
	EXPECT(0, 0x2000, 0);
	T_EQ(log_at, m.nlog);
	advance(m.f.now + S / 10);
	T_EQ(stat_stop(&run, UNC_OK), UNC_OK);
	T_EQ(run.c.ev[0].total.box[0], 200000000ull);
	T_ASSERT(as_found());
}

/* Someone's select found set: in use, refused without --force. */
static void in_use_refused(void)
{
	model(0x8F);
	m.sel[2][1] = 0x0105;
	add("UNC_M_CAS_COUNT.WR");
	T_EQ(run_schedule(&run, &m.hw, false), UNC_OK);
	T_EQ(stat_start(&run, &m.hw, false), UNC_E_BUSY);
	T_EQ(m.nlog, 0);
}

/* No table at all: the units report no box and events are refused by the engine. */
static void no_table(void)
{
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_disc };
	char err[200] = "", warn[100] = "", buf[2048];

	model(0x8F);
	m.table[0][0] = 0; /* global table1 0: the table is skipped */
	cpu_identify(&m.hw, &cpu);
	T_EQ(pmu_driver_disc.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.boxes[0], 0);
	T_EQ(p.boxes[1], 0);
	struct strbuf sb;
	strbuf_init(&sb, buf, sizeof(buf));
	struct out o = strbuf_out(&sb);
	pmu_driver_disc.ops->info(&o, &p, false);
	T_CONTAINS(buf, "discovery:    no table");
	T_CONTAINS(buf, "skipped: a table (capability 0 found): global entry zero or all ones");
	pmu_present_free(&p);
}

/* The named events of each model, typed from Intel's perfmon files
 * (SPR/events/sapphirerapids_uncore.json, EMR/..., GNR/..., SRF/...):
 * name, Unit's PMU, EventCode, UMask; NULL unit: not this model's. */
struct named {
	const char *name, *pmu;
	uint8_t code, umask;
};

static void resolve_on(unsigned cpu_model, const struct named *n, unsigned count)
{
	const struct pmu_driver *const only[] = { &pmu_driver_disc, NULL };
	struct cpu_info cpu;

	model(cpu_model);
	cpu_identify(&m.hw, &cpu);
	pmu_events_cpu(&cpu);
	for (unsigned i = 0; i < count; i++) {
		struct ev_spec e;
		char err[200] = "";
		enum unc_status st = evsel_parse(n[i].name, only, &e, err, sizeof(err));
		if (!n[i].pmu) {
			T_ASSERT(st != UNC_OK);
			continue;
		}
		T_EQ(st, UNC_OK);
		if (st != UNC_OK) {
			printf("# model 0x%x, %s: %s\n", cpu_model, n[i].name, err);
			continue;
		}
		T_STREQ(ev_unit(&e)->pmu, n[i].pmu);
		T_EQ(e.code, n[i].code);
		T_EQ(e.umask, n[i].umask);
	}
	pmu_events_cpu(NULL);
}

static void events_by_model(void)
{
	static const struct named spr[] = {
		{ "UNC_M_CAS_COUNT.RD", "imc", 0x05, 0xcf },
		{ "UNC_M_CAS_COUNT.WR", "imc", 0x05, 0xf0 },
		{ "UNC_M_ACT_COUNT.ALL", "imc", 0x02, 0xff },
		{ "UNC_CHA_REQUESTS.READS_LOCAL", "cha", 0x50, 0x01 },
		{ "UNC_M_CAS_COUNT_SCH0.RD", NULL, 0, 0 },
		/* and UMaskExt 0x00c001fe (umask_ext_events) */
		{ "UNC_CHA_TOR_INSERTS.IA_MISS", "cha", 0x35, 0x01 },
	};
	static const struct named emr[] = {
		{ "UNC_M_PRE_COUNT.PGT", "imc", 0x03, 0x88 },
		{ "UNC_M_CAS_COUNT.WR", "imc", 0x05, 0xf0 },
		{ "CAS_COUNT.RD", "imc", 0x05, 0xcf },
	};
	static const struct named gnr[] = {
		{ "UNC_M_CAS_COUNT_SCH0.RD", "imc", 0x05, 0xcf },
		{ "UNC_M_CAS_COUNT_SCH1.RD", "imc", 0x06, 0xcf },
		{ "UNC_M_CAS_COUNT_SCH1.WR", "imc", 0x06, 0xf0 },
		{ "UNC_M_ACT_COUNT.ALL", "imc", 0x02, 0xf7 },
		{ "UNC_M_RDB_INSERTS.SCH0", "imc", 0x17, 0x40 },
		{ "UNC_CHA_REQUESTS.READS_LOCAL", "cha", 0x50, 0x01 },
		{ "UNC_M_CAS_COUNT.RD", NULL, 0, 0 },
		{ "UNC_CHA_TOR_INSERTS.IA_MISS_DRD_OPT", NULL, 0, 0 }, /* in SRF's file, not GNR's */
		{ "UNC_CHA_TOR_INSERTS.IA_MISS_LLCPREFDATA_CXL_ACC", "cha", 0x35, 0x01 },
		{ "UNC_CHA_TOR_INSERTS.IA_MISS_DRD", "cha", 0x35, 0x01 }, /* in GNR's file, not SRF's */
	};
	static const struct named srf[] = {
		{ "UNC_M_CAS_COUNT_SCH0.WR", "imc", 0x05, 0xf0 },
		{ "UNC_M_ACT_COUNT.ALL", "imc", 0x02, 0xf7 },
		{ "UNC_CHA_CLOCKTICKS", "cha", 0x01, 0x00 },
		{ "UNC_M_RDB_INSERTS.SCH0", NULL, 0, 0 }, /* in GNR's file, not SRF's */
		{ "UNC_CHA_TOR_INSERTS.IA_MISS_DRD", NULL, 0, 0 },
		{ "UNC_CHA_TOR_INSERTS.IA_MISS_DRD_OPT", "cha", 0x35, 0x01 },
	};
	static const struct named unknown[] = {
		{ "UNC_M_CAS_COUNT.RD", NULL, 0, 0 },
		{ "imc/event=0x05,umask=0xcf/", "imc", 0x05, 0xcf },
	};
	resolve_on(0x8F, spr, sizeof(spr) / sizeof(spr[0]));
	resolve_on(0xCF, emr, sizeof(emr) / sizeof(emr[0]));
	resolve_on(0xAD, gnr, sizeof(gnr) / sizeof(gnr[0]));
	resolve_on(0xAF, srf, sizeof(srf) / sizeof(srf[0]));
	resolve_on(0xD0, unknown, sizeof(unknown) / sizeof(unknown[0]));
}

extern const struct event_table disc_events_tables[];
extern const unsigned disc_events_ntables;

/* Every event of every model's table is one of the driver's units', on its
 * 4 counters (the emulated tables' num_regs), and resolves by its name on
 * a CPU of that table to itself. */
static void every_table_event_is_the_drivers(void)
{
	static const struct { const char *file; unsigned model; } cpus[] = {
		{ "emeraldrapids_uncore.json", 0xCF }, { "graniterapids_uncore.json", 0xAD },
		{ "sapphirerapids_uncore.json", 0x8F }, { "sierraforest_uncore.json", 0xAF },
	};
	const struct pmu_driver *const only[] = { &pmu_driver_disc, NULL };

	T_EQ(disc_events_ntables, 4);
	/* each role event of the iMC (which bw adds where the CPU's table has
	 * it) is in SPR's and EMR's table or in GNR's and SRF's */
	for (const struct pmu_role_event *r = pmu_driver_disc.units[DISC_UNIT_IMC].role_events; r->event; r++) {
		unsigned in = 0;
		for (unsigned t = 0; t < disc_events_ntables; t++)
			for (unsigned i = 0; i < disc_events_tables[t].count; i++)
				in += !strcmp(disc_events_tables[t].events[i].name, r->event);
		T_EQ(in, 2);
	}
	for (unsigned t = 0; t < disc_events_ntables; t++) {
		const struct event_table *x = &disc_events_tables[t];
		struct cpu_info cpu;
		T_STREQ(x->file, cpus[t].file);
		T_ASSERT(x->count >= 40);
		model(cpus[t].model);
		cpu_identify(&m.hw, &cpu);
		pmu_events_cpu(&cpu);
		unsigned n;
		T_ASSERT(pmu_events(&pmu_driver_disc, &n, NULL) == x->events);
		T_EQ(n, x->count);
		for (unsigned i = 0; i < x->count; i++) {
			const struct event_desc *d = &x->events[i];
			struct ev_spec e;
			char err[200];
			int u = pmu_unit_of_event(&pmu_driver_disc, d);
			T_ASSERT(u == DISC_UNIT_IMC || u == DISC_UNIT_CHA);
			T_ASSERT(d->counters && !(d->counters & ~0x0Fu));
			T_EQ(evsel_parse(d->name, only, &e, err, sizeof(err)), UNC_OK);
			T_ASSERT(e.desc == d);
		}
	}
	pmu_events_cpu(NULL);
}

/* Each role's events on GNR: both sub-channels of each direction. */
static void roles_sum_sub_channels(void)
{
	const struct pmu_driver *const only[] = { &pmu_driver_disc, NULL };
	static const char *const names[] = { "UNC_M_CAS_COUNT_SCH0.RD", "UNC_M_CAS_COUNT_SCH1.RD",
					     "UNC_M_CAS_COUNT_SCH0.WR", "UNC_M_CAS_COUNT_SCH1.WR",
					     "imc/event=0x06,umask=0xcf/" };
	static const uint8_t roles[] = { PMU_ROLE_DRAM_READ, PMU_ROLE_DRAM_READ, PMU_ROLE_DRAM_WRITE,
					 PMU_ROLE_DRAM_WRITE, PMU_ROLE_DRAM_READ };
	struct cpu_info cpu;

	model(0xAD);
	cpu_identify(&m.hw, &cpu);
	pmu_events_cpu(&cpu);
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct ev_spec e;
		char err[200];
		T_EQ(evsel_parse(names[i], only, &e, err, sizeof(err)), UNC_OK);
		T_EQ(evsel_role(&e), roles[i]);
	}
	pmu_events_cpu(NULL);
}

T_MAIN("disc_drv", T_CASE(events_by_model), T_CASE(every_table_event_is_the_drivers), T_CASE(roles_sum_sub_channels), T_CASE(probe_and_info), T_CASE(cha_count_from_msr), T_CASE(matching),
       T_CASE(imc_programming_sequence), T_CASE(raw_fields_and_cha), T_CASE(umask_ext_events), T_CASE(in_use_refused), T_CASE(no_table))
