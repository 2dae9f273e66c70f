/* The uncore model. Section and table numbers are Intel 334060-001's. */
#include "model.h"

#include <string.h>

#include "../../drivers/arith.h"
#include "../../drivers/events.h"
#include "../../drivers/fmt.h"
#include "../../drivers/parse.h"

#define NS_PER_S 1000000000ull

/* Table 2-2: FRZ_ON_PMI 31, WAKE_ON_PMI 30, EN 29, PMI_SEL_CORE3..0 3:0.
 * Bit 4 is reserved in the manual, but Linux writes it on Skylake
 * (0x2000001F: one PMI select bit per core, up to five), so the model
 * takes it as RW rather than fault on what real software writes. */
#define GCTRL_FRZ_ON_PMI (1ull << 31)
#define GCTRL_EN         (1ull << 29)
#define GCTRL_RW         0xE000001Full
/* Table 2-3 (with the seeds README's correction): bits 0, 1 and 3 are RW1C. */
#define GSTATUS_RW1C     0xBull
/* Table 2-4: CNT_EN 22, OVF_EN 20. Table 2-7: THR 28:24, INV 23, EN 22,
 * OVF_EN 20, E 18, UMASK 15:8, EVT_SEL 7:0. */
#define FIXED_CTRL_RW    0x00500000ull
#define SEL_RW           0x1FD4FFFFull
#define SEL_EN           (1ull << 22)
#define SEL_OVF_EN       (1ull << 20)
#define SEL_EDGE         (1ull << 18)
#define SEL_INV          (1ull << 23)
#define SEL_THR(v)       (((v) >> 24) & 0x1f)

/* Table 3-1 (CBo, counters 0 and 1) and Table 3-2 (ARB; UNC_CLOCK.SOCKET
 * on the fixed counter). UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST has
 * the code and umask of UNC_ARB_TRK_OCCUPANCY.ALL; it counts "cycles with
 * at least one request outstanding", a threshold view of it. */
const struct emu_event emu_events[EMU_NEVENTS] = {
	{ "UNC_CBO_XSNP_RESPONSE.MISS_XCORE", EV_UNIT_CBO, 0x22, 0x41, 0x3, false },
	{ "UNC_CBO_XSNP_RESPONSE.MISS_EVICTION", EV_UNIT_CBO, 0x22, 0x81, 0x3, false },
	{ "UNC_CBO_XSNP_RESPONSE.HIT_XCORE", EV_UNIT_CBO, 0x22, 0x44, 0x3, false },
	{ "UNC_CBO_XSNP_RESPONSE.HITM_XCORE", EV_UNIT_CBO, 0x22, 0x48, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_M", EV_UNIT_CBO, 0x34, 0x21, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_M", EV_UNIT_CBO, 0x34, 0x81, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.READ_I", EV_UNIT_CBO, 0x34, 0x18, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_I", EV_UNIT_CBO, 0x34, 0x88, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.READ_MESI", EV_UNIT_CBO, 0x34, 0x1F, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_MESI", EV_UNIT_CBO, 0x34, 0x2F, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_MESI", EV_UNIT_CBO, 0x34, 0x8F, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_ES", EV_UNIT_CBO, 0x34, 0x86, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.READ_ES", EV_UNIT_CBO, 0x34, 0x16, 0x3, false },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_ES", EV_UNIT_CBO, 0x34, 0x26, 0x3, false },
	{ "UNC_ARB_TRK_OCCUPANCY.ALL", EV_UNIT_ARB, 0x80, 0x01, 0x1, false },
	{ "UNC_ARB_TRK_REQUESTS.ALL", EV_UNIT_ARB, 0x81, 0x01, 0x3, false },
	{ "UNC_ARB_TRK_REQUESTS.WRITES", EV_UNIT_ARB, 0x81, 0x20, 0x3, false },
	{ "UNC_ARB_COH_TRK_REQUESTS.ALL", EV_UNIT_ARB, 0x84, 0x01, 0x3, false },
	{ "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", EV_UNIT_ARB, 0x80, 0x01, 0x1, true },
	{ "UNC_CLOCK.SOCKET", EV_UNIT_FIXED, 0x00, 0x01, 0x80, false },
};

/* Table 3-3, in its order; perf's names from Linux uncore_snb.c. */
const struct emu_imc emu_imc[EMU_IMC_COUNTERS] = {
	{ "DRAM_GT_REQUESTS", "gt_requests", 0x5040 },	 { "DRAM_IA_REQUESTS", "ia_requests", 0x5044 },
	{ "DRAM_IO_REQUESTS", "io_requests", 0x5048 },	 { "DRAM_DATA_READS", "data_reads", 0x5050 },
	{ "DRAM_DATA_WRITES", "data_writes", 0x5054 },
};

