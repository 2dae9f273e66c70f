/* The uncore discovery-table parser (drivers/pmu/disc_table.c) against
 * hand-typed tables. The qwords are typed from Linux's structs
 * (arch/x86/events/intel/uncore_discovery.h):
 *   struct uncore_global_discovery: table1 = type:8, stride:8, max_units:10,
 *     __reserved_1:36, access_type:2; ctl; table3 = status_offset:8, num_status:16
 *   struct uncore_unit_discovery: table1 = num_regs:8, ctl_offset:8, bit_width:8,
 *     ctr_offset:8, status_offset:8, __reserved_1:22, access_type:2; ctl;
 *     table3 = box_type:16, box_id:16
 * and the DVSEC from PCM src/pci.h (union VSEC) and Linux's
 * UNCORE_DISCOVERY_DVSEC_OFFSET 0x8 / DVSEC2_OFFSET 0xC, BIR_BASE 0x10, BIR_STEP 4.
 * The fake seam here is this file's own: configuration space per function
 * and MMIO qwords, everything else absent. */
#include <stdlib.h>
#include <string.h>
#include "t.h"
#include "../../drivers/pmu/disc_table.h"

#define MAX_FN 160
#define MAX_MEM 256

static struct {
	struct { struct pci_addr a; uint32_t cfg[1024]; } fn[MAX_FN];
	unsigned nfn;
	struct { uint64_t addr, val; } mem[MAX_MEM];
	unsigned nmem;
	uint32_t undecoded_bus; /* bus+1 of a bus no root bridge decodes (0: none) */
	unsigned mmio_reads;
	/* Generated tables (gen_table): entry i of table g from runs of types. */
	struct gen { uint64_t base; unsigned nruns, total; struct { uint16_t type, n; } run[16]; } gen[4];
	unsigned ngen;
} F;

/* Entry k (0: global) of a generated table, qword q: stride 4; a CHA box
 * b at MSR 0x2000 + 0x10 b (4 regs, ctl_offset 2, 48 bits, ctr_offset 8),
 * an iMC channel b in MMIO at base + 0x10000 + 0x4000 b (ctl_offset 0x40,
 * ctr_offset 8), any other type in MSR space at 0x3000 + 0x10 k. */
static uint64_t gen_qword(const struct gen *g, unsigned k, unsigned q)
{
	if (k == 0)
		return q == 0 ? (uint64_t)g->total << 16 | 4 << 8 : q == 1 ? 0x2FF0 : 0;
	unsigned i = k - 1, r = 0;
	while (r < g->nruns && i >= g->run[r].n)
		i -= g->run[r++].n;
	if (r == g->nruns)
		return 0;
	unsigned type = g->run[r].type;
	if (q == 2)
		return type | (uint64_t)i << 16;
	if (type == 6)
		return q == 0 ? 0x4000000008304004ull : g->base + 0x10000 + 0x4000ull * i;
	if (type == 0)
		return q == 0 ? 0x0000000008300204ull : 0x2000 + 0x10ull * i;
	return q == 0 ? 0x0000000008300204ull : 0x3000 + 0x10ull * k;
}

static enum unc_status f_msr_read(void *c, uint32_t m, uint64_t *v) { (void)c; (void)m; (void)v; abort(); }
static enum unc_status f_msr_write(void *c, uint32_t m, uint64_t v) { (void)c; (void)m; (void)v; abort(); }
static enum unc_status f_pci_write(void *c, struct pci_addr a, uint16_t o, uint32_t v)
{
	(void)c; (void)a; (void)o; (void)v;
	t_fail(__FILE__, __LINE__, "the parser wrote PCI configuration space");
	return UNC_E_FAULT;
}

static enum unc_status f_pci_read(void *c, struct pci_addr a, uint16_t off, uint32_t *v)
{
	(void)c;
	if (F.undecoded_bus && a.bus == F.undecoded_bus - 1)
		return UNC_E_NOT_FOUND;
	for (unsigned i = 0; i < F.nfn; i++)
		if (F.fn[i].a.bus == a.bus && F.fn[i].a.dev == a.dev && F.fn[i].a.func == a.func) {
			*v = F.fn[i].cfg[off / 4];
			return UNC_OK;
		}
	*v = 0xFFFFFFFFu;
	return UNC_OK;
}

