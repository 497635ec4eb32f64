/*
 * vecadd.cu - an nvcc-built program with shared cudart on the CUDA face:
 * the device, a vector add checked element by element, and whether a
 * launch returns before its kernel has run.
 *
 * Usage: vecadd [async|sync [MS]]. "async" (the default): the kernel's
 * argument sizes are known (read from the cubin), so the launch returns
 * while the kernel still waits for the host's flag.  "sync": they are not
 * (built with the device code compressed), so the launch has run the
 * kernel before returning, and the kernel gave up waiting.  MS: how long
 * the kernel waits for the flag (async: 10000, never reached when all is
 * right; sync: 100).
 */
#include <cuda_runtime.h>
#include "cutest.h"
#include "kernels.cuh"

#define N 1000

int main(int argc, char **argv)
{
	bool want_async = argc < 2 || !strcmp(argv[1], "async");
	int wait = argc > 2 ? atoi(argv[2]) : want_async ? 10000 : 100;
	float ha[N], hb[N], hc[N];
	float *a, *b, *c;
	int *flag, *seen, n = 0, bad = 0;
	cudaDeviceProp prop;

	CT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
	CT_CHECK(n == 1, "%d devices", n);
	CT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
	CT_CHECK(!strcmp(prop.name, "hipemu CPU device"), "name %s",
		 prop.name);
	CT_CHECK(prop.major == 10 && prop.minor == 3 &&
			 prop.multiProcessorCount == 40 && prop.warpSize == 32,
		 "cc %d.%d, %d SMs", prop.major, prop.minor,
		 prop.multiProcessorCount);

	for (int i = 0; i < N; i++) {
		ha[i] = (float)i;
		hb[i] = 0.5f * (float)i;
	}
	CT_EQ(cudaMalloc(&a, sizeof(ha)), cudaSuccess);
	CT_EQ(cudaMalloc(&b, sizeof(hb)), cudaSuccess);
	CT_EQ(cudaMalloc(&c, sizeof(hc)), cudaSuccess);
	CT_EQ(cudaMemcpy(a, ha, sizeof(ha), cudaMemcpyHostToDevice),
	      cudaSuccess);
	CT_EQ(cudaMemcpy(b, hb, sizeof(hb), cudaMemcpyHostToDevice),
	      cudaSuccess);
	vecadd<<<(N + 255) / 256, 256>>>(c, a, b, N);
	CT_EQ(cudaGetLastError(), cudaSuccess);
	CT_EQ(cudaMemcpy(hc, c, sizeof(hc), cudaMemcpyDeviceToHost),
	      cudaSuccess);
	for (int i = 0; i < N; i++)
		bad += hc[i] != 1.5f * (float)i;
	CT_CHECK(!bad, "%d wrong sums (c[7] = %g)", bad, hc[7]);

	/* the launch and the kernel's run, in order */
	CT_EQ(cudaMallocManaged(&flag, sizeof(int)), cudaSuccess);
	CT_EQ(cudaMallocManaged(&seen, sizeof(int)), cudaSuccess);
	*flag = 0;
	*seen = 0;
	gate<<<1, 1>>>(flag, seen, wait);
	if (want_async) {
		CT_CHECK(__atomic_load_n(seen, __ATOMIC_ACQUIRE) == 0,
			 "the kernel ran before its launch returned (%d)",
			 *seen);
		CT_EQ(cudaStreamQuery(0), cudaErrorNotReady);
	} else {
		CT_CHECK(__atomic_load_n(seen, __ATOMIC_ACQUIRE) == 2,
			 "the launch returned before its kernel ran (%d)",
			 *seen);
	}
	__atomic_store_n(flag, 1, __ATOMIC_RELEASE);
	CT_EQ(cudaDeviceSynchronize(), cudaSuccess);
	CT_CHECK(*seen == (want_async ? 1 : 2), "seen %d", *seen);

	CT_EQ(cudaFree(flag), cudaSuccess);
	CT_EQ(cudaFree(seen), cudaSuccess);
	CT_EQ(cudaFree(a), cudaSuccess);
	CT_EQ(cudaFree(b), cudaSuccess);
	CT_EQ(cudaFree(c), cudaSuccess);
	return ct_done();
}
