/*
 * stream0_touch.c - what a remapped call touches, for the check
 * (stream0_hazard.c), and what it learns after calls: which events order
 * work, which memory is allocated and freed (stream0_mem.c).
 *
 * Copies and sets touch exactly their byte ranges; 2D and 3D ones their
 * bounding range (first byte to last byte, pitch included).  A copy's side
 * that its kind says is host memory is not device memory any launch could
 * touch, and is left out.  A kernel touches, for each of its pointer
 * arguments (lb_launch_ptrs(): global_buffer arguments and the 8-byte
 * words of by-value ones, from the code object's layout), the allocation
 * that holds it when that is at most 1 MB (S0_HZ_SMALL), else the 512
 * bytes from it (S0_HZ_WINDOW), in memory allocated through the shim
 * only.  A range inside one such small allocation is that allocation's
 * record, whatever touched it; other bytes are the range table's.  So two
 * allocations never touch each other, however close the pool or the
 * runtime put them.
 *
 * Which call reads what is decided once, at init, from the calls' roles
 * (include/lbshim/roles.h) into s0_hz_touch_op[] and hz_how[]: the launch
 * path is a table load when nothing is touched, and a touch reads its
 * arguments where the row's roles put them, whatever the row.  The list
 * of what a call touches then goes to s0_hz_check() in one piece.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "kreg.h"
#include "stream0.h"
#include "stream0_hazard.h"

enum hz_op {
	HZ_NONE,
	HZ_COPY,	/* DST, SRC, BYTES; direction: KIND's, or the role's */
	HZ_SET,		/* DST, BYTES or NUM values of the role's width */
	HZ_COPY2D,	/* DST, DPITCH, SRC, SPITCH, WIDTH, HEIGHT, KIND */
	HZ_SET2D,	/* DST, PITCH, WIDTH (values), HEIGHT */
	HZ_SET3D,	/* PITCHED, EXTENT */
	HZ_KERNEL,	/* the kernel's pointer arguments */
};

/*
 * Where a row's touch finds its arguments: byte offsets in its struct
 * lb_args_<name>, from its roles.  dst is DST's (PITCHED's for 3D), n
 * BYTES', NUM's or WIDTH's, h HEIGHT's (EXTENT's for 3D), p PITCH's or
 * DPITCH's, sp SPITCH's; a value n counts is 1 << (ds >> 4) bytes; the
 * direction is KIND's value, or ds & 15 when kind is HZ_NOKIND (the role
 * says it: HtoD, DtoH, device to device, and every set).  Eight bytes: a
 * row's is one load away from its id.
 */
#define HZ_NOKIND 0xff
struct hz_how {
	uint8_t dst, src, n, h, p, sp, kind, ds;
};
static struct hz_how hz_how[LB_API_COUNT];

uint8_t s0_hz_touch_op[LB_API_COUNT];
uint8_t s0_hz_post_op[LB_API_COUNT];

enum { HZP_NONE, HZP_RECORD, HZP_WAIT, HZP_EVDONE, HZP_EVGONE, HZP_FREE,
       HZP_ALLOC, HZP_ALLOC_PITCH, HZP_ALLOC_3D };

/* A row's parameter in role r: its byte offset (1 if absent: *ok = 0). */
static uint8_t hz_off(int api, unsigned r, int *ok)
{
	unsigned e = lb_arg_tab[api][r];

	if (!e)
		*ok = 0;
	return (uint8_t)(e ? ((e & 63u) - 1u) * 4u : 0u);
}


/* The direction a copy's role implies (HZ_NOKIND: its KIND says it). */
static unsigned hz_dir(unsigned role)
{
	return lb_role_copy_dir(role, HZ_NOKIND);
}

