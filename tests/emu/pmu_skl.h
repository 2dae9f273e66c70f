/* The 6th-generation Core (Skylake-client) uncore as the emulator knows it:
 * its counters, events and IMC counters, typed from Intel 334060-001
 * independently of the application's tables (events/skl.json,
 * drivers/skl.[ch]); tests/unit/test_conformance.c checks both against the
 * manual. The register table and the behaviour hooks are in pmu_skl.c. */
#ifndef EMU_PMU_SKL_H
#define EMU_PMU_SKL_H

#include <stdbool.h>
#include <stdint.h>

/* Up to 8 CBos, as Linux programs on these models: boxes 0-6 at 0x700 +
 * 0x10 per box, box 7 at 0xF70/0xF76 (Linux uncore.h, CFL_UNC_CBO_7_*). */
#define EMU_MAX_CBO 8

/* Table 2-6: MSR_UNC_CBO_CONFIG[3:0], NO_CBO_BANKS. */
#define EMU_SKL_NO_CBO_BANKS 0xFull

/* MCHBAR in the host bridge 0:0.0 (offsets 0x48/0x4C): bit 0 enables it,
 * bits 38:15 are the base (32 KiB granules). */
#define EMU_SKL_MCHBAR_LO     0x48u
#define EMU_SKL_MCHBAR_HI     0x4Cu
#define EMU_SKL_MCHBAR_MASK   0x7FFFFF8000ull
#define EMU_SKL_MCHBAR_ENABLE 0x1ull

/* The emulated units, the emulator's own numbering (not the app's). */
/* The HAC units are Meteor Lake's (pmu_mtl.c). */
enum emu_unit { EMU_UNIT_CBO, EMU_UNIT_ARB, EMU_UNIT_FIXED, EMU_UNIT_HAC_ARB, EMU_UNIT_HAC_CBO };

struct emu_event {
	const char *name;
	uint8_t unit;      /* enum emu_unit */
	uint8_t code, umask;
	uint8_t counters;  /* "Valid Counters": bit n = counter n; 0x80 = the fixed counter */
	bool threshold;    /* counts cycles with the event outstanding: a threshold view of code/umask */
};
#define EMU_NEVENTS 20 /* Table 3-1 (14), Table 3-2 (6, UNC_CLOCK.SOCKET included) */
extern const struct emu_event emu_events[EMU_NEVENTS];

struct emu_imc {
	const char *name;      /* Table 3-3 */
	const char *perf_name; /* Linux perf's imc/NAME/ */
	uint32_t offset;       /* from MCHBAR */
};
#define EMU_IMC_COUNTERS 5
extern const struct emu_imc emu_imc[EMU_IMC_COUNTERS];

/* Case-insensitive lookups: an event by the manual's name; an IMC counter
 * by the manual's name, perf's, or imc/NAME/. NULL or -1 when unknown. */
const struct emu_event *emu_event_find(const char *name);
int emu_imc_find(const char *name);

/* The CBos emulated for a NO_CBO_BANKS value (Section 2.4.1: less one),
 * at most EMU_MAX_CBO. */
unsigned emu_skl_cbos(unsigned no_cbo_banks);

/* The counters, numbered for the model's counter state and for the faults
 * that make one stuck. */
enum emu_ctr_id {
	EMU_CTR_FIXED,
	EMU_CTR_ARB0,
	EMU_CTR_ARB1,
	EMU_CTR_CBO0, /* CBo b counter i is EMU_CTR_CBO0 + 2*b + i */
	EMU_CTR_IMC0 = EMU_CTR_CBO0 + 2 * EMU_MAX_CBO, /* Table 3-3 order */
	EMU_NCTR = EMU_CTR_IMC0 + EMU_IMC_COUNTERS,
};
/* Counters behind MSRs (the IMC's are in MCHBAR). */
#define EMU_MSR_CTRS EMU_CTR_IMC0

#endif
