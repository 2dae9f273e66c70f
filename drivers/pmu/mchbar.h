/* MCHBAR, the client parts' memory-controller BAR in the host bridge
 * (PCI 0:0.0), read once for every client driver (skl, icl, rkl, tgl, adl,
 * mtl, arl, lnl): where its base field lies for each CPU model, and one
 * reader with one wording for what it finds. Read only: MCHBAR is never
 * enabled or written. */
#ifndef UNC_PMU_MCHBAR_H
#define UNC_PMU_MCHBAR_H

#include <stddef.h>
#include <stdint.h>

#include "../base/cpu.h"
#include "../base/hw.h"

/* 0:0.0 offsets 0x48 (low dword) and 0x4C (high dword); bit 0 is the
 * enable (Linux uncore_snb.c SNB_UNCORE_PCI_IMC_BAR_OFFSET 0x48, its
 * "MCHBAR is disabled" test of BIT(0); Intel 334060-001 Section 3.3). */
#define MCHBAR_LO     0x48u
#define MCHBAR_HI     0x4Cu
#define MCHBAR_ENABLE 0x1ull

/* The base field of a CPU model's MCHBAR (bits 38:15, 38:16 or 41:17), or 0
 * for a model the table does not hold (mchbar.c cites each). */
uint64_t mchbar_mask(uint32_t model);

enum mchbar_state {
	MCHBAR_OK,
	MCHBAR_NOT_INTEL, /* 0:0.0 is not an Intel host bridge */
	MCHBAR_DISABLED,  /* bit 0 clear */
	MCHBAR_ZERO,      /* enabled, base zero */
	MCHBAR_HIGH,      /* base at or above 2^phys_addr_bits */
};

/* Judges what 0:0.0 shows; *ret_base gets raw & mask either way. */
enum mchbar_state mchbar_judge(uint16_t vendor, uint64_t raw, uint64_t mask, unsigned phys_addr_bits,
			       uint64_t *ret_base);

/* What a driver's IMC is, for the reader: its free-running counters from
 * MCHBAR + first to MCHBAR + end (one past the last byte), and the host
 * bridges it knows (name: the generation of a 0:0.0 ID, or NULL; known:
 * the generations, for the warning about an ID it does not know). */
struct mchbar_imc {
	uint32_t first, end;
	const char *(*name)(uint16_t vendor, uint16_t device);
	const char *known;
};

struct mchbar {
	uint16_t vendor, device;
	uint64_t raw, mask, base;
	enum unc_status hb_st, st; /* reading 0:0.0's ID; and then MCHBAR */
};

/* Reads 0:0.0's ID and MCHBAR for the CPU's model and checks that the IMC's
 * counters are inside the physical address width and at MMIO the firmware
 * maps (hw.h, mmio_check). On refusal one line in err naming the raw value
 * or the address; an ID imc->name does not know is not a refusal: warn gets
 * a line. *m holds what was read either way. */
enum unc_status mchbar_read(const struct hw *hw, const struct cpu_info *cpu, const struct mchbar_imc *imc,
			    struct mchbar *m, char *err, size_t errsize, char *warn, size_t warnsize);

#endif
