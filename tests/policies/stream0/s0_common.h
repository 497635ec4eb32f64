/*
 * s0_common.h - helpers of the stream0 test and benchmark programs: the
 * kernels of s0_twins.c launched through a module, clocks, and checks.
 */
#ifndef S0_COMMON_H
#define S0_COMMON_H

#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lbshim/hip_decls.h"

static int s0_failed __attribute__((unused));

#define S0_CHECK(cond, ...)                                              \
	do {                                                             \
		if (!(cond)) {                                           \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__,    \
				__LINE__, #cond);                        \
			fprintf(stderr, __VA_ARGS__);                    \
			fputc('\n', stderr);                             \
			s0_failed = 1;                                   \
		}                                                        \
	} while (0)

#define S0_OK(call)                                                      \
	do {                                                             \
		hipError_t s0_r_ = (call);                               \
		if (s0_r_ != hipSuccess) {                               \
			fprintf(stderr, "FAIL %s:%d: %s = %d (%s)\n",    \
				__FILE__, __LINE__, #call, (int)s0_r_,   \
				hipGetErrorName(s0_r_));                 \
			exit(1);                                         \
		}                                                        \
	} while (0)

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

static inline hipError_t s0_launch(hipFunction_t f, hipStream_t s, void **a)
{
	return hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, a, NULL);
}

static inline hipError_t k_sleep(hipStream_t s, int ms, int tag, int *log,
				 int *pos, int *done)
{
	void *a[] = { &ms, &tag, &log, &pos, &done };

	return s0_launch(s0_f_sleep, s, a);
}

static inline hipError_t k_peek(hipStream_t s, int *src, int *dst)
{
	void *a[] = { &src, &dst };

	return s0_launch(s0_f_peek, s, a);
}

static inline hipError_t k_fill(hipStream_t s, int *dst, int n, int val,
				int ms)
{
	void *a[] = { &dst, &n, &val, &ms };

	return s0_launch(s0_f_fill, s, a);
}

static inline hipError_t k_where(hipStream_t s, unsigned long long *out)
{
	void *a[] = { &out };

	return s0_launch(s0_f_where, s, a);
}

static inline hipError_t k_nop(hipStream_t s)
{
	void *a[] = { NULL };

	return s0_launch(s0_f_nop, s, a);
}

/* Host-pinned, zeroed: kernels write it, the host watches it. */
static inline void *s0_host(size_t n)
{
	void *p = NULL;

	S0_OK(hipHostMalloc(&p, n, 0));
	memset(p, 0, n);
	return p;
}

static inline double s0_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline uint64_t s0_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline int s0_load(int *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

/* A one-shot signal between two threads. */
struct s0_gate {
	pthread_mutex_t m;
	pthread_cond_t c;
	int open;
};
#define S0_GATE_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 }

static inline void s0_gate_open(struct s0_gate *g)
{
	pthread_mutex_lock(&g->m);
	g->open = 1;
	pthread_cond_broadcast(&g->c);
	pthread_mutex_unlock(&g->m);
}

static inline void s0_gate_wait(struct s0_gate *g)
{
	pthread_mutex_lock(&g->m);
	while (!g->open)
		pthread_cond_wait(&g->c, &g->m);
	pthread_mutex_unlock(&g->m);
}

#endif
