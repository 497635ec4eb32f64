/*
 * prog_cupol.c - the policies on CUDA, on hipemu's face (t_policies.sh).
 * Runtime and driver API, C against NVIDIA's headers.
 *
 *   lasterr [drv]  a sequence of calls, each printed as "NAME result
 *                  last", last being cudaPeekAtLastError's answer after
 *                  it: a failure kept until read, a success leaving it,
 *                  cudaErrorNotReady kept, a driver call leaving it.
 *                  drv: the main thread's context made current first
 *                  (the shim's own calls then go to the driver).
 *   hazard ORDER   thread A's null stream reads block X (a copy queued
 *                  behind a 200 ms host function), thread B's writes it
 *                  (cudaMemsetAsync): ORDER none (a hazard), event (A
 *                  records an event, B's null stream waits for it),
 *                  evsync (B waits with cudaEventSynchronize), sync (A
 *                  waits for its null stream first), devsync (B calls
 *                  cudaDeviceSynchronize).  Prints "read N": 7 before
 *                  B's write, 9 after.
 *   lookup         the driver's functions through cuGetProcAddress_v2
 *                  (found with dlsym, as cudart finds it): an
 *                  allocation, a set on stream 0, its sync, the free.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void say(const char *what, int r)
{
	printf("%s %d %d\n", what, r, (int)cudaPeekAtLastError());
}

static void slow(void *ms)
{
	usleep((useconds_t)(size_t)ms * 1000);
}

static void primary_ctx(void)
{
	CUdevice dev;
	CUcontext ctx;

	if (cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx))
		printf("no context\n");
}

static int lasterr(int drv)
{
	void *p = NULL, *q = NULL;
	CUdeviceptr d = 0;

	if (drv)
		primary_ctx();
	say("malloc_huge", cudaMalloc(&p, 1ull << 44));
	/* the failure still unread: under stream0 this first submission on
	 * stream 0 makes the thread's stream (the shim's own calls, before
	 * which the last error is read: lasterr.c, lb_lasterr_lazy) */
	say("hostfn0", cudaLaunchHostFunc(0, slow, (void *)1));
	say("malloc", cudaMalloc(&q, 4096));
	say("get", cudaGetLastError());
	say("memset", cudaMemset(q, 0, 4096));
	say("sync0", cudaStreamSynchronize(0));
	say("free_bad", cudaFree((void *)0x2000));
	say("malloc2", cudaMalloc(&p, 256));
	say("get", cudaGetLastError());
	say("free2", cudaFree(p));
	say("hostfn", cudaLaunchHostFunc(0, slow, (void *)100));
	say("query", cudaStreamQuery(0));
	say("get", cudaGetLastError());
	say("sync0", cudaStreamSynchronize(0));
	say("cuInit", cuInit(0));
	say("cuMemAlloc_huge", cuMemAlloc(&d, 1ull << 44));
	say("get", cudaGetLastError());
	say("free", cudaFree(q));
	return 0;
}

static unsigned char *x, hbuf[256];
static cudaEvent_t ev;
static const char *order;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int handed, written;

static void post(int *flag)
{
	pthread_mutex_lock(&mu);
	*flag = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static void await(int *flag)
{
	pthread_mutex_lock(&mu);
	while (!*flag)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

static void *thread_a(void *unused)
{
	(void)unused;
	cudaLaunchHostFunc(0, slow, (void *)200);
	cudaMemcpyAsync(hbuf, x, sizeof(hbuf), cudaMemcpyDeviceToHost, 0);
	if (!strcmp(order, "event") || !strcmp(order, "evsync"))
		cudaEventRecord(ev, 0);
	if (!strcmp(order, "sync"))
		cudaStreamSynchronize(0);
	post(&handed);
	await(&written);
	cudaStreamSynchronize(0);
	return NULL;
}

static void *thread_b(void *unused)
{
	(void)unused;
	await(&handed);
	if (!strcmp(order, "event"))
		cudaStreamWaitEvent(0, ev, 0);
	if (!strcmp(order, "evsync"))
		cudaEventSynchronize(ev);
	if (!strcmp(order, "devsync"))
		cudaDeviceSynchronize();
	cudaMemsetAsync(x, 9, sizeof(hbuf), 0);
	cudaStreamSynchronize(0);
	post(&written);
	return NULL;
}

static int hazard(const char *o)
{
	pthread_t a, b;

	order = o;
	if (cudaMalloc((void **)&x, 4096) || cudaMemset(x, 7, 4096) ||
	    cudaEventCreateWithFlags(&ev, cudaEventDisableTiming))
		return 1;
	pthread_create(&a, NULL, thread_a, NULL);
	pthread_create(&b, NULL, thread_b, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("read %d\n", hbuf[0]);
	return 0;
}

static int lookup(void)
{
	CUresult (*getproc)(const char *, void **, int, cuuint64_t,
			    CUdriverProcAddressQueryResult *);
	CUresult (*alloc)(CUdeviceptr *, size_t) = NULL;
	CUresult (*dfree)(CUdeviceptr) = NULL;
	CUresult (*set)(CUdeviceptr, unsigned char, size_t, CUstream) = NULL;
	CUresult (*sync)(CUstream) = NULL;
	CUdriverProcAddressQueryResult st;
	void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	CUdeviceptr d = 0;
	int r;

	getproc = drv ? dlsym(drv, "cuGetProcAddress_v2") : NULL;
	if (!getproc)
		return 1;
	primary_ctx();
	getproc("cuMemAlloc", (void **)&alloc, 13000, 0, &st);
	getproc("cuMemFree", (void **)&dfree, 13000, 0, &st);
	getproc("cuMemsetD8Async", (void **)&set, 13000, 0, &st);
	getproc("cuStreamSynchronize", (void **)&sync, 13000, 0, &st);
	if (!alloc || !dfree || !set || !sync)
		return 1;
	r = alloc(&d, 4096) || set(d, 7, 4096, NULL) || sync(NULL) ||
	    dfree(d);
	printf("lookup %s\n", r ? "failed" : "ok");
	return r;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "lasterr"))
		return lasterr(argc > 2 && !strcmp(argv[2], "drv"));
	if (argc > 2 && !strcmp(argv[1], "hazard"))
		return hazard(argv[2]);
	if (argc > 1 && !strcmp(argv[1], "lookup"))
		return lookup();
	fprintf(stderr, "usage: prog_cupol lasterr [drv] | hazard ORDER | "
		"lookup\n");
	return 2;
}
