// s0_hzk.hip - the launch-level hazard check for kernels: a program built
// by hipcc (so that the shim reads its kernels' argument layout from the
// code object), run on hipemu with the twins of s0_hzk_twin.c.
// s0_hzk ORDER: thread A's kernel reads block X behind a slow kernel (still
// pending), A hands X over with no event, thread B's kernel writes X.
//
//   none     B's hzk_fill(X, ...): a global_buffer argument (a hazard)
//   struct   B's hzk_fillp({X, n}, ...): X in a by-value struct (a hazard)
//   copy     B's hipMemsetAsync(X, ...) (a hazard)
//   event    A records an event after its read, B's null stream waits for
//            it (hipStreamWaitEvent): no hazard
//   far      B writes X + 1 MB, a granule A's kernel did not touch
//   memo     B first launches the same hzk_fill(X) twice (and syncs)
//            before A touches X: B's next, identical launch still depends
//            on A's (the launch memo of stream0_touch.c must not hide it)
//   memosmall memo with X a block of 4 KB: B's records of X are found
//            its own at its second launch, and kept so (the memo's
//            owner count) until A's touch, which must undo it
//   memo2    B first launches hzk_fill(X + 1 MB): one pointer changed
//   memoev   memo, with the event of "event" between A's read and B's
//            identical relaunch: no hazard (the memo adds none)
//   memodev  (HIPEMU_DEVICES=2) B launches hzk_fill(X) four times on
//            device 0 and waits for them, then the same hzk_fill(X) on
//            device 1, not waited for when A (device 0) reads X: one
//            hazard, A's.  B's relaunch on the other device must take X's
//            granules as device 1's (the launch memo's seal is for one
//            device): taken as device 0's, its submission number (1)
//            would be among those B waited for there, and no hazard
//   memofork the main thread launches hzk_fill(X) twice (its memo sealed)
//            and waits, forks; in the child it launches the same
//            hzk_fill(X), not waited for when a second thread of the
//            child reads X: one hazard, in the child (which alone
//            reports).  The child's table starts empty: the relaunch must
//            write its granules' owner (a seal kept across the fork
//            would store only submission numbers, into empty slots).
//
// Prints "read N": what A's kernel read (7 on the legacy stream; B writes 9).
#include <hip/hip_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct hzk_blk {
	int *p;
	int n;
};

__global__ void hzk_sleep(int ms) { (void)ms; }
__global__ void hzk_peek(const int *src, int *dst) { *dst = *src; }
__global__ void hzk_fill(int *dst, int n, int val)
{
	for (int i = 0; i < n; i++)
		dst[i] = val;
}
__global__ void hzk_fillp(hzk_blk b, int val)
{
	for (int i = 0; i < b.n; i++)
		b.p[i] = val;
}

static const char *order;
static int memo, memo_far, with_event, small;
static int *x, *seen, failed;
static hipEvent_t ev;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int stage = -1;

static void ok(hipError_t e, const char *what)
{
	if (e != hipSuccess) {
		fprintf(stderr, "s0_hzk: %s: %d\n", what, (int)e);
		failed = 1;
	}
}

