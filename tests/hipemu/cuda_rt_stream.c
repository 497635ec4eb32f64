/*
 * cuda_rt_stream.c - the CUDA runtime's streams, events and host work on
 * hipemu's device: hipemu's own streams and events (tests/hipemu/
 * README.md, "Streams", "Events"), so CUDA's legacy default stream
 * (0, cudaStreamLegacy) keeps the null stream's rules, cudaStreamPerThread
 * is the thread's per-thread stream, and a stream or event made through
 * either face works in the other.  The handles are the same numbers in
 * both (driver_types.h: cudaStreamLegacy 0x1, cudaStreamPerThread 0x2;
 * cuda_face.h cites HIP's).  The _ptsz forms: see cuda_rt_mem.c.
 */
#include "cuda_face.h"

/* ---- streams ---- */

CF_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
	CF_RT_ENTER("cudaStreamCreate");
	return cf_rt(CF_HIP(hipStreamCreate, (void **)pStream));
}

CF_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
						unsigned int flags)
{
	CF_RT_ENTER("cudaStreamCreateWithFlags");
	return cf_rt(CF_HIP(hipStreamCreateWithFlags, (void **)pStream,
			    flags));
}

CF_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
						   unsigned int flags,
						   int priority)
{
	CF_RT_ENTER("cudaStreamCreateWithPriority");
	return cf_rt(CF_HIP(hipStreamCreateWithPriority, (void **)pStream,
			    flags, priority));
}

CF_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	CF_RT_ENTER("cudaStreamDestroy");
	return cf_rt(CF_HIP(hipStreamDestroy, stream));
}

CF_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	CF_RT_ENTER("cudaStreamSynchronize");
	return cf_rt(CF_HIP(hipStreamSynchronize, stream));
}

CF_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
	CF_RT_ENTER("cudaStreamSynchronize_ptsz");
	return cf_rt(CF_HIP(hipStreamSynchronize, cf_ptsz(stream)));
}

CF_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	CF_RT_ENTER("cudaStreamQuery");
	return cf_rt(CF_HIP(hipStreamQuery, stream));
}

CF_EXPORT cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
	CF_RT_ENTER("cudaStreamQuery_ptsz");
	return cf_rt(CF_HIP(hipStreamQuery, cf_ptsz(stream)));
}

CF_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream,
					  cudaEvent_t event,
					  unsigned int flags)
{
	CF_RT_ENTER("cudaStreamWaitEvent");
	return cf_rt(CF_HIP(hipStreamWaitEvent, stream, event, flags));
}

CF_EXPORT cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream,
					       cudaEvent_t event,
					       unsigned int flags)
{
	CF_RT_ENTER("cudaStreamWaitEvent_ptsz");
	return cf_rt(CF_HIP(hipStreamWaitEvent, cf_ptsz(stream), event,
			    flags));
}

CF_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t hStream,
					 unsigned int *flags)
{
	CF_RT_ENTER("cudaStreamGetFlags");
	return cf_rt(CF_HIP(hipStreamGetFlags, hStream, flags));
}

CF_EXPORT cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream,
					      unsigned int *flags)
{
	CF_RT_ENTER("cudaStreamGetFlags_ptsz");
	return cf_rt(CF_HIP(hipStreamGetFlags, cf_ptsz(hStream), flags));
}

CF_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t hStream,
					    int *priority)
{
	CF_RT_ENTER("cudaStreamGetPriority");
	return cf_rt(CF_HIP(hipStreamGetPriority, hStream, priority));
}

CF_EXPORT cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream,
						 int *priority)
{
	CF_RT_ENTER("cudaStreamGetPriority_ptsz");
	return cf_rt(CF_HIP(hipStreamGetPriority, cf_ptsz(hStream),
			    priority));
}

/* ---- host work ---- */

/*
 * cudaStreamCallback_t (stream, status, userData) and hipStreamCallback_t
 * have the same parameters; hipemu calls it on the stream's worker after
 * the work before it, with the stream as named and status 0, which is
 * cudaSuccess.
 */
typedef void (*cf_hip_cb)(void *, int, void *);

CF_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream,
					    cudaStreamCallback_t callback,
					    void *userData,
					    unsigned int flags)
{
	CF_RT_ENTER("cudaStreamAddCallback");
	return cf_rt(CF_HIP(hipStreamAddCallback, stream,
			    (cf_hip_cb)callback, userData, flags));
}

CF_EXPORT cudaError_t cudaStreamAddCallback_ptsz(
	cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
	unsigned int flags)
{
	CF_RT_ENTER("cudaStreamAddCallback_ptsz");
	return cf_rt(CF_HIP(hipStreamAddCallback, cf_ptsz(stream),
			    (cf_hip_cb)callback, userData, flags));
}

CF_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
					 void *userData)
{
	CF_RT_ENTER("cudaLaunchHostFunc");
	return cf_rt(CF_HIP(hipLaunchHostFunc, stream, fn, userData));
}

CF_EXPORT cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream,
					      cudaHostFn_t fn,
					      void *userData)
{
	CF_RT_ENTER("cudaLaunchHostFunc_ptsz");
	return cf_rt(CF_HIP(hipLaunchHostFunc, cf_ptsz(stream), fn,
			    userData));
}

/* ---- events ---- */

CF_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	CF_RT_ENTER("cudaEventCreate");
	return cf_rt(CF_HIP(hipEventCreate, (void **)event));
}

CF_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
					       unsigned int flags)
{
	CF_RT_ENTER("cudaEventCreateWithFlags");
	return cf_rt(CF_HIP(hipEventCreateWithFlags, (void **)event, flags));
}

CF_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
	CF_RT_ENTER("cudaEventRecord");
	return cf_rt(CF_HIP(hipEventRecord, event, stream));
}

CF_EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t event,
					   cudaStream_t stream)
{
	CF_RT_ENTER("cudaEventRecord_ptsz");
	return cf_rt(CF_HIP(hipEventRecord, event, cf_ptsz(stream)));
}

/*
 * cudaEventRecordExternal only changes what a record inside a stream
 * capture becomes (driver_types.h); hipemu's CUDA face has no capture, so
 * both flags record as cudaEventRecord does.
 */
static cudaError_t record_flags(cudaEvent_t event, cudaStream_t stream,
				unsigned int flags)
{
	if (flags & ~(unsigned)cudaEventRecordExternal)
		return cf_rt_err(cudaErrorInvalidValue);
	return cf_rt(CF_HIP(hipEventRecord, event, stream));
}

CF_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event,
					       cudaStream_t stream,
					       unsigned int flags)
{
	CF_RT_ENTER("cudaEventRecordWithFlags");
	return record_flags(event, stream, flags);
}

CF_EXPORT cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event,
						    cudaStream_t stream,
						    unsigned int flags)
{
	CF_RT_ENTER("cudaEventRecordWithFlags_ptsz");
	return record_flags(event, cf_ptsz(stream), flags);
}

CF_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	CF_RT_ENTER("cudaEventSynchronize");
	return cf_rt(CF_HIP(hipEventSynchronize, event));
}

CF_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event)
{
	CF_RT_ENTER("cudaEventQuery");
	return cf_rt(CF_HIP(hipEventQuery, event));
}

CF_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
					   cudaEvent_t end)
{
	CF_RT_ENTER("cudaEventElapsedTime");
	return cf_rt(CF_HIP(hipEventElapsedTime, ms, start, end));
}

CF_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	CF_RT_ENTER("cudaEventDestroy");
	return cf_rt(CF_HIP(hipEventDestroy, event));
}
