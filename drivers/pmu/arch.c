/* The architectural core PMU: Intel SDM Vol. 3B, "Architectural Performance
 * Monitoring" (versions 1 to 5; section names are the SDM's), with the MSRs
 * of Vol. 4. Any GenuineIntel CPU whose CPUID leaf 0xA reports version 1 or
 * later; what it has (counters, widths, unavailable events, full-width
 * writes) comes from CPUID and IA32_PERF_CAPABILITIES at the probe. Counters
 * are read with RDPMC where it works, else with rdmsr. Units as data,
 * behaviour as ops; the engine does the rest. */
#include "arch.h"

#include "../base/fmt.h"

/* "Pre-defined Architectural Performance Events": CPUID.0AH:EBX bit n set
 * means event n is not available. */
const struct arch_event arch_ebx_events[8] = {
	{ 0x3C, 0x00, "UnHalted Core Cycles" },	       { 0xC0, 0x00, "Instruction Retired" },
	{ 0x3C, 0x01, "UnHalted Reference Cycles" },   { 0x2E, 0x4F, "LLC Reference" },
	{ 0x2E, 0x41, "LLC Misses" },		       { 0xC4, 0x00, "Branch Instruction Retired" },
	{ 0xC5, 0x00, "Branch Misses Retired" },       { 0xA4, 0x01, "Topdown Slots" },
};

/* The fastest a core counter moves, per second: a bound, not a
 * measurement. No core runs at 8.6 GHz (2^33) and none retires or counts
 * 32 events in a cycle, so 2^38 per second is above every rate; a counter
 * written back to a small value implies a step near 2^40 or more (the
 * narrowest, version 1's, are 40 bits), seconds' worth at that rate, far
 * beyond the 100 ms between samples. */
#define ARCH_MAX_PER_SEC (1ull << 38)

/* "Layout of IA32_PERFEVTSELx MSRs": event select 7:0, umask 15:8, USR 16,
 * OS 17, E 18, PC 19, INT 20, AnyThread 21, EN 22, INV 23, CMASK 31:24.
 * UEFI code runs at CPL 0, so OS is set; USR too, so that a child image at
 * any CPL counts. EN is not in the encoding: the driver's unfreeze sets it
 * in each select that holds an event and its freeze clears it on version
 * 1, which has no global control (see arch_unfreeze). */
static const struct pmu_layout arch_layout = {
	.event = { 0, 8 },
	.umask = { 8, 8 },
	.thresh = { 24, 8 },
	.inv = ARCH_SEL_INV,
	.edge = ARCH_SEL_EDGE,
	.os_usr = ARCH_SEL_USR | ARCH_SEL_OS,
	.rw_mask = 0xFFFFFFFFull,
	.cite = "SDM Vol. 3B, IA32_PERFEVTSELx",
};

#define RAW_HELP "cpu/event=N[,umask=N][,cmask=N][,inv][,edge]/"

static const struct pmu_unit arch_units[ARCH_NUNITS] = {
	/* The general counters: their number and width from CPUID.0AH:EAX.
	 * The snapshot does not read the counters (the driver has read_counter):
	 * reset_box writes them through the journal, at IA32_A_PMCx when
	 * full-width writes are on, so that the value as found goes back whole. */
	[ARCH_UNIT_GP] = { .pmu = "cpu", .intel_unit = "", .name = "PMC", .boxes_from = "CPUID leaf 0xA",
			   .kind = PMU_GENERAL, .per_cpu = true, .space = PMU_MSR, .counters = ARCH_MAX_GP, .width = 48, .write_width = 32,
			   .max_boxes = 1, .sel_base = IA32_PERFEVTSEL0, .ctr_base = IA32_PMC0, .sel_step = 1, .ctr_step = 1,
			   .layout = &arch_layout, .max_per_sec = ARCH_MAX_PER_SEC, .status_bit = 0x7F, .raw_help = RAW_HELP,
			   .ctr_write = PMU_CTR_WRITE, .ctr_write_cite = "SDM Vol. 3B, Architectural Performance Monitoring: IA32_PMCx (and IA32_A_PMCx) are read/write" },
	/* The fixed counters (version 2 on): IA32_FIXED_CTR0 to 2, started
	 * together through IA32_FIXED_CTR_CTRL (fixed_start), which is each
	 * counter's "select" (sel_step 0), so the snapshot saves it once.
	 * fixed_ctrl is a counter's 4-bit field: OS and USR. Its events carry
	 * Unit "FIXED" in events/arch.json (Intel's core files have no Unit). */
	[ARCH_UNIT_FIXED] = { .pmu = "cpu_fixed", .intel_unit = "", .name = "FIXED_CTR",
			      .boxes_from = "CPUID leaf 0xA", .kind = PMU_FIXED, .per_cpu = true, .space = PMU_MSR,
			      .counters = ARCH_MAX_FIXED, .width = 48, .write_width = 32, .max_boxes = 1, .sel_base = IA32_FIXED_CTR_CTRL,
			      .ctr_base = IA32_FIXED_CTR0, .sel_step = 0, .ctr_step = 1, .fixed_ctrl = ARCH_FIXED_OS_USR,
			      .max_per_sec = ARCH_MAX_PER_SEC, .status_bit = 0x7ull << 32, .ctr_write = PMU_CTR_WRITE,
			      .ctr_write_cite = "SDM Vol. 3B, Fixed-Function Performance Counters: IA32_FIXED_CTRx are read/write" },
};

