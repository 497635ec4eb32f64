/*
 * stream0.h - internals of the stream0 policy, shared by its files.
 *
 * stream0 gives an unmodified program the per-thread default stream: what
 * a thread puts on the null stream (0, hipStreamLegacy, hipStreamPerThread)
 * goes to an explicit stream S of that thread's own, one per (thread,
 * device), created on first need with hipStreamDefault flags (blocking with
 * respect to the legacy null stream, as HIP's own per-thread stream is).
 *
 *   stream0.c          the hooks: which call is remapped, served or observed
 *   stream0_thread.c   per-thread state, the registry of threads, S's life,
 *                      and the hazard count (syncs that legacy would have
 *                      made wait for other threads' work)
 *   stream0_capture.c  which user streams are capturing: while one is, the
 *                      policy steps aside so that capture keeps its exact
 *                      legacy results and errors
 */
#ifndef LB_STREAM0_H
#define LB_STREAM0_H

#include <stdint.h>
#include "shim.h"

#define S0_MAXDEV 16  /* devices with a per-thread stream; more: forwarded */
#define S0_MAXPEND 64 /* other threads remembered during one sync */

/* Is h one of the handles that name the null stream (0, 1, 2)? */
#define S0_IS_NULL(h) ((uintptr_t)(h) <= (uintptr_t)hipStreamPerThread)

/*
 * One per thread, in initial-exec TLS so that the hot path is one
 * thread-local load (cur).  Other threads read a registered record under
 * the registry lock; the fields they may write (cur, s[], cap[] on device
 * reset) are accessed with atomics.
 */
struct s0_thread {
	hipStream_t cur;	/* S of the current device, NULL: not made yet */
	int dev;		/* current device as last observed, -1 unknown */
	int tid;
	uint8_t registered;	/* in the registry (has or had an S) */
	uint8_t exited;		/* thread_exit ran: forward everything */
	uint8_t hz_on;		/* a sync's hazard check is under way */
	uint8_t hz_over;	/* more pending threads than pend[] holds */
	int hz_dev;
	int npend;
	uint64_t id;		/* registry id, never reused */
	struct s0_thread *next; /* registry link, under the lock */
	hipStream_t s[S0_MAXDEV];
	uint8_t cap[S0_MAXDEV];	   /* s[d] is capturing (written under lock) */
	uint8_t failed[S0_MAXDEV]; /* creating s[d] failed: do not retry */
	uint64_t sub[S0_MAXDEV];   /* submissions on s[d]; owner writes */
	uint64_t idle[S0_MAXDEV];  /* sub[d] when s[d] was last seen idle */
	uint64_t syncs;		   /* null-stream syncs checked */
	uint64_t hazards;	   /* of which returned over others' work */
	struct {
		uint64_t id, sub;
	} pend[S0_MAXPEND];	/* threads whose S was busy at a sync's start */
};

extern LB_TLS struct s0_thread s0_me;

/* User streams capturing (stream0_capture.c); nonzero: step aside. */
extern int s0_ncap;

/*
 * Returns the calling thread's S for its current device, creating it on
 * first need; NULL when the call must go to the runtime unchanged (a user
 * stream is capturing, the thread is exiting, the device is out of range,
 * or S could not be made: warned once).
 */
hipStream_t s0_stream(void);

/* The thread now uses device dev (observed from hipSetDevice/GetDevice). */
void s0_set_device(int dev);

/* Counts one submission on S (the thread's current device). */
static inline void s0_submitted(void)
{
	struct s0_thread *me = &s0_me;

	__atomic_store_n(&me->sub[me->dev], me->sub[me->dev] + 1,
			 __ATOMIC_RELAXED);
}

/* S of the current device has been seen idle (after a sync of it). */
void s0_idle(void);

/*
 * Hazard check of one sync of the null stream on the current device:
 * begin notes which other threads' S are busy (never blocks); end returns 1
 * if one of them still is, counting a hazard.  counts: 0 when the sync
 * turned out not to claim completion (a query that said not ready).
 */
void s0_hz_begin(void);
int s0_hz_end(int counts);

/* Marks the thread's S on the current device capturing or not. */
void s0_own_capture(int on);

/*
 * hipDeviceReset of dev succeeded: every thread's S on dev is gone with
 * the device; forget them (never destroy).
 */
void s0_device_reset(int dev);

/* Thread exit: wait for the thread's S, then destroy them. */
void s0_thread_gone(void);
/* Process exit: report the hazard counts at LBSHIM_LOG=info. */
void s0_report(void);
/* fork(): the registry lock around it; the child forgets every S. */
void s0_thread_fork_prepare(void);
void s0_thread_fork_parent(void);
void s0_thread_fork_child(void);

/* stream0_capture.c: user streams capturing. */
/* A capture began on s (not one of ours). */
void s0_cap_add(hipStream_t s);
/* s may have stopped capturing (EndCapture, Destroy): ask the runtime. */
void s0_cap_check(hipStream_t s);
/* After hipDeviceReset: forget every capture the runtime no longer has. */
void s0_cap_check_all(void);
/* In a forked child: no capture survives. */
void s0_cap_fork_child(void);

#endif
