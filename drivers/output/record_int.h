/* What record.c and record_values.c share: a little-endian field read,
 * and the boxes of layout 1 and 2's fixed-size samples. */
#ifndef UNC_RECORD_INT_H
#define UNC_RECORD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"

/* The samples' tags (the other tags are in record.c's tables). */
#define TAG_SAMPLE  0x0048 /* t, then per event: running and boxes 0-3 */
#define TAG_SAMPLE8 0x0049 /* t, then per event: running and boxes 0-7 (more than 4 CBos) */
#define TAG_SAMPLE16 0x004B /* t, then per event: running and boxes 0-15 (more than 8 boxes) */
#define TAG_SAMPLE_N 0x004C /* layout 3: t, then per event: running and each of its boxes */
#define OLD_SAMPLE(tag) ((tag) == TAG_SAMPLE || (tag) == TAG_SAMPLE8 || (tag) == TAG_SAMPLE16)

static inline uint64_t get_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i > 0; i--)
		v = v << 8 | p[i - 1];
	return v;
}

static inline size_t sample_boxes(uint16_t tag)
{
	return tag == TAG_SAMPLE16 ? 16 : tag == TAG_SAMPLE8 ? 8 : 4;
}

/* Whether t is an EFI_TIME in its ranges, or not set at all; if not, why
 * ("has month 13 (1 to 12)"). record_values.c. */
bool rec_time_check(const struct rec_time *t, char *why, size_t size);

#endif