/* The model entry match returns: its name is info's model name. */
static const struct pmu_model arch_versions[] = {
	{ 6, 0, "architectural PMU version 1" }, { 6, 0, "architectural PMU version 2" },
	{ 6, 0, "architectural PMU version 3" }, { 6, 0, "architectural PMU version 4" },
	{ 6, 0, "architectural PMU version 5" }, { 6, 0, "architectural PMU version 6 or later" },
};

/* "Architectural Performance Monitoring": CPUID.0AH:EAX[7:0] > 0 says the
 * PMU is there. The leaf is read only when CPUID reaches it. */
UNC_COLD static const struct pmu_model *arch_match(const struct hw *hw, const struct cpu_info *cpu)
{
	struct cpuid_regs r;

	if (!cpu->is_intel || cpu->max_leaf < ARCH_CPUID_LEAF)
		return NULL;
	hw_cpuid(hw, ARCH_CPUID_LEAF, 0, &r);
	unsigned v = r.eax & 0xFF;
	if (v == 0)
		return NULL;
	return &arch_versions[v > 6 ? 5 : v - 1];
}

static unsigned bits(uint64_t v, unsigned lo, unsigned n)
{
	return (unsigned)(v >> lo & ((1u << n) - 1));
}

/* How many fixed counters from 0 up exist: EDX[4:0] (version 2 on), and
 * from version 5 also ECX bit n ("FxCtr[n] is supported if ECX[n] || EDX[4:0] > n").
 * Versions 2 to 4 may report none in EDX though the three are there: Linux
 * assumes 3 unless under a hypervisor (arch/x86/events/intel/core.c,
 * intel_pmu_init: "v2 perfmon does not report fixed-purpose events"), as
 * here, whose emulated PMU says what it has. */
static unsigned fixed_count(const struct pmu_present *p, bool hypervisor)
{
	unsigned v = arch_version(p), n = 0;

	if (v < 2)
		return 0;
	while (n < ARCH_MAX_FIXED &&
	       (bits(p->facts[ARCH_FACT_EDX], 0, 5) > n || (v >= 5 && (p->facts[ARCH_FACT_ECX] >> n & 1))))
		n++;
	if (v <= 4 && !hypervisor && n < ARCH_MAX_FIXED)
		n = ARCH_MAX_FIXED;
	return n;
}

unsigned arch_fixed_counters(const struct pmu_present *p)
{
	unsigned n = bits(p->facts[ARCH_FACT_CPUID1_ECX], 32, 8);

	return n || arch_version(p) < 2 ? n : bits(p->facts[ARCH_FACT_EDX], 0, 5);
}

unsigned arch_fixed_width(const struct pmu_present *p)
{
	unsigned w = bits(p->facts[ARCH_FACT_CPUID1_ECX], 40, 8);

	return w || !arch_fixed_counters(p) ? w : bits(p->facts[ARCH_FACT_EDX], 5, 8);
}

bool arch_fixed_assumed(const struct pmu_present *p)
{
	return arch_version(p) >= 2 && arch_version(p) <= 4 &&
	       arch_fixed_counters(p) > bits(p->facts[ARCH_FACT_EDX], 0, 5);
}

