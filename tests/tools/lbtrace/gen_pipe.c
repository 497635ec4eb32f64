/*
 * gen_pipe.c - the evaluation pipeline's trace, simulated (gen_trace
 * pipeline OUT legacy|stream0 [SECONDS]): a camera thread at 30 Hz
 * launching an encoder (12 kernels, 1.3 ms of device time each) and
 * syncing, an IMU thread at 200 Hz launching two small kernels and
 * syncing, a sampler at 50 Hz launching a policy head and copying its
 * action back with hipMemcpy.
 *
 * The device is simulated in the order the threads' steps start: under
 * "legacy" every thread's work goes to the one null-stream queue, so the
 * IMU's sync waits behind the camera's encoder; under "stream0" each
 * thread has its own queue (the calls are marked remapped) and the IMU's
 * sync waits for its own two kernels only.  Deterministic: the same
 * arguments give the same bytes.  For lbtrace export --svg's tests.
 */
#include <stdio.h>
#include <string.h>
#include "lbshim/api.h"
#include "gen_trace.h"

#define US 1000ull
#define MS 1000000ull

struct pthread_sim {
	int ti;		  /* gen thread */
	uint64_t period;  /* ns */
	uint64_t next;	  /* next step's planned start, ns */
	uint64_t free_at; /* the thread is busy until then, ns */
	uint64_t stream;  /* its own stream under stream0 */
	uint32_t k1, k2;  /* its kernels' string ids */
};

struct sim {
	struct gen *g;
	int stream0;
	uint64_t qend[4]; /* device queue ends: [0] the null stream */
};

/* The queue thread I's work goes to. */
static uint64_t *queue(struct sim *s, int i)
{
	return &s->qend[s->stream0 ? i : 0];
}

/* A call of thread P from T0 to T1 (ns since the trace's start). */
static void rec(struct sim *s, struct pthread_sim *p, int api, uint64_t t0,
		uint64_t t1, int on_stream, uint64_t a0, uint64_t a1,
		uint64_t a2, int note)
{
	struct lb_trace_rec r = {.hdr = {.type = LB_REC_CALL}};
	uint64_t base = s->g->h->start_ticks;

	r.hdr.api = api;
	r.hdr.note = note;
	r.t0 = base + t0;
	r.t1 = base + t1;
	if (on_stream) {
		r.stream = 0;
		r.stream_used = s->stream0 ? p->stream : 0;
		if (s->stream0)
			r.hdr.flags = LB_RF_REMAPPED;
	}
	r.a[0] = a0;
	r.a[1] = a1;
	r.a[2] = a2;
	emit(s->g, p->ti, &r);
}

/* Launch of kernel SID at host time *H, GPU time GPU on queue Q. */
static void launch(struct sim *s, struct pthread_sim *p, uint64_t *h,
		   uint32_t sid, uint64_t gpu, uint64_t *q)
{
	uint64_t start = *q > *h ? *q : *h;

	rec(s, p, LB_ID_hipLaunchKernel, *h, *h + 15 * US, 1, sid,
	    1 | 1ull << 32, dims(1, 256, 1, 1), 0);
	*q = start + gpu;
	*h += 20 * US;
}

/* A sync of the null stream at *H: returns when queue Q has drained. */
static void sync0(struct sim *s, struct pthread_sim *p, uint64_t *h,
		  const uint64_t *q)
{
	uint64_t end = *q > *h + 8 * US ? *q : *h + 8 * US;

	rec(s, p, LB_ID_hipStreamSynchronize, *h, end, 1, 0, 0, 0, 0);
	*h = end + 5 * US;
}

