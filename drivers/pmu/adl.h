/* 12th- and 13th-generation Intel Core (Alder Lake, Raptor Lake) uncore.
 * Addresses and fields are those of Linux arch/x86/events/intel/uncore_snb.c
 * (adl_uncore_*, ADL_UNC_* and the TGL/ADL IMC free-running counters);
 * MCHBAR is read by the client drivers' one reader (mchbar.h). The driver's own
 * header: only drivers/pmu/adl*.c, tgl.c, mtl.c and their tests include it. */
#ifndef UNC_PMU_ADL_H
#define UNC_PMU_ADL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../engine/pmu.h"
#include "adl_imcp.h"

/* uncore_snb.c: ADL_UNC_PERF_GLOBAL_CTL, ADL_UNC_FIXED_CTR_CTRL/CTR,
 * ADL_UNC_CBO_0_PERFEVTSEL0/PER_CTR0 and ADL_UNC_CBOX_MSR_OFFSET,
 * ADL_UNC_ARB_PERFEVTSEL0/PER_CTR0 and ADL_UNC_ARB_MSR_OFFSET;
 * ICL_UNC_CBO_CONFIG (icl_get_cbox_num: the box count in bits 3:0). */
#define ADL_UNC_PERF_GLOBAL_CTL   0x2FF0u
#define ADL_UNC_FIXED_CTR_CTRL    0x2FDEu
#define ADL_UNC_FIXED_CTR         0x2FDFu
#define ADL_UNC_CBO_0_PERFEVTSEL0 0x2000u
#define ADL_UNC_CBO_0_PER_CTR0    0x2002u
#define ADL_UNC_CBOX_MSR_OFFSET   0x8u
#define ADL_UNC_ARB_PERFEVTSEL0   0x2FD0u
#define ADL_UNC_ARB_PER_CTR0      0x2FD2u
#define ADL_UNC_ARB_MSR_OFFSET    0x8u
#define ADL_UNC_CBO_CONFIG        0x396u
#define ADL_UNC_NUM_CBO_MASK      0xFull
/* icl_get_cbox_num: 0x396's bits 3:0 are the count, so at most 15; Linux
 * programs every one. Alder/Raptor Lake's box 14 is at 0x2070/0x2072 and
 * Meteor Lake's at 0x2522/0x2528 (MTL_UNC_CBO_0_* + 0x10 * 14), clear of
 * every other uncore MSR of uncore_snb.c. */
#define ADL_MAX_CBO               15
/* Ice Lake, Tiger Lake and Rocket Lake (ICL_UNC_CBO_0_PERFEVTSEL0 0x700 +
 * 8 * box): box 14 would be 0x770-0x773, IA32_PM_ENABLE,
 * IA32_HWP_CAPABILITIES, IA32_HWP_REQUEST_PKG and IA32_HWP_INTERRUPT
 * (Intel SDM Vol. 4; Linux msr-index.h), so at most 14 boxes can be
 * addressed; a count of 15 refuses CBo events (adl_event_ok). */
#define TGL_MAX_CBO               14
#define TGL_CBO_LIMIT_REG         0x770u
#define ADL_ARB_BOXES             2

/* SNB_UNC_GLOBAL_CTL_EN, the only bit Linux writes to 0x2FF0; and
 * SNB_UNC_CTL_EN, the enable of every event select and of the fixed
 * counter's control. */
#define ADL_GLOBAL_CTL_EN (1ull << 29)
#define ADL_CTL_EN        (1ull << 22)

/* The IMC free-running counters (uncore_snb.c adl_uncore_imc_freerunning,
 * as TGL-H's): MCHBAR + 0xD840 / 0xD858 / 0xD8A0, 64 bits each, for
 * memory controller 0; controller 1's at + 0x10000
 * (TGL_UNCORE_MMIO_IMC_MEM_OFFSET). */
#define ADL_IMC_TOTAL      0xD840u
#define ADL_IMC_READ       0xD858u
#define ADL_IMC_WRITE      0xD8A0u
#define ADL_IMC_MC_OFFSET  0x10000u
#define ADL_IMC_CONTROLLERS 2
#define ADL_IMC_COUNTERS   (3 * ADL_IMC_CONTROLLERS)
#define ADL_IMC_WIDTH      64
extern const struct pmu_free adl_imc[ADL_IMC_COUNTERS];

/* ADL_UNIT_IMCP: the programmable IMC counters (adl_imcp.h), Alder/Raptor
 * Lake only (Tiger Lake's driver ends before it). */
enum adl_unit_id { ADL_UNIT_CBO, ADL_UNIT_ARB, ADL_UNIT_FIXED, ADL_UNIT_IMC, ADL_UNIT_IMCP, ADL_NUNITS };