/* What row i touches, from its roles: an op, and hz_how[i]. */
static unsigned hz_touch_of(int i)
{
	unsigned role = lb_api_info[i].role, d;
	struct hz_how *w = &hz_how[i];
	int ok = 1, set = role == LB_ROLE_SET || role == LB_ROLE_SET16 ||
			  role == LB_ROLE_SET32;

	/* the unit; a set's memory is device memory */
	w->ds = (uint8_t)(LB_MEMCPY_DEVICE_TO_DEVICE |
			  (role == LB_ROLE_SET16	? 1u << 4
			   : role == LB_ROLE_SET32 ? 2u << 4
						  : 0u));
	w->kind = HZ_NOKIND;
	/* a kernel's pointers: launches on a stream with their arguments */
	if ((role == LB_ROLE_LAUNCH || role == LB_ROLE_LAUNCH_MODULE) &&
	    lb_api_info[i].stream_idx >= 0 &&
	    (lb_ar_has(i, LB_AR_KARGS) || lb_ar_has(i, LB_AR_EXTRA)))
		return HZ_KERNEL;
	if (set && lb_ar_has(i, LB_AR_PITCHED)) {
		w->dst = hz_off(i, LB_AR_PITCHED, &ok);
		w->h = hz_off(i, LB_AR_EXTENT, &ok);
		return ok ? HZ_SET3D : HZ_NONE;
	}
	w->dst = hz_off(i, LB_AR_DST, &ok);
	if (set && lb_ar_has(i, LB_AR_PITCH)) {
		w->p = hz_off(i, LB_AR_PITCH, &ok);
		w->n = hz_off(i, LB_AR_WIDTH, &ok);
		w->h = hz_off(i, LB_AR_HEIGHT, &ok);
		return ok ? HZ_SET2D : HZ_NONE;
	}
	if (set) {
		/* a count of values read as 8 bytes, as BYTES is (size_t) */
		if (lb_ar_has(i, LB_AR_NUM) && lb_arg_tab[i][LB_AR_NUM] >> 6)
			return HZ_NONE;
		w->n = hz_off(i, lb_ar_has(i, LB_AR_NUM) ? LB_AR_NUM
							 : LB_AR_BYTES, &ok);
		return ok ? HZ_SET : HZ_NONE;
	}
	d = hz_dir(role);
	if (role != LB_ROLE_COPY && role != LB_ROLE_COPY_WAIT &&
	    d == HZ_NOKIND)
		return HZ_NONE;
	w->ds = (uint8_t)(d == HZ_NOKIND ? 0 : d);
	w->src = hz_off(i, LB_AR_SRC, &ok);
	if (d == HZ_NOKIND)
		w->kind = hz_off(i, LB_AR_KIND, &ok);
	if (lb_ar_has(i, LB_AR_WIDTH)) {
		w->p = hz_off(i, LB_AR_DPITCH, &ok);
		w->sp = hz_off(i, LB_AR_SPITCH, &ok);
		w->n = hz_off(i, LB_AR_WIDTH, &ok);
		w->h = hz_off(i, LB_AR_HEIGHT, &ok);
		return ok && w->kind != HZ_NOKIND ? HZ_COPY2D : HZ_NONE;
	}
	w->n = hz_off(i, LB_AR_BYTES, &ok);
	return ok ? HZ_COPY : HZ_NONE;
}

/* What s0_hz_post does after row i, from its roles. */
static uint8_t hz_post_of(int i)
{
	switch (lb_api_info[i].role) {
	case LB_ROLE_EVENT_RECORD:
		return HZP_RECORD;
	case LB_ROLE_STREAM_WAIT:
		return HZP_WAIT;
	case LB_ROLE_EVENT_SYNC:
	case LB_ROLE_EVENT_QUERY:
		return HZP_EVDONE;
	case LB_ROLE_EVENT_DESTROY:
		return HZP_EVGONE;
	case LB_ROLE_FREE:
	case LB_ROLE_FREE_HOST:
		/* a free the runtime or the pool answered: its block */
		return lb_ar_has(i, LB_AR_PTR) ? HZP_FREE : HZP_NONE;
	default:
		break;
	}
	/* memory allocated through the shim: what a kernel may point to */
	if (lb_api_info[i].kind != LB_KIND_ALLOC)
		return HZP_NONE;
	if (lb_ar_has(i, LB_AR_OUT) && lb_ar_has(i, LB_AR_BYTES))
		return HZP_ALLOC;
	if (lb_ar_has(i, LB_AR_OUT) && lb_ar_has(i, LB_AR_PITCH_OUT) &&
	    lb_ar_has(i, LB_AR_HEIGHT))
		return HZP_ALLOC_PITCH;
	if (lb_ar_has(i, LB_AR_PITCHED_OUT) && lb_ar_has(i, LB_AR_EXTENT))
		return HZP_ALLOC_3D;
	return HZP_NONE;
}

