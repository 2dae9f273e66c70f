/* The reference loops `make bench` measures the load kernels against
 * (load_ref.c): n elements from the pointers given, on `threads` OpenMP
 * threads. */
#ifndef UNC_BENCH_LOAD_REF_H
#define UNC_BENCH_LOAD_REF_H

#include <stddef.h>

#define REF_SCALAR 3.0 /* the load's LOAD_SCALAR */

extern volatile double ref_sink; /* the read loop's sum */

void ref_read(const double *b, size_t n, int threads);
void ref_write(double *a, size_t n, int threads);
void ref_copy(double *a, const double *b, size_t n, int threads);
void ref_triad(double *a, const double *b, const double *c, size_t n, int threads);

#endif
