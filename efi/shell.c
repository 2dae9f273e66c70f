#include "shell.h"

#include <efilib.h>

/* Allocated for the arguments there are: a static store for the most the
 * parser takes (64 x 257 bytes) would sit, zeroed, in every image. */
#define ARG_SIZE (CLI_MAX_ARG_LEN + 2)
static char *arg_store;
static char *args[CLI_MAX_ARGS];

void shell_args_free(void)
{
	if (arg_store)
		BS->FreePool(arg_store);
	arg_store = NULL;
}

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
	if (EFI_ERROR(BS->AllocatePool(EfiLoaderData, sp->Argc * ARG_SIZE, (void **)&arg_store))) {
		arg_store = NULL;
		out_printf(err, "%s: error: out of memory for %d arguments\n", prog, (int)sp->Argc);
		return UNC_E_NO_MEMORY;
	}
	for (UINTN i = 0; i < sp->Argc; i++) {
		char *a = arg_store + i * ARG_SIZE;
		size_t n = 0;
		for (const CHAR16 *p = sp->Argv[i]; *p && n <= CLI_MAX_ARG_LEN; p++, n++) {
			if (*p > 0x7e || *p < 0x20) {
				out_printf(err, "%s: error: argument %d has a non-ASCII character (U+%04x)\n", prog, (int)i,
					   (unsigned)*p);
				shell_args_free();
				return UNC_E_INVALID;
			}
			a[n] = (char)*p;
		}
		a[n] = '\0';
		args[i] = a;
	}
	*ret_argc = (int)sp->Argc;
	return UNC_OK;
}