static enum unc_status f_mmio_read(void *c, uint64_t phys, uint32_t *v)
{
	(void)c;
	F.mmio_reads++;
	for (unsigned t = 0; t < F.ngen; t++) {
		const struct gen *g = &F.gen[t];
		if (phys >= g->base && phys < g->base + 32ull * (g->total + 1)) {
			uint64_t off = phys - g->base;
			unsigned q = (unsigned)(off % 32 / 8);
			*v = q < 3 ? (uint32_t)(gen_qword(g, (unsigned)(off / 32), q) >> (phys & 4 ? 32 : 0)) : 0;
			return UNC_OK;
		}
	}
	for (unsigned i = 0; i < F.nmem; i++)
		if (F.mem[i].addr == (phys & ~7ull)) {
			*v = (uint32_t)(F.mem[i].val >> (phys & 4 ? 32 : 0));
			return UNC_OK;
		}
	*v = 0;
	return UNC_OK;
}

static void f_cpuid(void *c, uint32_t l, uint32_t s, struct cpuid_regs *r) { (void)c; (void)l; (void)s; (void)r; abort(); }
static uint64_t f_ticks(void *c) { (void)c; return 0; }
static enum unc_status f_rdpmc(void *c, uint32_t i, uint64_t *v) { (void)c; (void)i; (void)v; abort(); }

static const struct hw_ops f_ops = { f_msr_read, f_msr_write, f_pci_read, f_pci_write, f_mmio_read, f_cpuid, f_ticks,
				     f_rdpmc, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
static const struct hw HW = { .ops = &f_ops, .tick_hz = 1 };

static void reset(void) { memset(&F, 0, sizeof(F)); }

/* A function with vendor 8086 and `device`, header type multi-function. */
static uint32_t *fn(uint8_t bus, uint8_t dev, uint8_t func, uint16_t device)
{
	uint32_t *c = F.fn[F.nfn].cfg;

	F.fn[F.nfn++].a = (struct pci_addr){ bus, dev, func };
	c[0] = (uint32_t)device << 16 | 0x8086;
	c[0xC / 4] = 0x00800000; /* header type 0x80: multi-function */
	return c;
}

/* The DVSEC at off: cap_id 0x23, version 1, next; vsec; entryID; BIR. */
static void dvsec(uint32_t *c, uint16_t off, uint16_t next, uint32_t entry, uint32_t bir)
{
	c[off / 4] = (uint32_t)next << 20 | 0x00010023;
	c[off / 4 + 1] = 0x01008086;
	c[off / 4 + 2] = entry;
	c[off / 4 + 3] = bir;
}

static void q(uint64_t addr, uint64_t val)
{
	F.mem[F.nmem].addr = addr;
	F.mem[F.nmem++].val = val;
}

static void entry(uint64_t addr, uint64_t t1, uint64_t ctl, uint64_t t3)
{
	q(addr, t1);
	q(addr + 8, ctl);
	q(addr + 16, t3);
}

/* The table of the minimal recipe, at base, stride 4 (32-byte entries):
 * global: type 0, stride 4, max_units 2 -> 0x0000000000020400, ctl 0x2FF0
 * iMC: num_regs 4, ctl_offset 0x40, bit_width 48, ctr_offset 8, MMIO (1 << 62)
 *      -> 0x4000000008304004, ctl 0xFE010000, box_type 6 id 0 -> 0x6
 * CHA: num_regs 4, ctl_offset 2, bit_width 48, ctr_offset 8, MSR
 *      -> 0x0000000008300204, ctl 0x2000, box_type 0 id 0 -> 0x0 */
static void recipe(uint64_t base)
{
	entry(base, 0x0000000000020400ull, 0x2FF0, 0);
	entry(base + 0x20, 0x4000000008304004ull, 0xFE010000ull, 0x6);
	entry(base + 0x40, 0x0000000008300204ull, 0x2000, 0x0);
}

static void one_device(uint16_t device, uint32_t bar_lo, uint32_t bar_hi)
{
	uint32_t *c = fn(0, 0x1F, 0, device);

	dvsec(c, 0x100, 0, 1, 0);
	c[0x10 / 4] = bar_lo;
	c[0x14 / 4] = bar_hi;
}

static void valid_table(void)
{
	struct disc d;
	char err[160] = "", name[32];

	reset();
	one_device(0x09A7, 0xFE000004, 0);
	recipe(0xFE000000);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_EQ(d.ntables, 1);
	T_ASSERT(d.by_device);
	T_EQ(d.table[0].bar, 0xFE000000);
	T_EQ(d.table[0].device_id, 0x09A7);
	T_EQ(d.table[0].dev.dev, 0x1F);
	T_EQ(d.table[0].cap, 0x100);
	T_EQ(d.table[0].stride, 4);
	T_EQ(d.table[0].max_units, 2);
	T_EQ(d.table[0].global.ctl, 0x2FF0);
	T_EQ(d.nunits, 2);
	T_EQ(d.nskips, 0);
	T_EQ(d.unit[0].access, DISC_MMIO);
	T_EQ(d.unit[0].ctl, 0xFE010000);
	T_EQ(d.unit[0].num_regs, 4);
	T_EQ(d.unit[0].ctl_offset, 0x40);
	T_EQ(d.unit[0].bit_width, 48);
	T_EQ(d.unit[0].ctr_offset, 8);
	T_EQ(d.unit[0].box_type, 6);
	T_STREQ(disc_unit_name(&d.unit[0], name, sizeof(name)), "uncore_imc_0");
	T_EQ(d.unit[1].access, DISC_MSR);
	T_EQ(d.unit[1].ctl, 0x2000);
	T_EQ(d.unit[1].ctl_offset, 2);
	T_STREQ(disc_unit_name(&d.unit[1], name, sizeof(name)), "uncore_cha_0");
}

/* A 32-bit BAR (type 0) takes no high dword; a 64-bit one does. */
static void bar_types(void)
{
	struct disc d;
	char err[160] = "";

	reset();
	one_device(0x09A7, 0xFE000000, 0xDEAD); /* 32-bit: the next dword is not read as the high half */
	recipe(0xFE000000);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_EQ(d.table[0].bar, 0xFE000000);
	T_EQ(d.nunits, 2);

	reset();
	one_device(0x09A7, 0x80000004, 0x20);
	recipe(0x2080000000ull);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_EQ(d.table[0].bar, 0x2080000000ull);
	T_EQ(d.nunits, 2);

	/* Prefetchable (bit 3), I/O (bit 0), type 1 (bit 1): the table is skipped. */
	static const uint32_t bad[] = { 0xFE00000C, 0xFE000001, 0xFE000002 };
	for (unsigned i = 0; i < 3; i++) {
		reset();
		one_device(0x09A7, bad[i], 0);
		recipe(0xFE000000);
		T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_E_NOT_FOUND);
		T_EQ(d.nskips, 1);
		T_EQ(d.skip[0].why, DISC_WHY_BAR);
		T_EQ(d.skip[0].entry, DISC_TABLE_ENTRY);
		T_EQ(F.mmio_reads, 0);
	}
}