void s0_hz_touch_init(void)
{
	int i;

	for (i = 0; i < LB_API_COUNT; i++) {
		s0_hz_touch_op[i] = (uint8_t)hz_touch_of(i);
		s0_hz_post_op[i] = hz_post_of(i);
	}
	/* kernels' layouts: the shim's registry learns them from now on */
	lb_kreg_enable();
}

/*
 * What a call touches, as targets of the check (struct s0_hz_target): a
 * range [lo, hi) that lies in one allocation of at most S0_HZ_SMALL
 * bytes is that allocation's record; any other, its bytes.
 */
struct hz_list {
	int n;
	struct s0_hz_target t[S0_HZ_MAXT];
};

static void hz_add(struct hz_list *l, uintptr_t lo, uintptr_t hi)
{
	struct s0_hz_alloc *a;

	if (hi <= lo || !lo || l->n >= S0_HZ_MAXT)
		return;
	a = s0_hza_find(lo);
	if (a && hi <= S0_LOAD(a->end) &&
	    S0_LOAD(a->end) - S0_LOAD(a->base) <= S0_HZ_SMALL)
		l->t[l->n++] = (struct s0_hz_target){ a, 0, 0 };
	else
		l->t[l->n++] = (struct s0_hz_target){ NULL, lo, hi };
}

/* A copy's sides, unless its kind says the side is host memory. */
static void hz_copy(struct hz_list *l, uintptr_t dst, uintptr_t src,
		    size_t n, int kind)
{
	if (!n)
		return;
	if (kind != LB_MEMCPY_HOST_TO_HOST && kind != LB_MEMCPY_DEVICE_TO_HOST)
		hz_add(l, dst, dst + n);
	if (kind != LB_MEMCPY_HOST_TO_HOST && kind != LB_MEMCPY_HOST_TO_DEVICE)
		hz_add(l, src, src + n);
}

/* The bounding range of rows rows of width bytes, pitch apart. */
static void hz_rows(struct hz_list *l, uintptr_t p, size_t pitch,
		    size_t width, size_t rows)
{
	if (width && rows)
		hz_add(l, p, p + pitch * (rows - 1) + width);
}

#define HZ_MAXPTR LB_KREG_MAXPTR /* candidates of one launch */

/*
 * The calling thread's last launch: its raw candidates v[0..n) and the
 * targets t[0..m) they gave.  Which targets a launch has depends only on
 * its candidates and on the memory known (s0_hz_known_gen counts every
 * change): the same candidates under the same count give the same
 * targets, and only their finding is skipped; the check itself
 * (s0_hz_check) runs on them each time.  lb_launch_ptrs() reads the new
 * candidates over the old ones and says whether any differed, in one
 * pass.
 */
struct hz_lmemo {
	int n, m, dev, own;
	uint64_t gen, tag; /* tag: s0_hz_tag() on dev */
	uint64_t owner_gen; /* own: t[0..m) all the thread's as of it */
	uintptr_t v[HZ_MAXPTR];
	struct s0_hz_target t[HZ_MAXPTR];
};
static LB_TLS struct hz_lmemo hz_lmemo = { .n = -2, .dev = -2 };

/*
 * A kernel's pointer p: the whole allocation of at most S0_HZ_SMALL
 * bytes that holds it; else, in memory allocated through the shim, the
 * S0_HZ_WINDOW bytes from p (within its allocation when known).
 */
