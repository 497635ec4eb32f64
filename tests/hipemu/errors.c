/*
 * errors.c - names and messages of hipError_t (the ROCm 5.2 enum), and the
 * name lookup fault injection uses.
 */
#include "he.h"

#include <stdlib.h>
#include <string.h>

struct he_errname {
	int code;
	const char *name;
	const char *text;
};

/*
 * In enum order; an alias (hipErrorMemoryAllocation...) follows its
 * canonical name so that a code prints by the first one.  Messages are the
 * CUDA-style ones the real runtime returns.
 */
static const struct he_errname he_errs[] = {
#define E(n, t) { n, #n, t },
	E(hipSuccess, "no error")
	E(hipErrorInvalidValue, "invalid argument")
	E(hipErrorOutOfMemory, "out of memory")
	E(hipErrorMemoryAllocation, "out of memory")
	E(hipErrorNotInitialized, "initialization error")
	E(hipErrorInitializationError, "initialization error")
	E(hipErrorDeinitialized, "driver shutting down")
	E(hipErrorProfilerDisabled, "profiler disabled while using external profiling tool")
	E(hipErrorProfilerNotInitialized, "profiler is not initialized")
	E(hipErrorProfilerAlreadyStarted, "profiler already started")
	E(hipErrorProfilerAlreadyStopped, "profiler already stopped")
	E(hipErrorInvalidConfiguration, "invalid configuration argument")
	E(hipErrorInvalidPitchValue, "invalid pitch argument")
	E(hipErrorInvalidSymbol, "invalid device symbol")
	E(hipErrorInvalidDevicePointer, "invalid device pointer")
	E(hipErrorInvalidMemcpyDirection, "invalid copy direction for memcpy")
	E(hipErrorInsufficientDriver, "driver version is insufficient for runtime version")
	E(hipErrorMissingConfiguration, "__global__ function call is not configured")
	E(hipErrorPriorLaunchFailure, "unspecified launch failure in prior launch")
	E(hipErrorInvalidDeviceFunction, "invalid device function")
	E(hipErrorNoDevice, "no ROCm-capable device is detected")
	E(hipErrorInvalidDevice, "invalid device ordinal")
	E(hipErrorInvalidImage, "device kernel image is invalid")
	E(hipErrorInvalidContext, "invalid device context")
	E(hipErrorContextAlreadyCurrent, "context already current")
	E(hipErrorMapFailed, "mapping of buffer object failed")
	E(hipErrorMapBufferObjectFailed, "mapping of buffer object failed")
	E(hipErrorUnmapFailed, "unmapping of buffer object failed")
	E(hipErrorArrayIsMapped, "array is mapped")
	E(hipErrorAlreadyMapped, "resource already mapped")
	E(hipErrorNoBinaryForGpu, "no kernel image is available for execution on the device")
	E(hipErrorAlreadyAcquired, "resource already acquired")
	E(hipErrorNotMapped, "resource not mapped")
	E(hipErrorNotMappedAsArray, "resource not mapped as array")
	E(hipErrorNotMappedAsPointer, "resource not mapped as pointer")
	E(hipErrorECCNotCorrectable, "uncorrectable ECC error encountered")
	E(hipErrorUnsupportedLimit, "limit is not supported on this architecture")
	E(hipErrorContextAlreadyInUse, "exclusive-thread device already in use by a different thread")
	E(hipErrorPeerAccessUnsupported, "peer access is not supported between these two devices")
	E(hipErrorInvalidKernelFile, "invalid kernel file")
	E(hipErrorInvalidGraphicsContext, "invalid OpenGL or DirectX context")
	E(hipErrorInvalidSource, "device kernel image is invalid")
	E(hipErrorFileNotFound, "file not found")
	E(hipErrorSharedObjectSymbolNotFound, "shared object symbol not found")
	E(hipErrorSharedObjectInitFailed, "shared object initialization failed")
	E(hipErrorOperatingSystem, "OS call failed or operation not supported on this OS")
	E(hipErrorInvalidHandle, "invalid resource handle")
	E(hipErrorInvalidResourceHandle, "invalid resource handle")
	E(hipErrorIllegalState, "the operation cannot be performed in the present state")
	E(hipErrorNotFound, "named symbol not found")
	E(hipErrorNotReady, "device not ready")
	E(hipErrorIllegalAddress, "an illegal memory access was encountered")
	E(hipErrorLaunchOutOfResources, "too many resources requested for launch")
	E(hipErrorLaunchTimeOut, "the launch timed out and was terminated")
	E(hipErrorPeerAccessAlreadyEnabled, "peer access is already enabled")
	E(hipErrorPeerAccessNotEnabled, "peer access has not been enabled")
	E(hipErrorSetOnActiveProcess, "cannot set while device is active in this process")
	E(hipErrorContextIsDestroyed, "context is destroyed")
	E(hipErrorAssert, "device-side assert triggered")
	E(hipErrorHostMemoryAlreadyRegistered, "part or all of the requested memory range is already mapped")
	E(hipErrorHostMemoryNotRegistered, "pointer does not correspond to a registered memory region")
	E(hipErrorLaunchFailure, "unspecified launch failure")
	E(hipErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch")
	E(hipErrorNotSupported, "operation not supported")
	E(hipErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing")
	E(hipErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture")
	E(hipErrorStreamCaptureMerge, "operation would result in a merge of separate capture sequences")
	E(hipErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it began")
	E(hipErrorStreamCaptureUnjoined, "capturing stream has unjoined work")
	E(hipErrorStreamCaptureIsolation, "dependency created on uncaptured work in another stream")
	E(hipErrorStreamCaptureImplicit, "operation would make the legacy stream depend on a capturing blocking stream")
	E(hipErrorCapturedEvent, "operation not permitted on an event last recorded in a capturing stream")
	E(hipErrorStreamCaptureWrongThread, "attempt to terminate a thread-local capture sequence from another thread")
	E(hipErrorGraphExecUpdateFailure, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update")
	E(hipErrorUnknown, "unknown error")
	E(hipErrorRuntimeMemory, "runtime memory call returned error")
	E(hipErrorRuntimeOther, "runtime call other than memory returned error")
#undef E
};

#define HE_NERRS (sizeof(he_errs) / sizeof(he_errs[0]))

static const struct he_errname *find_code(hipError_t e)
{
	for (size_t i = 0; i < HE_NERRS; i++)
		if (he_errs[i].code == (int)e)
			return &he_errs[i];
	return NULL;
}

int he_error_by_name(const char *name)
{
	char *end;
	long v;

	for (size_t i = 0; i < HE_NERRS; i++)
		if (!strcmp(he_errs[i].name, name))
			return he_errs[i].code;
	v = strtol(name, &end, 10);
	if (*name && !*end && v > 0)
		return (int)v;
	return -1;
}

HE_EXPORT const char *hipGetErrorName(hipError_t hip_error)
{
	const struct he_errname *e;

	HE_COUNT("hipGetErrorName");
	e = find_code(hip_error);
	return e ? e->name : "hipErrorUnknown";
}

HE_EXPORT const char *hipGetErrorString(hipError_t hipError)
{
	const struct he_errname *e;

	HE_COUNT("hipGetErrorString");
	e = find_code(hipError);
	return e ? e->text : "unknown error";
}
