/*
 * both_hip.c - the HIP half of "both": one process that calls hipemu
 * through HIP and through the CUDA face (both_cuda.c) must see one device.
 * Compiled against ROCm's headers; the two halves cannot share a file.
 */
#include <hip/hip_runtime_api.h>

/* Allocates n bytes set to 7; 0 or the hipError_t. */
int both_hip_alloc(void **p, size_t n)
{
	int err = (int)hipMalloc(p, n);

	return err ? err : (int)hipMemset(*p, 7, n);
}

/* Copies n bytes from device memory src to host dst. */
int both_hip_read(void *dst, const void *src, size_t n)
{
	return (int)hipMemcpy(dst, src, n, hipMemcpyDeviceToHost);
}

int both_hip_free(void *p)
{
	return (int)hipFree(p);
}