static int hz_ptr(struct s0_hz_target *t, int m, uintptr_t p)
{
	struct s0_hz_alloc *a;
	uint64_t end = 0;
	int i;

	/* most words are no pointer into memory allocated through the shim
	 * (sizes, strides, flags): one probe says so, before the records'
	 * (every allocation is known before it has a record; a map that
	 * filled leaves newer ones unchecked, as stream0_mem.c says) */
	if (!s0_hz_is_known(p))
		return m;
	a = s0_hza_at(p);
	if (!a)
		a = s0_hza_find(p);
	if (a) {
		end = S0_LOAD(a->end);
		if (end - S0_LOAD(a->base) <= S0_HZ_SMALL) {
			for (i = 0; i < m; i++)
				if (t[i].a == a)
					return m;
			t[m] = (struct s0_hz_target){ a, 0, 0 };
			return m + 1;
		}
	}
	t[m].a = NULL;
	t[m].lo = p;
	t[m].hi = end && end - p < S0_HZ_WINDOW ? end : p + S0_HZ_WINDOW;
	return m + 1;
}

/*
 * The targets of launch c: its kernel's pointer arguments (each launch
 * row takes the kernel first: a host function or a hipFunction_t).
 */
static int hz_kernel(struct lb_call *c, uint64_t sub, int can_wait)
{
	struct hz_lmemo *mo = &hz_lmemo;
	uintptr_t d;
	uint64_t gen = __atomic_load_n(&s0_hz_known_gen, __ATOMIC_ACQUIRE), og;
	int n, i, m = 0;

	n = lb_launch_ptrs(c, mo->v, HZ_MAXPTR, &d);
	if (n != mo->n || gen != mo->gen || d || mo->dev != s0_me.dev) {
		for (i = 0; i < n; i++)
			if (mo->v[i] && (i == 0 || mo->v[i] != mo->v[i - 1]))
				m = hz_ptr(mo->t, m, mo->v[i]);
		mo->m = m;
		mo->gen = gen;
		mo->n = n;
		mo->dev = s0_me.dev;
		mo->tag = s0_hz_tag();
		mo->own = 0;
	}
	/*
	 * The common case, a relaunch on the thread's own allocations: each
	 * record still the thread's, whose touch only stores its number
	 * (what s0_hz_check would do for it).  Known so, with no look at
	 * the records, while no owner was written anywhere since they were
	 * all found the thread's (s0_hz_owner_gen).
	 */
	og = __atomic_load_n(&s0_hz_owner_gen.n, __ATOMIC_ACQUIRE);
	if (LB_LIKELY(mo->own && og == mo->owner_gen)) {
		for (i = 0; i < mo->m; i++)
			S0_STORE(mo->t[i].a->sub, sub);
		return 0;
	}
	mo->own = 0;
	for (i = 0; i < mo->m; i++) {
		struct s0_hz_alloc *a = mo->t[i].a;

		if (!a || S0_LOAD(a->tag) != mo->tag)
			return s0_hz_check(c, mo->t, mo->m, sub, can_wait);
		S0_STORE(a->sub, sub);
	}
	mo->own = 1;
	mo->owner_gen = og;
	return 0;
}

/* The 8-byte (pointer, size_t) parameter at byte offset off of args. */
static inline uint64_t hz_w(const void *args, unsigned off)
{
	uint64_t v;

	memcpy(&v, (const char *)args + off, sizeof(v));
	return v;
}

/* A copy's direction: its KIND argument, or the one its role implies. */
static inline int hz_kind(const struct hz_how *w, const void *a)
{
	int k;

	if (w->kind == HZ_NOKIND)
		return w->ds & 15;
	memcpy(&k, (const char *)a + w->kind, sizeof(k));
	return k;
}

