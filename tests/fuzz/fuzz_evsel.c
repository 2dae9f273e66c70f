/* libFuzzer harness for the event parser (drivers/evsel.c): any input
 * either parses to a valid encoding or fails with a message; nothing
 * crashes, reads out of bounds or overflows (ASan + UBSan). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/evsel.h"

static enum unc_status check(void *ctx, const char *piece)
{
	struct ev_spec e;
	char err[200];

	(void)ctx;
	err[0] = 'x';
	if (evsel_parse(piece, &e, err, sizeof(err)) == UNC_OK) {
		/* Table 2-7's writable bits, or the fixed counter's CNT_EN */
		if (evsel_encode(&e) & ~0x1FD4FFFFull)
			abort();
		if (!memchr(e.name, '\0', sizeof(e.name)) || !e.counters)
			abort();
	} else if (!memchr(err, '\0', sizeof(err)) || err[0] == '\0') {
		abort(); /* every failure says something */
	}
	return UNC_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[256], err[200];

	if (size >= sizeof(s))
		size = sizeof(s) - 1;
	memcpy(s, data, size);
	s[size] = '\0';
	evsel_split(s, check, NULL, err, sizeof(err));
	return 0;
}
