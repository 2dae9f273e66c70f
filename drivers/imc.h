/* The IMC's free-running DRAM counters (Section 3.3, Table 3-3): finding
 * them through MCHBAR, read only. MCHBAR is never enabled or written. */
#ifndef UNC_IMC_H
#define UNC_IMC_H

#include <stddef.h>
#include <stdint.h>
#include "cpu.h"
#include "hw.h"

enum imc_state {
	IMC_OK,
	IMC_NOT_INTEL,   /* 0:0.0 is not an Intel host bridge */
	IMC_DISABLED,    /* MCHBAR bit 0 clear */
	IMC_ZERO,        /* enabled, base zero */
	IMC_HIGH,        /* base at or above 2^phys_addr_bits */
};

/* Judges what 0:0.0 shows; *ret_base gets raw & 0x7FFFFF8000 either way. */
enum imc_state imc_check(uint16_t vendor, uint64_t mchbar_raw, unsigned phys_addr_bits, uint64_t *ret_base);

struct imc {
	uint16_t vendor, device;
	const char *generation; /* NULL: an ID uncore.efi does not know */
	uint64_t mchbar_raw, base;
};

/* Reads 0:0.0's ID and MCHBAR (offsets 0x48 and 0x4C) and checks them.
 * On refusal writes one line naming the raw value into err. An unknown
 * host-bridge ID on a supported CPU is not a refusal: warn gets a line. */
enum unc_status imc_discover(const struct hw *hw, const struct cpu_info *cpu, struct imc *ret, char *err,
			     size_t errsize, char *warn, size_t warnsize);

/* 2^32 lines of 64 bytes wrap a counter; the sampler treats a step of
 * more than half of that as impossible (a counter running backwards). */
#define IMC_LINE_BYTES 64
#define IMC_MAX_STEP   0x80000000u

#endif
