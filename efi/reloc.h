#ifndef UNC_RELOC_H
#define UNC_RELOC_H

#include <stdint.h>

struct elf_dyn {
	int64_t tag;
	uint64_t val;
};

/* Applies the image's relative relocations (DT_RELA and DT_RELR) found
 * through DYN to the image loaded at BASE: 0, or -1 for a table it cannot
 * apply (a relocation other than R_X86_64_RELATIVE, a malformed table). */
int elf_relocate(uintptr_t base, const struct elf_dyn *dyn);

#endif
