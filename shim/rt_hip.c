/*
 * rt_hip.c - the HIP side of the seam (rt.h): the services the policies
 * call, the values they test, the last-error rule and the reader of
 * kernel facts, for AMD's HIP runtime (libamdhip64).
 *
 * Every value rt.h fixes is checked here against HIP's own header at
 * compile time, beside where HIP defines it.  The header facts are those
 * of ROCm/HIP include/hip/hip_runtime_api.h and include/hip/
 * driver_types.h, the same at tags rocm-5.2.0 and rocm-6.2.0 (hipError_t
 * numbers the errors as CUDA's cudaError_t does, on purpose: "hipError_t
 * ... values mirror CUDA's", the enum's own comments there).
 *
 * The services are the policies' own calls of the runtime: each is
 * counted (lb_real_own, shim.h) exactly as a policy's lb_real use was
 * before the seam.  The last-error functions are the core's (lasterr.c)
 * and are not counted (this file defines LB_REAL_DIRECT; lb_real is the
 * bare table here).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>
#define LB_REAL_DIRECT /* the last-error ops are the core's: not counted */
#include "shim.h"
#include "lbshim/codeobj.h"

/* Two enumerators of different enums, compared as numbers. */
#define LB_SAME(a, b) ((long)(a) == (long)(b))

/* ---- (c) statuses: hipError_t in hip_runtime_api.h ---- */
static_assert(LB_SAME(LB_ST_OK, hipSuccess), "status");
static_assert(LB_SAME(LB_ST_INVALID_VALUE, hipErrorInvalidValue), "status");
static_assert(LB_SAME(LB_ST_OOM, hipErrorOutOfMemory), "status");
/* hipErrorMemoryAllocation: the same number */
static_assert(LB_SAME(LB_ST_OOM, hipErrorMemoryAllocation), "status");
static_assert(LB_SAME(LB_ST_NOT_INITIALIZED, hipErrorNotInitialized),
	      "status");
static_assert(LB_SAME(LB_ST_NO_DEVICE, hipErrorNoDevice), "status");
static_assert(LB_SAME(LB_ST_INVALID_HANDLE, hipErrorInvalidHandle), "status");
static_assert(LB_SAME(LB_ST_NOT_READY, hipErrorNotReady), "status");
static_assert(LB_SAME(LB_ST_CONTEXT_DESTROYED, hipErrorContextIsDestroyed),
	      "status");
static_assert(LB_SAME(LB_ST_CAPTURE_UNSUPPORTED,
		      hipErrorStreamCaptureUnsupported),
	      "status");
static_assert(LB_SAME(LB_ST_CAPTURE_IMPLICIT, hipErrorStreamCaptureImplicit),
	      "status");
static_assert(LB_SAME(LB_ST_CAPTURED_EVENT, hipErrorCapturedEvent), "status");
/* lb_status holds a hipError_t unchanged (an enum of int's size). */
static_assert(sizeof(lb_status) == sizeof(hipError_t), "status size");

/* ---- (b) streams: hipStreamPerThread in hip_runtime_api.h
 * (rocm-6.2.0); hipStreamLegacy, which only newer headers have, is the
 * same value as ROCm 6's (lbshim/hip_decls.h) ---- */
static_assert(sizeof(lb_stream) == sizeof(hipStream_t), "handle size");
static_assert(sizeof(lb_event) == sizeof(hipEvent_t), "handle size");
/* gcc (the build's compiler) folds a pointer constant's cast to an
 * integer in a constant expression; clang (the lint's) does not. */
#ifndef __clang__
#define LB_SAME_HANDLE(a, b) ((uintptr_t)(a) == (uintptr_t)(b))
static_assert(LB_SAME_HANDLE(LB_STREAM_LEGACY, hipStreamLegacy), "stream");
static_assert(LB_SAME_HANDLE(LB_STREAM_PER_THREAD, hipStreamPerThread),
	      "stream");
#endif

/* ---- (d) flags and kinds: hip_runtime_api.h (stream, event, memory
 * flags, hipStreamCaptureStatus), driver_types.h (hipMemcpyKind,
 * hipPointer_attribute) ---- */
