/*
 * fast.h - the solo policy's standing answer for a thread's submissions.
 *
 * The direct path (run_solo.h) asks the solo policy's direct hook about
 * every submission: an indirect call, the arguments stored for it, the
 * hook's own tests: most of stream0's budget (tests/bench/NOTES.md,
 * "Figures that were in the code").  Most of a thread's submissions get
 * the answer its previous one got: "the null stream is my stream S",
 * "this user stream goes unchanged".  So the hook may leave that answer
 * with the core, per thread, and the wrapper then applies it to the
 * thread's next submissions itself, with no hook called, until the
 * policy withdraws it.  The decision stays the policy's: it says what
 * holds and for how long; the core only repeats it.
 *
 * Rules for the policy (the only writer of a thread's answer is that
 * thread, inside the policy's hooks):
 *   - publish an answer only for the state it has just decided in, and
 *     only one its direct hook would give again for every row it marked
 *     LB_DIRECT_NULL (null) or LB_DIRECT_HOOK (user), with nothing to do
 *     but bump the count;
 *   - withdraw the thread's answers (lb_fast_void) before its own state
 *     can change on the thread, and before it calls the runtime itself
 *     (the last error: run_solo.h, lb_fast_take): at the entry of its
 *     pre hook (every call that is not direct starts there; post
 *     follows), at thread exit;
 *   - call nothing in the direct hook, as before;
 *   - withdraw every thread's (lb_fast_void_all) after something outside
 *     the thread changed what its answer would be (another thread's
 *     capture, a device reset, a stream destroyed, a fork child's
 *     start): the last withdrawal follows the last change.
 */
#ifndef LB_FAST_H
#define LB_FAST_H

#include "shim.h"

/* Marks of a row in struct lb_policy.direct_rows. */
#define LB_DIRECT_HOOK 0x01 /* the direct hook may serve the row */
#define LB_DIRECT_NULL 0x02 /* and the standing null answer too */
#define LB_DIRECT_SERVE 0x04 /* a row with no stream: the serve hook */

/* The handles a null answer serves: 0 and hipStreamPerThread. */
#define LB_NULLISH(s) (!(s) || (s) == hipStreamPerThread)

/* lb_fast_user's "every stream but the null ones". */
#define LB_FAST_ANY ((hipStream_t)-2)

/* struct lb_fast_ans (shim.h): this thread's, in its hot block */
#define lb_fast (lb_hot.fast)
/*
 * Bumped by lb_fast_void_all: every thread's answers lapse.  64 bits: a
 * thread that keeps an answer while 2^32 withdrawals pass (a stream
 * destroyed in a loop for hours) must not see it match again.
 */
extern uint64_t lb_fast_gen LB_HIDDEN;

/*
 * The epoch to leave an answer under: read before the policy looks at
 * what its answer depends on, so that a change made meanwhile by another
 * thread (then lb_fast_void_all) makes the answer lapse at once.
 */
static inline uint64_t lb_fast_epoch(void)
{
	return __atomic_load_n(&lb_fast_gen, __ATOMIC_ACQUIRE);
}

/* Are this thread's answers of the current epoch? */
static inline int lb_fast_fresh(const struct lb_fast_ans *f)
{
	return f->gen == __atomic_load_n(&lb_fast_gen, __ATOMIC_RELAXED);
}

/* This thread's answers, cleared if they are of another epoch. */
static inline struct lb_fast_ans *lb_fast_mine(uint64_t epoch)
{
	struct lb_fast_ans *f = &lb_fast;

	if (f->gen != epoch)
		*f = (struct lb_fast_ans){ .gen = epoch };
	return f;
}

/*
 * Until withdrawn, a submission of this thread on 0 or hipStreamPerThread
 * in a row marked LB_DIRECT_NULL goes to `to`, and *count (this thread's
 * own, read by others with relaxed atomics) is bumped.
 */
static inline void lb_fast_null(uint64_t epoch, hipStream_t to,
				uint64_t *count)
{
	struct lb_fast_ans *f = lb_fast_mine(epoch);

	f->null_to = to;
	f->null_count = count;
}

/*
 * Until withdrawn, a submission of this thread on s (LB_FAST_ANY: on any
 * stream but 0 and hipStreamPerThread) goes to the runtime unchanged.
 */
static inline void lb_fast_user(uint64_t epoch, hipStream_t s)
{
	lb_fast_mine(epoch)->user = s;
}

/* Withdraws the calling thread's answers. */
static inline void lb_fast_void(void)
{
	struct lb_fast_ans *f = &lb_fast;

	f->null_to = NULL;
	f->user = NULL;
}

/* Withdraws every thread's answers (any thread may call it). */
static inline void lb_fast_void_all(void)
{
	__atomic_add_fetch(&lb_fast_gen, 1, __ATOMIC_ACQ_REL);
}

#endif
