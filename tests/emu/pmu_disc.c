/* The discovery-table uncore (pmu_disc.h): per socket, configuration
 * space of the table's device and of the UBox, the table in MMIO listing
 * every unit type, the iMC channels in MMIO and the CHAs in MSRs answered
 * by the package of the processor making the access (emu_cur_pkg). Box control FRZ bit 0 stops a box (Linux GENERIC_PMON_BOX_CTL_FRZ);
 * an event select counts when it is not 0 (no enable bit: neither Linux's
 * generic ops nor Intel PCM sets one on these counters). Event select:
 * event 7:0, umask 15:8, edge 18, invert 23, threshold 31:24
 * (GENERIC_PMON_CTL_*); the CHA's, 64 bits, also the umask's extension in
 * bits 63:32 (Linux spr_uncore_chabox: umask config:8-15,32-63). */
#include "model.h"

#include "../../drivers/base/arith.h"
#include "../../drivers/base/parse.h"


/* Linux uncore_snbep.c spr_uncore_imc_events (cas_count_read/write) and
 * Intel's perfmon GNR uncore-memory file (SCH0, SCH1: events 0x05, 0x06). */
const struct emu_disc_event emu_disc_events[] = {
	{ "UNC_M_CAS_COUNT.RD", EMU_UNIT_DISC_IMC, 0x05, 0xCF, 0 },
	{ "UNC_M_CAS_COUNT.WR", EMU_UNIT_DISC_IMC, 0x05, 0xF0, 0 },
	{ "UNC_M_CAS_COUNT_SCH0.RD", EMU_UNIT_DISC_IMC, 0x05, 0xCF, 0 },
	{ "UNC_M_CAS_COUNT_SCH0.WR", EMU_UNIT_DISC_IMC, 0x05, 0xF0, 0 },
	{ "UNC_M_CAS_COUNT_SCH1.RD", EMU_UNIT_DISC_IMC, 0x06, 0xCF, 0 },
	{ "UNC_M_CAS_COUNT_SCH1.WR", EMU_UNIT_DISC_IMC, 0x06, 0xF0, 0 },
	{ "UNC_CHA_CLOCKTICKS", EMU_UNIT_DISC_CHA, 0x01, 0x00, 0 },
	/* Intel's perfmon SPR uncore-cache file: EventCode 0x35, UMask 0x01,
	 * UMaskExt 0x00C001FE, which Linux's SPR CHA format (umask
	 * config:8-15,32-63) puts in select bits 63:32 */
	{ "UNC_CHA_TOR_INSERTS.IA_MISS", EMU_UNIT_DISC_CHA, 0x35, 0x01, 0x00C001FEu },
};
const unsigned emu_disc_nevents = sizeof(emu_disc_events) / sizeof(emu_disc_events[0]);

const struct emu_disc_event *emu_disc_event_find(const char *name)
{
	for (unsigned i = 0; i < emu_disc_nevents; i++)
		if (str_ieq(name, emu_disc_events[i].name))
			return &emu_disc_events[i];
	return NULL;
}

unsigned emu_disc_fault_find(const char *name)
{
	static const struct { const char *name; unsigned bit; } f[] = {
		{ "all-ones", EMU_DISC_ALL_ONES },
		{ "no-ctr-offset", EMU_DISC_NO_CTR },
		{ "bir", EMU_DISC_BIR },
		{ "second-table", EMU_DISC_SECOND },
		{ "bar-zero", EMU_DISC_BAR_ZERO },
	};
	for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (str_ieq(name, f[i].name))
			return f[i].bit;
	return 0;
}

/* struct uncore_global_discovery table1: type 7:0, stride 15:8, max_units 25:16, access_type 63:62. */
static uint64_t global1(unsigned stride, unsigned max_units)
{
	return (uint64_t)stride << 8 | (uint64_t)max_units << 16;
}

/* struct uncore_unit_discovery table1: num_regs 7:0, ctl_offset 15:8,
 * bit_width 23:16, ctr_offset 31:24, status_offset 39:32, access_type 63:62;
 * table3: box_type 15:0, box_id 31:16. */
