/* The Xeon E5-2600 (Sandy Bridge-EP) iMC driver: Intel 327043-001, the Intel Xeon
 * Processor E5-2600 Product Family Uncore Performance Monitoring Guide (read
 * through a Chinese summary of its iMC section), cross-checked with
 * Linux's arch/x86/events/intel/uncore_snbep.c (cited where used). One box
 * per (socket, channel), in PCI configuration space; the guide's sequence:
 * freeze the boxes (frz_en, then frz), program the CTLs, zero the counters
 * (no reset bit), unfreeze. Samples read each counter while it counts
 * (high, low, high dwords), so no counting time is lost. */
#include "snbep.h"
#include "ubox.h"

#include "../base/fmt.h"
#include "../engine/stat.h"

/* Sandy Bridge-EP. The later generations, with the same registers at
 * other functions and device IDs and a box control with reset bits, are
 * pmu_driver_pciimc's (pciimc.c), which shares this file's ops. */
static const struct pmu_model snbep_models[] = {
	{ 6, 0x2D, "Sandy Bridge-EP" },
	{ 0, 0, 0 },
};

int snbep_channel_of(const struct snbep_gen *g, unsigned dev, unsigned func)
{
	for (unsigned c = 0; c < g->channels; c++)
		if (g->dev[c] == dev && g->func[c] == func)
			return (int)c;
	return -1;
}

const struct snbep_gen *snbep_gen_of(const struct pmu_present *p)
{
	unsigned g = (unsigned)(p->facts[SNBEP_FACT_SOCKETS] >> SNBEP_SOCKETS_GEN_SHIFT & 0xF);

	return &snbep_gens[g < SNBEP_NGENS ? g : 0];
}

/* The generation of a CPU model (family 6): the models the two drivers match. */
static unsigned gen_id(const struct cpu_info *cpu)
{
	switch (cpu->model) {
	case 0x3E: return SNBEP_GEN_IVB;
	case 0x3F: return SNBEP_GEN_HSX;
	case 0x4F: case 0x56: return SNBEP_GEN_BDX;
	case 0x55: return SNBEP_GEN_SKX;
	default: return SNBEP_GEN_SNB;
	}
}

/* The fastest rates (max_per_sec), bounds and not measurements. The iMC's
 * counters count DRAM clocks (DCLK, half the transfer rate): SNB-EP
 * supports DDR3 up to 1600 MT/s, an 800 MHz DCLK; 2^31 Hz (2.1 GHz, the
 * DCLK of DDR3-4300) is well above any part. Intel 327043-001: a counter adds at
 * most 0x8b (139) per cycle. So 139 * 2^31 per second (3.0 * 10^11): a
 * 48-bit counter wraps in 943 s at the least, and a counter written back to
 * a small value implies a step thousands of times beyond what 100 ms
 * between samples allow. */
#define SNBEP_DCLK_MAX_HZ      (1ull << 31)
#define SNBEP_EVENTS_MAX_PER_SEC (0x8Bull * SNBEP_DCLK_MAX_HZ)

/* MC_CHy_PCI_PMON_CTL{3:0}, per Intel 327043-001 and Linux. The Chinese
 * summary's table is garbled: it gives en as bit 16 (a row that also says bits 17:16 are
 * reserved, must be 0) and puts edge_det (18) on a "7:2" row. Linux's
 * snbep definitions (SNBEP_PMON_CTL_EN bit 22, SNBEP_PMON_CTL_EDGE_DET bit
 * 18, SNBEP_PMON_CTL_INVERT bit 23, SNBEP_PMON_CTL_TRESH_MASK 31:24) and the
 * summary's own FIXED_CTL (en 22) give the consistent reading used here. */
const struct pmu_layout snbep_layout = {
	.event = { 0, 8 },
	.umask = { 8, 8 },
	.thresh = { 24, 8 },
	.inv = 1ull << 23,
	.edge = 1ull << 18,
	.enable = SNBEP_CTL_EN,
	.rw_mask = SNBEP_CTL_RW,
	.cite = "Intel 327043-001, MC_CHy_PCI_PMON_CTL",
};

