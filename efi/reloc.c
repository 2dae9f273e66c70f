/* The image's own relocation, in place of gnu-efi's: crt0 calls _relocate
 * (efi/start.c) before efi_main. The image is linked with
 * -z pack-relative-relocs, so its relative relocations are a DT_RELR table
 * (8 bytes for an address, then one 8-byte bitmap for the next 63 words)
 * instead of 24 bytes each in DT_RELA; any DT_RELA entries left (relative
 * ones only) are applied as well. Runs before any relocation is applied:
 * it uses no pointer that would need one. */
#include <stdint.h>

#include "reloc.h"

#define DT_NULL    0
#define DT_RELA    7
#define DT_RELASZ  8
#define DT_RELAENT 9
#define DT_RELRSZ  35
#define DT_RELR    36
#define DT_RELRENT 37
#define R_X86_64_NONE     0
#define R_X86_64_RELATIVE 8

struct elf_rela {
	uint64_t offset;
	uint64_t info;
	int64_t addend;
};

int elf_relocate(uintptr_t base, const struct elf_dyn *dyn)
{
	uint64_t rela = 0, relasz = 0, relaent = 0, relr = 0, relrsz = 0, relrent = 0;
	for (; dyn->tag != DT_NULL; dyn++) {
		switch (dyn->tag) {
		case DT_RELA: rela = dyn->val; break;
		case DT_RELASZ: relasz = dyn->val; break;
		case DT_RELAENT: relaent = dyn->val; break;
		case DT_RELR: relr = dyn->val; break;
		case DT_RELRSZ: relrsz = dyn->val; break;
		case DT_RELRENT: relrent = dyn->val; break;
		default: break;
		}
	}
	if (relasz) {
		if (!rela || relaent < sizeof(struct elf_rela))
			return -1;
		for (uint64_t at = 0; at + relaent <= relasz; at += relaent) {
			const struct elf_rela *r = (const struct elf_rela *)(base + rela + at);
			uint32_t type = (uint32_t)r->info;
			if (type == R_X86_64_NONE)
				continue;
			if (type != R_X86_64_RELATIVE)
				return -1;
			*(uint64_t *)(base + r->offset) = base + (uint64_t)r->addend;
		}
	}
	if (relrsz) {
		if (!relr || relrent != sizeof(uint64_t))
			return -1;
		const uint64_t *e = (const uint64_t *)(base + relr);
		uint64_t *where = 0;
		for (uint64_t n = relrsz / sizeof(uint64_t); n; n--, e++) {
			if (!(*e & 1)) {
				where = (uint64_t *)(base + *e);
				*where++ += base;
				continue;
			}
			if (!where)
				return -1;
			for (uint64_t bits = *e >> 1, i = 0; bits; bits >>= 1, i++)
				if (bits & 1)
					where[i] += base;
			where += 63;
		}
	}
	return 0;
}
