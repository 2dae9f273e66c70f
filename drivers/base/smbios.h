/* The DRAM's theoretical peak bandwidth from SMBIOS type 17 (Memory
 * Device) records: for each populated device, its configured speed (MT/s,
 * else its rated speed) times its data width in bytes. The same for every
 * memory type: a DDR5 DIMM's two 32-bit subchannels are its Data Width of
 * 64, an LPDDR4/4x or LPDDR5 device its own 16- or 32-bit channel; a device
 * of Data Width 0 that carries only error-correction bits adds nothing. The sum assumes each
 * populated device sits on its own channel: where two share one, the true
 * peak is lower, and the report says the figure is an upper bound. */
#ifndef UNC_SMBIOS_H
#define UNC_SMBIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "status.h"

#define SMBIOS_MAX_DEVICES 32

struct smbios_mem {
	unsigned devices;   /* type 17 records */
	unsigned populated; /* with a size */
	uint64_t peak_mb_s; /* 0: unknown (see note) */
	uint32_t speed_mt_s, width_bits; /* of the first populated device */
	uint8_t type;       /* its Memory Type (0x1A DDR4, 0x1E LPDDR4, 0x22 DDR5, 0x23 LPDDR5, ...) */
	unsigned ecc_only;  /* populated devices that only carry error-correction bits */
	char note[200];     /* how the peak was made, or why it is unknown */
};

/* Finds the structure table from an entry point ("_SM3_" 64-bit or
 * "_SM_" 32-bit), checking its anchor, length and checksum. */
enum unc_status smbios_entry(const uint8_t *ep, size_t len, uint64_t *ret_addr, uint32_t *ret_len, char *err,
			     size_t errsize);

/* Walks the structure table; never reads outside table[0..len). A
 * malformed table is an error naming the offset; a table without usable
 * type 17 records is not: the peak is then 0 and note says why. */
enum unc_status smbios_memory(const uint8_t *table, size_t len, struct smbios_mem *ret, char *err, size_t errsize);

/* The machine's identity: type 1 (System Information) and type 2
 * (Baseboard Information) manufacturer, product and serial number, type 0
 * (BIOS Information) vendor, version and release date, the first structure
 * of each type; "" where missing. Never reads outside table[0..len); a
 * malformed table is an error naming the offset. */
#define SMBIOS_STR 65 /* 64 characters; longer strings are cut */
struct smbios_id {
	char sys_vendor[SMBIOS_STR], sys_product[SMBIOS_STR], sys_serial[SMBIOS_STR];
	char board_vendor[SMBIOS_STR], board_product[SMBIOS_STR], board_serial[SMBIOS_STR];
	char bios_vendor[SMBIOS_STR], bios_version[SMBIOS_STR], bios_date[SMBIOS_STR];
};
enum unc_status smbios_identity(const uint8_t *table, size_t len, struct smbios_id *ret, char *err, size_t errsize);

#endif
