/*
 * gen_trace.c - writes .lbt files of known content for lbtrace's tests,
 * straight from include/lbshim/trace_format.h (no shim involved), so the
 * reader can be tested on its own and its output kept as golden files.
 * Everything is deterministic: fixed pids, tids, clock values, pointers.
 *
 *   gen_trace basic OUT        calls of every kind on 3 threads, strings,
 *                              chained blocks, lost / stream0 / pool /
 *                              thread records, errors, stream0 remaps
 *   gen_trace crash OUT        TSC clock; a SIGSEGV with frames (one in a
 *                              wrapper, one long name in a string)
 *   gen_trace crashblk OUT     a crash in the reserved crash block
 *   gen_trace hang OUT         killed (SIGKILL) inside calls: entry records
 *   gen_trace term OUT         a SIGTERM, sent, with calls in flight
 *                              (the crash family: gen_crash.c)
 *   gen_trace ring OUT         flight-recorder file, a wrapped ring
 *   gen_trace kargs OUT        launches with their arguments, typed,
 *                              cut, and lying about their layout
 *   gen_trace multi OUT1 OUT2  parent and forked child, merged by time
 *   gen_trace remap OUT        header api_names in another order, plus an
 *                              API this lbtrace does not know
 *   gen_trace truncated|badmagic|badversion|badblock|corruptblk|short OUT
 *                              broken variants of basic
 *   gen_trace big OUT N        N calls on 4 threads (for bench), streamed
 *   gen_trace pipeline OUT legacy|stream0 [SECONDS]
 *                              camera, imu and sampler threads, the IMU's
 *                              syncs behind the camera's encoder or not
 *                              (gen_pipe.c; 1 s by default)
 *   gen_trace v2basic|v2cuda|v2long OUT
 *                              format version 2 (gen_v2.c); the others
 *                              are version 1
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "lbshim/trace_format.h"
#include "gen_trace.h"

static void *grow(struct gen *g, size_t n)
{
	if (g->size + n > g->cap) {
		g->cap = (g->size + n) * 2;
		g->buf = realloc(g->buf, g->cap);
		if (!g->buf) {
			perror("gen_trace");
			exit(1);
		}
		g->h = (struct lb_trace_header *)g->buf;
	}
	memset(g->buf + g->size, 0, n);
	g->size += n;
	return g->buf + g->size - n;
}

static void names(struct lb_trace_header *h, const char *const *list, int n)
{
	size_t off = 0;
	int i;

	memset(h->api_names, 0, sizeof(h->api_names));
	for (i = 0; i < n; i++) {
		size_t l = strlen(list[i]) + 1;

		memcpy(h->api_names + off, list[i], l);
		off += l;
	}
}

static void gen_init(struct gen *g, uint32_t pid, uint64_t rate,
		     uint64_t start_real, int ring)
{
	const char *list[LB_API_COUNT];
	int i;

	memset(g, 0, sizeof(*g));
	grow(g, LB_TRACE_HEADER_SIZE);
	memcpy(g->h->magic, LB_TRACE_MAGIC, 8);
	g->h->version = LB_TRACE_V1; /* api_names in the header */
	g->h->header_size = LB_TRACE_HEADER_SIZE;
	g->h->rec_size = LB_TRACE_REC_SIZE;
	g->h->block_size = BS;
	g->h->pid = pid;
	g->h->ppid = 1;
	g->h->clock_id =
	    rate == 1000000000u ? LB_CLOCK_MONOTONIC : LB_CLOCK_TSC;
	g->h->ticks_per_sec = rate;
	g->h->start_realtime_ns = start_real;
	g->h->start_ticks = 1000000;
	/* as the writer's: a CLOCK_MONOTONIC trace's ticks are that clock */
	g->h->start_monotonic_ns =
	    rate == 1000000000u ? g->h->start_ticks : 5000000000ull;
	/*
	 * a version 1 writer wrapped HIP only, and its 6656 bytes of names
	 * hold HIP's rows, not the CUDA rows after them (gen_v2.c gives a
	 * version 2 file the whole table)
	 */
	g->h->api_count = LB_API_HIP_COUNT;
	g->h->ring_slots = ring ? SLOTS : 0;
	g->h->rank = UINT32_MAX;
	g->h->policies = 1;
	g->h->flags = ring ? LB_HDR_RING : 0;
	snprintf(g->h->host, sizeof(g->h->host), "testhost");
	snprintf(g->h->cmdline, sizeof(g->h->cmdline), "./app --size 4000000");
	for (i = 0; i < LB_API_HIP_COUNT; i++)
		list[i] = lb_api_info[i].name;
	names(g->h, list, LB_API_HIP_COUNT);
	/* block 0 is the writer's crash block: unused (magic 0) here */
	grow(g, BS);
	g->h->blocks_used = 1;
	g->now = 1000000 + 1000;
	g->rate = rate;
	g->ring = ring;
	g->next_sid = 1;
}

