/* The CHAs of Skylake-SP (and Cascade/Cooper Lake) and Ice Lake-SP
 * (pmu_xcha.h), served beside the uncore: MSRs answered by the package of
 * the processor making the access (emu_cur_pkg), and per socket the PCU
 * function 3 of device 30 (CAPID6 0x9C; ICX also CAPID7 0xA0) and the
 * UBox (CPUNODEID 0xC0, GIDNIDMAP 0xD4).
 *
 * Per CHA: box control +0 (RST_CTRL bit 0 and RST_CTRS bit 1 clear the
 * selects and counters and read 0; FRZ bit 8 stops the box; no FRZ_EN),
 * selects +1..+4 (event 7:0, umask 15:8, edge 18, tid_en 19, EN 22, inv
 * 23, thresh 31:24; ICX also the umask's extension 57:32), filters +5
 * (and SKX +6), counters +8..+0xB, 48 bits (Linux uncore_snbep.c
 * HSWEP_C0_MSR_PMON_*, SNBEP_PMON_*, ICX_C34_MSR_PMON_*). A counter counts
 * while its box is not frozen and EN is set. */
#include "model.h"

#include <string.h>

#include "../../drivers/base/arith.h"
#include "../../drivers/base/fmt.h"
#include "../../drivers/base/parse.h"

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)
#define NS_PER_S  1000000000ull
#define MAXC      EMU_XCHA_ICX_CHAS
#define MASK48    0xFFFFFFFFFFFFull

/* Ice Lake-SP: each CHA's box control, as Intel PCM lists them
 * (ICX_CHA_MSR_PMON_BOX_CTL, src/types.h; Linux's 40, of PCM's 42). */
static const uint16_t icx_box[EMU_XCHA_ICX_CHAS] = {
	0x0E00, 0x0E0E, 0x0E1C, 0x0E2A, 0x0E38, 0x0E46, 0x0E54, 0x0E62, 0x0E70, 0x0E7E, 0x0E8C, 0x0E9A,
	0x0EA8, 0x0EB6, 0x0EC4, 0x0ED2, 0x0EE0, 0x0EEE, 0x0F0A, 0x0F18, 0x0F26, 0x0F34, 0x0F42, 0x0F50,
	0x0F5E, 0x0F6C, 0x0F7A, 0x0F88, 0x0F96, 0x0FA4, 0x0FB2, 0x0FC0, 0x0FCE, 0x0FDC, 0x0B60, 0x0B6E,
	0x0B7C, 0x0B8A, 0x0B98, 0x0BA6,
};

/* Intel's perfmon files (skylakex_uncore.json, icelakex_uncore.json): the
 * same encodings on both. UNC_CHA_CLOCKTICKS (0x00) counts the clock;
 * Ice Lake's UNC_CHA_TOR_INSERTS.IA_MISS is the discovery CHA's row of
 * emu_disc_events (the same encoding), taken as a CHA rate here too. */
static const struct emu_disc_event xcha_events[] = {
	{ "UNC_CHA_REQUESTS.READS", EMU_UNIT_XCHA, 0x50, 0x03, 0 },
	{ "UNC_CHA_REQUESTS.WRITES", EMU_UNIT_XCHA, 0x50, 0x0C, 0 },
	{ "UNC_CHA_REQUESTS.READS_LOCAL", EMU_UNIT_XCHA, 0x50, 0x01, 0 },
};

static struct {
	uint64_t box[EMU_XCHA_MAX_SOCKETS][MAXC], filter[EMU_XCHA_MAX_SOCKETS][MAXC][2];
	uint64_t sel[EMU_XCHA_MAX_SOCKETS][MAXC][4], ctr[EMU_XCHA_MAX_SOCKETS][MAXC][4];
	uint64_t since[EMU_XCHA_MAX_SOCKETS][MAXC][4]; /* clock cycle each counter is brought up to */
} x;
static struct emu model;

