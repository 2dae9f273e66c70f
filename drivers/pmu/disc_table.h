/* disc_table.c: Intel's uncore discovery tables (Sapphire Rapids and later
 * Xeons): where they are, what their entries say, which entries are skipped
 * and why; and the tables the driver's probe read last.
 *
 * Engine-independent: it reads through the seam (hw.h) only, so the host
 * tests feed it hand-typed tables. Layouts and rules from Linux
 * arch/x86/events/intel/uncore_discovery.h (struct uncore_global_discovery,
 * struct uncore_unit_discovery, UNCORE_DISCOVERY_* constants) and
 * uncore_discovery.c (has_generic_discovery_table, parse_discovery_table,
 * uncore_discovery_invalid_unit, uncore_insert_box_info); Intel PCM
 * src/pci.h (union VSEC) and src/uncore_pmu_discovery.cpp. */
#ifndef UNC_DISC_TABLE_H
#define UNC_DISC_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../base/hw.h"

#define DISC_DEVICE      0x09A7 /* UNCORE_DISCOVERY_TABLE_DEVICE */
#define DISC_EXT_CAP_ID  0x23   /* UNCORE_EXT_CAP_ID_DISCOVERY */
#define DISC_DVSEC_PMON  1      /* UNCORE_DISCOVERY_DVSEC_ID_PMON, at cap+0x8 bits 15:0 */
#define DISC_BIR_MASK    0x7u   /* UNCORE_DISCOVERY_DVSEC2_BIR_MASK, at cap+0xC */

/* Static bounds, each above the biggest real machine; a machine over one is
 * refused, naming it (disc_find), never counted in part. Tables: one per
 * socket on SPR/EMR (up to 8 sockets), one per die on GNR (servers.md:
 * "each socket (on GNR, each die) has its own table"). Units kept: only
 * iMC and CHA units are kept whole (8 sockets x up to 12 channels and
 * 60 CHAs on SPR, more CHAs on GNR's biggest dies); every other type is
 * counted per table (struct disc_table.types). Types: distinct box types
 * in one table (SPR's tables hold 11, GNR's 23 in Linux's gnr_uncores). */
#define DISC_MAX_TABLES 64
#define DISC_MAX_UNITS  2048
#define DISC_MAX_TYPES  64
#define DISC_MAX_SKIPS  16
/* The highest physical address an x86-64 processor can have (52 bits):
 * a table running past it is no table. */
#define DISC_PHYS_LIMIT (1ull << 52)

/* enum uncore_access_type */
enum disc_access { DISC_MSR = 0, DISC_MMIO = 1, DISC_PCI = 2 };

/* Box types named here (Linux UNCORE_SPR_CHA 0, UNCORE_SPR_IMC 6; PCM
 * SPR_IMC_BOX_TYPE); any other is uncore_type_T_N, as perf names it. */
#define DISC_TYPE_CHA 0
#define DISC_TYPE_IMC 6

/* One 24-byte entry as read: the three qwords of both structs. */
struct disc_entry {
	uint64_t table1, ctl, table3;
};

/* Why an entry was not taken. */
enum disc_why {
	DISC_OK = 0,
	DISC_WHY_ZERO,       /* table1 or ctl is 0 (uncore_discovery_invalid_unit) */
	DISC_WHY_ONES,       /* a qword is all ones (likewise) */
	DISC_WHY_ACCESS,     /* access_type 3 (>= UNCORE_ACCESS_MAX) */
	DISC_WHY_NO_CTL_OFF, /* ctl_offset 0 (uncore_insert_box_info) */
	DISC_WHY_NO_CTR_OFF, /* ctr_offset 0 (likewise) */
	/* A whole table (entry 0xFFFF): */
	DISC_WHY_BAR,        /* the BAR is not a 32/64-bit non-prefetchable memory BAR (val & 0xB) */
	DISC_WHY_GLOBAL,     /* the global entry is zero or all ones */
	DISC_WHY_STRIDE,     /* a stride below 3 qwords: entries would overlap */
};
#define DISC_TABLE_ENTRY 0xFFFF

