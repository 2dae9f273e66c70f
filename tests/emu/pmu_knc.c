/* The Knights Corner (Intel Xeon Phi coprocessor) core PMU: the register
 * table and hooks the model core walks, and the event table, typed from
 * Intel 327357-001: Table 1-2 (registers), Tables 1-4 to 1-10
 * (their bits), Table 1-6 (events; its columns are FUB, UMASK, then the
 * event code), Table 1-1 (RDPMC). Not taken from the application. */
#include "model.h"

#define KNC_WIDTH    40
#define KNC_MASK     ((1ull << KNC_WIDTH) - 1)
/* Table 1-5, IA32_PerfEvtSel0/1 (32 bits): CMASK 31:24, INV 23, EN 22,
 * thread mode 21, INT 20, bit 19 reserved, E 18, OS 17, USR 16, UMASK
 * 15:8, event 7:0. */
#define KNC_SEL_RW   0xFFF7FFFFull
/* Table 1-7, PERF_SPFLT_CONTROL: USER_PREF 63, 62:2 reserved, counter 1
 * and counter 0 under SPFLT control in 1 and 0. */
#define SPFLT_USER   (1ull << 63)
#define SPFLT_RW     (SPFLT_USER | 0x3ull)
/* Tables 1-8 to 1-10: one bit per counter, 1:0. */
#define KNC_CTR_BITS 0x3ull

