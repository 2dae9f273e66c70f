/* The image's own relocation (efi/reloc.c): DT_RELR address and bitmap
 * entries and DT_RELA relative entries, each word checked against the
 * ELF gABI's definition (a relative relocation adds the load base). */
#include <string.h>

#include "../../efi/reloc.h"
#include "t.h"

#define WORDS 200
#define TABLE 160 /* the relocation tables sit in the image from this word */

static uint64_t img[WORDS];

static uintptr_t base(void) { return (uintptr_t)img; }

static void fill(void)
{
	for (int i = 0; i < TABLE; i++)
		img[i] = 0x1000u + 8u * (unsigned)i; /* link-time addresses, loaded at 0 */
}

/* Words 10 (an address entry), then from 11 a bitmap: 11, 13 and 73 (bits
 * 1, 3 and 63), then the next bitmap from 74: 74 and 136 (bits 1 and 63). */
static void relr_addresses_and_bitmaps(void)
{
	fill();
	img[TABLE + 0] = 10 * 8;
	img[TABLE + 1] = 1 | 1ull << 1 | 1ull << 3 | 1ull << 63;
	img[TABLE + 2] = 1 | 1ull << 1 | 1ull << 63;
	img[TABLE + 3] = 150 * 8; /* a second address entry */
	struct elf_dyn dyn[] = { { 36, TABLE * 8 }, { 35, 4 * 8 }, { 37, 8 }, { 0, 0 } };
	T_EQ(elf_relocate(base(), dyn), 0);
	for (int i = 0; i < TABLE; i++) {
		int moved = i == 10 || i == 11 || i == 13 || i == 73 || i == 74 || i == 136 || i == 150;
		uint64_t want = 0x1000u + 8u * (unsigned)i + (moved ? base() : 0);
		if (img[i] != want)
			t_fail(__FILE__, __LINE__, "word %d: 0x%llx, want 0x%llx", i, (unsigned long long)img[i],
			       (unsigned long long)want);
	}
}

static void rela_relative_sets_base_plus_addend(void)
{
	fill();
	uint64_t *r = &img[TABLE];
	r[0] = 5 * 8, r[1] = 8 /* R_X86_64_RELATIVE */, r[2] = 0x2345;
	r[3] = 6 * 8, r[4] = 0 /* R_X86_64_NONE */, r[5] = 0x99;
	struct elf_dyn dyn[] = { { 7, TABLE * 8 }, { 8, 48 }, { 9, 24 }, { 0, 0 } };
	T_EQ(elf_relocate(base(), dyn), 0);
	T_EQ(img[5], base() + 0x2345);
	T_EQ(img[6], 0x1000u + 6 * 8);
	T_EQ(img[4], 0x1000u + 4 * 8);
}

static void refuses_what_it_cannot_apply(void)
{
	fill();
	uint64_t *r = &img[TABLE];
	r[0] = 5 * 8, r[1] = 1 /* R_X86_64_64: needs a symbol */, r[2] = 0;
	struct elf_dyn rela[] = { { 7, TABLE * 8 }, { 8, 24 }, { 9, 24 }, { 0, 0 } };
	T_EQ(elf_relocate(base(), rela), -1);
	r[0] = 1 | 1ull << 1; /* a bitmap with no address before it */
	struct elf_dyn relr[] = { { 36, TABLE * 8 }, { 35, 8 }, { 37, 8 }, { 0, 0 } };
	T_EQ(elf_relocate(base(), relr), -1);
	struct elf_dyn none[] = { { 0, 0 } };
	T_EQ(elf_relocate(base(), none), 0);
}

T_MAIN("reloc", T_CASE(relr_addresses_and_bitmaps), T_CASE(rela_relative_sets_base_plus_addend),
       T_CASE(refuses_what_it_cannot_apply))
