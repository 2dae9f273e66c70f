/* The Xeon E5-2600 (Sandy Bridge-EP) iMC: the channel functions'
 * configuration space and how their counters count. Typed from Intel 327043-001
 * (register offsets and fields, the event table with "Max Inc/Cyc"), with
 * the device IDs of Linux's snbep_uncore_pci_ids and the unit masks of
 * Intel's perfmon JKT uncore file (JKT/events/Jaketown_uncore.json), not
 * taken from the application.
 *
 * The Chinese summary of Intel 327043-001 garbles the CTL table: it gives
 * en as bit 16 (and 17:16 as
 * must-be-0) and puts edge_det 18 on a "7:2" row. The model follows the
 * consistent reading, Linux's SNBEP_PMON_CTL_* (en 22, edge 18, invert 23,
 * thresh 31:24), keeping 17:16 must-be-0. */
#include "model.h"

#include "../../drivers/base/parse.h"

const uint8_t emu_snbep_bus[EMU_SNBEP_MAX_SOCKETS] = { 0x3F, 0x7F, 0xBF, 0xFF, 0x1F, 0x5F, 0x9F, 0xDF };
const uint8_t emu_snbep_func[EMU_SNBEP_CHANNELS] = { 0, 1, 4, 5 };
/* Linux uncore_snbep.c, snbep_uncore_pci_ids: PCI_DEVICE_ID_INTEL_UNC_IMC0..3. */
const uint16_t emu_snbep_device_id[EMU_SNBEP_CHANNELS] = { 0x3CB0, 0x3CB1, 0x3CB4, 0x3CB5 };
#define VENDOR_INTEL 0x8086u

/* Each generation's channels (dev.func, ID) and UBox. Sources: Linux
 * uncore_snbep.c, snbep/ivbep/hswep/bdx/skx_uncore_pci_ids (IDs, channel
 * order), snbep_pci2phy_map_init's arguments (UBox ID, CPUNODEID 0x40 and
 * GIDNIDMAP 0x54, SKX_CPUNODEID 0xc0 and SKX_GIDNIDMAP 0xd4; reverse false
 * on Skylake-SP only: a bus takes the node of the UBox bus below it), and
 * PCM src/types.h (JKTIVT_, HSX_ and SKX_MC*_CH*_REGISTER_DEV/FUNC_ADDR)
 * and pcm-iio-topology.cpp (SKX_UBOX_DEVICE_NUM 8, FUNCTION_NUM 2). Linux
 * finds a UBox by its ID alone; the emulator serves it where public Linux
 * boot logs ("pci 0000:ff:DD.F: [8086:ID]") show it on each generation:
 * SNB 3CE0 and IVB 0E1E at 0b.0 (11.0), SKX 2014 at 08.0 (PCM's 8.2 is
 * 2016, another function), HSX 2F1E and BDX 6F1E at 10.5 (16.5) with
 * function 0 of that device 2F1D and 6F1D, which the emulator serves read
 * only (ID only), so that a scan that skips a device without function 0
 * finds it as on hardware. Skylake-SP's goes one bus below the iMC's, which
 * Linux's mapping (reverse false) gives the same socket. */
