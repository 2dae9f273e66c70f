/* 64-bit arithmetic the EFI build cannot leave to libgcc (no 128-bit
 * division there). */
#ifndef UNC_ARITH_H
#define UNC_ARITH_H

#include <stdint.h>

/* floor(a * b / d), exact for any a, b and d > 0; UINT64_MAX when the
 * result does not fit (or d is 0). */
uint64_t u64_muldiv(uint64_t a, uint64_t b, uint64_t d);

#endif
