/* The Ice Lake-SP iMC (pmu_icx.h): per socket the UBox and 8086:3451 in
 * configuration space (read-only: a write is recorded and ignored), and
 * each channel's PMON box in MMIO at BAR | controller offset + 0x22800 +
 * 0x4000 (ch % 3). A box: control at +0 (RST_CTRL bit 0 zeroes the
 * controls, RST_CTRS bit 1 the counters, both read 0; FRZ bit 8 stops the
 * box; FRZ_EN bit 16 kept), counters at +0x08 + 8i (48 bits in 64),
 * controls at +0x40 + 4i (event 7:0, umask 15:8, edge 18, EN 22, invert
 * 23, threshold 31:24: a control counts while EN is set), the DRAM-clock
 * counter at +0x38 and its control at +0x54 (EN 22), counting EMU_ICX_HCLK_HZ. A box
 * whose channel is not active (--channels, active()) reads 0 and ignores
 * writes (Linux commit 496a18f09374). Counters are not
 * writable here (nothing writes them: Linux resets them through RST_CTRS).
 * The rates are the --rate of the iMC events by Intel's names (kept as the
 * discovery iMC's entries, options.c), per channel. */
#include "model.h"

#include "../../drivers/base/fmt.h"
#include "../../drivers/base/parse.h"

#define BOX_RST_CTRL 0x1u
#define BOX_RST_CTRS 0x2u
#define BOX_FRZ      0x100u
#define BOX_FRZ_EN   0x10000u
#define CTL_EN       0x400000u
#define CTL_RW       0xFFC4FFFFu

/* Intel's perfmon ICX uncore file (icelakex_uncore.json V1.30); Linux
 * snr_uncore_imc_events (cas_count_read event=0x04,umask=0x0f; write 0x30). */
static const struct { const char *name; uint8_t code, umask; } icx_events[] = {
	{ "UNC_M_CAS_COUNT.RD", 0x04, 0x0F },
	{ "UNC_M_CAS_COUNT.WR", 0x04, 0x30 },
};

unsigned emu_icx_fault_find(const char *name)
{
	if (str_ieq(name, "mem-zero"))
		return EMU_ICX_MEM_ZERO;
	return str_ieq(name, "hidden") ? EMU_ICX_HIDDEN : 0;
}

static unsigned sockets(const struct emu *e)
{
	return e->cfg.disc_sockets_set && e->cfg.sockets ? e->cfg.sockets : 1;
}

/* Whether box ch is an active channel: --channels N (default 8) takes
 * channels 0 and 1 of each controller first (boxes 0, 1, 3, 4, ...), then
 * the third ones (2, 5, 8, 11). */
static bool active(const struct emu *e, unsigned ch)
{
	unsigned n = e->cfg.disc_channels ? e->cfg.disc_channels : EMU_ICX_ACTIVE;
	unsigned rank = ch % 3 < 2 ? ch / 3 * 2 + ch % 3 : 8 + ch / 3;

	return rank < n;
}

static bool mc_present(const struct emu *e, unsigned s, unsigned mc)
{
	return !(s == 0 && mc == 1 && (e->cfg.icx_faults & EMU_ICX_MEM_ZERO));
}

static struct emu_ctr *ctr(struct emu *e, unsigned s, unsigned ch, unsigned i)
{
	return &e->ctr[(s * EMU_ICX_CH + ch) * EMU_ICX_CTRS + i];
}

/* The rate of counter c's select on socket s: the sum of the rates of the
 * events whose code it has and whose umask bits it sets (CAS_COUNT.ALL,
 * umask 0x3f, counts both), each the socket's own (--socket-rate) or
 * every socket's (--rate). */
