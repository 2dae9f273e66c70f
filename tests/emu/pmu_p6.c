/* The P6 core PMU (Pentium Pro, Pentium II, Celeron, Pentium III): the
 * register table and hooks the model core walks, and the event table.
 * Events: the MMX Technology Developer's Guide, chapter 6 (Table 6-2 with
 * notes 1 and 2; RDPMC, section 6.3).
 * Registers: Intel SDM Vol. 3B, "Performance Monitoring (P6 Family
 * Processor)" (sections "PerfEvtSel0 and PerfEvtSel1 MSRs" and "PerfCtr0
 * and PerfCtr1 MSRs") and the P6 family's MSR table ("MSRs in the P6
 * Family Processors"). Not taken from the application. */
#include "model.h"

/* Counters are 40 bits (MMX Developer's Guide 6.3.1; SDM). */
#define P6_WIDTH     40
#define P6_MASK      ((1ull << P6_WIDTH) - 1)
/* PerfEvtSel0: event 7:0, UMASK 15:8, USR 16, OS 17, E 18, PC 19, INT 20,
 * EN 22 ("enables the counting of performance events in both counters"),
 * INV 23, CMASK 31:24; bit 21 and bits 63:32 are reserved. PerfEvtSel1 has
 * the same fields without EN: bit 22 is reserved there too. A WRMSR that
 * sets a reserved bit raises #GP (SDM Vol. 2B, WRMSR). */
#define P6_SEL0_RW   0xFFDFFFFFull
#define P6_SEL1_RW   0xFF9FFFFFull

