/*
 * gen_crash.c - gen_trace's traces of processes that died: a crash with
 * frames (crash), one among hundreds of registrations (crashreg), one in
 * the reserved crash block (crashblk), a process killed by SIGKILL inside
 * calls (hang: entry records, no crash record, no clean exit) and one
 * ended by a SIGTERM it was sent (term).
 */
#include <stdio.h>
#include <string.h>
#include "lbshim/api.h"
#include "gen_trace.h"

static void frame_f(struct gen *g, int ti, uint32_t idx, uint64_t pc,
		    uint64_t off, const char *name, int flags)
{
	struct lb_trace_rec r = {.hdr = {.type = LB_REC_FRAME, .flags = flags}};
	char head[32] = {0};
	size_t len = strlen(name);
	uint32_t more = 0;

	if (len > 32)
		more = string(g, ti, name + 32);
	memcpy(head, name, len < 32 ? len : 32);
	r.stream = pc;
	r.stream_used = off;
	r.a[0] = idx | (uint64_t)more << 32;
	memcpy(&r.t0, head, 16);
	memcpy(&r.a[1], head + 16, 16);
	emit(g, ti, &r);
}

static void frame(struct gen *g, int ti, uint32_t idx, uint64_t pc,
		  uint64_t off, const char *name)
{
	frame_f(g, ti, idx, pc, off, name, 0);
}

static void crash_rec(struct gen *g, int ti, uint32_t tid, int nframes)
{
	struct lb_trace_rec r = {.hdr = {.type = LB_REC_CRASH}};

	r.hdr.ret = 11;
	r.hdr.note = 1;
	r.t0 = r.t1 = g->now;
	r.stream = r.stream_used = 0x10;
	r.a[0] = 1; /* SEGV_MAPERR */
	r.a[1] = tid;
	r.a[2] = nframes;
	emit(g, ti, &r);
}

void write_crash(struct gen *g)
{
	int m = thread(g, 7000, "main"), w = thread(g, 7001, "loader");
	uint32_t va = string(g, m, "_Z10vector_addPfPKfS1_i");
	int i;

	/* a writer that says its version (the other traces are older) */
	snprintf(g->h->lbshim_version, sizeof(g->h->lbshim_version),
		 "9.8.7-test");
	for (i = 0; i < 30; i++) {
		call(g, m, LB_ID_hipLaunchKernel, 0, 30000, 0, 0, va,
		     8 | 1ull << 32, dims(1, 64, 1, 1), 0, 0);
		if (i % 3 == 0)
			call(g, w, LB_ID_hipMemcpy, 0, 60000, 0, 0, P(1), P(2),
			     1 << 20, 3, 0);
	}
	call(g, w, LB_ID_hipMalloc, 0, 3000, 0, 0, P(7), 256, 0, LB_POOL_OFF,
	     0);
	/* the call the crash interrupted, as the crash handler writes it */
	call(g, w, LB_ID_hipMemcpy, -1, 2000, 0, 0, P(7), 0x10, 4096, 2,
	     LB_RF_INFLIGHT);
	crash_rec(g, w, 7001, 5);
	frame(g, w, 0, 0x401234, 0x12, "_Z10crash_herei");
	frame(g, w, 1, 0x7f1234567000, 0x40, "hipMemcpy");
	frame(g, w, 2, 0x402000, 0x1f0,
	      "_ZN5myapp6detail15process_requestERKNS_7RequestE");
	frame(g, w, 3, 0x401100, 0x33, "main");
	frame(g, w, 4, 0x7f00deadbeef, 0, "");
	g->h->flags |= LB_HDR_CRASHED;
}

/*
 * A program that loads big libraries: its main thread registers 300
 * kernels, makes a few calls, fails to load a module, registers 40 more
 * (a library opened late), and crashes in a hipMemcpy.  `crash` leaves the
 * successful registrations out of the last calls unless --registrations.
 * Its outermost frame's name is a guess (LB_FF_GUESS).
 */
void write_crashreg(struct gen *g)
{
	int m = thread(g, 8000, "main");
	char name[48];
	uint32_t sid;
	int i;

	call(g, m, LB_ID___hipRegisterFatBinary, 0, 900, 0, 0, P(20), 0, P(21),
	     0, 0);
	for (i = 0; i < 340; i++) {
		if (i == 300) {
			call(g, m, LB_ID_hipMalloc, 0, 3000, 0, 0, P(7), 4096, 0,
			     LB_POOL_OFF, 0);
			sid = string(g, m, "_Z6kernelPf");
			call(g, m, LB_ID_hipLaunchKernel, 0, 20000, 0, 0, sid,
			     8 | 1ull << 32, dims(1, 64, 1, 1), 0, 0);
			call(g, m, LB_ID_hipModuleLoad, 301, 5000, 0, 0, 0,
			     string(g, m, "missing.co"), 0, 0, 0);
		}
		snprintf(name, sizeof(name), "_Z9kernel%03dPf", i);
		sid = string(g, m, name);
		call(g, m, LB_ID___hipRegisterFunction, 0, 400, 0, 0,
		     0x401000 + 16 * i, sid, P(20), 0, 0);
	}
	call(g, m, LB_ID_hipMemcpy, -1, 2000, 0, 0, P(7), 0x10, 4096, 2,
	     LB_RF_INFLIGHT);
	crash_rec(g, m, 8000, 3);
	frame(g, m, 0, 0x7f1234567000, 0x40, "hipMemcpy");
	frame(g, m, 1, 0x401100, 0x33, "main");
	/* a static function of a stripped libc, named after its neighbour */
	frame_f(g, m, 2, 0x7f00deadbeef, 0x8a, "__libc_init_first",
		LB_FF_GUESS);
	g->h->flags |= LB_HDR_CRASHED;
}