static_assert(LB_SAME(LB_STREAM_DEFAULT, hipStreamDefault), "flag");
static_assert(LB_SAME(LB_STREAM_NON_BLOCKING, hipStreamNonBlocking), "flag");
static_assert(LB_SAME(LB_EVENT_DISABLE_TIMING, hipEventDisableTiming), "flag");
static_assert(LB_SAME(LB_CAPTURE_NONE, hipStreamCaptureStatusNone), "flag");
static_assert(LB_SAME(LB_MEM_ATTACH_GLOBAL, hipMemAttachGlobal), "flag");
static_assert(LB_SAME(LB_DEVICE_MALLOC_DEFAULT, hipDeviceMallocDefault),
	      "flag");
static_assert(LB_SAME(LB_MEMCPY_HOST_TO_HOST, hipMemcpyHostToHost), "kind");
static_assert(LB_SAME(LB_MEMCPY_HOST_TO_DEVICE, hipMemcpyHostToDevice), "kind");
static_assert(LB_SAME(LB_MEMCPY_DEVICE_TO_HOST, hipMemcpyDeviceToHost), "kind");
static_assert(LB_SAME(LB_MEMCPY_DEVICE_TO_DEVICE, hipMemcpyDeviceToDevice),
	      "kind");
static_assert(LB_SAME(LB_MEMCPY_DEFAULT, hipMemcpyDefault), "kind");
static_assert(LB_SAME(LB_PTR_ATTR_RANGE_START,
		      HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR),
	      "attribute");
static_assert(LB_SAME(LB_PTR_ATTR_RANGE_SIZE, HIP_POINTER_ATTRIBUTE_RANGE_SIZE),
	      "attribute");

/* ---- (e) by-value structures: hipPitchedPtr, hipExtent
 * (driver_types.h), hipMemLocation (hip_runtime_api.h), hipChannelFormatDesc
 * (driver_types.h), rocm-6.2.0;
 * rt_hip.h lists them for the table's generic code) ---- */
#define LB_SAME_FIELD(a, b, f) \
	(offsetof(a, f) == offsetof(b, f) && \
	 sizeof(((a *)0)->f) == sizeof(((b *)0)->f))
static_assert(sizeof(struct lb_pitched) == sizeof(hipPitchedPtr), "layout");
static_assert(LB_SAME_FIELD(struct lb_pitched, hipPitchedPtr, ptr) &&
		      LB_SAME_FIELD(struct lb_pitched, hipPitchedPtr, pitch) &&
		      LB_SAME_FIELD(struct lb_pitched, hipPitchedPtr, xsize) &&
		      LB_SAME_FIELD(struct lb_pitched, hipPitchedPtr, ysize),
	      "layout");
static_assert(sizeof(struct lb_extent) == sizeof(hipExtent), "layout");
static_assert(LB_SAME_FIELD(struct lb_extent, hipExtent, width) &&
		      LB_SAME_FIELD(struct lb_extent, hipExtent, height) &&
		      LB_SAME_FIELD(struct lb_extent, hipExtent, depth),
	      "layout");
static_assert(sizeof(struct lb_memloc) == sizeof(hipMemLocation), "layout");
static_assert(LB_SAME_FIELD(struct lb_memloc, hipMemLocation, type) &&
		      LB_SAME_FIELD(struct lb_memloc, hipMemLocation, id),
	      "layout");

static_assert(sizeof(struct lb_chandesc) == sizeof(hipChannelFormatDesc),
	      "layout");
static_assert(LB_SAME_FIELD(struct lb_chandesc, hipChannelFormatDesc, x) &&
		      LB_SAME_FIELD(struct lb_chandesc, hipChannelFormatDesc,
				    w) &&
		      LB_SAME_FIELD(struct lb_chandesc, hipChannelFormatDesc,
				    f),
	      "layout");

/* ---- (a) the services: each one counted use of the table ---- */

static int lb_hip_has(int svc)
{
	switch (svc) {
	case LB_RTS_STREAM_CREATE:
		return lb_real_own.hipStreamCreateWithFlags != NULL;
	case LB_RTS_STREAM_QUERY:
		return lb_real_own.hipStreamQuery != NULL;
	case LB_RTS_STREAM_SYNC:
		return lb_real_own.hipStreamSynchronize != NULL;
	case LB_RTS_EVENT_CREATE:
		return lb_real_own.hipEventCreateWithFlags != NULL;
	case LB_RTS_EVENT_RECORD:
		return lb_real_own.hipEventRecord != NULL;
	default:
		return 0;
	}
}


