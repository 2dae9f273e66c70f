/* What the Xeon uncore drivers share to find their PCI devices and tie
 * them to sockets: a scan of every function of segment 0, and Linux's rule
 * for the socket of a bus (uncore_snbep.c, snbep_pci2phy_map_init and
 * upi_nodeid_groupid): the UBox's CPUNODEID names its node ID (bits 2:0),
 * GIDNIDMAP maps socket i to the node ID in its bits 3i+2:3i. */
#ifndef UNC_PMU_UBOX_H
#define UNC_PMU_UBOX_H

#include <stddef.h>
#include <stdint.h>
#include "../base/hw.h"
#include "../base/status.h"

/* Every function of buses 0 to 255, as Linux's pci_get_device walks them:
 * a bus that no root bridge decodes (UNC_E_NOT_FOUND) is skipped; a device
 * without function 0, or whose header type (offset 0xC, bit 23) says it is
 * not multi-function, is read at function 0 only. found() hears of each
 * function answering (its vendor and device ID, device << 16 | vendor) and
 * may end the scan with a status (err filled). Reads only. */
enum unc_status ubox_scan(const struct hw *hw, enum unc_status (*found)(void *ctx, struct pci_addr a, uint32_t id),
			  void *ctx, char *err, size_t errsize);

/* A configuration read of the scans: a bus that no root bridge decodes
 * (UNC_E_NOT_FOUND) reads all ones, as an absent function does. */
enum unc_status ubox_read(const struct hw *hw, struct pci_addr a, uint16_t off, uint32_t *v);

/* The socket whose GIDNIDMAP field holds the node ID in CPUNODEID's bits
 * 2:0; -1: none does. */
int ubox_socket_of(uint32_t cpunodeid, uint32_t gidnidmap);

/* Linux's reverse fill (snbep_pci2phy_map_init with reverse, SKX and
 * later): from bus 255 down, a bus without a socket (-1) takes the socket
 * of the nearest bus above it that has one. */
void ubox_fill_down(int bus_socket[256]);

#endif