const struct emu_imc_gen emu_imc_gens[EMU_NGENS] = {
	[EMU_GEN_SNB] = { "Sandy Bridge-EP", "snbep", 4, { 16, 16, 16, 16 }, { 0, 1, 4, 5 },
			  { 0x3CB0, 0x3CB1, 0x3CB4, 0x3CB5 }, 0x3CE0, 11, 0, 0x40, 0x54, 0, false },
	[EMU_GEN_IVB] = { "Ivy Bridge-EP", "ivbep", 8, { 16, 16, 16, 16, 30, 30, 30, 30 }, { 4, 5, 0, 1, 4, 5, 0, 1 },
			  { 0x0EB4, 0x0EB5, 0x0EB0, 0x0EB1, 0x0EF4, 0x0EF5, 0x0EF0, 0x0EF1 }, 0x0E1E, 11, 0, 0x40, 0x54, 0, true },
	[EMU_GEN_HSX] = { "Haswell-EP", "hswep", 8, { 20, 20, 21, 21, 23, 23, 24, 24 }, { 0, 1, 0, 1, 0, 1, 0, 1 },
			  { 0x2FB0, 0x2FB1, 0x2FB4, 0x2FB5, 0x2FD0, 0x2FD1, 0x2FD4, 0x2FD5 }, 0x2F1E, 16, 5, 0x40, 0x54, 0, true, 0x2F1D },
	[EMU_GEN_BDX] = { "Broadwell-EP", "bdx", 8, { 20, 20, 21, 21, 23, 23, 24, 24 }, { 0, 1, 0, 1, 0, 1, 0, 1 },
			  { 0x6FB0, 0x6FB1, 0x6FB4, 0x6FB5, 0x6FD0, 0x6FD1, 0x6FD4, 0x6FD5 }, 0x6F1E, 16, 5, 0x40, 0x54, 0, true, 0x6F1D },
	[EMU_GEN_SKX] = { "Skylake-SP", "skx", 6, { 10, 10, 11, 12, 12, 13 }, { 2, 6, 2, 2, 6, 2 },
			  { 0x2042, 0x2046, 0x204A, 0x2042, 0x2046, 0x204A }, 0x2014, 8, 0, 0xC0, 0xD4, -1, true },
};

int emu_imc_gen_for(unsigned model)
{
	switch (model) {
	case 0x2D: return EMU_GEN_SNB;
	case 0x3E: return EMU_GEN_IVB;
	case 0x3F: return EMU_GEN_HSX;
	case 0x4F: case 0x56: return EMU_GEN_BDX; /* Broadwell-EP, -DE */
	case 0x55: return EMU_GEN_SKX;            /* Skylake-SP, Cascade Lake, Cooper Lake */
	default: return -1;
	}
}

/* Intel 327043-001, the iMC event table ("iMC Box 事件表" in the Chinese
 * summary): every row, code and Max Inc/Cyc; the unit
 * masks are Intel's (JKT uncore file; CAS_COUNT also Linux's
 * snbep_uncore_imc_events: cas_count_read umask 0x03, cas_count_write 0x0C).
 * POWER_SELF_REFRESH has no Max Inc/Cyc in the guide; it counts cycles, so 1. */
