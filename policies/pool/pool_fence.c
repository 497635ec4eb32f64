/*
 * pool_fence.c - when may a freed block be handed out again?
 *
 * Only once all device work submitted before its free, on any stream that
 * may touch it, has completed.  The post hook sees every submission (after
 * stream0, so the stream is the one actually used) and marks the stream
 * dirty; a free records one event on each dirty stream of the device plus
 * the legacy null stream (which also orders every blocking stream, the
 * per-thread default streams among them) and calls the set a fence.
 * Fences of a device complete in creation order, so one number per device,
 * done_seq, says which blocks are safe: those whose fence is at most it.
 * A free with no work submitted since the last fence shares that fence and
 * records nothing, which keeps a hot alloc/free loop off the runtime.
 *
 * Ordering: a submission marks its stream only after the runtime accepted
 * it, and a fence takes the dirty list before it records, under the
 * device's flock; so a submission is either in the list a fence takes or
 * on the list of the next one.  last_seq is published before ndirty is
 * cleared, so a free that reads ndirty == 0 without the lock reads a
 * last_seq covering every submission taken so far.
 *
 * Captures.  Work put on a stream being captured does not run, and an
 * event recorded there is a graph node, not a fence (ROCm answers a query
 * of it with hipErrorCapturedEvent and invalidates the capture: clr
 * hipamd/src/hip_event.cpp, rocm-6.2.0); a record on the legacy null
 * stream while a blocking stream captures invalidates that capture too.
 * So: when a capture begins, the device is fenced first (its work so far,
 * the null stream's included, is covered while recording there is still
 * allowed); while it lasts, each piece of work put on the null stream or
 * a per-thread stream gets its own fence, an event recorded right behind
 * it on that stream by the thread that submitted it; a stream that waits
 * for an event during a capture (it may be joining the capture) is fenced
 * before the wait; and no record goes to a stream that is capturing, as
 * the runtime reports it (hipStreamIsCapturing).
 *
 * Syncs.  A stream's work the program has waited for needs no fence: a
 * free after it, in a loop that allocates, submits, waits and frees,
 * records no event and its block is handed out again at once.  When the
 * thread's wait for a stream returns (a stream sync, a device sync, or a
 * synchronous copy to the host where the runtime says such a copy
 * returns once it has completed: rt.h, sync_dtoh_done), the stream's
 * entry is made clean, but only if the last work to reach it was this
 * thread's (owner): work another thread put there may have come after
 * the wait began.  lb_pfence_work stores its thread as the owner (when it
 * changes) before it reads dirty, and the sync clears dirty before it
 * reads the owner, all sequentially consistent: either the sync sees
 * the other thread as owner and puts dirty back, or the other thread
 * sees dirty clear and marks the entry again.  The entry stays on the
 * dirty list (ndirty counted) until the owner is read, so a free that
 * reads ndirty without the lock never sees it clean too early.  Work on
 * a per-thread default stream (the null entry covers those too) makes
 * the owner LB_PS_ANY until a fence takes the entry (which clears the
 * owner before dirty): a wait for the legacy stream is not one for
 * them.  The device a device sync covered is the runtime's current one,
 * asked then.  Captures in progress: no sync clears anything.
 */
#include <stdlib.h>
#include <string.h>
#include "pool.h"

#define LB_PST_SIZE 4096 /* power of two */

static struct lb_pstream lb_pst[LB_PST_SIZE];
static pthread_mutex_t lb_pst_lock = PTHREAD_MUTEX_INITIALIZER;
static int lb_pst_used; /* non-empty slots, tombstones included */

static unsigned lb_pst_hash(uintptr_t k)
{
	return (unsigned)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> 40) &
	       (LB_PST_SIZE - 1);
}

static struct lb_pstream *lb_pst_find(uintptr_t k)
{
	unsigned i = lb_pst_hash(k), n;

	for (n = 0; n < LB_PST_SIZE; n++, i = (i + 1) & (LB_PST_SIZE - 1)) {
		uintptr_t v = __atomic_load_n(&lb_pst[i].key, __ATOMIC_ACQUIRE);

		if (v == k)
			return &lb_pst[i];
		if (!v)
			return NULL;
	}
	return NULL;
}

/* The entry of stream k, added for device dev if new; NULL when full. */
static struct lb_pstream *lb_pst_add(uintptr_t k, int dev)
{
	struct lb_pstream *e, *slot = NULL;
	unsigned i, n;

