/* The Ice Lake-SP iMC driver (icx.h): one box per channel, in MMIO, at the
 * addresses Linux's icx_uncore_imc_init_box and snr_uncore_mmio_map compute
 * from PCI device 8086:3451 of each socket; the older box control
 * (SNBEP_PMON_BOX_CTL_*) and the event control of the E5 iMCs with its
 * enable bit. The writes are Linux's: the box control's FRZ set and
 * cleared by read-modify-write (snr_uncore_mmio_disable_box, _enable_box),
 * the counters reset through RST_CTRS (init_box's IVBEP_PMON_BOX_CTL_INT),
 * each event control written with EN (snr_uncore_mmio_enable_event). The
 * device's BAR registers are only read. */
#include "icx.h"
#include "adl_imcp.h"
#include "ubox.h"

#include "../base/fmt.h"
#include "../engine/stat.h"

/* Linux uncore.c intel_uncore_match: ICELAKE_X and ICELAKE_D take icx_uncore_init. */
static const struct pmu_model icx_models[] = {
	{ 6, 0x6A, "Ice Lake-SP" },
	{ 6, 0x6C, "Ice Lake-D" },
	{ 0, 0, 0 },
};

unsigned icx_channels_per_mc(uint32_t model)
{
	return model == 0x6C ? 3 : 2;
}

uint64_t icx_box_addr(uint32_t cfg_d0, uint32_t cfg_mem, unsigned ch)
{
	uint64_t base = (uint64_t)(cfg_d0 & ICX_MMIO_BASE_MASK) << ICX_MMIO_BASE_SHIFT;
	uint64_t mem = (uint64_t)(cfg_mem & ICX_MEM_MASK) << ICX_MEM_SHIFT;

	if (!base || !mem || ch >= ICX_CHANNELS)
		return 0;
	return (base | mem) + ICX_BOX + (uint64_t)ICX_BOX_STRIDE * (ch % ICX_CH_PER_MC);
}

/* Linux's SNBEP_PMON_CTL_* (snr_uncore_imc's event_mask SNBEP_PMON_RAW_EVENT_MASK). */
static const struct pmu_layout icx_layout = {
	.event = { 0, 8 },
	.umask = { 8, 8 },
	.thresh = { 24, 8 },
	.inv = 1ull << 23,
	.edge = 1ull << 18,
	.enable = ICX_CTL_EN,
	.rw_mask = ICX_CTL_RW,
	.cite = "Linux SNBEP_PMON_CTL_*",
};

static const struct pmu_role_event icx_roles[] = {
	{ "UNC_M_CAS_COUNT.RD", PMU_ROLE_DRAM_READ },
	{ "UNC_M_CAS_COUNT.WR", PMU_ROLE_DRAM_WRITE },
	{ NULL, 0 },
};

/* No Max Inc/Cyc is published for these counters: a bound no 48-bit
 * counter reaches in a sample (2^36 per second, 4000 s to wrap), far above
 * a CAS per DRAM clock of DDR4-3200 (1.6 GHz). */
#define ICX_MAX_PER_SEC (1ull << 36)

#define ICX_CTR_RESET                                                                                                  \
	.ctr_write = PMU_CTR_BOX_RESET,                                                                                \
	.ctr_write_cite = "uncore_snbep.c: RST_CTRS (bit 1) of IVBEP_PMON_BOX_CTL_INT, written by "                   \
			  "__snr_uncore_mmio_init_box; Linux never writes these counters"

