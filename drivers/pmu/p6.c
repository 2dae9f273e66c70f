/* The P6-family core PMU: two general counters on the processor that runs
 * uncore.efi. The events are Table 6-2 of the MMX Technology Developer's
 * Guide, chapter 6, "MMX Technology Performance Monitoring Extensions",
 * section 6.2 (P6 family events; the copy followed is a Chinese
 * translation), with its notes 1 and 2 on the unit masks; the registers and their bits are Intel's
 * SDM Vol. 3B, "Performance Monitoring (P6 Family Processor)" (section
 * 18.22 in the 2016 editions, 18.25 in the 2009 ones) and the MSR table
 * "MSRs in the P6 Family Processors" (Vol. 3C Table 35-46 in 2016; Vol. 3B
 * Table B-11 in 2009). Section numbers move between editions: the titles
 * are the stable part of these citations.
 *
 * What sets this PMU apart (SDM, "PerfEvtSel0 and PerfEvtSel1 MSRs"): "EN
 * (Enable Counters) Flag (bit 22) - This flag is only present in the
 * PerfEvtSel0 MSR. When set, performance counting is enabled in both
 * performance-monitoring counters; when clear, both counters are
 * disabled." The MSR table lists bit 22 (ENABLE, "in both counters") for
 * 186H and no bit 22 for 187H. So no select carries an enable of its own
 * (layout.enable 0): freeze clears EN in PerfEvtSel0 and unfreeze sets it,
 * each by a read-modify-write through pmu_io, and PerfEvtSel1 never gets
 * bit 22. Linux does the same (arch/x86/events/intel/p6.c,
 * p6_pmu_disable_all and p6_pmu_enable_all). There is no global control and
 * no overflow status register. */
#include "p6.h"

#include "../base/fmt.h"

static const struct pmu_model p6_models[] = {
	{ 6, 0x1, "Pentium Pro" },
	{ 6, 0x3, "Pentium II (Klamath)" },
	{ 6, 0x5, "Pentium II/Celeron (Deschutes, Covington)" },
	{ 6, 0x6, "Celeron (Mendocino)" },
	{ 6, 0x7, "Pentium III (Katmai)" },
	{ 6, 0x8, "Pentium III/Celeron (Coppermine)" },
	{ 6, 0xA, "Pentium III Xeon (Cascades)" },
	{ 6, 0xB, "Pentium III/Celeron (Tualatin)" },
	{ 0, 0, 0 },
};

/* Not reserved in PerfEvtSel0: bits 31:23 and 20:0, and EN (22), which the
 * run sets only through freeze and unfreeze; bit 21 is reserved, and bit 22
 * is reserved in PerfEvtSel1. */
#define P6_SEL_RW 0xFF9FFFFFull

/* The fastest rate (max_per_sec) is a generous bound, not a measurement: the
 * fastest P6 part runs at 1.4 GHz (Tualatin) and retires at most 3 micro-ops
 * a clock, 4.2 * 10^9 per second; 2^34 (1.7 * 10^10) is four times that. A
 * 40-bit counter then wraps in 64 s at the least, so a sample every few
 * hundred milliseconds sees every wrap, and a counter written back to a
 * small value implies a step of nearly 2^40, hundreds of times more than
 * 2^34 allows in the 100 ms between two samples. */
#define P6_MAX_PER_SEC (1ull << 34)

/* Each event's own bound (clock_hz, incs): 2^31 Hz (no P6 part clocks
 * above 1.4 GHz) times what the event adds per cycle: 1, but up to 3 for
 * what the three-wide decoders and retirement count (instructions,
 * micro-ops, branches; MMX and SSE instructions retired, by the SDM's P6
 * event list), 2 for the two memory ports (DATA_MEM_REFS,
 * MISALIGN_MEM_REF) and the two MMX pipes, 4 for DCU_MISS_OUTSTANDING (the
 * DCU's four fill buffers) and 8 for BUS_REQ_OUTSTANDING (the bus's
 * in-order queue). Bounds, not measurements: each is at least what the
 * hardware can do. */
