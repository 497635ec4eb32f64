/*
 * stream0_wait.c - the one place where stream0 makes one stream wait for
 * another's work: an event of the calling thread's own, per device,
 * recorded on the stream waited for, then waited for by the other
 * (remap mode: a dependency between two threads' per-thread streams that
 * the hazard check found, and a thread's own legacy order between its
 * null stream and its blocking user streams).  Every runtime call these
 * need is in the static helpers below, so that a change of runtime
 * interface is one edit here.
 *
 * One event per (thread, device) serves every wait: a stream wait takes
 * the event's last record as of the call, and a later record of the same
 * event does not change a wait already queued (clr hipamd/src/
 * hip_event.cpp, hipStreamWaitEvent -> Event::streamWait, which enqueues
 * a marker on the waiting stream for the event's current command,
 * rocm-6.2.0; CUDA documents the same for cudaStreamWaitEvent), so the
 * event can be recorded again at the next dependency.
 */
#define _GNU_SOURCE
#include <errno.h>
#include "stream0.h"

static LB_TLS lb_event s0_wait_ev[S0_MAXDEV];

/* ---- the runtime calls (one edit for another runtime interface) ---- */

static int s0_rt_event_make(lb_event *e)
{
	*e = NULL;
	return lb_rt->event_create(e, LB_EVENT_DISABLE_TIMING) == LB_ST_OK &&
	       *e;
}

static int s0_rt_record(lb_event e, lb_stream s)
{
	return lb_rt->event_record(e, s) == LB_ST_OK;
}

static int s0_rt_stream_wait(lb_stream s, lb_event e)
{
	return lb_rt->stream_wait_event(s, e, 0) == LB_ST_OK;
}

static void s0_rt_event_destroy(lb_event e)
{
	if (e)
		lb_rt->event_destroy(e);
}

/* ---- waits ---- */

int s0_wait_for(lb_stream src, lb_stream waiter, int dev)
{
	lb_event *e;
	int saved = errno, tries;

	if (!src || !waiter || src == waiter || dev < 0 || dev >= S0_MAXDEV)
		return -1;
	e = &s0_wait_ev[dev];
	/*
	 * A record that fails may mean an event gone with a device reset:
	 * a new event, once (the old one, if it still lives, is leaked).
	 */
	for (tries = 0; tries < 2; tries++) {
		if (!*e && !s0_rt_event_make(e))
			break;
		if (s0_rt_record(*e, src)) {
			if (!s0_rt_stream_wait(waiter, *e))
				break;
			errno = saved;
			return 0;
		}
		*e = NULL;
	}
	errno = saved;
	return -1;
}

void s0_wait_thread_gone(void)
{
	int d;

	for (d = 0; d < S0_MAXDEV; d++) {
		s0_rt_event_destroy(s0_wait_ev[d]);
		s0_wait_ev[d] = NULL;
	}
}

void s0_wait_fork_child(void)
{
	int d;

	/* the parent's events are not the child's to use */
	for (d = 0; d < S0_MAXDEV; d++)
		s0_wait_ev[d] = NULL;
}
