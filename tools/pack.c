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

#include "../drivers/base/unpack.h"
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

/* pack IN.so OUT.so OUT.zdata: OUT.zdata is the .zdata section for the
 * bytes of IN.so's .data; OUT.so is IN.so with .data marked as holding no
 * bytes in the file (SHT_NOBITS), so that objcopy writes the PE section
 * with its size and no raw data. */
int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: pack IN.so OUT.so OUT.zdata\n");
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
