/*
 * pool_api.c - the pool policy's hooks: which HIP calls it serves, which
 * it corrects afterwards, and the edge cases where it must answer exactly
 * as the runtime would.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include "lbshim/trace_format.h"
#include "pool.h"
#include "pool_tc.h"

static void lb_warn_once(int *flag, const char *fmt, const void *p)
{
	if (!__atomic_exchange_n(flag, 1, __ATOMIC_RELAXED))
		lb_log(LB_LOG_WARN, fmt, p);
}

/* Pitch alignment of device d: 256, or the texture pitch alignment. */
static size_t lb_pitch_align(struct lb_pdev *d)
{
	int a = __atomic_load_n(&d->pitch_align, __ATOMIC_RELAXED);

	if (LB_LIKELY(a))
		return (size_t)a;
	a = 0;
	if (lb_rt->device_pitch_align(d->id, &a) != LB_ST_OK)
		a = 0;
	if (a < (int)LB_PALIGN)
		a = LB_PALIGN;
	__atomic_store_n(&d->pitch_align, a, __ATOMIC_RELAXED);
	return (size_t)a;
}

/* ---- allocation ---- */

static lb_status lb_pool_get(struct lb_pdev *d, int kind, size_t rsize,
			      size_t asked, void **out, int *hit)
{
	struct lb_pblock *b;

	if (rsize <= LB_TC_MAX_BLOCK) {
		b = lb_ptc_get(d, kind, rsize, asked);
		if (!b && lb_pfence_pending(d)) {
			lb_pfence_poll(d);
			b = lb_ptc_get(d, kind, rsize, asked);
		}
		if (b) {
			*out = (void *)b->ptr;
			*hit = 1;
			return LB_ST_OK;
		}
	}
	return lb_pheap_alloc(d, kind, rsize, asked, out, hit);
}

/*
 * Serves an allocation of size bytes into *out.  Returns 0 (pass to the
 * runtime) when the device is beyond the pool's reach or the size is at
 * least LBSHIM_POOL_BYPASS, and for a null out or 0 bytes: no memory is
 * involved, and the answer is the runtime's own, which depends on more
 * than the arguments (without a device every call is hipErrorNoDevice,
 * HIP_INIT_API coming before any argument check: clr hipamd/src/
 * hip_internal.hpp and hip_memory.cpp, rocm-6.2.0; the real 5.7, 6.4 and
 * 7.2 runtimes answer so, tests/realrocm/t_rows.sh).  The trace's note:
 * hit when no runtime call was made for memory, miss when one was (or
 * the call goes to it for memory), off for those (no memory involved).
 */
static int lb_pool_alloc(struct lb_call *c, void **out, size_t size, int kind)
{
	struct lb_pdev *d;
	void *p = NULL;
	int hit = 0;

	if (!out || !size)
		return 0;
	if (lb_popt.bypass && size >= lb_popt.bypass) {
		c->scratch[LB_NOTE_POOL] = LB_POOL_MISS;
		return 0;
	}
	d = lb_pdev_get(lb_pool_curdev());
	if (!d) {
		c->scratch[LB_NOTE_POOL] = LB_POOL_MISS;
		return 0;
	}
	if (size > SIZE_MAX - LB_PROUND_LARGE) {
		*out = NULL;
		c->ret = LB_ST_OOM;
		return 1;
	}
	c->ret = lb_pool_get(d, kind, lb_pround(size), size, &p, &hit);
	if (LB_UNLIKELY(c->ret == LB_PERR_PASS)) {
		c->ret = LB_ST_OK;
		c->scratch[LB_NOTE_POOL] = LB_POOL_MISS;
		return 0;
	}
	*out = c->ret == LB_ST_OK ? p : NULL;
	c->scratch[LB_NOTE_POOL] =
		c->ret == LB_ST_OK && hit ? LB_POOL_HIT : LB_POOL_MISS;
	return 1;
}

