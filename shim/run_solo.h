/*
 * run_solo.h - the steps of a call through the policies, written once
 * (lb_pipeline), and the two short routes a single policy may take (the
 * direct path and the serve path).  shim.h's route table says which steps
 * each route takes; this file is where the steps are.
 *
 * lb_pipeline() runs with a call context (struct lb_call) and a set of
 * hooks given as constants: the solo policy's (lb_solo, set once at
 * start-up: the common case, one policy alone, where the API id is a
 * constant and the thunk a direct call, inlined into each wrapper) or
 * the active policies' in order (lb_run, init.c, any mix).  The
 * generality of a loop over policies and of per-API facts looked up was
 * most of what a solo call paid (tests/bench/NOTES.md, "Figures that were
 * in the code"); with the hooks constant the compiler folds it away.
 */
#ifndef LB_RUN_SOLO_H
#define LB_RUN_SOLO_H

#include <errno.h>
#include "shim.h"
#include "kreg.h"
#include "fast.h"

/* on: exactly one policy is active, with these hooks (each may be NULL). */
struct lb_solo {
	int on;
	int (*pre)(struct lb_call *c);
	int (*retry)(struct lb_call *c);
	void (*post)(struct lb_call *c);
	lb_stream (*direct)(int api, const void *args, lb_stream s);
	int (*serve)(int api, void *args);
};
extern struct lb_solo lb_solo LB_HIDDEN;
/*
 * Rows the solo policy's direct hook may serve (struct lb_policy):
 * copied at start-up, less those the core itself must see (init.c).
 */
extern uint8_t lb_solo_direct[LB_API_COUNT] LB_HIDDEN;
/* The kinds of row (lb_api_info) the serve hook may take: allocations
 * and frees (init.c marks no other; wrappers.c builds it into no other). */
#define LB_SERVE_KIND(kind) ((kind) == LB_KIND_ALLOC || (kind) == LB_KIND_FREE)

/*
 * This thread's first call through the policies (init.c), which also
 * keeps the address of the thread's errno in lb_errno_p: errno is glibc's
 * __errno_location(), a call through the PLT at every use, where the
 * address, fixed for the thread's life, is one load of our own TLS.
 */
#define lb_thread_known (lb_hot.thread_known)
#define lb_errno_p (lb_hot.errno_p)
void lb_thread_first(void);
void lb_procaddr_post(struct lb_call *c);
/* lasterr.c: lb_lasterr_end() of a call of row api a policy answered
 * with hipSuccess (the serve path). */
void lb_lasterr_served(int api);
/* lasterr.c: nonzero when lb_lasterr_begin/end have work (else no-ops). */
extern int lb_le_on LB_HIDDEN;
extern int lb_le_sticky LB_HIDDEN; /* the 7.x rule */

/* lasterr.c: the thread's shadow of the last error (struct lb_hot). */
#define lb_le (lb_hot.le)

/* Calls that leave the last error alone (clr's __hipRegister* end
 * without HIP_RETURN; CUDA's registrations and driver calls: lasterr.c's
 * lb_le_sets): lb_lasterr_end ignores them. */
extern uint8_t lb_le_sets[LB_API_COUNT] LB_HIDDEN;
#define LB_LE_NOSET(api)                          \
	((api) == LB_ID___hipRegisterFatBinary ||  \
	 (api) == LB_ID___hipRegisterFunction ||   \
	 (api) == LB_ID___hipUnregisterFatBinary || \
	 (LB_API_IS_CUDA(api) && !lb_le_sets[api]))

/*
 * Can lb_lasterr_end() be skipped, the runtime's last error being already
 * what the program should see?  Only if nothing but the program's call
 * reached the runtime on this thread since lasterr.c last looked
 * (lb_rt_own unchanged: no policy call, in this call or between calls).
 * Then, by the runtime's rule (lasterr.c):
 *   - the runtime answered the call itself (LB_CALL_RT, the answer the
 *     program gets): it stored the result as the program's call would
 *     have (5.x/6.x: every result, HIP_RETURN in clr hipamd/src/
 *     hip_internal.hpp, rocm-5.7.0 and rocm-6.2.0; 7.x: every result as
 *     the command error, a failure also as the last error), so the shadow
 *     has nothing to add: a 7.x shadow of the last error stays right
 *     after a success (its later failures still win, lb_le_pick);
 *   - a policy answered it with hipSuccess, calling nothing: 5.x/6.x, the
 *     program's last error must be hipSuccess, which the runtime holds if
 *     ok; 7.x, the last error is unchanged and the command error is
 *     hipSuccess: the shadow takes the command error over (the runtime's
 *     is before's, which lb_lasterr_begin's peek left there).
 * Anything else (a failure a policy gave, a policy's own calls) takes
 * lb_lasterr_end.
 */
