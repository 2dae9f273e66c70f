/* The packer of an EFI image's .data section (the format: drivers/base/unpack.h),
 * run by the build on each image's .so (main, below). The packed stream is
 * checked by unpacking it again with the image's own decoder before
 * anything is written.
 *
 * zlib's deflate writes the stream at its highest level, with each of its
 * memory levels (which also set how many symbols a block holds: a smaller
 * one often packs .data better) and each of its strategies for general
 * data and for data with short matches (filtered): the shortest is kept. */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../drivers/base/crc32.h"
#include "../drivers/base/unpack.h"
#include "../drivers/base/zimage.h"
#include "pack.h"

size_t pack_bound(size_t n)
{
	/* zlib's deflateBound for parameters other than its defaults, and a margin */
	return n + (n + 7) / 8 + (n + 63) / 64 + 64;
}

/* The raw deflate stream of in[0..n) with the given memory level and
 * strategy into out (room: pack_bound(n)); its size. */
static size_t deflate_with(uint8_t *out, const uint8_t *in, size_t n, int mem_level, int strategy)
{
	z_stream z;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, -15, mem_level, strategy) != Z_OK) {
		fprintf(stderr, "pack: zlib: %s\n", z.msg ? z.msg : "deflateInit2 failed");
		exit(1);
	}
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)pack_bound(n);
	if (n > 0xffffffffu || deflate(&z, Z_FINISH) != Z_STREAM_END) {
		fprintf(stderr, "pack: zlib: %s\n", z.msg ? z.msg : "deflate did not finish");
		exit(1);
	}
	size_t m = z.total_out;
	deflateEnd(&z);
	return m;
}

size_t pack(uint8_t *out, const uint8_t *in, size_t n)
{
	uint8_t *other = malloc(pack_bound(n));
	size_t m = SIZE_MAX;

	if (!other) {
		fprintf(stderr, "pack: out of memory\n");
		exit(1);
	}
	for (int level = 1; level <= MAX_MEM_LEVEL; level++)
		for (int k = 0; k < 2; k++) {
			size_t f = deflate_with(other, in, n, level, k ? Z_FILTERED : Z_DEFAULT_STRATEGY);
			if (f < m)
				memcpy(out, other, m = f);
		}
	free(other);
	return m;
}

size_t pack_zimage(uint8_t *out, const uint8_t *img, struct zimage *z)
{
	uint8_t *work = malloc(z->raw + 1);

	if (!work) {
		fprintf(stderr, "pack: out of memory\n");
		exit(1);
	}
	z->crc = crc32_ieee(img, z->raw);
	memcpy(work, img, z->raw);
	zimage_filter(work, z->code, z->code + z->code_size, 1);
	z->packed = (uint32_t)pack(out + ZIMAGE_HEADER, work, z->raw);
	zimage_header(out, z);
	free(work);
	return ZIMAGE_HEADER + (size_t)z->packed;
}

#ifndef PACK_NO_MAIN
static uint8_t *read_file(const char *path, size_t *ret_n)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 20, n = 0;
	uint8_t *buf = malloc(cap);

	if (!f || !buf) {
		fprintf(stderr, "pack: %s: %s\n", path, f ? "out of memory" : strerror(errno));
		exit(1);
	}
	for (size_t got; (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap && !(buf = realloc(buf, cap *= 2))) {
			fprintf(stderr, "pack: %s: out of memory\n", path);
			exit(1);
		}
	}
	fclose(f);
	*ret_n = n;
	return buf;
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		fprintf(stderr, "pack: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static void put32(uint8_t *p, size_t v)
{
	for (int k = 0; k < 4; k++)
		p[k] = (uint8_t)(v >> 8 * k);
}

/* The section header of the section named name. */
static Elf64_Shdr *find_section(uint8_t *elf, size_t n, const char *name)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)elf;

	if (n < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > n ||
	    (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > n - eh->e_shoff || eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	Elf64_Shdr *sh = (Elf64_Shdr *)(elf + eh->e_shoff), *str = &sh[eh->e_shstrndx];
	if (str->sh_offset > n || str->sh_size > n - str->sh_offset)
		return NULL;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		size_t at = sh[i].sh_name, len = strlen(name);
		if (at < str->sh_size && str->sh_size - at > len && !memcmp(elf + str->sh_offset + at, name, len + 1))
			return &sh[i];
	}
	return NULL;
}

