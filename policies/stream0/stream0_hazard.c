/*
 * stream0_hazard.c - remap mode: the launch-level check.  A launch, copy
 * or set that a remapped thread puts on its S and that touches memory
 * another thread's still-pending S work touched last depends on that
 * work: on the legacy null stream the two would have run in order, on two
 * per-thread streams they may overlap.  The check orders it: this call's
 * S waits for the other thread's S (stream0_wait.c) before the call, and
 * the dependency is counted as an ordering kept.  Only one that cannot be
 * ordered (the other stream is capturing, the runtime refused the event)
 * is a hazard.
 *
 * The bookkeeping never queries the runtime:
 *
 *   - every thread that touches memory gets a peer slot in hz_peers[]: a
 *     serial (never reused while it lives) and, per device, the number of
 *     its S submissions known to be complete (done), learned from its
 *     own syncs of S, hipDeviceSynchronize and hipFree by anyone, and
 *     synchronized or queried events recorded on its S;
 *   - the last touch of each allocation made through the shim is kept in
 *     its record (stream0_mem.c); other bytes (a large allocation's, or
 *     memory the shim did not allocate) in one direct-mapped table of
 *     4 KB granules, each with the byte range its last toucher touched;
 *   - a thread that waits for an event on its S (hipStreamWaitEvent), or
 *     that the check made wait, knows that the other thread's work up to
 *     then is ordered before its own later work (hz_me.know[]).
 *
 * Concurrency: records, slots and peers' done are written and read with
 * relaxed atomics and without a lock; one that two threads write at the
 * same instant may be read half old, half new (a dependency may then be
 * missed or ordered once too often).  Peer slots, events and the
 * device-sync snapshot are under hz_lock, never taken on the launch path
 * but to order a dependency: a peer slot that still holds the other
 * thread keeps its S alive (its thread leaves the peers before it
 * destroys its streams).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "stream0.h"
#include "stream0_hazard.h"

int s0_hz_active;

#define HZ_PEERS 256	   /* threads that touch memory at once */
#define HZ_TAB_BITS 16	   /* granules remembered */
#define HZ_KNOW 8	   /* other threads a thread knows events of */
#define HZ_EVENTS 1024	   /* events recorded on an S, remembered */
#define HZ_DEPS 8	   /* threads one call is ordered after */

struct hz_peer {
	uint32_t serial;		/* owner; 0: free (under hz_lock) */
	struct s0_thread *t;		/* owner's record (under hz_lock) */
	uint64_t done[S0_MAXDEV];	/* its S submissions known complete */
};

static pthread_mutex_t hz_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hz_peer hz_peers[HZ_PEERS];
static uint32_t hz_serial;	/* under hz_lock */
static int hz_npeers;		/* highest slot used + 1, under hz_lock */
static struct s0_hz_slot *hz_tab;	/* HZ_TAB_BITS slots, made at init */
static int hz_warned_peers;

struct hz_event {
	lb_event e;
	uint32_t serial;
	uint8_t dev;
	uint64_t sub;
};
static struct hz_event hz_events[HZ_EVENTS]; /* under hz_lock */

struct hz_me {
	uint32_t serial; /* 0: not joined */
	int slot;	 /* in hz_peers, -1: none could be had */
	struct {
		uint32_t serial;
		uint8_t dev;
		uint64_t sub;
	} know[HZ_KNOW];
	unsigned know_next;
	uint64_t *dsnap; /* hipDeviceSynchronize: peers' submissions */
	int dsnap_dev;
};

static LB_TLS struct hz_me hz_me = { .slot = -1 };

/* Totals for the exit report (threads add theirs as they count). */
static uint64_t hz_total, hz_ordered;
static int hz_first_api = -1, hz_first_module;
static const void *hz_first_fn;

int s0_hz_init(void)
{
	hz_tab = calloc((size_t)1 << HZ_TAB_BITS, sizeof(*hz_tab));
	s0_hza = calloc((size_t)1 << S0_HZA_BITS, sizeof(*s0_hza));
	if (!hz_tab || !s0_hza) {
		free(hz_tab);
		free(s0_hza);
		hz_tab = NULL;
		s0_hza = NULL;
		lb_log(LB_LOG_WARN, "stream0: out of memory for the hazard "
				    "check; it is off");
		return 0;
	}
	__atomic_store_n(&s0_hz_active, 1, __ATOMIC_RELEASE);
	return 1;
}