static const struct pmu_inc p6_incs[] = {
	{ 0xC0, 3 }, { 0xC2, 3 }, { 0xD0, 3 }, { 0xC4, 3 }, { 0xC5, 3 }, { 0xC9, 3 }, { 0xCA, 3 }, { 0xE0, 3 },
	{ 0xE4, 3 }, { 0xCE, 3 }, { 0xD8, 3 }, { 0xD9, 3 }, { 0x06, 3 }, { 0x43, 2 }, { 0x05, 2 }, { 0xB0, 2 },
	{ 0xB1, 2 }, { 0xB2, 2 }, { 0xB3, 2 }, { 0x48, 4 }, { 0x60, 8 }, { 0, 0 },
};

/* SDM, "PerfEvtSel0 and PerfEvtSel1 MSRs": event select 7:0, unit mask
 * 15:8, USR 16, OS 17, E 18, INV 23, CMASK 31:24. UEFI code runs at CPL 0,
 * so every select counts at ring 0 (OS); USR is set too, so that a child
 * image running at any CPL is counted. PC (19) and INT (20) stay clear: no
 * pin toggles and no interrupt on overflow. */
static const struct pmu_layout p6_layout = {
	.event = { 0, 8 },
	.umask = { 8, 8 },
	.thresh = { 24, 8 },
	.inv = 1ull << 23,
	.edge = 1ull << 18,
	.enable = 0,
	.os_usr = P6_SEL_OS | P6_SEL_USR,
	.rw_mask = P6_SEL_RW,
	.cite = "SDM Vol. 3B, PerfEvtSel0/1",
};

/* Table 6-2: FLOPS (C1H), FP_COMP_OPS_EXE (10H) and CYCLES_DIV_BUSY
 * (14H) "counter 0 only"; FP_ASSIST (11H), MUL (12H) and DIV (13H) "counter 1
 * only". Linux agrees (p6_event_constraints). It holds for raw events too. */
static const struct pmu_constraint p6_constraints[] = {
	{ 0x10, 0x1 }, { 0x14, 0x1 }, { 0xC1, 0x1 }, { 0x11, 0x2 }, { 0x12, 0x2 }, { 0x13, 0x2 }, { 0, 0 },
};

/* A write to PerfCtr0/1 takes bits 31:0 and "the upper 8 bits are
 * sign-extended according to the value of bit 31" (SDM, "PerfCtr0 and
 * PerfCtr1 MSRs"): write_width 32. */
static const struct pmu_unit p6_units[] = {
	{ .pmu = "p6", .intel_unit = "", .name = "P6", .kind = PMU_GENERAL, .per_cpu = true, .space = PMU_MSR, .counters = 2,
	  .width = P6_CTR_WIDTH, .write_width = 32, .max_boxes = 1, .sel_base = P6_PERFEVTSEL0, .ctr_base = P6_PERFCTR0, .sel_step = 1,
	  .ctr_step = 1, .layout = &p6_layout, .constraints = p6_constraints, .max_per_sec = P6_MAX_PER_SEC,
	  .clock_hz = 1ull << 31, .incs = p6_incs,
	  .raw_help = "p6/event=N,umask=N[,cmask=N][,inv][,edge]/", .ctr_write = PMU_CTR_WRITE,
	  .ctr_write_cite = "SDM Vol. 3B, PerfCtr0 and PerfCtr1 MSRs: written with WRMSR (bits 31:0, sign-extended)" },
};

/* Nothing to find: every P6 part has both counters (the SDM gives no way to
 * ask, and needs none). Reads nothing. */
static enum unc_status p6_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want, struct pmu_present *p,
				char *err, size_t errsize, char *warn, size_t warnsize)
{
	(void)hw, (void)cpu, (void)err, (void)errsize, (void)warn, (void)warnsize;
	if (want & 1u) {
		p->probed |= 1u;
		p->boxes[0] = p->found[0] = 1;
	}
	return UNC_OK;
}

/* Someone else is using the PMU when either select is not zero (EN in
 * PerfEvtSel0, or an event programmed in either). */
UNC_COLD static void p6_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
		      void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	static const uint32_t sels[] = { P6_PERFEVTSEL0, P6_PERFEVTSEL1 };
	uint64_t v;

	*r = (struct pmu_use){ .known = (p->probed & 1u) != 0 };
	for (unsigned i = 0; r->known && i < sizeof(sels) / sizeof(sels[0]); i++) {
		if (hw_msr_read(hw, sels[i], &v) != UNC_OK) {
			r->known = false;
			if (on_fault)
				on_fault(ctx, pmu_msr(sels[i]));
			return;
		}
		r->selects_checked++;
		if (v)
			pmu_use_busy(r, pmu_msr(sels[i]), v);
	}
}

