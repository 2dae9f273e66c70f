/* Entry point: shell arguments in, EFI_STATUS out. */
#include <efi.h>
#include <efilib.h>

#include "app.h"
#include "cli.h"
#include "console.h"
#include "native.h"

static EFI_STATUS to_efi_status(enum unc_status st)
{
	switch (st) {
	case UNC_OK: return EFI_SUCCESS;
	case UNC_E_INVALID: return EFI_INVALID_PARAMETER;
	case UNC_E_FAULT: return EFI_DEVICE_ERROR;
	case UNC_E_UNSUPPORTED: return EFI_UNSUPPORTED;
	case UNC_E_NOT_FOUND: return EFI_NOT_FOUND;
	case UNC_E_DEVICE: return EFI_PROTOCOL_ERROR;
	case UNC_E_BUSY: return EFI_ACCESS_DENIED;
	case UNC_E_RANGE: return EFI_BAD_BUFFER_SIZE;
	case UNC_E_NO_MEMORY: return EFI_OUT_OF_RESOURCES;
	}
	return EFI_ABORTED;
}

/* ASCII copies of the shell's UCS-2 arguments. One byte past the CLI's
 * length limit so that cli_parse sees (and names) an overlong argument. */
static char arg_store[CLI_MAX_ARGS][CLI_MAX_ARG_LEN + 2];
static char *args[CLI_MAX_ARGS];

static enum unc_status convert_args(INTN argc, CHAR16 **argv, int *ret_argc, struct out *err)
{
	if (argc > CLI_MAX_ARGS) {
		out_printf(err, "uncore: error: too many arguments (%d; at most %d)\n", (int)argc - 1, CLI_MAX_ARGS - 1);
		return UNC_E_INVALID;
	}
	for (INTN i = 0; i < argc; i++) {
		size_t n = 0;
		for (const CHAR16 *p = argv[i]; *p && n <= CLI_MAX_ARG_LEN; p++, n++) {
			if (*p > 0x7e || *p < 0x20) {
				out_printf(err, "uncore: error: argument %d has a non-ASCII character (U+%04x)\n", (int)i,
					   (unsigned)*p);
				return UNC_E_INVALID;
			}
			arg_store[i][n] = (char)*p;
		}
		arg_store[i][n] = '\0';
		args[i] = arg_store[i];
	}
	*ret_argc = (int)argc;
	return UNC_OK;
}

/* The UEFI Shell 2.x hands arguments over in EFI_SHELL_PARAMETERS_PROTOCOL
 * on our image handle. Started any other way, we have no arguments. */
static INTN shell_args(EFI_HANDLE image, CHAR16 ***ret_argv)
{
	static EFI_GUID guid = EFI_SHELL_PARAMETERS_PROTOCOL_GUID;
	EFI_SHELL_PARAMETERS_PROTOCOL *sp = NULL;

	if (EFI_ERROR(BS->OpenProtocol(image, &guid, (void **)&sp, image, NULL, EFI_OPEN_PROTOCOL_GET_PROTOCOL)) ||
	    !sp)
		return 0;
	*ret_argv = sp->Argv;
	return (INTN)sp->Argc;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	struct out out, err;
	struct cli_cmd cmd;
	struct hw hw;
	CHAR16 **argv = NULL;
	char msg[200];
	int argc = 0;
	enum unc_status st;

	InitializeLib(image, systab);
	out = console_out();
	err = console_err();

	INTN shell_argc = shell_args(image, &argv);
	st = convert_args(shell_argc, argv, &argc, &err);
	if (st)
		return to_efi_status(st);
	st = cli_parse(argc, args, &cmd, msg, sizeof(msg));
	if (st) {
		out_printf(&err, "uncore: error: %s\n", msg);
		return to_efi_status(st);
	}
	native_init(&hw, &err);
	if (app_needs_clock(&cmd)) {
		st = native_calibrate(&hw, &err);
		if (st)
			return to_efi_status(st);
	}
	return to_efi_status(app_run(&cmd, &hw, &out, &err));
}