const struct emu_snbep_event emu_snbep_events[] = {
	{ "UNC_M_ACT_COUNT", 0x01, 0x00, 1 },
	{ "UNC_M_PRE_COUNT.PAGE_MISS", 0x02, 0x01, 1 },
	{ "UNC_M_PRE_COUNT.PAGE_CLOSE", 0x02, 0x02, 1 },
	{ "UNC_M_CAS_COUNT.RD_REG", 0x04, 0x01, 1 },
	{ "UNC_M_CAS_COUNT.RD_UNDERFILL", 0x04, 0x02, 1 },
	{ "UNC_M_CAS_COUNT.RD", 0x04, 0x03, 1 },
	{ "UNC_M_CAS_COUNT.WR_WMM", 0x04, 0x04, 1 },
	{ "UNC_M_CAS_COUNT.WR_RMM", 0x04, 0x08, 1 },
	{ "UNC_M_CAS_COUNT.WR", 0x04, 0x0C, 1 },
	{ "UNC_M_CAS_COUNT.ALL", 0x04, 0x0F, 1 },
	{ "UNC_M_DRAM_REFRESH.PANIC", 0x05, 0x02, 1 },
	{ "UNC_M_DRAM_REFRESH.HIGH", 0x05, 0x04, 1 },
	{ "UNC_M_DRAM_PRE_ALL", 0x06, 0x00, 1 },
	{ "UNC_M_MAJOR_MODES.READ", 0x07, 0x01, 1 },
	{ "UNC_M_MAJOR_MODES.WRITE", 0x07, 0x02, 1 },
	{ "UNC_M_MAJOR_MODES.PARTIAL", 0x07, 0x04, 1 },
	{ "UNC_M_MAJOR_MODES.ISOCH", 0x07, 0x08, 1 },
	{ "UNC_M_PREEMPTION.RD_PREEMPT_RD", 0x08, 0x01, 1 },
	{ "UNC_M_PREEMPTION.RD_PREEMPT_WR", 0x08, 0x02, 1 },
	{ "UNC_M_ECC_CORRECTABLE_ERRORS", 0x09, 0x00, 1 },
	{ "UNC_M_RPQ_INSERTS", 0x10, 0x00, 1 },
	{ "UNC_M_RPQ_CYCLES_NE", 0x11, 0x00, 1 },
	{ "UNC_M_RPQ_CYCLES_FULL", 0x12, 0x00, 1 },
	{ "UNC_M_WPQ_INSERTS", 0x20, 0x00, 1 },
	{ "UNC_M_WPQ_CYCLES_NE", 0x21, 0x00, 1 },
	{ "UNC_M_WPQ_CYCLES_FULL", 0x22, 0x00, 1 },
	{ "UNC_M_WPQ_READ_HIT", 0x23, 0x00, 1 },
	{ "UNC_M_WPQ_WRITE_HIT", 0x24, 0x00, 1 },
	{ "UNC_M_POWER_THROTTLE_CYCLES.RANK0", 0x41, 0x01, 1 },
	{ "UNC_M_POWER_THROTTLE_CYCLES.RANK1", 0x41, 0x02, 1 },
	{ "UNC_M_POWER_THROTTLE_CYCLES.RANK2", 0x41, 0x04, 1 },
	{ "UNC_M_POWER_THROTTLE_CYCLES.RANK3", 0x41, 0x08, 1 },
	{ "UNC_M_POWER_THROTTLE_CYCLES.RANK4", 0x41, 0x10, 1 },
	{ "UNC_M_POWER_THROTTLE_CYCLES.RANK5", 0x41, 0x20, 1 },
	{ "UNC_M_POWER_THROTTLE_CYCLES.RANK6", 0x41, 0x40, 1 },
	{ "UNC_M_POWER_THROTTLE_CYCLES.RANK7", 0x41, 0x80, 1 },
	{ "UNC_M_POWER_SELF_REFRESH", 0x43, 0x00, 1 },
	{ "UNC_M_RPQ_OCCUPANCY", 0x80, 0x00, 22 },
	{ "UNC_M_WPQ_OCCUPANCY", 0x81, 0x00, 32 },
	{ "UNC_M_POWER_CKE_CYCLES.RANK0", 0x83, 0x01, 16 },
	{ "UNC_M_POWER_CKE_CYCLES.RANK1", 0x83, 0x02, 16 },
	{ "UNC_M_POWER_CKE_CYCLES.RANK2", 0x83, 0x04, 16 },
	{ "UNC_M_POWER_CKE_CYCLES.RANK3", 0x83, 0x08, 16 },
	{ "UNC_M_POWER_CKE_CYCLES.RANK4", 0x83, 0x10, 16 },
	{ "UNC_M_POWER_CKE_CYCLES.RANK5", 0x83, 0x20, 16 },
	{ "UNC_M_POWER_CKE_CYCLES.RANK6", 0x83, 0x40, 16 },
	{ "UNC_M_POWER_CKE_CYCLES.RANK7", 0x83, 0x80, 16 },
	{ "UNC_M_POWER_CHANNEL_DLLOFF", 0x84, 0x00, 1 },
	{ "UNC_M_POWER_CHANNEL_PPD", 0x85, 0x00, 4 },
	{ "UNC_M_POWER_CRITICAL_THROTTLE_CYCLES", 0x86, 0x00, 1 },
};
const unsigned emu_snbep_nevents = sizeof(emu_snbep_events) / sizeof(emu_snbep_events[0]);

#define PREFIX "UNC_M_"

/* name is Intel's, or the guide's without the prefix. */
static bool name_is(const char *name, const char *intel)
{
	return str_ieq(name, intel) || str_ieq(name, intel + sizeof(PREFIX) - 1);
}

const struct emu_snbep_event *emu_snbep_event_find(const char *name)
{
	for (unsigned i = 0; i < emu_snbep_nevents; i++)
		if (name_is(name, emu_snbep_events[i].name))
			return &emu_snbep_events[i];
	return NULL;
}

bool emu_snbep_is_dclk(const char *name)
{
	return name_is(name, PREFIX "DCLOCKTICKS") || name_is(name, PREFIX "CLOCKTICKS");
}

