/*
 * check_rt_values.c - every NVIDIA value of shim/rt_cuda.h against
 * NVIDIA's own headers (CUDA_HOME/include): compiling this file is the
 * check (t_rtvalues.sh).
 */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stddef.h>
#include "rt_cuda.h"

#define SAME(a, b) _Static_assert((long)(a) == (long)(b), #a " is " #b)
#define SAME2(a, b, c) SAME(a, b); SAME(a, c)

SAME2(LB_CU_SUCCESS, cudaSuccess, CUDA_SUCCESS);
SAME2(LB_CU_INVALID_VALUE, cudaErrorInvalidValue, CUDA_ERROR_INVALID_VALUE);
SAME2(LB_CU_OOM, cudaErrorMemoryAllocation, CUDA_ERROR_OUT_OF_MEMORY);
SAME2(LB_CU_NOT_INITIALIZED, cudaErrorInitializationError,
      CUDA_ERROR_NOT_INITIALIZED);
SAME2(LB_CU_NO_DEVICE, cudaErrorNoDevice, CUDA_ERROR_NO_DEVICE);
SAME2(LB_CU_INVALID_HANDLE, cudaErrorInvalidResourceHandle,
      CUDA_ERROR_INVALID_HANDLE);
SAME2(LB_CU_NOT_READY, cudaErrorNotReady, CUDA_ERROR_NOT_READY);
SAME2(LB_CU_CONTEXT_DESTROYED, cudaErrorContextIsDestroyed,
      CUDA_ERROR_CONTEXT_IS_DESTROYED);
SAME2(LB_CU_CAPTURE_UNSUPPORTED, cudaErrorStreamCaptureUnsupported,
      CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
SAME2(LB_CU_CAPTURE_IMPLICIT, cudaErrorStreamCaptureImplicit,
      CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
SAME2(LB_CU_CAPTURED_EVENT, cudaErrorCapturedEvent, CUDA_ERROR_CAPTURED_EVENT);
SAME2(LB_CU_STREAM_DEFAULT, cudaStreamDefault, CU_STREAM_DEFAULT);
SAME2(LB_CU_STREAM_NON_BLOCKING, cudaStreamNonBlocking,
      CU_STREAM_NON_BLOCKING);
SAME2(LB_CU_EVENT_DISABLE_TIMING, cudaEventDisableTiming,
      CU_EVENT_DISABLE_TIMING);
SAME2(LB_CU_CAPTURE_NONE, cudaStreamCaptureStatusNone,
      CU_STREAM_CAPTURE_STATUS_NONE);
SAME2(LB_CU_MEM_ATTACH_GLOBAL, cudaMemAttachGlobal, CU_MEM_ATTACH_GLOBAL);
SAME(LB_CU_MEMCPY_H2H, cudaMemcpyHostToHost);
SAME(LB_CU_MEMCPY_DEFAULT, cudaMemcpyDefault);
SAME(LB_CU_PTR_ATTR_RANGE_START, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR);
SAME(LB_CU_PTR_ATTR_RANGE_SIZE, CU_POINTER_ATTRIBUTE_RANGE_SIZE);
SAME2(LB_CU_ATTR_TEXTURE_PITCH_ALIGNMENT,
      CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT,
      cudaDevAttrTexturePitchAlignment);
SAME(LB_CU_LAUNCH_PARAM_END, CU_LAUNCH_PARAM_END_AS_INT);
SAME(LB_CU_LAUNCH_PARAM_BUFFER_POINTER, CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT);
SAME(LB_CU_LAUNCH_PARAM_BUFFER_SIZE, CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT);
_Static_assert(sizeof(struct lb_cu_ptr_attrs) ==
		       sizeof(struct cudaPointerAttributes) &&
		       offsetof(struct lb_cu_ptr_attrs, devicePointer) ==
			       offsetof(struct cudaPointerAttributes,
					devicePointer) &&
		       offsetof(struct lb_cu_ptr_attrs, hostPointer) ==
			       offsetof(struct cudaPointerAttributes,
					hostPointer),
	       "cudaPointerAttributes");

int main(void)
{
	/* the handles are pointers: compared at run time */
	return !((long)cudaStreamLegacy == LB_CU_STREAM_LEGACY &&
		 (long)CU_STREAM_LEGACY == LB_CU_STREAM_LEGACY &&
		 (long)cudaStreamPerThread == LB_CU_STREAM_PER_THREAD &&
		 (long)CU_STREAM_PER_THREAD == LB_CU_STREAM_PER_THREAD);
}
