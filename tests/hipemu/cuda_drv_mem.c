/*
 * cuda_drv_mem.c - the CUDA driver API's memory, copies, sets, streams and
 * events on hipemu's device: hipemu's own (tests/hipemu/README.md), the
 * same as the runtime face's, so a pointer, stream or event from either
 * face works in the other.  A CUdeviceptr is the address.
 *
 * Per-thread forms (cuda.h, CUDA 13.0): with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM, __CUDA_API_PTDS(api) is api##_ptds
 * for the synchronous copies and sets, __CUDA_API_PTSZ(api) api##_ptsz for
 * the calls that take a stream; as in the runtime, a _ptsz call's stream 0
 * is the thread's per-thread stream and a _ptds call runs on it.
 */
#include "cuda_face.h"

#define CF_PTR(d) ((void *)(uintptr_t)(d))

/* A synchronous operation on the per-thread stream: enqueue, then wait. */
static CUresult ptds_wait(int hip_err)
{
	if (hip_err)
		return cf_drv(hip_err);
	return cf_drv(CF_HIP(hipStreamSynchronize, CF_STREAM_PER_THREAD));
}

/* ---- allocation ---- */

static CUresult alloc_out(CUdeviceptr *dptr, void *p, int err)
{
	if (!err)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	return cf_drv(err);
}

CF_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
	void *p = NULL;

	CF_DRV_ENTER("cuMemAlloc_v2");
	CF_DRV_INIT();
	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	/* cuda.h: "If bytesize is 0, cuMemAlloc() returns
	 * CUDA_ERROR_INVALID_VALUE" */
	if (!bytesize)
		return CUDA_ERROR_INVALID_VALUE;
	return alloc_out(dptr, p, CF_HIP(hipMalloc, &p, bytesize));
}

CF_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr)
{
	CF_DRV_ENTER("cuMemFree_v2");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipFree, CF_PTR(dptr)));
}

CF_EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
	CF_DRV_ENTER("cuMemAllocHost_v2");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipHostMalloc, pp, bytesize, 0));
}

CF_EXPORT CUresult cuMemFreeHost(void *p)
{
	CF_DRV_ENTER("cuMemFreeHost");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipHostFree, p));
}

CF_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
				     unsigned int flags)
{
	void *p = NULL;

	CF_DRV_ENTER("cuMemAllocManaged");
	CF_DRV_INIT();
	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	return alloc_out(dptr, p, CF_HIP(hipMallocManaged, &p, bytesize,
					 flags));
}

/* cuda.h: ElementSizeBytes "may be 4, 8 or 16". */
CF_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch,
				      size_t WidthInBytes, size_t Height,
				      unsigned int ElementSizeBytes)
{
	void *p = NULL;

	CF_DRV_ENTER("cuMemAllocPitch_v2");
	CF_DRV_INIT();
	if (!dptr || (ElementSizeBytes != 4 && ElementSizeBytes != 8 &&
		      ElementSizeBytes != 16))
		return CUDA_ERROR_INVALID_VALUE;
	return alloc_out(dptr, p, CF_HIP(hipMallocPitch, &p, pPitch,
					 WidthInBytes, Height));
}

CF_EXPORT CUresult cuMemGetInfo_v2(size_t *free, size_t *total)
{
	CF_DRV_ENTER("cuMemGetInfo_v2");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemGetInfo, free, total));
}

/* ---- copies ---- */

#define CF_COPY(NAME, DST, SRC, KIND, STREAM_ARG)                        \
	CF_DRV_ENTER(NAME);                                              \
	CF_DRV_INIT();                                                     \
	return cf_drv(CF_HIP(hipMemcpyAsync, DST, SRC, n, KIND, STREAM_ARG))

CF_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	CF_DRV_ENTER("cuMemcpy");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemcpy, CF_PTR(dst), CF_PTR(src), n,
			  cudaMemcpyDefault));
}

CF_EXPORT CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	CF_DRV_ENTER("cuMemcpy_ptds");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemcpy_spt, CF_PTR(dst), CF_PTR(src), n,
			  cudaMemcpyDefault));
}

CF_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	CF_DRV_ENTER("cuMemcpyHtoD_v2");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemcpy, CF_PTR(dst), src, n,
			  cudaMemcpyHostToDevice));
}

CF_EXPORT CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dst, const void *src,
					size_t n)
{
	CF_DRV_ENTER("cuMemcpyHtoD_v2_ptds");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemcpy_spt, CF_PTR(dst), src, n,
			  cudaMemcpyHostToDevice));
}