const struct emu_core_event emu_p6_events[] = {
	/* Data cache unit (DCU), instruction fetch unit (IFU) */
	{ "DATA_MEM_REFS", EMU_UNIT_P6, 0x43, 0x00, 0x3, -1, 0 },
	{ "DCU_LINES_IN", EMU_UNIT_P6, 0x45, 0x00, 0x3, -1, 0 },
	{ "DCU_M_LINES_IN", EMU_UNIT_P6, 0x46, 0x00, 0x3, -1, 0 },
	{ "DCU_M_LINES_OUT", EMU_UNIT_P6, 0x47, 0x00, 0x3, -1, 0 },
	{ "DCU_MISS_OUTSTANDING", EMU_UNIT_P6, 0x48, 0x00, 0x3, -1, 0 },
	{ "IFU_IFETCH", EMU_UNIT_P6, 0x80, 0x00, 0x3, -1, 0 },
	{ "IFU_IFETCH_MISS", EMU_UNIT_P6, 0x81, 0x00, 0x3, -1, 0 },
	{ "ITLB_MISS", EMU_UNIT_P6, 0x85, 0x00, 0x3, -1, 0 },
	{ "IFU_MEM_STALL", EMU_UNIT_P6, 0x86, 0x00, 0x3, -1, 0 },
	{ "ILD_STALL", EMU_UNIT_P6, 0x87, 0x00, 0x3, -1, 0 },
	/* L2: MESI unit masks (note 1) */
	{ "L2_LD.MESI", EMU_UNIT_P6, 0x29, 0x0F, 0x3, -1, EMU_CORE_SUM },
	{ "L2_LD.M", EMU_UNIT_P6, 0x29, 0x08, 0x3, -1, 0 },
	{ "L2_LD.E", EMU_UNIT_P6, 0x29, 0x04, 0x3, -1, 0 },
	{ "L2_LD.S", EMU_UNIT_P6, 0x29, 0x02, 0x3, -1, 0 },
	{ "L2_LD.I", EMU_UNIT_P6, 0x29, 0x01, 0x3, -1, 0 },
	{ "L2_ST.MESI", EMU_UNIT_P6, 0x2A, 0x0F, 0x3, -1, EMU_CORE_SUM },
	{ "L2_ST.M", EMU_UNIT_P6, 0x2A, 0x08, 0x3, -1, 0 },
	{ "L2_ST.E", EMU_UNIT_P6, 0x2A, 0x04, 0x3, -1, 0 },
	{ "L2_ST.S", EMU_UNIT_P6, 0x2A, 0x02, 0x3, -1, 0 },
	{ "L2_ST.I", EMU_UNIT_P6, 0x2A, 0x01, 0x3, -1, 0 },
	{ "L2_LINES_IN", EMU_UNIT_P6, 0x24, 0x00, 0x3, -1, 0 },
	{ "L2_LINES_OUT", EMU_UNIT_P6, 0x26, 0x00, 0x3, -1, 0 },
	{ "L2_M_LINES_INM", EMU_UNIT_P6, 0x25, 0x00, 0x3, -1, 0 },
	{ "L2_M_LINES_OUTM", EMU_UNIT_P6, 0x27, 0x00, 0x3, -1, 0 },
	{ "L2_RQSTS.MESI", EMU_UNIT_P6, 0x2E, 0x0F, 0x3, -1, EMU_CORE_SUM },
	{ "L2_RQSTS.M", EMU_UNIT_P6, 0x2E, 0x08, 0x3, -1, 0 },
	{ "L2_RQSTS.E", EMU_UNIT_P6, 0x2E, 0x04, 0x3, -1, 0 },
	{ "L2_RQSTS.S", EMU_UNIT_P6, 0x2E, 0x02, 0x3, -1, 0 },
	{ "L2_RQSTS.I", EMU_UNIT_P6, 0x2E, 0x01, 0x3, -1, 0 },
	{ "L2_ADS", EMU_UNIT_P6, 0x21, 0x00, 0x3, -1, 0 },
	{ "L2_DBUS_BUSY", EMU_UNIT_P6, 0x22, 0x00, 0x3, -1, 0 },
	{ "L2_DBUS_BUSY_RD", EMU_UNIT_P6, 0x23, 0x00, 0x3, -1, 0 },
	/* External bus logic (EBL): self 0x00, any 0x20 (note 2) */
	{ "BUS_DRDY_CLOCKS.SELF", EMU_UNIT_P6, 0x62, 0x00, 0x3, -1, 0 },
	{ "BUS_DRDY_CLOCKS.ANY", EMU_UNIT_P6, 0x62, 0x20, 0x3, -1, 0 },
	{ "BUS_LOCK_CLOCKS.SELF", EMU_UNIT_P6, 0x63, 0x00, 0x3, -1, 0 },
	{ "BUS_LOCK_CLOCKS.ANY", EMU_UNIT_P6, 0x63, 0x20, 0x3, -1, 0 },
	{ "BUS_TRAN_RFO.SELF", EMU_UNIT_P6, 0x66, 0x00, 0x3, -1, 0 },
	{ "BUS_TRAN_RFO.ANY", EMU_UNIT_P6, 0x66, 0x20, 0x3, -1, 0 },
	{ "BUS_TRAN_IFETCH.SELF", EMU_UNIT_P6, 0x68, 0x00, 0x3, -1, 0 },
	{ "BUS_TRAN_IFETCH.ANY", EMU_UNIT_P6, 0x68, 0x20, 0x3, -1, 0 },
	{ "BUS_TRAN_INVAL.SELF", EMU_UNIT_P6, 0x69, 0x00, 0x3, -1, 0 },
	{ "BUS_TRAN_INVAL.ANY", EMU_UNIT_P6, 0x69, 0x20, 0x3, -1, 0 },
	{ "BUS_TRAN_PWR.SELF", EMU_UNIT_P6, 0x6A, 0x00, 0x3, -1, 0 },
	{ "BUS_TRAN_PWR.ANY", EMU_UNIT_P6, 0x6A, 0x20, 0x3, -1, 0 },
	{ "BUS_TRAN_P.SELF", EMU_UNIT_P6, 0x6B, 0x00, 0x3, -1, 0 },
	{ "BUS_TRAN_P.ANY", EMU_UNIT_P6, 0x6B, 0x20, 0x3, -1, 0 },
	{ "BUS_TRAN_IO.SELF", EMU_UNIT_P6, 0x6C, 0x00, 0x3, -1, 0 },
	{ "BUS_TRAN_IO.ANY", EMU_UNIT_P6, 0x6C, 0x20, 0x3, -1, 0 },
	{ "BUS_TRAN_DEF.SELF", EMU_UNIT_P6, 0x6D, 0x00, 0x3, -1, 0 },
	{ "BUS_TRAN_DEF.ANY", EMU_UNIT_P6, 0x6D, 0x20, 0x3, -1, 0 },
	{ "BUS_TRAN_BURST.SELF", EMU_UNIT_P6, 0x6E, 0x00, 0x3, -1, 0 },
	{ "BUS_TRAN_BURST.ANY", EMU_UNIT_P6, 0x6E, 0x20, 0x3, -1, 0 },
	{ "BUS_TRAN_ANY.SELF", EMU_UNIT_P6, 0x70, 0x00, 0x3, -1, 0 },
	{ "BUS_TRAN_ANY.ANY", EMU_UNIT_P6, 0x70, 0x20, 0x3, -1, 0 },
	{ "BUS_TRAN_MEM.SELF", EMU_UNIT_P6, 0x6F, 0x00, 0x3, -1, 0 },
	{ "BUS_TRAN_MEM.ANY", EMU_UNIT_P6, 0x6F, 0x20, 0x3, -1, 0 },
	{ "BUS_BNR_DRV", EMU_UNIT_P6, 0x61, 0x00, 0x3, -1, 0 },
	{ "BUS_HIT_DRV", EMU_UNIT_P6, 0x7A, 0x00, 0x3, -1, 0 },
	{ "BUS_SNOOP_STALL", EMU_UNIT_P6, 0x7E, 0x00, 0x3, -1, 0 },
	/* Floating-point unit: counter 0 or counter 1 only */
	{ "FLOPS", EMU_UNIT_P6, 0xC1, 0x00, 0x1, -1, 0 },
	{ "FP_COMP_OPS_EXE", EMU_UNIT_P6, 0x10, 0x00, 0x1, -1, 0 },
	{ "FP_ASSIST", EMU_UNIT_P6, 0x11, 0x00, 0x2, -1, 0 },
	{ "MUL", EMU_UNIT_P6, 0x12, 0x00, 0x2, -1, 0 },
	{ "DIV", EMU_UNIT_P6, 0x13, 0x00, 0x2, -1, 0 },
	{ "CYCLES_DIV_BUSY", EMU_UNIT_P6, 0x14, 0x00, 0x1, -1, 0 },
	/* Memory ordering, decode and retirement, interrupts, branches, stalls, segment loads, clocks */
	{ "LD_BLOCKS", EMU_UNIT_P6, 0x03, 0x00, 0x3, -1, 0 },
	{ "SB_DRAINS", EMU_UNIT_P6, 0x04, 0x00, 0x3, -1, 0 },
	{ "MISALIGN_MEM_REF", EMU_UNIT_P6, 0x05, 0x00, 0x3, -1, 0 },
	{ "INST_RETIRED", EMU_UNIT_P6, 0xC0, 0x00, 0x3, -1, 0 },
	{ "UOPS_RETIRED", EMU_UNIT_P6, 0xC2, 0x00, 0x3, -1, 0 },
	{ "INST_DECODER", EMU_UNIT_P6, 0xD0, 0x00, 0x3, -1, 0 },
	{ "HW_INT_RX", EMU_UNIT_P6, 0xC8, 0x00, 0x3, -1, 0 },
	{ "CYCLES_INT_MASKED", EMU_UNIT_P6, 0xC6, 0x00, 0x3, -1, 0 },
	{ "BR_INST_RETIRED", EMU_UNIT_P6, 0xC4, 0x00, 0x3, -1, 0 },
	{ "BR_MISS_PRED_RETIRED", EMU_UNIT_P6, 0xC5, 0x00, 0x3, -1, 0 },
	{ "BR_TAKEN_RETIRED", EMU_UNIT_P6, 0xC9, 0x00, 0x3, -1, 0 },
	{ "BR_MISS_PRED_TAKEN_RET", EMU_UNIT_P6, 0xCA, 0x00, 0x3, -1, 0 },
	{ "BR_INST_DECODED", EMU_UNIT_P6, 0xE0, 0x00, 0x3, -1, 0 },
	{ "BR_BOGUS", EMU_UNIT_P6, 0xE4, 0x00, 0x3, -1, 0 },
	{ "BACLEARS", EMU_UNIT_P6, 0xE6, 0x00, 0x3, -1, 0 },
	{ "RESOURCE_STALLS", EMU_UNIT_P6, 0xA2, 0x00, 0x3, -1, 0 },
	{ "PARTIAL_STALLS", EMU_UNIT_P6, 0xD2, 0x00, 0x3, -1, 0 },
	{ "SEGMENT_REG_LOADS", EMU_UNIT_P6, 0x06, 0x00, 0x3, -1, 0 },
	{ "CPU_CLK_UNHALTED", EMU_UNIT_P6, 0x79, 0x00, 0x3, -1, EMU_CORE_CLOCK },
};
const unsigned emu_p6_nevents = sizeof(emu_p6_events) / sizeof(emu_p6_events[0]);

