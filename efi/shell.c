#include "shell.h"

#include <efilib.h>

static char arg_store[CLI_MAX_ARGS][CLI_MAX_ARG_LEN + 2];
static char *args[CLI_MAX_ARGS];

enum unc_status shell_args_ascii(EFI_HANDLE image, const char *prog, int *ret_argc, char ***ret_argv, struct out *err)
{
	static EFI_GUID guid = EFI_SHELL_PARAMETERS_PROTOCOL_GUID;
	EFI_SHELL_PARAMETERS_PROTOCOL *sp = NULL;

	*ret_argc = 0;
	*ret_argv = args;
	/* Started other than by the Shell 2.x: no arguments at all. */
	if (EFI_ERROR(BS->OpenProtocol(image, &guid, (void **)&sp, image, NULL, EFI_OPEN_PROTOCOL_GET_PROTOCOL)) || !sp)
		return UNC_OK;
	if (sp->Argc > CLI_MAX_ARGS) {
		out_printf(err, "%s: error: too many arguments (%d; at most %d)\n", prog, (int)sp->Argc - 1,
			   CLI_MAX_ARGS - 1);
		return UNC_E_INVALID;
	}
	for (UINTN i = 0; i < sp->Argc; i++) {
		size_t n = 0;
		for (const CHAR16 *p = sp->Argv[i]; *p && n <= CLI_MAX_ARG_LEN; p++, n++) {
			if (*p > 0x7e || *p < 0x20) {
				out_printf(err, "%s: error: argument %d has a non-ASCII character (U+%04x)\n", prog, (int)i,
					   (unsigned)*p);
				return UNC_E_INVALID;
			}
			arg_store[i][n] = (char)*p;
		}
		arg_store[i][n] = '\0';
		args[i] = arg_store[i];
	}
	*ret_argc = (int)sp->Argc;
	return UNC_OK;
}