/* Takes a peer slot for the calling thread.  Returns 0 if none. */
static int hz_join(struct hz_me *me)
{
	int i;

	if (me->serial)
		return me->slot >= 0;
	pthread_mutex_lock(&hz_lock);
	me->serial = ++hz_serial;
	if (!me->serial)
		me->serial = ++hz_serial; /* 0 means free */
	for (i = 0; i < HZ_PEERS; i++)
		if (!hz_peers[i].serial)
			break;
	if (i < HZ_PEERS) {
		int d;

		hz_peers[i].t = &s0_me;
		for (d = 0; d < S0_MAXDEV; d++)
			S0_STORE(hz_peers[i].done[d], 0);
		/* release: a reader that sees the serial sees done reset */
		__atomic_store_n(&hz_peers[i].serial, me->serial,
				 __ATOMIC_RELEASE);
		if (i >= hz_npeers)
			hz_npeers = i + 1;
		me->slot = i;
	}
	pthread_mutex_unlock(&hz_lock);
	if (me->slot < 0 &&
	    !__atomic_exchange_n(&hz_warned_peers, 1, __ATOMIC_RELAXED))
		lb_log(LB_LOG_WARN,
		       "stream0: more than %d threads touch memory; the "
		       "hazard check does not follow the others' work",
		       HZ_PEERS);
	return me->slot >= 0;
}

/* The peer slot of serial, or NULL when that thread is gone. */
static struct hz_peer *hz_peer_of(uint32_t serial)
{
	int i, n = S0_LOAD(hz_npeers);

	/* The common case: few threads, and the slot is a short scan. */
	for (i = 0; i < n; i++)
		if (__atomic_load_n(&hz_peers[i].serial, __ATOMIC_ACQUIRE) ==
		    serial)
			return &hz_peers[i];
	return NULL;
}

static void hz_done_max(struct hz_peer *p, int dev, uint64_t sub)
{
	uint64_t d = S0_LOAD(p->done[dev]);

	/* Racing raisers: the smaller may win, a count may be one too high. */
	if (sub > d)
		S0_STORE(p->done[dev], sub);
}

void s0_hz_idle(int dev, uint64_t sub)
{
	struct hz_me *me = &hz_me;

	if (me->slot >= 0 && dev >= 0 && dev < S0_MAXDEV)
		hz_done_max(&hz_peers[me->slot], dev, sub);
}

/* Does the calling thread's S work after this point wait for (o, dev, n)? */
static int hz_known(const struct hz_me *me, uint32_t o, int dev, uint64_t n)
{
	int i;

	for (i = 0; i < HZ_KNOW; i++)
		if (me->know[i].serial == o && me->know[i].dev == dev &&
		    me->know[i].sub >= n)
			return 1;
	return 0;
}

/* The caller's S work from now on waits for o's on dev up to n. */
static void hz_learn(struct hz_me *me, uint32_t o, int dev, uint64_t n)
{
	int i;

	for (i = 0; i < HZ_KNOW; i++) {
		if (me->know[i].serial == o && me->know[i].dev == dev) {
			if (n > me->know[i].sub)
				me->know[i].sub = n;
			return;
		}
	}
	i = me->know_next++ % HZ_KNOW;
	me->know[i].serial = o;
	me->know[i].dev = (uint8_t)dev;
	me->know[i].sub = n;
}

/* Is a touch of tag (another owner's) and n pending and unordered? */
static int hz_unordered(const struct hz_me *me, uint64_t tag, uint64_t n)
{
	uint32_t o = (uint32_t)(tag >> 20);
	int dev = (tag >> 12) & 0xff;
	struct hz_peer *p;

	if (!tag || o == me->serial || dev >= S0_MAXDEV)
		return 0;
	p = hz_peer_of(o);
	if (!p || n <= S0_LOAD(p->done[dev]))
		return 0;
	return !hz_known(me, o, dev, n);
}

static inline uint64_t hz_hash(uint64_t g)
{
	return (g * 0x9E3779B97F4A7C15ull) >> (64 - HZ_TAB_BITS);
}

