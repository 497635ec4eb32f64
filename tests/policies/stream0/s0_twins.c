/*
 * s0_twins.c - hipemu twins of the kernels the stream0 tests launch.
 *
 * Each kernel does its work once for the whole grid (the tests launch
 * 1x1x1).  The buffers they write are host-pinned (hipHostMalloc), so the
 * host may watch them while kernels run, as it could on a real device.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <time.h>
#include "hipemu.h"

static void s0_nap(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (ms > 0 && nanosleep(&ts, &ts))
		;
}

/*
 * s0_sleep(int ms, int tag, int *log, int *pos, int *done): sleeps, then
 * appends tag to log (if any) and sets *done (if any).
 */
HIPEMU_ARGS(s0_sleep, sizeof(int), sizeof(int), sizeof(int *), sizeof(int *),
	    sizeof(int *));
HIPEMU_TWIN(s0_sleep)
{
	int ms = *(int *)args[0], tag = *(int *)args[1];
	int *log = *(int **)args[2], *pos = *(int **)args[3];
	int *done = *(int **)args[4];

	(void)launch;
	s0_nap(ms);
	if (log && pos)
		log[__atomic_fetch_add(pos, 1, __ATOMIC_SEQ_CST)] = tag;
	if (done)
		__atomic_store_n(done, 1, __ATOMIC_SEQ_CST);
}

/* s0_peek(int *src, int *dst): *dst = *src, read when the kernel runs. */
HIPEMU_ARGS(s0_peek, sizeof(int *), sizeof(int *));
HIPEMU_TWIN(s0_peek)
{
	int *src = *(int **)args[0], *dst = *(int **)args[1];

	(void)launch;
	__atomic_store_n(dst, __atomic_load_n(src, __ATOMIC_SEQ_CST),
			 __ATOMIC_SEQ_CST);
}

/* s0_fill(int *dst, int n, int val, int ms): sleeps, then dst[i] = val. */
HIPEMU_ARGS(s0_fill, sizeof(int *), sizeof(int), sizeof(int), sizeof(int));
HIPEMU_TWIN(s0_fill)
{
	int *dst = *(int **)args[0], n = *(int *)args[1];
	int val = *(int *)args[2], ms = *(int *)args[3];

	(void)launch;
	s0_nap(ms);
	for (int i = 0; i < n; i++)
		__atomic_store_n(&dst[i], val, __ATOMIC_SEQ_CST);
}

/* s0_where(unsigned long long *out): device and stream it ran on. */
HIPEMU_ARGS(s0_where, sizeof(unsigned long long *));
HIPEMU_TWIN(s0_where)
{
	unsigned long long *out = *(unsigned long long **)args[0];

	out[0] = (unsigned long long)launch->device;
	out[1] = (unsigned long long)(uintptr_t)launch->stream;
}

/* s0_nop(): nothing (benchmarks). */
HIPEMU_ARGS(s0_nop, 0);
HIPEMU_TWIN(s0_nop)
{
	(void)launch;
	(void)args;
}

/*
 * s0_readlate(int *src, int *dst, int ms): sleeps, then *dst = *src: a
 * kernel that still reads its input well after it was queued.
 */
HIPEMU_ARGS(s0_readlate, sizeof(int *), sizeof(int *), sizeof(int));
HIPEMU_TWIN(s0_readlate)
{
	int *src = *(int **)args[0], *dst = *(int **)args[1];
	int ms = *(int *)args[2];

	(void)launch;
	s0_nap(ms);
	__atomic_store_n(dst, __atomic_load_n(src, __ATOMIC_SEQ_CST),
			 __ATOMIC_SEQ_CST);
}

/* s0_scale(int *src, int *dst, int mul): *dst = *src * mul. */
HIPEMU_ARGS(s0_scale, sizeof(int *), sizeof(int *), sizeof(int));
HIPEMU_TWIN(s0_scale)
{
	int *src = *(int **)args[0], *dst = *(int **)args[1];
	int mul = *(int *)args[2];

	(void)launch;
	__atomic_store_n(dst, __atomic_load_n(src, __ATOMIC_SEQ_CST) * mul,
			 __ATOMIC_SEQ_CST);
}