/* A pitched allocation: OUT, PITCH_OUT, WIDTH and HEIGHT by role. */
static int lb_pool_pitch(struct lb_call *c)
{
	int api = c->api;
	void **out = lb_ar_ptr(api, c->args, LB_AR_OUT);
	size_t *pitchp = lb_ar_ptr(api, c->args, LB_AR_PITCH_OUT);
	size_t width = lb_ar_size(api, c->args, LB_AR_WIDTH);
	size_t height = lb_ar_size(api, c->args, LB_AR_HEIGHT);
	struct lb_pdev *d;
	size_t align, pitch;
	int r;

	/* the runtime's answer, as for lb_pool_alloc's null out */
	if (!out || !pitchp || !width || !height)
		return 0;
	d = lb_pdev_get(lb_pool_curdev());
	if (!d)
		return 0;
	align = lb_pitch_align(d);
	/* The runtime refuses a width whose pitch would overflow
	 * (clr hipamd/src/hip_memory.cpp ihipMallocPitch, rocm-6.2.0). */
	if (width > SIZE_MAX - align) {
		c->ret = LB_ST_INVALID_VALUE;
		return 1;
	}
	pitch = (width + align - 1) / align * align;
	if (pitch > SIZE_MAX / height) {
		*out = NULL;
		c->ret = LB_ST_OOM;
		return 1;
	}
	r = lb_pool_alloc(c, out, pitch * height, LB_PK_DEVICE);
	if (r && c->ret == LB_ST_OK)
		*pitchp = pitch;
	return r;
}

/* ---- free ---- */

static int lb_bad_free_warned;

/*
 * Would the runtime take a hipFreeAsync on s?  A stream destroyed (or
 * never created) is hipErrorInvalidHandle and the memory stays allocated
 * (clr hipamd/src/hip_mempool.cpp hipFreeAsync: !hip::isValid(stream),
 * rocm-6.2.0); hipStreamGetFlags gives that answer without touching the
 * stream's work.  A stream being captured cannot take a pool block's free
 * (the pool cannot put a free into the graph): hipemu's and ROCm 5.2's
 * answer, hipErrorStreamCaptureUnsupported.
 */
static lb_status lb_free_stream_check(lb_stream s)
{
	int st = LB_CAPTURE_NONE;
	unsigned flags;
	lb_status e;

	if (s && s != LB_STREAM_LEGACY && s != LB_STREAM_PER_THREAD) {
		e = lb_rt->stream_flags(s, &flags);
		if (e == LB_ST_INVALID_HANDLE ||
		    e == LB_ST_CONTEXT_DESTROYED)
			return LB_ST_INVALID_HANDLE;
	}
	if (lb_pcapture_any() && lb_rt->stream_capturing(s, &st) == LB_ST_OK &&
	    st != LB_CAPTURE_NONE)
		return LB_ST_CAPTURE_UNSUPPORTED;
	return LB_ST_OK;
}

/*
 * The rest of a free, once block b is claimed (state FREEING): the caller
 * notes the hit (c->ret hipSuccess, LB_POOL_HIT; lb_pool_serve: none).
 */
static inline void lb_pool_free_claimed(struct lb_pblock *b, lb_stream *s)
{
	struct lb_pheap *h = b->chunk->heap;
	struct lb_pdev *d = h->dev;
	uint64_t f = 0;

	if (s)
		lb_pfence_work(*s, 0); /* the free is ordered after it */
	if (lb_popt.free_sync) {
		/* the runtime's hipFree: a device-wide wait, then free */
		int prev = lb_pool_enter_dev(d->id);

		lb_rt->device_sync();
		lb_pool_restore_dev(prev);
	} else {
		f = lb_pfence_for_free(d);
		if (!lb_pfence_done(d, f))
			lb_padd(&lb_pstat.pending_frees, 1);
	}
	b->fence = f;
	if (b->tckey) {
		lb_ptc_put(b, f); /* which counts inuse_asked */
	} else {
		__atomic_fetch_sub(&d->inuse_asked, lb_pround(b->asked),
				   __ATOMIC_RELAXED);
		lb_pheap_release(b);
	}
}

/* A call the pool answered itself, with hipSuccess. */
static inline int lb_pool_hit(struct lb_call *c)
{
	c->scratch[LB_NOTE_POOL] = LB_POOL_HIT;
	c->ret = LB_ST_OK;
	return 1;
}

/*
 * Frees ptr if the pool owns it; returns 0 to pass a foreign pointer to
 * the runtime.  s: the stream of a hipFreeAsync, or NULL.
 */
