/*
 * stream0_thread.c - the per-thread streams of stream0 and what needs to
 * see all of them: their creation, the registry of threads, the hazard
 * count, and their end at thread exit, device reset and fork.
 *
 * The record of a thread lives in its own TLS (s0_me) so that the hot path
 * is one thread-local load.  A thread enters the registry when it makes its
 * first S and leaves it in thread_exit, before its TLS goes away; others
 * only touch a record while holding s0_lock, so a record they see is alive.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "kreg.h"
#include "lbshim/trace_format.h"
#include "stream0.h"
#include "stream0_hazard.h"

LB_TLS struct s0_thread s0_me = { .dev = -1 };

static pthread_mutex_t s0_lock = PTHREAD_MUTEX_INITIALIZER;
static struct s0_thread *s0_threads; /* under s0_lock */
static int s0_nthreads;		     /* registered; atomic reads */
static uint64_t s0_next_id;	     /* under s0_lock */
/* Totals of threads that have left, for the report at exit. */
static uint64_t s0_gone_syncs, s0_gone_hazards, s0_gone_threads,
	s0_gone_order, s0_gone_touch, s0_gone_oord, s0_gone_tord;
static int s0_warned_dev, s0_warned_make;
/*
 * Per device: hipDeviceReset calls seen (s0_device_reset, written under
 * s0_lock).  A stream made while one ran may be gone with the device.
 */
static uint64_t s0_resets[S0_MAXDEV];


/* Links the calling thread into the registry.  Under s0_lock. */
static void s0_register(struct s0_thread *me)
{
	if (me->registered)
		return;
	me->registered = 1;
	me->id = ++s0_next_id;
	me->tid = lb_tid();
	me->next = s0_threads;
	s0_threads = me;
	S0_STORE(s0_nthreads, s0_nthreads + 1);
}

void s0_thread_join(void)
{
	struct s0_thread *me = &s0_me;

	if (me->registered)
		return;
	pthread_mutex_lock(&s0_lock);
	s0_register(me);
	pthread_mutex_unlock(&s0_lock);
}

/* Unlinks the calling thread.  Under s0_lock. */
static void s0_unregister(struct s0_thread *me)
{
	struct s0_thread **p;

	for (p = &s0_threads; *p; p = &(*p)->next) {
		if (*p == me) {
			*p = me->next;
			S0_STORE(s0_nthreads, s0_nthreads - 1);
			break;
		}
	}
	me->next = NULL;
	me->registered = 0;
}

