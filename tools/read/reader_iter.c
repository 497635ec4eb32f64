/*
 * reader_iter.c - iterating the records of a set: one cursor per thread,
 * merged by a binary min-heap on the wall time of each cursor's record
 * (k-way merge: each thread's own order is kept), and the decoding of one
 * record into struct lbt_rec.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "read/reader_priv.h"

void lbt_show_internal(struct lbt_set *set, int on)
{
	set->internal = on;
}

/*
 * Moves C to its next record to yield (from its current position on) and
 * sets its key.  Records without a time of their own take the time of the
 * thread's previous one, so that they stay in place in the merge.
 */
static void cursor_fill(struct lbt_set *set, struct lbt_cursor *c)
{
	const struct lbt_file *f = c->file;
	const struct lbt_thread *t = c->thread;

	while (c->bi < t->nblocks) {
		const struct lbt_block *b = &f->blocks[t->first_block + c->bi];
		const struct lb_trace_rec *r;

		if (c->pos >= b->npos) {
			c->bi++;
			c->pos = 0;
			continue;
		}
		c->slot = lbt_pos_slot(b, c->pos);
		r = lbt_slot(f, &c->ch, b, c->slot);
		if (!r->hdr.type) {
			/* the commit rule: a plain block ends here */
			if (!(b->flags & LB_BLK_RING))
				((struct lbt_block *)b)->npos = c->pos;
			c->pos++;
			continue;
		}
		if (f->lazy_sc)
			lbt_scan_one(c->file, f->lazy_sc, c->thread, r,
				     lbt_slot_off(b, c->slot));
		if (!set->internal && lbt_untimed(r->hdr.type) &&
		    r->hdr.type != LB_REC_KARGS) {
			c->pos++;
			continue;
		}
		if (lbt_untimed(r->hdr.type) || !r->t0)
			c->key = c->last_key;
		else
			c->key = lbt_ticks_ns(f, r->t0);
		c->r = r;
		return;
	}
	c->done = 1;
}

static int cur_less(const struct lbt_cursor *a, const struct lbt_cursor *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	if (a->file->index != b->file->index)
		return a->file->index < b->file->index;
	return a->thread->order < b->thread->order;
}

static void heap_down(struct lbt_set *set, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i, tmp;

		if (l < set->nheap &&
		    cur_less(&set->cur[set->heap[l]], &set->cur[set->heap[m]]))
			m = l;
		if (r < set->nheap &&
		    cur_less(&set->cur[set->heap[r]], &set->cur[set->heap[m]]))
			m = r;
		if (m == i)
			return;
		tmp = set->heap[i];
		set->heap[i] = set->heap[m];
		set->heap[m] = tmp;
		i = m;
	}
}

/* Slots all cursor windows may hold together (64 MiB). */
#define LBT_WINDOW_BUDGET (1u << 20)

void lbt_free_cursors(struct lbt_set *set)
{
	int i;

	for (i = 0; set->cur && i < set->ncur; i++)
		lbt_chunk_free(&set->cur[i].ch);
	free(set->cur);
	set->cur = NULL;
	set->ncur = 0;
}

void lbt_rewind(struct lbt_set *set, int mode)
{
	int i, n = 0, k = 0;
	uint32_t j, cap;

	for (i = 0; i < set->nfiles; i++)
		n += set->files[i]->nthreads;
	lbt_free_cursors(set);
	/* windows of 16..1024 slots: many threads share the budget */
	cap = LBT_WINDOW_BUDGET / (n ? n : 1);
	cap = cap > 1024 ? 1024 : cap < 16 ? 16 : cap;
	free(set->heap);
	set->cur = calloc(n ? n : 1, sizeof(*set->cur));
	set->heap = calloc(n ? n : 1, sizeof(*set->heap));
	set->ncur = set->cur && set->heap ? n : 0;
	set->nheap = 0;
	set->mode = mode;
	set->seq_cur = 0;
	set->started = 1;
	for (i = 0; i < set->nfiles; i++) {
		struct lbt_file *f = set->files[i];

		if (f->lazy_sc) { /* a pass left halfway: start over */
			lbt_scan_abort(f, f->lazy_sc);
			f->lazy_sc = NULL;
		}
		if (f->scanned)
			continue;
		if (mode == LBT_UNORDERED && set->lazy)
			f->lazy_sc = lbt_scan_begin(f);
		if (!f->lazy_sc)
			lbt_ensure_scanned(f);
	}
	for (i = 0; i < set->nfiles && k < set->ncur; i++) {
		struct lbt_file *f = set->files[i];

		for (j = 0; j < f->nthreads; j++, k++) {
			struct lbt_cursor *c = &set->cur[k];

			c->file = f;
			c->thread = &f->threads[j];
			c->ch.cap = cap;
			c->thread->order = k;
			c->last_key = lbt_ticks_to_ns(f, f->hdr.start_ticks);
			cursor_fill(set, c);
			if (!c->done)
				set->heap[set->nheap++] = k;
		}
	}
	for (i = set->nheap / 2 - 1; i >= 0; i--)
		heap_down(set, i);
}

