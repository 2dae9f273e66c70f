/* The Xeon E5-2600 (Sandy Bridge-EP) iMC driver (drivers/pmu/snbep.c)
 * against Intel 327043-001 and Linux's uncore_snbep.c: conformance with literals
 * typed from the guide (offsets, fields, every row of its iMC event table)
 * and Linux (unit masks, device IDs), and the engine running the driver on
 * a strict model of the channels' configuration space: every access must
 * be to a declared function and register (a read of device 16 on another
 * bus answers all ones, as absent PCI functions do), every write is logged,
 * BOX_CTL is write only (reads 0) and freezes counting, and the counters
 * are 48 bits in two dwords. */
#include <stdio.h>
#include <string.h>

#include "../../drivers/base/cpu.h"
#include "../../drivers/engine/info.h"
#include "../../drivers/pmu/snbep.h"
#include "../../drivers/engine/stat.h"
#include "fake_hw.h"
#include "run_help.h"
#include "t.h"

#define S  1000000000ull
#define MS 1000000ull
#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MASK48 0xFFFFFFFFFFFFull

/* ---- Intel 327043-001, typed from its text ---- */

/* The address table and the field tables. */
#define BOX_CTL      0xF4u
#define FIXED_CTL    0xF0u
#define CTL0         0xD8u /* CTL3 at 0xE4 */
#define FIXED_CTR_LO 0xD0u
#define FIXED_CTR_HI 0xD4u
#define CTR0_LO      0xA0u /* CTR3's high dword at 0xBC */
#define FRZ_EN       0x10000u /* bit 16 */
#define FRZ          0x100u   /* bit 8 */
#define FIXED_EN     0x400000u /* bit 22 */
/* CTL: ev_sel 7:0, umask 15:8, edge_det 18, en 22 (Linux; the Chinese
 * summary's row says 16), invert 23, thresh 31:24 */
#define CTL_EN       0x400000u

/* The iMC event table: name, code, counters, Max Inc/Cyc (0: blank). */
static const struct {
	const char *name;
	unsigned code;
	const char *ctrs;
	unsigned max_inc;
} seed_events[] = {
	{ "ACT_COUNT", 0x01, "0-3", 1 },
	{ "PRE_COUNT", 0x02, "0-3", 1 },
	{ "CAS_COUNT", 0x04, "0-3", 1 },
	{ "DRAM_REFRESH", 0x05, "0-3", 1 },
	{ "DRAM_PRE_ALL", 0x06, "0-3", 1 },
	{ "MAJOR_MODES", 0x07, "0-3", 1 },
	{ "PREEMPTION", 0x08, "0-3", 1 },
	{ "ECC_CORRECTABLE_ERRORS", 0x09, "0-3", 1 },
	{ "RPQ_INSERTS", 0x10, "0-3", 1 },
	{ "RPQ_CYCLES_NE", 0x11, "0-3", 1 },
	{ "RPQ_CYCLES_FULL", 0x12, "0-3", 1 },
	{ "WPQ_INSERTS", 0x20, "0-3", 1 },
	{ "WPQ_CYCLES_NE", 0x21, "0-3", 1 },
	{ "WPQ_CYCLES_FULL", 0x22, "0-3", 1 },
	{ "WPQ_READ_HIT", 0x23, "0-3", 1 },
	{ "WPQ_WRITE_HIT", 0x24, "0-3", 1 },
	{ "POWER_THROTTLE_CYCLES", 0x41, "0-3", 1 },
	{ "POWER_SELF_REFRESH", 0x43, "0-3", 0 },
	{ "RPQ_OCCUPANCY", 0x80, "0-3", 22 },
	{ "WPQ_OCCUPANCY", 0x81, "0-3", 32 },
	{ "POWER_CKE_CYCLES", 0x83, "0-3", 16 },
	{ "POWER_CHANNEL_DLLOFF", 0x84, "0-3", 1 },
	{ "POWER_CHANNEL_PPD", 0x85, "0-3", 4 },
	{ "POWER_CRITICAL_THROTTLE_CYCLES", 0x86, "0-3", 1 },
};

/* Unit masks the guide does not give: Linux's snbep_uncore_imc_events
 * (cas_count_read event=0x04,umask=0x03; cas_count_write umask=0x0c) and
 * Intel's JKT file (CAS_COUNT.ALL 0x0F). */
static const struct {
	const char *name;
	unsigned code, umask;
} linux_umasks[] = {
	{ "UNC_M_CAS_COUNT.RD", 0x04, 0x03 },
	{ "UNC_M_CAS_COUNT.WR", 0x04, 0x0C },
	{ "UNC_M_CAS_COUNT.ALL", 0x04, 0x0F },
};

/* Linux's snbep_uncore_pci_ids: MC channels 0-3. */
static const unsigned channel_fn[4] = { 0, 1, 4, 5 };
static const uint32_t channel_id[4] = { 0x3CB08086, 0x3CB18086, 0x3CB48086, 0x3CB58086 };

extern const struct event_desc snbep_events[];
extern const unsigned snbep_events_count;

static const struct event_desc *find_event(const char *name)
{
	for (unsigned i = 0; i < snbep_events_count; i++)
		if (!strcmp(snbep_events[i].name, name))
			return &snbep_events[i];
	return NULL;
}

static void conformance_events(void)
{
	unsigned covered = 0;

	for (unsigned i = 0; i < N(seed_events); i++) {
		char full[64], dot[64];
		snprintf(full, sizeof(full), "UNC_M_%s", seed_events[i].name);
		snprintf(dot, sizeof(dot), "UNC_M_%s.", seed_events[i].name);
		unsigned rows = 0;
		for (unsigned k = 0; k < snbep_events_count; k++) {
			const struct event_desc *d = &snbep_events[k];
			if (strcmp(d->name, full) && strncmp(d->name, dot, strlen(dot)))
				continue;
			rows++;
			T_EQ(d->code, seed_events[i].code);
			T_EQ(d->counters, 0xF); /* "0-3" */
			T_STREQ(d->unit, "iMC");
			T_EQ(d->cmask, 0);
			T_EQ(snbep_max_inc((uint8_t)d->code), seed_events[i].max_inc);
		}
		if (!rows)
			t_fail(__FILE__, __LINE__, "guide row %s has no event", seed_events[i].name);
		covered += rows;
	}
	const struct event_desc *dclk = find_event("UNC_M_DCLOCKTICKS");
	T_ASSERT(dclk != NULL);
	if (dclk) {
		T_ASSERT(dclk->counters & EV_COUNTER_FIXED);
		T_STREQ(dclk->unit, "iMC");
	}
	/* Intel's JKT name of the DRAM clock: the same fixed-counter event */
	const struct event_desc *jkt = find_event("UNC_M_CLOCKTICKS");
	T_ASSERT(jkt != NULL);
	if (jkt && dclk) {
		T_EQ(jkt->counters, dclk->counters);
		T_EQ(jkt->code, dclk->code);
		T_EQ(jkt->umask, dclk->umask);
	}
	/* No extra row: every event is a guide row's (or the fixed counter's, by either name). */
	T_EQ(covered + 2, snbep_events_count);
	for (unsigned i = 0; i < N(linux_umasks); i++) {
		const struct event_desc *d = find_event(linux_umasks[i].name);
		T_ASSERT(d != NULL);
		if (d) {
			T_EQ(d->code, linux_umasks[i].code);
			T_EQ(d->umask, linux_umasks[i].umask);
		}
	}
}

