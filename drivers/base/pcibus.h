/* Which PCI root bridge decodes a bus. A root bridge's
 * EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL.Configuration() describes its resources
 * as ACPI address space descriptors (ACPI specification, "Resource Data
 * Types for ACPI": QWORD 0x8A, DWORD 0x87, WORD 0x88; resource type 2 is a
 * bus number range), ended by the end tag (0x79). Parsed here without the
 * firmware's headers, so the host tests can feed it bytes. */
#ifndef UNC_PCIBUS_H
#define UNC_PCIBUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PCIBUS_MAX_ROOTS 16

struct pci_root {
	bool known;          /* a bus range was found */
	uint16_t base, last; /* its first bus, and the last one it names */
};

/* The bus range among the descriptors at d (never beyond size bytes): true
 * with *ret when one comes before the end tag. */
bool pcibus_range(const uint8_t *d, size_t size, struct pci_root *ret);

/* The root bridge that decodes bus: of those whose range is known, the one
 * with the highest first bus at or below it (firmware hands each bridge a
 * window from its first bus up to the next bridge's, while the range it
 * reports may stop at the last bus it enumerated). -1: none does (the bus
 * is below every known first bus). When no range is known at all, root 0,
 * the first bridge, as the only guess there is. */
int pcibus_root_of(const struct pci_root *roots, unsigned n, unsigned bus);

#endif