struct pmu_reg arch_counter_reg(const struct pmu_present *p, unsigned unit, unsigned idx)
{
	if (unit == ARCH_UNIT_FIXED)
		return pmu_msr(IA32_FIXED_CTR0 + idx);
	return pmu_msr((arch_full_width(p) ? IA32_A_PMC0 : IA32_PMC0) + idx);
}

/* Reads only: CPUID leaves 0xA and 1, IA32_PERF_CAPABILITIES when PDCM
 * says it exists, and one RDPMC of general counter 0 (does RDPMC work
 * here? QEMU's TCG raises #UD for every RDPMC). Both units are probed
 * whatever `want` asks: one leaf gives them all. */
UNC_COLD static enum unc_status arch_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want,
				  struct pmu_present *p, char *err, size_t errsize, char *warn, size_t warnsize)
{
	struct cpuid_regs a, one;
	uint64_t v = 0;

	(void)want, (void)warn, (void)warnsize;
	hw_cpuid(hw, ARCH_CPUID_LEAF, 0, &a);
	hw_cpuid(hw, 1, 0, &one);
	p->facts[ARCH_FACT_EAX] = a.eax;
	p->facts[ARCH_FACT_EBX] = a.ebx;
	p->facts[ARCH_FACT_ECX] = a.ecx;
	p->facts[ARCH_FACT_EDX] = a.edx;
	p->facts[ARCH_FACT_CPUID1_ECX] = one.ecx;
	p->probed |= 1u << ARCH_UNIT_GP | 1u << ARCH_UNIT_FIXED;
	if (arch_version(p) == 0) {
		fmt_snprintf(err, errsize, "CPUID leaf 0xA reports version 0: this CPU has no architectural PMU");
		return UNC_E_UNSUPPORTED;
	}
	unsigned gp = bits(a.eax, 8, 8), fixed = fixed_count(p, cpu->hypervisor);
	p->found[ARCH_UNIT_GP] = p->boxes[ARCH_UNIT_GP] = gp ? 1 : 0;
	p->counters[ARCH_UNIT_GP] = (uint8_t)(gp > ARCH_MAX_GP ? ARCH_MAX_GP : gp);
	p->width[ARCH_UNIT_GP] = (uint8_t)bits(a.eax, 16, 8);
	p->found[ARCH_UNIT_FIXED] = p->boxes[ARCH_UNIT_FIXED] = fixed ? 1 : 0;
	p->counters[ARCH_UNIT_FIXED] = (uint8_t)fixed;
	p->width[ARCH_UNIT_FIXED] = (uint8_t)(fixed ? bits(a.edx, 5, 8) : 0);
	/* Counters EDX did not report have no width there either: the general
	 * counters' (Linux gives every counter EAX's width, cntval_bits). */
	p->facts[ARCH_FACT_CPUID1_ECX] |= (uint64_t)fixed << 32;
	if (arch_fixed_assumed(p) && p->width[ARCH_UNIT_FIXED] == 0)
		p->width[ARCH_UNIT_FIXED] = p->width[ARCH_UNIT_GP];
	p->facts[ARCH_FACT_CPUID1_ECX] |= (uint64_t)p->width[ARCH_UNIT_FIXED] << 40;
	if ((gp && (p->width[ARCH_UNIT_GP] < 32 || p->width[ARCH_UNIT_GP] > 64)) ||
	    (fixed && (p->width[ARCH_UNIT_FIXED] < 32 || p->width[ARCH_UNIT_FIXED] > 64))) {
		fmt_snprintf(err, errsize, "CPUID leaf 0xA gives counters of %u and %u bits (EAX 0x%x, EDX 0x%x): not a width "
					   "this driver can count with",
			     p->width[ARCH_UNIT_GP], p->width[ARCH_UNIT_FIXED], a.eax, a.edx);
		return UNC_E_UNSUPPORTED;
	}
	enum unc_status st = UNC_E_NOT_FOUND;
	if (one.ecx & ARCH_CPUID1_ECX_PDCM)
		st = hw_msr_read(hw, IA32_PERF_CAPABILITIES, &v);
	p->facts[ARCH_FACT_CAPS] = st == UNC_OK ? v : 0;
	p->facts[ARCH_FACT_CAPS_ST] = st;
	/* A read of IA32_PERF_CAPABILITIES that faults says nothing of
	 * full-width writes: IA32_A_PMC0 answering does ("Full-Width Writes to
	 * Performance Counter Registers"), and then its FW_WRITE is taken as set. */
	if (st != UNC_OK && st != UNC_E_NOT_FOUND && gp && hw_msr_read(hw, IA32_A_PMC0, &v) == UNC_OK)
		p->facts[ARCH_FACT_CAPS] = ARCH_CAPS_FW_WRITE;
	if (arch_full_width(p))
		p->write_width[ARCH_UNIT_GP] = p->width[ARCH_UNIT_GP];
	v = 0;
	p->facts[ARCH_FACT_RDPMC_ST] = gp ? hw_rdpmc(hw, 0, &v) : UNC_E_NOT_FOUND;
	if (arch_version(p) < 2) /* IA32_PERF_GLOBAL_CTRL comes with version 2 */
		p->globals_absent |= 1u << 0;
	return UNC_OK;
}

