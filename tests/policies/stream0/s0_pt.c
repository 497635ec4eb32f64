/*
 * s0_pt.c - the patterns of PyTorch programs, as C on hipemu, for the
 * stream0 modes: s0_pt SCENARIO.  Each scenario checks what must hold in
 * every configuration the test scripts run it in (correct results); the
 * scripts compare what differs between modes from the printed lines.
 *
 *   autograd   forward on the main thread, backward on a thread named
 *              pt_autograd_0, the optimizer step on the main thread again,
 *              all on the null stream with no event (as PyTorch's
 *              engine.cpp does when both use the default stream)
 *   cache      an application-level caching allocator: a block one thread
 *              frees goes to the other thread's next allocation with no
 *              event (PyTorch's caching allocator on the null stream)
 *   mallocfree the same with hipMalloc/hipFree each iteration (PyTorch with
 *              its caching disabled)
 *   syncs      IMU queues 5 ms, the camera then 400 ms, the IMU syncs
 *              (hipStreamSynchronize(0), or with S0_PT_DEVSYNC set
 *              hipDeviceSynchronize)
 *   events     two threads taking turns on the null stream (HIPEMU_STATS
 *              counts the events the policy records)
 *   rename     a thread renamed after its first null-stream call
 *   legacy     hipStreamLegacy as the legacy barrier
 *   exitpend   the main thread syncs while another thread exits with its
 *              null-stream work still running
 *   userstream one thread's blocking user stream, then its null stream,
 *              then the other way round (nonblocking: the same with a
 *              hipStreamNonBlocking stream, never ordered)
 *   ownorder   a 200 ms kernel on a blocking user stream, then each of
 *              hipMemcpy D2H, hipStreamSynchronize(0), hipEventRecord(e,
 *              0) with hipEventSynchronize; and a hipMemcpyAsync on 0
 *              feeding a kernel on the blocking stream: "ownorder CASE:
 *              7" when the legacy order was kept
 *   switches   one thread alternating between its null stream and a
 *              blocking user stream, 50 times, then checking the result
 *   resetflags a blocking stream used, hipDeviceReset, the stream's
 *              handle used again (the runtime refuses it)
 *
 * With S0_PT_TORCH=path the program first dlopens that library (a stand-in
 * for PyTorch's libc10_hip.so).
 */
#include <dlfcn.h>
#include <sys/prctl.h>
#include "s0_common.h"

static hipFunction_t f_readlate, f_scale;

static hipError_t k_readlate(hipStream_t s, int *src, int *dst, int ms)
{
	void *a[] = { &src, &dst, &ms };

	return s0_launch(f_readlate, s, a);
}

static hipError_t k_scale(hipStream_t s, int *src, int *dst, int mul)
{
	void *a[] = { &src, &dst, &mul };

	return s0_launch(f_scale, s, a);
}

static void *dev_int(void)
{
	void *p = NULL;

	S0_OK(hipMalloc(&p, sizeof(int)));
	S0_OK(hipMemset(p, 0, sizeof(int)));
	return p;
}

