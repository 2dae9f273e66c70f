/* drivers/base/pcibus.c against descriptors typed from the ACPI specification's
 * "QWORD Address Space Descriptor" (byte 0: 0x8A; bytes 1-2: length 0x2B;
 * byte 3: resource type, 2 = bus number range; 4: general flags; 5: type
 * specific flags; 6-13 granularity; 14-21 minimum; 22-29 maximum; 30-37
 * translation offset; 38-45 length), "DWORD Address Space Descriptor"
 * (0x87, length 0x17, 4-byte fields), "WORD Address Space Descriptor"
 * (0x88, length 0x0D, 2-byte fields) and the "End Tag" (0x79, checksum),
 * as edk2's PciHostBridgeDxe returns them from Configuration(). */
#include <string.h>

#include "../../drivers/base/pcibus.h"
#include "t.h"

static size_t qword(uint8_t *d, uint8_t type, uint64_t min, uint64_t max)
{
	memset(d, 0, 46);
	d[0] = 0x8A, d[1] = 0x2B, d[2] = 0, d[3] = type;
	for (unsigned i = 0; i < 8; i++) {
		d[14 + i] = (uint8_t)(min >> (8 * i));
		d[22 + i] = (uint8_t)(max >> (8 * i));
		d[38 + i] = (uint8_t)((max - min + 1) >> (8 * i));
	}
	return 46;
}

static void ranges_from_descriptors(void)
{
	uint8_t d[256];
	size_t n = 0;
	struct pci_root r;

	/* edk2's order: I/O (type 1), memory (type 0), then the bus range. */
	n += qword(d + n, 1, 0x6000, 0xFFFF);
	n += qword(d + n, 0, 0x80000000, 0xAFFFFFFF);
	n += qword(d + n, 2, 0x40, 0x41);
	d[n++] = 0x79, d[n++] = 0;
	T_ASSERT(pcibus_range(d, n, &r));
	T_ASSERT(r.known);
	T_EQ(r.base, 0x40);
	T_EQ(r.last, 0x41);
	/* no bus descriptor before the end tag: none (what follows is not read) */
	n = qword(d, 1, 0x6000, 0xFFFF);
	d[n++] = 0x79, d[n++] = 0;
	qword(d + n, 2, 0, 0xFF);
	T_ASSERT(!pcibus_range(d, n + 46, &r));
	/* DWORD (0x87, 0x17) and WORD (0x88, 0x0D) forms */
	static const uint8_t dw[] = { 0x87, 0x17, 0x00, 0x02, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0xFF, 0, 0, 0,
				      0, 0, 0, 0, 0x80, 0, 0, 0, 0x79, 0 };
	T_ASSERT(pcibus_range(dw, sizeof(dw), &r));
	T_EQ(r.base, 0x80);
	T_EQ(r.last, 0xFF);
	static const uint8_t w[] = { 0x88, 0x0D, 0x00, 0x02, 0, 0, 0, 0, 0x00, 0x00, 0x3F, 0x00, 0, 0, 0x40, 0, 0x79, 0 };
	T_ASSERT(pcibus_range(w, sizeof(w), &r));
	T_EQ(r.base, 0);
	T_EQ(r.last, 0x3F);
	/* cut short: never read beyond size */
	n = qword(d, 2, 0x40, 0x41);
	T_ASSERT(!pcibus_range(d, 20, &r));
	/* a small item before (an IRQ descriptor, 0x22, 2 bytes) is stepped over */
	static const uint8_t s[] = { 0x22, 0x01, 0x00, 0x88, 0x0D, 0x00, 0x02, 0, 0, 0, 0, 0x10, 0x00, 0x1F, 0x00, 0, 0,
				     0x10, 0, 0x79, 0 };
	T_ASSERT(pcibus_range(s, sizeof(s), &r));
	T_EQ(r.base, 0x10);
}

/* Which bridge decodes a bus: the highest first bus at or below it. */
static void bridge_of_each_bus(void)
{
	/* OVMF with a pxb-pcie at bus 0x40: the main bridge reports 0-0 (the
	 * buses it enumerated), the expander 0x40-0x41. */
	struct pci_root two[2] = { { true, 0x00, 0x00 }, { true, 0x40, 0x41 } };
	T_EQ(pcibus_root_of(two, 2, 0x00), 0);
	T_EQ(pcibus_root_of(two, 2, 0x3F), 0);
	T_EQ(pcibus_root_of(two, 2, 0x40), 1);
	T_EQ(pcibus_root_of(two, 2, 0x7F), 1);
	T_EQ(pcibus_root_of(two, 2, 0xFF), 1);
	/* listed in another order */
	struct pci_root rev[2] = { { true, 0x80, 0x80 }, { true, 0x00, 0x05 } };
	T_EQ(pcibus_root_of(rev, 2, 0x7F), 1);
	T_EQ(pcibus_root_of(rev, 2, 0xFF), 0);
	/* a bus below every bridge: none decodes it */
	struct pci_root high[1] = { { true, 0x10, 0x1F } };
	T_EQ(pcibus_root_of(high, 1, 0x0F), -1);
	T_EQ(pcibus_root_of(high, 1, 0x10), 0);
	/* no range known: the first bridge; no bridge: none */
	struct pci_root unknown[2] = { { false, 0, 0 }, { false, 0, 0 } };
	T_EQ(pcibus_root_of(unknown, 2, 0x7F), 0);
	T_EQ(pcibus_root_of(unknown, 0, 0x7F), -1);
	/* a bridge without a range is not chosen when others have one */
	struct pci_root mixed[2] = { { false, 0, 0 }, { true, 0x40, 0x40 } };
	T_EQ(pcibus_root_of(mixed, 2, 0x3F), -1);
	T_EQ(pcibus_root_of(mixed, 2, 0x40), 1);
}

T_MAIN("pcibus", T_CASE(ranges_from_descriptors), T_CASE(bridge_of_each_bus))
