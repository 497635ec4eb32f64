/*
 * stream0_syncs.c - LBSHIM_STREAM0_MODE=syncs: the device's order is left
 * exactly as the legacy null stream makes it; only a thread's waits on the
 * null stream are narrowed to its own work.
 *
 * Every null-stream submission still goes to the legacy null stream, in
 * the order the threads made them.  Per device the policy remembers which
 * thread submitted last (the owner).  When another thread submits, the
 * submission that changes the owner first records an event on the null
 * stream for the previous owner: it marks the end of that thread's run of
 * work.  A thread's sync of the null stream then waits for that event
 * only, not for what other threads queued after it; while a thread is
 * still the owner nothing was queued after its work, so its sync is the
 * runtime's own.  So an event costs one record where the submitting
 * thread changes, never one per launch.
 *
 * A submission and a change of owner must not interleave, or the event
 * could land before the work it is meant to follow.  A submitter marks
 * itself in flight, then checks that it still owns the device (Dekker's
 * pattern, with sequentially consistent accesses); a thread taking over
 * waits for the previous owner's submission in flight to return before it
 * records the event.  Synchronous calls are not held in flight: they
 * return only when their own work is done.
 *
 * The hazard count keeps to bookkeeping: submission numbers per device,
 * the number known complete (raised by every sync that returns), and one
 * query of the null stream, only when a narrowed sync returns while work
 * submitted before it began is not known complete.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include "stream0.h"

struct s0_dev {
	pthread_mutex_t lock;
	struct s0_thread *owner; /* last submitter; atomic */
	uint64_t seq;		 /* submissions to the null stream; atomic */
	uint64_t done;		 /* of which known complete; atomic */
	uint64_t epoch;		 /* device resets; events of older ones gone */
};

static struct s0_dev s0_devs[S0_MAXDEV];
static int s0_sy_warned;

#define SY_LOAD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define SY_STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

void s0_sy_init(void)
{
	int d;

	for (d = 0; d < S0_MAXDEV; d++)
		pthread_mutex_init(&s0_devs[d].lock, NULL);
}

/* The calling thread's current device, or -1 when out of range. */
static int s0_sy_dev(void)
{
	struct s0_thread *me = &s0_me;
	int dev;

	if (me->dev < 0) {
		if (lb_rt->device_get(&dev) ||
		    dev < 0)
			return -1;
		me->dev = dev;
	}
	return me->dev < S0_MAXDEV ? me->dev : -1;
}

static void s0_sy_raise(uint64_t *done, uint64_t v)
{
	uint64_t cur = __atomic_load_n(done, __ATOMIC_RELAXED);

	while (cur < v && !__atomic_compare_exchange_n(
				  done, &cur, v, 1, __ATOMIC_RELAXED,
				  __ATOMIC_RELAXED))
		;
}

/*
 * Closes prev's run on device d: an event on the null stream after its
 * last submission.  Under the device's lock, after prev's submission in
 * flight (if any) has returned.  On failure prev's syncs fall back to the
 * runtime's full wait.
 */
static void s0_sy_close(struct s0_thread *prev, int d)
{
	struct s0_dev *dv = &s0_devs[d];
	lb_event ev = prev->sy_ev[d];
	lb_status r;

	SY_STORE(prev->sy_closed[d], 0);
	/* During a capture an event on the null stream could break it. */
	if (__atomic_load_n(&s0_ncap, __ATOMIC_RELAXED) ||
	    !lb_rt->has(LB_RTS_EVENT_RECORD) ||
	    !lb_rt->has(LB_RTS_EVENT_CREATE))
		return;
	if (ev && prev->sy_epoch[d] != dv->epoch)
		ev = NULL; /* destroyed with the device */
	if (!ev) {
		r = lb_rt->event_create(&ev, LB_EVENT_DISABLE_TIMING);
		if (r != LB_ST_OK || !ev) {
			if (!__atomic_exchange_n(&s0_sy_warned, 1,
						 __ATOMIC_RELAXED))
				lb_log(LB_LOG_WARN,
				       "stream0: cannot create an event (error "
				       "%d); syncs of the null stream wait for "
				       "all of it", (int)r);
			prev->sy_ev[d] = NULL;
			return;
		}
		prev->sy_ev[d] = ev;
		prev->sy_epoch[d] = dv->epoch;
	}
	if (lb_rt->event_record(ev, LB_STREAM_NULL) != LB_ST_OK)
		return;
	prev->sy_closed_seq[d] = prev->sy_last[d];
	SY_STORE(prev->sy_closed[d], 1);
}

