/*
 * pool_api.c - the pool policy's hooks: which HIP calls it serves, which
 * it corrects afterwards, and the edge cases where it must answer exactly
 * as the runtime would.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include "lbshim/trace_format.h"
#include "pool.h"

static void lb_warn_once(int *flag, const char *fmt, const void *p)
{
	if (!__atomic_exchange_n(flag, 1, __ATOMIC_RELAXED))
		lb_log(LB_LOG_WARN, fmt, p);
}

/* ---- hipDeviceGetAttribute, which the API table does not wrap ---- */

typedef hipError_t (*lb_getattr_fn)(int *, hipDeviceAttribute_t, int);
static lb_getattr_fn lb_getattr;
static pthread_once_t lb_getattr_once = PTHREAD_ONCE_INIT;

static void lb_getattr_resolve(void)
{
	void *h;

	lb_getattr = (lb_getattr_fn)dlsym(RTLD_NEXT, "hipDeviceGetAttribute");
	if (lb_getattr)
		return;
	h = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
	if (!h && lb_real.hipMalloc)
		h = dlopen(lb_lib_of((void *)lb_real.hipMalloc),
			   RTLD_NOW | RTLD_NOLOAD);
	if (h) {
		lb_getattr = (lb_getattr_fn)dlsym(h, "hipDeviceGetAttribute");
		dlclose(h); /* NOLOAD took a reference; the library stays */
	}
}

/* Pitch alignment of device d: 256, or the texture pitch alignment. */
static size_t lb_pitch_align(struct lb_pdev *d)
{
	int a = __atomic_load_n(&d->pitch_align, __ATOMIC_RELAXED);

	if (LB_LIKELY(a))
		return (size_t)a;
	pthread_once(&lb_getattr_once, lb_getattr_resolve);
	a = 0;
	if (!lb_getattr ||
	    lb_getattr(&a, hipDeviceAttributeTexturePitchAlignment, d->id) !=
		    hipSuccess)
		a = 0;
	if (a < (int)LB_PALIGN)
		a = LB_PALIGN;
	__atomic_store_n(&d->pitch_align, a, __ATOMIC_RELAXED);
	return (size_t)a;
}

/* ---- allocation ---- */

static hipError_t lb_pool_get(struct lb_pdev *d, int kind, size_t rsize,
			      void **out, int *hit)
{
	struct lb_pblock *b;

	if (rsize <= LB_TC_MAX_BLOCK) {
		b = lb_ptc_get(d, kind, rsize);
		if (!b && lb_pfence_pending(d)) {
			lb_pfence_poll(d);
			b = lb_ptc_get(d, kind, rsize);
		}
		if (b) {
			*out = (void *)b->ptr;
			*hit = 1;
			return hipSuccess;
		}
	}
	return lb_pheap_alloc(d, kind, rsize, rsize, out, hit);
}

/*
 * Serves an allocation of size bytes into *out.  Returns 0 (pass to the
 * runtime) only when the device is beyond the pool's reach.
 */
static int lb_pool_alloc(struct lb_call *c, void **out, size_t size, int kind)
{
	struct lb_pdev *d;
	void *p = NULL;
	int hit = 0;

	c->scratch[LB_NOTE_POOL] = LB_POOL_MISS;
	if (!out) {
		c->ret = hipErrorInvalidValue;
		return 1;
	}
	if (!size) {
		/* the runtime's answers: managed memory refuses 0 bytes */
		if (kind == LB_PK_MANAGED) {
			c->ret = hipErrorInvalidValue;
		} else {
			*out = NULL;
			c->ret = hipSuccess;
		}
		return 1;
	}
	d = lb_pdev_get(lb_pool_curdev());
	if (!d)
		return 0;
	if (size > SIZE_MAX - LB_PROUND_LARGE) {
		*out = NULL;
		c->ret = hipErrorOutOfMemory;
		return 1;
	}
	size = (size + LB_PALIGN - 1) & ~(size_t)(LB_PALIGN - 1);
	c->ret = lb_pool_get(d, kind, size, &p, &hit);
	*out = c->ret == hipSuccess ? p : NULL;
	if (c->ret == hipSuccess) {
		c->scratch[LB_NOTE_POOL] = hit ? LB_POOL_HIT : LB_POOL_MISS;
		lb_ptc_count(hit);
	}
	return 1;
}

