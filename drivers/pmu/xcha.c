/* The CHA units of the Xeons between the E5-2600 and the discovery tables
 * (xcha.h): Skylake-SP, Cascade Lake and Cooper Lake (model 0x55) and Ice
 * Lake-SP and -D (0x6A, 0x6C). Each socket's CHAs are MSRs of its package,
 * programmed, sampled and restored on a processor of that package. What
 * Linux uncore_snbep.c writes, and nothing else: the box control's FRZ
 * (bit 8, snbep_uncore_msr_disable_box / enable_box, read-modify-write),
 * its counter reset (RST_CTRS, bit 1, of ivbep_uncore_msr_init_box's
 * IVBEP_PMON_BOX_CTL_INT) and each select with EN (bit 22,
 * hswep_cbox_enable_event, snr_cha_enable_event). The filter registers are
 * never written. Notes and sources: xcha.md. */
#include "xcha.h"
#include "ubox.h"

#include <string.h>
#include "../base/fmt.h"

/* Linux icx_cha_msr_offsets[]: CHA n's registers from 0xB60. */
const uint16_t xcha_icx_offsets[XCHA_ICX_CHAS] = {
	0x2a0, 0x2ae, 0x2bc, 0x2ca, 0x2d8, 0x2e6, 0x2f4, 0x302, 0x310, 0x31e, 0x32c, 0x33a, 0x348, 0x356,
	0x364, 0x372, 0x380, 0x38e, 0x3aa, 0x3b8, 0x3c6, 0x3d4, 0x3e2, 0x3f0, 0x3fe, 0x40c, 0x41a, 0x428,
	0x436, 0x444, 0x452, 0x460, 0x46e, 0x47c, 0x0,   0xe,   0x1c,  0x2a,  0x38,  0x46,
};

/* Linux intel_uncore_match: SKX (0x55) for all three, told apart by
 * stepping (Intel's perfmon mapfile: 0-4 Skylake-SP's file, 5 on Cascade
 * Lake's; Cooper Lake is stepping 10 and 11); ICX 0x6A and 0x6C. */
static const struct pmu_model skx_models[] = {
	{ 6, 0x55, "Skylake-SP" }, { 6, 0x55, "Cascade Lake" }, { 6, 0x55, "Cooper Lake" }, { 0, 0, 0 },
};
static const struct pmu_model icx_models[] = {
	{ 6, 0x6A, "Ice Lake-SP" }, { 6, 0x6C, "Ice Lake-D" }, { 0, 0, 0 },
};

UNC_COLD static const struct pmu_model *skx_match(const struct hw *hw, const struct cpu_info *cpu)
{
	(void)hw;
	if (!cpu->is_intel || cpu->family != 6 || cpu->model != 0x55)
		return NULL;
	return &skx_models[cpu->stepping <= 4 ? 0 : cpu->stepping < 10 ? 1 : 2];
}

UNC_COLD static const struct pmu_model *icx_match(const struct hw *hw, const struct cpu_info *cpu)
{
	(void)hw;
	if (!cpu->is_intel || cpu->family != 6)
		return NULL;
	return cpu->model == 0x6A ? &icx_models[0] : cpu->model == 0x6C ? &icx_models[1] : NULL;
}

/* Linux HSWEP_S_MSR_PMON_RAW_EVENT_MASK (event, umask, edge 18, tid_en 19,
 * inv 23, thresh 31:24) and EN 22; Ice Lake's umask also in bits 57:32
 * (format umask_ext2, config:8-15,32-57; SNR_CHA_RAW_EVENT_MASK_EXT). */
#define XCHA_LAYOUT(ext, src)                                                                                         \
	.event = { 0, 8 }, .umask = { 8, 8 }, .thresh = { 24, 8 }, .inv = 1ull << 23, .edge = 1ull << 18,             \
	.enable = XCHA_CTL_EN, .rw_mask = 0xFFCCFFFFull | ((ext) ? 0x3FFFFFFull << 32 : 0), .cite = src,                \
	.umask_ext = { (ext) ? 32 : 0, (ext) ? 26 : 0 }