static void conformance_registers(void)
{
	const struct pmu_driver *drv = &pmu_driver_snbep;
	struct pmu_present p = { 0 };
	struct pci_addr f = { 0x7F, 16, 4 };

	T_EQ(drv->nunits, 2);
	T_EQ(drv->nglobals, 0); /* the Ubox's global control is never written */
	T_ASSERT(!drv->sample_frozen); /* samples read while counting: nothing lost */
	T_EQ(pmu_present_room(&p, 0, 2), UNC_OK);
	T_EQ(pmu_present_room(&p, 1, 2), UNC_OK);
	p.pci[0][1] = p.pci[1][1] = f;
	const struct pmu_unit *g = &drv->units[SNBEP_UNIT_IMC], *x = &drv->units[SNBEP_UNIT_FIXED];
	T_EQ(g->kind, PMU_GENERAL);
	T_EQ(g->space, PMU_PCI);
	T_EQ(g->counters, 4);
	T_EQ(g->width, 48);
	T_EQ(g->max_boxes, PMU_BOXES_ANY); /* as many as the scan finds */
	T_STREQ(g->intel_unit, "iMC");
	T_STREQ(g->short_prefix, "UNC_M_");
	T_STREQ(g->group_noun, "socket");
	T_STREQ(g->box_label, "ch");
	static const unsigned ctl[4] = { 0xD8, 0xDC, 0xE0, 0xE4 }, ctr[4] = { 0xA0, 0xA8, 0xB0, 0xB8 };
	for (unsigned i = 0; i < 4; i++) {
		struct pmu_reg s = pmu_unit_sel(g, &p, 0, 1, i), c = pmu_unit_ctr(g, &p, 0, 1, i);
		T_EQ(s.space, PMU_PCI);
		T_EQ(s.addr, ctl[i]);
		T_EQ(c.addr, ctr[i]);
		T_EQ(c.addr + 4, ctr[i] + 4); /* the high dword: 0xA4, 0xAC, 0xB4, 0xBC */
		T_EQ(s.pci.bus, 0x7F);
		T_EQ(s.pci.dev, 16);
		T_EQ(s.pci.func, 4);
	}
	T_EQ(pmu_unit_box_ctl(g, &p, 0, 1).addr, BOX_CTL);
	T_EQ(pmu_unit_box_ctl(x, &p, 1, 1).addr, BOX_CTL);
	T_EQ(x->kind, PMU_FIXED);
	T_EQ(x->counters, 1);
	T_EQ(x->width, 48);
	T_EQ(pmu_unit_sel(x, &p, 1, 1, 0).addr, FIXED_CTL);
	T_EQ(pmu_unit_ctr(x, &p, 1, 1, 0).addr, FIXED_CTR_LO);
	T_EQ(x->fixed_ctrl, FIXED_EN);
	T_ASSERT(x->clock);
	const struct pmu_layout *l = g->layout;
	T_EQ(l->event.shift, 0);
	T_EQ(l->event.bits, 8);
	T_EQ(l->umask.shift, 8);
	T_EQ(l->umask.bits, 8);
	T_EQ(l->thresh.shift, 24);
	T_EQ(l->thresh.bits, 8);
	T_EQ(l->edge, 1u << 18);
	T_EQ(l->enable, CTL_EN);
	T_EQ(l->inv, 1u << 23);
	T_EQ(l->rw_mask, 0xFFC4FFFFu); /* 21:19 and 17:16 reserved */
	T_EQ(g->role_events[0].role, PMU_ROLE_DRAM_READ);
	T_STREQ(g->role_events[0].event, "UNC_M_CAS_COUNT.RD");
	T_EQ(g->role_events[1].role, PMU_ROLE_DRAM_WRITE);
	T_STREQ(g->role_events[1].event, "UNC_M_CAS_COUNT.WR");
	T_ASSERT(g->role_events[2].event == NULL);
	T_EQ(snbep_gens[SNBEP_GEN_SNB].channels, 4);
	T_EQ(snbep_gens[SNBEP_GEN_SNB].ubox_id, 0x3CE0); /* snbep_pci2phy_map_init(0x3ce0, 0x40, 0x54, ...) */
	T_EQ(snbep_gens[SNBEP_GEN_SNB].ubox_node, 0x40);
	T_EQ(snbep_gens[SNBEP_GEN_SNB].ubox_map, 0x54);
	for (unsigned c = 0; c < 4; c++) {
		T_EQ(snbep_gens[SNBEP_GEN_SNB].dev[c], 16);
		T_EQ(snbep_gens[SNBEP_GEN_SNB].func[c], channel_fn[c]);
		T_EQ((uint32_t)snbep_gens[SNBEP_GEN_SNB].id[c] << 16 | 0x8086, channel_id[c]);
	}
	/* Only Sandy Bridge-EP (model 0x2D). */
	T_EQ(drv->models[0].family, 6);
	T_EQ(drv->models[0].model, 0x2D);
	T_EQ(drv->models[1].family, 0);
	pmu_present_free(&p);
}

/* ---- The model: the iMC channels' configuration space ---- */

struct chan {
	bool present;
	uint32_t id;
	bool drop_writes;      /* writes are logged but change nothing */
	bool frz_en, frz;
	unsigned live_unfreezes; /* BOX_CTL writes that left the box counting with an enabled CTL */
	uint32_t ctl[4], fixed_ctl;
	uint64_t ctr[5];       /* 0-3 general, 4 fixed; 48 bits */
	uint64_t rate;         /* events per second of an enabled general counter */
};

struct wlog {
	uint8_t bus, fn;
	uint16_t off;
	uint32_t v;
};

static struct {
	struct fake_hw f;      /* CPUID and the clock */
	struct hw hw;
	unsigned nsockets;
	uint8_t bus[3];
	struct chan ch[3][4];
	uint64_t dclk_hz;
	bool tear;             /* a counter moves between its low and high reads unless frozen */
	uint64_t tear_step;
	struct wlog log[1024];
	unsigned nlog;
	unsigned scan_reads;
	unsigned undecoded_lo, undecoded_hi; /* buses no root bridge decodes (lo > hi: none) */
	unsigned undecoded_reads;
	unsigned failing_bus; /* reads of it fail (UNC_E_DEVICE); above 0xFF: none */
	uint64_t access_ns;   /* each configuration read takes this long (0: no time) */
	/* Socket s's UBox (8086:3CE0) at device 11, function 0 of its bus,
	 * with its CPUNODEID (0x40) and GIDNIDMAP (0x54); absent unless set. */
	struct { bool present; uint32_t nodeid, map; } ubox[3];
	unsigned other_reads;  /* reads of devices other than 16 (the UBox search) */
} m;

static void advance(uint64_t when);

static struct chan *chan_at(struct pci_addr a)
{
	for (unsigned s = 0; s < m.nsockets; s++) {
		if (a.bus != m.bus[s] || a.dev != 16)
			continue;
		for (unsigned c = 0; c < 4; c++)
			if (channel_fn[c] == a.func)
				return &m.ch[s][c];
	}
	return NULL;
}

static bool counting(const struct chan *c)
{
	return !(c->frz_en && c->frz);
}

/* The register of offset off: 0-3 CTLs, 4 FIXED_CTL; counters 10+i (low) and 20+i (high); -1: none. */
static int reg_of(uint16_t off)
{
	if (off >= CTL0 && off <= 0xE4 && off % 4 == 0)
		return (off - CTL0) / 4;
	if (off == FIXED_CTL)
		return 4;
	if (off >= CTR0_LO && off <= 0xBC && off % 4 == 0)
		return (off % 8 ? 20 : 10) + (off - CTR0_LO) / 8;
	if (off == FIXED_CTR_LO || off == FIXED_CTR_HI)
		return (off == FIXED_CTR_HI ? 20 : 10) + 4;
	return -1;
}

