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

static EFI_GUID proto_guid = UNC_EMU_PROTOCOL_GUID;

/* Who holds the emulator: the image that opened its protocol BY_DRIVER
 * (uncore.efi, for its whole run), as a path in buf; NULL: nobody. */
static const char *emulator_holder(EFI_HANDLE h, char *buf, size_t size)
{
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *info = NULL;
	EFI_HANDLE agent = NULL;
	EFI_LOADED_IMAGE *li = NULL;
	UINTN n = 0;

	if (EFI_ERROR(BS->OpenProtocolInformation(h, &proto_guid, &info, &n)))
		return NULL;
	for (UINTN i = 0; i < n && !agent; i++)
		if (info[i].Attributes & (EFI_OPEN_PROTOCOL_BY_DRIVER | EFI_OPEN_PROTOCOL_EXCLUSIVE))
			agent = info[i].AgentHandle;
	BS->FreePool(info);
	if (!agent)
		return NULL;
	CHAR16 *path = NULL;
	if (!EFI_ERROR(BS->HandleProtocol(agent, &LoadedImageProtocol, (void **)&li)) && li && li->FilePath)
		path = DevicePathToStr(li->FilePath);
	size_t k = 0;
	for (; path && path[k] && k + 1 < size; k++)
		buf[k] = path[k] >= 0x20 && path[k] <= 0x7e ? (char)path[k] : '?';
	buf[k] = '\0';
	if (path)
		FreePool(path);
	if (!k)
		fmt_snprintf(buf, size, "the image with handle %p", (void *)agent);
	return buf;
}

/* The driver installs its protocol on its own image handle. While a client
 * holds it, unloading would leave the client calling freed memory: it is
 * refused (the driver refuses too, whoever asks). */
static EFI_STATUS unload_emulator(struct out *out, struct out *err)
{
	EFI_HANDLE *handles = NULL, h;
	UINTN n = 0;
	EFI_STATUS s;
	char holder[160], hex[20];

	s = BS->LocateHandleBuffer(ByProtocol, &proto_guid, NULL, &n, &handles);
	if (EFI_ERROR(s) || n == 0) {
		out_printf(err, "uncore-emu: error: no uncore emulator is installed\n");
		return EFI_NOT_FOUND;
	}
	h = handles[0];
	BS->FreePool(handles);
	if (emulator_holder(h, holder, sizeof(holder))) {
		out_printf(err, "uncore-emu: error: the emulator is in use by %s, which holds it until it exits: not "
				"unloaded\n", holder);
		return EFI_ACCESS_DENIED;
	}
	s = BS->UnloadImage(h);
	if (EFI_ERROR(s)) {
		out_printf(err, "uncore-emu: error: the emulator did not unload (%s)\n", efi_status_str(s, hex));
		return s;
	}
	out_printf(out, "uncore-emu: unloaded; MSR access is native again and MCHBAR is as it was\n");
	return EFI_SUCCESS;
}

/* The boot manager starts a Driver#### option's image with the option's
 * data as its LoadOptions (UEFI 2.10, 3.1.3): `--driver-option NNNN
 * OPTIONS` makes the load option DriverNNNN (bcfg driver add made it) start
 * the emulator with OPTIONS, as this launcher would. The option's data is
 * what follows its attributes, the device path's length, the description
 * and the device path; it is replaced. */
static EFI_STATUS driver_option(const char *num, const struct emu_launch *l, struct out *out, struct out *err)
{
	static UINT8 buf[4096];
	EFI_GUID g = EFI_GLOBAL_VARIABLE;
	CHAR16 name[12] = { 'D', 'r', 'i', 'v', 'e', 'r' };
	UINTN size = sizeof(buf) - sizeof(*l), at = 6;
	UINT32 attrs = 0;
	EFI_STATUS s;

	bool ok = strlen(num) == 4;
	for (int i = 0; i < 4 && ok; i++)
		ok = num[i] && strchr("0123456789ABCDEF", num[i]), name[6 + i] = (CHAR16)(unsigned char)num[i];
	if (!ok) {
		out_printf(err, "uncore-emu: error: bad --driver-option '%s' (want 4 hex digits, as Driver0001)\n", num);
		return EFI_INVALID_PARAMETER;
	}
	s = RT->GetVariable(name, &g, &attrs, &size, buf);
	if (EFI_ERROR(s) || size < 8) {
		out_printf(err, "uncore-emu: error: no load option Driver%s (bcfg driver add makes one)\n", num);
		return EFI_NOT_FOUND;
	}
	while (at + 1 < size && (buf[at] | buf[at + 1]))
		at += 2;
	at += 2 + (buf[4] | (UINTN)buf[5] << 8);
	if (at > size) {
		out_printf(err, "uncore-emu: error: Driver%s is not a load option (%lu bytes)\n", num, (unsigned long)size);
		return EFI_VOLUME_CORRUPTED;
	}
	CopyMem(buf + at, (void *)l, sizeof(*l));
	s = RT->SetVariable(name, &g, attrs, at + sizeof(*l), buf);
	if (EFI_ERROR(s)) {
		out_printf(err, "uncore-emu: error: Driver%s not written (status 0x%lx)\n", num, (unsigned long)s);
		return s;
	}
	out_printf(out, "uncore-emu: Driver%s starts the emulator with these options (%lu bytes of data)\n", num,
		   (unsigned long)sizeof(*l));
	return EFI_SUCCESS;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
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
	/* --driver-option NNNN OPTIONS: these options as the load option
	 * DriverNNNN's data (driver_option). */
	const char *drv_num = argc > 2 && !strcmp(argv[1], "--driver-option") ? argv[2] : NULL;
	char num[8] = "";
	if (drv_num) {
		fmt_snprintf(num, sizeof(num), "%s", drv_num);
		argc -= 2, argv += 2;
	}
	st = emu_parse_options(argc, argv, &launch.cfg, msg, sizeof(msg));
	shell_args_free(); /* the configuration holds no pointer into them */
	if (st) {
		out_printf(&err, "uncore-emu: error: %s\n", msg);
		return EFI_INVALID_PARAMETER;
	}
	launch.magic = EMU_LAUNCH_MAGIC;
	launch.size = sizeof(launch);
	if (drv_num)
		return driver_option(num, &launch, &out, &err);
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
	li->LoadOptions = &launch;
	li->LoadOptionsSize = sizeof(launch);
	/* The driver reports its own errors; a failed driver is unloaded by
	 * the firmware when its entry point returns an error. */
	return BS->StartImage(drv, NULL, NULL);
}