static const struct pmu_layout skx_layout = { XCHA_LAYOUT(0, "Linux skx_uncore_chabox: HSWEP_S_MSR_PMON_RAW_EVENT_MASK") };
static const struct pmu_layout icx_layout = { XCHA_LAYOUT(1, "Linux icx_uncore_chabox: umask config:8-15,32-57") };

/* Linux skx_uncore_chabox_constraints, which icx_uncore_chabox takes too. */
static const struct pmu_constraint xcha_constraints[] = { { 0x11, 0x1 }, { 0x36, 0x1 }, { 0, 0 } };

/* No Max Inc/Cyc is published with Intel's files: a bound no 48-bit
 * counter reaches in a sample (2^36 per second), far above a CHA event per
 * cycle (the mesh runs below 3 GHz) or an occupancy of its queues. */
#define XCHA_MAX_PER_SEC (1ull << 36)

#define XCHA_UNIT(lay, help)                                                                                           \
	{ .pmu = "cha", .intel_unit = "CHA", .name = "CHA", .box_noun = "CHA", .box_label = "cha",                    \
	  .boxes_from = "each socket's CAPID6 (PCU device 30, function 3)", .kind = PMU_GENERAL, .space = PMU_MSR,      \
	  .counters = 4, .width = 48, .max_boxes = PMU_BOXES_ANY, .sel_step = 1, .ctr_step = 1, .probe_addr = true,   \
	  .per_pkg = true, .layout = &lay, .constraints = xcha_constraints, .max_per_sec = XCHA_MAX_PER_SEC,           \
	  .raw_help = help, .group_noun = "socket", .short_prefix = "UNC_CHA_", .ctr_write = PMU_CTR_BOX_RESET,        \
	  .ctr_write_cite = "Linux ivbep_uncore_msr_init_box: RST_CTRS (bit 1) of the box control; Linux never "      \
			    "writes a CHA counter" }
static const struct pmu_unit skx_units[XCHA_NUNITS] = { XCHA_UNIT(skx_layout, "cha/event=N,umask=N[,thresh=N][,inv][,edge]/") };
static const struct pmu_unit icx_units[XCHA_NUNITS] = {
	XCHA_UNIT(icx_layout, "cha/event=N,umask=N[,thresh=N][,inv][,edge]/ (umask: 34 bits, 15:8 and 57:32)")
};

bool xcha_is_icx(const struct pmu_present *p)
{
	return p->drv == &pmu_driver_icxcha;
}

static const struct pmu_unit *unit_of(const struct pmu_present *p)
{
	return xcha_is_icx(p) ? icx_units : skx_units;
}

