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
#include "../../drivers/pmu/disc.h"

#define MAX_FN 8
#define MAX_MEM 256

static struct {
	struct { struct pci_addr a; uint32_t cfg[1024]; } fn[MAX_FN];
	unsigned nfn;
	struct { uint64_t addr, val; } mem[MAX_MEM];
	unsigned nmem;
	uint32_t undecoded_bus; /* bus+1 of a bus no root bridge decodes (0: none) */
	unsigned mmio_reads;
} F;

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
				     f_rdpmc, NULL, NULL, NULL, NULL, NULL, NULL };
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
	T_EQ(d.nunits, 8);
	T_STREQ(disc_unit_name(&d.unit[0], name, sizeof(name)), "uncore_imc_0");
	T_STREQ(disc_unit_name(&d.unit[1], name, sizeof(name)), "uncore_imc_1");
	T_STREQ(disc_unit_name(&d.unit[2], name, sizeof(name)), "uncore_cha_0");
	T_STREQ(disc_unit_name(&d.unit[3], name, sizeof(name)), "uncore_type_12_0");
	T_EQ(d.unit[4].table, 1);
	T_STREQ(disc_unit_name(&d.unit[4], name, sizeof(name)), "uncore_imc_0");
	T_EQ(d.unit[4].ctl, 0xFC010000);
	T_STREQ(disc_unit_name(&d.unit[5], name, sizeof(name)), "uncore_imc_1");
	T_STREQ(disc_unit_name(&d.unit[6], name, sizeof(name)), "uncore_cha_0");
	T_STREQ(disc_unit_name(&d.unit[7], name, sizeof(name)), "uncore_type_12_1");
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
       T_CASE(pci_decode), T_CASE(check_entry), T_CASE(undecoded_bus))