static int lb_pool_pitch(struct lb_call *c, struct lb_args_hipMallocPitch *a)
{
	struct lb_pdev *d;
	size_t align, pitch;
	int r;

	if (!a->ptr || !a->pitch) {
		c->scratch[LB_NOTE_POOL] = LB_POOL_MISS;
		c->ret = hipErrorInvalidValue;
		return 1;
	}
	if (!a->width || !a->height)
		return 0; /* whatever the runtime does with an empty array */
	d = lb_pdev_get(lb_pool_curdev());
	if (!d)
		return 0;
	align = lb_pitch_align(d);
	if (a->width > SIZE_MAX - align ||
	    (pitch = (a->width + align - 1) / align * align) >
		    SIZE_MAX / a->height) {
		*a->ptr = NULL;
		c->scratch[LB_NOTE_POOL] = LB_POOL_MISS;
		c->ret = hipErrorOutOfMemory;
		return 1;
	}
	r = lb_pool_alloc(c, a->ptr, pitch * a->height, LB_PK_DEVICE);
	if (r && c->ret == hipSuccess)
		*a->pitch = pitch;
	return r;
}

/* ---- free ---- */

static int lb_bad_free_warned;

/*
 * Frees ptr if the pool owns it; returns 0 to pass a foreign pointer to
 * the runtime.  s: the stream of a hipFreeAsync, or NULL.
 */
static int lb_pool_free(struct lb_call *c, void *ptr, hipStream_t *s)
{
	struct lb_pblock *b;
	struct lb_pdev *d;
	int found;

	c->scratch[LB_NOTE_POOL] = LB_POOL_MISS;
	if (!ptr)
		return 0;
	b = lb_pmap_claim((uintptr_t)ptr, &found);
	if (!b) {
		if (!found && !lb_pchunks_contain((uintptr_t)ptr))
			return 0;
		lb_padd(&lb_pstat.bad_frees, 1);
		lb_warn_once(&lb_bad_free_warned,
			     "pool: hipFree(%p): not the start of a live pool "
			     "block (an interior pointer, or freed already); "
			     "returning hipErrorInvalidValue (warned once per "
			     "process)",
			     ptr);
		c->ret = hipErrorInvalidValue;
		return 1;
	}
	d = b->chunk->heap->dev;
	if (s)
		lb_pfence_work(*s, 0); /* the free is ordered after it */
	if (lb_popt.free_sync) {
		/* the runtime's hipFree: a device-wide wait, then free */
		int prev = lb_pool_enter_dev(d->id);

		if (lb_real.hipDeviceSynchronize)
			lb_real.hipDeviceSynchronize();
		lb_pool_restore_dev(prev);
		b->fence = 0;
	} else {
		b->fence = lb_pfence_for_free(d);
		if (!lb_pfence_done(d, b->fence))
			lb_padd(&lb_pstat.pending_frees, 1);
	}
	if (b->size <= LB_TC_MAX_BLOCK && b->chunk->heap->cls == LB_PC_SMALL)
		lb_ptc_put(b);
	else
		lb_pheap_release(b);
	c->scratch[LB_NOTE_POOL] = LB_POOL_HIT;
	c->ret = hipSuccess;
	return 1;
}

/* ---- queries ---- */

static int lb_ipc_warned;

static int lb_pool_range(struct lb_call *c,
			 struct lb_args_hipMemGetAddressRange *a)
{
	struct lb_ploc loc;

	if (!lb_pchunks_contain((uintptr_t)a->dptr))
		return 0;
	lb_plocate((uintptr_t)a->dptr, &loc);
	if (!loc.in_pool)
		return 0;
	if (!loc.live) {
		/* what the runtime says of memory that is not allocated */
		c->ret = hipErrorNotFound;
	} else if (!a->pbase || !a->psize) {
		c->ret = hipErrorInvalidValue;
	} else {
		*a->pbase = (hipDeviceptr_t)loc.base;
		*a->psize = loc.size;
		c->ret = hipSuccess;
	}
	return 1;
}

static void lb_pool_attrs(struct lb_call *c)
{
	struct lb_args_hipPointerGetAttributes *a = c->args;
	struct lb_ploc loc;

	if (c->ret != hipSuccess || !a->attributes ||
	    !lb_pchunks_contain((uintptr_t)a->ptr))
		return;
	lb_plocate((uintptr_t)a->ptr, &loc);
	if (!loc.in_pool)
		return;
	if (!loc.live) {
		c->ret = hipErrorInvalidValue;
		return;
	}
	/* the runtime answered for the chunk; the pointer is the block's */
	a->attributes->devicePointer = (void *)a->ptr;
	if (loc.kind == LB_PK_MANAGED)
		a->attributes->hostPointer = (void *)a->ptr;
}

static void lb_pool_meminfo(struct lb_call *c)
{
	struct lb_args_hipMemGetInfo *a = c->args;
	struct lb_pdev *d;
	size_t cached;

	if (c->ret != hipSuccess || !a->free)
		return;
	d = lb_pdev_peek(lb_pool_curdev());
	if (!d)
		return;
	/* cached blocks are free to the program: it can allocate them */
	cached = lb_pheap_free_bytes(d) + lb_ptc_bytes(d->id);
	*a->free += cached;
	if (a->total && *a->free > *a->total)
		*a->free = *a->total;
}