/* A relocated word at offset at: 1 (said) if it is not inside the image
 * of memory bytes or falls in the code's pages [code, code_end). */
static int bad_relocation(const char *path, uint64_t at, uint32_t memory, uint32_t code, uint32_t code_end)
{
	if (at <= memory - 8 && (at + 8 <= code || at >= code_end))
		return 0;
	fprintf(stderr, "pack: %s: relocation at 0x%llx is %s\n", path, (unsigned long long)at,
		at > memory - 8 ? "not inside the image" : "in the code");
	return 1;
}

/* The application's memory image from IN.so's loaded segments (its base
 * at 0), packed with its header (drivers/base/zimage.h) into OUT; its code
 * is the one executable segment. Checked before anything is written: the
 * relocations (the .relr section) fall inside the image and in no page of
 * the code, and the blob unpacks, with the stub's decoder, to the image. */
static int pack_image(const char *in_path, const char *out_path)
{
	size_t n;
	uint8_t *elf = read_file(in_path, &n);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)elf;
	struct zimage z = { 0 };
	uint32_t low = UINT32_MAX, code_end = 0;
	int codes = 0;

	if (n < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > n ||
	    (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > n - eh->e_phoff) {
		fprintf(stderr, "pack: %s: not a 64-bit ELF file with program headers\n", in_path);
		return 1;
	}
	Elf64_Phdr *ph = (Elf64_Phdr *)(elf + eh->e_phoff);
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_filesz > ph[i].p_memsz || ph[i].p_offset > n || ph[i].p_filesz > n - ph[i].p_offset ||
		    ph[i].p_vaddr + ph[i].p_memsz > ZIMAGE_MAX_MEMORY) {
			fprintf(stderr, "pack: %s: segment %u is not inside the file or is too large\n", in_path, i);
			return 1;
		}
		if (ph[i].p_vaddr < low)
			low = (uint32_t)ph[i].p_vaddr;
		uint32_t end = (uint32_t)(ph[i].p_vaddr + ph[i].p_memsz);
		if (end > z.memory)
			z.memory = end;
		if (ph[i].p_flags & PF_X) {
			codes++;
			z.code = (uint32_t)ph[i].p_vaddr;
			z.code_size = (uint32_t)ph[i].p_memsz;
			code_end = (z.code_size + z.code + ZIMAGE_PAGE - 1) / ZIMAGE_PAGE * ZIMAGE_PAGE;
		}
	}
	if (low || codes != 1 || z.code % ZIMAGE_PAGE) {
		fprintf(stderr, "pack: %s: not an image based at 0 with one executable segment on a page boundary\n", in_path);
		return 1;
	}
	z.memory = (z.memory + ZIMAGE_PAGE - 1) / ZIMAGE_PAGE * ZIMAGE_PAGE;
	z.entry = (uint32_t)eh->e_entry;
	uint8_t *img = calloc(z.memory, 1), *back = malloc(z.memory), *out = malloc(ZIMAGE_HEADER + pack_bound(z.memory));
	if (!img || !back || !out) {
		fprintf(stderr, "pack: out of memory\n");
		return 1;
	}
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (!(ph[i].p_flags & PF_X) && ph[i].p_vaddr < code_end && ph[i].p_vaddr + ph[i].p_memsz > z.code) {
			fprintf(stderr, "pack: %s: segment %u shares a page with the code\n", in_path, i);
			return 1;
		}
		memcpy(img + ph[i].p_vaddr, elf + ph[i].p_offset, ph[i].p_filesz);
	}
	Elf64_Shdr *zdata = find_section(elf, n, ".zdata");
	if (zdata && (zdata->sh_addr + 4 > z.memory || img[zdata->sh_addr] | img[zdata->sh_addr + 1] |
						      img[zdata->sh_addr + 2] | img[zdata->sh_addr + 3])) {
		fprintf(stderr, "pack: %s: its .data is packed already (.zdata)\n", in_path);
		return 1;
	}
	for (z.raw = z.memory; z.raw && !img[z.raw - 1]; z.raw--)
		;
	/* the relocations (DT_RELR: an even word is the address of the next
	 * word to relocate, an odd one a bitmap of the 63 words after the last
	 * one): each inside the image, none in the code's pages */
	Elf64_Shdr *relr = find_section(elf, n, ".relr");
	if (relr && relr->sh_size) {
		if (relr->sh_offset > n || relr->sh_size > n - relr->sh_offset || relr->sh_size % 8) {
			fprintf(stderr, "pack: %s: its .relr section is not inside the file\n", in_path);
			return 1;
		}
		uint64_t where = UINT64_MAX; /* the word after the last address entry's */
		for (uint64_t k = 0; k < relr->sh_size / 8; k++) {
			uint64_t e;
			memcpy(&e, elf + relr->sh_offset + 8 * k, 8);
			if (!(e & 1)) {
				if (bad_relocation(in_path, e, z.memory, z.code, code_end))
					return 1;
				where = e + 8;
				continue;
			}
			if (where == UINT64_MAX) {
				fprintf(stderr, "pack: %s: a .relr bitmap before any address\n", in_path);
				return 1;
			}
			for (unsigned bit = 1; bit < 64; bit++)
				if (e >> bit & 1 && bad_relocation(in_path, where + 8 * (bit - 1), z.memory, z.code, code_end))
					return 1;
			where += 63 * 8;
		}
	}
	const char *why;
	size_t total = pack_zimage(out, img, &z);
	struct zimage got;
	memset(back, 0xa5, z.memory);
	if ((why = zimage_parse(&got, out, total)) || (why = zimage_unpack(back, &got)) ||
	    memcmp(back, img, z.memory)) {
		fprintf(stderr, "pack: %s: the packed image does not unpack to it: %s\n", in_path,
			why ? why : "other bytes");
		return 1;
	}
	write_file(out_path, out, total);
	return 0;
}

