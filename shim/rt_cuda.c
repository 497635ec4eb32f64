/*
 * rt_cuda.c - the CUDA side of the seam (rt.h): the services the policies
 * call, the values they test, the last-error rule and the reader of
 * kernel facts, for NVIDIA's CUDA (libcudart.so.12/.13 and libcuda.so.1).
 * lb_init chooses it where the process is served as CUDA (init.c).
 *
 * The services call the DRIVER API where it can serve them: the driver
 * is there for a shared and a static cudart alike (cudart dlopens it:
 * the facts, #35), and its calls leave cudart's last error alone
 * (cuda.h has no such thing), so a policy's own call cannot show in the
 * program's cudaGetLastError.  A driver call needs a current context on
 * the thread; cudart makes its primary context current on a thread's
 * first runtime call, and a thread whose first call a policy serves has
 * none yet.  Then, and where the driver is not loaded at all (a shared
 * cudart before it has started; hipemu's face, whose cudart calls no
 * driver), the service calls cudart's twin, which starts what the
 * program's own call would have started; lasterr.c then keeps the
 * program's last error right, as it does for HIP.  A driver-API program
 * (no cudart) has its own context current, or its calls fail as the
 * program's would.
 *
 * Every NVIDIA value is in rt_cuda.h with its file and line (CUDA 13.0),
 * asserted against rt.h's here and against NVIDIA's headers by
 * tests/cuda/check_rt_values.c.  The services are the policies' own
 * calls and counted (lb_real_own), as rt_hip.c's; the last-error
 * functions are the core's and are not (LB_REAL_DIRECT).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>
#include <string.h>
#define LB_REAL_DIRECT /* the last-error ops are the core's: not counted */
#include "shim.h"
#include "resolve.h"
#include "rt_cuda.h"
#include "run_solo.h" /* lb_le_on */
#include "lbshim/codeobj.h"

#define LB_SAME(a, b) ((long)(a) == (long)(b))

/* ---- (c) statuses: cudaError_t and CUresult number them alike ---- */
static_assert(LB_SAME(LB_ST_OK, LB_CU_SUCCESS), "status");
static_assert(LB_SAME(LB_ST_INVALID_VALUE, LB_CU_INVALID_VALUE), "status");
static_assert(LB_SAME(LB_ST_OOM, LB_CU_OOM), "status");
static_assert(LB_SAME(LB_ST_NOT_INITIALIZED, LB_CU_NOT_INITIALIZED),
	      "status");
static_assert(LB_SAME(LB_ST_NO_DEVICE, LB_CU_NO_DEVICE), "status");
static_assert(LB_SAME(LB_ST_INVALID_HANDLE, LB_CU_INVALID_HANDLE), "status");
static_assert(LB_SAME(LB_ST_NOT_READY, LB_CU_NOT_READY), "status");
static_assert(LB_SAME(LB_ST_CONTEXT_DESTROYED, LB_CU_CONTEXT_DESTROYED),
	      "status");
static_assert(LB_SAME(LB_ST_CAPTURE_UNSUPPORTED, LB_CU_CAPTURE_UNSUPPORTED),
	      "status");
static_assert(LB_SAME(LB_ST_CAPTURE_IMPLICIT, LB_CU_CAPTURE_IMPLICIT),
	      "status");
static_assert(LB_SAME(LB_ST_CAPTURED_EVENT, LB_CU_CAPTURED_EVENT), "status");
static_assert(sizeof(lb_status) == sizeof(cudaError_t) &&
		      sizeof(lb_status) == sizeof(CUresult),
	      "status size");

/* ---- (b) the null, legacy and per-thread streams ---- */
/* gcc (the build's compiler) folds a pointer constant's cast to an
 * integer in a constant expression; clang (the lint's) does not. */
#ifndef __clang__
static_assert(LB_SAME(LB_STREAM_LEGACY, LB_CU_STREAM_LEGACY) &&
		      LB_SAME(LB_STREAM_PER_THREAD, LB_CU_STREAM_PER_THREAD),
	      "stream");