static void name_me(const char *name)
{
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

/* ---- autograd ---- */

static int *ag_x, *ag_g;

static void *ag_backward(void *unused)
{
	(void)unused;
	name_me("pt_autograd_0");
	/* grad = 2 * x: reads what forward wrote */
	S0_OK(k_scale(0, ag_x, ag_g, 2));
	return NULL; /* the engine does not sync its own work */
}

static void run_autograd(void)
{
	int *w = s0_host(sizeof(int)), i, bad = 0;
	pthread_t t;

	ag_x = dev_int();
	ag_g = dev_int();
	for (i = 1; i <= 5; i++) {
		/* forward: slow, so that an unordered backward reads early */
		S0_OK(k_fill(0, ag_x, 1, i, 100));
		pthread_create(&t, NULL, ag_backward, NULL);
		pthread_join(t, NULL);
		/* optimizer.step(): reads the gradient */
		S0_OK(k_peek(0, ag_g, w));
		S0_OK(hipDeviceSynchronize());
		if (*w != 2 * i)
			bad++;
	}
	printf("autograd: %d of 5 gradients wrong\n", bad);
	S0_CHECK(bad == 0, "backward was not ordered after forward");
}

/* ---- cache and mallocfree: blocks crossing threads ---- */

#define PT_ITERS 12

/*
 * The two threads take turns, so that every block is handed from one to
 * the other while the first one's kernel still reads it (30 ms late).
 */
static pthread_mutex_t c_lock = PTHREAD_MUTEX_INITIALIZER;
static int *c_free[4];
static int c_nfree, c_malloc_each, c_bad;
static struct s0_gate c_turn[2 * PT_ITERS + 1];

static int *c_get(void)
{
	int *p = NULL;

	if (!c_malloc_each) {
		pthread_mutex_lock(&c_lock);
		if (c_nfree)
			p = c_free[--c_nfree];
		pthread_mutex_unlock(&c_lock);
	}
	if (!p)
		S0_OK(hipMalloc((void **)&p, sizeof(int)));
	return p;
}

/* Freed with no event, as the caching allocator does on one stream. */
static void c_put(int *p)
{
	if (c_malloc_each) {
		S0_OK(hipFree(p));
		return;
	}
	pthread_mutex_lock(&c_lock);
	c_free[c_nfree++] = p;
	pthread_mutex_unlock(&c_lock);
}

static void *c_worker(void *arg)
{
	int me = (int)(intptr_t)arg, i, bad = 0, turn;
	int *out = s0_host(PT_ITERS * sizeof(int));

	for (i = 0; i < PT_ITERS; i++) {
		int *blk, val = (me + 1) * 1000 + i;

		turn = 2 * i + me;
		s0_gate_wait(&c_turn[turn]);
		blk = c_get();
		S0_OK(k_fill(0, blk, 1, val, 0));
		S0_OK(k_readlate(0, blk, out + i, 30));
		c_put(blk);
		s0_gate_open(&c_turn[turn + 1]);
	}
	S0_OK(hipStreamSynchronize(0));
	for (i = 0; i < PT_ITERS; i++)
		if (out[i] != (me + 1) * 1000 + i)
			bad++;
	__atomic_add_fetch(&c_bad, bad, __ATOMIC_SEQ_CST);
	return NULL;
}

static void run_cache(int malloc_each)
{
	pthread_t a, b;
	int i;

	for (i = 0; i <= 2 * PT_ITERS; i++)
		c_turn[i] = (struct s0_gate)S0_GATE_INIT;
	c_malloc_each = malloc_each;
	pthread_create(&a, NULL, c_worker, (void *)0);
	pthread_create(&b, NULL, c_worker, (void *)1);
	s0_gate_open(&c_turn[0]);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%s: %d of %d results wrong\n",
	       malloc_each ? "mallocfree" : "cache", c_bad, 2 * PT_ITERS);
}

/* ---- syncs: the IMU's sync of its own 5 ms kernel ---- */

static struct s0_gate sy_imu_queued = S0_GATE_INIT, sy_cam_queued =
							    S0_GATE_INIT;
static int *sy_log, *sy_pos, *sy_cam_done;

static void *sy_camera(void *unused)
{
	(void)unused;
	s0_gate_wait(&sy_imu_queued);
	S0_OK(k_sleep(0, 400, 2, sy_log, sy_pos, sy_cam_done));
	s0_gate_open(&sy_cam_queued);
	S0_OK(hipStreamSynchronize(0));
	return NULL;
}

static void run_syncs(void)
{
	pthread_t cam;
	double t0, t1;
	int cam_done;

	sy_log = s0_host(4 * sizeof(int));
	sy_pos = s0_host(sizeof(int));
	sy_cam_done = s0_host(sizeof(int));
	pthread_create(&cam, NULL, sy_camera, NULL);
	t0 = s0_now_ms();
	S0_OK(k_sleep(0, 5, 1, sy_log, sy_pos, NULL));
	s0_gate_open(&sy_imu_queued);
	s0_gate_wait(&sy_cam_queued);
	if (getenv("S0_PT_DEVSYNC"))
		S0_OK(hipDeviceSynchronize());
	else
		S0_OK(hipStreamSynchronize(0));
	t1 = s0_now_ms();
	cam_done = s0_load(sy_cam_done);
	pthread_join(cam, NULL);
	S0_CHECK(sy_log[0] == 1 && sy_log[1] == 2,
		 "kernels ran in order %d %d", sy_log[0], sy_log[1]);
	printf("syncs: imu sync %.0f ms, camera done at return %d\n", t1 - t0,
	       cam_done);
	printf("syncs: imu waited for the camera: %s\n",
	       cam_done ? "yes" : "no");
}

/* ---- events: turns on the null stream ---- */

static struct s0_gate ev_turn[8];
static int ev_rounds = 4, ev_per = 50;