static uint64_t rate_of(const struct emu *e, unsigned s, uint32_t sel)
{
	uint64_t sum = 0;

	for (unsigned k = 0; k < sizeof(icx_events) / sizeof(icx_events[0]); k++) {
		const struct emu_disc_event *d = emu_disc_event_find(icx_events[k].name);
		uint64_t all = 0, own = 0;
		bool has_own = false;
		if (!d || (sel & 0xFF) != icx_events[k].code || (sel >> 8 & icx_events[k].umask) != icx_events[k].umask)
			continue;
		for (unsigned i = 0; i < e->cfg.nrates; i++) {
			const struct emu_rate *x = &e->cfg.rates[i];
			if (x->unit != EMU_UNIT_DISC_IMC || x->code != d->code || x->umask != d->umask)
				continue;
			if (!e->cfg.rate_socket[i])
				all += x->per_sec;
			else if (e->cfg.rate_socket[i] == s + 1)
				own += x->per_sec, has_own = true;
		}
		sum += has_own ? own : all;
	}
	return sum;
}

static void where(const struct emu *e, const struct emu_ctr *c, unsigned *s, unsigned *ch, unsigned *i)
{
	unsigned k = (unsigned)(c - e->ctr);

	*i = k % EMU_ICX_CTRS, k /= EMU_ICX_CTRS;
	*ch = k % EMU_ICX_CH, *s = k / EMU_ICX_CH;
}

static bool icx_ctr_enabled(const struct emu *e, const struct emu_ctr *c)
{
	unsigned s, ch, i;

	where(e, c, &s, &ch, &i);
	return (c->sel & CTL_EN) && s < sockets(e) && active(e, ch) && mc_present(e, s, ch / 3) &&
	       !(e->disc.imc_box[s][ch] & BOX_FRZ);
}

static uint64_t icx_increment(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1)
{
	uint32_t sel = (uint32_t)c->sel;
	unsigned s, ch, i;

	where(e, c, &s, &ch, &i);
	if (i == 4)
		return emu_spread(e->clock_hz, EMU_ICX_HCLK_HZ, c0, c1, 0, false, false);
	return emu_spread(e->clock_hz, rate_of(e, s, sel), c0, c1, sel >> 24 & 0xFF, sel & (1u << 23), sel & (1u << 18));
}

/* A register of channel ch of socket s at off from its box control. */
static void box_access(struct emu *e, unsigned s, unsigned ch, uint64_t off, bool write, uint32_t *val)
{
	uint32_t *box = &e->disc.imc_box[s][ch];
	struct emu_ctr *x = NULL;

	if (!active(e, ch)) { /* not activated: reads 0, writes ignored */
		if (!write)
			*val = 0;
		return;
	}
	if (off >= 0x08 && off < 0x28)
		x = ctr(e, s, ch, (unsigned)(off - 0x08) / 8);
	else if (off == 0x38 || off == 0x3C)
		x = ctr(e, s, ch, 4);
	if (x) { /* a counter: read only */
		emu_disc_bring(e, x);
		if (!write)
			*val = (uint32_t)(x->value >> (off & 4 ? 32 : 0));
		return;
	}
	if (off >= 0x40 && off < 0x50)
		x = ctr(e, s, ch, (unsigned)(off - 0x40) / 4);
	else if (off == 0x54)
		x = ctr(e, s, ch, 4);
	if (!write) {
		*val = x ? (uint32_t)x->sel : off == 0 ? *box : 0;
		return;
	}
	if (x) {
		emu_disc_bring(e, x);
		x->sel = *val & (off == 0x54 ? CTL_EN : CTL_RW);
		return;
	}
	if (off != 0)
		return;
	for (unsigned i = 0; i < EMU_ICX_CTRS; i++) {
		struct emu_ctr *y = ctr(e, s, ch, i);
		emu_disc_bring(e, y);
		if ((*val & BOX_RST_CTRS) && !emu_ro(&e->cfg, EMU_RO_IMC))
			y->value = 0;
		if (*val & BOX_RST_CTRL)
			y->sel = 0;
	}
	*box = *val & (BOX_FRZ | BOX_FRZ_EN);
}

