/* The Xeon E5-2600 (Sandy Bridge-EP) iMC: Intel 327043-001, the Xeon E5-2600 Product
 * Family Uncore Performance Monitoring Guide (read through a Chinese summary
 * of its iMC section), cross-checked with Linux's
 * arch/x86/events/intel/uncore_snbep.c. Register names and offsets are the
 * guide's, in each channel's PCI configuration space. The driver's own
 * header: only drivers/pmu/snbep*.c and its tests include it. */
#ifndef UNC_PMU_SNBEP_H
#define UNC_PMU_SNBEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../engine/pmu.h"

/* Each generation's channel functions and device IDs (vendor 8086):
 * snbep_gens (pciimc.c); Sandy Bridge-EP's are device 16, functions 0, 1,
 * 4 and 5 (Intel 327043-001, "D16:F0,1,4,5"), 3CB0, 3CB1, 3CB4, 3CB5. */
#define SNBEP_VENDOR_INTEL   0x8086u
#define SNBEP_MAX_CH         8u  /* per socket, any generation (two controllers of four) */
/* Sockets the probe records: the UBox's GIDNIDMAP maps 8 node IDs, and the
 * biggest parts (Xeon E7, Xeon Scalable) have 8 sockets. */
#define SNBEP_MAX_SOCKETS    8u
/* So at most 64 boxes, as many as the freeze's bitmap of boxes found
 * frozen (struct pmu_state.found) holds. Each socket's UBox (snbep_gens'
 * ubox_*) gives its node ID in CPUNODEID bits 2:0, and GIDNIDMAP, 3 bits
 * per socket, the node ID of socket i in bits 3i+2:3i. */
#define SNBEP_SOCKETS_BY_NODE (1ull << 8)
#define SNBEP_SOCKETS_GEN_SHIFT 16 /* SNBEP_FACT_SOCKETS bits 19:16: the generation (enum snbep_gen_id) */

/* One generation of the iMC in PCI configuration space: the same registers
 * in each channel's function (Linux: snbep_uncore_imc, ivbep_uncore_imc,
 * hswep_uncore_imc, bdx_uncore_imc, skx_uncore_imc all take SNBEP_PCI_PMON_*
 * and SNBEP_MC_CHy_PCI_PMON_FIXED_*), at other functions and device IDs. */
enum snbep_gen_id { SNBEP_GEN_SNB, SNBEP_GEN_IVB, SNBEP_GEN_HSX, SNBEP_GEN_BDX, SNBEP_GEN_SKX, SNBEP_NGENS };
struct snbep_gen {
	const char *name;     /* "Ivy Bridge-EP" */
	uint8_t channels;     /* per socket */
	uint8_t dev[SNBEP_MAX_CH], func[SNBEP_MAX_CH];
	uint16_t id[SNBEP_MAX_CH];
	uint16_t ubox_id;     /* snbep_pci2phy_map_init's first argument */
	uint8_t ubox_node, ubox_map; /* its CPUNODEID and GIDNIDMAP offsets */
	/* Where the UBox is: on the iMC's bus (Sandy Bridge-EP to Broadwell:
	 * every uncore device is on the socket's uncore bus), or on the
	 * nearest bus at or below it that has one (Skylake-SP: Linux's reverse
	 * argument false, a bus without a UBox takes the node of the UBox bus
	 * below it). */
	bool ubox_below;
};
extern const struct snbep_gen snbep_gens[SNBEP_NGENS];
/* The generation the probe found (SNBEP_FACT_SOCKETS bits 19:16). */
const struct snbep_gen *snbep_gen_of(const struct pmu_present *p);

/* Configuration offsets (Intel 327043-001's address table). */
#define SNBEP_BOX_CTL        0xF4u /* MC_CHy_PCI_PMON_BOX_CTL */
#define SNBEP_FIXED_CTL      0xF0u /* MC_CHy_PCI_PMON_FIXED_CTL */
#define SNBEP_CTL0           0xD8u /* MC_CHy_PCI_PMON_CTL0; CTL1-3 follow every 4 */
#define SNBEP_FIXED_CTR      0xD0u /* MC_CHy_PCI_PMON_FIXED_CTR, low dword; high at 0xD4 */
#define SNBEP_CTR0           0xA0u /* MC_CHy_PCI_PMON_CTR0, low dword; high at 0xA4; CTR1-3 every 8 */

/* MC_CHy_PCI_PMON_BOX_CTL (write only: reads 0). Bits 1:0 must be 0: the
 * iMC box has no reset bit. */