/* Intel 327043-001's "Max Inc/Cyc" column, by event code: what the event adds per
 * DRAM clock at most (every other row: 1; POWER_SELF_REFRESH, 0x43: none
 * given). With the DCLK bound it bounds each event's rate (clock_hz). */
static const struct pmu_inc snbep_incs[] = {
	{ 0x01, 1 }, { 0x02, 1 }, { 0x04, 1 }, { 0x05, 1 }, { 0x06, 1 },  { 0x07, 1 },
	{ 0x08, 1 }, { 0x09, 1 }, { 0x10, 1 }, { 0x11, 1 }, { 0x12, 1 },  { 0x20, 1 },
	{ 0x21, 1 }, { 0x22, 1 }, { 0x23, 1 }, { 0x24, 1 }, { 0x41, 1 },  { 0x80, 22 },
	{ 0x81, 32 }, { 0x83, 16 }, { 0x84, 1 }, { 0x85, 4 }, { 0x86, 1 }, { 0, 0 },
};

const struct pmu_role_event snbep_roles[] = {
	{ "UNC_M_CAS_COUNT.RD", PMU_ROLE_DRAM_READ },
	{ "UNC_M_CAS_COUNT.WR", PMU_ROLE_DRAM_WRITE },
	{ NULL, 0 },
};

/* Both units live in each channel's function (p->pci[u][b], the same for
 * both units) and share its BOX_CTL, which the snapshot then saves before
 * either unit's registers, so it is restored after them. */
/* The iMC box control has no reset bit: the guide resets each channel's
 * counters by writing them (0). */
#define SNBEP_CTR_RESET "327043-001 (the E5-2600 iMC notes): iMC BOX_CTL has no reset bit; each DRAM channel's counters are reset by writing 0 to them"

static const struct pmu_unit snbep_units[SNBEP_NUNITS] = {
	[SNBEP_UNIT_IMC] = { SNBEP_IMC_UNIT, .max_per_sec = SNBEP_EVENTS_MAX_PER_SEC, .clock_hz = SNBEP_DCLK_MAX_HZ,
			     .incs = snbep_incs, .ctr_write = PMU_CTR_WRITE, .ctr_write_cite = SNBEP_CTR_RESET },
	/* The fixed counter counts DRAM clocks: en (22) in FIXED_CTL starts it. */
	[SNBEP_UNIT_FIXED] = { SNBEP_FIXED_UNIT, .max_per_sec = SNBEP_DCLK_MAX_HZ, .clock_hz = SNBEP_DCLK_MAX_HZ,
			       .ctr_write = PMU_CTR_WRITE, .ctr_write_cite = SNBEP_CTR_RESET },
};

/* The socket of an uncore bus from its UBox, as Linux numbers them
 * (uncore_snbep.c, snbep_pci2phy_map_init(g->ubox_id, CPUNODEID,
 * GIDNIDMAP, reverse)): the UBox is the function with that device ID on the
 * bus, or (g->ubox_below) on the nearest bus below it that has one;
 * CPUNODEID bits 2:0 are this socket's node ID, and GIDNIDMAP maps socket
 * i to the node ID in its bits 3i+2:3i. True with *ret_socket when a UBox
 * is found whose node ID its map holds. */
static bool ubox_socket(const struct hw *hw, const struct snbep_gen *g, uint8_t bus0, unsigned *ret_socket)
{
	for (int bus = bus0; bus >= (g->ubox_below ? 0 : bus0); bus--)
		for (unsigned dev = 0; dev < 32; dev++)
			for (unsigned fn = 0; fn < 8; fn++) {
				struct pci_addr a = { (uint8_t)bus, (uint8_t)dev, (uint8_t)fn };
				uint32_t id, node, map;
				if (ubox_read(hw, a, 0, &id))
					return false;
				if (id == 0xFFFFFFFFu && fn == 0)
					break; /* no function 0: no device */
				if (id != ((uint32_t)g->ubox_id << 16 | SNBEP_VENDOR_INTEL))
					continue;
				if (ubox_read(hw, a, g->ubox_node, &node) || ubox_read(hw, a, g->ubox_map, &map))
					return false;
				int i = ubox_socket_of(node, map);
				if (i >= 0)
					*ret_socket = (unsigned)i;
				return i >= 0;
			}
	return false;
}

