/* The lab command (lab.c): efi/main.c runs lab mode itself, since it
 * needs the firmware; its descriptor's own handler only refuses. */
#ifndef UNC_LAB_COMMAND_H
#define UNC_LAB_COMMAND_H

#include "app.h"

/* If cmd is `lab`, its configuration path ("": chosen per board); else NULL. */
const char *lab_command_config(const struct cli_cmd *cmd);

#endif
