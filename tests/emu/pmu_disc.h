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

/* Sizes (servers.md "Real sizes"): up to 8 sockets (SPR), up to 12 iMC
 * channels per socket (Xeon 6900-series GNR; 8 on SPR/EMR), up to 60 CHAs
 * per socket (SPR XCC). Each socket has its own table, numbering its
 * channels and CHAs from 0 as Linux's per-die tables do. */
#define EMU_DISC_MAX_SOCKETS 8
#define EMU_DISC_MAX_CH      12 /* per socket */
#define EMU_DISC_MAX_CHA     60 /* per socket */
#define EMU_DISC_SOCKET_CH   8  /* channels per socket by default */
#define EMU_DISC_CH_CTRS     4
#define EMU_DISC_CHA_CTRS    4
/* Counters (struct emu.ctr): channel c of socket s, counter i at
 * (s * EMU_DISC_MAX_CH + c) * 4 + i; CHA b of socket s after all channels. */
#define EMU_DISC_CHA_CTR0 (EMU_DISC_MAX_SOCKETS * EMU_DISC_MAX_CH * EMU_DISC_CH_CTRS)
#define EMU_DISC_CTRS     (EMU_DISC_CHA_CTR0 + EMU_DISC_MAX_SOCKETS * EMU_DISC_MAX_CHA * EMU_DISC_CHA_CTRS)

/* Where each socket's devices are (this emulator's choice): socket s's
 * table device 8086:09A7 at bus EMU_DISC_BUS(s), device 0x0A, and (SPR and
 * EMR identities) its UBox 8086:3250 at bus EMU_DISC_UBOX_BUS(s) device 0,
 * above the table's bus and below the next socket's, as Linux's rule for
 * SPR (snbep_pci2phy_map_init, reverse) reads them: a bus without a UBox
 * takes the nearest UBox bus above it. */
#define EMU_DISC_BUS(s)      ((uint8_t)(0x20 * (s)))
#define EMU_DISC_UBOX_BUS(s) ((uint8_t)(0x20 * (s) + 0x1E))
#define EMU_DISC_DEV  0x0A
#define EMU_DISC_DEV2 0x0B /* --disc-fault second-table: on bus 0 */
#define EMU_DISC_UBOX_ID 0x3250 /* Linux spr_uncore_pci_init */
#define EMU_DISC_CPUNODEID 0xC0 /* Linux SKX_CPUNODEID */
#define EMU_DISC_GIDNIDMAP 0xD4 /* Linux SKX_GIDNIDMAP */
/* Socket s's table (its BAR), its channels' MMIO, and the second table. */
#define EMU_DISC_TABLE_AT(s) (0xFE000000ull + 0x100000ull * (s))
#define EMU_DISC_TABLE       EMU_DISC_TABLE_AT(0)
#define EMU_DISC_IMC_AT(s, c) (EMU_DISC_TABLE_AT(s) + 0x10000ull + 0x4000ull * (c))
#define EMU_DISC_IMC(c)      EMU_DISC_IMC_AT(0, c)
#define EMU_DISC_TABLE2      0xFE900000ull
/* CHA b's box control on every socket (the same MSR numbers on each package). */
#define EMU_DISC_CHA_BOX 0x2000u
#define EMU_DISC_CHA_MSR(b) (EMU_DISC_CHA_BOX + 0x10u * (b))

/* --disc-fault: the ways real tables break (bits of cfg->disc_faults). */
enum emu_disc_fault {
	EMU_DISC_ALL_ONES = 1,    /* an entry of all ones */
	EMU_DISC_NO_CTR = 2,      /* an iMC entry with no counter offset */
	EMU_DISC_BIR = 4,         /* the BIR dword with bit 3 set */
	EMU_DISC_SECOND = 8,      /* a second table on device 0x0B */
	EMU_DISC_BAR_ZERO = 16,   /* socket 0's table BAR reads 0 (unassigned) */
};

/* The node ID of package s as the emulated UBoxes give it (CPUNODEID, and
 * GIDNIDMAP's field s): not s itself, so that a reader must look it up. */
static inline unsigned emu_disc_node_id(unsigned s)
{
	return (s + 3) & 7;
}

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
/* Sockets served (--sockets; 1 unless given), and socket s's CHAs (--chas; 1 unless given). */
struct emu;
unsigned emu_disc_sockets(const struct emu *e);
unsigned emu_disc_chas(const struct emu *e, unsigned s);
/* Counter c (of e->ctr, its clock cycle in e->disc.since) brought up to
 * now through the PMU's ctr_enabled and increment hooks: the lazy counting
 * of the discovery iMC and CHAs, and of the Ice Lake-SP iMC. */
struct emu_ctr;
void emu_disc_bring(struct emu *e, struct emu_ctr *c);
/* The fault named (all-ones, no-ctr-offset, bir, second-table, bar-zero); 0: none. */
unsigned emu_disc_fault_find(const char *name);

#endif
