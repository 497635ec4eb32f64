/*
 * prog_fork.c - fork while other threads are inside wrappers.
 *
 *	prog_fork storm FORKS   3 threads hammer copies, launches and
 *				allocations while the main thread forks
 *				FORKS times; each child makes CHILD_CALLS
 *				calls and _exits with the number that failed
 *				(nonzero status: a failure).
 *	prog_fork exec          fork then exec of this program ("child").
 *	prog_fork spawn         posix_spawn and vfork + exec of "child".
 *	prog_fork child         CHILD_CALLS calls, exit status = failures.
 *
 * Prints "parent_calls N" (calls made by the parent's threads) and
 * "children K bad B" (children that exited nonzero or by a signal).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lbshim/hip_decls.h"
#include "hipemu.h"

#define CHILD_CALLS 4

extern char **environ;

HIPEMU_ARGS(fork_inc, sizeof(int *), sizeof(int));
HIPEMU_TWIN(fork_inc)
{
	int *p = *(int **)args[0], n = *(int *)args[1], i;

	(void)launch;
	for (i = 0; i < n; i++)
		p[i]++;
}

static atomic_ulong calls;
static atomic_int stop;
static hipFunction_t fn;

#define C(call) ((void)atomic_fetch_add(&calls, 1), (call) != hipSuccess)

static void *worker(void *arg)
{
	int h[16] = { 0 }, n = 16;
	hipStream_t s;

	(void)arg;
	C(hipStreamCreate(&s));
	while (!atomic_load(&stop)) {
		int *d = NULL;
		void *kargs[] = { &d, &n };

		C(hipMalloc((void **)&d, sizeof(h)));
		C(hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice));
		C(hipModuleLaunchKernel(fn, 1, 1, 1, 16, 1, 1, 0, s, kargs,
					NULL));
		C(hipStreamSynchronize(s));
		C(hipFree(d));
	}
	C(hipStreamDestroy(s));
	return NULL;
}

/*
 * The calls of a forked child of a process with threads inside the
 * runtime: exactly CHILD_CALLS, of functions that take no lock in hipemu
 * (which, like the real runtime, has no fork handlers: a child calling
 * hipMalloc could wait forever for a lock a parent thread held), but that
 * every policy hooks (device changes: stream0 and pool state).
 */
static int fork_child_calls(void)
{
	int bad = 0, dev = -1;

	bad += hipGetDevice(&dev) != hipSuccess;
	bad += hipSetDevice(0) != hipSuccess;
	bad += hipGetDevice(&dev) != hipSuccess;
	bad += dev != 0;
	bad += hipSetDevice(0) != hipSuccess;
	return bad;
}

/* The calls of an exec'd child (a new process): exactly CHILD_CALLS. */
static int child_calls(void)
{
	int bad = 0, dev = -1, h[4] = { 1, 2, 3, 4 };
	void *d = NULL;

	bad += hipGetDevice(&dev) != hipSuccess;
	bad += hipMalloc(&d, sizeof(h)) != hipSuccess;
	bad += hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice) != hipSuccess;
	bad += hipFree(d) != hipSuccess;
	return bad;
}

static int reap(pid_t p)
{
	int st;

	if (p < 0 || waitpid(p, &st, 0) != p)
		return 1;
	return !WIFEXITED(st) || WEXITSTATUS(st) != 0;
}

int main(int argc, char **argv)
{
	int forks = argc > 2 ? atoi(argv[2]) : 20, i;
	volatile int kids = 0, bad = 0; /* live across vfork */
	const char *mode = argc > 1 ? argv[1] : "storm";
	char *cargv[] = { argv[0], "child", NULL };
	pthread_t w[3];
	hipModule_t mod;

	if (!strcmp(mode, "child"))
		return child_calls();
	C(hipModuleLoadData(&mod, "fork"));
	C(hipModuleGetFunction(&fn, mod, "fork_inc"));
	if (!strcmp(mode, "storm")) {
		for (i = 0; i < 3; i++)
			pthread_create(&w[i], NULL, worker, NULL);
		for (i = 0; i < forks; i++) {
			pid_t p;

			usleep(20000);
			p = fork();
			if (p == 0)
				_exit(fork_child_calls());
			kids++;
			bad += reap(p);
		}
		atomic_store(&stop, 1);
		for (i = 0; i < 3; i++)
			pthread_join(w[i], NULL);
	} else if (!strcmp(mode, "exec")) {
		pid_t p = fork();

		if (p == 0) {
			execv(argv[0], cargv);
			_exit(127);
		}
		kids++;
		bad += reap(p);
	} else if (!strcmp(mode, "spawn")) {
		pid_t p;

		if (posix_spawn(&p, argv[0], NULL, NULL, cargv, environ))
			p = -1;
		kids++;
		bad += reap(p);
		p = vfork();
		if (p == 0) {
			execve(argv[0], cargv, environ);
			_exit(127);
		}
		kids++;
		bad += reap(p);
	}
	C(hipModuleUnload(mod));
	printf("parent_calls %lu\nchildren %d bad %d\n", atomic_load(&calls),
	       kids, bad);
	return 0;
}
