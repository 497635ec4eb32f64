/*
 * pool_common.h - helpers of the pool test and benchmark programs: the
 * kernels of pool_twins.c launched through a module, on top of the checks
 * and clocks every test program shares (tests/common/lbtest.h).
 */
#ifndef POOL_COMMON_H
#define POOL_COMMON_H

#include "lbtest.h"

extern int pt_failed; /* defined by the program's main file */

/* The shared checks (tests/common/lbtest.h) under the pool tests' names. */
#define PT_CHECK(cond, ...) LBT_CHECK(pt_failed, cond, __VA_ARGS__)
#define PT_OK(call) LBT_OK(call)
#define pt_now_ns lbt_now_ns
#define pt_rand lbt_rand

extern hipFunction_t pt_f_sum, pt_f_nop;

static inline void pt_setup(void)
{
	static hipModule_t mod;

	PT_OK(hipModuleLoadData(&mod, "pool twins"));
	PT_OK(hipModuleGetFunction(&pt_f_sum, mod, "p_sum"));
	PT_OK(hipModuleGetFunction(&pt_f_nop, mod, "p_nop"));
}

/* pool_test_api.c: the scenarios on API edges and queries. */
int pt_api_scenario(const char *sc, int argc, char **argv);
/* pool_test_starve.c: an allocation the pool does not serve, starved. */
int pt_starve(const char *kind);
/* pool_test_capture.c: reuse while another thread captures. */
int pt_capture_hazard(const char *kind, const char *when, int blocking,
		      hipStream_t side);

/* Sums n bytes of src into *dst after sleeping ms; *done = 1 after. */
static inline hipError_t k_sum(hipStream_t s, const void *src, size_t n,
			       uint64_t *dst, int ms, int *done)
{
	void *a[] = { &src, &n, &dst, &ms, &done };

	return lbt_launch(pt_f_sum, s, a);
}

static inline hipError_t k_nop(hipStream_t s, void *p)
{
	void *a[] = { &p };

	return lbt_launch(pt_f_nop, s, a);
}

#endif