/* Segment 0, every bus: a bus where one of the generation's channel
 * functions answers with one of its iMC device IDs is a socket's uncore bus
 * (0x3F and 0x7F on two E5-2600 sockets). Reads only, offset 0 (vendor and
 * device ID) of each function. A bus that no root bridge decodes is absent.
 * Sockets are numbered as their UBoxes' node IDs say (ubox_socket) when
 * every bus has one and they differ, else in bus order (SNBEP_FACT_SOCKETS
 * bit 8 says which). Every channel found is a box: at most 8 sockets (the
 * UBox's map holds 8 node IDs) of 8 channels. */
UNC_COLD static enum unc_status snbep_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want,
				   struct pmu_present *p, char *err, size_t errsize, char *warn, size_t warnsize)
{
	struct { uint8_t bus; unsigned node; uint32_t id[SNBEP_MAX_CH]; } found[SNBEP_MAX_SOCKETS], t;
	unsigned sockets = 0, nodd = 0, boxes = 0, gid = gen_id(cpu);
	const struct snbep_gen *g = &snbep_gens[gid];
	uint64_t buses = 0, present = 0, odd = 0;
	bool by_node = true;

	if (!(want & (1u << SNBEP_UNIT_IMC | 1u << SNBEP_UNIT_FIXED)))
		return UNC_OK;
	p->probed |= 1u << SNBEP_UNIT_IMC | 1u << SNBEP_UNIT_FIXED;
	if (gid == SNBEP_GEN_SKX) /* one model, three parts (Intel's perfmon mapfile: steppings 0-4 SKX, 5 on CLX) */
		p->model = cpu->stepping < 5 ? "Skylake-SP" : cpu->stepping >= 10 ? "Cooper Lake" : "Cascade Lake";
	for (unsigned bus = 0; bus <= 0xFF; bus++) {
		uint32_t id[SNBEP_MAX_CH];
		bool imc = false;
		for (unsigned c = 0; c < g->channels; c++) {
			struct pci_addr a = { (uint8_t)bus, g->dev[c], g->func[c] };
			enum unc_status st = ubox_read(hw, a, 0, &id[c]);
			if (st) {
				fmt_snprintf(err, errsize, "PCI read %02x:%02x.%x+0x0 (the iMC scan): %s", bus, a.dev, a.func,
					     unc_strerror(st));
				return st;
			}
			for (unsigned k = 0; k < g->channels; k++)
				imc |= id[c] == ((uint32_t)g->id[k] << 16 | SNBEP_VENDOR_INTEL);
		}
		if (!imc)
			continue;
		if (sockets == SNBEP_MAX_SOCKETS) {
			fmt_snprintf(err, errsize,
				     "found iMC channels on more than %u uncore buses: at most %u sockets can be counted "
				     "(the UBox's GIDNIDMAP maps 8 node IDs)",
				     SNBEP_MAX_SOCKETS, SNBEP_MAX_SOCKETS);
			return UNC_E_UNSUPPORTED;
		}
		found[sockets].bus = (uint8_t)bus;
		for (unsigned c = 0; c < g->channels; c++)
			found[sockets].id[c] = id[c];
		by_node &= ubox_socket(hw, g, (uint8_t)bus, &found[sockets].node);
		for (unsigned k = 0; by_node && k < sockets; k++)
			by_node &= found[k].node != found[sockets].node;
		sockets++;
	}
	for (unsigned i = 1; by_node && i < sockets; i++) /* by node: insertion sort, few sockets */
		for (unsigned k = i; k > 0 && found[k - 1].node > found[k].node; k--)
			t = found[k], found[k] = found[k - 1], found[k - 1] = t;
	for (unsigned s = 0; s < sockets; s++)
		for (unsigned c = 0; c < g->channels; c++)
			boxes += found[s].id[c] == ((uint32_t)g->id[c] << 16 | SNBEP_VENDOR_INTEL);
	for (unsigned u = 0; u < SNBEP_NUNITS; u++)
		if (pmu_present_room(p, u, boxes)) {
			fmt_snprintf(err, errsize, "no memory for the %u iMC channels' functions", boxes);
			return UNC_E_NO_MEMORY;
		}
	boxes = 0;
	for (unsigned s = 0; s < sockets; s++) {
		uint8_t bus = found[s].bus;
		const uint32_t *id = found[s].id;
		buses |= (uint64_t)bus << (8 * s);
		for (unsigned c = 0; c < g->channels; c++) {
			unsigned bit = s * g->channels + c;
			if (id[c] == ((uint32_t)g->id[c] << 16 | SNBEP_VENDOR_INTEL)) {
				present |= 1ull << bit;
				for (unsigned u = 0; u < SNBEP_NUNITS; u++) {
					p->pci[u][boxes] = (struct pci_addr){ bus, g->dev[c], g->func[c] };
					p->group[u][boxes] = (uint8_t)s;
					p->box_id[u][boxes] = (uint8_t)c;
				}
				boxes++;
			} else if (id[c] != 0xFFFFFFFFu) {
				odd |= 1ull << bit;
				if (nodd < SNBEP_NODD)
					p->facts[SNBEP_FACT_ODD_ID0 + nodd++] =
						1ull << 63 | (uint64_t)s << 40 | (uint64_t)c << 32 | id[c];
			}
		}
	}
	p->facts[SNBEP_FACT_BUSES] = buses;
	p->facts[SNBEP_FACT_SOCKETS] = sockets | (by_node && sockets ? SNBEP_SOCKETS_BY_NODE : 0) |
				       (uint64_t)gid << SNBEP_SOCKETS_GEN_SHIFT;
	p->facts[SNBEP_FACT_PRESENT] = present;
	p->facts[SNBEP_FACT_ODD] = odd;
	for (unsigned u = 0; u < SNBEP_NUNITS; u++)
		p->found[u] = p->boxes[u] = boxes;
	if (warnsize && !snbep_caveat(p, warn, warnsize))
		warn[0] = '\0';
	return UNC_OK;
}

