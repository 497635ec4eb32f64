/*
 * lbbench.c - the workloads of `make bench` (tests/bench/bench.sh): one
 * workload per process, run with or without the shim, on whatever
 * runtime LD_LIBRARY_PATH finds (the fake that answers at once, or
 * hipemu).  Prints one line of key=value words, never asserts.
 *
 *   lbbench call N            hipMemset(1, 0, 0): the cheapest call
 *   lbbench query user|null N hipStreamQuery on a stream of ours or on 0
 *   lbbench submit user|null N
 *                             hipMemsetAsync of 0 bytes on a stream of
 *                             ours or on 0 (work stream0 remaps)
 *   lbbench pool THREADS N    hipMalloc(4 KiB) + hipFree pairs
 *   lbbench s0 launch8|memset|launchdep N
 *                             stream0's hazard check: a launch on 0 of
 *                             a kernel with 8 pointer arguments (device
 *                             memory from hipMalloc), a hipMemsetAsync of
 *                             4 KiB on 0; launchdep: the same launch by
 *                             two threads in turn, each launch depending
 *                             on the other thread's last (an event record
 *                             and a stream wait under stream0), the main
 *                             thread's launch call alone timed
 *   lbbench kargs scale|mix co|none N
 *                             the trace's argument record (KARGS): a
 *                             hipLaunchKernel of tkargs.hip's scale (32
 *                             bytes of arguments in 4) or mix (48 in 7),
 *                             its fat binary (LBBENCH_KARGS_FATBIN)
 *                             registered (co: the shim knows the layout
 *                             and records the arguments) or a dummy in
 *                             its place (none: the same launch, traced
 *                             without them)
 *   lbbench gpu OP N          one operation of a GPU program, each call
 *                             timed: launch (an empty kernel on stream
 *                             0), record (hipEventRecord on 0), query
 *                             (hipStreamQuery(0) idle), sync
 *                             (hipStreamSynchronize(0) idle), pair
 *                             (hipMalloc(4 KiB) + hipFree); after an
 *                             empty launch on 0 (not timed), of a 4
 *                             KiB block: refree (its hipFree timed, the
 *                             pool's fence recorded; then a hipMalloc),
 *                             realloc (a hipFree, then the hipMalloc
 *                             timed, which looks at the fences)
 *
 * Timing: rdtsc, calibrated against CLOCK_MONOTONIC.  The TSC of these
 * machines steps by 10 ns, so a call is never timed alone: one timestamp
 * per batch of 64 calls (gpu: per call, microseconds each).  Printed:
 * ns=mean ns per call (per pair for pool), p50= and p99= of the batches'
 * ns per call.  A warm-up of 64 Ki calls (the shim's start-up, the first
 * blocks of a trace) is not timed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>
#include "lbshim/hip_decls.h"

#define BATCH 64

static double tick_ns; /* ns per tick */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void calibrate(void)
{
	double c0 = now_ns();
	unsigned long long r0 = __rdtsc();

	while (now_ns() - c0 < 2e7)
		;
	tick_ns = (now_ns() - c0) / (double)(__rdtsc() - r0);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts v[0..n) and prints ns= (mean of v), p50=, p99=. */
static void report(const char *what, double *v, long n, double total_ns,
		   long calls)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	printf("%s ns=%.2f p50=%.2f p99=%.2f calls=%ld\n", what,
	       total_ns / (double)calls, v[n / 2], v[n * 99 / 100], calls);
}

static hipStream_t user_stream;

/* The loop of one workload; batches[] gets ns per call of each batch. */
#define TIMED_LOOP(nbatch, batches, body)                                  \
	do {                                                               \
		long b_, k_;                                               \
		for (k_ = 0; k_ < 1024 * BATCH; k_++) {                    \
			body;                                              \
		}                                                          \
		for (b_ = 0; b_ < (nbatch); b_++) {                        \
			unsigned long long t0_ = __rdtsc();                \
			for (k_ = 0; k_ < BATCH; k_++) {                   \
				body;                                      \
			}                                                  \
			(batches)[b_] = (double)(__rdtsc() - t0_) *        \
					tick_ns / BATCH;                   \
		}                                                          \
	} while (0)