const struct emu_core_event emu_knc_events[] = {
	{ "DATA_READ", EMU_UNIT_KNC, 0x00, 0x00, 0x3, -1, 0 },
	{ "DATA_WRITE", EMU_UNIT_KNC, 0x01, 0x00, 0x3, -1, 0 },
	{ "DATA_PAGE_WALK", EMU_UNIT_KNC, 0x02, 0x00, 0x3, -1, 0 },
	{ "DATA_READ_MISS", EMU_UNIT_KNC, 0x03, 0x00, 0x3, -1, 0 },
	{ "DATA_WRITE_MISS", EMU_UNIT_KNC, 0x04, 0x00, 0x3, -1, 0 },
	{ "DATA_CACHE_LINES_WRITTEN_BACK", EMU_UNIT_KNC, 0x06, 0x00, 0x3, -1, 0 },
	{ "MEMORY_ACCESSES_IN_BOTH_PIPES", EMU_UNIT_KNC, 0x09, 0x00, 0x3, -1, 0 },
	{ "BANK_CONFLICTS", EMU_UNIT_KNC, 0x0A, 0x00, 0x3, -1, 0 },
	{ "CODE_READ", EMU_UNIT_KNC, 0x0C, 0x00, 0x3, -1, 0 },
	{ "CODE_PAGE_WALK", EMU_UNIT_KNC, 0x0D, 0x00, 0x3, -1, 0 },
	{ "CODE_CACHE_MISS", EMU_UNIT_KNC, 0x0E, 0x00, 0x3, -1, 0 },
	{ "L1_DATA_PF1", EMU_UNIT_KNC, 0x11, 0x00, 0x3, -1, 0 },
	{ "BRANCHES", EMU_UNIT_KNC, 0x12, 0x00, 0x3, -1, 0 },
	{ "PIPELINE_FLUSHES", EMU_UNIT_KNC, 0x15, 0x00, 0x3, -1, 0 },
	{ "INSTRUCTIONS_EXECUTED", EMU_UNIT_KNC, 0x16, 0x00, 0x3, -1, 0 },
	{ "INSTRUCTIONS_EXECUTED_V_PIPE", EMU_UNIT_KNC, 0x17, 0x00, 0x3, -1, 0 },
	{ "L1_DATA_PF1_MISS", EMU_UNIT_KNC, 0x1C, 0x00, 0x3, -1, 0 },
	{ "L1_DATA_PF1_DROP", EMU_UNIT_KNC, 0x1E, 0x00, 0x3, -1, 0 },
	{ "PIPELINE_AGI_STALLS", EMU_UNIT_KNC, 0x1F, 0x00, 0x3, -1, 0 },
	{ "L1_DATA_HIT_INFLIGHT_PF1", EMU_UNIT_KNC, 0x20, 0x00, 0x3, -1, 0 },
	{ "PIPELINE_SG_AGI_STALLS", EMU_UNIT_KNC, 0x21, 0x00, 0x3, -1, 0 },
	{ "DATA_READ_OR_WRITE", EMU_UNIT_KNC, 0x28, 0x00, 0x3, -1, 0 },
	{ "DATA_READ_MISS_OR_WRITE_MISS", EMU_UNIT_KNC, 0x29, 0x00, 0x3, -1, 0 },
	{ "CPU_CLK_UNHALTED", EMU_UNIT_KNC, 0x2A, 0x00, 0x3, -1, EMU_CORE_CLOCK },
	{ "BRANCHES_MISPREDICTED", EMU_UNIT_KNC, 0x2B, 0x00, 0x3, -1, 0 },
	{ "MICROCODE_CYCLES", EMU_UNIT_KNC, 0x2C, 0x00, 0x3, -1, 0 },
	{ "FE_STALLED", EMU_UNIT_KNC, 0x2D, 0x00, 0x3, -1, 0 },
	{ "EXEC_STAGE_CYCLES", EMU_UNIT_KNC, 0x2E, 0x00, 0x3, -1, 0 },
	{ "L1_DATA_PF2", EMU_UNIT_KNC, 0x37, 0x00, 0x3, -1, 0 },
	{ "L2_DATA_PF1_MISS", EMU_UNIT_KNC, 0x38, 0x00, 0x3, -1, 0 },
	{ "LONG_DATA_PAGE_WALK", EMU_UNIT_KNC, 0x3A, 0x00, 0x3, -1, 0 },
	{ "LONG_CODE_PAGE_WALK", EMU_UNIT_KNC, 0x3B, 0x00, 0x3, -1, 0 },
	{ "L2_READ_HIT_E", EMU_UNIT_KNC, 0xC8, 0x10, 0x3, -1, 0 },
	{ "L2_READ_HIT_M", EMU_UNIT_KNC, 0xC9, 0x10, 0x3, -1, 0 },
	{ "L2_READ_HIT_S", EMU_UNIT_KNC, 0xCA, 0x10, 0x3, -1, 0 },
	{ "L2_READ_MISS", EMU_UNIT_KNC, 0xCB, 0x10, 0x3, -1, 0 },
	{ "L2_WRITE_HIT", EMU_UNIT_KNC, 0xCC, 0x10, 0x3, -1, 0 },
	{ "L2_VICTIM_REQ_WITH_DATA", EMU_UNIT_KNC, 0xD7, 0x10, 0x3, -1, 0 },
	{ "SNP_HITM_BUNIT", EMU_UNIT_KNC, 0xE3, 0x10, 0x3, -1, 0 },
	{ "SNP_HIT_L2", EMU_UNIT_KNC, 0xE6, 0x10, 0x3, -1, 0 },
	{ "SNP_HITM_L2", EMU_UNIT_KNC, 0xE7, 0x10, 0x3, -1, 0 },
	{ "L2_CODE_READ_MISS_CACHE_FILL", EMU_UNIT_KNC, 0xF0, 0x10, 0x3, -1, 0 },
	{ "L2_DATA_READ_MISS_CACHE_FILL", EMU_UNIT_KNC, 0xF1, 0x10, 0x3, -1, 0 },
	{ "L2_DATA_WRITE_MISS_CACHE_FILL", EMU_UNIT_KNC, 0xF2, 0x10, 0x3, -1, 0 },
	{ "L2_CODE_READ_MISS_MEM_FILL", EMU_UNIT_KNC, 0xF5, 0x10, 0x3, -1, 0 },
	{ "L2_DATA_READ_MISS_MEM_FILL", EMU_UNIT_KNC, 0xF6, 0x10, 0x3, -1, 0 },
	{ "L2_DATA_WRITE_MISS_MEM_FILL", EMU_UNIT_KNC, 0xF7, 0x10, 0x3, -1, 0 },
	{ "L2_DATA_PF2", EMU_UNIT_KNC, 0xFC, 0x10, 0x3, -1, 0 },
	{ "L2_DATA_PF2_DROP", EMU_UNIT_KNC, 0xFD, 0x10, 0x3, -1, 0 },
	{ "L2_DATA_PF2_MISS", EMU_UNIT_KNC, 0xFE, 0x10, 0x3, -1, 0 },
	{ "L2_DATA_HIT_INFLIGHT_PF2", EMU_UNIT_KNC, 0xFF, 0x10, 0x3, -1, 0 },
	{ "VPU_DATA_READ", EMU_UNIT_KNC, 0x00, 0x20, 0x3, -1, 0 },
	{ "VPU_DATA_WRITE", EMU_UNIT_KNC, 0x01, 0x20, 0x3, -1, 0 },
	{ "VPU_DATA_READ_MISS", EMU_UNIT_KNC, 0x03, 0x20, 0x3, -1, 0 },
	{ "VPU_DATA_WRITE_MISS", EMU_UNIT_KNC, 0x04, 0x20, 0x3, -1, 0 },
	{ "VPU_STALL_REG", EMU_UNIT_KNC, 0x05, 0x20, 0x3, -1, 0 },
	{ "VPU_INSTRUCTIONS_EXECUTED", EMU_UNIT_KNC, 0x16, 0x20, 0x3, -1, 0 },
	{ "VPU_INSTRUCTIONS_EXECUTED_V_PIPE", EMU_UNIT_KNC, 0x17, 0x20, 0x3, -1, 0 },
	{ "VPU_ELEMENTS_ACTIVE", EMU_UNIT_KNC, 0x18, 0x20, 0x3, -1, 0 },
};
const unsigned emu_knc_nevents = sizeof(emu_knc_events) / sizeof(emu_knc_events[0]);

