/*
 * stream0.c - the stream0 policy's hooks: per call, remap the null stream
 * to the thread's own stream S, serve the synchronous null-stream copies
 * and sets on S, and observe what changes S (device, reset, capture).
 *
 * Which calls do what is decided once, at init, into s0_op[] from the
 * calls' roles (stream0_ops.c): the pre hook of a remapped call is a table
 * load, a compare, one TLS load, one global load (captures) and a counter
 * store.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include "stream0.h"
#include "stream0_hazard.h"
#include "run_solo.h" /* lb_call_init, lb_errno_p: the direct path */


/*
 * Would the legacy runtime have made this sync wait for other threads'
 * work?  Not for a per-thread call or handle: in a per-thread build
 * the runtime's own per-thread stream never waits for other threads, so
 * returning early there is no change and no hazard.
 */
static int s0_legacy_waits(const struct lb_call *c)
{
	if (lb_api_info[c->api].flags & LB_F_SPT)
		return 0;
	return !c->stream || lb_stream_is_legacy(c->stream_named);
}

static void s0_hz_begin_for(const struct lb_call *c)
{
	if (s0_legacy_waits(c))
		s0_hz_begin();
}

/*
 * The sync returned over other threads' pending work, which the legacy
 * stream would have waited for: what stream0 is for, marked on its trace
 * record as information (counted by s0_hz_end).
 */
static void s0_mark(struct lb_call *c)
{
	c->scratch[LB_NOTE_HAZARD] |= LB_NOTE_S0_NARROWED;
}

/* What LBSHIM_STREAM0_DEVICE_SYNC may say, and its default. */
static const char *const s0_devsync_names[] = { "device", "thread", NULL };
/* LBSHIM_STREAM0_MODE */
static const char *const s0_mode_names[] = { "remap", "syncs", NULL };
enum { S0_MODE_REMAP, S0_MODE_SYNCS };
static int s0_mode;
/* LBSHIM_STREAM0_CHECK: the remap mode's check at submissions */
static const char *const s0_check_names[] = { "on", "off", NULL };
static int s0_check = 1;

/* Does the call name the legacy null stream (syncs mode)? */
static int s0_sy_legacy(const struct lb_call *c)
{
	lb_stream h;

	if (!c->stream)
		return 1; /* a synchronous call on the null stream */
	h = *c->stream;
	if (lb_api_info[c->api].flags & LB_F_SPT)
		return h == S0_LEGACY_HANDLE;
	return !h || h == S0_LEGACY_HANDLE;
}

static int s0_pre_syncs(struct lb_call *c, unsigned op)
{
	struct s0_thread *me = &s0_me;
	int d;

	me->sy_dev = 0;
	switch (op) {
	case S0_SY_SUBMIT:
	case S0_SY_NULLSYNC:
		if (!s0_sy_legacy(c))
			return 0;
		d = s0_sy_submit(op == S0_SY_NULLSYNC);
		me->sy_dev = d + 1;
		return 0;
	case S0_SY_SYNC:
	case S0_SY_QUERY:
	case S0_SY_DEVSYNC:
		if (op != S0_SY_DEVSYNC && !s0_sy_legacy(c))
			return 0;
		if (s0_sy_wait(c, op == S0_SY_QUERY))
			return 1;
		/* The runtime's full wait: it completes what was queued. */
		if (op != S0_SY_QUERY)
			S0_COUNT(me->syncs, 1);
		if (me->dev >= 0) {
			me->sy_dev = me->dev + 1;
			me->sy_start = s0_sy_seq(me->dev);
		}
		return 0;
	default:
		return 0;
	}
}

static void s0_post_syncs(struct lb_call *c, unsigned op)
{
	struct s0_thread *me = &s0_me;
	int d = me->sy_dev - 1;

	if (!me->sy_dev || c->handled)
		return;
	me->sy_dev = 0;
	if (op == S0_SY_SUBMIT || op == S0_SY_NULLSYNC)
		s0_sy_submitted(d, op == S0_SY_NULLSYNC, c->ret);
	else if (c->ret == LB_ST_OK)
		s0_sy_full_waited(d, me->sy_start);
}