/* BIR dword with bits 31:3 set: discovery stops with nothing. */
static void bir_reserved(void)
{
	struct disc d;
	char err[160] = "";
	uint32_t *c;

	reset();
	c = fn(0, 0x1F, 0, 0x09A7);
	dvsec(c, 0x100, 0, 1, 0x8);
	c[0x10 / 4] = 0xFE000004;
	recipe(0xFE000000);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_CONTAINS(err, "BIR dword 0x00000008");
	T_CONTAINS(err, "00:1f.0");
	T_EQ(d.ntables, 0);
	T_EQ(d.nunits, 0);
}

/* A DVSEC whose entryID is not 1 (PMON) is not a table. */
static void other_dvsec_id(void)
{
	struct disc d;
	char err[160] = "";
	uint32_t *c;

	reset();
	c = fn(0, 0x1F, 0, 0x09A7);
	dvsec(c, 0x100, 0, 2, 0);
	c[0x10 / 4] = 0xFE000004;
	recipe(0xFE000000);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_E_NOT_FOUND);
	T_CONTAINS(err, "no uncore discovery table");
	T_EQ(F.mmio_reads, 0);
}

/* Each broken unit form is skipped with its reason; the good ones stay. */
static void broken_entries(void)
{
	struct disc d;
	char err[160] = "";
	const uint64_t B = 0xFE000000;

	reset();
	one_device(0x09A7, 0xFE000004, 0);
	/* global: stride 4, max_units 8 -> 0x0000000000080400 */
	entry(B, 0x0000000000080400ull, 0x2FF0, 0);
	entry(B + 0x20, 0x4000000008304004ull, 0xFE010000ull, 0x6);     /* 0: good iMC */
	entry(B + 0x40, ~0ull, ~0ull, ~0ull);                            /* 1: all ones */
	entry(B + 0x60, 0, 0, 0);                                        /* 2: zero */
	entry(B + 0x80, 0x4000000000304004ull, 0xFE014000ull, 0x10006);  /* 3: iMC id 1, ctr_offset 0 */
	entry(B + 0xA0, 0x4000000008300004ull, 0xFE018000ull, 0x20006);  /* 4: iMC id 2, ctl_offset 0 */
	entry(B + 0xC0, 0xC000000008300204ull, 0x2010, 0x10000);         /* 5: access type 3 */
	entry(B + 0xE0, 0x0000000008300204ull, 0x2010, ~0ull);           /* 6: table3 all ones */
	entry(B + 0x100, 0x0000000008300204ull, 0x2010, 0x10000);        /* 7: good CHA id 1 */
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_EQ(d.nunits, 2);
	T_EQ(d.unit[0].entry, 0);
	T_EQ(d.unit[1].entry, 7);
	T_EQ(d.unit[1].box_id, 1);
	T_EQ(d.nskips, 6);
	T_EQ(d.skip[0].entry, 1);
	T_EQ(d.skip[0].why, DISC_WHY_ONES);
	T_EQ(d.skip[1].entry, 2);
	T_EQ(d.skip[1].why, DISC_WHY_ZERO);
	T_EQ(d.skip[2].entry, 3);
	T_EQ(d.skip[2].why, DISC_WHY_NO_CTR_OFF);
	T_EQ(d.skip[2].box_type, 6);
	T_EQ(d.skip[2].box_id, 1);
	T_EQ(d.skip[3].why, DISC_WHY_NO_CTL_OFF);
	T_EQ(d.skip[4].why, DISC_WHY_ACCESS);
	T_EQ(d.skip[5].why, DISC_WHY_ONES);
	T_STREQ(disc_why_text(DISC_WHY_NO_CTR_OFF), "no counter offset");
	T_EQ(d.table[0].units, 2);
}