static enum unc_status icx_mmio(struct emu *e, uint64_t addr, bool write, uint32_t *val)
{
	for (unsigned s = 0; s < sockets(e); s++)
		for (unsigned mc = 0; mc < 4; mc++) {
			uint64_t box0 = EMU_ICX_BAR(s) + EMU_ICX_MC_OFF(mc) + 0x22800;
			if (!mc_present(e, s, mc) || addr < box0 || addr >= box0 + 3 * 0x4000ull)
				continue;
			box_access(e, s, mc * 3 + (unsigned)((addr - box0) / 0x4000), (addr - box0) % 0x4000, write, val);
			return UNC_OK;
		}
	return UNC_E_NOT_FOUND;
}

static enum unc_status icx_mmio_read(struct emu *e, uint64_t addr, uint32_t *ret_val)
{
	return icx_mmio(e, addr, false, ret_val);
}

static enum unc_status icx_mmio_write(struct emu *e, uint64_t addr, uint32_t val)
{
	return icx_mmio(e, addr, true, &val);
}

/* Function 0: the UBox (CPUNODEID 0xC0, GIDNIDMAP 0xD4 as pmu_disc.c's,
 * node IDs emu_disc_node_id); function 1: 8086:3451, its BAR at 0xD0 and
 * the controllers' offsets at 0xD8 + 4 mc. */
static enum unc_status icx_pci_read(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t *ret_val)
{
	unsigned s = d->box;
	uint32_t v = 0;

	if (s >= sockets(e) || (d->func && (e->cfg.icx_faults & EMU_ICX_HIDDEN) && s == sockets(e) - 1))
		return UNC_E_NOT_FOUND;
	if (off == 0)
		v = (d->func ? 0x3451u : 0x3450u) << 16 | 0x8086u;
	else if (off == 0x0C && !d->func)
		v = 0x00800000u; /* multi-function */
	else if (!d->func && off == 0xC0)
		v = emu_disc_node_id(s);
	else if (!d->func && off == 0xD4)
		for (unsigned i = 0; i < 8; i++)
			v |= (uint32_t)emu_disc_node_id(i) << (3 * i);
	else if (d->func && off == 0xD0)
		v = (uint32_t)(EMU_ICX_BAR(s) >> 23);
	else if (d->func && off >= 0xD8 && off < 0xE8 && mc_present(e, s, (off - 0xD8u) / 4))
		v = (uint32_t)(EMU_ICX_MC_OFF((off - 0xD8u) / 4) >> 12);
	*ret_val = v;
	return UNC_OK;
}

/* Read-only: recorded (emu_describe_model's "must-be-0 writes") and ignored. */
static enum unc_status icx_pci_write(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t val)
{
	uint32_t v;
	enum unc_status st = icx_pci_read(e, d, off, &v);

	if (st)
		return st;
	if (!e->mbz.n++)
		e->mbz.bus = d->bus, e->mbz.dev = d->dev, e->mbz.func = d->func, e->mbz.off = off, e->mbz.val = val;
	return UNC_OK;
}

#define DEVS(s) { EMU_ICX_BUS(s), 0, 0, icx_pci_read, icx_pci_write, s }, \
		{ EMU_ICX_BUS(s), 0, 1, icx_pci_read, icx_pci_write, s }
static const struct emu_pci_dev icx_pci[] = { DEVS(0), DEVS(1) };

static void icx_init(struct emu *e)
{
	e->ncbo = EMU_ICX_CH;
	e->clock_hz = 2000000000ull; /* counting resolution: 2 GHz */
	for (unsigned s = 0; s < EMU_ICX_MAX_SOCKETS; s++)
		for (unsigned ch = 0; ch < EMU_ICX_CH; ch++)
			for (unsigned i = 0; i < EMU_ICX_CTRS; i++)
				*ctr(e, s, ch, i) = (struct emu_ctr){ .width = 48, .unit = EMU_UNIT_DISC_IMC, .index = (uint8_t)i };
}

static bool icx_enabled(const struct emu *e)
{
	(void)e;
	return true;
}