/* The runtime answered the program's call with r itself (lb_le_skip). */
static inline __attribute__((always_inline)) void
lb_le_rt_answered(struct lb_le_thread *t, hipError_t r)
{
	if (!lb_le_sticky) {
		t->owned = 0;
		t->ok = r == hipSuccess;
	} else {
		if (r != hipSuccess && r != hipErrorNotReady)
			t->owned = 0;
		t->cmd_owned = 0;
	}
}

static inline __attribute__((always_inline)) int
lb_le_skip(const struct lb_call *c, int api, hipError_t tr, hipError_t before)
{
	struct lb_le_thread *t = &lb_le;

	if (lb_rt_own != t->seen || LB_LE_NOSET(api))
		return 0;
	if ((c->flags & LB_CALL_RT) && c->ret == tr) {
		lb_le_rt_answered(t, tr);
		return 1;
	}
	if (c->ret != hipSuccess)
		return 0;
	if (!lb_le_sticky)
		return t->ok;
	t->cmd = hipSuccess;
	t->cmd_mark = before;
	t->cmd_owned = 1;
	return 1;
}

/*
 * A fresh call context, every field written: "= { .api = ... }" makes GCC
 * clear the 88 bytes with rep stos, whose start-up alone costs more than
 * the rest of a solo dispatch.  A field added to struct lb_call must be
 * added here (the assertion is the reminder).
 */
_Static_assert(sizeof(struct lb_call) == 88, "lb_call_init: new field?");
static inline __attribute__((always_inline)) void
lb_call_init(struct lb_call *c, int api, void *args)
{
	c->api = (uint16_t)api;
	c->handled = 0;
	c->flags = 0;
	c->ret = hipSuccess;
	c->args = args;
	c->stream = NULL;
	c->stream_named = NULL;
	c->rval = NULL;
	c->t0 = 0;
	c->t1 = 0;
	c->scratch[0] = 0;
	c->scratch[1] = 0;
	c->scratch[2] = 0;
	c->scratch[3] = 0;
}

/* lb_lasterr_fn(), foldable for a constant api. */
#define LB_LASTERR_FN(api)                                           \
	((api) == LB_ID_hipGetLastError ||                           \
	 (api) == LB_ID_hipPeekAtLastError ||                        \
	 (api) == LB_ID_hipExtGetLastError ||                        \
	 (api) == LB_ID_cudaGetLastError ||                          \
	 (api) == LB_ID_cudaPeekAtLastError)

/*
 * The hooks lb_pipeline calls: policy i of pols, or with pols NULL (a
 * constant: the solo route) the solo policy's.
 */
#define LB_HOOK(pols, i, h) ((pols) ? (pols)[i]->h : lb_solo.h)

/*
 * The steps of a call with a context, in the order they must run.  api
 * is c->api, kind and flags its row's (hip_api.def's columns), pols and
 * n the policies whose hooks run (pols NULL and n 1: lb_solo's); for
 * the solo route all are constants the compiler folds.
 *   1. The thread's first call (lb_thread_first: errno's address, the
 *      exit key); it keeps errno itself, so it comes before errno is
 *      read.
 *   2. errno saved: the policies' work must not change the program's.
 *   3. lb_depth raised: a call the runtime or a policy makes into a
 *      wrapper goes straight to the runtime.
 *   4. The 7.x runtimes' command error peeked (lb_lasterr_begin; a no-op
 *      for 5.x/6.x: lb_le_sticky alone stands for lb_le_on &&
 *      lb_le_sticky, as lasterr.c sets it only where it then sets
 *      lb_le_on, before any wrapper takes this path: lb_ready).
 *   5. The stream the program named kept (c->stream_named), then the
 *      pre hooks in order, until one serves the call.
 *   6. errno put back; unless served (by a hook, or the last-error
 *      functions by lasterr.c), the runtime through thunk, and once more
 *      when a policy's retry hook asks for it after a refusal.
 *   7. The runtime's errno kept for the program; a procedure address
 *      mapped to our wrapper (procaddr.c); the kernel registry learns
 *      (kreg.c) before the policies look.
 *   8. The post hooks in reverse order.
 *   9. The program's last error made right (lb_lasterr_end), unless the
 *      runtime's is already it (lb_le_skip).
 *  10. lb_depth lowered, errno the runtime's.
 */