/* EN off in PerfEvtSel0, the rest of it as it is (the first time: as found,
 * kept in s->found). */
static enum unc_status p6_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	uint64_t v;
	enum unc_status st;

	(void)p;
	if ((st = pmu_io_read(io, pmu_msr(P6_PERFEVTSEL0), &v)))
		return st;
	if (s->first)
		s->found = v;
	return pmu_io_write(io, pmu_msr(P6_PERFEVTSEL0), v & ~P6_SEL_EN);
}

/* EN on in PerfEvtSel0 as the engine programmed it (its event, or 0 when
 * only counter 1 has one): both counters start. s->base keeps what was
 * written, for the check. */
static enum unc_status p6_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	struct pmu_reg sel0 = pmu_msr(P6_PERFEVTSEL0);
	uint64_t v;
	enum unc_status st;

	(void)p;
	if ((st = pmu_io_read(io, sel0, &v)))
		return st;
	s->base = v | P6_SEL_EN;
	return verify ? pmu_io_write_check(io, sel0, s->base) : pmu_io_write(io, sel0, s->base);
}

/* At each sample: PerfEvtSel0 is what the run wrote, EN set. Its EN stops
 * both counters, so a PMU stopped (or reprogrammed) by someone else during
 * the run would give short counts that look like measurements. There is no
 * overflow status: the status is always 0. */
static enum unc_status p6_check(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s,
				uint64_t *ret_status)
{
	uint64_t v;
	enum unc_status st;

	(void)p;
	*ret_status = 0;
	if ((st = pmu_io_read(io, pmu_msr(P6_PERFEVTSEL0), &v)))
		return st;
	if (v != s->base)
		return pmu_io_fail(io, UNC_E_CLOBBERED, "PerfEvtSel0 (0x186) reads 0x%lx, not the 0x%lx this run wrote: %s during the run",
				   (unsigned long)v, (unsigned long)s->base,
				   v & P6_SEL_EN ? "written by someone else"
						 : "EN (bit 22) is clear, so both counters stopped (written by someone else)");
	return UNC_OK;
}

UNC_COLD static const char *p6_reg_name(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size)
{
	(void)p;
	(void)buf, (void)size;
	if (reg.space != PMU_MSR)
		return NULL;
	switch (reg.addr) {
	case P6_PERFEVTSEL0: return "PerfEvtSel0";
	case P6_PERFEVTSEL1: return "PerfEvtSel1";
	case P6_PERFCTR0: return "PerfCtr0";
	case P6_PERFCTR1: return "PerfCtr1";
	}
	return NULL;
}

static void p6_info(struct out *o, const struct pmu_present *p, bool json)
{
	(void)p;
	if (json) {
		out_printf(o, ",\"counters\":2,\"counter_width\":%d", P6_CTR_WIDTH);
		return;
	}
	out_printf(o, "core pmu:     P6: PerfEvtSel0/1 at 0x186/0x187, PerfCtr0/1 at 0xc1/0xc2, %d bits; EN (bit 22) "
		      "of PerfEvtSel0 starts both\n", P6_CTR_WIDTH);
}

static const struct pmu_ops p6_ops = {
	.probe = p6_probe,
	.in_use = p6_in_use,
	.freeze = p6_freeze,
	.unfreeze = p6_unfreeze,
	.check = p6_check,
	.reg_name = p6_reg_name,
	.info = p6_info,
};

extern const struct event_desc p6_events[];
extern const unsigned p6_events_count;

/* No globals: PerfEvtSel0, the one register freeze and unfreeze write, is
 * a select of the unit, which the run's snapshot reads first of all (the
 * select of counter 0 before its counter, then counter 1's), so the restore
 * puts it back last, after PerfCtr1, PerfEvtSel1 and PerfCtr0: the previous
 * owner's EN comes back only when everything else is as it found it. Listed
 * as globals too, they would be printed twice by `regs`. */
const struct pmu_driver pmu_driver_p6 = {
	.name = "p6-core",
	.title = "P6 family",
	.what = "P6 core PMU",
	.status_name = NULL, /* no overflow status register (every status_bit is 0) */
	.vendor = "GenuineIntel",
	.models = p6_models,
	.units = p6_units,
	.nunits = 1,
	.globals = NULL,
	.nglobals = 0,
	.events = p6_events,
	.nevents = &p6_events_count,
	.ops = &p6_ops,
};