/* pack IN.so OUT.so OUT.zdata: OUT.zdata is the .zdata section for the
 * bytes of IN.so's .data; OUT.so is IN.so with .data marked as holding no
 * bytes in the file (SHT_NOBITS), so that objcopy writes the PE section
 * with its size and no raw data. */
int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--image"))
		return pack_image(argv[2], argv[3]);
	if (argc != 4) {
		fprintf(stderr, "usage: pack IN.so OUT.so OUT.zdata | pack --image IN.so OUT.zimg\n");
		return 2;
	}
	size_t n;
	uint8_t *elf = read_file(argv[1], &n);
	Elf64_Shdr *data = find_section(elf, n, ".data");
	if (!data || data->sh_type != SHT_PROGBITS || data->sh_offset > n || data->sh_size > n - data->sh_offset ||
	    data->sh_size > 0xffffffffu) {
		fprintf(stderr, "pack: %s: not an ELF file with a .data section\n", argv[1]);
		return 1;
	}
	const uint8_t *in = elf + data->sh_offset;
	size_t size = data->sh_size;
	uint8_t *out = malloc(8 + pack_bound(size)), *back = malloc(size + 1);
	if (!out || !back) {
		fprintf(stderr, "pack: out of memory\n");
		return 1;
	}
	size_t m = pack(out + 8, in, size);
	if (m > 0xffffffffu || unc_unpack(back, size, out + 8, m) != size || memcmp(back, in, size)) {
		fprintf(stderr, "pack: %s: the packed .data does not unpack to the section\n", argv[1]);
		return 1;
	}
	put32(out, m);
	put32(out + 4, size);
	data->sh_type = SHT_NOBITS;
	write_file(argv[2], elf, n);
	write_file(argv[3], out, 8 + m);
	return 0;
}
#endif
