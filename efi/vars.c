/* Stored results at the firmware edge: EFI variables under the project's
 * GUID (and no other), and files through the UEFI Shell protocol. */
#include "vars.h"

#include <efilib.h>
#include <string.h>

#include "../drivers/base/fmt.h"
#include "../drivers/base/pool.h"

static EFI_GUID guid = UNC_VAR_GUID;

static void to_ucs2(CHAR16 *dst, size_t n, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < n; i++)
		dst[i] = (CHAR16)(unsigned char)src[i];
	dst[i] = 0;
}

static enum unc_status status_of(EFI_STATUS s)
{
	switch (s) {
	case EFI_SUCCESS: return UNC_OK;
	case EFI_NOT_FOUND: return UNC_E_NOT_FOUND;
	case EFI_BUFFER_TOO_SMALL: return UNC_E_RANGE;
	case EFI_OUT_OF_RESOURCES: return UNC_E_NO_MEMORY;
	case EFI_INVALID_PARAMETER: return UNC_E_INVALID;
	default: return UNC_E_DEVICE;
	}
}

static enum unc_status v_get(void *ctx, const char *name, uint8_t *buf, size_t cap, size_t *ret_len)
{
	CHAR16 wname[VAR_NAME_MAX + 8];
	UINT32 attrs = 0;
	UINTN size = cap;

	to_ucs2(wname, VAR_NAME_MAX + 8, name);
	EFI_STATUS s = RT->GetVariable(wname, ctx ? ctx : &guid, &attrs, &size, buf);
	*ret_len = size;
	return status_of(s);
}

static enum unc_status v_set(void *ctx, const char *name, const uint8_t *buf, size_t len)
{
	CHAR16 wname[VAR_NAME_MAX + 8];

	to_ucs2(wname, VAR_NAME_MAX + 8, name);
	EFI_STATUS s = RT->SetVariable(wname, ctx ? ctx : &guid, UNC_VAR_ATTRS, len, (VOID *)buf);
	if (len == 0 && s == EFI_NOT_FOUND)
		return UNC_OK;
	return status_of(s);
}

/* The walk's current name: a static buffer, or a larger one from the pool
 * once a longer name turned up (freed when the walk ends). */
static CHAR16 name_first[128];
static CHAR16 *wname = name_first;
static UINTN wsize = sizeof(name_first);

static void walk_end(void)
{
	if (wname != name_first)
		efi_free(wname);
	wname = name_first;
	wsize = sizeof(name_first);
}

/* Walks every variable and keeps ours; the names of others are never
 * handed on, and nothing outside the GUID is ever written. A name longer
 * than the buffer (someone else's, say) makes GetNextVariableName return
 * EFI_BUFFER_TOO_SMALL with the size it needs: the buffer grows to that
 * size, keeping the current name (the walk's position), and the call is
 * made again. */
static enum unc_status v_next(void *ctx, char *name, size_t size)
{
	static EFI_GUID g;

	if (!name[0]) {
		walk_end();
		wname[0] = 0;
	}
	for (;;) {
		UINTN n = wsize;
		EFI_STATUS s = RT->GetNextVariableName(&n, wname, &g);
		if (s == EFI_BUFFER_TOO_SMALL && n > wsize) {
			CHAR16 *grown = efi_alloc(n);
			if (!grown)
				return UNC_E_NO_MEMORY;
			CopyMem(grown, wname, wsize);
			walk_end();
			wname = grown, wsize = n;
			continue;
		}
		if (EFI_ERROR(s)) {
			walk_end();
			return status_of(s); /* EFI_NOT_FOUND: the end */
		}
		if (CompareGuid(&g, ctx ? ctx : &guid) != 0)
			continue;
		size_t i = 0;
		for (; wname[i] && i + 1 < size; i++)
			name[i] = wname[i] < 0x80 ? (char)wname[i] : '?';
		name[i] = '\0';
		if (wname[i] && i >= 3) /* longer than any record's name: cut, and said so */
			memcpy(name + i - 3, "...", 3);
		return UNC_OK;
	}
}

static enum unc_status v_query(void *ctx, uint64_t *ret_max_var, uint64_t *ret_remaining)
{
	UINT64 max_storage = 0, remaining = 0, max_var = 0;

