/*
 * s0_common.h - helpers of the stream0 test and benchmark programs: the
 * kernels of s0_twins.c launched through a module, on top of the checks,
 * clocks and gate every test program shares (tests/common/lbtest.h).
 */
#ifndef S0_COMMON_H
#define S0_COMMON_H

#include "lbtest.h"

static int s0_failed __attribute__((unused));

/* The shared checks, clocks and gate (tests/common/lbtest.h) under the
 * stream0 tests' names. */
#define S0_CHECK(cond, ...) LBT_CHECK(s0_failed, cond, __VA_ARGS__)
#define S0_OK(call) LBT_OK(call)
#define s0_launch lbt_launch
#define s0_now_ms lbt_now_ms
#define s0_now_ns lbt_now_ns
#define s0_gate lbt_gate
#define S0_GATE_INIT LBT_GATE_INIT
#define s0_gate_open lbt_gate_open
#define s0_gate_wait lbt_gate_wait

static hipFunction_t s0_f_sleep, s0_f_peek, s0_f_fill, s0_f_where, s0_f_nop;

static inline void s0_setup(void)
{
	static hipModule_t mod;

	S0_OK(hipModuleLoadData(&mod, "s0 twins"));
	S0_OK(hipModuleGetFunction(&s0_f_sleep, mod, "s0_sleep"));
	S0_OK(hipModuleGetFunction(&s0_f_peek, mod, "s0_peek"));
	S0_OK(hipModuleGetFunction(&s0_f_fill, mod, "s0_fill"));
	S0_OK(hipModuleGetFunction(&s0_f_where, mod, "s0_where"));
	S0_OK(hipModuleGetFunction(&s0_f_nop, mod, "s0_nop"));
}

static inline hipError_t k_sleep(hipStream_t s, int ms, int tag, int *log,
				 int *pos, int *done)
{
	void *a[] = { &ms, &tag, &log, &pos, &done };

	return lbt_launch(s0_f_sleep, s, a);
}

static inline hipError_t k_peek(hipStream_t s, int *src, int *dst)
{
	void *a[] = { &src, &dst };

	return lbt_launch(s0_f_peek, s, a);
}

static inline hipError_t k_fill(hipStream_t s, int *dst, int n, int val,
				int ms)
{
	void *a[] = { &dst, &n, &val, &ms };

	return lbt_launch(s0_f_fill, s, a);
}

static inline hipError_t k_where(hipStream_t s, unsigned long long *out)
{
	void *a[] = { &out };

	return lbt_launch(s0_f_where, s, a);
}

static inline hipError_t k_nop(hipStream_t s)
{
	void *a[] = { NULL };

	return lbt_launch(s0_f_nop, s, a);
}

/* Host-pinned, zeroed: kernels write it, the host watches it. */
static inline void *s0_host(size_t n)
{
	void *p = NULL;

	S0_OK(hipHostMalloc(&p, n, 0));
	memset(p, 0, n);
	return p;
}

static inline int s0_load(int *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

#endif
