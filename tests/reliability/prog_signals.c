/*
 * prog_signals.c - signals arriving during wrapped calls.
 *
 *	prog_signals storm RESTART ITER
 *		Two threads make ITER rounds of calls each while SIGALRM
 *		arrives every 100 us (setitimer), SIGCHLD from short-lived
 *		children, and SIGINT and SIGTERM from a third thread, all
 *		caught by handlers installed with SA_RESTART when RESTART is
 *		1, without it when 0.  Prints "calls N errors E" (calls that
 *		did not return hipSuccess, or wrong data) and "signals S".
 *
 *	prog_signals die SIG THREADS MS
 *		THREADS threads make calls; after MS ms the main thread
 *		prints "completed C" (calls that had returned), then raises
 *		SIG (TERM or INT) with its default action.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lbshim/hip_decls.h"
#include "hipemu.h"

HIPEMU_ARGS(sig_inc, sizeof(int *), sizeof(int));
HIPEMU_TWIN(sig_inc)
{
	int *p = *(int **)args[0], n = *(int *)args[1], i;

	(void)launch;
	for (i = 0; i < n; i++)
		p[i]++;
}

static atomic_ulong completed, errors, sigs;
static atomic_int stop;
static hipFunction_t fn;
static long iters;

static void on_sig(int sig)
{
	(void)sig;
	atomic_fetch_add(&sigs, 1);
}

#define C(call)                                         \
	do {                                            \
		if ((call) != hipSuccess)               \
			atomic_fetch_add(&errors, 1);   \
		atomic_fetch_add(&completed, 1);        \
	} while (0)

static void *worker(void *arg)
{
	int h[32], out[32], n = 32, i;
	long it;
	hipStream_t s;

	(void)arg;
	C(hipStreamCreate(&s));
	for (it = 0; !atomic_load(&stop) && (iters == 0 || it < iters); it++) {
		int *d = NULL;
		void *kargs[] = { &d, &n };
		hipEvent_t e;

		for (i = 0; i < 32; i++)
			h[i] = (int)(i + it);
		C(hipMalloc((void **)&d, sizeof(h)));
		C(hipMemcpyAsync(d, h, sizeof(h), hipMemcpyHostToDevice, s));
		C(hipModuleLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, s, kargs,
					NULL));
		C(hipEventCreate(&e));
		C(hipEventRecord(e, s));
		C(hipEventSynchronize(e));
		C(hipEventDestroy(e));
		C(hipStreamSynchronize(s));
		C(hipMemcpy(out, d, sizeof(out), hipMemcpyDeviceToHost));
		for (i = 0; i < 32; i++)
			if (out[i] != (int)(i + it + 1))
				atomic_fetch_add(&errors, 1);
		C(hipFree(d));
		C(hipDeviceSynchronize());
	}
	C(hipStreamDestroy(s));
	return NULL;
}

static void *killer(void *arg)
{
	struct timespec ts = { 0, 1000000 };
	int k = 0;

	(void)arg;
	while (!atomic_load(&stop)) {
		kill(getpid(), (k++ & 1) ? SIGTERM : SIGINT);
		nanosleep(&ts, NULL);
		if (k % 20 == 0) {
			pid_t p = fork();

			if (p == 0)
				_exit(0); /* SIGCHLD for the parent */
			if (p > 0)
				waitpid(p, NULL, 0);
		}
	}
	return NULL;
}

static int setup(void)
{
	hipModule_t mod;

	return hipModuleLoadData(&mod, "sig") != hipSuccess ||
	       hipModuleGetFunction(&fn, mod, "sig_inc") != hipSuccess;
}

static int storm(int restart)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 100 }, { 0, 100 } };
	pthread_t w[2], k;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (setup())
		return 1;
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_create(&k, NULL, killer, NULL);
	for (i = 0; i < 2; i++)
		pthread_create(&w[i], NULL, worker, NULL);
	for (i = 0; i < 2; i++)
		pthread_join(w[i], NULL);
	atomic_store(&stop, 1);
	pthread_join(k, NULL);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	/* + the two set-up calls */
	printf("calls %lu errors %lu\nsignals %s\n", atomic_load(&completed) + 2,
	       atomic_load(&errors), atomic_load(&sigs) > 0 ? "some" : "none");
	return 0;
}

static int die(const char *sig, int nt, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	pthread_t w;
	unsigned long c;
	int i;

	if (setup())
		return 1;
	for (i = 0; i < nt; i++)
		pthread_create(&w, NULL, worker, NULL);
	nanosleep(&ts, NULL);
	c = atomic_load(&completed);
	printf("completed %lu\n", c + 2); /* + the two set-up calls */
	fflush(stdout);
	raise(!strcmp(sig, "INT") ? SIGINT : SIGTERM);
	return 3; /* not reached: the default action ends the process */
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "storm")) {
		iters = atol(argv[3]);
		return storm(atoi(argv[2]));
	}
	if (argc == 5 && !strcmp(argv[1], "die"))
		return die(argv[2], atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: prog_signals storm RESTART ITER | "
			"die TERM|INT THREADS MS\n");
	return 2;
}