	pthread_mutex_lock(&lb_pst_lock);
	e = lb_pst_find(k);
	if (e)
		goto out;
	i = lb_pst_hash(k);
	for (n = 0; n < LB_PST_SIZE; n++, i = (i + 1) & (LB_PST_SIZE - 1)) {
		uintptr_t v = lb_pst[i].key;

		if (v == LB_PS_TOMB) {
			slot = &lb_pst[i];
			break;
		}
		if (!v) {
			/* keep some slots empty so that lookups end */
			if (lb_pst_used < LB_PST_SIZE * 7 / 8) {
				slot = &lb_pst[i];
				lb_pst_used++;
			}
			break;
		}
	}
	if (slot) {
		slot->dev = dev;
		slot->capturing = 0;
		slot->dnext = NULL;
		__atomic_store_n(&slot->owner, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&slot->dirty, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&slot->key, k, __ATOMIC_RELEASE);
		e = slot;
	}
out:
	pthread_mutex_unlock(&lb_pst_lock);
	return e;
}

static int lb_is_null(lb_stream s)
{
	return !s || s == LB_STREAM_LEGACY || s == LB_STREAM_PER_THREAD;
}

/* Captures in progress in the process (atomic): while none is, no stream
 * can be capturing (a capture starts with hipStreamBeginCapture, which
 * the pool sees; streams join one only while it lasts). */
static int lb_pcap_active;

int lb_pcapture_any(void)
{
	return __atomic_load_n(&lb_pcap_active, __ATOMIC_ACQUIRE) != 0;
}

/* One more or one fewer capture on d (flock held). */
static void lb_ncap_add(struct lb_pdev *d, int n)
{
	__atomic_store_n(&d->ncapturing, d->ncapturing + n, __ATOMIC_RELEASE);
	__atomic_fetch_add(&lb_pcap_active, n, __ATOMIC_ACQ_REL);
}

/*
 * May an event be recorded on s now (flock held)?  Not on a stream being
 * captured, as the pool knows it or the runtime says (a stream may have
 * joined a capture through an event wait); not on the legacy null stream
 * while a stream of the device captures, or while the runtime says the
 * legacy stream would depend on a capturing blocking stream (ROCm's
 * hipStreamIsCapturing(NULL) answers hipErrorStreamCaptureImplicit then:
 * clr hipamd/src/hip_graph.cpp hipStreamIsCapturing_common, rocm-6.2.0),
 * unless own: the program's own work has just gone there, so the same
 * rules allowed it.
 */
static int lb_may_record(struct lb_pdev *d, lb_stream s, int own)
{
	int st = LB_CAPTURE_NONE;
	lb_status r;

	if ((!s || s == LB_STREAM_LEGACY) && d->ncapturing && !own)
		return 0;
	if (!__atomic_load_n(&lb_pcap_active, __ATOMIC_ACQUIRE))
		return 1;
	r = lb_rt->stream_capturing(s, &st);
	if (r == LB_ST_MISSING)
		return 1;
	return r == LB_ST_OK && st == LB_CAPTURE_NONE;
}

void lb_pfence_init(struct lb_pdev *d)
{
	pthread_mutex_init(&d->flock, NULL);
	d->null_entry.dev = d->id;
}

void lb_pstream_created(lb_stream s, int dev)
{
	if (!lb_is_null(s) && !lb_pst_add((uintptr_t)s, dev)) {
		struct lb_pdev *d = lb_pdev_peek(dev);

		if (d)
			__atomic_store_n(&d->sync_fallback, 1, __ATOMIC_RELEASE);
	}
}

static int lb_fence_one_locked(struct lb_pdev *d, lb_stream s);

/* The calling thread, as an entry's owner: its TLS block's address. */
static LB_TLS char lb_pf_tok;
static inline uintptr_t lb_pf_me(void)
{
	return (uintptr_t)&lb_pf_tok;
}