UNC_COLD static bool arch_event_ok(const struct pmu_present *p, unsigned unit, uint8_t code, uint8_t umask, uint8_t thresh,
			  char *err, size_t errsize)
{
	unsigned len = bits(p->facts[ARCH_FACT_EAX], 24, 8);

	(void)thresh; /* a counter mask, which any event takes */
	if (unit != ARCH_UNIT_GP)
		return true;
	/* arch_ebx_events: EBX bit b set marks event b unavailable, for the
	 * first EAX[31:24] bits (beyond them nothing says it exists). */
	for (unsigned b = 0; b < sizeof(arch_ebx_events) / sizeof(arch_ebx_events[0]); b++) {
		if (arch_ebx_events[b].code != code || arch_ebx_events[b].umask != umask)
			continue;
		if (b < len && !(p->facts[ARCH_FACT_EBX] >> b & 1))
			return true;
		fmt_snprintf(err, errsize, "CPUID leaf 0xA marks %s (event 0x%02x, umask 0x%02x) unavailable on this CPU "
					   "(EBX 0x%lx, %u bits)",
			     arch_ebx_events[b].name, code, umask, (unsigned long)p->facts[ARCH_FACT_EBX], len);
		return false;
	}
	return true; /* not an architectural event: the CPU's own (raw) */
}

static unsigned gp_count(const struct pmu_present *p)
{
	return p->boxes[ARCH_UNIT_GP] ? pmu_counters_of(&arch_units[ARCH_UNIT_GP], p, ARCH_UNIT_GP) : 0;
}

static unsigned fixed_live(const struct pmu_present *p)
{
	return p->boxes[ARCH_UNIT_FIXED] ? pmu_counters_of(&arch_units[ARCH_UNIT_FIXED], p, ARCH_UNIT_FIXED) : 0;
}

/* IA32_PERF_GLOBAL_CTRL's enable bits of the counters this driver runs:
 * general counter n is bit n, fixed counter n bit 32 + n. */
static uint64_t enable_bits(const struct pmu_present *p)
{
	return pmu_width_mask(gp_count(p)) | pmu_width_mask(fixed_live(p)) << 32;
}

/* The field of IA32_FIXED_CTR_CTRL that makes fixed counter n count (OS or USR). */
static uint64_t fixed_counting_bits(unsigned n)
{
	uint64_t m = 0;

	for (unsigned i = 0; i < n; i++)
		m |= (uint64_t)ARCH_FIXED_OS_USR << (ARCH_FIXED_FIELD_BITS * i);
	return m;
}

/* Someone else is using the PMU when an event select has EN set, or a
 * fixed counter's field in IA32_FIXED_CTR_CTRL counts at any ring. The
 * global control's enable bits are no sign of use: they are set at power-up
 * ("IA32_PERF_GLOBAL_CTRL" in the version 2 section), so they are reported,
 * not judged. */
