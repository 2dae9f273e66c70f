/* Entry point: shell arguments in, EFI_STATUS out. */
#include <efi.h>
#include <efilib.h>

#include "app.h"
#include "cli.h"
#include "console.h"
#include "native.h"
#include "shell.h"
#include "vars.h"

/* Busy-waits on the TSC; every millisecond or so, looks for ESC. */
static bool wait_until(void *ctx, uint64_t when)
{
	const struct hw *hw = ctx;
	uint64_t poll_every = hw->tick_hz / 1000, next_poll = 0;

	for (;;) {
		uint64_t now = hw_ticks(hw);
		if (now >= when)
			return false;
		if (now >= next_poll) {
			EFI_INPUT_KEY key;
			if (ST->ConIn && ST->ConIn->ReadKeyStroke(ST->ConIn, &key) == EFI_SUCCESS && key.ScanCode == SCAN_ESC)
				return true;
			next_poll = now + poll_every;
		}
	}
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	struct out out, err;
	static struct cli_cmd cmd;
	struct hw hw;
	char **argv;
	char msg[200];
	int argc = 0;
	enum unc_status st;

	InitializeLib(image, systab);
	out = console_out();
	err = console_err();

	st = shell_args_ascii(image, "uncore", &argc, &argv, &err);
	if (st)
		return efi_status_from(st);
	st = cli_parse(argc, argv, &cmd, msg, sizeof(msg));
	if (st) {
		out_printf(&err, "uncore: error: %s\n", msg);
		return efi_status_from(st);
	}
	native_init(&hw, &err, true);
	if (app_needs_clock(&cmd)) {
		st = native_calibrate(&hw, &err);
		if (st)
			return efi_status_from(st);
	}
	struct app_env env = { wait_until, &hw, &efi_varstore, efi_write_file, efi_alloc, efi_free, efi_get_time };
	return efi_status_from(app_run(&cmd, &hw, &env, &out, &err));
}
