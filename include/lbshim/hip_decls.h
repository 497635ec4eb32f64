/*
 * hip_decls.h - the HIP runtime's C declarations, plus the few that the
 * ROCm 5.2 headers leave out or declare for C++ only.
 *
 * Shared by the shim, hipemu and the test programs so that all three agree
 * on every signature in hip_api.def.
 */
#ifndef LB_HIP_DECLS_H
#define LB_HIP_DECLS_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <stdint.h>
#include <stddef.h>
#include <hip/hip_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The runtime's module list handle (a std::vector pointer in C++). */
typedef void **lb_modules_t;
/* A name the runtime returns (hipKernelNameRefByPtr): one token for RET. */
typedef const char *lb_cstr_t;

/* hipStreamLegacy is only in newer headers; same value as ROCm 6. */
#ifndef hipStreamLegacy
#define hipStreamLegacy ((hipStream_t)1)
#endif

/* Registration entry points that hipcc's generated code calls. */
lb_modules_t __hipRegisterFatBinary(const void *data);
void __hipRegisterFunction(lb_modules_t modules, const void *hostFunction,
			   char *deviceFunction, const char *deviceName,
			   unsigned int threadLimit, void *tid, void *bid,
			   dim3 *blockDim, dim3 *gridDim, int *wSize);
void __hipUnregisterFatBinary(lb_modules_t modules);

/* hip_ext.h is C++-only in ROCm 5.2. */
hipError_t hipExtModuleLaunchKernel(
	hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
	uint32_t globalWorkSizeZ, uint32_t localWorkSizeX,
	uint32_t localWorkSizeY, uint32_t localWorkSizeZ,
	size_t sharedMemBytes, hipStream_t hStream, void **kernelParams,
	void **extra, hipEvent_t startEvent, hipEvent_t stopEvent,
	uint32_t flags);
hipError_t hipHccModuleLaunchKernel(
	hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
	uint32_t globalWorkSizeZ, uint32_t localWorkSizeX,
	uint32_t localWorkSizeY, uint32_t localWorkSizeZ,
	size_t sharedMemBytes, hipStream_t hStream, void **kernelParams,
	void **extra, hipEvent_t startEvent, hipEvent_t stopEvent);
hipError_t hipExtLaunchKernel(const void *function_address, dim3 numBlocks,
			      dim3 dimBlocks, void **args,
			      size_t sharedMemBytes, hipStream_t stream,
			      hipEvent_t startEvent, hipEvent_t stopEvent,
			      int flags);

/*
 * Newer than ROCm 5.2: wrapped when the runtime has them.  Prototypes from
 * HIP's headers at the tag of the row's version (include/hip/
 * hip_runtime_api.h, amd_detail/amd_hip_runtime_pt_api.h); for 6.4+ from
 * clr hipamd/src/hip_api_trace.cpp.  Pointers to structures that 5.2 does
 * not know are void *, enums int: the same bytes reach the runtime.
 */
hipError_t hipMemsetAsync_spt(void *dst, int value, size_t sizeBytes,
			      hipStream_t stream);
hipError_t hipMemset2DAsync_spt(void *dst, size_t pitch, int value,
				size_t width, size_t height,
				hipStream_t stream);
hipError_t hipMemset3DAsync_spt(hipPitchedPtr pitchedDevPtr, int value,
				hipExtent extent, hipStream_t stream);
hipError_t hipMemsetD2D8(hipDeviceptr_t dst, size_t dstPitch,
			 unsigned char value, size_t width, size_t height);
hipError_t hipMemsetD2D8Async(hipDeviceptr_t dst, size_t dstPitch,
			      unsigned char value, size_t width,
			      size_t height, hipStream_t stream);
hipError_t hipMemsetD2D16(hipDeviceptr_t dst, size_t dstPitch,
			  unsigned short value, size_t width, size_t height);
hipError_t hipMemsetD2D16Async(hipDeviceptr_t dst, size_t dstPitch,
			       unsigned short value, size_t width,
			       size_t height, hipStream_t stream);
