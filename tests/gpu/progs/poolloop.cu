/*
 * poolloop.cu - allocation in the hot loop: each step cudaMalloc()s a
 * buffer, a kernel fills it with the step's number, the result is copied
 * back and checked, and the buffer is cudaFree()d.  The time of each
 * cudaMalloc+cudaFree pair (the two calls alone, not the kernel or the
 * copy) is measured: the runtime's tens of microseconds against the pool's.
 *
 * usage: poolloop [STEPS [BYTES]]   (defaults 2000, 4096)
 * prints: poolloop: pair_p50_us=.. pair_mean_us=.. wrong=N
 * exit 0 iff every step's result was right.
 */
#include "gpucommon.h"

__global__ void fill(int *p, int n, int v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = v + i;
}

int main(int argc, char **argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 2000;
	size_t bytes = argc > 2 ? strtoul(argv[2], NULL, 0) : 4096;
	int n, s, wrong = 0;
	int *h;
	double *pair, sum = 0;

	if (steps < 1 || bytes < sizeof(int)) {
		fprintf(stderr, "usage: poolloop [STEPS [BYTES]]\n");
		return 2;
	}
	n = (int)(bytes / sizeof(int));
	h = (int *)malloc(bytes);
	pair = (double *)calloc(steps, sizeof(*pair));
	CK(cudaFree(0));	/* the context, outside the measure */
	for (s = 0; s < steps; s++) {
		int *d;
		double t0, t1, t2, t3;

		t0 = now_ms();
		CK(cudaMalloc(&d, bytes));
		t1 = now_ms();
		fill<<<(n + 255) / 256, 256>>>(d, n, s);
		CK(cudaGetLastError());
		CK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
		if (h[0] != s || h[n - 1] != s + n - 1)
			wrong++;
		t2 = now_ms();
		CK(cudaFree(d));
		t3 = now_ms();
		pair[s] = ((t1 - t0) + (t3 - t2)) * 1e3;
		sum += pair[s];
	}
	printf("poolloop: steps=%d bytes=%zu pair_mean_us=%.3f "
	       "pair_p50_us=%.3f pair_p99_us=%.3f wrong=%d\n", steps, bytes,
	       sum / steps, pct(pair, steps, 50), pct(pair, steps, 99), wrong);
	return wrong ? 1 : 0;
}