const struct emu_event *emu_event_find(const char *name)
{
	for (unsigned i = 0; i < EMU_NEVENTS; i++)
		if (str_ieq(name, emu_events[i].name))
			return &emu_events[i];
	return NULL;
}

int emu_imc_find(const char *name)
{
	for (int i = 0; i < EMU_IMC_COUNTERS; i++)
		if (imc_name_matches(name, emu_imc[i].name, emu_imc[i].perf_name))
			return i;
	return -1;
}

void emu_config_default(struct emu_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->no_cbo_banks = 5;
	cfg->uclk_hz = 800000000;
}

static uint64_t cycles_at(const struct emu *e, uint64_t t_ns)
{
	return u64_muldiv(t_ns, e->cfg.uclk_hz, NS_PER_S);
}

static uint64_t rate_of(const struct emu *e, const struct emu_ctr *c)
{
	uint8_t code = c->sel & 0xff, umask = (c->sel >> 8) & 0xff;

	/* Table 3-2: UNC_ARB_TRK_OCCUPANCY (0x80) counts on ARB counter 0
	 * only, and so does 0x83 (Linux uncore_snb.c, snb_uncore_arb_constraints);
	 * the model makes them count nothing on counter 1. */
	if (c->unit == EV_UNIT_ARB && (code == 0x80 || code == 0x83) && c->index != 0)
		return 0;
	for (unsigned i = 0; i < e->cfg.nrates; i++) {
		const struct emu_rate *r = &e->cfg.rates[i];
		if (r->unit == c->unit && r->code == code && r->umask == umask)
			return r->per_sec;
	}
	return 0;
}

/* What counter c adds over UCLK cycles [c0, c1).
 *
 * The model spreads an event evenly over cycles: after n cycles an event of
 * rate r has incremented floor(n * r / f) times, so each cycle's increment is
 * floor(r/f) or one more. Table 2-7's fields then act per cycle:
 *  - THR = 0: the increment passes unchanged (INV has no effect);
 *  - THR > 0: the counter adds 1 in each cycle whose increment is >= THR,
 *    or, with INV, < THR;
 *  - E: the counter adds 1 per rising edge of that per-cycle condition (for
 *    THR = 0, "increment > 0"). An evenly spread condition true in a
 *    fraction q of cycles has min(q, 1-q) rising edges per cycle: this is
 *    exact up to one edge at each end of [c0, c1), which is the model's
 *    approximation. */
static uint64_t increment(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1)
{
	uint64_t cycles = c1 - c0;

	if (c->unit == EV_UNIT_FIXED)
		return cycles;

	uint64_t f = e->cfg.uclk_hz, r = rate_of(e, c);
	uint64_t total = u64_muldiv(c1, r, f) - u64_muldiv(c0, r, f);
	unsigned thr = SEL_THR(c->sel);
	bool edge = c->sel & SEL_EDGE;

	if (thr == 0 && !edge)
		return total;
	uint64_t n = r / f, hi = total - n * cycles; /* cycles whose increment is n + 1 */
	uint64_t asserted;
	if (thr) {
		asserted = n >= thr ? cycles : n + 1 >= thr ? hi : 0;
		if (c->sel & SEL_INV)
			asserted = cycles - asserted;
	} else {
		asserted = n >= 1 ? cycles : hi;
	}
	if (!edge)
		return asserted;
	return asserted < cycles - asserted ? asserted : cycles - asserted;
}

static bool counting(const struct emu *e, const struct emu_ctr *c)
{
	return (e->global_ctrl & GCTRL_EN) && (c->sel & SEL_EN) && !c->stuck;
}

static uint64_t width_mask(unsigned w)
{
	return ((uint64_t)1 << w) - 1;
}

/* Applies counting up to the current time. A wrap sets the unit's
 * GLOBAL_STATUS bit only for a counter with OVF_EN (Tables 2-4 and 2-7:
 * "0: Counter overflow is not forwarded"). With FRZ_ON_PMI set, the first
 * overflow of a counter with OVF_EN stops every counter at that cycle and
 * clears GLOBAL_CTRL.EN (Table 2-2). */