/* The calling thread becomes the owner of device d. */
static void s0_sy_take(struct s0_thread *me, int d)
{
	struct s0_dev *dv = &s0_devs[d];
	struct s0_thread *prev;

	pthread_mutex_lock(&dv->lock);
	prev = dv->owner;
	__atomic_store_n(&dv->owner, me, __ATOMIC_SEQ_CST);
	if (prev && prev != me) {
		/* See the file's comment: prev may be inside a submission. */
		while (__atomic_load_n(&prev->sy_inflight, __ATOMIC_SEQ_CST) ==
		       d + 1)
			sched_yield();
		s0_sy_close(prev, d);
	}
	SY_STORE(me->sy_closed[d], 0);
	pthread_mutex_unlock(&dv->lock);
}

int s0_sy_submit(int sync)
{
	struct s0_thread *me = &s0_me;
	int d = s0_sy_dev();

	if (d < 0 || me->exited)
		return -1;
	if (LB_UNLIKELY(!me->registered))
		s0_thread_join();
	for (;;) {
		/*
		 * Both this store and the owner's load below are seq_cst:
		 * C11's single total order keeps them in this order, against
		 * the taker's store of the owner and load of sy_inflight.
		 */
		if (!sync)
			__atomic_store_n(&me->sy_inflight, d + 1,
					 __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&s0_devs[d].owner, __ATOMIC_SEQ_CST) == me)
			break;
		__atomic_store_n(&me->sy_inflight, 0, __ATOMIC_SEQ_CST);
		s0_sy_take(me, d);
		if (sync)
			break;
	}
	me->sy_last[d] = __atomic_add_fetch(&s0_devs[d].seq, 1,
					    __ATOMIC_RELAXED);
	return d;
}

void s0_sy_submitted(int d, int sync, lb_status r)
{
	struct s0_thread *me = &s0_me;

	__atomic_store_n(&me->sy_inflight, 0, __ATOMIC_SEQ_CST);
	/* A synchronous call that succeeded ran everything before it. */
	if (sync && r == LB_ST_OK && d >= 0)
		s0_sy_raise(&s0_devs[d].done, me->sy_last[d]);
}

/*
 * After a narrowed wait returned: was work that others submitted before it
 * began still pending?  Returns 1 for a hazard (counted by the caller).
 */
static int s0_sy_hazard(int d, uint64_t start)
{
	struct s0_dev *dv = &s0_devs[d];
	lb_status r;

	if (start <= __atomic_load_n(&dv->done, __ATOMIC_RELAXED))
		return 0;
	if (!lb_rt->has(LB_RTS_STREAM_QUERY) ||
	    __atomic_load_n(&s0_ncap, __ATOMIC_RELAXED))
		return 0;
	r = lb_rt->stream_query(LB_STREAM_NULL);
	if (r == LB_ST_OK) {
		s0_sy_raise(&dv->done, start);
		return 0;
	}
	/* In order: pending work may be only what came after the wait. */
	return r == LB_ST_NOT_READY;
}