static enum unc_status m_pci_read(void *ctx, struct pci_addr a, uint16_t off, uint32_t *ret)
{
	struct chan *c = chan_at(a);
	int r = reg_of(off);

	(void)ctx;
	if (m.access_ns)
		advance(m.f.now + m.access_ns);
	if (a.bus == m.failing_bus)
		return UNC_E_DEVICE;
	if (a.bus >= m.undecoded_lo && a.bus <= m.undecoded_hi) {
		m.undecoded_reads++;
		return UNC_E_NOT_FOUND;
	}
	if (a.dev != 16) { /* the UBox, or nothing */
		m.other_reads++;
		for (unsigned k = 0; k < m.nsockets; k++)
			if (a.bus == m.bus[k] && a.dev == 11 && a.func == 0 && m.ubox[k].present) {
				*ret = off == 0 ? 0x3CE08086u : off == 0x40 ? m.ubox[k].nodeid : off == 0x54 ? m.ubox[k].map : 0;
				return UNC_OK;
			}
		if (off) {
			t_fail(__FILE__, __LINE__, "model: read of %02x:%02x.%x+0x%x, not a UBox", a.bus, a.dev, a.func, off);
			return UNC_E_DEVICE;
		}
		*ret = 0xFFFFFFFFu;
		return UNC_OK;
	}
	if (off == 0 && a.dev == 16 && (!c || !c->present)) {
		m.scan_reads++;
		*ret = c && c->id ? c->id : 0xFFFFFFFFu; /* absent, or another device */
		return UNC_OK;
	}
	if (!c || !c->present) {
		t_fail(__FILE__, __LINE__, "model: read of %02x:%02x.%x+0x%x, not an iMC channel", a.bus, a.dev, a.func, off);
		return UNC_E_DEVICE;
	}
	if (off == 0) {
		*ret = c->id;
	} else if (off == BOX_CTL) {
		*ret = 0; /* write only */
	} else if (r >= 0 && r < 4) {
		*ret = c->ctl[r];
	} else if (r == 4) {
		*ret = c->fixed_ctl & ~(1u << 19); /* rst is write only */
	} else if (r >= 10 && r < 15) {
		*ret = (uint32_t)c->ctr[r - 10];
		unsigned i = (unsigned)(r - 10);
		bool on = i < 4 ? (c->ctl[i] & CTL_EN) != 0 : (c->fixed_ctl & FIXED_EN) != 0;
		if (m.tear && counting(c) && on)
			c->ctr[i] = (c->ctr[i] + m.tear_step) & MASK48;
	} else if (r >= 20 && r < 25) {
		*ret = (uint32_t)(c->ctr[r - 20] >> 32);
	} else {
		t_fail(__FILE__, __LINE__, "model: read of undeclared offset 0x%x of %02x:10.%x", off, a.bus, a.func);
		return UNC_E_DEVICE;
	}
	return UNC_OK;
}

static enum unc_status m_pci_write(void *ctx, struct pci_addr a, uint16_t off, uint32_t v)
{
	struct chan *c = chan_at(a);
	int r = reg_of(off);

	(void)ctx;
	if (!c || !c->present || (off != BOX_CTL && r < 0)) {
		t_fail(__FILE__, __LINE__, "model: write of %02x:%02x.%x+0x%x", a.bus, a.dev, a.func, off);
		return UNC_E_DEVICE;
	}
	if (m.nlog < N(m.log))
		m.log[m.nlog++] = (struct wlog){ a.bus, a.func, off, v };
	if (c->drop_writes)
		return UNC_OK;
	if (off == BOX_CTL) {
		if (v & 0x3)
			t_fail(__FILE__, __LINE__, "model: BOX_CTL bits 1:0 must be 0 (0x%x)", v);
		c->frz_en = v & FRZ_EN;
		c->frz = v & FRZ;
		if (!(c->frz_en && c->frz) && ((c->ctl[0] | c->ctl[1] | c->ctl[2] | c->ctl[3] | c->fixed_ctl) & 0x400000u))
			c->live_unfreezes++;
	} else if (r < 4) {
		c->ctl[r] = v & 0xFFC4FFFFu;
	} else if (r == 4) {
		c->fixed_ctl = v & FIXED_EN;
		if (v & (1u << 19))
			c->ctr[4] = 0;
	} else if (r < 20) {
		c->ctr[r - 10] = (c->ctr[r - 10] & ~0xFFFFFFFFull) | v;
	} else {
		c->ctr[r - 20] = (c->ctr[r - 20] & 0xFFFFFFFFull) | ((uint64_t)(v & 0xFFFF) << 32);
	}
	return UNC_OK;
}

static enum unc_status m_msr_read(void *ctx, uint32_t msr, uint64_t *v)
{
	(void)ctx, (void)v;
	t_fail(__FILE__, __LINE__, "model: rdmsr 0x%x (the iMC driver reads no MSR)", msr);
	return UNC_E_FAULT;
}

static enum unc_status m_msr_write(void *ctx, uint32_t msr, uint64_t v)
{
	(void)ctx, (void)v;
	t_fail(__FILE__, __LINE__, "model: wrmsr 0x%x", msr);
	return UNC_E_FAULT;
}

static enum unc_status m_mmio_read(void *ctx, uint64_t addr, uint32_t *v)
{
	(void)ctx, (void)v;
	t_fail(__FILE__, __LINE__, "model: MMIO read 0x%llx", (unsigned long long)addr);
	return UNC_E_FAULT;
}

static void m_cpuid(void *ctx, uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	(void)ctx;
	m.f.hw.ops->cpuid(m.f.hw.ctx, leaf, sub, r);
}

static uint64_t m_ticks(void *ctx)
{
	(void)ctx;
	return m.f.now;
}

static enum unc_status m_rdpmc(void *ctx, uint32_t i, uint64_t *v)
{
	(void)ctx, (void)v;
	t_fail(__FILE__, __LINE__, "model: RDPMC %u", i);
	return UNC_E_FAULT;
}

static const struct hw_ops m_ops = {
	.msr_read = m_msr_read,
	.msr_write = m_msr_write,
	.pci_read32 = m_pci_read,
	.pci_write32 = m_pci_write,
	.mmio_read32 = m_mmio_read,
	.cpuid = m_cpuid,
	.ticks = m_ticks,
	.rdpmc = m_rdpmc,
};

/* Counting from m.f.now to `when`: each channel's enabled counters, unless frozen. */
static void advance(uint64_t when)
{
	uint64_t dt = when - m.f.now;

	for (unsigned s = 0; s < m.nsockets; s++)
		for (unsigned k = 0; k < 4; k++) {
			struct chan *c = &m.ch[s][k];
			if (!c->present || !counting(c))
				continue;
			for (unsigned i = 0; i < 4; i++)
				if (c->ctl[i] & CTL_EN)
					c->ctr[i] = (c->ctr[i] + (uint64_t)((unsigned __int128)c->rate * dt / S)) & MASK48;
			if (c->fixed_ctl & FIXED_EN)
				c->ctr[4] = (c->ctr[4] + (uint64_t)((unsigned __int128)m.dclk_hz * dt / S)) & MASK48;
		}
	m.f.now = when;
}

static bool wait_until(void *ctx, uint64_t when)
{
	(void)ctx;
	advance(when);
	return false;
}