int emu_snbep_box_of(unsigned g, uint8_t bus, uint8_t dev, uint8_t func)
{
	const struct emu_imc_gen *x = &emu_imc_gens[g < EMU_NGENS ? g : 0];

	for (int s = 0; s < EMU_SNBEP_MAX_SOCKETS; s++)
		for (int c = 0; c < x->channels; c++)
			if (bus == emu_snbep_bus[s] && dev == x->dev[c] && func == x->func[c])
				return s * EMU_SNBEP_MAX_CH + c;
	return -1;
}

/* Intel 327043-001's fields. CTL: ev_sel 7:0, umask 15:8, edge 18, en 22, invert
 * 23, thresh 31:24 read-write, 17:16 must be 0, 21:19 reserved.
 * FIXED_CTL: en 22 read-write, rst 19 write-only, the rest reserved.
 * BOX_CTL: frz_en 16 and frz 8 write-only, 17 and 1:0 must be 0, the rest
 * reserved. Counters: 47:0 read-write, 63:48 reserved. */
#define CTL_RW      0xFFC4FFFFu
#define CTL_MBZ     0x00030000u
#define FIXED_RW    EMU_SNBEP_EN
#define BOX_WO      (EMU_SNBEP_BOX_FRZ_EN | EMU_SNBEP_BOX_FRZ)
#define BOX_MBZ     0x00020003u
#define BOX_MBZ_IVB 0x00020000u /* Ivy Bridge-EP on: bits 1:0 are the resets */
#define CTL_EDGE    (1u << 18)
#define CTL_INV     (1u << 23)
#define CTL_THR(v)  (((v) >> 24) & 0xff)

/* Intel 327043-001's PCICFG addresses, per channel function (D16:F0,1,4,5). */
const struct emu_snbep_reg emu_snbep_regs[] = {
	{ "VID_DID", 0x00, 1, 4, EMU_SNBEP_ID, 0, 0, 0, 0 },
	{ "MC_CHy_PCI_PMON_CTR0 (47:0 low)", 0xA0, 4, 8, EMU_SNBEP_CTR_LO, 0, 0xFFFFFFFFu, 0, 0 },
	{ "MC_CHy_PCI_PMON_CTR0 (47:0 high)", 0xA4, 4, 8, EMU_SNBEP_CTR_HI, 0, 0x0000FFFFu, 0, 0 },
	{ "MC_CHy_PCI_PMON_FIXED_CTR (low)", 0xD0, 1, 4, EMU_SNBEP_CTR_LO, EMU_SNBEP_FIXED, 0xFFFFFFFFu, 0, 0 },
	{ "MC_CHy_PCI_PMON_FIXED_CTR (high)", 0xD4, 1, 4, EMU_SNBEP_CTR_HI, EMU_SNBEP_FIXED, 0x0000FFFFu, 0, 0 },
	{ "MC_CHy_PCI_PMON_CTL0", 0xD8, 4, 4, EMU_SNBEP_CTL, 0, CTL_RW, 0, CTL_MBZ },
	{ "MC_CHy_PCI_PMON_FIXED_CTL", 0xF0, 1, 4, EMU_SNBEP_FIXED_CTL, EMU_SNBEP_FIXED, FIXED_RW, EMU_SNBEP_FIXED_RST, 0 },
	{ "MC_CHy_PCI_PMON_BOX_CTL", 0xF4, 1, 4, EMU_SNBEP_BOX_CTL, 0, 0, BOX_WO, BOX_MBZ },
};
const unsigned emu_snbep_nregs = sizeof(emu_snbep_regs) / sizeof(emu_snbep_regs[0]);

static const struct emu_snbep_reg *reg_at(uint16_t off, unsigned *ret_i)
{
	for (unsigned r = 0; r < emu_snbep_nregs; r++) {
		const struct emu_snbep_reg *g = &emu_snbep_regs[r];
		if (off >= g->off && (off - g->off) % g->stride == 0 && (off - g->off) / g->stride < g->n) {
			*ret_i = (off - g->off) / g->stride;
			return g;
		}
	}
	return NULL;
}

