// s0_share.hip - what threads share, and what they do not, under stream0's
// check: a program built by hipcc (so that the shim reads its kernels'
// argument layout), run on hipemu with the twins of s0_share_twin.c.
// s0_share SCENARIO:
//
//   private    two threads, each with private buffers of every size the
//              pool serves apart (256 B to 1 MB in its small chunks, 2 and
//              3 MB in large ones), allocated in turn so that each
//              thread's buffers are the other's neighbours in memory;
//              each fills and sums its own on the null stream, 20 times,
//              with no sync between: nothing to order
//   cache      a cache of 4 buffers shared by two threads, as PyTorch's
//              caching allocator keeps them: each step a thread takes a
//              buffer, fills it with a kernel and sums it with a slow
//              kernel, then puts it back with no event; the other thread
//              takes it next while that sum is still pending
//   mallocfree the same with hipMalloc and hipFree each step
//
// Prints "SCENARIO: N of M sums wrong"; exit status 1 if any is.
#include <hip/hip_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__global__ void sh_fill(int *dst, int n, int val)
{
	for (int i = 0; i < n; i++)
		dst[i] = val;
}
// sums n ints of src into *out after ms milliseconds (on hipemu)
__global__ void sh_sum(const int *src, int n, long long *out, int ms)
{
	long long s = 0;

	(void)ms;
	for (int i = 0; i < n; i++)
		s += src[i];
	*out = s;
}

#define STEPS 12
#define ROUNDS 20
static const size_t sizes[] = { 256, 768, 4096, 65536, 1 << 20,
				2 << 20, 3 << 20 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static int failed, bad, malloc_each;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int turn;

static void ok(hipError_t e, const char *what)
{
	if (e != hipSuccess) {
		fprintf(stderr, "s0_share: %s: %d\n", what, (int)e);
		failed = 1;
	}
}

static void wait_turn(int t)
{
	pthread_mutex_lock(&mu);
	while (turn < t)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

static void next_turn(void)
{
	pthread_mutex_lock(&mu);
	turn++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

// ---- private ----

static int *priv[2][NSIZES];

static void *priv_worker(void *arg)
{
	int me = (int)(intptr_t)arg;
	long long *out;
	size_t k;

	// allocations in turn: A's size k, B's size k, A's size k + 1, ...
	for (k = 0; k < NSIZES; k++) {
		wait_turn(2 * (int)k + me);
		ok(hipMalloc(&priv[me][k], sizes[k]), "hipMalloc");
		next_turn();
	}
	ok(hipHostMalloc(&out, NSIZES * sizeof(*out), 0), "hipHostMalloc");
	for (int r = 0; r < ROUNDS; r++) {
		for (k = 0; k < NSIZES; k++) {
			int n = (int)(sizes[k] / sizeof(int));

			sh_fill<<<1, 1>>>(priv[me][k], n, me + r);
			ok(hipMemsetAsync(priv[me][k], 0, sizeof(int), 0),
			   "hipMemsetAsync");
			sh_sum<<<1, 1>>>(priv[me][k], n, &out[k], 0);
		}
	}
	ok(hipStreamSynchronize(0), "hipStreamSynchronize");
	for (k = 0; k < NSIZES; k++) {
		long long n = (long long)(sizes[k] / sizeof(int));

		if (out[k] != (n - 1) * (me + ROUNDS - 1))
			__atomic_add_fetch(&bad, 1, __ATOMIC_SEQ_CST);
		ok(hipFree(priv[me][k]), "hipFree");
	}
	ok(hipHostFree(out), "hipHostFree");
	return nullptr;
}

// ---- cache and mallocfree ----

static int *cache[4];
static int ncache;

static int *take(void)
{
	int *p = nullptr;

	if (malloc_each) {
		ok(hipMalloc(&p, 1024), "hipMalloc");
		return p;
	}
	pthread_mutex_lock(&mu);
	p = ncache ? cache[--ncache] : nullptr;
	pthread_mutex_unlock(&mu);
	if (!p)
		ok(hipMalloc(&p, 1024), "hipMalloc");
	return p;
}

// back into the cache with no event, as the caching allocator does
static void give(int *p)
{
	if (malloc_each) {
		ok(hipFree(p), "hipFree");
		return;
	}
	pthread_mutex_lock(&mu);
	cache[ncache++] = p;
	pthread_mutex_unlock(&mu);
}

static void *cache_worker(void *arg)
{
	int me = (int)(intptr_t)arg;
	long long *out;

	ok(hipHostMalloc(&out, STEPS * sizeof(*out), 0), "hipHostMalloc");
	for (int i = 0; i < STEPS; i++) {
		int *blk, val = (me + 1) * 1000 + i;

		wait_turn(2 * i + me);
		blk = take();
		sh_fill<<<1, 1>>>(blk, 256, val);
		sh_sum<<<1, 1>>>(blk, 256, &out[i], 30);
		give(blk);
		next_turn();
	}
	ok(hipStreamSynchronize(0), "hipStreamSynchronize");
	for (int i = 0; i < STEPS; i++)
		if (out[i] != 256LL * ((me + 1) * 1000 + i))
			__atomic_add_fetch(&bad, 1, __ATOMIC_SEQ_CST);
	ok(hipHostFree(out), "hipHostFree");
	return nullptr;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	void *(*fn)(void *);
	int total;

	if (argc != 2) {
		fprintf(stderr, "usage: s0_share private|cache|mallocfree\n");
		return 2;
	}
	if (!strcmp(argv[1], "private")) {
		fn = priv_worker;
		total = 2 * (int)NSIZES;
	} else {
		fn = cache_worker;
		malloc_each = !strcmp(argv[1], "mallocfree");
		total = 2 * STEPS;
	}
	ok(hipDeviceSynchronize(), "hipDeviceSynchronize");
	pthread_create(&a, nullptr, fn, (void *)0);
	pthread_create(&b, nullptr, fn, (void *)1);
	pthread_join(a, nullptr);
	pthread_join(b, nullptr);
	for (int i = 0; i < ncache; i++)
		ok(hipFree(cache[i]), "hipFree");
	printf("%s: %d of %d sums wrong\n", argv[1], bad, total);
	return failed || bad;
}