const struct emu_disc_event *emu_xcha_event_find(const char *name)
{
	for (unsigned i = 0; i < sizeof(xcha_events) / sizeof(xcha_events[0]); i++)
		if (!strcmp(xcha_events[i].name, name))
			return &xcha_events[i];
	return NULL;
}

uint8_t emu_xcha_for(const struct emu_config *cfg, uint32_t leaf1_eax)
{
	unsigned family, m;

	if (cfg->xcha != EMU_XCHA_AUTO)
		return cfg->xcha;
	emu_family_model(leaf1_eax, &family, &m);
	return family != 6 ? EMU_XCHA_NONE : m == 0x55 ? EMU_XCHA_SKX : m == 0x6A || m == 0x6C ? EMU_XCHA_ICX : EMU_XCHA_NONE;
}

/* The bus of socket s's UBox when the uncore served beside has UBoxes
 * (the Skylake-SP iMC's, Ice Lake-SP's): one UBox a socket numbers both
 * PMUs, and the PCU function sits on its bus; else -1 (this emulator's
 * own bus, EMU_XCHA_BUS, with a UBox of its own). */
static int uncore_ubox_bus(const struct emu_config *c, unsigned s)
{
	if (c->uncore_active == EMU_UNCORE_ICX)
		return EMU_ICX_BUS(s);
	if (c->uncore_active == EMU_UNCORE_SNBEP && c->pci_gen == EMU_GEN_SKX)
		return (uint8_t)(emu_snbep_bus[s] + emu_imc_gens[EMU_GEN_SKX].ubox_bus);
	return -1;
}

bool emu_xcha_on(const struct emu_config *cfg)
{
	uint8_t x = cfg->xcha_active != EMU_XCHA_AUTO ? cfg->xcha_active : cfg->xcha;

	return x == EMU_XCHA_SKX || x == EMU_XCHA_ICX;
}

unsigned emu_xcha_sockets(const struct emu_config *cfg)
{
	if (uncore_ubox_bus(cfg, 0) >= 0 && cfg->uncore_active == EMU_UNCORE_SNBEP) /* the iMC's sockets */
		return cfg->sockets ? cfg->sockets : EMU_SNBEP_DEFAULT_SOCKETS;
	return cfg->disc_sockets_set && cfg->sockets ? cfg->sockets : 1;
}

unsigned emu_xcha_chas(const struct emu_config *cfg, unsigned s)
{
	unsigned most = cfg->xcha_active == EMU_XCHA_ICX ? EMU_XCHA_ICX_CHAS : EMU_XCHA_SKX_CHAS;

	return s < EMU_XCHA_MAX_SOCKETS && cfg->disc_chas[s] ? cfg->disc_chas[s] : most;
}

/* CAPID6 (and CAPID7) with n bits set, not all at the bottom (fused-off
 * CHAs leave holes): the even bits first, then the odd ones. SKX's bits
 * 31:28 are set too, which the count must not take (bits 27:0). */
static uint64_t capid(unsigned n, bool icx)
{
	unsigned width = icx ? 64 : EMU_XCHA_SKX_CHAS;
	uint64_t v = icx ? 0 : 0xF0000000ull;

	for (unsigned k = 0, b = 0; k < n; k++, b += 2) {
		if (b >= width)
			b = 1;
		v |= 1ull << b;
	}
	return v;
}

static enum unc_status pci_read(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t *v)
{
	const struct emu_config *c = &e->cfg;
	unsigned s = d->box;
	bool icx = c->xcha_active == EMU_XCHA_ICX, pcu = d->dev == 30;

	if (s >= emu_xcha_sockets(c) || (pcu && c->xcha_faults >> s & 1) || (!pcu && c->xcha_faults & EMU_XCHA_NO_UBOX) ||
	    (!pcu && d->dev != (icx ? 0 : 8)))
		return UNC_E_NOT_FOUND; /* the root bridge's: all ones */
	*v = 0;
	if (off == 0)
		*v = pcu ? (icx ? 0x345B8086u : 0x20838086u) : (icx ? 0x34508086u : 0x20148086u);
	else if (pcu && (off == 0x9C || (icx && off == 0xA0)))
		*v = (uint32_t)(capid(emu_xcha_chas(c, s), icx) >> (off == 0xA0 ? 32 : 0));
	else if (!pcu && off == 0xC0)
		*v = emu_disc_node_id(s);
	else if (!pcu && off == 0xD4)
		for (unsigned i = 0; i < 8; i++)
			*v |= (uint32_t)emu_disc_node_id(i) << (3 * i);
	return UNC_OK;
}

