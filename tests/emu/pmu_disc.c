/* The discovery-table uncore (pmu_disc.h): configuration space of the
 * table's device, the table in MMIO, the iMC channels in MMIO and a CHA
 * in MSRs. Box control FRZ bit 0 stops a box (Linux GENERIC_PMON_BOX_CTL_FRZ);
 * an event select counts when it is not 0 (no enable bit: neither Linux's
 * generic ops nor Intel PCM sets one on these counters). Event select:
 * event 7:0, umask 15:8, edge 18, invert 23, threshold 31:24
 * (GENERIC_PMON_CTL_*); the CHA's, 64 bits, also the umask's extension in
 * bits 63:32 (Linux spr_uncore_chabox: umask config:8-15,32-63). */
#include "model.h"

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

static unsigned channels(const struct emu *e)
{
	return e->ncbo;
}

/* The first socket's table lists channels 0-7, the second's (more than 8
 * channels) the rest, each numbering its own from 0 as Linux's per-die
 * tables do (uncore_discovery.c: a box ID per die). */
static unsigned channels0(const struct emu *e)
{
	return channels(e) < EMU_DISC_SOCKET_CH ? channels(e) : EMU_DISC_SOCKET_CH;
}

/* Entry k of the first table: the global entry, the channels, the faults
 * asked for, the CHA last. Each is 3 qwords; the rest of the 32 bytes reads 0. */
static uint64_t table_qword(const struct emu *e, unsigned k, unsigned q)
{
	unsigned nch = channels0(e), extra = !!(e->cfg.disc_faults & EMU_DISC_ALL_ONES) +
					   !!(e->cfg.disc_faults & EMU_DISC_NO_CTR);
	uint64_t t[3] = { 0, 0, 0 };

	if (k == 0) {
		t[0] = global1(STRIDE, nch + extra + 1);
		t[1] = 0x2FF0; /* SPR_MSR_UNCORE_PMON_GLOBAL_CTL */
	} else if (k <= nch) {
		t[0] = unit1(4, 0x40, 48, 0x08, MMIO_ACCESS);
		t[1] = EMU_DISC_IMC(k - 1);
		t[2] = unit3(6, k - 1);
	} else if (k == nch + 1 && (e->cfg.disc_faults & EMU_DISC_ALL_ONES)) {
		t[0] = t[1] = t[2] = ~0ull;
	} else if (k <= nch + extra) {
		t[0] = unit1(4, 0x40, 48, 0x00, MMIO_ACCESS); /* no counter offset */
		t[1] = 0xFE030000ull;
		t[2] = unit3(6, nch);
	} else if (k == nch + extra + 1) {
		t[0] = unit1(4, 0x02, 48, 0x08, MSR_ACCESS);
		t[1] = EMU_DISC_CHA_BOX;
		t[2] = unit3(0, 0);
	}
	return t[q];
}

/* The second socket's table: its global entry and channels 8 and up,
 * numbered from 0 (no CHA: its MSRs would be the second socket's, which
 * the processor running the app does not reach). */
