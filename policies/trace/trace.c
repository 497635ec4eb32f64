/*
 * trace.c - the trace policy: every wrapped call becomes one 64-byte
 * record in the calling thread's block of the trace file.
 *
 * The record path (post hook) takes no lock, calls no malloc and no stdio:
 * a thread owns its block, so a record is a few stores into a mapping and
 * one release store of its header.  Blocks come from the helper thread,
 * mapped and faulted in ahead of time; when none is ready the writer maps
 * one itself rather than drop the record.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "trace.h"
#include "kreg.h"

struct lb_tr_state lb_tr = { .fd = -1, .gen = 1, .next_str = 1 };
LB_TLS struct lb_tt lb_tt;

uint32_t lb_trace_policy_bits(void)
{
	uint32_t bits = 1;

	if (&lb_policy_stream0 && lb_policy_active(&lb_policy_stream0))
		bits |= 2;
	if (&lb_policy_pool && lb_policy_active(&lb_policy_pool))
		bits |= 4;
	return bits;
}

/* ---- blocks of the calling thread ---- */

/* name: the thread's name from its previous block, or NULL to ask. */
void lb_tt_begin_block(struct lb_tt *t, void *map, const char *name)
{
	struct lb_trace_block *b = map;

	t->blk = b;
	t->pos = (struct lb_trace_rec *)map + 1;
	t->end = t->pos + lb_tr.slots;
	b->tid = (uint32_t)lb_tid();
	b->ordinal = t->ordinal;
	b->flags = lb_tr.ring ? LB_BLK_RING : 0;
	b->thread_index = t->thread_index;
	b->first_seq = lb_tr.ring ? 0 : t->ordinal * lb_tr.slots;
	b->ring_next = 0;
	if (name)
		memcpy(b->thread_name, name, sizeof(b->thread_name));
	else if (prctl(PR_GET_NAME, b->thread_name, 0, 0, 0))
		b->thread_name[0] = 0;
	b->thread_name[15] = 0;
	__atomic_store_n(&b->magic, LB_BLOCK_MAGIC, __ATOMIC_RELEASE);
}

/* Records that found no slot are reported once a slot is found again. */
static void lb_tt_flush_lost(struct lb_tt *t)
{
	struct lb_trace_rec r = { .hdr = { .type = LB_REC_LOST } };
	struct lb_trace_rec *s;

	r.a[0] = t->lost;
	r.t0 = t->lost_t0;
	r.t1 = lb_ticks();
	t->lost = 0;
	s = t->pos;
	if (s == t->end)
		return;
	t->pos = s + 1;
	lb_rec_commit(s, &r);
}

static void lb_tt_lose(struct lb_tt *t)
{
	if (!t->lost++)
		t->lost_t0 = lb_ticks();
}

struct lb_trace_rec *lb_tt_next_block(struct lb_tt *t)
{
	unsigned si = t->thread_index % LB_TR_SPARES, n;
	struct lb_trace_block *old = t->blk;
	struct lb_trace_rec *r;
	char name[16];
	uintptr_t v;

