/* How uncore-emu.efi (the launcher, an application) hands the parsed
 * configuration to the resident driver it loads: as the driver image's
 * LoadOptions. Both are built from the same sources, so the layout matches;
 * the magic and size catch anything else. */
#ifndef EMU_LAUNCH_H
#define EMU_LAUNCH_H

#include "model.h"

#define EMU_LAUNCH_MAGIC 0x554D4543u /* "CEMU" */

struct emu_launch {
	uint32_t magic;
	uint32_t size; /* sizeof(struct emu_launch) */
	struct emu_config cfg;
};

#endif
