/*
 * streams.cu - streams, events and host work through the CUDA face, with
 * the default stream's rules.  Built twice: as is (the legacy default
 * stream), and with --default-stream per-thread -DCT_PTSZ, where the
 * plain names compile to the _ptsz/_ptds entry points and stream 0 is each
 * thread's own stream (cuda_runtime_api.h, CUDA 13.0).  A "gate" kernel
 * holds its stream until the host opens it, so every ordering is checked
 * while the work before it is known to be pending; a wrong order shows as
 * a gate that gave up (seen 2) or a query that says done, never a hang.
 */
#include <cuda_runtime.h>
#include <pthread.h>
#include "cutest.h"
#include "kernels.cuh"

#define N 256
#define WAIT 10000	/* ms a gate waits; never reached when all is right */

#ifdef CT_PTSZ
static const bool ptsz = true;
#else
static const bool ptsz = false;
#endif

static int *managed_int(void)
{
	int *p = NULL;

	CT_EQ(cudaMallocManaged(&p, sizeof(int)), cudaSuccess);
	*p = 0;
	return p;
}

static void open_gate(int *flag)
{
	__atomic_store_n(flag, 1, __ATOMIC_RELEASE);
}

static int get(int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* async copies, a kernel and sets on one stream; 2D copies */
static void copies(cudaStream_t s)
{
	float *h, *d, *p2;
	size_t pitch = 0;
	int bad = 0;

	CT_EQ(cudaMallocHost(&h, N * sizeof(float)), cudaSuccess);
	CT_EQ(cudaMalloc(&d, N * sizeof(float)), cudaSuccess);
	for (int i = 0; i < N; i++)
		h[i] = (float)i;
	CT_EQ(cudaMemcpyAsync(d, h, N * sizeof(float), cudaMemcpyHostToDevice,
			      s), cudaSuccess);
	scale<<<1, N, 0, s>>>(d, N, 3.0f);
	CT_EQ(cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost,
			      s), cudaSuccess);
	CT_EQ(cudaStreamSynchronize(s), cudaSuccess);
	for (int i = 0; i < N; i++)
		bad += h[i] != 3.0f * (float)i;
	CT_CHECK(!bad, "%d wrong (h[5] = %g)", bad, h[5]);

	/* 16 rows of 8 floats into a pitched allocation and back */
	CT_EQ(cudaMallocPitch((void **)&p2, &pitch, 8 * sizeof(float), 16),
	      cudaSuccess);
	CT_CHECK(pitch >= 8 * sizeof(float) && pitch % 256 == 0, "pitch %zu",
		 pitch);
	CT_EQ(cudaMemcpy2DAsync(p2, pitch, d, 8 * sizeof(float),
				8 * sizeof(float), 16, cudaMemcpyDeviceToDevice,
				s), cudaSuccess);
	CT_EQ(cudaMemsetAsync(d, 0, N * sizeof(float), s), cudaSuccess);
	/* under per-thread, stream 0 does not wait for s: wait here */
	CT_EQ(cudaStreamSynchronize(s), cudaSuccess);
	CT_EQ(cudaMemcpy2D(h, 8 * sizeof(float), p2, pitch, 8 * sizeof(float),
			   16, cudaMemcpyDeviceToHost), cudaSuccess);
	CT_CHECK(h[127] == 381.0f, "h[127] = %g", h[127]);
	CT_EQ(cudaMemcpy(h, d, N * sizeof(float), cudaMemcpyDeviceToHost),
	      cudaSuccess);
	CT_CHECK(h[127] == 0.0f, "after the set: %g", h[127]);
	CT_EQ(cudaMemset(d, 0xff, 4), cudaSuccess);
	CT_EQ(cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost), cudaSuccess);
	CT_CHECK(((unsigned *)h)[0] == 0xffffffffu, "set %x",
		 ((unsigned *)h)[0]);
	CT_EQ(cudaFree(p2), cudaSuccess);
	CT_EQ(cudaFree(d), cudaSuccess);
	CT_EQ(cudaFreeHost(h), cudaSuccess);
}