static int lb_pool_free(struct lb_call *c, void *ptr, lb_stream *s)
{
	struct lb_pblock *b;
	int found;

	c->scratch[LB_NOTE_POOL] = LB_POOL_MISS;
	if (!ptr)
		return 0;
	if (s && lb_pchunks_contain((uintptr_t)ptr)) {
		lb_status e = lb_free_stream_check(*s);

		if (e != LB_ST_OK) {
			/* the runtime's answer; the block stays live */
			c->scratch[LB_NOTE_POOL] = LB_POOL_OFF;
			c->ret = e;
			return 1;
		}
	}
	b = lb_pmap_claim((uintptr_t)ptr, &found);
	if (LB_LIKELY(b)) {
		lb_pool_free_claimed(b, s);
		return lb_pool_hit(c);
	}
	if (!found && !lb_pchunks_contain((uintptr_t)ptr))
		return 0;
	c->scratch[LB_NOTE_POOL] = LB_POOL_OFF;
	lb_padd(&lb_pstat.bad_frees, 1);
	lb_warn_once(&lb_bad_free_warned,
		     "pool: hipFree(%p): not the start of a live pool block "
		     "(an interior pointer, or freed already); returning "
		     "hipErrorInvalidValue (warned once per process)",
		     ptr);
	c->ret = LB_ST_INVALID_VALUE;
	return 1;
}

/* ---- queries ---- */

static int lb_ipc_warned;

/*
 * hipIpcGetMemHandle of pool memory: a handle names a whole runtime
 * allocation, so a block inside a chunk cannot have one.  Refused with
 * the runtime's answer for a pointer that is not an allocation's start
 * (hipErrorInvalidValue), and a warning that names the programs that do
 * this and the setting that keeps their allocations out of the pool.
 */
static void lb_ipc_refuse(struct lb_call *c, const void *p)
{
	struct lb_ploc loc;

	c->ret = LB_ST_INVALID_VALUE;
	if (__atomic_exchange_n(&lb_ipc_warned, 1, __ATOMIC_RELAXED))
		return;
	lb_plocate((uintptr_t)p, &loc);
	lb_log(LB_LOG_WARN,
	       "pool: hipIpcGetMemHandle(%p): a pool block cannot be shared "
	       "between processes (torch.multiprocessing sharing GPU "
	       "tensors and rccl's P2P/IPC transport do this); set "
	       "LBSHIM_POOL_BYPASS=%zu or less to leave allocations of "
	       "that size to the runtime, or leave pool out of "
	       "LBSHIM_POLICIES (warned once per process)",
	       p, loc.live && loc.size ? loc.size : (size_t)1);
}

/*
 * What the pool does with each row's calls, from the row's role (roles.h),
 * decided at init (lb_pool_ops_init).
 */
enum {
	LB_POP_NONE,	 /* the memory queries' (pool_query.c), if any */
	LB_POP_ALLOC,	 /* device memory: served unless FLAGS say more */
	LB_POP_MANAGED,	 /* managed memory, hipMemAttachGlobal: served */
	LB_POP_PITCH,	 /* pitched device memory: served */
	LB_POP_FREE,	 /* device memory of the pool: freed */
	LB_POP_FREE_ASYNC, /* the same, stream-ordered */
	LB_POP_IPC,	 /* a pool block has no IPC handle */
	LB_POP_STREAM_GONE, LB_POP_CAPTURE, LB_POP_JOIN,
};
static uint8_t lb_pool_op[LB_API_COUNT];

/*
 * The rows lb_pool_serve answers (struct lb_policy.serve_rows): the
 * device allocations without flags whose OUT and BYTES are their first
 * two parameters (hipMalloc's shape), the device frees whose PTR is the
 * first: the hot loop's calls, which lb_pool_serve reads at those places
 * with no look at the row.
 */
uint8_t lb_pool_serve_rows[LB_API_COUNT];
/*
 * Their ids, the first row of each shape among the served runtime's
 * rows (hipMalloc and hipFree, or cudaMalloc and cudaFree; one each: an id
 * compared costs what a constant did, where a table's entry is a load
 * more on the hot loop's every call); -1: none.
 */
static int lb_pool_hot_malloc = -1, lb_pool_hot_free = -1;

/* Is row i's parameter in role r at byte offset off? */
static int lb_pool_at(int i, unsigned r, unsigned off)
{
	return lb_arg_tab[i][r] == off / 4 + 1;
}