static void sync(struct emu *e)
{
	uint64_t c_now = cycles_at(e, e->now_ns), c_end = c_now;
	bool freeze = false;

	if (c_now <= e->synced)
		return;
	if (!(e->global_ctrl & GCTRL_EN)) {
		e->synced = c_now;
		return;
	}
	if (e->global_ctrl & GCTRL_FRZ_ON_PMI) {
		for (unsigned i = 0; i < EMU_CTR_IMC0; i++) {
			struct emu_ctr *c = &e->ctr[i];
			if (!counting(e, c) || !(c->sel & SEL_OVF_EN))
				continue;
			uint64_t need = width_mask(c->width) + 1 - c->value;
			if (increment(e, c, e->synced, c_end) < need)
				continue;
			/* The first cycle at which this counter wraps. */
			uint64_t lo = e->synced + 1, hi = c_end;
			while (lo < hi) {
				uint64_t mid = lo + (hi - lo) / 2;
				if (increment(e, c, e->synced, mid) >= need)
					hi = mid;
				else
					lo = mid + 1;
			}
			c_end = lo;
			freeze = true;
		}
	}
	for (unsigned i = 0; i < EMU_CTR_IMC0; i++) {
		struct emu_ctr *c = &e->ctr[i];
		if (!counting(e, c))
			continue;
		uint64_t v = c->value + increment(e, c, e->synced, c_end);
		if (v > width_mask(c->width) && (c->sel & SEL_OVF_EN))
			e->global_status |= 1ull << c->status_bit;
		c->value = v & width_mask(c->width);
	}
	if (freeze)
		e->global_ctrl &= ~GCTRL_EN;
	e->synced = c_now;
}

bool emu_global_ctrl_valid(uint64_t v)
{
	return !(v & ~GCTRL_RW);
}

void emu_init(struct emu *e, const struct emu_config *cfg)
{
	memset(e, 0, sizeof(*e));
	e->cfg = *cfg;
	/* Section 2.4.1: NO_CBO_BANKS less one; boxes beyond EMU_MAX_CBO are
	 * not emulated (the field still reads as configured). */
	unsigned raw = cfg->no_cbo_banks & 0xf;
	e->ncbo = raw == 0 ? 0 : raw - 1 > EMU_MAX_CBO ? EMU_MAX_CBO : raw - 1;

	e->ctr[EMU_CTR_FIXED] = (struct emu_ctr){ .width = 48, .status_bit = 0, .unit = EV_UNIT_FIXED };
	for (unsigned i = 0; i < 2; i++)
		e->ctr[EMU_CTR_ARB0 + i] = (struct emu_ctr){ .width = 44, .status_bit = 1, .unit = EV_UNIT_ARB,
							     .index = (uint8_t)i };
	for (unsigned i = 0; i < 2 * EMU_MAX_CBO; i++)
		e->ctr[EMU_CTR_CBO0 + i] = (struct emu_ctr){ .width = 44, .status_bit = 3, .unit = EV_UNIT_CBO,
							     .index = (uint8_t)(i % 2) };
	for (unsigned i = 0; i < EMU_CTR_IMC0; i++)
		e->ctr[i].stuck = cfg->stuck[i];

	if (cfg->pmu_in_use) {
		/* Someone else's measurement: globally enabled, with
		 * UNC_CBO_CACHE_LOOKUP.ANY_MESI (or, with no CBo, an ARB event) on. */
		e->global_ctrl = GCTRL_EN;
		if (e->ncbo)
			e->ctr[EMU_CTR_CBO0].sel = SEL_EN | 0x8f34;
		else
			e->ctr[EMU_CTR_ARB0].sel = SEL_EN | 0x0181;
	}
	if (cfg->global_ctrl_set)
		e->global_ctrl = cfg->global_ctrl;
}

void emu_set_time(struct emu *e, uint64_t now_ns)
{
	if (now_ns > e->now_ns)
		e->now_ns = now_ns;
}

enum reg_kind { REG_OUTSIDE, REG_ABSENT, REG_GCTRL, REG_GSTATUS, REG_CBO_CONFIG, REG_SEL, REG_CTR };

/* Table 2-1, and CBos 4-7 as Linux addresses them (model.h). CBo registers
 * beyond the configured count are absent (#GP), as are the unlisted
 * addresses between a box's registers. */