static uint64_t unit1(unsigned num_regs, unsigned ctl_off, unsigned width, unsigned ctr_off, unsigned access)
{
	return num_regs | (uint64_t)ctl_off << 8 | (uint64_t)width << 16 | (uint64_t)ctr_off << 24 | (uint64_t)access << 62;
}

static uint64_t unit3(unsigned type, unsigned id)
{
	return type | (uint64_t)id << 16;
}

#define STRIDE 4 /* qwords: 32-byte entries */
#define MSR_ACCESS 0
#define MMIO_ACCESS 1
#define TABLE_WINDOW 0x10000u /* each socket's table, before its channels */

unsigned emu_disc_sockets(const struct emu *e)
{
	return e->cfg.disc_sockets_set && e->cfg.sockets ? e->cfg.sockets : 1;
}

static unsigned channels(const struct emu *e)
{
	return e->cfg.disc_channels ? e->cfg.disc_channels : EMU_DISC_SOCKET_CH;
}

unsigned emu_disc_chas(const struct emu *e, unsigned s)
{
	return e->cfg.disc_chas[s] ? e->cfg.disc_chas[s] : 1;
}

/* --dies N: N tables per socket (GNR: "each die has its own table",
 * servers.md), table t = socket t / N, die t % N, each listing its share
 * of the socket's channels and CHAs (the CHAs of die d numbered after
 * those of the dies before it, at their MSRs on the package). Below, the
 * tables, iMC channels and their counters are indexed by table; the CHA
 * MSRs and counters by package. */
static unsigned dies(const struct emu *e)
{
	return e->cfg.disc_dies ? e->cfg.disc_dies : 1;
}

static unsigned tables(const struct emu *e)
{
	return emu_disc_sockets(e) * dies(e);
}

/* Table t's channels, and its CHAs and the first one's number on its package. */
static unsigned t_channels(const struct emu *e)
{
	return channels(e) / dies(e);
}

static unsigned t_chas(const struct emu *e, unsigned t)
{
	return emu_disc_chas(e, t / dies(e)) / dies(e);
}

static unsigned t_cha0(const struct emu *e, unsigned t)
{
	return t % dies(e) * t_chas(e, t);
}

/* A socket's table lists every unit type in the notes' order (servers.md
 * "Real sizes": CHA, IIO, IRP, M2PCIe, MDF, UPI, M3UPI, M2M, PCU, UBox,
 * iMC) with Linux's SPR type numbers (uncore_snbep.c spr_uncores[]: 0 cha,
 * 1 iio, 2 irp, 3 m2pcie, 4 pcu, 5 ubox, 6 imc, 7 m2m, 8 upi, 9 m3upi,
 * 11 mdf). Counts other than CHA and iMC are this emulator's (the notes:
 * "a few hundred units per socket"); those units are entries only, in MSR
 * space at addresses nothing here answers, never programmed by the app. */
static const struct { uint16_t type, n; uint32_t msr; } others[] = {
	{ 1, 12, 0x3000 }, /* IIO */
	{ 2, 12, 0x3400 }, /* IRP */
	{ 3, 12, 0x3800 }, /* M2PCIe */
	{ 11, 15, 0x3C00 }, /* MDF */
	{ 8, 4, 0x4000 }, /* UPI */
	{ 9, 4, 0x4100 }, /* M3UPI */
	{ 7, 4, 0x4200 }, /* M2M */
	{ 4, 1, 0x4300 }, /* PCU */
	{ 5, 1, 0x4310 }, /* UBox */
};

static unsigned n_others(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		n += others[i].n;
	return n;
}

/* Entries of socket s's table after its global entry. Socket 0's carries
 * the faults asked for after its channels. */
static unsigned faults_extra(const struct emu *e, unsigned s)
{
	return s ? 0 : !!(e->cfg.disc_faults & EMU_DISC_ALL_ONES) + !!(e->cfg.disc_faults & EMU_DISC_NO_CTR);
}

static unsigned table_units(const struct emu *e, unsigned s)
{
	return t_chas(e, s) + n_others() + t_channels(e) + faults_extra(e, s);
}

/* Entry k of socket s's table: 0 the global entry, then the CHAs, the other
 * types, the channels, the faults. Each is 3 qwords; the rest of the 32
 * bytes reads 0. */