void lb_pfence_work(lb_stream s, int spt)
{
	struct lb_pstream *e;
	struct lb_pdev *d;
	uintptr_t me = spt || s == LB_STREAM_PER_THREAD ? LB_PS_ANY : lb_pf_me();

	if (lb_is_null(s)) {
		d = lb_pdev_peek(lb_pool_curdev());
		if (!d)
			return; /* no pool memory on that device yet */
		e = &d->null_entry;
		if (__atomic_load_n(&d->ncapturing, __ATOMIC_ACQUIRE)) {
			/* a fence of its own, on the stream it went to */
			lb_stream on = spt || s == LB_STREAM_PER_THREAD ?
						 LB_STREAM_PER_THREAD :
						 s;

			pthread_mutex_lock(&d->flock);
			if (d->ncapturing && !lb_fence_one_locked(d, on)) {
				pthread_mutex_unlock(&d->flock);
				return;
			}
			pthread_mutex_unlock(&d->flock);
			/* no capture any more, or no event: the next fence */
		}
	} else {
		e = lb_pst_find((uintptr_t)s);
		if (!e) {
			/* a stream created before us or by another policy:
			 * it belongs to the current device */
			int dev = lb_pool_curdev();

			if (!lb_pdev_peek(dev))
				return;
			e = lb_pst_add((uintptr_t)s, dev);
			if (!e) {
				d = lb_pdev_peek(dev);
				__atomic_store_n(&d->sync_fallback, 1,
						 __ATOMIC_RELEASE);
				return;
			}
		}
		d = lb_pdev_peek(e->dev);
		if (!d)
			return;
	}
	/*
	 * Before dirty is read: the comment at the top, "Syncs".  LB_PS_ANY
	 * stays until a fence takes the entry: a later legacy submission
	 * must not make a wait for the legacy stream look like one for a
	 * per-thread stream's work.
	 */
	{
		uintptr_t o = __atomic_load_n(&e->owner, __ATOMIC_SEQ_CST);

		if (o != me && o != LB_PS_ANY)
			__atomic_store_n(&e->owner, me, __ATOMIC_SEQ_CST);
	}
	if (__atomic_load_n(&e->dirty, __ATOMIC_SEQ_CST) ||
	    __atomic_load_n(&e->capturing, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&d->flock);
	if (!e->dirty && !e->capturing) {
		__atomic_store_n(&e->dirty, 1, __ATOMIC_SEQ_CST);
		e->dnext = d->dirty;
		d->dirty = e;
		__atomic_store_n(&d->ndirty, d->ndirty + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&d->flock);
}

/* Makes e clean if its last work was this thread's (flock held). */
static void lb_fence_clean_locked(struct lb_pdev *d, struct lb_pstream *e)
{
	struct lb_pstream **pp;

	if (!e->dirty || e->capturing)
		return;
	__atomic_store_n(&e->dirty, 0, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&e->owner, __ATOMIC_SEQ_CST) != lb_pf_me()) {
		__atomic_store_n(&e->dirty, 1, __ATOMIC_SEQ_CST);
		return;
	}
	for (pp = &d->dirty; *pp; pp = &(*pp)->dnext) {
		if (*pp == e) {
			*pp = e->dnext;
			e->dnext = NULL;
			__atomic_store_n(&d->ndirty, d->ndirty - 1,
					 __ATOMIC_RELEASE);
			return;
		}
	}
}

void lb_pfence_synced(lb_stream s, int spt)
{
	struct lb_pstream *e;
	struct lb_pdev *d;

	if (spt || s == LB_STREAM_PER_THREAD || lb_pcapture_any())
		return;
	if (lb_is_null(s)) {
		d = lb_pdev_peek(lb_pool_curdev());
		if (!d)
			return;
		e = &d->null_entry;
	} else {
		e = lb_pst_find((uintptr_t)s);
		if (!e || !(d = lb_pdev_peek(e->dev)))
			return;
	}
	if (!__atomic_load_n(&e->dirty, __ATOMIC_SEQ_CST) ||
	    __atomic_load_n(&e->owner, __ATOMIC_SEQ_CST) != lb_pf_me())
		return;
	pthread_mutex_lock(&d->flock);
	lb_fence_clean_locked(d, e);
	pthread_mutex_unlock(&d->flock);
}

void lb_pfence_synced_device(int dev)
{
	struct lb_pdev *d = lb_pdev_peek(dev);
	struct lb_pstream *e, *next;

	if (!d || lb_pcapture_any() ||
	    !__atomic_load_n(&d->ndirty, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&d->flock);
	for (e = d->dirty; e; e = next) {
		next = e->dnext;
		lb_fence_clean_locked(d, e);
	}
	pthread_mutex_unlock(&d->flock);
}

void lb_pfence_unknown(void)
{
	struct lb_pdev *d = lb_pdev_peek(lb_pool_curdev());

	if (d)
		__atomic_store_n(&d->sync_fallback, 1, __ATOMIC_RELEASE);
}

/* ---- events (flock held) ---- */

static lb_event lb_ev_get(struct lb_pdev *d)
{
	lb_event ev = NULL;

	if (d->nevfree)
		return d->evfree[--d->nevfree];
	if (lb_rt->event_create(&ev, LB_EVENT_DISABLE_TIMING) != LB_ST_OK)
		return NULL;
	return ev;
}

static void lb_ev_put(struct lb_pdev *d, lb_event ev)
{
	if (d->nevfree == d->evcap) {
		int cap = d->evcap ? 2 * d->evcap : 16;
		lb_event *n = realloc(d->evfree, cap * sizeof(*n));

		if (!n) {
			lb_rt->event_destroy(ev);
			return;
		}
		d->evfree = n;
		d->evcap = cap;
	}
	d->evfree[d->nevfree++] = ev;
}

/* Records an event on s into f: 0, 1 when s may not take one now (a
 * capture), -1 when it failed.  own: see lb_may_record. */
static int lb_fence_record(struct lb_pdev *d, struct lb_pfence *f,
			   lb_stream s, int own)
{
	lb_event ev;

	if (!lb_may_record(d, s, own))
		return 1;
	ev = lb_ev_get(d);
	if (!ev)
		return -1;
	if (lb_rt->event_record(ev, s) != LB_ST_OK) {
		lb_ev_put(d, ev);
		return -1;
	}
	f->ev[f->n++] = ev;
	return 0;
}

/*
 * Retires completed fences in order, waiting for those up to upto.  flock
 * held; it is dropped while waiting, so that a thread that needs it (to
 * mark a stream, to free) is not held up by device work.
 */
static void lb_fence_advance(struct lb_pdev *d, uint64_t upto)
{
	struct lb_pfence *f;
	int i;

again:
	while ((f = d->fhead)) {
		while (f->ndone < f->n) {
			lb_event ev = f->ev[f->ndone];
			/* a missing query: done (LB_ST_MISSING) */
			lb_status e = lb_rt->event_query(ev);

			if (e == LB_ST_NOT_READY) {
				if (f->seq > upto)
					return;
				pthread_mutex_unlock(&d->flock);
				e = lb_rt->event_sync(ev);
				pthread_mutex_lock(&d->flock);
				if (e == LB_ST_MISSING)
					return;
				goto again; /* f may be retired meanwhile */
			}
			/* any other error: the event will not tell us more
			 * later; do not hold the blocks forever */
			f->ndone++;
		}
		for (i = 0; i < f->n; i++)
			lb_ev_put(d, f->ev[i]);
		d->fhead = f->next;
		if (!d->fhead)
			d->ftail = NULL;
		__atomic_store_n(&d->done_seq, f->seq, __ATOMIC_RELEASE);
		free(f);
	}
}

/* Waits for the whole device, the answer when events cannot be used. */
static void lb_fence_sync_device(struct lb_pdev *d)
{
	int prev = lb_pool_enter_dev(d->id);

	lb_rt->device_sync();
	lb_pool_restore_dev(prev);
}

/* Appends f (its events recorded) as d's next fence (flock held). */
static uint64_t lb_fence_link(struct lb_pdev *d, struct lb_pfence *f)
{
	uint64_t seq = d->last_seq + 1;

	__atomic_store_n(&d->last_seq, seq, __ATOMIC_RELEASE);
	if (f) {
		f->seq = seq;
		f->next = NULL;
		if (d->ftail)
			d->ftail->next = f;
		else
			d->fhead = f;
		d->ftail = f;
	}
	return seq;
}

/*
 * A fence of one event on s, behind work just put there during a capture
 * (flock held).  0, or -1 when none could be made: the caller marks the
 * work for the next fence instead.
 */
static int lb_fence_one_locked(struct lb_pdev *d, lb_stream s)
{
	struct lb_pfence *f = malloc(sizeof(*f) + sizeof(lb_event));
	int prev;

	if (!f)
		return -1;
	f->n = f->ndone = 0;
	prev = lb_pool_enter_dev(d->id);
	if (lb_fence_record(d, f, s, 1)) {
		lb_pool_restore_dev(prev);
		free(f);
		return -1;
	}
	lb_pool_restore_dev(prev);
	lb_fence_link(d, f);
	return 0;
}

/* A fence over d's dirty streams and the legacy null stream (flock held,
 * d->ndirty nonzero). */
static uint64_t lb_fence_make_locked(struct lb_pdev *d)
{
	struct lb_pstream *e, *next, *keep = NULL;
	struct lb_pfence *f;
	uint64_t seq;
	int prev, failed = 0, nkeep = 0;

	f = malloc(sizeof(*f) + (d->ndirty + 1) * sizeof(lb_event));
	prev = lb_pool_enter_dev(d->id);
	if (f)
		f->n = f->ndone = 0;
	for (e = d->dirty; e; e = next) {
		int r;

		next = e->dnext;
		e->dnext = NULL;
		/* its work is this fence's: no owner (before dirty clears) */
		__atomic_store_n(&e->owner, 0, __ATOMIC_SEQ_CST);
		__atomic_store_n(&e->dirty, 0, __ATOMIC_SEQ_CST);
		if (e == &d->null_entry || e->capturing)
			continue;
		r = f ? lb_fence_record(d, f, (lb_stream)e->key, 0) : -1;
		if (r < 0) {
			failed = 1;
		} else if (r > 0) {
			/* captured as the runtime says (it joined a capture):
			 * its earlier work waits for the next fence, which no
			 * sync may spare it */
			__atomic_store_n(&e->owner, LB_PS_ANY, __ATOMIC_SEQ_CST);
			__atomic_store_n(&e->dirty, 1, __ATOMIC_SEQ_CST);
			e->dnext = keep;
			keep = e;
			nkeep++;
		}
	}
	d->dirty = keep;
	/* The legacy null stream (it orders every blocking stream), unless
	 * a capture in progress forbids it: then null-stream work has fences
	 * of its own (lb_pfence_work). */
	if (!f || lb_fence_record(d, f, NULL, 0) < 0)
		failed = 1;
	seq = lb_fence_link(d, f);
	__atomic_store_n(&d->ndirty, nkeep, __ATOMIC_RELEASE);
	if (failed && !__atomic_load_n(&lb_pcap_active, __ATOMIC_ACQUIRE)) {
		/* The block cannot wait for what we could not record.  Rare
		 * (no memory, no event): wait holding flock, so that no free
		 * relies on this fence before the device is idle.  Not while
		 * a capture is in progress: a device-wide wait would
		 * invalidate it, and the fence waits for what it recorded. */
		lb_rt->device_sync();
		lb_fence_advance(d, UINT64_MAX);
		if (!f)
			__atomic_store_n(&d->done_seq, seq, __ATOMIC_RELEASE);
	}
	lb_pool_restore_dev(prev);
	return seq;
}

/* lb_pfence_for_free() when streams are dirty or one is not tracked. */
uint64_t lb_pfence_for_free_slow(struct lb_pdev *d)
{
	uint64_t seq;

	if (LB_UNLIKELY(__atomic_load_n(&d->sync_fallback, __ATOMIC_ACQUIRE)) &&
	    !__atomic_load_n(&lb_pcap_active, __ATOMIC_ACQUIRE)) {
		/* a stream we could not track: the device-wide wait of the
		 * runtime's own hipFree, then everything before is done */
		__atomic_store_n(&d->sync_fallback, 0, __ATOMIC_RELEASE);
		lb_fence_sync_device(d);
		lb_pfence_poll(d);
		return 0;
	}
	if (!__atomic_load_n(&d->ndirty, __ATOMIC_ACQUIRE))
		return __atomic_load_n(&d->last_seq, __ATOMIC_ACQUIRE);

	pthread_mutex_lock(&d->flock);
	seq = d->ndirty ? lb_fence_make_locked(d) : d->last_seq;
	pthread_mutex_unlock(&d->flock);
	return seq;
}

void lb_pfence_poll(struct lb_pdev *d)
{
	if (pthread_mutex_trylock(&d->flock))
		return; /* someone else is polling or fencing: next time */
	lb_fence_advance(d, 0);
	pthread_mutex_unlock(&d->flock);
}

void lb_pfence_wait(struct lb_pdev *d, uint64_t seq)
{
	pthread_mutex_lock(&d->flock);
	lb_fence_advance(d, seq);
	pthread_mutex_unlock(&d->flock);
}

void lb_pfence_wait_all(struct lb_pdev *d)
{
	pthread_mutex_lock(&d->flock);
	lb_fence_advance(d, UINT64_MAX);
	pthread_mutex_unlock(&d->flock);
}

void lb_pstream_gone(lb_stream s)
{
	struct lb_pstream *e;
	struct lb_pdev *d;

	if (lb_is_null(s))
		return;
	e = lb_pst_find((uintptr_t)s);
	if (!e)
		return;
	d = lb_pdev_peek(e->dev);
	if (d) {
		/* cover its work now: later fences cannot record on it */
		if (__atomic_load_n(&e->dirty, __ATOMIC_SEQ_CST))
			lb_pfence_for_free(d);
		pthread_mutex_lock(&d->flock);
		if (e->dirty) {
			/* re-dirtied meanwhile (a racing launch): unlink */
			struct lb_pstream **pp;

			for (pp = &d->dirty; *pp; pp = &(*pp)->dnext) {
				if (*pp == e) {
					*pp = e->dnext;
					__atomic_store_n(&d->ndirty,
							 d->ndirty - 1,
							 __ATOMIC_RELEASE);
					break;
				}
			}
			__atomic_store_n(&e->dirty, 0, __ATOMIC_SEQ_CST);
		}
		if (e->capturing) {
			e->capturing = 0;
			lb_ncap_add(d, -1);
		}
		pthread_mutex_unlock(&d->flock);
	}
	pthread_mutex_lock(&lb_pst_lock);
	__atomic_store_n(&e->key, LB_PS_TOMB, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&lb_pst_lock);
}

void lb_pstream_capture(lb_stream s, int on)
{
	struct lb_pstream *e;
	struct lb_pdev *d;

	if (!s || s == LB_STREAM_LEGACY)
		return; /* the runtime refuses to capture it */
	if (s == LB_STREAM_PER_THREAD) {
		/* a thread's own per-thread stream: counted on the device's
		 * null entry, whose work is fenced launch by launch then */
		d = lb_pdev_get(lb_pool_curdev());
		if (!d)
			return;
		e = &d->null_entry;
	} else {
		e = lb_pst_find((uintptr_t)s);
		if (!e)
			e = lb_pst_add((uintptr_t)s, lb_pool_curdev());
		if (!e)
			return;
		d = lb_pdev_get(e->dev);
		if (!d)
			return;
	}
	pthread_mutex_lock(&d->flock);
	if (on) {
		/* Before the capture begins: a fence over the device's work
		 * so far, null stream included, while a record there is
		 * still allowed. */
		if (d->ndirty)
			lb_fence_make_locked(d);
		if (e == &d->null_entry || !e->capturing) {
			__atomic_store_n(&e->capturing, e->capturing + 1,
					 __ATOMIC_RELAXED);
			lb_ncap_add(d, 1);
		}
	} else if (e->capturing) {
		__atomic_store_n(&e->capturing, e->capturing - 1,
				 __ATOMIC_RELAXED);
		lb_ncap_add(d, -1);
	}
	pthread_mutex_unlock(&d->flock);
}

void lb_pstream_join(lb_stream s)
{
	struct lb_pstream *e;
	struct lb_pdev *d;

	if (!__atomic_load_n(&lb_pcap_active, __ATOMIC_ACQUIRE) ||
	    lb_is_null(s))
		return;
	e = lb_pst_find((uintptr_t)s);
	if (!e || e->capturing || !__atomic_load_n(&e->dirty, __ATOMIC_SEQ_CST))
		return;
	d = lb_pdev_peek(e->dev);
	if (d && __atomic_load_n(&d->ncapturing, __ATOMIC_ACQUIRE))
		lb_pfence_for_free(d);
}

void lb_pfence_drop(struct lb_pdev *d)
{
	struct lb_pfence *f, *n;
	struct lb_pstream *e;
	unsigned i;

	pthread_mutex_lock(&d->flock);
	/* the reset destroyed the events and streams: forget, no calls */
	for (f = d->fhead; f; f = n) {
		n = f->next;
		free(f);
	}
	d->fhead = d->ftail = NULL;
	d->nevfree = 0;
	for (e = d->dirty; e; e = e->dnext)
		__atomic_store_n(&e->dirty, 0, __ATOMIC_SEQ_CST);
	d->dirty = NULL;
	__atomic_store_n(&d->ndirty, 0, __ATOMIC_RELEASE);
	d->null_entry.capturing = 0;
	lb_ncap_add(d, -d->ncapturing);
	__atomic_store_n(&d->done_seq, d->last_seq, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&d->flock);
	pthread_mutex_lock(&lb_pst_lock);
	for (i = 0; i < LB_PST_SIZE; i++) {
		uintptr_t k = lb_pst[i].key;

		if (k && k != LB_PS_TOMB && lb_pst[i].dev == d->id) {
			lb_pst[i].capturing = 0;
			__atomic_store_n(&lb_pst[i].key, LB_PS_TOMB,
					 __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&lb_pst_lock);
}