struct disc_unit {
	uint64_t ctl;         /* the unit control address, as encoded by access */
	uint16_t box_type, box_id;
	uint8_t access;       /* enum disc_access */
	uint8_t num_regs, ctl_offset, bit_width, ctr_offset, status_offset;
	uint8_t table;        /* the table it came from (one per die) */
	uint16_t pmu_idx;     /* N of uncore_<type>_N: box IDs of a type numbered as first seen,
			       * a repeated ID (the same box on another die) keeping its number */
	uint16_t entry;       /* its index in its table */
};

/* Units of one box type in a table (every type, iMC and CHA included). */
struct disc_type_count {
	uint16_t type, n;
};

/* How a table was tied to its socket (disc_sockets). */
enum disc_tie {
	DISC_TIE_NONE = 0,   /* not tied yet */
	DISC_TIE_UBOX,       /* its bus's socket from the UBox map (Linux snbep_pci2phy_map_init) */
	DISC_TIE_ORDER,      /* table order: no UBox device (or no UBox rule for the model) */
	DISC_TIE_ORDER_UNMAPPED, /* table order: a UBox was found but could not map every table */
};

/* Where a PCI unit's box control is (UNCORE_DISCOVERY_PCI_DOMAIN 30:28,
 * _BUS 27:20, _DEVFN 19:12, _BOX_CTRL 11:0). */
struct disc_pci {
	uint8_t domain, bus, dev, func;
	uint16_t reg;
};

struct disc_table {
	struct pci_addr dev;  /* the device holding the capability */
	uint16_t device_id;
	uint16_t cap;         /* the capability's config offset */
	uint8_t bir;
	uint64_t bar;         /* the table's physical address */
	struct disc_entry global;
	uint8_t stride;       /* in qwords (8 bytes each) */
	uint16_t max_units;
	uint16_t units;       /* entries taken from it (every type) */
	uint16_t kept;        /* its iMC and CHA units (in struct disc.unit) */
	uint8_t ntypes;
	struct disc_type_count types[DISC_MAX_TYPES]; /* its units by type, in first-seen order */
	int8_t socket;        /* its package (disc_sockets); -1: none (a table of no iMC or CHA) */
};

struct disc_skip {
	uint8_t table, why;   /* enum disc_why */
	uint16_t entry;       /* the entry's index in its table */
	uint16_t box_type, box_id;
};

struct disc {
	struct disc_table table[DISC_MAX_TABLES];
	unsigned ntables;
	struct disc_unit unit[DISC_MAX_UNITS];
	unsigned nunits;
	struct disc_skip skip[DISC_MAX_SKIPS]; /* the first ones */
	unsigned nskips;                       /* every one, even beyond skip[] */
	unsigned devices;                      /* devices with the capability */
	bool by_device;                        /* only DISC_DEVICE devices were read */
	uint8_t tie;                           /* enum disc_tie: how sockets were numbered */
	uint8_t sockets;                       /* sockets holding iMC or CHA units */
	uint8_t nubox;                         /* DISC_UBOX_SPR functions found (at most 8 kept) */
	struct { struct pci_addr a; uint32_t nodeid, gidnid; int8_t socket; } ubox[8]; /* socket -1: unmapped */
	/* SPR/EMR: MSR 0x2FFE's CHA count of sockets 0-7 (a per-package MSR),
	 * each read by a processor of its package, each on its own: bit s of
	 * cbo_read: socket s's count is in cbo[s]; of cbo_fail: its read
	 * failed (no processor of the package, or #GP), so that socket's CHAs
	 * are not capped. */
	uint32_t cbo[8];
	uint8_t cbo_read, cbo_fail;
};

/* Whether a unit is one the parser keeps whole (iMC or CHA). */
static inline bool disc_kept_type(unsigned box_type)
{
	return box_type == 6 || box_type == 0;
}

