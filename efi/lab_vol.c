/* Lab mode's volume and the images it starts (lab_vol.h): files read and
 * written on the volume uncore.efi was loaded from, and EFI images loaded
 * from it and started with Shell parameters, for `run PATH` and for
 * -- COMMAND without a Shell. */
#include "lab_vol.h"

#include <efilib.h>
#include <string.h>

#include "../drivers/lab/lab.h"
#include "measure.h"
#include "vars.h"

static void to_wide(CHAR16 *dst, size_t n, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < n; i++)
		dst[i] = (CHAR16)(unsigned char)src[i];
	dst[i] = 0;
}

static EFI_STATUS open_path(const struct lab_vol *v, const char *path, UINT64 mode, UINT64 attr, EFI_FILE_HANDLE *fh)
{
	CHAR16 w[LAB_LINE_MAX];

	if (!v->root)
		return EFI_NOT_FOUND;
	to_wide(w, LAB_LINE_MAX, path);
	return v->root->Open(v->root, fh, w, mode, attr);
}

enum unc_status lab_vol_read(const struct lab_vol *v, const char *path, char **ret, size_t *ret_len,
			     EFI_STATUS *ret_s)
{
	EFI_FILE_HANDLE fh;
	EFI_STATUS s = open_path(v, path, EFI_FILE_MODE_READ, 0, &fh);
	UINTN n = LAB_FILE_MAX;

	*ret = NULL;
	*ret_s = s;
	if (EFI_ERROR(s))
		return s == EFI_NOT_FOUND ? UNC_E_NOT_FOUND : UNC_E_DEVICE;
	char *buf = efi_alloc(LAB_FILE_MAX + 1);
	if (!buf) {
		fh->Close(fh);
		return UNC_E_NO_MEMORY;
	}
	s = fh->Read(fh, &n, buf);
	fh->Close(fh);
	*ret_s = s;
	if (EFI_ERROR(s)) {
		efi_free(buf);
		return UNC_E_DEVICE;
	}
	if (n >= LAB_FILE_MAX) {
		efi_free(buf);
		return UNC_E_RANGE;
	}
	buf[n] = '\0';
	*ret = buf;
	*ret_len = n;
	return UNC_OK;
}

/* Whether the volume takes bytes of new files and dirs new folders: it
 * is not read-only, and has that many clusters free, with one more for
 * each to grow its folder. Checked before anything is created, since a
 * folder or file made on a full FAT volume can leave it inconsistent
 * (a folder whose start cluster is 0: the root). */
EFI_STATUS lab_vol_room(const struct lab_vol *v, size_t bytes, unsigned dirs, unsigned files)
{
	EFI_FILE_SYSTEM_INFO *fs = v->root ? LibFileSystemInfo(v->root) : NULL;
	EFI_STATUS s = EFI_SUCCESS;

	if (!fs)
		return v->root ? EFI_SUCCESS : EFI_NOT_FOUND; /* unknown: the writes say */
	uint64_t cl = fs->BlockSize ? fs->BlockSize : 512;
	uint64_t need = (bytes + cl - 1) / cl * cl + (uint64_t)(dirs + files) * cl;
	if (fs->ReadOnly)
		s = EFI_WRITE_PROTECTED;
	else if (fs->FreeSpace < need)
		s = EFI_VOLUME_FULL;
	FreePool(fs);
	return s;
}

/* Replaces the file at path (never a directory) with data. */
EFI_STATUS lab_vol_write(const struct lab_vol *v, const char *path, const void *data, size_t len)
{
	EFI_FILE_HANDLE fh;
	EFI_STATUS s = lab_vol_room(v, len, 0, 1);

	if (EFI_ERROR(s))
		return s;
	s = open_path(v, path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &fh);

	if (!EFI_ERROR(s)) {
		EFI_FILE_INFO *info = LibFileInfo(fh);
		bool dir = info && (info->Attribute & EFI_FILE_DIRECTORY);
		if (info)
			FreePool(info);
		if (dir) {
			fh->Close(fh);
			return EFI_ACCESS_DENIED;
		}
		s = fh->Delete(fh); /* closes it: replace, never append */
		if (s != EFI_SUCCESS)
			return EFI_ERROR(s) ? s : EFI_WRITE_PROTECTED;
	}
	s = open_path(v, path, EFI_FILE_MODE_CREATE | EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &fh);
	if (EFI_ERROR(s))
		return s;
	UINTN n = len;
	s = fh->Write(fh, &n, (VOID *)data);
	if (!EFI_ERROR(s) && n != len)
		s = EFI_VOLUME_FULL;
	EFI_STATUS c = fh->Close(fh);
	return EFI_ERROR(s) ? s : c;
}