/* records, queries, elapsed time, a stream waiting on an event */
static void events(cudaStream_t s)
{
	cudaEvent_t e0, e1;
	cudaStream_t s2;
	int *flag = managed_int(), *seen = managed_int(), *m = managed_int();
	float ms = -1;

	CT_EQ(cudaEventCreate(&e0), cudaSuccess);
	CT_EQ(cudaEventCreateWithFlags(&e1, cudaEventDefault), cudaSuccess);
	CT_EQ(cudaStreamCreate(&s2), cudaSuccess);
	CT_EQ(cudaEventRecord(e0, s), cudaSuccess);
	gate<<<1, 1, 0, s>>>(flag, seen, WAIT);
	CT_EQ(cudaEventRecordWithFlags(e1, s, cudaEventRecordDefault),
	      cudaSuccess);
	CT_EQ(cudaStreamWaitEvent(s2, e1, 0), cudaSuccess);
	mark<<<1, 1, 0, s2>>>(m, 7);
	CT_EQ(cudaEventQuery(e1), cudaErrorNotReady);
	/* cudaErrorNotReady is kept as the last error, then cleared */
	CT_EQ(cudaGetLastError(), cudaErrorNotReady);
	CT_EQ(cudaGetLastError(), cudaSuccess);
	CT_EQ(cudaStreamQuery(s2), cudaErrorNotReady);
	CT_CHECK(get(m) == 0, "ran before the event it waits for");
	(void)cudaGetLastError();
	open_gate(flag);
	CT_EQ(cudaEventSynchronize(e1), cudaSuccess);
	CT_EQ(cudaEventQuery(e1), cudaSuccess);
	CT_EQ(cudaEventElapsedTime(&ms, e0, e1), cudaSuccess);
	CT_CHECK(ms >= 0.0f, "elapsed %g ms", ms);
	CT_EQ(cudaStreamSynchronize(s2), cudaSuccess);
	CT_CHECK(get(seen) == 1 && get(m) == 7, "seen %d, m %d", get(seen),
		 get(m));
	CT_EQ(cudaStreamDestroy(s2), cudaSuccess);
	CT_EQ(cudaEventDestroy(e0), cudaSuccess);
	CT_EQ(cudaEventDestroy(e1), cudaSuccess);
}

/*
 * The legacy default stream waits for a blocking stream's earlier work,
 * and a blocking stream for its earlier work; a non-blocking stream
 * takes part in neither.  Stream 0 is the legacy stream, or under
 * per-thread the thread's own stream, which waits for the legacy
 * stream only.
 */
static void null_stream(cudaStream_t blocking)
{
	cudaStream_t nb;
	int *flag = managed_int(), *seen = managed_int(), *m = managed_int();

	gate<<<1, 1, 0, blocking>>>(flag, seen, WAIT);
	mark<<<1, 1>>>(m, 1);	/* stream 0 */
	if (!ptsz) {
		CT_EQ(cudaStreamQuery(0), cudaErrorNotReady);
		CT_CHECK(get(m) == 0, "stream 0 passed the blocking stream");
	} else {
		CT_EQ(cudaStreamSynchronize(0), cudaSuccess);
		CT_CHECK(get(m) == 1 && get(seen) == 0,
			 "per-thread stream 0 waited for another stream");
	}
	(void)cudaGetLastError();
	open_gate(flag);
	CT_EQ(cudaDeviceSynchronize(), cudaSuccess);
	CT_CHECK(get(m) == 1 && get(seen) == 1, "m %d seen %d", get(m),
		 get(seen));

	/* the other way round, through the legacy stream's own handle */
	*flag = *seen = *m = 0;
	gate<<<1, 1, 0, cudaStreamLegacy>>>(flag, seen, WAIT);
	mark<<<1, 1, 0, blocking>>>(m, 2);
	CT_EQ(cudaStreamQuery(blocking), cudaErrorNotReady);
	open_gate(flag);
	CT_EQ(cudaStreamSynchronize(blocking), cudaSuccess);
	CT_CHECK(get(m) == 2 && get(seen) == 1, "m %d seen %d", get(m),
		 get(seen));

	/* a non-blocking stream: the legacy stream does not wait for it */
	*flag = *seen = *m = 0;
	CT_EQ(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking),
	      cudaSuccess);
	gate<<<1, 1, 0, nb>>>(flag, seen, WAIT);
	mark<<<1, 1, 0, cudaStreamLegacy>>>(m, 3);
	CT_EQ(cudaStreamSynchronize(cudaStreamLegacy), cudaSuccess);
	CT_CHECK(get(m) == 3 && get(seen) == 0,
		 "the legacy stream waited for a non-blocking one (seen %d)",
		 get(seen));
	CT_EQ(cudaStreamQuery(nb), cudaErrorNotReady);
	open_gate(flag);
	CT_EQ(cudaStreamSynchronize(nb), cudaSuccess);
	CT_EQ(cudaStreamDestroy(nb), cudaSuccess);
	(void)cudaGetLastError();
}