/*
 * What one call found: the other threads' pending touches it depends on
 * (their tags, at most HZ_DEPS; over: one more than it could keep).
 */
struct hz_found {
	int n, over;
	uint64_t tag[HZ_DEPS];
};

static void hz_dep(struct hz_found *f, uint64_t tag)
{
	int i;

	tag &= ~(uint64_t)S0_HZ_GRAN_MASK;
	for (i = 0; i < f->n; i++)
		if (f->tag[i] == tag)
			return;
	if (f->n < HZ_DEPS)
		f->tag[f->n++] = tag;
	else
		f->over = 1;
}

/*
 * What a target's visit does: HZ_LOOK finds its dependency (another
 * thread's pending touch, unordered, of bytes it touches, last); HZ_CHECK
 * the same, and makes the target the caller's (tag, submission n) when
 * it has none; HZ_TAKE makes it the caller's, looking at nothing.
 */
enum { HZ_LOOK, HZ_CHECK, HZ_TAKE };

/* Granule g, bytes [lo, hi) of it (offsets, lo < hi <= 4096). */
static void hz_granule(const struct hz_me *me, uint64_t g, unsigned lo,
		       unsigned hi, uint64_t tag, uint64_t n,
		       struct hz_found *f, int write)
{
	struct s0_hz_slot *s = &hz_tab[hz_hash(g)];
	uint64_t base = g << S0_HZ_GRAN_SHIFT, k, t;

	k = S0_LOAD(s->key);
	if (write != HZ_TAKE && k &&
	    (k & ~(uint64_t)S0_HZ_GRAN_MASK) == base) {
		unsigned klo = k & S0_HZ_GRAN_MASK, khi;

		t = S0_LOAD(s->tag);
		khi = (t & S0_HZ_GRAN_MASK) + 1;
		if (klo < hi && lo < khi &&
		    hz_unordered(me, t, S0_LOAD(s->sub))) {
			hz_dep(f, t);
			return;
		}
	}
	if (write == HZ_LOOK || me->slot < 0)
		return;
	tag |= hi - 1;
	S0_STORE(s->sub, n);
	if (k == (base | lo) && S0_LOAD(s->tag) == tag)
		return;
	S0_STORE(s->tag, tag);
	S0_STORE(s->key, base | lo);
}

/*
 * The granules of bytes [lo, hi) (hi > lo) that the range table keeps:
 * all of a short range, the first and last S0_HZ_MAXGRAN / 2 of a long
 * one.  hz_walk_start, then hz_walk_next until it returns 0.
 */
struct hz_walk {
	uint64_t g, last, skip_lo, skip_hi;
};

static inline void hz_walk_start(struct hz_walk *w, uintptr_t lo,
				 uintptr_t hi)
{
	w->g = lo >> S0_HZ_GRAN_SHIFT;
	w->last = (hi - 1) >> S0_HZ_GRAN_SHIFT;
	w->skip_lo = w->skip_hi = 0;
	if (w->last - w->g >= S0_HZ_MAXGRAN) {
		w->skip_lo = w->g + S0_HZ_MAXGRAN / 2;
		w->skip_hi = w->last - S0_HZ_MAXGRAN / 2;
	}
}

/* The next granule into *G: 1, or 0 past the last. */
static inline int hz_walk_next(struct hz_walk *w, uint64_t *g)
{
	if (w->g > w->last)
		return 0;
	if (w->g == w->skip_lo && w->skip_hi > w->skip_lo)
		w->g = w->skip_hi + 1;
	*g = w->g++;
	return 1;
}

/* Bytes [lo, hi) in the range table: granule by granule (hz_granule). */
static void hz_range(const struct hz_me *me, uintptr_t lo, uintptr_t hi,
		     uint64_t tag, uint64_t n, struct hz_found *f, int write)
{
	struct hz_walk w;
	uint64_t g;

	if (hi <= lo || !lo)
		return;
	hz_walk_start(&w, lo, hi);
	while (hz_walk_next(&w, &g)) {
		uint64_t base;
		unsigned a, b;

		base = g << S0_HZ_GRAN_SHIFT;
		a = lo > base ? (unsigned)(lo - base) : 0;
		b = hi - base < S0_HZ_GRAN ? (unsigned)(hi - base) : S0_HZ_GRAN;
		hz_granule(me, g, a, b, tag, n, f, write);
	}
}

