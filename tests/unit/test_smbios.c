/* SMBIOS type 17 parsing against tables built here the way firmware lays
 * them out (DMTF SMBIOS 3.x), malformed ones included. */
#include <stdlib.h>
#include <string.h>

#include "../../drivers/base/smbios.h"
#include "t.h"

static uint8_t tbl[4096];
static size_t len;
static struct smbios_mem m;
static char err[200];

static void begin(void)
{
	len = 0;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* A type 17 record of SMBIOS 3.3 (0x5C bytes: Extended Speed 0x54 and
 * Extended Configured Memory Speed 0x58) with two strings: Memory Type
 * `type` (DSP0134 7.18.2: 0x1A DDR4, 0x1E LPDDR4, 0x22 DDR5, 0x23 LPDDR5),
 * Total Width `total`, Data Width `width`. */
static uint8_t *device(uint8_t type, uint16_t size_mb, uint16_t total, uint16_t width, uint16_t speed,
		       uint16_t configured)
{
	uint8_t *s = tbl + len;

	memset(s, 0, 0x5C);
	s[0] = 17;
	s[1] = 0x5C;
	put16(s + 2, (uint16_t)(0x1100 + len));
	put16(s + 0x08, total);
	put16(s + 0x0A, width);
	put16(s + 0x0C, size_mb);
	s[0x12] = type;
	put16(s + 0x15, speed);
	put16(s + 0x20, configured);
	len += 0x5C;
	memcpy(tbl + len, "DIMM A1\0BANK 0\0\0", 16);
	len += 16;
	return s;
}

/* A DDR4 DIMM with 8 ECC bits in its total width. */
static void dimm(uint16_t size_mb, uint16_t width, uint16_t speed, uint16_t configured)
{
	device(0x1A, size_mb, width == 0xFFFF ? 0xFFFF : (uint16_t)(width + 8), width, speed, configured);
}

static void other(uint8_t type)
{
	uint8_t *s = tbl + len;

	memset(s, 0, 8);
	s[0] = type;
	s[1] = 8;
	len += 8;
	tbl[len++] = 0; /* no strings: two NULs */
	tbl[len++] = 0;
}

static void end(void)
{
	other(127);
}

static void peak_from_populated_devices(void)
{
	begin();
	other(0);
	dimm(8192, 64, 2666, 2666);
	dimm(0, 64, 0, 0); /* an empty slot */
	dimm(8192, 64, 2666, 2400); /* configured below rated: configured counts */
	end();
	T_EQ(smbios_memory(tbl, len, &m, err, sizeof(err)), UNC_OK);
	T_EQ(m.devices, 3);
	T_EQ(m.populated, 2);
	T_EQ(m.peak_mb_s, 2666 * 8 + 2400 * 8);
	T_STREQ(m.note, "2 populated devices of mixed type, speed or width, 2666 MT/s x 64 bits first (an upper bound if "
			"devices "
			"share a channel)");

	begin();
	dimm(16384, 64, 3200, 3200);
	dimm(16384, 64, 3200, 3200);
	end();
	T_EQ(smbios_memory(tbl, len, &m, err, sizeof(err)), UNC_OK);
	T_EQ(m.peak_mb_s, 51200); /* 2 x 3200 MT/s x 8 bytes */
	T_STREQ(m.note, "2 populated DDR4 devices, 3200 MT/s x 64 bits each (an upper bound if devices share a channel)");

	begin();
	dimm(0x7FFF, 64, 3200, 0); /* extended size, no configured speed: the rated one */
	memcpy(tbl + 0x1C, "\0\0\1\0", 4);
	end();
	T_EQ(smbios_memory(tbl, len, &m, err, sizeof(err)), UNC_OK);
	T_EQ(m.populated, 1);
	T_EQ(m.peak_mb_s, 25600);
}

/* DDR5 (Memory Type 0x22): a DIMM's Data Width is 64, its two 32-bit
 * subchannels (with ECC, Total Width 80); LPDDR5 (0x23) and LPDDR4/4x
 * (0x1E): each device its own 16- or 32-bit channel; a device of Data
 * Width 0 and Total Width 8 carries only error-correction bits; the
 * extended speeds (0xFFFF in the word) are bits 30:0 of their dword. */
static void ddr5_and_lpddr(void)
{
	begin();
	device(0x22, 32768, 80, 64, 5600, 4800); /* DDR5-5600 ECC UDIMM run at 4800 MT/s */
	device(0x22, 32768, 80, 64, 5600, 4800);
	end();
	T_EQ(smbios_memory(tbl, len, &m, err, sizeof(err)), UNC_OK);
	T_EQ(m.type, 0x22);
	T_EQ(m.peak_mb_s, 2 * 4800 * 8); /* 76800 */
	T_STREQ(m.note, "2 populated DDR5 devices, 4800 MT/s x 64 bits each (each DDR5 device two 32-bit subchannels; an "
			"upper bound if devices share a channel)");

	begin();
	for (int i = 0; i < 8; i++)
		device(0x23, 2048, 16, 16, 6400, 6400); /* LPDDR5-6400, eight 16-bit channels */
	end();
	T_EQ(smbios_memory(tbl, len, &m, err, sizeof(err)), UNC_OK);
	T_EQ(m.populated, 8);
	T_EQ(m.peak_mb_s, 8 * 6400 * 2); /* 102400 */
	T_STREQ(m.note, "8 populated LPDDR5 devices, 6400 MT/s x 16 bits each (an upper bound if devices share a channel)");

	begin();
	for (int i = 0; i < 4; i++)
		device(0x1E, 4096, 32, 32, 4267, 4267); /* LPDDR4x-4267, four 32-bit devices */
	end();
	T_EQ(smbios_memory(tbl, len, &m, err, sizeof(err)), UNC_OK);
	T_EQ(m.peak_mb_s, 4 * 4267 * 4); /* 68272 */
	T_CONTAINS(m.note, "4 populated LPDDR4 devices, 4267 MT/s x 32 bits each");

	begin();
	device(0x22, 16384, 64, 64, 4800, 4800);
	device(0x22, 1, 8, 0, 4800, 4800); /* ECC bits only */
	end();
	T_EQ(smbios_memory(tbl, len, &m, err, sizeof(err)), UNC_OK);
	T_EQ(m.populated, 2);
	T_EQ(m.ecc_only, 1);
	T_EQ(m.peak_mb_s, 38400);

	begin();
	device(0x22, 1, 8, 0, 4800, 4800);
	end();
	T_EQ(smbios_memory(tbl, len, &m, err, sizeof(err)), UNC_OK);
	T_EQ(m.peak_mb_s, 0);
	T_STREQ(m.note, "unknown: the 1 populated memory devices carry only error-correction bits");

	begin();
	uint8_t *s = device(0x22, 32768, 64, 64, 0xFFFF, 0xFFFF); /* speeds beyond 65534 MT/s */
	memcpy(s + 0x54, "\x80\x38\x01\x80", 4); /* 0x80013880: bit 31 reserved, 80000 MT/s */
	memcpy(s + 0x58, "\x40\x9C\x00\x80", 4); /* 0x80009C40: 40000 MT/s configured */
	end();
	T_EQ(smbios_memory(tbl, len, &m, err, sizeof(err)), UNC_OK);
	T_EQ(m.speed_mt_s, 40000);
	T_EQ(m.peak_mb_s, 40000 * 8);
}

static void unknown_is_said_not_guessed(void)
{
	begin();
	dimm(256, 0xFFFF, 3200, 3200); /* what QEMU builds: data width unknown */
	end();
	T_EQ(smbios_memory(tbl, len, &m, err, sizeof(err)), UNC_OK);
	T_EQ(m.peak_mb_s, 0);
	T_STREQ(m.note, "unknown: 1 of 1 populated memory devices report no data width, so no peak is guessed");

	begin();
	dimm(8192, 64, 0, 0);
	end();
	smbios_memory(tbl, len, &m, err, sizeof(err));
	T_CONTAINS(m.note, "report no speed");

	begin();
	other(4);
	end();
	smbios_memory(tbl, len, &m, err, sizeof(err));
	T_STREQ(m.note, "unknown: SMBIOS has no memory device (type 17) records");

	begin();
	dimm(0, 64, 3200, 3200);
	end();
	smbios_memory(tbl, len, &m, err, sizeof(err));
	T_STREQ(m.note, "unknown: none of the 1 memory devices is populated");
}

static void malformed_tables(void)
{
	begin();
	dimm(8192, 64, 2666, 2666);
	tbl[1] = 0xFF; /* formatted length past the end */
	T_EQ(smbios_memory(tbl, len, &m, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "SMBIOS structure at offset 0x0: length 255 runs past the ");

	begin();
	dimm(8192, 64, 2666, 2666);
	T_EQ(smbios_memory(tbl, len - 1, &m, err, sizeof(err)), UNC_E_INVALID); /* strings cut */
	T_STREQ(err, "SMBIOS structure at offset 0x0: its strings are not terminated");

	begin();
	other(0);
	tbl[1] = 2; /* shorter than a header */
	T_EQ(smbios_memory(tbl, len, &m, err, sizeof(err)), UNC_E_INVALID);

	T_EQ(smbios_memory(tbl, 0, &m, err, sizeof(err)), UNC_OK);
	T_CONTAINS(m.note, "no memory device");
}

/* Types 0, 1 and 2 as firmware lays them out (DSP0134 7.1 BIOS Information,
 * 7.2 System Information, 7.3 Baseboard Information), typed byte by byte:
 * the strings their fields number, trailing blanks dropped, a byte outside
 * printable ASCII as '?', a string past the last as "", a long one cut at
 * 64 characters, the first structure of a type only. */
static void identity_from_types_0_1_2(void)
{
	static const uint8_t t[] = {
		/* type 0, 0x1A bytes: vendor 1, version 2, segment 0xF000, date 3 */
		0x00, 0x1A, 0x00, 0x00, 0x01, 0x02, 0x00, 0xF0, 0x03, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0,
		'A', 'M', 'I', 0, '3', '.', '1', 'a', ' ', ' ', 0, '0', '7', '/', '2', '5', '/', '2', '0', '1', '9', 0, 0,
		/* type 1, 0x1B bytes: manufacturer 1, product 2, version 3, serial 4, UUID, wake-up, SKU 5, family 6 */
		0x01, 0x1B, 0x01, 0x00, 0x01, 0x02, 0x03, 0x04, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
		0x06, 0x05, 0x06,
		'A', 'C', 'M', 'E', 0, 'S', 'Y', 'S', '-', '1', 0, 'v', '1', 0, 'S', '"', 'N', 0x01, '\\', 0, 'k', 0,
		'f', 0, 0,
		/* type 2, 0x0F bytes: manufacturer 1, product 2, version 3, serial 7 (past the last), asset tag 5 */
		0x02, 0x0F, 0x02, 0x00, 0x01, 0x02, 0x03, 0x07, 0x05, 0x09, 0x00, 0x03, 0x00, 0x0A, 0x00,
		'B', 0, 'X', '1', '1', 'D', 'P', 'i', 0, '1', '.', '0', 0, 0,
		/* a second type 1: not the machine's */
		0x01, 0x08, 0x04, 0x00, 0x01, 0x01, 0x01, 0x01, 'O', 't', 'h', 'e', 'r', 0, 0,
		/* end of table */
		0x7F, 0x04, 0xFF, 0xFF, 0, 0,
	};
	struct smbios_id id;

	T_EQ(smbios_identity(t, sizeof(t), &id, err, sizeof(err)), UNC_OK);
	T_STREQ(id.bios_vendor, "AMI");
	T_STREQ(id.bios_version, "3.1a");
	T_STREQ(id.bios_date, "07/25/2019");
	T_STREQ(id.sys_vendor, "ACME");
	T_STREQ(id.sys_product, "SYS-1");
	T_STREQ(id.sys_serial, "S\"N?\\");
	T_STREQ(id.board_vendor, "B");
	T_STREQ(id.board_product, "X11DPi");
	T_STREQ(id.board_serial, "");

	/* 70 characters: the first 64 kept */
	uint8_t longer[8 + 71 + 1] = { 0x01, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00 };
	memset(longer + 8, 'x', 70);
	T_EQ(smbios_identity(longer, sizeof(longer), &id, err, sizeof(err)), UNC_OK);
	T_EQ(strlen(id.sys_product), 64);
	/* cut in its strings: an error naming the offset, nothing read beyond */
	T_EQ(smbios_identity(t, 30, &id, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "SMBIOS structure at offset 0x0: its strings are not terminated");
	T_EQ(smbios_identity(t, 2, &id, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "SMBIOS structure at offset 0x0: cut short");
	uint8_t *one = malloc(1); /* one byte: nothing read past it (ASan) */
	one[0] = 1;
	T_EQ(smbios_identity(one, 1, &id, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "SMBIOS structure at offset 0x0: cut short");
	free(one);
}

static void entry_points(void)
{
	uint8_t ep[0x20] = "_SM3_";
	uint64_t addr;
	uint32_t tlen;
	uint8_t sum = 0;

	ep[6] = 0x18;
	ep[0x0C] = 0x34, ep[0x0D] = 0x12;
	ep[0x10] = 0x00, ep[0x11] = 0xF0, ep[0x12] = 0x0F, ep[0x14] = 0x01;
	for (int i = 0; i < 0x18; i++)
		sum = (uint8_t)(sum + ep[i]);
	ep[5] = (uint8_t)-sum;
	T_EQ(smbios_entry(ep, sizeof(ep), &addr, &tlen, err, sizeof(err)), UNC_OK);
	T_EQ(addr, 0x1000FF000ull);
	T_EQ(tlen, 0x1234);
	ep[0x12] ^= 1;
	T_EQ(smbios_entry(ep, sizeof(ep), &addr, &tlen, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "SMBIOS 3 entry point checksum is off by 0x");

	uint8_t ep2[0x1F] = "_SM_";
	ep2[5] = 0x1F;
	memcpy(ep2 + 0x10, "_DMI_", 5);
	ep2[0x16] = 0x00, ep2[0x17] = 0x02, ep2[0x18] = 0x00, ep2[0x19] = 0x00, ep2[0x1A] = 0x0F;
	sum = 0;
	for (int i = 0; i < 0x1F; i++)
		sum = (uint8_t)(sum + ep2[i]);
	ep2[4] = (uint8_t)-sum;
	T_EQ(smbios_entry(ep2, sizeof(ep2), &addr, &tlen, err, sizeof(err)), UNC_OK);
	T_EQ(addr, 0xF0000);
	T_EQ(tlen, 0x200);
	T_EQ(smbios_entry((const uint8_t *)"nothing here, really nothing at all", 32, &addr, &tlen, err, sizeof(err)),
	     UNC_E_INVALID);
	T_STREQ(err, "no SMBIOS entry point anchor (_SM_ or _SM3_)");
}

T_MAIN("smbios", T_CASE(peak_from_populated_devices), T_CASE(ddr5_and_lpddr), T_CASE(unknown_is_said_not_guessed), T_CASE(malformed_tables), T_CASE(identity_from_types_0_1_2),
       T_CASE(entry_points))