static enum unc_status pci_write(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t v)
{
	(void)e, (void)d, (void)off, (void)v;
	return UNC_E_FAULT; /* nothing here is the tool's to write */
}

/* Each socket's PCU function and, without the uncore's, its UBox (SKX
 * device 8, ICX device 0, function 0), into e->pci_own. */
static void build_pci(struct emu *e)
{
	bool icx = e->cfg.xcha_active == EMU_XCHA_ICX;
	unsigned n = 0;

	_Static_assert(2 * EMU_XCHA_MAX_SOCKETS <= EMU_SNBEP_NPCI, "room for a PCU and a UBox a socket");
	for (unsigned s = 0; s < EMU_XCHA_MAX_SOCKETS; s++) {
		int ub = uncore_ubox_bus(&e->cfg, s);
		uint8_t bus = ub < 0 ? EMU_XCHA_BUS(s) : (uint8_t)ub;
		e->pci_own[n++] = (struct emu_pci_dev){ bus, 30, 3, pci_read, pci_write, s };
		if (ub < 0)
			e->pci_own[n++] = (struct emu_pci_dev){ bus, icx ? 0 : 8, 0, pci_read, pci_write, s };
	}
	e->pci = e->pci_own;
	e->npci = n;
}

/* CHA n and the register's offset in it, or -1: not a CHA MSR. */
static int decode(bool icx, uint32_t msr, unsigned *off)
{
	for (unsigned n = 0; icx && n < EMU_XCHA_ICX_CHAS; n++)
		if (msr >= icx_box[n] && msr < icx_box[n] + 0xEu) {
			*off = msr - icx_box[n];
			return (int)n;
		}
	if (icx || msr < 0xE00 || msr >= 0xE00 + 0x10 * EMU_XCHA_SKX_CHAS)
		return -1;
	*off = msr & 0xF;
	return (int)((msr - 0xE00) / 0x10);
}

static uint64_t rate_of(const struct emu *e, unsigned s, uint64_t sel)
{
	const struct emu_config *c = &e->cfg;
	uint8_t code = (uint8_t)sel, umask = (uint8_t)(sel >> 8);
	uint32_t ext = c->xcha_active == EMU_XCHA_ICX ? (uint32_t)(sel >> 32) : 0;
	uint64_t all = 0;

	if (!code && !umask && !ext)
		return e->clock_hz; /* UNC_CHA_CLOCKTICKS */
	for (unsigned i = 0; i < c->nrates; i++) {
		const struct emu_rate *r = &c->rates[i];
		if ((r->unit != EMU_UNIT_XCHA && r->unit != EMU_UNIT_DISC_CHA) || r->code != code || r->umask != umask ||
		    c->rate_ext[i] != ext)
			continue;
		if (c->rate_socket[i] == s + 1)
			return r->per_sec;
		if (!c->rate_socket[i])
			all = r->per_sec;
	}
	return all;
}

/* Counter i of CHA n on socket s brought up to now. */
static void bring(struct emu *e, unsigned s, unsigned n, unsigned i)
{
	uint64_t now = u64_muldiv(e->now_ns, e->clock_hz, NS_PER_S), sel = x.sel[s][n][i];

	if (now <= x.since[s][n][i])
		return;
	if (!(x.box[s][n] & 0x100) && sel & (1u << 22))
		x.ctr[s][n][i] = (x.ctr[s][n][i] + emu_spread(e->clock_hz, rate_of(e, s, sel), x.since[s][n][i], now,
							     (unsigned)(sel >> 24 & 0xFF), sel >> 23 & 1, sel >> 18 & 1)) & MASK48;
	x.since[s][n][i] = now;
}