int lb_pool_pre(struct lb_call *c)
{
	if (LB_UNLIKELY(lb_pool_off))
		return 0;
	switch (c->api) {
	case LB_ID_hipMalloc: {
		struct lb_args_hipMalloc *a = c->args;

		return lb_pool_alloc(c, a->ptr, a->size, LB_PK_DEVICE);
	}
	case LB_ID_hipExtMallocWithFlags: {
		struct lb_args_hipExtMallocWithFlags *a = c->args;

		if (a->flags != hipDeviceMallocDefault)
			return 0;
		return lb_pool_alloc(c, a->ptr, a->sizeBytes, LB_PK_DEVICE);
	}
	case LB_ID_hipMallocManaged: {
		struct lb_args_hipMallocManaged *a = c->args;

		if (a->flags != hipMemAttachGlobal)
			return 0;
		return lb_pool_alloc(c, a->dev_ptr, a->size, LB_PK_MANAGED);
	}
	case LB_ID_hipMallocPitch:
		return lb_pool_pitch(c, c->args);
	case LB_ID_hipFree: {
		struct lb_args_hipFree *a = c->args;

		return lb_pool_free(c, a->ptr, NULL);
	}
	case LB_ID_hipFreeAsync: {
		struct lb_args_hipFreeAsync *a = c->args;

		return lb_pool_free(c, a->dev_ptr, c->stream);
	}
	case LB_ID_hipMemGetAddressRange:
		return lb_pool_range(c, c->args);
	case LB_ID_hipIpcGetMemHandle: {
		struct lb_args_hipIpcGetMemHandle *a = c->args;

		if (!lb_pchunks_contain((uintptr_t)a->devPtr))
			return 0;
		lb_warn_once(&lb_ipc_warned,
			     "pool: hipIpcGetMemHandle(%p): pool memory cannot "
			     "be shared between processes; leave the pool "
			     "policy off for programs that use IPC "
			     "(warned once per process)",
			     a->devPtr);
		c->ret = hipErrorInvalidValue;
		return 1;
	}
	case LB_ID_hipStreamDestroy: {
		struct lb_args_hipStreamDestroy *a = c->args;

		lb_pstream_gone(a->stream);
		return 0;
	}
	default:
		return 0;
	}
}

/* Does a call of this kind put work on its stream? */
static int lb_is_work(unsigned kind)
{
	return kind == LB_KIND_LAUNCH || kind == LB_KIND_COPY ||
	       kind == LB_KIND_SET;
}

void lb_pool_post(struct lb_call *c)
{
	const struct lb_api_info *i = &lb_api_info[c->api];

	if (LB_UNLIKELY(lb_pool_off))
		return;
	if (lb_is_work(i->kind)) {
		if (c->stream)
			lb_pfence_work(*c->stream, i->flags & LB_F_SPT);
		else if (i->flags & (LB_F_NULLSYNC | LB_F_SPT))
			lb_pfence_work(NULL, i->flags & LB_F_SPT);
		else if (i->flags & LB_F_INDIRECT)
			lb_pfence_unknown(); /* streams we cannot see */
		return;
	}
	switch (c->api) {
	case LB_ID_hipSetDevice:
		if (c->ret == hipSuccess)
			lb_pool_setdev(((struct lb_args_hipSetDevice *)c->args)
					       ->deviceId);
		break;
	case LB_ID_hipStreamCreate:
	case LB_ID_hipStreamCreateWithFlags:
	case LB_ID_hipStreamCreateWithPriority:
		/* all three have the out-pointer first */
		if (c->ret == hipSuccess)
			lb_pstream_created(
				*((struct lb_args_hipStreamCreate *)c->args)
					 ->stream,
				lb_pool_curdev());
		break;
	case LB_ID_hipStreamBeginCapture:
	case LB_ID_hipStreamBeginCapture_spt:
	case LB_ID_hipStreamBeginCaptureToGraph:
		if (c->ret == hipSuccess)
			lb_pstream_capture(*c->stream, 1);
		break;
	case LB_ID_hipStreamEndCapture:
	case LB_ID_hipStreamEndCapture_spt:
		lb_pstream_capture(*c->stream, 0);
		break;
	case LB_ID_hipMemGetInfo:
		lb_pool_meminfo(c);
		break;
	case LB_ID_hipPointerGetAttributes:
		lb_pool_attrs(c);
		break;
	case LB_ID_hipDeviceReset:
		if (c->ret == hipSuccess) {
			struct lb_pdev *d = lb_pdev_peek(lb_pool_curdev());

			if (d) {
				lb_pheap_drop(d);
				lb_pfence_drop(d);
			}
		}
		break;
	default:
		break;
	}
}
