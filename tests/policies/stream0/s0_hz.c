/*
 * s0_hz.c - the launch-level hazard check of remap mode, on hipemu:
 * s0_hz SCENARIO [ORDER].  Two threads hand a block over as PyTorch's
 * caching allocator does: thread A's work on the null stream reads block
 * X (queued behind a slow kernel, so still pending), A puts X back in an
 * application-level cache, thread B takes X and writes it on its null
 * stream.  On the legacy null stream B's write waits for A's read; under
 * remap only an event or a sync between them orders it.
 *
 *   SCENARIO  copy    A reads X with hipMemcpyAsync, B writes it with
 *                     hipMemsetAsync
 *             set     A reads X with hipMemcpy2DAsync, B writes it with a
 *                     synchronous hipMemcpy (served on its stream)
 *             kernel  A reads X with a kernel (s0_peek), B writes it with
 *                     a kernel (s0_fill)
 *             set_spt set, A's read with hipMemcpy2DAsync_spt (5.3 on)
 *   ORDER     none     nothing between them (a hazard)
 *             event    A records an event after its read, B's null stream
 *                      waits for it (hipStreamWaitEvent)
 *             evflags  the same, A records with hipEventRecordWithFlags
 *                      (6.4 on)
 *             evsync   the same, B waits with hipEventSynchronize
 *             sync     A synchronizes its null stream before handing over
 *             devsync  B calls hipDeviceSynchronize before writing
 *             free     A frees another block (hipFree waits for every
 *                      stream of the device) before handing over
 *             disjoint B writes bytes of X's 4 KB granule that A's read
 *                      did not touch, and a range 1 MB away
 *             callback B queues three callbacks on its null stream first
 *                      (no order: a hazard, as with none), so that its
 *                      write follows submissions the core answered
 *                      without stream0's hook (shim/fast.h): the write
 *                      must still be checked
 *
 * A function the runtime lacks: "absent: NAME", exit status 77.
 * It prints what A read ("read N": the value B wrote is 9, the one before
 * 7), which is 7 on the legacy stream and with any ORDER but none.
 */
#include "s0_common.h"
#include <dlfcn.h>

#define HZ_BLK 256

static struct s0_gate handed = S0_GATE_INIT, written = S0_GATE_INIT,
		      a_done = S0_GATE_INIT;
static unsigned char *cache_blk; /* the application's cache: one block */
static hipEvent_t ev;
static const char *sc, *order;
static int *seen;

/*
 * A function of the runtime's newer releases, called through the shim's
 * wrapper (the first definition), when the runtime has one (exit 77 if
 * not: the shim would answer hipErrorNotInitialized).
 */
static void *newer(const char *name)
{
	void *rt = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);

	if (!rt || !dlsym(rt, name)) {
		printf("absent: %s\n", name);
		exit(77);
	}
	return dlsym(RTLD_DEFAULT, name);
}

static hipError_t (*copy2d_spt)(void *, size_t, const void *, size_t,
				size_t, size_t, hipMemcpyKind, hipStream_t);
static hipError_t (*record_flags)(hipEvent_t, hipStream_t, unsigned);

static void *thread_a(void *unused)
{
	unsigned char *x = cache_blk;

	(void)unused;
	/*
	 * slow: A's read below stays pending while B runs.  The read is A's
	 * only touch of X (main set it), and with A's stream made by this
	 * launch it takes stream0's direct path (shim/run_solo.h).
	 */
	S0_OK(k_sleep(0, 300, 0, NULL, NULL, NULL));
	if (!strcmp(sc, "copy")) {
		S0_OK(hipMemcpyAsync(seen, x, 64, hipMemcpyDeviceToHost, 0));
	} else if (!strcmp(sc, "set")) {
		S0_OK(hipMemcpy2DAsync(seen, 16, x, 32, 16, 4,
				       hipMemcpyDeviceToHost, 0));
	} else if (!strcmp(sc, "set_spt")) {
		S0_OK(copy2d_spt(seen, 16, x, 32, 16, 4,
				 hipMemcpyDeviceToHost, 0));
	} else {
		S0_OK(k_peek(0, (int *)x, seen));
	}
	if (strcmp(order, "event") == 0 || strcmp(order, "evsync") == 0)
		S0_OK(hipEventRecord(ev, 0));
	if (!strcmp(order, "evflags"))
		S0_OK(record_flags(ev, 0, 0));
	if (!strcmp(order, "sync"))
		S0_OK(hipStreamSynchronize(0));
	if (!strcmp(order, "free")) {
		void *other = NULL;

		S0_OK(hipMalloc(&other, HZ_BLK));
		S0_OK(hipFree(other));
	}
	s0_gate_open(&handed); /* "freed" into the cache, no event */
	s0_gate_wait(&written);
	S0_OK(hipStreamSynchronize(0));
	s0_gate_open(&a_done);
	return NULL;
}

