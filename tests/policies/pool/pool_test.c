/*
 * pool_test.c - scenarios run by tests/policies/pool/t_*.sh under the pool policy
 * on hipemu: pool_test SCENARIO [ARGS].  Exit 0 when every check held.
 */
#include <unistd.h>
#include "pool_common.h"

int pt_failed;
hipFunction_t pt_f_sum, pt_f_nop;

static hipStream_t pt_side; /* non-blocking: work on it races the rest */

static hipStream_t pt_stream(const char *kind)
{
	hipStream_t s = NULL;

	if (!strcmp(kind, "nonblocking"))
		PT_OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
	else if (!strcmp(kind, "blocking"))
		PT_OK(hipStreamCreate(&s));
	else if (!strcmp(kind, "perthread"))
		s = hipStreamPerThread;
	else if (strcmp(kind, "null"))
		fprintf(stderr, "unknown stream kind %s\n", kind), exit(2);
	return s;
}

/*
 * A kernel on stream kind reads block a for 200 ms; a is freed, the same
 * size allocated and overwritten on a racing stream.  The kernel must
 * still see a's bytes.  destroy: the kernel's stream is destroyed before
 * the free.
 */
static int sc_hazard(const char *kind, int destroy)
{
	const size_t n = 1 << 16;
	unsigned char *a, *b, *c;
	uint64_t *out;
	int *done, fin;
	hipStream_t s = pt_stream(kind);

	PT_OK(hipHostMalloc((void **)&out, sizeof(*out), 0));
	PT_OK(hipHostMalloc((void **)&done, sizeof(*done), 0));
	*done = 0;
	*out = 0;
	PT_OK(hipMalloc((void **)&a, n));
	PT_OK(hipMemset(a, 1, n));
	PT_OK(hipDeviceSynchronize());
	PT_OK(k_sum(s, a, n, out, 200, done));
	if (destroy)
		PT_OK(hipStreamDestroy(s));
	PT_OK(hipFree(a));
	PT_OK(hipMalloc((void **)&b, n));
	fin = __atomic_load_n(done, __ATOMIC_SEQ_CST);
	PT_CHECK(b != a || fin, "%p handed out again while a kernel read it",
		 (void *)a);
	PT_OK(hipMemsetAsync(b, 0xff, n, pt_side));
	PT_OK(hipStreamSynchronize(pt_side));
	PT_OK(hipDeviceSynchronize());
	PT_CHECK(*out == n, "kernel summed %llu, want %zu (block clobbered)",
		 (unsigned long long)*out, n);
	/* and the pool does reuse once the work is done */
	PT_OK(hipFree(b));
	PT_OK(hipDeviceSynchronize()); /* the free's own events ran too */
	PT_OK(hipMalloc((void **)&c, n));
	PT_CHECK(c == a || c == b, "no reuse after the device went idle: %p",
		 (void *)c);
	PT_OK(hipFree(c));
	if (s && s != hipStreamPerThread && !destroy)
		PT_OK(hipStreamDestroy(s));
	printf("hazard %s%s: reused=%d kernel-finished-first=%d\n", kind,
	       destroy ? " destroyed" : "", b == a, fin);
	return pt_failed;
}

/* The detector works: overwriting a block a kernel reads is seen. */
static int sc_control(void)
{
	const size_t n = 1 << 16;
	unsigned char *a;
	uint64_t *out;
	hipStream_t s = pt_stream("nonblocking");

	PT_OK(hipHostMalloc((void **)&out, sizeof(*out), 0));
	PT_OK(hipMalloc((void **)&a, n));
	PT_OK(hipMemset(a, 1, n));
	PT_OK(hipDeviceSynchronize());
	PT_OK(k_sum(s, a, n, out, 200, NULL));
	PT_OK(hipMemsetAsync(a, 0xff, n, pt_side)); /* what unsafe reuse does */
	PT_OK(hipDeviceSynchronize());
	PT_CHECK(*out != n, "the clobbered block still summed right");
	printf("control: sum %llu (clean would be %zu)\n",
	       (unsigned long long)*out, n);
	return pt_failed;
}