static bool icx_ovf_forwarded(const struct emu_ctr *c)
{
	(void)c;
	return false;
}

const struct emu_pmu emu_pmu_icx = {
	.name = "icx",
	.pci = icx_pci,
	.npci = sizeof(icx_pci) / sizeof(icx_pci[0]),
	.nctr = 0, /* counted lazily, each when read or reconfigured (emu_disc_bring) */
	.mmio_read32 = icx_mmio_read,
	.mmio_write32 = icx_mmio_write,
	.ops = {
		.init = icx_init,
		.enabled = icx_enabled,
		.ctr_enabled = icx_ctr_enabled,
		.ovf_forwarded = icx_ovf_forwarded,
		.freeze_on_ovf = emu_core_no_freeze,
		.freeze = emu_core_freeze,
		.increment = icx_increment,
	},
};

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

enum unc_status emu_icx_check(const struct emu_config *cfg, unsigned uncore, char *err, size_t errsize)
{
	unsigned n = cfg->disc_sockets_set ? cfg->sockets : 1;

	if (uncore != EMU_UNCORE_ICX)
		FAIL("--icx-fault is for the Ice Lake-SP iMC, but the emulator serves the %s uncore (CPUID leaf 1, or "
		     "--uncore)", emu_uncore_name(uncore));
	if (cfg->skl_opts || cfg->snbep_opts)
		FAIL("an option of the %s is given, but the emulator serves the Ice Lake-SP iMC (CPUID leaf 1, or --uncore)",
		     cfg->skl_opts ? "Skylake-client uncore" : "Xeon E5-2600 iMC");
	bool cha = emu_xcha_on(cfg); /* --chas: the CHAs beside */
	if (cfg->disc_opts & ~(1u | 2u | 16u | (cha ? 8u : 0u))) /* rates, --channels, --socket-rate */
		FAIL("--chas, --dies and --disc-fault are for the discovery-table uncore, but the emulator serves the Ice "
		     "Lake-SP iMC");
	if (n > EMU_ICX_MAX_SOCKETS)
		FAIL("--sockets %u: Ice Lake-SP has 1 or 2", n);
	for (unsigned i = 0; i < cfg->nrates; i++) {
		if (cfg->rate_socket[i] > n)
			FAIL("--socket-rate for socket %u, but --sockets is %u (sockets 0 to %u)", cfg->rate_socket[i] - 1u, n,
			     n - 1);
		if (cfg->rates[i].unit == EMU_UNIT_DISC_IMC && cfg->rates[i].code != 0x05)
			FAIL("--rate: the Ice Lake-SP iMC emulates UNC_M_CAS_COUNT.RD and .WR only");
	}
	return UNC_OK;
}

void emu_icx_describe(const struct emu_config *cfg, struct out *o)
{
	unsigned n = cfg->disc_sockets_set ? cfg->sockets : 1, nrates = 0;

	for (unsigned i = 0; i < cfg->nrates; i++)
		nrates += cfg->rates[i].unit == EMU_UNIT_DISC_IMC;

	out_printf(o, "Xeon Ice Lake-SP iMC, %u socket%s (UBox 8086:3450 and 8086:3451 at bus", n, n == 1 ? "" : "s");
	for (unsigned s = 0; s < n; s++)
		out_printf(o, "%s0x%02x", s ? ", " : n == 1 ? " " : "es ", EMU_ICX_BUS(s));
	out_printf(o, " 00.0/00.1), %u active channels of 12 boxes per socket, %u rates, iMC faults:",
		   cfg->disc_channels ? cfg->disc_channels : EMU_ICX_ACTIVE, nrates);
	if (!cfg->icx_faults)
		out_puts(o, " none");
	if (cfg->icx_faults & EMU_ICX_MEM_ZERO)
		out_puts(o, " mem-zero");
	if (cfg->icx_faults & EMU_ICX_HIDDEN)
		out_puts(o, " hidden");
}