hipError_t hipMemsetD2D32(hipDeviceptr_t dst, size_t dstPitch,
			  unsigned int value, size_t width, size_t height);
hipError_t hipMemsetD2D32Async(hipDeviceptr_t dst, size_t dstPitch,
			       unsigned int value, size_t width,
			       size_t height, hipStream_t stream);
hipError_t hipMemcpyToSymbolAsync_spt(const void *symbol, const void *src,
				      size_t sizeBytes, size_t offset,
				      hipMemcpyKind kind, hipStream_t stream);
hipError_t hipMemcpyFromSymbolAsync_spt(void *dst, const void *symbol,
					size_t sizeBytes, size_t offset,
					hipMemcpyKind kind, hipStream_t stream);
hipError_t hipMemcpy2DAsync_spt(void *dst, size_t dpitch, const void *src,
				size_t spitch, size_t width, size_t height,
				hipMemcpyKind kind, hipStream_t stream);
hipError_t hipMemcpy3DAsync_spt(const struct hipMemcpy3DParms *p,
				hipStream_t stream);
hipError_t hipMemcpy2DToArrayAsync_spt(hipArray *dst, size_t wOffset,
				       size_t hOffset, const void *src,
				       size_t spitch, size_t width,
				       size_t height, hipMemcpyKind kind,
				       hipStream_t stream);
hipError_t hipMemcpy2DFromArrayAsync_spt(void *dst, size_t dpitch,
					 hipArray_const_t src, size_t wOffset,
					 size_t hOffset, size_t width,
					 size_t height, hipMemcpyKind kind,
					 hipStream_t stream);
hipError_t hipMemcpyFromArray_spt(void *dst, hipArray_const_t src,
				  size_t wOffsetSrc, size_t hOffset,
				  size_t count, hipMemcpyKind kind);
hipError_t hipMemcpyHtoAAsync(hipArray *dstArray, size_t dstOffset,
			      const void *srcHost, size_t count,
			      hipStream_t stream);
hipError_t hipMemcpyAtoHAsync(void *dst, hipArray *srcArray, size_t srcOffset,
			      size_t count, hipStream_t stream);
hipError_t hipMemcpyAtoD(hipDeviceptr_t dstDevice, hipArray *srcArray,
			 size_t srcOffset, size_t ByteCount);
hipError_t hipMemcpyDtoA(hipArray *dstArray, size_t dstOffset,
			 hipDeviceptr_t srcDevice, size_t ByteCount);
hipError_t hipMemcpyAtoA(hipArray *dstArray, size_t dstOffset,
			 hipArray *srcArray, size_t srcOffset,
			 size_t ByteCount);
hipError_t hipMemcpy2DArrayToArray(hipArray *dst, size_t wOffsetDst,
				   size_t hOffsetDst, hipArray_const_t src,
				   size_t wOffsetSrc, size_t hOffsetSrc,
				   size_t width, size_t height,
				   hipMemcpyKind kind);
hipError_t hipMemcpy3DPeer(void *p);
hipError_t hipMemcpy3DPeerAsync(void *p, hipStream_t stream);
hipError_t hipMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes,
			       size_t count, void *attrs, size_t *attrsIdxs,
			       size_t numAttrs, size_t *failIdx,
			       hipStream_t stream);
hipError_t hipMemcpy3DBatchAsync(size_t numOps, void *opList, size_t *failIdx,
				 unsigned long long flags, hipStream_t stream);
hipError_t hipMemPrefetchAsync_v2(const void *dev_ptr, size_t count,
				  hipMemLocation location, unsigned int flags,
				  hipStream_t stream);
hipError_t hipMemPrefetchBatchAsync(void **dev_ptrs, size_t *sizes,
				    size_t count, hipMemLocation *prefetch_locs,
				    size_t *prefetch_loc_idxs,
				    size_t num_prefetch_locs,
				    unsigned long long flags,
				    hipStream_t stream);
