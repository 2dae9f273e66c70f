/* Runs a parsed command against a hardware seam. No firmware headers: the
 * host tests run it against the fake register file. */
#ifndef UNC_APP_H
#define UNC_APP_H

#include "../drivers/fmt.h"
#include "../drivers/hw.h"
#include "cli.h"

#define UNC_VERSION "0.1.0"

/* How a measurement waits: until ticks() >= when, returning true when the
 * user asked to stop (ESC). efi/main.c polls the keyboard; tests move a
 * fake clock. */
struct app_env {
	bool (*wait_until)(void *ctx, uint64_t when);
	void *ctx;
};

/* out gets results, err gets one-line "uncore: error: ..." messages. */
enum unc_status app_run(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env, struct out *out,
			struct out *err);

/* Internal sampling and multiplexing periods (milliseconds). A 44-bit
 * counter needs more than 1.7 * 10^14 events per second to wrap twice
 * between two samples. */
#define APP_SAMPLE_MS 100
#define APP_SLICE_MS  20

/* Whether the command needs the calibrated time source. */
bool app_needs_clock(const struct cli_cmd *cmd);

#endif
