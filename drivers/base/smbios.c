/* Field offsets and values are the DMTF SMBIOS Reference Specification's
 * (DSP0134 3.x), Memory Device (Type 17): Total Width 0x08, Data Width
 * 0x0A, Size 0x0C, Memory Type 0x12, Speed 0x15, Extended Size 0x1C,
 * Configured Memory Speed 0x20 (MT/s), Extended Speed 0x54 and Extended
 * Configured Memory Speed 0x58 (bits 30:0, MT/s, where the word reads
 * 0xFFFF). */
#include "smbios.h"

#include <string.h>

#include "fmt.h"

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

/* Memory Type (7.18.2) of the kinds a peak is made for. */
static const char *type_name(uint8_t t)
{
	switch (t) {
	case 0x18: return "DDR3";
	case 0x1A: return "DDR4";
	case 0x1D: return "LPDDR3";
	case 0x1E: return "LPDDR4";
	case 0x22: return "DDR5";
	case 0x23: return "LPDDR5";
	default: return NULL;
	}
}

static uint32_t rd(const uint8_t *p, unsigned n)
{
	uint32_t v = 0;

	for (unsigned i = n; i > 0; i--)
		v = v << 8 | p[i - 1];
	return v;
}

enum unc_status smbios_entry(const uint8_t *ep, size_t len, uint64_t *addr, uint32_t *tlen, char *err, size_t errsize)
{
	uint8_t sum = 0;

	if (len >= 0x18 && !memcmp(ep, "_SM3_", 5)) {
		size_t elen = ep[6];
		if (elen < 0x18 || elen > len)
			FAIL("SMBIOS 3 entry point length %zu", elen);
		for (size_t i = 0; i < elen; i++)
			sum = (uint8_t)(sum + ep[i]);
		if (sum)
			FAIL("SMBIOS 3 entry point checksum is off by 0x%02x", sum);
		*tlen = rd(ep + 0x0C, 4);
		*addr = rd(ep + 0x10, 4) | (uint64_t)rd(ep + 0x14, 4) << 32;
		return UNC_OK;
	}
	if (len >= 0x1F && !memcmp(ep, "_SM_", 4)) {
		size_t elen = ep[5];
		if (elen < 0x1F || elen > len)
			FAIL("SMBIOS entry point length %zu", elen);
		for (size_t i = 0; i < elen; i++)
			sum = (uint8_t)(sum + ep[i]);
		if (sum)
			FAIL("SMBIOS entry point checksum is off by 0x%02x", sum);
		if (memcmp(ep + 0x10, "_DMI_", 5))
			FAIL("SMBIOS entry point without its _DMI_ anchor");
		*tlen = rd(ep + 0x16, 2);
		*addr = rd(ep + 0x18, 4);
		return UNC_OK;
	}
	FAIL("no SMBIOS entry point anchor (_SM_ or _SM3_)");
}

/* The structure at offset at: its formatted length checked, and where its
 * strings end (*ret_end: the first of their two closing NULs). */
static enum unc_status structure(const uint8_t *t, size_t len, size_t at, size_t *ret_end, char *err, size_t errsize)
{
	if (len - at < 4)
		FAIL("SMBIOS structure at offset 0x%zx: cut short", at);
	uint8_t flen = t[at + 1];
	if (flen < 4 || flen > len - at)
		FAIL("SMBIOS structure at offset 0x%zx: length %u runs past the %zu-byte table", at, flen, len);
	/* the strings follow the formatted area and end with two NULs */
	size_t str = at + flen;
	while (str + 1 < len && !(t[str] == 0 && t[str + 1] == 0))
		str++;
	if (str + 1 >= len)
		FAIL("SMBIOS structure at offset 0x%zx: its strings are not terminated", at);
	*ret_end = str;
	return UNC_OK;
}

enum unc_status smbios_memory(const uint8_t *t, size_t len, struct smbios_mem *m, char *err, size_t errsize)
{
	size_t at = 0;
	unsigned no_speed = 0, no_width = 0, counted = 0, mixed = 0;