/* A global entry that is all ones or zero: that table is skipped. */
static void broken_global(void)
{
	struct disc d;
	char err[160] = "";

	reset();
	one_device(0x09A7, 0xFE000004, 0);
	entry(0xFE000000, ~0ull, 0x2FF0, 0);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_E_NOT_FOUND);
	T_EQ(d.skip[0].why, DISC_WHY_GLOBAL);

	reset();
	one_device(0x09A7, 0xFE000004, 0);
	entry(0xFE000000, 0x0000000000020400ull, 0, 0);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_E_NOT_FOUND);
	T_EQ(d.skip[0].why, DISC_WHY_GLOBAL);
}

/* Two capabilities on one device (chained 0x100 -> 0x200), a second
 * device 0x09A7 on another bus; an Intel device of another ID with the
 * capability is then not read, nor a non-Intel one. */
static void several_tables(void)
{
	struct disc d;
	char err[160] = "";
	uint32_t *c;

	reset();
	c = fn(0, 0x1F, 0, 0x09A7);
	dvsec(c, 0x100, 0x200, 1, 0);
	dvsec(c, 0x200, 0, 1, 2);
	c[0x10 / 4] = 0xFE000004;
	c[0x18 / 4] = 0xFD000000; /* BIR 2: 0x10 + 2 * 4, 32-bit */
	recipe(0xFE000000);
	recipe(0xFD000000);
	c = fn(0x80, 0x1F, 0, 0x09A7);
	dvsec(c, 0x100, 0, 1, 0);
	c[0x10 / 4] = 0xFC000004;
	recipe(0xFC000000);
	c = fn(0x10, 2, 0, 0x3251); /* another Intel device with the capability: not read */
	dvsec(c, 0x100, 0, 1, 0);
	c[0x10 / 4] = 0xFB000004;
	recipe(0xFB000000);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_EQ(d.devices, 3);
	T_ASSERT(d.by_device);
	T_EQ(d.ntables, 3);
	T_EQ(d.table[0].bar, 0xFE000000);
	T_EQ(d.table[1].bar, 0xFD000000);
	T_EQ(d.table[1].bir, 2);
	T_EQ(d.table[1].cap, 0x200);
	T_EQ(d.table[2].bar, 0xFC000000);
	T_EQ(d.table[2].dev.bus, 0x80);
	T_EQ(d.nunits, 6);

	/* Without 0x09A7: any Intel device with the capability. */
	reset();
	c = fn(0x10, 2, 1, 0x3251);
	dvsec(c, 0x100, 0, 1, 0);
	c[0x10 / 4] = 0xFB000004;
	recipe(0xFB000000);
	F.fn[0].cfg[0] = 0x32518086;
	c = fn(0x11, 0, 0, 0x1234);
	c[0] = 0x12341022; /* vendor AMD, with the capability: not read */
	dvsec(c, 0x100, 0, 1, 0);
	c[0x10 / 4] = 0xFA000004;
	recipe(0xFA000000);
	/* function 1 is reached only because function 0 exists and is multi-function */
	fn(0x10, 2, 0, 0x3250);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_ASSERT(!d.by_device);
	T_EQ(d.ntables, 1);
	T_EQ(d.table[0].bar, 0xFB000000);
	T_EQ(d.table[0].dev.func, 1);
}

