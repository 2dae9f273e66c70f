/* The Ice Lake-SP iMC as the emulator presents it (pmu_icx.c): per socket a
 * UBox 8086:3450 and the memory-controller device 8086:3451 beside it (its
 * BAR at 0xD0, each controller's offset at 0xD8 + 4 mc), and each channel's
 * PMON box in MMIO. Typed from Linux's uncore_snbep.c (SNR_IMC_MMIO_*,
 * ICX_IMC_MEM_STRIDE, icx_uncore_imc, SNBEP_PMON_BOX_CTL_*) and Intel PCM
 * (SERVER_MC_CH_PMON_*), independently of the application's driver.
 * Buses and addresses are this emulator's choices. */
#ifndef EMU_PMU_ICX_H
#define EMU_PMU_ICX_H

#include <stddef.h>
#include <stdint.h>
#include "../../drivers/base/status.h"

#define EMU_ICX_MAX_SOCKETS 2  /* Ice Lake-SP: one or two sockets */
#define EMU_ICX_CH          12 /* channel boxes per socket: 4 controllers x 3 (icx_uncore_imc.num_boxes) */
#define EMU_ICX_ACTIVE      8  /* active channels by default: two a controller (PCM's ICX count) */
#define EMU_ICX_CTRS        5  /* per channel: 4 general and the DRAM-clock fixed counter (index 4) */
/* Socket s's UBox (function 0) and 8086:3451 (function 1) of device 0 on
 * bus EMU_ICX_BUS(s) (PCM: SERVER_UBOX0_REGISTER_DEV_ADDR 0, FUNC_ADDR 1). */
#define EMU_ICX_BUS(s)      ((uint8_t)(0x7E + 0x80 * (s)))
/* Socket s's BAR: 8 MiB aligned (cfg 0xD0 holds it >> 23), controller mc
 * at + 0x40000 (mc + 1) (cfg 0xD8 + 4 mc holds it >> 12). */
#define EMU_ICX_BAR(s)      (0xFD000000ull + 0x800000ull * (s))
#define EMU_ICX_MC_OFF(mc)  (0x40000ull * ((mc) + 1))
/* The fixed counter: Intel's UNC_M_HCLOCKTICKS, "Half clockticks for IMC":
 * half DDR4-3200's DRAM clock (1.6 GHz) here. */
#define EMU_ICX_HCLK_HZ     800000000ull

/* --icx-fault: bits of cfg->icx_faults. */
enum emu_icx_fault {
	EMU_ICX_MEM_ZERO = 1, /* socket 0's controller 1 offset (cfg 0xDC) reads 0: channels 3-5 absent */
	EMU_ICX_HIDDEN = 2,   /* the last socket's 8086:3451 hidden by the firmware (its UBox stays) */
};
unsigned emu_icx_fault_find(const char *name);

struct emu_config;
struct out;
/* emu_uncore_check for the Ice Lake-SP iMC (uncore), or for another uncore
 * given --icx-fault (refused): UNC_OK, or one line in err. */
enum unc_status emu_icx_check(const struct emu_config *cfg, unsigned uncore, char *err, size_t errsize);
/* emu_describe's part: sockets, buses, channels, rates, faults. */
void emu_icx_describe(const struct emu_config *cfg, struct out *o);

#endif