/*
 * The Async twin of each synchronous null-stream row, generated from
 * the TWIN column of hip_api.def and cuda_api.def: s0_twin_<name>() calls the twin with the
 * row's own arguments and S appended.  -1 when the runtime lacks the twin.
 */
typedef int (*s0_twin_fn)(const void *args, lb_stream s, lb_status *r);

#define S0_AARG_(a, x) a->x
#define S0_TWIN_0(NAME, A, TWIN)
#define S0_TWIN_1(NAME, A, TWIN) S0_TWIN_FN_(NAME, A, LB_UNPAREN TWIN)
#define S0_TWIN_FN_(NAME, A, T)                                          \
	static int s0_twin_##NAME(const void *args, lb_stream s,      \
				  lb_status *r)                        \
	{                                                               \
		const struct lb_args_##NAME *a = args;                  \
		if (!lb_rt_row(T))                                      \
			return -1;                                      \
		*r = lb_rt_row(T)(LB_MAPC(S0_AARG_, a, A), s);          \
		return 0;                                               \
	}
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	LB_CAT(S0_TWIN_, LB_NARGS(TWIN))(NAME, A, TWIN)
#include "lbshim/hip_api.def"
#include "lbshim/cuda_api.def"
#undef LB_API

#define S0_SLOT_0(NAME)
#define S0_SLOT_1(NAME) [LB_ID_##NAME] = s0_twin_##NAME,
static const s0_twin_fn s0_twins[LB_API_COUNT] = {
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	LB_CAT(S0_SLOT_, LB_NARGS(TWIN))(NAME)
#include "lbshim/hip_api.def"
#include "lbshim/cuda_api.def"
#undef LB_API
};

/* Is s0_order_null() due for a remapped null-stream submission? */
static inline int s0_order_null_due(const struct s0_thread *me)
{
	return LB_UNLIKELY(me->ub_stream || !me->ub_last_null) && s0_check;
}

/*
 * Serves a synchronous null-stream call the way its _spt twin runs: the
 * Async variant on S, whose error (bad arguments) is returned as is, then
 * a wait for S.  Returns 1 if served.
 */
static int s0_serve_nullsync(struct lb_call *c)
{
	lb_stream s = s0_stream();
	lb_status r;

	if (!s || !lb_rt->has(LB_RTS_STREAM_SYNC))
		return 0;
	/* legacy: it waits for the thread's blocking streams' work too */
	if (s0_order_null_due(&s0_me))
		s0_order_null(c, s);
	s0_submitted();
	if (s0_hz_active)
		s0_hz_touch(c, s0_me.sub[s0_me.dev], 1);
	s0_hz_begin_for(c);
	if (s0_twins[c->api](c->args, s, &r) < 0) {
		s0_hz_end(0);
		return 0;
	}
	if (r == LB_ST_OK)
		r = lb_rt->stream_sync(s);
	if (r == LB_ST_OK)
		s0_idle();
	if (s0_hz_end(1))
		s0_mark(c);
	c->ret = r;
	return 1;
}

/* hipDeviceSynchronize with =thread: wait for this thread's S only. */
static int s0_serve_devsync(struct lb_call *c)
{
	lb_stream s = __atomic_load_n(&s0_me.cur, __ATOMIC_RELAXED);
	lb_status r;

	/* No S yet (or stepping aside): the runtime's full device sync. */
	if (!s || s0_stream() != s || !lb_rt->has(LB_RTS_STREAM_SYNC))
		return 0;
	s0_hz_begin_for(c);
	r = lb_rt->stream_sync(s);
	if (r == LB_ST_OK)
		s0_idle();
	if (s0_hz_end(1))
		s0_mark(c);
	c->ret = r;
	return 1;
}

/* S, when it exists and no stream captures (else s0_stream() decides). */
static inline lb_stream s0_cur(void)
{
	lb_stream s = S0_LOAD(s0_me.cur);

	return LB_UNLIKELY(!s || S0_LOAD(s0_ncap)) ? NULL : s;
}

