/*
 * stream0_hazard.c - remap mode: the launch-level hazard check.  A launch,
 * copy or set that a remapped thread puts on its S and that touches memory
 * another thread's still-pending S work touched last, with no event or
 * sync ordering the two, is a hazard: on the legacy null stream the two
 * would have run in order, on two per-thread streams they may overlap.
 *
 * The check is pure bookkeeping, never a query of the runtime:
 *
 *   - every thread that touches memory gets a peer slot in hz_peers[]: a
 *     serial (never reused while it lives) and, per device, the number of
 *     its S submissions known to be complete (done), learned from its
 *     own syncs of S, hipDeviceSynchronize by anyone, and synchronized or
 *     queried events recorded on its S;
 *   - the memory a call touches is written, granule by granule (4 KB),
 *     into one direct-mapped table: which thread, device and submission
 *     touched which byte range of the granule last;
 *   - a thread that waits for an event on its S (hipStreamWaitEvent)
 *     learns that the recording thread's work up to the record is ordered
 *     before its own later work (hz_me.know[]).
 *
 * A record is a hazard for the toucher when it is another thread's, its
 * ranges overlap, the owner's peer slot still holds that thread (a thread
 * that exited waited for its S first: its work is done), the submission is
 * beyond the owner's done and beyond what the toucher knows of the owner.
 *
 * Concurrency: table slots and peers' done are written and read with
 * relaxed atomics and without a lock; a slot that two threads write at
 * the same instant may be read half old, half new (a hazard may be
 * missed or counted once too often then).  A change of a slot's owner is
 * counted after its stores (s0_hz_tab_gen, release; read with acquire
 * before a check's loop): the count a thread's seal keeps (struct
 * s0_hz_seal) moves with any owner written since, so a seal that holds
 * stands for slots still its own.  Peer slots, events and the
 * device-sync snapshot are under hz_lock, never taken on the launch path.
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
struct s0_hz_tabgen s0_hz_tab_gen; /* (stream0_hazard.h) */
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
static uint64_t hz_total;
static int hz_first_api = -1;
static const void *hz_first_fn;