#endif
static_assert(sizeof(lb_stream) == sizeof(CUstream), "handle size");

/* ---- (d) flags, kinds, attributes ---- */
static_assert(LB_SAME(LB_STREAM_DEFAULT, LB_CU_STREAM_DEFAULT), "flag");
static_assert(LB_SAME(LB_STREAM_NON_BLOCKING, LB_CU_STREAM_NON_BLOCKING),
	      "flag");
static_assert(LB_SAME(LB_EVENT_DISABLE_TIMING, LB_CU_EVENT_DISABLE_TIMING),
	      "flag");
static_assert(LB_SAME(LB_CAPTURE_NONE, LB_CU_CAPTURE_NONE), "flag");
static_assert(LB_SAME(LB_MEM_ATTACH_GLOBAL, LB_CU_MEM_ATTACH_GLOBAL), "flag");
static_assert(LB_SAME(LB_MEMCPY_HOST_TO_HOST, LB_CU_MEMCPY_H2H) &&
		      LB_SAME(LB_MEMCPY_DEFAULT, LB_CU_MEMCPY_DEFAULT),
	      "kind");
static_assert(LB_SAME(LB_PTR_ATTR_RANGE_START, LB_CU_PTR_ATTR_RANGE_START) &&
		      LB_SAME(LB_PTR_ATTR_RANGE_SIZE,
			      LB_CU_PTR_ATTR_RANGE_SIZE),
	      "attribute");

/* ---- functions that are no row of the table: by name, once found ---- */

typedef void *lb_cu_ctx_t; /* cuda.h:282 typedef struct CUctx_st *CUcontext */
enum {
	LB_CUN_CTX_GET_CURRENT,	 /* cuda.h:6446 */
	LB_CUN_CTX_SET_CURRENT,	 /* cuda.h:6423 */
	LB_CUN_CTX_GET_DEVICE,	 /* cuda.h:6476 */
	LB_CUN_DEVICE_GET,	 /* cuda.h:5288 */
	LB_CUN_DEVICE_ATTR,	 /* cuda.h:5498 */
	LB_CUN_PRIMARY_RETAIN,	 /* cuda.h:5896 */
	LB_CUN_ERROR_NAME,	 /* cuda.h:5170 */
	LB_CUN_RT_DEVICE_ATTR,	 /* cuda_runtime_api.h:1324 */
	LB_CUN_RT_ERROR_NAME,	 /* cuda_runtime_api.h:1232 */
	LB_CUN_PARAM_INFO,	 /* cuda.h:17374 (12.4) */
	LB_CUN_RT_FUNC_BY_SYMBOL, /* cuda_runtime_api.h:13757 (11.0) */
	LB_CUN_COUNT
};
static const char *const lb_cun_names[LB_CUN_COUNT] = {
	"cuCtxGetCurrent",   "cuCtxSetCurrent",	      "cuCtxGetDevice",
	"cuDeviceGet",	     "cuDeviceGetAttribute",  "cuDevicePrimaryCtxRetain",
	"cuGetErrorName",    "cudaDeviceGetAttribute", "cudaGetErrorName",
	"cuFuncGetParamInfo", "cudaGetFuncBySymbol",
};
static void *lb_cun[LB_CUN_COUNT];
static pthread_mutex_t lb_cun_lock = PTHREAD_MUTEX_INITIALIZER;

