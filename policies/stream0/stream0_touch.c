/*
 * stream0_touch.c - what a remapped call touches, for the hazard check
 * (stream0_hazard.c), and the facts it learns after calls: which events
 * order work, which kernels have which names.
 *
 * Copies and sets touch exactly their byte ranges; 2D and 3D ones their
 * bounding range (first byte to last byte, pitch included).  A copy's side
 * that its kind says is host memory is not device memory any launch could
 * touch, and is left out.  A kernel touches the 4 KB granule of each of
 * its pointer arguments (lb_launch_ptrs(): global_buffer arguments and the
 * 8-byte words of by-value ones, from the code object's layout) that lies
 * in memory allocated through the shim (hz_known, at 1 MB granularity).
 * Which call reads what is decided once, at init, into s0_hz_touch_op[]:
 * the launch path is a table load when nothing is touched.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "kreg.h"
#include "stream0.h"
#include "stream0_hazard.h"

enum hz_op {
	HZ_NONE,
	HZ_MEMCPY,	/* (dst, src, size, kind) */
	HZ_HTOD,	/* (dst, src, size): src is host */
	HZ_DTOH,	/* (dst, src, size): dst is host */
	HZ_DTOD,	/* (dst, src, size) */
	HZ_PEER,	/* (dst, dstdev, src, srcdev, size) */
	HZ_MEMCPY2D,	/* (dst, dpitch, src, spitch, width, height, kind) */
	HZ_SET1,	/* (dst, value, bytes) */
	HZ_SET2,	/* (dst, value, count of 16-bit) */
	HZ_SET4,	/* (dst, value, count of 32-bit) */
	HZ_SET2D,	/* (dst, pitch, value, width, height) */
	HZ_SET3D,	/* (pitched, value, extent) */
	HZ_KERNEL,	/* the kernel's pointer arguments */
};


uint8_t s0_hz_touch_op[LB_API_COUNT];
uint8_t s0_hz_post_op[LB_API_COUNT];

enum { HZP_NONE, HZP_RECORD, HZP_WAIT, HZP_EVDONE, HZP_EVGONE, HZP_REGFN,
       HZP_MODFN, HZP_ALLOC, HZP_ALLOC_PITCH, HZP_ALLOC_3D };

/*
 * Memory allocated through the shim, as a set of 1 MB granules that ever
 * held an allocation: lock-free to read (one probe, usually), inserted
 * with a compare-and-swap, never removed (memory is reused by the next
 * allocation anyway).  A word in such a granule counts as a pointer.
 */
#define HZ_KNOWN_BITS 14
#define HZ_KNOWN_SHIFT 20
#define HZ_KNOWN_MAXG 4096 /* granules of one allocation marked (4 GB) */
#define HZ_KNOWN_PROBES 8
static uint64_t hz_known[1u << HZ_KNOWN_BITS]; /* granule + 1; 0 empty */
static int hz_known_full;
/* Bumped at each granule newly inserted: the launch memo's validity. */
static uint64_t hz_known_gen;

static inline unsigned hz_known_slot(uint64_t g)
{
	return (unsigned)((g * 0x9E3779B97F4A7C15ull) >> (64 - HZ_KNOWN_BITS));
}

static void hz_known_add(uintptr_t p, size_t size)
{
	uint64_t g, g0 = p >> HZ_KNOWN_SHIFT, g1;
	unsigned i, j;

	if (!p || !size)
		return;
	g1 = (p + size - 1) >> HZ_KNOWN_SHIFT;
	if (g1 - g0 >= HZ_KNOWN_MAXG)
		g1 = g0 + HZ_KNOWN_MAXG - 1;
	for (g = g0; g <= g1; g++) {
		for (j = 0; j < HZ_KNOWN_PROBES; j++) {
			uint64_t want = 0;

			i = (hz_known_slot(g) + j) & ((1u << HZ_KNOWN_BITS) - 1);
			if (__atomic_compare_exchange_n(&hz_known[i], &want,
							g + 1, 0,
							__ATOMIC_RELAXED,
							__ATOMIC_RELAXED)) {
				/* release: a memo that sees it sees the slot */
				__atomic_add_fetch(&hz_known_gen, 1,
						   __ATOMIC_RELEASE);
				break;
			}
			if (want == g + 1)
				break;
		}
		if (j == HZ_KNOWN_PROBES &&
		    !__atomic_exchange_n(&hz_known_full, 1, __ATOMIC_RELAXED))
			lb_log(LB_LOG_INFO,
			       "stream0: the hazard check's map of allocations "
			       "is full; kernels' pointers into newer ones are "
			       "not checked");
	}
}