static unsigned popcount64(uint64_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

struct found {
	uint8_t bus, chas, node;
	bool ubox, failed;
	uint64_t capid;
};

/* Socket i's UBox node ID and CHA count, from the bus of its PCU. */
UNC_COLD static enum unc_status read_socket(const struct hw *hw, bool icx, struct found *f, char *err, size_t errsize)
{
	uint32_t c6 = 0, c7 = 0, id = 0, node = 0;
	enum unc_status st;

	if ((st = ubox_read(hw, (struct pci_addr){ f->bus, XCHA_PCU_DEV, XCHA_PCU_FUNC }, XCHA_CAPID6, &c6)) ||
	    (icx && (st = ubox_read(hw, (struct pci_addr){ f->bus, XCHA_PCU_DEV, XCHA_PCU_FUNC }, XCHA_CAPID7, &c7))))
		f->failed = true;
	f->capid = (uint64_t)c7 << 32 | c6; /* as read: SKX's count takes bits 27:0 */
	f->chas = f->failed ? 0 : (uint8_t)popcount64(icx ? f->capid : c6 & 0x0FFFFFFFu);
	uint8_t udev = icx ? 0 : 8;
	if ((st = ubox_read(hw, (struct pci_addr){ f->bus, udev, 0 }, 0, &id))) {
		fmt_snprintf(err, errsize, "PCI read %02x:%02x.0+0x0 (the UBox): %s", f->bus, udev, unc_strerror(st));
		return st;
	}
	f->ubox = id == (icx ? 0x34508086u : 0x20148086u);
	uint32_t map = 0;
	if (f->ubox && (ubox_read(hw, (struct pci_addr){ f->bus, udev, 0 }, XCHA_CPUNODEID, &node) ||
			ubox_read(hw, (struct pci_addr){ f->bus, udev, 0 }, XCHA_GIDNIDMAP, &map)))
		f->ubox = false;
	int socket = f->ubox ? ubox_socket_of(node, map) : -1; /* the socket (physical package ID) whose node ID this is */
	f->node = socket < 0 ? 0xFF : (uint8_t)socket;
	f->ubox &= socket >= 0;
	return UNC_OK;
}

/* Every bus of segment 0 whose device 30 function 3 is the generation's
 * PCU function with CAPID6 is a socket; its UBox on the same bus says
 * which (Linux numbers the PCI buses' sockets from the UBoxes: the node ID
 * in CPUNODEID is GIDNIDMAP's field i for socket i, a hidden socket
 * leaving a gap). Without a UBox on every such bus, or with two alike, the
 * sockets are numbered in bus order, and info says so. Socket i's CHAs are
 * programmed on package i. */
UNC_COLD static enum unc_status xcha_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want,
					   struct pmu_present *p, char *err, size_t errsize, char *warn, size_t warnsize)
{
	bool icx = xcha_is_icx(p), by_node = true;
	uint32_t want_id = icx ? 0x345B8086u : 0x20838086u;
	struct found f[XCHA_MAX_SOCKETS], t;
	unsigned n = 0, total = 0, reached = 0;
	enum unc_status st;

	if (warnsize)
		warn[0] = '\0';
	if (!(want & 1u << XCHA_UNIT_CHA))
		return UNC_OK;
	p->probed |= 1u << XCHA_UNIT_CHA;
	for (unsigned bus = 0; bus <= 0xFF; bus++) {
		uint32_t id;
		if ((st = ubox_read(hw, (struct pci_addr){ (uint8_t)bus, XCHA_PCU_DEV, XCHA_PCU_FUNC }, 0, &id))) {
			fmt_snprintf(err, errsize, "PCI read %02x:1e.3+0x0 (the CAPID scan): %s", bus, unc_strerror(st));
			return st;
		}
		if (id != want_id)
			continue;
		if (n == XCHA_MAX_SOCKETS) {
			fmt_snprintf(err, errsize, "more than %u PCU functions %04x:%04x (CAPID6): at most %u sockets can be "
				     "told apart (GIDNIDMAP maps 8 node IDs)", XCHA_MAX_SOCKETS, want_id & 0xFFFF, want_id >> 16,
				     XCHA_MAX_SOCKETS);
			return UNC_E_UNSUPPORTED;
		}
		f[n] = (struct found){ .bus = (uint8_t)bus };
		if ((st = read_socket(hw, icx, &f[n], err, errsize)))
			return st;
		for (unsigned k = 0; k < n; k++)
			by_node &= f[k].node != f[n].node;
		by_node &= f[n].ubox;
		n++;
	}
	for (unsigned i = 1; by_node && i < n; i++) /* by node: insertion sort, few sockets */
		for (unsigned k = i; k > 0 && f[k - 1].node > f[k].node; k--)
			t = f[k], f[k] = f[k - 1], f[k - 1] = t;
	for (unsigned s = 0; s < n; s++)
		total += f[s].chas;
	if (icx)
		for (unsigned s = 0; s < n; s++)
			if (f[s].chas > XCHA_ICX_CHAS) {
				fmt_snprintf(err, errsize, "socket %u's CAPID6/7 give %u CHAs; Linux's icx_cha_msr_offsets "
					     "places %u", s, f[s].chas, XCHA_ICX_CHAS);
				return UNC_E_UNSUPPORTED;
			}
	if (total && (st = pmu_present_room(p, XCHA_UNIT_CHA, total))) {
		fmt_snprintf(err, errsize, "no memory for %u CHAs", total);
		return st;
	}
	unsigned pkgs = hw->pkgs && !hw->pkgs->more ? hw->pkgs->n : 0, boxes = 0;
	memset(&p->facts[XCHA_FACT_SOCK0], 0, sizeof(uint64_t) * (XCHA_MAX_SOCKETS / 2));
	for (unsigned s = 0; s < n; s++) {
		unsigned id = by_node ? f[s].node : s; /* the socket: its package's ID */
		bool ok = hw_pkg_known(hw, id);
		uint32_t v = f[s].bus | (uint32_t)f[s].chas << 8 | (uint32_t)(id & 7) << 16 |
			     (f[s].ubox ? XCHA_S_UBOX : 0) | (ok ? XCHA_S_REACHED : 0) | (f[s].failed ? XCHA_S_FAILED : 0);
		p->facts[XCHA_FACT_SOCK0 + s / 2] |= (uint64_t)v << (32 * (s % 2));
		reached += ok;
		for (unsigned c = 0; ok && c < f[s].chas; c++, boxes++) {
			p->box_base[XCHA_UNIT_CHA][boxes] = icx ? XCHA_ICX_BASE + xcha_icx_offsets[c] : XCHA_SKX_BOX0 + XCHA_SKX_STRIDE * c;
			p->group[XCHA_UNIT_CHA][boxes] = (uint8_t)id;
			p->box_id[XCHA_UNIT_CHA][boxes] = (uint8_t)c;
		}
	}
	p->sel_off[XCHA_UNIT_CHA] = XCHA_SEL_OFF;
	p->ctr_off[XCHA_UNIT_CHA] = XCHA_CTR_OFF;
	p->boxes[XCHA_UNIT_CHA] = boxes;
	p->found[XCHA_UNIT_CHA] = total;
	p->partial = reached < n || (pkgs > 1 && n < pkgs);
	p->facts[XCHA_FACT_SUMMARY] = n | (uint64_t)(by_node && n) << 8 | (uint64_t)(pkgs & 0xFF) << 16 |
				      (uint64_t)p->partial << 24 | (uint64_t)((cpu->family & 0xFF) << 8 | (cpu->model & 0xFF)) << 32 |
				      (uint64_t)(cpu->stepping & 0xFF) << 48;
	p->facts[XCHA_FACT_CAPID] = n ? f[0].capid : 0;
	if (warnsize)
		xcha_caveat(p, warn, warnsize);
	return UNC_OK;
}