UNC_COLD static void arch_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
			void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	struct pmu_reg regs[ARCH_MAX_GP + 2];
	unsigned n = 0;
	uint64_t v;

	*r = (struct pmu_use){ .known = (p->probed & 1u << ARCH_UNIT_GP) != 0 };
	for (unsigned i = 0; i < gp_count(p); i++)
		regs[n++] = pmu_msr(IA32_PERFEVTSEL0 + i);
	if (fixed_live(p))
		regs[n++] = pmu_msr(IA32_FIXED_CTR_CTRL);
	if (arch_version(p) >= 2)
		regs[n++] = pmu_msr(IA32_PERF_GLOBAL_CTRL);
	for (unsigned i = 0; i < n; i++) {
		if (hw_msr_read(hw, (uint32_t)regs[i].addr, &v) != UNC_OK) {
			r->known = false;
			if (on_fault)
				on_fault(ctx, regs[i]);
			continue;
		}
		bool busy;
		if (regs[i].addr == IA32_PERF_GLOBAL_CTRL) {
			r->global_ctrl = v;
			continue;
		} else if (regs[i].addr == IA32_FIXED_CTR_CTRL) {
			busy = (v & fixed_counting_bits(fixed_live(p))) != 0;
		} else {
			busy = (v & ARCH_SEL_EN) != 0;
			r->selects_checked++;
		}
		if (busy)
			pmu_use_busy(r, regs[i], v);
	}
}

/* Sets or clears EN in each general select that holds an event (not 0),
 * read-modify-write through the journal. */
static enum unc_status selects_en(struct pmu_io *io, const struct pmu_present *p, bool on, bool verify)
{
	enum unc_status st;

	for (unsigned i = 0; i < gp_count(p); i++) {
		struct pmu_reg sel = pmu_msr(IA32_PERFEVTSEL0 + i);
		uint64_t v, want;
		if ((st = pmu_io_read(io, sel, &v)))
			return st;
		want = on ? v | ARCH_SEL_EN : v & ~ARCH_SEL_EN;
		if (v == 0 || want == v)
			continue;
		if ((st = verify ? pmu_io_write_check(io, sel, want) : pmu_io_write(io, sel, want)))
			return st;
	}
	return UNC_OK;
}

/* Version 2 on: IA32_PERF_GLOBAL_CTRL without this driver's enable bits
 * stops every counter at once ("Architectural Performance Monitoring
 * Version 2"). Version 1 has no global control: EN is cleared in each
 * select that has it. */
static enum unc_status arch_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	enum unc_status st;

	if (arch_version(p) < 2)
		return selects_en(io, p, false, false);
	if (s->first) {
		if ((st = pmu_io_read(io, pmu_msr(IA32_PERF_GLOBAL_CTRL), &s->found)) ||
		    (st = pmu_io_read(io, pmu_msr(IA32_PERF_GLOBAL_STATUS), &s->status_at_start)))
			return st;
		s->base = s->found & ~enable_bits(p);
	}
	return pmu_io_write(io, pmu_msr(IA32_PERF_GLOBAL_CTRL), s->base);
}

/* IA32_PERF_GLOBAL_OVF_CTRL: writing 1 clears the STATUS bit; it is not
 * saved (nothing to put back). */
static enum unc_status arch_clear_status(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s,
					 uint64_t bits)
{
	(void)s;
	if (arch_version(p) < 2)
		return UNC_OK;
	return pmu_io_write_nosave(io, pmu_msr(IA32_PERF_GLOBAL_OVF_CTRL), bits & enable_bits(p));
}

/* EN in each select with an event (the engine wrote them without it), then
 * the global enables (version 2 on). */
static enum unc_status arch_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	struct pmu_reg ctrl = pmu_msr(IA32_PERF_GLOBAL_CTRL);
	enum unc_status st;

	if ((st = selects_en(io, p, true, verify)) || arch_version(p) < 2)
		return st;
	return verify ? pmu_io_write_check(io, ctrl, s->base | enable_bits(p))
		      : pmu_io_write(io, ctrl, s->base | enable_bits(p));
}

/* IA32_PERF_GLOBAL_STATUS first, then (the engine) the counters; and the
 * global control as the run wrote it. Version 1: no status, no global
 * control. */
static enum unc_status arch_check(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s,
				  uint64_t *ret_status)
{
	uint64_t gctrl, want = s->base | enable_bits(p);
	enum unc_status st;

	*ret_status = 0;
	if (arch_version(p) < 2)
		return UNC_OK;
	if ((st = pmu_io_read(io, pmu_msr(IA32_PERF_GLOBAL_STATUS), ret_status)) ||
	    (st = pmu_io_read(io, pmu_msr(IA32_PERF_GLOBAL_CTRL), &gctrl)))
		return st;
	if (gctrl != want)
		return pmu_io_fail(io, UNC_E_CLOBBERED,
				   "IA32_PERF_GLOBAL_CTRL (0x%x) reads 0x%lx, not the 0x%lx this run wrote: written by "
				   "someone else during the run",
				   IA32_PERF_GLOBAL_CTRL, (unsigned long)gctrl, (unsigned long)want);
	return UNC_OK;
}