int thread(struct gen *g, uint32_t tid, const char *name)
{
	struct gthread *t = &g->t[g->nt];

	t->tid = tid;
	t->index = g->nt;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->blk = -1;
	t->ring = g->ring;
	return g->nt++;
}

static struct lb_trace_block *blk(struct gen *g, struct gthread *t)
{
	return (struct lb_trace_block *)(g->buf + t->blk);
}

static struct lb_trace_rec *slot(struct gen *g, int ti)
{
	struct gthread *t = &g->t[ti];
	struct lb_trace_block *b;
	struct lb_trace_rec *r;

	if (t->blk < 0 || (t->pos == SLOTS && !t->ring)) {
		if (t->blk >= 0)
			t->ordinal++;
		t->blk = g->size;
		b = grow(g, BS);
		b->magic = LB_BLOCK_MAGIC;
		b->tid = t->tid;
		b->ordinal = t->ordinal;
		b->flags = t->ring ? LB_BLK_RING : 0;
		b->thread_index = t->index;
		b->first_seq = t->ring ? 0 : t->ordinal * SLOTS;
		memcpy(b->thread_name, t->name, 16);
		t->pos = 0;
		g->h->blocks_used++;
	}
	if (t->pos == SLOTS) { /* ring wraps */
		t->pos = 0;
		blk(g, t)->ordinal = ++t->ordinal;
	}
	r = (struct lb_trace_rec *)(g->buf + t->blk) + 1 + t->pos++;
	if (t->ring)
		blk(g, t)->ring_next = t->pos == SLOTS ? 0 : t->pos;
	return r;
}

void emit(struct gen *g, int ti, const struct lb_trace_rec *src)
{
	memcpy(slot(g, ti), src, sizeof(*src));
}

uint32_t string(struct gen *g, int ti, const char *s)
{
	uint32_t id = g->next_sid++;
	size_t len = strlen(s) + 1, parts = (len + 47) / 48, p;

	for (p = 0; p < parts; p++) {
		struct lb_trace_rec r = {.hdr = {.type = LB_REC_STRING}};
		char text[48] = {0};
		size_t n = len - p * 48 < 48 ? len - p * 48 : 48;

		memcpy(text, s + p * 48, n);
		r.a[0] = id | (uint64_t)p << 32 | (uint64_t)parts << 48;
		memcpy(&r.t0, text, 32);
		memcpy(&r.a[1], text + 32, 16);
		emit(g, ti, &r);
	}
	return id;
}

/* One call of DUR ticks, then a 500-tick gap. */
void call(struct gen *g, int ti, int api, int ret, uint64_t dur,
		 uint64_t stream, uint64_t used, uint64_t a0, uint64_t a1,
		 uint64_t a2, int note, int flags)
{
	struct lb_trace_rec r = {.hdr = {.type = LB_REC_CALL}};

	r.hdr.api = api;
	r.hdr.ret = ret;
	r.hdr.note = note;
	r.hdr.flags = flags | (stream != used ? LB_RF_REMAPPED : 0);
	r.t0 = g->now;
	r.t1 = g->now + dur;
	r.stream = stream;
	r.stream_used = used;
	r.a[0] = a0;
	r.a[1] = a1;
	r.a[2] = a2;
	g->now += dur + 500;
	emit(g, ti, &r);
}

