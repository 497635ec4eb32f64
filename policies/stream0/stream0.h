/*
 * stream0.h - internals of the stream0 policy, shared by its files.
 *
 * stream0 gives an unmodified program the per-thread default stream: what
 * a thread puts on the null stream (0, hipStreamLegacy, LB_STREAM_PER_THREAD)
 * goes to an explicit stream S of that thread's own, one per (thread,
 * device), created on first need with hipStreamDefault flags (blocking with
 * respect to the legacy null stream, as HIP's own per-thread stream is).
 *
 *   stream0.c          the hooks: which call is remapped, served or observed
 *   stream0_ops.c      which calls those are: each row's op, by its role
 *   stream0_thread.c   per-thread state, the registry of threads, S's life,
 *                      and the hazard count (syncs that legacy would have
 *                      made wait for other threads' work)
 *   stream0_capture.c  which user streams are capturing: while one is, the
 *                      policy steps aside so that capture keeps its exact
 *                      legacy results and errors
 *   stream0_select.c   which threads are remapped (thread-name globs), and
 *                      the warning about PyTorch's caching allocator
 *   stream0_syncs.c    LBSHIM_STREAM0_MODE=syncs: the legacy order kept,
 *                      a thread's null-stream waits narrowed to its work
 *   stream0_order.c    remap mode: a thread's own legacy order between S
 *                      and its blocking user streams, kept
 *   stream0_hazard.c   remap mode: launches, copies and sets that touch
 *                      memory another thread's pending work touched,
 *                      ordered after it (stream0_hazard.h; what calls
 *                      touch: stream0_touch.c; the memory allocated
 *                      through the shim: stream0_mem.c)
 *   stream0_wait.c     the one place that makes a stream wait for
 *                      another's work (an event recorded and waited)
 */
#ifndef LB_STREAM0_H
#define LB_STREAM0_H

#include <stdint.h>
#include "shim.h"
#include "fast.h"

#define S0_MAXDEV 16  /* devices with a per-thread stream; more: forwarded */
#define S0_MAXPEND 64 /* other threads remembered during one sync */

/*
 * Is h a handle remap mode moves to S: on HIP 0 or hipStreamPerThread?  Not
 * hipStreamLegacy ((hipStream_t)1, HIP's include/hip/hip_runtime_api.h
 * since rocm-6.2.0; clr hipamd/src/hip_context.cpp on amd-staging treats it
 * as the null stream): a program names it to get the legacy barrier, above
 * all in a -fgpu-default-stream=per-thread build, so it stays legacy.
 */
#define S0_LEGACY_HANDLE LB_STREAM_LEGACY
/*
 * That is HIP's set; CUDA's is 0 and the legacy handle, its per-thread
 * handle left alone (rt.h: lb_rt->null_handles, each side says why),
 * copied here at init: one load on the hot path.
 */
extern uint8_t s0_null_set LB_HIDDEN;
#define S0_IS_NULL(h) \
	((uintptr_t)(h) <= 2 && ((s0_null_set >> (uintptr_t)(h)) & 1))
/* Adds n to a counter other threads read. */
#define S0_COUNT(x, n) __atomic_store_n(&(x), (x) + (n), __ATOMIC_RELAXED)
#define S0_LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define S0_STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define S0_FLAGCACHE 8 /* user streams whose flags a thread remembers */
#define S0_UB 4	       /* blocking user streams a thread's order follows */
#define S0_FC_SLOT(s) ((unsigned)(((uintptr_t)(s) >> 6) % S0_FLAGCACHE))

/*
 * One per thread, in initial-exec TLS so that the hot path is one
 * thread-local load (cur).  Other threads read a registered record under
 * the registry lock; the fields they may write (cur, s[], cap[] on device
 * reset) are accessed with atomics.
 */
