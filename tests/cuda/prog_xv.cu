/*
 * prog_xv.cu - the CUDA half of the cross-vendor comparison
 * (t_lbtrace_ab.sh): a vector add through the runtime, one buffer through
 * the driver (cuMemAlloc_v2, whose HIP twin is hipMalloc as cudaMalloc's
 * is), an event recorded with cudaEventRecordWithFlags (no HIP twin in
 * the table).  prog_xv_hip.c makes the same calls in HIP, where they have
 * twins.  Prints "ok" when every sum is right.
 */
#include <cuda.h>
#include <cuda_runtime.h>
#include "cutest.h"
#include "kernels.cuh"

#define N 1000

int main(void)
{
	float ha[N], hb[N], hc[N];
	float *a, *b, *c;
	CUdeviceptr db;
	cudaEvent_t ev;
	int bad = 0, n = N;

	for (int i = 0; i < N; i++) {
		ha[i] = (float)i;
		hb[i] = 2.0f * (float)i;
	}
	CT_EQ(cuInit(0), CUDA_SUCCESS);
	CT_EQ(cudaMalloc(&a, sizeof(ha)), cudaSuccess);
	CT_EQ(cuMemAlloc(&db, sizeof(hb)), CUDA_SUCCESS);
	b = (float *)db;
	CT_EQ(cudaMalloc(&c, sizeof(hc)), cudaSuccess);
	CT_EQ(cudaMemcpy(a, ha, sizeof(ha), cudaMemcpyHostToDevice),
	      cudaSuccess);
	CT_EQ(cudaMemcpy(b, hb, sizeof(hb), cudaMemcpyHostToDevice),
	      cudaSuccess);
	vecadd<<<(N + 255) / 256, 256>>>(c, a, b, n);
	CT_EQ(cudaStreamSynchronize(0), cudaSuccess);
	CT_EQ(cudaMemcpy(hc, c, sizeof(hc), cudaMemcpyDeviceToHost),
	      cudaSuccess);
	for (int i = 0; i < N; i++)
		bad += hc[i] != 3.0f * (float)i;
	CT_CHECK(!bad, "%d wrong sums", bad);
	CT_EQ(cudaEventCreate(&ev), cudaSuccess);
	CT_EQ(cudaEventRecordWithFlags(ev, 0, 0), cudaSuccess);
	CT_EQ(cudaEventSynchronize(ev), cudaSuccess);
	CT_EQ(cudaFree(a), cudaSuccess);
	CT_EQ(cuMemFree(db), CUDA_SUCCESS);
	CT_EQ(cudaFree(c), cudaSuccess);
	return ct_done();
}
