/* The programmable IMC counters of Alder Lake and later client parts, as
 * a unit any client driver can add to its units: Linux
 * arch/x86/events/intel/uncore_snb.c (adl_uncore_imc, adl_uncore_mmio_ops,
 * adl_uncore_imc_init_box; the MTL and LNL mmio lists reuse the same type).
 * Box b (memory controller b) is at MCHBAR + ADL_UNCORE_IMC_BASE + b *
 * TGL_UNCORE_MMIO_IMC_MEM_OFFSET. The driver's own header: only
 * drivers/pmu/ and its tests include it. */
#ifndef UNC_PMU_ADL_IMCP_H
#define UNC_PMU_ADL_IMCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../engine/pmu.h"

/* uncore_snb.c: ADL_UNCORE_IMC_BASE, _GLOBAL_CTL, _BOX_CTL, _CTRL (event
 * control 0; uncore_mmio_event_ctl steps 4), _CTR (counter 0, 64-bit;
 * steps 8); ADL_UNCORE_IMC_CTL_FRZ, _RST_CTRL, _RST_CTRS; adl_uncore_imc:
 * 5 counters, 2 boxes, perf_ctr_bits 64; TGL_UNCORE_MMIO_IMC_MEM_OFFSET. */
#define ADL_IMCP_BASE        0xD900u
#define ADL_IMCP_MC_STRIDE   0x10000u
#define ADL_IMCP_GLOBAL_CTL  0xC0u
#define ADL_IMCP_BOX_CTL     0xC4u
#define ADL_IMCP_CTRL        0xD0u
#define ADL_IMCP_CTR         0xE8u
#define ADL_IMCP_MAP_SIZE    0x200u
#define ADL_IMCP_CTL_FRZ     0x1u
#define ADL_IMCP_CTL_RST_CTRL 0x2u
#define ADL_IMCP_CTL_RST_CTRS 0x4u
#define ADL_IMCP_COUNTERS    5
#define ADL_IMCP_BOXES       2
#define ADL_IMCP_WIDTH       64
/* adl_uncore_imc_init_box: "The global control in MC1 can control both MCs." */
#define ADL_IMCP_GLOBAL_BOX  1

/* ADL_UNC_IMC_EVENT_MASK: event 7:0, chmask 11:8 (ADL_UNC_CTL_CHMASK_MASK),
 * edge 18; no enable bit (intel_generic_uncore_mmio_enable_event writes
 * the config as given). */
extern const struct pmu_layout adl_imcp_layout;

/* No Max Inc/Cyc is published: a bound no 64-bit counter reaches. */
#define ADL_IMCP_MAX_PER_SEC (1ull << 40)

/* The unit, for a driver's units[] (intel_unit "iMC": Intel perfmon's
 * Unit of UNC_M_CAS_COUNT_RD and the other programmable IMC events). Its
 * counters are never written nor reset (ADL_IMCP_CTR_NEVER): the run counts
 * from their values as read. */
#define ADL_IMCP_UNIT                                                                                                   \
	{ .pmu = "imc_prog", .intel_unit = "iMC", .name = "IMC_PROG", .box_noun = "MC", .box_label = "mc",            \
	  .boxes_from = "MCHBAR", .kind = PMU_GENERAL, .space = PMU_MMIO, .counters = ADL_IMCP_COUNTERS,              \
	  .width = ADL_IMCP_WIDTH, .max_boxes = ADL_IMCP_BOXES, .sel_base = ADL_IMCP_CTRL,          \
	  .ctr_base = ADL_IMCP_CTR, .box_stride = ADL_IMCP_MC_STRIDE, .sel_step = 4, .ctr_step = 8,                   \
	  .box_ctl = ADL_IMCP_BOX_CTL, .layout = &adl_imcp_layout, .max_per_sec = ADL_IMCP_MAX_PER_SEC,              \
	  .raw_help = "imc_prog/event=N[,chmask=N][,edge]/", ADL_IMCP_CTR_NEVER }

/* Never written: Linux writes no imc_prog counter, and resets them only
 * once, at init (adl_uncore_imc_init_box), which the run does not copy
 * (adl.md says why). */
#define ADL_IMCP_CTR_NEVER                                                                                              \
	.ctr_write = PMU_CTR_NEVER,                                                                                    \
	.ctr_write_cite = "uncore_snb.c: Linux never writes an imc_prog counter (adl_uncore_mmio_ops reads them); "    \
			  "its one reset, RST_CTRL|RST_CTRS in MC1's GLOBAL_CTL at adl_uncore_imc_init_box, is not "  \
			  "copied (adl.md)"

/* The client MSR units from Ice Lake on (CBo, ARB, clock, HAC_*): no
 * public manual, and Linux's uncore_snb.c reads their counters and never
 * writes one (uncore_msr_read_counter; no init_box, enable_event or
 * disable_event writes a counter): never written. */
#define CLIENT_CTR_NEVER                                                                                                \
	.ctr_write = PMU_CTR_NEVER,                                                                                    \
	.ctr_write_cite = "no public manual; Linux's uncore_snb.c never writes a client uncore counter"


/* The probe's part, from MCHBAR (its base field): unit `unit`'s two boxes
 * at MCHBAR + 0xD900 (+ 0x10000). False, with one line in err, when the
 * window is beyond the physical address width. */
bool adl_imcp_place(struct pmu_present *p, unsigned unit, uint64_t mchbar, unsigned phys_bits, char *err,
		    size_t errsize);
/* In use: any event control not zero (read only). */
void adl_imcp_in_use(const struct hw *hw, const struct pmu_present *p, unsigned unit, struct pmu_use *r,
		     void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx);
/* Each box frozen (box control FRZ). */
enum unc_status adl_imcp_freeze(struct pmu_io *io, const struct pmu_present *p, unsigned unit);
/* Each box's control 0 (verify: read back). */
enum unc_status adl_imcp_unfreeze(struct pmu_io *io, const struct pmu_present *p, unsigned unit, bool verify);
/* At each sample: every box control still 0. */
enum unc_status adl_imcp_check(struct pmu_io *io, const struct pmu_present *p, unsigned unit);
/* "ADL_UNCORE_IMC_CTRL0 (MC1)", "ADL_UNCORE_IMC_CTR2[63:32] (MC0)", or NULL. */
const char *adl_imcp_reg_name(const struct pmu_present *p, unsigned unit, struct pmu_reg reg, char *buf, size_t size);
/* MC1's global control. */
struct pmu_reg adl_imcp_global(const struct pmu_present *p, unsigned unit);

#endif
