/*
 * s0_test.c - the behaviour of the null stream that the stream0 policy
 * changes, and what it keeps, checked on hipemu.
 *
 *   s0_test SCENARIO MODE
 *
 * MODE says which semantics to expect: "legacy" (run without the policy)
 * or "perthread" (run with LBSHIM_POLICIES=stream0).  Exit status 0 when
 * every check held.  Some scenarios print lines that the test scripts
 * compare between the two runs (return codes that must not change).
 */
#include "s0_common.h"
#include <sys/wait.h>
#include <unistd.h>

static int perthread;

/* ---- imu: a thread's sync no longer waits for another's kernel ---- */

static struct s0_gate imu_launched = S0_GATE_INIT;
static int *imu_cam_done, *imu_log, *imu_pos;

static void *imu_camera(void *unused)
{
	(void)unused;
	S0_OK(k_sleep(0, 300, 0, NULL, NULL, imu_cam_done));
	s0_gate_open(&imu_launched);
	S0_OK(hipStreamSynchronize(0));
	S0_CHECK(s0_load(imu_cam_done) == 1, "camera kernel not done");
	return NULL;
}

static void *imu_imu(void *unused)
{
	double t0, t1;
	int done_at_return;

	(void)unused;
	s0_gate_wait(&imu_launched);
	t0 = s0_now_ms();
	/* Decreasing lengths: anything but in-order execution shows. */
	S0_OK(k_sleep(0, 6, 1, imu_log, imu_pos, NULL));
	S0_OK(k_sleep(0, 3, 2, imu_log, imu_pos, NULL));
	S0_OK(k_sleep(0, 1, 3, imu_log, imu_pos, NULL));
	S0_OK(hipStreamSynchronize(0));
	done_at_return = s0_load(imu_cam_done);
	t1 = s0_now_ms();
	S0_CHECK(s0_load(imu_pos) == 3, "IMU kernels done: %d of 3",
		 s0_load(imu_pos));
	S0_CHECK(imu_log[0] == 1 && imu_log[1] == 2 && imu_log[2] == 3,
		 "IMU kernels ran in order %d %d %d", imu_log[0], imu_log[1],
		 imu_log[2]);
	if (perthread) {
		S0_CHECK(done_at_return == 0,
			 "IMU's sync waited for the camera kernel (%.0f ms)",
			 t1 - t0);
	} else {
		S0_CHECK(done_at_return == 1 && t1 - t0 >= 250,
			 "legacy: IMU's sync returned after %.0f ms, camera "
			 "done %d", t1 - t0, done_at_return);
	}
	printf("imu sync %.1f ms, camera done at return: %d\n", t1 - t0,
	       done_at_return);
	return NULL;
}

static void run_imu(void)
{
	pthread_t cam, imu;

	imu_cam_done = s0_host(sizeof(int));
	imu_log = s0_host(16 * sizeof(int));
	imu_pos = s0_host(sizeof(int));
	pthread_create(&cam, NULL, imu_camera, NULL);
	pthread_create(&imu, NULL, imu_imu, NULL);
	pthread_join(imu, NULL);
	pthread_join(cam, NULL);
}

/* ---- order: within a thread, the null stream stays in order ---- */

#define N 64

static void print_err(const char *what, hipError_t r)
{
	hipError_t last = hipGetLastError();

	printf("ERR %s = %d last %d\n", what, (int)r, (int)last);
}