/* In use when any select of a CHA is not 0. */
UNC_COLD static void xcha_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
				 void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	*r = (struct pmu_use){ .known = true };
	for (unsigned b = 0; b < p->boxes[XCHA_UNIT_CHA]; b++)
		for (unsigned i = 0; i < 4; i++) {
			struct pmu_reg reg = pmu_unit_sel(unit_of(p), p, XCHA_UNIT_CHA, b, i);
			uint64_t v = 0;
			if (!pmu_use_read(r, reg, pmu_msr_read(hw, reg, &v), on_fault, ctx))
				continue;
			r->selects_checked++;
			if (v)
				pmu_use_busy(r, reg, v);
		}
}

/* FRZ set (freeze) or cleared, read-modify-write as Linux's disable_box
 * and enable_box do, box by box, through the journal. */
static enum unc_status frz(struct pmu_io *io, const struct pmu_present *p, bool on)
{
	enum unc_status st;

	for (unsigned b = 0; b < p->boxes[XCHA_UNIT_CHA]; b++) {
		struct pmu_reg r = pmu_unit_box_ctl(unit_of(p), p, XCHA_UNIT_CHA, b);
		uint64_t v;
		if ((st = pmu_io_read(io, r, &v)) ||
		    (st = pmu_io_write(io, r, on ? v | XCHA_BOX_FRZ : v & ~(uint64_t)XCHA_BOX_FRZ)))
			return st;
	}
	return UNC_OK;
}

static enum unc_status xcha_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	(void)s;
	return frz(io, p, true);
}

static enum unc_status xcha_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	(void)s, (void)verify;
	return frz(io, p, false);
}

/* The box's counters to 0 with RST_CTRS, FRZ kept: the box stays frozen
 * while the run programs it. RST_CTRL (bit 0) is not used: it would clear
 * the selects the run has just written. */