#define SNBEP_BOX_FRZ_EN     (1u << 16)
#define SNBEP_BOX_FRZ        (1u << 8)
/* From Ivy Bridge-EP on (Linux: IVBEP_PMON_BOX_CTL_INT, written by
 * ivbep_uncore_pci_init_box, and SNBEP_PMON_BOX_CTL_INT by the
 * snbep_uncore_pci_ops that hswep/bdx/skx_uncore_imc use): rst_ctrl (bit 0),
 * rst_ctrs (bit 1), frz_en. Only rst_ctrs is written here, with frz_en and
 * frz (the box stays frozen; the CTLs the run wrote are kept). */
#define SNBEP_BOX_RST_CTRS   (1u << 1)
/* MC_CHy_PCI_PMON_FIXED_CTL: en 22, rst 19 (write only). */
#define SNBEP_FIXED_EN       (1u << 22)
#define SNBEP_FIXED_RST      (1u << 19)
/* MC_CHy_PCI_PMON_CTL{3:0}: thresh 31:24, invert 23, en 22, edge_det 18,
 * umask 15:8, ev_sel 7:0 (21:19 and 17:16 reserved). */
#define SNBEP_CTL_EN         (1u << 22)
#define SNBEP_CTL_RW         0xFFC4FFFFull

enum snbep_unit { SNBEP_UNIT_IMC, SNBEP_UNIT_FIXED, SNBEP_NUNITS };

/* What both drivers' units share (each channel's function holds both
 * units, under one BOX_CTL); each adds its bounds and counter policy. */
#define SNBEP_IMC_UNIT                                                                                              \
	.pmu = "imc", .intel_unit = "iMC", .name = "iMC", .box_noun = "channel", .box_label = "ch",                      \
	.boxes_from = "the PCI scan of the channel functions", .kind = PMU_GENERAL, .space = PMU_PCI, .counters = 4,     \
	.width = 48, .max_boxes = PMU_BOXES_ANY, .sel_base = SNBEP_CTL0, .ctr_base = SNBEP_CTR0, .sel_step = 4,          \
	.ctr_step = 8, .box_ctl = SNBEP_BOX_CTL, .layout = &snbep_layout, .role_events = snbep_roles,                    \
	.raw_help = "imc/event=N,umask=N[,thresh=N][,inv][,edge]/", .group_noun = "socket", .short_prefix = "UNC_M_"
#define SNBEP_FIXED_UNIT                                                                                            \
	.pmu = "imc_fixed", .intel_unit = "iMC", .name = "iMC fixed", .box_label = "ch", .kind = PMU_FIXED,              \
	.space = PMU_PCI, .counters = 1, .width = 48, .max_boxes = PMU_BOXES_ANY, .sel_base = SNBEP_FIXED_CTL,           \
	.ctr_base = SNBEP_FIXED_CTR, .sel_step = 4, .ctr_step = 8, .box_ctl = SNBEP_BOX_CTL,                             \
	.fixed_ctrl = SNBEP_FIXED_EN, .clock = true, .group_noun = "socket", .short_prefix = "UNC_M_"
extern const struct pmu_layout snbep_layout;     /* MC_CHy_PCI_PMON_CTL, every generation's */
extern const struct pmu_role_event snbep_roles[]; /* UNC_M_CAS_COUNT.RD and .WR */

/* p->facts[] (stored in records: the meaning of each stays). */
enum snbep_fact {
	SNBEP_FACT_BUSES,      /* byte s: socket s's uncore bus */
	SNBEP_FACT_SOCKETS,    /* bits 7:0 sockets found; bit 8: numbered by their UBoxes' node IDs, else in bus order;
				* bits 19:16 the generation */
	SNBEP_FACT_PRESENT,    /* bit s*C+ch (C: the generation's channels a socket): channel ch of socket s answers
				* with its device ID */
	SNBEP_FACT_ODD,        /* bit s*C+ch: answers with another device ID */
	SNBEP_FACT_ODD_ID0,    /* 4 facts: an unexpected ID each, 1<<63 | s<<40 | ch<<32 | device<<16 | vendor */
};
#define SNBEP_NODD 4u

extern const struct pmu_driver pmu_driver_snbep;
extern const struct pmu_driver pmu_driver_pciimc; /* Ivy Bridge-EP to Cooper Lake (pciimc.c) */
extern const struct pmu_ops snbep_ops;           /* both drivers' */

/* The channel of a function (device and function) in generation g, or -1. */
int snbep_channel_of(const struct snbep_gen *g, unsigned dev, unsigned func);
/* Intel 327043-001's "Max Inc/Cyc" of an event code; 0: the guide gives none. */
unsigned snbep_max_inc(uint8_t code);

void snbep_info(struct out *o, const struct pmu_present *p, bool json);
/* The channels the probe found missing (or with another device ID) on
 * sockets that have channels: NULL when none. */
const char *snbep_caveat(const struct pmu_present *p, char *buf, size_t size);

#endif
