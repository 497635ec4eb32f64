/*
 * prog_load.c - load: THREADS threads make mixed HIP calls for SECONDS
 * seconds (or CALLS calls each when SECONDS is 0): streams, events,
 * allocations of several sizes, copies, sets, module launches on their
 * own stream and on the null stream, synchronization; each thread checks
 * its data.  The main thread samples VmRSS.
 *
 *	prog_load THREADS SECONDS [CALLS]
 *
 * Prints "calls N", the number of HIP calls the threads made (every one a
 * wrapped function), "errors E" (calls that did not return hipSuccess, or
 * wrong data), and "rss_kb Q1 MAX LAST" (VmRSS at a quarter of the run,
 * the maximum, the last sample).  Exit 0 unless a thread could not start.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lbshim/hip_decls.h"
#include "hipemu.h"

HIPEMU_ARGS(load_inc, sizeof(int *), sizeof(int));
HIPEMU_TWIN(load_inc)
{
	int *p = *(int **)args[0], n = *(int *)args[1], i;

	(void)launch;
	for (i = 0; i < n; i++)
		p[i]++;
}

static atomic_ulong total_calls, total_errors;
static atomic_int stop;
static hipFunction_t fn;
static long per_thread_calls;

#define C(call)                                   \
	do {                                      \
		calls++;                          \
		if ((call) != hipSuccess)         \
			errors++;                 \
	} while (0)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *worker(void *arg)
{
	unsigned long calls = 0, errors = 0;
	unsigned seed = (unsigned)(uintptr_t)arg;
	int h[64], out[64], n = 64, i, it;
	hipStream_t s = NULL;

	C(hipSetDevice(0));
	C(hipStreamCreate(&s));
	for (it = 0; !atomic_load(&stop) &&
		     (per_thread_calls == 0 || (long)calls < per_thread_calls);
	     it++) {
		size_t big = (size_t)(1 + rand_r(&seed) % 8) << 20;
		int *d = NULL, *b = NULL;
		void *kargs[] = { &d, &n };
		hipStream_t on = (it & 1) ? s : 0;
		hipEvent_t e = NULL;

		for (i = 0; i < 64; i++)
			h[i] = i + it;
		C(hipMalloc((void **)&d, sizeof(h)));
		C(hipMalloc((void **)&b, big));
		C(hipMemcpyAsync(d, h, sizeof(h), hipMemcpyHostToDevice, on));
		C(hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, on, kargs,
					NULL));
		C(hipMemsetAsync(b, it & 0xff, big, on));
		if ((it & 7) == 0) {
			C(hipEventCreate(&e));
			C(hipEventRecord(e, on));
			C(hipEventSynchronize(e));
			C(hipEventDestroy(e));
		}
		C(hipStreamSynchronize(on));
		C(hipMemcpy(out, d, sizeof(out), hipMemcpyDeviceToHost));
		for (i = 0; i < 64; i++)
			if (out[i] != i + it + 1)
				errors++;
		C(hipFree(b));
		C(hipFree(d));
	}
	C(hipStreamDestroy(s));
	atomic_fetch_add(&total_calls, calls);
	atomic_fetch_add(&total_errors, errors);
	return NULL;
}

static long rss_kb(void)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			v = atol(line + 6);
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	int nt = argc > 1 ? atoi(argv[1]) : 8, i, started = 0;
	double secs = argc > 2 ? atof(argv[2]) : 2, t0;
	long q1 = -1, max = 0, last = 0;
	pthread_t *th;
	hipModule_t mod;
	unsigned long setup = 0;

	per_thread_calls = argc > 3 ? atol(argv[3]) : 0;
	if (nt < 1 || nt > 1024)
		return 2;
	setup++;
	if (hipModuleLoadData(&mod, "load") != hipSuccess)
		total_errors++;
	setup++;
	if (hipModuleGetFunction(&fn, mod, "load_inc") != hipSuccess)
		total_errors++;
	th = calloc(nt, sizeof(*th));
	for (i = 0; i < nt; i++)
		if (!pthread_create(&th[i], NULL, worker, (void *)(uintptr_t)(i + 1)))
			started++;
	if (started != nt)
		fprintf(stderr, "prog_load: %d of %d threads started\n", started, nt);
	t0 = now();
	if (secs > 0) {
		while (now() - t0 < secs) {
			long r;

			usleep(50000);
			r = rss_kb();
			if (q1 < 0 && now() - t0 >= secs / 4)
				q1 = r;
			if (r > max)
				max = r;
			last = r;
		}
		atomic_store(&stop, 1);
	}
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	last = rss_kb();
	if (last > max)
		max = last;
	if (q1 < 0)
		q1 = last;
	setup++;
	if (hipModuleUnload(mod) != hipSuccess)
		total_errors++;
	printf("calls %lu\nerrors %lu\nrss_kb %ld %ld %ld\n",
	       atomic_load(&total_calls) + setup, atomic_load(&total_errors),
	       q1, max, last);
	free(th);
	return started == nt ? 0 : 1;
}