static void *ev_worker(void *arg)
{
	int me = (int)(intptr_t)arg, r, i;

	for (r = me; r < ev_rounds; r += 2) {
		s0_gate_wait(&ev_turn[r]);
		for (i = 0; i < ev_per; i++)
			S0_OK(k_nop(0));
		s0_gate_open(&ev_turn[r + 1]);
	}
	/* Neither leaves before the last turn (an exit ends its run too). */
	s0_gate_wait(&ev_turn[ev_rounds]);
	return NULL;
}

static void run_events(void)
{
	pthread_t a, b;
	int i;

	for (i = 0; i < 8; i++)
		ev_turn[i] = (struct s0_gate)S0_GATE_INIT;
	/* one thread alone first: no change of submitter at all */
	for (i = 0; i < ev_per; i++)
		S0_OK(k_nop(0));
	S0_OK(hipStreamSynchronize(0));
	pthread_create(&a, NULL, ev_worker, (void *)0);
	pthread_create(&b, NULL, ev_worker, (void *)1);
	s0_gate_open(&ev_turn[0]);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	S0_OK(hipDeviceSynchronize());
	/* main, then a, b, a, b: four changes of the submitting thread */
	printf("events: %d launches, 4 changes of submitter\n",
	       ev_per * (ev_rounds + 1));
}

/* ---- rename ---- */

static void *rn_worker(void *unused)
{
	unsigned long long *w = s0_host(4 * sizeof(*w));

	(void)unused;
	name_me("worker");
	S0_OK(k_where(0, w));
	S0_OK(hipStreamSynchronize(0));
	name_me("pt_autograd_0");
	S0_OK(k_where(0, w + 2));
	S0_OK(hipStreamSynchronize(0));
	printf("rename: before %s, after %s\n", w[1] ? "own" : "legacy",
	       w[3] ? "own" : "legacy");
	S0_CHECK(w[1] == w[3], "the rename moved the thread: %#llx %#llx",
		 w[1], w[3]);
	return NULL;
}

static void *rn_autograd(void *unused)
{
	unsigned long long *w = s0_host(2 * sizeof(*w));

	(void)unused;
	name_me("pt_autograd_0");
	S0_OK(k_where(0, w));
	S0_OK(hipStreamSynchronize(0));
	printf("rename: pt_autograd_0 from the start: %s\n",
	       w[1] ? "own" : "legacy");
	return NULL;
}

static void run_rename(void)
{
	pthread_t t;

	pthread_create(&t, NULL, rn_worker, NULL);
	pthread_join(t, NULL);
	pthread_create(&t, NULL, rn_autograd, NULL);
	pthread_join(t, NULL);
}

/* ---- legacy: hipStreamLegacy waits for every thread's blocking work ---- */

static int *lg_flag, *lg_seen;
static struct s0_gate lg_queued = S0_GATE_INIT;

static void *lg_producer(void *unused)
{
	(void)unused;
	S0_OK(k_fill(0, lg_flag, 1, 7, 200));
	s0_gate_open(&lg_queued);
	S0_OK(hipStreamSynchronize(0));
	return NULL;
}

static void run_legacy(void)
{
	pthread_t t;

	lg_flag = s0_host(sizeof(int));
	lg_seen = s0_host(sizeof(int));
	pthread_create(&t, NULL, lg_producer, NULL);
	s0_gate_wait(&lg_queued);
	S0_OK(k_peek(hipStreamLegacy, lg_flag, lg_seen));
	S0_OK(hipStreamSynchronize(hipStreamLegacy));
	pthread_join(t, NULL);
	printf("legacy: the barrier saw %d\n", *lg_seen);
	S0_CHECK(*lg_seen == 7, "hipStreamLegacy did not wait for the other "
				"thread's work: %d", *lg_seen);
}

/* ---- exitpend: a thread exits while its null-stream work is pending ---- */

static struct s0_gate xp_launched = S0_GATE_INIT;

static void *xp_worker(void *unused)
{
	(void)unused;
	S0_OK(k_sleep(0, 300, 0, NULL, NULL, NULL));
	s0_gate_open(&xp_launched);
	return NULL; /* no sync: its work is still running as it exits */
}

static void run_exitpend(void)
{
	struct timespec nap = { 0, 50 * 1000000L };
	pthread_t t;

	pthread_create(&t, NULL, xp_worker, NULL);
	s0_gate_wait(&xp_launched);
	nanosleep(&nap, NULL);
	/* the legacy null stream would wait here for the worker's kernel */
	S0_OK(hipStreamSynchronize(0));
	pthread_join(t, NULL);
	printf("exitpend: done\n");
}

