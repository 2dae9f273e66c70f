/* The Meteor Lake / Arrow Lake and Lunar Lake client uncores as the
 * emulator knows them, typed from Linux arch/x86/events/intel/uncore_snb.c
 * (the MTL_UNC_* MSRs, mtl_msr_uncores, lnl_msr_uncores,
 * LNL_UNC_MSR_GLOBAL_CTL), chipsec's cfg/8086 host-bridge IDs and Intel
 * perfmon MTL/ARL/LNL *_uncore.json, independently of the application's
 * tables (drivers/pmu/mtl.[ch], events/). Their IMC is Alder Lake's
 * (pmu_adl.c's counters at MCHBAR + 0xD840/0xD858/0xD8A0, + 0x10000). */
#ifndef EMU_PMU_MTL_H
#define EMU_PMU_MTL_H

#include <stdbool.h>
#include <stdint.h>

/* perfmon's HAC_ARB, HAC_CBO and ARB events of MTL and ARL (unit: enum emu_unit). */
struct emu_event;
const struct emu_event *emu_mtl_event_find(const char *name);

/* Meteor Lake 0xAA/0xAC and Arrow Lake 0xC5/0xC6/0xB5 (one table), Lunar
 * Lake 0xBD; the host bridge shown at 0:0.0 for each. */
bool emu_mtl_model(unsigned model);
bool emu_lnl_model(unsigned model);
uint16_t emu_mtl_host_bridge(unsigned model);

/* Counter numbering of the model's state. */
enum {
	EMU_MTL_CTR_CFIXED,  /* the cNCU's fixed counter */
	EMU_MTL_CTR_SFIXED,  /* the sNCU's */
	EMU_MTL_CTR_ARB0,    /* box b counter i: + 2b + i, as for the next three */
	EMU_MTL_CTR_HAC_ARB0 = EMU_MTL_CTR_ARB0 + 4,
	EMU_MTL_CTR_HAC_CBO0 = EMU_MTL_CTR_HAC_ARB0 + 4,
	EMU_MTL_CTR_CBO0 = EMU_MTL_CTR_HAC_CBO0 + 4,
	EMU_MTL_NCTR = EMU_MTL_CTR_CBO0 + 2 * 15, /* 0x396's count, up to 15 (pmu_mtl.c) */
};

#endif