static const struct pmu_unit icx_units[ICX_NUNITS] = {
	[ICX_UNIT_IMC] = { .pmu = "imc", .intel_unit = "iMC", .name = "iMC", .box_noun = "channel", .box_label = "ch",
			   .boxes_from = "device 8086:3451's MMIO BAR", .kind = PMU_GENERAL, .space = PMU_MMIO,
			   .counters = 4, .width = 48, .max_boxes = PMU_BOXES_ANY, .sel_step = 4, .ctr_step = 8,
			   .probe_addr = true, .layout = &icx_layout, .max_per_sec = ICX_MAX_PER_SEC,
			   .raw_help = "imc/event=N,umask=N[,thresh=N][,inv][,edge]/", .role_events = icx_roles,
			   .group_noun = "socket", .short_prefix = "UNC_M_", ICX_CTR_RESET },
	/* Intel's UNC_M_HCLOCKTICKS ("Half clockticks for IMC", Counter FIXED):
	 * EN (bit 22) in its control starts it (snr_uncore_mmio_enable_event) */
	[ICX_UNIT_FIXED] = { .pmu = "imc_fixed", .intel_unit = "iMC", .name = "iMC fixed", .box_label = "ch",
			     .kind = PMU_FIXED, .space = PMU_MMIO, .counters = 1, .width = 48, .max_boxes = PMU_BOXES_ANY,
			     .sel_step = 4, .ctr_step = 8, .probe_addr = true, .fixed_ctrl = ICX_CTL_EN,
			     .max_per_sec = ICX_MAX_PER_SEC, .clock = true, .group_noun = "socket", .short_prefix = "UNC_M_",
			     ICX_CTR_RESET },
};

/* The functions the scan found: 8086:3451 (the memory controllers' BARs)
 * and 8086:3450 (the UBox), each counted beyond what is kept. */
struct icx_scan {
	struct pci_addr mc[ICX_MAX_DEVS], ubox[ICX_MAX_DEVS];
	unsigned nmc, nubox;
};

static enum unc_status on_function(void *ctx, struct pci_addr a, uint32_t id)
{
	struct icx_scan *c = ctx;

	if (id == (ICX_MC_ID << 16 | ICX_VENDOR_INTEL)) {
		if (c->nmc < ICX_MAX_DEVS)
			c->mc[c->nmc] = a;
		c->nmc++;
	} else if (id == (ICX_UBOX_ID << 16 | ICX_VENDOR_INTEL)) {
		if (c->nubox < ICX_MAX_DEVS)
			c->ubox[c->nubox] = a;
		c->nubox++;
	}
	return UNC_OK;
}

static enum unc_status cfg_read(const struct hw *hw, struct pci_addr a, uint16_t off, uint32_t *v, char *err,
				size_t errsize)
{
	enum unc_status st = hw_pci_read32(hw, a, off, v);

	if (st)
		fmt_snprintf(err, errsize, "PCI read %02x:%02x.%x+0x%x (Ice Lake-SP iMC): %s", a.bus, a.dev, a.func,
			     (unsigned)off, unc_strerror(st));
	return st;
}

/* Each UBox's socket (ubox_socket_of), every bus tied to one as Linux ties
 * them (ubox_fill_down); *ret_pkgs: bit s, socket s has a UBox. */
static enum unc_status map_buses(const struct hw *hw, const struct icx_scan *c, int bus_socket[256],
				 uint32_t *ret_pkgs, char *err, size_t errsize)
{
	enum unc_status st;

	*ret_pkgs = 0;
	for (unsigned b = 0; b < 256; b++)
		bus_socket[b] = -1;
	for (unsigned i = 0; i < c->nubox; i++) {
		uint32_t node, map;
		if ((st = cfg_read(hw, c->ubox[i], ICX_CPUNODEID, &node, err, errsize)) ||
		    (st = cfg_read(hw, c->ubox[i], ICX_GIDNIDMAP, &map, err, errsize)))
			return st;
		int s = ubox_socket_of(node, map);
		bus_socket[c->ubox[i].bus] = s;
		if (s >= 0)
			*ret_pkgs |= 1u << s;
	}
	ubox_fill_down(bus_socket);
	return UNC_OK;
}

/* Segment 0, every function: each 8086:3451 is a socket's. Sockets are
 * numbered as the UBoxes of their buses say (Linux's
 * uncore_pcibus_to_dieid, which snr_uncore_get_mc_dev asks) when each
 * device's bus maps to a socket and no two to the same one; else in bus
 * order (ICX_FACT_SOCKETS bit 8 says which). Each socket's twelve boxes
 * (icx_uncore_imc.num_boxes) are at the addresses of icx_box_addr, of
 * which the first icx_channels_per_mc of each controller are programmed; a
 * controller whose offset (or a device whose BAR) reads 0 has no channel
 * here, and the warning names it. Reads only. */
UNC_COLD static enum unc_status icx_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want,
					  struct pmu_present *p, char *err, size_t errsize, char *warn, size_t warnsize)
{
	struct icx_scan c = { .nmc = 0 };
	struct { struct pci_addr a; int s; } dev[ICX_MAX_DEVS], t;
	int bus_socket[256];
	uint32_t ubox_pkgs, mc_pkgs = 0;
	unsigned boxes = 0;
	enum unc_status st;