/* Two dies with the same box IDs: each ID keeps one number (perf's
 * uncore_imc_0 on both dies), new IDs take the next. */
static void duplicate_ids_two_dies(void)
{
	struct disc d;
	char err[160] = "", name[32];
	const uint64_t base[2] = { 0xFE000000, 0xFC000000 };

	reset();
	for (unsigned die = 0; die < 2; die++) {
		uint32_t *c = fn((uint8_t)(die * 0x80), 0x1F, 0, 0x09A7);

		dvsec(c, 0x100, 0, 1, 0);
		c[0x10 / 4] = (uint32_t)base[die] | 4;
		/* global: stride 4, max_units 4 -> 0x0000000000040400 */
		entry(base[die], 0x0000000000040400ull, 0x2FF0, 0);
		entry(base[die] + 0x20, 0x4000000008304004ull, base[die] + 0x10000, 0x00000006); /* iMC id 0 */
		entry(base[die] + 0x40, 0x4000000008304004ull, base[die] + 0x14000, 0x00010006); /* iMC id 1 */
		entry(base[die] + 0x60, 0x0000000008300204ull, 0x2000, 0x00000000);             /* CHA id 0 */
		entry(base[die] + 0x80, 0x0000000008300204ull, 0x2010 + 0x10 * die, 0x0001000Cull + (die << 16)); /* type 12 id 1 / 2 */
	}
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_EQ(d.ntables, 2);
	T_EQ(d.nunits, 6); /* iMC and CHA kept whole; type 12 counted in its table */
	T_STREQ(disc_unit_name(&d.unit[0], name, sizeof(name)), "uncore_imc_0");
	T_STREQ(disc_unit_name(&d.unit[1], name, sizeof(name)), "uncore_imc_1");
	T_STREQ(disc_unit_name(&d.unit[2], name, sizeof(name)), "uncore_cha_0");
	T_EQ(d.unit[3].table, 1);
	T_STREQ(disc_unit_name(&d.unit[3], name, sizeof(name)), "uncore_imc_0");
	T_EQ(d.unit[3].ctl, 0xFC010000);
	T_STREQ(disc_unit_name(&d.unit[4], name, sizeof(name)), "uncore_imc_1");
	T_STREQ(disc_unit_name(&d.unit[5], name, sizeof(name)), "uncore_cha_0");
	for (unsigned t = 0; t < 2; t++) {
		T_EQ(d.table[t].units, 4);
		T_EQ(d.table[t].kept, 3);
		T_EQ(d.table[t].ntypes, 3);
		T_EQ(d.table[t].types[2].type, 12);
		T_EQ(d.table[t].types[2].n, 1);
	}
}

/* A device 8086:09A7 at bus:1F.0 whose BAR 0 (64-bit) points at gen[g]. */
static struct gen *gen_table(uint8_t bus, uint64_t base)
{
	uint32_t *c = fn(bus, 0x1F, 0, 0x09A7);
	struct gen *g = &F.gen[F.ngen++];

	dvsec(c, 0x100, 0, 1, 0);
	c[0x10 / 4] = (uint32_t)base | 4;
	c[0x14 / 4] = (uint32_t)(base >> 32);
	g->base = base;
	return g;
}

static void run(struct gen *g, uint16_t type, uint16_t n)
{
	g->run[g->nruns].type = type;
	g->run[g->nruns++].n = n;
	g->total += n;
}

/* An SPR socket's table in the notes' order (servers.md "Real sizes":
 * CHA, IIO, IRP, M2PCIe, MDF, UPI, M3UPI, M2M, PCU, UBox, iMC; Linux's
 * SPR type numbers 0, 1, 2, 3, 11, 8, 9, 7, 4, 5, 6): 60 CHAs, 8 iMC
 * channels last, 133 units. */
static void spr_socket(struct gen *g)
{
	static const uint16_t t[11][2] = { { 0, 60 }, { 1, 12 }, { 2, 12 }, { 3, 12 }, { 11, 15 }, { 8, 4 },
					   { 9, 4 },  { 7, 4 },  { 4, 1 },  { 5, 1 },  { 6, 8 } };
	for (unsigned i = 0; i < 11; i++)
		run(g, t[i][0], t[i][1]);
}