/* ---- userstream: a thread's blocking user stream and its null stream ---- */

static void run_userstream(unsigned flags)
{
	int *flag = s0_host(sizeof(int)), *seen = s0_host(2 * sizeof(int));
	hipStream_t u;
	int round;

	S0_OK(hipStreamCreateWithFlags(&u, flags));
	/*
	 * Twice: in the second round the thread's S exists, so that its
	 * null-stream work takes stream0's direct path (shim/run_solo.h).
	 */
	for (round = 0; round < 2; round++) {
		*flag = 0;
		/* user stream, then null stream: legacy orders the latter */
		S0_OK(k_fill(u, flag, 1, 7, 200));
		S0_OK(k_peek(0, flag, seen));
		S0_OK(hipDeviceSynchronize());
		/* null stream, then user stream: legacy orders the latter */
		S0_OK(k_fill(0, flag, 1, 9, 200));
		S0_OK(k_peek(u, flag, seen + 1));
		S0_OK(hipDeviceSynchronize());
		printf("userstream %s: saw %d %d\n",
		       flags & hipStreamNonBlocking ? "nonblocking"
						   : "blocking",
		       seen[0], seen[1]);
	}
	S0_OK(hipStreamDestroy(u));
}

/*
 * ---- ownorder: the thread's own legacy order, one case per line ----
 * Each case puts a 200 ms kernel that writes 7 on one kind of stream and
 * then reads on the other kind; on the legacy null stream the read waits
 * for the kernel, so every case prints 7.
 */
/* A thread that creates a stream and destroys it. */
static void *make_and_destroy(void *arg)
{
	hipStream_t v;

	(void)arg;
	S0_OK(hipStreamCreate(&v));
	S0_OK(hipStreamDestroy(v));
	return NULL;
}

static void run_ownorder(void)
{
	int *dev = dev_int(), *host = s0_host(sizeof(int));
	int *seen = s0_host(sizeof(int)), got = 0, seven = 7;
	hipStream_t u;
	hipEvent_t e;

	S0_OK(hipStreamCreate(&u));
	S0_OK(hipEventCreate(&e));
	/* blocking stream, then hipMemcpy D2H (on the null stream) */
	S0_OK(k_fill(u, dev, 1, 7, 200));
	S0_OK(hipMemcpy(&got, dev, sizeof(int), hipMemcpyDeviceToHost));
	printf("ownorder memcpy: %d\n", got);
	S0_OK(hipDeviceSynchronize());
	/* blocking stream, then hipStreamSynchronize(0) */
	S0_OK(k_fill(u, host, 1, 7, 200));
	S0_OK(hipStreamSynchronize(0));
	printf("ownorder streamsync: %d\n", s0_load(host));
	S0_OK(hipDeviceSynchronize());
	/* hipMemcpyAsync on 0 (behind a slow kernel), feeding the stream */
	S0_OK(hipMemset(dev, 0, sizeof(int)));
	S0_OK(k_sleep(0, 200, 0, NULL, NULL, NULL));
	S0_OK(hipMemcpyAsync(dev, &seven, sizeof(int), hipMemcpyHostToDevice,
			     0));
	S0_OK(k_peek(u, dev, seen));
	S0_OK(hipStreamSynchronize(u));
	printf("ownorder feed: %d\n", s0_load(seen));
	S0_OK(hipDeviceSynchronize());
	/* blocking stream, then an event recorded on 0, synchronized */
	*host = 0;
	S0_OK(k_fill(u, host, 1, 7, 200));
	S0_OK(hipEventRecord(e, 0));
	S0_OK(hipEventSynchronize(e));
	printf("ownorder event: %d\n", s0_load(host));
	S0_OK(hipDeviceSynchronize());
	/*
	 * blocking stream, another stream created and destroyed, then
	 * hipMemcpy D2H: a destroy must not make the thread forget its
	 * live streams' pending work (it did: the order was lost whenever
	 * a stream was destroyed in between)
	 */
	{
		hipStream_t v;

		got = 0;
		S0_OK(hipMemset(dev, 0, sizeof(int)));
		S0_OK(hipDeviceSynchronize());
		S0_OK(k_fill(u, dev, 1, 7, 200));
		S0_OK(hipStreamCreate(&v));
		S0_OK(hipStreamDestroy(v));
		S0_OK(hipMemcpy(&got, dev, sizeof(int),
				hipMemcpyDeviceToHost));
		printf("ownorder destroy: %d\n", got);
		/* the same, the stream destroyed by another thread */
		got = 0;
		S0_OK(hipMemset(dev, 0, sizeof(int)));
		S0_OK(hipDeviceSynchronize());
		S0_OK(k_fill(u, dev, 1, 7, 200));
		{
			pthread_t th;

			if (pthread_create(&th, NULL, make_and_destroy, NULL) ||
			    pthread_join(th, NULL))
				exit(3);
		}
		S0_OK(hipMemcpy(&got, dev, sizeof(int),
				hipMemcpyDeviceToHost));
		printf("ownorder otherdestroy: %d\n", got);
	}
	S0_OK(hipDeviceSynchronize());
	S0_OK(hipEventDestroy(e));
	S0_OK(hipStreamDestroy(u));
}

