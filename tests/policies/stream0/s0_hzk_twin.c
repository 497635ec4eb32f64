/* s0_hzk_twin.c - hipemu twins of s0_hzk.hip's kernels. */
#include <time.h>
#include "hipemu.h"

struct hzk_blk {
	int *p;
	int n;
};

HIPEMU_ARGS(_Z9hzk_sleepi, sizeof(int));
HIPEMU_TWIN(_Z9hzk_sleepi)
{
	int ms = *(int *)args[0];
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	(void)launch;
	nanosleep(&ts, NULL);
}

HIPEMU_ARGS(_Z8hzk_peekPKiPi, sizeof(int *), sizeof(int *));
HIPEMU_TWIN(_Z8hzk_peekPKiPi)
{
	const int *src = *(const int **)args[0];
	int *dst = *(int **)args[1];

	(void)launch;
	__atomic_store_n(dst, __atomic_load_n(src, __ATOMIC_SEQ_CST),
			 __ATOMIC_SEQ_CST);
}

HIPEMU_ARGS(_Z8hzk_fillPiii, sizeof(int *), sizeof(int), sizeof(int));
HIPEMU_TWIN(_Z8hzk_fillPiii)
{
	int *dst = *(int **)args[0], n = *(int *)args[1];
	int val = *(int *)args[2];

	(void)launch;
	for (int i = 0; i < n; i++)
		__atomic_store_n(&dst[i], val, __ATOMIC_SEQ_CST);
}

HIPEMU_ARGS(_Z9hzk_fillp7hzk_blki, sizeof(struct hzk_blk), sizeof(int));
HIPEMU_TWIN(_Z9hzk_fillp7hzk_blki)
{
	struct hzk_blk b = *(struct hzk_blk *)args[0];
	int val = *(int *)args[1];

	(void)launch;
	for (int i = 0; i < b.n; i++)
		__atomic_store_n(&b.p[i], val, __ATOMIC_SEQ_CST);
}