int s0_sy_wait(struct lb_call *c, int query)
{
	struct s0_thread *me = &s0_me;
	struct s0_dev *dv;
	lb_event ev = NULL;
	uint64_t start, upto;
	lb_status r = LB_ST_OK;
	int d = s0_sy_dev(), hz;

	if (d < 0 || me->exited)
		return 0;
	dv = &s0_devs[d];
	start = __atomic_load_n(&dv->seq, __ATOMIC_RELAXED);
	pthread_mutex_lock(&dv->lock);
	if (dv->owner == me) {
		/* Nothing was queued after this thread's work. */
		pthread_mutex_unlock(&dv->lock);
		return 0;
	}
	upto = me->sy_last[d];
	if (upto && me->sy_epoch[d] == dv->epoch) {
		if (!SY_LOAD(me->sy_closed[d])) {
			pthread_mutex_unlock(&dv->lock);
			return 0; /* no event: the runtime's full wait */
		}
		ev = me->sy_ev[d];
		upto = me->sy_closed_seq[d];
	}
	pthread_mutex_unlock(&dv->lock);
	/*
	 * A thread that never queued null-stream work joins the exit
	 * report's list here, else its syncs (and their hazards: a sync that
	 * returns at once while others' work is pending) would be counted
	 * into a record nobody reads.
	 */
	if (LB_UNLIKELY(!me->registered))
		s0_thread_join();
	S0_COUNT(me->syncs, 1);
	if (ev)
		r = query ? lb_rt->event_query(ev) : lb_rt->event_sync(ev);
	if (r == LB_ST_OK) {
		s0_sy_raise(&dv->done, upto);
		hz = s0_sy_hazard(d, start);
		if (hz) { /* narrowed: information (lbshim(7)) */
			S0_COUNT(me->hazards, 1);
			c->scratch[LB_NOTE_HAZARD] |= LB_NOTE_S0_NARROWED;
		}
	} else if (query && r == LB_ST_NOT_READY) {
		S0_COUNT(me->syncs, -1); /* claimed nothing */
	}
	c->ret = r;
	return 1;
}

uint64_t s0_sy_seq(int d)
{
	return d >= 0 && d < S0_MAXDEV
		       ? __atomic_load_n(&s0_devs[d].seq, __ATOMIC_RELAXED)
		       : 0;
}

void s0_sy_full_waited(int d, uint64_t start)
{
	if (d >= 0 && d < S0_MAXDEV)
		s0_sy_raise(&s0_devs[d].done, start);
}

void s0_sy_thread_gone(void)
{
	struct s0_thread *me = &s0_me;
	int d;

	for (d = 0; d < S0_MAXDEV; d++) {
		struct s0_dev *dv = &s0_devs[d];

		if (!me->sy_ev[d] && !me->sy_last[d])
			continue;
		pthread_mutex_lock(&dv->lock);
		if (dv->owner == me)
			__atomic_store_n(&dv->owner, NULL, __ATOMIC_SEQ_CST);
		pthread_mutex_unlock(&dv->lock);
		if (me->sy_ev[d] && me->sy_epoch[d] == dv->epoch)
			lb_rt->event_destroy(me->sy_ev[d]);
		me->sy_ev[d] = NULL;
	}
}

void s0_sy_device_reset(int dev)
{
	struct s0_dev *dv;

	if (dev < 0 || dev >= S0_MAXDEV)
		return;
	dv = &s0_devs[dev];
	pthread_mutex_lock(&dv->lock);
	dv->epoch++;
	__atomic_store_n(&dv->owner, NULL, __ATOMIC_SEQ_CST);
	/* Everything queued before a reset is gone: nothing is pending. */
	s0_sy_raise(&dv->done, __atomic_load_n(&dv->seq, __ATOMIC_RELAXED));
	pthread_mutex_unlock(&dv->lock);
}

void s0_sy_fork_prepare(void)
{
	int d;

	for (d = 0; d < S0_MAXDEV; d++)
		pthread_mutex_lock(&s0_devs[d].lock);
}

void s0_sy_fork_parent(void)
{
	int d;

	for (d = S0_MAXDEV - 1; d >= 0; d--)
		pthread_mutex_unlock(&s0_devs[d].lock);
}

void s0_sy_fork_child(void)
{
	struct s0_thread *me = &s0_me;
	int d;

	/* The parent's events and order are not the child's. */
	for (d = 0; d < S0_MAXDEV; d++) {
		pthread_mutex_init(&s0_devs[d].lock, NULL);
		s0_devs[d].owner = NULL;
		s0_devs[d].seq = s0_devs[d].done = 0;
		me->sy_ev[d] = NULL;
		me->sy_last[d] = 0;
		me->sy_closed[d] = 0;
	}
	me->sy_inflight = 0;
}
