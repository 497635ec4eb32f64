/*
 * wrappers.c - one exported function per row of hip_api.def.
 *
 * A wrapper holds no policy logic and no step of a call: each of its
 * routes (shim.h's table: pass-through, the standing answer, the direct
 * and serve hooks, one policy alone, the active policies) is
 * lb_pipeline (run_solo.h) with the route, the row's id, kind and flags
 * and the thunk as constants.  The exported function tests the gate and
 * picks the routes; what runs before lb_init() has finished is in
 * lb_early_<name>, out of its way.  With policies (lb_gate 2) the
 * wrapper's code falls through, the pass-through (1) takes one branch: a
 * taken branch costs on a CPU whose core another machine's work shares,
 * and the policies' side has more of them to avoid (tests/bench/NOTES.md,
 * "Figures that were in the code").
 */
#include <stddef.h>
#define LB_REAL_DIRECT /* the core: not counted in lb_rt_own */
#include "shim.h"
#include "run_solo.h"

/* Per return type: call the runtime, return its value, or a missing one. */
#define LB_RETURN_hipError_t(call) return call
#define LB_RETURN_lb_modules_t(call) return call
#define LB_RETURN_int(call) return call
#define LB_RETURN_lb_cstr_t(call) return call
#define LB_RETURN_void(call) \
	do {                 \
		call;        \
		return;      \
	} while (0)
/* Per return type: a missing function's answer (lb_missing warns). */
#define LB_MISSING_hipError_t(id) return lb_missing(id)
#define LB_MISSING_lb_modules_t(id) \
	do {                        \
		lb_missing(id);     \
		return NULL;        \
	} while (0)
/* hipGetStreamDeviceId's "no device", hipKernelNameRefByPtr's "no name" */
#define LB_MISSING_int(id)      \
	do {                    \
		lb_missing(id); \
		return -1;      \
	} while (0)
#define LB_MISSING_lb_cstr_t(id) \
	do {                     \
		lb_missing(id);  \
		return NULL;     \
	} while (0)
#define LB_MISSING_void(id) \
	do {                \
		lb_missing(id); \
		return;     \
	} while (0)
/* The same into a call context, and the runtime's answer (LB_CALL_RT). */
#define LB_MISSED_hipError_t(c, id) ((c)->ret = lb_missing(id))
#define LB_MISSED_lb_modules_t(c, id) \
	((c)->ret = lb_missing(id), (c)->rval = NULL)
#define LB_MISSED_int(c, id) \
	((c)->ret = lb_missing(id), (c)->rval = (void *)(intptr_t)-1)
#define LB_MISSED_lb_cstr_t(c, id) \
	((c)->ret = lb_missing(id), (c)->rval = NULL)
#define LB_MISSED_void(c, id) ((c)->ret = lb_missing(id))
#define LB_STORE_hipError_t(c, call) \
	((c)->ret = call, (c)->flags |= LB_CALL_RT)
#define LB_STORE_lb_modules_t(c, call) \
	((c)->rval = (void *)(call), (c)->ret = hipSuccess)
#define LB_STORE_void(c, call) (call, (c)->ret = hipSuccess)
#define LB_STORE_int(c, call) \
	((c)->rval = (void *)(intptr_t)(call), (c)->ret = hipSuccess)
#define LB_STORE_lb_cstr_t(c, call) \
	((c)->rval = (void *)(uintptr_t)(call), (c)->ret = hipSuccess)
#define LB_RESULT_hipError_t(c) return (c).ret
#define LB_RESULT_lb_modules_t(c) return (lb_modules_t)(c).rval
#define LB_RESULT_void(c) return
#define LB_RESULT_int(c) return (int)(intptr_t)(c).rval
#define LB_RESULT_lb_cstr_t(c) return (lb_cstr_t)(c).rval

#define LB_AARG_(a, x) a->x
#define LB_ADDR_(a, x) , (void *)&a.x
/*
 * In a wrapper: its arguments as the row's struct (lb_a) and lb_sp, the
 * address of the stream argument in it, or NULL for a row with none
 * (lb_argv[0]).
 */
#define LB_ARGS(NAME, A, SIDX)                                        \
	struct lb_args_##NAME lb_a = { LB_UNPAREN A };                \
	void *lb_argv[] = { NULL LB_MAP(LB_ADDR_, lb_a, A) };         \
	lb_stream *lb_sp = lb_argv[(SIDX) >= 0 ? (SIDX) + 1 : 0]

