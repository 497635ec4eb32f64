/*
 * pool_test_capture.c - reuse while another thread captures a stream:
 * pool_test caphazard KIND WHEN [blocking].
 *
 * A kernel on KIND (null: the legacy null stream; perthread:
 * hipStreamPerThread) reads block a for 200 ms; it is queued before the
 * other thread begins a global-mode capture of a non-blocking stream (a
 * blocking one with "blocking": then the legacy stream may take no work,
 * and KIND must be perthread) (WHEN = before) or while that capture is in
 * progress (during).  a is
 * freed and the same size allocated and overwritten on a racing stream
 * during the capture: the kernel must still see a's bytes, and the
 * capture must end valid (the pool recorded nothing that invalidates it).
 */
#include "pool_common.h"

static pthread_mutex_t cap_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cap_cv = PTHREAD_COND_INITIALIZER;
static int cap_stage; /* 1 go, 2 capturing, 3 end it, 4 ended */
static hipError_t cap_end_ret = hipErrorUnknown;
static int cap_graph;
static unsigned cap_flags = hipStreamNonBlocking;

static void cap_set(int st)
{
	pthread_mutex_lock(&cap_mu);
	cap_stage = st;
	pthread_cond_broadcast(&cap_cv);
	pthread_mutex_unlock(&cap_mu);
}

static void cap_wait(int st)
{
	pthread_mutex_lock(&cap_mu);
	while (cap_stage < st)
		pthread_cond_wait(&cap_cv, &cap_mu);
	pthread_mutex_unlock(&cap_mu);
}

static void *cap_main(void *arg)
{
	hipStream_t cs;
	hipGraph_t g = NULL;
	void *x = arg;

	PT_OK(hipStreamCreateWithFlags(&cs, cap_flags));
	cap_wait(1);
	PT_OK(hipStreamBeginCapture(cs, hipStreamCaptureModeGlobal));
	PT_OK(k_nop(cs, x));
	cap_set(2);
	cap_wait(3);
	cap_end_ret = hipStreamEndCapture(cs, &g);
	cap_graph = g != NULL;
	if (g)
		PT_OK(hipGraphDestroy(g));
	PT_OK(hipStreamDestroy(cs));
	cap_set(4);
	return NULL;
}

int pt_capture_hazard(const char *kind, const char *when, int blocking,
		      hipStream_t side)
{
	const size_t n = 1 << 16;
	hipStream_t s = !strcmp(kind, "perthread") ? hipStreamPerThread : NULL;
	int during = !strcmp(when, "during"), *done, fin;
	unsigned char *a, *b;
	uint64_t *out;
	pthread_t th;
	void *x;

	if (blocking)
		cap_flags = hipStreamDefault;
	PT_OK(hipHostMalloc((void **)&out, sizeof(*out), 0));
	PT_OK(hipHostMalloc((void **)&done, sizeof(*done), 0));
	*done = 0;
	*out = 0;
	PT_OK(hipMalloc(&x, 256));
	PT_OK(hipMalloc((void **)&a, n));
	PT_OK(hipMemset(a, 1, n));
	PT_OK(hipDeviceSynchronize());
	pthread_create(&th, NULL, cap_main, x);
	if (!during)
		PT_OK(k_sum(s, a, n, out, 200, done));
	cap_set(1);
	cap_wait(2);
	if (during)
		PT_OK(k_sum(s, a, n, out, 200, done));
	PT_OK(hipFree(a));
	PT_OK(hipMalloc((void **)&b, n));
	fin = __atomic_load_n(done, __ATOMIC_SEQ_CST);
	PT_CHECK(b != a || fin, "%p handed out again while a kernel read it",
		 (void *)a);
	PT_OK(hipMemsetAsync(b, 0xff, n, side));
	PT_OK(hipStreamSynchronize(side));
	cap_set(3);
	cap_wait(4);
	pthread_join(th, NULL);
	PT_CHECK(cap_end_ret == hipSuccess && cap_graph,
		 "capture ended with %s", hipGetErrorName(cap_end_ret));
	PT_OK(hipDeviceSynchronize());
	PT_CHECK(*out == n, "kernel summed %llu, want %zu (block clobbered)",
		 (unsigned long long)*out, n);
	PT_OK(hipFree(b));
	PT_OK(hipFree(x));
	printf("caphazard %s %s%s: reused=%d kernel-finished-first=%d\n",
	       kind, when, blocking ? " blocking" : "", b == a, fin);
	return pt_failed;
}
