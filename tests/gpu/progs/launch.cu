/*
 * launch.cu - the cost of an empty kernel launch as the host sees it: the
 * mean time of LAUNCHES back-to-back launches on the legacy stream, then
 * a sync (outside the measure).
 *
 * usage: launch [LAUNCHES]   (default 20000)
 * prints: launch: launches=N mean_us=..
 */
#include "gpucommon.h"

__global__ void empty(void)
{
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000, i, rep;
	double best = 1e30;

	if (n < 1) {
		fprintf(stderr, "usage: launch [LAUNCHES]\n");
		return 2;
	}
	empty<<<1, 1>>>();
	CK(cudaDeviceSynchronize());
	for (rep = 0; rep < 5; rep++) {
		double t0 = now_ms(), t;

		for (i = 0; i < n; i++)
			empty<<<1, 1>>>();
		t = now_ms() - t0;
		CK(cudaDeviceSynchronize());
		if (t < best)
			best = t;
	}
	printf("launch: launches=%d mean_us=%.3f (best of 5)\n", n,
	       best * 1e3 / n);
	return 0;
}