static const struct emu_imc_gen *gen(const struct emu *e)
{
	return &emu_imc_gens[e->cfg.pci_gen < EMU_NGENS ? e->cfg.pci_gen : 0];
}

static struct emu_ctr *box_ctr(struct emu *e, unsigned box, unsigned i)
{
	return &e->ctr[box * EMU_SNBEP_BOX_CTRS + i];
}

static unsigned box_of_ctr(const struct emu *e, const struct emu_ctr *c)
{
	return (unsigned)(c - e->ctr) / EMU_SNBEP_BOX_CTRS;
}

/* The function's injected fault, if any: -1 none, else enum emu_pci_fault. */
static int fault_of(const struct emu *e, const struct emu_pci_dev *d)
{
	for (unsigned i = 0; i < e->cfg.npci_fault; i++)
		if (e->cfg.pci_fault[i].bus == d->bus && e->cfg.pci_fault[i].dev == d->dev &&
		    e->cfg.pci_fault[i].func == d->func)
			return e->cfg.pci_fault[i].kind;
	return -1;
}

/* A socket beyond --sockets is not there: the real root bridge answers. */
static bool present(const struct emu *e, const struct emu_pci_dev *d)
{
	return d->box < e->ncbo;
}

static enum unc_status snbep_read32(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t *ret_val)
{
	unsigned i = 0;

	if (!present(e, d))
		return UNC_E_NOT_FOUND;
	/* A missing function reads all ones, as on real hardware. */
	if (fault_of(e, d) == EMU_PCI_MISSING) {
		*ret_val = 0xFFFFFFFFu;
		return UNC_OK;
	}
	const struct emu_snbep_reg *g = reg_at(off, &i);
	uint32_t v = 0;
	if (g) {
		switch (g->kind) {
		case EMU_SNBEP_CTR_LO: v = (uint32_t)box_ctr(e, d->box, g->ctr + i)->value; break;
		case EMU_SNBEP_CTR_HI: v = (uint32_t)(box_ctr(e, d->box, g->ctr + i)->value >> 32); break;
		case EMU_SNBEP_CTL:
		case EMU_SNBEP_FIXED_CTL: v = (uint32_t)box_ctr(e, d->box, g->ctr + i)->sel; break;
		default: v = 0; break; /* BOX_CTL: write-only and reserved bits only */
		}
		v &= g->rw;
		if (g->kind == EMU_SNBEP_ID) /* read-only */
			v = VENDOR_INTEL | (uint32_t)gen(e)->id[d->box % EMU_SNBEP_MAX_CH] << 16;
		if (g->kind == EMU_SNBEP_BOX_CTL && gen(e)->box_rst) /* frz_en and frz read back */
			v = e->box_ctl[d->box];
	}
	/* Offsets the table does not list read 0. */
	*ret_val = v;
	return UNC_OK;
}

static enum unc_status snbep_write32(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t val)
{
	unsigned i = 0;

	if (!present(e, d))
		return UNC_E_NOT_FOUND;
	if (fault_of(e, d) >= 0) /* missing, or writes that do not stick */
		return UNC_OK;
	const struct emu_snbep_reg *g = reg_at(off, &i);
	if (!g)
		return UNC_OK; /* offsets the table does not list drop writes */
	uint32_t mbz = g->kind == EMU_SNBEP_BOX_CTL && gen(e)->box_rst ? BOX_MBZ_IVB : g->mbz;
	if ((val & mbz) && e->mbz.n++ == 0)
		e->mbz.bus = d->bus, e->mbz.dev = d->dev, e->mbz.func = d->func, e->mbz.off = off, e->mbz.val = val;
	struct emu_ctr *c = box_ctr(e, d->box, g->ctr + i);
	int r = emu_ro_of_unit(c->unit);
	bool ro = r >= 0 && emu_ro(&e->cfg, (unsigned)r); /* --fault ro-counters: the counter keeps its value */
	switch (g->kind) {
	case EMU_SNBEP_CTR_LO: c->value = ro ? c->value : (c->value & ~0xFFFFFFFFull) | (val & g->rw); break;
	case EMU_SNBEP_CTR_HI: c->value = ro ? c->value : (c->value & 0xFFFFFFFFull) | (uint64_t)(val & g->rw) << 32; break;
	case EMU_SNBEP_CTL: c->sel = val & g->rw; break;
	case EMU_SNBEP_FIXED_CTL:
		c->sel = val & g->rw;
		if ((val & EMU_SNBEP_FIXED_RST) && !ro)
			c->value = 0;
		break;
	case EMU_SNBEP_BOX_CTL:
		e->box_ctl[d->box] = val & BOX_WO;
		/* Ivy Bridge-EP on: rst_ctrs zeroes the box's five counters,
		 * rst_ctrl its four CTLs and FIXED_CTL; both act and read 0 */
		for (unsigned k = 0; gen(e)->box_rst && k < EMU_SNBEP_BOX_CTRS; k++) {
			struct emu_ctr *x = box_ctr(e, d->box, k);
			if (val & EMU_BOX_RST_CTRS && !ro)
				x->value = 0;
			if (val & EMU_BOX_RST_CTRL)
				x->sel = 0;
		}
		break;
	default: break; /* the ID is read-only */
	}
	return UNC_OK;
}