void lb_pool_ops_init(void)
{
	int i;

	for (i = 0; i < LB_API_COUNT; i++) {
		/* the hot rows are the served runtime's (rt.h) */
		int nostream = lb_api_info[i].stream_idx < 0 &&
			       i >= lb_rt->row_first && i < lb_rt->row_end;

		switch (lb_api_info[i].role) {
		case LB_ROLE_ALLOC:
			lb_pool_op[i] = LB_POP_ALLOC;
			if (nostream && !lb_ar_has(i, LB_AR_FLAGS) &&
			    lb_pool_at(i, LB_AR_OUT, 0) &&
			    lb_pool_at(i, LB_AR_BYTES, 8) &&
			    lb_pool_hot_malloc < 0) {
				lb_pool_hot_malloc = i;
				lb_pool_serve_rows[i] = 1;
			}
			break;
		case LB_ROLE_ALLOC_MANAGED:
			lb_pool_op[i] = LB_POP_MANAGED;
			break;
		case LB_ROLE_ALLOC_PITCH:
			lb_pool_op[i] = LB_POP_PITCH;
			break;
		case LB_ROLE_FREE:
			lb_pool_op[i] = LB_POP_FREE;
			if (nostream && lb_pool_at(i, LB_AR_PTR, 0) &&
			    lb_pool_hot_free < 0) {
				lb_pool_hot_free = i;
				lb_pool_serve_rows[i] = 1;
			}
			break;
		case LB_ROLE_FREE_ASYNC:
			lb_pool_op[i] = LB_POP_FREE_ASYNC;
			break;
		case LB_ROLE_IPC_HANDLE:
			lb_pool_op[i] = LB_POP_IPC;
			break;
		case LB_ROLE_STREAM_DESTROY:
			lb_pool_op[i] = LB_POP_STREAM_GONE;
			break;
		case LB_ROLE_CAPTURE_BEGIN:
			lb_pool_op[i] = LB_POP_CAPTURE;
			break;
		case LB_ROLE_STREAM_WAIT:
			lb_pool_op[i] = LB_POP_JOIN;
			break;
		default:
			break;
		}
	}
	/*
	 * The exception, by id: the pool serves hipMallocPitch but leaves
	 * hipMemAllocPitch, of the same role, to the runtime, as lbshim(7)
	 * and the contract say (hipMalloc, hipMallocManaged, hipMallocPitch
	 * and hipExtMallocWithFlags' default flags).
	 */
	lb_pool_op[LB_ID_hipMemAllocPitch] = LB_POP_NONE;
}

/* lb_pool_pre() of the calls other than the device allocations and
 * frees, by the row's op. */
static __attribute__((noinline)) int lb_pool_pre_other(struct lb_call *c,
							 unsigned op)
{
	int api = c->api;
	void *p;

	switch (op) {
	case LB_POP_MANAGED:
		if (lb_ar_u64(api, c->args, LB_AR_FLAGS) !=
		    LB_MEM_ATTACH_GLOBAL)
			return 0;
		return lb_pool_alloc(c, lb_ar_ptr(api, c->args, LB_AR_OUT),
				     lb_ar_size(api, c->args, LB_AR_BYTES),
				     LB_PK_MANAGED);
	case LB_POP_PITCH:
		return lb_pool_pitch(c);
	case LB_POP_FREE_ASYNC:
		return lb_pool_free(c, lb_ar_ptr(api, c->args, LB_AR_PTR),
				    c->stream);
	case LB_POP_IPC:
		p = lb_ar_ptr(api, c->args, LB_AR_PTR);
		if (!lb_pchunks_contain((uintptr_t)p))
			return 0;
		lb_ipc_refuse(c, p);
		return 1;
	case LB_POP_STREAM_GONE:
		lb_pstream_gone(*c->stream);
		return 0;
	case LB_POP_CAPTURE:
		lb_pstream_capture(*c->stream, 1);
		return 0;
	case LB_POP_JOIN:
		lb_pstream_join(*c->stream);
		return 0;
	default:
		return lb_pquery_pre(c);
	}
}

/*
 * hipMalloc served by the newest block of the thread's cache, as
 * lb_pool_alloc() and lb_ptc_get() would serve it, in fewer steps (a hot
 * loop's case): 1 when served (counted; the caller notes the hit), 0,
 * having changed nothing, to take the general way.
 */
