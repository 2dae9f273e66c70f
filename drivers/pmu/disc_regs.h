/* The discovery-table driver's units, the register bits and MSR it uses
 * and the facts its probe keeps. Data only, no file of its own: disc.c
 * (the driver) and disc_info.c read it; only drivers/pmu/disc*.c and the
 * tests include it. */
#ifndef UNC_PMU_DISC_REGS_H
#define UNC_PMU_DISC_REGS_H

enum { DISC_UNIT_IMC, DISC_UNIT_CHA, DISC_NUNITS };

/* Box control (Linux GENERIC_PMON_BOX_CTL_FRZ / _RST_CTRL / _RST_CTRS). */
#define DISC_BOX_FRZ      (1u << 0)
#define DISC_BOX_RST_CTRL (1u << 8)
#define DISC_BOX_RST_CTRS (1u << 9)

/* SPR_MSR_UNC_CBO_CONFIG: the CHA count on SPR and EMR (Linux
 * spr_uncore_cpu_init, "firmware bug" in the table's count; 0 ignored). */
#define DISC_MSR_CBO_CONFIG 0x2FFEu

/* facts[] */
enum disc_fact {
	DISC_FACT_SUMMARY,   /* ntables 7:0, entries taken (every type) 23:8, skips 39:24, bit 40 by 0x09A7, bit 41 no table */
	DISC_FACT_CBO,       /* bit 63: MSR 0x2FFE was read on a socket (SPR/EMR); 31:0 the first value read (or
				the one a table differs from); bit 62: a read was tried; 39:32 sockets read,
				47:40 sockets whose read failed (left uncapped) */
	DISC_FACT_TABLE0,    /* first table: bus 7:0, dev 12:8, func 15:13, device ID 31:16, BAR >> 12 in 63:32 */
	DISC_FACT_IMC_TYPES, /* first unit of each kind: num_regs 7:0, width 15:8, ctl_off 23:16, ctr_off 31:24, access 33:32 (iMC) */
	DISC_FACT_CHA_TYPES, /* likewise (CHA) */
	DISC_FACT_NOT_TAKEN, /* iMC units in 15:0, CHA in 31:16 found but not programmable (another access type,
				a PCI domain other than 0) */
	DISC_FACT_MODEL,     /* the CPU's family 15:8 and model 7:0 */
	DISC_FACT_SOCKETS,   /* how tables were tied to packages 7:0 (enum disc_tie), sockets 15:8, CHAs not
				programmed past MSR 0x2FFE's count 31:16, bit 32 a table's CHA count differs from
				0x2FFE's, bit 33 no table tied to a package (table order, and not as many tables
				as packages: iMC rows per table, no CHA programmed), 55:40 the CHAs of the first
				table that differs (else the most one table lists), 63:56 packages found (0:
				not known) */
};

#endif