/* Each socket's UBox, for numbering the sockets as Linux does
 * (uncore_snbep.c: snbep_pci2phy_map_init(ID, CPUNODEID, GIDNIDMAP, ...)):
 * the generation's device ID, the socket's node ID in CPUNODEID bits 2:0,
 * and GIDNIDMAP's 3 bits per socket giving each socket's node ID. Socket s
 * is node s (GIDNIDMAP maps socket i to node i). Read only: writes are
 * dropped, and other offsets read 0. */
static enum unc_status ubox_read32(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t *ret_val)
{
	const struct emu_imc_gen *x = gen(e);
	unsigned socket = d->box / EMU_SNBEP_MAX_CH;
	uint32_t map = 0;

	if (!present(e, d))
		return UNC_E_NOT_FOUND;
	for (unsigned i = 0; i < EMU_SNBEP_MAX_SOCKETS; i++)
		map |= i << (3 * i);
	*ret_val = off == 0 ? VENDOR_INTEL | (uint32_t)x->ubox_id << 16 : off == x->ubox_node ? socket
		 : off == x->ubox_map ? map : 0;
	return UNC_OK;
}

static enum unc_status ubox_write32(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t val)
{
	(void)off, (void)val;
	return present(e, d) ? UNC_OK : UNC_E_NOT_FOUND;
}

/* Function 0 of the UBox's device where the UBox is another function (HSX
 * and BDX): its ID; other offsets read 0, writes are dropped. */
static enum unc_status fn0_read32(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t *ret_val)
{
	if (!present(e, d))
		return UNC_E_NOT_FOUND;
	*ret_val = off == 0 ? VENDOR_INTEL | (uint32_t)gen(e)->ubox_fn0 << 16 : 0;
	return UNC_OK;
}

unsigned emu_snbep_pci(unsigned g, struct emu_pci_dev *d)
{
	const struct emu_imc_gen *x = &emu_imc_gens[g < EMU_NGENS ? g : 0];
	unsigned n = 0;

	for (unsigned s = 0; s < EMU_SNBEP_MAX_SOCKETS; s++)
		for (unsigned c = 0; c < x->channels; c++)
			d[n++] = (struct emu_pci_dev){ emu_snbep_bus[s], x->dev[c], x->func[c], snbep_read32, snbep_write32,
						       (uint8_t)(s * EMU_SNBEP_MAX_CH + c) };
	for (unsigned s = 0; s < EMU_SNBEP_MAX_SOCKETS; s++)
		d[n++] = (struct emu_pci_dev){ (uint8_t)(emu_snbep_bus[s] + x->ubox_bus), x->ubox_dev, x->ubox_func, ubox_read32,
					       ubox_write32, (uint8_t)(s * EMU_SNBEP_MAX_CH) };
	for (unsigned s = 0; x->ubox_func && s < EMU_SNBEP_MAX_SOCKETS; s++)
		d[n++] = (struct emu_pci_dev){ (uint8_t)(emu_snbep_bus[s] + x->ubox_bus), x->ubox_dev, 0, fn0_read32,
					       ubox_write32, (uint8_t)(s * EMU_SNBEP_MAX_CH) };
	return n;
}