int s0_hz_init(void)
{
	hz_tab = calloc((size_t)1 << HZ_TAB_BITS, sizeof(*hz_tab));
	if (!hz_tab) {
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

/* Is a record of (o, dev, n) pending and unordered for the caller? */
static int hz_unordered(const struct hz_me *me, uint32_t o, int dev,
			uint64_t n)
{
	struct hz_peer *p = hz_peer_of(o);

	if (!p || n <= S0_LOAD(p->done[dev]))
		return 0;
	return !hz_known(me, o, dev, n);
}

static inline uint64_t hz_hash(uint64_t g)
{
	return (g * 0x9E3779B97F4A7C15ull) >> (64 - HZ_TAB_BITS);
}

/*
 * Checks and marks bytes [lo, hi) of granule g (lo < hi <= 4096, offsets
 * in it) for submission n of the caller on dev.  Returns 1 on a hazard,
 * | 2 when it wrote the slot's owner (key and tag): the caller then counts
 * the change (hz_moved), once for all the granules of its call.
 */
static int hz_granule(struct hz_me *me, uint64_t g, unsigned lo, unsigned hi,
		      int dev, uint64_t n)
{
	struct s0_hz_slot *s = &hz_tab[hz_hash(g)];
	uint64_t base = g << S0_HZ_GRAN_SHIFT, k, t = 0, tag;
	int hz = 0;

	k = S0_LOAD(s->key);
	if ((k & ~(uint64_t)S0_HZ_GRAN_MASK) == base && k) {
		unsigned klo = k & S0_HZ_GRAN_MASK, khi;
		uint32_t o;

		t = S0_LOAD(s->tag);
		o = (uint32_t)(t >> 20);
		khi = (t & S0_HZ_GRAN_MASK) + 1;
		if (o != me->serial && klo < hi && lo < khi &&
		    hz_unordered(me, o, (t >> 12) & 0xff, S0_LOAD(s->sub)))
			hz = 1;
	}
	if (me->slot < 0)
		return hz;
	tag = (uint64_t)me->serial << 20 | (uint64_t)dev << 12 | (hi - 1);
	S0_STORE(s->sub, n);
	/* the same owner and bytes again: no write the seals must see */
	if (k == (base | lo) && t == tag)
		return hz;
	S0_STORE(s->tag, tag);
	S0_STORE(s->key, base | lo);
	return hz | 2;
}

/*
 * After hz_granule()s whose results or-ed to hz: counts their owners'
 * changes (release: after the slots' stores).  Returns the hazard bit.
 */
static int hz_moved(int hz)
{
	if (hz & 2)
		__atomic_add_fetch(&s0_hz_tab_gen.n, 1, __ATOMIC_RELEASE);
	return hz & 1;
}

int s0_hz_range(uintptr_t lo, uintptr_t hi, uint64_t n)
{
	struct hz_me *me = &hz_me;
	uint64_t g, g0, g1, skip_lo = 0, skip_hi = 0;
	int hz = 0, dev = s0_me.dev;

	if (hi <= lo || !lo || dev < 0 || dev >= S0_MAXDEV)
		return 0;
	if (LB_UNLIKELY(!me->serial))
		hz_join(me);
	g0 = lo >> S0_HZ_GRAN_SHIFT;
	g1 = (hi - 1) >> S0_HZ_GRAN_SHIFT;
	/* A long range: its first and last S0_HZ_MAXGRAN / 2 granules. */
	if (g1 - g0 >= S0_HZ_MAXGRAN) {
		skip_lo = g0 + S0_HZ_MAXGRAN / 2;
		skip_hi = g1 - S0_HZ_MAXGRAN / 2;
	}
	for (g = g0; g <= g1; g++) {
		uint64_t base = g << S0_HZ_GRAN_SHIFT;
		unsigned a, b;

		if (g == skip_lo && skip_hi > skip_lo)
			g = skip_hi + 1, base = g << S0_HZ_GRAN_SHIFT;
		a = lo > base ? (unsigned)(lo - base) : 0;
		b = hi - base < S0_HZ_GRAN ? (unsigned)(hi - base) : S0_HZ_GRAN;
		hz |= hz_granule(me, g, a, b, dev, n);
	}
	return hz_moved(hz);
}

void *s0_hz_slot(uintptr_t g)
{
	return &hz_tab[hz_hash(g)];
}

int s0_hz_granules(const uintptr_t *g, void *const *sp, int n, uint64_t sub,
		   struct s0_hz_seal *seal)
{
	struct hz_me *me = &hz_me;
	struct s0_hz_slot *s;
	int hz = 0, dev = s0_me.dev, own, i;
	uint64_t tag, gen;

	if (dev < 0 || dev >= S0_MAXDEV)
		return 0;
	if (LB_UNLIKELY(!me->serial))
		hz_join(me);
	tag = (uint64_t)me->serial << 20 | (uint64_t)dev << 12 |
	      S0_HZ_GRAN_MASK;
	gen = __atomic_load_n(&s0_hz_tab_gen.n, __ATOMIC_ACQUIRE);
	own = me->slot >= 0;
	for (i = 0; i < n; i++) {
		s = sp[i];
		/* Our own last touch of the whole granule: one store. */
		if (LB_LIKELY(own &&
			      S0_LOAD(s->key) == g[i] << S0_HZ_GRAN_SHIFT &&
			      S0_LOAD(s->tag) == tag))
			S0_STORE(s->sub, sub);
		else
			hz |= hz_granule(me, g[i], 0, S0_HZ_GRAN, dev, sub);
	}
	/*
	 * Each slot now holds this thread's touch (hz_granule wrote those it
	 * did not), unless a write since gen was read (this loop's own
	 * included) moved an owner: then the count differs next time.
	 */
	if (seal) {
		seal->gen = gen;
		seal->dev = dev;
		seal->ok = own;
	}
	return hz_moved(hz);
}

void s0_hz_count(struct lb_call *c, const void *fn)
{
	int none = -1;

	S0_COUNT(s0_me.touch_hz, 1);
	__atomic_add_fetch(&hz_total, 1, __ATOMIC_RELAXED);
	c->scratch[LB_NOTE_HAZARD] = 1;
	s0_first_hazard(c->api);
	if (__atomic_compare_exchange_n(&hz_first_api, &none, (int)c->api, 0,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		__atomic_store_n(&hz_first_fn, fn, __ATOMIC_RELAXED);
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
	int dev = 0, i;

	pthread_mutex_lock(&hz_lock);
	x = hz_event_find(e, 0);
	if (x) {
		o = x->serial;
		dev = x->dev;
		n = x->sub;
	}
	pthread_mutex_unlock(&hz_lock);
	if (!o || o == me->serial)
		return;
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
	/* its seals: its slots are no longer written as its own */
	__atomic_add_fetch(&s0_hz_tab_gen.n, 1, __ATOMIC_RELEASE);
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
	__atomic_add_fetch(&s0_hz_tab_gen.n, 1, __ATOMIC_RELEASE);
	memset(me->know, 0, sizeof(me->know));
	me->serial = 0;
	me->slot = -1;
	hz_total = 0;
}

uint64_t s0_hz_total(const void **fn, int *api)
{
	*fn = __atomic_load_n(&hz_first_fn, __ATOMIC_RELAXED);
	*api = __atomic_load_n(&hz_first_api, __ATOMIC_RELAXED);
	return __atomic_load_n(&hz_total, __ATOMIC_RELAXED);
}
