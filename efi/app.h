/* Runs a parsed command against a hardware seam. No firmware headers: the
 * host tests run it against the fake register file. */
#ifndef UNC_APP_H
#define UNC_APP_H

#include "../drivers/fmt.h"
#include "../drivers/hw.h"
#include "cli.h"

#define UNC_VERSION "0.1.0"

/* out gets results, err gets one-line "uncore: error: ..." messages. */
enum unc_status app_run(const struct cli_cmd *cmd, const struct hw *hw, struct out *out, struct out *err);

/* Whether the command needs the calibrated time source. */
bool app_needs_clock(const struct cli_cmd *cmd);

#endif
