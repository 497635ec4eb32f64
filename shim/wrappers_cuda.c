/*
 * wrappers_cuda.c - one exported function per CUDA row of the table
 * (include/lbshim/cuda_api.def), generated as wrappers.c generates HIP's,
 * by the shorter of its routes: before lb_init() the early path; with no
 * policy, on a thread already inside the shim (a runtime call's own
 * driver calls: one call to the policies, one record), or where the
 * process's served runtime is HIP (lb_cu_served 0), straight to the real
 * function; otherwise the policies' routes: one policy alone (SOLO:
 * lb_pipeline with the row's id, kind and flags and the thunk as
 * constants, as HIP's lb_slow_<name>), else lb_run().  lb_run's
 * generality (per-row facts looked up, the loop over policies, the
 * thunk called through a pointer) cost some 100 instructions of a CUDA
 * call's 500 with one policy (tests/bench/NOTES.md, "CUDA").  The short
 * routes (run_solo.h's direct and serve paths) are HIP's alone for now.
 * A driver
 * row still empty when called (the driver loaded after start-up) is
 * looked for once more (lb_cu_late_row) before its "not initialized".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#define LB_REAL_DIRECT /* the core: not counted in lb_rt_own */
#include "shim.h"
#include "resolve.h"
#include "run_solo.h"

/* Per return type (cuda_api.def's RET). */
#define LB_CU_RETURN_cudaError_t(call) return call
#define LB_CU_RETURN_CUresult(call) return call
#define LB_CU_RETURN_lb_modules_t(call) return call
#define LB_CU_RETURN_void(call) \
	do {                    \
		call;           \
		return;         \
	} while (0)
/* lb_missing's answer, 3: cudaErrorInitializationError (driver_types.h
 * :217) and CUDA_ERROR_NOT_INITIALIZED (cuda.h:2535) */
#define LB_CU_MISSING_cudaError_t(id) \
	return (lb_missing(id), cudaErrorInitializationError)
#define LB_CU_MISSING_CUresult(id) \
	return (lb_missing(id), CUDA_ERROR_NOT_INITIALIZED)
#define LB_CU_MISSING_lb_modules_t(id) return (lb_missing(id), NULL)
#define LB_CU_MISSING_void(id) \
	do {                   \
		lb_missing(id); \
		return;        \
	} while (0)
/* The call context keeps an error as a hipError_t: both are ints, and
 * success is 0 in all three (cudaSuccess, CUDA_SUCCESS, hipSuccess). */
#define LB_CU_STORE_cudaError_t(c, call) \
	((c)->ret = (hipError_t)(call), (c)->flags |= LB_CALL_RT)
#define LB_CU_STORE_CUresult(c, call) \
	((c)->ret = (hipError_t)(call), (c)->flags |= LB_CALL_RT)
#define LB_CU_STORE_lb_modules_t(c, call) \
	((c)->rval = (void *)(call), (c)->ret = hipSuccess)
#define LB_CU_STORE_void(c, call) (call, (c)->ret = hipSuccess)
#define LB_CU_RESULT_cudaError_t(c) return (cudaError_t)(c).ret
#define LB_CU_RESULT_CUresult(c) return (CUresult)(c).ret
#define LB_CU_RESULT_lb_modules_t(c) return (lb_modules_t)(c).rval
#define LB_CU_RESULT_void(c) return

#define LB_CU_AARG_(a, x) a->x
#define LB_CU_ADDR_(a, x) , (void *)&a.x

/* A CUDA row's function while lb_init() runs on this thread. */
static void *lb_cu_resolve_one(int api)
{
	void *fn = lb_cu_sym(lb_api_info[api].symbol);

	if (!fn) {
		fn = dlsym(RTLD_NEXT, lb_api_info[api].symbol);
		if (lb_in_self(fn))
			fn = NULL;
		dlerror();
	}
	return fn;
}