/* Makes every folder of path (absolute, backslashes). */
EFI_STATUS lab_vol_mkdirs(const struct lab_vol *v, const char *path)
{
	char part[LAB_LINE_MAX];
	EFI_STATUS s = EFI_SUCCESS;
	unsigned n = 0;

	for (const char *c = path; *c; c++)
		n += *c == '\\';
	s = lab_vol_room(v, 0, n, 0);
	if (EFI_ERROR(s))
		return s;
	for (size_t i = 1; ; i++) {
		if (path[i] && path[i] != '\\')
			continue;
		if (i >= sizeof(part))
			return EFI_INVALID_PARAMETER;
		memcpy(part, path, i);
		part[i] = '\0';
		EFI_FILE_HANDLE fh;
		s = open_path(v, part, EFI_FILE_MODE_CREATE | EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, EFI_FILE_DIRECTORY,
			      &fh);
		if (EFI_ERROR(s))
			return s;
		fh->Close(fh);
		if (!path[i])
			return s;
	}
}

/* What a failed write says of the volume ("" when nothing). */
const char *lab_vol_why(const struct lab_vol *v, EFI_STATUS s)
{
	return s == EFI_WRITE_PROTECTED ? ": the volume is read-only"
	     : s == EFI_VOLUME_FULL     ? ": the volume is full"
	     : s == EFI_NOT_FOUND && !v->root ? ": no file system"
	     : s == EFI_NO_MEDIA || s == EFI_MEDIA_CHANGED ? ": the medium is gone"
	     : s == EFI_DEVICE_ERROR || s == EFI_VOLUME_CORRUPTED ? ": the volume failed"
	     : "";
}

/* Loads the image a command line's first word names (a path on uncore.efi's
 * volume); *ret_h is the loaded image. */
enum unc_status lab_image_load(const struct lab_vol *v, const char *cmdline, EFI_HANDLE *ret_h, char *err,
			       size_t errsize)
{
	char line[LAB_LINE_MAX], *argv[LAB_MAX_WORDS], hex[20];
	CHAR16 w[LAB_LINE_MAX];
	int argc;

	*ret_h = NULL;
	fmt_snprintf(line, sizeof(line), "%s", cmdline);
	if (lab_split(line, argv, LAB_MAX_WORDS, &argc, err, errsize) || !argc)
		return UNC_E_INVALID;
	if (!lab_image_path_ok(argv[0]))
		UNC_ERR(UNC_E_INVALID, "'%s': want the path of an EFI image on uncore.efi's volume, such as "
			"\\uncore\\tool.efi", argv[0]);
	to_wide(w, LAB_LINE_MAX, argv[0]);
	EFI_DEVICE_PATH *dp = FileDevicePath(v->device, w);
	if (!dp)
		UNC_ERR(UNC_E_NO_MEMORY, "'%s': no memory for its device path", argv[0]);
	EFI_STATUS s = BS->LoadImage(FALSE, v->self, dp, NULL, 0, ret_h);
	FreePool(dp);
	if (EFI_ERROR(s)) {
		if (*ret_h && s == EFI_SECURITY_VIOLATION)
			BS->UnloadImage(*ret_h);
		*ret_h = NULL;
		if (s == EFI_NOT_FOUND)
			UNC_ERR(UNC_E_NOT_FOUND, "'%s': no such file", argv[0]);
		UNC_ERR(UNC_E_INVALID, "'%s' is not an image this firmware can load (%s)", argv[0], efi_status_str((uint64_t)s, hex));
	}
	return UNC_OK;
}