UNC_COLD static enum unc_status xcha_reset_box(struct pmu_io *io, const struct pmu_present *p, unsigned unit, unsigned box,
					       uint64_t start)
{
	(void)start;
	return pmu_io_write(io, pmu_unit_box_ctl(unit_of(p), p, unit, box), XCHA_BOX_FRZ | XCHA_BOX_RST_CTRS);
}

/* "CHA 3 CTL1 (socket 1)", as Linux's cha_3 PMU and the manual's CHA 3
 * CTL1 name it. */
UNC_COLD static const char *xcha_reg_name(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size)
{
	for (unsigned b = 0; p && reg.space == PMU_MSR && b < p->boxes[XCHA_UNIT_CHA] && b < p->room[XCHA_UNIT_CHA]; b++) {
		struct pmu_reg box = pmu_unit_box_ctl(unit_of(p), p, XCHA_UNIT_CHA, b);
		uint64_t off = reg.addr - box.addr;
		if (pmu_reg_pkg(reg) != pmu_reg_pkg(box) || reg.addr < box.addr || off > XCHA_CTR_OFF + 3 ||
		    (off > 4 && off < XCHA_CTR_OFF))
			continue;
		char what[8];
		if (off == 0)
			fmt_snprintf(what, sizeof(what), "BOX_CTL");
		else
			fmt_snprintf(what, sizeof(what), off < XCHA_CTR_OFF ? "CTL%u" : "CTR%u",
				     (unsigned)(off < XCHA_CTR_OFF ? off - 1 : off - XCHA_CTR_OFF));
		fmt_snprintf(buf, size, "CHA %u %s (socket %u)", p->box_id[XCHA_UNIT_CHA][b], what, p->group[XCHA_UNIT_CHA][b]);
		return buf;
	}
	return NULL;
}

static const struct pmu_ops xcha_ops = {
	.probe = xcha_probe,
	.in_use = xcha_in_use,
	.freeze = xcha_freeze,
	.unfreeze = xcha_unfreeze,
	.reset_box = xcha_reset_box,
	.reg_name = xcha_reg_name,
	.info = xcha_info,
	.caveat = xcha_caveat,
};

extern const struct event_desc skxcha_events[], icxcha_events[];
extern const unsigned skxcha_events_count, icxcha_events_count;
extern const struct event_table skxcha_events_tables[];
extern const unsigned skxcha_events_ntables;

/* Intel's perfmon file of the stepping (mapfile.csv: GenuineIntel-6-55-[01234]
 * Skylake-SP's, -[56789ABCDEF] Cascade Lake's, which Cooper Lake takes). */
UNC_COLD static const struct event_table *skx_events_for(const struct cpu_info *cpu)
{
	const char *file = cpu->stepping <= 4 ? "skylakex_uncore.json" : "cascadelakex_uncore.json";

	for (unsigned t = 0; skx_match(NULL, cpu) && t < skxcha_events_ntables; t++)
		if (!strcmp(skxcha_events_tables[t].file, file))
			return &skxcha_events_tables[t];
	return NULL;
}

#define XCHA_DRIVER(NAME, TITLE, MATCH, MODELS, UNITS, EVENTS)                                                         \
	.name = NAME, .title = TITLE, .what = "CHA PMU", .status_name = "none (no overflow status is read)",             \
	.vendor = "GenuineIntel", .models = MODELS, .match = MATCH, .units = UNITS, .nunits = XCHA_NUNITS,             \
	.events = EVENTS##_events, .nevents = &EVENTS##_events_count, .ops = &xcha_ops

/* No global register: each CHA's box control freezes it (the UBox's global
 * control is not this run's to write). */
const struct pmu_driver pmu_driver_skxcha = {
	XCHA_DRIVER("skx-cha", "Skylake-SP CHA", skx_match, skx_models, skx_units, skxcha),
	.events_for = skx_events_for,
};
const struct pmu_driver pmu_driver_icxcha = {
	XCHA_DRIVER("icx-cha", "Ice Lake-SP CHA", icx_match, icx_models, icx_units, icxcha),
};
