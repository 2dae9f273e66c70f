/* What gnu-efi's crt0 calls before efi_main (System V convention; it
 * ignores the result): unpack .data if the image stores it packed
 * (drivers/base/unpack.h), then apply the relocations (efi/reloc.c), found through
 * the linker script's symbols rather than the dynamic table, which the PE
 * file does not hold. Nothing here uses a pointer that needs relocating:
 * those symbols are reached relative to the code. */
#include <stdint.h>

#include "reloc.h"
#ifndef UNC_DATA_IN_PLACE
#include "../drivers/base/unpack.h"
#endif

#define HIDDEN __attribute__((visibility("hidden")))
extern uint8_t _data[] HIDDEN, _edata[] HIDDEN; /* .data (efi/image.lds) */
extern const uint8_t _zdata[] HIDDEN;          /* .zdata: sizes, then the stream */
extern const uint8_t ImageBase[] HIDDEN, _relr[] HIDDEN, _erelr[] HIDDEN; /* .relr */

static uint32_t get32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* uncore.efi's application is built with UNC_DATA_IN_PLACE: the stub
 * (efi/stub.c) unpacks it whole, .data included, so it carries no decoder. */
#ifdef UNC_DATA_IN_PLACE
static int unpack_data(void)
{
	return get32(_zdata) ? -1 : 0;
}
#else
static int unpack_data(void)
{
	uint32_t packed = get32(_zdata), size = get32(_zdata + 4);

	if (!packed)
		return 0;
	if (size != (size_t)(_edata - _data) || unc_unpack(_data, size, _zdata + 8, packed) != size)
		return -1;
	return 0;
}
#endif

long _relocate(long ldbase, const struct elf_dyn *dyn, void *image, void *systab);
long _relocate(long ldbase, const struct elf_dyn *dyn, void *image, void *systab)
{
	/* DT_RELR, DT_RELRSZ, DT_RELRENT (the linker script makes sure there is no DT_RELA) */
	const struct elf_dyn table[] = {
		{ 36, (uint64_t)(_relr - ImageBase) }, { 35, (uint64_t)(_erelr - _relr) }, { 37, 8 }, { 0, 0 },
	};

	(void)dyn;
	(void)image;
	(void)systab;
	if (unpack_data() || elf_relocate((uintptr_t)ldbase, table))
		return (long)0x8000000000000001ull; /* EFI_LOAD_ERROR */
	return 0;
}
