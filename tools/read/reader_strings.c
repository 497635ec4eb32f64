/*
 * reader_strings.c - the second look at a file at open: interned strings
 * (kernel names, long frame names) assembled from their parts, crash
 * records with the frames that follow them, thread names, and the record
 * counts and time span the commands print.
 *
 * Strings are gathered before any record is shown because a call may use
 * a string that another thread wrote, or (in a ring) one whose record
 * comes later in the file.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "read/reader_priv.h"

/* libstdc++'s demangler; declared here to keep the tool plain C. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
			    int *status);

/* A string part found by the scan. */
struct part_ref {
	uint32_t id;
	uint16_t part, parts;
	uint64_t off; /* file order, for first-wins duplicates */
	char text[48];
};

/* A frame before its name is resolved. */
struct frame_raw {
	char head[33];
	uint32_t sid;
};

static int cmp_part(const void *a, const void *b)
{
	const struct part_ref *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->part != y->part)
		return x->part < y->part ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int cmp_string(const void *a, const void *b)
{
	const struct lbt_string *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_frame(const void *a, const void *b)
{
	const struct lbt_frame *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* The 48 text bytes of a STRING record, in field order. */
static void string_text(const struct lb_trace_rec *r, char out[48])
{
	memcpy(out, &r->t0, 32); /* t0, t1, stream, stream_used */
	memcpy(out + 32, &r->a[1], 16);
}

/* Assembles the sorted parts into f->strings. */
static int assemble(struct lbt_file *f, struct lbt_scan *sc)
{
	size_t i = 0, j;

	f->strings = calloc(sc->nparts ? sc->nparts : 1, sizeof(*f->strings));
	if (!f->strings)
		return -1;
	while (i < sc->nparts) {
		uint32_t id = sc->parts[i].id, want = 0;
		size_t len = 0;
		char *t = malloc(LBT_MAX_STRING + 1);

		if (!t)
			return -1;
		/* parts 0, 1, ... in order; stop at a gap (lost part) */
		for (j = i; j < sc->nparts && sc->parts[j].id == id; j++) {
			if (sc->parts[j].part != want)
				continue; /* duplicate or after a gap */
			if (len + 48 > LBT_MAX_STRING)
				break;
			memcpy(t + len, sc->parts[j].text, 48);
			len += 48;
			want++;
		}
		while (j < sc->nparts && sc->parts[j].id == id)
			j++;
		t[len] = 0;
		if (!want) {
			free(t); /* part 0 is missing: no usable text */
		} else {
			f->strings[f->nstrings].id = id;
			f->strings[f->nstrings].text = t;
			f->nstrings++;
		}
		i = j;
	}
	qsort(f->strings, f->nstrings, sizeof(*f->strings), cmp_string);
	return 0;
}

static struct lbt_string *find_string(const struct lbt_file *f, uint32_t id)
{
	size_t lo = 0, hi = f->nstrings;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->strings[mid].id == id)
			return &f->strings[mid];
		if (f->strings[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *lbt_string(const struct lbt_file *f, uint32_t id)
{
	struct lbt_string *s;

	lbt_ensure_scanned(f);
	s = id ? find_string(f, id) : NULL;

	return s ? s->text : NULL;
}

/* Demangled copy in a new allocation, or NULL when not mangled / OOM. */
static char *demangle_dup(const char *name)
{
	char *d;
	int status = -1;

	if (!name || strncmp(name, "_Z", 2) != 0 || strlen(name) > 1024)
		return NULL;
	d = __cxa_demangle(name, NULL, NULL, &status);
	if (d && status) {
		free(d);
		d = NULL;
	}
	return d;
}

const char *lbt_string_demangled(const struct lbt_file *f, uint32_t id)
{
	struct lbt_string *s;

	lbt_ensure_scanned(f);
	s = id ? find_string(f, id) : NULL;

	if (!s)
		return NULL;
	if (!s->demangled) {
		/* the table is the file's private cache: filling it is not
		 * a change anyone can see */
		s->demangled = demangle_dup(s->text);
		if (!s->demangled)
			s->demangled = s->text;
	}
	return s->demangled;
}

static int add_part(struct lbt_scan *sc, const struct lb_trace_rec *r,
		    uint64_t off)
{
	struct part_ref *p;

	if (sc->nparts == sc->cap) {
		size_t nc = sc->cap ? sc->cap * 2 : 64;

		p = realloc(sc->parts, nc * sizeof(*p));
		if (!p)
			return -1;
		sc->parts = p;
		sc->cap = nc;
	}
	p = &sc->parts[sc->nparts++];
	p->id = (uint32_t)r->a[0];
	p->part = (uint16_t)(r->a[0] >> 32);
	p->parts = (uint16_t)(r->a[0] >> 48);
	p->off = off;
	string_text(r, p->text);
	return 0;
}

static int add_crash(struct lbt_file *f, struct lbt_scan *sc,
		     const struct lb_trace_rec *r, struct lbt_thread *t,
		     uint64_t off)
{
	struct lbt_crash *c;

	if (!f->crashes) {
		f->crashes = calloc(LBT_MAX_CRASHES, sizeof(*f->crashes));
		sc->raw = calloc(LBT_MAX_CRASHES, sizeof(*sc->raw));
		if (!f->crashes || !sc->raw)
			return -1;
	}
	if (f->ncrashes == LBT_MAX_CRASHES) {
		sc->crash_full = 1;
		return 1;
	}
	c = &f->crashes[f->ncrashes++];
	c->signo = r->hdr.ret;
	c->code = (int)(int64_t)r->a[0];
	c->addr = r->stream;
	/* a sent signal: its sender (older writers: si_addr, whose low
	 * 32 bits are si_pid) */
	c->sender = c->code <= 0 ? (uint32_t)r->stream_used : 0;
	c->tid = (uint32_t)r->a[1];
	if (!c->tid)
		c->tid = t->tid;
	c->thread = t;
	c->t_ticks = r->t0;
	c->off = off;
	c->nframes_said =
	    (uint32_t)(r->a[2] > UINT32_MAX ? UINT32_MAX : r->a[2]);
	return 0;
}

static int add_frame(struct lbt_file *f, struct lbt_scan *sc,
		     const struct lb_trace_rec *r, struct lbt_crash *c)
{
	size_t ci = c - f->crashes;
	struct lbt_frame *fr;
	struct frame_raw *raw;

	if (!c->frames) {
		c->frames = calloc(LBT_MAX_FRAMES, sizeof(*c->frames));
		sc->raw[ci] = calloc(LBT_MAX_FRAMES, sizeof(**sc->raw));
		if (!c->frames || !sc->raw[ci])
			return -1;
	}
	if (c->nframes == LBT_MAX_FRAMES)
		return 0;
	raw = &sc->raw[ci][c->nframes];
	fr = &c->frames[c->nframes++];
	fr->index = (uint32_t)r->a[0];
	fr->pc = r->stream;
	fr->offset = r->stream_used;
	fr->guess = !!(r->hdr.flags & LB_FF_GUESS);
	memcpy(raw->head, &r->t0, 16); /* t0, t1 */
	memcpy(raw->head + 16, &r->a[1], 16);
	raw->head[32] = 0;
	raw->sid = (uint32_t)(r->a[0] >> 32);
	return 0;
}

/*
 * Frame names: the first 32 bytes in the frame record, the rest in a
 * string.  The header says the name "continues" in the string; a string
 * that already starts with the first 32 bytes is taken as the whole name,
 * so either reading of the writer works.
 */
static int name_frames(struct lbt_file *f, struct lbt_scan *sc)
{
	uint32_t ci, i;

	if (!sc->raw)
		return 0; /* no crash */
	for (ci = 0; ci < f->ncrashes; ci++) {
		struct lbt_crash *c = &f->crashes[ci];

		for (i = 0; i < c->nframes; i++) {
			struct frame_raw *raw = &sc->raw[ci][i];
			const char *rest = lbt_string(f, raw->sid);
			const char *pre = raw->head;
			size_t hl = strlen(raw->head), rl;
			char *name, *d;

			if (!rest)
				rest = "";
			else if (!strncmp(rest, raw->head, hl))
				pre = "",
				hl = 0; /* the string is the whole name */
			rl = strlen(rest);
			name = malloc(hl + rl + 1);
			if (!name)
				return -1;
			memcpy(name, pre, hl);
			memcpy(name + hl, rest, rl);
			name[hl + rl] = 0;
			c->frames[i].name = name;
			d = demangle_dup(name);
			c->frames[i].demangled = d ? d : name;
		}
		if (c->nframes)
			qsort(c->frames, c->nframes, sizeof(*c->frames),
			      cmp_frame);
	}
	return 0;
}

struct lbt_scan *lbt_scan_begin(struct lbt_file *f)
{
	struct lbt_scan *sc = calloc(1, sizeof(*sc));
	uint32_t i;

	if (!sc)
		return NULL;
	sc->sp.lo = UINT64_MAX;
	sc->trecs = calloc(f->nthreads ? f->nthreads : 1, sizeof(*sc->trecs));
	sc->tcrash =
	    malloc((f->nthreads ? f->nthreads : 1) * sizeof(*sc->tcrash));
	if (!sc->trecs || !sc->tcrash) {
		free(sc->trecs);
		free(sc->tcrash);
		free(sc);
		return NULL;
	}
	for (i = 0; i < f->nthreads; i++)
		sc->tcrash[i] = -1;
	return sc;
}

void lbt_scan_other(struct lbt_file *f, struct lbt_scan *sc,
		    struct lbt_thread *t, const struct lb_trace_rec *r,
		    uint64_t off)
{
	int32_t *cur = &sc->tcrash[t - f->threads];
	int rc = 0;

	switch (r->hdr.type) {
	case LB_REC_STRING:
		rc = add_part(sc, r, off);
		break;
	case LB_REC_CRASH:
		rc = add_crash(f, sc, r, t, off);
		*cur = rc ? -1 : (int32_t)f->ncrashes - 1;
		rc = rc < 0 ? rc : 0;
		break;
	case LB_REC_FRAME:
		if (*cur >= 0)
			rc = add_frame(f, sc, r, &f->crashes[*cur]);
		break;
	case LB_REC_THREAD:
		if ((uint32_t)r->a[0])
			t->name_sid = (uint32_t)r->a[0];
		if (r->hdr.note == 1)
			t->exited = 1;
		break;
	}
	if (rc)
		sc->failed = 1;
}

static void scan_free(struct lbt_scan *sc)
{
	uint32_t i;

	if (sc->raw)
		for (i = 0; i < LBT_MAX_CRASHES; i++)
			free(sc->raw[i]);
	free(sc->raw);
	free(sc->parts);
	free(sc->trecs);
	free(sc->tcrash);
	free(sc);
}

void lbt_scan_abort(struct lbt_file *f, struct lbt_scan *sc)
{
	scan_free(sc);
	lbt_free_strings(f);
}

/*
 * A file-order scan's crashes in thread order, as a thread-order scan
 * lists them: by thread, each thread's in the order found (the walk keeps
 * each thread's order: lbt_each_raw); a stable sort.
 */
static void crashes_thread_order(struct lbt_file *f, struct lbt_scan *sc)
{
	uint32_t i, j;

	for (i = 1; i < f->ncrashes; i++) {
		struct lbt_crash c = f->crashes[i];
		struct frame_raw *raw = sc->raw[i];

		for (j = i; j > 0 && f->crashes[j - 1].thread > c.thread; j--) {
			f->crashes[j] = f->crashes[j - 1];
			sc->raw[j] = sc->raw[j - 1];
		}
		f->crashes[j] = c;
		sc->raw[j] = raw;
	}
}

int lbt_scan_end(struct lbt_file *f, struct lbt_scan *sc)
{
	uint32_t i;
	int rc = -1;

	if (sc->failed)
		goto out;
	if (sc->file_order && sc->crash_full) {
		/* which LBT_MAX_CRASHES are kept depends on the order */
		lbt_scan_abort(f, sc);
		return lbt_scan_strings(NULL, f);
	}
	if (sc->file_order)
		crashes_thread_order(f, sc);
	f->nrecords = 0;
	for (i = 0; i < f->nthreads; i++) {
		f->threads[i].nrecords = sc->trecs[i];
		f->nrecords += sc->trecs[i];
	}
	f->ncalls = sc->ncalls;
	if (sc->sp.lo <= sc->sp.hi) {
		f->first_t_ns = lbt_ticks_to_ns(f, sc->sp.lo) - f->origin_shift;
		f->last_t_ns = lbt_ticks_to_ns(f, sc->sp.hi) - f->origin_shift;
	}
	if (sc->nparts)
		qsort(sc->parts, sc->nparts, sizeof(*sc->parts), cmp_part);
	f->scanned = 1; /* from here on lookups use the table being built */
	if (assemble(f, sc) || name_frames(f, sc))
		goto out;
	rc = 0;
out:
	if (rc)
		lbt_free_strings(f);
	scan_free(sc);
	f->scanned = 1; /* even on failure: never scan in a loop */
	return rc;
}

/*
 * The whole scan at once: every committed record of every thread in
 * thread order; non-ring blocks end at their first empty slot (the
 * commit rule).
 */
int lbt_scan_strings(struct lbt_set *set, struct lbt_file *f)
{
	struct lbt_scan *sc = lbt_scan_begin(f);
	struct lbt_chunk ch = {0};
	uint32_t ti, bi, p;

	(void)set;
	if (!sc)
		return -1;
	for (ti = 0; ti < f->nthreads; ti++) {
		struct lbt_thread *t = &f->threads[ti];

		for (bi = 0; bi < t->nblocks; bi++) {
			struct lbt_block *b = &f->blocks[t->first_block + bi];

			for (p = 0; p < b->npos; p++) {
				uint32_t sl = lbt_pos_slot(b, p);
				const struct lb_trace_rec *r =
				    lbt_slot(f, &ch, b, sl);

				if (r->hdr.type)
					lbt_scan_one(f, sc, t, r,
						     lbt_slot_off(b, sl));
				else if (!(b->flags & LB_BLK_RING))
					b->npos = p;
			}
		}
	}
	lbt_chunk_free(&ch);
	return lbt_scan_end(f, sc);
}

void lbt_ensure_scanned(const struct lbt_file *cf)
{
	/* the scan fills the file's private tables, nothing callers see
	 * changes meaning: hence the cast */
	struct lbt_file *f = (struct lbt_file *)cf;

	if (f->scanned)
		return;
	if (f->lazy_sc) {
		lbt_scan_abort(f, f->lazy_sc);
		f->lazy_sc = NULL;
	}
	lbt_scan_strings(NULL, f);
}

void lbt_free_strings(struct lbt_file *f)
{
	uint32_t i, j;

	for (i = 0; i < f->nstrings; i++) {
		if (f->strings[i].demangled != f->strings[i].text)
			free(f->strings[i].demangled);
		free(f->strings[i].text);
	}
	free(f->strings);
	f->strings = NULL;
	f->nstrings = 0;
	for (i = 0; i < f->ncrashes; i++) {
		struct lbt_crash *c = &f->crashes[i];

		for (j = 0; c->frames && j < c->nframes; j++) {
			if (c->frames[j].demangled != c->frames[j].name)
				free((void *)c->frames[j].demangled);
			free((void *)c->frames[j].name);
		}
		free(c->frames);
	}
	free(f->crashes);
	f->crashes = NULL;
	f->ncrashes = 0;
}