static const struct stat_env env = { .wait_until = wait_until };
static struct stat_run run;
static const struct pmu_driver *const present[] = { &pmu_driver_snbep, NULL };

/* Two sockets (buses 0x3F and 0x7F) of four channels, counters found
 * holding values of their own (restored at the end), channel b (0..7)
 * counting 1000000 * (b + 1) events a second, DCLK 800 MHz. */
static void model(unsigned sockets)
{
	static const uint8_t buses[3] = { 0x3F, 0x7F, 0xBF };

	memset(&m, 0, sizeof(m));
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	fake_init(&m.f);
	fake_cpu_skylake(&m.f, 0x2D, 8, 16);
	m.hw = (struct hw){ .ops = &m_ops, .ctx = &m, .tick_hz = S, .msr_mode = HW_MSR_NATIVE };
	m.f.now = 5 * S;
	m.nsockets = sockets;
	m.dclk_hz = 800000000;
	m.undecoded_lo = 1, m.undecoded_hi = 0;
	m.failing_bus = 0x100;
	for (unsigned s = 0; s < sockets; s++) {
		m.bus[s] = buses[s];
		for (unsigned c = 0; c < 4; c++) {
			struct chan *ch = &m.ch[s][c];
			ch->present = true;
			ch->id = channel_id[c];
			ch->rate = 1000000ull * (s * 4 + c + 1);
			for (unsigned i = 0; i < 5; i++)
				ch->ctr[i] = 0x123400000000ull + (s << 12) + (c << 8) + i;
		}
	}
}

static void add(const char *name)
{
	run_add(&run, present, name);
}

static enum unc_status run_for(uint64_t duration, uint64_t sample)
{
	struct stat_opts o = { .duration = duration, .slice = 20 * MS, .sample = sample };

	if (run_schedule(&run, &m.hw, false))
		return UNC_E_INVALID;
	return stat_loop(&run, &m.hw, false, &o, &env);
}

/* Every channel's registers as found (the counters' own values, CTLs 0). */
static bool as_found(void)
{
	bool ok = true;

	for (unsigned s = 0; s < m.nsockets; s++)
		for (unsigned c = 0; c < 4; c++) {
			struct chan *ch = &m.ch[s][c];
			if (!ch->present || ch->drop_writes)
				continue;
			for (unsigned i = 0; i < 4; i++)
				ok &= ch->ctl[i] == 0;
			ok &= ch->fixed_ctl == 0 && !ch->frz_en && !ch->frz;
			for (unsigned i = 0; i < 5; i++)
				if (ch->ctr[i] != 0x123400000000ull + (s << 12) + (c << 8) + i) {
					printf("    socket %u channel %u counter %u: 0x%llx\n", s, c, i,
					       (unsigned long long)ch->ctr[i]);
					ok = false;
				}
		}
	return ok;
}

/* ---- The probe and info ---- */

static void probe_two_sockets(void)
{
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_snbep };
	char err[200] = "", warn[100] = "";

	model(2);
	cpu_identify(&m.hw, &cpu);
	T_ASSERT(pmu_match_model(&pmu_driver_snbep, &m.hw, &cpu) != NULL);
	T_EQ(pmu_driver_snbep.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(m.nlog, 0); /* reads only */
	/* every bus's device 16, functions 0, 1, 4, 5; then on each uncore bus
	 * the search for the UBox reads every device's function 0, and the
	 * others of device 16 (which has one): 2, 3, 6 and 7 read all ones */
	T_EQ(m.scan_reads, 256 * 4 - 8 + 2 * 4);
	T_EQ(m.other_reads, 2 * 31);
	T_EQ(p.boxes[0], 8);
	T_EQ(p.boxes[1], 8);
	for (unsigned b = 0; b < 8; b++) {
		T_EQ(p.pci[0][b].bus, b < 4 ? 0x3F : 0x7F);
		T_EQ(p.pci[0][b].dev, 16);
		T_EQ(p.pci[0][b].func, channel_fn[b % 4]);
		T_EQ(p.group[0][b], b / 4);
		T_EQ(p.box_id[0][b], b % 4);
		T_EQ(p.pci[1][b].func, channel_fn[b % 4]);
	}
	char buf[2048];
	struct strbuf sb;
	strbuf_init(&sb, buf, sizeof(buf));
	struct out o = strbuf_out(&sb);
	struct pmu_use use;
	pmu_driver_snbep.ops->in_use(&m.hw, &p, &use, NULL, NULL);
	T_ASSERT(use.known && !use.in_use);
	T_EQ(use.selects_checked, 40);
	struct info_pmu ip = { .drv = &pmu_driver_snbep, .p = p, .use = use, .use_checked = true };
	pmu_driver_snbep.ops->info(&o, &p, false);
	info_print_use(&o, &ip, false);
	T_CONTAINS(buf, "imc:          2 sockets, 8 channels");
	T_CONTAINS(buf, "  socket 0 (bus 0x3f): channels 0, 1, 2, 3\n  socket 1 (bus 0x7f): channels 0, 1, 2, 3\n");
	T_CONTAINS(buf, "pmu in use:   no (40 event selects all zero)");
	T_NOT_CONTAINS(buf, "missing");
	pmu_driver_snbep.ops->where(&p, 0, buf, sizeof(buf));
	T_STREQ(buf, "in 8 channels on buses 0x3f, 0x7f (CAS_COUNT.RD and .WR)");
	char name[48];
	struct pmu_reg r = pmu_unit_ctr(&pmu_driver_snbep.units[0], &p, 0, 6, 1);
	T_STREQ(pmu_reg_name(&pmu_driver_snbep, &p, r, name, sizeof(name)), "MC_CH2_PCI_PMON_CTR1 (socket 1)");
	r.addr += 4;
	T_STREQ(pmu_reg_name(&pmu_driver_snbep, &p, r, name, sizeof(name)), "MC_CH2_PCI_PMON_CTR1[47:32] (socket 1)");
	r = pmu_unit_box_ctl(&pmu_driver_snbep.units[0], &p, 0, 3);
	T_STREQ(pmu_reg_name(&pmu_driver_snbep, &p, r, name, sizeof(name)), "MC_CH3_PCI_PMON_BOX_CTL (socket 0)");
	r = pmu_unit_sel(&pmu_driver_snbep.units[1], &p, 1, 0, 0);
	T_STREQ(pmu_reg_name(&pmu_driver_snbep, &p, r, name, sizeof(name)), "MC_CH0_PCI_PMON_FIXED_CTL (socket 0)");
	/* Without what a probe found (msr/pci read, no run): the bus. */
	T_STREQ(pmu_reg_name(&pmu_driver_snbep, NULL, r, name, sizeof(name)), "MC_CH0_PCI_PMON_FIXED_CTL (bus 0x3f)");
	/* JSON */
	strbuf_init(&sb, buf, sizeof(buf));
	out_puts(&o, "{\"x\":1");
	pmu_driver_snbep.ops->info(&o, &p, true);
	info_print_use(&o, &ip, true);
	out_puts(&o, "}");
	T_JSON(buf, false);
	T_CONTAINS(buf, "\"sockets\":[{\"socket\":0,\"bus\":\"0x3f\",\"channels\":[0,1,2,3],\"missing\":[],\"unexpected\":[]},"
			"{\"socket\":1,\"bus\":\"0x7f\",\"channels\":[0,1,2,3],\"missing\":[],\"unexpected\":[]}]");
	pmu_present_free(&p);
}