uint64_t dims(uint32_t gz, uint32_t bx, uint32_t by, uint32_t bz)
{
	return gz | (uint64_t)bx << 16 | (uint64_t)by << 32 |
	       (uint64_t)bz << 48;
}

static void other(struct gen *g, int ti, int type, int note, uint64_t a0,
		  uint64_t a1, uint64_t dur)
{
	struct lb_trace_rec r = {.hdr = {.type = type, .note = note}};

	if (type == LB_REC_STREAM0)
		r.stream = g->t[ti].tid; /* the thread the counts are about */
	if (type == LB_REC_POOL) {
		r.stream = 40;		 /* hits */
		r.stream_used = 3;	 /* misses */
		r.a[2] = 2 | 1ull << 32; /* chunks | frees with work pending */
	}

	r.t0 = g->now;
	r.t1 = g->now + dur;
	r.a[0] = a0;
	r.a[1] = a1;
	g->now += dur + 500;
	emit(g, ti, &r);
}

void write_basic(struct gen *g)
{
	int m = thread(g, 4242, "main"), w1, w2, i;
	uint32_t va, tr;

	call(g, m, LB_ID___hipRegisterFatBinary, 0, 800, 0, 0, 0x5000, 0, 0, 0,
	     0);
	va = string(g, m, "_Z10vector_addPfPKfS1_i");
	call(g, m, LB_ID___hipRegisterFunction, 0, 300, 0, 0, 0x401000, va, 0,
	     0, 0);
	call(g, m, LB_ID_hipSetDevice, 0, 2000, 0, 0, 0, 0, 0, 0, 0);
	call(g, m, LB_ID_hipMalloc, 0, 12000, 0, 0, P(1), 4000000, 0,
	     LB_POOL_MISS, 0);
	call(g, m, LB_ID_hipMalloc, 0, 400, 0, 0, P(2), 4096, 0, LB_POOL_HIT,
	     0);
	call(g, m, LB_ID_hipMallocPitch, 0, 900, 0, 0, P(3), 64 * 100, 512,
	     LB_POOL_OFF, 0);
	call(g, m, LB_ID_hipMalloc, 2, 700, 0, 0, 0, 1ull << 40, 0,
	     LB_POOL_MISS, 0);
	call(g, m, LB_ID_hipStreamCreate, 0, 5000, 0, 0, S1, 0, 0, 0, 0);
	call(g, m, LB_ID_hipMemcpy, 0, 250000, 0, 0, P(1), 0x10000000, 4000000,
	     1, 0);
	w1 = thread(g, 4243, "worker-1");
	w2 = thread(g, 4244, "worker-2");
	call(g, w1, LB_ID_hipSetDevice, 0, 1500, 0, 0, 1, 0, 0, 0, 0);
	call(g, m, LB_ID_hipLaunchKernel, 0, 7000, S1, S1, va, 256 | 1ull << 32,
	     dims(1, 256, 1, 1), 0, 0);
	tr = string(
	    g, w1, "_ZN5myapp6kernel19transpose_tiled_f32ILi32ELi8EEEvPfPKfii");
	call(g, w1, LB_ID_hipModuleLaunchKernel, 0, 9000, 0, S0R,
	     tr | 4096ull << 32, 64 | 64ull << 32, dims(1, 32, 8, 1), 0, 0);
	call(g, w2, LB_ID_hipMemsetAsync, 0, 3000, S1, S1, P(2), 0, 4096, 0, 0);
	call(g, m, LB_ID_hipEventCreate, 0, 600, 0, 0, 0xe1, 0, 0, 0, 0);
	call(g, m, LB_ID_hipEventRecord, 0, 800, S1, S1, 0xe1, 0, 0, 0, 0);
	call(g, m, LB_ID_hipEventElapsedTime, 0, 400, 0, 0, 0xe1, 0xe2,
	     0x3fc00000 /* 1.5f */, 0, 0);
	call(g, w1, LB_ID_hipStreamSynchronize, 0, 40000, 0, S0R, 0, 0, 0, 0,
	     LB_RF_HAZARD);
	call(g, m, LB_ID_hipStreamQuery, 600, 300, S1, S1, 0, 0, 0, 0, 0);
	call(g, m, LB_ID_hipLaunchHostFunc, 0, 1200, S1, S1, 0x401500, 0, 0, 0,
	     0);
	call(g, w2, LB_ID_hipMemGetInfo, 0, 900, 0, 0, 0x7ffd0000, 1ull << 34,
	     0, 0, 0);
	call(g, w2, LB_ID_hipGetDevice, 0, 200, 0, 0, 0, 0, 0, 0, 0);
	call(g, m, LB_ID_hipMemcpyAsync, 1, 500, S1, S1, 0, 0, 16, 2, 0);
	call(g, m, LB_ID_hipFree, 0, 300, 0, 0, P(2), 0, 0, LB_POOL_HIT,
	     LB_RF_SERVED);
	/* enough calls on main to fill its first block and chain a second */
	for (i = 0; i < 60; i++) {
		if (i % 2)
			call(g, m, LB_ID_hipLaunchKernel, 0, 4000 + i * 100, S1,
			     S1, va, 1024 | 1ull << 32, dims(1, 128, 1, 1), 0,
			     0);
		else
			call(g, m, LB_ID_hipMemcpyAsync, 0, 2000 + i * 50, S1,
			     S1, P(4), P(5), 65536, 3, 0);
		if (i == 20)
			call(g, w1, LB_ID_hipDeviceSynchronize, 0, 90000, 0, 0,
			     0, 0, 0, 0, 0);
	}
	other(g, w2, LB_REC_LOST, 0, 17, 0, 5000);
	call(g, m, LB_ID_hipDeviceSynchronize, 0, 120000, 0, 0, 0, 0, 0, 0, 0);
	other(g, w1, LB_REC_STREAM0, 0, 3, 1, 0);
	other(g, w1, LB_REC_THREAD, 1, 0, 0, 0);
	other(g, m, LB_REC_POOL, 0, 64 << 20, 5 << 20, 0);
	g->h->end_ticks = g->now;
	g->h->end_realtime_ns =
	    g->h->start_realtime_ns + (g->now - g->h->start_ticks);
	g->h->flags |= LB_HDR_CLEAN_EXIT;
}