static const char *api_name(struct lbt_set *set, const struct lbt_file *f,
			    uint32_t raw, int *id)
{
	if (raw < f->napi) {
		*id = f->api_map[raw];
		return f->api_name[raw];
	}
	*id = -1;
	/* names stay valid as long as the set: --last keeps records */
	if (!set->unk_names)
		set->unk_names = calloc(65536, sizeof(*set->unk_names));
	if (!set->unk_names)
		return "api#?";
	if (!set->unk_names[raw & 0xffff][0])
		snprintf(set->unk_names[raw & 0xffff], 12, "api#%u",
			 raw & 0xffff);
	return set->unk_names[raw & 0xffff];
}

static const struct lbt_crash *crash_at(const struct lbt_file *f, uint64_t off)
{
	uint32_t i;

	for (i = 0; i < f->ncrashes; i++)
		if (f->crashes[i].off == off)
			return &f->crashes[i];
	return NULL;
}

static void decode(struct lbt_set *set, const struct lbt_cursor *c)
{
	const struct lbt_file *f = c->file;
	const struct lbt_block *b = &f->blocks[c->thread->first_block + c->bi];
	const struct lb_trace_rec *r = c->r;
	struct lbt_rec *o = &set->rec;
	o->file = f;
	o->thread = c->thread;
	o->copy = *r;
	o->raw = &o->copy;
	o->seq = lbt_block_seq(b, c->slot);
	o->off = lbt_slot_off(b, c->slot);
	o->type = r->hdr.type;
	o->flags = r->hdr.flags;
	o->note = r->hdr.note;
	o->device = r->hdr.device;
	o->ret = r->hdr.ret;
	o->api_raw = r->hdr.api;
	o->crash = NULL;
	o->t_ns = c->key;
	o->dur_ns = 0;
	o->in_flight = 0;
	o->folded = 0;
	if (o->type == LB_REC_CALL) {
		o->api_name = api_name(set, f, r->hdr.api, &o->api);
		o->kind = o->api >= 0 ? lb_api_info[o->api].kind : -1;
		/* written by the crash handler for the call it interrupted
		 * (or an entry record without a return time) */
		o->in_flight = !r->t1 || (r->hdr.flags & LB_RF_INFLIGHT);
		if (r->t1 > r->t0 && r->t0) {
			o->dur_ns = lbt_dticks_ns(f, r->t1 - r->t0);
		}
	} else {
		o->api = -1;
		o->api_name = NULL;
		o->kind = -1;
		if (o->type == LB_REC_CRASH) {
			lbt_ensure_scanned(f); /* crashes are rare */
			o->crash = crash_at(f, o->off);
		}
		if (o->type == LB_REC_LOST && r->t1 > r->t0 && r->t0)
			o->dur_ns = lbt_ticks_to_ns(f, r->t1) -
				    lbt_ticks_to_ns(f, r->t0);
	}
}

/*
 * A launch's arguments are the KARGS record right after it in its thread:
 * taken along with the launch (REC, just decoded from C) rather than
 * yielded alone.  A KARGS record whose launch is gone (overwritten in a
 * ring) is yielded as a record of its own.
 */
static void take_kargs(struct lbt_set *set, struct lbt_cursor *c)
{
	struct lbt_rec *o = &set->rec;

	o->has_kargs = 0;
	if (o->type != LB_REC_CALL || o->kind != LB_KIND_LAUNCH || c->done ||
	    c->r->hdr.type != LB_REC_KARGS)
		return;
	o->kargs = *c->r;
	o->has_kargs = 1;
	c->pos++;
	cursor_fill(set, c);
}

/* End of a pass: lazy scans that rode along are complete. */
static const struct lbt_rec *finish_pass(struct lbt_set *set)
{
	int i;

	for (i = 0; i < set->nfiles; i++) {
		struct lbt_file *f = set->files[i];

		if (f->lazy_sc) {
			lbt_scan_end(f, f->lazy_sc);
			f->lazy_sc = NULL;
		}
	}
	return NULL;
}