	unsigned per_mc = icx_channels_per_mc(cpu->model);

	if (warnsize)
		warn[0] = '\0';
	if (!(want & (1u << ICX_UNIT_IMC | 1u << ICX_UNIT_FIXED)))
		return UNC_OK;
	p->probed |= 1u << ICX_UNIT_IMC | 1u << ICX_UNIT_FIXED;
	if ((st = ubox_scan(hw, on_function, &c, err, errsize)) || (st = map_buses(hw, &c, bus_socket, &ubox_pkgs, err, errsize)))
		return st;
	if (c.nmc > ICX_MAX_SOCKETS) {
		fmt_snprintf(err, errsize,
			     "found %u memory-controller devices 8086:3451 (one a socket): Ice Lake-SP has at most %u sockets, "
			     "the most this driver counts",
			     c.nmc, ICX_MAX_SOCKETS);
		return UNC_E_UNSUPPORTED;
	}
	bool by_node = c.nubox > 0 && c.nubox <= ICX_MAX_DEVS;
	for (unsigned i = 0; i < c.nmc; i++) {
		dev[i].a = c.mc[i];
		dev[i].s = bus_socket[c.mc[i].bus];
		by_node &= dev[i].s >= 0;
		for (unsigned k = 0; by_node && k < i; k++)
			by_node &= dev[k].s != dev[i].s;
	}
	for (unsigned i = 1; by_node && i < c.nmc; i++) /* by socket: a swap, two at most */
		for (unsigned k = i; k > 0 && dev[k - 1].s > dev[k].s; k--)
			t = dev[k], dev[k] = dev[k - 1], dev[k - 1] = t;
	if (pmu_present_room(p, ICX_UNIT_IMC, c.nmc * ICX_CHANNELS) ||
	    pmu_present_room(p, ICX_UNIT_FIXED, c.nmc * ICX_CHANNELS)) {
		fmt_snprintf(err, errsize, "no memory for the iMC channels' addresses");
		return UNC_E_NO_MEMORY;
	}
	for (unsigned i = 0; i < c.nmc; i++) {
		struct pci_addr a = dev[i].a;
		unsigned sock = by_node ? (unsigned)dev[i].s : i;
		uint32_t d0, mem[ICX_MCS];
		uint64_t mem_fact = 0;

		if ((st = cfg_read(hw, a, ICX_MMIO_BASE, &d0, err, errsize)))
			return st;
		for (unsigned m = 0; m < ICX_MCS; m++) {
			if ((st = cfg_read(hw, a, (uint16_t)(ICX_MEM0 + ICX_MEM_STRIDE * m), &mem[m], err, errsize)))
				return st;
			mem_fact |= (uint64_t)(mem[m] & ICX_MEM_MASK) << (16 * m);
		}
		if (by_node)
			mc_pkgs |= 1u << sock;
		p->facts[ICX_FACT_DEV0 + i] = a.bus | (uint64_t)a.dev << 8 | (uint64_t)a.func << 13 |
					      (uint64_t)(d0 & ICX_MMIO_BASE_MASK) << 16 | (uint64_t)(sock & 0xFF) << 48;
		p->facts[ICX_FACT_MEM0 + i] = mem_fact;
		for (unsigned ch = 0; ch < ICX_CHANNELS; ch++) {
			uint64_t at = icx_box_addr(d0, mem[ch / ICX_CH_PER_MC], ch);
			if (!at || ch % ICX_CH_PER_MC >= per_mc)
				continue;
			for (unsigned u = 0; u < ICX_NUNITS; u++) {
				p->box_base[u][boxes] = at;
				p->group[u][boxes] = (uint8_t)sock;
				p->box_id[u][boxes] = (uint8_t)ch;
			}
			p->facts[ICX_FACT_PRESENT] |= 1ull << (ICX_CHANNELS * i + ch);
			boxes++;
		}
	}
	const struct hw_pkgs *pk = hw->pkgs && hw->pkgs->n && !hw->pkgs->more ? hw->pkgs : NULL;
	unsigned npk = pk ? pk->n : 0;
	uint32_t hidden = by_node ? ubox_pkgs & ~mc_pkgs : 0;
	p->facts[ICX_FACT_SOCKETS] = c.nmc | (by_node && c.nmc ? ICX_SOCKETS_BY_NODE : 0) |
				     (uint64_t)(c.nubox & 0xFF) << 16 | (uint64_t)(c.nmc & 0xFF) << 24 |
				     (uint64_t)(npk & 0xFF) << 32 | (uint64_t)(hidden & 0xFF) << 40 | (uint64_t)per_mc << 48;
	p->sel_off[ICX_UNIT_IMC] = ICX_CTL0;
	p->ctr_off[ICX_UNIT_IMC] = ICX_CTR0;
	p->sel_off[ICX_UNIT_FIXED] = ICX_FIXED_CTL;
	p->ctr_off[ICX_UNIT_FIXED] = ICX_FIXED_CTR;
	for (unsigned u = 0; u < ICX_NUNITS; u++)
		p->boxes[u] = p->found[u] = boxes;
	/* a socket hidden, or fewer devices than packages: the counts are not the machine's */
	p->partial = c.nmc && (hidden || npk > c.nmc);
	if (warnsize && !icx_caveat(p, warn, warnsize))
		warn[0] = '\0';
	return UNC_OK;
}