/* What a started image is given: its command line and its words. */
struct image_args {
	char line[LAB_LINE_MAX];
	CHAR16 wline[LAB_LINE_MAX], wargs[LAB_LINE_MAX + LAB_MAX_WORDS];
	CHAR16 *wargv[LAB_MAX_WORDS + 1];
};

static enum unc_status start_image_args(const struct lab_vol *v, EFI_HANDLE h, const char *cmdline,
					EFI_STATUS *ret_status, unsigned period_ms, void (*tick)(void *), void *tctx,
					struct image_args *a, char *err, size_t errsize)
{
	EFI_GUID params_guid = EFI_SHELL_PARAMETERS_PROTOCOL_GUID;
	char *line = a->line;
	CHAR16 *wline = a->wline, *wargs = a->wargs, **wargv = a->wargv;
	char *argv[LAB_MAX_WORDS];
	int argc;
	EFI_LOADED_IMAGE *li = NULL;
	EFI_EVENT ev = NULL;
	struct efi_ticker t = { tick, tctx };

	fmt_snprintf(line, sizeof(a->line), "%s", cmdline);
	to_wide(wline, LAB_LINE_MAX, cmdline);
	if (lab_split(line, argv, LAB_MAX_WORDS, &argc, err, errsize)) {
		BS->UnloadImage(h);
		return UNC_E_INVALID;
	}
	size_t at = 0;
	for (int i = 0; i < argc; i++) {
		wargv[i] = wargs + at;
		to_wide(wargs + at, sizeof(a->wargs) / sizeof(a->wargs[0]) - at, argv[i]);
		at += strlen(argv[i]) + 1;
	}
	wargv[argc] = NULL;
	EFI_SHELL_PARAMETERS_PROTOCOL params = { wargv, (UINTN)argc, NULL, NULL, NULL };
	if (!EFI_ERROR(BS->HandleProtocol(h, &LoadedImageProtocol, (void **)&li)) && li) {
		li->LoadOptions = wline;
		li->LoadOptionsSize = (UINT32)((StrLen(wline) + 1) * sizeof(CHAR16));
	}
	if (EFI_ERROR(BS->InstallProtocolInterface(&h, &params_guid, EFI_NATIVE_INTERFACE, &params))) {
		BS->UnloadImage(h);
		UNC_ERR(UNC_E_DEVICE, "cannot give '%s' its arguments", cmdline);
	}
	if (tick && (EFI_ERROR(BS->CreateEvent(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, efi_on_tick, &t, &ev)) ||
		     EFI_ERROR(BS->SetTimer(ev, TimerPeriodic, (UINT64)period_ms * 10000)))) {
		if (ev)
			BS->CloseEvent(ev);
		BS->UninstallProtocolInterface(h, &params_guid, &params);
		BS->UnloadImage(h);
		UNC_ERR(UNC_E_DEVICE, "cannot start the sampling timer");
	}
	if (v->hook)
		v->hook(v->hook_ctx, true);
	*ret_status = BS->StartImage(h, NULL, NULL);
	if (v->hook)
		v->hook(v->hook_ctx, false);
	if (ev) {
		BS->SetTimer(ev, TimerCancel, 0);
		BS->CloseEvent(ev);
	}
	/* An application is unloaded when it returns; its handle stays while
	 * this protocol is on it, and goes with it. */
	BS->UninstallProtocolInterface(h, &params_guid, &params);
	return UNC_OK;
}

/* Starts a loaded image with the command line's words as its Shell
 * parameters (what a Shell would give it) and the line as its
 * LoadOptions, both from the pool while it runs; tick(tctx) every
 * period_ms meanwhile when tick is set. */
enum unc_status lab_image_start(const struct lab_vol *v, EFI_HANDLE h, const char *cmdline, EFI_STATUS *ret_status,
				unsigned period_ms, void (*tick)(void *), void *tctx, char *err, size_t errsize)
{
	struct image_args *a = efi_alloc(sizeof(*a));

	if (!a) {
		BS->UnloadImage(h);
		UNC_ERR(UNC_E_NO_MEMORY, "out of memory for %zu bytes of arguments for '%s'", sizeof(*a), cmdline);
	}
	enum unc_status st = start_image_args(v, h, cmdline, ret_status, period_ms, tick, tctx, a, err, errsize);
	efi_free(a);
	return st;
}