	memset(m, 0, sizeof(*m));
	for (size_t str; at + 4 <= len; at = str + 2) {
		enum unc_status st = structure(t, len, at, &str, err, errsize);
		if (st)
			return st;
		uint8_t type = t[at], flen = t[at + 1];
		const uint8_t *s = t + at;
		if (type == 17) {
			m->devices++;
			uint32_t size = flen > 0x0D ? rd(s + 0x0C, 2) : 0;
			if (size == 0x7FFF && flen >= 0x20)
				size = rd(s + 0x1C, 4); /* Extended Size, MB */
			if (size == 0 || size == 0xFFFF)
				continue; /* empty slot, or unknown */
			m->populated++;
			uint32_t width = flen > 0x0B ? rd(s + 0x0A, 2) : 0xFFFF;
			uint32_t total = flen > 0x09 ? rd(s + 0x08, 2) : 0xFFFF;
			uint8_t type = flen > 0x12 ? s[0x12] : 0;
			/* "A Data Width of 0 and a Total Width of 8 indicates that
			 * the device is being used solely to provide 8
			 * error-correction bits" */
			if (width == 0 && total != 0 && total != 0xFFFF) {
				m->ecc_only++;
				continue;
			}
			uint32_t speed = flen > 0x16 ? rd(s + 0x15, 2) : 0;
			if (speed == 0xFFFF && flen >= 0x58)
				speed = rd(s + 0x54, 4) & 0x7FFFFFFFu;
			uint32_t conf = flen > 0x21 ? rd(s + 0x20, 2) : 0; /* Configured Memory Speed, 2.7+ */
			if (conf == 0xFFFF && flen >= 0x5C)
				conf = rd(s + 0x58, 4) & 0x7FFFFFFFu;
			if (conf)
				speed = conf;
			if (speed == 0 || speed == 0xFFFF) {
				no_speed++;
				continue;
			}
			if (width == 0 || width == 0xFFFF) {
				no_width++;
				continue;
			}
			if (counted && (speed != m->speed_mt_s || width != m->width_bits || type != m->type))
				mixed++;
			if (!counted) {
				m->speed_mt_s = speed;
				m->width_bits = width;
				m->type = type;
			}
			counted++;
			m->peak_mb_s += (uint64_t)speed * width / 8; /* MT/s x bytes = 10^6 bytes/s */
		} else if (type == 127) {
			break;
		}
	}
	if (m->devices == 0)
		fmt_snprintf(m->note, sizeof(m->note), "unknown: SMBIOS has no memory device (type 17) records");
	else if (m->populated == 0)
		fmt_snprintf(m->note, sizeof(m->note), "unknown: none of the %u memory devices is populated", m->devices);
	else if (m->populated == m->ecc_only)
		fmt_snprintf(m->note, sizeof(m->note), "unknown: the %u populated memory devices carry only error-correction "
						      "bits", m->populated);
	else if (no_speed || no_width) {
		fmt_snprintf(m->note, sizeof(m->note),
			     "unknown: %u of %u populated memory devices report no %s, so no peak is guessed",
			     no_speed + no_width, m->populated, no_speed ? "speed" : "data width");
		m->peak_mb_s = 0;
	} else {
		const char *tn = type_name(m->type);
		fmt_snprintf(m->note, sizeof(m->note), "%u populated %s%sdevice%s%s, %u MT/s x %u bits%s (%san upper bound if "
						      "devices share a channel)",
			     counted, tn && !mixed ? tn : "", tn && !mixed ? " " : "", counted == 1 ? "" : "s",
			     mixed ? " of mixed type, speed or width" : "", m->speed_mt_s, m->width_bits,
			     mixed ? " first" : " each",
			     m->type == 0x22 && !mixed ? "each DDR5 device two 32-bit subchannels; " : "");
	}
	return UNC_OK;
}

/* String k (from 1) of the structure at s (formatted part flen bytes, its
 * strings ending before limit) into out: "" for 0 or past the last; bytes
 * other than printable ASCII as '?', trailing blanks dropped. */
static void str_of(const uint8_t *s, size_t flen, const uint8_t *limit, uint8_t k, char *out)
{
	const uint8_t *p = s + flen;
	size_t n = 0;

	for (uint8_t i = 1; k && p < limit && *p; i++, p++) {
		for (; p < limit && *p; p++)
			if (i == k && n + 1 < SMBIOS_STR)
				out[n++] = *p >= 0x20 && *p <= 0x7e ? (char)*p : '?';
		if (i == k)
			break;
	}
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

/* Types 0, 1 and 2 (DSP0134 7.1, 7.2, 7.3): the string numbers at 0x04 (vendor,
 * manufacturer), 0x05 (BIOS version, product) and 0x08 (BIOS release date)
 * or 0x07 (serial number). */
enum unc_status smbios_identity(const uint8_t *t, size_t len, struct smbios_id *id, char *err, size_t errsize)
{
	char *const dst[3][3] = { { id->bios_vendor, id->bios_version, id->bios_date },
				  { id->sys_vendor, id->sys_product, id->sys_serial },
				  { id->board_vendor, id->board_product, id->board_serial } };
	bool seen[3] = { false, false, false };

	memset(id, 0, sizeof(*id));
	for (size_t at = 0, str; at < len && t[at] != 127; at = str + 2) {
		enum unc_status st = structure(t, len, at, &str, err, errsize);
		if (st)
			return st;
		uint8_t type = t[at], flen = t[at + 1], last = type ? 0x07 : 0x08;
		if (type > 2 || seen[type] || flen <= last) /* the first of each, if it has its fields */
			continue;
		seen[type] = true;
		for (int f = 0; f < 3; f++)
			str_of(t + at, flen, t + str + 1, t[at + (f < 2 ? 4 + f : last)], dst[type][f]);
	}
	return UNC_OK;
}
