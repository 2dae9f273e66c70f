/* `make bench`: uncore.efi's packed application (build/uncore.zimg, the
 * format of drivers/base/zimage.h): its sizes, what its code alone packs
 * to, and the time the stub takes to unpack it (the decoder, the filter
 * and the CRC, built as the stub builds them), on this host.
 *   bench_unpack FILE.zimg N: unpacks it N times; unpack_once() is what
 *   callgrind counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PACK_NO_MAIN
#include "../../tools/pack.c"

__attribute__((noinline)) const char *unpack_once(uint8_t *dst, const struct zimage *z);
__attribute__((noinline)) const char *unpack_once(uint8_t *dst, const struct zimage *z)
{
	return zimage_unpack(dst, z);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: bench_unpack FILE.zimg N\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	static uint8_t blob[1 << 22];
	size_t n = f ? fread(blob, 1, sizeof(blob), f) : 0;
	if (f)
		fclose(f);
	struct zimage z;
	const char *why = zimage_parse(&z, blob, n);
	if (why) {
		fprintf(stderr, "bench_unpack: %s: %s\n", argv[1], why);
		return 1;
	}
	uint8_t *img = malloc(z.memory), *code = malloc(pack_bound(z.code_size));
	if (!img || !code || (why = unpack_once(img, &z))) {
		fprintf(stderr, "bench_unpack: %s: %s\n", argv[1], why ? why : "out of memory");
		return 1;
	}
	printf("the application (build/uncore.so) in memory: %u bytes; %u up to its last non-zero byte\n", z.memory,
	       z.raw);
	printf("packed (build/uncore.zimg): %zu bytes (a %d-byte header and the stream), %.1f%% of %u\n", n,
	       ZIMAGE_HEADER, 100.0 * (double)z.packed / z.raw, z.raw);
	uint8_t *c = malloc(z.code_size);
	memcpy(c, img + z.code, z.code_size);
	size_t raw_code = pack(code, c, z.code_size);
	zimage_filter(img, z.code, z.code + z.code_size, 1);
	size_t filtered = pack(code, img + z.code, z.code_size);
	printf("its code (%u bytes) packed alone: %zu bytes through the branch filter, %zu without\n", z.code_size,
	       filtered, raw_code);
	long runs = atol(argv[2]);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < runs; i++)
		if (unpack_once(img, &z))
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ms = ((double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6) / (double)runs;
	printf("unpacking it (inflate, filter, CRC-32) on this host: %.2f ms (mean of %ld)\n", ms, runs);
	free(c);
	free(code);
	free(img);
	return 0;
}