static enum reg_kind decode(struct emu *e, uint32_t msr, struct emu_ctr **ret)
{
	switch (msr) {
	case MSR_UNC_PERF_GLOBAL_CTRL: return REG_GCTRL;
	case MSR_UNC_PERF_GLOBAL_STATUS: return REG_GSTATUS;
	case MSR_UNC_CBO_CONFIG: return REG_CBO_CONFIG;
	case MSR_UNC_PERF_FIXED_CTRL: *ret = &e->ctr[EMU_CTR_FIXED]; return REG_SEL;
	case MSR_UNC_PERF_FIXED_CTR: *ret = &e->ctr[EMU_CTR_FIXED]; return REG_CTR;
	case 0x3B0: case 0x3B1: *ret = &e->ctr[EMU_CTR_ARB0 + (msr - 0x3B0)]; return REG_CTR;
	case 0x3B2: case 0x3B3: *ret = &e->ctr[EMU_CTR_ARB0 + (msr - 0x3B2)]; return REG_SEL;
	}
	unsigned box, off;
	if (msr >= 0xF70 && msr < 0xF80) { /* box 7: PERFEVTSEL0 0xF70, PERFCTR0 0xF76 */
		box = 7;
		off = msr & 0xf;
	} else if (msr >= 0x700 && msr < 0x700 + 0x10 * (EMU_MAX_CBO - 1)) {
		box = (msr - 0x700) >> 4;
		off = msr & 0xf;
	} else {
		return REG_OUTSIDE;
	}
	if (box >= e->ncbo)
		return REG_ABSENT;
	if (off == 0 || off == 1) {
		*ret = &e->ctr[EMU_CTR_CBO0 + 2 * box + off];
		return REG_SEL;
	}
	if (off == 6 || off == 7) {
		*ret = &e->ctr[EMU_CTR_CBO0 + 2 * box + off - 6];
		return REG_CTR;
	}
	return REG_ABSENT;
}

static bool injected_gp(const struct emu *e, uint32_t msr, bool write)
{
	for (unsigned i = 0; i < e->cfg.ngp; i++)
		if (e->cfg.gp[i].msr == msr && (write || !e->cfg.gp[i].write_only))
			return true;
	return false;
}

enum unc_status emu_msr_read(struct emu *e, uint32_t msr, uint64_t *ret_val)
{
	struct emu_ctr *c = NULL;
	enum reg_kind k = decode(e, msr, &c);

	if (injected_gp(e, msr, false))
		return UNC_E_FAULT;
	if (k == REG_OUTSIDE)
		return UNC_E_NOT_FOUND;
	if (k == REG_ABSENT)
		return UNC_E_FAULT;
	sync(e);
	switch (k) {
	case REG_GCTRL: *ret_val = e->global_ctrl; break;
	case REG_GSTATUS: *ret_val = e->global_status; break;
	case REG_CBO_CONFIG:
		*ret_val = (e->cfg.no_cbo_banks & UNC_CBO_CONFIG_NO_CBO_BANKS) | e->cfg.cbo_config_reserved;
		break;
	case REG_SEL: *ret_val = c->sel; break;
	case REG_CTR: *ret_val = c->value; break;
	default: return UNC_E_FAULT;
	}
	return UNC_OK;
}

enum unc_status emu_msr_write(struct emu *e, uint32_t msr, uint64_t v)
{
	struct emu_ctr *c = NULL;
	enum reg_kind k = decode(e, msr, &c);

	if (injected_gp(e, msr, true))
		return UNC_E_FAULT;
	if (k == REG_OUTSIDE)
		return UNC_E_NOT_FOUND;
	/* Every check before any change: a faulting write changes nothing. */
	switch (k) {
	case REG_ABSENT:
	case REG_CBO_CONFIG: /* Table 2-6: read only; the model faults, as reserved writes do */
		return UNC_E_FAULT;
	case REG_GCTRL:
		if (v & ~GCTRL_RW)
			return UNC_E_FAULT;
		break;
	case REG_GSTATUS:
		if (v & ~GSTATUS_RW1C)
			return UNC_E_FAULT;
		break;
	case REG_SEL:
		if (v & ~(c->unit == EV_UNIT_FIXED ? FIXED_CTRL_RW : SEL_RW))
			return UNC_E_FAULT;
		break;
	case REG_CTR:
		if (v & ~width_mask(c->width))
			return UNC_E_FAULT;
		break;
	default:
		return UNC_E_FAULT;
	}
	sync(e);
	switch (k) {
	case REG_GCTRL: e->global_ctrl = v; break;
	case REG_GSTATUS: e->global_status &= ~v; break;
	case REG_SEL: c->sel = v; break;
	case REG_CTR: c->value = v; break;
	default: break;
	}
	return UNC_OK;
}

uint32_t emu_imc_value(const struct emu_config *cfg, unsigned i, uint64_t t_ns)
{
	if (cfg->stuck[EMU_CTR_IMC0 + i])
		return cfg->imc_start[i];
	return (uint32_t)(cfg->imc_start[i] + u64_muldiv(t_ns, cfg->imc_per_sec[i], NS_PER_S));
}

uint64_t emu_mchbar_value(const struct emu_config *cfg, uint64_t base)
{
	switch (cfg->mchbar_fault) {
	case EMU_MCHBAR_DISABLED: return base;
	case EMU_MCHBAR_ZERO: return SKL_MCHBAR_ENABLE;
	case EMU_MCHBAR_HIGH: return SKL_MCHBAR_MASK | SKL_MCHBAR_ENABLE;
	case EMU_MCHBAR_OK: break;
	}
	return base | SKL_MCHBAR_ENABLE;
}
