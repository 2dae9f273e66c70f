/* The host's side of pool.h (the tests, the decoder, the fuzzers): the C
 * library's heap. The application's is efi/vars.c's (a freestanding build
 * has no heap of its own, and compiles nothing here). */
#include "pool.h"

#if __STDC_HOSTED__
#include <stdlib.h>

void *unc_alloc(size_t size)
{
	return calloc(1, size ? size : 1);
}

void unc_free(void *p)
{
	free(p);
}
#endif
