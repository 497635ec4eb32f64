/*
 * prog_threads.c - 16 threads make their first HIP call at the same
 * instant: initialization must happen once and every call must forward.
 * Exit status 0 when every thread got the runtime's answer.
 */
#include <pthread.h>
#include <stdio.h>
#include "lbshim/hip_decls.h"
#include "fakehip.h"

#define N 16
static pthread_barrier_t go;
static int bad;

static void *worker(void *arg)
{
	int i, dev;

	(void)arg;
	pthread_barrier_wait(&go);
	for (i = 0; i < 1000; i++) {
		if (hipGetDevice(&dev) != hipErrorInvalidHandle)
			__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	int i;

	fakehip_set_ret(hipErrorInvalidHandle);
	pthread_barrier_init(&go, NULL, N);
	for (i = 0; i < N; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	printf("bad=%d\n", bad);
	return bad != 0;
}