void s0_hz_range_clear(uintptr_t lo, uintptr_t hi)
{
	struct hz_walk w;
	uint64_t g, k;

	if (!hz_tab || hi <= lo)
		return;
	hz_walk_start(&w, lo, hi);
	while (hz_walk_next(&w, &g)) {
		struct s0_hz_slot *s;

		s = &hz_tab[hz_hash(g)];
		k = S0_LOAD(s->key);
		if (k && (k >> S0_HZ_GRAN_SHIFT) == g)
			S0_STORE(s->tag, 0);
	}
}

/* An allocation's record: as hz_granule, for all of its bytes. */
static inline void hz_alloc(const struct hz_me *me, struct s0_hz_alloc *a,
			    uint64_t tag, uint64_t n, struct hz_found *f,
			    int write)
{
	uint64_t t = S0_LOAD(a->tag);

	if (write != HZ_TAKE && t != tag &&
	    hz_unordered(me, t, S0_LOAD(a->sub))) {
		hz_dep(f, t);
		return;
	}
	if (write == HZ_LOOK || me->slot < 0)
		return;
	S0_STORE(a->sub, n);
	if (t != tag) {
		S0_STORE(a->tag, tag);
		s0_hz_owner_moved();
	}
}

/*
 * Makes the caller's S on dev wait for thread o's S there (its work so
 * far, which holds every touch found).  Returns 0, or -1 when it cannot:
 * o's S is capturing (waiting for it would join or break the capture),
 * it is on another device than the caller's, or the runtime refused.  A
 * thread that is gone waited for its S.
 */
static int hz_order(struct hz_me *me, uint32_t o, int dev)
{
	lb_stream mine, theirs;
	struct hz_peer *p;
	uint64_t n = 0;
	int r = 0;

	if (dev != s0_me.dev)
		return -1;
	mine = S0_LOAD(s0_me.s[dev]);
	pthread_mutex_lock(&hz_lock);
	p = hz_peer_of(o);
	if (p && p->t) {
		theirs = S0_LOAD(p->t->s[dev]);
		n = S0_LOAD(p->t->sub[dev]);
		if (!theirs || S0_LOAD(p->t->cap[dev]) ||
		    S0_LOAD(s0_me.cap[dev]))
			r = -1;
		else
			r = s0_wait_for(theirs, mine, dev);
	}
	pthread_mutex_unlock(&hz_lock);
	if (!r && n)
		hz_learn(me, o, dev, n);
	return r;
}