/* Table 1-2. PerfCnt0/1: "reads and writes set all 40 bits" (Table 1-4's
 * note), 63:40 reserved. GLOBAL_STATUS is read-only, sticky, set by an
 * overflow even without the APIC interrupt (Table 1-8); GLOBAL_OVF_CTRL is
 * write-only, each bit written 1 clears that status bit (Table 1-9). The
 * unlisted addresses 0x22-0x27, 0x2A and 0x2B are #GP. */
static const struct emu_reg knc_regs[] = {
	{ "IA32_PerfCnt0", 0x20, 2, 1, EMU_REG_COUNTER, KNC_WIDTH, -1, 0, EMU_UNIT_KNC, 0, KNC_MASK, 0, ~KNC_MASK, false,
	  NULL, false, 0, false, 0 },
	{ "IA32_PerfEvtSel0", 0x28, 2, 1, EMU_REG_CONTROL, 0, -1, 0, 0, 0, KNC_SEL_RW, 0, ~KNC_SEL_RW, false, NULL, false,
	  0, false, 0 },
	{ "PERF_SPFLT_CONTROL", 0x2C, 1, 1, EMU_REG_PLAIN, 0, -1, -1, 0, 0, SPFLT_RW, 0, ~SPFLT_RW, false, NULL, false, 0,
	  false, 0 },
	{ "IA32_PERF_GLOBAL_STATUS", 0x2D, 1, 1, EMU_REG_STATUS, 0, -1, -1, 0, 0, 0, 0, 0, true, NULL, false, 0, false,
	  0 },
	{ "IA32_PERF_GLOBAL_OVF_CTRL", 0x2E, 1, 1, EMU_REG_STATUS_CLEAR, 0, -1, -1, 0, 0, KNC_CTR_BITS, 0, ~KNC_CTR_BITS,
	  false, NULL, true, 0, false, 0 },
	{ "IA32_PERF_GLOBAL_CTRL", 0x2F, 1, 1, EMU_REG_CONTROL, 0, -1, -1, 0, 0, KNC_CTR_BITS, 0, ~KNC_CTR_BITS, false,
	  NULL, false, 0, false, 0 },
};

static const struct emu_window knc_windows[] = { { 0x20, 0x2F } };

static void knc_init(struct emu *e)
{
	e->clock_hz = emu_core_clock(&e->cfg, EMU_UNIT_KNC);
	e->ctr[1].status_bit = 1;
}

static bool knc_enabled(const struct emu *e)
{
	return e->global_ctrl & KNC_CTR_BITS;
}

/* Section 1.4.1: a counter counts when its select's EN and its
 * IA32_PERF_GLOBAL_CTRL bit are both set. Table 1-7: a counter under SPFLT
 * control (its bit in PERF_SPFLT_CONTROL) counts only while USER_PREF
 * (bit 63) is set too. */
static bool knc_ctr_enabled(const struct emu *e, const struct emu_ctr *c)
{
	uint64_t spflt = e->plain[0];

	if (!(e->global_ctrl >> c->index & 1) || !(c->sel & EMU_CORE_SEL_EN))
		return false;
	return !(spflt >> c->index & 1) || (spflt & SPFLT_USER);
}

const struct emu_pmu emu_pmu_knc = {
	.name = "knc",
	.regs = knc_regs,
	.nregs = sizeof(knc_regs) / sizeof(knc_regs[0]),
	.windows = knc_windows,
	.nwindows = 1,
	.nctr = 2,
	.ops = {
		.init = knc_init,
		.enabled = knc_enabled,
		.ctr_enabled = knc_ctr_enabled,
		.ovf_forwarded = emu_core_forwarded,
		.freeze_on_ovf = emu_core_no_freeze,
		.freeze = emu_core_freeze,
		.increment = emu_core_increment,
		.rdpmc = emu_core_rdpmc_two,
	},
};