/*
 * A service's body: the runtime's function fn, read once from lb_real_own
 * (one counted use, as a policy's lb_real use was), called with args, or
 * LB_ST_MISSING where the runtime lacks it.
 */
#define LB_HIP_SERVE(fn, args)                                         \
	do {                                                           \
		__typeof__(lb_real_own.fn) lb_f_ = lb_real_own.fn;     \
		return lb_f_ ? (lb_status)lb_f_ args : LB_ST_MISSING;  \
	} while (0)

static lb_status lb_hip_stream_create(lb_stream *s, unsigned flags)
{
	LB_HIP_SERVE(hipStreamCreateWithFlags, ((hipStream_t *)s, flags));
}

static lb_status lb_hip_stream_destroy(lb_stream s)
{
	LB_HIP_SERVE(hipStreamDestroy, (s));
}

static lb_status lb_hip_stream_query(lb_stream s)
{
	LB_HIP_SERVE(hipStreamQuery, (s));
}

static lb_status lb_hip_stream_sync(lb_stream s)
{
	LB_HIP_SERVE(hipStreamSynchronize, (s));
}

static lb_status lb_hip_stream_flags(lb_stream s, unsigned *flags)
{
	LB_HIP_SERVE(hipStreamGetFlags, (s, flags));
}

static lb_status lb_hip_stream_capturing(lb_stream s, int *status)
{
	hipError_t (*f)(hipStream_t, hipStreamCaptureStatus *) =
		lb_real_own.hipStreamIsCapturing;
	hipStreamCaptureStatus st = hipStreamCaptureStatusNone;
	hipError_t r;

	if (!f)
		return LB_ST_MISSING;
	r = f(s, &st);
	if (r == hipSuccess)
		*status = (int)st;
	return r;
}

static lb_status lb_hip_stream_wait_event(lb_stream s, lb_event e,
					  unsigned flags)
{
	LB_HIP_SERVE(hipStreamWaitEvent, (s, e, flags));
}

static lb_status lb_hip_event_create(lb_event *e, unsigned flags)
{
	LB_HIP_SERVE(hipEventCreateWithFlags, ((hipEvent_t *)e, flags));
}

static lb_status lb_hip_event_record(lb_event e, lb_stream s)
{
	LB_HIP_SERVE(hipEventRecord, (e, s));
}

static lb_status lb_hip_event_query(lb_event e)
{
	LB_HIP_SERVE(hipEventQuery, (e));
}

static lb_status lb_hip_event_sync(lb_event e)
{
	LB_HIP_SERVE(hipEventSynchronize, (e));
}

static lb_status lb_hip_event_destroy(lb_event e)
{
	LB_HIP_SERVE(hipEventDestroy, (e));
}

static lb_status lb_hip_device_get(int *dev)
{
	LB_HIP_SERVE(hipGetDevice, (dev));
}

static lb_status lb_hip_device_set(int dev)
{
	LB_HIP_SERVE(hipSetDevice, (dev));
}

static lb_status lb_hip_device_sync(void)
{
	LB_HIP_SERVE(hipDeviceSynchronize, ());
}

/* hipDeviceGetAttribute, which the API table does not wrap: from the
 * library the table came from (lb_rt_sym), once. */
typedef hipError_t (*lb_getattr_fn)(int *, hipDeviceAttribute_t, int);
static lb_getattr_fn lb_getattr;
static pthread_once_t lb_getattr_once = PTHREAD_ONCE_INIT;

static void lb_getattr_resolve(void)
{
	lb_getattr = (lb_getattr_fn)lb_rt_sym("hipDeviceGetAttribute");
}

static lb_status lb_hip_device_pitch_align(int dev, int *align)
{
	int a = 0;
	hipError_t r;

	pthread_once(&lb_getattr_once, lb_getattr_resolve);
	if (!lb_getattr)
		return LB_ST_MISSING;
	r = lb_getattr(&a, hipDeviceAttributeTexturePitchAlignment, dev);
	if (r == hipSuccess)
		*align = a;
	return r;
}

