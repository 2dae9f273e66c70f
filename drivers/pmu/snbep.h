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

/* Device 16, functions 0, 1, 4 and 5 are channels 0 to 3 (Intel 327043-001, "D16:F0,1,4,5"),
 * with the device IDs of Linux's snbep_uncore_pci_ids (vendor 8086). */
#define SNBEP_IMC_DEV        16u
#define SNBEP_VENDOR_INTEL   0x8086u
#define SNBEP_CHANNELS       4u  /* per socket */
#define SNBEP_MAX_SOCKETS    8u  /* buses the probe records */
#define SNBEP_MAX_BOXES      8u  /* two sockets of four channels (the driver's limit, snbep.md) */
/* The UBox (Linux, uncore_snbep.c: snbep_pci2phy_map_init(0x3ce0, SNBEP_CPUNODEID,
 * SNBEP_GIDNIDMAP)): device ID 3CE0, its node ID in CPUNODEID bits 2:0, and
 * GIDNIDMAP, 3 bits per socket: the node ID of socket i in bits 3i+2:3i. */
#define SNBEP_UBOX_ID        0x3CE0u
#define SNBEP_UBOX_CPUNODEID 0x40u
#define SNBEP_UBOX_GIDNIDMAP 0x54u
#define SNBEP_SOCKETS_BY_NODE (1ull << 8)

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
/* MC_CHy_PCI_PMON_FIXED_CTL: en 22, rst 19 (write only). */
#define SNBEP_FIXED_EN       (1u << 22)
#define SNBEP_FIXED_RST      (1u << 19)
/* MC_CHy_PCI_PMON_CTL{3:0}: thresh 31:24, invert 23, en 22, edge_det 18,
 * umask 15:8, ev_sel 7:0 (21:19 and 17:16 reserved). */
#define SNBEP_CTL_EN         (1u << 22)
#define SNBEP_CTL_RW         0xFFC4FFFFull

enum snbep_unit { SNBEP_UNIT_IMC, SNBEP_UNIT_FIXED, SNBEP_NUNITS };

/* p->facts[] (stored in records: the meaning of each stays). */
enum snbep_fact {
	SNBEP_FACT_BUSES,      /* byte s: socket s's uncore bus */
	SNBEP_FACT_SOCKETS,    /* bits 7:0 sockets found; bit 8: numbered by their UBoxes' node IDs, else in bus order */
	SNBEP_FACT_PRESENT,    /* bit s*4+ch: channel ch of socket s answers with its device ID */
	SNBEP_FACT_ODD,        /* bit s*4+ch: answers with another device ID */
	SNBEP_FACT_ODD_ID0,    /* 4 facts: an unexpected ID each, 1<<63 | s<<40 | ch<<32 | device<<16 | vendor */
};
#define SNBEP_NODD 4u

extern const struct pmu_driver pmu_driver_snbep;
extern const uint16_t snbep_channel_func[SNBEP_CHANNELS];
extern const uint16_t snbep_channel_id[SNBEP_CHANNELS];

/* The channel of a function number (0, 1, 4, 5), or -1. */
int snbep_channel_of_func(unsigned func);
/* Intel 327043-001's "Max Inc/Cyc" of an event code; 0: the guide gives none. */
unsigned snbep_max_inc(uint8_t code);

void snbep_info(struct out *o, const struct pmu_present *p, bool json);
/* The channels the probe found missing (or with another device ID) on
 * sockets that have channels: NULL when none. */
const char *snbep_caveat(const struct pmu_present *p, char *buf, size_t size);

#endif
