/* uncore-emu.efi: what a user runs from the UEFI Shell.
 *
 *   fs0:\uncore-emu.efi [--cbo-config N] [--uclk-mhz F] [--rate NAME=N]... [--fault KIND[=ARG]]...
 *   fs0:\uncore-emu.efi --unload
 *
 * The Shell runs only applications as commands, and its `load` command
 * passes no options to a driver. So this application checks the options,
 * then loads the boot-service driver built into it (tests/emu/driver.c)
 * with the parsed configuration as the driver's LoadOptions, and starts it.
 * The driver stays resident after this application exits. A bad option, or
 * an emulator already present, loads nothing. */
#include <efi.h>
#include <efilib.h>

#include "../../efi/console.h"
#include "../../efi/emu_protocol.h"
#include "../../efi/native.h"
#include "../../efi/shell.h"
#include "launch.h"

#include <string.h>

extern const unsigned char _binary_uncore_emu_drv_efi_start[], _binary_uncore_emu_drv_efi_end[];

/* The driver installs its protocol on its own image handle. */
static EFI_STATUS unload_emulator(struct out *out, struct out *err)
{
	static EFI_GUID proto_guid = UNC_EMU_PROTOCOL_GUID;
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;
	EFI_STATUS s;

	s = BS->LocateHandleBuffer(ByProtocol, &proto_guid, NULL, &n, &handles);
	if (EFI_ERROR(s) || n == 0) {
		out_printf(err, "uncore-emu: error: no uncore emulator is installed\n");
		return EFI_NOT_FOUND;
	}
	s = BS->UnloadImage(handles[0]);
	BS->FreePool(handles);
	if (EFI_ERROR(s)) {
		out_printf(err, "uncore-emu: error: the emulator did not unload (status 0x%lx)\n", (unsigned long)s);
		return s;
	}
	out_printf(out, "uncore-emu: unloaded; MSR access is native again and MCHBAR is as it was\n");
	return EFI_SUCCESS;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static EFI_GUID proto_guid = UNC_EMU_PROTOCOL_GUID;
	static struct emu_launch launch;
	struct out out, err;
	char **argv, msg[200];
	int argc;
	void *existing;
	EFI_HANDLE drv = NULL;
	EFI_LOADED_IMAGE *li;
	enum unc_status st;
	EFI_STATUS s;

	InitializeLib(image, systab);
	out = console_out();
	err = console_err();
	if ((st = shell_args_ascii(image, "uncore-emu", &argc, &argv, &err)))
		return efi_status_from(st);
	if (emu_parse_options(argc, argv, &launch.cfg, msg, sizeof(msg))) {
		out_printf(&err, "uncore-emu: error: %s\n", msg);
		return EFI_INVALID_PARAMETER;
	}
	if (launch.cfg.unload)
		return unload_emulator(&out, &err);
	if (!EFI_ERROR(BS->LocateProtocol(&proto_guid, NULL, &existing))) {
		out_printf(&err, "uncore-emu: error: an uncore emulator is already installed\n");
		return EFI_ALREADY_STARTED;
	}

	s = BS->LoadImage(FALSE, image, NULL, (VOID *)_binary_uncore_emu_drv_efi_start,
			  (UINTN)(_binary_uncore_emu_drv_efi_end - _binary_uncore_emu_drv_efi_start), &drv);
	if (EFI_ERROR(s)) {
		out_printf(&err, "uncore-emu: error: cannot load the emulator driver (status 0x%lx)\n", (unsigned long)s);
		return s;
	}
	s = BS->HandleProtocol(drv, &LoadedImageProtocol, (void **)&li);
	if (EFI_ERROR(s)) {
		BS->UnloadImage(drv);
		out_printf(&err, "uncore-emu: error: the driver image has no EFI_LOADED_IMAGE_PROTOCOL\n");
		return s;
	}
	launch.magic = EMU_LAUNCH_MAGIC;
	launch.size = sizeof(launch);
	li->LoadOptions = &launch;
	li->LoadOptionsSize = sizeof(launch);
	/* The driver reports its own errors; a failed driver is unloaded by
	 * the firmware when its entry point returns an error. */
	return BS->StartImage(drv, NULL, NULL);
}
