/*
 * pool_twins.c - hipemu twins of the kernels the pool tests launch.
 *
 * p_sum reads a block long after its launch, which is what makes reuse
 * of a freed block dangerous: if the pool handed the block out again
 * before the kernel ran, the program's next hipMemset would change what
 * the kernel sums.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <time.h>
#include "hipemu.h"

static void p_nap(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (ms > 0 && nanosleep(&ts, &ts))
		;
}

/*
 * p_sum(const unsigned char *src, size_t n, uint64_t *dst, int ms,
 *       int *done): sleeps ms, then *dst = sum of src[0..n), *done = 1.
 */
HIPEMU_ARGS(p_sum, sizeof(void *), sizeof(size_t), sizeof(void *),
	    sizeof(int), sizeof(void *));
HIPEMU_TWIN(p_sum)
{
	const unsigned char *src = *(const unsigned char **)args[0];
	size_t n = *(size_t *)args[1], i;
	uint64_t *dst = *(uint64_t **)args[2], s = 0;
	int ms = *(int *)args[3];
	int *done = *(int **)args[4];

	(void)launch;
	p_nap(ms);
	for (i = 0; i < n; i++)
		s += src[i];
	*dst = s;
	if (done)
		__atomic_store_n(done, 1, __ATOMIC_SEQ_CST);
}

/* p_nop(void *p): touches nothing; work on a stream. */
HIPEMU_ARGS(p_nop, sizeof(void *));
HIPEMU_TWIN(p_nop)
{
	(void)launch;
	(void)args;
}