static uint64_t table_qword(const struct emu *e, unsigned s, unsigned k, unsigned q)
{
	unsigned nch = t_channels(e), ncha = t_chas(e, s), i;
	uint64_t t[3] = { 0, 0, 0 };

	if (k == 0) {
		t[0] = global1(STRIDE, table_units(e, s));
		t[1] = 0x2FF0; /* SPR_MSR_UNCORE_PMON_GLOBAL_CTL */
		return t[q];
	}
	i = k - 1;
	if (i < ncha) {
		t[0] = unit1(4, 0x02, 48, 0x08, MSR_ACCESS);
		t[1] = EMU_DISC_CHA_MSR(t_cha0(e, s) + i);
		t[2] = unit3(0, t_cha0(e, s) + i);
		return t[q];
	}
	i -= ncha;
	for (unsigned r = 0; r < sizeof(others) / sizeof(others[0]); r++) {
		if (i < others[r].n) {
			t[0] = unit1(4, 0x02, 48, 0x08, MSR_ACCESS);
			t[1] = others[r].msr + 0x10u * i;
			t[2] = unit3(others[r].type, i);
			return t[q];
		}
		i -= others[r].n;
	}
	if (i < nch) {
		t[0] = unit1(4, 0x40, 48, 0x08, MMIO_ACCESS);
		t[1] = EMU_DISC_IMC_AT(s, i);
		t[2] = unit3(6, i);
		return t[q];
	}
	i -= nch;
	if (i < faults_extra(e, s)) {
		if (i == 0 && (e->cfg.disc_faults & EMU_DISC_ALL_ONES)) {
			t[0] = t[1] = t[2] = ~0ull;
		} else {
			t[0] = unit1(4, 0x40, 48, 0x00, MMIO_ACCESS); /* no counter offset */
			t[1] = EMU_DISC_TABLE_AT(s) + 0xF000;
			t[2] = unit3(6, nch);
		}
	}
	return t[q];
}

/* The second table: one unit of type 12 in MSR space (listed, not programmed). */
static uint64_t table2_qword(unsigned k, unsigned q)
{
	uint64_t t[3] = { 0, 0, 0 };

	if (k == 0)
		t[0] = global1(STRIDE, 1), t[1] = 0x2FF0;
	else if (k == 1)
		t[0] = unit1(2, 0x02, 48, 0x08, MSR_ACCESS), t[1] = 0x2F00, t[2] = unit3(12, 1);
	return t[q];
}

static uint32_t half(uint64_t v, uint64_t off)
{
	return (uint32_t)(v >> (off & 4 ? 32 : 0));
}

/* The socket whose table device (second: the fault's table) d is; -1: none present. */
static int table_socket(const struct emu *e, const struct emu_pci_dev *d, bool *second)
{
	*second = d->dev == EMU_DISC_DEV2;
	if (*second)
		return e->cfg.disc_faults & EMU_DISC_SECOND ? 0 : -1;
	return d->box < tables(e) ? (int)d->box : -1;
}

static enum unc_status disc_pci_read(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t *ret_val)
{
	bool second;
	int s = table_socket(e, d, &second);
	uint32_t v = 0;

	if (s < 0)
		return UNC_E_NOT_FOUND;
	switch (off) {
	case 0x00: v = 0x09A7u << 16 | 0x8086u; break;
	case 0x04: v = 0x00100000u; break; /* status: capability list */
	case 0x10: /* 64-bit, non-prefetchable */
		v = (uint32_t)(second ? EMU_DISC_TABLE2 : EMU_DISC_TABLE_AT(s)) | 4;
		if (!second && !s && (e->cfg.disc_faults & EMU_DISC_BAR_ZERO))
			v = 4; /* unassigned */
		break;
	case 0x100: v = 0x00010023u; break; /* extended capability 0x23, version 1, next 0 */
	case 0x104: v = 0x01008086u; break;
	case 0x108: v = 1; break;           /* entryID 1: PMON */
	case 0x10C: v = !second && !s && (e->cfg.disc_faults & EMU_DISC_BIR) ? 0x8u : 0; break; /* BIR 0 */
	default: v = 0;
	}
	*ret_val = v;
	return UNC_OK;
}

static enum unc_status disc_pci_write(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t val)
{
	bool second;