static inline int lb_pool_malloc_hot(const void *args)
{
	struct lb_ptc *t = lb_ptc_self;
	void **out;
	size_t size, rsize;
	struct lb_ptc_ent *e;
	struct lb_pblock *b;
	struct lb_pdev *d;
	int dev = lb_pcur1 - 1, n;

	/* the hot allocation row: OUT, then BYTES (lb_pool_ops_init) */
	memcpy(&out, args, sizeof(out));
	memcpy(&size, (const char *)args + 8, sizeof(size));
	if (!out || size - 1 >= LB_TC_MAX_BLOCK ||
	    (lb_popt.bypass && size >= lb_popt.bypass) || dev < 0 ||
	    !t || t == LB_TC_DEAD || !(d = lb_pdev_peek(dev)))
		return 0;
	rsize = lb_pround(size);
	if (!lb_ptc_enter(t))
		return 0;
	n = t->n - 1;
	e = n >= 0 ? &t->e[n] : NULL;
	if (!e || e->key != lb_ptc_key(rsize, dev, LB_PK_DEVICE) ||
	    !lb_pfence_done(d, e->fence)) {
		lb_ptc_leave(t);
		return 0;
	}
	b = e->b;
	t->n = n;
	t->bytes -= rsize;
	lb_ptc_asked_add(t, dev, (int64_t)rsize);
	lb_ptc_leave(t);
	/* lb_pool_pre's count of the note, with the cache at hand */
	__atomic_store_n(&t->cnt[LB_PCNT_ALLOC_HIT],
			 t->cnt[LB_PCNT_ALLOC_HIT] + 1, __ATOMIC_RELAXED);
	b->asked = size;
	b->fence = 0;
	lb_pb_set(b, LB_B_LIVE);
	*out = (void *)b->ptr;
	return 1;
}

/*
 * The two calls of a hot loop, when the pool answers them at once with
 * hipSuccess: a hipMalloc from the thread's cache, a hipFree of a live
 * pool block, counted.  The direct path of the pool alone (struct
 * lb_policy.serve, run_solo.h: no call context; in the pool alone
 * nothing reads the note) and lb_pool_pre's first step (which notes the
 * hit).  Returns 0, having changed nothing, for everything else.
 */
int lb_pool_serve(int api, void *args)
{
	if (LB_UNLIKELY(lb_pool_off))
		return 0;
	if (api == lb_pool_hot_malloc)
		return lb_pool_malloc_hot(args);
	if (api == lb_pool_hot_free) {
		/* the hot free row: PTR first (lb_pool_ops_init) */
		void *p;
		struct lb_pblock *b;

		memcpy(&p, args, sizeof(p));
		b = lb_pmap_claim_fast((uintptr_t)p);
		if (!b)
			return 0;
		lb_pool_free_claimed(b, NULL);
		lb_ptc_count(LB_PCNT_FREE_HIT);
		return 1;
	}
	return 0;
}

int lb_pool_pre(struct lb_call *c)
{
	unsigned op;
	int r;

	if (LB_UNLIKELY(lb_pool_off))
		return 0;
	/* the two calls of a hot loop first, off the general switch: what
	 * the serve path answers (counted there), then their general way */
	if (LB_LIKELY(lb_pool_serve(c->api, c->args)))
		return lb_pool_hit(c);
	op = lb_pool_op[c->api];
	if (LB_LIKELY(op == LB_POP_ALLOC)) {
		/* device memory: with flags, the default ones only */
		if (lb_ar_u64(c->api, c->args, LB_AR_FLAGS) !=
		    LB_DEVICE_MALLOC_DEFAULT)
			return 0;
		r = lb_pool_alloc(c, lb_ar_ptr(c->api, c->args, LB_AR_OUT),
				  lb_ar_size(c->api, c->args, LB_AR_BYTES),
				  LB_PK_DEVICE);
	} else if (LB_LIKELY(op == LB_POP_FREE)) {
		r = lb_pool_free(c, lb_ar_ptr(c->api, c->args, LB_AR_PTR),
				 NULL);
	} else {
		r = lb_pool_pre_other(c, op);
	}
	/*
	 * The exit report counts exactly what the records say: the note is
	 * final here (nothing after the pre hook changes it), so it is
	 * counted here rather than in the post hook, which every call pays.
	 */
	if (c->scratch[LB_NOTE_POOL])
		lb_ptc_count((lb_api_info[c->api].kind == LB_KIND_FREE ?
				      LB_PCNT_FREE_HIT :
				      LB_PCNT_ALLOC_HIT) +
			     (c->scratch[LB_NOTE_POOL] == LB_POOL_MISS));
	return r;
}