#define LB_CU_WRAPPER(RET, NAME, P, A, SIDX, KIND, FLAGS)                    \
	static inline __attribute__((always_inline)) void lb_cthunk_##NAME(   \
		struct lb_call *lb_c, int lb_have)                            \
	{                                                                     \
		struct lb_args_##NAME *lb_a = lb_c->args;                    \
		RET(*lb_fn) P = lb_real.NAME;                                 \
		(void)lb_a;                                                   \
		if (LB_UNLIKELY(!lb_fn) && (lb_have ||                          \
		    !(lb_fn = lb_cu_late_row(LB_ID_##NAME)))) {               \
			lb_c->ret = lb_missing(LB_ID_##NAME);                 \
			lb_c->rval = NULL;                                    \
			return;                                               \
		}                                                             \
		LB_CU_STORE_##RET(lb_c, lb_fn(LB_MAPC_N(                      \
			LB_NARGS(A), LB_CU_AARG_, lb_a, A)));                 \
	}                                                                     \
	static __attribute__((noinline)) RET lb_cslow_##NAME P                \
	{                                                                     \
		struct lb_args_##NAME lb_a = { LB_UNPAREN A };               \
		void *lb_argv[] = { NULL LB_MAP(LB_CU_ADDR_, lb_a, A) };      \
		struct lb_call lb_c;                                          \
		lb_call_init(&lb_c, LB_ID_##NAME, &lb_a);                     \
		lb_c.stream = lb_argv[(SIDX) >= 0 ? (SIDX) + 1 : 0];          \
		if (LB_LIKELY(lb_solo.on))                                    \
			lb_pipeline(LB_ROUTE_SOLO, &lb_c, lb_cthunk_##NAME,   \
				    LB_ID_##NAME, LB_KIND_##KIND, FLAGS,      \
				    lb_real.NAME != NULL, NULL, 1);           \
		else                                                          \
			lb_run(&lb_c, lb_cthunk_##NAME);                      \
		LB_CU_RESULT_##RET(lb_c);                                     \
	}                                                                     \
	static __attribute__((noinline, cold)) RET lb_cearly_##NAME P         \
	{                                                                     \
		RET(*lb_fn) P;                                                \
		if (lb_depth)                                                 \
			lb_fn = lb_cu_resolve_one(LB_ID_##NAME);              \
		else {                                                        \
			lb_init();                                            \
			lb_fn = lb_real.NAME;                                 \
		}                                                             \
		if (lb_hooks && !lb_depth &&                                  \
		    __atomic_load_n(&lb_cu_served, __ATOMIC_ACQUIRE))         \
			LB_CU_RETURN_##RET(lb_cslow_##NAME A);                \
		if (!lb_fn && !lb_depth)                                      \
			lb_fn = lb_cu_late_row(LB_ID_##NAME);                 \
		if (!lb_fn)                                                   \
			LB_CU_MISSING_##RET(LB_ID_##NAME);                    \
		LB_CU_RETURN_##RET(lb_fn A);                                  \
	}                                                                     \
	LB_EXPORT RET NAME P                                                  \
	{                                                                     \
		RET(*lb_fn) P;                                                \
		int lb_g = __atomic_load_n(&lb_gate, __ATOMIC_ACQUIRE);      \
		if (LB_UNLIKELY(!lb_g))                                       \
			LB_CU_RETURN_##RET(lb_cearly_##NAME A);               \
		if (lb_g == 2 && !lb_depth && lb_cu_served)                   \
			LB_CU_RETURN_##RET(lb_cslow_##NAME A);                \
		lb_fn = lb_real.NAME;                                         \
		if (LB_UNLIKELY(!lb_fn) &&                                    \
		    !(lb_fn = lb_cu_late_row(LB_ID_##NAME)))                  \
			LB_CU_MISSING_##RET(LB_ID_##NAME);                    \
		LB_CU_RETURN_##RET(lb_fn A);                                  \
	}

#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	LB_CU_WRAPPER(RET, NAME, P, A, SIDX, KIND, FLAGS)
#include "lbshim/cuda_api.def"
#undef LB_API

static void *const lb_cu_wrappers[LB_API_COUNT - LB_API_HIP_COUNT] = {
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	[LB_ID_##NAME - LB_API_HIP_COUNT] = (void *)NAME,
#include "lbshim/cuda_api.def"
#undef LB_API
};

void *lb_cu_wrapper_addr(int api)
{
	return api >= LB_API_HIP_COUNT && api < LB_API_COUNT
		       ? lb_cu_wrappers[api - LB_API_HIP_COUNT]
		       : NULL;
}