/* Every iMC and CHA unit kept whatever its place: two full SPR tables
 * (the iMCs after 125 other units each), then a table of 130 CHAs before
 * its 8 iMC channels (main's parser kept 0 iMC of the second and third). */
static void every_unit_kept(void)
{
	static struct disc d;
	char err[200] = "";

	reset();
	spr_socket(gen_table(0x00, 0x2000000000ull));
	spr_socket(gen_table(0x40, 0x2100000000ull));
	struct gen *g = gen_table(0x80, 0x2200000000ull);
	run(g, 0, 130);
	run(g, 6, 8);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_STREQ(err, "");
	T_EQ(d.ntables, 3);
	T_EQ(d.nunits, 68 + 68 + 138);
	T_EQ(d.nskips, 0);
	unsigned imc[3] = { 0 }, cha[3] = { 0 };
	for (unsigned i = 0; i < d.nunits; i++) {
		imc[d.unit[i].table] += d.unit[i].box_type == 6;
		cha[d.unit[i].table] += d.unit[i].box_type == 0;
	}
	T_EQ(imc[0], 8);
	T_EQ(imc[1], 8);
	T_EQ(imc[2], 8);
	T_EQ(cha[0], 60);
	T_EQ(cha[1], 60);
	T_EQ(cha[2], 130);
	T_EQ(d.unit[d.nunits - 1].ctl, 0x2200000000ull + 0x10000 + 0x4000 * 7);
	T_EQ(d.unit[d.nunits - 1].pmu_idx, 7);
	T_EQ(d.unit[d.nunits - 9].pmu_idx, 129); /* uncore_cha_129 */
	for (unsigned t = 0; t < 2; t++) {
		T_EQ(d.table[t].units, 133);
		T_EQ(d.table[t].kept, 68);
		T_EQ(d.table[t].ntypes, 11);
		T_EQ(d.table[t].types[4].type, 11); /* MDF */
		T_EQ(d.table[t].types[4].n, 15);
		T_EQ(d.table[t].types[10].type, 6);
		T_EQ(d.table[t].types[10].n, 8);
	}
}

/* Over DISC_MAX_UNITS iMC and CHA units (three tables of 1000 CHAs):
 * refused, naming the limit; nothing is kept for a run. */
static void over_the_limit_refused(void)
{
	static struct disc d;
	char err[200] = "";

	reset();
	for (unsigned t = 0; t < 3; t++)
		run(gen_table((uint8_t)(0x20 * t), 0x2000000000ull + 0x100000000ull * t), 0, 1000);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_CONTAINS(err, "more than 2048 iMC and CHA units");
	T_CONTAINS(err, "DISC_MAX_UNITS");
	T_EQ(d.ntables, 0);
	T_EQ(d.nunits, 0);

	/* other types do not count against it: 3 x 1000 IIO units and one CHA */
	reset();
	for (unsigned t = 0; t < 3; t++)
		run(gen_table((uint8_t)(0x20 * t), 0x2000000000ull + 0x100000000ull * t), 1, 1000);
	run(&F.gen[2], 0, 1);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_EQ(d.nunits, 1);
	T_EQ(d.table[0].units, 1000);
}

/* More tables than DISC_MAX_TABLES (65 devices with a table each):
 * refused naming the limit. */
static void too_many_tables_refused(void)
{
	static struct disc d;
	char err[200] = "";

	reset();
	F.nfn = 0;
	for (unsigned t = 0; t < 65; t++) {
		uint32_t *c = fn((uint8_t)t, 0x1F, 0, 0x09A7);
		dvsec(c, 0x100, 0, 1, 0);
		c[0x10 / 4] = 0xFE000004;
	}
	recipe(0xFE000000);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_CONTAINS(err, "more than 64 tables (this parser's limit, DISC_MAX_TABLES)");
	T_EQ(d.ntables, 0);
}

/* Many other Intel devices with a DVSEC (ID 0x23 is any DVSEC) before the
 * 09A7 device: only 09A7 devices are read, the others' capabilities are
 * dropped, not counted against DISC_MAX_CAPS; with no 09A7 device, more
 * than DISC_MAX_CAPS (128) are refused, naming it. */
