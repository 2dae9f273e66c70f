/* The own options of the commands that make one access: msr read and
 * write (msr.c), pci read (pci.c), pmc read (pmc.c), mmio read (mmio.c). */
#ifndef UNC_ACCESS_OPTIONS_H
#define UNC_ACCESS_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/hw.h"
#include "cli.h"

struct access_options {
	uint32_t msr;        /* msr: the address */
	uint32_t pkg;        /* msr --pkg: 1 + the package whose processor makes the access; 0: this processor */
	uint64_t value;      /* msr write: the value */
	uint32_t pmc;        /* pmc read: RDPMC's index (ECX) */
	struct pci_addr pci; /* pci read: B:D.F */
	uint16_t offset;     /* pci read: the register's offset */
	uint64_t addr;       /* mmio read: the physical address */
	bool force;          /* mmio read --force: outside the memory map */
};

#define ACCESS_OWN CLI_OWN_ZERO(struct access_options)
#define ACCESS_FIELD(f) CLI_OWN_FIELD(struct access_options, f)

#endif