extern const struct pmu_driver pmu_driver_adl;
/* Tiger Lake (drivers/pmu/tgl.c): the same unit indexes and ops, its own
 * registers (Linux tgl_uncore_*, icl_uncore_cbox, snb_uncore_arb): the
 * global control SNB_UNC_PERF_GLOBAL_CTL 0xE01, CBo ICL_UNC_CBO_0_PER_CTR0
 * 0x702 (select 0x700) + ICL_UNC_CBO_MSR_OFFSET 8, ARB 0x3B2/0x3B0 (one box),
 * fixed 0x394/0x395; the IMC block at MCHBAR + 0x5000 (TGL-L, 0x8C) or
 * 0xD800 (TGL-H, 0x8D), counters at 0x40/0x58/0xA0 from it
 * (tgl_l_uncore_imc_freerunning, tgl_uncore_imc_freerunning). */
extern const struct pmu_driver pmu_driver_tgl;
extern const struct pmu_ops adl_ops;
#define TGL_L_IMC_BLOCK 0x5000u
#define TGL_H_IMC_BLOCK 0xD800u

/* The MSR units Tiger Lake shares with Ice Lake client and Rocket Lake
 * (Linux's icl_uncore_cbox, snb_uncore_arb, icl_uncore_clockbox), as
 * initializers; the layout is tgl.c's (skl_uncore_formats_attr: cmask5). */
extern const struct pmu_layout tgl_layout;
extern const struct pmu_constraint tgl_arb_constraints[];
extern const struct pmu_inc tgl_arb_incs[];
#define TGL_RAW_HELP "/event=N,umask=N[,thresh=N][,inv][,edge]/"
#define TGL_MAX_PER_SEC (1ull << 40) /* bounds, as in skl.c */
#define TGL_UCLK_MAX_HZ (1ull << 33)
#define TGL_CBO_UNIT(lay)                                                                                             \
	{ .pmu = "cbox", .alias = "cbo", .intel_unit = "CBO", .name = "CBO", .box_noun = "CBo", .box_label = "cbo",        \
	  .boxes_from = "ICL_UNC_CBO_CONFIG", .kind = PMU_GENERAL, .space = PMU_MSR, .counters = 2, .width = 44,          \
	  .max_boxes = TGL_MAX_CBO, .sel_base = 0x700, .ctr_base = 0x702, .box_stride = 8, .sel_step = 1, .ctr_step = 1,   \
	  .layout = (lay), .max_per_sec = TGL_MAX_PER_SEC, .clock_hz = TGL_UCLK_MAX_HZ, .raw_help = "cbox" TGL_RAW_HELP,              \
	  CLIENT_CTR_NEVER }
#define TGL_ARB_UNIT                                                                                                  \
	{ .pmu = "arb", .intel_unit = "ARB", .name = "ARB", .kind = PMU_GENERAL, .space = PMU_MSR, .counters = 2,          \
	  .width = 44, .max_boxes = 1, .sel_base = 0x3B2, .ctr_base = 0x3B0, .sel_step = 1, .ctr_step = 1,                 \
	  .layout = &tgl_layout, .constraints = tgl_arb_constraints, .max_per_sec = TGL_MAX_PER_SEC,                      \
	  .clock_hz = TGL_UCLK_MAX_HZ, .incs = tgl_arb_incs, .raw_help = "arb" TGL_RAW_HELP, CLIENT_CTR_NEVER }
#define TGL_FIXED_UNIT                                                                                                \
	{ .pmu = "clock", .intel_unit = "NCU", .name = "FIXED", .kind = PMU_FIXED, .space = PMU_MSR, .counters = 1,        \
	  .width = 48, .max_boxes = 1, .sel_base = 0x394, .ctr_base = 0x395, .sel_step = 1, .ctr_step = 1,                 \
	  .fixed_ctrl = ADL_CTL_EN, .max_per_sec = TGL_UCLK_MAX_HZ, .clock_hz = TGL_UCLK_MAX_HZ, .clock = true,   \
	  CLIENT_CTR_NEVER }

/* Ice Lake client (0x7D, 0x7E, 0x9D) and Rocket Lake (0xA7), drivers/pmu/icl.c:
 * the MSR units above (Ice Lake's ARB is one counter, ICL_UNC_ARB_PER_CTR
 * 0x3B1 and ICL_UNC_ARB_PERFEVTSEL 0x3B3) and the Skylake-style IMC: 32-bit
 * free-running counters at MCHBAR + 0x5040...0x5054, one controller (Linux
 * snb_uncore_imc_freerunning, which icl_uncore_pci_ids use). Rocket Lake
 * runs on adl_ops (global control 0xE01, as Tiger Lake); Ice Lake has no
 * global control (Linux icl_uncore_msr_ops: no init or enable), its ops
 * being icl.c's. */