/* In use when any channel's CTL0-3 or FIXED_CTL is not zero: someone's
 * programming. BOX_CTL is write only (it reads 0), so it tells nothing. */
UNC_COLD static void snbep_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
			 void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	*r = (struct pmu_use){ .known = (p->probed & 1u << SNBEP_UNIT_IMC) != 0 };
	for (unsigned b = 0; b < p->boxes[SNBEP_UNIT_IMC]; b++) {
		for (unsigned i = 0; i <= 4; i++) {
			unsigned u = i < 4 ? SNBEP_UNIT_IMC : SNBEP_UNIT_FIXED;
			struct pmu_reg reg = pmu_unit_sel(&p->drv->units[u], p, u, b, i < 4 ? i : 0);
			uint32_t v;
			if (!pmu_use_read(r, reg, hw_pci_read32(hw, reg.pci, (uint16_t)reg.addr, &v), on_fault, ctx))
				continue;
			r->selects_checked++;
			if (v)
				pmu_use_busy(r, reg, v);
		}
	}
}

static struct pmu_reg box_ctl(const struct pmu_present *p, unsigned b)
{
	return pmu_unit_box_ctl(&p->drv->units[SNBEP_UNIT_IMC], p, SNBEP_UNIT_IMC, b);
}

/* Whether a box was found frozen. BOX_CTL is write only (it reads 0), so
 * only counting tells: an enabled fixed counter (DCLK, which never stops
 * while the box counts) that stands still over 10 us, a few thousand
 * DRAM clocks. Without an enabled fixed counter, or a clock that moves,
 * nothing tells: not frozen. */
