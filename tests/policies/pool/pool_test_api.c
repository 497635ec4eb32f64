/*
 * pool_test_api.c - pool_test scenarios on the edges of the API: bad
 * frees, queries, managed and pitched memory, out of memory, the hot loop.
 */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
#include "pool_common.h"

/* hipFree of an interior pointer and a double free; a foreign pointer's
 * answer is printed so the script can compare it with the runtime's. */
static int sc_badfree(void)
{
	unsigned char *a, *b, byte = 0;
	static char host[4096];
	hipError_t r;

	PT_OK(hipMalloc((void **)&a, 1000));
	PT_OK(hipMalloc((void **)&b, 1000));
	PT_OK(hipMemset(b, 7, 1000));
	r = hipFree(a + 256);
	PT_CHECK(r == hipErrorInvalidValue, "interior free: %d", r);
	PT_OK(hipFree(a));
	r = hipFree(a);
	PT_CHECK(r == hipErrorInvalidValue, "double free: %d", r);
	PT_OK(hipMemcpy(&byte, b + 999, 1, hipMemcpyDeviceToHost));
	PT_CHECK(byte == 7, "neighbour block changed: %d", byte);
	PT_OK(hipFree(b));
	printf("foreign=%d\n", (int)hipFree(host + 16));
	printf("null=%d\n", (int)hipFree(NULL));
	return pt_failed;
}

static int sc_ipc(void)
{
	hipIpcMemHandle_t h;
	void *a;
	hipError_t r;

	PT_OK(hipMalloc(&a, 1 << 20));
	r = hipIpcGetMemHandle(&h, a);
	PT_CHECK(r == hipErrorInvalidValue, "IPC handle of a pool block: %d",
		 r);
	PT_OK(hipFree(a));
	return pt_failed;
}

/* Cached bytes count as free: free memory is back where it started. */
static int sc_meminfo(void)
{
	size_t f0, f1, f2, total;
	void *a;

	PT_OK(hipMemGetInfo(&f0, &total));
	PT_OK(hipMalloc(&a, 1 << 20));
	PT_OK(hipMemGetInfo(&f1, &total));
	PT_OK(hipFree(a));
	PT_OK(hipMemGetInfo(&f2, &total));
	PT_CHECK(f1 <= f0 - (1 << 20), "1 MiB live but free %zu -> %zu", f0,
		 f1);
	PT_CHECK(f1 >= f0 - (2 << 20), "free fell by more than the chunk");
	PT_CHECK(f2 == f0, "after the free: %zu, before: %zu", f2, f0);
	printf("meminfo: %zu %zu %zu of %zu\n", f0, f1, f2, total);
	return pt_failed;
}

/*
 * The same with small blocks, which the thread caches count themselves:
 * a thread takes a block from the heap, frees it into its cache, takes
 * it back and keeps it live while the main thread asks; then it frees a
 * second block into its cache and exits, and the main thread frees the
 * first.  Free memory must be back where it started.
 */
static void *mi_main(void *arg)
{
	void **slot = arg, *a, *b;

	PT_OK(hipMalloc(&a, 4096));
	PT_OK(hipFree(a));
	PT_OK(hipMalloc(&a, 4096)); /* its cache's, most likely */
	PT_OK(hipMalloc(&b, 8192));
	PT_OK(hipFree(b)); /* stays in the cache until the thread exits */
	__atomic_store_n(slot, a, __ATOMIC_RELEASE);
	while (__atomic_load_n(slot, __ATOMIC_ACQUIRE))
		usleep(1000);
	return NULL;
}