static double sum(const double *v, long n)
{
	double s = 0;
	long i;

	for (i = 0; i < n; i++)
		s += v[i];
	return s;
}

static void bench_call(long n)
{
	long nb = n / BATCH;
	double *v = calloc((size_t)nb, sizeof(*v));

	TIMED_LOOP(nb, v, hipMemset((void *)1, (int)k_, 0));
	report("call", v, nb, sum(v, nb) * BATCH, nb * BATCH);
}

static void bench_query(const char *which, long n)
{
	long nb = n / BATCH;
	double *v = calloc((size_t)nb, sizeof(*v));
	hipStream_t s = 0;

	if (!strcmp(which, "user")) {
		if (hipStreamCreate(&user_stream) != hipSuccess)
			exit(1);
		s = user_stream;
	}
	hipDeviceSynchronize();
	TIMED_LOOP(nb, v, hipStreamQuery(s));
	report("query", v, nb, sum(v, nb) * BATCH, nb * BATCH);
}

static void bench_submit(const char *which, long n)
{
	long nb = n / BATCH;
	double *v = calloc((size_t)nb, sizeof(*v));
	hipStream_t s = 0;

	if (!strcmp(which, "user")) {
		if (hipStreamCreate(&user_stream) != hipSuccess)
			exit(1);
		s = user_stream;
	}
	TIMED_LOOP(nb, v, hipMemsetAsync((void *)1, (int)k_, 0, s));
	report("submit", v, nb, sum(v, nb) * BATCH, nb * BATCH);
}

struct pool_arg {
	long nb;
	double *v;
	pthread_barrier_t *bar;
};

static void *pool_thread(void *p)
{
	struct pool_arg *a = p;
	void *ptr;

	pthread_barrier_wait(a->bar);
	TIMED_LOOP(a->nb, a->v, (hipMalloc(&ptr, 4096), hipFree(ptr)));
	return NULL;
}

static void bench_pool(int threads, long n)
{
	long nb = n / BATCH, i;
	double *v = calloc((size_t)(nb * threads), sizeof(*v));
	pthread_t th[64];
	struct pool_arg a[64];
	pthread_barrier_t bar;

	if (threads < 1 || threads > 64)
		exit(2);
	pthread_barrier_init(&bar, NULL, (unsigned)threads);
	for (i = 0; i < threads; i++) {
		a[i] = (struct pool_arg){ nb, v + i * nb, &bar };
		pthread_create(&th[i], NULL, pool_thread, &a[i]);
	}
	for (i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	report("pool", v, nb * threads, sum(v, nb * threads) * BATCH,
	       nb * threads * BATCH);
}

/* An empty kernel: hipemu runs its twin s0_nop (HIPEMU_KERNELS). */
static hipFunction_t nop;

static hipError_t launch(void)
{
	void *args[] = { NULL };

	return hipModuleLaunchKernel(nop, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL);
}

static void bench_gpu(const char *op, long n)
{
	double *v = calloc((size_t)n, sizeof(*v)), t;
	hipModule_t mod;
	hipEvent_t ev;
	void *p = NULL;
	long i;
	int refree;

	if (hipModuleLoadData(&mod, "s0 twins") ||
	    hipModuleGetFunction(&nop, mod, "s0_nop") || hipEventCreate(&ev))
		exit(1);
	launch();
	hipDeviceSynchronize();
	refree = !strcmp(op, "refree") || !strcmp(op, "realloc");
	if (refree && hipMalloc(&p, 4096))
		exit(1);
	for (i = -n / 10; i < n; i++) {
		unsigned long long t0;

		/*
		 * not timed: the work the free's block may still be used by;
		 * for realloc, the free too
		 */
		if (refree)
			launch();
		if (!strcmp(op, "realloc"))
			hipFree(p);
		t0 = __rdtsc();
		if (!strcmp(op, "launch"))
			launch();
		else if (!strcmp(op, "record"))
			hipEventRecord(ev, 0);
		else if (!strcmp(op, "query"))
			hipStreamQuery(0);
		else if (!strcmp(op, "sync"))
			hipStreamSynchronize(0);
		else if (!strcmp(op, "pair"))
			hipMalloc(&p, 4096), hipFree(p);
		else if (!strcmp(op, "refree"))
			hipFree(p);
		else if (!strcmp(op, "realloc"))
			hipMalloc(&p, 4096);
		else
			exit(2);
		t = (double)(__rdtsc() - t0) * tick_ns;
		if (i >= 0)
			v[i] = t;
		if (!strcmp(op, "refree"))
			hipMalloc(&p, 4096); /* not timed */
		/* work retires: a launch queue that grows is not a GPU's */
		if ((!strcmp(op, "launch") || refree) && i % 64 == 63)
			hipStreamSynchronize(0);
	}
	report(op, v, n, sum(v, n), n);
}

/* A whole file, or NULL. */
static void *slurp(const char *path)
{
	FILE *fp = path ? fopen(path, "rb") : NULL;
	char *buf = NULL;
	long len;

	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) > 0 &&
	    fseek(fp, 0, SEEK_SET) == 0 && (buf = malloc((size_t)len)) &&
	    fread(buf, 1, (size_t)len, fp) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	return buf;
}