/* A missing channel (socket 1, channel 2: 7f:10.4 absent) and an
 * unexpected device (7f:10.5 answers 8086:1234): both named by info, and
 * neither is a box; events count on the six other channels. */
static void missing_channel_and_unexpected_id(void)
{
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_snbep };
	char err[200] = "", warn[200] = "", buf[2048];
	struct strbuf sb;

	model(2);
	m.ch[1][2].present = false;
	m.ch[1][2].id = 0;
	m.ch[1][3].present = false;
	m.ch[1][3].id = 0x12348086;
	cpu_identify(&m.hw, &cpu);
	T_EQ(pmu_driver_snbep.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.boxes[0], 6);
	T_EQ(p.box_id[0][4], 0);
	T_EQ(p.box_id[0][5], 1);
	T_EQ(p.group[0][5], 1);
	strbuf_init(&sb, buf, sizeof(buf));
	struct out o = strbuf_out(&sb);
	pmu_driver_snbep.ops->info(&o, &p, false);
	T_CONTAINS(buf, "imc:          2 sockets, 6 channels");
	T_CONTAINS(buf, "  socket 1 (bus 0x7f): channels 0, 1\n");
	T_CONTAINS(buf, "  socket 1 (bus 0x7f): channel 2 (10.4) missing\n");
	T_CONTAINS(buf, "  socket 1 (bus 0x7f): channel 3: 10.5 has device 8086:1234, not 3CB5\n");
	strbuf_init(&sb, buf, sizeof(buf));
	out_puts(&o, "{\"x\":1");
	pmu_driver_snbep.ops->info(&o, &p, true);
	out_puts(&o, "}");
	T_JSON(buf, false);
	T_CONTAINS(buf, "{\"socket\":1,\"bus\":\"0x7f\",\"channels\":[0,1],\"missing\":[2],\"unexpected\":[{\"channel\":3,"
			"\"function\":\"10.5\",\"id\":\"8086:1234\"}]}");
	/* stat and bw print the probe's warning; info's verdict says it too */
	T_STREQ(warn, "socket 1 (bus 0x7f) channel 2 (10.4) missing, socket 1 (bus 0x7f) channel 3 (10.5) has another "
		      "device: not counted (iMC totals and bw lack its traffic)");
	struct platform_info pi;
	memset(&pi, 0, sizeof(pi));
	pi.cpu = cpu;
	pi.npmu = 1;
	pi.pmu[0].drv = &pmu_driver_snbep;
	pi.pmu[0].p = p;
	info_judge(&pi);
	T_EQ(pi.verdict, UNC_OK);
	T_CONTAINS(pi.verdict_reason, "ready, but socket 1 (bus 0x7f) channel 2 (10.4) missing, ");
	/* all eight: no warning, ready */
	model(2);
	pmu_present_free(&p);
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_snbep;
	T_EQ(pmu_driver_snbep.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_STREQ(warn, "");
	pi.pmu[0].p = p;
	info_judge(&pi);
	T_STREQ(pi.verdict_reason, "ready");
	model(2);
	m.ch[1][2].present = false;
	m.ch[1][2].id = 0;
	m.ch[1][3].present = false;
	m.ch[1][3].id = 0x12348086;
	/* A run counts on the six channels present: exact counts. */
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	add("UNC_M_CAS_COUNT.RD");
	T_EQ(run_for(S, 100 * MS), UNC_OK);
	T_EQ(run.c.nboxes, 1);
	static const unsigned rate_of_box[6] = { 1, 2, 3, 4, 5, 6 };
	for (unsigned b = 0; b < 6; b++)
		T_EQ(run.c.ev[0].total.box[b], 1000000ull * rate_of_box[b]);
	T_ASSERT(as_found());
	pmu_present_free(&p);
}

/* Three sockets are twelve channels: every one is a box (no limit below
 * eight sockets), and a run counts each exactly. */
static void three_sockets_all_counted(void)
{
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_snbep };
	char err[200] = "", warn[100] = "";

	model(3);
	cpu_identify(&m.hw, &cpu);
	T_EQ(pmu_driver_snbep.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_STREQ(err, "");
	T_EQ(p.boxes[0], 12);
	T_EQ(p.boxes[1], 12);
	T_EQ(p.facts[SNBEP_FACT_SOCKETS] & 0xFF, 3);
	T_EQ(p.group[0][11], 2);
	T_EQ(p.box_id[0][11], 3);
	T_EQ(p.pci[0][8].bus, 0xBF);
	pmu_present_free(&p);
	add("UNC_M_CAS_COUNT.RD");
	T_EQ(run_for(S, 100 * MS), UNC_OK);
	for (unsigned b = 0; b < 12; b++)
		T_EQ(run.c.ev[0].total.box[b], 1000000ull * (b + 1));
	T_ASSERT(as_found());
}

/* ---- The sequence ---- */

static unsigned log_at;

static void expect(uint8_t bus, unsigned fn, unsigned off, uint32_t v, int line)
{
	if (log_at >= m.nlog) {
		t_fail(__FILE__, line, "write #%u: none (expected %02x:10.%u+0x%x = 0x%x)", log_at, bus, fn, off, v);
		return;
	}
	struct wlog *w = &m.log[log_at];
	if (w->bus != bus || w->fn != fn || w->off != off || w->v != v)
		t_fail(__FILE__, line, "write #%u: %02x:10.%u+0x%x = 0x%x, expected %02x:10.%u+0x%x = 0x%x", log_at, w->bus,
		       w->fn, w->off, w->v, bus, fn, off, v);
	log_at++;
}
#define EXPECT(bus, fn, off, v) expect((bus), (fn), (off), (v), __LINE__)

static const uint8_t bus_of_box[8] = { 0x3F, 0x3F, 0x3F, 0x3F, 0x7F, 0x7F, 0x7F, 0x7F };

/* Intel 327043-001's sequence for one event on 2 sockets x 4 channels, as an exact
 * write log: freeze (frz_en, then frz_en|frz, box by box), the CTLs (the
 * event on CTL0, 0 on the others), both dwords of each counter set to the
 * run's start (2^46),
 * unfreeze (frz_en). */
static void programming_sequence(void)
{
	model(2);
	add("UNC_M_CAS_COUNT.RD");
	T_EQ(run_schedule(&run, &m.hw, false), UNC_OK);
	T_EQ(stat_start(&run, &m.hw, false), UNC_OK);
	log_at = 0;
	for (unsigned b = 0; b < 8; b++) {
		EXPECT(bus_of_box[b], channel_fn[b % 4], BOX_CTL, FRZ_EN);
		EXPECT(bus_of_box[b], channel_fn[b % 4], BOX_CTL, FRZ_EN | FRZ);
	}
	for (unsigned i = 0; i < 4; i++)
		for (unsigned b = 0; b < 8; b++)
			EXPECT(bus_of_box[b], channel_fn[b % 4], CTL0 + 4 * i, i == 0 ? CTL_EN | 0x0304 : 0);
	for (unsigned b = 0; b < 8; b++)
		for (unsigned i = 0; i < 4; i++) {
			EXPECT(bus_of_box[b], channel_fn[b % 4], CTR0_LO + 8 * i, 0); /* 2^46 in 48 bits */
			EXPECT(bus_of_box[b], channel_fn[b % 4], CTR0_LO + 8 * i + 4, 0x4000);
		}
	for (unsigned b = 0; b < 8; b++)
		EXPECT(bus_of_box[b], channel_fn[b % 4], BOX_CTL, FRZ_EN);
	T_EQ(log_at, m.nlog);
	advance(m.f.now + S / 10);
	T_EQ(stat_stop(&run, UNC_OK), UNC_OK);
	for (unsigned b = 0; b < 8; b++)
		T_EQ(run.c.ev[0].total.box[b], 100000ull * (b + 1));
	T_ASSERT(as_found());
}

