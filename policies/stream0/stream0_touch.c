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
 * Which call reads what is decided once, at init, from the calls' roles
 * (include/lbshim/roles.h) into s0_hz_touch_op[] and hz_how[]: the launch
 * path is a table load when nothing is touched, and a touch reads its
 * arguments where the row's roles put them, whatever the row.
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

enum { HZP_NONE, HZP_RECORD, HZP_WAIT, HZP_EVDONE, HZP_EVGONE, HZP_REGFN,
       HZP_MODFN, HZP_ALLOC, HZP_ALLOC_PITCH, HZP_ALLOC_3D };

/* A row's parameter in role r: its byte offset (1 if absent: *ok = 0). */
static uint8_t hz_off(int api, unsigned r, int *ok)
{
	unsigned e = lb_arg_tab[api][r];

	if (!e)
		*ok = 0;
	return (uint8_t)(e ? ((e & 63u) - 1u) * 4u : 0u);
}

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
	case LB_ROLE_REG_FUNCTION:
		return HZP_REGFN;
	case LB_ROLE_MODULE_FUNCTION:
		return HZP_MODFN;
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
	if (kind != LB_MEMCPY_HOST_TO_HOST && kind != LB_MEMCPY_DEVICE_TO_HOST)
		hz |= s0_hz_range(dst, dst + n, sub);
	if (kind != LB_MEMCPY_HOST_TO_HOST && kind != LB_MEMCPY_HOST_TO_DEVICE)
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

void s0_hz_touch(struct lb_call *c, uint64_t sub)
{
	const void *a = c->args;
	unsigned op = s0_hz_touch_op[c->api];
	const struct hz_how *w = &hz_how[c->api];
	int hz, kind;
	size_t n;

	switch (op) {
	case HZ_NONE:
		return;
	case HZ_SET:
		n = hz_w(a, w->n) << (w->ds >> 4);
		hz = n && s0_hz_range(hz_w(a, w->dst), hz_w(a, w->dst) + n,
				      sub);
		break;
	case HZ_COPY:
		hz = hz_copy(hz_w(a, w->dst), hz_w(a, w->src), hz_w(a, w->n),
			     hz_kind(w, a), sub);
		break;
	case HZ_COPY2D:
		kind = hz_kind(w, a);
		hz = 0;
		if (kind != LB_MEMCPY_HOST_TO_HOST &&
		    kind != LB_MEMCPY_DEVICE_TO_HOST)
			hz |= hz_rows(hz_w(a, w->dst), hz_w(a, w->p),
				      hz_w(a, w->n), hz_w(a, w->h), sub);
		if (kind != LB_MEMCPY_HOST_TO_HOST &&
		    kind != LB_MEMCPY_HOST_TO_DEVICE)
			hz |= hz_rows(hz_w(a, w->src), hz_w(a, w->sp),
				      hz_w(a, w->n), hz_w(a, w->h), sub);
		break;
	case HZ_SET2D:
		hz = hz_rows(hz_w(a, w->dst), hz_w(a, w->p),
			     hz_w(a, w->n) << (w->ds >> 4), hz_w(a, w->h), sub);
		break;
	case HZ_SET3D: {
		struct lb_pitched p;
		struct lb_extent e;

		memcpy(&p, (const char *)a + w->dst, sizeof(p));
		memcpy(&e, (const char *)a + w->h, sizeof(e));
		hz = 0;
		if (e.width && e.height && e.depth)
			hz = hz_rows(hz_u(p.ptr), p.pitch, e.width,
				     p.ysize * (e.depth - 1) + e.height, sub);
		break;
	}
	case HZ_KERNEL:
		if (hz_kernel(c, sub))
			s0_hz_count(c, lb_ar_ptr(c->api, a, LB_AR_KERNEL));
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

/* After a call, by its role (hz_post_of): events, names, allocations. */
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
	case HZP_REGFN:
		/* the program's static string: kept by reference */
		hz_name_add(lb_ar_ptr(api, a, LB_AR_KERNEL),
			    lb_ar_ptr(api, a, LB_AR_NAME), 0);
		return;
	case HZP_MODFN:
		if (ok && out)
			hz_name_add(*out, lb_ar_ptr(api, a, LB_AR_NAME), 1);
		return;
	case HZP_ALLOC:
		if (ok && out)
			hz_known_add((uintptr_t)*out,
				     lb_ar_size(api, a, LB_AR_BYTES));
		return;
	case HZP_ALLOC_PITCH:
		pitch = lb_ar_ptr(api, a, LB_AR_PITCH_OUT);
		if (ok && out && pitch)
			hz_known_add((uintptr_t)*out,
				     *pitch * lb_ar_size(api, a, LB_AR_HEIGHT));
		return;
	case HZP_ALLOC_3D: {
		const struct lb_extent *e = lb_ar_at(api, a, LB_AR_EXTENT);

		pp = lb_ar_ptr(api, a, LB_AR_PITCHED_OUT);
		if (ok && pp)
			hz_known_add((uintptr_t)pp->ptr,
				     pp->pitch * e->height * e->depth);
		return;
	}
	default:
		return;
	}
}