static void step(struct sim *s, struct pthread_sim *p, int which, uint64_t h)
{
	uint64_t *q = queue(s, which);
	int i;

	switch (which) {
	case 1: /* camera: the encoder */
		for (i = 0; i < 12; i++)
			launch(s, p, &h, i % 3 ? p->k1 : p->k2, 1300 * US, q);
		sync0(s, p, &h, q);
		break;
	case 2: /* imu: fusion, then a sync */
		launch(s, p, &h, p->k1, 60 * US, q);
		launch(s, p, &h, p->k2, 40 * US, q);
		sync0(s, p, &h, q);
		break;
	default: { /* sampler: the policy head, its action copied back */
		uint64_t end;

		rec(s, p, LB_ID_hipMalloc, h, h + 6 * US, 0, P(40), 4096, 0,
		    0);
		h += 10 * US;
		launch(s, p, &h, p->k1, 300 * US, q);
		launch(s, p, &h, p->k2, 80 * US, q);
		end = *q > h + 12 * US ? *q : h + 12 * US;
		rec(s, p, LB_ID_hipMemcpy, h, end, 1, 0x10000000, P(40), 16,
		    2);
		h = end + 5 * US;
		rec(s, p, LB_ID_hipFree, h, h + 4 * US, 0, P(40), 0, 0, 0);
		h += 8 * US;
	}
	}
	p->free_at = h;
}

void write_pipeline(struct gen *g, int stream0, unsigned seconds)
{
	struct sim s = {.g = g, .stream0 = stream0};
	struct pthread_sim th[4];
	static const char *const names[] = {"main", "camera", "imu",
					    "sampler"};
	static const char *const k1[] = {"", "_Z12resnet_blockPKfPfi",
					 "_Z8imu_fusePKfPfi",
					 "_Z11policy_headPKfPfi"};
	static const char *const k2[] = {"", "_Z9conv_stemPKfPfi",
					 "_Z11imu_predictPKfPf",
					 "_Z11multinomialPKfPii"};
	static const uint64_t period[] = {0, 33333333, 5 * MS, 20 * MS};
	uint64_t end = (uint64_t)seconds * 1000 * MS + 10 * MS, h;
	int i;

	g->h->policies = stream0 ? 3 : 1;
	snprintf(g->h->cmdline, sizeof(g->h->cmdline),
		 "python3 evaluate.py (simulated, %s)",
		 stream0 ? "stream0" : "legacy");
	for (i = 0; i < 4; i++) {
		memset(&th[i], 0, sizeof(th[i]));
		th[i].ti = thread(g, 9000 + i, names[i]);
		th[i].period = period[i];
		th[i].next = 10 * MS + (i == 3 ? 2 * MS : 0);
		th[i].stream = 0x5555aa0000ull + i * 0x100;
		if (i) {
			th[i].k1 = string(g, th[i].ti, k1[i]);
			th[i].k2 = string(g, th[i].ti, k2[i]);
		}
	}
	/* main: the setup */
	h = 1 * MS;
	rec(&s, &th[0], LB_ID_hipSetDevice, h, h + 30 * US, 0, 0, 0, 0, 0);
	for (i = 0; i < 3; i++) {
		h += 200 * US;
		rec(&s, &th[0], LB_ID_hipMalloc, h, h + 150 * US, 0, P(i),
		    64 << 20, 0, 0);
	}
	/* the steps, in the order they start */
	for (;;) {
		int best = 0;
		uint64_t at = 0, a;

		for (i = 1; i < 4; i++) {
			a = th[i].next > th[i].free_at ? th[i].next
						       : th[i].free_at;
			if (!best || a < at) {
				best = i;
				at = a;
			}
		}
		if (at >= end)
			break;
		step(&s, &th[best], best, at);
		th[best].next += th[best].period;
	}
	h = end + 2 * MS;
	rec(&s, &th[0], LB_ID_hipDeviceSynchronize, h, h + 40 * US, 0, 0, 0,
	    0, 0);
	g->h->end_ticks = g->h->start_ticks + h + 100 * US;
	g->h->end_realtime_ns =
	    g->h->start_realtime_ns + (g->h->end_ticks - g->h->start_ticks);
	g->h->flags |= LB_HDR_CLEAN_EXIT;
}