struct s0_thread {
	lb_stream cur;	/* S of the current device, NULL: not made yet */
	int dev;		/* current device as last observed, -1 unknown */
	int tid;
	uint8_t registered;	/* in the registry (has or had an S) */
	uint8_t exited;		/* thread_exit ran: forward everything */
	uint8_t hz_on;		/* a sync's hazard check is under way */
	uint8_t hz_over;	/* more pending threads than pend[] holds */
	uint8_t sel;		/* 0 not decided, 1 remapped, 2 left legacy */
	int sy_inflight;	/* syncs: device + 1 while submitting */
	int sy_dev;		/* syncs: device + 1 of the call under way */
	uint64_t sy_start;	/* syncs: submissions when a full wait began */
	int hz_dev;
	int npend;
	uint64_t id;		/* registry id, never reused */
	struct s0_thread *next; /* registry link, under the lock */
	lb_stream s[S0_MAXDEV];
	uint8_t cap[S0_MAXDEV];	   /* s[d] is capturing (written under lock) */
	uint8_t failed[S0_MAXDEV]; /* creating s[d] failed: do not retry */
	uint64_t sub[S0_MAXDEV];   /* submissions on s[d]; owner writes */
	uint64_t idle[S0_MAXDEV];  /* sub[d] when s[d] was last seen idle */
	uint64_t syncs;		   /* null-stream syncs checked */
	uint64_t hazards;	   /* of which returned over others' work */
	struct {
		uint64_t id, sub;
	} pend[S0_MAXPEND];	/* threads whose S was busy at a sync's start */
	/* remap mode: order with blocking user streams (stream0_order.c) */
	lb_stream ub_stream;	/* last blocking user stream it queued on,
				 * while one has work S did not wait for */
	uint8_t ub_last_null;	/* its last submission was null-stream work */
	struct {
		lb_stream s;	/* a blocking user stream it queued on */
		unsigned gen;	/* s0_stream_gen then */
		int dev;
		uint8_t dirty;	/* work on s that S has not waited for */
		uint64_t waited; /* sub[dev] of S that s has waited for */
	} ub[S0_UB];
	uint64_t order_hz;	/* switches whose order could not be kept */
	uint64_t order_ord;	/* switches ordered (stream0_order.c) */
	uint64_t touch_hz;	/* dependencies that could not be ordered */
	uint64_t touch_ord;	/* dependencies ordered (stream0_hazard.c) */
	struct {
		lb_stream s;
		unsigned gen;
		uint8_t blocking;
	} fc[S0_FLAGCACHE];
	/* syncs mode, per device (stream0_syncs.c) */
	lb_event sy_ev[S0_MAXDEV];	   /* end of this thread's last run */
	uint64_t sy_epoch[S0_MAXDEV];	   /* device resets when sy_ev made */
	uint64_t sy_last[S0_MAXDEV];	   /* number of its last submission */
	uint64_t sy_closed_seq[S0_MAXDEV]; /* sy_last when sy_ev recorded */
	uint8_t sy_closed[S0_MAXDEV];	   /* sy_ev follows its last run */
};

extern LB_TLS struct s0_thread s0_me;

/* What stream0 does with a call of each row (stream0_ops.c). */
enum s0_op {
	S0_NONE,     /* not ours */
	S0_SUBMIT,   /* puts work on its stream: remap, count a submission */
	S0_REMAP,    /* names a stream, puts no work on it: remap */
	S0_SYNC,     /* waits for its stream: remap, hazard check */
	S0_QUERY,    /* asks whether its stream is done: remap, hazard check */
	S0_NULLSYNC, /* synchronous, implicitly on the null stream: serve */
	S0_DEVSYNC,  /* hipDeviceSynchronize (only with =thread) */
	S0_DEVSYNC_OBS, /* hipDeviceSynchronize, unchanged: observed */
	S0_CAPBEGIN,
	S0_CAPEND,
	/* LBSHIM_STREAM0_MODE=syncs (stream0_syncs.c) */
	S0_SY_SUBMIT,	/* null-stream work: follow who submits */
	S0_SY_NULLSYNC, /* synchronous null-stream work: the same */
	S0_SY_SYNC,	/* hipStreamSynchronize: narrowed */
	S0_SY_QUERY,	/* hipStreamQuery: narrowed */
	S0_SY_DEVSYNC,	/* hipDeviceSynchronize with =thread: narrowed */
	S0_DESTROY,
	S0_SETDEV,
	S0_GETDEV,
	S0_RESET,
	S0_FREE,	/* hipFree and the host frees: the runtime syncs */
	S0_CALLBACK,	/* hipStreamAddCallback: a submission whose callback
			 * is told the stream the program named */
};

extern uint8_t s0_op[] LB_HIDDEN;
/* LBSHIM_STREAM0_DEVICE_SYNC */
enum { S0_DEVSYNC_DEVICE, S0_DEVSYNC_THREAD };
/* Fills s0_op[] for remap mode, or for syncs mode. */
void s0_build_ops(int devsync);
void s0_build_sy_ops(int devsync);

/* User streams capturing (stream0_capture.c); nonzero: step aside. */
extern int s0_ncap LB_HIDDEN;

/*
 * Returns the calling thread's S for its current device, creating it on
 * first need; NULL when the call must go to the runtime unchanged (a user
 * stream is capturing, the thread is exiting, the device is out of range,
 * or S could not be made: warned once).
 */
lb_stream s0_stream(void);

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

/*
 * Enters the calling thread into the registry without an S (syncs mode),
 * so that its counts are reported.
 */