/* In use when a channel's event control or fixed control is not 0 (each
 * unit's selects read as adl_imcp_in_use reads those of an MMIO unit). */
UNC_COLD static void icx_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
				void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	*r = (struct pmu_use){ .known = (p->probed & 1u << ICX_UNIT_IMC) != 0 };
	for (unsigned u = 0; u < ICX_NUNITS; u++)
		adl_imcp_in_use(hw, p, u, r, on_fault, ctx);
}

static struct pmu_reg box_ctl(const struct pmu_present *p, unsigned b)
{
	return pmu_unit_box_ctl(&icx_units[ICX_UNIT_IMC], p, ICX_UNIT_IMC, b);
}

/* The box control read, then written with `set` set and `clear` cleared
 * (RST_CTRL never: the run writes each control itself). */
static enum unc_status box_rmw(struct pmu_io *io, const struct pmu_present *p, unsigned b, uint32_t set, uint32_t clear)
{
	uint64_t v;
	enum unc_status st = pmu_io_read(io, box_ctl(p, b), &v);

	return st ? st : pmu_io_write(io, box_ctl(p, b), ((v & 0xFFFFFFFFu) | set) & ~(uint64_t)(clear | ICX_BOX_RST_CTRL));
}

/* snr_uncore_mmio_disable_box: FRZ set in each box. */
static enum unc_status icx_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	enum unc_status st;

	(void)s;
	for (unsigned b = 0; b < p->boxes[ICX_UNIT_IMC]; b++)
		if ((st = box_rmw(io, p, b, ICX_BOX_FRZ, ICX_BOX_RST_CTRS)))
			return st;
	return UNC_OK;
}

/* snr_uncore_mmio_enable_box: FRZ cleared. */
static enum unc_status icx_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	enum unc_status st;

	(void)s, (void)verify;
	for (unsigned b = 0; b < p->boxes[ICX_UNIT_IMC]; b++)
		if ((st = box_rmw(io, p, b, 0, ICX_BOX_FRZ | ICX_BOX_RST_CTRS)))
			return st;
	return UNC_OK;
}

/* The counters to 0 as init_box resets them (RST_CTRS), with FRZ kept:
 * the box stays frozen while the run programs it. Its RST_CTRL is not
 * written: it would clear the controls the run has just written. The
 * journal puts the box control back, not the counters. */
UNC_COLD static enum unc_status icx_reset_box(struct pmu_io *io, const struct pmu_present *p, unsigned unit,
					      unsigned box, uint64_t start)
{
	(void)unit, (void)start;
	return box_rmw(io, p, box, ICX_BOX_FRZ | ICX_BOX_RST_CTRS, 0);
}

/* A counter is 64 bits in MMIO (48 count; Linux reads it with readq):
 * two dwords, high, low, high, as the engine reads any wide counter. */
