/*
 * cuda_rt_mem.c - the CUDA runtime's allocations, copies and sets on
 * hipemu's device, with their per-thread default stream forms.
 *
 * Each is hipemu's HIP twin (tests/hipemu/README.md, "Memory", "Copies and
 * sets"): the same allocations, the same ops on the same streams.  The
 * per-thread forms are what include/cuda_runtime_api.h (CUDA 13.0) maps
 * the plain names to when CUDA_API_PER_THREAD_DEFAULT_STREAM is defined
 * (nvcc --default-stream per-thread): __CUDART_API_PTDS(api) is api##_ptds
 * for the synchronous calls, __CUDART_API_PTSZ(api) api##_ptsz for those
 * that take a stream.  A _ptsz call's stream 0 is the calling thread's
 * per-thread stream; a _ptds call runs on that stream, as HIP's _spt
 * forms do.
 */
#include "cuda_face.h"

/* ---- allocation ---- */

CF_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	CF_RT_ENTER("cudaMalloc");
	return cf_rt(CF_HIP(hipMalloc, devPtr, size));
}

CF_EXPORT cudaError_t cudaFree(void *devPtr)
{
	CF_RT_ENTER("cudaFree");
	return cf_rt(CF_HIP(hipFree, devPtr));
}

CF_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	CF_RT_ENTER("cudaMallocHost");
	return cf_rt(CF_HIP(hipHostMalloc, ptr, size, 0));
}

CF_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size,
				    unsigned int flags)
{
	CF_RT_ENTER("cudaHostAlloc");
	return cf_rt(CF_HIP(hipHostMalloc, pHost, size, flags));
}

CF_EXPORT cudaError_t cudaFreeHost(void *ptr)
{
	CF_RT_ENTER("cudaFreeHost");
	return cf_rt(CF_HIP(hipHostFree, ptr));
}

CF_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size,
					unsigned int flags)
{
	CF_RT_ENTER("cudaMallocManaged");
	return cf_rt(CF_HIP(hipMallocManaged, devPtr, size, flags));
}

CF_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch,
				      size_t width, size_t height)
{
	CF_RT_ENTER("cudaMallocPitch");
	return cf_rt(CF_HIP(hipMallocPitch, devPtr, pitch, width, height));
}

CF_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size,
				      cudaStream_t hStream)
{
	CF_RT_ENTER("cudaMallocAsync");
	return cf_rt(CF_HIP(hipMallocAsync, devPtr, size, hStream));
}

CF_EXPORT cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size,
					   cudaStream_t hStream)
{
	CF_RT_ENTER("cudaMallocAsync_ptsz");
	return cf_rt(CF_HIP(hipMallocAsync, devPtr, size, cf_ptsz(hStream)));
}

CF_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
	CF_RT_ENTER("cudaFreeAsync");
	return cf_rt(CF_HIP(hipFreeAsync, devPtr, hStream));
}

CF_EXPORT cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream)
{
	CF_RT_ENTER("cudaFreeAsync_ptsz");
	return cf_rt(CF_HIP(hipFreeAsync, devPtr, cf_ptsz(hStream)));
}

/*
 * cudaPointerAttributes (driver_types.h): type, device, devicePointer,
 * hostPointer.  A pointer into no allocation is host memory the device
 * does not know: cudaMemoryTypeUnregistered and cudaSuccess ("In CUDA
 * 11.0 forward passing host pointer will return
 * cudaMemoryTypeUnregistered", cuda_runtime_api.h).
 */
CF_EXPORT cudaError_t cudaPointerGetAttributes(
	struct cudaPointerAttributes *attributes, const void *ptr)
{
	int kind, dev;
	void *base;
	size_t size;

