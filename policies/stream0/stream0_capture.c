/*
 * stream0_capture.c - which user streams are capturing.
 *
 * On the legacy null stream, work or a sync while a blocking stream
 * captures is an error that also invalidates the capture; on a per-thread
 * stream it is neither.  A program that captures must get the results and
 * errors it gets without the policy, so while any user stream captures,
 * stream0 steps aside: null-stream calls go to the runtime unchanged.  The
 * thread's earlier work on S stays ordered before them, because S is
 * blocking with respect to the legacy null stream (and the legacy work
 * before S's later work, for the same reason).
 *
 * The set is small and changes only on BeginCapture, EndCapture, Destroy
 * and device reset; the hot path reads only the count.
 */
#include <pthread.h>
#include "stream0.h"

#define S0_MAXCAP 64

int s0_ncap;
static pthread_mutex_t s0_cap_lock = PTHREAD_MUTEX_INITIALIZER;
static lb_stream s0_caps[S0_MAXCAP]; /* under s0_cap_lock */
static int s0_nslots;			/* used slots, under s0_cap_lock */
static int s0_overflow;			/* captures not tracked: sticky */

static void s0_cap_count(void)
{
	int i, n = s0_overflow;

	for (i = 0; i < s0_nslots; i++)
		n += s0_caps[i] != NULL;
	__atomic_store_n(&s0_ncap, n, __ATOMIC_RELAXED);
	/* a thread's null answer holds only while nothing captures */
	lb_fast_void_all();
}

void s0_cap_add(lb_stream s)
{
	int i, slot = -1;

	pthread_mutex_lock(&s0_cap_lock);
	for (i = 0; i < s0_nslots; i++) {
		if (s0_caps[i] == s)
			goto out;
		if (!s0_caps[i] && slot < 0)
			slot = i;
	}
	if (slot < 0 && s0_nslots < S0_MAXCAP)
		slot = s0_nslots++;
	if (slot >= 0) {
		s0_caps[slot] = s;
	} else if (!s0_overflow) {
		/* Cannot tell when it ends: stay aside from now on. */
		s0_overflow = 1;
		lb_log(LB_LOG_WARN,
		       "stream0: more than %d streams capturing at once; the "
		       "null stream is left as is from now on", S0_MAXCAP);
	}
out:
	s0_cap_count();
	pthread_mutex_unlock(&s0_cap_lock);
}

/* Does the runtime say s is still capturing?  Errors mean no. */
static int s0_still_capturing(lb_stream s)
{
	int st = LB_CAPTURE_NONE;

	if (lb_rt->stream_capturing(s, &st) != LB_ST_OK)
		return 0;
	return st != LB_CAPTURE_NONE;
}

void s0_cap_check(lb_stream s)
{
	int i;

	if (!__atomic_load_n(&s0_ncap, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&s0_cap_lock);
	for (i = 0; i < s0_nslots; i++)
		if (s0_caps[i] == s && !s0_still_capturing(s))
			s0_caps[i] = NULL;
	s0_cap_count();
	pthread_mutex_unlock(&s0_cap_lock);
}

void s0_cap_check_all(void)
{
	int i;

	pthread_mutex_lock(&s0_cap_lock);
	for (i = 0; i < s0_nslots; i++)
		if (s0_caps[i] && !s0_still_capturing(s0_caps[i]))
			s0_caps[i] = NULL;
	s0_cap_count();
	pthread_mutex_unlock(&s0_cap_lock);
}

void s0_cap_fork_child(void)
{
	pthread_mutex_init(&s0_cap_lock, NULL);
	s0_nslots = 0;
	s0_overflow = 0;
	__atomic_store_n(&s0_ncap, 0, __ATOMIC_RELAXED);
}
