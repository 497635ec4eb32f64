/*
 * check_twins.c - the kernels of check_hipemu.c: twins exported from the
 * test program (linked -rdynamic) and fake host stubs registered the way
 * hipcc's generated code does it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "lbshim/hip_decls.h"
#include "hipemu.h"
#include "check_hipemu.h"

atomic_int log_n;
int log_ids[LOG_MAX];
/* Atomic: some tests look at them while a twin may still be running. */
_Atomic uint64_t t_start[LOG_MAX], t_end[LOG_MAX];

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* k_log(id, ms, int *out): sleeps, logs id, writes id to *out. */
HIPEMU_ARGS(k_log, sizeof(int), sizeof(int), sizeof(int *));
HIPEMU_TWIN(k_log)
{
	int id = *(int *)args[0], ms = *(int *)args[1];
	int *out = *(int **)args[2];

	(void)launch;
	t_start[id] = now_ns();
	sleep_ms(ms);
	if (out)
		*out = id;
	t_end[id] = now_ns();
	log_ids[atomic_fetch_add(&log_n, 1)] = id;
}

/* k_noargs: a twin without an argument-size table (synchronous launch). */
atomic_int noargs_runs;
HIPEMU_TWIN(k_noargs)
{
	(void)launch;
	(void)args;
	atomic_fetch_add(&noargs_runs, 1);
}

/* k_fill(int *p, int n, int v) */
HIPEMU_ARGS(k_fill, sizeof(int *), sizeof(int), sizeof(int));
HIPEMU_TWIN(k_fill)
{
	int *p = *(int **)args[0], n = *(int *)args[1], v = *(int *)args[2];

	(void)launch;
	for (int i = 0; i < n; i++)
		p[i] += v;
}

char stub_log, stub_noargs, stub_fill, stub_missing;

/*
 * Registration initializes hipemu, so it happens at first use, after a
 * test has set its HIPEMU_* variables.
 */
static void register_once(void)
{
	lb_modules_t m = __hipRegisterFatBinary("fake");

	__hipRegisterFunction(m, &stub_log, "k_log", "k_log", 0, 0, 0, 0, 0,
			      0);
	__hipRegisterFunction(m, &stub_noargs, "k_noargs", "k_noargs", 0, 0,
			      0, 0, 0, 0);
	__hipRegisterFunction(m, &stub_fill, "k_fill", "k_fill", 0, 0, 0, 0,
			      0, 0);
	__hipRegisterFunction(m, &stub_missing, "k_missing", "k_missing", 0,
			      0, 0, 0, 0, 0);
}

void register_kernels(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, register_once);
}

hipError_t klog(int id, int ms, int *out, hipStream_t s)
{
	void *args[] = { &id, &ms, &out };

	register_kernels();
	return hipLaunchKernel(&stub_log, (dim3){ 1, 1, 1 },
			       (dim3){ 1, 1, 1 }, args, 0, s);
}

hipError_t kfill(int *p, int n, int v, hipStream_t s)
{
	void *args[] = { &p, &n, &v };

	register_kernels();
	return hipLaunchKernel(&stub_fill, (dim3){ 1, 1, 1 },
			       (dim3){ 1, 1, 1 }, args, 0, s);
}

