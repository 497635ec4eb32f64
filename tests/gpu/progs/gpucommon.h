/*
 * gpucommon.h - what the GPU suite's programs share: error checks that
 * name the call, a monotonic clock, percentiles, a kernel that keeps
 * the GPU busy for a given time (the "camera's encoder") and one that
 * reads its buffer after a wait (slow_sum).
 *
 * Every program prints one line "name: key=value ..." that check_gpu.sh
 * reads, and exits 0 only if every result it computed was right.
 */
#ifndef GPUCOMMON_H
#define GPUCOMMON_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, \
		cudaGetErrorString(e_)); exit(3); } } while (0)

static inline double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The p-th percentile (0..100) of n samples; sorts them. */
static inline double pct(double *v, int n, double p)
{
	int i;

	if (n <= 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_d);
	i = (int)(p / 100.0 * (n - 1) + 0.5);
	return v[i];
}

/*
 * Busy for ns nanoseconds of the GPU's global timer, then out[0] += 1:
 * one thread is enough, the point is the time it holds its stream.
 * %globaltimer: PTX ISA, "Special Registers: %globaltimer" (ns).
 */
__global__ void lb_spin(long long ns, int *out)
{
	unsigned long long t0, t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	do
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	while ((long long)(t - t0) < ns);
	if (out)
		atomicAdd(out, 1);
}

/*
 * Waits ns of the global timer, then adds the n bytes of a to *out (the
 * block's threads each a stride): a kernel that reads its buffer only
 * after a while, so that a write another thread or a reallocation makes
 * meanwhile changes the sum (reuse.cu, handoff.cu).
 */
__global__ void slow_sum(const unsigned char *a, size_t n, long long ns,
			 unsigned long long *out)
{
	unsigned long long t0, t, s = 0;
	size_t i;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	do
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	while ((long long)(t - t0) < ns);
	for (i = threadIdx.x; i < n; i += blockDim.x)
		s += a[i];
	atomicAdd(out, s);
}

#endif