static void b_callback(hipStream_t s, hipError_t r, void *data)
{
	(void)s;
	(void)r;
	(void)data;
}

static void *thread_b(void *unused)
{
	unsigned char *x;

	(void)unused;
	s0_gate_wait(&handed);
	x = cache_blk; /* the next allocation gets the cached block */
	if (!strcmp(order, "event") || !strcmp(order, "evflags"))
		S0_OK(hipStreamWaitEvent(0, ev, 0));
	if (!strcmp(order, "evsync"))
		S0_OK(hipEventSynchronize(ev));
	if (!strcmp(order, "devsync"))
		S0_OK(hipDeviceSynchronize());
	if (!strcmp(order, "callback")) {
		S0_OK(hipStreamAddCallback(0, b_callback, NULL, 0));
		S0_OK(hipStreamAddCallback(0, b_callback, NULL, 0));
		S0_OK(hipStreamAddCallback(0, b_callback, NULL, 0));
	}
	if (!strcmp(order, "disjoint")) {
		/* A read [0, 64) (copy) or rows of 16 at pitch 32 (set) */
		S0_OK(hipMemsetAsync(x + 112, 9, 16, 0));
		S0_OK(hipMemsetAsync(x + (1 << 20), 9, 64, 0));
	} else if (!strcmp(sc, "copy")) {
		S0_OK(hipMemsetAsync(x, 9, HZ_BLK, 0));
	} else if (!strncmp(sc, "set", 3)) {
		static unsigned char nine[HZ_BLK];

		memset(nine, 9, sizeof(nine));
		S0_OK(hipMemcpy(x + 8, nine, 8, hipMemcpyHostToDevice));
	} else {
		S0_OK(k_fill(0, (int *)x, HZ_BLK / 4, 0x09090909, 0));
	}
	s0_gate_open(&written);
	/* B syncs only once A's work is done: no sync hazard on the way */
	s0_gate_wait(&a_done);
	S0_OK(hipStreamSynchronize(0));
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc != 3) {
		fprintf(stderr, "usage: s0_hz copy|set|set_spt|kernel ORDER\n");
		return 2;
	}
	sc = argv[1];
	order = argv[2];
	if (!strcmp(sc, "set_spt"))
		copy2d_spt = newer("hipMemcpy2DAsync_spt");
	if (!strcmp(order, "evflags"))
		record_flags = newer("hipEventRecordWithFlags");
	s0_setup();
	seen = s0_host(64);
	/* 2 MB, so that "1 MB away" is the same allocation */
	S0_OK(hipMalloc((void **)&cache_blk, 2 << 20));
	S0_OK(hipMemset(cache_blk, 7, HZ_BLK)); /* done before the threads */
	S0_OK(hipEventCreate(&ev));
	S0_OK(hipDeviceSynchronize());
	pthread_create(&a, NULL, thread_a, NULL);
	pthread_create(&b, NULL, thread_b, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%s %s: read %d\n", sc, order,
	       ((unsigned char *)seen)[strcmp(sc, "kernel") ? 8 : 0]);
	S0_OK(hipEventDestroy(ev));
	S0_OK(hipFree(cache_blk));
	return s0_failed;
}
