#include "pcibus.h"

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

bool pcibus_range(const uint8_t *d, size_t size, struct pci_root *ret)
{
	size_t at = 0;

	while (at < size) {
		uint8_t tag = d[at];
		if (!(tag & 0x80)) { /* small item: length in bits 2:0 */
			if ((tag & 0x78) == 0x78) /* the end tag */
				return false;
			at += 1 + (tag & 7u);
			continue;
		}
		if (at + 3 > size)
			return false;
		size_t len = (size_t)le(d + at + 1, 2);
		if (at + 3 + len > size)
			return false;
		/* Address space descriptors: resource type at byte 3, then
		 * general and type-specific flags, granularity, minimum and
		 * maximum, each of the descriptor's word size. */
		unsigned w = tag == 0x8A ? 8 : tag == 0x87 ? 4 : tag == 0x88 ? 2 : 0;
		if (w && len >= 3 + 3 * w && d[at + 3] == 2) {
			uint64_t min = le(d + at + 6 + w, w), max = le(d + at + 6 + 2 * w, w);
			if (min <= 0xFF) {
				*ret = (struct pci_root){ true, (uint16_t)min, (uint16_t)(max < min ? min : max > 0xFF ? 0xFF : max) };
				return true;
			}
		}
		at += 3 + len;
	}
	return false;
}

int pcibus_root_of(const struct pci_root *roots, unsigned n, unsigned bus)
{
	int best = -1;
	bool any = false;

	for (unsigned i = 0; i < n; i++) {
		if (!roots[i].known)
			continue;
		any = true;
		if (roots[i].base <= bus && (best < 0 || roots[i].base > roots[best].base))
			best = (int)i;
	}
	return any ? best : n ? 0 : -1;
}