static void many_other_dvsecs(void)
{
	static struct disc d;
	char err[200] = "";

	reset();
	for (unsigned i = 0; i < 130; i++) {
		uint32_t *c = fn((uint8_t)(i / 8), (uint8_t)(i % 8), 0, 0x0B00);
		dvsec(c, 0x100, 0, 2, 0); /* not PMON */
	}
	one_device(0x09A7, 0xFE000004, 0);
	F.fn[F.nfn - 1].a.bus = 0xF0;
	recipe(0xFE000000);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_ASSERT(d.by_device);
	T_EQ(d.ntables, 1);
	T_EQ(d.devices, 131);

	reset();
	for (unsigned i = 0; i < 130; i++) {
		uint32_t *c = fn((uint8_t)(i / 8), (uint8_t)(i % 8), 0, 0x0B00);
		dvsec(c, 0x100, 0, 2, 0);
	}
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_CONTAINS(err, "more than 128 discovery capabilities (this parser's limit, DISC_MAX_CAPS)");
}

/* A BAR of 0 (unassigned) or a table running past 52-bit physical
 * addresses: refused with one line, nothing read there. */
static void bar_unassigned_refused(void)
{
	struct disc d;
	char err[200] = "";

	reset();
	one_device(0x09A7, 0x00000004, 0); /* 64-bit, 0 */
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_STREQ(err, "uncore discovery: 00:1f.0's table BAR (BIR 0, config 0x10) is 0, unassigned: nothing read there");
	T_EQ(F.mmio_reads, 0);

	reset();
	one_device(0x09A7, 0x00000000, 0); /* 32-bit, 0 */
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_EQ(F.mmio_reads, 0);

	reset();
	one_device(0x09A7, 0xFFFFF004, 0x000FFFFF); /* 0xFFFFFFFFFF000: 52-bit limit minus 4 KiB */
	entry(0xFFFFFFFFFF000ull, 0x0000000003FF0400ull, 0x2FF0, 0); /* 1023 entries of 32 bytes: 32 KiB */
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_CONTAINS(err, "runs past 52-bit physical addresses: nothing read there");
	T_EQ(F.mmio_reads, 6); /* the global entry only */

	reset();
	one_device(0x09A7, 0x00000004, 0x00100000); /* 2^52 */
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_CONTAINS(err, "is beyond 52-bit physical addresses");
	T_EQ(F.mmio_reads, 0);

	/* a 64-bit BAR at 4 GiB has a low dword of 0 after masking: assigned */
	reset();
	one_device(0x09A7, 0x00000004, 0x1);
	recipe(0x100000000ull);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_EQ(d.nunits, 2);
}

/* A UBox 8086:3250 with CPUNODEID (0xC0) bits 2:0 and GIDNIDMAP (0xD4). */
static void ubox(uint8_t bus, uint32_t nodeid, uint32_t gidnid)
{
	uint32_t *c = fn(bus, 0x00, 1, 0x3250);

	c[0xC0 / 4] = nodeid;
	c[0xD4 / 4] = gidnid;
	fn(bus, 0x00, 0, 0x3251); /* function 0, multi-function, so that function 1 is reached */
}

/* Sockets from the UBox map (Linux snbep_pci2phy_map_init, reverse): a
 * table's bus takes the socket of the nearest UBox bus at or above it;
 * the socket is the GIDNIDMAP field holding the UBox's node ID. Here
 * package 0 has node ID 5 and package 1 node ID 3 (GIDNIDMAP 5 | 3 << 3):
 * the UBox on bus 0x1E has node 3 (package 1), the one on 0xFE node 5
 * (package 0), so the first table found is socket 1. A table of other
 * units only gets no socket. */
