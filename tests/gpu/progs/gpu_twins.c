/*
 * gpu_twins.c - the C twins of the GPU suite's kernels (tests/gpu/progs),
 * so that the same nvcc-built programs run on hipemu's CUDA face, the
 * suite's CPU counterpart in make check (tests/hipemu/README.md, "The
 * CUDA face": a twin does the whole grid's work, on the stream's worker).
 * Loaded through HIPEMU_KERNELS.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "hipemu.h"

static unsigned threads(const hipemu_launch *l)
{
	return l->grid.x * l->grid.y * l->grid.z * l->block.x * l->block.y *
	       l->block.z;
}

static void sleep_ns(long long ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };

	if (ns > 0)
		nanosleep(&ts, NULL);
}

/* lb_spin(long long ns, int *out): busy for ns, then *out += 1 */
HIPEMU_TWIN(_Z7lb_spinxPi)
{
	int *out = *(int **)args[1];

	(void)launch;
	sleep_ns(*(long long *)args[0]);
	if (out)
		__atomic_add_fetch(out, 1, __ATOMIC_RELAXED);
}

/* imu_step(int *c): *c += 1 */
HIPEMU_TWIN(_Z8imu_stepPi)
{
	(void)launch;
	__atomic_add_fetch(*(int **)args[0], 1, __ATOMIC_RELAXED);
}

/* fill(int *p, int n, int v): p[i] = v + i */
HIPEMU_TWIN(_Z4fillPiii)
{
	int *p = *(int **)args[0];
	int n = *(int *)args[1], v = *(int *)args[2];

	for (unsigned i = 0; i < threads(launch) && (int)i < n; i++)
		p[i] = v + (int)i;
}

/* slow_sum(const unsigned char *a, size_t n, long long ns, u64 *out) */
HIPEMU_TWIN(_Z8slow_sumPKhmxPy)
{
	const unsigned char *a = *(const unsigned char **)args[0];
	size_t n = *(size_t *)args[1];
	unsigned long long *out = *(unsigned long long **)args[3];
	unsigned long long s = 0;

	(void)launch;
	sleep_ns(*(long long *)args[2]);
	for (size_t i = 0; i < n; i++)
		s += a[i];
	__atomic_add_fetch(out, s, __ATOMIC_RELAXED);
}

/* good_store(int *p, int v): p[t] = v for each thread t */
HIPEMU_TWIN(_Z10good_storePii)
{
	int *p = *(int **)args[0];

	for (unsigned i = 0; i < threads(launch); i++)
		p[i] = *(int *)args[1];
}

/*
 * bad_store(int *p): p[t + 2^28] = 1.  On a GPU the MMU faults and the
 * error comes at the next sync; here the CPU faults on the stream's
 * worker and the process dies of SIGSEGV, a crash the trace captures.
 */
HIPEMU_TWIN(_Z9bad_storePi)
{
	volatile int *p = *(int **)args[0];

	(void)launch;
	p[1 << 28] = 1;
}

/* put(int *p, int v): *p = v (callcost.cu) */
HIPEMU_TWIN(_Z3putPii)
{
	(void)launch;
	**(int **)args[0] = *(int *)args[1];
}

/* empty(void) */
HIPEMU_TWIN(_Z5emptyv)
{
	(void)launch;
	(void)args;
}