/* Function i, looked for again while missing (the driver may come). */
static void *lb_cun_get(int i)
{
	void *f = __atomic_load_n(&lb_cun[i], __ATOMIC_ACQUIRE);

	if (LB_LIKELY(f))
		return f;
	lb_cu_driver_late();
	pthread_mutex_lock(&lb_cun_lock);
	f = lb_cun[i];
	if (!f) {
		f = lb_cu_sym(lb_cun_names[i]);
		__atomic_store_n(&lb_cun[i], f, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lb_cun_lock);
	return f;
}

/* A driver row's function, the driver looked for once more if empty. */
#define LB_CU_DRV(NAME) \
	(lb_real_own.NAME ? lb_real.NAME \
			  : (lb_cu_driver_late(), lb_real.NAME))

/*
 * Can the driver serve this thread now: loaded, and a context current?
 * (cuCtxGetCurrent: CUDA_SUCCESS with NULL where none is, cuda.h:6428-6430.)
 */
static int lb_cu_drv_ok(void)
{
	CUresult (*cur)(lb_cu_ctx_t *) = lb_cun_get(LB_CUN_CTX_GET_CURRENT);
	lb_cu_ctx_t ctx = NULL;

	return cur && cur(&ctx) == CUDA_SUCCESS && ctx;
}

/*
 * One service: the driver's D (args DA) where it can serve, else cudart's
 * R (args RA), else the driver's all the same (a driver-API program
 * without a context: the answer its own call would get), else missing.
 */
#define LB_CU_SERVE(D, DA, R, RA)                                      \
	do {                                                           \
		int lb_ok_ = lb_cu_drv_ok();                           \
		if (lb_ok_ && LB_CU_DRV(D))                            \
			return lb_real.D DA;                           \
		if (lb_real_own.R)                                     \
			return lb_real.R RA;                           \
		if (LB_CU_DRV(D))                                      \
			return lb_real.D DA;                           \
		return LB_ST_MISSING;                                  \
	} while (0)

/* ---- (a) the services ---- */

static int lb_cu_has(int svc)
{
	switch (svc) {
	case LB_RTS_STREAM_CREATE:
		return LB_CU_DRV(cuStreamCreate) ||
		       lb_real_own.cudaStreamCreateWithFlags;
	case LB_RTS_STREAM_QUERY:
		return LB_CU_DRV(cuStreamQuery) || lb_real_own.cudaStreamQuery;
	case LB_RTS_STREAM_SYNC:
		return LB_CU_DRV(cuStreamSynchronize) ||
		       lb_real_own.cudaStreamSynchronize;
	case LB_RTS_EVENT_CREATE:
		return LB_CU_DRV(cuEventCreate) ||
		       lb_real_own.cudaEventCreateWithFlags;
	case LB_RTS_EVENT_RECORD:
		return LB_CU_DRV(cuEventRecord) || lb_real_own.cudaEventRecord;
	default:
		return 0;
	}
}

static lb_status lb_cu_stream_create(lb_stream *s, unsigned flags)
{
	LB_CU_SERVE(cuStreamCreate, ((CUstream *)s, flags),
		    cudaStreamCreateWithFlags, ((cudaStream_t *)s, flags));
}

static lb_status lb_cu_stream_destroy(lb_stream s)
{
	LB_CU_SERVE(cuStreamDestroy_v2, (s), cudaStreamDestroy, (s));
}

static lb_status lb_cu_stream_query(lb_stream s)
{
	LB_CU_SERVE(cuStreamQuery, (s), cudaStreamQuery, (s));
}

static lb_status lb_cu_stream_sync(lb_stream s)
{
	LB_CU_SERVE(cuStreamSynchronize, (s), cudaStreamSynchronize, (s));
}

static lb_status lb_cu_stream_flags(lb_stream s, unsigned *flags)
{
	LB_CU_SERVE(cuStreamGetFlags, (s, flags), cudaStreamGetFlags,
		    (s, flags));
}

/* *status written only on success (rt.h), as both APIs write it. */
static lb_status lb_cu_stream_capturing(lb_stream s, int *status)
{
	LB_CU_SERVE(cuStreamIsCapturing, (s, status), cudaStreamIsCapturing,
		    (s, status));
}

static lb_status lb_cu_stream_wait_event(lb_stream s, lb_event e,
					 unsigned flags)
{
	LB_CU_SERVE(cuStreamWaitEvent, (s, e, flags), cudaStreamWaitEvent,
		    (s, e, flags));
}

static lb_status lb_cu_event_create(lb_event *e, unsigned flags)
{
	LB_CU_SERVE(cuEventCreate, ((CUevent *)e, flags),
		    cudaEventCreateWithFlags, ((cudaEvent_t *)e, flags));
}

static lb_status lb_cu_event_record(lb_event e, lb_stream s)
{
	LB_CU_SERVE(cuEventRecord, (e, s), cudaEventRecord, (e, s));
}

static lb_status lb_cu_event_query(lb_event e)
{
	LB_CU_SERVE(cuEventQuery, (e), cudaEventQuery, (e));
}

static lb_status lb_cu_event_sync(lb_event e)
{
	LB_CU_SERVE(cuEventSynchronize, (e), cudaEventSynchronize, (e));
}

static lb_status lb_cu_event_destroy(lb_event e)
{
	LB_CU_SERVE(cuEventDestroy_v2, (e), cudaEventDestroy, (e));
}

/* The thread's device: the current context's, else cudart's. */
static lb_status lb_cu_device_get(int *dev)
{
	CUresult (*get)(int *) = lb_cun_get(LB_CUN_CTX_GET_DEVICE);

	lb_rt_own_bump();
	if (get && lb_cu_drv_ok())
		return get(dev);
	if (lb_real_own.cudaGetDevice)
		return lb_real.cudaGetDevice(dev);
	return get ? get(dev) : LB_ST_MISSING;
}

/* Per device ordinal, the primary context the shim retained (driver-API
 * programs only: cudart's cudaSetDevice does this itself). */
#define LB_CU_MAXDEV 64
static lb_cu_ctx_t lb_cu_primary[LB_CU_MAXDEV];

/*
 * Makes device dev the thread's: cudart's cudaSetDevice (which makes the
 * device's primary context current, cuda_runtime_api.h:13613), or in a
 * driver-API program that primary context, retained once and made
 * current (cuda.h:5896, :6423).
 */
static lb_status lb_cu_device_set(int dev)
{
	CUresult (*get)(int *, int) = lb_cun_get(LB_CUN_DEVICE_GET);
	CUresult (*retain)(lb_cu_ctx_t *, int) =
		lb_cun_get(LB_CUN_PRIMARY_RETAIN);
	CUresult (*set)(lb_cu_ctx_t) = lb_cun_get(LB_CUN_CTX_SET_CURRENT);
	lb_cu_ctx_t ctx;
	int d;
	CUresult r;

	if (lb_real_own.cudaSetDevice)
		return lb_real.cudaSetDevice(dev);
	if (!get || !retain || !set || dev < 0 || dev >= LB_CU_MAXDEV)
		return LB_ST_MISSING;
	ctx = __atomic_load_n(&lb_cu_primary[dev], __ATOMIC_ACQUIRE);
	if (!ctx) {
		r = get(&d, dev);
		if (r == CUDA_SUCCESS)
			r = retain(&ctx, d);
		if (r != CUDA_SUCCESS)
			return r;
		/* a racing thread's retain is one more reference, kept */
		__atomic_store_n(&lb_cu_primary[dev], ctx, __ATOMIC_RELEASE);
	}
	return set(ctx);
}

static lb_status lb_cu_device_sync(void)
{
	LB_CU_SERVE(cuCtxSynchronize, (), cudaDeviceSynchronize, ());
}

/*
 * The texture pitch alignment (cuda.h:779, driver_types.h:1969), not
 * counted (rt.h): the driver's attribute needs no context, cudart's is
 * the fallback.
 */
static lb_status lb_cu_device_pitch_align(int dev, int *align)
{
	CUresult (*get)(int *, int) = lb_cun_get(LB_CUN_DEVICE_GET);
	CUresult (*attr)(int *, int, int) = lb_cun_get(LB_CUN_DEVICE_ATTR);
	cudaError_t (*rattr)(int *, int, int) =
		lb_cun_get(LB_CUN_RT_DEVICE_ATTR);
	int d, a = 0;
	lb_status r = LB_ST_MISSING;

	lb_rt_own_bump(); /* cudart's may fail: an own call */
	if (get && attr && get(&d, dev) == CUDA_SUCCESS)
		r = attr(&a, LB_CU_ATTR_TEXTURE_PITCH_ALIGNMENT, d);
	else if (rattr)
		r = rattr(&a, LB_CU_ATTR_TEXTURE_PITCH_ALIGNMENT, dev);
	if (r == LB_ST_OK)
		*align = a;
	return r;
}

static lb_status lb_cu_mem_alloc(void **p, size_t n)
{
	LB_CU_SERVE(cuMemAlloc_v2, ((CUdeviceptr *)p, n), cudaMalloc, (p, n));
}

static lb_status lb_cu_mem_alloc_managed(void **p, size_t n, unsigned fl)
{
	LB_CU_SERVE(cuMemAllocManaged, ((CUdeviceptr *)p, n, fl),
		    cudaMallocManaged, (p, n, fl));
}

static lb_status lb_cu_mem_free(void *p)
{
	LB_CU_SERVE(cuMemFree_v2, ((CUdeviceptr)(uintptr_t)p), cudaFree, (p));
}

static lb_status lb_cu_mem_info(size_t *free, size_t *total)
{
	LB_CU_SERVE(cuMemGetInfo_v2, (free, total), cudaMemGetInfo,
		    (free, total));
}

/*
 * Names: a status by cudart's cudaGetErrorName (cuda_runtime_api.h:1232,
 * which returns a name and leaves the last error alone), or in a
 * driver-API program by cuGetErrorName (cuda.h:5170).  Kernels are named
 * by their registration and module lookups (kreg.c): no function here.
 */
static const char *lb_cu_drv_status_name(lb_status r)
{
	CUresult (*f)(int, const char **) = lb_cun_get(LB_CUN_ERROR_NAME);
	const char *s = NULL;

	return f && f((int)r, &s) == CUDA_SUCCESS ? s : NULL;
}

static void lb_cu_names(struct lb_rt_names *n)
{
	lb_rt_own_bump();
	n->kernel_by_ptr = NULL;
	n->kernel_ref = NULL;
	n->status = (const char *(*)(lb_status))lb_cun_get(
		LB_CUN_RT_ERROR_NAME);
	if (!n->status)
		n->status = lb_cu_drv_status_name;
}

/* ---- (f) the last-error rule ---- */

/* cudart's functions, raw (cuda_runtime_api.h:1165, :1216); no ext. */
static void lb_cu_le_fns(struct lb_rt_le_fns *f)
{
	f->get = (lb_status(*)(void))lb_real.cudaGetLastError;
	f->peek = (lb_status(*)(void))lb_real.cudaPeekAtLastError;
	f->ext = NULL;
}

/*
 * CUDA's rule, one for every release: cudaGetLastError "Returns the
 * last error that has been produced by any of the runtime calls ... and
 * resets it to cudaSuccess", cudaPeekAtLastError "does not reset the
 * error" (cuda_runtime_api.h:1119, :1170): a success leaves it, so a
 * failure is kept until read, which is lasterr.c's sticky rule, known
 * without a call.  A sticky error in NVIDIA's other sense (one that
 * leaves the context unusable, "any further CUDA work will return the
 * same error", driver_types.h:771 and the like) is the runtime's answer
 * to every later call, cudaGetLastError's too: lasterr.c lets a failure
 * the runtime holds win over its own shadow, so it shows as it is.
 */
static int lb_cu_le_sticky(int *version, int *asked)
{
	(void)version;
	*asked = 0;
	lb_log(LB_LOG_DEBUG, "runtime CUDA: last error kept until read");
	return 1;
}

/* Runtime rows store their result; the driver's (VER "") and the
 * registrations (no status) do not. */
static int lb_cu_le_sets(int api)
{
	unsigned role;

	if (api < LB_API_HIP_COUNT || api >= LB_API_COUNT ||
	    strncmp(lb_api_info[api].version, "libcudart", 9) != 0)
		return 0;
	role = lb_api_info[api].role;
	return role != LB_ROLE_REG_FATBIN && role != LB_ROLE_REG_FUNCTION &&
	       role != LB_ROLE_UNREG_FATBIN;
}

static const struct lb_rt_le lb_cu_le = {
	.fns = lb_cu_le_fns,
	.sets = lb_cu_le_sets,
	/*
	 * cudaErrorNotReady is kept like any failure: PyTorch reads the
	 * last error out after a query that said so for that reason
	 * (ATen/cuda/CUDAEvent.h, query(): "ignore and clear the error if
	 * not ready"); hipemu's face does the same (tests/hipemu/README.md).
	 */
	.not_ready_kept = 1,
	.sticky = lb_cu_le_sticky,
};

/* ---- (f) kernel facts: none read from CUDA's images; layouts from the
 * driver ---- */

/* An empty set: NVIDIA's fat binaries and cubins are not AMDGPU code
 * objects, and their parameter layouts are the driver's to tell. */
static struct lb_co_set *lb_cu_read_none(unsigned flags)
{
	return lb_co_read(NULL, 0, flags);
}

static struct lb_co_set *lb_cu_read_fatbin(const void *w, unsigned flags)
{
	(void)w;
	return lb_cu_read_none(flags);
}

static struct lb_co_set *lb_cu_read_file(const char *path, unsigned flags)
{
	(void)path;
	return lb_cu_read_none(flags);
}

/*
 * A kernel's parameter layout from the driver: cuFuncGetParamInfo (CUDA
 * 12.4, cuda.h:17374) of its CUfunction, index by index until
 * CUDA_ERROR_INVALID_VALUE ("paramIndex must be less than the number of
 * parameters", cuda.h:17359).  The CUfunction of a module launch is its
 * handle; of a runtime launch, cudaGetFuncBySymbol's of its host stub
 * (cuda_runtime_api.h:13757: kreg asks a cudaKernel_t's by the stub it
 * was got for).  A failed cudaGetFuncBySymbol leaves its error as the
 * last error: an own call, which lasterr.c puts right, or, under the
 * trace alone, lb_cu_own_failed.
 */
/*
 * After a runtime call of the shim's own failed: where lasterr.c keeps no
 * shadow (the trace alone, which otherwise calls no runtime function),
 * the failure it left as the last error is cleared.  A failure the
 * program had not read yet is lost with it (CUDA has no call that sets
 * the last error back); asking for it first would cost every layout
 * query a call, for a failure that follows only a handle the runtime
 * had just launched.
 */
static void lb_cu_own_failed(void)
{
	if (!lb_le_on && lb_real.cudaGetLastError)
		(void)lb_real.cudaGetLastError();
}

static int lb_cu_params(const void *f, int module, uint32_t *off,
			uint32_t *size, int max)
{
	CUresult (*info)(void *, size_t, size_t *, size_t *) =
		lb_cun_get(LB_CUN_PARAM_INFO);
	cudaError_t (*sym)(void **, const void *) =
		lb_cun_get(LB_CUN_RT_FUNC_BY_SYMBOL);
	void *fn = NULL;
	int i;

	if (!info || !f)
		return -1;
	lb_rt_own_bump();
	if (module) {
		fn = (void *)f;
	} else if (!(sym && sym(&fn, f) == cudaSuccess && fn)) {
		lb_cu_own_failed();
		return -1;
	}
	for (i = 0; i < max; i++) {
		size_t o = 0, n = 0;
		CUresult r = info(fn, (size_t)i, &o, &n);

		if (r == CUDA_ERROR_INVALID_VALUE)
			break;
		if (r != CUDA_SUCCESS || o > UINT32_MAX || n > UINT32_MAX)
			return -1;
		off[i] = (uint32_t)o;
		size[i] = (uint32_t)n;
	}
	/* more than max: a layout cut short would type the rest wrongly */
	return i < max ? i : -1;
}

static const struct lb_rt_kf lb_cu_kf = {
	.read_fatbin = lb_cu_read_fatbin,
	.read_file = lb_cu_read_file,
	.read_image = lb_cu_read_fatbin,
	.params = lb_cu_params,
};

/* ---- the side ---- */

const struct lb_rt lb_rt_cuda = {
	.name = "cuda",
	.has = lb_cu_has,
	.stream_create = lb_cu_stream_create,
	.stream_destroy = lb_cu_stream_destroy,
	.stream_query = lb_cu_stream_query,
	.stream_sync = lb_cu_stream_sync,
	.stream_flags = lb_cu_stream_flags,
	.stream_capturing = lb_cu_stream_capturing,
	.stream_wait_event = lb_cu_stream_wait_event,
	.event_create = lb_cu_event_create,
	.event_record = lb_cu_event_record,
	.event_query = lb_cu_event_query,
	.event_sync = lb_cu_event_sync,
	.event_destroy = lb_cu_event_destroy,
	.device_get = lb_cu_device_get,
	.device_set = lb_cu_device_set,
	.device_sync = lb_cu_device_sync,
	.device_pitch_align = lb_cu_device_pitch_align,
	.mem_alloc = lb_cu_mem_alloc,
	.mem_alloc_managed = lb_cu_mem_alloc_managed,
	.mem_free = lb_cu_mem_free,
	.mem_info = lb_cu_mem_info,
	.names = lb_cu_names,
	.row_first = LB_API_HIP_COUNT,
	.row_end = LB_API_COUNT,
	/*
	 * stream0 moves what names the legacy default stream: 0 and
	 * cudaStreamLegacy / CU_STREAM_LEGACY ("an implicit stream with
	 * legacy synchronization behavior", driver_types.h:104-111,
	 * cuda.h:432-440), in a plain row.  The per-thread handle ("with
	 * per-thread synchronization behavior", driver_types.h:113-121,
	 * cuda.h:442-450) and the _ptsz/_ptds rows already name the
	 * thread's own default stream: left to the runtime.
	 */
	.null_handles = 1u << 0 | 1u << LB_CU_STREAM_LEGACY,
	.spt_alone = 1,
	/* cudaMemcpy's "\note_sync" (cuda_runtime_api.h:5942, CUDA 13.0),
	 * the Runtime API's "API synchronization behavior": "For transfers
	 * from device to either pageable or pinned host memory, the
	 * function returns only once the copy has completed." */
	.sync_dtoh_done = 1,
	.launch_buffer_ptr = (const void *)LB_CU_LAUNCH_PARAM_BUFFER_POINTER,
	.launch_buffer_size = (const void *)LB_CU_LAUNCH_PARAM_BUFFER_SIZE,
	.launch_end = (const void *)LB_CU_LAUNCH_PARAM_END,
	/* CU_POINTER_ATTRIBUTE_RANGE_SIZE: a size_t (cuda.h:14287-14292) */
	.range_size_width = 8,
	.attr_device_ptr = offsetof(struct lb_cu_ptr_attrs, devicePointer),
	.attr_host_ptr = offsetof(struct lb_cu_ptr_attrs, hostPointer),
	/* CUDA has no variable of its own that traces its calls */
	.trace_env = NULL,
	.memcpy_kind = { "cudaMemcpyHostToHost", "cudaMemcpyHostToDevice",
			 "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice",
			 "cudaMemcpyDefault" },
	.le = &lb_cu_le,
	.kf = &lb_cu_kf,
};