CF_EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	CF_DRV_ENTER("cuMemcpyDtoH_v2");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemcpy, dst, CF_PTR(src), n,
			  cudaMemcpyDeviceToHost));
}

CF_EXPORT CUresult cuMemcpyDtoH_v2_ptds(void *dst, CUdeviceptr src, size_t n)
{
	CF_DRV_ENTER("cuMemcpyDtoH_v2_ptds");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemcpy_spt, dst, CF_PTR(src), n,
			  cudaMemcpyDeviceToHost));
}

CF_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	CF_DRV_ENTER("cuMemcpyDtoD_v2");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemcpy, CF_PTR(dst), CF_PTR(src), n,
			  cudaMemcpyDeviceToDevice));
}

CF_EXPORT CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dst, CUdeviceptr src,
					size_t n)
{
	CF_DRV_ENTER("cuMemcpyDtoD_v2_ptds");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemcpy_spt, CF_PTR(dst), CF_PTR(src), n,
			  cudaMemcpyDeviceToDevice));
}

CF_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n,
				 CUstream hStream)
{
	CF_COPY("cuMemcpyAsync", CF_PTR(dst), CF_PTR(src), cudaMemcpyDefault,
		hStream);
}

CF_EXPORT CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src,
				      size_t n, CUstream hStream)
{
	CF_COPY("cuMemcpyAsync_ptsz", CF_PTR(dst), CF_PTR(src),
		cudaMemcpyDefault, cf_ptsz(hStream));
}

CF_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src,
					size_t n, CUstream hStream)
{
	CF_COPY("cuMemcpyHtoDAsync_v2", CF_PTR(dst), src,
		cudaMemcpyHostToDevice, hStream);
}

CF_EXPORT CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dst, const void *src,
					     size_t n, CUstream hStream)
{
	CF_COPY("cuMemcpyHtoDAsync_v2_ptsz", CF_PTR(dst), src,
		cudaMemcpyHostToDevice, cf_ptsz(hStream));
}

CF_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n,
					CUstream hStream)
{
	CF_COPY("cuMemcpyDtoHAsync_v2", dst, CF_PTR(src),
		cudaMemcpyDeviceToHost, hStream);
}

CF_EXPORT CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dst, CUdeviceptr src,
					     size_t n, CUstream hStream)
{
	CF_COPY("cuMemcpyDtoHAsync_v2_ptsz", dst, CF_PTR(src),
		cudaMemcpyDeviceToHost, cf_ptsz(hStream));
}

CF_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src,
					size_t n, CUstream hStream)
{
	CF_COPY("cuMemcpyDtoDAsync_v2", CF_PTR(dst), CF_PTR(src),
		cudaMemcpyDeviceToDevice, hStream);
}

CF_EXPORT CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src,
					     size_t n, CUstream hStream)
{
	CF_COPY("cuMemcpyDtoDAsync_v2_ptsz", CF_PTR(dst), CF_PTR(src),
		cudaMemcpyDeviceToDevice, cf_ptsz(hStream));
}

/* ---- sets ---- */

CF_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char uc, size_t N)
{
	CF_DRV_ENTER("cuMemsetD8_v2");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemsetD8, CF_PTR(dst), uc, N));
}

CF_EXPORT CUresult cuMemsetD8_v2_ptds(CUdeviceptr dst, unsigned char uc,
				      size_t N)
{
	CF_DRV_ENTER("cuMemsetD8_v2_ptds");
	CF_DRV_INIT();
	return ptds_wait(CF_HIP(hipMemsetD8Async, CF_PTR(dst), uc, N,
				CF_STREAM_PER_THREAD));
}

CF_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int ui, size_t N)
{
	CF_DRV_ENTER("cuMemsetD32_v2");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemsetD32, CF_PTR(dst), (int)ui, N));
}

CF_EXPORT CUresult cuMemsetD32_v2_ptds(CUdeviceptr dst, unsigned int ui,
				       size_t N)
{
	CF_DRV_ENTER("cuMemsetD32_v2_ptds");
	CF_DRV_INIT();
	return ptds_wait(CF_HIP(hipMemsetD32Async, CF_PTR(dst), (int)ui, N,
				CF_STREAM_PER_THREAD));
}

CF_EXPORT CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char uc,
				   size_t N, CUstream hStream)
{
	CF_DRV_ENTER("cuMemsetD8Async");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemsetD8Async, CF_PTR(dst), uc, N, hStream));
}