static bool found_frozen(struct pmu_io *io, const struct pmu_present *p, unsigned b)
{
	const struct pmu_unit *x = &p->drv->units[SNBEP_UNIT_FIXED];
	uint64_t ctl, v0, v, hz = io->hw->tick_hz;

	if (!hz || pmu_io_read(io, pmu_unit_sel(x, p, SNBEP_UNIT_FIXED, b, 0), &ctl) || !(ctl & SNBEP_FIXED_EN) ||
	    pmu_io_read(io, pmu_unit_ctr(x, p, SNBEP_UNIT_FIXED, b, 0), &v0))
		return false;
	uint64_t t0 = hw_ticks(io->hw);
	for (unsigned i = 0; i < 100000; i++) {
		if (pmu_io_read(io, pmu_unit_ctr(x, p, SNBEP_UNIT_FIXED, b, 0), &v) || v != v0)
			return false;
		if (hw_ticks(io->hw) - t0 >= hz / 100000)
			return true;
	}
	return false;
}

/* A box found frozen goes back frozen, with every counter as found: the
 * run unfreezes it, so the owner's enabled counters (those the run does
 * not program too) would count on. Both dwords of each are read while
 * the box is still frozen. */
static enum unc_status give_back_frozen(struct pmu_io *io, const struct pmu_present *p, unsigned b)
{
	enum unc_status st;

	for (unsigned u = 0; u < SNBEP_NUNITS; u++)
		for (unsigned c = 0; c < p->drv->units[u].counters; c++) {
			struct pmu_reg r = pmu_unit_ctr(&p->drv->units[u], p, u, b, c);
			for (unsigned half = 0; half < 2; half++, r.addr += 4) {
				uint64_t v;
				if ((st = pmu_io_read(io, r, &v)) || (st = io->ops->set_found(io, r, v)))
					return st;
			}
		}
	return io->ops->set_found(io, box_ctl(p, b), SNBEP_BOX_FRZ_EN | SNBEP_BOX_FRZ);
}

/* Intel 327043-001, "starting a monitoring session": frz_en = 1 (the box takes the
 * freeze signal), then frz = 1 (counting stops), box by box. BOX_CTL is
 * write only and reads 0, so it is not read back; bits 1:0 stay 0 (no
 * reset bit). Written through the journal, which saves it and writes it
 * back at the end: as 0 (what it reads, the box as found after a reset),
 * or frozen (frz_en | frz) when a previous owner's box was found frozen
 * (--force), so that its counters stay as it left them. */
static enum unc_status snbep_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	enum unc_status st;

	/* frz_en alone only at the run's first freeze: later (a sample, a
	 * rotation, the restore) a box may hold enabled CTLs, and frz_en
	 * without frz is an unfrozen box that counts until the next write. */
	for (unsigned b = 0; b < p->boxes[SNBEP_UNIT_IMC]; b++) {
		/* a box found frozen (bit b of s->found) is written frozen at once */
		if (s->first && io->ops->set_found && found_frozen(io, p, b)) {
			s->found |= 1ull << b;
			if ((st = give_back_frozen(io, p, b)))
				return st;
		}
		if ((s->first && !(s->found >> b & 1) && (st = pmu_io_write(io, box_ctl(p, b), SNBEP_BOX_FRZ_EN))) ||
		    (st = pmu_io_write(io, box_ctl(p, b), SNBEP_BOX_FRZ_EN | SNBEP_BOX_FRZ)))
			return st;
	}
	return UNC_OK;
}

/* frz = 0 with frz_en kept (the guide: keep frz_en set through the
 * session). Nothing to read back: BOX_CTL reads 0, and the engine has
 * read back every CTL and FIXED_CTL it wrote while the boxes were frozen. */
static enum unc_status snbep_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	enum unc_status st;

	(void)s, (void)verify;
	for (unsigned b = 0; b < p->boxes[SNBEP_UNIT_IMC]; b++)
		if ((st = pmu_io_write(io, box_ctl(p, b), SNBEP_BOX_FRZ_EN)))
			return st;
	return UNC_OK;
}

static const char *snbep_reg_name(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size);

/* A 48-bit counter in two dwords (bits 63:48 are reserved), read while it
 * counts as the engine reads any wide counter in configuration space
 * (stat_read_reg): high, low, high, and the low dword again when a carry
 * came between the highs (the low dword wraps at most once in 2^32 /
 * (139 * 2^31 Hz) = 14 ms). Freezing the box instead would stop counting
 * while it is read: counts lost at every sample. */