/* 48-bit counters crossing 2^48 again and again: WPQ_OCCUPANCY at a rate
 * just under its bound (32 a DCLK at 2^31 Hz, 6.87 * 10^10 a second),
 * sampled every 3600 s (a gap in which a counter cannot wrap twice
 * unseen), for 20000 s. */
static void wraps_48_bits(void)
{
	model(1);
	for (unsigned c = 0; c < 4; c++)
		m.ch[0][c].rate = 68000000000ull;
	add("UNC_M_WPQ_OCCUPANCY");
	T_EQ(run_for(20000 * S, 3600 * S), UNC_OK);
	for (unsigned b = 0; b < 4; b++)
		T_EQ(run.c.ev[0].total.box[b], 68000000000ull * 20000);
	T_ASSERT(68000000000ull * 20000 > 4 * (1ull << 48)); /* wrapped at least four times */
	T_ASSERT(68000000000ull * 3600 < (1ull << 48));
	T_ASSERT(as_found());
}

/* ---- The ops without the engine: a pmu_io straight to the model ---- */

static enum unc_status d_read(struct pmu_io *io, struct pmu_reg reg, uint64_t *v)
{
	uint32_t x;
	enum unc_status st = hw_pci_read32(io->hw, reg.pci, (uint16_t)reg.addr, &x);

	*v = x;
	return st;
}

static enum unc_status d_write(struct pmu_io *io, struct pmu_reg reg, uint64_t v)
{
	return hw_pci_write32(io->hw, reg.pci, (uint16_t)reg.addr, (uint32_t)v);
}

static enum unc_status d_vfail(struct pmu_io *io, enum unc_status st, const char *fmt, va_list ap)
{
	(void)io, (void)fmt, (void)ap;
	return st;
}

static const struct pmu_io_ops direct_ops = { d_read, d_write, d_write, d_write, d_vfail, NULL };

/* The torn read: a counter whose low dword carries into the high one
 * between the reads. Read low then high it tears (0x2FFFFFFF0, nearly 2^32
 * ahead); the driver reads high, low, high while the box counts, retries
 * when the highs differ, and gets a value the counter had. Nothing is
 * written: the box is never frozen to read it. */
static void torn_read_high_low_high(void)
{
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_snbep };
	char err[200] = "", warn[100] = "";
	struct pmu_io io = { &direct_ops, NULL, 0, &m.hw };
	uint64_t v;

	model(1);
	cpu_identify(&m.hw, &cpu);
	T_EQ(pmu_driver_snbep.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	struct chan *c = &m.ch[0][1];
	c->ctl[2] = CTL_EN | 0x0304;
	c->ctr[2] = 0x1FFFFFFF0ull;
	m.tear = true;
	m.tear_step = 0x20;
	T_EQ(pmu_driver_snbep.ops->read_counter(&io, &p, 0, 1, 2, &v), UNC_OK);
	/* 1, then low 0xFFFFFFF0 (it carries), then 2: again, 2, low 0x10, 2 */
	T_EQ(v, 0x200000010ull);
	T_EQ(m.nlog, 0);
	T_ASSERT(!c->frz);
	/* no carry: one try */
	c->ctr[2] = 0x123456780ull;
	T_EQ(pmu_driver_snbep.ops->read_counter(&io, &p, 0, 1, 2, &v), UNC_OK);
	T_EQ(v, 0x123456780ull);
	pmu_present_free(&p);
}

/* A function that drops writes (socket 1, channel 2): the CTL read-back
 * fails naming the register and the socket, and every register written is
 * put back. */
static void write_that_does_not_stick(void)
{
	model(2);
	m.ch[1][2].drop_writes = true;
	add("UNC_M_CAS_COUNT.RD");
	add("UNC_M_DCLOCKTICKS");
	T_EQ(run_for(S, 100 * MS), UNC_E_DEVICE);
	T_STREQ(run.err, "MC_CH2_PCI_PMON_CTL0 (socket 1) (7f:10.4+0xd8) reads 0x0 after writing 0x400304: the iMC PMU "
			 "ignored the programming");
	T_ASSERT(as_found());
	/* Nothing left programmed: the last write to each register that was
	 * written is its value as found. */
	for (unsigned s = 0; s < 2; s++)
		for (unsigned c = 0; c < 4; c++) {
			const struct chan *ch = &m.ch[s][c];
			T_ASSERT(!ch->frz_en && ch->ctl[0] == 0);
			/* No box ever counted: the restore's freeze must not
			 * pass through frz_en alone with the CTLs enabled. */
			T_EQ(ch->live_unfreezes, 0);
		}
}

/* Thresholds above Intel 327043-001's Max Inc/Cyc are never met: refused before
 * anything is written. */
static void threshold_above_max_inc_refused(void)
{
	model(2);
	add("imc/event=0x80,thresh=23/");
	T_EQ(run_schedule(&run, &m.hw, false), UNC_E_UNSUPPORTED);
	T_STREQ(run.err, "cannot count imc/event=0x80,thresh=23/: threshold 23 is above event 0x80's most per cycle (22, "
			 "Intel 327043-001's Max Inc/Cyc): never met, or with inv always met");
	T_EQ(m.nlog, 0);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	add("imc/event=0x80,thresh=22/");
	T_EQ(run_schedule(&run, &m.hw, false), UNC_OK);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	add("imc/event=0x04,umask=0x03,thresh=2/");
	T_EQ(run_schedule(&run, &m.hw, false), UNC_E_UNSUPPORTED);
}

/* ---- evsel: names and the raw syntax with the layout's widths ---- */

