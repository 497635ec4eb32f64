/*
 * wrappers.c - one exported function per row of hip_api.def.
 *
 * A wrapper holds no policy logic: resolve, then either forward straight to
 * the runtime (no policy active, or the shim is already on this thread's
 * stack) or build a call context and let lb_run() apply the policies
 * (lb_run_solo(), inlined here, when one policy alone is active).
 * The fast path is a few loads and tests and a tail call; what runs
 * before lb_init() has finished is in lb_early_<name>, out of its way.
 * With policies (lb_gate 2) the wrapper's code falls through, the
 * pass-through (1) takes one branch: a taken branch costs on a CPU whose
 * core another machine's work shares, and the policies' side has more of
 * them to avoid (tests/bench/NOTES.md, "Figures that were in the code").
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

/*
 * The direct path (run_solo.h), for rows that return hipError_t and take
 * a stream.  lb_direct_<name>: the thread's standing answer (fast.h)
 * applied to the stream argument in place (lb_ps, the parameter's
 * address, a constant the compiler folds), then the runtime; without one,
 * lb_hook_<name>: the arguments as lb_slow_<name> keeps them (LB_ARGS),
 * the stream's slot handed to the solo policy's direct hook, then the
 * runtime.  lb_direct_<name> and lb_serve_<name> are inlined into the
 * exported function (a jump to another function cost more than their
 * instructions: tests/bench/NOTES.md); the pass-through path stays
 * free of their frames (GCC saves registers only on the policies' side);
 * lb_hook_<name> stays out of line.
 * lb_serve_<name>, for rows with no stream: the solo policy's
 * serve hook answers the call (lb_serve), or lb_slow_<name>.  Other
 * return types take lb_slow_<name> (no row with a stream returns them
 * but queries).
 */
#define LB_INLINE_UNUSED __attribute__((always_inline, unused))
#define LB_DIRECT_OK_hipError_t 1
#define LB_DIRECT_OK_lb_modules_t 0
#define LB_DIRECT_OK_int 0
#define LB_DIRECT_OK_lb_cstr_t 0
#define LB_DIRECT_OK_void 0
#define LB_PADDR_(d, x) , (void *)&x
#define LB_DIRECT_hipError_t(NAME, P, A, SIDX)                                \
	static __attribute__((noinline, unused)) hipError_t lb_hook_##NAME P   \
	{                                                                     \
		LB_ARGS(NAME, A, SIDX);                                       \
		hipStream_t lb_s;                                             \
		hipError_t lb_r;                                              \
		if (!lb_real.NAME ||                                          \
		    (lb_s = lb_direct_begin(LB_ID_##NAME, &lb_a, *lb_sp)) ==  \
			    LB_DIRECT_NO)                                     \
			return lb_slow_##NAME(                                \
				LB_MAPC_N(LB_NARGS(A), LB_AARG_, (&lb_a), A)); \
		*lb_sp = lb_s;                                                \
		lb_r = lb_real.NAME(                                          \
			LB_MAPC_N(LB_NARGS(A), LB_AARG_, (&lb_a), A));        \
		if (LB_UNLIKELY(lb_rt_fail))                                  \
			lb_r = lb_rt_first(LB_ID_##NAME, lb_r);               \
		lb_direct_end(lb_r);                                          \
		return lb_r;                                                  \
	}                                                                     \
	static inline LB_INLINE_UNUSED hipError_t lb_direct_##NAME P          \
	{                                                                     \
		void *lb_pv[] = { NULL LB_MAP(LB_PADDR_, _, A) };             \
		hipStream_t *lb_ps = lb_pv[(SIDX) >= 0 ? (SIDX) + 1 : 0];     \
		hipStream_t lb_s;                                             \
		hipError_t lb_r;                                              \
		if (!lb_ps || !lb_real.NAME ||                                \
		    !(lb_s = lb_fast_take(LB_ID_##NAME, *lb_ps)))             \
			return lb_hook_##NAME A;                              \
		*lb_ps = lb_s;                                                \
		lb_depth++;                                                   \
		lb_r = lb_real.NAME A;                                        \
		lb_direct_end(lb_r);                                          \
		return lb_r;                                                  \
	}                                                                     \
	static inline LB_INLINE_UNUSED hipError_t lb_serve_##NAME P           \
	{                                                                     \
		LB_ARGS(NAME, A, SIDX);                                       \
		(void)lb_sp;                                                  \
		if (lb_serve(LB_ID_##NAME, &lb_a))                            \
			return hipSuccess;                                    \
		return lb_slow_##NAME(                                        \
			LB_MAPC_N(LB_NARGS(A), LB_AARG_, (&lb_a), A));        \
	}
#define LB_DIRECT_lb_modules_t(NAME, P, A, SIDX)
#define LB_DIRECT_int(NAME, P, A, SIDX)
#define LB_DIRECT_lb_cstr_t(NAME, P, A, SIDX)
#define LB_DIRECT_void(NAME, P, A, SIDX)
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

#define LB_DECL_AS(SYM, RET, NAME, P) \
	LB_EXPORT RET NAME P __asm__(SYM);
#define LB_DECL(RET, NAME, P)

#define LB_WRAPPER(RET, NAME, P, A, SIDX, KIND, FLAGS)                        \
	static void lb_thunk_##NAME(struct lb_call *lb_c)                     \
	{                                                                     \
		struct lb_args_##NAME *lb_a = lb_c->args;                    \
		(void)lb_a;                                                   \
		if (LB_UNLIKELY(!lb_real.NAME)) {                             \
			lb_c->ret = lb_missing(LB_ID_##NAME);                 \
			lb_c->rval = NULL;                                    \
			return;                                               \
		}                                                             \
		LB_STORE_##RET(lb_c, lb_real.NAME(LB_MAPC_N(                  \
			LB_NARGS(A), LB_AARG_, lb_a, A)));                    \
	}                                                                     \
	static __attribute__((noinline)) RET lb_slow_##NAME P                 \
	{                                                                     \
		LB_ARGS(NAME, A, SIDX);                                       \
		struct lb_call lb_c;                                          \
		lb_call_init(&lb_c, LB_ID_##NAME, &lb_a);                     \
		lb_c.stream = lb_sp;                                          \
		if (LB_LIKELY(lb_solo.on))                                    \
			lb_run_solo(&lb_c, lb_thunk_##NAME, LB_ID_##NAME,     \
				    LB_KIND_##KIND, FLAGS);                   \
		else                                                          \
			lb_run(&lb_c, lb_thunk_##NAME);                       \
		LB_RESULT_##RET(lb_c);                                        \
	}                                                                     \
	LB_DIRECT_##RET(NAME, P, A, SIDX)                                     \
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
		RET(*lb_fn) P;                                                \
		int lb_g = __atomic_load_n(&lb_gate, __ATOMIC_ACQUIRE);      \
		if (LB_LIKELY(lb_g == 2)) {                                   \
			if (!lb_depth)                                        \
				LB_CAT(LB_HOOKED_,                            \
				       LB_DIRECT_OK_##RET)(RET, NAME, A,      \
							   SIDX, KIND);       \
		} else if (LB_UNLIKELY(!lb_g)) {                              \
			LB_RETURN_##RET(lb_early_##NAME A);                   \
		}                                                             \
		lb_fn = lb_real.NAME;                                         \
		if (LB_UNLIKELY(!lb_fn))                                      \
			LB_MISSING_##RET(LB_ID_##NAME);                       \
		LB_RETURN_##RET(lb_fn A);                                     \
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