/* Makes S for the current device (slow path of s0_stream). */
static lb_stream s0_make(struct s0_thread *me)
{
	lb_stream s = NULL;
	lb_status r;
	uint64_t resets;
	int dev, first, tries;

	if (me->dev < 0) {
		if (lb_rt->device_get(&dev))
			return NULL;
		me->dev = dev;
	}
	dev = me->dev;
	if (dev >= S0_MAXDEV) {
		if (!__atomic_exchange_n(&s0_warned_dev, 1, __ATOMIC_RELAXED))
			lb_log(LB_LOG_WARN,
			       "stream0: device %d is beyond the %d this "
			       "policy handles; its null stream is left as is",
			       dev, S0_MAXDEV);
		return NULL;
	}
	s = S0_LOAD(me->s[dev]);
	if (s) {
		S0_STORE(me->cur, s);
		return s;
	}
	if (me->failed[dev] || !lb_rt->has(LB_RTS_STREAM_CREATE))
		return NULL;
	for (tries = 0;; tries++) {
		resets = __atomic_load_n(&s0_resets[dev], __ATOMIC_ACQUIRE);
		/* HIP's own per-thread stream: blocking wrt the legacy null
		 * stream. */
		r = lb_rt->stream_create(&s, LB_STREAM_DEFAULT);
		if (r != LB_ST_OK || !s) {
			me->failed[dev] = 1;
			if (!__atomic_exchange_n(&s0_warned_make, 1,
						 __ATOMIC_RELAXED))
				lb_log(LB_LOG_WARN,
				       "stream0: cannot create a per-thread "
				       "stream on device %d (error %d); this "
				       "thread's null stream is left as is",
				       dev, (int)r);
			return NULL;
		}
		pthread_mutex_lock(&s0_lock);
		if (s0_resets[dev] == resets)
			break;
		/*
		 * Another thread reset the device while the stream was being
		 * made: the runtime may have destroyed it with the device
		 * (clr's hipDeviceReset calls Device::Reset, which calls
		 * destroyAllStreams: hipamd/src/hip_device.cpp, rocm-5.7.0
		 * and rocm-6.2.0), and destroying a destroyed stream is no
		 * better than keeping one: it is left (at worst a live stream
		 * stays unused) and another made.
		 */
		pthread_mutex_unlock(&s0_lock);
		lb_log(LB_LOG_DEBUG,
		       "stream0: device %d was reset while thread %d made its "
		       "stream %p; making another", dev, lb_tid(), (void *)s);
		s = NULL;
		if (tries == 2)
			return NULL; /* resets in a loop: the legacy stream */
	}
	first = !me->registered;
	s0_register(me);
	S0_STORE(me->s[dev], s);
	me->sub[dev] = me->idle[dev] = 0;
	pthread_mutex_unlock(&s0_lock);
	S0_STORE(me->cur, s);
	if (first)
		s0_select_remapped();
	lb_log(LB_LOG_DEBUG, "stream0: thread %d device %d: stream %p",
	       lb_tid(), dev, (void *)s);
	return s;
}

lb_stream s0_stream(void)
{
	struct s0_thread *me = &s0_me;
	lb_stream s;

	if (LB_UNLIKELY(me->exited))
		return NULL;
	s = S0_LOAD(me->cur);
	/* Decided once, at the thread's first null-stream call. */
	if (LB_UNLIKELY(me->sel != 1)) {
		if (me->sel == 2)
			return NULL;
		me->sel = s0_select_thread() ? 1 : 2;
		if (me->sel == 2) {
			lb_log(LB_LOG_DEBUG,
			       "stream0: thread %d stays on the legacy null "
			       "stream (its name is excluded)", lb_tid());
			return NULL;
		}
	}
	/*
	 * While a user stream captures, null-stream work goes to the legacy
	 * null stream as without the policy, unless this thread's own S is
	 * capturing (then its work belongs in that capture).
	 */
	if (S0_LOAD(s0_ncap) &&
	    !(me->dev >= 0 && me->dev < S0_MAXDEV && S0_LOAD(me->cap[me->dev])))
		return NULL;
	return s ? s : s0_make(me);
}

void s0_set_device(int dev)
{
	struct s0_thread *me = &s0_me;

	if (dev == me->dev)
		return;
	me->dev = dev;
	S0_STORE(me->cur, dev >= 0 && dev < S0_MAXDEV ? S0_LOAD(me->s[dev])
						       : NULL);
}

void s0_idle(void)
{
	struct s0_thread *me = &s0_me;

	if (me->dev >= 0 && me->dev < S0_MAXDEV) {
		S0_STORE(me->idle[me->dev], me->sub[me->dev]);
		if (s0_hz_active)
			s0_hz_idle(me->dev, me->sub[me->dev]);
	}
}

void s0_own_capture(int on)
{
	struct s0_thread *me = &s0_me;

	if (me->dev < 0 || me->dev >= S0_MAXDEV)
		return;
	/*
	 * Under the lock: a hazard check holding it never queries a stream
	 * that is capturing (a query could invalidate the capture).
	 */
	pthread_mutex_lock(&s0_lock);
	S0_STORE(me->cap[me->dev], (uint8_t)!!on);
	pthread_mutex_unlock(&s0_lock);
}

/* ---- hazards ---- */

