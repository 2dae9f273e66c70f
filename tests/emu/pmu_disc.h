/* An uncore described by Intel's discovery table, as the emulator presents
 * it (pmu_disc.c): PCI device 8086:09A7 whose DVSEC 0x23 points at a table
 * in MMIO, the iMC channel units it lists (MMIO) and one CHA (MSR). The
 * table's qwords are composed from the field positions of Linux's
 * struct uncore_global_discovery / struct uncore_unit_discovery
 * (arch/x86/events/intel/uncore_discovery.h), independently of the
 * application's parser. Addresses are this emulator's choices. */
#ifndef EMU_PMU_DISC_H
#define EMU_PMU_DISC_H

#include <stdbool.h>
#include <stdint.h>

#define EMU_DISC_MAX_CH   16 /* two sockets: channels 8 and up are the second socket's */
#define EMU_DISC_SOCKET_CH 8 /* channels in one socket's table */
#define EMU_DISC_CH_CTRS  4
#define EMU_DISC_CHA_CTR0 (EMU_DISC_MAX_CH * EMU_DISC_CH_CTRS) /* the CHA's counters after the channels' */
#define EMU_DISC_CTRS     (EMU_DISC_CHA_CTR0 + 4)

/* The device holding the table (and, --disc-fault second-table, another;
 * with more than 8 channels, the second socket's on a device of its own). */
#define EMU_DISC_BUS  0
#define EMU_DISC_DEV  0x0A
#define EMU_DISC_DEV2 0x0B
#define EMU_DISC_DEV_S1 0x0C
#define EMU_DISC_TABLE   0xFE000000ull
#define EMU_DISC_TABLE2  0xFE100000ull
#define EMU_DISC_TABLE_S1 0xFE200000ull
#define EMU_DISC_IMC(c)  (0xFE010000ull + 0x4000ull * (c))
#define EMU_DISC_CHA_BOX 0x2000u

/* --disc-fault: the ways real tables break (bits of cfg->disc_faults). */
enum emu_disc_fault {
	EMU_DISC_ALL_ONES = 1,    /* an entry of all ones */
	EMU_DISC_NO_CTR = 2,      /* an iMC entry with no counter offset */
	EMU_DISC_BIR = 4,         /* the BIR dword with bit 3 set */
	EMU_DISC_SECOND = 8,      /* a second table on device 0x0B */
};

/* Units of its events (struct emu_rate.unit), after the others. */
enum emu_disc_unit { EMU_UNIT_DISC_IMC = 20, EMU_UNIT_DISC_CHA };

struct emu_disc_event {
	const char *name;
	uint8_t unit, code, umask;
	uint32_t umask_ext; /* the CHA's select bits 63:32 */
};
extern const struct emu_disc_event emu_disc_events[];
extern const unsigned emu_disc_nevents;
const struct emu_disc_event *emu_disc_event_find(const char *name);
/* The fault named (all-ones, no-ctr-offset, bir, second-table); 0: none. */
unsigned emu_disc_fault_find(const char *name);

#endif