	CF_RT_ENTER("cudaPointerGetAttributes");
	if (!attributes)
		return cf_rt_err(cudaErrorInvalidValue);
	attributes->type = cudaMemoryTypeUnregistered;
	attributes->device = 0;
	attributes->devicePointer = NULL;
	attributes->hostPointer = NULL;
	if (cf_ops()->pointer(ptr, &kind, &dev, &base, &size))
		return cudaSuccess;
	attributes->device = dev;
	attributes->devicePointer = (void *)ptr;
	if (kind == HE_FACE_MEM_DEVICE) {
		attributes->type = cudaMemoryTypeDevice;
	} else {
		attributes->type = kind == HE_FACE_MEM_MANAGED ?
					   cudaMemoryTypeManaged :
					   cudaMemoryTypeHost;
		attributes->hostPointer = (void *)ptr;
	}
	return cudaSuccess;
}

/* ---- copies ---- */

CF_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
				 enum cudaMemcpyKind kind)
{
	CF_RT_ENTER("cudaMemcpy");
	return cf_rt(CF_HIP(hipMemcpy, dst, src, count, kind));
}

CF_EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src,
				      size_t count, enum cudaMemcpyKind kind)
{
	CF_RT_ENTER("cudaMemcpy_ptds");
	return cf_rt(CF_HIP(hipMemcpy_spt, dst, src, count, kind));
}

CF_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src,
				      size_t count, enum cudaMemcpyKind kind,
				      cudaStream_t stream)
{
	CF_RT_ENTER("cudaMemcpyAsync");
	return cf_rt(CF_HIP(hipMemcpyAsync, dst, src, count, kind, stream));
}

CF_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src,
					   size_t count,
					   enum cudaMemcpyKind kind,
					   cudaStream_t stream)
{
	CF_RT_ENTER("cudaMemcpyAsync_ptsz");
	return cf_rt(CF_HIP(hipMemcpyAsync, dst, src, count, kind,
			    cf_ptsz(stream)));
}

CF_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
				   size_t spitch, size_t width, size_t height,
				   enum cudaMemcpyKind kind)
{
	CF_RT_ENTER("cudaMemcpy2D");
	return cf_rt(CF_HIP(hipMemcpy2D, dst, dpitch, src, spitch, width,
			    height, kind));
}

CF_EXPORT cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch,
					const void *src, size_t spitch,
					size_t width, size_t height,
					enum cudaMemcpyKind kind)
{
	CF_RT_ENTER("cudaMemcpy2D_ptds");
	return cf_rt(CF_HIP(hipMemcpy2D_spt, dst, dpitch, src, spitch, width,
			    height, kind));
}

CF_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch,
					const void *src, size_t spitch,
					size_t width, size_t height,
					enum cudaMemcpyKind kind,
					cudaStream_t stream)
{
	CF_RT_ENTER("cudaMemcpy2DAsync");
	return cf_rt(CF_HIP(hipMemcpy2DAsync, dst, dpitch, src, spitch, width,
			    height, kind, stream));
}

CF_EXPORT cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch,
					     const void *src, size_t spitch,
					     size_t width, size_t height,
					     enum cudaMemcpyKind kind,
					     cudaStream_t stream)
{
	CF_RT_ENTER("cudaMemcpy2DAsync_ptsz");
	return cf_rt(CF_HIP(hipMemcpy2DAsync, dst, dpitch, src, spitch, width,
			    height, kind, cf_ptsz(stream)));
}

/* ---- sets ---- */

CF_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	CF_RT_ENTER("cudaMemset");
	return cf_rt(CF_HIP(hipMemset, devPtr, value, count));
}

CF_EXPORT cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
	CF_RT_ENTER("cudaMemset_ptds");
	return cf_rt(CF_HIP(hipMemset_spt, devPtr, value, count));
}

CF_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
				      cudaStream_t stream)
{
	CF_RT_ENTER("cudaMemsetAsync");
	return cf_rt(CF_HIP(hipMemsetAsync, devPtr, value, count, stream));
}

CF_EXPORT cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value,
					   size_t count, cudaStream_t stream)
{
	CF_RT_ENTER("cudaMemsetAsync_ptsz");
	return cf_rt(CF_HIP(hipMemsetAsync, devPtr, value, count,
			    cf_ptsz(stream)));
}