/* Is t's S on dev busy?  -1 unknown (none, capturing), 0 idle, 1 busy. */
static int s0_busy(struct s0_thread *t, int dev, uint64_t *sub)
{
	lb_stream s = S0_LOAD(t->s[dev]);
	lb_status r;

	if (!s || S0_LOAD(t->cap[dev]))
		return -1;
	*sub = S0_LOAD(t->sub[dev]);
	if (*sub == S0_LOAD(t->idle[dev]))
		return 0;
	r = lb_rt->stream_query(s);
	if (r == LB_ST_OK) {
		/* *sub was read before the query: all of it is done */
		S0_STORE(t->idle[dev], *sub);
		return 0;
	}
	return r == LB_ST_NOT_READY ? 1 : -1;
}

void s0_hz_begin(void)
{
	struct s0_thread *me = &s0_me, *t;
	uint64_t sub;
	int dev = me->dev;

	me->hz_on = 1;
	me->hz_over = 0;
	me->npend = 0;
	me->hz_dev = dev;
	S0_STORE(me->syncs, me->syncs + 1);
	if (S0_LOAD(s0_nthreads) < 2 || !lb_rt->has(LB_RTS_STREAM_QUERY) ||
	    dev < 0 ||
	    dev >= S0_MAXDEV)
		return;
	pthread_mutex_lock(&s0_lock);
	for (t = s0_threads; t; t = t->next) {
		if (t == me || s0_busy(t, dev, &sub) != 1)
			continue;
		if (me->npend == S0_MAXPEND) {
			me->hz_over = 1;
			break;
		}
		me->pend[me->npend].id = t->id;
		me->pend[me->npend].sub = sub;
		me->npend++;
	}
	pthread_mutex_unlock(&s0_lock);
}

int s0_hz_end(int counts)
{
	struct s0_thread *me = &s0_me, *t;
	uint64_t sub;
	int i, hz = 0;

	if (!me->hz_on)
		return 0;
	me->hz_on = 0;
	if (!counts) {
		S0_STORE(me->syncs, me->syncs - 1);
		return 0;
	}
	if (!me->npend)
		return 0;
	hz = me->hz_over;
	pthread_mutex_lock(&s0_lock);
	for (t = s0_threads; t && !hz; t = t->next) {
		for (i = 0; i < me->npend; i++) {
			if (me->pend[i].id != t->id)
				continue;
			/*
			 * Still busy: with in-order streams, the work it had
			 * at the sync's start is pending unless it has had
			 * more since (then the count may be one too high).
			 */
			if (s0_busy(t, me->hz_dev, &sub) == 1)
				hz = 1;
			break;
		}
	}
	pthread_mutex_unlock(&s0_lock);
	if (hz)
		S0_STORE(me->hazards, me->hazards + 1);
	return hz;
}

/* ---- the end of streams ---- */

/*
 * The thread's counts as a trace record (if the trace is on): stream =
 * tid, stream_used = dependencies ordered, a[0] = null-stream syncs,
 * a[1] = hazards (dependencies that could not be ordered), a[2] = syncs
 * narrowed (include/lbshim/trace_format.h).
 */
static void s0_stat_thread(const struct s0_thread *t)
{
	uint64_t v[5] = { (uint64_t)t->tid,
			  S0_LOAD(t->touch_ord) + S0_LOAD(t->order_ord),
			  S0_LOAD(t->syncs),
			  S0_LOAD(t->order_hz) + S0_LOAD(t->touch_hz),
			  S0_LOAD(t->hazards) };

	lb_stat(LB_REC_STREAM0, v);
}

static void s0_log_thread(const struct s0_thread *t)
{
	lb_log(LB_LOG_INFO,
	       "stream0: thread %d: %llu of %llu null-stream syncs returned "
	       "while other threads' earlier null-stream work was pending; "
	       "%llu dependencies on other threads' pending work ordered, "
	       "%llu not; %llu switches between the null stream and a "
	       "blocking stream ordered, %llu not",
	       t->tid, (unsigned long long)S0_LOAD(t->hazards),
	       (unsigned long long)S0_LOAD(t->syncs),
	       (unsigned long long)S0_LOAD(t->touch_ord),
	       (unsigned long long)S0_LOAD(t->touch_hz),
	       (unsigned long long)S0_LOAD(t->order_ord),
	       (unsigned long long)S0_LOAD(t->order_hz));
}