void s0_thread_join(void);

/* Thread exit: wait for the thread's S, then destroy them. */
void s0_thread_gone(void);
/* Process exit: report the hazard counts at LBSHIM_LOG=info. */
void s0_report(void);
/* fork(): the registry lock around it; the child forgets every S. */
void s0_thread_fork_prepare(void);
void s0_thread_fork_parent(void);
void s0_thread_fork_child(void);

/* stream0_order.c: the order between S and blocking user streams. */
/* A remapped null-stream submission / one on a user stream. */
/* hipStreamDestroy calls so far (stream0_order.c's flag cache). */
extern unsigned s0_stream_gen LB_HIDDEN;

/* Does the flag cache's slot i hold s, as of stream generation gen? */
static inline int s0_fc_hit(const struct s0_thread *me, unsigned i,
			    lb_stream s, unsigned gen)
{
	return me->fc[i].s == s && me->fc[i].gen == gen;
}

/*
 * Would s0_order_user() do nothing for a submission on user stream s?
 * True when s is the blocking stream the thread last queued on with no
 * null-stream work since, or its flag cache knows s as non-blocking, or
 * s is hipStreamLegacy.
 */
static inline int s0_order_user_idle(const struct s0_thread *me,
				     lb_stream s)
{
	unsigned i = S0_FC_SLOT(s);

	if (s == me->ub_stream)
		return !me->ub_last_null;
	if (s == S0_LEGACY_HANDLE)
		return 1;
	return s0_fc_hit(me, i, s, S0_LOAD(s0_stream_gen)) &&
	       !me->fc[i].blocking;
}

/*
 * Before null-stream work (or a sync of it) that goes to S: S waits for
 * the thread's work on its blocking user streams that it has not waited
 * for (the legacy null stream's order).
 */
void s0_order_null(struct lb_call *c, lb_stream s);
/* Before work on a user stream: it waits for the thread's S work. */
void s0_order_user(struct lb_call *c);
/* The thread waited for s (NULL: for the whole device). */
void s0_order_synced(lb_stream s);
/* Stream s was destroyed (NULL: some stream): forget it, and flags. */
void s0_order_stream_gone(lb_stream s);
/* Remembers the first call that counted a hazard (for the exit report). */
void s0_first_hazard(unsigned api);

/*
 * stream0_wait.c: makes stream waiter (on device dev, current) wait for
 * the work queued so far on src.  Returns 0, or -1 if the runtime
 * refused.  Never changes errno.
 */
int s0_wait_for(lb_stream src, lb_stream waiter, int dev);
/* The thread leaves (its events go), or a forked child forgets them. */
void s0_wait_thread_gone(void);
void s0_wait_fork_child(void);

/* stream0_select.c: which threads are remapped. */
/* Reads LBSHIM_STREAM0_THREADS and _EXCLUDE. */
void s0_select_init(void);
/* Does the calling thread's name select it for remapping? */
int s0_select_thread(void);
/* A thread got its first S: warns once about PyTorch's allocator. */
void s0_select_remapped(void);
void s0_select_fork_child(void);

/* stream0_syncs.c: LBSHIM_STREAM0_MODE=syncs. */
void s0_sy_init(void);
/*
 * Before a null-stream submission (sync: a synchronous call, not held in
 * flight): takes the device over from another thread if needed.  Returns
 * the device, or -1 when the call is not followed.
 */
int s0_sy_submit(int sync);
/* After it, with the runtime's result. */
void s0_sy_submitted(int dev, int sync, lb_status r);
/*
 * Serves a sync (query: a query) of the null stream by waiting for the
 * thread's own last run only.  Returns 1 if served (c->ret set), 0 when the
 * runtime's own wait is the answer.
 */
int s0_sy_wait(struct lb_call *c, int query);
/* Submissions so far on dev, and: a full wait that began at start ended. */
uint64_t s0_sy_seq(int dev);
void s0_sy_full_waited(int dev, uint64_t start);
void s0_sy_thread_gone(void);
void s0_sy_device_reset(int dev);
void s0_sy_fork_prepare(void);
void s0_sy_fork_parent(void);
void s0_sy_fork_child(void);

/* stream0_capture.c: user streams capturing. */
/* A capture began on s (not one of ours). */
void s0_cap_add(lb_stream s);
/* s may have stopped capturing (EndCapture, Destroy): ask the runtime. */
void s0_cap_check(lb_stream s);
/* After hipDeviceReset: forget every capture the runtime no longer has. */
void s0_cap_check_all(void);
/* In a forked child: no capture survives. */
void s0_cap_fork_child(void);

#endif
