/*
 * run_solo.h - the steps of a wrapped call, written once (lb_pipeline),
 * and the hooks of its routes.  shim.h's route table says which steps
 * each route takes; this file is where the steps are.
 *
 * lb_pipeline() runs a call with a route given as a constant (shim.h:
 * pass-through, the standing answer, the direct and serve hooks, one
 * policy alone, the active policies) and, for the policies' routes, a
 * set of hooks: the solo policy's (lb_solo, set once at start-up: the
 * common case, one policy alone, where the API id is a constant and the
 * thunk a direct call, inlined into each wrapper) or the active policies'
 * in order (lb_run, init.c, any mix).  The generality of a loop over
 * policies and of per-API facts looked up was most of what a solo call
 * paid (tests/bench/NOTES.md, "Figures that were in the code"); with the
 * route and the hooks constant the compiler folds it away, and each
 * route keeps only its own steps.
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
 * copied at start-up, less those that need a step the route lacks
 * (lb_route_fits, init.c).
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
/* lasterr.c: the sticky rule, the value before a call read lazily */
extern int lb_le_lazy LB_HIDDEN;

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
 * May route r take row api: does r take every step the row needs?  A
 * procedure-address lookup needs procaddr, a registration the kernel
 * registry, a last-error function the full last-error step (lasterr.c
 * answers it).  init.c marks the short routes' rows by it.
 */
static inline int lb_route_fits(int r, int api)
{
	unsigned s = lb_route_steps[r];

	return !((lb_api_info[api].flags & LB_F_PROCADDR) &&
		 !(s & LB_STEP_PROCADDR)) &&
	       !(lb_api_info[api].kind == LB_KIND_REG && !(s & LB_STEP_KREG)) &&
	       !(lb_lasterr_fn(api) && !(s & LB_STEP_LE));
}

/*
 * The standing answer (fast.h) for a submission of row api on stream s:
 * the stream to call the runtime with, the count bumped; or NULL, for the
 * direct hook.
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
 * The hooks lb_pipeline calls: policy i of pols, or with pols NULL (a
 * constant: the solo route) the solo policy's.
 */
#define LB_HOOK(pols, i, h) ((pols) ? (pols)[i]->h : lb_solo.h)

/*
 * The steps of a wrapped call, in the order they must run, each taken
 * only where route's row (shim.h, a constant) has it.  c: the call
 * context (the short routes read only api, args and stream of it and
 * the compiler keeps no more); thunk: the runtime's function with c's
 * arguments; api, kind and flags: c's row and hip_api.def's columns of
 * it; have_rt: the runtime has the row's function; pols and n: the
 * policies whose hooks run (pols NULL and n 1: lb_solo's).  For a
 * wrapper's routes all are constants the compiler folds.
 *   0. Admission of a short route (shim.h): where a step it skips would
 *      be needed, return 0 having changed nothing; the wrapper then
 *      takes the next route.  The standing answer or the direct hook
 *      gives the stream to use (neither calls the runtime nor changes
 *      errno: fast.h, struct lb_policy).
 *   1. The thread's first call (lb_thread_first: errno's address, the
 *      exit key); it keeps errno itself, so it comes before errno is
 *      read.
 *   2. errno saved: the policies' work must not change the program's.
 *   3. lb_depth raised: a call the runtime or a policy makes into a
 *      wrapper goes straight to the runtime.
 *   4. The 7.x runtimes' command error peeked (lb_lasterr_begin; a no-op
 *      for 5.x/6.x: lb_le_sticky alone stands for lb_le_on &&
 *      lb_le_sticky, as lasterr.c sets it only where it then sets
 *      lb_le_on, before any wrapper takes this path: lb_ready); under
 *      CUDA's rule (lb_le_lazy) only marked, to be read before the
 *      shim's first own call (lasterr.c, lb_lasterr_lazy), but for an
 *      allocation, which a policy may retry, and after own calls that
 *      lasterr.c has not looked at (lb_rt_own moved: peeked, as
 *      before).
 *   5. The hooks before the runtime: the serve hook answers the call or
 *      refuses it (then 0, errno and lb_depth put back); or the stream
 *      the program named is kept (c->stream_named), then the pre hooks
 *      run in order until one serves the call; or the stream step 0
 *      chose goes in place of the program's.
 *   6. errno put back; unless served (by a hook, or the last-error
 *      functions by lasterr.c), the runtime through thunk, and once more
 *      when a policy's retry hook asks for it after a refusal.
 *   7. The runtime's failed start given to the program's call; the
 *      runtime's errno kept for the program; a procedure address mapped
 *      to our wrapper (procaddr.c); the kernel registry learns (kreg.c)
 *      before the policies look.
 *   8. The post hooks in reverse order.
 *   9. The program's last error made right: lb_lasterr_end, unless the
 *      runtime's is already it (lb_le_skip; LE_RT: the runtime answered
 *      the call itself; LE_OK: a policy's hipSuccess, lb_le_skip's test
 *      for it).
 *  10. lb_depth lowered, errno the runtime's.
 * Returns 1 when the call was made (its answer in c), 0 when a short
 * route refused it.
 */