hipError_t hipEventRecord_spt(hipEvent_t event, hipStream_t stream);
hipError_t hipGetProcAddress(const char *symbol, void **pfn, int hipVersion,
			     uint64_t flags, void *symbolStatus);
/* hip_6.0 (clr hipamd/src/hip_hcc.map.in, rocm-6.0.0). */
hipError_t hipExtGetLastError(void);
/* include/hip/hip_deprecated.h, rocm-6.2.0: 5.2's hipDeviceProp_t. */
hipError_t hipGetDevicePropertiesR0000(hipDeviceProp_t *prop, int deviceId);
/* prop: a hipDeviceProp_tR0600 (include/hip/hip_runtime_api.h, rocm-6.2.0) */
hipError_t hipGetDevicePropertiesR0600(void *prop, int deviceId);
hipError_t hipStreamBatchMemOp(hipStream_t stream, unsigned int count,
			       void *paramArray, unsigned int flags);
hipError_t hipStreamGetCaptureInfo_spt(hipStream_t stream,
				       hipStreamCaptureStatus *pCaptureStatus,
				       unsigned long long *pId);
hipError_t hipStreamGetCaptureInfo_v2_spt(
	hipStream_t stream, hipStreamCaptureStatus *captureStatus_out,
	unsigned long long *id_out, hipGraph_t *graph_out,
	const hipGraphNode_t **dependencies_out, size_t *numDependencies_out);
hipError_t hipStreamBeginCapture_spt(hipStream_t stream,
				     hipStreamCaptureMode mode);
hipError_t hipStreamEndCapture_spt(hipStream_t stream, hipGraph_t *pGraph);
hipError_t hipStreamIsCapturing_spt(hipStream_t stream,
				    hipStreamCaptureStatus *pCaptureStatus);
hipError_t hipStreamBeginCaptureToGraph(hipStream_t stream, hipGraph_t graph,
					const hipGraphNode_t *dependencies,
					const void *dependencyData,
					size_t numDependencies,
					hipStreamCaptureMode mode);
hipError_t hipStreamAddCallback_spt(hipStream_t stream,
				    hipStreamCallback_t callback,
				    void *userData, unsigned int flags);
hipError_t hipLaunchHostFunc_spt(hipStream_t stream, hipHostFn_t fn,
				 void *userData);
hipError_t hipGraphLaunch_spt(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipGraphUpload(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipEventRecordWithFlags(hipEvent_t event, hipStream_t stream,
				   unsigned int flags);
hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t *device);
hipError_t hipStreamGetId(hipStream_t stream, unsigned long long *streamId);
hipError_t hipStreamGetAttribute(hipStream_t stream, int attr, void *value);
hipError_t hipStreamSetAttribute(hipStream_t stream, int attr,
				 const void *value);
hipError_t hipStreamCopyAttributes(hipStream_t dst, hipStream_t src);
hipError_t hipGetDriverEntryPoint(const char *symbol, void **funcPtr,
				  unsigned long long flags, void *status);
hipError_t hipGetDriverEntryPoint_spt(const char *symbol, void **funcPtr,
				      unsigned long long flags, void *status);
hipError_t hipGetProcAddress_spt(const char *symbol, void **pfn, int hipVersion,
				 uint64_t flags, void *symbolStatus);
hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f,
					    unsigned int gridDimX,
					    unsigned int gridDimY,
					    unsigned int gridDimZ,
					    unsigned int blockDimX,
					    unsigned int blockDimY,
					    unsigned int blockDimZ,
					    unsigned int sharedMemBytes,
					    hipStream_t stream,
					    void **kernelParams);
hipError_t hipModuleLaunchCooperativeKernelMultiDevice(void *launchParamsList,
						       unsigned int numDevices,
						       unsigned int flags);
hipError_t hipLaunchKernelExC(const void *config, const void *fPtr,
			      void **args);
hipError_t hipDrvLaunchKernelEx(const void *config, hipFunction_t f,
				void **params, void **extra);

#ifdef __cplusplus
}
#endif

#endif