/* A crash of a thread with no block: in the reserved block 0. */
void write_crashblk(struct gen *g)
{
	int m = thread(g, 8000, "main");
	struct lb_trace_block *b =
	    (struct lb_trace_block *)(g->buf + LB_TRACE_HEADER_SIZE);
	struct lb_trace_rec *r = (struct lb_trace_rec *)b + 1;

	call(g, m, LB_ID_hipMalloc, 0, 5000, 0, 0, P(1), 1024, 0, 0, 0);
	call(g, m, LB_ID_hipFree, 0, 2000, 0, 0, P(1), 0, 0, 0, 0);
	b->magic = LB_BLOCK_MAGIC;
	b->tid = 8009;
	b->thread_index = UINT32_MAX;
	r->hdr.type = LB_REC_CRASH;
	r->hdr.ret = 7; /* SIGBUS */
	r->hdr.note = 2;
	r->t0 = r->t1 = g->now;
	r->stream = r->stream_used = 0x7f0000000040ull;
	r->a[0] = 2; /* BUS_ADRERR */
	r->a[1] = 8009;
	r->a[2] = 2;
	r++;
	/* no record of the call: only the wrapper frame tells */
	r->hdr.type = LB_REC_FRAME;
	r->stream = 0x7f0000001230;
	r->stream_used = 0x30;
	memcpy(&r->t0, "hipStreamSynchro", 16);
	memcpy(&r->a[1], "nize", 4);
	r++;
	r->hdr.type = LB_REC_FRAME;
	r->a[0] = 1;
	r->stream = 0x404040;
	r->stream_used = 8;
	memcpy(&r->t0, "worker_loop", 11);
	g->h->flags |= LB_HDR_CRASHED;
}

/*
 * A call's entry record (trace_format.h): t1 = 0, ret = -1, a[] its
 * inputs (0 for a kernel launch), written when the call was entered and
 * never completed.
 */
static void entry(struct gen *g, int ti, int api, uint64_t stream,
		  uint64_t a0, uint64_t a1, uint64_t a2)
{
	struct lb_trace_rec r = {.hdr = {.type = LB_REC_CALL}};

	r.hdr.api = api;
	r.hdr.ret = -1;
	r.t0 = g->now;
	r.stream = r.stream_used = stream;
	r.a[0] = a0;
	r.a[1] = a1;
	r.a[2] = a2;
	g->now += 500;
	emit(g, ti, &r);
}

/*
 * An evaluation case killed by SIGKILL as it hangs: the main thread in a
 * hipStreamSynchronize, a worker inside a launch (its entry holds no
 * arguments), a third thread done with its calls.  No crash record, no
 * clean exit; the helper's last heartbeat is 2.5 s after the last record.
 */
void write_hang(struct gen *g)
{
	int m = thread(g, 9000, "main"), w = thread(g, 9001, "worker"),
	    d = thread(g, 9002, "loader");
	uint32_t k = string(g, w, "_Z6decodePfi");

	call(g, m, LB_ID_hipStreamCreate, 0, 4000, 0, 0, S1, 0, 0, 0, 0);
	call(g, d, LB_ID_hipMemcpy, 0, 9000, 0, 0, P(1), P(2), 4096, 1, 0);
	call(g, w, LB_ID_hipLaunchKernel, 0, 3000, S1, S1, k, 1ull << 32 | 4,
	     dims(1, 256, 1, 1), 0, 0);
	call(g, m, LB_ID_hipStreamAddCallback, 0, 1000, S1, S1, 0x401500, 0,
	     0, 0, 0);
	entry(g, m, LB_ID_hipStreamSynchronize, S1, 0, 0, 0);
	entry(g, w, LB_ID_hipLaunchKernel, S1, 0, 0, 0);
	g->h->alive_ticks = g->now + 2500 * (g->rate / 1000);
}

/*
 * A case its harness ended with SIGTERM (sent by pid 4100), taken by the
 * main thread inside hipDeviceSynchronize (the crash handler's record of
 * it), while a worker was inside a hipMemcpy (its entry record).
 */
void write_term(struct gen *g)
{
	int m = thread(g, 9100, "main"), w = thread(g, 9101, "worker");
	struct lb_trace_rec r = {.hdr = {.type = LB_REC_CRASH}};

	call(g, m, LB_ID_hipMalloc, 0, 3000, 0, 0, P(3), 1 << 20, 0,
	     LB_POOL_OFF, 0);
	entry(g, w, LB_ID_hipMemcpy, 0, P(3), P(4), 1 << 20);
	call(g, m, LB_ID_hipDeviceSynchronize, -1, 1500000000, 0, 0, 0, 0, 0,
	     0, LB_RF_INFLIGHT);
	r.hdr.ret = 15;
	r.t0 = r.t1 = g->now - 500;
	r.stream_used = 4100; /* the sender; no address */
	r.a[1] = 9100;
	r.a[2] = 1;
	emit(g, m, &r);
	frame(g, m, 0, 0x7f1234560000, 0x20, "hipDeviceSynchronize");
	g->h->flags |= LB_HDR_CRASHED;
}
