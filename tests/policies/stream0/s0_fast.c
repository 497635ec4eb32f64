/*
 * s0_fast.c - the standing answers of stream0 (shim/fast.h): once a
 * thread's submission went direct, its next ones take the answer the
 * policy left with the core, with no hook called, until the policy
 * withdraws it.  Each scenario warms the answer up with a few
 * submissions, changes what it rests on (from the thread itself or from
 * another thread), and checks that the next submission gets what the
 * policy's full path gives.  Run under LBSHIM_POLICIES=stream0 on hipemu.
 *
 *   s0_fast device     null-stream work follows hipSetDevice (2 devices),
 *                      launches (the rows the hazard check leaves alone
 *                      take the null answer with it on); callbacks
 *                      between them run, told the stream named (0)
 *   s0_fast handles    0 and hipStreamPerThread go to one stream S, a
 *                      user stream and hipStreamLegacy stay as named
 *   s0_fast capture    while another thread captures, null-stream work
 *                      goes to the legacy null stream, then back to S
 *   s0_fast reset      another thread's hipDeviceReset: S is made anew
 *   s0_fast destroy    another thread destroys the user stream the
 *                      answer rests on: its flags are read again
 *   s0_fast fork       the child of a fork makes an S of its own
 *   s0_fast exit       a submission from a thread-exit destructor that
 *                      runs after the shim's: S is gone, the answer too
 *   s0_fast epoch      after another thread's reset, an answer left
 *                      under the new epoch does not revive the old one
 *   s0_fast nameref    hipKernelNameRefByPtr(f, 0) between launches on
 *                      a blocking user stream is no null-stream work
 *                      (no switch; the script checks the exit report)
 *
 * Exit status 0 when every check held.
 */
#include "s0_common.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define SLOTS 64
static unsigned long long *out; /* [2 * SLOTS]: device, stream */
static int nslot;

/* A kernel on s that notes where it ran: its slot (read after settle). */
static int where(hipStream_t s)
{
	int i = nslot++;

	S0_CHECK(i < SLOTS, "slots");
	out[2 * i] = out[2 * i + 1] = ~0ull;
	S0_OK(k_where(s, out + 2 * i));
	return i;
}

static int dev_of(int i)
{
	return (int)out[2 * i];
}

static hipStream_t on(int i)
{
	return (hipStream_t)(uintptr_t)out[2 * i + 1];
}

/*
 * Waits for the device and starts a new series: hipDeviceSynchronize is
 * not a submission, so the thread's answers are withdrawn, and the next
 * submission leaves them again.
 */
static void settle(void)
{
	S0_OK(hipDeviceSynchronize());
}

/* n submissions on s with no other call between: answered by the core. */
static void warm(hipStream_t s, int n)
{
	while (n--)
		S0_OK(k_nop(s));
}

/*
 * Callbacks: told the stream the program named (stream0 wraps those on
 * the null stream, so they never take the direct path); -1 until run.
 */
static hipStream_t cb_seen[SLOTS];
static int ncb;

static void cb_note(hipStream_t st, hipError_t r, void *data)
{
	(void)r;
	cb_seen[(intptr_t)data] = st;
}

static int cb_where(hipStream_t st)
{
	int i = ncb++;

	S0_CHECK(i < SLOTS, "callback slots");
	cb_seen[i] = (hipStream_t)-1;
	S0_OK(hipStreamAddCallback(st, cb_note, (void *)(intptr_t)i, 0));
	return i;
}

static void run_device(void)
{
	int a, b, c, d, e, f;

	settle();
	warm(0, 3);
	a = where(0);
	S0_OK(hipSetDevice(1));
	warm(0, 3);
	b = where(0);
	S0_OK(hipSetDevice(0));
	warm(hipStreamPerThread, 2);
	c = where(hipStreamPerThread);
	S0_OK(hipSetDevice(1));
	d = where(0);
	settle();
	S0_OK(hipSetDevice(0));
	settle();
	cb_where(0);
	cb_where(0);
	e = cb_where(0);
	S0_OK(hipSetDevice(1));
	cb_where(0);
	f = cb_where(0);
	settle();
	S0_OK(hipSetDevice(0));
	settle();
	S0_CHECK(cb_seen[e] == NULL && cb_seen[f] == NULL,
		 "callbacks on 0: told %p on device 0, %p on device 1 "
		 "(-1: not run)",
		 (void *)cb_seen[e], (void *)cb_seen[f]);
	S0_CHECK(dev_of(a) == 0 && on(a) != NULL, "device 0: %d %p",
		 dev_of(a), (void *)on(a));
	S0_CHECK(dev_of(b) == 1 && on(b) != NULL && on(b) != on(a),
		 "after hipSetDevice(1): device %d stream %p (device 0's %p)",
		 dev_of(b), (void *)on(b), (void *)on(a));
	S0_CHECK(dev_of(c) == 0 && on(c) == on(a),
		 "back on device 0: device %d %p, want %p", dev_of(c),
		 (void *)on(c), (void *)on(a));
	S0_CHECK(dev_of(d) == 1 && on(d) == on(b),
		 "device 1 again: device %d %p, want %p", dev_of(d),
		 (void *)on(d), (void *)on(b));
}