static void names_and_raw_syntax(void)
{
	struct ev_spec e;
	char err[200];

	T_EQ(evsel_parse("UNC_M_CAS_COUNT.RD", present, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), 0x400304);
	T_EQ(evsel_parse("unc_m_cas_count.wr", present, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), 0x400C04);
	T_EQ(evsel_parse("UNC_M_DCLOCKTICKS", present, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.unit, SNBEP_UNIT_FIXED);
	T_EQ(evsel_parse("imc/event=0x04,umask=0x0c/", present, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), 0x400C04);
	T_EQ(evsel_parse("imc/event=0x80,umask=0,thresh=0xff,inv,edge/", present, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), 0xFFC40080ull);
	T_ASSERT(evsel_parse("imc/event=0x100/", present, &e, err, sizeof(err)) != UNC_OK);
	T_ASSERT(evsel_parse("imc/event=0x04,umask=0x100/", present, &e, err, sizeof(err)) != UNC_OK);
	T_ASSERT(evsel_parse("imc/event=0x04,thresh=0x100/", present, &e, err, sizeof(err)) != UNC_OK);
}

/* A sample writes nothing: no box is frozen to be read (a frozen box
 * stops counting for as long as its counters are read). */
static void sample_writes_nothing(void)
{
	model(2);
	add("UNC_M_CAS_COUNT.RD");
	T_EQ(run_schedule(&run, &m.hw, false), UNC_OK);
	T_EQ(stat_start(&run, &m.hw, false), UNC_OK);
	log_at = m.nlog;
	advance(m.f.now + S / 10);
	T_EQ(stat_sample(&run), UNC_OK);
	T_EQ(log_at, m.nlog);
	for (unsigned s = 0; s < 2; s++)
		for (unsigned c = 0; c < 4; c++)
			T_ASSERT(counting(&m.ch[s][c]));
	T_EQ(stat_stop(&run, UNC_OK), UNC_OK);
	T_ASSERT(as_found());
}

/* Through the engine, on counters that tear when read while counting (low
 * dword carrying into the high one between the reads): every sample is
 * frozen, so the totals are exact. */
static void torn_read_impossible_in_a_run(void)
{
	model(2);
	for (unsigned s = 0; s < 2; s++)
		for (unsigned c = 0; c < 4; c++)
			m.ch[s][c].rate = 0xFFFFFFF0ull; /* the low dword wraps every second (2 a DCLK at most) */
	m.tear = true;
	m.tear_step = 0x20;
	add("UNC_M_RPQ_OCCUPANCY");
	add("UNC_M_DCLOCKTICKS");
	T_EQ(run_for(10 * S, 100 * MS), UNC_OK);
	/* Each low read also moves a counting counter by tear_step (time the
	 * read takes), which the box counts: the totals are the time's counts
	 * plus a few such steps, never a torn 2^32 off. */
	for (unsigned b = 0; b < 8; b++) {
		uint64_t cas = run.c.ev[0].total.box[b] - 0xFFFFFFF0ull * 10;
		uint64_t dclk = run.c.ev[1].total.box[b] - 800000000ull * 10;
		T_ASSERT(cas % 0x20 == 0 && cas / 0x20 >= 100 && cas / 0x20 <= 120);
		T_ASSERT(dclk % 0x20 == 0 && dclk / 0x20 >= 100 && dclk / 0x20 <= 120);
	}
	T_ASSERT(as_found());
}

/* Intel 327043-001's short names are the events' names without UNC_M_. */
/* CTL0 of a channel reprogrammed by someone else mid-run (CAS_COUNT.RD
 * to .WR, both counted at the same rate here) or cleared: each sample
 * reads every CTL the run's events use, and refuses one that reads
 * otherwise than the run wrote; everything goes back. A counter written
 * back to 0 before the first sample is refused as a jump back from 2^46. */
static void ctl_or_counter_changed_during_the_run(void)
{
	static const struct {
		unsigned what; /* 0: CTL0, 1: CTR0's dwords */
		uint32_t v;
		const char *err;
	} cases[] = {
		{ 0, SNBEP_CTL_EN | 0x0C04, "MC_CH1_PCI_PMON_CTL0 (socket 0) (3f:10.1+0xd8) reads 0x400c04, not the 0x400304 "
					     "this run wrote: written by someone else during the run" },
		{ 0, 0, "MC_CH1_PCI_PMON_CTL0 (socket 0) (3f:10.1+0xd8) reads 0x0, not the 0x400304 this run wrote: written by "
			"someone else during the run" },
		{ 1, 0, "" },
	};

	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		model(1);
		add("UNC_M_CAS_COUNT.RD");
		T_EQ(run_schedule(&run, &m.hw, false), UNC_OK);
		T_EQ(stat_start(&run, &m.hw, false), UNC_OK);
		advance(m.f.now + 50 * MS);
		if (cases[k].what == 0)
			m.ch[0][1].ctl[0] = cases[k].v;
		else
			m.ch[0][1].ctr[0] = cases[k].v;
		advance(m.f.now + 50 * MS);
		T_EQ(stat_sample(&run), UNC_E_CLOBBERED);
		if (cases[k].err[0])
			T_STREQ(run.err, cases[k].err);
		else
			T_CONTAINS(run.err, "MC_CH1_PCI_PMON_CTR0 (socket 0) (3f:10.1+0xa0) went from 0x400000000000 to 0x");
		T_EQ(stat_stop(&run, UNC_E_CLOBBERED), UNC_E_CLOBBERED);
		T_ASSERT(as_found());
	}
}