static enum unc_status snbep_read_counter(struct pmu_io *io, const struct pmu_present *p, unsigned unit, unsigned box,
					  unsigned idx, uint64_t *ret_val)
{
	struct pmu_reg lo = pmu_unit_ctr(&p->drv->units[unit], p, unit, box, idx);
	uint64_t v;
	enum unc_status st = stat_read_reg(io->hw, lo, 64, &v);
	char name[64];

	if (st)
		return pmu_io_fail(io, st, "PCI read %s (%02x:%02x.%x+0x%x): %s", snbep_reg_name(p, lo, name, sizeof(name)),
				   lo.pci.bus, lo.pci.dev, lo.pci.func, (unsigned)lo.addr, unc_strerror(st));
	*ret_val = v & 0xFFFFFFFFFFFFull;
	return UNC_OK;
}

/* snbep_read_counter is the two dwords read as the engine reads them,
 * masked to 48 bits (the unit's width): a sample may make it itself. */
static unsigned snbep_fast_read(const struct pmu_present *p, unsigned unit, unsigned box, unsigned idx,
				uint32_t *ret_index)
{
	(void)p, (void)unit, (void)box, (void)idx, (void)ret_index;
	return PMU_FAST_REG;
}

/* Intel 327043-001: the iMC box has no reset bit; its counters are set by writing
 * them. Both dwords of each counter, through the journal, so both are
 * put back at the end. */
UNC_COLD static enum unc_status snbep_reset_box(struct pmu_io *io, const struct pmu_present *p, unsigned unit, unsigned box,
				       uint64_t start)
{
	const struct pmu_unit *u = &p->drv->units[unit];
	enum unc_status st;

	/* Ivy Bridge-EP on: the box control's rst_ctrs (bit 1), as Linux's
	 * init_box resets them, with the box kept frozen; never the counters. */
	if (u->ctr_write == PMU_CTR_BOX_RESET)
		return pmu_io_write(io, box_ctl(p, box), SNBEP_BOX_FRZ_EN | SNBEP_BOX_FRZ | SNBEP_BOX_RST_CTRS);
	for (unsigned c = 0; c < u->counters; c++) {
		struct pmu_reg lo = pmu_unit_ctr(u, p, unit, box, c), hi = lo;
		hi.addr += 4;
		if ((st = pmu_io_write(io, lo, start & 0xFFFFFFFFu)) || (st = pmu_io_write(io, hi, start >> 32)))
			return st;
	}
	return UNC_OK;
}

/* The socket whose uncore bus this is, as the probe found it (p may be
 * NULL: a register named outside a run). */
static const char *socket_text(const struct pmu_present *p, uint8_t bus, char *buf, size_t size)
{
	unsigned sockets = p ? (unsigned)(p->facts[SNBEP_FACT_SOCKETS] & 0xFF) : 0;

	for (unsigned s = 0; s < sockets; s++)
		if ((uint8_t)(p->facts[SNBEP_FACT_BUSES] >> (8 * s)) == bus) {
			fmt_snprintf(buf, size, "socket %u", s);
			return buf;
		}
	fmt_snprintf(buf, size, "bus 0x%02x", bus);
	return buf;
}

/* Intel 327043-001's names, with the socket (or the bus, without a probe). */
UNC_COLD static const char *snbep_reg_name(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size)
{
	const struct snbep_gen *g = p ? snbep_gen_of(p) : &snbep_gens[SNBEP_GEN_SNB];
	int ch = reg.space == PMU_PCI ? snbep_channel_of(g, reg.pci.dev, reg.pci.func) : -1;
	char where[16], what[24];
	const char *half = "";

	if (ch < 0)
		return NULL;
	switch (reg.addr) {
	case SNBEP_BOX_CTL: fmt_snprintf(what, sizeof(what), "BOX_CTL"); break;
	case SNBEP_FIXED_CTL: fmt_snprintf(what, sizeof(what), "FIXED_CTL"); break;
	case SNBEP_FIXED_CTR + 4: half = "[47:32]"; /* fall through */
	case SNBEP_FIXED_CTR: fmt_snprintf(what, sizeof(what), "FIXED_CTR"); break;
	default:
		if (reg.addr >= SNBEP_CTL0 && reg.addr < SNBEP_CTL0 + 16 && reg.addr % 4 == 0)
			fmt_snprintf(what, sizeof(what), "CTL%u", (unsigned)(reg.addr - SNBEP_CTL0) / 4);
		else if (reg.addr >= SNBEP_CTR0 && reg.addr < SNBEP_CTR0 + 32 && reg.addr % 4 == 0) {
			fmt_snprintf(what, sizeof(what), "CTR%u", (unsigned)(reg.addr - SNBEP_CTR0) / 8);
			if (reg.addr % 8)
				half = "[47:32]";
		} else
			return NULL;
	}
	fmt_snprintf(buf, size, "MC_CH%d_PCI_PMON_%s%s (%s)", ch, what, half, socket_text(p, reg.pci.bus, where, sizeof(where)));
	return buf;
}

