/*
 * lasterr.c - hipGetLastError, hipPeekAtLastError and hipExtGetLastError
 * answer what the runtime would have answered had it served every call of
 * the program itself, under that runtime's own rule.
 *
 * Two things make the runtime's own answer wrong while policies are
 * active: a call a policy served never reached it (the pool's hipMalloc,
 * its errors and successes), and the policies' own calls (stream0
 * creating its streams, the pool's fence events) leave their results in
 * it.  So after every program call that went through lb_run the shim
 * checks whether the runtime's last error is what the program should
 * see; if not, the thread's shadow takes over until the next call the
 * runtime answers consistently, and the runtime's value is reset to
 * hipSuccess (a later failure of a call the shim does not wrap then shows
 * there and wins, being later).
 *
 * The rules (hipRuntimeGetVersion tells which):
 *   5.x, 6.x: every call stores its result, success included (HIP_RETURN:
 *     hipamd src/hip_internal.hpp, rocm-5.2.0; clr hipamd/src/
 *     hip_internal.hpp, rocm-5.7.0, rocm-6.2.0); hipGetLastError and
 *     hipExtGetLastError (6.0 on) return it and reset it, hipPeekAtLastError
 *     returns it (hip_error.cpp, same tags).
 *   7.x: every call stores its result as the "command" error, and only a
 *     failure other than hipErrorNotReady as the last error, which
 *     hipGetLastError returns and resets; hipExtGetLastError returns and
 *     resets the command error; hipPeekAtLastError returns the last error
 *     through HIP_RETURN, so that it becomes the command error too (clr
 *     hipamd/src/hip_internal.hpp and hip_error.cpp at ROCm/clr commits
 *     292e8a68 and bb3a2f04; HIP docs/hip-7-changes.rst).
 *
 * lb_lasterr_end() is skipped (lb_le_skip, run_solo.h) when nothing but
 * the program's call reached the runtime since the last check (lb_rt_own)
 * and the runtime's last error is then the program's: after a call the
 * runtime answered itself, and after a success a policy served while the
 * runtime held hipSuccess as the program's last error (5.x/6.x: lb_le.ok)
 * or while lb_lasterr_begin's peek left the command error known (7.x).
 *
 * What cannot be known: a call the shim does not wrap that succeeds after
 * a shadowed failure.  Under the 5.x/6.x rule it would clear the error;
 * the shim cannot see it and still reports the shadowed failure.  And the
 * mirror, from the skip: one that fails just before a success a policy
 * served calling nothing (lb_le.ok still set) stays the last error.
 *
 * The 7.x rule is taken from the sources cited above as lasterr.c first
 * had them; those two commits are not in the mirrors on this machine
 * (ROCm/clr to Oct 2024, ROCm/rocm-systems to Aug 2025 without clr), so
 * hipemu's 7.2 profile (tests/hipemu/profile.c) is what the skip was
 * checked against.
 */
#define _GNU_SOURCE
#define LB_REAL_DIRECT /* the core: not counted in lb_rt_own */
#include "shim.h"
#include "run_solo.h"

int lb_le_on;	  /* policies active and the runtime has the calls */
int lb_rt_version; /* shim.h */
int lb_le_sticky; /* the 7.x rule */
int lb_le_lazy;	  /* the sticky rule without a command error: CUDA */

/* The thread's shadow, lb_le: struct lb_hot (shim.h), read inline by
 * lb_le_skip (run_solo.h). */

/* The runtime's three functions (rt.h: struct lb_rt_le_fns), from
 * lb_lasterr_init on. */
static struct lb_rt_le_fns lb_le_fn;

/* Rows whose calls store their result (rt.h: lb_rt_le.sets), read by
 * lb_lasterr_end and LB_LE_NOSET (run_solo.h). */
uint8_t lb_le_sets[LB_API_COUNT];
/* The runtime keeps LB_ST_NOT_READY as a failure (CUDA). */
static int lb_le_nr_kept;

/* Both rules' failure: a status the runtime keeps (7.x: every failure
 * but hipErrorNotReady, clr hipamd/src/hip_internal.hpp HIP_RETURN at
 * the commits cited above; CUDA: every status but success, rt_cuda.c). */
static int lb_is_failure(lb_status e)
{
	return e != LB_ST_OK && (e != LB_ST_NOT_READY || lb_le_nr_kept);
}

void lb_lasterr_init(void)
{
	int v = 0, asked = 0, i;

	lb_rt->le->fns(&lb_le_fn);
	if (!lb_le_fn.get || !lb_le_fn.peek)
		return;
	for (i = 0; i < LB_API_COUNT; i++)
		lb_le_sets[i] = (uint8_t)!!lb_rt->le->sets(i);
	lb_le_nr_kept = lb_rt->le->not_ready_kept;
	/*
	 * The rule, without a call where the runtime's file name tells the
	 * release (rt_hip.c): a call now would start the runtime before
	 * the program (rtstart.c: armed here for the rule of overwriting,
	 * 5.x and 6.x; a 7.x runtime is started by lb_lasterr_begin's
	 * peek, unprobed).
	 */
	lb_le_sticky = lb_rt->le->sticky(&v, &asked);
	lb_le_lazy = lb_le_sticky && !lb_le_fn.ext;
	if (!asked) {
		if (!lb_le_sticky)
			__atomic_store_n(&lb_rt_probed, 0, __ATOMIC_RELEASE);
		lb_le_on = 1;
		return;
	}
	if (v > 0)
		lb_rt_version = v; /* for the trace header */
	/* That call's result is the runtime's last error now: clear it. */
	lb_le_fn.get();
	lb_le_on = 1;
}