/*
 * A device query's record with calls folded into it (trace_format.h:
 * a[0]'s high 32 bits count them, a[1] sums their durations, a[2] is the
 * last one's end) is yielded once for each call: the first as recorded,
 * then each folded one with the mean duration, their ends spread evenly
 * from the first's end to the last's (their own times were not kept).
 * Sets up the call c->rep of the record just decoded; returns 1 while
 * more are to come (the cursor stays on the record, its key the next
 * one's start), 0 after the last.
 */
/* The end of folded call k (1..n) of record r, ticks: k n-ths of the
 * way from r's end to the last one's, and its start, d before (not
 * before r's end). */
static uint64_t fold_end(const struct lb_trace_rec *r, uint64_t span,
			 uint32_t n, uint32_t k)
{
	return r->t1 + span / n * k + span % n * k / n;
}

static uint64_t fold_start(const struct lb_trace_rec *r, uint64_t end,
			   uint64_t d)
{
	return end - d > r->t1 ? end - d : r->t1;
}

static int unfold(struct lbt_set *set, struct lbt_cursor *c)
{
	struct lbt_rec *o = &set->rec;
	const struct lb_trace_rec *r = c->r;
	uint32_t n;
	uint64_t span, d;

	/* read once: a file still written may count on meanwhile */
	if (!c->rep)
		c->nrep = lbt_raw_folded(o->api, r);
	n = c->nrep;
	if (!n)
		return 0;
	o->copy.a[0] = (uint32_t)r->a[0];
	o->copy.a[1] = o->copy.a[2] = 0;
	span = r->a[2] > r->t1 ? r->a[2] - r->t1 : 0;
	d = r->a[1] / n;
	o->folded = c->rep != 0;
	if (c->rep) {
		o->copy.t1 = fold_end(r, span, n, c->rep);
		o->copy.t0 = fold_start(r, o->copy.t1, d);
		o->dur_ns = lbt_dticks_ns(c->file, o->copy.t1 - o->copy.t0);
	}
	if (c->rep == n) {
		c->rep = 0;
		return 0;
	}
	c->rep++;
	c->key = lbt_ticks_ns(c->file,
			      fold_start(r, fold_end(r, span, n, c->rep), d));
	return 1;
}

const struct lbt_rec *lbt_next(struct lbt_set *set)
{
	struct lbt_cursor *c;

	if (!set->started)
		lbt_rewind(set, LBT_ORDERED);
	if (set->mode == LBT_UNORDERED) {
		while (set->seq_cur < set->ncur && set->cur[set->seq_cur].done)
			set->seq_cur++;
		if (set->seq_cur >= set->ncur)
			return finish_pass(set);
		c = &set->cur[set->seq_cur];
	} else {
		if (!set->nheap)
			return finish_pass(set);
		c = &set->cur[set->heap[0]];
	}
	decode(set, c);
	if (!lbt_untimed(set->rec.type))
		c->last_key = c->key;
	if (__builtin_expect(set->rec.type == LB_REC_CALL, 1) &&
	    lbt_api_folds(set->rec.api) && unfold(set, c))
		goto keep; /* the record's next folded call comes next */
	c->pos++;
	cursor_fill(set, c);
	take_kargs(set, c);
keep:
	if (set->mode != LBT_UNORDERED) {
		if (c->done)
			set->heap[0] = set->heap[--set->nheap];
		heap_down(set, 0);
	}
	return &set->rec;
}

const char *lbt_raw_api_name(struct lbt_set *set, const struct lbt_file *f,
			     uint32_t raw)
{
	int id;

	return api_name(set, f, raw, &id);
}

/* (reader_priv.h) */
uint32_t lbt_scan_calls(const struct lb_trace_rec *r, uint32_t n,
			struct lbt_span *sp)
{
	uint64_t lo = sp->lo, hi = sp->hi;
	uint32_t k;

	for (k = 0; k < n && r[k].hdr.type == LB_REC_CALL; k++) {
		uint64_t t0 = r[k].t0, t1 = r[k].t1;

		t1 = t1 > t0 ? t1 : t0;
		if (!t0)
			continue;
		lo = t0 < lo ? t0 : lo;
		hi = t1 > hi ? t1 : hi;
	}
	sp->lo = lo;
	sp->hi = hi;
	return k;
}