UNC_COLD static void snbep_where(const struct pmu_present *p, unsigned unit, char *buf, size_t size)
{
	struct strbuf sb;
	unsigned sockets = (unsigned)(p->facts[SNBEP_FACT_SOCKETS] & 0xFF);

	(void)unit;
	strbuf_init(&sb, buf, size);
	struct out o = strbuf_out(&sb);
	/* After "IMC counters " in bw's header. */
	out_printf(&o, "in %u channel%s on bus%s ", p->boxes[SNBEP_UNIT_IMC], p->boxes[SNBEP_UNIT_IMC] == 1 ? "" : "s",
		   sockets == 1 ? "" : "es");
	for (unsigned s = 0; s < sockets; s++)
		out_printf(&o, "%s0x%02x", s ? ", " : "", (unsigned)(p->facts[SNBEP_FACT_BUSES] >> (8 * s)) & 0xFF);
	out_puts(&o, " (CAS_COUNT.RD and .WR)");
}

unsigned snbep_max_inc(uint8_t code)
{
	for (const struct pmu_inc *x = snbep_incs; x->max; x++)
		if (x->code == code)
			return x->max;
	return 0;
}

/* A threshold compares the event's increment in each cycle: one above the
 * most the event can add per cycle is never reached (with inv, always), so
 * the count would mean nothing. Codes the guide does not list (raw) and
 * POWER_SELF_REFRESH (no Max Inc/Cyc given) are taken as given. */
UNC_COLD static bool snbep_event_ok(const struct pmu_present *p, unsigned unit, uint8_t code, uint8_t umask, uint8_t thresh,
			   char *err, size_t errsize)
{
	unsigned max = unit == SNBEP_UNIT_IMC && p && p->drv == &pmu_driver_snbep ? snbep_max_inc(code) : 0;

	(void)umask;
	if (!max || thresh <= max)
		return true;
	fmt_snprintf(err, errsize,
		     "threshold %u is above event 0x%02x's most per cycle (%u, Intel 327043-001's Max Inc/Cyc): never met, "
		     "or with inv always met",
		     thresh, code, max);
	return false;
}

const struct pmu_ops snbep_ops = {
	.probe = snbep_probe,
	.in_use = snbep_in_use,
	.freeze = snbep_freeze,
	.unfreeze = snbep_unfreeze,
	.read_counter = snbep_read_counter,
	.fast_read = snbep_fast_read,
	.reset_box = snbep_reset_box,
	.reg_name = snbep_reg_name,
	.info = snbep_info,
	.where = snbep_where,
	.event_ok = snbep_event_ok,
	.caveat = snbep_caveat,
};

extern const struct event_desc snbep_events[];
extern const unsigned snbep_events_count;

/* No global register: the Ubox's global control is not this run's to
 * write; each channel's BOX_CTL freezes it. */
const struct pmu_driver pmu_driver_snbep = {
	.name = "snbep-imc",
	.title = "Xeon E5-2600",
	.what = "iMC PMU",
	.status_name = "none (the iMC has no overflow status)",
	.vendor = "GenuineIntel",
	.models = snbep_models,
	.units = snbep_units,
	.nunits = SNBEP_NUNITS,
	.events = snbep_events,
	.nevents = &snbep_events_count,
	.ops = &snbep_ops,
};