static enum unc_status icx_read_counter(struct pmu_io *io, const struct pmu_present *p, unsigned unit, unsigned box,
					unsigned idx, uint64_t *ret_val)
{
	struct pmu_reg r = pmu_unit_ctr(&icx_units[unit], p, unit, box, idx);
	uint64_t v;
	enum unc_status st = stat_read_reg(io->hw, r, 64, &v);

	if (st)
		return pmu_io_fail(io, st, "MMIO read of iMC counter %u at 0x%lx: %s", idx, (unsigned long)r.addr,
				   unc_strerror(st));
	*ret_val = v & 0xFFFFFFFFFFFFull;
	return UNC_OK;
}

static unsigned icx_fast_read(const struct pmu_present *p, unsigned unit, unsigned box, unsigned idx,
			      uint32_t *ret_index)
{
	(void)p, (void)unit, (void)box, (void)idx, (void)ret_index;
	return PMU_FAST_REG;
}

/* "MC1_CH2_PMON_CTL3 (socket 0)": Linux's SNR_IMC_MMIO_PMON_* names, with
 * the controller and channel of box i (i / 3, i % 3). */
UNC_COLD static const char *icx_reg_name(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size)
{
	if (!p || reg.space != PMU_MMIO)
		return NULL;
	for (unsigned b = 0; b < p->boxes[ICX_UNIT_IMC] && b < p->room[ICX_UNIT_IMC]; b++) {
		uint64_t base = p->box_base[ICX_UNIT_IMC][b], off = reg.addr - base;
		unsigned ch = p->box_id[ICX_UNIT_IMC][b];
		char what[24];

		if (reg.addr < base || off >= 0x60)
			continue;
		if (off == 0)
			fmt_snprintf(what, sizeof(what), "BOX_CTL");
		else if (off == ICX_FIXED_CTL)
			fmt_snprintf(what, sizeof(what), "FIXED_CTL");
		else if (off == ICX_FIXED_CTR || off == ICX_FIXED_CTR + 4)
			fmt_snprintf(what, sizeof(what), "FIXED_CTR%s", off & 4 ? "[63:32]" : "");
		else if (off >= ICX_CTL0 && off < ICX_CTL0 + 16)
			fmt_snprintf(what, sizeof(what), "CTL%u", (unsigned)(off - ICX_CTL0) / 4);
		else if (off >= ICX_CTR0 && off < ICX_CTR0 + 32)
			fmt_snprintf(what, sizeof(what), "CTR%u%s", (unsigned)(off - ICX_CTR0) / 8, off & 4 ? "[63:32]" : "");
		else
			return NULL;
		fmt_snprintf(buf, size, "MC%u_CH%u_PMON_%s (socket %u)", ch / ICX_CH_PER_MC, ch % ICX_CH_PER_MC, what,
			     p->group[ICX_UNIT_IMC][b]);
		return buf;
	}
	return NULL;
}

static void icx_where(const struct pmu_present *p, unsigned unit, char *buf, size_t size)
{
	unsigned n = (unsigned)(p->facts[ICX_FACT_SOCKETS] & 0xFF);

	fmt_snprintf(buf, size, "in %u channel%s of %u socket%s' 8086:3451 MMIO (CAS_COUNT.RD and .WR)", p->boxes[unit],
		     p->boxes[unit] == 1 ? "" : "s", n, n == 1 ? "" : "s");
}

static const struct pmu_ops icx_ops = {
	.probe = icx_probe,
	.in_use = icx_in_use,
	.freeze = icx_freeze,
	.unfreeze = icx_unfreeze,
	.read_counter = icx_read_counter,
	.fast_read = icx_fast_read,
	.reset_box = icx_reset_box,
	.reg_name = icx_reg_name,
	.info = icx_info,
	.where = icx_where,
	.caveat = icx_caveat,
};

extern const struct event_desc icx_events[];
extern const unsigned icx_events_count;

/* No global register: each channel's box control freezes it (the UBox's
 * global control is not this run's to write). */
const struct pmu_driver pmu_driver_icx = {
	.name = "icx-imc",
	.title = "Xeon Scalable 3rd generation",
	.what = "iMC PMU",
	.status_name = "none (no overflow status is read)",
	.vendor = "GenuineIntel",
	.models = icx_models,
	.units = icx_units,
	.nunits = ICX_NUNITS,
	.events = icx_events,
	.nevents = &icx_events_count,
	.ops = &icx_ops,
};