static void run_order(void)
{
	int *log = s0_host(16 * sizeof(int)), *pos = s0_host(sizeof(int));
	int *h = s0_host(N * sizeof(int)), *d = NULL, *d2 = NULL, i, ok;
	size_t pitch = 0;

	S0_OK(hipMalloc((void **)&d, N * sizeof(int)));
	S0_OK(hipMalloc((void **)&d2, N * sizeof(int)));
	S0_OK(k_sleep(0, 30, 1, log, pos, NULL));
	S0_OK(k_sleep(0, 10, 2, log, pos, NULL));
	S0_OK(k_sleep(hipStreamLegacy, 1, 3, log, pos, NULL));
	S0_OK(k_sleep(hipStreamPerThread, 1, 4, log, pos, NULL));
	S0_OK(hipStreamSynchronize(0));
	S0_CHECK(*pos == 4 && log[0] == 1 && log[1] == 2 && log[2] == 3 &&
			 log[3] == 4,
		 "order %d: %d %d %d %d", *pos, log[0], log[1], log[2],
		 log[3]);

	/* A synchronous copy after a kernel returns the kernel's result. */
	S0_OK(k_fill(0, d, N, 7, 50));
	S0_OK(hipMemcpy(h, d, N * sizeof(int), hipMemcpyDeviceToHost));
	for (i = 0, ok = 1; i < N; i++)
		ok &= h[i] == 7;
	S0_CHECK(ok, "hipMemcpy after kernel: h[0] = %d", h[0]);

	/* A synchronous set after a kernel runs after it. */
	S0_OK(k_fill(0, d, N, 9, 50));
	S0_OK(hipMemset(d, 0, N * sizeof(int)));
	S0_OK(hipMemcpyDtoH(h, (hipDeviceptr_t)d, N * sizeof(int)));
	for (i = 0, ok = 1; i < N; i++)
		ok &= h[i] == 0;
	S0_CHECK(ok, "hipMemset after kernel: h[0] = %d", h[0]);

	S0_OK(k_fill(0, d, N, 5, 30));
	S0_OK(hipMemsetD32((hipDeviceptr_t)d, 0x01020304, N / 2));
	S0_OK(hipMemcpyDtoD((hipDeviceptr_t)d2, (hipDeviceptr_t)d,
			    N * sizeof(int)));
	S0_OK(hipMemcpy(h, d2, N * sizeof(int), hipMemcpyDefault));
	S0_CHECK(h[0] == 0x01020304 && h[N / 2 - 1] == 0x01020304 &&
			 h[N / 2] == 5 && h[N - 1] == 5,
		 "hipMemsetD32 + DtoD: %x %x", h[0], h[N - 1]);

	for (i = 0; i < N; i++)
		h[i] = i;
	S0_OK(hipMemcpyHtoD((hipDeviceptr_t)d, h, N * sizeof(int)));
	S0_OK(k_peek(0, d + 5, log + 8));
	S0_OK(hipMemcpy2D(d2, 8 * sizeof(int), d, 8 * sizeof(int),
			  4 * sizeof(int), 8, hipMemcpyDeviceToDevice));
	memset(h, 0xff, N * sizeof(int));
	S0_OK(hipMemcpy(h, d2, N * sizeof(int), hipMemcpyDeviceToHost));
	S0_CHECK(log[8] == 5, "kernel after hipMemcpyHtoD saw %d", log[8]);
	/* 4 of every 8 ints copied; the rest keep what DtoD left. */
	S0_CHECK(h[0] == 0 && h[3] == 3 && h[4] == 0x01020304 && h[8] == 8 &&
			 h[11] == 11 && h[32] == 32 && h[36] == 5,
		 "hipMemcpy2D: %d %d %d %d", h[0], h[3], h[4], h[36]);

	/* Errors of bad arguments, compared between runs by the script. */
	print_err("memcpy null dst",
		  hipMemcpy(NULL, h, 4, hipMemcpyHostToDevice));
	print_err("memcpy bad kind",
		  hipMemcpy(h, d, 4, (hipMemcpyKind)77));
	print_err("memcpy too long",
		  hipMemcpy(h, d, (N + 1) * sizeof(int),
			    hipMemcpyDeviceToHost));
	print_err("memset null", hipMemset(NULL, 0, 4));
	print_err("memset too long", hipMemset(d, 0, (N + 1) * sizeof(int)));
	print_err("memsetd32 null", hipMemsetD32(0, 0, 4));
	print_err("dtoh null", hipMemcpyDtoH(h, 0, 4));
	print_err("htod null", hipMemcpyHtoD(0, h, 4));
	print_err("dtod null", hipMemcpyDtoD((hipDeviceptr_t)d, 0, 4));
	print_err("2d width > pitch",
		  hipMemcpy2D(d2, 4, d, 4, 8, 2, hipMemcpyDeviceToDevice));
	print_err("memcpy 0 bytes", hipMemcpy(h, d, 0, hipMemcpyDeviceToHost));
	print_err("sync after errors", hipStreamSynchronize(0));
	print_err("query idle", hipStreamQuery(0));
	print_err("destroy null", hipStreamDestroy(0));
	(void)pitch;
	S0_OK(hipFree(d));
	S0_OK(hipFree(d2));
}