/*
 * The records of block B of thread T for lbt_each_raw (cursor_fill's
 * walk), handed over in runs of consecutive committed slots of one
 * window.
 */
static int each_raw_block(struct lbt_file *f, struct lbt_thread *t,
			  struct lbt_block *b, struct lbt_chunk *ch,
			  lbt_raw_fn fn, void *arg)
{
	uint32_t pos, k, n, run;
	int rc;

	for (pos = 0; pos < b->npos; pos += n) {
		uint32_t s = lbt_pos_slot(b, pos);
		const struct lb_trace_rec *r = lbt_slot(f, ch, b, s);

		/* the window never crosses a ring's wrap */
		n = ch->first + ch->n - s;
		if (n > b->npos - pos)
			n = b->npos - pos;
		for (k = 0; k < n; k += run) {
			if (!r[k].hdr.type) {
				run = 1;
				/* the commit rule: a plain block ends here */
				if (b->flags & LB_BLK_RING)
					continue;
				b->npos = pos + k;
				return 0;
			}
			run = f->lazy_sc
				  ? lbt_scan_run(f, f->lazy_sc, t, &r[k], n - k,
						 lbt_slot_off(b, s + k))
				  : lbt_run_len(&r[k], n - k);
			if ((rc = fn(arg, f, &r[k], run)))
				return rc;
		}
	}
	return 0;
}

