/* The Ice Lake-SP iMC (Xeon Scalable 3rd generation, models 0x6A and 0x6C):
 * its channels in MMIO, found through PCI device 8086:3451 as Linux's
 * arch/x86/events/intel/uncore_snbep.c finds them (icx_uncore_imc,
 * icx_uncore_imc_init_box, snr_uncore_mmio_map), cross-checked with Intel
 * PCM (getServerMemBars, SERVER_MC_CH_PMON_*). The driver's own header: only
 * drivers/pmu/icx*.c and its tests include it. */
#ifndef UNC_PMU_ICX_H
#define UNC_PMU_ICX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../engine/pmu.h"

#define ICX_VENDOR_INTEL 0x8086u
/* Linux SNR_MC_DEVICE_ID (icx_uncore_imc_init_box passes it to
 * snr_uncore_mmio_map), PCM's UBOX0 register device (function 1 of the
 * UBox's device). */
#define ICX_MC_ID        0x3451u
/* The UBox: Linux icx_uncore_pci_init, snbep_pci2phy_map_init(0x3450,
 * SKX_CPUNODEID, SKX_GIDNIDMAP, true). */
#define ICX_UBOX_ID      0x3450u
#define ICX_CPUNODEID    0xC0u /* bits 2:0: this socket's node ID */
#define ICX_GIDNIDMAP    0xD4u /* 3 bits per socket: the node ID of socket i in bits 3i+2:3i */

/* Linux SNR_IMC_MMIO_BASE_OFFSET/_MASK, SNR_IMC_MMIO_MEM0_OFFSET/_MASK,
 * ICX_IMC_MEM_STRIDE: a controller's base is (cfg[0xD0] & 0x1FFFFFFF) << 23
 * | (cfg[0xD8 + 4 * mc] & 0x7FF) << 12 (PCM: the same masks, 29 and 11 bits). */
#define ICX_MMIO_BASE      0xD0u
#define ICX_MMIO_BASE_MASK 0x1FFFFFFFu
#define ICX_MMIO_BASE_SHIFT 23
#define ICX_MEM0           0xD8u
#define ICX_MEM_STRIDE     4u
#define ICX_MEM_MASK       0x7FFu
#define ICX_MEM_SHIFT      12
/* Linux ICX_NUMBER_IMC_CHN (3) and icx_uncore_imc.num_boxes (12): box i is
 * channel i % 3 of controller i / 3, at the controller's base +
 * SNR_IMC_MMIO_PMON_BOX_CTL (0x22800) + SNR_IMC_MMIO_OFFSET (0x4000) * (i % 3);
 * PCM SERVER_MC_CH_PMON_BASE_ADDR 0x22800, SERVER_MC_CH_PMON_STEP 0x4000. */
#define ICX_CH_PER_MC      3u
#define ICX_MCS            4u
#define ICX_CHANNELS       12u /* per socket */
/* The channels of a controller programmed (Intel PCM, numChannels: 2 on
 * ICX, 3 on ICX-D): Linux's commit 496a18f09374 lists a third box per
 * controller but says that only two channels are ever active on a server,
 * and that an inactive one reads 0 and ignores writes. */
unsigned icx_channels_per_mc(uint32_t model);
#define ICX_BOX            0x22800u
#define ICX_BOX_STRIDE     0x4000u
/* From the box control (SNR_IMC_MMIO_PMON_*; PCM SERVER_MC_CH_PMON_*_OFFSET):
 * counter i at +0x08 + 8i (64-bit, 48 counting), control i at +0x40 + 4i
 * (32-bit); the DRAM-clock fixed counter at +0x38, its control at +0x54. */
#define ICX_CTR0           0x08u
#define ICX_CTL0           0x40u
#define ICX_FIXED_CTR      0x38u
#define ICX_FIXED_CTL      0x54u
/* The box control: the older layout (SNBEP_PMON_BOX_CTL_*): RST_CTRL bit 0
 * (the controls to 0), RST_CTRS bit 1 (the counters to 0), FRZ bit 8,
 * FRZ_EN bit 16. Linux's init_box writes IVBEP_PMON_BOX_CTL_INT (bits 1:0),
 * disable_box sets FRZ and enable_box clears it, each read-modify-write. */
#define ICX_BOX_RST_CTRL   (1u << 0)
#define ICX_BOX_RST_CTRS   (1u << 1)
#define ICX_BOX_FRZ        (1u << 8)
#define ICX_BOX_FRZ_EN     (1u << 16)
/* The event control (SNBEP_PMON_CTL_*, SNBEP_PMON_RAW_EVENT_MASK): event
 * 7:0, umask 15:8, edge 18, EN 22 (snr_uncore_mmio_enable_event), invert 23,
 * threshold 31:24. */
#define ICX_CTL_EN         (1u << 22)
#define ICX_CTL_RW         0xFFC4FFFFull

/* Ice Lake-SP is a one- or two-socket part (the four- and eight-socket
 * Xeons of its year are Cooper Lake, 0x55): the probe keeps two and
 * refuses more, naming the limit. */
#define ICX_MAX_SOCKETS    2u
#define ICX_MAX_DEVS       8u /* 8086:3451 and 8086:3450 functions the scan records */

enum icx_unit { ICX_UNIT_IMC, ICX_UNIT_FIXED, ICX_NUNITS };

/* p->facts[] (kept in records: the meaning of each stays). */
enum icx_fact {
	/* bits 7:0 sockets; 8: numbered by their UBoxes' node IDs, else in bus
	 * order; 23:16 UBoxes found; 31:24 8086:3451 functions found; 39:32
	 * packages the seam knows; 47:40 bit s: package s has a UBox but no
	 * 8086:3451 on its bus (hidden); 51:48 channels programmed a controller */
	ICX_FACT_SOCKETS,
	/* 2 facts, socket s's device: bus 7:0, device 12:8, function 15:13,
	 * cfg[0xD0] & 0x1FFFFFFF in 44:16, its UBox's node ID in 50:48 (bit 51: known) */
	ICX_FACT_DEV0,
	ICX_FACT_MEM0 = ICX_FACT_DEV0 + ICX_MAX_SOCKETS, /* 2 facts: cfg[0xD8 + 4 mc] & 0x7FF at 16 mc */
	ICX_FACT_PRESENT = ICX_FACT_MEM0 + ICX_MAX_SOCKETS, /* bit 12 s + ch: channel ch of socket s programmed */
};
#define ICX_SOCKETS_BY_NODE (1ull << 8)

extern const struct pmu_driver pmu_driver_icx;

/* The physical address of channel ch's box control from the device's
 * cfg[0xD0] and its controller's cfg[0xD8 + 4 * (ch / 3)]; 0: the BAR or
 * the controller's offset is 0 (not assigned). */
uint64_t icx_box_addr(uint32_t cfg_d0, uint32_t cfg_mem, unsigned ch);

void icx_info(struct out *o, const struct pmu_present *p, bool json);
/* What the probe found missing (a controller whose offset is 0, a device
 * hidden, fewer sockets than packages); NULL when nothing. */
const char *icx_caveat(const struct pmu_present *p, char *buf, size_t size);

#endif
