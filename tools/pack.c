/* The packer of an EFI image's .data section (the format: drivers/base/unpack.h),
 * run by the build on each image's .so (main, below). The packed stream is
 * checked by unpacking it again before anything is written.
 *
 * The parse is close to the cheapest for the format: for each position, the
 * longest earlier match (found through hash chains of 3-byte prefixes),
 * then a pass from the end that takes, at each position, a literal or a
 * match (of the longest length or of a short one), whichever leaves fewer
 * bytes to the end. */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../drivers/base/unpack.h"
#include "pack.h"

#define HASH_BITS 16
#define MAX_CHAIN 1024 /* candidates tried per position */
#define MAX_LEN 512    /* the longest match looked for (a long run is a few) */
#define NEAR_LEN 64    /* shorter lengths tried by the parse, beside the longest */

static unsigned hash3(const uint8_t *p)
{
	return ((unsigned)p[0] << 16 | (unsigned)p[1] << 8 | p[2]) * 2654435761u >> (32 - HASH_BITS);
}

/* Bytes a count of n takes past its 4 bits in the token. */
static size_t extra(size_t n)
{
	return n < 15 ? 0 : (n - 15) / 255 + 1;
}

static void put_count(uint8_t *out, size_t *o, size_t n)
{
	if (n < 15)
		return;
	for (n -= 15; n >= 255; n -= 255)
		out[(*o)++] = 255;
	out[(*o)++] = (uint8_t)n;
}

size_t pack_bound(size_t n)
{
	return n + n / 255 + 16;
}

size_t pack(uint8_t *out, const uint8_t *in, size_t n)
{
	size_t *len = calloc(n + 1, sizeof(*len)), *off = calloc(n + 1, sizeof(*off));
	size_t *cost = calloc(n + 1, sizeof(*cost)), *take = calloc(n + 1, sizeof(*take));
	long *head = malloc(sizeof(*head) << HASH_BITS), *prev = calloc(n + 1, sizeof(*prev));
	size_t o = 0;

	if (!len || !off || !cost || !take || !head || !prev) {
		fprintf(stderr, "pack: out of memory\n");
		exit(1);
	}
	for (size_t h = 0; h < (size_t)1 << HASH_BITS; h++)
		head[h] = -1;
	/* The longest match at each position. */
	for (size_t i = 0; i + UNC_PACK_MIN_MATCH <= n; i++) {
		unsigned h = hash3(in + i);
		unsigned tries = 0;
		for (long c = head[h]; c >= 0 && i - (size_t)c <= UNC_PACK_MAX_OFFSET && tries < MAX_CHAIN;
		     c = prev[c], tries++) {
			size_t l = 0;
			while (i + l < n && l < MAX_LEN && in[c + l] == in[i + l])
				l++;
			if (l > len[i]) {
				len[i] = l;
				off[i] = i - (size_t)c;
				if (l == MAX_LEN)
					break;
			}
		}
		prev[i] = head[h];
		head[h] = (long)i;
	}
	/* cost[i]: the fewest bytes for in[i..n), counting a literal as one
	 * byte and a match as its token, offset and extra length bytes (the
	 * literal run's extra count bytes are left out: rare in this data). */
	for (size_t i = n; i-- > 0;) {
		cost[i] = cost[i + 1] + 1;
		take[i] = 0;
		for (size_t l = UNC_PACK_MIN_MATCH; l <= len[i]; l = l < NEAR_LEN || l == len[i] ? l + 1 : len[i]) {
			size_t c = cost[i + l] + 3 + extra(l - UNC_PACK_MIN_MATCH);
			if (c < cost[i]) {
				cost[i] = c;
				take[i] = l;
			}
		}
	}
	size_t lit_at = 0;
	for (size_t i = 0; i <= n;) {
		if (i < n && !take[i]) {
			i++;
			continue;
		}
		size_t lit = i - lit_at, m = i < n ? take[i] : 0;
		size_t mc = m ? m - UNC_PACK_MIN_MATCH : 0;
		out[o++] = (uint8_t)((lit < 15 ? lit : 15) << 4 | (mc < 15 ? mc : 15));
		put_count(out, &o, lit);
		memcpy(out + o, in + lit_at, lit);
		o += lit;
		if (i == n)
			break;
		out[o++] = (uint8_t)off[i];
		out[o++] = (uint8_t)(off[i] >> 8);
		put_count(out, &o, mc);
		i += m;
		lit_at = i;
	}
	free(len);
	free(off);
	free(cost);
	free(take);
	free(head);
	free(prev);
	return o;
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
