/*
 * handoff.cu - a block handed from one thread to another with no event,
 * as PyTorch's caching allocator hands a freed block to the next thread
 * that asks (c10/cuda/CUDACachingAllocator.cpp: a block freed on a stream
 * is reused by any allocation on that stream, and every thread's is the
 * legacy default stream).  On the legacy stream the two threads' work is
 * ordered by the stream itself; under lbshim's stream0 each thread has its
 * own stream, and only the check orders them.
 *
 * Each round: thread A sets block X to 1s and queues slow_sum(X) on the
 * null stream (it waits 2 ms of the GPU's timer, then sums X); then hands
 * X to thread B with no event and no sync.  B writes X on the null stream
 * at once and syncs:
 *   kernel  fill<<<>>>(X, ...): a kernel's pointer argument;
 *   set     cudaMemsetAsync(X, 0xff, ...);
 *   apart   B writes a block of its own: nothing to order.
 * After the rounds, every sum must be the block's size: B's write came
 * after A's read.
 *
 * usage: handoff MODE [ROUNDS [BYTES]]   (defaults 10, 64 KiB)
 * prints: handoff: mode=M rounds=N bytes=B wrong=W
 * exit 0 iff no sum was wrong.
 */
#include <pthread.h>
#include <string.h>
#include "gpucommon.h"

__global__ void fill(int *p, int n, int v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = v + i;
}

static const char *mode;
static int rounds;
static size_t bytes;
static unsigned char *x, *own;
static unsigned long long *d_out;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int handed, written; /* rounds handed to B, rounds B wrote */

static void wait_for(int *what, int n)
{
	pthread_mutex_lock(&mu);
	while (*what < n)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

static void bump(int *what)
{
	pthread_mutex_lock(&mu);
	(*what)++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static void *thread_a(void *unused)
{
	int r;

	(void)unused;
	for (r = 0; r < rounds; r++) {
		wait_for(&written, r);
		CK(cudaMemsetAsync(x, 1, bytes, 0));
		slow_sum<<<1, 256>>>(x, bytes, 2000000, d_out + r);
		CK(cudaGetLastError());
		bump(&handed);
	}
	return NULL;
}

static void *thread_b(void *unused)
{
	unsigned char *p = strcmp(mode, "apart") ? x : own;
	int n = (int)(bytes / sizeof(int)), r;

	(void)unused;
	for (r = 1; r <= rounds; r++) {
		wait_for(&handed, r);
		if (!strcmp(mode, "set"))
			CK(cudaMemsetAsync(p, 0xff, bytes, 0));
		else
			fill<<<(n + 255) / 256, 256>>>((int *)p, n, -1);
		CK(cudaGetLastError());
		CK(cudaStreamSynchronize(0));
		bump(&written);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long long *h_out;
	pthread_t a, b;
	int r, wrong = 0;

	mode = argc > 1 ? argv[1] : "";
	rounds = argc > 2 ? atoi(argv[2]) : 10;
	bytes = argc > 3 ? strtoul(argv[3], NULL, 0) : (64u << 10);
	if ((strcmp(mode, "kernel") && strcmp(mode, "set") &&
	     strcmp(mode, "apart")) || rounds < 1 || bytes < sizeof(int)) {
		fprintf(stderr, "usage: handoff kernel|set|apart [ROUNDS "
				"[BYTES]]\n");
		return 2;
	}
	CK(cudaMalloc(&x, bytes));
	CK(cudaMalloc(&own, bytes));
	CK(cudaMalloc(&d_out, rounds * sizeof(*d_out)));
	CK(cudaMemset(d_out, 0, rounds * sizeof(*d_out)));
	h_out = (unsigned long long *)calloc(rounds, sizeof(*h_out));
	pthread_create(&a, NULL, thread_a, NULL);
	pthread_create(&b, NULL, thread_b, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(h_out, d_out, rounds * sizeof(*d_out),
		      cudaMemcpyDeviceToHost));
	for (r = 0; r < rounds; r++)
		wrong += h_out[r] != (unsigned long long)bytes;
	printf("handoff: mode=%s rounds=%d bytes=%zu wrong=%d\n", mode, rounds,
	       bytes, wrong);
	return wrong ? 1 : 0;
}