/* The last granule found known, per thread: tensors share segments. */
static LB_TLS uint64_t hz_known_last;

static inline int hz_is_known(uintptr_t p)
{
	uint64_t g = (p >> HZ_KNOWN_SHIFT) + 1, k;
	unsigned i, j;

	if (g == hz_known_last)
		return 1;
	i = hz_known_slot(g - 1);
	for (j = 0; j < HZ_KNOWN_PROBES; j++) {
		k = S0_LOAD(hz_known[(i + j) & ((1u << HZ_KNOWN_BITS) - 1)]);
		if (k == g) {
			hz_known_last = g;
			return 1;
		}
		if (!k)
			return 0;
	}
	return 0;
}

/*
 * Rows read through another row's argument struct: theirs start alike
 * (the _spt and flags forms add a stream or flags after).
 */
#define HZ_SAME(a, b, m) \
	(offsetof(struct lb_args_##a, m) == offsetof(struct lb_args_##b, m))
_Static_assert(HZ_SAME(hipMemcpy2DAsync_spt, hipMemcpy2D, kind) &&
		       HZ_SAME(hipMemcpy2DAsync_spt, hipMemcpy2D, height),
	       "hipMemcpy2DAsync_spt is read as hipMemcpy2D");
_Static_assert(HZ_SAME(hipEventRecordWithFlags, hipEventRecord, event) &&
		       HZ_SAME(hipEventRecordWithFlags, hipEventRecord, stream),
	       "hipEventRecordWithFlags is read as hipEventRecord");

void s0_hz_touch_init(void)
{
	static const struct {
		int id;
		uint8_t op;
	} ops[] = {
		{ LB_ID_hipMemcpy, HZ_MEMCPY },
		{ LB_ID_hipMemcpy_spt, HZ_MEMCPY },
		{ LB_ID_hipMemcpyAsync, HZ_MEMCPY },
		{ LB_ID_hipMemcpyAsync_spt, HZ_MEMCPY },
		{ LB_ID_hipMemcpyWithStream, HZ_MEMCPY },
		{ LB_ID_hipMemcpyHtoD, HZ_HTOD },
		{ LB_ID_hipMemcpyHtoDAsync, HZ_HTOD },
		{ LB_ID_hipMemcpyDtoH, HZ_DTOH },
		{ LB_ID_hipMemcpyDtoHAsync, HZ_DTOH },
		{ LB_ID_hipMemcpyDtoD, HZ_DTOD },
		{ LB_ID_hipMemcpyDtoDAsync, HZ_DTOD },
		{ LB_ID_hipMemcpyPeer, HZ_PEER },
		{ LB_ID_hipMemcpyPeerAsync, HZ_PEER },
		{ LB_ID_hipMemcpy2D, HZ_MEMCPY2D },
		{ LB_ID_hipMemcpy2D_spt, HZ_MEMCPY2D },
		{ LB_ID_hipMemcpy2DAsync, HZ_MEMCPY2D },
		{ LB_ID_hipMemcpy2DAsync_spt, HZ_MEMCPY2D },
		{ LB_ID_hipMemset, HZ_SET1 },
		{ LB_ID_hipMemset_spt, HZ_SET1 },
		{ LB_ID_hipMemsetAsync, HZ_SET1 },
		{ LB_ID_hipMemsetAsync_spt, HZ_SET1 },
		{ LB_ID_hipMemsetD8, HZ_SET1 },
		{ LB_ID_hipMemsetD8Async, HZ_SET1 },
		{ LB_ID_hipMemsetD16, HZ_SET2 },
		{ LB_ID_hipMemsetD16Async, HZ_SET2 },
		{ LB_ID_hipMemsetD32, HZ_SET4 },
		{ LB_ID_hipMemsetD32Async, HZ_SET4 },
		{ LB_ID_hipMemset2D, HZ_SET2D },
		{ LB_ID_hipMemset2D_spt, HZ_SET2D },
		{ LB_ID_hipMemset2DAsync, HZ_SET2D },
		{ LB_ID_hipMemset2DAsync_spt, HZ_SET2D },
		{ LB_ID_hipMemset3D, HZ_SET3D },
		{ LB_ID_hipMemset3D_spt, HZ_SET3D },
		{ LB_ID_hipMemset3DAsync, HZ_SET3D },
		{ LB_ID_hipMemset3DAsync_spt, HZ_SET3D },
	}, post[] = {
		{ LB_ID_hipEventRecord, HZP_RECORD },
		{ LB_ID_hipEventRecord_spt, HZP_RECORD },
		{ LB_ID_hipEventRecordWithFlags, HZP_RECORD },
		{ LB_ID_hipStreamWaitEvent, HZP_WAIT },
		{ LB_ID_hipStreamWaitEvent_spt, HZP_WAIT },
		{ LB_ID_hipEventSynchronize, HZP_EVDONE },
		{ LB_ID_hipEventQuery, HZP_EVDONE },
		{ LB_ID_hipEventDestroy, HZP_EVGONE },
		{ LB_ID___hipRegisterFunction, HZP_REGFN },
		{ LB_ID_hipModuleGetFunction, HZP_MODFN },
		{ LB_ID_hipMalloc, HZP_ALLOC },
		{ LB_ID_hipMallocManaged, HZP_ALLOC },
		{ LB_ID_hipExtMallocWithFlags, HZP_ALLOC },
		{ LB_ID_hipMallocAsync, HZP_ALLOC },
		{ LB_ID_hipMallocFromPoolAsync, HZP_ALLOC },
		{ LB_ID_hipHostMalloc, HZP_ALLOC },
		{ LB_ID_hipHostAlloc, HZP_ALLOC },
		{ LB_ID_hipMallocHost, HZP_ALLOC },
		{ LB_ID_hipMemAllocHost, HZP_ALLOC },
		{ LB_ID_hipMallocPitch, HZP_ALLOC_PITCH },
		{ LB_ID_hipMemAllocPitch, HZP_ALLOC_PITCH },
		{ LB_ID_hipMalloc3D, HZP_ALLOC_3D },
	}, kernels[] = {
		{ LB_ID_hipLaunchKernel, HZ_KERNEL },
		{ LB_ID_hipLaunchKernel_spt, HZ_KERNEL },
		{ LB_ID_hipLaunchCooperativeKernel, HZ_KERNEL },
		{ LB_ID_hipLaunchCooperativeKernel_spt, HZ_KERNEL },
		{ LB_ID_hipExtLaunchKernel, HZ_KERNEL },
		{ LB_ID_hipModuleLaunchKernel, HZ_KERNEL },
		{ LB_ID_hipExtModuleLaunchKernel, HZ_KERNEL },
		{ LB_ID_lb_cxx_hipExtModuleLaunchKernel, HZ_KERNEL },
		{ LB_ID_hipHccModuleLaunchKernel, HZ_KERNEL },
		{ LB_ID_lb_cxx_hipHccModuleLaunchKernel, HZ_KERNEL },
		{ LB_ID_hipModuleLaunchCooperativeKernel, HZ_KERNEL },
	};
	unsigned i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		s0_hz_touch_op[ops[i].id] = ops[i].op;
	for (i = 0; i < sizeof(post) / sizeof(post[0]); i++)
		s0_hz_post_op[post[i].id] = post[i].op;
	/* kernels' layouts: the shim's registry learns them from now on */
	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
		s0_hz_touch_op[kernels[i].id] = kernels[i].op;
	lb_kreg_enable();
}

static uintptr_t hz_u(const void *p)
{
	return (uintptr_t)p;
}

/* A copy's sides, unless its kind says the side is host memory. */
static int hz_copy(uintptr_t dst, uintptr_t src, size_t n, int kind,
		   uint64_t sub)
{
	int hz = 0;

	if (!n)
		return 0;
	if (kind != hipMemcpyHostToHost && kind != hipMemcpyDeviceToHost)
		hz |= s0_hz_range(dst, dst + n, sub);
	if (kind != hipMemcpyHostToHost && kind != hipMemcpyHostToDevice)
		hz |= s0_hz_range(src, src + n, sub);
	return hz;
}

/* The bounding range of rows rows of width bytes, pitch apart. */
static int hz_rows(uintptr_t p, size_t pitch, size_t width, size_t rows,
		   uint64_t sub)
{
	if (!width || !rows)
		return 0;
	return s0_hz_range(p, p + pitch * (rows - 1) + width, sub);
}

#define HZ_MAXPTR LB_KREG_MAXPTR /* candidates of one launch */

/*
 * The calling thread's last launch: its raw candidates v[0..n) and the
 * known granules g[0..m) they gave.  Which granules a launch touches
 * depends only on its candidates and on hz_known, which only grows
 * (hz_known_gen counts its insertions): the same candidates under the same
 * generation give the same granules, and only the filtering is skipped.
 * lb_launch_ptrs() reads the new candidates over the old ones and says
 * whether any differed, in one pass.  The granules are still checked
 * against the table, so another thread's touch, a sync, an event or a
 * free in between counts exactly as without the memo: slot by slot
 * (s0_hz_granules), or, while the seal holds (no slot's owner written
 * anywhere since that check found them all the thread's own, the same
 * device), by hz_sealed(), which does what that loop would: store the
 * submission numbers, find no hazard.
 */
struct hz_lmemo {
	int n, m;
	uint64_t gen;
	uintptr_t v[HZ_MAXPTR];
	uintptr_t g[HZ_MAXPTR];
	void *s[HZ_MAXPTR]; /* s0_hz_slot(g[i]) */
	struct s0_hz_seal seal; /* of g[0..m) */
};
static LB_TLS struct hz_lmemo hz_lmemo = { .n = -2 };

/*
 * s0_hz_granules() of the memo's granules when its seal holds (no slot's
 * owner, key or tag, written anywhere since; the same device): every slot
 * is still this thread's, so that check would store the submission
 * numbers and find no hazard; this does the same.  1 if done; 0:
 * s0_hz_granules() is due.  (The serial in a slot's tag changes only at a
 * fork, when the count moves too.)
 */
static inline int hz_sealed(const struct hz_lmemo *mo, uint64_t sub)
{
	int i;

	if (!mo->seal.ok || mo->seal.dev != s0_me.dev ||
	    mo->seal.gen !=
		    __atomic_load_n(&s0_hz_tab_gen.n, __ATOMIC_ACQUIRE))
		return 0;
	for (i = 0; i < mo->m; i++)
		S0_STORE(((struct s0_hz_slot *)mo->s[i])->sub, sub);
	return 1;
}

/*
 * Each launch row takes the kernel first (a host function or a
 * hipFunction_t): the kernel's key for its name.
 */
static int hz_kernel(struct lb_call *c, uint64_t sub)
{
	struct hz_lmemo *mo = &hz_lmemo;
	uintptr_t g, last = 0, d;
	uint64_t gen = __atomic_load_n(&hz_known_gen, __ATOMIC_ACQUIRE);
	int n, i, m = 0;

	n = lb_launch_ptrs(c, mo->v, HZ_MAXPTR, &d);
	if (n == mo->n && gen == mo->gen && !d)
		return !mo->m || hz_sealed(mo, sub)
			       ? 0
			       : s0_hz_granules(mo->g, mo->s, mo->m, sub,
						&mo->seal);
	/* the known granules, each once when arguments repeat in a row */
	for (i = 0; i < n; i++) {
		g = mo->v[i] >> S0_HZ_GRAN_SHIFT;
		if (g == last || !hz_is_known(mo->v[i]))
			continue;
		mo->s[m] = s0_hz_slot(g);
		mo->g[m++] = last = g;
	}
	mo->m = m;
	mo->gen = gen;
	mo->n = n;
	mo->seal.ok = 0;
	return m ? s0_hz_granules(mo->g, mo->s, m, sub, &mo->seal) : 0;
}

void s0_hz_touch(struct lb_call *c, uint64_t sub)
{
	const void *a = c->args;
	unsigned op = s0_hz_touch_op[c->api];
	int hz;

	switch (op) {
	case HZ_NONE:
		return;
	case HZ_MEMCPY: {
		const struct lb_args_hipMemcpy *m = a;

		hz = hz_copy(hz_u(m->dst), hz_u(m->src), m->sizeBytes, m->kind,
			     sub);
		break;
	}
	case HZ_HTOD:
	case HZ_DTOH:
	case HZ_DTOD: {
		const struct lb_args_hipMemcpyDtoD *m = a;
		int kind = op == HZ_HTOD   ? hipMemcpyHostToDevice
			   : op == HZ_DTOH ? hipMemcpyDeviceToHost
					   : hipMemcpyDeviceToDevice;

		hz = hz_copy(hz_u(m->dst), hz_u(m->src), m->sizeBytes, kind,
			     sub);
		break;
	}
	case HZ_PEER: {
		const struct lb_args_hipMemcpyPeer *m = a;

		hz = hz_copy(hz_u(m->dst), hz_u(m->src), m->sizeBytes,
			     hipMemcpyDeviceToDevice, sub);
		break;
	}
	case HZ_MEMCPY2D: {
		const struct lb_args_hipMemcpy2D *m = a;

		hz = 0;
		if (m->kind != hipMemcpyHostToHost &&
		    m->kind != hipMemcpyDeviceToHost)
			hz |= hz_rows(hz_u(m->dst), m->dpitch, m->width,
				      m->height, sub);
		if (m->kind != hipMemcpyHostToHost &&
		    m->kind != hipMemcpyHostToDevice)
			hz |= hz_rows(hz_u(m->src), m->spitch, m->width,
				      m->height, sub);
		break;
	}
	case HZ_SET1:
	case HZ_SET2:
	case HZ_SET4: {
		const struct lb_args_hipMemsetD32 *m = a;
		size_t n = m->count << (op == HZ_SET4	? 2
					: op == HZ_SET2 ? 1
							: 0);

		hz = n && s0_hz_range(hz_u(m->dest), hz_u(m->dest) + n, sub);
		break;
	}
	case HZ_SET2D: {
		const struct lb_args_hipMemset2D *m = a;

		hz = hz_rows(hz_u(m->dst), m->pitch, m->width, m->height, sub);
		break;
	}
	case HZ_SET3D: {
		const struct lb_args_hipMemset3D *m = a;
		const hipPitchedPtr *p = &m->pitchedDevPtr;
		const hipExtent *e = &m->extent;

		hz = 0;
		if (e->width && e->height && e->depth)
			hz = hz_rows(hz_u(p->ptr), p->pitch, e->width,
				     p->ysize * (e->depth - 1) + e->height, sub);
		break;
	}
	case HZ_KERNEL:
		if (hz_kernel(c, sub))
			s0_hz_count(c, *(const void *const *)c->args);
		return;
	default:
		return;
	}
	if (hz)
		s0_hz_count(c, NULL);
}

/* ---- after calls: events and kernel names ---- */

#define HZ_NAMES 4096
static struct {
	const void *fn;
	const char *name;
} hz_names[HZ_NAMES]; /* under hz_name_lock; never shrinks */
static pthread_mutex_t hz_name_lock = PTHREAD_MUTEX_INITIALIZER;

static void hz_name_add(const void *fn, const char *name, int copy)
{
	unsigned i, h = (unsigned)(((uintptr_t)fn >> 4) % HZ_NAMES), j;

	if (!fn || !name)
		return;
	pthread_mutex_lock(&hz_name_lock);
	for (j = 0; j < HZ_NAMES; j++) {
		i = (h + j) % HZ_NAMES;
		if (hz_names[i].fn == fn)
			break; /* the first name stays */
		if (!hz_names[i].fn) {
			hz_names[i].name = copy ? strdup(name) : name;
			if (hz_names[i].name)
				hz_names[i].fn = fn;
			break;
		}
	}
	pthread_mutex_unlock(&hz_name_lock);
}

const char *s0_hz_kernel_name(const void *fn)
{
	const char *name = NULL;
	unsigned i, h = (unsigned)(((uintptr_t)fn >> 4) % HZ_NAMES), j;

	if (!fn)
		return NULL;
	pthread_mutex_lock(&hz_name_lock);
	for (j = 0; j < HZ_NAMES; j++) {
		i = (h + j) % HZ_NAMES;
		if (!hz_names[i].fn)
			break;
		if (hz_names[i].fn == fn) {
			name = hz_names[i].name;
			break;
		}
	}
	pthread_mutex_unlock(&hz_name_lock);
	return name;
}

void s0_hz_post(struct lb_call *c, int remapped)
{
	switch (s0_hz_post_op[c->api]) {
	case HZP_RECORD:
		if (c->ret == hipSuccess) {
			const struct lb_args_hipEventRecord *a = c->args;
			int d = s0_me.dev;

			s0_hz_recorded(a->event, remapped,
				       d >= 0 && d < S0_MAXDEV
					       ? s0_me.sub[d] : 0);
		}
		return;
	case HZP_WAIT:
		if (c->ret == hipSuccess && remapped)
			s0_hz_waited(((struct lb_args_hipStreamWaitEvent *)
					      c->args)->event);
		return;
	case HZP_EVDONE:
		/* both rows take the event first */
		if (c->ret == hipSuccess)
			s0_hz_event_done(
				((struct lb_args_hipEventQuery *)c->args)
					->event);
		return;
	case HZP_EVGONE:
		if (c->ret == hipSuccess)
			s0_hz_event_gone(
				((struct lb_args_hipEventDestroy *)c->args)
					->event);
		return;
	case HZP_REGFN: {
		const struct lb_args___hipRegisterFunction *a = c->args;

		/* the program's static string: kept by reference */
		hz_name_add(a->hostFunction, a->deviceName, 0);
		return;
	}
	case HZP_ALLOC: {
		/* every row: (void **ptr, size_t size, ...) */
		const struct lb_args_hipMalloc *a = c->args;

		if (c->ret == hipSuccess && a->ptr)
			hz_known_add((uintptr_t)*a->ptr, a->size);
		return;
	}
	case HZP_ALLOC_PITCH: {
		const struct lb_args_hipMallocPitch *a = c->args;

		if (c->ret == hipSuccess && a->ptr && a->pitch)
			hz_known_add((uintptr_t)*a->ptr, *a->pitch * a->height);
		return;
	}
	case HZP_ALLOC_3D: {
		const struct lb_args_hipMalloc3D *a = c->args;

		if (c->ret == hipSuccess && a->pitchedDevPtr)
			hz_known_add((uintptr_t)a->pitchedDevPtr->ptr,
				     a->pitchedDevPtr->pitch * a->extent.height *
					     a->extent.depth);
		return;
	}
	case HZP_MODFN: {
		const struct lb_args_hipModuleGetFunction *a = c->args;

		if (c->ret == hipSuccess && a->function)
			hz_name_add(*a->function, a->kname, 1);
		return;
	}
	default:
		return;
	}
}