	(void)off, (void)val;
	return table_socket(e, d, &second) < 0 ? UNC_E_NOT_FOUND : UNC_OK; /* read-only here */
}

/* Socket d->box's UBox 8086:3250 (SPR and EMR identities): CPUNODEID
 * (0xC0) bits 2:0 its node ID, GIDNIDMAP (0xD4) the node ID of package i
 * in bits 3i+2:3i (Linux uncore_snbep.c SKX_CPUNODEID, SKX_GIDNIDMAP,
 * GIDNIDMAP()). */
static enum unc_status ubox_pci_read(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t *ret_val)
{
	uint32_t v = 0;

	if (!e->cfg.disc_ubox || d->box >= emu_disc_sockets(e))
		return UNC_E_NOT_FOUND;
	switch (off) {
	case 0x00: v = (uint32_t)EMU_DISC_UBOX_ID << 16 | 0x8086u; break;
	case EMU_DISC_CPUNODEID: v = emu_disc_node_id(d->box); break;
	case EMU_DISC_GIDNIDMAP:
		/* a permutation: an absent package's field holds no present one's ID */
		for (unsigned s = 0; s < 8; s++)
			v |= (uint32_t)emu_disc_node_id(s) << (3 * s);
		break;
	default: v = 0;
	}
	*ret_val = v;
	return UNC_OK;
}

static enum unc_status ubox_pci_write(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t val)
{
	(void)off, (void)val;
	return !e->cfg.disc_ubox || d->box >= emu_disc_sockets(e) ? UNC_E_NOT_FOUND : UNC_OK;
}

static struct emu_ctr *imc_ctr(struct emu *e, unsigned s, unsigned c, unsigned i)
{
	return &e->ctr[(s * EMU_DISC_MAX_CH + c) * EMU_DISC_CH_CTRS + i];
}

static struct emu_ctr *cha_ctr(struct emu *e, unsigned s, unsigned b, unsigned i)
{
	return &e->ctr[EMU_DISC_CHA_CTR0 + (s * EMU_DISC_MAX_CHA + b) * EMU_DISC_CHA_CTRS + i];
}

/* Channel c of socket s's register at off: box control, select, counter (lo/hi). */
static enum unc_status imc_access(struct emu *e, uint64_t addr, bool write, uint32_t *val)
{
	if (addr < EMU_DISC_IMC_AT(0, 0))
		return UNC_E_NOT_FOUND;
	{
		unsigned s = (unsigned)((addr - EMU_DISC_TABLE_AT(0)) / 0x100000), c;
		if (s >= tables(e) || addr < EMU_DISC_IMC_AT(s, 0))
			return UNC_E_NOT_FOUND;
		c = (unsigned)((addr - EMU_DISC_IMC_AT(s, 0)) / 0x4000);
		if (c >= t_channels(e))
			return UNC_E_NOT_FOUND;
		{
			uint64_t off = addr - EMU_DISC_IMC_AT(s, c);
			uint32_t *box = &e->disc.imc_box[s][c];
			if (off == 0) {
				if (write) {
					for (unsigned i = 0; i < EMU_DISC_CH_CTRS; i++)
						emu_disc_bring(e, imc_ctr(e, s, c, i));
					*box = *val & 0x301;
				} else {
					*val = *box & 1;
				}
			} else if (off >= 0x40 && off < 0x50) {
				struct emu_ctr *x = imc_ctr(e, s, c, (unsigned)(off - 0x40) / 4);
				if (write) {
					emu_disc_bring(e, x);
					x->sel = *val & 0xFF84FFFFu;
				} else
					*val = (uint32_t)x->sel;
			} else if (off >= 0x08 && off < 0x28) {
				struct emu_ctr *x = imc_ctr(e, s, c, (unsigned)(off - 0x08) / 8);
				emu_disc_bring(e, x);
				if (!write)
					*val = half(x->value, off);
				else if (emu_ro(&e->cfg, EMU_RO_IMC))
					; /* --fault ro-counters=imc */
				else if (off & 4)
					x->value = (x->value & 0xFFFFFFFFull) | (uint64_t)(*val & 0xFFFF) << 32;
				else
					x->value = (x->value & ~0xFFFFFFFFull) | *val;
			} else if (!write) {
				*val = 0; /* the fixed counter and its control (+0x38, +0x54), the rest: 0 */
			}
			for (unsigned i = 0; write && (*box & 0x200) && !emu_ro(&e->cfg, EMU_RO_IMC) && i < EMU_DISC_CH_CTRS;
			     i++) /* RST_CTRS */
				imc_ctr(e, s, c, i)->value = 0;
			for (unsigned i = 0; write && (*box & 0x100) && i < EMU_DISC_CH_CTRS; i++) /* RST_CTRL */
				imc_ctr(e, s, c, i)->sel = 0;
			*box &= 1;
			return UNC_OK;
		}
	}
	return UNC_E_NOT_FOUND;
}