/* ---- switches: null stream, user stream, null stream, ... ---- */

static void run_switches(void)
{
	unsigned char *d = NULL, got[2] = { 0, 0 };
	hipStream_t u;
	int r;

	S0_OK(hipStreamCreate(&u));
	S0_OK(hipMalloc((void **)&d, 512));
	for (r = 1; r <= 50; r++) {
		S0_OK(hipMemsetAsync(d, r, 256, 0));
		S0_OK(hipMemsetAsync(d + 256, r, 256, u));
	}
	S0_OK(hipDeviceSynchronize());
	S0_OK(hipMemcpy(got, d, 1, hipMemcpyDeviceToHost));
	S0_OK(hipMemcpy(got + 1, d + 256, 1, hipMemcpyDeviceToHost));
	S0_CHECK(got[0] == 50 && got[1] == 50, "switches: last round's values");
	S0_OK(hipFree(d));
	S0_OK(hipStreamDestroy(u));
	printf("switches: %d %d\n", got[0], got[1]);
}

/* ---- resetflags: a stream's handle after hipDeviceReset ---- */

static void run_resetflags(void)
{
	unsigned char *d = NULL;
	hipStream_t u;
	hipError_t r;

	S0_OK(hipStreamCreate(&u));
	S0_OK(hipMalloc((void **)&d, 256));
	S0_OK(hipMemsetAsync(d, 1, 256, u));
	S0_OK(hipDeviceReset());
	/* u went with the reset: the runtime refuses it (a program's bug) */
	S0_OK(hipMalloc((void **)&d, 256));
	r = hipMemsetAsync(d, 2, 256, u);
	S0_CHECK(r != hipSuccess, "a stream of before the reset was taken");
	S0_OK(hipFree(d));
	printf("resetflags: %d\n", (int)r);
}

int main(int argc, char **argv)
{
	const char *sc = argc > 1 ? argv[1] : "", *torch;
	hipModule_t mod;

	if (argc != 2) {
		fprintf(stderr, "usage: s0_pt SCENARIO\n");
		return 2;
	}
	torch = getenv("S0_PT_TORCH");
	if (torch && !dlopen(torch, RTLD_NOW | RTLD_LOCAL)) {
		fprintf(stderr, "s0_pt: %s\n", dlerror());
		return 2;
	}
	s0_setup();
	S0_OK(hipModuleLoadData(&mod, "s0 twins"));
	S0_OK(hipModuleGetFunction(&f_readlate, mod, "s0_readlate"));
	S0_OK(hipModuleGetFunction(&f_scale, mod, "s0_scale"));
	if (!strcmp(sc, "autograd"))
		run_autograd();
	else if (!strcmp(sc, "cache"))
		run_cache(0);
	else if (!strcmp(sc, "mallocfree"))
		run_cache(1);
	else if (!strcmp(sc, "syncs"))
		run_syncs();
	else if (!strcmp(sc, "events"))
		run_events();
	else if (!strcmp(sc, "rename"))
		run_rename();
	else if (!strcmp(sc, "legacy"))
		run_legacy();
	else if (!strcmp(sc, "exitpend"))
		run_exitpend();
	else if (!strcmp(sc, "userstream"))
		run_userstream(hipStreamDefault);
	else if (!strcmp(sc, "nonblocking"))
		run_userstream(hipStreamNonBlocking);
	else if (!strcmp(sc, "ownorder"))
		run_ownorder();
	else if (!strcmp(sc, "switches"))
		run_switches();
	else if (!strcmp(sc, "resetflags"))
		run_resetflags();
	else {
		fprintf(stderr, "s0_pt: unknown scenario %s\n", sc);
		return 2;
	}
	fflush(stdout);
	return s0_failed;
}