static void short_names(void)
{
	struct ev_spec e, f;
	char err[200];

	T_EQ(evsel_parse("CAS_COUNT.RD", present, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_parse("UNC_M_CAS_COUNT.RD", present, &f, err, sizeof(err)), UNC_OK);
	T_ASSERT(evsel_same(&e, &f));
	T_EQ(evsel_parse("DCLOCKTICKS", present, &e, err, sizeof(err)), UNC_OK);
	T_EQ(e.unit, SNBEP_UNIT_FIXED);
	/* Intel's JKT name, full or short: the same event as UNC_M_DCLOCKTICKS */
	T_EQ(evsel_parse("UNC_M_CLOCKTICKS", present, &f, err, sizeof(err)), UNC_OK);
	T_ASSERT(evsel_same(&e, &f));
	T_EQ(evsel_parse("clockticks", present, &f, err, sizeof(err)), UNC_OK);
	T_ASSERT(evsel_same(&e, &f));
	T_EQ(evsel_parse("rpq_occupancy", present, &e, err, sizeof(err)), UNC_OK);
	T_EQ(evsel_encode(&e), 0x400080);
	/* on a CPU without the driver, refused naming the PMU, as the full name is */
	static const struct pmu_driver *const none[] = { NULL };
	T_EQ(evsel_parse("CAS_COUNT.RD", none, &e, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_STREQ(err, "UNC_M_CAS_COUNT.RD is an imc event; this CPU has no imc PMU");
}

/* Buses that no root bridge decodes (the seam's UNC_E_NOT_FOUND: a board
 * whose bridges leave a gap, or stop short of 0xFF) are absent, as a
 * function reading all ones is: the scan goes on to the next bus and finds
 * both sockets, and a run counts on both. */
static void undecoded_buses_are_absent(void)
{
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_snbep };
	char err[200] = "", warn[100] = "";

	model(2);
	m.undecoded_lo = 0x40, m.undecoded_hi = 0x7E;
	cpu_identify(&m.hw, &cpu);
	T_EQ(pmu_driver_snbep.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_STREQ(err, "");
	T_EQ(m.undecoded_reads, (0x7E - 0x40 + 1) * 4);
	T_EQ(p.boxes[0], 8);
	T_EQ(p.pci[0][4].bus, 0x7F);
	T_EQ(p.facts[SNBEP_FACT_SOCKETS], 2);
	add("UNC_M_CAS_COUNT.RD");
	T_EQ(run_for(S, 100 * MS), UNC_OK);
	for (unsigned b = 0; b < 8; b++)
		T_EQ(run.c.ev[0].total.box[b], 1000000ull * (b + 1));
	T_ASSERT(as_found());
	/* Another failure still ends the probe, naming the read. */
	model(2);
	m.failing_bus = 0x50;
	pmu_present_free(&p);
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_snbep;
	T_ASSERT(pmu_driver_snbep.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)) != UNC_OK);
	T_CONTAINS(err, "PCI read 50:10.0+0x0 (the iMC scan): ");
	pmu_present_free(&p);
}

/* The journal on two sockets with every counter in use: each channel's
 * BOX_CTL, CTL0-3 and FIXED_CTL, and both dwords of its five 48-bit
 * counters (the value as found goes back whole): 8 x 16 = 128 registers,
 * restored exactly. A core PMU counting beside it on the same CPU (the
 * architectural PMU matches every E5: up to 7 selects, 7 counters, 3 fixed
 * counters, their control and the global control, 19 registers) must fit
 * too. */
static void journal_holds_two_sockets_and_a_core_pmu(void)
{
	model(2);
	add("UNC_M_CAS_COUNT.RD");
	add("UNC_M_CAS_COUNT.WR");
	add("UNC_M_ACT_COUNT");
	add("UNC_M_PRE_COUNT.PAGE_MISS");
	add("UNC_M_DCLOCKTICKS");
	T_EQ(run_for(S, 100 * MS), UNC_OK);
	T_EQ(run.nsaved, 128);
	unsigned dwords = 0;
	for (unsigned i = 0; i < run.nsaved; i++)
		dwords += run.saved[i].reg.addr >= CTR0_LO && run.saved[i].reg.addr <= FIXED_CTR_HI;
	T_EQ(dwords, 8 * 10);
	T_ASSERT(run.saved_room - run.nsaved >= 19);
	T_ASSERT(as_found());
}

/* --force on a box its previous owner left frozen (frz_en | frz, with an
 * event in CTL0 and the DRAM clock on): BOX_CTL reads 0, but its enabled
 * fixed counter standing still while time passes shows the freeze, and the
 * restore leaves the box frozen again, its CTLs and counters as found, so
 * the owner's counts do not run on. Boxes found counting or idle go back
 * as 0. Configuration reads take 1 us here, so time passes while the
 * driver looks. */
static void force_gives_back_a_frozen_box(void)
{
	model(2);
	m.access_ns = 1000;
	struct chan *owner = &m.ch[1][0];
	owner->ctl[0] = CTL_EN | 0x0304;
	owner->fixed_ctl = FIXED_EN;
	owner->frz_en = owner->frz = true;
	add("UNC_M_CAS_COUNT.WR");
	struct stat_opts o = { .duration = S, .slice = 20 * MS, .sample = 100 * MS };
	T_EQ(run_schedule(&run, &m.hw, false), UNC_OK);
	T_EQ(stat_loop(&run, &m.hw, false, &o, &env), UNC_E_BUSY); /* in use: --force needed */
	T_EQ(m.nlog, 0);
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	add("UNC_M_CAS_COUNT.WR");
	T_EQ(run_schedule(&run, &m.hw, false), UNC_OK);
	T_EQ(stat_loop(&run, &m.hw, true, &o, &env), UNC_OK);
	/* ours counted in every box, the owner's too */
	for (unsigned b = 0; b < 8; b++)
		T_ASSERT(run.c.ev[0].total.box[b] > 0);
	/* the owner's box: frozen again, as it left it */
	T_ASSERT(owner->frz_en && owner->frz);
	T_EQ(owner->ctl[0], CTL_EN | 0x0304);
	T_EQ(owner->fixed_ctl, FIXED_EN);
	for (unsigned i = 0; i < 5; i++)
		T_EQ(owner->ctr[i], 0x123400000000ull + (1 << 12) + i);
	unsigned last = 0;
	for (unsigned i = 0; i < m.nlog; i++)
		if (m.log[i].bus == 0x7F && m.log[i].fn == 0 && m.log[i].off == BOX_CTL)
			last = i;
	T_EQ(m.log[last].v, FRZ_EN | FRZ);
	/* the others: as found (BOX_CTL 0) */
	owner->ctl[0] = owner->fixed_ctl = 0;
	owner->frz_en = owner->frz = false;
	T_ASSERT(as_found());
}

/* Sockets numbered as Linux numbers them, from the UBoxes' node IDs
 * (device 8086:3CE0; CPUNODEID 0x40 bits 2:0; GIDNIDMAP 0x54, 3 bits per
 * socket), not in bus order: here bus 0x3F's UBox says node 5, which the
 * map gives socket 1, and bus 0x7F's node 2, socket 0. */
static void sockets_from_ubox_node_ids(void)
{
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_snbep };
	char err[200] = "", warn[200] = "", buf[2048];
	struct strbuf sb;
	/* GIDNIDMAP: socket 0 -> node 2, socket 1 -> node 5 */
	const uint32_t map = 2u | 5u << 3;

	model(2);
	m.ubox[0] = (typeof(m.ubox[0])){ true, 0x5, map };
	m.ubox[1] = (typeof(m.ubox[1])){ true, 0xF8 | 0x2, map }; /* bits above 2:0 are not the node ID */
	cpu_identify(&m.hw, &cpu);
	T_EQ(pmu_driver_snbep.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(m.nlog, 0);
	T_EQ(p.boxes[0], 8);
	for (unsigned b = 0; b < 8; b++) {
		T_EQ(p.pci[0][b].bus, b < 4 ? 0x7F : 0x3F);
		T_EQ(p.group[0][b], b / 4);
	}
	strbuf_init(&sb, buf, sizeof(buf));
	struct out o = strbuf_out(&sb);
	pmu_driver_snbep.ops->info(&o, &p, false);
	T_CONTAINS(buf, "  sockets numbered by their UBoxes' node IDs (8086:3ce0, CPUNODEID 0x40, GIDNIDMAP 0x54)\n"
			"  socket 0 (bus 0x7f): channels 0, 1, 2, 3\n");
	T_CONTAINS(buf, "  socket 1 (bus 0x3f): channels 0, 1, 2, 3\n");
	char name[48];
	T_STREQ(pmu_reg_name(&pmu_driver_snbep, &p, pmu_unit_sel(&pmu_driver_snbep.units[0], &p, 0, 0, 0), name,
			     sizeof(name)),
		"MC_CH0_PCI_PMON_CTL0 (socket 0)");
	T_EQ(p.pci[0][0].bus, 0x7F);
	/* a run: socket 0's channels (bus 0x7F) are boxes 0-3 */
	add("UNC_M_CAS_COUNT.RD");
	T_EQ(run_for(S, 100 * MS), UNC_OK);
	for (unsigned b = 0; b < 8; b++)
		T_EQ(run.c.ev[0].total.box[b], 1000000ull * ((b + 4) % 8 + 1));
	T_ASSERT(as_found());

	/* one bus without a UBox, or two UBoxes giving one socket: bus order */
	model(2);
	m.ubox[1] = (typeof(m.ubox[1])){ true, 0x2, map };
	pmu_present_free(&p);
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_snbep;
	T_EQ(pmu_driver_snbep.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.pci[0][0].bus, 0x3F);
	strbuf_init(&sb, buf, sizeof(buf));
	pmu_driver_snbep.ops->info(&o, &p, false);
	T_CONTAINS(buf, "  sockets numbered in bus order (not every uncore bus has a UBox");
	model(2);
	m.ubox[0] = (typeof(m.ubox[0])){ true, 0x2, map };
	m.ubox[1] = (typeof(m.ubox[1])){ true, 0x2, map };
	pmu_present_free(&p);
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_snbep;
	T_EQ(pmu_driver_snbep.ops->probe(&m.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.pci[0][0].bus, 0x3F);
	T_EQ(p.facts[SNBEP_FACT_SOCKETS], 2);
	pmu_present_free(&p);
}

T_MAIN("snbep", T_CASE(conformance_events), T_CASE(conformance_registers), T_CASE(probe_two_sockets),
       T_CASE(missing_channel_and_unexpected_id), T_CASE(three_sockets_all_counted),
       T_CASE(programming_sequence), T_CASE(wraps_48_bits), T_CASE(torn_read_high_low_high),
       T_CASE(write_that_does_not_stick), T_CASE(threshold_above_max_inc_refused), T_CASE(names_and_raw_syntax),
       T_CASE(sample_writes_nothing), T_CASE(torn_read_impossible_in_a_run), T_CASE(short_names), T_CASE(undecoded_buses_are_absent), T_CASE(journal_holds_two_sockets_and_a_core_pmu), T_CASE(force_gives_back_a_frozen_box), T_CASE(sockets_from_ubox_node_ids),
       T_CASE(ctl_or_counter_changed_during_the_run))
