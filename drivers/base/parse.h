/* Strict number parsing for command lines and option strings. */
#ifndef UNC_PARSE_H
#define UNC_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include "hw.h"

/* Whole-string unsigned integer: "0x" prefix for hex, otherwise decimal.
 * Rejects empty strings, signs, junk and values above max. */
bool parse_u64(const char *s, uint64_t max, uint64_t *ret_val);

/* "B:D.F" in hex as lspci prints it: bus 0-ff, device 0-1f, function 0-7. */
bool parse_pci_bdf(const char *s, struct pci_addr *ret);

/* "1500", "2.5M", "0.25": decimal digits with an optional fraction (at
 * most 9 digits) and an optional k/M/G suffix (10^3/10^6/10^9), times
 * `scale`; the result must be a whole number no larger than max. */
bool parse_decimal(const char *s, uint64_t scale, uint64_t max, uint64_t *ret_val);

/* The same without a suffix ("1.5", never "1.5k"): for quantities that
 * already have their unit (seconds, MHz). */
bool parse_plain_decimal(const char *s, uint64_t scale, uint64_t max, uint64_t *ret_val);

/* ASCII case-insensitive string equality. */
bool str_ieq(const char *a, const char *b);
/* An ASCII case-insensitive hash (FNV-1a over the lower-case bytes) of s,
 * continuing from h: STR_IHASH_INIT for a whole string, or the hash of a
 * prefix (hashing "UNC_M_" then "CAS_COUNT.RD" gives the hash of
 * "UNC_M_CAS_COUNT.RD"). tools/gen_events builds the event index with it. */
#define STR_IHASH_INIT 2166136261u
uint32_t str_ihash(uint32_t h, const char *s);

/* Whether name (any case) names a free-running counter: the manual's name,
 * perf's name, or perf's PMU/NAME/ form. */
bool free_name_matches(const char *name, const char *pmu, const char *manual, const char *perf_name);

#endif