	(void)ctx;
	EFI_STATUS s = RT->QueryVariableInfo(UNC_VAR_ATTRS, &max_storage, &remaining, &max_var);
	*ret_max_var = max_var;
	*ret_remaining = remaining;
	return status_of(s);
}

const struct varstore efi_varstore = { v_get, v_set, v_next, v_query, NULL, NULL };

/* The same under another GUID: the firmware's (Driver####, DriverOrder)
 * and the boot check's (efi/bootcheck.c). */
static EFI_GUID global_guid = EFI_GLOBAL_VARIABLE, boot_guid = UNC_BOOT_GUID;
const struct varstore efi_globalvars = { v_get, v_set, v_next, v_query, &global_guid, NULL };
const struct varstore efi_bootvars = { v_get, v_set, v_next, v_query, &boot_guid, NULL };

enum unc_status efi_write_file(void *ctx, const char *path, const void *data, size_t len, char *err, size_t errsize)
{
	static EFI_GUID shell_guid = EFI_SHELL_PROTOCOL_GUID;
	EFI_SHELL_PROTOCOL *sh = NULL;
	SHELL_FILE_HANDLE fh;
	CHAR16 wpath[260];
	EFI_STATUS s;

	(void)ctx;
	if (EFI_ERROR(BS->LocateProtocol(&shell_guid, NULL, (void **)&sh)) || !sh) {
		fmt_snprintf(err, errsize, "cannot write %s: no UEFI Shell protocol", path);
		return UNC_E_NOT_FOUND;
	}
	to_ucs2(wpath, 260, path);
	/* A file is replaced; a directory never is: DeleteFileByName would
	 * remove an empty one, and a full one would fail half-way. */
	if (!EFI_ERROR(sh->OpenFileByName(wpath, &fh, EFI_FILE_MODE_READ))) {
		EFI_FILE_INFO *info = sh->GetFileInfo(fh);
		const char *why = !info				     ? "exists and its type cannot be read"
				  : info->Attribute & EFI_FILE_DIRECTORY ? "is a directory"
									 : NULL;
		sh->CloseFile(fh);
		if (info)
			BS->FreePool(info);
		if (why) {
			fmt_snprintf(err, errsize, "%s %s (-o wants a file path)", path, why);
			return UNC_E_INVALID;
		}
	}
	sh->DeleteFileByName(wpath); /* replace, never append */
	s = sh->CreateFile(wpath, 0, &fh);
	if (EFI_ERROR(s)) {
		fmt_snprintf(err, errsize, "cannot create %s (status 0x%lx)", path, (unsigned long)s);
		return UNC_E_DEVICE;
	}
	UINTN n = len;
	s = sh->WriteFile(fh, &n, (VOID *)data);
	sh->CloseFile(fh);
	if (EFI_ERROR(s) || n != len) {
		sh->DeleteFileByName(wpath);
		fmt_snprintf(err, errsize, "cannot write %s (status 0x%lx, %lu of %zu bytes); the file was removed", path,
			     (unsigned long)s, (unsigned long)n, len);
		return UNC_E_DEVICE;
	}
	return UNC_OK;
}

void efi_get_time(struct rec_time *t)
{
	EFI_TIME now;

	*t = (struct rec_time){ 0 };
	if (EFI_ERROR(RT->GetTime(&now, NULL)))
		return;
	*t = (struct rec_time){ now.Year, now.Month, now.Day, now.Hour, now.Minute, now.Second, now.Daylight,
				now.Nanosecond, now.TimeZone, 1 };
}

void *efi_alloc(size_t n)
{
	void *p = NULL;

	return EFI_ERROR(BS->AllocatePool(EfiBootServicesData, n, &p)) ? NULL : p;
}

void efi_free(void *p)
{
	if (p)
		BS->FreePool(p);
}

/* drivers/base/pool.h: the pool, zero-filled. */
void *unc_alloc(size_t n)
{
	void *p = efi_alloc(n ? n : 1);

	if (p)
		memset(p, 0, n);
	return p;
}

void unc_free(void *p)
{
	efi_free(p);
}