/* ---- event: recorded on the null stream, waited for elsewhere ---- */

static struct s0_gate ev_rec1 = S0_GATE_INIT, ev_rec2 = S0_GATE_INIT,
		      ev_rec3 = S0_GATE_INIT;
static hipEvent_t ev1, ev2, ev3;
static int *ev_flag;

static void *ev_producer(void *unused)
{
	(void)unused;
	S0_OK(k_sleep(0, 150, 0, NULL, NULL, &ev_flag[0]));
	S0_OK(hipEventRecord(ev1, 0));
	s0_gate_open(&ev_rec1);
	S0_OK(k_sleep(0, 150, 0, NULL, NULL, &ev_flag[1]));
	S0_OK(hipEventRecord(ev2, hipStreamLegacy));
	s0_gate_open(&ev_rec2);
	S0_OK(k_sleep(hipStreamPerThread, 150, 0, NULL, NULL, &ev_flag[2]));
	S0_OK(hipEventRecord(ev3, 0));
	s0_gate_open(&ev_rec3);
	return NULL;
}

static void *ev_consumer(void *unused)
{
	hipStream_t s;

	(void)unused;
	S0_OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
	s0_gate_wait(&ev_rec1);
	S0_OK(hipStreamWaitEvent(s, ev1, 0));
	S0_OK(k_peek(s, &ev_flag[0], &ev_flag[8]));
	S0_OK(hipStreamSynchronize(s));
	S0_CHECK(ev_flag[8] == 1, "hipStreamWaitEvent did not wait");

	s0_gate_wait(&ev_rec2);
	S0_OK(hipEventSynchronize(ev2));
	S0_CHECK(s0_load(&ev_flag[1]) == 1, "hipEventSynchronize did not wait");

	/* The consumer's own null stream waits for the producer's event. */
	s0_gate_wait(&ev_rec3);
	S0_OK(hipStreamWaitEvent(0, ev3, 0));
	S0_OK(k_peek(0, &ev_flag[2], &ev_flag[9]));
	S0_OK(hipStreamSynchronize(0));
	S0_CHECK(ev_flag[9] == 1, "null stream did not wait for the event");
	S0_OK(hipStreamDestroy(s));
	return NULL;
}

