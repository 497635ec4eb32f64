/*
 * stream0_order.c - remap mode: a thread's own legacy order between its
 * null stream and its blocking user streams, kept.
 *
 * On the legacy null stream, work a thread queues on the null stream
 * waits for what it queued before on its blocking user streams, and work
 * it then queues on a blocking user stream waits for its null-stream work
 * (a library's own stream, as rocBLAS and MIOpen are given, beside the
 * program's plain hipMemcpy).  Under remap the null-stream work is on S,
 * and blocking streams do not wait for each other, so both orders would
 * be gone (as in a per-thread build).  This keeps them, for the thread's
 * own work only: where the thread switches from one kind of stream to
 * the other, the stream it goes to waits for the one it leaves
 * (stream0_wait.c: an event recorded and waited for), never one wait per
 * launch.  A LB_STREAM_NON_BLOCKING stream was never ordered with the null
 * stream and is left alone.  A switch that cannot be ordered (the
 * runtime refused, a stream capturing) is a hazard.
 */
#define _GNU_SOURCE
#include "stream0.h"

/* Bumped by every hipStreamDestroy: a handle may name a new stream after. */
unsigned s0_stream_gen;

/* The thread's entry for user stream u, or NULL. */
static int s0_ub_find(struct s0_thread *me, lb_stream u, unsigned gen)
{
	int i;

	for (i = 0; i < S0_UB; i++)
		if (me->ub[i].s == u && me->ub[i].gen == gen)
			return i;
	return -1;
}

/* Sets ub_stream to a stream with work S has not waited for, or NULL. */
static void s0_ub_dirty(struct s0_thread *me)
{
	int i;

	me->ub_stream = NULL;
	for (i = 0; i < S0_UB; i++)
		if (me->ub[i].s && me->ub[i].dirty)
			me->ub_stream = me->ub[i].s;
}

void s0_order_stream_gone(lb_stream s)
{
	struct s0_thread *me = &s0_me;
	int i;

	unsigned old = __atomic_fetch_add(&s0_stream_gen, 1, __ATOMIC_RELAXED);

	/* a user answer may rest on the flag cache */
	lb_fast_void_all();
	/*
	 * hipStreamDestroy waits for the stream's work (clr hipamd/src/
	 * hip_stream.cpp, hipStreamDestroy -> Stream::Destroy, rocm-6.2.0):
	 * nothing on it is left to order.  The thread's entries of other
	 * streams that were current stay current: those streams live.
	 * Other threads' entries go by their generation (s0_order_null).
	 */
	for (i = 0; i < S0_UB; i++)
		if (!s || me->ub[i].s == s)
			me->ub[i].s = NULL;
		else if (me->ub[i].gen == old)
			me->ub[i].gen = old + 1;
	s0_ub_dirty(me);
}

/*
 * An entry of an older generation: a stream was destroyed since, maybe
 * this one.  Does its stream still live?  One query, only after a
 * destroy; a dead handle answers an error (a handle reused by a new
 * stream answers too: one wait more than needed, never one less).
 */
static int s0_ub_alive(lb_stream u)
{
	unsigned flags;

	return lb_rt->stream_flags(u, &flags) == LB_ST_OK;
}

/*
 * Is s a blocking stream (not LB_STREAM_NON_BLOCKING)?  Cached per thread;
 * a stream whose flags cannot be read counts as not blocking (claim
 * nothing), cached too, so that it costs no runtime call per submission.
 */
static int s0_blocking(struct s0_thread *me, lb_stream s)
{
	unsigned gen = __atomic_load_n(&s0_stream_gen, __ATOMIC_RELAXED);
	unsigned flags = LB_STREAM_NON_BLOCKING, i = S0_FC_SLOT(s);

	if (s0_fc_hit(me, i, s, gen))
		return me->fc[i].blocking;
	if (lb_rt->stream_flags(s, &flags) != LB_ST_OK)
		flags = LB_STREAM_NON_BLOCKING;
	me->fc[i].s = s;
	me->fc[i].gen = gen;
	me->fc[i].blocking = !(flags & LB_STREAM_NON_BLOCKING);
	return me->fc[i].blocking;
}