/* LBSHIM_POOL_FREE=sync: hipFree waits for the device, as the runtime's. */
static int sc_freesync(void)
{
	const size_t n = 4096;
	unsigned char *a, *b;
	int *done;
	uint64_t *out;
	hipStream_t s = pt_stream("nonblocking");

	PT_OK(hipHostMalloc((void **)&out, sizeof(*out), 0));
	PT_OK(hipHostMalloc((void **)&done, sizeof(*done), 0));
	*done = 0;
	PT_OK(hipMalloc((void **)&a, n));
	PT_OK(k_sum(s, a, n, out, 100, done));
	PT_OK(hipFree(a));
	PT_CHECK(__atomic_load_n(done, __ATOMIC_SEQ_CST),
		 "hipFree returned before the device was idle");
	PT_OK(hipMalloc((void **)&b, n));
	PT_CHECK(b == a, "freed block not reused at once (%p, %p)", (void *)a,
		 (void *)b);
	return pt_failed;
}

/* stream0,pool: thread A reads a block on its null stream (a stream0
 * stream); the main thread frees it, reallocates and overwrites it on
 * its own null stream, which stream0 does not order after A's. */
struct xt {
	unsigned char *a;
	size_t n;
	uint64_t *out;
	int *done;
	int launched;
};

static void *xt_main(void *arg)
{
	struct xt *x = arg;

	PT_OK(hipMemset(x->a, 1, x->n));
	PT_OK(hipStreamSynchronize(NULL));
	PT_OK(k_sum(NULL, x->a, x->n, x->out, 200, x->done));
	__atomic_store_n(&x->launched, 1, __ATOMIC_SEQ_CST);
	/* stay alive: an exiting thread's stream0 stream is destroyed,
	 * which waits for its work and would hide the race */
	while (__atomic_load_n(&x->launched, __ATOMIC_SEQ_CST) != 2)
		usleep(1000);
	return NULL;
}