static int sc_meminfo_threads(void)
{
	size_t f0, f1, f2, total;
	void *a = NULL;
	pthread_t t;

	PT_OK(hipMemGetInfo(&f0, &total));
	pthread_create(&t, NULL, mi_main, &a);
	while (!__atomic_load_n(&a, __ATOMIC_ACQUIRE))
		usleep(1000);
	PT_OK(hipMemGetInfo(&f1, &total));
	PT_CHECK(f1 == f0 - 4096, "4 KiB live in a thread: free %zu -> %zu",
		 f0, f1);
	PT_OK(hipFree(a));
	__atomic_store_n(&a, NULL, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	PT_OK(hipMemGetInfo(&f2, &total));
	PT_CHECK(f2 == f0, "after the thread: %zu, before: %zu", f2, f0);
	printf("meminfo threads: %zu %zu %zu of %zu\n", f0, f1, f2, total);
	return pt_failed;
}

static int sc_range(void)
{
	unsigned char *a;
	hipDeviceptr_t base;
	hipPointerAttribute_t at;
	size_t sz;
	hipError_t r;

	PT_OK(hipMalloc((void **)&a, 1000));
	PT_OK(hipMemGetAddressRange(&base, &sz, a + 999));
	/* the size asked, as the runtime reports an allocation's size */
	PT_CHECK(base == a && sz == 1000, "range %p+%zu for block %p+1000",
		 base, sz, (void *)a);
	r = hipMemGetAddressRange(&base, &sz, a + 8192);
	PT_CHECK(r != hipSuccess || (unsigned char *)base + sz <= a + 8192 ||
			 base != a,
		 "free pool memory reported as the block");
	PT_OK(hipPointerGetAttributes(&at, a + 10));
	PT_CHECK(at.devicePointer == a + 10, "devicePointer %p",
		 at.devicePointer);
	PT_CHECK(at.memoryType == hipMemoryTypeDevice, "type %d",
		 at.memoryType);
	PT_OK(hipFree(a));
	r = hipPointerGetAttributes(&at, a);
	PT_CHECK(r != hipSuccess, "attributes of a freed block: success");
	return pt_failed;
}

static int sc_managed(void)
{
	unsigned char *m, *h;
	uint64_t *out;
	void *p = (void *)1;
	size_t i, n = 10000;
	int dev = 0;
	hipError_t r;

	PT_OK(hipHostMalloc((void **)&out, sizeof(*out), 0));
	PT_OK(hipMallocManaged((void **)&m, n, hipMemAttachGlobal));
	PT_CHECK((uintptr_t)m % 256 == 0, "%p", (void *)m);
	for (i = 0; i < n; i++)
		m[i] = (unsigned char)(i % 7);
	PT_OK(hipGetDevice(&dev));
	PT_OK(hipMemAdvise(m, n, hipMemAdviseSetReadMostly, dev));
	PT_OK(hipMemPrefetchAsync(m, n, dev, NULL));
	PT_OK(k_sum(NULL, m, n, out, 0, NULL));
	PT_OK(hipDeviceSynchronize());
	{
		uint64_t want = 0;

		for (i = 0; i < n; i++)
			want += i % 7;
		PT_CHECK(*out == want, "device read %llu want %llu",
			 (unsigned long long)*out, (unsigned long long)want);
	}
	PT_OK(hipMemset(m, 3, n));
	PT_OK(hipDeviceSynchronize());
	PT_CHECK(m[0] == 3 && m[n - 1] == 3, "host read %d %d", m[0],
		 m[n - 1]);
	PT_OK(hipFree(m));
	/* a device block and a managed one never share a chunk */
	PT_OK(hipMalloc((void **)&h, n));
	PT_CHECK(h != m, "managed block handed out as device memory");
	PT_OK(hipFree(h));

	r = hipMallocManaged(&p, 0, hipMemAttachGlobal);
	PT_CHECK(r == hipErrorInvalidValue, "managed 0 bytes: %d", r);
	r = hipMallocManaged(NULL, 16, hipMemAttachGlobal);
	PT_CHECK(r == hipErrorInvalidValue, "managed NULL: %d", r);
	p = (void *)1;
	PT_OK(hipMalloc(&p, 0));
	PT_CHECK(p == NULL, "hipMalloc(0) gave %p", p);
	r = hipMalloc(NULL, 16);
	PT_CHECK(r == hipErrorInvalidValue, "hipMalloc(NULL): %d", r);
	return pt_failed;
}

static int sc_pitch(void)
{
	unsigned char *p, host[7][1000], back[7][1000];
	size_t pitch = 0, i, j;
	int align = 0;

	PT_OK(hipMallocPitch((void **)&p, &pitch, 1000, 7));
	if (hipDeviceGetAttribute(&align,
				  hipDeviceAttributeTexturePitchAlignment,
				  0) != hipSuccess)
		align = 0;
	PT_CHECK(pitch >= 1000 && pitch % 256 == 0, "pitch %zu", pitch);
	PT_CHECK(align <= 0 || pitch % (size_t)align == 0,
		 "pitch %zu not a multiple of the texture alignment %d", pitch,
		 align);
	PT_CHECK((uintptr_t)p % 256 == 0, "%p", (void *)p);
	for (i = 0; i < 7; i++)
		for (j = 0; j < 1000; j++)
			host[i][j] = (unsigned char)(i * 31 + j);
	PT_OK(hipMemcpy2D(p, pitch, host, 1000, 1000, 7,
			  hipMemcpyHostToDevice));
	PT_OK(hipMemcpy2D(back, 1000, p, pitch, 1000, 7,
			  hipMemcpyDeviceToHost));
	PT_CHECK(!memcmp(host, back, sizeof(host)), "2D round trip differs");
	PT_OK(hipFree(p));
	PT_CHECK(hipMallocPitch((void **)&p, NULL, 10, 10) ==
			 hipErrorInvalidValue,
		 "NULL pitch accepted");
	printf("pitch %zu (texture alignment %d)\n", pitch, align);
	return pt_failed;
}

/*
 * oom BLOCK BIG: allocates BLOCK-byte blocks until the pool fails, checks
 * the failure, frees them, then a BIG one must succeed (the pool trims
 * its cached chunks).  Prints how many blocks fitted.
 */
static int sc_oom(size_t bs, size_t big)
{
	static void *v[4096];
	void *p = (void *)1;
	hipError_t r = hipSuccess;
	int n = 0, i;

	while (n < 4096 && (r = hipMalloc(&v[n], bs)) == hipSuccess)
		n++;
	PT_CHECK(r == hipErrorOutOfMemory, "failure %d (%s)", r,
		 hipGetErrorName(r));
	r = hipMalloc(&p, bs);
	PT_CHECK(r == hipErrorOutOfMemory && p == NULL,
		 "second failure %d, pointer %p", r, p);
	for (i = 0; i < n; i++)
		PT_OK(hipFree(v[i]));
	if (big) {
		r = hipMalloc(&p, big);
		PT_CHECK(r == hipSuccess, "%zu bytes after freeing all: %s",
			 big, hipGetErrorName(r));
		if (r == hipSuccess)
			PT_OK(hipMemset(p, 1, big));
	}
	printf("oom: %d blocks of %zu\n", n, bs);
	return pt_failed;
}

/*
 * errno N served|runtime, with HIPEMU_ERRNO=N (every runtime call leaves
 * errno N): a hipMalloc the pool serves from its cache and a hipFree of
 * its block leave the program's errno as it was (served), each after a
 * failed call, so that the shim's own look at the last error follows the
 * answer; without the pool the runtime answers them and leaves N
 * (runtime).  A call the runtime answers leaves N either way.
 */
static int sc_errno(int n, int served)
{
	int want = served ? 1234 : n, dev, i;
	void *p;

	PT_OK(hipMalloc(&p, 4096));
	PT_OK(hipFree(p));
	for (i = 0; i < 8; i++) {
		(void)hipSetDevice(9999); /* the last error: a failure */
		errno = 1234;
		PT_OK(hipMalloc(&p, 4096));
		PT_CHECK(errno == want, "hipMalloc %d: errno %d, want %d", i,
			 errno, want);
		(void)hipSetDevice(9999);
		errno = 1234;
		PT_OK(hipFree(p));
		PT_CHECK(errno == want, "hipFree %d: errno %d, want %d", i,
			 errno, want);
	}
	errno = 1234;
	PT_OK(hipGetDevice(&dev));
	PT_CHECK(errno == n, "hipGetDevice: errno %d, want %d", errno, n);
	printf("errno: %s calls kept %d\n", served ? "served" : "runtime",
	       want);
	return pt_failed;
}

/* hot N [kernel]: N allocation/free pairs of a few sizes. */
static int sc_hot(int n, int kernel)
{
	static const size_t sz[] = { 4096, 65536, 1 << 20, 3 << 20, 1000 };
	void *p[4];
	int i, j;

	for (i = 0; i < n; i += 4) {
		for (j = 0; j < 4; j++) {
			PT_OK(hipMalloc(&p[j], sz[(i / 4 + j) % 5]));
			if (kernel)
				PT_OK(k_nop(NULL, p[j]));
		}
		for (j = 0; j < 4; j++)
			PT_OK(hipFree(p[j]));
	}
	PT_OK(hipDeviceSynchronize());
	printf("hot: %d allocations\n", n);
	return pt_failed;
}

/* hipExtMallocWithFlags: default flags pooled, others passed through. */
static int sc_extmalloc(void)
{
	unsigned char *a, *f;
	hipDeviceptr_t base;
	size_t sz;

	PT_OK(hipExtMallocWithFlags((void **)&a, 1000, hipDeviceMallocDefault));
	PT_OK(hipMemGetAddressRange(&base, &sz, a + 10));
	PT_CHECK(base == a && sz == 1000, "pooled ext block %p+%zu", base, sz);
	PT_OK(hipExtMallocWithFlags((void **)&f, 1000,
				    hipDeviceMallocFinegrained));
	PT_OK(hipMemGetAddressRange(&base, &sz, f + 10));
	PT_CHECK(base == f && sz != 1024, "fine-grained block pooled (%zu)",
		 sz);
	PT_OK(hipFree(f));
	PT_OK(hipFree(a));
	return pt_failed;
}

/* hipDeviceReset drops the device's pool; allocation works after it. */
static int sc_reset(void)
{
	void *a, *b, *c;
	unsigned char x = 0;

	PT_OK(hipMalloc(&a, 4096));
	PT_OK(hipMalloc(&b, 3 << 20));
	PT_OK(hipFree(b));
	PT_OK(hipDeviceReset());
	PT_OK(hipMalloc(&c, 4096));
	PT_OK(hipMemset(c, 5, 4096));
	PT_OK(hipMemcpy(&x, (char *)c + 4095, 1, hipMemcpyDeviceToHost));
	PT_CHECK(x == 5, "memory after reset: %d", x);
	PT_OK(hipFree(c));
	/* a pointer from before the reset is the runtime's business now */
	printf("stale=%d\n", (int)hipFree(a));
	return pt_failed;
}

/* A free while a stream is captured (global mode) must not record on the
 * null stream, which would invalidate the capture. */
static int sc_capture(void)
{
	hipStream_t s;
	hipGraph_t g = NULL;
	void *a, *b;
	hipError_t r;

	PT_OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
	PT_OK(hipMalloc(&a, 4096));
	PT_OK(hipMalloc(&b, 4096));
	PT_OK(hipMemset(b, 1, 4096));
	PT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
	PT_OK(k_nop(s, a));
	PT_OK(hipFree(b));
	r = hipStreamEndCapture(s, &g);
	PT_CHECK(r == hipSuccess && g, "capture ended with %s",
		 hipGetErrorName(r));
	if (g)
		PT_OK(hipGraphDestroy(g));
	PT_OK(hipFree(a));
	PT_OK(hipStreamDestroy(s));
	return pt_failed;
}

/*
 * A 768 KiB request that the small heap cannot place, while a large
 * block (2 MiB, freed) is free: t_borrow.sh counts the runtime's
 * hipMalloc calls (the large chunk and one small chunk, not a second
 * small one).  The memory must be usable: each block is written.
 */
static int sc_borrow(void)
{
	void *big, *a, *b, *c;

	PT_OK(hipMalloc(&big, 2u << 20));
	PT_OK(hipFree(big));
	PT_OK(hipMalloc(&a, 768u << 10));
	PT_OK(hipMalloc(&b, 768u << 10));
	PT_OK(hipMalloc(&c, 768u << 10));
	PT_OK(hipMemset(a, 1, 768u << 10));
	PT_OK(hipMemset(b, 2, 768u << 10));
	PT_OK(hipMemset(c, 3, 768u << 10));
	PT_OK(hipDeviceSynchronize());
	PT_OK(hipFree(a));
	PT_OK(hipFree(b));
	PT_OK(hipFree(c));
	PT_OK(hipMalloc(&big, 2u << 20));
	PT_OK(hipFree(big));
	printf("borrow: done\n");
	return pt_failed;
}

int pt_api_scenario(const char *sc, int argc, char **argv)
{
	if (!strcmp(sc, "borrow"))
		return sc_borrow();
	if (!strcmp(sc, "capture"))
		return sc_capture();
	if (!strcmp(sc, "extmalloc"))
		return sc_extmalloc();
	if (!strcmp(sc, "reset"))
		return sc_reset();
	if (!strcmp(sc, "starve") && argc > 2)
		return pt_starve(argv[2]);
	if (!strcmp(sc, "badfree"))
		return sc_badfree();
	if (!strcmp(sc, "ipc"))
		return sc_ipc();
	if (!strcmp(sc, "meminfo"))
		return sc_meminfo();
	if (!strcmp(sc, "meminfo_threads"))
		return sc_meminfo_threads();
	if (!strcmp(sc, "range"))
		return sc_range();
	if (!strcmp(sc, "managed"))
		return sc_managed();
	if (!strcmp(sc, "pitch"))
		return sc_pitch();
	if (!strcmp(sc, "oom") && argc > 3)
		return sc_oom(strtoull(argv[2], NULL, 0),
			      strtoull(argv[3], NULL, 0));
	if (!strcmp(sc, "errno") && argc > 3)
		return sc_errno(atoi(argv[2]), !strcmp(argv[3], "served"));
	if (!strcmp(sc, "hot"))
		return sc_hot(argc > 2 ? atoi(argv[2]) : 20000,
			      argc > 3 && !strcmp(argv[3], "kernel"));
	fprintf(stderr, "usage: pool_test SCENARIO (see tests/policies/pool/*.sh)\n");
	return 2;
}