/* arch_check's two reads (version 2 and up), for a sample to make itself. */
static bool arch_check_regs(const struct pmu_present *p, const struct pmu_state *s, struct pmu_reg *ret_status,
			    struct pmu_reg *ret_ctrl, uint64_t *ret_want)
{
	if (arch_version(p) < 2)
		return false;
	*ret_status = pmu_msr(IA32_PERF_GLOBAL_STATUS);
	*ret_ctrl = pmu_msr(IA32_PERF_GLOBAL_CTRL);
	*ret_want = s->base | enable_bits(p);
	return true;
}

/* RDPMC where the probe found it working (general counter n is index n,
 * fixed counter n is 0x40000000 | n: "RDPMC" in Vol. 2), else, or when it
 * faults now, rdmsr of the counter. */
static enum unc_status arch_read_counter(struct pmu_io *io, const struct pmu_present *p, unsigned unit, unsigned box,
					 unsigned idx, uint64_t *ret_val)
{
	(void)box;
	if (p->facts[ARCH_FACT_RDPMC_ST] == UNC_OK &&
	    hw_rdpmc(io->hw, (unit == ARCH_UNIT_FIXED ? ARCH_RDPMC_FIXED : 0) | idx, ret_val) == UNC_OK)
		return UNC_OK;
	return pmu_io_read(io, arch_counter_reg(p, unit, idx), ret_val);
}

/* A sample's read without arch_read_counter: RDPMC where the probe found
 * it working (RDPMC returns the counter's width, zero-extended). */
static unsigned arch_fast_read(const struct pmu_present *p, unsigned unit, unsigned box, unsigned idx,
			       uint32_t *ret_index)
{
	(void)box;
	if (p->facts[ARCH_FACT_RDPMC_ST] != UNC_OK)
		return PMU_FAST_NONE;
	*ret_index = (unit == ARCH_UNIT_FIXED ? ARCH_RDPMC_FIXED : 0) | idx;
	return PMU_FAST_RDPMC;
}

/* Sets the box's counters to `start` through the journal (which reads each
 * before its first write, so the value as found is put back at the end):
 * the general ones at IA32_A_PMCx when full-width writes are on (a write to
 * IA32_PMCx takes bits 31:0 only, sign-extended: the probe's write_width). */
UNC_COLD static enum unc_status arch_reset_box(struct pmu_io *io, const struct pmu_present *p, unsigned unit, unsigned box,
				      uint64_t start)
{
	enum unc_status st;
	unsigned n = unit == ARCH_UNIT_FIXED ? fixed_live(p) : gp_count(p);

	(void)box;
	for (unsigned i = 0; i < n; i++)
		if ((st = pmu_io_write(io, arch_counter_reg(p, unit, i), start)))
			return st;
	return UNC_OK;
}

/* IA32_FIXED_CTR_CTRL: OS and USR in the field of each fixed counter with
 * an event, 0 in the others (no AnyThread, no PMI). */
static enum unc_status arch_fixed_start(struct pmu_io *io, const struct pmu_present *p, unsigned unit, unsigned box,
					uint8_t counters)
{
	uint64_t v = 0;

	(void)p, (void)unit, (void)box;
	for (unsigned i = 0; i < ARCH_MAX_FIXED; i++)
		if (counters >> i & 1)
			v |= (uint64_t)ARCH_FIXED_OS_USR << (ARCH_FIXED_FIELD_BITS * i);
	return pmu_io_write_check(io, pmu_msr(IA32_FIXED_CTR_CTRL), v);
}

static const char *arch_reg_name(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size)
{
	(void)p;
	if (reg.space != PMU_MSR || reg.addr > 0xFFFFFFFFull)
		return NULL;
	return arch_msr_name((uint32_t)reg.addr, buf, size);
}