/* Replaces a null-stream argument by S; returns S or NULL (unchanged). */
static lb_stream s0_remap(struct lb_call *c)
{
	lb_stream s;

	if (!S0_IS_NULL(*c->stream))
		return NULL;
	s = s0_cur();
	if (LB_UNLIKELY(!s))
		s = s0_stream();
	if (s)
		*c->stream = s;
	return s;
}

/* A submission's work (S0_SUBMIT); 1 if its null stream became S. */
static inline __attribute__((always_inline)) int
s0_pre_submit(struct lb_call *c)
{
	struct s0_thread *me = &s0_me;

	if (s0_remap(c)) {
		if (s0_order_null_due(me))
			s0_order_null(c, *c->stream);
		s0_submitted();
		if (s0_hz_active)
			s0_hz_touch(c, me->sub[me->dev], 1);
		return 1;
	}
	if (c->stream && !S0_IS_NULL(*c->stream) && s0_check &&
	    !s0_order_user_idle(me, *c->stream))
		s0_order_user(c);
	return 0;
}

/*
 * hipStreamAddCallback on the null stream, remapped to S: the runtime
 * calls the callback with the stream it was given (clr hipamd/src/
 * hip_event.hpp, StreamAddCallback::callback, rocm-5.7.0 and rocm-6.2.0),
 * which would be S, a stream the program never named and must not
 * destroy or compare.  The callback goes through s0_cb_call, which hands
 * it the handle the program passed (0 or LB_STREAM_PER_THREAD).  The _spt
 * form is left alone: clr gives its callback the per-thread stream, which
 * S stands for.
 */
struct s0_cb {
	lb_stream_callback fn;
	void *arg;
	lb_stream named;
	int refs; /* the runtime's call and s0_cb_unwrap: the last frees
		   * (clr calls it once: it queues one marker and never
		   * captures the call into a graph, hip_stream.cpp has no
		   * STREAM_CAPTURE for it, rocm-6.2.0) */
};

static void s0_cb_put(struct s0_cb *cb)
{
	if (!__atomic_sub_fetch(&cb->refs, 1, __ATOMIC_ACQ_REL))
		free(cb);
}

static void s0_cb_call(lb_stream s, lb_status status, void *p)
{
	struct s0_cb *cb = p;
	lb_stream_callback fn = cb->fn;
	void *arg = cb->arg;
	lb_stream named = cb->named;

	(void)s;
	s0_cb_put(cb);
	fn(named, status, arg);
}

/* Not inlined: in s0_pre, its role reads cost every call a register. */
static __attribute__((noinline)) void s0_cb_wrap(struct lb_call *c)
{
	static int warned;
	lb_stream_callback *fn = lb_ar_at(c->api, c->args, LB_AR_FN);
	void **arg = lb_ar_at(c->api, c->args, LB_AR_USERDATA);
	struct s0_cb *cb;

	if (!*fn)
		return; /* the runtime's answer: hipErrorInvalidValue */
	cb = malloc(sizeof(*cb));
	if (!cb) {
		if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
			lb_log(LB_LOG_WARN,
			       "stream0: out of memory: a callback on the "
			       "null stream is told its stream %p",
			       (void *)*c->stream);
		return;
	}
	*cb = (struct s0_cb){ *fn, *arg, c->stream_named, 2 };
	*fn = s0_cb_call;
	*arg = cb;
	c->scratch[LB_SCRATCH_S0] = (uintptr_t)cb;
}

/*
 * After the runtime's answer: the program's arguments back in place (the
 * trace records them after this hook).  A failure means the callback was
 * never queued (clr hipamd/src/hip_stream.cpp, hipStreamAddCallback_common
 * and streamCallback_common, rocm-5.7.0 and rocm-6.2.0: every error is
 * returned before the marker carrying it is enqueued, but for a failed
 * allocation, which new reports by throwing), so the wrapper goes.
 */