CF_EXPORT CUresult cuMemsetD8Async_ptsz(CUdeviceptr dst, unsigned char uc,
					size_t N, CUstream hStream)
{
	CF_DRV_ENTER("cuMemsetD8Async_ptsz");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemsetD8Async, CF_PTR(dst), uc, N,
			  cf_ptsz(hStream)));
}

CF_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int ui,
				    size_t N, CUstream hStream)
{
	CF_DRV_ENTER("cuMemsetD32Async");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemsetD32Async, CF_PTR(dst), (int)ui, N,
			  hStream));
}

CF_EXPORT CUresult cuMemsetD32Async_ptsz(CUdeviceptr dst, unsigned int ui,
					 size_t N, CUstream hStream)
{
	CF_DRV_ENTER("cuMemsetD32Async_ptsz");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipMemsetD32Async, CF_PTR(dst), (int)ui, N,
			  cf_ptsz(hStream)));
}

/* ---- streams ---- */

CF_EXPORT CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
	CF_DRV_ENTER("cuStreamCreate");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipStreamCreateWithFlags, (void **)phStream,
			     Flags));
}

CF_EXPORT CUresult cuStreamDestroy_v2(CUstream hStream)
{
	CF_DRV_ENTER("cuStreamDestroy_v2");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipStreamDestroy, hStream));
}

CF_EXPORT CUresult cuStreamSynchronize(CUstream hStream)
{
	CF_DRV_ENTER("cuStreamSynchronize");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipStreamSynchronize, hStream));
}

CF_EXPORT CUresult cuStreamSynchronize_ptsz(CUstream hStream)
{
	CF_DRV_ENTER("cuStreamSynchronize_ptsz");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipStreamSynchronize, cf_ptsz(hStream)));
}

CF_EXPORT CUresult cuStreamQuery(CUstream hStream)
{
	CF_DRV_ENTER("cuStreamQuery");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipStreamQuery, hStream));
}

CF_EXPORT CUresult cuStreamQuery_ptsz(CUstream hStream)
{
	CF_DRV_ENTER("cuStreamQuery_ptsz");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipStreamQuery, cf_ptsz(hStream)));
}

CF_EXPORT CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent,
				     unsigned int Flags)
{
	CF_DRV_ENTER("cuStreamWaitEvent");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipStreamWaitEvent, hStream, hEvent, Flags));
}

CF_EXPORT CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent,
					  unsigned int Flags)
{
	CF_DRV_ENTER("cuStreamWaitEvent_ptsz");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipStreamWaitEvent, cf_ptsz(hStream), hEvent,
			  Flags));
}

/* ---- events (CU_EVENT_* flags are cudaEvent*'s values) ---- */

CF_EXPORT CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
	CF_DRV_ENTER("cuEventCreate");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipEventCreateWithFlags, (void **)phEvent, Flags));
}

CF_EXPORT CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
	CF_DRV_ENTER("cuEventRecord");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipEventRecord, hEvent, hStream));
}

CF_EXPORT CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
	CF_DRV_ENTER("cuEventRecord_ptsz");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipEventRecord, hEvent, cf_ptsz(hStream)));
}

CF_EXPORT CUresult cuEventSynchronize(CUevent hEvent)
{
	CF_DRV_ENTER("cuEventSynchronize");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipEventSynchronize, hEvent));
}

CF_EXPORT CUresult cuEventQuery(CUevent hEvent)
{
	CF_DRV_ENTER("cuEventQuery");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipEventQuery, hEvent));
}

CF_EXPORT CUresult cuEventDestroy_v2(CUevent hEvent)
{
	CF_DRV_ENTER("cuEventDestroy_v2");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipEventDestroy, hEvent));
}

/*
 * _v2 (CUDA 12.8) and the older ABI, which cuda.h before 12.8 compiled
 * cuEventElapsedTime to (the #define names the new one).
 */
CF_EXPORT CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart,
					 CUevent hEnd)
{
	CF_DRV_ENTER("cuEventElapsedTime_v2");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipEventElapsedTime, pMilliseconds, hStart, hEnd));
}

CF_EXPORT CUresult cf_cuEventElapsedTime_v1(float *pMilliseconds,
					    CUevent hStart, CUevent hEnd)
	__asm__("cuEventElapsedTime");
CUresult cf_cuEventElapsedTime_v1(float *pMilliseconds, CUevent hStart,
				  CUevent hEnd)
{
	CF_DRV_ENTER("cuEventElapsedTime");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipEventElapsedTime, pMilliseconds, hStart, hEnd));
}