UNC_COLD const char *arch_msr_name(uint32_t msr, char *buf, size_t size)
{
	switch (msr) {
	case IA32_PERF_CAPABILITIES: return "IA32_PERF_CAPABILITIES";
	case IA32_FIXED_CTR_CTRL: return "IA32_FIXED_CTR_CTRL";
	case IA32_PERF_GLOBAL_STATUS: return "IA32_PERF_GLOBAL_STATUS";
	case IA32_PERF_GLOBAL_CTRL: return "IA32_PERF_GLOBAL_CTRL";
	case IA32_PERF_GLOBAL_OVF_CTRL: return "IA32_PERF_GLOBAL_OVF_CTRL";
	}
	if (msr >= IA32_PMC0 && msr < IA32_PMC0 + 8)
		fmt_snprintf(buf, size, "IA32_PMC%u", msr - IA32_PMC0);
	else if (msr >= IA32_A_PMC0 && msr < IA32_A_PMC0 + 8)
		fmt_snprintf(buf, size, "IA32_A_PMC%u", msr - IA32_A_PMC0);
	else if (msr >= IA32_PERFEVTSEL0 && msr < IA32_PERFEVTSEL0 + 8)
		fmt_snprintf(buf, size, "IA32_PERFEVTSEL%u", msr - IA32_PERFEVTSEL0);
	else if (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR0 + 4)
		fmt_snprintf(buf, size, "IA32_FIXED_CTR%u", msr - IA32_FIXED_CTR0);
	else
		return NULL;
	return buf;
}

UNC_COLD static void arch_notes(struct out *err, const struct pmu_present *p, const struct pmu_state *s)
{
	if (s->status_at_start & enable_bits(p))
		out_printf(err, "uncore: note: IA32_PERF_GLOBAL_STATUS was 0x%lx at start; its overflow bits were "
				"cleared and cannot be set again\n", (unsigned long)s->status_at_start);
}

void arch_info(struct out *o, const struct pmu_present *p, bool json);

/* CPUID.0AH:EAX[15:8] general counters (at most ARCH_MAX_GP, as the probe
 * takes them); the fixed counters as their events name them. */
UNC_COLD static uint32_t arch_counters_here(const struct hw *hw, unsigned unit)
{
	struct cpuid_regs a;

	if (unit != ARCH_UNIT_GP)
		return ~0u;
	hw_cpuid(hw, ARCH_CPUID_LEAF, 0, &a);
	unsigned gp = bits(a.eax, 0, 8) ? bits(a.eax, 8, 8) : 0;
	return (uint32_t)pmu_width_mask(gp > ARCH_MAX_GP ? ARCH_MAX_GP : gp);
}

static const struct pmu_ops arch_ops = {
	.probe = arch_probe,
	.in_use = arch_in_use,
	.freeze = arch_freeze,
	.clear_status = arch_clear_status,
	.unfreeze = arch_unfreeze,
	.check = arch_check,
	.check_regs = arch_check_regs,
	.read_counter = arch_read_counter,
	.fast_read = arch_fast_read,
	.fixed_start = arch_fixed_start,
	.reset_box = arch_reset_box,
	.reg_name = arch_reg_name,
	.info = arch_info,
	.notes = arch_notes,
	.event_ok = arch_event_ok,
	.counters_here = arch_counters_here,
};

/* Read by the snapshot first, so restored last: the global control (version
 * 2 on; the probe marks it absent on version 1). IA32_FIXED_CTR_CTRL is the
 * fixed unit's select (saved when fixed counters are used); GLOBAL_STATUS
 * is read only and OVF_CTRL is written without saving. */
static const struct pmu_reg arch_globals[] = { { PMU_MSR, { 0, 0, 0 }, IA32_PERF_GLOBAL_CTRL } };

extern const struct event_desc arch_events[];
extern const unsigned arch_events_count;

const struct pmu_driver pmu_driver_arch = {
	.name = "arch-core",
	.title = "Intel architectural core PMU",
	.what = "core PMU",
	.status_name = "IA32_PERF_GLOBAL_STATUS",
	.absent = "CPUID leaf 0xA reports version 0 or is absent: no architectural PMU",
	.vendor = "GenuineIntel",
	.match = arch_match,
	.units = arch_units,
	.nunits = ARCH_NUNITS,
	.globals = arch_globals,
	.nglobals = sizeof(arch_globals) / sizeof(arch_globals[0]),
	.events = arch_events,
	.nevents = &arch_events_count,
	.ops = &arch_ops,
	.use_global = true,
	.use_idle = PMU_IDLE_NO_EN,
};
