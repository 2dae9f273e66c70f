/* The outer image of uncore.efi: it carries the application packed
 * (drivers/base/zimage.h, build/uncore.zimg, efi/zimage.S) and starts it.
 * It unpacks the application's memory image into pages of its own, makes
 * the code's pages executable (and read-only) where the firmware has the
 * memory attribute protocol, and calls the application's entry point with
 * its own image handle and system table, so that the application sees the
 * loaded image, the Shell's arguments and the device it came from as its
 * own. The application's entry (gnu-efi's crt0, then efi/start.c) applies
 * its relocations for the address it runs at. The pages are freed when it
 * returns, with its status. A blob that does not check out is never run:
 * one line on the error console, and EFI_LOAD_ERROR. */
#include <efi.h>

#include "../drivers/base/zimage.h"

#define HIDDEN __attribute__((visibility("hidden")))
extern const uint8_t zimage_start[] HIDDEN, zimage_end[] HIDDEN;

/* EFI_MEMORY_ATTRIBUTE_PROTOCOL (UEFI 2.10, 37.7) */
#define MEMORY_ATTRIBUTE_GUID { 0xf4560cf6, 0x40ec, 0x4b4a, { 0xa1, 0x92, 0xbf, 0x1d, 0x57, 0xd0, 0xb1, 0x89 } }
#define MEMORY_RO 0x20000ull /* EFI_MEMORY_RO */
struct memory_attribute {
	EFI_STATUS(EFIAPI *get)(struct memory_attribute *self, EFI_PHYSICAL_ADDRESS base, UINT64 len, UINT64 *attr);
	EFI_STATUS(EFIAPI *set)(struct memory_attribute *self, EFI_PHYSICAL_ADDRESS base, UINT64 len, UINT64 attr);
	EFI_STATUS(EFIAPI *clear)(struct memory_attribute *self, EFI_PHYSICAL_ADDRESS base, UINT64 len, UINT64 attr);
};

static EFI_STATUS fail(EFI_SYSTEM_TABLE *st, const char *why, EFI_STATUS status)
{
	static const char pfx[] = "uncore: error: ";
	CHAR16 line[120];
	unsigned n = 0;
	SIMPLE_TEXT_OUTPUT_INTERFACE *con = st->StdErr ? st->StdErr : st->ConOut;

	for (const char *s = pfx; *s && n < 100; s++)
		line[n++] = (CHAR16)*s;
	for (const char *s = why; *s && n < 100; s++)
		line[n++] = (CHAR16)*s;
	line[n++] = '\r', line[n++] = '\n', line[n] = 0;
	if (con)
		con->OutputString(con, line);
	return status;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_BOOT_SERVICES *bs = st->BootServices;
	EFI_GUID mem_guid = MEMORY_ATTRIBUTE_GUID;
	struct memory_attribute *ma = NULL;
	EFI_PHYSICAL_ADDRESS at = 0;
	struct zimage z;
	const char *why = zimage_parse(&z, zimage_start, (size_t)(zimage_end - zimage_start));

	if (why)
		return fail(st, why, EFI_LOAD_ERROR);
	UINTN pages = z.memory / ZIMAGE_PAGE;
	if (EFI_ERROR(bs->AllocatePages(AllocateAnyPages, EfiLoaderCode, pages, &at)))
		return fail(st, "no memory to unpack the application into", EFI_OUT_OF_RESOURCES);
	uint8_t *dst = (uint8_t *)(UINTN)at;
	if ((why = zimage_unpack(dst, &z))) {
		bs->FreePages(at, pages);
		return fail(st, why, EFI_LOAD_ERROR);
	}
	/* The code's pages, once written: executable, and read-only. */
	EFI_PHYSICAL_ADDRESS code = at + z.code;
	UINT64 code_len = (z.code_size + ZIMAGE_PAGE - 1) / ZIMAGE_PAGE * ZIMAGE_PAGE;
	if (EFI_ERROR(bs->LocateProtocol(&mem_guid, NULL, (void **)&ma)))
		ma = NULL;
	if (ma) {
		UINT64 attr = 0;
		ma->clear(ma, code, code_len, EFI_MEMORY_XP);
		if (!EFI_ERROR(ma->get(ma, code, code_len, &attr)) && (attr & EFI_MEMORY_XP)) {
			bs->FreePages(at, pages);
			return fail(st, "the firmware keeps the application's code pages non-executable", EFI_LOAD_ERROR);
		}
		ma->set(ma, code, code_len, MEMORY_RO);
	}
	EFI_STATUS(EFIAPI *entry)(EFI_HANDLE, EFI_SYSTEM_TABLE *) = (void *)(dst + z.entry);
	EFI_STATUS status = entry(image, st);
	if (ma)
		ma->clear(ma, code, code_len, MEMORY_RO);
	bs->FreePages(at, pages);
	return status;
}