/* The entry's fields, as the structs lay them out. */
static inline unsigned disc_num_regs(const struct disc_entry *e) { return (unsigned)(e->table1 & 0xFF); }
static inline unsigned disc_ctl_offset(const struct disc_entry *e) { return (unsigned)(e->table1 >> 8 & 0xFF); }
static inline unsigned disc_bit_width(const struct disc_entry *e) { return (unsigned)(e->table1 >> 16 & 0xFF); }
static inline unsigned disc_ctr_offset(const struct disc_entry *e) { return (unsigned)(e->table1 >> 24 & 0xFF); }
static inline unsigned disc_status_offset(const struct disc_entry *e) { return (unsigned)(e->table1 >> 32 & 0xFF); }
static inline unsigned disc_access_type(const struct disc_entry *e) { return (unsigned)(e->table1 >> 62); }
static inline unsigned disc_box_type(const struct disc_entry *e) { return (unsigned)(e->table3 & 0xFFFF); }
static inline unsigned disc_box_id(const struct disc_entry *e) { return (unsigned)(e->table3 >> 16 & 0xFFFF); }
/* The global entry's: type 7:0, stride 15:8, max_units 25:16, access 63:62. */
static inline unsigned disc_global_stride(const struct disc_entry *e) { return (unsigned)(e->table1 >> 8 & 0xFF); }
static inline unsigned disc_global_max_units(const struct disc_entry *e) { return (unsigned)(e->table1 >> 16 & 0x3FF); }

/* Whether a unit entry is taken, and if not why, in Linux's order. The
 * global entry is checked with DISC_WHY_ZERO/ONES only (global true). */
enum disc_why disc_check(const struct disc_entry *e, bool global);

/* A PCI unit's address. */
struct disc_pci disc_pci_of(uint64_t ctl);

/* "discovery entry is zero" ... */
const char *disc_why_text(enum disc_why why);

/* perf's type name ("imc", "cha"); NULL: none (uncore_type_T). */
const char *disc_type_name(unsigned box_type);
/* "uncore_imc_0", "uncore_type_12_3" */
const char *disc_unit_name(const struct disc_unit *u, char *buf, size_t size);

/* Reads the table whose capability is at `cap` of `dev` (a DVSEC whose ID
 * is PMON) into d. UNC_E_UNSUPPORTED with one line in err when discovery
 * must stop (BIR with reserved bits, a BAR that is not memory, a broken
 * global entry), as Linux stops. A DVSEC of another ID is no table:
 * UNC_OK with nothing added. */
enum unc_status disc_read_table(const struct hw *hw, struct disc *d, struct pci_addr dev, uint16_t device_id,
				uint16_t cap, char *err, size_t errsize);

/* Every table: devices DISC_DEVICE with the capability if any has it, else
 * every Intel device with it; every capability of each, segment 0, every
 * bus. Reads only. UNC_E_NOT_FOUND: no table (err says so); another
 * failure stops discovery with its line in err. */
enum unc_status disc_find(const struct hw *hw, struct disc *d, char *err, size_t errsize);

/* Numbers the units of each type (pmu_idx), after the tables are read. */
void disc_number(struct disc *d);

/* The UBox of SPR and EMR (Linux uncore_snbep.c, spr_uncore_pci_init:
 * snbep_pci2phy_map_init(0x3250, SKX_CPUNODEID, SKX_GIDNIDMAP, true)):
 * its node ID in CPUNODEID (0xC0) bits 2:0, and GIDNIDMAP (0xD4) holding
 * the node ID of package i in bits 3i+2:3i. */
#define DISC_UBOX_SPR       0x3250
#define DISC_UBOX_CPUNODEID 0xC0
#define DISC_UBOX_GIDNIDMAP 0xD4

/* Ties each table to its package, after disc_find (which notes every
 * DISC_UBOX_SPR function it passes). With use_ubox (SPR, EMR), the rule of
 * Linux's snbep_pci2phy_map_init with reverse set: each UBox's bus gets
 * the package whose GIDNIDMAP field holds the UBox's node ID; a bus with
 * no UBox takes the package of the nearest UBox bus above it. Without
 * UBoxes (or the rule), or when a table's bus maps to none, the tables
 * holding iMC or CHA units are numbered 0, 1, ... in table order (what
 * Linux's uncore_discovery.c does without NUMA information), and d->tie
 * says so. A table holding no iMC or CHA unit gets socket -1 (no row).
 * disc_probe then compares the sockets with the packages the seam found
 * (disc.md "Tables against packages"): table order with as many tables as
 * packages takes the packages' IDs; with another number no table is tied.
 * Reads configuration space only; only a seam error fails (err). */
enum unc_status disc_sockets(const struct hw *hw, struct disc *d, bool use_ubox, char *err, size_t errsize);

/* The tables the driver's probe (disc.c) read last, kept here, in the one
 * place that the probe fills and info (disc_info.c) prints. */
extern struct disc disc_tables;

#endif