	if (lb_tr.ring) {
		if (!old) {
			lb_tt_lose(t);
			return NULL;
		}
		/* Wrap: the oldest slot is the next one written. */
		t->pos = (struct lb_trace_rec *)old + 1;
		old->ordinal = ++t->ordinal;
		r = t->pos++;
		return r;
	}
	if (__atomic_load_n(&lb_tr.stopped, __ATOMIC_ACQUIRE)) {
		if ((old || t->stage) && !t->in_crash) {
			/*
			 * Nothing more goes to the file: let its space go (a
			 * removed file is freed once no mapping holds it).
			 * A staging ring goes to the helper, who may be
			 * copying from it.
			 */
			if (t->stage)
				lb_stage_drop(t);
			else
				lb_file_unmap_chunk(t->chunk);
			t->chunk = 0;
			t->blk = NULL;
			t->pos = t->end = NULL;
			t->state = LB_TT_NOFILE;
		}
		lb_tt_lose(t);
		return NULL;
	}
	if (old)
		memcpy(name, old->thread_name, sizeof(name));
	if (t->stage) {
		/* Staging (trace_stage.c): the next block of the ring. */
		if (lb_stage_next(t, old ? name : NULL)) {
			lb_tt_lose(t);
			return NULL;
		}
		goto out;
	}
	if (old && t->chunk_i + 1 < lb_chunk_n(t->chunk)) {
		/* The next block of the chunk: no system call. */
		t->chunk_i++;
		t->ordinal++;
		lb_tt_begin_block(t, lb_chunk_map(t->chunk) +
					     (size_t)t->chunk_i * lb_tr.block_size,
				  name);
		goto out;
	}
	/*
	 * A busy thread gets bigger chunks: 1, 2, 4 ... 16 blocks.  With a
	 * helper, its second chunk is its staging ring, which it maps
	 * itself and faults in over the ring's first round: a spare of that
	 * size would hold 4 MiB of file, and the helper's time, for every
	 * thread that ever makes a call.
	 */
	n = t->want ? t->want * 2u : 2u;
	if (n > LB_TR_CHUNK_MAX)
		n = LB_TR_CHUNK_MAX;
	v = 0;
	if (__atomic_load_n(&lb_tr.helper_pid, __ATOMIC_RELAXED)) {
		n = LB_TR_STAGE_BLOCKS;
	} else {
		t->want = (uint8_t)n;
		__atomic_store_n(&lb_tr.want[si], (uint8_t)n,
				 __ATOMIC_RELAXED);
		v = __atomic_exchange_n(&lb_tr.spare[si], 0,
					__ATOMIC_ACQUIRE);
	}
	if (!v) {
		/*
		 * The staging ring, or the helper is behind: map it
		 * ourselves (after one fstat: no new block for a file that
		 * was removed).
		 */
		__atomic_add_fetch(&lb_tr.slow_maps, 1, __ATOMIC_RELAXED);
		if (!lb_file_gone())
			v = lb_file_map_chunk(n, 0);
	}
	if (!v) {
		lb_tt_lose(t);
		return NULL;
	}
	if (old) {
		/* The helper unmaps the used chunk; if it is behind, we do. */
		lb_file_unmap_chunk(__atomic_exchange_n(
			&lb_tr.retire[si], t->chunk, __ATOMIC_RELEASE));
		t->ordinal++;
	}
	if (__atomic_load_n(&lb_tr.helper_pid, __ATOMIC_RELAXED))
		lb_helper_kick();
	t->chunk = v;
	t->chunk_i = 0;
	lb_stage_start(t); /* a ring from now on, if it can be one */
	lb_tt_begin_block(t, lb_chunk_map(v), old ? name : NULL);
out:
	if (t->lost)
		lb_tt_flush_lost(t);
	r = t->pos++;
	return r;
}

void lb_tt_ring_note(struct lb_tt *t, struct lb_trace_rec *r)
{
	uint32_t next = (uint32_t)(r - (struct lb_trace_rec *)t->blk);

	/* r is slot next (1-based), so the following one is index next. */
	if (next >= lb_tr.slots)
		next = 0;
	__atomic_store_n(&t->blk->ring_next, next, __ATOMIC_RELEASE);
}

int lb_tt_emit(struct lb_tt *t, const struct lb_trace_rec *src)
{
	struct lb_trace_rec *r;

	if (LB_UNLIKELY(t->in_crash))
		r = lb_crash_slot(t);
	else if (t->state == LB_TT_FILE)
		r = lb_tt_slot(t);
	else
		return 0;
	if (!r)
		return 0;
	lb_rec_commit(r, src);
	if (LB_UNLIKELY(lb_tr.ring) && t->blk &&
	    (char *)r > (char *)t->blk &&
	    (char *)r < (char *)t->blk + lb_tr.block_size)
		lb_tt_ring_note(t, r);
	return 1;
}