static void s0_cb_unwrap(struct lb_call *c)
{
	struct s0_cb *cb = (struct s0_cb *)(uintptr_t)c->scratch[LB_SCRATCH_S0];
	lb_stream_callback *fn;
	void **arg;

	if (!cb)
		return;
	c->scratch[LB_SCRATCH_S0] = 0;
	fn = lb_ar_at(c->api, c->args, LB_AR_FN);
	arg = lb_ar_at(c->api, c->args, LB_AR_USERDATA);
	*fn = cb->fn;
	*arg = cb->arg;
	if (c->ret != LB_ST_OK)
		free(cb);
	else
		s0_cb_put(cb);
}

static int s0_pre_other(struct lb_call *c, unsigned op)
{
	switch (op) {
	case S0_CALLBACK:
		if (s0_pre_submit(c))
			s0_cb_wrap(c);
		return 0;
	case S0_REMAP:
	case S0_CAPEND:
		s0_remap(c);
		return 0;
	case S0_SYNC:
	case S0_QUERY:
		if (s0_remap(c)) {
			/* legacy: the thread's blocking streams' work too */
			if (s0_me.ub_stream && s0_check)
				s0_order_null(c, *c->stream);
			/* hipMemcpyWithStream: a copy on S, waited for */
			if (s0_hz_active)
				s0_hz_touch(c, s0_me.sub[s0_me.dev], 1);
			s0_hz_begin_for(c);
		}
		return 0;
	case S0_DEVSYNC_OBS:
	case S0_FREE:
		if (s0_hz_active)
			s0_hz_devsync_begin();
		return 0;
	case S0_CAPBEGIN:
		/*
		 * Marked before the runtime starts it, so that no hazard check
		 * queries S once it captures; undone in post on failure.
		 */
		if (s0_remap(c))
			s0_own_capture(1);
		return 0;
	case S0_NULLSYNC:
		return s0_serve_nullsync(c);
	case S0_DEVSYNC:
		return s0_serve_devsync(c);
	case S0_SY_SUBMIT:
	case S0_SY_NULLSYNC:
	case S0_SY_SYNC:
	case S0_SY_QUERY:
	case S0_SY_DEVSYNC:
		return s0_pre_syncs(c, op);
	default:
		return 0;
	}
}

static int s0_pre(struct lb_call *c)
{
	unsigned op = s0_op[c->api];

	/* the thread's state may change from here on (fast.h) */
	lb_fast_void();

	if (LB_LIKELY(op == S0_SUBMIT)) {
		s0_pre_submit(c);
		return 0;
	}
	if (op == S0_NONE)
		return 0;
	return s0_pre_other(c, op);
}

/*
 * The direct path (struct lb_policy, shim/run_solo.h): s0_pre's work for
 * a submission, when it needs no call context and takes no slow branch:
 * a null-stream argument becomes this thread's S (already made, no
 * capture anywhere: s0_remap's first case), no order check is due
 * (s0_order_null, s0_order_user), and the hazard check's touch, if the
 * row has one, gets a context of its own.  Rows: S0_SUBMIT in remap mode,
 * less those s0_post has work for (s0_hz_post_op).
 */
static uint8_t s0_direct_rows[LB_API_COUNT];

/*
 * The touch, inlined: with the standing answer (fast.h) serving the
 * thread's other remapped submissions, s0_direct runs mostly for the rows
 * the touch needs, where a call more was a jump more (issue 16).  It is
 * made for the submission about to be counted; one that depends on
 * another thread's pending work must be ordered, which calls the
 * runtime: the full path then does it (LB_DIRECT_NO, nothing counted).
 */
static inline __attribute__((always_inline)) lb_stream
s0_direct_touch(int api, const void *args, lb_stream s)
{
	struct lb_call c;
	int *ep = lb_errno_p, saved = *ep, r;

	lb_call_init(&c, api, (void *)args);
	r = s0_hz_touch(&c, s0_me.sub[s0_me.dev] + 1, 0);
	*ep = saved;
	if (r < 0)
		return LB_DIRECT_NO;
	s0_submitted();
	return s;
}