int lb_lasterr_fn(int api)
{
	unsigned role = lb_api_info[api].role;

	return role == LB_ROLE_LASTERR_GET || role == LB_ROLE_LASTERR_PEEK ||
	       role == LB_ROLE_LASTERR_EXT;
}

lb_status lb_lasterr_begin(void)
{
	/* 7.x: the last error before the call, for lb_lasterr_end. */
	if (!lb_le_on || !lb_le_sticky)
		return LB_ST_OK;
	return lb_le_fn.peek();
}

/*
 * The sticky rule without a command error (CUDA: every status but success
 * is kept until cudaGetLastError, rt_cuda.c) changes the runtime's last
 * error only at a failure, so a call that reached the runtime alone left
 * it as the program's call would have, and the value before the call is
 * needed only where the shim's own calls may have changed it.  It is
 * read then, before the first of them (lb_real_own, lb_rt_own_bump:
 * shim.h), instead of before every call: one runtime call fewer a
 * wrapped call.  A policy's own calls after the program's call read the
 * value that call left, which is what lb_lasterr_end wants: the call's
 * failure where it stores one (then the wanted value anyway), else the
 * value before it, unchanged.  Rows whose call a policy may retry (the
 * pool's allocations) take the peek before the call (run_solo.h): the
 * first try's failure would hide the value before.
 */
void lb_lasterr_lazy(void)
{
	lb_le.lazy = 0;
	lb_le.before = lb_le_fn.peek();
}

void lb_lasterr_end(const struct lb_call *c, lb_status before)
{
	lb_status want, now;
	int sets;

	/*
	 * The registration calls return no status and leave the last error
	 * alone (clr's __hipRegister* end without HIP_RETURN), and so do the
	 * calls of another library than the runtime's (CUDA's driver):
	 * lb_le_sets, by the runtime's side of the seam.  Under the sticky
	 * rule such a call's policies may still have called the runtime
	 * (the pool's chunk, for a cuMemAlloc_v2 it serves, from cudart's
	 * cudaMalloc where the thread has no context yet): then the last
	 * error must be what it was before, as if the call had succeeded.
	 */
	if (!lb_le_on || lb_lasterr_fn(c->api))
		return;
	sets = lb_le_sets[c->api];
	if (!sets && (!lb_le_sticky || lb_rt_own == lb_le.seen))
		return;
	if (lb_le_sticky) {
		lb_status prior = before != LB_ST_OK ? before :
				  lb_le.owned ? lb_le.last : LB_ST_OK;

		want = sets && lb_is_failure(c->ret) ? c->ret : prior;
	} else {
		want = c->ret;
	}
	lb_rt_probe_once(); /* the shim's own first call: rtstart.c */
	now = lb_le_fn.peek();
	lb_le.seen = lb_rt_own;
	lb_le.ok = 0;
	if (lb_le_sticky && sets) {
		/* Our peeks left the runtime's command error at now. */
		lb_le.cmd = c->ret;
		lb_le.cmd_mark = now;
		lb_le.cmd_owned = 1;
	}
	if (now == want) {
		lb_le.owned = 0;
		lb_le.ok = now == LB_ST_OK;
		return;
	}
	lb_le.last = want;
	lb_le.owned = 1;
	lb_le_fn.get();
	if (lb_le_sticky)
		lb_le.cmd_mark = lb_le_fn.peek();
}

void lb_lasterr_served(int api)
{
	struct lb_call c;

	lb_call_init(&c, api, NULL);
	lb_lasterr_end(&c, LB_ST_OK);
}

/* The runtime's answer r after the shadow took over: a later failure of an
 * unwrapped call shows in r and wins; otherwise the shadow's value. */
static lb_status lb_le_pick(lb_status r)
{
	return r != LB_ST_OK ? r : lb_le.last;
}

int lb_lasterr_serve(struct lb_call *c)
{
	lb_status r;

	if (!lb_le_on)
		return 0;
	switch (lb_api_info[c->api].role) {
	case LB_ROLE_LASTERR_GET:
		r = lb_le_fn.get();
		c->ret = lb_le.owned ? lb_le_pick(r) : r;
		lb_le.owned = 0;
		/* 5.x/6.x: the runtime's is hipSuccess now */
		lb_le.ok = 1;
		break;
	case LB_ROLE_LASTERR_PEEK:
		r = lb_le_fn.peek();
		c->ret = lb_le.owned ? lb_le_pick(r) : r;
		lb_le.ok = !lb_le.owned && r == LB_ST_OK;
		if (lb_le_sticky) {
			lb_le.cmd = c->ret;
			lb_le.cmd_mark = r;
			lb_le.cmd_owned = 1;
		}
		break;
	case LB_ROLE_LASTERR_EXT:
		if (!lb_le_fn.ext) {
			c->ret = lb_missing(c->api);
			break;
		}
		r = lb_le_fn.ext();
		if (!lb_le_sticky) {
			/* 6.x: the same value as hipGetLastError. */
			c->ret = lb_le.owned ? lb_le_pick(r) : r;
			lb_le.owned = 0;
			lb_le.ok = 1;
		} else {
			c->ret = lb_le.cmd_owned && r == lb_le.cmd_mark ?
					 lb_le.cmd : r;
			lb_le.cmd_owned = 0;
		}
		break;
	}
	return 1;
}
