/*
 * cuda_drv_proc.c - cuGetProcAddress: the driver's entry points by base
 * name, CUDA version and per-thread flags, the way NVIDIA's cudart and
 * PyTorch find them (the "CUDA face" section of tests/hipemu/README.md).
 *
 * What cuda.h (CUDA 13.0) says of cuGetProcAddress_v2 (cuGetProcAddress
 * is #defined to it): symbol is the base name ("cuMemAlloc"), cudaVersion
 * the CUDA version whose ABI is wanted (1000 * major + 10 * minor); the
 * answer is the versioned function that version's headers compiled the
 * name to.  A version above the driver's is CUDA_ERROR_INVALID_VALUE; a
 * symbol not found, or not in that version, is CUDA_SUCCESS with *pfn
 * NULL and symbolStatus CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND or
 * _VERSION_NOT_SUFFICIENT.  CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
 * asks for the _ptsz/_ptds form where there is one, the legacy one
 * otherwise; CU_GET_PROC_ADDRESS_DEFAULT is the legacy search (this
 * library is not compiled per-thread).
 *
 * The version each ABI arrived in is the suffix of its function-pointer
 * type in include/cudaTypedefs.h (PFN_cuMemAlloc_v3020 is cuMemAlloc_v2's,
 * PFN_cuLaunchKernel_v7000_ptsz cuLaunchKernel_ptsz's).  Only what the
 * face implements is listed: older ABIs it does not have (the 32-bit
 * cuMemAlloc of v2000) are "version not sufficient".
 */
#include "cuda_face.h"

#include <string.h>

/* The exported forms that no header declares without the internal macro. */
CUresult cuCtxCreate_v2(CUcontext *, unsigned int, CUdevice);
CUresult cuLaunchKernel_ptsz(CUfunction, unsigned, unsigned, unsigned,
			     unsigned, unsigned, unsigned, unsigned, CUstream,
			     void **, void **);
CUresult cuMemcpy_ptds(CUdeviceptr, CUdeviceptr, size_t);
CUresult cuMemcpyAsync_ptsz(CUdeviceptr, CUdeviceptr, size_t, CUstream);
CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr, const void *, size_t);
CUresult cuMemcpyDtoH_v2_ptds(void *, CUdeviceptr, size_t);
CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr, CUdeviceptr, size_t);
CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr, const void *, size_t,
				   CUstream);
CUresult cuMemcpyDtoHAsync_v2_ptsz(void *, CUdeviceptr, size_t, CUstream);
CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr, CUdeviceptr, size_t,
				   CUstream);
CUresult cuMemsetD8_v2_ptds(CUdeviceptr, unsigned char, size_t);
CUresult cuMemsetD32_v2_ptds(CUdeviceptr, unsigned int, size_t);
CUresult cuMemsetD8Async_ptsz(CUdeviceptr, unsigned char, size_t, CUstream);
CUresult cuMemsetD32Async_ptsz(CUdeviceptr, unsigned int, size_t, CUstream);
CUresult cuStreamSynchronize_ptsz(CUstream);
CUresult cuStreamQuery_ptsz(CUstream);
CUresult cuStreamWaitEvent_ptsz(CUstream, CUevent, unsigned int);
CUresult cuEventRecord_ptsz(CUevent, CUstream);
CF_EXPORT CUresult cf_cuEventElapsedTime_v1(float *, CUevent, CUevent)
	__asm__("cuEventElapsedTime");
CF_EXPORT CUresult cf_cuGetProcAddress_v1(const char *, void **, int,
					 cuuint64_t)
	__asm__("cuGetProcAddress");

struct cf_proc {
	const char *base;
	int version;	/* CUDA version of the ABI */
	bool pt;	/* the per-thread default stream form */
	void *fn;
};

#define P(B, V, F) { #B, V, false, (void *)F }
#define PT(B, F) { #B, 7000, true, (void *)F }

