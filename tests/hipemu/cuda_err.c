/*
 * cuda_err.c - the CUDA face's error codes: names and messages of
 * cudaError_t and CUresult, and the translation of hipemu's hipError_t
 * results into them.
 *
 * cf_rt_errs is every code NVIDIA's libcudart.so.13 (CUDA 13.0, V13.0.88)
 * names: the code, cudaGetErrorName and cudaGetErrorString of the real
 * library for each code from 0 to 9999 that it does not call
 * "unrecognized error code"; the codes and names are exactly enum
 * cudaError of include/driver_types.h.  The test t_cuda_errors.sh
 * compares every code with the real library.
 *
 * cf_drv_errs is enum cudaError_enum (CUresult) of include/cuda.h, CUDA
 * 13.0.  Every CUresult but 202 and 916 has a cudaError_t of the same
 * number, and the driver's message is that one (cudart's messages are the
 * driver's); the two others are worded from their comments in cuda.h.
 * There is no real driver here to compare with.
 */
#include "cuda_face.h"

#include <stddef.h>

struct cf_err {
	int code;
	const char *name;
	const char *text;	/* NULL: the cudaError_t's of that number */
};

static const struct cf_err cf_rt_errs[] = {
	{ 0, "cudaSuccess",
	  "no error" },
	{ 1, "cudaErrorInvalidValue",
	  "invalid argument" },
	{ 2, "cudaErrorMemoryAllocation",
	  "out of memory" },
	{ 3, "cudaErrorInitializationError",
	  "initialization error" },
	{ 4, "cudaErrorCudartUnloading",
	  "driver shutting down" },
	{ 5, "cudaErrorProfilerDisabled",
	  "profiler disabled while using external profiling tool" },
	{ 6, "cudaErrorProfilerNotInitialized",
	  "profiler not initialized: call cudaProfilerInitialize()" },
	{ 7, "cudaErrorProfilerAlreadyStarted",
	  "profiler already started" },
	{ 8, "cudaErrorProfilerAlreadyStopped",
	  "profiler already stopped" },
	{ 9, "cudaErrorInvalidConfiguration",
	  "invalid configuration argument" },
	{ 12, "cudaErrorInvalidPitchValue",
	  "invalid pitch argument" },
	{ 13, "cudaErrorInvalidSymbol",
	  "invalid device symbol" },
	{ 16, "cudaErrorInvalidHostPointer",
	  "invalid host pointer" },
	{ 17, "cudaErrorInvalidDevicePointer",
	  "invalid device pointer" },
	{ 18, "cudaErrorInvalidTexture",
	  "invalid texture reference" },
	{ 19, "cudaErrorInvalidTextureBinding",
	  "texture is not bound to a pointer" },
	{ 20, "cudaErrorInvalidChannelDescriptor",
	  "invalid channel descriptor" },
	{ 21, "cudaErrorInvalidMemcpyDirection",
	  "invalid copy direction for memcpy" },
	{ 22, "cudaErrorAddressOfConstant",
	  "invalid address of constant" },
	{ 23, "cudaErrorTextureFetchFailed",
	  "fetch from texture failed" },
	{ 24, "cudaErrorTextureNotBound",
	  "cannot fetch from a texture that is not bound" },
	{ 25, "cudaErrorSynchronizationError",
	  "incorrect use of __syncthreads()" },
	{ 26, "cudaErrorInvalidFilterSetting",
	  "linear filtering not supported for non-float type" },
	{ 27, "cudaErrorInvalidNormSetting",
	  "read as normalized float not supported for data type" },
	{ 28, "cudaErrorMixedDeviceExecution",
	  "device emulation mode and device execution mode cannot be mixed" },
	{ 31, "cudaErrorNotYetImplemented",
	  "feature not yet implemented" },
	{ 32, "cudaErrorMemoryValueTooLarge",
	  "memory size or pointer value too large to fit in 32 bit" },
	{ 34, "cudaErrorStubLibrary",
	  "CUDA driver is a stub library" },
	{ 35, "cudaErrorInsufficientDriver",
	  "CUDA driver version is insufficient for CUDA runtime version" },
	{ 36, "cudaErrorCallRequiresNewerDriver",
	  "API call is not supported in the installed CUDA driver" },
	{ 37, "cudaErrorInvalidSurface",
	  "invalid surface reference" },
	{ 43, "cudaErrorDuplicateVariableName",
	  "duplicate global variable looked up by string name" },
	{ 44, "cudaErrorDuplicateTextureName",
	  "duplicate texture looked up by string name" },
	{ 45, "cudaErrorDuplicateSurfaceName",
	  "duplicate surface looked up by string name" },
	{ 46, "cudaErrorDevicesUnavailable",
	  "CUDA-capable device(s) is/are busy or unavailable" },
	{ 49, "cudaErrorIncompatibleDriverContext",
	  "incompatible driver context" },
	{ 52, "cudaErrorMissingConfiguration",
	  "__global__ function call is not configured" },
	{ 53, "cudaErrorPriorLaunchFailure",
	  "unspecified launch failure in prior launch" },
	{ 65, "cudaErrorLaunchMaxDepthExceeded",
	  "launch would exceed maximum depth of nested launches" },
	{ 66, "cudaErrorLaunchFileScopedTex",
	  "launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)" },
	{ 67, "cudaErrorLaunchFileScopedSurf",
	  "launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)" },
	{ 68, "cudaErrorSyncDepthExceeded",
	  "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth" },
	{ 69, "cudaErrorLaunchPendingCountExceeded",
	  "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount" },
	{ 98, "cudaErrorInvalidDeviceFunction",
	  "invalid device function" },
	{ 100, "cudaErrorNoDevice",
	  "no CUDA-capable device is detected" },
	{ 101, "cudaErrorInvalidDevice",
	  "invalid device ordinal" },
	{ 102, "cudaErrorDeviceNotLicensed",
	  "device doesn't have valid Grid license" },
	{ 103, "cudaErrorSoftwareValidityNotEstablished",
	  "integrity checks failed" },
	{ 127, "cudaErrorStartupFailure",
	  "startup failure in cuda runtime" },
	{ 200, "cudaErrorInvalidKernelImage",
	  "device kernel image is invalid" },
	{ 201, "cudaErrorDeviceUninitialized",
	  "invalid device context" },
	{ 205, "cudaErrorMapBufferObjectFailed",
	  "mapping of buffer object failed" },
	{ 206, "cudaErrorUnmapBufferObjectFailed",
	  "unmapping of buffer object failed" },
	{ 207, "cudaErrorArrayIsMapped",
	  "array is mapped" },
	{ 208, "cudaErrorAlreadyMapped",
	  "resource already mapped" },
	{ 209, "cudaErrorNoKernelImageForDevice",
	  "no kernel image is available for execution on the device" },
	{ 210, "cudaErrorAlreadyAcquired",
	  "resource already acquired" },
	{ 211, "cudaErrorNotMapped",
	  "resource not mapped" },
	{ 212, "cudaErrorNotMappedAsArray",
	  "resource not mapped as array" },
	{ 213, "cudaErrorNotMappedAsPointer",
	  "resource not mapped as pointer" },
	{ 214, "cudaErrorECCUncorrectable",
	  "uncorrectable ECC error encountered" },
	{ 215, "cudaErrorUnsupportedLimit",
	  "limit is not supported on this architecture" },
	{ 216, "cudaErrorDeviceAlreadyInUse",
	  "exclusive-thread device already in use by a different thread" },
	{ 217, "cudaErrorPeerAccessUnsupported",
	  "peer access is not supported between these two devices" },
	{ 218, "cudaErrorInvalidPtx",
	  "a PTX JIT compilation failed" },
	{ 219, "cudaErrorInvalidGraphicsContext",
	  "invalid OpenGL or DirectX context" },
	{ 220, "cudaErrorNvlinkUncorrectable",
	  "uncorrectable NVLink error detected during the execution" },
	{ 221, "cudaErrorJitCompilerNotFound",
	  "PTX JIT compiler library not found" },
	{ 222, "cudaErrorUnsupportedPtxVersion",
	  "the provided PTX was compiled with an unsupported toolchain." },
	{ 223, "cudaErrorJitCompilationDisabled",
	  "PTX JIT compilation was disabled" },
	{ 224, "cudaErrorUnsupportedExecAffinity",
	  "the provided execution affinity is not supported" },
	{ 225, "cudaErrorUnsupportedDevSideSync",
	  "the provided PTX contains unsupported call to cudaDeviceSynchronize" },
	{ 226, "cudaErrorContained",
	  "Invalid access of peer GPU memory over nvlink or a hardware error" },
	{ 300, "cudaErrorInvalidSource",
	  "device kernel image is invalid" },
	{ 301, "cudaErrorFileNotFound",
	  "file not found" },
	{ 302, "cudaErrorSharedObjectSymbolNotFound",
	  "shared object symbol not found" },
	{ 303, "cudaErrorSharedObjectInitFailed",
	  "shared object initialization failed" },
	{ 304, "cudaErrorOperatingSystem",
	  "OS call failed or operation not supported on this OS" },
	{ 400, "cudaErrorInvalidResourceHandle",
	  "invalid resource handle" },
	{ 401, "cudaErrorIllegalState",
	  "the operation cannot be performed in the present state" },
	{ 402, "cudaErrorLossyQuery",
	  "attempted introspection would be semantically lossy" },
	{ 500, "cudaErrorSymbolNotFound",
	  "named symbol not found" },
	{ 600, "cudaErrorNotReady",
	  "device not ready" },
	{ 700, "cudaErrorIllegalAddress",
	  "an illegal memory access was encountered" },
	{ 701, "cudaErrorLaunchOutOfResources",
	  "too many resources requested for launch" },
	{ 702, "cudaErrorLaunchTimeout",
	  "the launch timed out and was terminated" },
	{ 703, "cudaErrorLaunchIncompatibleTexturing",
	  "launch uses incompatible texturing mode" },
	{ 704, "cudaErrorPeerAccessAlreadyEnabled",
	  "peer access is already enabled" },
	{ 705, "cudaErrorPeerAccessNotEnabled",
	  "peer access has not been enabled" },
	{ 708, "cudaErrorSetOnActiveProcess",
	  "cannot set while device is active in this process" },
	{ 709, "cudaErrorContextIsDestroyed",
	  "context is destroyed" },
	{ 710, "cudaErrorAssert",
	  "device-side assert triggered" },
	{ 711, "cudaErrorTooManyPeers",
	  "peer mapping resources exhausted" },
	{ 712, "cudaErrorHostMemoryAlreadyRegistered",
	  "part or all of the requested memory range is already mapped" },
	{ 713, "cudaErrorHostMemoryNotRegistered",
	  "pointer does not correspond to a registered memory region" },
	{ 714, "cudaErrorHardwareStackError",
	  "hardware stack error" },
	{ 715, "cudaErrorIllegalInstruction",
	  "an illegal instruction was encountered" },
	{ 716, "cudaErrorMisalignedAddress",
	  "misaligned address" },
	{ 717, "cudaErrorInvalidAddressSpace",
	  "operation not supported on global/shared address space" },
	{ 718, "cudaErrorInvalidPc",
	  "invalid program counter" },
	{ 719, "cudaErrorLaunchFailure",
	  "unspecified launch failure" },
	{ 720, "cudaErrorCooperativeLaunchTooLarge",
	  "too many blocks in cooperative launch" },
	{ 721, "cudaErrorTensorMemoryLeak",
	  "tensor memory not completely freed" },
	{ 800, "cudaErrorNotPermitted",
	  "operation not permitted" },
	{ 801, "cudaErrorNotSupported",
	  "operation not supported" },
	{ 802, "cudaErrorSystemNotReady",
	  "system not yet initialized" },
	{ 803, "cudaErrorSystemDriverMismatch",
	  "system has unsupported display driver / cuda driver combination" },
	{ 804, "cudaErrorCompatNotSupportedOnDevice",
	  "forward compatibility was attempted on non supported HW" },
	{ 805, "cudaErrorMpsConnectionFailed",
	  "MPS client failed to connect to the MPS control daemon or the MPS server" },
	{ 806, "cudaErrorMpsRpcFailure",
	  "the remote procedural call between the MPS server and the MPS client failed" },
	{ 807, "cudaErrorMpsServerNotReady",
	  "MPS server is not ready to accept new MPS client requests" },
	{ 808, "cudaErrorMpsMaxClientsReached",
	  "the hardware resources required to create MPS client have been exhausted" },
	{ 809, "cudaErrorMpsMaxConnectionsReached",
	  "the hardware resources required to support device connections have been exhausted" },
	{ 810, "cudaErrorMpsClientTerminated",
	  "the MPS client has been terminated by the server" },
	{ 811, "cudaErrorCdpNotSupported",
	  "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it" },
	{ 812, "cudaErrorCdpVersionMismatch",
	  "unsupported interaction between different versions of CUDA Dynamic Parallelism" },
	{ 900, "cudaErrorStreamCaptureUnsupported",
	  "operation not permitted when stream is capturing" },
	{ 901, "cudaErrorStreamCaptureInvalidated",
	  "operation failed due to a previous error during capture" },
	{ 902, "cudaErrorStreamCaptureMerge",
	  "operation would result in a merge of separate capture sequences" },
	{ 903, "cudaErrorStreamCaptureUnmatched",
	  "capture was not ended in the same stream as it began" },
	{ 904, "cudaErrorStreamCaptureUnjoined",
	  "capturing stream has unjoined work" },
	{ 905, "cudaErrorStreamCaptureIsolation",
	  "dependency created on uncaptured work in another stream" },
	{ 906, "cudaErrorStreamCaptureImplicit",
	  "operation would make the legacy stream depend on a capturing blocking stream" },
	{ 907, "cudaErrorCapturedEvent",
	  "operation not permitted on an event last recorded in a capturing stream" },
	{ 908, "cudaErrorStreamCaptureWrongThread",
	  "attempt to terminate a thread-local capture sequence from another thread" },
	{ 909, "cudaErrorTimeout",
	  "wait operation timed out" },
	{ 910, "cudaErrorGraphExecUpdateFailure",
	  "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update" },
	{ 911, "cudaErrorExternalDevice",
	  "an async error has occured in external entity outside of CUDA" },
	{ 912, "cudaErrorInvalidClusterSize",
	  "a kernel launch error has occurred due to cluster misconfiguration" },
	{ 913, "cudaErrorFunctionNotLoaded",
	  "the function handle is not loaded when calling an API that requires a loaded function" },
	{ 914, "cudaErrorInvalidResourceType",
	  "one or more resources passed in are not valid resource types for the operation" },
	{ 915, "cudaErrorInvalidResourceConfiguration",
	  "one or more resources are insufficient or non-applicable for the operation" },
	{ 999, "cudaErrorUnknown",
	  "unknown error" },
};

