/*
 * rt_cuda.h - NVIDIA's values that the CUDA side of the seam (rt_cuda.c)
 * relies on, written here so that the shim builds without the toolkit.
 * Each is CUDA 13.0's (/usr/local/cuda/include), file and line given;
 * tests/cuda/check_rt_values.c compares every one with NVIDIA's own
 * header where the toolkit is installed (group cuda).
 */
#ifndef LB_RT_CUDA_H
#define LB_RT_CUDA_H

enum {
	/* cudaError (driver_types.h) and CUresult (cuda.h): the two APIs
	 * number these alike */
	LB_CU_SUCCESS = 0,		/* driver_types.h:199, cuda.h:2517 */
	LB_CU_INVALID_VALUE = 1,	/* driver_types.h:205, cuda.h:2523 */
	LB_CU_OOM = 2,			/* driver_types.h:211 cudaErrorMemory
					 * Allocation, cuda.h:2529 */
	LB_CU_NOT_INITIALIZED = 3,	/* driver_types.h:217, cuda.h:2535 */
	LB_CU_NO_DEVICE = 100,		/* driver_types.h:530, cuda.h:2597 */
	LB_CU_INVALID_HANDLE = 400,	/* driver_types.h:738 cudaErrorInvalid
					 * ResourceHandle, cuda.h:2799 */
	LB_CU_NOT_READY = 600,		/* driver_types.h:767, cuda.h:2828 */
	LB_CU_CONTEXT_DESTROYED = 709,	/* driver_types.h:835, cuda.h:2891 */
	LB_CU_CAPTURE_UNSUPPORTED = 900, /* driver_types.h:1016, cuda.h:3074 */
	LB_CU_CAPTURE_IMPLICIT = 906,	/* driver_types.h:1052, cuda.h:3110 */
	LB_CU_CAPTURED_EVENT = 907,	/* driver_types.h:1058, cuda.h:3116 */

	/* flags: driver_types.h:100-101 cudaStreamDefault/NonBlocking,
	 * cuda.h:428-429 CU_STREAM_DEFAULT/NON_BLOCKING */
	LB_CU_STREAM_DEFAULT = 0,
	LB_CU_STREAM_NON_BLOCKING = 1,
	/* driver_types.h:125 cudaEventDisableTiming, cuda.h:458 */
	LB_CU_EVENT_DISABLE_TIMING = 2,
	/* driver_types.h:1419 cudaStreamCaptureStatusNone, cuda.h:2381 */
	LB_CU_CAPTURE_NONE = 0,
	/* driver_types.h:158 cudaMemAttachGlobal, cuda.h:366 */
	LB_CU_MEM_ATTACH_GLOBAL = 1,
	/* driver_types.h:1247-1251 cudaMemcpyHostToHost .. Default */
	LB_CU_MEMCPY_H2H = 0,
	LB_CU_MEMCPY_DEFAULT = 4,
	/* cuda.h:911-912 CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, _SIZE */
	LB_CU_PTR_ATTR_RANGE_START = 11,
	LB_CU_PTR_ATTR_RANGE_SIZE = 12,
	/* cuda.h:779 CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT,
	 * driver_types.h:1969 cudaDevAttrTexturePitchAlignment */
	LB_CU_ATTR_TEXTURE_PITCH_ALIGNMENT = 51,
	/* cuda.h:4907, :4918, :4934 CU_LAUNCH_PARAM_END_AS_INT,
	 * _BUFFER_POINTER_AS_INT, _BUFFER_SIZE_AS_INT */
	LB_CU_LAUNCH_PARAM_END = 0,
	LB_CU_LAUNCH_PARAM_BUFFER_POINTER = 1,
	LB_CU_LAUNCH_PARAM_BUFFER_SIZE = 2,
	/* driver_types.h:111, :121 cudaStreamLegacy, cudaStreamPerThread;
	 * cuda.h:440, :450 CU_STREAM_LEGACY, CU_STREAM_PER_THREAD */
	LB_CU_STREAM_LEGACY = 1,
	LB_CU_STREAM_PER_THREAD = 2
};

/*
 * driver_types.h:1618-1656 struct cudaPointerAttributes: enum
 * cudaMemoryType type; int device; void *devicePointer; void
 * *hostPointer; long reserved[8].
 */
struct lb_cu_ptr_attrs {
	int type;
	int device;
	void *devicePointer;
	void *hostPointer;
	long reserved[8];
};

#endif