static lb_status lb_hip_mem_alloc(void **p, size_t n)
{
	LB_HIP_SERVE(hipMalloc, (p, n));
}

static lb_status lb_hip_mem_alloc_managed(void **p, size_t n, unsigned fl)
{
	LB_HIP_SERVE(hipMallocManaged, (p, n, fl));
}

static lb_status lb_hip_mem_free(void *p)
{
	LB_HIP_SERVE(hipFree, (p));
}

static lb_status lb_hip_mem_info(size_t *free, size_t *total)
{
	LB_HIP_SERVE(hipMemGetInfo, (free, total));
}

/*
 * The three naming functions, handed out raw: the trace policy calls them
 * as it did before the seam, uncounted (they answer a name, not a
 * status); reading the table is counted, as its read of lb_real was.
 * The function types differ from rt.h's only in the handle's pointer
 * type (hipStream_t, hipFunction_t) and hipError_t, an int-sized enum,
 * which the ABI passes alike.
 */
static void lb_hip_names(struct lb_rt_names *n)
{
	n->kernel_by_ptr = (const char *(*)(const void *, lb_stream))
				   lb_real_own.hipKernelNameRefByPtr;
	n->kernel_ref = (const char *(*)(const void *))lb_rt_sym(
		"hipKernelNameRef");
	n->status = (const char *(*)(lb_status))lb_rt_sym("hipGetErrorName");
}

/* ---- (f) the last-error rule (lasterr.c says what it is and why) ---- */

/*
 * The three functions, raw: their type differs from rt.h's only in
 * hipError_t, an int-sized enum, which the ABI returns alike.
 */
static void lb_hip_le_fns(struct lb_rt_le_fns *f)
{
	f->get = (lb_status(*)(void))lb_real.hipGetLastError;
	f->peek = (lb_status(*)(void))lb_real.hipPeekAtLastError;
	f->ext = (lb_status(*)(void))lb_real.hipExtGetLastError;
}

static void lb_hip_le_say(const char *what, int n, int sticky)
{
	lb_log(LB_LOG_DEBUG, "runtime %s%d: last error %s", what, n,
	       sticky ? "kept until read (7.x)" : "overwritten by every call");
}

static int lb_hip_le_sticky(int *version, int *asked)
{
	hipError_t (*ver)(int *);
	int v = 0, major, sticky;

	/*
	 * The rule without a call where the soname tells the release: its
	 * number is the major version (SOVERSION ${HIP_LIB_VERSION_MAJOR},
	 * clr hipamd/src/CMakeLists.txt, rocm-5.7.0 and rocm-6.2.0), and a
	 * call now would start the runtime before the program (rtstart.c).
	 * 7.x keeps only failures until read (clr hipamd/src/
	 * hip_internal.hpp and hip_error.cpp at ROCm/clr commits 292e8a68
	 * and bb3a2f04; HIP docs/hip-7-changes.rst).
	 */
	*asked = 0;
	major = lb_rt_major();
	if (major >= 0) {
		lb_hip_le_say("libamdhip64.so.", major, major >= 7);
		return major >= 7;
	}
	/* Another soname (a wheel's copy): the runtime's own
	 * hipRuntimeGetVersion, from the library chosen (no probe then):
	 * 7.0 is 70000000 (HIP_VERSION's encoding, major * 10^7). */
	*asked = 1;
	ver = (hipError_t(*)(int *))lb_rt_sym("hipRuntimeGetVersion");
	sticky = 0;
	if (ver && ver(&v) == hipSuccess) {
		sticky = v >= 70000000;
		if (v > 0)
			*version = v;
	}
	lb_hip_le_say("version ", v, sticky);
	return sticky;
}

/* HIP's rows store their result but the registrations (clr's
 * __hipRegister* end without HIP_RETURN). */
static int lb_hip_le_sets(int api)
{
	unsigned role;

	if (api < 0 || api >= LB_API_HIP_COUNT)
		return 0;
	role = lb_api_info[api].role;
	return role != LB_ROLE_REG_FATBIN && role != LB_ROLE_REG_FUNCTION &&
	       role != LB_ROLE_UNREG_FATBIN;
}