/*
 * In a wrapper: the call context of its arguments (lb_c, lb_a), and
 * route R (shim.h) of the row run on it: lb_pipeline, whose answer is 1
 * when the route took the call (then LB_RESULT_<ret>(lb_c)) and 0 when
 * it refused it, having changed nothing (then LB_AGAIN(A), lb_a's
 * arguments, go to the next route: the program's, where the compiler
 * keeps them in lb_a anyway).  pols and n: lb_pipeline's (NULL and 1:
 * the solo policy's hooks).  The short routes' context too: the compiler
 * keeps of it only what their steps read (the arguments, the stream's
 * slot).
 */
#define LB_CTX(NAME, A, SIDX)                            \
	LB_ARGS(NAME, A, SIDX);                          \
	struct lb_call lb_c;                             \
	lb_call_init(&lb_c, LB_ID_##NAME, &lb_a);        \
	lb_c.stream = lb_sp
#define LB_PIPE(R, NAME, KIND, FLAGS, pols, n)                             \
	lb_pipeline(LB_ROUTE_##R, &lb_c, lb_thunk_##NAME, LB_ID_##NAME,    \
		    LB_KIND_##KIND, FLAGS, lb_real.NAME != NULL, pols, n)
#define LB_AGAIN(A) (LB_MAPC_N(LB_NARGS(A), LB_AARG_, (&lb_a), A))

/*
 * The solo policy's short routes (shim.h), for rows that return
 * hipError_t: with a stream, lb_direct_<name>, the thread's standing
 * answer (fast.h), else lb_hook_<name>, the direct hook; without one
 * (an allocation or a free), lb_serve_<name>; each falls back to
 * lb_slow_<name>, the solo route, with nothing changed.
 * lb_direct_<name> and lb_serve_<name> are inlined into the exported
 * function (a jump to another function cost more than their
 * instructions: tests/bench/NOTES.md); the pass-through path stays free
 * of their frames (GCC saves registers only on the policies' side);
 * lb_hook_<name> stays out of line.  Other return types take
 * lb_slow_<name> (no row with a stream returns them but queries).
 */
#define LB_INLINE_UNUSED __attribute__((always_inline, unused))
#define LB_DIRECT_OK_hipError_t 1
#define LB_DIRECT_OK_lb_modules_t 0
#define LB_DIRECT_OK_int 0
#define LB_DIRECT_OK_lb_cstr_t 0
#define LB_DIRECT_OK_void 0
#define LB_DIRECT_hipError_t(NAME, P, A, SIDX, KIND, FLAGS)                  \
	static __attribute__((noinline, unused)) hipError_t lb_hook_##NAME P  \
	{                                                                    \
		LB_CTX(NAME, A, SIDX);                                       \
		if (LB_PIPE(DIRECT, NAME, KIND, FLAGS, NULL, 1))             \
			return lb_c.ret;                                     \
		return lb_slow_##NAME LB_AGAIN(A);                           \
	}                                                                    \
	static inline LB_INLINE_UNUSED hipError_t lb_direct_##NAME P         \
	{                                                                    \
		LB_CTX(NAME, A, SIDX);                                       \
		if (LB_PIPE(ANSWER, NAME, KIND, FLAGS, NULL, 1))             \
			return lb_c.ret;                                     \
		return lb_hook_##NAME LB_AGAIN(A);                           \
	}                                                                    \
	static inline LB_INLINE_UNUSED hipError_t lb_serve_##NAME P          \
	{                                                                    \
		LB_CTX(NAME, A, SIDX);                                       \
		if (LB_PIPE(SERVE, NAME, KIND, FLAGS, NULL, 1))              \
			return lb_c.ret;                                     \
		return lb_slow_##NAME LB_AGAIN(A);                           \
	}
#define LB_DIRECT_lb_modules_t(NAME, P, A, SIDX, KIND, FLAGS)
#define LB_DIRECT_int(NAME, P, A, SIDX, KIND, FLAGS)
#define LB_DIRECT_lb_cstr_t(NAME, P, A, SIDX, KIND, FLAGS)
#define LB_DIRECT_void(NAME, P, A, SIDX, KIND, FLAGS)
/*
 * lb_direct_<name> (a row with a stream) or lb_serve_<name> (an
 * allocation or a free without one: init.c marks no other row for the
 * serve hook, and other rows' wrappers then keep no frame for it) if the
 * row may take it, else lb_slow_<name>.
 */
#define LB_HOOKED_1(RET, NAME, A, SIDX, KIND)                              \
	do {                                                               \
		if ((SIDX) >= 0 && lb_solo_direct[LB_ID_##NAME])           \
			LB_RETURN_##RET(lb_direct_##NAME A);               \
		if ((SIDX) < 0 && LB_SERVE_KIND(LB_KIND_##KIND) &&         \
		    lb_solo_direct[LB_ID_##NAME])                          \
			LB_RETURN_##RET(lb_serve_##NAME A);                \
		LB_RETURN_##RET(lb_slow_##NAME A);                         \
	} while (0)
#define LB_HOOKED_0(RET, NAME, A, SIDX, KIND) \
	LB_RETURN_##RET(lb_slow_##NAME A)

#define LB_DECL_AS(SYM, RET, NAME, P) \
	LB_EXPORT RET NAME P __asm__(SYM);
#define LB_DECL(RET, NAME, P)

#define LB_WRAPPER(RET, NAME, P, A, SIDX, KIND, FLAGS)                        \
	static inline __attribute__((always_inline)) void lb_thunk_##NAME(    \
		struct lb_call *lb_c, int lb_have)                            \
	{                                                                     \
		struct lb_args_##NAME *lb_a = lb_c->args;                    \
		(void)lb_a;                                                   \
		if (!lb_have && LB_UNLIKELY(!lb_real.NAME)) {                 \
			LB_MISSED_##RET(lb_c, LB_ID_##NAME);                  \
			return;                                               \
		}                                                             \
		LB_STORE_##RET(lb_c, lb_real.NAME(LB_MAPC_N(                  \
			LB_NARGS(A), LB_AARG_, lb_a, A)));                    \
	}                                                                     \
	/* the policies' routes: one policy alone (SOLO), or lb_run */        \
	static __attribute__((noinline)) RET lb_slow_##NAME P                 \
	{                                                                     \
		LB_CTX(NAME, A, SIDX);                                        \
		if (LB_LIKELY(lb_solo.on))                                    \
			LB_PIPE(SOLO, NAME, KIND, FLAGS, NULL, 1);            \
		else                                                          \
			lb_run(&lb_c, lb_thunk_##NAME);                       \
		LB_RESULT_##RET(lb_c);                                        \
	}                                                                     \
	LB_DIRECT_##RET(NAME, P, A, SIDX, KIND, FLAGS)                        \
	/* before lb_init() has finished: off the exported function's path */ \
	static __attribute__((noinline, cold)) RET lb_early_##NAME P          \
	{                                                                     \
		RET(*lb_fn) P;                                                \
		if (lb_depth)                                                 \
			lb_fn = lb_resolve_one(LB_ID_##NAME);                 \
		else {                                                        \
			lb_init();                                            \
			lb_fn = lb_real.NAME;                                 \
		}                                                             \
		if (lb_hooks && !lb_depth)                                    \
			LB_RETURN_##RET(lb_slow_##NAME A);                    \
		if (!lb_fn)                                                   \
			LB_MISSING_##RET(LB_ID_##NAME);                       \
		LB_RETURN_##RET(lb_fn A);                                     \
	}                                                                     \
	LB_EXPORT RET NAME P                                                  \
	{                                                                     \
		int lb_g = __atomic_load_n(&lb_gate, __ATOMIC_ACQUIRE);      \
		if (LB_LIKELY(lb_g == 2)) {                                   \
			if (!lb_depth)                                        \
				LB_CAT(LB_HOOKED_,                            \
				       LB_DIRECT_OK_##RET)(RET, NAME, A,      \
							   SIDX, KIND);       \
		} else if (LB_UNLIKELY(!lb_g)) {                              \
			LB_RETURN_##RET(lb_early_##NAME A);                   \
		}                                                             \
		{                                                             \
			LB_CTX(NAME, A, SIDX);                                \
			LB_PIPE(PASS, NAME, KIND, FLAGS, NULL, 0);            \
			LB_RESULT_##RET(lb_c);                                \
		}                                                             \
	}

#define LB_API_AS(SYM, RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	LB_DECL_AS(SYM, RET, NAME, P)                          \
	LB_WRAPPER(RET, NAME, P, A, SIDX, KIND, FLAGS)
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	LB_WRAPPER(RET, NAME, P, A, SIDX, KIND, FLAGS)
#include "lbshim/hip_api.def"
#undef LB_API
#undef LB_API_AS

/*
 * The shim defines every row, the ones HIP's headers mark deprecated
 * (hipMemcpyToArray, hipMemcpyFromArray, hipHostAlloc, hipMallocHost,
 * hipMemAllocHost) too: programs still call them.  Defining them warns
 * of nothing; taking their address here does, so only here is the
 * warning off.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void *const lb_wrappers[LB_API_COUNT] = {
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	[LB_ID_##NAME] = (void *)NAME,
#include "lbshim/hip_api.def"
#undef LB_API
};
#pragma GCC diagnostic pop

void *lb_wrapper_addr(int api)
{
	return api >= 0 && api < LB_API_COUNT ? lb_wrappers[api] : NULL;
}
