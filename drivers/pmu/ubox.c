/* The Xeon uncore's PCI scan and UBox socket rule (ubox.h). */
#include "ubox.h"
#include "../base/fmt.h"

enum unc_status ubox_scan(const struct hw *hw, enum unc_status (*found)(void *ctx, struct pci_addr a, uint32_t id),
			  void *ctx, char *err, size_t errsize)
{
	for (unsigned bus = 0; bus <= 0xFF; bus++)
		for (unsigned dev = 0; dev < 32; dev++)
			for (unsigned fn = 0; fn < 8; fn++) {
				struct pci_addr a = { (uint8_t)bus, (uint8_t)dev, (uint8_t)fn };
				uint32_t id, hdr = 0;
				uint16_t off = 0;
				enum unc_status st = hw_pci_read32(hw, a, off, &id);

				if (st == UNC_E_NOT_FOUND) {
					dev = 32; /* no root bridge decodes the bus */
					break;
				}
				if (st == UNC_OK && (id & 0xFFFF) == 0xFFFF) {
					if (!fn)
						break; /* no function 0: no device */
					continue;
				}
				if (st == UNC_OK && (st = found(ctx, a, id)) != UNC_OK)
					return st; /* its line is in err */
				if (st == UNC_OK && !fn && (st = hw_pci_read32(hw, a, off = 0xC, &hdr)) == UNC_OK &&
				    !(hdr & 0x00800000u))
					break; /* function 0 of a single-function device */
				if (st != UNC_OK) {
					fmt_snprintf(err, errsize, "PCI read %02x:%02x.%x+0x%x (the uncore's PCI scan): %s", bus, dev,
						     fn, (unsigned)off, unc_strerror(st));
					return st;
				}
			}
	return UNC_OK;
}

enum unc_status ubox_read(const struct hw *hw, struct pci_addr a, uint16_t off, uint32_t *v)
{
	enum unc_status st = hw_pci_read32(hw, a, off, v);

	if (st == UNC_E_NOT_FOUND)
		*v = 0xFFFFFFFFu, st = UNC_OK;
	return st;
}

int ubox_socket_of(uint32_t cpunodeid, uint32_t gidnidmap)
{
	for (unsigned i = 0; i < 8; i++)
		if ((gidnidmap >> (3 * i) & 7) == (cpunodeid & 7))
			return (int)i;
	return -1;
}

void ubox_fill_down(int bus_socket[256])
{
	for (int b = 255, last = -1; b >= 0; b--) {
		if (bus_socket[b] != -1)
			last = bus_socket[b];
		else
			bus_socket[b] = last;
	}
}