/* (qsort) blocks by offset */
static int cmp_block_off(const void *a, const void *b)
{
	const struct lbt_block *x = *(struct lbt_block *const *)a;
	const struct lbt_block *y = *(struct lbt_block *const *)b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * A walk of F's blocks in the order of the file that keeps each thread's
 * own: o, the blocks sorted by offset; per block its thread (thr) and
 * whether the walk passed it early (late: a block its thread wrote
 * before it lies further on, as when the writer's helper copied two
 * blocks into place in the other order); per thread its next position.
 */
struct walk {
	struct lbt_block **o;
	uint32_t *thr;
	uint8_t *late;
	uint32_t *next;
};

static void walk_free(struct walk *w)
{
	free(w->o);
	free(w->thr);
	free(w->late);
	free(w->next);
}

/* 0, or -1 (out of memory: w freed). */
static int walk_init(struct walk *w, const struct lbt_file *f)
{
	uint32_t i, j, n = 0;

	w->o = malloc(f->nblocks * sizeof(*w->o) + 1);
	w->thr = malloc(f->nblocks * sizeof(*w->thr) + 1);
	w->late = calloc(f->nblocks + 1, 1);
	w->next = calloc(f->nthreads + 1, sizeof(*w->next));
	if (!w->o || !w->thr || !w->late || !w->next) {
		walk_free(w);
		return -1;
	}
	for (i = 0; i < f->nthreads; i++)
		for (j = 0; j < f->threads[i].nblocks; j++) {
			w->o[n] = &f->blocks[f->threads[i].first_block + j];
			w->thr[w->o[n++] - f->blocks] = i;
		}
	qsort(w->o, n, sizeof(*w->o), cmp_block_off);
	return 0;
}

/*
 * The records of every thread of F: in the order of the file, so that
 * the reads are long (LBT_READ_AHEAD; a multi-thread trace's blocks
 * interleave), a block that comes before its thread's previous one held
 * back until that one is done; so each thread's records come in its own
 * order, as the scan needs (a crash's frames may go on in the thread's
 * next block).  Out of memory: thread by thread.
 */
static int each_raw_file(struct lbt_file *f, struct lbt_chunk *ch,
			 lbt_raw_fn fn, void *arg)
{
	struct walk w;
	uint32_t i, j, k;
	int rc = 0;

	ch->b = NULL; /* windows are per file */
	if (walk_init(&w, f)) {
		ch->ahead = 0; /* would read other threads' blocks */
		for (i = 0; i < f->nthreads && !rc; i++) {
			struct lbt_thread *t = &f->threads[i];

			for (j = 0; j < t->nblocks && !rc; j++)
				rc = each_raw_block(f, t,
						    &f->blocks[t->first_block + j],
						    ch, fn, arg);
		}
		return rc;
	}
	ch->ahead = f->mem ? 0 : LBT_READ_AHEAD;
	if (f->lazy_sc)
		f->lazy_sc->file_order = 1;
	for (i = 0; i < f->nblocks && !rc; i++) {
		uint32_t b = (uint32_t)(w.o[i] - f->blocks), ti = w.thr[b];
		struct lbt_thread *t = &f->threads[ti];

		if (b - t->first_block != w.next[ti]) {
			w.late[b] = 1;
			continue;
		}
		do {
			k = t->first_block + w.next[ti]++;
			rc = each_raw_block(f, t, &f->blocks[k], ch, fn, arg);
		} while (!rc && w.next[ti] < t->nblocks &&
			 w.late[t->first_block + w.next[ti]]);
	}
	walk_free(&w);
	return rc;
}

int lbt_each_raw(struct lbt_set *set, lbt_raw_fn fn, void *arg)
{
	struct lbt_chunk ch = { 0 };
	int i, rc = 0;

	lbt_free_cursors(set);
	set->started = 0; /* a later lbt_next() starts over */
	for (i = 0; i < set->nfiles; i++) {
		struct lbt_file *f = set->files[i];

		if (f->lazy_sc) {
			lbt_scan_abort(f, f->lazy_sc);
			f->lazy_sc = NULL;
		}
		if (f->scanned)
			continue;
		if (set->lazy)
			f->lazy_sc = lbt_scan_begin(f);
		if (!f->lazy_sc)
			lbt_ensure_scanned(f);
	}
	ch.cap = 1024;
	for (i = 0; i < set->nfiles && !rc; i++)
		rc = each_raw_file(set->files[i], &ch, fn, arg);
	lbt_chunk_free(&ch);
	if (rc) {
		for (i = 0; i < set->nfiles; i++) {
			struct lbt_file *f = set->files[i];

			if (f->lazy_sc) {
				lbt_scan_abort(f, f->lazy_sc);
				f->lazy_sc = NULL;
			}
		}
		return rc;
	}
	finish_pass(set);
	return 0;
}

/* Host-function and callback launches carry a function, not a kernel. */
static int host_fn_api(int api)
{
	unsigned role = api >= 0 ? lb_api_info[api].role : LB_ROLE_NONE;

	return role == LB_ROLE_HOST_FN || role == LB_ROLE_CALLBACK;
}

int lbt_api_has_kernel(int api)
{
	return api >= 0 && lb_api_info[api].kind == LB_KIND_LAUNCH &&
	       !host_fn_api(api) &&
	       lb_api_info[api].role != LB_ROLE_GRAPH_LAUNCH;
}

int lbt_api_folds(int api)
{
	return api >= 0 && lb_api_info[api].role == LB_ROLE_DEVICE_GET;
}

uint32_t lbt_raw_folded(int api, const struct lb_trace_rec *r)
{
	uint32_t n;

	if (r->hdr.type != LB_REC_CALL || !lbt_api_folds(api) || !r->t1 ||
	    (r->hdr.flags & LB_RF_INFLIGHT))
		return 0;
	/* each folded call ends a tick or more after the one before: a
	 * count past that, or past the writer's bound, is not believed */
	n = (uint32_t)(r->a[0] >> 32);
	if (n > LB_FOLD_MAX || r->a[2] < r->t1 || r->a[2] - r->t1 < n)
		return 0;
	return n;
}

int lbt_api_is_query(int api)
{
	return api >= 0 && (lb_api_info[api].role == LB_ROLE_STREAM_QUERY ||
			    lb_api_info[api].role == LB_ROLE_EVENT_QUERY);
}

void lbt_rec_launch(const struct lbt_rec *r, struct lbt_launch *l)
{
	const struct lb_trace_rec *x = r->raw;

	memset(l, 0, sizeof(*l));
	if (host_fn_api(r->api)) {
		l->fn = x->a[0];
	} else {
		l->kernel_sid = (uint32_t)x->a[0];
		l->shmem = (uint32_t)(x->a[0] >> 32);
	}
	l->grid[0] = (uint32_t)x->a[1];
	l->grid[1] = (uint32_t)(x->a[1] >> 32);
	l->grid[2] = (uint16_t)x->a[2];
	l->block[0] = (uint16_t)(x->a[2] >> 16);
	l->block[1] = (uint16_t)(x->a[2] >> 32);
	l->block[2] = (uint16_t)(x->a[2] >> 48);
}

const char *lbt_rec_kernel(const struct lbt_rec *r, int demangled)
{
	uint32_t sid = (uint32_t)r->raw->a[0];

	if (r->type != LB_REC_CALL || !sid || !lbt_api_has_kernel(r->api))
		return NULL;
	return demangled ? lbt_string_demangled(r->file, sid)
			 : lbt_string(r->file, sid);
}