static inline __attribute__((always_inline)) void
lb_pipeline(struct lb_call *c, lb_thunk_fn thunk, int api, int kind,
	    int flags, const struct lb_policy *const *pols, int n)
{
	int *ep, saved, i, again = 0;
	hipError_t le, tr = hipSuccess;

	if (LB_UNLIKELY(!lb_thread_known))
		lb_thread_first();
	ep = lb_errno_p;
	saved = *ep;
	lb_depth++;
	le = lb_le_sticky ? lb_lasterr_begin() : hipSuccess;
	if (c->stream)
		c->stream_named = *c->stream;
	for (i = 0; i < n; i++) {
		int (*pre)(struct lb_call *) = LB_HOOK(pols, i, pre);

		if (pre && pre(c)) {
			c->handled = 1;
			break;
		}
	}
	*ep = saved;
	if (!c->handled &&
	    !(LB_UNLIKELY(LB_LASTERR_FN(api)) && lb_lasterr_serve(c))) {
		thunk(c);
		if (LB_UNLIKELY(c->ret != hipSuccess)) {
			/* every policy is asked: each may give something back */
			for (i = 0; i < n; i++) {
				int (*retry)(struct lb_call *) =
					LB_HOOK(pols, i, retry);

				if (retry && retry(c))
					again = 1;
			}
			if (again) {
				*ep = saved;
				thunk(c);
			}
		}
		tr = c->ret;
	}
	/* the runtime's failed start, the program's (rtstart.c) */
	if (LB_UNLIKELY(lb_rt_fail))
		c->ret = lb_rt_first(api, c->ret);
	saved = *ep;
	if (LB_UNLIKELY(flags & LB_F_PROCADDR))
		lb_procaddr_post(c);
	if (LB_UNLIKELY(kind == LB_KIND_REG) && lb_kreg_on)
		lb_kreg_learn(c);
	for (i = n; i-- > 0;) {
		void (*post)(struct lb_call *) = LB_HOOK(pols, i, post);

		if (post)
			post(c);
	}
	if (lb_le_on && !lb_le_skip(c, api, tr, le))
		lb_lasterr_end(c, le);
	lb_depth--;
	*ep = saved;
}

/* The solo route: lb_pipeline with the solo policy's hooks. */
static inline __attribute__((always_inline)) void
lb_run_solo(struct lb_call *c, lb_thunk_fn thunk, int api, int kind,
	    int flags)
{
	lb_pipeline(c, thunk, api, kind, flags, NULL, 1);
}

/*
 * The direct path (issue 16): a call whose row the solo policy marked
 * goes to the runtime with none of lb_run_solo's context when the
 * policy's direct hook says its work is done.  Everything lb_run_solo
 * does around such a call is then either not needed or done here:
 *   - errno: the hook leaves it alone, so the runtime's value stays;
 *   - lb_depth: raised around the runtime call, as lb_run_solo does, so
 *     that a call the runtime makes into a wrapper goes straight through;
 *   - the last error: the runtime answers the call itself, so when
 *     nothing but the program's calls reached it since lasterr.c last
 *     looked (lb_rt_own == seen, tested before; the hook calls nothing),
 *     lb_le_skip would take its LB_CALL_RT branch, done by
 *     lb_direct_end (the runtime stores the result of the program's
 *     call by its rule: HIP_RETURN, clr hipamd/src/hip_internal.hpp,
 *     rocm-5.7.0 and rocm-6.2.0, and lasterr.c for 7.x); the 7.x peek
 *     before the call (lb_lasterr_begin) is read only off that branch,
 *     so it is not made;
 *   - rows with LB_F_PROCADDR, LB_KIND_REG or the last-error functions
 *     are never marked (init.c), and the policy marks no row whose post
 *     hook has work.
 * Returns the stream to call the runtime with (then lb_direct_end), or
 * LB_DIRECT_NO for the full path.
 */