static enum unc_status disc_mmio_read(struct emu *e, uint64_t addr, uint32_t *ret_val)
{
	for (unsigned s = 0; s < tables(e); s++) {
		if (addr >= EMU_DISC_TABLE_AT(s) && addr < EMU_DISC_TABLE_AT(s) + TABLE_WINDOW) {
			uint64_t off = addr - EMU_DISC_TABLE_AT(s);
			unsigned k = (unsigned)(off / (STRIDE * 8)), q = (unsigned)(off % (STRIDE * 8) / 8);
			*ret_val = q < 3 && k <= table_units(e, s) ? half(table_qword(e, s, k, q), off) : 0;
			return UNC_OK;
		}
	}
	if ((e->cfg.disc_faults & EMU_DISC_SECOND) && addr >= EMU_DISC_TABLE2 && addr < EMU_DISC_TABLE2 + 0x1000) {
		uint64_t off = addr - EMU_DISC_TABLE2;
		unsigned k = (unsigned)(off / (STRIDE * 8)), q = (unsigned)(off % (STRIDE * 8) / 8);
		*ret_val = q < 3 ? half(table2_qword(k, q), off) : 0;
		return UNC_OK;
	}
	return imc_access(e, addr, false, ret_val);
}

static enum unc_status disc_mmio_write(struct emu *e, uint64_t addr, uint32_t val)
{
	for (unsigned s = 0; s < tables(e); s++)
		if (addr >= EMU_DISC_TABLE_AT(s) && addr < EMU_DISC_TABLE_AT(s) + TABLE_WINDOW)
			return UNC_OK; /* the tables are read-only */
	return imc_access(e, addr, true, &val);
}

/* The per-package MSRs, as the package of the processor making the access
 * (emu_cur_pkg) has them: CHA b at 0x2000 + 0x10 b (box control +0, selects
 * +2..+5, counters +8..+0xB, filter +0xE: LW's MSR_UNC_SPR_C0_PMON_*, the
 * same numbers on each package), the global control 0x2FF0 and the CHA
 * count 0x2FFE (SPR_MSR_UNC_CBO_CONFIG, read-only). A package with no
 * socket here (QEMU given more sockets than --sockets), or a CHA beyond
 * its socket's count: #GP, as a register that does not exist. */
#define CHA_LAST (EMU_DISC_CHA_MSR(EMU_DISC_MAX_CHA) - 1)
static enum unc_status disc_msr(struct emu *e, uint32_t msr, bool write, uint64_t *v)
{
	unsigned s = emu_cur_pkg;