static void run_handles(void)
{
	hipStream_t u;
	int a, b, c, d, e, f;

	S0_OK(hipStreamCreate(&u));
	settle();
	warm(0, 3);
	a = where(0);
	b = where(hipStreamPerThread);
	warm(u, 3);
	c = where(u);
	warm(0, 2);
	d = where(0);
	e = where(hipStreamLegacy);
	warm(u, 2);
	f = where(u);
	settle();
	S0_CHECK(on(a) != NULL && on(a) != u, "null-stream work on %p",
		 (void *)on(a));
	S0_CHECK(on(b) == on(a), "hipStreamPerThread on %p, 0 on %p",
		 (void *)on(b), (void *)on(a));
	S0_CHECK(on(c) == u && on(f) == u, "a user stream went to %p, %p",
		 (void *)on(c), (void *)on(f));
	S0_CHECK(on(d) == on(a), "null stream after the user stream: %p",
		 (void *)on(d));
	S0_CHECK(on(e) == hipStreamLegacy, "hipStreamLegacy went to %p",
		 (void *)on(e));
	S0_OK(hipStreamDestroy(u));
}

/* The other thread's side of a scenario, between two gates. */
static struct s0_gate go = S0_GATE_INIT, done = S0_GATE_INIT,
		      seen = S0_GATE_INIT;

static void *capturer(void *unused)
{
	hipStream_t u;
	hipGraph_t g = NULL;

	(void)unused;
	S0_OK(hipStreamCreate(&u));
	s0_gate_wait(&go);
	S0_OK(hipStreamBeginCapture(u, hipStreamCaptureModeRelaxed));
	s0_gate_open(&done);
	s0_gate_wait(&seen);
	/* the other thread's launch may have invalidated the capture */
	(void)hipStreamEndCapture(u, &g);
	if (g)
		S0_OK(hipGraphDestroy(g));
	S0_OK(hipStreamDestroy(u));
	return NULL;
}

static void run_capture(void)
{
	pthread_t t;
	hipError_t r;
	int b;

	pthread_create(&t, NULL, capturer, NULL);
	settle();
	warm(0, 3);
	s0_gate_open(&go);
	s0_gate_wait(&done);
	/*
	 * The legacy null stream's answer: a launch that would wait for a
	 * capturing stream (HIP's and CUDA's rule, which hipemu keeps) is
	 * refused.  On S it would have run.
	 */
	r = k_nop(0);
	S0_CHECK(r == hipErrorStreamCaptureImplicit, "a null-stream launch "
		 "while another thread captures: %d (%s), want %d", (int)r,
		 hipGetErrorName(r), (int)hipErrorStreamCaptureImplicit);
	s0_gate_open(&seen);
	pthread_join(t, NULL);
	(void)hipGetLastError();
	warm(0, 2);
	b = where(0);
	settle();
	S0_CHECK(on(b) != NULL, "after the capture: on the null stream");
}

static void *resetter(void *unused)
{
	(void)unused;
	s0_gate_wait(&go);
	S0_OK(hipDeviceReset());
	s0_gate_open(&done);
	return NULL;
}

/* Another thread resets the device while this one holds a null answer. */
static void reset_elsewhere(void)
{
	pthread_t t;

	pthread_create(&t, NULL, resetter, NULL);
	settle();
	warm(0, 3);
	s0_gate_open(&go);
	s0_gate_wait(&done);
	pthread_join(t, NULL);
}

static void run_reset(void)
{
	static unsigned long long after[2] = { ~0ull, ~0ull };
	hipError_t r;

	reset_elsewhere();
	/*
	 * The reset freed the pinned buffer; any other HIP call first would
	 * withdraw the answer anyway, so the kernel writes to plain memory
	 * (hipemu runs it on the CPU).
	 */
	r = k_where(0, after);
	S0_CHECK(r == hipSuccess, "a null-stream launch after another "
		 "thread's reset: %d (%s)", (int)r, hipGetErrorName(r));
	settle();
	S0_CHECK(after[0] == 0 && after[1] != 0 && after[1] != ~0ull,
		 "after another thread's reset: device %llu stream %#llx",
		 after[0], after[1]);
}

static hipStream_t destroy_u;

static void *destroyer(void *unused)
{
	(void)unused;
	s0_gate_wait(&go);
	S0_OK(hipStreamDestroy(destroy_u));
	s0_gate_open(&done);
	return NULL;
}

/*
 * The answer for a non-blocking stream rests on its flags, read once;
 * another thread's hipStreamDestroy makes them stale (a new stream may
 * get the handle), so they are read again (the script counts the reads).
 */