static void write_ring(struct gen *g)
{
	int m = thread(g, 9000, "main"), w = thread(g, 9001, "io");
	uint32_t va = string(g, m, "_Z10vector_addPfPKfS1_i");
	int i;

	for (i = 0; i < 150; i++) {
		call(g, m, i % 2 ? LB_ID_hipMemcpyAsync : LB_ID_hipLaunchKernel,
		     0, 1000 + i, S1, S1, i % 2 ? P(1) : va, i % 2 ? P(2) : 2,
		     i % 2 ? (uint64_t)i : dims(1, 64, 1, 1), 1, 0);
		if (i % 8 == 0)
			call(g, w, LB_ID_hipStreamSynchronize, 0, 5000, S1, S1,
			     0, 0, 0, 0, 0);
	}
}

static void write_multi(struct gen *p, struct gen *c)
{
	int pm = thread(p, 5000, "main"), cm;
	int i;

	gen_init(c, 5001, 1000000000u, p->h->start_realtime_ns + 1500000, 0);
	c->h->ppid = 5000;
	snprintf(c->h->cmdline, sizeof(c->h->cmdline), "./app --child");
	cm = thread(c, 5001, "main");
	for (i = 0; i < 10; i++) {
		call(p, pm, LB_ID_hipMemcpy, 0, 300000, 0, 0, P(1), P(2), 1000,
		     1, 0);
		call(c, cm, LB_ID_hipMalloc, 0, 250000, 0, 0, P(i), 512, 0, 0,
		     0);
	}
}

static void write_remap(struct gen *g)
{
	/* a writer whose table had other ids, and one API we lack */
	static const char *const list[] = {
	    "hipFree",
	    "hipFutureThing",
	    "hipMalloc",
	    "hipMemcpy",
	};
	int m = thread(g, 6000, "main");

	names(g->h, list, 4);
	g->h->api_count = 4;
	call(g, m, 2, 0, 1000, 0, 0, P(1), 100, 0, 0, 0);
	call(g, m, 1, 0, 2000, 0, 0, 0xabc, 0xdef, 0x123, 0, 0);
	call(g, m, 3, 0, 3000, 0, 0, P(1), P(2), 100, 2, 0);
	call(g, m, 0, 0, 1000, 0, 0, P(1), 0, 0, 0, 0);
	call(g, m, 9, 0, 1000, 0, 0, 1, 2, 3, 0, 0); /* beyond the names */
}