/* Makes waiter wait for src on dev; counts and marks the outcome. */
static void s0_order_wait(struct lb_call *c, lb_stream src,
			  lb_stream waiter, int dev)
{
	struct s0_thread *me = &s0_me;

	if (!s0_wait_for(src, waiter, dev)) {
		S0_COUNT(me->order_ord, 1);
		c->scratch[LB_NOTE_HAZARD] |= LB_NOTE_S0_ORDERED;
		return;
	}
	S0_COUNT(me->order_hz, 1);
	c->scratch[LB_NOTE_HAZARD] |= LB_NOTE_S0_HAZARD;
	s0_first_hazard(c->api);
}

/* Is anything capturing that a wait of ours could join or break? */
static int s0_order_capturing(const struct s0_thread *me, int d)
{
	return __atomic_load_n(&s0_ncap, __ATOMIC_RELAXED) ||
	       S0_LOAD(me->cap[d]);
}

void s0_order_user(struct lb_call *c)
{
	struct s0_thread *me = &s0_me;
	lb_stream u = *c->stream, s;
	unsigned gen = __atomic_load_n(&s0_stream_gen, __ATOMIC_RELAXED);
	int d = me->dev, i;
	uint64_t sub;

	if (u == S0_LEGACY_HANDLE || !s0_blocking(me, u))
		return;
	/* a thread's first calls may be on user streams */
	if (d < 0 && lb_rt->device_get(&d) == LB_ST_OK)
		s0_set_device(d);
	if (d < 0 || d >= S0_MAXDEV)
		return;
	i = s0_ub_find(me, u, gen);
	if (i < 0) {
		/* a free entry, else the first: S waits for it now */
		for (i = 0; i < S0_UB; i++)
			if (!me->ub[i].s || me->ub[i].gen != gen ||
			    !me->ub[i].dirty)
				break;
		if (i == S0_UB) {
			i = 0;
			s = S0_LOAD(me->s[me->ub[0].dev]);
			if (s && !s0_order_capturing(me, me->ub[0].dev))
				s0_order_wait(c, me->ub[0].s, s,
					      me->ub[0].dev);
		}
		me->ub[i].s = u;
		me->ub[i].gen = gen;
		me->ub[i].dev = d;
		me->ub[i].dirty = 0;
		me->ub[i].waited = 0;
	}
	/* legacy: this work waits for the thread's null-stream work */
	s = S0_LOAD(me->s[d]);
	sub = S0_LOAD(me->sub[d]);
	if (s && sub > me->ub[i].waited && sub != S0_LOAD(me->idle[d]) &&
	    !s0_order_capturing(me, d))
		s0_order_wait(c, s, u, d);
	me->ub[i].waited = sub;
	me->ub[i].dirty = 1;
	me->ub_last_null = 0;
	me->ub_stream = u;
}

void s0_order_null(struct lb_call *c, lb_stream s)
{
	struct s0_thread *me = &s0_me;
	unsigned gen = __atomic_load_n(&s0_stream_gen, __ATOMIC_RELAXED);
	int d = me->dev, i;

	me->ub_last_null = 1;
	if (!me->ub_stream || d < 0 || d >= S0_MAXDEV ||
	    s0_order_capturing(me, d))
		return;
	/* legacy: this work waits for the thread's user-stream work */
	for (i = 0; i < S0_UB; i++) {
		if (!me->ub[i].s || !me->ub[i].dirty || me->ub[i].dev != d)
			continue;
		if (me->ub[i].gen == gen || s0_ub_alive(me->ub[i].s))
			s0_order_wait(c, me->ub[i].s, s, d);
		me->ub[i].dirty = 0;
	}
	s0_ub_dirty(me);
}

void s0_order_synced(lb_stream s)
{
	struct s0_thread *me = &s0_me;
	int i;

	for (i = 0; i < S0_UB; i++)
		if (!s || me->ub[i].s == s)
			me->ub[i].dirty = 0;
	s0_ub_dirty(me);
}