static void run_destroy(void)
{
	pthread_t t;

	S0_OK(hipStreamCreateWithFlags(&destroy_u, hipStreamNonBlocking));
	pthread_create(&t, NULL, destroyer, NULL);
	settle();
	warm(destroy_u, 4);
	s0_gate_open(&go);
	s0_gate_wait(&done);
	pthread_join(t, NULL);
	S0_CHECK(k_nop(destroy_u) != hipSuccess,
		 "a launch on a destroyed stream succeeded");
}

static void run_fork(void)
{
	hipStream_t s;
	pid_t pid;
	int st = 0;

	settle();
	where(0);
	settle();
	s = on(0);
	warm(0, 3);
	/*
	 * No work pending across fork: hipemu's stream workers are not the
	 * child's (nor is a real runtime usable in a fork child with work
	 * in flight).  A pause, not a sync: a sync withdraws the answer.
	 */
	usleep(200 * 1000);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* the parent's S is not the child's: a launch there hangs */
		alarm(20);
		/* first call: any other would withdraw the answer anyway */
		S0_OK(k_where(0, out));
		settle();
		if (on(0) == NULL || on(0) == s) {
			fprintf(stderr, "FAIL child: stream %p, the parent's "
				"S %p\n", (void *)on(0), (void *)s);
			_exit(1);
		}
		_exit(0);
	}
	S0_CHECK(pid > 0, "fork failed");
	S0_CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
			 WEXITSTATUS(st) == 0,
		 "child: status %#x", st);
	settle();
}

static pthread_key_t exit_key;
static hipError_t exit_r = hipErrorUnknown, exit_cb = hipErrorUnknown;
static unsigned long long exit_out[2] = { ~0ull, ~0ull };

/* Runs after the shim's own thread-exit destructor (made earlier). */
static void exit_dtor(void *unused)
{
	(void)unused;
	/* a callback: a row the null answer serves with the check on too */
	exit_cb = hipStreamAddCallback(0, cb_note, (void *)2, 0);
	exit_r = k_where(0, exit_out);
}

static void *exiter(void *unused)
{
	(void)unused;
	pthread_setspecific(exit_key, (void *)1);
	warm(0, 3);
	S0_OK(hipStreamAddCallback(0, cb_note, (void *)0, 0));
	S0_OK(hipStreamAddCallback(0, cb_note, (void *)1, 0));
	return NULL;
}

static void run_exit(void)
{
	pthread_t t;

	pthread_key_create(&exit_key, exit_dtor);
	pthread_create(&t, NULL, exiter, NULL);
	pthread_join(t, NULL);
	settle();
	S0_CHECK(exit_cb == hipSuccess, "a callback after the thread's exit: "
		 "%d (%s)", (int)exit_cb, hipGetErrorName(exit_cb));
	S0_CHECK(exit_r == hipSuccess && exit_out[1] != ~0ull,
		 "a launch after the thread's exit: %d (%s), ran on %#llx",
		 (int)exit_r, hipGetErrorName(exit_r), exit_out[1]);
}

static void run_epoch(void)
{
	static unsigned long long after[2] = { ~0ull, ~0ull };
	hipError_t r;

	reset_elsewhere();
	/* a user answer, left under the reset's epoch */
	warm(hipStreamLegacy, 2);
	r = k_where(0, after);
	S0_CHECK(r == hipSuccess, "a null-stream launch after a reset and a "
		 "hipStreamLegacy one: %d (%s)", (int)r, hipGetErrorName(r));
	settle();
	S0_CHECK(after[1] != 0 && after[1] != ~0ull, "it ran on %#llx",
		 after[1]);
}

static void run_nameref(void)
{
	hipStream_t u;

	S0_OK(hipStreamCreate(&u));
	S0_OK(k_sleep(u, 100, 0, NULL, NULL, NULL));
	(void)hipKernelNameRefByPtr((const void *)run_nameref, 0);
	S0_OK(k_sleep(u, 1, 0, NULL, NULL, NULL));
	settle();
	S0_OK(hipStreamDestroy(u));
}

int main(int argc, char **argv)
{
	const char *sc = argc > 1 ? argv[1] : "";

	s0_setup();
	out = s0_host(2 * SLOTS * sizeof(*out));
	if (!strcmp(sc, "device"))
		run_device();
	else if (!strcmp(sc, "handles"))
		run_handles();
	else if (!strcmp(sc, "capture"))
		run_capture();
	else if (!strcmp(sc, "reset"))
		run_reset();
	else if (!strcmp(sc, "destroy"))
		run_destroy();
	else if (!strcmp(sc, "fork"))
		run_fork();
	else if (!strcmp(sc, "exit"))
		run_exit();
	else if (!strcmp(sc, "epoch"))
		run_epoch();
	else if (!strcmp(sc, "nameref"))
		run_nameref();
	else {
		fprintf(stderr, "usage: s0_fast device|handles|capture|reset|"
				"destroy|fork|exit|epoch|nameref\n");
		return 2;
	}
	return s0_failed;
}