/* The KARGS record after a launch: BYTES (N of them) at kernarg offset 0. */
static void kargs(struct gen *g, int ti, uint32_t layout, int note, int flags,
		  const void *bytes, size_t n)
{
	struct lb_trace_rec r = {.hdr = {.type = LB_REC_KARGS}};

	r.hdr.api = (uint16_t)layout;
	r.hdr.ret = (int16_t)(uint16_t)(layout >> 16);
	r.hdr.note = note;
	r.hdr.flags = flags;
	memcpy((uint8_t *)&r + 8, bytes, n > 56 ? 56 : n);
	emit(g, ti, &r);
}

static void launch(struct gen *g, int ti, uint32_t sid)
{
	call(g, ti, LB_ID_hipLaunchKernel, 0, 4000, S1, S1, sid,
	     1 | 1ull << 32, dims(1, 64, 1, 1), 0, 0);
}

/* Arguments as a kernel's kernarg segment lays them out. */
struct kbuf {
	uint8_t b[56];
};

static void put_at(struct kbuf *k, unsigned off, const void *v, size_t n)
{
	memcpy(k->b + off, v, n);
}

/*
 * Launches with their arguments (KARGS): typed from the demangled name
 * (pointers, scalars, structs, a template, a function pointer, an
 * anonymous namespace), a C kernel (untyped), a cut block, and records
 * that lie: sizes and offsets past the record, a byte count past 56,
 * garbage layout text, a layout of another arity, no layout, a missing
 * layout string, arguments with no launch before them, and a launch in
 * a block's last slot whose arguments open the next block.
 */