/* Each thread's per-thread stream is its own. */
struct ct_thread {
	int *flag, *seen, launched;
	cudaStream_t ps;
};

static void *other_thread(void *arg)
{
	struct ct_thread *t = (struct ct_thread *)arg;

	gate<<<1, 1, 0, t->ps>>>(t->flag, t->seen, WAIT);
	__atomic_store_n(&t->launched, 1, __ATOMIC_RELEASE);
	CT_EQ(cudaStreamSynchronize(t->ps), cudaSuccess);
	CT_CHECK(get(t->seen) == 1, "seen %d", get(t->seen));
	return NULL;
}

static void per_thread(void)
{
	struct ct_thread t = { managed_int(), managed_int(), 0,
			       ptsz ? (cudaStream_t)0 : cudaStreamPerThread };
	int *m = managed_int();
	pthread_t th;

	CT_CHECK(!pthread_create(&th, NULL, other_thread, &t), "thread");
	while (!__atomic_load_n(&t.launched, __ATOMIC_ACQUIRE))
		sched_yield();
	mark<<<1, 1, 0, t.ps>>>(m, 4);
	CT_EQ(cudaStreamSynchronize(t.ps), cudaSuccess);
	CT_CHECK(get(m) == 4 && get(t.seen) == 0,
		 "per-thread streams of two threads are one (seen %d)",
		 get(t.seen));
	open_gate(t.flag);
	pthread_join(th, NULL);
}

/* a callback and a host function, after the work before them */
static int cb_status = -1, cb_value = -1, cb_order[2], cb_n;
static cudaStream_t cb_stream;

static void CUDART_CB callback(cudaStream_t st, cudaError_t status, void *ud)
{
	cb_stream = st;
	cb_status = status;
	cb_value = get((int *)ud);
	cb_order[cb_n++ & 1] = 1;
}

static void CUDART_CB host_fn(void *ud)
{
	(void)ud;
	cb_order[cb_n++ & 1] = 2;
}

static void host_work(cudaStream_t s)
{
	int *m = managed_int();

	mark<<<1, 1, 0, s>>>(m, 5);
	CT_EQ(cudaStreamAddCallback(s, callback, m, 0), cudaSuccess);
	CT_EQ(cudaLaunchHostFunc(s, host_fn, NULL), cudaSuccess);
	CT_EQ(cudaStreamSynchronize(s), cudaSuccess);
	CT_CHECK(cb_status == cudaSuccess && cb_stream == s && cb_value == 5,
		 "callback: status %d, value %d", cb_status, cb_value);
	CT_CHECK(cb_n == 2 && cb_order[0] == 1 && cb_order[1] == 2,
		 "order %d %d (%d)", cb_order[0], cb_order[1], cb_n);
	CT_EQ(cudaStreamAddCallback(s, callback, m, 1), cudaErrorInvalidValue);
	(void)cudaGetLastError();
}

int main(void)
{
	cudaStream_t s;
	unsigned flags = 9;
	int prio = 9, lo = 9, hi = 9;

	CT_EQ(cudaStreamCreateWithPriority(&s, cudaStreamDefault, 0),
	      cudaSuccess);
	CT_EQ(cudaStreamGetFlags(s, &flags), cudaSuccess);
	CT_CHECK(flags == cudaStreamDefault, "flags %u", flags);
	CT_EQ(cudaDeviceGetStreamPriorityRange(&lo, &hi), cudaSuccess);
	CT_EQ(cudaStreamGetPriority(s, &prio), cudaSuccess);
	CT_CHECK(prio >= hi && prio <= lo, "priority %d in [%d, %d]", prio, hi,
		 lo);
	copies(s);
	events(s);
	null_stream(s);
	per_thread();
	host_work(s);
	CT_EQ(cudaStreamDestroy(s), cudaSuccess);
	CT_EQ(cudaDeviceSynchronize(), cudaSuccess);
	CT_EQ(cudaGetLastError(), cudaSuccess);
	return ct_done();
}
