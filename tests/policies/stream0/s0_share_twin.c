/* s0_share_twin.c - hipemu twins of s0_share.hip's kernels. */
#include <time.h>
#include "hipemu.h"

HIPEMU_ARGS(_Z7sh_fillPiii, sizeof(int *), sizeof(int), sizeof(int));
HIPEMU_TWIN(_Z7sh_fillPiii)
{
	int *dst = *(int **)args[0], n = *(int *)args[1];
	int val = *(int *)args[2];

	(void)launch;
	for (int i = 0; i < n; i++)
		__atomic_store_n(&dst[i], val, __ATOMIC_RELAXED);
}

HIPEMU_ARGS(_Z6sh_sumPKiiPxi, sizeof(int *), sizeof(int),
	    sizeof(long long *), sizeof(int));
HIPEMU_TWIN(_Z6sh_sumPKiiPxi)
{
	const int *src = *(const int **)args[0];
	int n = *(int *)args[1], ms = *(int *)args[3];
	long long *out = *(long long **)args[2], s = 0;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	(void)launch;
	if (ms)
		nanosleep(&ts, NULL);
	for (int i = 0; i < n; i++)
		s += __atomic_load_n(&src[i], __ATOMIC_RELAXED);
	__atomic_store_n(out, s, __ATOMIC_SEQ_CST);
}
