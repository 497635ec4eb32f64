/*
 * fault.cu - a real GPU fault: after a few good launches, a kernel writes
 * through a bad pointer; the fault is reported at the next sync
 * (cudaErrorIllegalAddress, a sticky error), and the program aborts as
 * users' programs do on an unexpected error.  Under lbshim's trace,
 * `lbtrace crash` must name bad_store as the last launch before the sync
 * that failed, with the calls before it.
 *
 * usage: fault     exits through abort() (SIGABRT) once the fault is seen;
 *                  exit 4 if no fault was reported.
 */
#include "gpucommon.h"

__global__ void good_store(int *p, int v)
{
	p[threadIdx.x] = v;
}

__global__ void bad_store(int *p)
{
	/* An address no allocation covers: the MMU faults. */
	p[threadIdx.x + (1 << 28)] = 1;
}

int main(void)
{
	int *d, i;
	cudaError_t e;

	CK(cudaMalloc(&d, 256 * sizeof(int)));
	for (i = 0; i < 3; i++) {
		good_store<<<1, 256>>>(d, i);
		CK(cudaGetLastError());
	}
	CK(cudaDeviceSynchronize());
	bad_store<<<1, 32>>>(d);
	e = cudaDeviceSynchronize();
	fprintf(stderr, "fault: cudaDeviceSynchronize: %s (%d)\n",
		cudaGetErrorName(e), (int)e);
	if (e == cudaSuccess)
		return 4;
	abort();
}