static const struct lb_rt_le lb_hip_le = {
	.fns = lb_hip_le_fns,
	.sets = lb_hip_le_sets,
	/* 7.x keeps every failure but hipErrorNotReady (lasterr.c) */
	.not_ready_kept = 0,
	.sticky = lb_hip_le_sticky,
};

/* ---- (f) kernel facts: AMDGPU code objects (shim/codeobj.c) ---- */

static struct lb_co_set *lb_hip_read_image(const void *image,
					   unsigned flags)
{
	return lb_co_read(image, 0, flags);
}

static const struct lb_rt_kf lb_hip_kf = {
	.read_fatbin = lb_co_read_fatbin,
	.read_file = lb_co_read_file,
	.read_image = lb_hip_read_image,
};

/* ---- the side ---- */

static const struct lb_rt lb_rt_hip = {
	.name = "hip",
	.has = lb_hip_has,
	.stream_create = lb_hip_stream_create,
	.stream_destroy = lb_hip_stream_destroy,
	.stream_query = lb_hip_stream_query,
	.stream_sync = lb_hip_stream_sync,
	.stream_flags = lb_hip_stream_flags,
	.stream_capturing = lb_hip_stream_capturing,
	.stream_wait_event = lb_hip_stream_wait_event,
	.event_create = lb_hip_event_create,
	.event_record = lb_hip_event_record,
	.event_query = lb_hip_event_query,
	.event_sync = lb_hip_event_sync,
	.event_destroy = lb_hip_event_destroy,
	.device_get = lb_hip_device_get,
	.device_set = lb_hip_device_set,
	.device_sync = lb_hip_device_sync,
	.device_pitch_align = lb_hip_device_pitch_align,
	.mem_alloc = lb_hip_mem_alloc,
	.mem_alloc_managed = lb_hip_mem_alloc_managed,
	.mem_free = lb_hip_mem_free,
	.mem_info = lb_hip_mem_info,
	.names = lb_hip_names,
	.row_first = 0,
	.row_end = LB_API_HIP_COUNT,
	/*
	 * 0 and hipStreamPerThread: a thread's null-stream work in a
	 * legacy build and its per-thread stream, which the thread's own
	 * stream stands for (the _spt rows too, whose 0 is that stream);
	 * hipStreamLegacy names the legacy barrier on purpose and stays
	 * (policies/stream0/stream0.h says why).
	 */
	.null_handles = 1u << 0 | 1u << 2,
	.spt_alone = 0,
	/* not taken from clr at a release tag here: 0, the pool fences */
	.sync_dtoh_done = 0,
	/* HIP_LAUNCH_PARAM_* (hip_runtime_api.h): 1, 2, 3 (CUDA ends with
	 * 0) */
	.launch_buffer_ptr = HIP_LAUNCH_PARAM_BUFFER_POINTER,
	.launch_buffer_size = HIP_LAUNCH_PARAM_BUFFER_SIZE,
	.launch_end = HIP_LAUNCH_PARAM_END,
	/* HIP_POINTER_ATTRIBUTE_RANGE_SIZE: ROCm writes 32 bits (clr
	 * hipamd/src/hip_memory.cpp ihipPointerGetAttributes, rocm-6.2.0;
	 * hipemu: tests/hipemu/memattr.c) */
	.range_size_width = 4,
	/* hipPointerAttribute_t's pointers (hip_runtime_api.h) */
	.attr_device_ptr = offsetof(hipPointerAttribute_t, devicePointer),
	.attr_host_ptr = offsetof(hipPointerAttribute_t, hostPointer),
	/* HIP_TRACE_API, the runtime's own trace of its calls, which the
	 * trace policy's live output replaces (lbshim(7)) */
	.trace_env = "HIP_TRACE_API",
	.memcpy_kind = { "hipMemcpyHostToHost", "hipMemcpyHostToDevice",
			 "hipMemcpyDeviceToHost", "hipMemcpyDeviceToDevice",
			 "hipMemcpyDefault" },
	.le = &lb_hip_le,
	.kf = &lb_hip_kf,
};

const struct lb_rt *lb_rt = &lb_rt_hip;