static void go(int s)
{
	pthread_mutex_lock(&mu);
	stage = s;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static void wait_for(int s)
{
	pthread_mutex_lock(&mu);
	while (stage < s)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

static void *thread_a(void *unused)
{
	(void)unused;
	if (memo)
		wait_for(0);
	hzk_fill<<<1, 1>>>(x, 64, 0x07070707);
	ok(hipStreamSynchronize(0), "A's first sync");
	hzk_sleep<<<1, 1>>>(300);
	hzk_peek<<<1, 1>>>(x, seen);
	if (with_event)
		ok(hipEventRecord(ev, 0), "hipEventRecord");
	go(1); // "freed" into the cache, no event
	wait_for(2);
	ok(hipStreamSynchronize(0), "A's sync");
	go(3);
	return nullptr;
}

static void *thread_b(void *unused)
{
	(void)unused;
	if (memo) {
		// twice: the second finds its records its own (the memo's
		// owner count, stream0_touch.c), which A's touch must undo
		for (int i = 0; i < 2; i++)
			hzk_fill<<<1, 1>>>(memo_far ? x + (1 << 18) : x, 64,
					   0x09090909);
		ok(hipStreamSynchronize(0), "B's first sync");
		go(0);
	}
	wait_for(1);
	if (with_event)
		ok(hipStreamWaitEvent(0, ev, 0), "hipStreamWaitEvent");
	if (!strcmp(order, "struct")) {
		hzk_blk b = { x, 64 };

		hzk_fillp<<<1, 1>>>(b, 0x09090909);
	} else if (!strcmp(order, "copy")) {
		ok(hipMemsetAsync(x, 9, 64 * sizeof(int), 0), "hipMemsetAsync");
	} else if (!strcmp(order, "far")) {
		hzk_fill<<<1, 1>>>(x + (1 << 18), 64, 0x09090909);
	} else {
		hzk_fill<<<1, 1>>>(x, 64, 0x09090909);
	}
	go(2);
	wait_for(3);
	ok(hipStreamSynchronize(0), "B's sync");
	return nullptr;
}

static void *memodev_a(void *unused)
{
	(void)unused;
	wait_for(1);
	hzk_peek<<<1, 1>>>(x, seen);
	ok(hipStreamSynchronize(0), "A's sync");
	go(2);
	return nullptr;
}

static void *memodev_b(void *unused)
{
	(void)unused;
	for (int i = 0; i < 4; i++)
		hzk_fill<<<1, 1>>>(x, 64, 0x07070707);
	ok(hipStreamSynchronize(0), "B's sync on device 0");
	ok(hipSetDevice(1), "hipSetDevice(1)");
	hzk_fill<<<1, 1>>>(x, 64, 0x07070707);
	go(1);
	wait_for(2);
	ok(hipStreamSynchronize(0), "B's sync on device 1");
	return nullptr;
}

static void *memofork_t(void *unused)
{
	(void)unused;
	wait_for(1);
	hzk_peek<<<1, 1>>>(x, seen);
	ok(hipStreamSynchronize(0), "the child thread's sync");
	go(2);
	return nullptr;
}

// The parent exits with the child's status and without its own report
// (_exit): the child's is the one the test reads.
static int memofork(void)
{
	pthread_t t;
	pid_t pid;
	int st = 0;

	for (int i = 0; i < 2; i++)
		hzk_fill<<<1, 1>>>(x, 64, 0x07070707);
	ok(hipStreamSynchronize(0), "the parent's sync");
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		perror("s0_hzk: fork");
		return 1;
	}
	if (pid > 0) {
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			_exit(1);
		_exit(WEXITSTATUS(st) | failed);
	}
	alarm(20);
	hzk_fill<<<1, 1>>>(x, 64, 0x07070707);
	if (pthread_create(&t, nullptr, memofork_t, nullptr))
		return 1;
	go(1);
	wait_for(2);
	ok(hipStreamSynchronize(0), "the child's sync");
	pthread_join(t, nullptr);
	printf("kernel memofork: read %d\n", *seen & 0xff);
	return failed;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc != 2) {
		fprintf(stderr, "usage: s0_hzk none|struct|copy|event|far|memo|memosmall|memo2|"
				"memoev|memodev|memofork\n");
		return 2;
	}
	order = argv[1];
	memo = !strncmp(order, "memo", 4);
	small = !strcmp(order, "memosmall");
	memo_far = !strcmp(order, "memo2");
	with_event = !strcmp(order, "event") || !strcmp(order, "memoev");
	ok(hipMalloc(&x, small ? 4096 : 2 << 20), "hipMalloc");
	ok(hipHostMalloc(&seen, sizeof(int), 0), "hipHostMalloc");
	ok(hipEventCreate(&ev), "hipEventCreate");
	ok(hipDeviceSynchronize(), "hipDeviceSynchronize");
	if (!strcmp(order, "memofork"))
		return memofork();
	pthread_create(&a, nullptr, !strcmp(order, "memodev") ? memodev_a : thread_a,
		       nullptr);
	pthread_create(&b, nullptr, !strcmp(order, "memodev") ? memodev_b : thread_b,
		       nullptr);
	pthread_join(a, nullptr);
	pthread_join(b, nullptr);
	printf("kernel %s: read %d\n", order, *seen & 0xff);
	hipEventDestroy(ev);
	hipFree(x);
	return failed;
}