static uint64_t table_s1_qword(const struct emu *e, unsigned k, unsigned q)
{
	unsigned nch = channels(e) - channels0(e);
	uint64_t t[3] = { 0, 0, 0 };

	if (k == 0) {
		t[0] = global1(STRIDE, nch);
		t[1] = 0x2FF0;
	} else if (k <= nch) {
		t[0] = unit1(4, 0x40, 48, 0x08, MMIO_ACCESS);
		t[1] = EMU_DISC_IMC(EMU_DISC_SOCKET_CH + k - 1);
		t[2] = unit3(6, k - 1);
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

static enum unc_status disc_pci_read(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t *ret_val)
{
	bool second = d->dev == EMU_DISC_DEV2, s1 = d->dev == EMU_DISC_DEV_S1;
	uint32_t v = 0;

	if ((second && !(e->cfg.disc_faults & EMU_DISC_SECOND)) || (s1 && channels(e) <= EMU_DISC_SOCKET_CH))
		return UNC_E_NOT_FOUND;
	switch (off) {
	case 0x00: v = 0x09A7u << 16 | 0x8086u; break;
	case 0x04: v = 0x00100000u; break; /* status: capability list */
	case 0x10: /* 64-bit, non-prefetchable */
		v = (uint32_t)(second ? EMU_DISC_TABLE2 : s1 ? EMU_DISC_TABLE_S1 : EMU_DISC_TABLE) | 4;
		break;
	case 0x100: v = 0x00010023u; break; /* extended capability 0x23, version 1, next 0 */
	case 0x104: v = 0x01008086u; break;
	case 0x108: v = 1; break;           /* entryID 1: PMON */
	case 0x10C: v = !second && !s1 && (e->cfg.disc_faults & EMU_DISC_BIR) ? 0x8u : 0; break; /* BIR 0 */
	default: v = 0;
	}
	*ret_val = v;
	return UNC_OK;
}

static enum unc_status disc_pci_write(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t val)
{
	(void)off, (void)val;
	if ((d->dev == EMU_DISC_DEV2 && !(e->cfg.disc_faults & EMU_DISC_SECOND)) ||
	    (d->dev == EMU_DISC_DEV_S1 && channels(e) <= EMU_DISC_SOCKET_CH))
		return UNC_E_NOT_FOUND;
	return UNC_OK; /* read-only here */
}

/* Channel c's register at off: box control, select, counter (lo/hi). */
static enum unc_status imc_access(struct emu *e, uint64_t addr, bool write, uint32_t *val)
{
	for (unsigned c = 0; c < channels(e); c++) {
		if (addr < EMU_DISC_IMC(c) || addr >= EMU_DISC_IMC(c) + 0x4000)
			continue;
		uint64_t off = addr - EMU_DISC_IMC(c);
		if (off == 0) {
			if (write)
				e->box_ctl[c] = *val & 0x301;
			else
				*val = e->box_ctl[c] & 1;
		} else if (off >= 0x40 && off < 0x50) {
			struct emu_ctr *x = &e->ctr[c * EMU_DISC_CH_CTRS + (off - 0x40) / 4];
			if (write)
				x->sel = *val & 0xFF84FFFFu;
			else
				*val = (uint32_t)x->sel;
		} else if (off >= 0x08 && off < 0x28) {
			struct emu_ctr *x = &e->ctr[c * EMU_DISC_CH_CTRS + (off - 0x08) / 8];
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
		if (write && (e->box_ctl[c] & 0x200) && !emu_ro(&e->cfg, EMU_RO_IMC)) { /* RST_CTRS */
			for (unsigned i = 0; i < EMU_DISC_CH_CTRS; i++)
				e->ctr[c * EMU_DISC_CH_CTRS + i].value = 0;
		}
		if (write && (e->box_ctl[c] & 0x100)) { /* RST_CTRL */
			for (unsigned i = 0; i < EMU_DISC_CH_CTRS; i++)
				e->ctr[c * EMU_DISC_CH_CTRS + i].sel = 0;
		}
		e->box_ctl[c] &= 1;
		return UNC_OK;
	}
	return UNC_E_NOT_FOUND;
}

static enum unc_status disc_mmio_read(struct emu *e, uint64_t addr, uint32_t *ret_val)
{
	if (addr >= EMU_DISC_TABLE && addr < EMU_DISC_TABLE + 0x1000) {
		uint64_t off = addr - EMU_DISC_TABLE;
		unsigned k = (unsigned)(off / (STRIDE * 8)), q = (unsigned)(off % (STRIDE * 8) / 8);
		*ret_val = q < 3 ? half(table_qword(e, k, q), off) : 0;
		return UNC_OK;
	}
	if ((e->cfg.disc_faults & EMU_DISC_SECOND) && addr >= EMU_DISC_TABLE2 && addr < EMU_DISC_TABLE2 + 0x1000) {
		uint64_t off = addr - EMU_DISC_TABLE2;
		unsigned k = (unsigned)(off / (STRIDE * 8)), q = (unsigned)(off % (STRIDE * 8) / 8);
		*ret_val = q < 3 ? half(table2_qword(k, q), off) : 0;
		return UNC_OK;
	}
	if (channels(e) > EMU_DISC_SOCKET_CH && addr >= EMU_DISC_TABLE_S1 && addr < EMU_DISC_TABLE_S1 + 0x1000) {
		uint64_t off = addr - EMU_DISC_TABLE_S1;
		unsigned k = (unsigned)(off / (STRIDE * 8)), q = (unsigned)(off % (STRIDE * 8) / 8);
		*ret_val = q < 3 ? half(table_s1_qword(e, k, q), off) : 0;
		return UNC_OK;
	}
	return imc_access(e, addr, false, ret_val);
}

static enum unc_status disc_mmio_write(struct emu *e, uint64_t addr, uint32_t val)
{
	if ((addr >= EMU_DISC_TABLE && addr < EMU_DISC_TABLE + 0x1000) ||
	    (channels(e) > EMU_DISC_SOCKET_CH && addr >= EMU_DISC_TABLE_S1 && addr < EMU_DISC_TABLE_S1 + 0x1000))
		return UNC_OK; /* the tables are read-only */
	return imc_access(e, addr, true, &val);
}

static uint64_t cbo_config(const struct emu *e)
{
	(void)e;
	return 1; /* SPR_MSR_UNC_CBO_CONFIG: one CHA */
}

/* The CHA (LW's MSR_UNC_SPR_C0_PMON_*): box control 0x2000, selects
 * 0x2002-0x2005, counters 0x2008-0x200B, filter 0x200E; MSR 0x2FF0 (the
 * global control) and 0x2FFE (the CHA count). */
static const struct emu_reg disc_regs[] = {
	{ .name = "CHA_PMON_BOX_CTL", .msr = 0x2000, .n = 1, .stride = 1, .kind = EMU_REG_PLAIN, .box = -1, .ctr = -1,
	  .writable = 0x301, .slot = 0 },
	{ .name = "CHA_PMON_CTL0", .msr = 0x2002, .n = 4, .stride = 1, .kind = EMU_REG_CONTROL, .box = -1,
	  .ctr = EMU_DISC_CHA_CTR0, .writable = ~0ull },
	{ .name = "CHA_PMON_CTR0", .msr = 0x2008, .n = 4, .stride = 1, .kind = EMU_REG_COUNTER, .width = 48, .box = -1,
	  .ctr = EMU_DISC_CHA_CTR0, .unit = EMU_UNIT_DISC_CHA, .writable = 0xFFFFFFFFFFFFull,
	  .reserved = 0xFFFF000000000000ull },
	{ .name = "CHA_PMON_FILTER0", .msr = 0x200E, .n = 1, .stride = 1, .kind = EMU_REG_PLAIN, .box = -1, .ctr = -1,
	  .writable = 0x3FF, .slot = 1 },
	{ .name = "PMON_GLOBAL_CTL", .msr = 0x2FF0, .n = 1, .stride = 1, .kind = EMU_REG_PLAIN, .box = -1, .ctr = -1,
	  .writable = 1, .slot = 2 },
	{ .name = "UNC_CBO_CONFIG", .msr = 0x2FFE, .n = 1, .stride = 1, .kind = EMU_REG_CONFIG, .box = -1, .ctr = -1,
	  .read_only = true, .read = cbo_config },
};

static const struct emu_pci_dev disc_pci[] = {
	{ EMU_DISC_BUS, EMU_DISC_DEV, 0, disc_pci_read, disc_pci_write, 0 },
	{ EMU_DISC_BUS, EMU_DISC_DEV2, 0, disc_pci_read, disc_pci_write, 0 },
	{ EMU_DISC_BUS, EMU_DISC_DEV_S1, 0, disc_pci_read, disc_pci_write, 0 },
};

static void disc_init(struct emu *e)
{
	e->ncbo = e->cfg.disc_channels ? e->cfg.disc_channels : EMU_DISC_SOCKET_CH;
	e->clock_hz = 2000000000ull; /* counting resolution: 2 GHz */
	for (unsigned c = 0; c < EMU_DISC_MAX_CH; c++)
		for (unsigned i = 0; i < EMU_DISC_CH_CTRS; i++)
			e->ctr[c * EMU_DISC_CH_CTRS + i] =
				(struct emu_ctr){ .width = 48, .unit = EMU_UNIT_DISC_IMC, .index = (uint8_t)i };
}

static bool disc_enabled(const struct emu *e)
{
	(void)e;
	return true;
}

static bool disc_ctr_enabled(const struct emu *e, const struct emu_ctr *c)
{
	unsigned k = (unsigned)(c - e->ctr);

	if (!c->sel)
		return false;
	if (k >= EMU_DISC_CHA_CTR0)
		return !(e->plain[0] & 1);
	return k / EMU_DISC_CH_CTRS < e->ncbo && !(e->box_ctl[k / EMU_DISC_CH_CTRS] & 1);
}

static bool disc_ovf_forwarded(const struct emu_ctr *c)
{
	(void)c;
	return false;
}

static uint64_t rate_of(const struct emu *e, uint8_t unit, uint8_t code, uint8_t umask, uint32_t ext)
{
	uint64_t r = 0;

	for (unsigned i = 0; i < e->cfg.nrates; i++) {
		const struct emu_rate *x = &e->cfg.rates[i];
		if (x->unit == unit && x->code == code && x->umask == umask && e->cfg.rate_ext[i] == ext)
			r += x->per_sec;
	}
	return r;
}

static uint64_t disc_increment(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1)
{
	uint32_t sel = (uint32_t)c->sel, ext = (uint32_t)(c->sel >> 32); /* the iMC's selects are 32-bit: ext 0 */

	return emu_spread(e->clock_hz, rate_of(e, c->unit, sel & 0xFF, (sel >> 8) & 0xFF, ext), c0, c1,
			  sel >> 24 & 0xFF, sel & (1u << 23), sel & (1u << 18));
}

const struct emu_pmu emu_pmu_disc = {
	.name = "disc",
	.regs = disc_regs,
	.nregs = sizeof(disc_regs) / sizeof(disc_regs[0]),
	.pci = disc_pci,
	.npci = sizeof(disc_pci) / sizeof(disc_pci[0]),
	.nctr = EMU_DISC_CTRS,
	.mmio_read32 = disc_mmio_read,
	.mmio_write32 = disc_mmio_write,
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