static lb_stream s0_direct(int api, const void *args, lb_stream s)
{
	struct s0_thread *me = &s0_me;
	uint64_t epoch = lb_fast_epoch();

	if (!S0_IS_NULL(s)) {
		if (!s0_check) {
			lb_fast_user(epoch, LB_FAST_ANY);
			return s;
		}
		/*
		 * Idle for the order check (the blocking stream it last
		 * queued on, a non-blocking one by the flag cache,
		 * hipStreamLegacy): so it stays until the thread's next call
		 * that is not direct, or a stream destroyed anywhere.
		 */
		if (!s0_order_user_idle(me, s))
			return LB_DIRECT_NO;
		lb_fast_user(epoch, s);
		return s;
	}
	s = s0_cur();
	if (LB_UNLIKELY(!s) || s0_order_null_due(me))
		return LB_DIRECT_NO;
	if (s0_hz_active && s0_hz_touch_op[api])
		return s0_direct_touch(api, args, s);
	s0_submitted();
	/*
	 * S and the order hold until the thread's next call that is not
	 * direct, or a change by another thread (a capture, a reset): for
	 * every row the touch leaves alone (LB_DIRECT_NULL)
	 */
	lb_fast_null(epoch, s, &me->sub[me->dev]);
	return s;
}

/*
 * Submissions, less those s0_post has work for; the standing null answer
 * (fast.h) serves those the hazard check does not touch.
 */
static void s0_build_direct(void)
{
	int i;

	for (i = 0; i < LB_API_COUNT; i++) {
		if (s0_op[i] != S0_SUBMIT || (s0_hz_active && s0_hz_post_op[i]))
			continue;
		s0_direct_rows[i] = LB_DIRECT_HOOK;
		if (!(s0_hz_active && s0_hz_touch_op[i]))
			s0_direct_rows[i] |= LB_DIRECT_NULL;
	}
}

/* Was the call's stream remapped to S by our pre hook? */
static int s0_was_remapped(const struct lb_call *c)
{
	return c->stream && S0_IS_NULL(c->stream_named) &&
	       !S0_IS_NULL(*c->stream);
}

static void s0_post(struct lb_call *c)
{
	unsigned op = s0_op[c->api];
	int dev;

	if (s0_hz_active && s0_hz_post_op[c->api])
		s0_hz_post(c, s0_was_remapped(c));
	if (op >= S0_SY_SUBMIT && op <= S0_SY_DEVSYNC) {
		s0_post_syncs(c, op);
		return;
	}
	switch (op) {
	case S0_CALLBACK:
		s0_cb_unwrap(c);
		return;
	case S0_SYNC:
	case S0_QUERY:
		if (c->ret == LB_ST_OK && c->stream && !s0_was_remapped(c))
			s0_order_synced(*c->stream);
		if (!s0_me.hz_on)
			return;
		/* A query that said "not ready" claimed nothing. */
		if (s0_hz_end(c->ret != LB_ST_NOT_READY))
			s0_mark(c);
		if (c->ret == LB_ST_OK)
			s0_idle();
		return;
	case S0_CAPBEGIN:
		if (s0_was_remapped(c)) {
			if (c->ret != LB_ST_OK)
				s0_own_capture(0);
		} else if (c->ret == LB_ST_OK && !c->handled) {
			s0_cap_add(*c->stream);
		}
		return;
	case S0_CAPEND:
		/* The runtime says whether it ended (a wrong thread's didn't). */
		if (s0_was_remapped(c)) {
			int st = LB_CAPTURE_NONE;

			if (lb_rt->stream_capturing(*c->stream, &st) ==
				    LB_ST_OK &&
			    st == LB_CAPTURE_NONE)
				s0_own_capture(0);
		} else {
			s0_cap_check(*c->stream);
		}
		return;
	case S0_DESTROY:
		if (c->ret == LB_ST_OK) {
			s0_cap_check(*c->stream);
			s0_order_stream_gone(*c->stream);
		}
		return;
	case S0_DEVSYNC_OBS:
		if (s0_hz_active)
			s0_hz_devsync_end(c->ret == LB_ST_OK);
		if (c->ret == LB_ST_OK) {
			s0_order_synced(NULL);
			s0_idle();
		}
		return;
	case S0_FREE:
		/* the pool's hipFree (handled) fences; it syncs nothing */
		if (s0_hz_active)
			s0_hz_devsync_end(c->ret == LB_ST_OK && !c->handled);
		return;
	case S0_SETDEV:
		if (c->ret == LB_ST_OK && !c->handled)
			s0_set_device((int)lb_ar_u64(c->api, c->args,
						     LB_AR_DEVICE));
		return;
	case S0_GETDEV: {
		int *p = lb_ar_ptr(c->api, c->args, LB_AR_DEVICE_OUT);

		if (c->ret == LB_ST_OK && p)
			s0_set_device(*p);
		return;
	}
	case S0_RESET:
		if (c->ret != LB_ST_OK)
			return;
		/*
		 * The reset destroyed the device's streams (Device::Reset:
		 * hip::Stream::destroyAllStreams, clr hipamd/src/
		 * hip_device.cpp, rocm-5.7.0; Device::destroyAllStreams, the
		 * same file, rocm-6.2.0): the thread's last blocking stream
		 * is gone, and handles may name new streams (flags to read
		 * again).
		 */
		s0_order_stream_gone(NULL);
		s0_order_synced(NULL);
		dev = s0_me.dev;
		if (dev < 0 && lb_rt->device_get(&dev) != LB_ST_OK)
			return;
		s0_device_reset(dev);
		s0_sy_device_reset(dev);
		s0_cap_check_all();
		return;
	default:
		return;
	}
}

