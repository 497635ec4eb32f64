/*
 * cuda_twins.c - the C twins of the CUDA face tests' kernels
 * (kernels.cuh, kern.cu), loaded through HIPEMU_KERNELS.
 *
 * None has a HIPEMU_ARGS table: their argument sizes must come from the
 * cubins' parameter tables (cuda_fatbin.c), which is what the tests check
 * (a launch without sizes waits for its kernel before it returns).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <time.h>
#include "hipemu.h"

static unsigned threads(const hipemu_launch *l)
{
	return l->grid.x * l->grid.y * l->grid.z * l->block.x * l->block.y *
	       l->block.z;
}

/* vecadd(float *c, const float *a, const float *b, int n) */
HIPEMU_TWIN(_Z6vecaddPfPKfS1_i)
{
	float *c = *(float **)args[0];
	const float *a = *(const float **)args[1];
	const float *b = *(const float **)args[2];
	int n = *(int *)args[3];

	for (unsigned i = 0; i < threads(launch) && (int)i < n; i++)
		c[i] = a[i] + b[i];
}

/* gate(volatile int *flag, int *seen, int ms) */
HIPEMU_TWIN(_Z4gatePViPii)
{
	int *flag = *(int **)args[0];
	int *seen = *(int **)args[1];
	int ms = *(int *)args[2];
	struct timespec ts = { 0, 1000000 };

	(void)launch;
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE) && ms-- > 0)
		nanosleep(&ts, NULL);
	__atomic_store_n(seen, __atomic_load_n(flag, __ATOMIC_ACQUIRE) ? 1 : 2,
			 __ATOMIC_RELEASE);
}

/* mark(int *m, int v) */
HIPEMU_TWIN(_Z4markPii)
{
	(void)launch;
	__atomic_store_n(*(int **)args[0], *(int *)args[1], __ATOMIC_RELEASE);
}

/* scale(float *d, int n, float k) */
HIPEMU_TWIN(_Z5scalePfif)
{
	float *d = *(float **)args[0];
	int n = *(int *)args[1];
	float k = *(float *)args[2];

	for (unsigned i = 0; i < threads(launch) && (int)i < n; i++)
		d[i] *= k;
}

/* extern "C" axpy(float a, const float *x, float *y, int n): y += a x */
HIPEMU_TWIN(axpy)
{
	float a = *(float *)args[0];
	const float *x = *(const float **)args[1];
	float *y = *(float **)args[2];
	int n = *(int *)args[3];

	for (unsigned i = 0; i < threads(launch) && (int)i < n; i++)
		y[i] += a * x[i];
}

struct ct_s {
	double a;
	int b;
	char c[5];
};

/*
 * extern "C" mixed(char c, struct S s, float *p, short h, double d):
 * p[0] = c + s.a + s.b + s.c[4] + h + d, so that every argument must
 * have been copied whole, the 24-byte struct included.
 */
HIPEMU_TWIN(mixed)
{
	char c = *(char *)args[0];
	const struct ct_s *s = args[1];
	float *p = *(float **)args[2];
	short h = *(short *)args[3];
	double d = *(double *)args[4];

	(void)launch;
	p[0] = (float)(c + s->a + s->b + s->c[4] + h + d);
}