static const struct cf_proc cf_procs[] = {
	P(cuInit, 2000, cuInit),
	P(cuDriverGetVersion, 2020, cuDriverGetVersion),
	P(cuGetErrorString, 6000, cuGetErrorString),
	P(cuGetErrorName, 6000, cuGetErrorName),
	P(cuGetExportTable, 3000, cuGetExportTable),
	P(cuGetProcAddress, 11030, cf_cuGetProcAddress_v1),
	P(cuGetProcAddress, 12000, cuGetProcAddress_v2),
	P(cuDeviceGet, 2000, cuDeviceGet),
	P(cuDeviceGetCount, 2000, cuDeviceGetCount),
	P(cuDeviceGetName, 2000, cuDeviceGetName),
	P(cuDeviceTotalMem, 3020, cuDeviceTotalMem_v2),
	P(cuDeviceGetAttribute, 2000, cuDeviceGetAttribute),
	P(cuDevicePrimaryCtxRetain, 7000, cuDevicePrimaryCtxRetain),
	P(cuDevicePrimaryCtxRelease, 11000, cuDevicePrimaryCtxRelease_v2),
	P(cuCtxCreate, 3020, cuCtxCreate_v2),
	P(cuCtxCreate, 12050, cuCtxCreate_v4),
	P(cuCtxDestroy, 4000, cuCtxDestroy_v2),
	P(cuCtxSetCurrent, 4000, cuCtxSetCurrent),
	P(cuCtxGetCurrent, 4000, cuCtxGetCurrent),
	P(cuCtxPushCurrent, 4000, cuCtxPushCurrent_v2),
	P(cuCtxPopCurrent, 4000, cuCtxPopCurrent_v2),
	P(cuCtxGetDevice, 2000, cuCtxGetDevice),
	P(cuCtxSynchronize, 2000, cuCtxSynchronize),
	P(cuModuleLoad, 2000, cuModuleLoad),
	P(cuModuleLoadData, 2000, cuModuleLoadData),
	P(cuModuleLoadDataEx, 2010, cuModuleLoadDataEx),
	P(cuModuleUnload, 2000, cuModuleUnload),
	P(cuModuleGetFunction, 2000, cuModuleGetFunction),
	P(cuFuncGetParamInfo, 12040, cuFuncGetParamInfo),
	P(cuLaunchKernel, 4000, cuLaunchKernel),
	PT(cuLaunchKernel, cuLaunchKernel_ptsz),
	P(cuMemAlloc, 3020, cuMemAlloc_v2),
	P(cuMemFree, 3020, cuMemFree_v2),
	P(cuMemAllocHost, 3020, cuMemAllocHost_v2),
	P(cuMemFreeHost, 2000, cuMemFreeHost),
	P(cuMemAllocManaged, 6000, cuMemAllocManaged),
	P(cuMemAllocPitch, 3020, cuMemAllocPitch_v2),
	P(cuMemGetInfo, 3020, cuMemGetInfo_v2),
	P(cuMemcpy, 4000, cuMemcpy),
	PT(cuMemcpy, cuMemcpy_ptds),
	P(cuMemcpyAsync, 4000, cuMemcpyAsync),
	PT(cuMemcpyAsync, cuMemcpyAsync_ptsz),
	P(cuMemcpyHtoD, 3020, cuMemcpyHtoD_v2),
	PT(cuMemcpyHtoD, cuMemcpyHtoD_v2_ptds),
	P(cuMemcpyDtoH, 3020, cuMemcpyDtoH_v2),
	PT(cuMemcpyDtoH, cuMemcpyDtoH_v2_ptds),
	P(cuMemcpyDtoD, 3020, cuMemcpyDtoD_v2),
	PT(cuMemcpyDtoD, cuMemcpyDtoD_v2_ptds),
	P(cuMemcpyHtoDAsync, 3020, cuMemcpyHtoDAsync_v2),
	PT(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2_ptsz),
	P(cuMemcpyDtoHAsync, 3020, cuMemcpyDtoHAsync_v2),
	PT(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2_ptsz),
	P(cuMemcpyDtoDAsync, 3020, cuMemcpyDtoDAsync_v2),
	PT(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2_ptsz),
	P(cuMemsetD8, 3020, cuMemsetD8_v2),
	PT(cuMemsetD8, cuMemsetD8_v2_ptds),
	P(cuMemsetD32, 3020, cuMemsetD32_v2),
	PT(cuMemsetD32, cuMemsetD32_v2_ptds),
	P(cuMemsetD8Async, 3020, cuMemsetD8Async),
	PT(cuMemsetD8Async, cuMemsetD8Async_ptsz),
	P(cuMemsetD32Async, 3020, cuMemsetD32Async),
	PT(cuMemsetD32Async, cuMemsetD32Async_ptsz),
	P(cuStreamCreate, 2000, cuStreamCreate),
	P(cuStreamDestroy, 4000, cuStreamDestroy_v2),
	P(cuStreamSynchronize, 2000, cuStreamSynchronize),
	PT(cuStreamSynchronize, cuStreamSynchronize_ptsz),
	P(cuStreamQuery, 2000, cuStreamQuery),
	PT(cuStreamQuery, cuStreamQuery_ptsz),
	P(cuStreamWaitEvent, 3020, cuStreamWaitEvent),
	PT(cuStreamWaitEvent, cuStreamWaitEvent_ptsz),
	P(cuEventCreate, 2000, cuEventCreate),
	P(cuEventRecord, 2000, cuEventRecord),
	PT(cuEventRecord, cuEventRecord_ptsz),
	P(cuEventSynchronize, 2000, cuEventSynchronize),
	P(cuEventQuery, 2000, cuEventQuery),
	P(cuEventDestroy, 4000, cuEventDestroy_v2),
	P(cuEventElapsedTime, 2000, cf_cuEventElapsedTime_v1),
	P(cuEventElapsedTime, 12080, cuEventElapsedTime_v2),
};

static CUresult lookup(const char *symbol, void **pfn, int version,
		       cuuint64_t flags, CUdriverProcAddressQueryResult *st)
{
	const struct cf_proc *best = NULL, *pt = NULL;
	bool named = false;

	if (!symbol || !pfn)
		return CUDA_ERROR_INVALID_VALUE;
	*pfn = NULL;
	if (st)
		*st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	if (version > CUDA_VERSION)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof(cf_procs) / sizeof(cf_procs[0]); i++) {
		const struct cf_proc *p = &cf_procs[i];

		if (strcmp(p->base, symbol))
			continue;
		named = true;
		if (p->version > version)
			continue;
		if (p->pt)
			pt = p;
		else if (!best || p->version > best->version)
			best = p;
	}
	if ((flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) && pt)
		best = pt;
	if (st && named)
		*st = best ? CU_GET_PROC_ADDRESS_SUCCESS :
			     CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
	if (best)
		*pfn = best->fn;
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn,
				       int cudaVersion, cuuint64_t flags,
				       CUdriverProcAddressQueryResult *status)
{
	CF_DRV_ENTER("cuGetProcAddress_v2");
	return lookup(symbol, pfn, cudaVersion, flags, status);
}

/* The 11.3 ABI: no status. */
CUresult cf_cuGetProcAddress_v1(const char *symbol, void **pfn,
				int cudaVersion, cuuint64_t flags)
{
	CF_DRV_ENTER("cuGetProcAddress");
	return lookup(symbol, pfn, cudaVersion, flags, NULL);
}