	if (msr != 0x2FF0 && msr != 0x2FFE && (msr < EMU_DISC_CHA_BOX || msr > CHA_LAST))
		return UNC_E_NOT_FOUND;
	if (s >= emu_disc_sockets(e))
		return UNC_E_FAULT;
	if (msr == 0x2FFE) {
		if (write)
			return UNC_E_FAULT;
		*v = emu_disc_chas(e, s);
		return UNC_OK;
	}
	if (msr == 0x2FF0) {
		if (write && (*v & ~1ull))
			return UNC_E_FAULT;
		if (write)
			e->disc.global[s] = *v;
		else
			*v = e->disc.global[s];
		return UNC_OK;
	}
	unsigned b = (msr - EMU_DISC_CHA_BOX) / 0x10, off = (msr - EMU_DISC_CHA_BOX) % 0x10;
	if (b >= emu_disc_chas(e, s))
		return UNC_E_FAULT;
	if (off == 0) {
		if (!write) {
			*v = e->disc.cha_box[s][b] & 1;
			return UNC_OK;
		}
		if (*v & ~0x301ull)
			return UNC_E_FAULT;
		for (unsigned i = 0; i < EMU_DISC_CHA_CTRS; i++)
			emu_disc_bring(e, cha_ctr(e, s, b, i));
		for (unsigned i = 0; (*v & 0x200) && !emu_ro(&e->cfg, EMU_RO_CHA) && i < EMU_DISC_CHA_CTRS;
		     i++) /* RST_CTRS (--fault ro-counters=cha: ignored) */
			cha_ctr(e, s, b, i)->value = 0;
		for (unsigned i = 0; (*v & 0x100) && i < EMU_DISC_CHA_CTRS; i++) /* RST_CTRL */
			cha_ctr(e, s, b, i)->sel = 0;
		e->disc.cha_box[s][b] = *v & 1;
		return UNC_OK;
	}
	if (off >= 2 && off <= 5) {
		struct emu_ctr *x = cha_ctr(e, s, b, off - 2);
		emu_disc_bring(e, x);
		if (write)
			x->sel = *v;
		else
			*v = x->sel;
		return UNC_OK;
	}
	if (off >= 8 && off <= 0xB) {
		struct emu_ctr *x = cha_ctr(e, s, b, off - 8);
		if (write && (*v >> 48))
			return UNC_E_FAULT;
		emu_disc_bring(e, x);
		if (write && !emu_ro(&e->cfg, EMU_RO_CHA)) /* --fault ro-counters=cha: ignored */
			x->value = *v;
		else if (!write)
			*v = x->value;
		return UNC_OK;
	}
	if (off == 0xE) {
		if (write && (*v & ~0x3FFull))
			return UNC_E_FAULT;
		if (write)
			e->disc.cha_filter[s][b] = *v;
		else
			*v = e->disc.cha_filter[s][b];
		return UNC_OK;
	}
	return UNC_E_FAULT;
}

static enum unc_status disc_msr_read(struct emu *e, uint32_t msr, uint64_t *ret_val)
{
	uint64_t v = 0;
	enum unc_status st = disc_msr(e, msr, false, &v);

	if (st == UNC_OK)
		*ret_val = v;
	return st;
}

static enum unc_status disc_msr_write(struct emu *e, uint32_t msr, uint64_t val)
{
	return disc_msr(e, msr, true, &val);
}

/* Box d.box: the socket (its tables and UBoxes, one each per socket). */
#define DEVS(s) { EMU_DISC_BUS(s), EMU_DISC_DEV, 0, disc_pci_read, disc_pci_write, s }, \
		{ EMU_DISC_UBOX_BUS(s), 0, 0, ubox_pci_read, ubox_pci_write, s }
static const struct emu_pci_dev disc_pci[] = {
	DEVS(0), DEVS(1), DEVS(2), DEVS(3), DEVS(4), DEVS(5), DEVS(6), DEVS(7),
	{ 0, EMU_DISC_DEV2, 0, disc_pci_read, disc_pci_write, 0 },
};

static void disc_init(struct emu *e)
{
	e->ncbo = channels(e);
	e->clock_hz = 2000000000ull; /* counting resolution: 2 GHz */
	for (unsigned s = 0; s < EMU_DISC_MAX_SOCKETS; s++) {
		for (unsigned c = 0; c < EMU_DISC_MAX_CH; c++)
			for (unsigned i = 0; i < EMU_DISC_CH_CTRS; i++)
				*imc_ctr(e, s, c, i) = (struct emu_ctr){ .width = 48, .unit = EMU_UNIT_DISC_IMC, .index = (uint8_t)i };
		for (unsigned b = 0; b < EMU_DISC_MAX_CHA; b++)
			for (unsigned i = 0; i < EMU_DISC_CHA_CTRS; i++)
				*cha_ctr(e, s, b, i) = (struct emu_ctr){ .width = 48, .unit = EMU_UNIT_DISC_CHA, .index = (uint8_t)i };
	}
}

static bool disc_enabled(const struct emu *e)
{
	(void)e;
	return true;
}

