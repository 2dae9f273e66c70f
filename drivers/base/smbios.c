/* Field offsets are the DMTF SMBIOS Reference Specification's (3.x),
 * Memory Device (Type 17). */
#include "smbios.h"

#include <string.h>

#include "fmt.h"

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

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

enum unc_status smbios_memory(const uint8_t *t, size_t len, struct smbios_mem *m, char *err, size_t errsize)
{
	size_t at = 0;
	unsigned no_speed = 0, no_width = 0, counted = 0, mixed = 0;

	memset(m, 0, sizeof(*m));
	while (at + 4 <= len) {
		uint8_t type = t[at], flen = t[at + 1];
		if (flen < 4 || flen > len - at)
			FAIL("SMBIOS structure at offset 0x%zx: length %u runs past the %zu-byte table", at, flen, len);
		const uint8_t *s = t + at;
		/* the strings follow the formatted area and end with two NULs */
		size_t str = at + flen;
		while (str + 1 < len && !(t[str] == 0 && t[str + 1] == 0))
			str++;
		if (str + 1 >= len)
			FAIL("SMBIOS structure at offset 0x%zx: its strings are not terminated", at);
		if (type == 17) {
			m->devices++;
			uint32_t size = flen > 0x0D ? rd(s + 0x0C, 2) : 0;
			if (size == 0x7FFF && flen >= 0x20)
				size = rd(s + 0x1C, 4); /* Extended Size, MB */
			if (size == 0 || size == 0xFFFF)
				goto next; /* empty slot, or unknown */
			m->populated++;
			uint32_t width = flen > 0x0B ? rd(s + 0x0A, 2) : 0xFFFF;
			uint32_t speed = flen > 0x16 ? rd(s + 0x15, 2) : 0;
			if (speed == 0xFFFF && flen >= 0x58)
				speed = rd(s + 0x54, 4);
			uint32_t conf = flen > 0x21 ? rd(s + 0x20, 2) : 0; /* Configured Memory Speed, 2.7+ */
			if (conf == 0xFFFF && flen >= 0x5C)
				conf = rd(s + 0x58, 4);
			if (conf)
				speed = conf;
			if (speed == 0 || speed == 0xFFFF) {
				no_speed++;
				goto next;
			}
			if (width == 0 || width == 0xFFFF) {
				no_width++;
				goto next;
			}
			if (counted && (speed != m->speed_mt_s || width != m->width_bits))
				mixed++;
			if (!counted) {
				m->speed_mt_s = speed;
				m->width_bits = width;
			}
			counted++;
			m->peak_mb_s += (uint64_t)speed * width / 8; /* MT/s x bytes = 10^6 bytes/s */
		} else if (type == 127) {
			break;
		}
next:
		at = str + 2;
	}
	if (m->devices == 0)
		fmt_snprintf(m->note, sizeof(m->note), "unknown: SMBIOS has no memory device (type 17) records");
	else if (m->populated == 0)
		fmt_snprintf(m->note, sizeof(m->note), "unknown: none of the %u memory devices is populated", m->devices);
	else if (no_speed || no_width) {
		fmt_snprintf(m->note, sizeof(m->note),
			     "unknown: %u of %u populated memory devices report no %s, so no peak is guessed",
			     no_speed + no_width, m->populated, no_speed ? "speed" : "data width");
		m->peak_mb_s = 0;
	} else
		fmt_snprintf(m->note, sizeof(m->note), "%u populated device%s%s, %u MT/s x %u bits%s (an upper bound if "
						      "devices share a channel)",
			     counted, counted == 1 ? "" : "s", mixed ? " of mixed speed or width" : "", m->speed_mt_s,
			     m->width_bits, mixed ? " first" : " each");
	return UNC_OK;
}