/* A forked child creates its own file at its first call. */
static int lb_child_open(void)
{
	int st = 1, i;

	if (__atomic_compare_exchange_n(&lb_tr.need_open, &st, 2, 0,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		lb_clock_restart();
		lb_tr.gen++;
		if (!lb_file_open()) {
			__atomic_store_n(&lb_tr.file_on, 1, __ATOMIC_RELEASE);
			lb_helper_start();
		}
		__atomic_store_n(&lb_tr.need_open, 0, __ATOMIC_RELEASE);
		return 0;
	}
	/* Another thread of the child is creating it: a few syscalls. */
	for (i = 0; i < 100000 && __atomic_load_n(&lb_tr.need_open,
						   __ATOMIC_ACQUIRE); i++)
		sched_yield();
	return 0;
}

void lb_tt_start(struct lb_tt *t)
{
	uintptr_t v = 0;
	uint32_t bits;

	if (__atomic_load_n(&lb_tr.need_open, __ATOMIC_ACQUIRE))
		lb_child_open();
	t->thread_index = __atomic_fetch_add(&lb_tr.next_thread, 1,
					     __ATOMIC_RELAXED);
	t->ordinal = 0;
	t->blk = NULL;
	t->chunk = 0;
	t->chunk_i = 0;
	t->want = 1;
	t->stage = 0;
	t->pos = t->end = NULL;
	t->fold = NULL;
	lb_crash_thread_start(t);
	t->state = LB_TT_NOFILE;
	if (!__atomic_load_n(&lb_tr.file_on, __ATOMIC_ACQUIRE))
		return;
	/*
	 * The policy bits are known only once every policy's init ran (trace
	 * is the first), so the first threads store them; the same value
	 * each time, relaxed: the header is read after the run.  So is the
	 * runtime's version, where the core asked for it.
	 */
	bits = lb_trace_policy_bits();
	if (__atomic_load_n(&lb_tr.hdr->policies, __ATOMIC_RELAXED) != bits)
		__atomic_store_n(&lb_tr.hdr->policies, bits, __ATOMIC_RELAXED);
	lb_header_runtime_version();
	if (!lb_tr.ring)
		v = __atomic_exchange_n(
			&lb_tr.spare[t->thread_index % LB_TR_SPARES], 0,
			__ATOMIC_ACQUIRE);
	if (!v) /* a ring is faulted in now, up to 64 MiB, not in calls */
		v = lb_file_map_chunk(1, !lb_tr.ring ||
					       lb_tr.block_size <= (64u << 20));
	if (__atomic_load_n(&lb_tr.helper_pid, __ATOMIC_RELAXED))
		lb_helper_kick();
	if (!v)
		return;
	t->chunk = v;
	lb_tt_begin_block(t, lb_chunk_map(v), NULL);
	t->state = LB_TT_FILE;
}

/* ---- policy ops ---- */

/*
 * The record path of each API, set at init: most calls take the plain
 * one (lb_trace_post); registration and hipSetDevice teach the trace
 * something first; launches add their arguments' record.
 */
enum { LB_PATH_PLAIN = 0, LB_PATH_LEARN, LB_PATH_LAUNCH, LB_PATH_QUERY };
/* (LB_PATH_QUERY: a device query on the plain path, whose identical
 * calls fold: lb_trace_post_query) */
static uint8_t lb_tr_path[LB_API_COUNT];
uint8_t lb_tr_entry_args[LB_API_COUNT];

/*
 * What call api's entry record holds (LB_ENTRY_*): a[] filled where that
 * writes no STRING record, which would take the slot the entry is in (of
 * the launches, those that name no kernel; of the others, those with no
 * argument in the NAME role: hipGetProcAddress and hipGetDriverEntryPoint
 * and their _spt forms); whole where a[] and note are
 * the inputs alone (trace_args.c: copies, sets, syncs, the event calls
 * on an existing event) and the record path is the plain one.
 */
static int lb_entry_kind(int api)
{
	switch (lb_api_info[api].kind) {
	case LB_KIND_REG:
		return LB_ENTRY_BARE;
	case LB_KIND_LAUNCH:
		return api == LB_ID_hipLaunchHostFunc ||
				       api == LB_ID_hipStreamAddCallback ||
				       api == LB_ID_hipGraphLaunch ||
				       api == LB_ID___hipPushCallConfiguration ||
				       api == LB_ID___hipPopCallConfiguration
			       ? LB_ENTRY_INPUTS
			       : LB_ENTRY_BARE;
	case LB_KIND_COPY:
	case LB_KIND_SET:
	case LB_KIND_SYNC:
		return LB_ENTRY_WHOLE;
	case LB_KIND_EVENT:
		return api == LB_ID_hipEventRecord ||
				       api == LB_ID_hipEventRecord_spt ||
				       api == LB_ID_hipEventQuery ||
				       api == LB_ID_hipEventDestroy ||
				       api == LB_ID_hipStreamWaitEvent ||
				       api == LB_ID_hipStreamWaitEvent_spt
			       ? LB_ENTRY_WHOLE
			       : LB_ENTRY_INPUTS;
	default:
		/* a name (a procedure address's symbol) is a STRING record */
		return lb_ar_has(api, LB_AR_NAME) ? LB_ENTRY_BARE
						  : LB_ENTRY_INPUTS;
	}
}

static void lb_trace_paths(void)
{
	int i;

	for (i = 0; i < LB_API_COUNT; i++) {
		lb_tr_path[i] = lb_api_info[i].kind == LB_KIND_REG ||
					i == LB_ID_hipSetDevice
				? LB_PATH_LEARN
			: lb_api_info[i].kind == LB_KIND_LAUNCH
				? LB_PATH_LAUNCH
				: LB_PATH_PLAIN;
		lb_tr_entry_args[i] = (uint8_t)lb_entry_kind(i);
		if (lb_tr_entry_args[i] == LB_ENTRY_WHOLE &&
		    lb_tr_path[i] != LB_PATH_PLAIN)
			lb_tr_entry_args[i] = LB_ENTRY_INPUTS;
		if (lb_api_info[i].role == LB_ROLE_DEVICE_GET &&
		    lb_tr_path[i] == LB_PATH_PLAIN)
			lb_tr_path[i] = LB_PATH_QUERY;
	}
}

static int lb_env_on(const char *name)
{
	static const char *const onoff[] = { "0", "1", NULL };

	return lb_env_choice(name, onoff, 0) == 1;
}

static int lb_trace_init(int listed)
{
	/* the runtime's own variable (HIP_TRACE_API) turns it on too */
	const char *hta = lb_rt->trace_env ? lb_getenv(lb_rt->trace_env) :
					     NULL;
	uint64_t ring = 0;

	lb_tr.live = lb_env_on("LBSHIM_TRACE_LIVE") ||
		     (hta && *hta && strcmp(hta, "0") != 0);
	if (!listed && !lb_tr.live)
		return 0;
	lb_tr.pid = getpid();
	lb_tr.color = lb_tr.live && isatty(STDERR_FILENO) &&
		      !lb_getenv("NO_COLOR");
	lb_clock_start();
	lb_tr.block_size = LB_TRACE_BLOCK_SIZE;
	if (lb_env_size("LBSHIM_TRACE_RING", &ring) && ring) {
		/* Whole pages, at least two records. */
		if (ring < 4096)
			ring = 4096;
		if (ring > (1u << 30))
			ring = 1u << 30;
		lb_tr.ring = 1;
		lb_tr.block_size = (uint32_t)((ring + 4095) & ~4095ull);
	}
	lb_tr.slots = lb_trace_slots(lb_tr.block_size);
	lb_trace_paths();
	lb_names_init();
	if (listed && !lb_file_open())
		lb_tr.file_on = 1;
	if (!lb_tr.file_on && !lb_tr.live)
		return 0;
	lb_tr.active = 1;
	lb_crash_install();
	if (lb_tr.file_on) {
		lb_kreg_enable(); /* KINFO and KARGS records */
		lb_helper_start();
	}
	return 1;
}

unsigned lb_entry_fill(struct lb_trace_rec *r, struct lb_call *c)
{
	lb_status ret = c->ret;

	c->ret = (lb_status)-1;
	lb_args_fill_kind[lb_api_info[c->api].kind](r, c);
	c->ret = ret;
	return r->hdr.flags | (unsigned)r->hdr.note << 8;
}

/*
 * The entry record's slot when the thread has none at hand: its first
 * call (the thread starts here, so that the call it may never return
 * from is in the file), or a full block.  The slot is t->pos, left
 * where it is: the call's record takes it when the call returns.
 */
static __attribute__((noinline)) void lb_trace_pre_slow(struct lb_call *c,
							struct lb_tt *t)
{
	struct lb_trace_rec *r;

	t->entry = NULL;
	if (t->state == LB_TT_NEW)
		lb_tt_start(t);
	if (t->state != LB_TT_FILE || t->in_crash)
		return;
	r = lb_tt_slot(t);
	if (!r)
		return;
	t->pos = r;
	t->entry = r;
	lb_entry_put(r, c, t);
	if (LB_UNLIKELY(lb_tr.ring))
		lb_tt_ring_note(t, r);
}

/*
 * Entry: the call's entry record goes into the slot its record will take
 * (t->pos, not advanced), so a call that never returns, whatever ends
 * the process, is in the file as in flight, with its inputs and entry
 * time.  Any record the thread writes before the call's own (a string, a
 * kernel's facts) takes that slot first: the entry is then overwritten,
 * as the call has returned by then.
 */
static int lb_trace_pre(struct lb_call *c)
{
	struct lb_tt *t = &lb_tt;
	struct lb_trace_rec *r = t->pos;

	c->t0 = lb_ticks();
	t->cur = c; /* for the crash handler: the call in flight */
	if (LB_UNLIKELY(t->fold != NULL) && t->fold + 1 == r &&
	    lb_tr_path[c->api] == LB_PATH_QUERY && t->state == LB_TT_FILE) {
		/* it may fold into the last record: no entry for it */
		t->entry = NULL;
		return 0;
	}
	if (LB_UNLIKELY(t->state != LB_TT_FILE || r == t->end)) {
		lb_trace_pre_slow(c, t);
		return 0;
	}
	t->entry = r;
	lb_entry_put(r, c, t);
	if (LB_UNLIKELY(lb_tr.ring))
		lb_tt_ring_note(t, r);
	return 0;
}

/* lb_call_rec, inlined into the record path. */
static inline __attribute__((always_inline)) void
lb_call_rec_in(struct lb_trace_rec *rec, const struct lb_call *c,
	       const struct lb_tt *t)
{
	uint8_t flags = 0;

	rec->t0 = c->t0;
	rec->t1 = c->t1;
	if (c->stream) {
		rec->stream = (uint64_t)(uintptr_t)c->stream_named;
		rec->stream_used = (uint64_t)(uintptr_t)*c->stream;
		if (rec->stream != rec->stream_used)
			flags |= LB_RF_REMAPPED;
	} else {
		rec->stream = rec->stream_used = 0;
	}
	if (c->handled)
		flags |= LB_RF_SERVED;
	flags |= lb_s0_flags(c->scratch[LB_NOTE_HAZARD]);
	rec->a[0] = rec->a[1] = rec->a[2] = 0;
	rec->hdr.type = LB_REC_CALL;
	rec->hdr.flags = 0;
	rec->hdr.api = c->api;
	rec->hdr.ret = (int16_t)c->ret;
	rec->hdr.device = t->device;
	rec->hdr.note = 0;
	/* a[], note; GRIDZ_SAT for a launch */
	lb_args_fill_kind[lb_api_info[c->api].kind](rec, c);
	rec->hdr.flags |= flags;
}

void lb_call_rec(struct lb_trace_rec *rec, const struct lb_call *c,
		 const struct lb_tt *t)
{
	lb_call_rec_in(rec, c, t);
}

/* Calls that teach us something for later records. */
static void lb_trace_learn(const struct lb_call *c, struct lb_tt *t)
{
	switch (c->api) {
	case LB_ID_hipSetDevice:
		if (c->ret == LB_ST_OK) {
			t->device = (uint8_t)((struct lb_args_hipSetDevice *)
						      c->args)->deviceId;
			t->ka_plan = NULL; /* its header names the device */
		}
		break;
	}
}

/* Commits rec to slot r of t's block. */
static inline void lb_tt_put(struct lb_tt *t, struct lb_trace_rec *r,
			     const struct lb_trace_rec *rec)
{
	lb_rec_commit(r, rec);
	if (LB_UNLIKELY(lb_tr.ring))
		lb_tt_ring_note(t, r);
}

/* The first call of a thread, registrations, hipSetDevice, no file. */
static __attribute__((noinline)) void lb_trace_post_slow(struct lb_call *c,
							 struct lb_tt *t)
{
	struct lb_trace_rec rec, *r;

	if (t->state == LB_TT_NEW)
		lb_tt_start(t);
	if (t->state != LB_TT_FILE) {
		if (t->state == LB_TT_NOFILE &&
		    lb_tr_path[c->api] == LB_PATH_LEARN)
			lb_trace_learn(c, t);
		return;
	}
	switch (lb_tr_path[c->api]) {
	case LB_PATH_LAUNCH:
		lb_trace_post_launch(c, t);
		return;
	case LB_PATH_LEARN:
		lb_trace_learn(c, t);
		lb_kinfo_learn(c, t);
		break;
	default:
		break;
	}
	lb_call_rec_in(&rec, c, t);
	r = lb_tt_slot(t);
	if (LB_LIKELY(r != NULL))
		lb_tt_put(t, r, &rec);
}

/*
 * A device query (cudaGetDevice, hipGetDevice: role DEVICE_GET), which
 * PyTorch makes some 2 700 times an inference step of 3 400 calls
 * (tests/gpu/RESULTS.md): a call that answers what the thread's last
 * record answered (the same function, the same device, success, nothing
 * served or noted, nothing recorded between them) is folded into that
 * record instead of taking a slot: its a[0]'s high 32 bits count the
 * calls folded, a[1] sums their durations, a[2] is the last one's end
 * (trace_format.h).  The record is still the thread's last slot, in its
 * current block (a block is handed to the helper only when the next
 * slot is taken), so the stores land where the first call's record is,
 * in the file whatever ends the process; a reader sees the count at
 * most one call behind.  The folded call writes no entry record (its pre
 * hook saw that it may fold): a crash inside cudaGetDevice would show
 * the call before it as the last one.  Not in a ring, whose slots are
 * overwritten.
 */
static __attribute__((noinline)) void lb_trace_post_query(struct lb_call *c,
							  struct lb_tt *t)
{
	struct lb_trace_rec ar, *r, *f = t->fold;

	lb_call_args(&ar, c);
	if (f && f + 1 == t->pos && !t->entry && c->ret == LB_ST_OK &&
	    f->hdr.type == LB_REC_CALL &&
	    !c->handled && !c->scratch[LB_NOTE_HAZARD] && !ar.hdr.flags &&
	    f->hdr.api == c->api && f->hdr.ret == 0 && f->hdr.flags == 0 &&
	    f->hdr.device == t->device &&
	    (uint32_t)f->a[0] == (uint32_t)ar.a[0] &&
	    (f->a[0] >> 32) < LB_FOLD_MAX && c->t1 >= c->t0) {
		uint64_t n = (f->a[0] >> 32) + 1;

		__atomic_store_n(&f->a[1], f->a[1] + (c->t1 - c->t0),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&f->a[2], c->t1, __ATOMIC_RELAXED);
		__atomic_store_n(&f->a[0], (uint32_t)f->a[0] | n << 32,
				 __ATOMIC_RELEASE);
		return;
	}
	if ((r = t->entry) != NULL && t->pos == r &&
	    lb_tr_entry_args[c->api] == LB_ENTRY_WHOLE) {
		t->pos = r + 1;
		lb_entry_done(r, c);
	} else {
		r = lb_tt_slot(t);
		if (!r) {
			t->fold = NULL;
			return;
		}
		lb_call_put(r, c, t, &ar);
	}
	if (LB_UNLIKELY(lb_tr.ring)) {
		lb_tt_ring_note(t, r);
		r = NULL;
	}
	t->fold = c->ret == LB_ST_OK ? r : NULL;
}

/*
 * The record path: the call's record, committed to the thread's block
 * before the call returns to the program.
 */
static void lb_trace_post(struct lb_call *c)
{
	struct lb_tt *t = &lb_tt;
	struct lb_trace_rec ar, *r;

	c->t1 = lb_ticks();
	t->cur = NULL;
	if (LB_UNLIKELY(t->state != LB_TT_FILE ||
			lb_tr_path[c->api] == LB_PATH_LEARN)) {
		lb_trace_post_slow(c, t);
	} else if (lb_tr_path[c->api] == LB_PATH_LAUNCH) {
		lb_trace_post_launch(c, t);
	} else if (LB_UNLIKELY(lb_tr_path[c->api] == LB_PATH_QUERY)) {
		lb_trace_post_query(c, t);
	} else if ((r = t->entry) != NULL && t->pos == r &&
		   lb_tr_entry_args[c->api] == LB_ENTRY_WHOLE) {
		/* the entry is the record but for the result */
		t->pos = r + 1;
		lb_entry_done(r, c);
		if (LB_UNLIKELY(lb_tr.ring))
			lb_tt_ring_note(t, r);
	} else {
		lb_call_args(&ar, c);
		r = lb_tt_slot(t);
		if (LB_LIKELY(r != NULL)) {
			lb_call_put(r, c, t, &ar);
			if (LB_UNLIKELY(lb_tr.ring))
				lb_tt_ring_note(t, r);
		}
	}
	if (LB_UNLIKELY(lb_tr.live))
		lb_live_call(c);
}

static void lb_trace_thread_exit(void)
{
	struct lb_tt *t = &lb_tt;
	struct lb_trace_rec r = { .hdr = { .type = LB_REC_THREAD, .note = 1 } };

	if (t->state == LB_TT_FILE) {
		r.t0 = r.t1 = lb_ticks();
		lb_tt_emit(t, &r);
		lb_stage_drop(t); /* a ring: the helper copies the rest */
		lb_file_unmap_chunk(t->chunk);
		t->chunk = 0;
		t->blk = NULL;
		t->pos = t->end = NULL;
	}
	lb_crash_thread_exit(t);
	t->state = LB_TT_DONE;
}

/* Another policy's statistics (lb_stat), in the calling thread's block. */
static void lb_trace_stat(int type, const uint64_t v[5])
{
	struct lb_tt *t = &lb_tt;
	struct lb_trace_rec r = { .hdr = { .type = (uint8_t)type } };

	if (type <= 0 || type >= LB_REC_TYPE_MAX || t->state == LB_TT_DONE)
		return;
	if (t->state == LB_TT_NEW)
		lb_tt_start(t);
	r.t0 = r.t1 = lb_ticks();
	r.stream = v[0];
	r.stream_used = v[1];
	r.a[0] = v[2];
	r.a[1] = v[3];
	r.a[2] = v[4];
	lb_tt_emit(t, &r);
}

static void lb_trace_fork_child(void)
{
	struct lb_tt *t = &lb_tt;
	int had_file = lb_tr.file_on;

	lb_tr.pid = getpid();
	if (t->stage)
		t->chunk = 0; /* unmapped with the other rings */
	t->stage = 0;
	lb_stage_fork_child();
	lb_file_unmap_chunk(t->chunk);
	t->chunk = 0;
	t->blk = NULL;
	t->pos = t->end = NULL;
	t->entry = NULL; /* in the parent's file */
	t->fold = NULL;
	t->lost = 0;
	if (t->state != LB_TT_DONE)
		t->state = LB_TT_NEW; /* the altstack is kept */
	lb_tr.file_on = 0;
	lb_tr.next_thread = 0;
	lb_file_fork_child();
	if (had_file)
		lb_tr.need_open = 1;
}

static void lb_trace_fini(void)
{
	lb_log(LB_LOG_DEBUG,
	       "trace: %u blocks, %u chunks mapped by writers, %u staged "
	       "blocks copied by writers, %u waits for the helper's copy",
	       lb_tr.hdr ? (unsigned)__atomic_load_n(&lb_tr.hdr->blocks_used,
						     __ATOMIC_RELAXED) : 0,
	       __atomic_load_n(&lb_tr.slow_maps, __ATOMIC_RELAXED),
	       __atomic_load_n(&lb_tr.self_copies, __ATOMIC_RELAXED),
	       __atomic_load_n(&lb_tr.stage_waits, __ATOMIC_RELAXED));
	lb_helper_stop();
	if (lb_tr.file_on)
		lb_file_close();
}

const struct lb_policy lb_policy_trace = {
	.name = "trace",
	.init = lb_trace_init,
	.pre = lb_trace_pre,
	.post = lb_trace_post,
	.thread_exit = lb_trace_thread_exit,
	.fork_child = lb_trace_fork_child,
	.fini = lb_trace_fini,
	.stat = lb_trace_stat,
};
