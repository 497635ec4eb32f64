/*
 * both_cuda.c - one process, both faces, one device: memory allocated
 * through HIP is read through CUDA and the other way round, and both
 * count against the same HIPEMU_MEM_SIZE (run with HIPEMU_MEM_SIZE=1M),
 * which two devices would not.
 */
#include <cuda_runtime_api.h>
#include "cutest.h"

int both_hip_alloc(void **p, size_t n);
int both_hip_read(void *dst, const void *src, size_t n);
int both_hip_free(void *p);

int main(void)
{
	void *h = NULL, *c = NULL, *big = NULL;
	unsigned char buf[16];
	size_t fr = 0, tot = 0;

	CT_EQ(both_hip_alloc(&h, 512 << 10), 0);
	CT_EQ(cudaMemGetInfo(&fr, &tot), cudaSuccess);
	CT_CHECK(tot == 1 << 20 && fr == 512 << 10,
		 "the CUDA face sees %zu free of %zu", fr, tot);
	CT_EQ(cudaMemcpy(buf, h, sizeof(buf), cudaMemcpyDeviceToHost),
	      cudaSuccess);
	CT_CHECK(buf[0] == 7 && buf[15] == 7, "read %d through CUDA", buf[0]);
	CT_EQ(cudaMalloc(&big, 768 << 10), cudaErrorMemoryAllocation);
	CT_EQ(cudaMalloc(&c, 256 << 10), cudaSuccess);
	CT_EQ(cudaMemset(c, 9, sizeof(buf)), cudaSuccess);
	CT_EQ(both_hip_read(buf, c, sizeof(buf)), 0);
	CT_CHECK(buf[3] == 9, "read %d through HIP", buf[3]);
	CT_EQ(both_hip_free(c), 0);	/* CUDA's allocation, HIP's free */
	CT_EQ(cudaFree(h), cudaSuccess);
	CT_EQ(cudaMemGetInfo(&fr, &tot), cudaSuccess);
	CT_CHECK(fr == tot, "%zu left allocated", tot - fr);
	(void)cudaGetLastError();
	return ct_done();
}