/* The call's marks and the totals: n ordered, h hazards. */
static void hz_note(struct lb_call *c, uint64_t n, uint64_t h)
{
	unsigned role = lb_api_info[c->api].role;
	int none = -1, module = role == LB_ROLE_LAUNCH_MODULE;
	const void *fn = NULL;

	if (n) {
		S0_COUNT(s0_me.touch_ord, n);
		__atomic_add_fetch(&hz_ordered, n, __ATOMIC_RELAXED);
		c->scratch[LB_NOTE_HAZARD] |= LB_NOTE_S0_ORDERED;
	}
	if (!h)
		return;
	S0_COUNT(s0_me.touch_hz, h);
	__atomic_add_fetch(&hz_total, h, __ATOMIC_RELAXED);
	c->scratch[LB_NOTE_HAZARD] |= LB_NOTE_S0_HAZARD;
	s0_first_hazard(c->api);
	/* a launch's kernel, for the report */
	if (module || role == LB_ROLE_LAUNCH)
		fn = lb_ar_ptr(c->api, c->args, LB_AR_KERNEL);
	if (__atomic_compare_exchange_n(&hz_first_api, &none, (int)c->api, 0,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		__atomic_store_n(&hz_first_module, module, __ATOMIC_RELAXED);
		__atomic_store_n(&hz_first_fn, fn, __ATOMIC_RELAXED);
	}
}

/* Checks (write 0) or takes (write 1) every target, for tag and sub. */
static void hz_targets(const struct hz_me *me, const struct s0_hz_target *t,
		       int n, uint64_t tag, uint64_t sub, struct hz_found *f,
		       int write)
{
	int i;

	for (i = 0; i < n; i++) {
		if (t[i].a)
			hz_alloc(me, t[i].a, tag, sub, f, write);
		else
			hz_range(me, t[i].lo, t[i].hi, tag, sub, f, write);
	}
}

uint64_t s0_hz_tag(void)
{
	struct hz_me *me = &hz_me;
	int dev = s0_me.dev;

	if (LB_UNLIKELY(!me->serial))
		hz_join(me);
	if (me->slot < 0 || dev < 0 || dev >= S0_MAXDEV)
		return UINT64_MAX; /* no record is ever written as its own */
	return (uint64_t)me->serial << 20 | (uint64_t)dev << 12;
}

int s0_hz_check(struct lb_call *c, const struct s0_hz_target *t, int n,
		uint64_t sub, int can_wait)
{
	struct hz_me *me = &hz_me;
	struct hz_found f;
	uint64_t tag, ord = 0, hz = 0;
	int dev = s0_me.dev, i;

	if (n <= 0 || dev < 0 || dev >= S0_MAXDEV)
		return 0;
	if (LB_UNLIKELY(!me->serial))
		hz_join(me);
	tag = (uint64_t)me->serial << 20 | (uint64_t)dev << 12;
	f.n = f.over = 0;
	/* the common case: nothing pending of others; taken as it goes */
	hz_targets(me, t, n, tag, sub, &f, HZ_CHECK);
	if (LB_LIKELY(!f.n))
		return 0;
	if (!can_wait)
		return -1; /* the targets depended on are left as they were */
	/* each thread depended on: once, up to its work so far */
	for (i = 0; i < f.n; i++) {
		if (hz_order(me, (uint32_t)(f.tag[i] >> 20),
			     (f.tag[i] >> 12) & 0xff))
			hz++;
		else
			ord++;
	}
	hz += (uint64_t)f.over;
	hz_targets(me, t, n, tag, sub, &f, HZ_TAKE);
	hz_note(c, ord, hz);
	return 0;
}
/* ---- events and syncs: what orders work ---- */

static struct hz_event *hz_event_find(lb_event e, int make)
{
	unsigned i, h = (unsigned)(((uintptr_t)e >> 4) % HZ_EVENTS), j;

	for (j = 0; j < HZ_EVENTS; j++) {
		i = (h + j) % HZ_EVENTS;
		if (hz_events[i].e == e)
			return &hz_events[i];
		if (!hz_events[i].e)
			break;
	}
	if (!make || j == HZ_EVENTS)
		return NULL;
	hz_events[i].e = e;
	return &hz_events[i];
}

/* Removes e (backward-shift deletion keeps the probe chains whole). */
static void hz_event_drop(lb_event e)
{
	struct hz_event *x = hz_event_find(e, 0);
	unsigned i, j, h;

	if (!x)
		return;
	i = (unsigned)(x - hz_events);
	for (j = (i + 1) % HZ_EVENTS; hz_events[j].e; j = (j + 1) % HZ_EVENTS) {
		h = (unsigned)(((uintptr_t)hz_events[j].e >> 4) % HZ_EVENTS);
		/* can entry j move to the hole at i? */
		if ((j > i && (h <= i || h > j)) ||
		    (j < i && h <= i && h > j)) {
			hz_events[i] = hz_events[j];
			i = j;
		}
	}
	memset(&hz_events[i], 0, sizeof(hz_events[i]));
}

void s0_hz_recorded(lb_event e, int on_s, uint64_t n)
{
	struct hz_me *me = &hz_me;
	struct hz_event *x;
	int dev = s0_me.dev;

	if (!e)
		return;
	if (on_s && LB_UNLIKELY(!me->serial))
		hz_join(me);
	pthread_mutex_lock(&hz_lock);
	if (!on_s || me->slot < 0 || dev < 0 || dev >= S0_MAXDEV) {
		hz_event_drop(e); /* it marks no S work any more */
	} else if ((x = hz_event_find(e, 1))) {
		x->serial = me->serial;
		x->dev = (uint8_t)dev;
		x->sub = n;
	}
	pthread_mutex_unlock(&hz_lock);
}

void s0_hz_waited(lb_event e)
{
	struct hz_me *me = &hz_me;
	struct hz_event *x;
	uint32_t o = 0;
	uint64_t n = 0;
	int dev = 0;

	pthread_mutex_lock(&hz_lock);
	x = hz_event_find(e, 0);
	if (x) {
		o = x->serial;
		dev = x->dev;
		n = x->sub;
	}
	pthread_mutex_unlock(&hz_lock);
	if (o && o != me->serial)
		hz_learn(me, o, dev, n);
}

void s0_hz_event_done(lb_event e)
{
	struct hz_event *x;
	struct hz_peer *p;

	pthread_mutex_lock(&hz_lock);
	x = hz_event_find(e, 0);
	if (x && (p = hz_peer_of(x->serial)))
		hz_done_max(p, x->dev, x->sub);
	pthread_mutex_unlock(&hz_lock);
}

void s0_hz_event_gone(lb_event e)
{
	pthread_mutex_lock(&hz_lock);
	hz_event_drop(e);
	pthread_mutex_unlock(&hz_lock);
}

void s0_hz_devsync_begin(void)
{
	struct hz_me *me = &hz_me;
	int i, dev = s0_me.dev;

	me->dsnap_dev = -1;
	/* a thread's first call may be this one */
	if (dev < 0 && lb_rt->device_get(&dev) == LB_ST_OK)
		s0_set_device(dev);
	if (dev < 0 || dev >= S0_MAXDEV)
		return;
	if (!me->dsnap && !(me->dsnap = calloc(HZ_PEERS, sizeof(uint64_t))))
		return;
	pthread_mutex_lock(&hz_lock);
	for (i = 0; i < hz_npeers; i++)
		me->dsnap[i] = hz_peers[i].serial
				       ? S0_LOAD(hz_peers[i].t->sub[dev])
				       : 0;
	pthread_mutex_unlock(&hz_lock);
	me->dsnap_dev = dev;
}

void s0_hz_devsync_end(int ok)
{
	struct hz_me *me = &hz_me;
	int i, dev = me->dsnap_dev;

	me->dsnap_dev = -1;
	if (!ok || dev < 0)
		return;
	/*
	 * A peer that left and was replaced meanwhile gets a done it has
	 * not reached: only fewer hazards for it, never a wrong one.
	 */
	pthread_mutex_lock(&hz_lock);
	for (i = 0; i < hz_npeers; i++)
		if (hz_peers[i].serial)
			hz_done_max(&hz_peers[i], dev, me->dsnap[i]);
	pthread_mutex_unlock(&hz_lock);
}

void s0_hz_thread_gone(void)
{
	struct hz_me *me = &hz_me;

	free(me->dsnap);
	me->dsnap = NULL;
	if (me->slot < 0)
		return;
	/* Its S were synchronized before: none of its work is pending. */
	pthread_mutex_lock(&hz_lock);
	S0_STORE(hz_peers[me->slot].serial, 0);
	hz_peers[me->slot].t = NULL;
	pthread_mutex_unlock(&hz_lock);
	me->slot = -1;
}

void s0_hz_fork_prepare(void)
{
	pthread_mutex_lock(&hz_lock);
}

void s0_hz_fork_parent(void)
{
	pthread_mutex_unlock(&hz_lock);
}

void s0_hz_fork_child(void)
{
	struct hz_me *me = &hz_me;

	/* The child has no pending work and only this thread. */
	pthread_mutex_init(&hz_lock, NULL);
	memset(hz_peers, 0, sizeof(hz_peers));
	memset(hz_events, 0, sizeof(hz_events));
	hz_npeers = 0;
	if (hz_tab)
		memset(hz_tab, 0, sizeof(*hz_tab) << HZ_TAB_BITS);
	s0_hz_mem_fork_child();
	memset(me->know, 0, sizeof(me->know));
	me->serial = 0;
	me->slot = -1;
	hz_total = hz_ordered = 0;
}

uint64_t s0_hz_total(uint64_t *ordered, const void **fn, int *module,
		     int *api)
{
	*ordered = __atomic_load_n(&hz_ordered, __ATOMIC_RELAXED);
	*fn = __atomic_load_n(&hz_first_fn, __ATOMIC_RELAXED);
	*module = __atomic_load_n(&hz_first_module, __ATOMIC_RELAXED);
	*api = __atomic_load_n(&hz_first_api, __ATOMIC_RELAXED);
	return __atomic_load_n(&hz_total, __ATOMIC_RELAXED);
}