static enum unc_status xcha_msr(struct emu *e, uint32_t msr, bool write, uint64_t *v)
{
	bool icx = e->cfg.xcha_active == EMU_XCHA_ICX;
	unsigned s = emu_cur_pkg, off = 0;
	int n = decode(icx, msr, &off);

	if (n < 0)
		return UNC_E_NOT_FOUND;
	if (s >= emu_xcha_sockets(&e->cfg) || (unsigned)n >= emu_xcha_chas(&e->cfg, s))
		return UNC_E_FAULT; /* no such CHA on this package */
	for (unsigned i = 0; i < 4; i++)
		bring(e, s, (unsigned)n, i);
	uint64_t sel_rw = 0xFFCEFFFFull | (icx ? 0x3FFFFFFull << 32 : 0);
	bool ro = emu_ro(&e->cfg, EMU_RO_CHA);
	if (off == 0 && write) {
		if (*v & ~0x103ull)
			return UNC_E_FAULT;
		for (unsigned i = 0; i < 4; i++) {
			x.sel[s][n][i] = *v & 1 ? 0 : x.sel[s][n][i];
			x.ctr[s][n][i] = *v & 2 && !ro ? 0 : x.ctr[s][n][i];
		}
		x.box[s][n] = *v & 0x100;
	} else if (off == 0) {
		*v = x.box[s][n];
	} else if (off <= 4 && write) {
		if (*v & ~sel_rw)
			return UNC_E_FAULT;
		x.sel[s][n][off - 1] = *v;
	} else if (off <= 4) {
		*v = x.sel[s][n][off - 1];
	} else if (off == 5 || (off == 6 && !icx)) {
		if (write)
			x.filter[s][n][off - 5] = *v;
		else
			*v = x.filter[s][n][off - 5];
	} else if (off >= 8 && off <= 11 && write) {
		if (*v & ~MASK48)
			return UNC_E_FAULT;
		if (!ro)
			x.ctr[s][n][off - 8] = *v;
	} else if (off >= 8 && off <= 11) {
		*v = x.ctr[s][n][off - 8];
	} else {
		return UNC_E_FAULT;
	}
	return UNC_OK;
}

static enum unc_status xcha_msr_read(struct emu *e, uint32_t msr, uint64_t *v)
{
	return xcha_msr(e, msr, false, v);
}

static enum unc_status xcha_msr_write(struct emu *e, uint32_t msr, uint64_t v)
{
	return xcha_msr(e, msr, true, &v);
}

/* Counting is the hooks' (bring): the core's counters are none. */
static void init(struct emu *e)
{
	build_pci(e);
	memset(&x, 0, sizeof(x));
	for (unsigned s = 0; s < EMU_XCHA_MAX_SOCKETS; s++)
		for (unsigned n = 0; n < MAXC; n++)
			for (unsigned i = 0; i < 4; i++)
				x.ctr[s][n][i] = 0x123456789ull * (i + 1) + n; /* as found: not 0 */
}
static bool on(const struct emu *e) { (void)e; return true; }
static bool ctr_on(const struct emu *e, const struct emu_ctr *c) { (void)e, (void)c; return false; }
static bool no_ovf(const struct emu_ctr *c) { (void)c; return false; }
static bool no_frz(const struct emu *e) { (void)e; return false; }
static void frz(struct emu *e) { (void)e; }
static uint64_t none(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1)
{
	(void)e, (void)c, (void)c0, (void)c1;
	return 0;
}

static const struct emu_pmu emu_pmu_xcha = {
	.name = "xcha",
	.ops = { .init = init, .enabled = on, .ctr_enabled = ctr_on, .ovf_forwarded = no_ovf, .freeze_on_ovf = no_frz,
		 .freeze = frz, .increment = none },
	.msr_read = xcha_msr_read,
	.msr_write = xcha_msr_write,
	.msr_first = true,
};

