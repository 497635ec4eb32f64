/*
 * streamops.c - stream memory operations (wait and write value), capture
 * queries, stream queries, interop and the _spt forms of 5.3 that share
 * their plain form's semantics, and the entry-point lookups.
 *
 * Wait and write ops are host functions on the stream's worker: a wait
 * holds its stream (only it) until the condition holds, as the device's
 * wait packet does.  The errors follow clr (rocm-6.2.0): ihipStreamOperation
 * (hipamd/src/hip_stream_ops.cpp) wants a pointer inside a device
 * allocation and a known wait flag, else hipErrorInvalidValue; graphics
 * interop without a GL context is hipErrorUnknown (hip_gl.cpp); external
 * semaphores need valid handles (hip_memory.cpp), and hipemu imports none;
 * hipMemMapArrayAsync is hipErrorNotSupported (hip_vm.cpp).
 *
 * The _spt forms whose plain form lives in another file are served by that
 * form, looked up in this library itself (never through the PLT, which a
 * preloaded shim would answer), with 0 meaning the per-thread stream; such
 * a call counts under both names in HIPEMU_STATS.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <time.h>
#include "he.h"
#include <dlfcn.h>

static hipStream_t spt(hipStream_t s)
{
	return s ? s : hipStreamPerThread;
}

/* This library's own definition of name (never the shim's). */
static void *self_sym(const char *name)
{
	static void *self;
	Dl_info di;

	if (!self && dladdr((void *)self_sym, &di) && di.dli_fname)
		self = dlopen(di.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	return self ? dlsym(self, name) : NULL;
}

#define HE_SELF(NAME) ((__typeof__(&NAME))self_sym(#NAME))

/* ---- wait and write value ---- */

struct he_valop {
	void *ptr;
	uint64_t value, mask;
	unsigned flags, size; /* size 4 or 8 */
	bool wait;
};

static uint64_t load_value(const struct he_valop *op)
{
	if (op->size == 4)
		return __atomic_load_n((uint32_t *)op->ptr, __ATOMIC_ACQUIRE);
	return __atomic_load_n((uint64_t *)op->ptr, __ATOMIC_ACQUIRE);
}

static bool wait_done(const struct he_valop *op)
{
	uint64_t v = load_value(op);

	switch (op->flags) {
	case hipStreamWaitValueGte: /* wrapping, as CUDA's GEQ */
		if (op->size == 4)
			return (int32_t)((uint32_t)v - (uint32_t)op->value) >= 0;
		return (int64_t)(v - op->value) >= 0;
	case hipStreamWaitValueEq:
		return (v & op->mask) == (op->value & op->mask);
	case hipStreamWaitValueAnd:
		return (v & op->mask & op->value) != 0;
	default: /* hipStreamWaitValueNor */
		return (~(v | op->value) & op->mask) != 0;
	}
}

static void run_valop(void *arg)
{
	struct he_valop *op = arg;
	struct timespec nap = { 0, 100000L };

	if (op->wait) {
		while (!wait_done(op))
			nanosleep(&nap, NULL);
	} else if (op->size == 4) {
		__atomic_store_n((uint32_t *)op->ptr, (uint32_t)op->value,
				 __ATOMIC_RELEASE);
	} else {
		__atomic_store_n((uint64_t *)op->ptr, op->value,
				 __ATOMIC_RELEASE);
	}
	free(op);
}

static hipError_t valop(hipStream_t stream, const struct he_valop *in)
{
	struct he_work w = { .kind = HE_W_HOSTFN };
	struct he_stream *s;
	struct he_valop *op;
	uint64_t seq;
	bool capturing;
	hipError_t err;

	if (!in->ptr || he_mem_find(in->ptr, in->size, NULL, NULL, NULL, NULL,
				    NULL))
		return hipErrorInvalidValue;
	if (in->wait && in->flags > hipStreamWaitValueNor)
		return hipErrorInvalidValue;
	err = he_stream_get(stream, &s);
	if (err)
		return err;
	/* the op owns its closure: it cannot be replayed by a graph */
	pthread_mutex_lock(&he_lock);
	capturing = he_stream_capture(s) != NULL;
	pthread_mutex_unlock(&he_lock);
	if (capturing)
		return hipErrorStreamCaptureUnsupported;
	op = malloc(sizeof(*op));
	if (!op)
		return hipErrorOutOfMemory;
	*op = *in;
	w.hostfn.fn = run_valop;
	w.hostfn.ud = op;
	err = he_enqueue(s, &w, NULL, 0, &seq);
	if (err)
		free(op);
	return err;
}

HE_EXPORT hipError_t hipStreamWaitValue32(hipStream_t stream, void *ptr,
					  uint32_t value, unsigned int flags,
					  uint32_t mask)
{
	struct he_valop op = { ptr, value, mask, flags, 4, true };

	HE_ENTER("hipStreamWaitValue32");
	return he_ret(valop(stream, &op));
}

HE_EXPORT hipError_t hipStreamWaitValue64(hipStream_t stream, void *ptr,
					  uint64_t value, unsigned int flags,
					  uint64_t mask)
{
	struct he_valop op = { ptr, value, mask, flags, 8, true };

	HE_ENTER("hipStreamWaitValue64");
	return he_ret(valop(stream, &op));
}

HE_EXPORT hipError_t hipStreamWriteValue32(hipStream_t stream, void *ptr,
					   uint32_t value, unsigned int flags)
{
	struct he_valop op = { ptr, value, 0, flags, 4, false };

	HE_ENTER("hipStreamWriteValue32");
	return he_ret(valop(stream, &op));
}

HE_EXPORT hipError_t hipStreamWriteValue64(hipStream_t stream, void *ptr,
					   uint64_t value, unsigned int flags)
{
	struct he_valop op = { ptr, value, 0, flags, 8, false };

	HE_ENTER("hipStreamWriteValue64");
	return he_ret(valop(stream, &op));
}

/* ---- captures ---- */

static hipError_t capture_info(hipStream_t stream,
			       hipStreamCaptureStatus *st,
			       unsigned long long *id)
{
	struct he_stream *s;
	struct he_capture *c;
	hipError_t err;

	if (!st)
		return hipErrorInvalidValue;
	err = he_stream_get(stream, &s);
	if (err)
		return err;
	pthread_mutex_lock(&he_lock);
	c = he_stream_capture(s);
	*st = !c			? hipStreamCaptureStatusNone :
	      he_capture_valid(c) ? hipStreamCaptureStatusActive :
				    hipStreamCaptureStatusInvalidated;
	if (c && id)
		*id = he_capture_id(c);
	pthread_mutex_unlock(&he_lock);
	return hipSuccess;
}

HE_EXPORT hipError_t hipStreamGetCaptureInfo_spt(
	hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus,
	unsigned long long *pId)
{
	HE_ENTER("hipStreamGetCaptureInfo_spt");
	return he_ret(capture_info(spt(stream), pCaptureStatus, pId));
}

/*
 * _v2: hipemu's captures are linear (each op depends on the one before),
 * so the dependency set is not kept: none is reported, and the graph
 * being built is not handed out (NULL).
 */
static hipError_t capture_info_v2(hipStream_t stream,
				  hipStreamCaptureStatus *st,
				  unsigned long long *id, hipGraph_t *graph,
				  const hipGraphNode_t **deps, size_t *ndeps)
{
	hipError_t err = capture_info(stream, st, id);

	if (err)
		return err;
	if (graph)
		*graph = NULL;
	if (deps)
		*deps = NULL;
	if (ndeps)
		*ndeps = 0;
	return hipSuccess;
}

HE_EXPORT hipError_t hipStreamGetCaptureInfo_v2(
	hipStream_t stream, hipStreamCaptureStatus *captureStatus_out,
	unsigned long long *id_out, hipGraph_t *graph_out,
	const hipGraphNode_t **dependencies_out, size_t *numDependencies_out)
{
	HE_ENTER("hipStreamGetCaptureInfo_v2");
	return he_ret(capture_info_v2(stream, captureStatus_out, id_out,
				      graph_out, dependencies_out,
				      numDependencies_out));
}

HE_EXPORT hipError_t hipStreamGetCaptureInfo_v2_spt(
	hipStream_t stream, hipStreamCaptureStatus *captureStatus_out,
	unsigned long long *id_out, hipGraph_t *graph_out,
	const hipGraphNode_t **dependencies_out, size_t *numDependencies_out)
{
	HE_ENTER("hipStreamGetCaptureInfo_v2_spt");
	return he_ret(capture_info_v2(spt(stream), captureStatus_out, id_out,
				      graph_out, dependencies_out,
				      numDependencies_out));
}

/* clr ihipStreamUpdateCaptureDependencies: only while capturing. */
HE_EXPORT hipError_t hipStreamUpdateCaptureDependencies(
	hipStream_t stream, hipGraphNode_t *dependencies,
	size_t numDependencies, unsigned int flags)
{
	hipStreamCaptureStatus st;
	hipError_t err;

	HE_ENTER("hipStreamUpdateCaptureDependencies");
	if (flags > hipStreamSetCaptureDependencies ||
	    (numDependencies && !dependencies))
		return he_ret(hipErrorInvalidValue);
	err = capture_info(stream, &st, NULL);
	if (err)
		return he_ret(err);
	if (st != hipStreamCaptureStatusActive)
		return he_ret(hipErrorIllegalState);
	return he_ret(hipSuccess);
}

/* ---- the _spt forms served by their plain form ---- */

HE_EXPORT hipError_t hipStreamBeginCapture_spt(hipStream_t stream,
					       hipStreamCaptureMode mode)
{
	HE_ENTER("hipStreamBeginCapture_spt");
	return he_ret(HE_SELF(hipStreamBeginCapture)(spt(stream), mode));
}

HE_EXPORT hipError_t hipStreamEndCapture_spt(hipStream_t stream,
					     hipGraph_t *pGraph)
{
	HE_ENTER("hipStreamEndCapture_spt");
	return he_ret(HE_SELF(hipStreamEndCapture)(spt(stream), pGraph));
}

HE_EXPORT hipError_t hipStreamIsCapturing_spt(
	hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus)
{
	HE_ENTER("hipStreamIsCapturing_spt");
	return he_ret(capture_info(spt(stream), pCaptureStatus, NULL));
}

HE_EXPORT hipError_t hipGraphLaunch_spt(hipGraphExec_t graphExec,
					hipStream_t stream)
{
	HE_ENTER("hipGraphLaunch_spt");
	return he_ret(HE_SELF(hipGraphLaunch)(graphExec, spt(stream)));
}

HE_EXPORT hipError_t hipStreamAddCallback_spt(hipStream_t stream,
					      hipStreamCallback_t callback,
					      void *userData,
					      unsigned int flags)
{
	HE_ENTER("hipStreamAddCallback_spt");
	return he_ret(HE_SELF(hipStreamAddCallback)(spt(stream), callback,
						    userData, flags));
}

HE_EXPORT hipError_t hipLaunchHostFunc_spt(hipStream_t stream,
					   hipHostFn_t fn, void *userData)
{
	hipError_t (*plain)(hipStream_t, hipHostFn_t, void *) =
		self_sym("hipLaunchHostFunc");

	HE_ENTER("hipLaunchHostFunc_spt");
	if (!plain)
		return he_ret(hipErrorNotSupported);
	return he_ret(plain(spt(stream), fn, userData));
}

/* hipEventRecordWithFlags (6.4): hipEventRecordDefault (0) only. */
HE_EXPORT hipError_t hipEventRecordWithFlags(hipEvent_t event,
					     hipStream_t stream,
					     unsigned int flags)
{
	HE_ENTER("hipEventRecordWithFlags");
	if (flags)
		return he_ret(hipErrorInvalidValue);
	return he_ret(he_event_record(event, stream));
}

/* clr ihipGraphUpload: nothing to upload to a CPU device. */
HE_EXPORT hipError_t hipGraphUpload(hipGraphExec_t graphExec,
				    hipStream_t stream)
{
	struct he_stream *s;

	HE_ENTER("hipGraphUpload");
	if (!graphExec)
		return he_ret(hipErrorInvalidValue);
	return he_ret(he_stream_get(stream, &s));
}

/* ---- stream queries and creation ---- */

HE_EXPORT hipError_t hipStreamGetDevice(hipStream_t stream,
					hipDevice_t *device)
{
	struct he_stream *s;
	hipError_t err;

	HE_ENTER("hipStreamGetDevice");
	if (!device)
		return he_ret(hipErrorInvalidValue);
	err = he_stream_get(stream, &s);
	if (!err)
		*device = he_stream_device(s);
	return he_ret(err);
}

HE_EXPORT int hipGetStreamDeviceId(hipStream_t stream)
{
	struct he_stream *s;

	HE_COUNT("hipGetStreamDeviceId");
	return he_stream_get(stream, &s) ? -1 : he_stream_device(s);
}

HE_EXPORT hipError_t hipStreamGetId(hipStream_t stream,
				    unsigned long long *streamId)
{
	struct he_stream *s;
	hipError_t err;

	HE_ENTER("hipStreamGetId");
	if (!streamId)
		return he_ret(hipErrorInvalidValue);
	err = he_stream_get(stream, &s);
	if (!err)
		*streamId = (unsigned long long)(uintptr_t)s;
	return he_ret(err);
}

/* A CU mask is a hint: the stream is an ordinary one, every CU enabled. */
HE_EXPORT hipError_t hipExtStreamCreateWithCUMask(hipStream_t *stream,
						  uint32_t cuMaskSize,
						  const uint32_t *cuMask)
{
	HE_ENTER("hipExtStreamCreateWithCUMask");
	if (!stream || !cuMaskSize || !cuMask)
		return he_ret(hipErrorInvalidValue);
	return he_ret(HE_SELF(hipStreamCreate)(stream));
}

HE_EXPORT hipError_t hipExtStreamGetCUMask(hipStream_t stream,
					   uint32_t cuMaskSize,
					   uint32_t *cuMask)
{
	struct he_stream *s;
	hipError_t err;
	uint32_t i;

	HE_ENTER("hipExtStreamGetCUMask");
	if (!cuMaskSize || !cuMask)
		return he_ret(hipErrorInvalidValue);
	err = he_stream_get(stream, &s);
	if (err)
		return he_ret(err);
	for (i = 0; i < cuMaskSize; i++)
		cuMask[i] = 0xffffffffu;
	return he_ret(hipSuccess);
}

/* Managed memory is host memory: attaching only checks its arguments. */
HE_EXPORT hipError_t hipStreamAttachMemAsync(hipStream_t stream,
					     void *dev_ptr, size_t length,
					     unsigned int flags)
{
	struct he_stream *s;

	HE_ENTER("hipStreamAttachMemAsync");
	(void)length;
	(void)flags;
	if (!dev_ptr)
		return he_ret(hipErrorInvalidValue);
	return he_ret(he_stream_get(stream, &s));
}

/* ---- interop: what the real runtime says with nothing to map ---- */

HE_EXPORT hipError_t hipMemMapArrayAsync(hipArrayMapInfo *mapInfoList,
					 unsigned int count,
					 hipStream_t stream)
{
	HE_ENTER("hipMemMapArrayAsync");
	(void)stream;
	if (!mapInfoList || !count)
		return he_ret(hipErrorInvalidValue);
	return he_ret(hipErrorNotSupported);
}

static hipError_t graphics(int count, hipGraphicsResource_t *resources)
{
	if (count <= 0 || !resources)
		return hipErrorInvalidValue;
	return hipErrorUnknown; /* no GL context on hipemu */
}

HE_EXPORT hipError_t hipGraphicsMapResources(int count,
					     hipGraphicsResource_t *resources,
					     hipStream_t stream)
{
	HE_ENTER("hipGraphicsMapResources");
	(void)stream;
	return he_ret(graphics(count, resources));
}

HE_EXPORT hipError_t hipGraphicsUnmapResources(
	int count, hipGraphicsResource_t *resources, hipStream_t stream)
{
	HE_ENTER("hipGraphicsUnmapResources");
	(void)stream;
	return he_ret(graphics(count, resources));
}

static hipError_t semaphores(const hipExternalSemaphore_t *sems,
			     const void *params, unsigned int n,
			     hipStream_t stream)
{
	struct he_stream *s;
	hipError_t err;

	if (!sems || !params)
		return hipErrorInvalidValue;
	err = he_stream_get(stream, &s);
	if (err)
		return hipErrorInvalidValue;
	/* hipemu imports no semaphore: any handle is not one */
	return n ? hipErrorInvalidValue : hipSuccess;
}

HE_EXPORT hipError_t hipSignalExternalSemaphoresAsync(
	const hipExternalSemaphore_t *extSemArray,
	const hipExternalSemaphoreSignalParams *paramsArray,
	unsigned int numExtSems, hipStream_t stream)
{
	HE_ENTER("hipSignalExternalSemaphoresAsync");
	return he_ret(semaphores(extSemArray, paramsArray, numExtSems, stream));
}

HE_EXPORT hipError_t hipWaitExternalSemaphoresAsync(
	const hipExternalSemaphore_t *extSemArray,
	const hipExternalSemaphoreWaitParams *paramsArray,
	unsigned int numExtSems, hipStream_t stream)
{
	HE_ENTER("hipWaitExternalSemaphoresAsync");
	return he_ret(semaphores(extSemArray, paramsArray, numExtSems, stream));
}

/* ---- entry points: the _spt lookup and 7.1's driver entry points ---- */

HE_EXPORT hipError_t hipGetProcAddress_spt(const char *symbol, void **pfn,
					   int hipVersion, uint64_t flags,
					   void *symbolStatus)
{
	HE_ENTER("hipGetProcAddress_spt");
	return he_ret(HE_SELF(hipGetProcAddress)(symbol, pfn, hipVersion,
						 flags, symbolStatus));
}

/*
 * hipGetDriverEntryPoint(_spt): the entry point of symbol in hipemu
 * itself; status 0 found, 1 not found (hipDriverEntryPointSuccess,
 * hipDriverEntryPointSymbolNotFound), as hipGetProcAddress answers.
 */
static hipError_t entry_point(const char *symbol, void **fn, void *status)
{
	void *f;

	if (!symbol || !fn)
		return hipErrorInvalidValue;
	f = self_sym(symbol);
	*fn = f;
	if (status)
		*(int *)status = f ? 0 : 1;
	return f ? hipSuccess : hipErrorNotFound;
}

HE_EXPORT hipError_t hipGetDriverEntryPoint(const char *symbol,
					    void **funcPtr,
					    unsigned long long flags,
					    void *status)
{
	HE_ENTER("hipGetDriverEntryPoint");
	(void)flags;
	return he_ret(entry_point(symbol, funcPtr, status));
}

HE_EXPORT hipError_t hipGetDriverEntryPoint_spt(const char *symbol,
						void **funcPtr,
						unsigned long long flags,
						void *status)
{
	HE_ENTER("hipGetDriverEntryPoint_spt");
	(void)flags;
	return he_ret(entry_point(symbol, funcPtr, status));
}
