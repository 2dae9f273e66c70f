/* The built-in memory load: STREAM's kernels over arrays of doubles, a
 * 64-byte line at a time in SSE2, or AVX where the processor and its
 * firmware allow it; stores through the cache, or non-temporal ones (--nt).
 * Built for the EFI application (with flags of its own, LOAD_OPT in the
 * Makefile) and for the host tests; `make bench` measures the EFI object
 * itself against the same loops built the way STREAM is built. */
#ifndef UNC_LOAD_H
#define UNC_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/hw.h"

enum load_kind { LOAD_READ, LOAD_WRITE, LOAD_COPY, LOAD_TRIAD, LOAD_NKINDS };

struct load_arrays {
	double *a, *b, *c; /* n elements each; any alignment a double may have */
	size_t n;
	unsigned how; /* LOAD_AVX, LOAD_ERMS: what load_choose allows on the processor running the kernel */
};

/* How the kernels may run, chosen by load_choose for the processor that runs
 * them (0: SSE2 alone, which every x86-64 processor has):
 *  LOAD_AVX   32-byte AVX loads and stores (write, and write --nt);
 *  LOAD_ERMS  rep stosq for write without AVX (fast strings). */
#define LOAD_AVX  1u
#define LOAD_ERMS 2u

/* From the CPUID of the processor that runs the kernels (hw: its own, not an
 * emulator's) and, only when CPUID says the firmware enabled XGETBV
 * (OSXSAVE), its XCR0 read by xcr0: AVX needs the AVX flag and XCR0's SSE and
 * AVX state both enabled. Each processor chooses for itself: the firmware
 * may have enabled the AVX state on one and not another. */
unsigned load_choose(const struct hw *hw, uint64_t (*xcr0)(void));
/* "SSE2", "AVX", "SSE2, rep stosq", ... */
const char *load_how_name(unsigned how);

/* "read", "write", "copy", "triad"; -1 when unknown. */
int load_kind_parse(const char *s);
const char *load_kind_name(enum load_kind k);

/* Bytes one element moves, counted as STREAM counts: read 8 (b), write 8
 * (a), copy 16 (b read, a written), triad 24 (b, c read, a written). */
unsigned load_bytes_per_element(enum load_kind k);

/* Runs kernel k over elements [lo, hi): a = SCALAR (write), a = b (copy),
 * a = b + SCALAR * c (triad), or sums b into load_sink (read). Returns the
 * bytes moved, STREAM's way. Any lo and hi: with nt every store is
 * non-temporal, the odd elements' too. */
#define LOAD_SCALAR 3.0
uint64_t load_pass(enum load_kind k, bool nt, const struct load_arrays *arr, size_t lo, size_t hi);

/* Elements the application gives load_pass at a time: 1 MiB of doubles
 * per array (`make bench` runs the kernels the same way). */
#define LOAD_CHUNK 131072

/* Elements per array for a working set of at least `size` bytes over the
 * three arrays, rounded up to an even count (processors' slices are split
 * on pairs).
 * size 0 asks for the default: 4x llc_bytes (the largest cache), and at
 * least LOAD_MIN_DEFAULT. The working set is then 3 x 8 x the result. */
#define LOAD_MIN_DEFAULT (64ull << 20)
uint64_t load_elements(uint64_t size, uint64_t llc_bytes);

/* Where read passes leave their sum, so that they are not optimised away. */
extern volatile double load_sink;

#endif