/* The first call that counted a hazard, for the exit report. */
static int s0_first_api = -1;

void s0_first_hazard(unsigned api)
{
	int none = -1;

	__atomic_compare_exchange_n(&s0_first_api, &none, (int)api, 0,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

void s0_thread_gone(void)
{
	struct s0_thread *me = &s0_me;
	lb_stream s;
	int saved = errno, d;

	me->exited = 1;
	lb_fast_void();
	s0_sy_thread_gone();
	if (!me->registered) {
		s0_hz_thread_gone();
		s0_wait_thread_gone();
		errno = saved;
		return;
	}
	S0_STORE(me->cur, NULL);
	/*
	 * The thread's work finishes while it is still registered, so that a
	 * sync of another thread meanwhile sees it pending and counts a
	 * hazard; then others forget its streams, then they are destroyed.
	 */
	for (d = 0; d < S0_MAXDEV; d++)
		if (me->s[d])
			lb_rt->stream_sync(me->s[d]);
	s0_hz_thread_gone(); /* its work is done: no touch of it pending */
	pthread_mutex_lock(&s0_lock);
	s0_unregister(me);
	s0_gone_syncs += me->syncs;
	s0_gone_hazards += me->hazards;
	s0_gone_order += me->order_hz;
	s0_gone_touch += me->touch_hz;
	s0_gone_oord += me->order_ord;
	s0_gone_tord += me->touch_ord;
	s0_gone_threads++;
	pthread_mutex_unlock(&s0_lock);
	s0_log_thread(me);
	s0_stat_thread(me);
	s0_wait_thread_gone();
	for (d = 0; d < S0_MAXDEV; d++) {
		s = me->s[d];
		if (!s)
			continue;
		me->s[d] = NULL;
		lb_stream_gone(s);
		lb_rt->stream_destroy(s);
	}
	errno = saved;
}

/* " (kernel NAME)" for the first hazard's kernel, as lbtrace names it. */
static void s0_kernel_of(int first, char *out, size_t n)
{
	const struct lb_kplan *p;
	const void *kfn;
	char readable[200];
	uint64_t ordered;
	int kapi, module;

	out[0] = 0;
	s0_hz_total(&ordered, &kfn, &module, &kapi);
	if (!kfn || kapi != first)
		return;
	p = lb_kreg_plan(kfn, module);
	if (p && p->name)
		snprintf(out, n, " (kernel %s)",
			 lb_demangle(p->name, readable, sizeof(readable)));
	else
		snprintf(out, n, " (kernel %p)", kfn);
}

void s0_report(void)
{
	struct s0_thread *t;
	uint64_t syncs, narrowed, n, order, touch, oord, tord, total;
	char kernel[240];
	int first;

	pthread_mutex_lock(&s0_lock);
	syncs = s0_gone_syncs;
	narrowed = s0_gone_hazards;
	order = s0_gone_order;
	touch = s0_gone_touch;
	oord = s0_gone_oord;
	tord = s0_gone_tord;
	n = s0_gone_threads;
	for (t = s0_threads; t; t = t->next) {
		s0_log_thread(t);
		s0_stat_thread(t);
		syncs += S0_LOAD(t->syncs);
		narrowed += S0_LOAD(t->hazards);
		order += S0_LOAD(t->order_hz);
		touch += S0_LOAD(t->touch_hz);
		oord += S0_LOAD(t->order_ord);
		tord += S0_LOAD(t->touch_ord);
		n++;
	}
	pthread_mutex_unlock(&s0_lock);
	lb_log(LB_LOG_INFO,
	       "stream0: %llu threads, %llu of %llu null-stream syncs returned "
	       "while other threads' earlier null-stream work was pending",
	       (unsigned long long)n, (unsigned long long)narrowed,
	       (unsigned long long)syncs);
	/* what changed, as information: nothing went wrong there */
	if (tord || oord || narrowed)
		lb_log(LB_LOG_WARN,
		       "stream0: %llu dependencies on other threads' pending "
		       "work ordered, %llu switches between the null stream "
		       "and a blocking stream ordered, %llu of %llu "
		       "null-stream syncs no longer waited for other threads' "
		       "work (that matters only to a thread that reads, "
		       "through host-mapped memory or a host flag, what "
		       "another thread's pending kernels write)",
		       (unsigned long long)tord, (unsigned long long)oord,
		       (unsigned long long)narrowed,
		       (unsigned long long)syncs);
	total = order + touch;
	if (!total)
		return;
	first = __atomic_load_n(&s0_first_api, __ATOMIC_RELAXED);
	s0_kernel_of(first, kernel, sizeof(kernel));
	lb_log(LB_LOG_WARN,
	       "stream0: %llu hazards: %llu launches, copies or sets touched "
	       "memory that other threads' pending work touched and could "
	       "not be ordered after it, %llu switches between the null "
	       "stream and a blocking stream could not keep the legacy "
	       "order; first in %s%s (see lbshim(7), \"The launch-level "
	       "check\")",
	       (unsigned long long)total, (unsigned long long)touch,
	       (unsigned long long)order,
	       first >= 0 && first < LB_API_COUNT ? lb_api_info[first].name
						  : "?",
	       kernel);
}

void s0_device_reset(int dev)
{
	struct s0_thread *t;
	lb_stream s;

	if (dev < 0 || dev >= S0_MAXDEV)
		return;
	pthread_mutex_lock(&s0_lock);
	__atomic_store_n(&s0_resets[dev], s0_resets[dev] + 1, __ATOMIC_RELEASE);
	for (t = s0_threads; t; t = t->next) {
		s = S0_LOAD(t->s[dev]);
		t->failed[dev] = 0;
		if (!s)
			continue;
		S0_STORE(t->s[dev], NULL);
		S0_STORE(t->cap[dev], 0);
		if (S0_LOAD(t->cur) == s)
			S0_STORE(t->cur, NULL);
		/* The runtime destroyed it with the device: only forget. */
		lb_stream_gone(s);
	}
	pthread_mutex_unlock(&s0_lock);
	/* every thread's null answer may name a stream gone with it */
	lb_fast_void_all();
	s0_me.failed[dev] = 0;
}

void s0_thread_fork_prepare(void)
{
	pthread_mutex_lock(&s0_lock);
}

void s0_thread_fork_parent(void)
{
	pthread_mutex_unlock(&s0_lock);
}

void s0_thread_fork_child(void)
{
	struct s0_thread *me = &s0_me;

	/* The parent's streams are not the child's to use or destroy. */
	pthread_mutex_init(&s0_lock, NULL);
	s0_threads = NULL;
	s0_nthreads = 0;
	s0_gone_syncs = s0_gone_hazards = s0_gone_threads = s0_gone_order = 0;
	s0_gone_touch = s0_gone_oord = s0_gone_tord = 0;
	me->registered = 0;
	me->next = NULL;
	me->cur = NULL;
	lb_fast_void_all();
	me->hz_on = 0;
	me->syncs = me->hazards = me->touch_hz = 0;
	me->order_hz = me->order_ord = me->touch_ord = 0;
	s0_wait_fork_child();
	s0_select_fork_child();
	memset(me->s, 0, sizeof(me->s));
	memset(me->cap, 0, sizeof(me->cap));
	memset(me->failed, 0, sizeof(me->failed));
	memset(me->sub, 0, sizeof(me->sub));
	memset(me->idle, 0, sizeof(me->idle));
}