struct emu *emu_xcha_attach(const struct emu_config *cfg)
{
	if (cfg->xcha_active != EMU_XCHA_SKX && cfg->xcha_active != EMU_XCHA_ICX)
		return NULL;
	emu_init_pmu(&model, &emu_pmu_xcha, cfg);
	return &model;
}

enum unc_status emu_xcha_option(const char *opt, const char *val, struct emu_config *cfg, char *err, size_t errsize)
{
	static const char *const gens[] = { "auto", "none", "skx", "icx" };
	uint64_t s;

	if (!strcmp(opt, "--xcha")) {
		for (unsigned g = 0; g < 4; g++)
			if (!strcmp(val, gens[g])) {
				cfg->xcha = (uint8_t)g;
				return UNC_OK;
			}
		FAIL("bad value '%s' for --xcha (want auto, none, skx or icx)", val);
	}
	if (strcmp(opt, "--xcha-fault"))
		return UNC_E_NOT_FOUND;
	if (!strcmp(val, "no-ubox"))
		cfg->xcha_faults |= EMU_XCHA_NO_UBOX;
	else if (!strncmp(val, "capid-hidden=", 13) && parse_u64(val + 13, EMU_XCHA_MAX_SOCKETS - 1, &s))
		cfg->xcha_faults |= 1u << s;
	else
		FAIL("bad value '%s' for --xcha-fault (want capid-hidden=SOCKET or no-ubox)", val);
	return UNC_OK;
}

enum unc_status emu_xcha_check(const struct emu_config *cfg, char *err, size_t errsize)
{
	unsigned sockets = emu_xcha_sockets(cfg), most = cfg->xcha_active == EMU_XCHA_ICX ? EMU_XCHA_ICX_CHAS : EMU_XCHA_SKX_CHAS;

	if (cfg->xcha_active == EMU_XCHA_AUTO) /* not chosen yet: the model starts with it */
		return UNC_OK;
	if (cfg->xcha_active != EMU_XCHA_SKX && cfg->xcha_active != EMU_XCHA_ICX) {
		if (cfg->xcha_faults)
			FAIL("--xcha-fault: no CHAs are served (CPUID leaf 1, or --xcha)");
		return UNC_OK;
	}
	if ((cfg->xcha_faults & EMU_XCHA_NO_UBOX) && uncore_ubox_bus(cfg, 0) >= 0)
		FAIL("--xcha-fault no-ubox: the UBoxes are the %s uncore's, which serves them", emu_uncore_name(cfg->uncore_active));
	if (cfg->disc_chas_n > 1 && cfg->disc_chas_n != sockets)
		FAIL("--chas lists %u sockets, but --sockets is %u", cfg->disc_chas_n, sockets);
	for (unsigned s = 0; s < sockets; s++)
		if (emu_xcha_chas(cfg, s) > most)
			FAIL("--chas: socket %u's %u CHAs; the %s has at most %u", s, emu_xcha_chas(cfg, s),
			     most == EMU_XCHA_ICX_CHAS ? "Ice Lake-SP" : "Skylake-SP", most);
	for (unsigned i = 0; i < cfg->nrates; i++)
		if (cfg->rate_socket[i] > sockets)
			FAIL("--socket-rate for socket %u, but --sockets is %u", cfg->rate_socket[i] - 1u, sockets);
	return UNC_OK;
}

void emu_xcha_describe(const struct emu_config *cfg, char *buf, size_t size)
{
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	struct out o = strbuf_out(&sb);
	if (cfg->xcha_active != EMU_XCHA_SKX && cfg->xcha_active != EMU_XCHA_ICX)
		return;
	unsigned n = emu_xcha_sockets(cfg);
	out_printf(&o, ", %s CHAs on %u socket%s (", cfg->xcha_active == EMU_XCHA_ICX ? "icx" : "skx", n, n == 1 ? "" : "s");
	for (unsigned s = 0; s < n; s++)
		out_printf(&o, "%s%u", s ? "," : "", emu_xcha_chas(cfg, s));
	out_puts(&o, ")");
}
