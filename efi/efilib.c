/* The few functions of gnu-efi's libefi the application calls, with the
 * names and contracts efilib.h declares, so that the image links no libefi:
 * its objects bring in their Print, device-path text and GUID name tables
 * (about 30 KB) whatever is called. The Makefile links uncore.efi without
 * libefi; its undefined-symbol check names anything missing here. */
#include <efi.h>
#include <efilib.h>

#include <stddef.h>

EFI_SYSTEM_TABLE *ST;
EFI_BOOT_SERVICES *BS;
EFI_RUNTIME_SERVICES *RT;
EFI_GUID gEfiLoadedImageProtocolGuid = EFI_LOADED_IMAGE_PROTOCOL_GUID;

/* What the pool buffers returned here are allocated as: the image's own
 * data type, as libefi does. */
static EFI_MEMORY_TYPE pool_type = EfiBootServicesData;

VOID InitializeLib(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *li = NULL;

	ST = systab;
	BS = systab->BootServices;
	RT = systab->RuntimeServices;
	if (image && !EFI_ERROR(BS->HandleProtocol(image, &gEfiLoadedImageProtocolGuid, (VOID **)&li)) && li)
		pool_type = li->ImageDataType;
}

/* The compiler's own calls (struct copies and clears) land here too:
 * string instructions, which no optimisation turns back into a call. */
void *memset(void *dst, int c, size_t n)
{
	void *d = dst;

	__asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;

	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(n) : : "memory");
	return dst;
}

VOID SetMem(VOID *buf, UINTN size, UINT8 value)
{
	memset(buf, value, size);
}

VOID CopyMem(VOID *dst, CONST VOID *src, UINTN len)
{
	memcpy(dst, src, len);
}

/* 0 when equal, else the difference of the first bytes that differ. */
INTN CompareMem(CONST VOID *a, CONST VOID *b, UINTN len)
{
	const UINT8 *p = a, *q = b;

	for (UINTN i = 0; i < len; i++)
		if (p[i] != q[i])
			return (INTN)p[i] - (INTN)q[i];
	return 0;
}

/* 0 when equal. */
INTN CompareGuid(EFI_GUID *a, EFI_GUID *b)
{
	return CompareMem(a, b, sizeof(EFI_GUID)) != 0;
}

UINTN StrLen(CONST CHAR16 *s)
{
	UINTN n = 0;

	while (s[n])
		n++;
	return n;
}

VOID FreePool(VOID *p)
{
	BS->FreePool(p);
}

EFI_FILE_HANDLE LibOpenRoot(EFI_HANDLE device)
{
	static EFI_GUID fs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs = NULL;
	EFI_FILE_HANDLE root = NULL;

	if (EFI_ERROR(BS->HandleProtocol(device, &fs_guid, (VOID **)&fs)) || !fs ||
	    EFI_ERROR(fs->OpenVolume(fs, &root)))
		return NULL;
	return root;
}

/* GetInfo of type *id into a pool buffer of the size it asks for. */
static VOID *file_info(EFI_FILE_HANDLE fh, EFI_GUID *id)
{
	UINTN size = 0;
	VOID *buf = NULL;
	EFI_STATUS s = fh->GetInfo(fh, id, &size, NULL);

	if (s != EFI_BUFFER_TOO_SMALL || EFI_ERROR(BS->AllocatePool(pool_type, size, &buf)))
		return NULL;
	if (EFI_ERROR(fh->GetInfo(fh, id, &size, buf))) {
		BS->FreePool(buf);
		return NULL;
	}
	return buf;
}

EFI_FILE_INFO *LibFileInfo(EFI_FILE_HANDLE fh)
{
	static EFI_GUID id = EFI_FILE_INFO_ID;

	return file_info(fh, &id);
}

EFI_FILE_SYSTEM_INFO *LibFileSystemInfo(EFI_FILE_HANDLE fh)
{
	static EFI_GUID id = EFI_FILE_SYSTEM_INFO_ID;

	return file_info(fh, &id);
}

/* The device's path (if it has one) up to its end node, then a file path
 * node for name, then the end node; in one pool buffer. */
EFI_DEVICE_PATH *FileDevicePath(EFI_HANDLE device, CHAR16 *name)
{
	static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	EFI_DEVICE_PATH *dev = NULL;
	UINTN head = 0, node = SIZE_OF_FILEPATH_DEVICE_PATH + (StrLen(name) + 1) * sizeof(CHAR16);
	UINT8 *buf;

	if (node > 0xffff)
		return NULL;
	if (device && !EFI_ERROR(BS->HandleProtocol(device, &dp_guid, (VOID **)&dev)) && dev)
		for (UINT8 *p = (UINT8 *)dev; p[0] != END_DEVICE_PATH_TYPE;) {
			UINTN len = p[2] | (UINTN)p[3] << 8;
			if (len < 4)
				return NULL;
			head += len;
			p += len;
		}
	if (EFI_ERROR(BS->AllocatePool(pool_type, head + node + 4, (VOID **)&buf)))
		return NULL;
	CopyMem(buf, dev, head);
	UINT8 *f = buf + head;
	f[0] = MEDIA_DEVICE_PATH;
	f[1] = MEDIA_FILEPATH_DP;
	f[2] = (UINT8)node;
	f[3] = (UINT8)(node >> 8);
	CopyMem(f + SIZE_OF_FILEPATH_DEVICE_PATH, name, node - SIZE_OF_FILEPATH_DEVICE_PATH);
	f += node;
	f[0] = END_DEVICE_PATH_TYPE;
	f[1] = END_ENTIRE_DEVICE_PATH_SUBTYPE;
	f[2] = 4;
	f[3] = 0;
	return (EFI_DEVICE_PATH *)buf;
}