/* The code object named by LBBENCH_PTR8_CO, read whole, or a dummy. */
static const void *s0_image(void)
{
	void *buf = slurp(getenv("LBBENCH_PTR8_CO"));

	return buf ? buf : "s0 twins";
}

/*
 * launchdep: a second thread that launches f with the same pointers
 * whenever the main thread hands it the turn (odd), and hands it back.
 */
static struct {
	hipFunction_t f;
	void **args;
	unsigned long turn;
	int stop;
} s0_dep;

static void s0_dep_launch(void)
{
	hipModuleLaunchKernel(s0_dep.f, 1, 1, 1, 1, 1, 1, 0, 0, s0_dep.args,
			      NULL);
}

/* Waits for the turn to become odd (other: 1) or even (0). */
static int s0_dep_wait(unsigned long odd)
{
	while ((__atomic_load_n(&s0_dep.turn, __ATOMIC_ACQUIRE) & 1) != odd)
		if (__atomic_load_n(&s0_dep.stop, __ATOMIC_RELAXED))
			return 0;
		else
			sched_yield();
	return 1;
}

static void *s0_dep_other(void *unused)
{
	(void)unused;
	while (s0_dep_wait(1)) {
		s0_dep_launch();
		__atomic_add_fetch(&s0_dep.turn, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/*
 * nb batches of BATCH launches of the main thread, each after the other
 * thread's (so each depends on it), the launch call alone timed: v[b] is
 * a batch's mean.
 */
static void s0_dep_loop(long nb, double *v)
{
	long b, k;

	for (b = -16; b < nb; b++) {
		unsigned long long sum = 0, t0;

		for (k = 0; k < BATCH; k++) {
			s0_dep_wait(0);
			t0 = __rdtsc();
			s0_dep_launch();
			sum += __rdtsc() - t0;
			__atomic_add_fetch(&s0_dep.turn, 1, __ATOMIC_RELEASE);
		}
		if (b >= 0)
			v[b] = (double)sum * tick_ns / BATCH;
	}
}

/* Work on the null stream that stream0's hazard check looks at. */
static void bench_s0(const char *op, long n)
{
	long nb = n / BATCH, i;
	double *v = calloc((size_t)nb, sizeof(*v));
	void *p[8], *args[8];
	hipModule_t mod;
	hipFunction_t f;

	for (i = 0; i < 8; i++) {
		if (hipMalloc(&p[i], 1 << 20) != hipSuccess)
			exit(1);
		args[i] = &p[i];
	}
	/*
	 * The module image is a hipcc code object (ptr8.hip) when
	 * LBBENCH_PTR8_CO names one: the shim reads its layout as it would
	 * a real program's; the fake runtime only hands out handles.
	 */
	if (hipModuleLoadData(&mod, s0_image()) ||
	    hipModuleGetFunction(&f, mod, "s0_ptr8"))
		exit(1);
	if (!strcmp(op, "launch8"))
		TIMED_LOOP(nb, v,
			   hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0,
						 args, NULL));
	else if (!strcmp(op, "memset"))
		TIMED_LOOP(nb, v, hipMemsetAsync(p[k_ & 7], 0, 4096, 0));
	else if (!strcmp(op, "launchdep")) {
		pthread_t t;

		s0_dep.f = f;
		s0_dep.args = args;
		if (pthread_create(&t, NULL, s0_dep_other, NULL))
			exit(1);
		s0_dep_loop(nb, v);
		__atomic_store_n(&s0_dep.stop, 1, __ATOMIC_RELAXED);
		pthread_join(t, NULL);
	} else
		exit(2);
	report(op, v, nb, sum(v, nb) * BATCH, nb * BATCH);
}

/* the host stub of the kernel launched: only its address matters */
static char kargs_stub;

struct kargs_pair {
	float *p;
	int n;
};

/*
 * A traced launch with and without its argument record.  Both register
 * the kernel's stub under its mangled name; only "co" hands over a code
 * object with its metadata, so "none" is the same call with no layout
 * known (no KARGS record), the baseline the record's cost is taken from.
 */
static void bench_kargs(const char *kern, const char *mode, long n)
{
	static char dummy[64] = "no code object";
	long nb = n / BATCH;
	double *v = calloc((size_t)nb, sizeof(*v));
	void *image = NULL;
	struct {
		unsigned magic, version;
		void *binary, *dummy;
	} wrapper = { 0x48495046, 1, NULL, NULL }; /* __hipFatMAGIC2 */
	float *x = (float *)0x7f0000100000ull, a = 2.5f, **pp = NULL;
	int k = 4;
	struct kargs_pair pr = { x, 4242 };
	unsigned char c = 200;
	short h = -3;
	long long l = -5;
	_Bool t = 1;
	double d = 0.5;
	void *sargs[] = { &x, &a, &k, &pr };
	void *margs[] = { &c, &h, &l, &t, &d, &x, &pp };
	void **args = !strcmp(kern, "mix") ? margs : sargs;
	const char *name = !strcmp(kern, "mix") ? "_Z3mixhsxbdPKfPPf" :
						  "_Z5scalePffi4Pair";
	dim3 g = { 1, 1, 1 }, b = { 64, 1, 1 };
	lb_modules_t mods;

	if (!strcmp(mode, "co") &&
	    !(image = slurp(getenv("LBBENCH_KARGS_FATBIN"))))
		exit(1);
	wrapper.binary = image ? image : dummy;
	mods = __hipRegisterFatBinary(&wrapper);
	__hipRegisterFunction(mods, &kargs_stub, (char *)name, name,
			      (unsigned)-1, NULL, NULL, NULL, NULL, NULL);
	TIMED_LOOP(nb, v, hipLaunchKernel(&kargs_stub, g, b, args, 0, NULL));
	report("kargs", v, nb, sum(v, nb) * BATCH, nb * BATCH);
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";

	calibrate();
	if (!strcmp(m, "call") && argc == 3)
		bench_call(atol(argv[2]));
	else if (!strcmp(m, "query") && argc == 4)
		bench_query(argv[2], atol(argv[3]));
	else if (!strcmp(m, "submit") && argc == 4)
		bench_submit(argv[2], atol(argv[3]));
	else if (!strcmp(m, "pool") && argc == 4)
		bench_pool(atoi(argv[2]), atol(argv[3]));
	else if (!strcmp(m, "s0") && argc == 4)
		bench_s0(argv[2], atol(argv[3]));
	else if (!strcmp(m, "kargs") && argc == 5)
		bench_kargs(argv[2], argv[3], atol(argv[4]));
	else if (!strcmp(m, "gpu") && argc == 4)
		bench_gpu(argv[2], atol(argv[3]));
	else
		return fprintf(stderr, "usage: see lbbench.c\n"), 2;
	return 0;
}
