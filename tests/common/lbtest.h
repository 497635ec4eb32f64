/*
 * lbtest.h - what the C test and benchmark programs share: checks that
 * say where they failed, a one-block module launch, clocks, a
 * reproducible random sequence, a one-shot gate between threads, the
 * comparison qsort needs for timing samples, and a thread's scheduler
 * state (to wait until another thread sleeps inside a call).  Each policy's test header
 * (pool_common.h, s0_common.h) adds its kernels on top.
 */
#ifndef LBTEST_H
#define LBTEST_H

#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include "lbshim/hip_decls.h"

/*
 * LBT_CHECK(flag, cond, fmt, ...): when cond is false, print the place,
 * the condition and the message, and set the int flag the program's exit
 * status comes from.  The test goes on, so one run shows every failure;
 * threads may fail at once, hence the atomic store.
 */
#define LBT_CHECK(flag, cond, ...)                                       \
	do {                                                             \
		if (!(cond)) {                                           \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__,    \
				__LINE__, #cond);                        \
			fprintf(stderr, __VA_ARGS__);                    \
			fputc('\n', stderr);                             \
			__atomic_store_n(&(flag), 1, __ATOMIC_RELAXED);  \
		}                                                        \
	} while (0)

/* LBT_OK(call): a HIP call that must succeed; the test cannot go on
 * without it, so it exits. */
#define LBT_OK(call)                                                     \
	do {                                                             \
		hipError_t lbt_r_ = (call);                              \
		if (lbt_r_ != hipSuccess) {                              \
			fprintf(stderr, "FAIL %s:%d: %s = %d (%s)\n",    \
				__FILE__, __LINE__, #call, (int)lbt_r_,  \
				hipGetErrorName(lbt_r_));                \
			exit(1);                                         \
		}                                                        \
	} while (0)

/* One block of one thread: the twins ignore the geometry. */
static inline hipError_t lbt_launch(hipFunction_t f, hipStream_t s, void **a)
{
	return hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, a, NULL);
}

static inline uint64_t lbt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline double lbt_now_ms(void)
{
	return (double)lbt_now_ns() / 1e6;
}

/* The whole of the file at path, malloc'd (a code object to load); NULL
 * when it cannot be read or is empty. */
static inline void *lbt_load_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;
	void *p = NULL;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET) && (p = malloc(n)) &&
	    fread(p, 1, n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	fclose(f);
	return p;
}

/* xorshift: reproducible per seed */
static inline uint64_t lbt_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* qsort's comparison for timing samples */
static inline int lbt_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A one-shot signal between two threads. */
struct lbt_gate {
	pthread_mutex_t m;
	pthread_cond_t c;
	int open;
};
#define LBT_GATE_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 }

static inline void lbt_gate_open(struct lbt_gate *g)
{
	pthread_mutex_lock(&g->m);
	g->open = 1;
	pthread_cond_broadcast(&g->c);
	pthread_mutex_unlock(&g->m);
}

static inline void lbt_gate_wait(struct lbt_gate *g)
{
	pthread_mutex_lock(&g->m);
	while (!g->open)
		pthread_cond_wait(&g->c, &g->m);
	pthread_mutex_unlock(&g->m);
}

/* The scheduler state of thread tid ('R', 'S', ...), 0 if unknown. */
static inline char lbt_thread_state(pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the name may hold anything */
	return p && p[1] == ' ' ? p[2] : 0;
}

#endif