extern const struct pmu_driver pmu_driver_icl;
extern const struct pmu_driver pmu_driver_rkl;
enum unc_status adl_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want, struct pmu_present *p,
			  char *err, size_t errsize, char *warn, size_t warnsize);
void adl_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
		void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx);
void adl_where(const struct pmu_present *p, unsigned unit, char *buf, size_t size);
/* Every CBo the probe found is counted, or no CBo event is: an event of
 * unit 0 (the CBo unit of the adl, tgl, icl, rkl, mtl, arl and lnl
 * drivers) is refused, naming the limit, when 0x396 reports more boxes
 * than the driver's register layout holds. Shared by their ops. */
bool adl_event_ok(const struct pmu_present *p, unsigned unit, uint8_t code, uint8_t umask, uint8_t thresh, char *err,
		  size_t errsize);
/* The line info adds when 0x396 reports more CBos than can be addressed
 * ("" when it does not), and the caveat of info's verdict then (NULL when
 * it does not). */
const char *adl_caveat(const struct pmu_present *p, char *buf, size_t size);
const char *adl_cbo_limit_note(const struct pmu_present *p, char *buf, size_t size);

/* The generation of a host bridge (0:0.0 device ID) as Linux's
 * uncore_snb.c lists them ("Ice Lake", "Rocket Lake", "Tiger Lake",
 * "Alder Lake", "Raptor Lake", "Meteor Lake") or, for Arrow Lake and Lunar
 * Lake, for which Linux lists none, chipsec's cfg/8086 arl.xml, arlh.xml and
 * lnl.xml; or NULL. */
const char *adl_host_bridge_name(uint16_t vendor, uint16_t device);

/* Names a register as Linux's macros do, or NULL. */
const char *adl_reg_name_of(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size);

/* The facts the probe keeps in pmu_present.facts[]. */
enum adl_fact {
	ADL_FACT_CBO_CONFIG_ST, /* enum unc_status of reading 0x396 */
	ADL_FACT_CBO_CONFIG,    /* its raw value */
	ADL_FACT_HB_ID,         /* 0:0.0 offset 0: device << 16 | vendor */
	ADL_FACT_MCHBAR_RAW,    /* 0x4C:0x48 */
	ADL_FACT_HB_ST,         /* enum unc_status of reading 0:0.0's ID and MCHBAR */
	ADL_FACT_MCHBAR_MASK,   /* the base field used */
	ADL_FACT_MODEL,         /* the CPU model */
	ADL_FACT_UNITS,         /* Ice Lake: the units the probe was asked for (bit u: unit u) */
};

void adl_info(struct out *o, const struct pmu_present *p, bool json);

/* Shared with the Meteor Lake, Arrow Lake and Lunar Lake drivers
 * (drivers/pmu/mtl.c), whose IMC is this one (uncore_snb.c: mtl_uncore_init
 * takes adl_uncore_mmio_init; lnl_mmio_uncores keeps adl_uncore_imc):
 * - the event-select layout of adl_uncore_formats_attr;
 * - the IMC probe: MCHBAR of 0:0.0 into p->base[unit] (the IMC block of
 *   the driver added), and the ADL_FACT_HB_* and MCHBAR facts;
 * - bw's "where" of the IMC unit, and info's host-bridge line (JSON: its
 *   members), both from those facts. */
extern const struct pmu_layout adl_layout;
enum unc_status adl_probe_imc(const struct hw *hw, const struct cpu_info *cpu, struct pmu_present *p, unsigned unit,
			      char *err, size_t errsize, char *warn, size_t warnsize);
/* The IMC units a run wants: the free-running counters (unit imc, placed
 * by adl_probe_imc) and the programmable ones (unit imc + 1, placed from
 * the same MCHBAR by adl_imcp_place; a driver without them clears that bit
 * of want). Wanted with the MSR units (msr_units) but not the free-running
 * counters, the programmable ones missing is a warning, and their unit
 * keeps no box. */
enum unc_status adl_probe_imcs(const struct hw *hw, const struct cpu_info *cpu, struct pmu_present *p, uint32_t want,
			       unsigned imc, uint32_t msr_units, char *err, size_t errsize, char *warn, size_t warnsize);
void adl_imc_where(const struct pmu_present *p, unsigned unit, char *buf, size_t size);
void adl_info_host_bridge(struct out *o, const struct pmu_present *p, unsigned imc_unit, bool json);

#endif