/* The socket and box of counter k (iMC channel or CHA). */
static void where(unsigned k, bool *cha, unsigned *s, unsigned *b)
{
	*cha = k >= EMU_DISC_CHA_CTR0;
	if (*cha) {
		k = (k - EMU_DISC_CHA_CTR0) / EMU_DISC_CHA_CTRS;
		*s = k / EMU_DISC_MAX_CHA, *b = k % EMU_DISC_MAX_CHA;
	} else {
		k /= EMU_DISC_CH_CTRS;
		*s = k / EMU_DISC_MAX_CH, *b = k % EMU_DISC_MAX_CH;
	}
}

static bool disc_ctr_enabled(const struct emu *e, const struct emu_ctr *c)
{
	unsigned s, b;
	bool cha;

	if (!c->sel)
		return false;
	where((unsigned)(c - e->ctr), &cha, &s, &b);
	if (cha)
		return s < emu_disc_sockets(e) && b < emu_disc_chas(e, s) && !(e->disc.cha_box[s][b] & 1);
	return s < tables(e) && b < t_channels(e) && !(e->disc.imc_box[s][b] & 1); /* s: the table */
}

static bool disc_ovf_forwarded(const struct emu_ctr *c)
{
	(void)c;
	return false;
}

/* The rate of an event on socket s: its --socket-rate for s if given,
 * else its --rate. */
static uint64_t rate_of(const struct emu *e, unsigned s, uint8_t unit, uint8_t code, uint8_t umask, uint32_t ext)
{
	uint64_t all = 0, own = 0;
	bool has_own = false;

	for (unsigned i = 0; i < e->cfg.nrates; i++) {
		const struct emu_rate *x = &e->cfg.rates[i];
		if (x->unit != unit || x->code != code || x->umask != umask || e->cfg.rate_ext[i] != ext)
			continue;
		if (!e->cfg.rate_socket[i])
			all += x->per_sec;
		else if (e->cfg.rate_socket[i] == s + 1)
			own += x->per_sec, has_own = true;
	}
	return has_own ? own : all;
}

static uint64_t disc_increment(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1)
{
	uint32_t sel = (uint32_t)c->sel, ext = (uint32_t)(c->sel >> 32); /* the iMC's selects are 32-bit: ext 0 */
	unsigned s, b;
	bool cha;

	where((unsigned)(c - e->ctr), &cha, &s, &b);
	if (!cha)
		s /= dies(e); /* a channel's table: its socket's rates */
	return emu_spread(e->clock_hz, rate_of(e, s, c->unit, sel & 0xFF, (sel >> 8) & 0xFF, ext), c0, c1,
			  sel >> 24 & 0xFF, sel & (1u << 23), sel & (1u << 18));
}

/* Counter c's count brought up to now: what it added since it was last
 * brought up, if it counted (its select, box control and socket unchanged
 * since: every write that changes them brings its counters up first). The
 * model core walks none of these counters (nctr 0): with hundreds of boxes
 * a walk at every access made each access slow enough to skew what the
 * guest measures. */
void emu_disc_bring(struct emu *e, struct emu_ctr *c)
{
	unsigned k = (unsigned)(c - e->ctr);
	uint64_t now = u64_muldiv(e->now_ns, e->clock_hz, 1000000000ull);

	if (now <= e->disc.since[k])
		return;
	if (e->pmu->ops.ctr_enabled(e, c) && !c->stuck)
		c->value = (c->value + e->pmu->ops.increment(e, c, e->disc.since[k], now)) & 0xFFFFFFFFFFFFull;
	e->disc.since[k] = now;
}

const struct emu_pmu emu_pmu_disc = {
	.name = "disc",
	.pci = disc_pci,
	.npci = sizeof(disc_pci) / sizeof(disc_pci[0]),
	.nctr = 0, /* counted lazily, each when read or reconfigured (emu_disc_bring) */
	.mmio_read32 = disc_mmio_read,
	.mmio_write32 = disc_mmio_write,
	.msr_read = disc_msr_read,
	.msr_write = disc_msr_write,
	.ops = {
		.init = disc_init,
		.enabled = disc_enabled,
		.ctr_enabled = disc_ctr_enabled,
		.ovf_forwarded = disc_ovf_forwarded,
		.freeze_on_ovf = emu_core_no_freeze,
		.freeze = emu_core_freeze,
		.increment = disc_increment,
	},
};
