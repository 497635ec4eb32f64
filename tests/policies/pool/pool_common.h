/*
 * pool_common.h - helpers of the pool test and benchmark programs: checks,
 * the kernels of pool_twins.c launched through a module, clocks.
 */
#ifndef POOL_COMMON_H
#define POOL_COMMON_H

#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lbshim/hip_decls.h"

extern int pt_failed; /* defined by the program's main file */

#define PT_CHECK(cond, ...)                                              \
	do {                                                             \
		if (!(cond)) {                                           \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__,    \
				__LINE__, #cond);                        \
			fprintf(stderr, __VA_ARGS__);                    \
			fputc('\n', stderr);                             \
			__atomic_store_n(&pt_failed, 1,                  \
					 __ATOMIC_RELAXED);              \
		}                                                        \
	} while (0)

#define PT_OK(call)                                                      \
	do {                                                             \
		hipError_t pt_r_ = (call);                               \
		if (pt_r_ != hipSuccess) {                               \
			fprintf(stderr, "FAIL %s:%d: %s = %d (%s)\n",    \
				__FILE__, __LINE__, #call, (int)pt_r_,   \
				hipGetErrorName(pt_r_));                 \
			exit(1);                                         \
		}                                                        \
	} while (0)

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

	return hipModuleLaunchKernel(pt_f_sum, 1, 1, 1, 1, 1, 1, 0, s, a,
				     NULL);
}

static inline hipError_t k_nop(hipStream_t s, void *p)
{
	void *a[] = { &p };

	return hipModuleLaunchKernel(pt_f_nop, 1, 1, 1, 1, 1, 1, 0, s, a,
				     NULL);
}

static inline uint64_t pt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* xorshift: reproducible per seed */
static inline uint64_t pt_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

#endif
