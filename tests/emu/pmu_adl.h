/* The Alder Lake / Raptor Lake client uncore as the emulator knows it,
 * typed from Linux arch/x86/events/intel/uncore_snb.c (the ADL_UNC_* MSRs,
 * adl_uncore_imc_freerunning), chipsec's host-bridge MCHBAR field and Intel
 * perfmon ADL/events/alderlake_uncore*.json, independently of the
 * application's tables (drivers/pmu/adl.[ch], events/adl.json). */
#ifndef EMU_PMU_ADL_H
#define EMU_PMU_ADL_H

#include <stdbool.h>
#include <stdint.h>
#include "../../drivers/base/status.h"

/* The free-running IMC counters: per controller total requests, RdCAS,
 * WrCAS at 0x40, 0x58, 0xA0 from the IMC block (MCHBAR + 0xD800; TGL-L's
 * at MCHBAR + 0x5000); controller 1 at + 0x10000; 64 bits each (two
 * dwords, low first). */
#define EMU_ADL_IMC_COUNTERS 6
struct emu_adl_imc {
	const char *name;      /* perfmon's UNC_MCn_..._FREERUN */
	const char *perf_name; /* Linux's data_total/data_read/data_write, prefixed mcN_ */
	uint32_t offset;       /* from the IMC block */
};
extern const struct emu_adl_imc emu_adl_imc[EMU_ADL_IMC_COUNTERS];
int emu_adl_imc_find(const char *name);

/* The MCHBAR region the emulator publishes for this uncore: both
 * controllers' counters fit, and its alignment suits bits 41:17. */
#define EMU_ADL_MCHBAR_SIZE 0x20000u

/* perfmon's ARB and NCU events of ADL (unit: enum emu_unit). */
struct emu_event;
const struct emu_event *emu_adl_event_find(const char *name);

/* Whether a CPU model (family 6) is Alder Lake or Raptor Lake, and the
 * host-bridge device ID the emulator shows for it (Linux's first ADL ID,
 * 0x4660, or RPL's 0xA700). */
bool emu_adl_model(unsigned model);
/* Tiger Lake (0x8C TGL-L, 0x8D TGL-H), served by the same file's second
 * table (emu_pmu_tgl), with its IMC block at MCHBAR + 0x5000 on TGL-L. */
bool emu_tgl_model(unsigned model);
/* Ice Lake client (0x7D, 0x7E, 0x9D: emu_pmu_icl, this file's third
 * table) and Rocket Lake (0xA7: Tiger Lake's table, as Linux's
 * rkl_uncore_init takes tgl_uncore_cpu_init); both with the Skylake IMC
 * (pmu_skl.c) and their own host bridge (8086:8a12, 8086:4c43). */
bool emu_icl_model(unsigned model);
bool emu_rkl_model(unsigned model);
uint16_t emu_adl_host_bridge(unsigned model);
/* Whether an uncore (enum emu_uncore) is a client one with these 64-bit IMC
 * counters (Alder/Raptor Lake, Tiger Lake, Meteor/Arrow Lake, Lunar Lake);
 * the PCI function they all serve is model.h's emu_client_pci. */
bool emu_client_imc(unsigned uncore);
uint32_t emu_adl_imc_block(unsigned model);

/* The programmable IMC counters (uncore_snb.c adl_uncore_imc): per
 * controller at MCHBAR + 0xD900 (+ 0x10000): global control +0xC0 (MC1's
 * acts on both: RST_CTRL bit 1 zeroes every event control, RST_CTRS bit 2
 * every counter), box control +0xC4 (bit 0 freezes), event control i at
 * +0xD0 + 4i (event 7:0, channel mask 11:8, edge 18), counter i at +0xE8 +
 * 8i (64 bits, two dwords). Their events' rates (--rate, per channel) are
 * of the unit EMU_UNIT_ADL_IMCP, beside enum emu_unit. */
#define EMU_ADL_IMCP_BASE   0xD900u
#define EMU_ADL_IMCP_STRIDE 0x10000u
#define EMU_ADL_IMCP_BOXES  2
#define EMU_ADL_IMCP_CTRS   5
#define EMU_ADL_IMCP_CHANNELS 4 /* the bits of the channel mask */
#define EMU_UNIT_ADL_IMCP   3
/* Their registers, as an emu_pmu's mmio_read32 / mmio_write32: Alder/Raptor
 * Lake's, and Meteor/Arrow Lake's and Lunar Lake's (pmu_mtl.c), whose
 * Linux mmio lists keep adl_uncore_imc. UNC_E_NOT_FOUND: not one of them. */
struct emu;
enum unc_status emu_adl_imcp_read32(struct emu *e, uint64_t addr, uint32_t *ret_val);
enum unc_status emu_adl_imcp_write32(struct emu *e, uint64_t addr, uint32_t val);

/* The CBos a table holds. Linux's icl_get_cbox_num takes 0x396's bits 3:0,
 * up to 15, each at ADL_UNC_CBO_0_PERFEVTSEL0 0x2000 + 8 * box. Tiger Lake
 * and Ice Lake's ICL_UNC_CBO_0_PERFEVTSEL0 0x700 + 8 * box reaches 0x770 at
 * box 14: IA32_PM_ENABLE (Intel SDM Vol. 4; Linux msr-index.h), which the
 * emulator leaves to the processor, so 14 boxes there. */
#define EMU_ADL_MAX_CBO 15
#define EMU_TGL_MAX_CBO 14

/* Counter numbering of the model's state. */
enum {
	EMU_ADL_CTR_FIXED, EMU_ADL_CTR_ARB0, EMU_ADL_CTR_CBO0 = EMU_ADL_CTR_ARB0 + 4,
	EMU_ADL_NCTR = EMU_ADL_CTR_CBO0 + 2 * EMU_ADL_MAX_CBO
};

#endif