static const struct cf_err cf_drv_errs[] = {
	{ 0, "CUDA_SUCCESS", NULL },
	{ 1, "CUDA_ERROR_INVALID_VALUE", NULL },
	{ 2, "CUDA_ERROR_OUT_OF_MEMORY", NULL },
	{ 3, "CUDA_ERROR_NOT_INITIALIZED", NULL },
	{ 4, "CUDA_ERROR_DEINITIALIZED", NULL },
	{ 5, "CUDA_ERROR_PROFILER_DISABLED", NULL },
	{ 6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED", NULL },
	{ 7, "CUDA_ERROR_PROFILER_ALREADY_STARTED", NULL },
	{ 8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED", NULL },
	{ 34, "CUDA_ERROR_STUB_LIBRARY", NULL },
	{ 36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", NULL },
	{ 46, "CUDA_ERROR_DEVICE_UNAVAILABLE", NULL },
	{ 100, "CUDA_ERROR_NO_DEVICE", NULL },
	{ 101, "CUDA_ERROR_INVALID_DEVICE", NULL },
	{ 102, "CUDA_ERROR_DEVICE_NOT_LICENSED", NULL },
	{ 200, "CUDA_ERROR_INVALID_IMAGE", NULL },
	{ 201, "CUDA_ERROR_INVALID_CONTEXT", NULL },
	{ 202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT",
	  "context already current" },
	{ 205, "CUDA_ERROR_MAP_FAILED", NULL },
	{ 206, "CUDA_ERROR_UNMAP_FAILED", NULL },
	{ 207, "CUDA_ERROR_ARRAY_IS_MAPPED", NULL },
	{ 208, "CUDA_ERROR_ALREADY_MAPPED", NULL },
	{ 209, "CUDA_ERROR_NO_BINARY_FOR_GPU", NULL },
	{ 210, "CUDA_ERROR_ALREADY_ACQUIRED", NULL },
	{ 211, "CUDA_ERROR_NOT_MAPPED", NULL },
	{ 212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY", NULL },
	{ 213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER", NULL },
	{ 214, "CUDA_ERROR_ECC_UNCORRECTABLE", NULL },
	{ 215, "CUDA_ERROR_UNSUPPORTED_LIMIT", NULL },
	{ 216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", NULL },
	{ 217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", NULL },
	{ 218, "CUDA_ERROR_INVALID_PTX", NULL },
	{ 219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", NULL },
	{ 220, "CUDA_ERROR_NVLINK_UNCORRECTABLE", NULL },
	{ 221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", NULL },
	{ 222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", NULL },
	{ 223, "CUDA_ERROR_JIT_COMPILATION_DISABLED", NULL },
	{ 224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY", NULL },
	{ 225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC", NULL },
	{ 226, "CUDA_ERROR_CONTAINED", NULL },
	{ 300, "CUDA_ERROR_INVALID_SOURCE", NULL },
	{ 301, "CUDA_ERROR_FILE_NOT_FOUND", NULL },
	{ 302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", NULL },
	{ 303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", NULL },
	{ 304, "CUDA_ERROR_OPERATING_SYSTEM", NULL },
	{ 400, "CUDA_ERROR_INVALID_HANDLE", NULL },
	{ 401, "CUDA_ERROR_ILLEGAL_STATE", NULL },
	{ 402, "CUDA_ERROR_LOSSY_QUERY", NULL },
	{ 500, "CUDA_ERROR_NOT_FOUND", NULL },
	{ 600, "CUDA_ERROR_NOT_READY", NULL },
	{ 700, "CUDA_ERROR_ILLEGAL_ADDRESS", NULL },
	{ 701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", NULL },
	{ 702, "CUDA_ERROR_LAUNCH_TIMEOUT", NULL },
	{ 703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING", NULL },
	{ 704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", NULL },
	{ 705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", NULL },
	{ 708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", NULL },
	{ 709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", NULL },
	{ 710, "CUDA_ERROR_ASSERT", NULL },
	{ 711, "CUDA_ERROR_TOO_MANY_PEERS", NULL },
	{ 712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", NULL },
	{ 713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", NULL },
	{ 714, "CUDA_ERROR_HARDWARE_STACK_ERROR", NULL },
	{ 715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", NULL },
	{ 716, "CUDA_ERROR_MISALIGNED_ADDRESS", NULL },
	{ 717, "CUDA_ERROR_INVALID_ADDRESS_SPACE", NULL },
	{ 718, "CUDA_ERROR_INVALID_PC", NULL },
	{ 719, "CUDA_ERROR_LAUNCH_FAILED", NULL },
	{ 720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", NULL },
	{ 721, "CUDA_ERROR_TENSOR_MEMORY_LEAK", NULL },
	{ 800, "CUDA_ERROR_NOT_PERMITTED", NULL },
	{ 801, "CUDA_ERROR_NOT_SUPPORTED", NULL },
	{ 802, "CUDA_ERROR_SYSTEM_NOT_READY", NULL },
	{ 803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", NULL },
	{ 804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", NULL },
	{ 805, "CUDA_ERROR_MPS_CONNECTION_FAILED", NULL },
	{ 806, "CUDA_ERROR_MPS_RPC_FAILURE", NULL },
	{ 807, "CUDA_ERROR_MPS_SERVER_NOT_READY", NULL },
	{ 808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED", NULL },
	{ 809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED", NULL },
	{ 810, "CUDA_ERROR_MPS_CLIENT_TERMINATED", NULL },
	{ 811, "CUDA_ERROR_CDP_NOT_SUPPORTED", NULL },
	{ 812, "CUDA_ERROR_CDP_VERSION_MISMATCH", NULL },
	{ 900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", NULL },
	{ 901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", NULL },
	{ 902, "CUDA_ERROR_STREAM_CAPTURE_MERGE", NULL },
	{ 903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", NULL },
	{ 904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED", NULL },
	{ 905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION", NULL },
	{ 906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT", NULL },
	{ 907, "CUDA_ERROR_CAPTURED_EVENT", NULL },
	{ 908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD", NULL },
	{ 909, "CUDA_ERROR_TIMEOUT", NULL },
	{ 910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE", NULL },
	{ 911, "CUDA_ERROR_EXTERNAL_DEVICE", NULL },
	{ 912, "CUDA_ERROR_INVALID_CLUSTER_SIZE", NULL },
	{ 913, "CUDA_ERROR_FUNCTION_NOT_LOADED", NULL },
	{ 914, "CUDA_ERROR_INVALID_RESOURCE_TYPE", NULL },
	{ 915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION", NULL },
	{ 916, "CUDA_ERROR_KEY_ROTATION",
	  "error during the key rotation sequence" },
	{ 999, "CUDA_ERROR_UNKNOWN", NULL },
};

#define CF_N(t) (sizeof(t) / sizeof((t)[0]))

/* Both tables are in ascending order of code. */
static const struct cf_err *find(const struct cf_err *t, size_t n, int code)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t[mid].code == code)
			return &t[mid];
		if (t[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *cf_rt_err_name(int code)
{
	const struct cf_err *e = find(cf_rt_errs, CF_N(cf_rt_errs), code);

	return e ? e->name : "unrecognized error code";
}

const char *cf_rt_err_string(int code)
{
	const struct cf_err *e = find(cf_rt_errs, CF_N(cf_rt_errs), code);

	return e ? e->text : "unrecognized error code";
}

const char *cf_drv_err_name(int code)
{
	const struct cf_err *e = find(cf_drv_errs, CF_N(cf_drv_errs), code);

	return e ? e->name : NULL;
}

const char *cf_drv_err_string(int code)
{
	const struct cf_err *e = find(cf_drv_errs, CF_N(cf_drv_errs), code);

	if (!e)
		return NULL;
	return e->text ? e->text : cf_rt_err_string(code);
}

/*
 * hipError_t's codes are CUDA's: every hipError_t of ROCm 5.2's
 * include/hip/hip_runtime_api.h that cudaError_t has carries the number of
 * its CUDA twin (hipErrorOutOfMemory 2 = cudaErrorMemoryAllocation,
 * hipErrorInvalidHandle 400 = cudaErrorInvalidResourceHandle, ...).  The
 * rest (202 hipErrorContextAlreadyCurrent, 1052 hipErrorRuntimeMemory,
 * 1053 hipErrorRuntimeOther) have no twin.
 */
cudaError_t cf_rt_from_hip(int err)
{
	if (find(cf_rt_errs, CF_N(cf_rt_errs), err))
		return (cudaError_t)err;
	return cudaErrorUnknown;
}

/*
 * The same numbering holds for CUresult where the driver has the code;
 * the runtime's own codes become what the driver says for the same
 * mistake: a bad configuration, pitch, symbol, pointer or copy direction
 * is CUDA_ERROR_INVALID_VALUE, a function that is not one
 * CUDA_ERROR_INVALID_HANDLE (cuda.h: cuLaunchKernel's returns).
 */
CUresult cf_drv_from_hip(int err)
{
	if (find(cf_drv_errs, CF_N(cf_drv_errs), err))
		return (CUresult)err;
	switch (err) {
	case cudaErrorInvalidConfiguration:
	case cudaErrorInvalidPitchValue:
	case cudaErrorInvalidSymbol:
	case cudaErrorInvalidDevicePointer:
	case cudaErrorInvalidMemcpyDirection:
	case cudaErrorMissingConfiguration:
		return CUDA_ERROR_INVALID_VALUE;
	case cudaErrorInvalidDeviceFunction:
		return CUDA_ERROR_INVALID_HANDLE;
	default:
		return CUDA_ERROR_UNKNOWN;
	}
}
