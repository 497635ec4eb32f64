/*
 * errs.cu - the CUDA face's errors: bad launches and arguments, the
 * last-error rule (a failure is kept until cudaGetLastError reads it;
 * cudaPeekAtLastError does not clear it; a success does not overwrite it),
 * names and messages, and a fault HIPEMU_FAIL injects.
 *
 * Usage: errs [inject]; with "inject", run with
 * HIPEMU_FAIL=cudaMalloc:2:hipErrorOutOfMemory.
 */
#include <cuda_runtime.h>
#include "cutest.h"
#include "kernels.cuh"

static void injected(void)
{
	void *p = NULL, *q = NULL;

	CT_EQ(cudaMalloc(&p, 64), cudaSuccess);
	CT_EQ(cudaMalloc(&q, 64), cudaErrorMemoryAllocation);
	CT_CHECK(q == NULL, "the failed call allocated");
	CT_EQ(cudaGetLastError(), cudaErrorMemoryAllocation);
	CT_EQ(cudaMalloc(&q, 64), cudaSuccess);
	CT_EQ(cudaFree(p), cudaSuccess);
	CT_EQ(cudaFree(q), cudaSuccess);
}

int main(int argc, char **argv)
{
	int *d = NULL, v = 0;
	const char *name = NULL;
	cudaEvent_t e;
	float ms;
	void *p = NULL;

	if (argc > 1 && !strcmp(argv[1], "inject")) {
		injected();
		return ct_done();
	}
	CT_EQ(cudaGetLastError(), cudaSuccess);
	CT_EQ(cudaMalloc(&d, sizeof(int)), cudaSuccess);

	/* a launch error is seen only through the last error */
	mark<<<1, 2048>>>(d, 1);
	CT_EQ(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
	CT_EQ(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
	CT_EQ(cudaMalloc(&p, 16), cudaSuccess);	/* does not overwrite it */
	CT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
	CT_EQ(cudaGetLastError(), cudaSuccess);
	mark<<<0, 1>>>(d, 1);
	CT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);

	/* a kernel without code for the device (here: without a twin) */
	notwin<<<1, 1>>>(d);
	CT_EQ(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
	/* something that is no kernel at all */
	CT_EQ(cudaLaunchKernel((const void *)&injected, dim3(1), dim3(1), NULL,
			       0, 0), cudaErrorInvalidDeviceFunction);
	CT_EQ(cudaFuncGetName(&name, (const void *)mark), cudaSuccess);
	CT_CHECK(name && !strcmp(name, "_Z4markPii"), "name %s", name);

	/* a later failure replaces an earlier one */
	CT_EQ(cudaSetDevice(99), cudaErrorInvalidDevice);
	CT_EQ(cudaMemcpy(&v, d, sizeof(v), (cudaMemcpyKind)7),
	      cudaErrorInvalidMemcpyDirection);
	CT_EQ(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
	CT_EQ(cudaFree((char *)d + 1), cudaErrorInvalidValue);
	CT_EQ(cudaEventCreate(&e), cudaSuccess);
	CT_EQ(cudaEventElapsedTime(&ms, e, e), cudaErrorInvalidResourceHandle);
	CT_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);
	CT_EQ(cudaMalloc(NULL, 4), cudaErrorInvalidValue);
	CT_EQ(cudaGetLastError(), cudaErrorInvalidValue);

	CT_CHECK(!strcmp(cudaGetErrorName(cudaErrorInvalidValue),
			 "cudaErrorInvalidValue"), "name");
	CT_CHECK(!strcmp(cudaGetErrorString(cudaErrorMemoryAllocation),
			 "out of memory"), "%s",
		 cudaGetErrorString(cudaErrorMemoryAllocation));
	CT_CHECK(!strcmp(cudaGetErrorName((cudaError_t)12345),
			 "unrecognized error code"), "unknown code");

	/* the work before the errors still ran */
	mark<<<1, 1>>>(d, 42);
	CT_EQ(cudaMemcpy(&v, d, sizeof(v), cudaMemcpyDeviceToHost),
	      cudaSuccess);
	CT_CHECK(v == 42, "v %d", v);
	CT_EQ(cudaEventDestroy(e), cudaSuccess);
	CT_EQ(cudaFree(p), cudaSuccess);
	CT_EQ(cudaFree(d), cudaSuccess);
	CT_EQ(cudaGetLastError(), cudaSuccess);
	return ct_done();
}