static void write_kargs(struct gen *g)
{
	int m = thread(g, 4242, "main");
	uint32_t scale, sum, foo, hh, kc, big, ls, lsum, lfoo, lhh, lkc, lbig;
	uint32_t lbad, lshort;
	struct kbuf k;
	uint64_t p1 = P(1), p2 = P(2), fn = 0x401230;
	float f = 2.5f;
	int i4 = 4, n = 4242, neg = -7;
	double d = 0.1;
	long double ld = 1.0L;
	unsigned long ul = 18446744073709551615ull;
	int vec[3] = {1, 2, 3};
	int64_t bigv[6] = {0, 1, 2, 3, 4, 5};

	scale = string(g, m, "_Z5scalePffi4Pair");
	sum = string(g, m, "_Z3sumIfLi3EEvPT_3VecIS0_XT0_EEi");
	foo = string(g, m, "_Z3fooPKN12_GLOBAL__N_11SEiPFviEm");
	hh = string(g, m, "_Z2hhPPcPKPKie");
	kc = string(g, m, "kernelc");
	big = string(g, m, "_Z3bigi3Bigi");
	ls = string(g, m, "0:8:global_buffer 8:4:by_value 12:4:by_value "
			  "16:16:by_value");
	lsum = string(g, m, "0:8:global_buffer 8:12:by_value 20:4:by_value");
	lfoo = string(g, m, "0:8:global_buffer 8:4:by_value 16:8:by_value "
			    "24:8:by_value");
	lhh = string(g, m, "0:8:global_buffer 8:8:global_buffer "
			   "16:16:by_value");
	lkc = string(g, m, "0:8:global_buffer 8:4:by_value");
	lbig = string(g, m, "0:4:by_value 8:88:by_value 96:4:by_value");
	lbad = string(g, m, "0:99999999999:by_value 4294967295:8:global_buffer "
			    "50:16:by_value 52:4:by_value zz 12:x:y");
	lshort = string(g, m, "0:8:global_buffer 8:4:by_value");

	memset(&k, 0, sizeof(k));
	put_at(&k, 0, &p1, 8);
	put_at(&k, 8, &f, 4);
	put_at(&k, 12, &i4, 4);
	put_at(&k, 16, &p2, 8);
	put_at(&k, 24, &n, 4);
	launch(g, m, scale);
	kargs(g, m, ls, 32, 0, k.b, 32);

	memset(&k, 0, sizeof(k));
	put_at(&k, 0, &p1, 8);
	put_at(&k, 8, vec, 12);
	put_at(&k, 20, &neg, 4);
	launch(g, m, sum);
	kargs(g, m, lsum, 24, 0, k.b, 24);

	memset(&k, 0, sizeof(k));
	put_at(&k, 0, &p2, 8);
	put_at(&k, 8, &neg, 4);
	put_at(&k, 16, &fn, 8);
	put_at(&k, 24, &ul, 8);
	launch(g, m, foo);
	kargs(g, m, lfoo, 32, 0, k.b, 32);

	memset(&k, 0, sizeof(k));
	put_at(&k, 0, &p1, 8);
	put_at(&k, 8, &p2, 8);
	put_at(&k, 16, &ld, 10);
	launch(g, m, hh);
	kargs(g, m, lhh, 32, 0, k.b, 32);

	memset(&k, 0, sizeof(k));
	put_at(&k, 0, &p1, 8);
	put_at(&k, 8, &i4, 4);
	launch(g, m, kc);
	kargs(g, m, lkc, 12, 0, k.b, 12);

	memset(&k, 0, sizeof(k));
	put_at(&k, 0, &n, 4);
	put_at(&k, 8, bigv, 48);
	launch(g, m, big);
	kargs(g, m, lbig, 56, LB_KF_CUT, k.b, 56);

	/* lies: the layout, the byte count; then other arities, no layout */
	memset(&k, 0xab, sizeof(k));
	launch(g, m, scale);
	kargs(g, m, lbad, 200, 0xff, k.b, 56);
	put_at(&k, 0, &p1, 8);
	put_at(&k, 8, &d, 8);
	launch(g, m, scale);
	kargs(g, m, lshort, 12, 0, k.b, 12);
	launch(g, m, scale);
	kargs(g, m, 0, 20, 0, k.b, 20);
	launch(g, m, scale);
	kargs(g, m, 0xfffff, 16, 0, k.b, 16);

	/* arguments without their launch: after a hipMalloc, and twice */
	call(g, m, LB_ID_hipMalloc, 0, 1000, 0, 0, P(3), 256, 0, 0, 0);
	kargs(g, m, lkc, 12, 0, k.b, 12);
	launch(g, m, kc);
	kargs(g, m, lkc, 12, 0, k.b, 12);
	kargs(g, m, lkc, 12, 0, k.b, 12);

	/* a launch in the block's last slot, its arguments in the next */
	while (g->t[m].pos != SLOTS - 1)
		call(g, m, LB_ID_hipGetLastError, 0, 100, 0, 0, 0, 0, 0, 0, 0);
	memset(&k, 0, sizeof(k));
	put_at(&k, 0, &p2, 8);
	put_at(&k, 8, &i4, 4);
	launch(g, m, kc);
	kargs(g, m, lkc, 12, 0, k.b, 12);
	call(g, m, LB_ID_hipDeviceSynchronize, 0, 9000, 0, 0, 0, 0, 0, 0, 0);
}