static void snbep_init(struct emu *e)
{
	e->ncbo = (e->cfg.sockets ? e->cfg.sockets : EMU_SNBEP_DEFAULT_SOCKETS) * EMU_SNBEP_MAX_CH;
	e->npci = emu_snbep_pci(e->cfg.pci_gen, e->pci_own);
	e->pci = e->pci_own;
	e->clock_hz = e->cfg.dclk_hz ? e->cfg.dclk_hz : EMU_SNBEP_DEFAULT_DCLK;
	for (unsigned b = 0; b < EMU_SNBEP_BOXES; b++) {
		for (unsigned i = 0; i < EMU_SNBEP_BOX_CTRS; i++) {
			*box_ctr(e, b, i) = (struct emu_ctr){ .width = 48,
							      .unit = i == EMU_SNBEP_FIXED ? EMU_UNIT_IMC_FIXED
										       : EMU_UNIT_IMC,
							      .index = (uint8_t)i };
		}
	}
}

/* No global enable: each box has its freeze. */
static bool snbep_enabled(const struct emu *e)
{
	(void)e;
	return true;
}

/* A counter counts while its en is set and its box is not frozen: frozen
 * is frz_en and frz both set in the box control's last write. */
static bool snbep_ctr_enabled(const struct emu *e, const struct emu_ctr *c)
{
	uint32_t box = e->box_ctl[box_of_ctr(e, c)];
	return (c->sel & EMU_SNBEP_EN) && (box & BOX_WO) != BOX_WO;
}

/* Intel 327043-001 describes no overflow status for the iMC: a wrap sets nothing. */
static bool snbep_ovf_forwarded(const struct emu_ctr *c)
{
	(void)c;
	return false;
}

/* The rate a select (code, umask U) counts: the sum of the rates given for
 * that code whose unit mask is a subset of U (the rates of one code are
 * given on disjoint unit masks: options.c). An event without a unit mask
 * (0) is a subset of any: its select's umask is ignored. */
static uint64_t rate_of(const struct emu *e, uint8_t code, uint8_t umask)
{
	uint64_t r = 0;

	for (unsigned i = 0; i < e->cfg.nrates; i++) {
		const struct emu_rate *x = &e->cfg.rates[i];
		if (x->unit == EMU_UNIT_IMC && x->code == code && !(x->umask & ~umask))
			r += x->per_sec;
	}
	return r;
}

/* The fixed counter adds one per DCLK cycle; a general counter its event
 * spread evenly over DCLK cycles, through thresh, invert and edge
 * (emu_spread). */
static uint64_t snbep_increment(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1)
{
	if (c->unit == EMU_UNIT_IMC_FIXED)
		return c1 - c0;
	uint32_t sel = (uint32_t)c->sel;
	/* From Ivy Bridge-EP on event 0x00 counts DRAM clocks on a general
	 * counter (Intel's IVT file, UNC_M_DCLOCKTICKS event 0x00 on counters
	 * 0-3; Linux's hswep_uncore_imc_events, clockticks event=0x00; Intel's
	 * HSX to CLX files, UNC_M_CLOCKTICKS) */
	uint64_t r = (sel & 0xff) == 0 && e->cfg.pci_gen >= EMU_GEN_IVB ? e->clock_hz
										   : rate_of(e, sel & 0xff, (sel >> 8) & 0xff);
	return emu_spread(e->clock_hz, r, c0, c1, CTL_THR(sel), sel & CTL_INV, sel & CTL_EDGE);
}

/* No MSR, no RDPMC: configuration space only. */
const struct emu_pmu emu_pmu_snbep = {
	.name = "snbep",
	.nctr = EMU_SNBEP_CTRS,
	.ops = {
		.init = snbep_init,
		.enabled = snbep_enabled,
		.ctr_enabled = snbep_ctr_enabled,
		.ovf_forwarded = snbep_ovf_forwarded,
		.freeze_on_ovf = emu_core_no_freeze, /* no freeze on overflow (pmu_core.c's no-ops) */
		.freeze = emu_core_freeze,
		.increment = snbep_increment,
	},
};