static inline __attribute__((always_inline)) hipStream_t
lb_direct_begin(int api, const void *args, hipStream_t s)
{
	if (LB_UNLIKELY(!lb_thread_known) ||
	    (lb_le_on && LB_UNLIKELY(lb_rt_own != lb_le.seen)) ||
	    (s = lb_solo.direct(api, args, s)) == LB_DIRECT_NO)
		return LB_DIRECT_NO;
	lb_depth++;
	return s;
}

/*
 * The standing answer (fast.h) for a submission of row api on stream s:
 * the stream to call the runtime with, the count bumped; or NULL, for the
 * direct hook.  lb_direct_begin's conditions hold: the thread is known
 * (it has no answer before its first hook), and nothing but the
 * program's calls reached the runtime on it since lasterr.c last looked
 * (an answer is left only then, by the hook lb_direct_begin let run, and
 * the policy calls the runtime only after its pre or thread_exit hook
 * withdrew it; direct, fork and fini hooks call nothing: shim.h).
 */
static inline __attribute__((always_inline)) hipStream_t
lb_fast_take(int api, hipStream_t s)
{
	struct lb_fast_ans *f = &lb_fast;
	hipStream_t to;
	uint64_t *n;

	/*
	 * The answers' cases fall through, the null stream's first (what
	 * stream0 is for): a taken branch costs on this kind of machine.
	 */
	if (LB_LIKELY(LB_NULLISH(s))) {
		if (LB_UNLIKELY(!(lb_solo_direct[api] & LB_DIRECT_NULL)))
			return NULL;
		to = f->null_to;
		n = f->null_count;
		if (LB_UNLIKELY(!lb_fast_fresh(f) || !to))
			return NULL;
		__atomic_store_n(n, *n + 1, __ATOMIC_RELAXED);
		return to;
	}
	if (LB_UNLIKELY(!lb_fast_fresh(f) ||
			(s != f->user && f->user != LB_FAST_ANY)))
		return NULL;
	return s;
}

/*
 * After the runtime answered r: lb_le_skip's LB_CALL_RT branch.  Without
 * lb_le_on the shadow is never read, so the 5.x/6.x branch is taken
 * without testing it (lb_le_sticky is set only with lb_le_on): one test
 * fewer on every direct call.
 */
static inline __attribute__((always_inline)) void
lb_direct_end(hipError_t r)
{
	lb_depth--;
	lb_le_rt_answered(&lb_le, r);
}

/*
 * The serve path (struct lb_policy.serve): a call of a row with no stream
 * that the solo policy answers itself with hipSuccess (the pool's hits),
 * with none of lb_run_solo's context.  What lb_run_solo does around such
 * a call is done here or not needed:
 *   - errno kept, lb_depth raised around the hook and the last-error
 *     step, as there;
 *   - the last error: a policy's answer of hipSuccess.  When nothing but
 *     the program's calls reached the runtime since lasterr.c last looked
 *     and the runtime's last error is hipSuccess (lb_le.ok), lb_le_skip
 *     skips lb_lasterr_end: so here.  Otherwise (the hook called the
 *     runtime: the pool's fence) lb_lasterr_served.  The 7.x rule needs
 *     the runtime's command error from before the call (a peek): those
 *     runtimes take the full path (lb_le_sticky);
 *   - no pre, post or retry hook (serve did the pre hook's work and
 *     answered; the policy's post hook has none for a call it answered),
 *     no procedure address, registration or last-error row (init.c).
 * Returns 1 when the call was answered (then hipSuccess), 0 when it takes
 * the full path, the hook having changed nothing.
 */
static inline __attribute__((always_inline)) int lb_serve(int api, void *args)
{
	int *ep, saved, r;

	if (LB_UNLIKELY(!lb_thread_known) || lb_le_sticky)
		return 0;
	ep = lb_errno_p;
	saved = *ep;
	lb_depth++;
	r = lb_solo.serve(api, args);
	/* (inside, as lb_run_solo looks: its runtime calls may set errno) */
	if (r && lb_le_on && (lb_rt_own != lb_le.seen || !lb_le.ok))
		lb_lasterr_served(api);
	lb_depth--;
	*ep = saved;
	return r;
}

#endif
