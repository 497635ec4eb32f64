/*
 * stream0_order.c - remap mode: the ordering a thread loses between its
 * null stream and its own blocking user streams, counted.
 *
 * On the legacy null stream, work a thread queues on the null stream
 * waits for what it queued before on its blocking user streams, and work
 * it then queues on a blocking user stream waits for its null-stream work.
 * Under remap the null-stream work is on S, and blocking streams do not
 * wait for each other, so both orders are gone (as in a per-thread build).
 * The count looks only where the thread switches from one kind of stream
 * to the other: a query of the stream it leaves (microseconds on a GPU), never
 * one per launch; a switch whose earlier work is still pending is a
 * hazard.
 */
#define _GNU_SOURCE
#include "stream0.h"

/* Bumped by every hipStreamDestroy: a handle may name a new stream after. */
unsigned s0_stream_gen;

void s0_order_stream_gone(void)
{
	__atomic_add_fetch(&s0_stream_gen, 1, __ATOMIC_RELAXED);
	/* a user answer may rest on the flag cache */
	lb_fast_void_all();
}

/*
 * Is s a blocking stream (not hipStreamNonBlocking)?  Cached per thread;
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

/* Is s still running work?  One query. */
static int s0_pending(lb_stream s)
{
	return lb_rt->stream_query(s) == LB_ST_NOT_READY;
}

static void s0_order_hazard(struct lb_call *c)
{
	struct s0_thread *me = &s0_me;

	S0_COUNT(me->order_hz, 1);
	c->scratch[LB_NOTE_HAZARD] = 1;
	s0_first_hazard(c->api);
}

void s0_order_user(struct lb_call *c)
{
	struct s0_thread *me = &s0_me;
	lb_stream u = *c->stream;
	int d = me->dev;

	if (u == S0_LEGACY_HANDLE || !s0_blocking(me, u))
		return;
	if (me->ub_last_null && d >= 0 && d < S0_MAXDEV) {
		lb_stream s = S0_LOAD(me->s[d]);

		/* legacy: this work would wait for the null-stream work */
		if (s && S0_LOAD(me->sub[d]) != S0_LOAD(me->idle[d]) &&
		    !S0_LOAD(me->cap[d]) &&
		    !__atomic_load_n(&s0_ncap, __ATOMIC_RELAXED) &&
		    s0_pending(s))
			s0_order_hazard(c);
	}
	me->ub_last_null = 0;
	me->ub_stream = u;
}

void s0_order_null(struct lb_call *c)
{
	struct s0_thread *me = &s0_me;
	lb_stream u = me->ub_stream;

	me->ub_last_null = 1;
	if (!u)
		return;
	me->ub_stream = NULL;
	/* legacy: this work would wait for the thread's user-stream work */
	if (!__atomic_load_n(&s0_ncap, __ATOMIC_RELAXED) && s0_pending(u))
		s0_order_hazard(c);
}

void s0_order_synced(lb_stream s)
{
	struct s0_thread *me = &s0_me;

	if (!s || s == me->ub_stream)
		me->ub_stream = NULL;
}