static int sc_xthread(void)
{
	struct xt x = { .n = 1 << 16 };
	unsigned char *b;
	pthread_t t;

	PT_OK(hipHostMalloc((void **)&x.out, sizeof(*x.out), 0));
	PT_OK(hipHostMalloc((void **)&x.done, sizeof(*x.done), 0));
	*x.done = 0;
	PT_OK(hipMalloc((void **)&x.a, x.n));
	pthread_create(&t, NULL, xt_main, &x);
	while (!__atomic_load_n(&x.launched, __ATOMIC_SEQ_CST))
		usleep(1000);
	PT_OK(hipFree(x.a)); /* ordered after the launch by x.launched */
	PT_OK(hipMalloc((void **)&b, x.n));
	PT_CHECK(b != x.a || __atomic_load_n(x.done, __ATOMIC_SEQ_CST),
		 "block reused while another thread's kernel read it");
	PT_OK(hipMemset(b, 0xff, x.n));
	PT_OK(hipStreamSynchronize(NULL));
	PT_OK(hipDeviceSynchronize());
	PT_CHECK(*x.out == x.n, "sum %llu want %zu", (unsigned long long)*x.out,
		 x.n);
	__atomic_store_n(&x.launched, 2, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	printf("xthread: reused=%d\n", b == x.a);
	return pt_failed;
}

/* ---- fuzz ---- */

struct live {
	unsigned char *p;
	size_t n;
	unsigned char pat;
};

static size_t fz_size(uint64_t *r)
{
	unsigned k = pt_rand(r) % 100;

	if (k < 70)
		return 1 + pt_rand(r) % (64 << 10);
	if (k < 92)
		return (64 << 10) + pt_rand(r) % (2 << 20);
	return (2 << 20) + pt_rand(r) % (22 << 20);
}

/* Checks block l's pattern at the ends and at a few random places. */
static void fz_verify(struct live *l, uint64_t *r)
{
	unsigned char buf[256];
	size_t offs[8], i, j, k;

	offs[0] = 0;
	offs[1] = l->n > sizeof(buf) ? l->n - sizeof(buf) : 0;
	for (i = 2; i < 8; i++)
		offs[i] = pt_rand(r) % l->n;
	for (i = 0; i < 8; i++) {
		k = l->n - offs[i] < sizeof(buf) ? l->n - offs[i] : sizeof(buf);
		PT_OK(hipMemcpy(buf, l->p + offs[i], k, hipMemcpyDeviceToHost));
		for (j = 0; j < k; j++) {
			if (buf[j] != l->pat) {
				PT_CHECK(0, "block %p+%zu: %02x want %02x",
					 (void *)l->p, offs[i] + j, buf[j],
					 l->pat);
				return;
			}
		}
	}
}

static int sc_fuzz(unsigned seed, int iters)
{
	struct live lv[64];
	uint64_t r = seed * 2654435761u + 1;
	hipStream_t s;
	int n = 0, it, i;

	PT_OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
	for (it = 0; it < iters && !pt_failed; it++) {
		if (n < 64 && (n == 0 || pt_rand(&r) % 100 < 55)) {
			struct live *l = &lv[n];
			hipDeviceptr_t base;
			size_t bsz;

			l->n = fz_size(&r);
			l->pat = (unsigned char)(1 + pt_rand(&r) % 254);
			PT_OK(hipMalloc((void **)&l->p, l->n));
			PT_CHECK((uintptr_t)l->p % 256 == 0, "%p unaligned",
				 (void *)l->p);
			for (i = 0; i < n; i++)
				PT_CHECK(l->p + l->n <= lv[i].p ||
						 lv[i].p + lv[i].n <= l->p,
					 "[%p,+%zu) overlaps [%p,+%zu)",
					 (void *)l->p, l->n, (void *)lv[i].p,
					 lv[i].n);
			PT_OK(hipMemGetAddressRange(&base, &bsz,
						    l->p + l->n / 2));
			PT_CHECK(base == l->p && bsz >= l->n &&
					 bsz < l->n + 256,
				 "range of %p+%zu: %p+%zu", (void *)l->p, l->n,
				 base, bsz);
			if (pt_rand(&r) % 4 == 0) {
				PT_OK(hipMemsetAsync(l->p, l->pat, l->n, s));
				PT_OK(k_nop(s, l->p));
			} else {
				PT_OK(hipMemset(l->p, l->pat, l->n));
			}
			n++;
		} else {
			i = (int)(pt_rand(&r) % n);
			PT_OK(hipStreamSynchronize(s));
			fz_verify(&lv[i], &r);
			PT_OK(hipFree(lv[i].p));
			lv[i] = lv[--n];
		}
	}
	PT_OK(hipDeviceSynchronize());
	for (i = 0; i < n; i++) {
		fz_verify(&lv[i], &r);
		PT_OK(hipFree(lv[i].p));
	}
	printf("fuzz seed %u: %d steps\n", seed, it);
	return pt_failed;
}

/* ---- threads ---- */

static unsigned char *volatile th_swap[16];
static int th_tolerate; /* a small device: out of memory is expected */
static int th_iters = 1500; /* per thread; PT_ITERS sets it (TSan runs fewer) */

static void *th_main(void *arg)
{
	int id = (int)(intptr_t)arg, it, i, n = 0;
	uint64_t r = 88172645463325252ull + id;
	struct live lv[8];

	for (it = 0; it < th_iters; it++) {
		if (id == 0 && it % 8 == 0) {
			/* counts every thread's cache while they run */
			size_t f, tot;

			PT_OK(hipMemGetInfo(&f, &tot));
		}
		if (n < 8 && pt_rand(&r) % 2) {
			struct live *l = &lv[n++];

			l->n = 1 + pt_rand(&r) % (pt_rand(&r) % 8 ? 8192 :
								    (3 << 20));
			l->pat = (unsigned char)(id * 16 + n);
			if (th_tolerate) {
				hipError_t e = hipMalloc((void **)&l->p, l->n);

				if (e == hipErrorOutOfMemory) {
					n--;
					continue;
				}
				PT_OK(e);
			} else {
				PT_OK(hipMalloc((void **)&l->p, l->n));
			}
			PT_OK(hipMemset(l->p, l->pat, l->n));
		} else if (n) {
			unsigned char b[2];

			i = (int)(pt_rand(&r) % n);
			PT_OK(hipMemcpy(&b[0], lv[i].p, 1,
					hipMemcpyDeviceToHost));
			PT_OK(hipMemcpy(&b[1], lv[i].p + lv[i].n - 1, 1,
					hipMemcpyDeviceToHost));
			PT_CHECK(b[0] == lv[i].pat && b[1] == lv[i].pat,
				 "thread %d: pattern %02x lost (%02x %02x)", id,
				 lv[i].pat, b[0], b[1]);
			if (pt_rand(&r) % 4 == 0) {
				/* free another thread's block, hand ours */
				unsigned char *o = __atomic_exchange_n(
					&th_swap[pt_rand(&r) % 16], NULL,
					__ATOMIC_ACQ_REL);

				if (o)
					PT_OK(hipFree(o));
				o = __atomic_exchange_n(&th_swap[id], lv[i].p,
							__ATOMIC_ACQ_REL);
				if (o)
					PT_OK(hipFree(o));
			} else {
				PT_OK(hipFree(lv[i].p));
			}
			lv[i] = lv[--n];
		}
	}
	for (i = 0; i < n; i++)
		PT_OK(hipFree(lv[i].p));
	return NULL;
}

static int sc_threads(int nt)
{
	pthread_t t[16];
	int i;
	const char *iters = getenv("PT_ITERS");

	if (iters && atoi(iters) > 0)
		th_iters = atoi(iters);
	if (nt > 16)
		nt = 16;
	for (i = 0; i < nt; i++)
		pthread_create(&t[i], NULL, th_main, (void *)(intptr_t)i);
	for (i = 0; i < nt; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 16; i++)
		if (th_swap[i])
			PT_OK(hipFree(th_swap[i]));
	printf("threads %d: done\n", nt);
	return pt_failed;
}

/*
 * The pool's syncs (pool_fence.c, "Syncs"): 40 rounds of allocate, a
 * kernel summing the block on a stream of this thread's, a wait by KIND
 * (stream: hipStreamSynchronize of it; device: hipDeviceSynchronize;
 * none), free.  Every sum must be right; the exit line's "frees found
 * pending work" is what t_syncs.sh reads.
 */
static int sc_syncs(const char *kind)
{
	const size_t n = 4096;
	uint64_t *out;
	hipStream_t s;
	int i;

	PT_OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
	PT_OK(hipHostMalloc((void **)&out, sizeof(*out), 0));
	for (i = 0; i < 40; i++) {
		unsigned char *a;

		*out = 0;
		PT_OK(hipMalloc((void **)&a, n));
		PT_OK(hipMemsetAsync(a, 1, n, s));
		PT_OK(k_sum(s, a, n, out, 1, NULL));
		if (!strcmp(kind, "stream"))
			PT_OK(hipStreamSynchronize(s));
		else if (!strcmp(kind, "device"))
			PT_OK(hipDeviceSynchronize());
		PT_OK(hipFree(a));
		if (strcmp(kind, "none"))
			PT_CHECK(*out == n, "round %d: sum %llu", i,
				 (unsigned long long)*out);
	}
	PT_OK(hipStreamSynchronize(s));
	PT_OK(hipStreamDestroy(s));
	printf("syncs %s: 40 rounds\n", kind);
	return pt_failed;
}

int main(int argc, char **argv)
{
	const char *sc = argc > 1 ? argv[1] : "";
	const char *arg = argc > 2 ? argv[2] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	pt_setup();
	PT_OK(hipStreamCreateWithFlags(&pt_side, hipStreamNonBlocking));
	if (!strcmp(sc, "hazard"))
		return sc_hazard(arg, argc > 3 && !strcmp(argv[3], "destroy"));
	if (!strcmp(sc, "caphazard") && argc > 3)
		return pt_capture_hazard(arg, argv[3],
					 argc > 4 && !strcmp(argv[4], "blocking"),
					 pt_side);
	if (!strcmp(sc, "control"))
		return sc_control();
	if (!strcmp(sc, "freesync"))
		return sc_freesync();
	if (!strcmp(sc, "xthread"))
		return sc_xthread();
	if (!strcmp(sc, "syncs"))
		return sc_syncs(arg);
	if (!strcmp(sc, "fuzz"))
		return sc_fuzz((unsigned)atoi(arg),
			       argc > 3 ? atoi(argv[3]) : 3000);
	if (!strcmp(sc, "threads")) {
		th_tolerate = argc > 3 && !strcmp(argv[3], "tolerate");
		return sc_threads(*arg ? atoi(arg) : 16);
	}
	return pt_api_scenario(sc, argc, argv);
}
