/* The yardstick for the load kernels in `make bench`: each kernel as a
 * plain C loop in one OpenMP parallel loop, built the way STREAM is built
 * (gcc -O3 -march=native -fopenmp, see the Makefile), stores through the
 * cache. The sum is an OpenMP simd reduction, so that the compiler may
 * reorder the additions (the application's read kernel does too); the other
 * loops vectorise as they stand. */
#include "load_ref.h"

volatile double ref_sink;

void ref_read(const double *restrict b, size_t n, int threads)
{
	double s = 0;

#pragma omp parallel for simd num_threads(threads) reduction(+ : s)
	for (size_t i = 0; i < n; i++)
		s += b[i];
	ref_sink = s;
}

void ref_write(double *restrict a, size_t n, int threads)
{
#pragma omp parallel for num_threads(threads)
	for (size_t i = 0; i < n; i++)
		a[i] = REF_SCALAR;
}

void ref_copy(double *restrict a, const double *restrict b, size_t n, int threads)
{
#pragma omp parallel for num_threads(threads)
	for (size_t i = 0; i < n; i++)
		a[i] = b[i];
}

void ref_triad(double *restrict a, const double *restrict b, const double *restrict c, size_t n, int threads)
{
#pragma omp parallel for num_threads(threads)
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + REF_SCALAR * c[i];
}