static void run_event(void)
{
	pthread_t p, c;

	ev_flag = s0_host(16 * sizeof(int));
	S0_OK(hipEventCreate(&ev1));
	S0_OK(hipEventCreate(&ev2));
	S0_OK(hipEventCreate(&ev3));
	pthread_create(&p, NULL, ev_producer, NULL);
	pthread_create(&c, NULL, ev_consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	S0_OK(hipEventDestroy(ev1));
	S0_OK(hipEventDestroy(ev2));
	S0_OK(hipEventDestroy(ev3));
}

/* ---- blocking: the null stream against user streams ---- */

/*
 * Kernel on stream a sets a flag after ms; a kernel then put on b reads
 * it when it runs.  Returns what it read: 1 if b waited for a.
 */
static int waited(hipStream_t a, hipStream_t b, int ms)
{
	int *f = s0_host(2 * sizeof(int)), r;

	S0_OK(k_sleep(a, ms, 0, NULL, NULL, &f[0]));
	S0_OK(k_peek(b, &f[0], &f[1]));
	S0_OK(hipStreamSynchronize(b));
	r = s0_load(&f[1]);
	S0_OK(hipDeviceSynchronize());
	S0_OK(hipHostFree(f));
	return r;
}

static void run_blocking(void)
{
	hipStream_t x, nb;

	S0_OK(hipStreamCreate(&x));
	S0_OK(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
	/*
	 * Legacy: null waits for blocking streams and they for it; stream0
	 * keeps a thread's own order too.
	 */
	S0_CHECK(waited(x, 0, 150) == 1, "null after blocking user stream");
	S0_CHECK(waited(0, x, 150) == 1, "blocking user stream after null");
	/* Non-blocking streams are unordered with the null stream anyway. */
	S0_CHECK(waited(nb, 0, 150) == 0, "null after non-blocking stream");
	S0_CHECK(waited(0, nb, 150) == 0, "non-blocking stream after null");
	/* The thread's null stream and hipStreamPerThread are ordered. */
	S0_CHECK(waited(0, hipStreamPerThread, 150) == 1,
		 "per-thread stream after null");
	S0_CHECK(waited(hipStreamPerThread, 0, 150) == 1,
		 "null after per-thread stream");
	/* What a user stream names explicitly is never remapped. */
	S0_CHECK(waited(x, x, 50) == 1, "user stream in order");
	S0_OK(hipStreamDestroy(x));
	S0_OK(hipStreamDestroy(nb));
}

/* ---- exit: a thread leaves with work pending ---- */

#define NEXIT 4
static int *exit_buf[NEXIT];

static void *exit_worker(void *arg)
{
	int i = (int)(intptr_t)arg;

	S0_OK(k_fill(0, exit_buf[i], N, i + 1, 100));
	S0_OK(k_fill(0, exit_buf[i] + N, N, i + 11, 20));
	return NULL; /* no sync: the policy must finish the work */
}

static void run_exit(void)
{
	pthread_t t[NEXIT];
	int i, j, ok;

	for (i = 0; i < NEXIT; i++)
		exit_buf[i] = s0_host(2 * N * sizeof(int));
	for (i = 0; i < NEXIT; i++)
		pthread_create(&t[i], NULL, exit_worker, (void *)(intptr_t)i);
	for (i = 0; i < NEXIT; i++)
		pthread_join(t[i], NULL);
	/* Under the policy, thread exit waited for the thread's stream. */
	if (!perthread)
		S0_OK(hipDeviceSynchronize());
	for (i = 0; i < NEXIT; i++) {
		for (j = 0, ok = 1; j < N; j++)
			ok &= exit_buf[i][j] == i + 1 &&
			      exit_buf[i][N + j] == i + 11;
		S0_CHECK(ok, "thread %d's work not visible after join: %d %d",
			 i, exit_buf[i][0], exit_buf[i][N]);
	}
}

/* ---- twodev: one stream per (thread, device) ---- */

static unsigned long long *where;

static void *twodev_thread(void *arg)
{
	unsigned long long *w = where + 16 * (intptr_t)arg;

	/* Starts on device 0 without saying so, then switches. */
	S0_OK(k_where(0, w + 0));
	S0_OK(hipSetDevice(1));
	S0_OK(k_where(0, w + 2));
	S0_OK(hipStreamSynchronize(0));
	S0_OK(hipSetDevice(0));
	S0_OK(k_where(hipStreamPerThread, w + 4));
	S0_OK(hipStreamSynchronize(0));
	S0_OK(hipSetDevice(1));
	S0_OK(k_where(hipStreamLegacy, w + 6));
	/* under stream0 a sync of 0 is the thread's own stream, not legacy */
	S0_OK(hipStreamSynchronize(hipStreamLegacy));
	return NULL;
}

static void run_twodev(void)
{
	pthread_t a, b;
	unsigned long long *w;
	int count = 0, i, k;

	S0_OK(hipGetDeviceCount(&count));
	S0_CHECK(count == 2, "HIPEMU_DEVICES=2: %d devices", count);
	where = s0_host(32 * sizeof(*where));
	pthread_create(&a, NULL, twodev_thread, (void *)0);
	pthread_join(a, NULL);
	pthread_create(&b, NULL, twodev_thread, (void *)1);
	pthread_join(b, NULL);
	for (k = 0; k < 2; k++) {
		w = where + 16 * k;
		S0_CHECK(w[0] == 0 && w[2] == 1 && w[4] == 0 && w[6] == 1,
			 "thread %d devices %llu %llu %llu %llu", k, w[0], w[2],
			 w[4], w[6]);
		if (!perthread)
			continue;
		for (i = 0; i < 6; i += 2)
			S0_CHECK(w[i + 1] > 2, "thread %d launch %d on %#llx", k,
				 i / 2, w[i + 1]);
		S0_CHECK(w[1] == w[5] && w[1] != w[3],
			 "thread %d streams %#llx %#llx %#llx", k, w[1], w[3],
			 w[5]);
		/* The program's explicit legacy barrier stays legacy. */
		S0_CHECK(w[7] == (uintptr_t)hipStreamLegacy,
			 "thread %d: hipStreamLegacy launch on %#llx", k, w[7]);
	}
	if (perthread)
		S0_CHECK(where[1] != where[17] && where[3] != where[19],
			 "threads share a stream");
}

/* ---- devsync: hipDeviceSynchronize, =device (default) or =thread ---- */

static struct s0_gate ds_launched = S0_GATE_INIT;
static int *ds_flag;

static void *ds_camera(void *unused)
{
	(void)unused;
	S0_OK(k_sleep(0, 300, 0, NULL, NULL, &ds_flag[0]));
	s0_gate_open(&ds_launched);
	S0_OK(hipStreamSynchronize(0));
	return NULL;
}

static void run_devsync(int thread_mode)
{
	pthread_t cam;
	int cam_done;

	ds_flag = s0_host(4 * sizeof(int));
	pthread_create(&cam, NULL, ds_camera, NULL);
	s0_gate_wait(&ds_launched);
	S0_OK(k_sleep(0, 20, 0, NULL, NULL, &ds_flag[1]));
	S0_OK(hipDeviceSynchronize());
	cam_done = s0_load(&ds_flag[0]);
	S0_CHECK(s0_load(&ds_flag[1]) == 1, "own kernel not done");
	S0_CHECK(cam_done == !thread_mode,
		 "other thread's kernel done at hipDeviceSynchronize's "
		 "return: %d", cam_done);
	pthread_join(cam, NULL);
}

/* ---- capture: a capturing program keeps its results and errors ---- */

static void capture_user(hipStreamCaptureMode mode, const char *name)
{
	hipStream_t x, nb;
	hipGraph_t g = NULL;
	hipStreamCaptureStatus st = hipStreamCaptureStatusNone;
	int *f = s0_host(4 * sizeof(int));
	char what[96];

	S0_OK(hipStreamCreate(&x));
	S0_OK(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
#define P(label, call)                                                   \
	do {                                                             \
		snprintf(what, sizeof(what), "%s %s", name, label);      \
		print_err(what, call);                                   \
	} while (0)
	P("begin", hipStreamBeginCapture(x, mode));
	P("user launch", k_fill(x, f, 1, 3, 0));
	P("null launch", k_fill(0, f + 1, 1, 4, 0));
	P("null is capturing", hipStreamIsCapturing(0, &st));
	P("null sync", hipStreamSynchronize(0));
	P("nonblocking launch", k_fill(nb, f + 2, 1, 5, 0));
	P("nonblocking sync", hipStreamSynchronize(nb));
	P("end", hipStreamEndCapture(x, &g));
	if (g)
		hipGraphDestroy(g);
	P("null after", k_fill(0, f + 3, 1, 6, 0));
	P("null sync after", hipStreamSynchronize(0));
	P("device sync", hipDeviceSynchronize());
	printf("%s flags %d %d %d %d\n", name, f[0], f[1], f[2], f[3]);
#undef P
	S0_OK(hipStreamDestroy(x));
	S0_OK(hipStreamDestroy(nb));
	S0_OK(hipHostFree(f));
}

/* Capture of the null stream: an error on legacy, S's capture here. */
static void capture_null(void)
{
	hipGraph_t g = NULL;
	hipGraphExec_t ge = NULL;
	hipStreamCaptureStatus st = hipStreamCaptureStatusNone;
	int *f = s0_host(2 * sizeof(int));
	hipError_t r;

	r = hipStreamBeginCapture(0, hipStreamCaptureModeThreadLocal);
	printf("null begin %d\n", (int)r);
	if (!perthread) {
		hipGetLastError();
		return;
	}
	S0_CHECK(r == hipSuccess, "BeginCapture(0) = %d", (int)r);
	S0_OK(hipStreamIsCapturing(0, &st));
	S0_CHECK(st == hipStreamCaptureStatusActive, "not capturing: %d", st);
	S0_OK(k_fill(0, f, 1, 8, 0));
	usleep(20000);
	S0_CHECK(s0_load(f) == 0, "captured kernel ran");
	S0_OK(hipStreamEndCapture(0, &g));
	S0_OK(hipStreamIsCapturing(0, &st));
	S0_CHECK(st == hipStreamCaptureStatusNone, "still capturing: %d", st);
	S0_OK(hipGraphInstantiate(&ge, g, NULL, NULL, 0));
	S0_OK(hipGraphLaunch(ge, 0));
	S0_OK(hipStreamSynchronize(0));
	S0_CHECK(s0_load(f) == 8, "graph on the null stream: %d", s0_load(f));
	hipGraphExecDestroy(ge);
	hipGraphDestroy(g);
}

static void run_capture(void)
{
	capture_user(hipStreamCaptureModeGlobal, "global");
	capture_user(hipStreamCaptureModeThreadLocal, "threadlocal");
	capture_user(hipStreamCaptureModeRelaxed, "relaxed");
	capture_null();
}

/* ---- flags: what the null stream says of itself ---- */

static void run_flags(void)
{
	unsigned flags = 99;
	int prio = 99;
	hipError_t r;

	r = hipStreamGetFlags(0, &flags);
	printf("flags(0) = %d, %u\n", (int)r, flags);
	if (perthread)
		S0_CHECK(r == hipSuccess && flags == hipStreamDefault,
			 "GetFlags(0) = %d, %u", (int)r, flags);
	r = hipStreamGetPriority(0, &prio);
	if (perthread)
		S0_CHECK(r == hipSuccess && prio == 0, "GetPriority(0) = %d, %d",
			 (int)r, prio);
	r = hipStreamDestroy(0);
	S0_CHECK(r != hipSuccess, "hipStreamDestroy(0) succeeded");
	hipGetLastError();
	/* The stream still works: Destroy(0) did not destroy S. */
	S0_OK(k_nop(0));
	S0_OK(hipStreamSynchronize(0));
}

/* ---- reset: hipDeviceReset takes S with it; a new one follows ---- */

static void run_reset(void)
{
	int *f = s0_host(2 * sizeof(int));

	S0_OK(k_fill(0, f, 1, 1, 10));
	S0_OK(hipStreamSynchronize(0));
	S0_OK(hipHostFree(f));
	S0_OK(hipDeviceReset());
	f = s0_host(2 * sizeof(int));
	/* Would fail with an invalid handle if S had not been forgotten. */
	S0_OK(k_fill(0, f, 2, 2, 10));
	S0_OK(hipStreamSynchronize(0));
	S0_CHECK(f[0] == 2 && f[1] == 2, "after reset: %d %d", f[0], f[1]);
}

/*
 * ---- resetrace: another thread resets the device while a thread makes
 * its S (the test script makes hipemu hold a new stream 300 ms, with no
 * lock, before handing it over: HIPEMU_COST_STREAM_NS); the stream the
 * reset took must not be kept ----
 */

static struct s0_gate rr_making = S0_GATE_INIT;

static void *rr_thread(void *arg)
{
	hipError_t *r = arg;

	s0_gate_open(&rr_making);
	/* its first null-stream work: S is made now */
	r[0] = k_nop(0);
	r[1] = k_nop(0);
	r[2] = hipStreamSynchronize(0);
	return NULL;
}

static void run_resetrace(void)
{
	hipError_t r[3] = { hipErrorUnknown, hipErrorUnknown,
			    hipErrorUnknown };
	pthread_t th;

	S0_CHECK(!pthread_create(&th, NULL, rr_thread, r), "thread");
	s0_gate_wait(&rr_making);
	usleep(60000);
	S0_OK(hipDeviceReset());
	pthread_join(th, NULL);
	/* the first launch may have gone to a stream the reset took; the
	 * thread's work after the reset may not */
	S0_CHECK(r[1] == hipSuccess && r[2] == hipSuccess,
		 "after the reset: launch %d, sync %d (first launch %d)",
		 (int)r[1], (int)r[2], (int)r[0]);
}

/*
 * ---- callback: a callback added on the null stream is told the stream
 * the program named (the runtime passes on what it was given), not the
 * stream stream0 put the work on ----
 */

static hipStream_t cb_seen[2] = { (hipStream_t)-1, (hipStream_t)-1 };
static hipError_t cb_status[2] = { hipErrorUnknown, hipErrorUnknown };

static void cb_note(hipStream_t s, hipError_t status, void *p)
{
	int i = *(int *)p;

	cb_seen[i] = s;
	cb_status[i] = status;
}

static void run_callback(void)
{
	static int i0 = 0, i1 = 1;

	/* for t_trace.sh: the trace shows the program's callback */
	printf("callback %p data %p\n", (void *)cb_note, (void *)&i0);
	S0_OK(k_nop(0));
	S0_OK(hipStreamAddCallback(0, cb_note, &i0, 0));
	S0_OK(hipStreamAddCallback(hipStreamPerThread, cb_note, &i1, 0));
	/* refused (flags must be 0): never called */
	S0_CHECK(hipStreamAddCallback(0, cb_note, &i1, 1) ==
			 hipErrorInvalidValue,
		 "flags 1 accepted");
	hipGetLastError();
	S0_OK(hipStreamSynchronize(0));
	S0_OK(hipStreamSynchronize(hipStreamPerThread));
	S0_CHECK(cb_seen[0] == NULL && cb_status[0] == hipSuccess,
		 "callback on 0 told stream %p, status %d", (void *)cb_seen[0],
		 (int)cb_status[0]);
	S0_CHECK(cb_seen[1] == hipStreamPerThread && cb_status[1] == hipSuccess,
		 "callback on hipStreamPerThread told stream %p, status %d",
		 (void *)cb_seen[1], (int)cb_status[1]);
}

/* ---- fork: the child forgets the parent's streams ---- */

static void run_fork(void)
{
	int *f = s0_host(2 * sizeof(int)), st = -1, dev = -1;
	pid_t pid;

	S0_OK(k_fill(0, f, 1, 1, 10));
	pid = fork();
	if (pid == 0) {
		/* No stream work here: hipemu's workers did not fork. */
		exit(hipGetDevice(&dev) == hipSuccess && dev == 0 ? 0 : 3);
	}
	S0_CHECK(pid > 0, "fork failed");
	if (pid > 0) {
		waitpid(pid, &st, 0);
		S0_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			 "child status %#x", st);
	}
	S0_OK(hipStreamSynchronize(0));
	S0_CHECK(f[0] == 1, "parent's kernel after fork: %d", f[0]);
}

int main(int argc, char **argv)
{
	const char *sc = argc > 1 ? argv[1] : "";

	if (argc != 3 || (strcmp(argv[2], "legacy") &&
			  strcmp(argv[2], "perthread"))) {
		fprintf(stderr, "usage: s0_test SCENARIO legacy|perthread\n");
		return 2;
	}
	perthread = !strcmp(argv[2], "perthread");
	s0_setup();
	if (!strcmp(sc, "imu"))
		run_imu();
	else if (!strcmp(sc, "order"))
		run_order();
	else if (!strcmp(sc, "event"))
		run_event();
	else if (!strcmp(sc, "blocking"))
		run_blocking();
	else if (!strcmp(sc, "exit"))
		run_exit();
	else if (!strcmp(sc, "twodev"))
		run_twodev();
	else if (!strcmp(sc, "devsync-device"))
		run_devsync(0);
	else if (!strcmp(sc, "devsync-thread"))
		run_devsync(1);
	else if (!strcmp(sc, "capture"))
		run_capture();
	else if (!strcmp(sc, "flags"))
		run_flags();
	else if (!strcmp(sc, "reset"))
		run_reset();
	else if (!strcmp(sc, "fork"))
		run_fork();
	else if (!strcmp(sc, "resetrace"))
		run_resetrace();
	else if (!strcmp(sc, "callback"))
		run_callback();
	else {
		fprintf(stderr, "s0_test: unknown scenario %s\n", sc);
		return 2;
	}
	fflush(stdout);
	return s0_failed;
}