static void write_file(const char *path, const void *buf, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* N calls on 4 threads, written block by block (bounded memory). */
static void write_big(const char *path, uint64_t n)
{
	struct gen g;
	FILE *f = fopen(path, "wb");
	uint8_t *b = calloc(1, BS * 16);
	uint64_t done = 0, ord[4] = {0};
	uint32_t k = 0;

	if (!f || !b) {
		perror(path);
		exit(1);
	}
	gen_init(&g, 4242, 1000000000u, 1700000000000000000ull, 0);
	g.h->block_size = BS * 16;
	memset(g.buf + LB_TRACE_HEADER_SIZE, 0, BS);
	fwrite(g.buf, 1, LB_TRACE_HEADER_SIZE, f);
	while (done < n) {
		struct lb_trace_block *h = (struct lb_trace_block *)b;
		struct lb_trace_rec *r = (struct lb_trace_rec *)b + 1;
		uint32_t s, t = k++ % 4, slots = BS * 16 / 64 - 1;

		memset(b, 0, BS * 16);
		h->magic = LB_BLOCK_MAGIC;
		h->tid = 4242 + t;
		h->thread_index = t;
		h->ordinal = ord[t];
		h->first_seq = ord[t]++ * slots;
		for (s = 0; s < slots && done < n; s++, done++, r++) {
			static const int apis[] = {
			    LB_ID_hipLaunchKernel, LB_ID_hipMemcpyAsync,
			    LB_ID_hipStreamSynchronize, LB_ID_hipMalloc};
			r->hdr.type = LB_REC_CALL;
			r->hdr.api = apis[done % 4];
			r->t0 = g.now + done * 1000;
			r->t1 = r->t0 + 100 + (done * 7919) % 5000;
			r->stream = r->stream_used = S1;
			r->a[0] = P(done % 64);
			r->a[1] = 4096;
		}
		fwrite(b, 1, BS * 16, f);
	}
	fclose(f);
	free(b);
	free(g.buf);
}

int main(int argc, char **argv)
{
	struct gen g, c;
	const char *k = argc > 2 ? argv[1] : "";

	if (argc < 3) {
		fprintf(stderr, "usage: gen_trace KIND OUT [OUT2|N]\n");
		return 1;
	}
	if (!strcmp(k, "big")) {
		write_big(argv[2],
			  argc > 3 ? strtoull(argv[3], NULL, 10) : 1000000);
		return 0;
	}
	if (!strcmp(k, "crash"))
		gen_init(&g, 7000, 3000000000ull, 1700000100000000000ull, 0);
	else
		gen_init(&g, !strcmp(k, "multi") ? 5000 : 4242, 1000000000u,
			 1700000000000000000ull, !strcmp(k, "ring"));
	if (!strcmp(k, "crash")) {
		write_crash(&g);
	} else if (!strcmp(k, "crashreg")) {
		write_crashreg(&g);
	} else if (!strcmp(k, "crashblk")) {
		write_crashblk(&g);
	} else if (!strcmp(k, "hang")) {
		write_hang(&g);
	} else if (!strcmp(k, "term")) {
		write_term(&g);
	} else if (!strcmp(k, "ring")) {
		write_ring(&g);
	} else if (!strcmp(k, "pipeline")) {
		if (argc < 4 || (strcmp(argv[3], "legacy") &&
				 strcmp(argv[3], "stream0"))) {
			fprintf(stderr, "gen_trace: pipeline OUT "
					"legacy|stream0 [SECONDS]\n");
			return 1;
		}
		write_pipeline(&g, !strcmp(argv[3], "stream0"),
			       argc > 4 ? (unsigned)atoi(argv[4]) : 1);
	} else if (!strcmp(k, "kargs")) {
		write_kargs(&g);
	} else if (!strcmp(k, "remap")) {
		write_remap(&g);
	} else if (!strncmp(k, "v2", 2) || !strcmp(k, "cudanames")) {
		if (gen_v2(&g, k)) {
			fprintf(stderr, "gen_trace: unknown kind %s\n", k);
			return 1;
		}
	} else if (!strcmp(k, "multi")) {
		if (argc < 4)
			return 1;
		write_multi(&g, &c);
		write_file(argv[3], c.buf, c.size);
		free(c.buf);
	} else {
		write_basic(&g);
		if (!strcmp(k, "truncated"))
			g.size = LB_TRACE_HEADER_SIZE + 2 * BS + 1000;
		else if (!strcmp(k, "badmagic"))
			g.buf[0] = 'X';
		else if (!strcmp(k, "badversion"))
			g.h->version = 99;
		else if (!strcmp(k, "badblock"))
			g.h->block_size = 1000;
		else if (!strcmp(k, "corruptblk"))
			memcpy(g.buf + LB_TRACE_HEADER_SIZE + 2 * BS,
			       "\xef\xbe\xad\xde", 4);
		else if (!strcmp(k, "short"))
			g.size = 100;
		else if (strcmp(k, "basic")) {
			fprintf(stderr, "gen_trace: unknown kind %s\n", k);
			return 1;
		}
	}
	write_file(argv[2], g.buf, g.size);
	free(g.buf);
	return 0;
}