/*
 * The runtime refused an allocation the pool did not serve (another kind,
 * flags, a stream-ordered pool, an array...) for want of memory: every
 * allocation call of ROCm says so with hipErrorOutOfMemory, hipMemCreate
 * and the virtual-memory calls also with hipErrorMemoryAllocation (clr
 * hipamd/src/hip_memory.cpp ihipMalloc, ihipImageCreate; hip_mempool.cpp
 * hipMallocAsync; hip_vm.cpp; rocm-6.2.0).  Chunks whose blocks are all
 * free may be what it lacks: give them back, on every device (host and
 * managed allocations compete for memory with them too), and have the
 * call made once more if anything was given back.
 */
int lb_pool_retry(struct lb_call *c)
{
	size_t bytes = 0;
	int i;

	if (LB_UNLIKELY(lb_pool_off) ||
	    lb_api_info[c->api].kind != LB_KIND_ALLOC ||
	    c->ret != LB_ST_OOM)
		return 0;
	for (i = 0; i < LB_PMAXDEV; i++) {
		struct lb_pdev *d = lb_pdev_peek(i);

		if (d)
			bytes += lb_pheap_trim(d);
	}
	if (!bytes)
		return 0;
	lb_padd(&lb_pstat.retries, 1);
	return 1;
}

/* Does a call of this kind put work on its stream? */
static int lb_is_work(unsigned kind)
{
	return kind == LB_KIND_LAUNCH || kind == LB_KIND_COPY ||
	       kind == LB_KIND_SET;
}

void lb_pool_post(struct lb_call *c)
{
	const struct lb_api_info *i;

	/* a call with a note was counted by the pre hook, and is no query
	 * (nothing to restore) nor work */
	if (LB_LIKELY(c->scratch[LB_NOTE_POOL]) || LB_UNLIKELY(lb_pool_off))
		return;
	i = &lb_api_info[c->api];
	lb_pquery_post(c);
	if (lb_is_work(i->kind)) {
		if (c->ret != LB_ST_OK)
			return; /* refused: nothing was queued */
		if (c->stream)
			lb_pfence_work(*c->stream, i->flags & LB_F_SPT);
		else if (i->flags & (LB_F_NULLSYNC | LB_F_SPT))
			lb_pfence_work(NULL, i->flags & LB_F_SPT);
		else if (i->flags & LB_F_INDIRECT)
			lb_pfence_unknown(); /* streams we cannot see */
		/* a copy to the host the runtime made and waited for */
		if ((i->flags & LB_F_NULLSYNC) && lb_rt->sync_dtoh_done &&
		    !c->handled && i->kind == LB_KIND_COPY &&
		    lb_ar_u64(c->api, c->args, LB_AR_KIND) ==
			    LB_MEMCPY_DEVICE_TO_HOST &&
		    lb_ar_size(c->api, c->args, LB_AR_BYTES))
			lb_pfence_synced(NULL, 0); /* (an empty copy: no wait) */
		return;
	}
	switch (i->role) {
	case LB_ROLE_STREAM_SYNC:
		/* the runtime waited for the stream (not a policy's answer) */
		if (c->ret == LB_ST_OK && !c->handled && c->stream)
			lb_pfence_synced(*c->stream, i->flags & LB_F_SPT);
		break;
	case LB_ROLE_DEVICE_SYNC:
		/* the runtime's current device: a driver call may have
		 * changed it where the pool did not see */
		if (c->ret == LB_ST_OK && !c->handled) {
			int dev;

			if (lb_rt->device_get(&dev) == LB_ST_OK)
				lb_pfence_synced_device(dev);
		}
		break;
	case LB_ROLE_DEVICE_SET:
		if (c->ret == LB_ST_OK)
			lb_pool_setdev((int)lb_ar_u64(c->api, c->args,
						      LB_AR_DEVICE));
		break;
	case LB_ROLE_STREAM_CREATE:
		if (c->ret == LB_ST_OK)
			lb_pstream_created(
				*(lb_stream *)lb_ar_ptr(c->api, c->args,
							  LB_AR_OUT),
				lb_pool_curdev());
		break;
	case LB_ROLE_CAPTURE_BEGIN:
		/* counted in the pre hook; undone if it did not begin */
		if (c->ret != LB_ST_OK)
			lb_pstream_capture(*c->stream, 0);
		break;
	case LB_ROLE_CAPTURE_END:
		lb_pstream_capture(*c->stream, 0);
		break;
	case LB_ROLE_DEVICE_RESET:
		if (c->ret == LB_ST_OK) {
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