int s0_hz_touch(struct lb_call *c, uint64_t sub, int can_wait)
{
	const void *a = c->args;
	unsigned op = s0_hz_touch_op[c->api];
	const struct hz_how *w = &hz_how[c->api];
	struct hz_list l;
	int kind;

	l.n = 0;
	switch (op) {
	case HZ_NONE:
		return 0;
	case HZ_KERNEL:
		return hz_kernel(c, sub, can_wait);
	case HZ_SET:
		hz_add(&l, hz_w(a, w->dst),
		       hz_w(a, w->dst) + (hz_w(a, w->n) << (w->ds >> 4)));
		break;
	case HZ_COPY:
		hz_copy(&l, hz_w(a, w->dst), hz_w(a, w->src), hz_w(a, w->n),
			hz_kind(w, a));
		break;
	case HZ_COPY2D:
		kind = hz_kind(w, a);
		if (kind != LB_MEMCPY_HOST_TO_HOST &&
		    kind != LB_MEMCPY_DEVICE_TO_HOST)
			hz_rows(&l, hz_w(a, w->dst), hz_w(a, w->p),
				hz_w(a, w->n), hz_w(a, w->h));
		if (kind != LB_MEMCPY_HOST_TO_HOST &&
		    kind != LB_MEMCPY_HOST_TO_DEVICE)
			hz_rows(&l, hz_w(a, w->src), hz_w(a, w->sp),
				hz_w(a, w->n), hz_w(a, w->h));
		break;
	case HZ_SET2D:
		hz_rows(&l, hz_w(a, w->dst), hz_w(a, w->p),
			hz_w(a, w->n) << (w->ds >> 4), hz_w(a, w->h));
		break;
	case HZ_SET3D: {
		struct lb_pitched p;
		struct lb_extent e;

		memcpy(&p, (const char *)a + w->dst, sizeof(p));
		memcpy(&e, (const char *)a + w->h, sizeof(e));
		if (e.width && e.height && e.depth)
			hz_rows(&l, (uintptr_t)p.ptr, p.pitch, e.width,
				p.ysize * (e.depth - 1) + e.height);
		break;
	}
	default:
		return 0;
	}
	return s0_hz_check(c, l.t, l.n, sub, can_wait);
}

/* ---- after calls: events, allocations and frees ---- */

/* After a call, by its role (hz_post_of). */
void s0_hz_post(struct lb_call *c, int remapped)
{
	int api = c->api, ok = c->ret == LB_ST_OK;
	const void *a = c->args;
	void **out = lb_ar_ptr(api, a, LB_AR_OUT);
	struct lb_pitched *pp;
	size_t *pitch;
	int d;

	switch (s0_hz_post_op[api]) {
	case HZP_RECORD:
		d = s0_me.dev;
		if (ok)
			s0_hz_recorded(lb_ar_ptr(api, a, LB_AR_EVENT), remapped,
				       d >= 0 && d < S0_MAXDEV ? s0_me.sub[d]
							      : 0);
		return;
	case HZP_WAIT:
		if (ok && remapped)
			s0_hz_waited(lb_ar_ptr(api, a, LB_AR_EVENT));
		return;
	case HZP_EVDONE:
		if (ok)
			s0_hz_event_done(lb_ar_ptr(api, a, LB_AR_EVENT));
		return;
	case HZP_EVGONE:
		if (ok)
			s0_hz_event_gone(lb_ar_ptr(api, a, LB_AR_EVENT));
		return;
	case HZP_FREE:
		if (ok)
			s0_hz_freed((uintptr_t)lb_ar_ptr(api, a, LB_AR_PTR));
		return;
	case HZP_ALLOC:
		if (ok && out)
			s0_hz_allocated((uintptr_t)*out,
					lb_ar_size(api, a, LB_AR_BYTES));
		return;
	case HZP_ALLOC_PITCH:
		pitch = lb_ar_ptr(api, a, LB_AR_PITCH_OUT);
		if (ok && out && pitch)
			s0_hz_allocated((uintptr_t)*out,
					*pitch * lb_ar_size(api, a,
							    LB_AR_HEIGHT));
		return;
	case HZP_ALLOC_3D: {
		const struct lb_extent *e = lb_ar_at(api, a, LB_AR_EXTENT);

		pp = lb_ar_ptr(api, a, LB_AR_PITCHED_OUT);
		if (ok && pp)
			s0_hz_allocated((uintptr_t)pp->ptr,
					pp->pitch * e->height * e->depth);
		return;
	}
	default:
		return;
	}
}