static inline __attribute__((always_inline)) int
lb_pipeline(int route, struct lb_call *c, lb_thunk_fn thunk, int api,
	    int kind, int flags, int have_rt,
	    const struct lb_policy *const *pols, int n)
{
	const unsigned S = lb_route_steps[route];
	int *ep = NULL, saved = 0, i, again = 0, lazy = 0;
	hipError_t le = hipSuccess, tr = hipSuccess;
	hipStream_t s = NULL;

	/* 0. admission */
	if ((S & LB_STEP_HOOKS) && !(S & (LB_STEP_FIRST | LB_STEP_ANSWER)) &&
	    LB_UNLIKELY(!lb_thread_known))
		return 0;
	if ((S & LB_STEP_LE_RT) && !(S & LB_STEP_ANSWER) &&
	    lb_le_on && LB_UNLIKELY(lb_rt_own != lb_le.seen))
		return 0;
	if ((S & LB_STEP_LE_RT) && !have_rt)
		return 0;
	if ((S & LB_STEP_LE_OK) && lb_le_sticky)
		return 0;
	if ((S & LB_STEP_ANSWER) && !(s = lb_fast_take(api, *c->stream)))
		return 0;
	if ((S & LB_STEP_DIRECT) &&
	    (s = lb_solo.direct(api, c->args, *c->stream)) == LB_DIRECT_NO)
		return 0;
	/* 1-4 */
	if ((S & LB_STEP_FIRST) && LB_UNLIKELY(!lb_thread_known))
		lb_thread_first();
	if (S & LB_STEP_ERRNO) {
		ep = lb_errno_p;
		saved = *ep;
	}
	if (S & LB_STEP_DEPTH)
		lb_depth++;
	if ((S & LB_STEP_LE) && lb_le_sticky) {
		if (lb_le_lazy && kind != LB_KIND_ALLOC &&
		    lb_rt_own == lb_le.seen) {
			lazy = 1;
			lb_le.before = hipSuccess;
			lb_le.lazy = 1;
		} else {
			le = lb_lasterr_begin();
		}
	}
	/* 5 */
	if (S & LB_STEP_SERVE) {
		if (!lb_solo.serve(api, c->args)) {
			lb_depth--;
			*ep = saved;
			return 0;
		}
		c->handled = 1;
	}
	if (S & LB_STEP_POLICY) {
		if (c->stream)
			c->stream_named = *c->stream;
		for (i = 0; i < n; i++) {
			int (*pre)(struct lb_call *) = LB_HOOK(pols, i, pre);

			if (pre && pre(c)) {
				c->handled = 1;
				break;
			}
		}
	}
	if (S & (LB_STEP_ANSWER | LB_STEP_DIRECT))
		*c->stream = s;
	/* 6 */
	if (S & LB_STEP_ERRNO)
		*ep = saved;
	if (!c->handled &&
	    !((S & LB_STEP_LE) && LB_UNLIKELY(LB_LASTERR_FN(api)) &&
	      lb_lasterr_serve(c))) {
		thunk(c, !!(S & LB_STEP_LE_RT));
		if ((S & LB_STEP_POLICY) && LB_UNLIKELY(c->ret != hipSuccess)) {
			/* every policy is asked: each may give something back */
			for (i = 0; i < n; i++) {
				int (*retry)(struct lb_call *) =
					LB_HOOK(pols, i, retry);

				if (retry && retry(c))
					again = 1;
			}
			if (again) {
				*ep = saved;
				thunk(c, 0);
			}
		}
		tr = c->ret;
	}
	/* 7 */
	if ((S & LB_STEP_RTSTART) && LB_UNLIKELY(lb_rt_fail))
		c->ret = lb_rt_first(api, c->ret);
	if (S & LB_STEP_ERRNO)
		saved = *ep;
	if ((S & LB_STEP_PROCADDR) && LB_UNLIKELY(flags & LB_F_PROCADDR))
		lb_procaddr_post(c);
	if ((S & LB_STEP_KREG) && LB_UNLIKELY(kind == LB_KIND_REG) &&
	    lb_kreg_on)
		lb_kreg_learn(c);
	/* 8 */
	if (S & LB_STEP_POLICY)
		for (i = n; i-- > 0;) {
			void (*post)(struct lb_call *) = LB_HOOK(pols, i, post);

			if (post)
				post(c);
		}
	/* 9 */
	if (lazy) {
		/* hipSuccess where no own call came: lasterr.c says why */
		le = lb_le.before;
		lb_le.lazy = 0;
	}
	if ((S & LB_STEP_LE) && lb_le_on && !lb_le_skip(c, api, tr, le))
		lb_lasterr_end(c, le);
	if (S & LB_STEP_LE_RT)
		lb_le_rt_answered(&lb_le, c->ret);
	if ((S & LB_STEP_LE_OK) && lb_le_on &&
	    (lb_rt_own != lb_le.seen || !lb_le.ok))
		lb_lasterr_served(api);
	/* 10 */
	if (S & LB_STEP_DEPTH)
		lb_depth--;
	if (S & LB_STEP_ERRNO)
		*ep = saved;
	return 1;
}

#endif