/* "The WRMSR instruction cannot arbitrarily write to the performance-
 * monitoring counter MSRs (PerfCtr0 and PerfCtr1). Instead, the lower-order
 * 32 bits of each MSR may be written with any value, and the high-order 8
 * bits are sign-extended according to the value of bit 31" (SDM, PerfCtr0
 * and PerfCtr1 MSRs): sext 32, and no bit of a write is reserved. */
static const struct emu_reg p6_regs[] = {
	{ "PerfCtr0", 0xC1, 2, 1, EMU_REG_COUNTER, P6_WIDTH, -1, 0, EMU_UNIT_P6, 0, P6_MASK, 0, 0, false, NULL, false, 32,
	  false, 0 },
	{ "PerfEvtSel0", 0x186, 1, 1, EMU_REG_CONTROL, 0, -1, 0, 0, 0, P6_SEL0_RW, 0, ~P6_SEL0_RW, false, NULL, false, 0,
	  false, 0 },
	{ "PerfEvtSel1", 0x187, 1, 1, EMU_REG_CONTROL, 0, -1, 1, 0, 0, P6_SEL1_RW, 0, ~P6_SEL1_RW, false, NULL, false, 0,
	  false, 0 },
};

static void p6_init(struct emu *e)
{
	e->clock_hz = emu_core_clock(&e->cfg, EMU_UNIT_P6);
}

/* No global control: PerfEvtSel0's EN is the P6's global enable. */
static bool p6_enabled(const struct emu *e)
{
	return e->ctr[0].sel & EMU_CORE_SEL_EN;
}

static bool p6_ctr_enabled(const struct emu *e, const struct emu_ctr *c)
{
	(void)e;
	(void)c;
	return true;
}

/* No overflow status register: a wrap sets nothing. */
static bool p6_ovf_forwarded(const struct emu_ctr *c)
{
	(void)c;
	return false;
}

const struct emu_pmu emu_pmu_p6 = {
	.name = "p6",
	.regs = p6_regs,
	.nregs = sizeof(p6_regs) / sizeof(p6_regs[0]),
	.nctr = 2,
	.ops = {
		.init = p6_init,
		.enabled = p6_enabled,
		.ctr_enabled = p6_ctr_enabled,
		.ovf_forwarded = p6_ovf_forwarded,
		.freeze_on_ovf = emu_core_no_freeze,
		.freeze = emu_core_freeze,
		.increment = emu_core_increment,
		.rdpmc = emu_core_rdpmc_two,
	},
};
