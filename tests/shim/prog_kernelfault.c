/*
 * prog_kernelfault.c - a kernel that faults on the device (on hipemu: its
 * twin segfaults on the stream worker thread) after three good launches:
 * the trace must hold the crash and the calls before it, and the exit
 * status must be the one without the shim.
 *
 * The fault is asynchronous, so its moment is pinned down: a "hold" kernel
 * ahead of the bad launch keeps the device busy until the main thread is
 * asleep in hipDeviceSynchronize (a helper thread watches its state in
 * /proc), so the bad launch has returned (its record is whole) and the
 * sync is in flight when the kernel faults, however the threads are
 * scheduled.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "lbshim/hip_decls.h"
#include "hipemu.h"
#include "lbtest.h"

static int go;

static void nap(void)
{
	struct timespec ts = { 0, 200000 };

	nanosleep(&ts, NULL);
}

/* Waits for the helper thread's word. */
HIPEMU_ARGS(hold, sizeof(int *));
HIPEMU_TWIN(hold)
{
	int *flag = *(int **)args[0];

	(void)launch;
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
		nap();
}

/* The "decoder" kernel of one evaluation case reads a bad pointer. */
HIPEMU_ARGS(decode_step, sizeof(float *), sizeof(int));
HIPEMU_TWIN(decode_step)
{
	float *tokens = *(float **)args[0];
	(void)launch;
	tokens[*(int *)args[1]] += 1.0f;
}

/* Releases the hold kernel once the main thread sleeps: it makes no other
 * blocking call after the bad launch than hipDeviceSynchronize.  (After
 * 20 s it gives up waiting rather than hang the test.) */
static void *release(void *arg)
{
	pid_t main_tid = *(pid_t *)arg;

	for (int i = 0; i < 100000 && lbt_thread_state(main_tid) != 'S'; i++)
		nap();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	return NULL;
}

int main(void)
{
	hipModule_t m;
	hipFunction_t f, h;
	float *buf, *bad = (float *)0x10;
	int n = 7, *flag = &go;
	void *ok[] = { &buf, &n }, *oops[] = { &bad, &n }, *wait[] = { &flag };
	pid_t self = (pid_t)syscall(SYS_gettid);
	pthread_t helper;

	hipMalloc((void **)&buf, 4096);
	hipModuleLoadData(&m, "decoder");
	hipModuleGetFunction(&f, m, "decode_step");
	hipModuleGetFunction(&h, m, "hold");
	for (int step = 0; step < 3; step++)
		hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, 0, ok, NULL);
	hipModuleLaunchKernel(h, 1, 1, 1, 1, 1, 1, 0, 0, wait, NULL);
	hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, 0, oops, NULL);
	pthread_create(&helper, NULL, release, &self);
	hipDeviceSynchronize();
	puts("done");
	return 0;
}