uint8_t s0_null_set;

static int s0_init(int listed)
{
	int devsync;

	if (!listed)
		return 0;
	s0_null_set = lb_rt->null_handles;
	devsync = lb_env_choice("LBSHIM_STREAM0_DEVICE_SYNC", s0_devsync_names,
				S0_DEVSYNC_DEVICE);
	s0_mode = lb_env_choice("LBSHIM_STREAM0_MODE", s0_mode_names,
				S0_MODE_REMAP);
	if (s0_mode == S0_MODE_SYNCS) {
		s0_sy_init();
		s0_build_sy_ops(devsync);
	} else {
		s0_select_init();
		s0_build_ops(devsync);
		s0_check = lb_env_choice("LBSHIM_STREAM0_CHECK", s0_check_names,
					 0) == 0;
		/* off: not one byte of the hazard check's state is made */
		if (s0_check) {
			s0_hz_touch_init();
			s0_hz_init();
		}
		s0_build_direct();
	}
	lb_log(LB_LOG_DEBUG,
	       "stream0: on, mode %s, hipDeviceSynchronize waits for %s",
	       s0_mode_names[s0_mode],
	       devsync == S0_DEVSYNC_THREAD ? "the thread's own work only"
					    : "the whole device");
	return 1;
}

static void s0_fork_prepare(void)
{
	s0_thread_fork_prepare();
	s0_sy_fork_prepare();
	s0_hz_fork_prepare();
}

static void s0_fork_parent(void)
{
	s0_hz_fork_parent();
	s0_sy_fork_parent();
	s0_thread_fork_parent();
}

static void s0_fork_child(void)
{
	s0_thread_fork_child();
	s0_sy_fork_child();
	s0_cap_fork_child();
	s0_hz_fork_child();
}

/* The stream0 policy (see stream0.h and lbshim(7)). */
const struct lb_policy lb_policy_stream0 = {
	.name = "stream0",
	.init = s0_init,
	.pre = s0_pre,
	.post = s0_post,
	.thread_exit = s0_thread_gone,
	.fork_prepare = s0_fork_prepare,
	.fork_parent = s0_fork_parent,
	.fork_child = s0_fork_child,
	.fini = s0_report,
	.direct = s0_direct,
	.direct_rows = s0_direct_rows,
};