static void sockets_from_ubox(void)
{
	static struct disc d;
	char err[200] = "";
	const uint32_t map = 5 | 3 << 3 | 7 << 6 | 7 << 9 | 7 << 12 | 7 << 15 | 7 << 18 | 7 << 21;

	reset();
	run(gen_table(0x00, 0x2000000000ull), 6, 8);
	run(gen_table(0x80, 0x2100000000ull), 6, 8);
	run(gen_table(0x90, 0x2200000000ull), 1, 5); /* IIO only */
	ubox(0x1E, 0xF8 | 3, map); /* bits 7:3 are not the node ID */
	ubox(0xFE, 5, map);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_EQ(d.nubox, 2);
	T_EQ(disc_sockets(&HW, &d, true, err, sizeof(err)), UNC_OK);
	T_EQ(d.tie, DISC_TIE_UBOX);
	T_EQ(d.table[0].socket, 1);
	T_EQ(d.table[1].socket, 0);
	T_EQ(d.table[2].socket, -1);
	T_EQ(d.sockets, 2);
	T_EQ(d.ubox[0].socket, 1);
	T_EQ(d.ubox[1].socket, 0);

	/* no rule for the model (GNR): table order, and the IIO table still no socket */
	T_EQ(disc_sockets(&HW, &d, false, err, sizeof(err)), UNC_OK);
	T_EQ(d.tie, DISC_TIE_ORDER);
	T_EQ(d.table[0].socket, 0);
	T_EQ(d.table[1].socket, 1);
	T_EQ(d.table[2].socket, -1);

	/* a table above the last UBox bus maps to none: table order, said so */
	reset();
	run(gen_table(0x00, 0x2000000000ull), 6, 8);
	run(gen_table(0x80, 0x2100000000ull), 6, 8);
	ubox(0x1E, 3, map);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_EQ(disc_sockets(&HW, &d, true, err, sizeof(err)), UNC_OK);
	T_EQ(d.tie, DISC_TIE_ORDER_UNMAPPED);
	T_EQ(d.table[0].socket, 0);
	T_EQ(d.table[1].socket, 1);

	/* no UBox at all */
	reset();
	run(gen_table(0x00, 0x2000000000ull), 0, 3);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_EQ(disc_sockets(&HW, &d, true, err, sizeof(err)), UNC_OK);
	T_EQ(d.tie, DISC_TIE_ORDER);
	T_EQ(d.table[0].socket, 0);
	T_EQ(d.sockets, 1);
}

/* The PCI access type's address: domain 30:28, bus 27:20, devfn 19:12,
 * box control 11:0. Domain 1, bus 0x7E, device 0x1D function 1 (devfn
 * 0xE9), offset 0x318 -> 0x17EE9318. */
static void pci_decode(void)
{
	struct disc_pci p = disc_pci_of(0x17EE9318ull);

	T_EQ(p.domain, 1);
	T_EQ(p.bus, 0x7E);
	T_EQ(p.dev, 0x1D);
	T_EQ(p.func, 1);
	T_EQ(p.reg, 0x318);
	p = disc_pci_of(0x000E0000ull); /* bus 0, devfn 0xE0 (19:12): 00:1c.0 + 0 */
	T_EQ(p.dev, 0x1C);
	T_EQ(p.func, 0);
	T_EQ(p.reg, 0);
}

/* The check's order and each field, on single entries. */
static void check_entry(void)
{
	struct disc_entry e = { 0x8000000008300204ull, 0x17EE9318ull, 0x00030002 }; /* PCI, type 2 id 3 */

	T_EQ(disc_check(&e, false), DISC_OK);
	T_EQ(disc_access_type(&e), DISC_PCI);
	T_EQ(disc_box_type(&e), 2);
	T_EQ(disc_box_id(&e), 3);
	T_EQ(disc_num_regs(&e), 4);
	T_EQ(disc_bit_width(&e), 48);
	e.ctl = 0;
	T_EQ(disc_check(&e, false), DISC_WHY_ZERO);
	e.ctl = 1;
	e.table1 = 0;
	T_EQ(disc_check(&e, false), DISC_WHY_ZERO);
	/* global: only zero / all ones */
	e = (struct disc_entry){ 0xC000000000020400ull, 0x2FF0, 0 };
	T_EQ(disc_check(&e, true), DISC_OK);
	T_EQ(disc_global_stride(&e), 4);
	T_EQ(disc_global_max_units(&e), 2);
}

/* A bus no root bridge decodes is passed over. */
static void undecoded_bus(void)
{
	struct disc d;
	char err[160] = "";

	reset();
	F.undecoded_bus = 0x40 + 1;
	one_device(0x09A7, 0xFE000004, 0);
	recipe(0xFE000000);
	T_EQ(disc_find(&HW, &d, err, sizeof(err)), UNC_OK);
	T_EQ(d.nunits, 2);
}

T_MAIN("disc", T_CASE(valid_table), T_CASE(bar_types), T_CASE(bir_reserved), T_CASE(other_dvsec_id),
       T_CASE(broken_entries), T_CASE(broken_global), T_CASE(several_tables), T_CASE(duplicate_ids_two_dies),
       T_CASE(pci_decode), T_CASE(check_entry), T_CASE(undecoded_bus), T_CASE(every_unit_kept),
       T_CASE(over_the_limit_refused), T_CASE(too_many_tables_refused), T_CASE(many_other_dvsecs), T_CASE(bar_unassigned_refused), T_CASE(sockets_from_ubox))
