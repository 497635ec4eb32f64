/*
 * scan_test.c - the statistics' pass (lbt_each_raw) reads a file in the
 * file's order, its threads' blocks interleaved, and the scan rides along
 * (a lazy set, as `lbtrace summary` makes); the scan at open reads thread
 * by thread.  Both must find the same facts: counts, time span, thread
 * names, strings, and the crashes in the same order with the same frames
 * (a thread's frames may continue in its next block, after another
 * thread's block; past LBT_MAX_CRASHES which crashes are kept depends on
 * the order).
 *
 *   scan_test weave IN OUT       IN with its blocks reordered: the threads'
 *                                blocks taken in turn from the last thread
 *                                on, each thread's in its own order but
 *                                for its second and third, swapped
 *   scan_test crashes BASE OUT N BASE's header, then two threads of N
 *                                crashes each (3 frames, one named in a
 *                                string), woven
 *   scan_test compare FILE       exit 0 when both scans agree and the pass
 *                                handed FILE's records over in its order,
 *                                FILE read with pread, then from memory
 *   scan_test strided FILE       lbt_read_strided (the headers' reads at
 *                                open) gives FILE's bytes, zeros past its
 *                                end, through the ring and through pread
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/io_uring.h>
#include "lbshim/api.h"
#include "lbshim/trace_format.h"
#include "read/reader_priv.h"

#define BS 4096u

static int fails;

#define EXPECT(cond, ...)                                              \
	do {                                                           \
		if (!(cond)) {                                         \
			fprintf(stderr, "scan_test: " __VA_ARGS__);    \
			fputc('\n', stderr);                           \
			fails++;                                       \
		}                                                      \
	} while (0)

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(b = malloc(n + 1)) ||
	    fread(b, 1, n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

static void spill(const char *path, const void *b, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(b, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(2);
	}
}

struct blk {
	const struct lb_trace_block *h;
	size_t at; /* index in the file */
};

static int cmp_blk(const void *a, const void *b)
{
	const struct blk *x = a, *y = b;

	if (x->h->thread_index != y->h->thread_index)
		return x->h->thread_index < y->h->thread_index ? -1 : 1;
	if (x->h->ordinal != y->h->ordinal)
		return x->h->ordinal < y->h->ordinal ? -1 : 1;
	return x->at < y->at ? -1 : 1;
}

/* Writes B (LEN bytes) to OUT, its used blocks woven (see the top). */
static void weave(const unsigned char *b, size_t len, const char *out)
{
	size_t bs = ((const struct lb_trace_header *)b)->block_size;
	size_t nb = (len - LB_TRACE_HEADER_SIZE) / bs, i, n = 0, o, k, nt = 0;
	struct blk *v = calloc(nb + 1, sizeof(*v));
	size_t *place = calloc(nb + 1, sizeof(*place));
	size_t *first = calloc(nb + 2, sizeof(*first));
	size_t *at = calloc(nb + 1, sizeof(*at));
	unsigned char *w = malloc(len + 1);

	if (!v || !place || !first || !at || !w)
		exit(2);
	memcpy(w, b, len);
	/* block 0 (the crash block) and unused blocks stay where they are;
	 * the used ones' places are given out again */
	for (i = 1; i < nb; i++) {
		const struct lb_trace_block *h =
		    (const void *)(b + LB_TRACE_HEADER_SIZE + i * bs);

		if (h->magic == LB_BLOCK_MAGIC) {
			place[n] = i;
			v[n++] = (struct blk){ h, i };
		}
	}
	qsort(v, n, sizeof(*v), cmp_blk);
	for (i = 0; i < n; i++)
		if (!i || v[i].h->thread_index != v[i - 1].h->thread_index)
			first[nt++] = i;
	first[nt] = n;
	for (o = 0, k = 0; o < n; k++) {
		size_t t;

		for (t = nt; t-- > 0;)
			if (first[t] + k < first[t + 1])
				at[first[t] + k] = place[o++];
	}
	/* and each thread's second and third blocks trade places */
	for (k = 0; k < nt; k++) {
		if (first[k + 1] - first[k] >= 3) {
			o = at[first[k] + 1];
			at[first[k] + 1] = at[first[k] + 2];
			at[first[k] + 2] = o;
		}
	}
	for (i = 0; i < n; i++)
		memcpy(w + LB_TRACE_HEADER_SIZE + at[i] * bs, v[i].h, bs);
	spill(out, w, len);
	free(w);
	free(at);
	free(first);
	free(place);
	free(v);
}

/* Slot writer of one thread of the crashes trace. */
struct th {
	unsigned char *file;
	size_t *len;
	uint32_t tid, index;
	uint64_t ordinal;
	size_t blk; /* offset of the current block, 0 none */
	uint32_t pos;
};

static struct lb_trace_rec *next_slot(struct th *t)
{
	struct lb_trace_block *h;

	if (!t->blk || t->pos == lb_trace_slots(BS)) {
		if (t->blk)
			t->ordinal++;
		t->blk = *t->len;
		*t->len += BS;
		h = (void *)(t->file + t->blk);
		h->magic = LB_BLOCK_MAGIC;
		h->tid = t->tid;
		h->thread_index = t->index;
		h->ordinal = t->ordinal;
		h->first_seq = t->ordinal * lb_trace_slots(BS);
		snprintf(h->thread_name, sizeof(h->thread_name), "worker%u",
			 t->index);
		t->pos = 0;
	}
	return (struct lb_trace_rec *)(t->file + t->blk) + 1 + t->pos++;
}

/*
 * Two threads of N crashes each: three calls, the crash record, three
 * frames (the third's name goes on in a string): 8 records, so that
 * frames cross blocks of 63 slots (crash 7 into the second block, crash
 * 15 into the third).  Written thread 0 first, then woven.
 */
static void crashes(const unsigned char *base, const char *out, uint32_t n)
{
	size_t cap = LB_TRACE_HEADER_SIZE + 128 * BS, len;
	unsigned char *f = calloc(1, cap);
	struct lb_trace_header *h = (void *)f;
	uint64_t now = 2000000;
	uint32_t sid = 1, ti, k, j;

	if (!f)
		exit(2);
	memcpy(f, base, LB_TRACE_HEADER_SIZE);
	h->block_size = BS;
	h->flags |= LB_HDR_CRASHED;
	len = LB_TRACE_HEADER_SIZE + BS; /* block 0: the crash block, unused */
	for (ti = 0; ti < 2; ti++) {
		struct th t = { f, &len, 9000 + ti, ti, 0, 0, 0 };

		for (k = 0; k < n; k++) {
			struct lb_trace_rec *r;

			for (j = 0; j < 3; j++) {
				r = next_slot(&t);
				r->hdr.type = LB_REC_CALL;
				r->hdr.api = LB_ID_hipMalloc;
				r->t0 = now += 1000;
				r->t1 = now + 500;
				r->a[0] = 0x7000000 + k;
			}
			r = next_slot(&t);
			r->hdr.type = LB_REC_CRASH;
			r->hdr.ret = 11;
			r->hdr.note = 1;
			r->t0 = r->t1 = now += 1000;
			r->stream = r->stream_used = 0x10 * (k + 1);
			r->a[0] = 1;
			r->a[1] = t.tid;
			r->a[2] = 3;
			for (j = 0; j < 3; j++) {
				char head[32] = { 0 };
				uint32_t more = 0;

				if (j == 2) {
					/* "..._tail_<ti>_<k>" in a string */
					struct lb_trace_rec *s = next_slot(&t);
					char text[48] = { 0 };

					more = sid++;
					snprintf(text, sizeof(text),
						 "_tail_%u_%u", ti, k);
					s->hdr.type = LB_REC_STRING;
					s->a[0] = more | (uint64_t)1 << 48;
					memcpy(&s->t0, text, 32);
					memcpy(&s->a[1], text + 32, 16);
				}
				r = next_slot(&t);
				r->hdr.type = LB_REC_FRAME;
				r->stream = 0x401000 + 16 * j;
				r->stream_used = j;
				r->a[0] = j | (uint64_t)more << 32;
				snprintf(head, sizeof(head),
					 j == 2 ? "frame_%u_%u_%u_long_name_"
						"%032u"
						: "frame_%u_%u_%u",
					 ti, k, j, 0);
				memcpy(&r->t0, head, 16);
				memcpy(&r->a[1], head + 16, 16);
			}
		}
	}
	h->blocks_used = (len - LB_TRACE_HEADER_SIZE) / BS;
	weave(f, len, out);
	free(f);
}

static int count_raw(void *arg, const struct lbt_file *f,
		     const struct lb_trace_rec *r, uint32_t n)
{
	uint64_t *c = arg;

	(void)f;
	if (!c[1])
		c[2] = r->t0; /* the first record handed over */
	c[1] += n;
	c[0]++;
	return 0;
}

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void compare_crash(const struct lbt_file *e, const struct lbt_file *l,
			  uint32_t i)
{
	const struct lbt_crash *x = &e->crashes[i], *y = &l->crashes[i];
	uint32_t j;

	EXPECT(x->signo == y->signo && x->code == y->code &&
		   x->addr == y->addr && x->tid == y->tid &&
		   x->t_ticks == y->t_ticks && x->off == y->off &&
		   x->thread - e->threads == y->thread - l->threads &&
		   x->nframes_said == y->nframes_said,
	       "crash %u: at byte %llu (open's scan), %llu (the pass's)", i,
	       (unsigned long long)x->off, (unsigned long long)y->off);
	EXPECT(x->nframes == y->nframes, "crash %u: %u frames, %u", i,
	       x->nframes, y->nframes);
	for (j = 0; j < x->nframes && j < y->nframes; j++)
		EXPECT(x->frames[j].pc == y->frames[j].pc &&
			   same(x->frames[j].name, y->frames[j].name),
		       "crash %u frame %u: %s, %s", i, j, x->frames[j].name,
		       y->frames[j].name);
}

/*
 * The scan at open (thread order) against the pass's (file order), the
 * file read with pread, or from memory (MEM, LEN bytes) if MEM.
 */
static void compare(const char *path, const void *mem, size_t len)
{
	struct lbt_set *se = lbt_set_new(stderr), *sl = lbt_set_new(stderr);
	const struct lbt_file *e, *l;
	uint64_t c[3] = { 0, 0, 0 }, first_t0 = 0;
	uint32_t i, id;

	if (!se || !sl)
		exit(2);
	lbt_set_lazy(sl, 1);
	if (lbt_set_add(se, path) ||
	    (mem ? lbt_set_add_mem(sl, path, mem, len) : lbt_set_add(sl, path)))
		exit(2);
	e = lbt_set_file(se, 0);
	l = lbt_set_file(sl, 0);
	lbt_string(e, 1); /* open's scan, at once */
	EXPECT(!lbt_each_raw(sl, count_raw, c), "lbt_each_raw failed");
	EXPECT(l->scanned, "the pass left the file unscanned");
	/* the pass began with the file's first used block */
	for (i = 0; i < l->nblocks; i++) {
		const struct lbt_block *bl = &l->blocks[i];
		struct lb_trace_rec r;
		FILE *f;

		if (bl->off != LB_TRACE_HEADER_SIZE + l->hdr.block_size)
			continue;
		f = fopen(path, "rb");
		if (!f || fseek(f, (long)lbt_slot_off(bl, bl->start), SEEK_SET) ||
		    fread(&r, sizeof(r), 1, f) != 1)
			exit(2);
		fclose(f);
		first_t0 = r.t0;
		EXPECT(c[2] == first_t0,
		       "the pass began with t0 %llu, the file's first block "
		       "with %llu",
		       (unsigned long long)c[2], (unsigned long long)first_t0);
	}
	EXPECT(first_t0, "no block at the file's first place");
	EXPECT(c[1] == e->nrecords, "%llu records handed over, %llu in the file",
	       (unsigned long long)c[1], (unsigned long long)e->nrecords);
	EXPECT(e->nrecords == l->nrecords && e->ncalls == l->ncalls,
	       "records %llu / %llu, calls %llu / %llu",
	       (unsigned long long)e->nrecords, (unsigned long long)l->nrecords,
	       (unsigned long long)e->ncalls, (unsigned long long)l->ncalls);
	EXPECT(e->first_t_ns == l->first_t_ns && e->last_t_ns == l->last_t_ns,
	       "span %lld..%lld, %lld..%lld", (long long)e->first_t_ns,
	       (long long)e->last_t_ns, (long long)l->first_t_ns,
	       (long long)l->last_t_ns);
	EXPECT(e->nthreads == l->nthreads, "threads %u, %u", e->nthreads,
	       l->nthreads);
	for (i = 0; i < e->nthreads && i < l->nthreads; i++)
		EXPECT(e->threads[i].nrecords == l->threads[i].nrecords &&
			   e->threads[i].exited == l->threads[i].exited &&
			   same(lbt_thread_name(e, &e->threads[i]),
				lbt_thread_name(l, &l->threads[i])),
		       "thread %u differs", i);
	EXPECT(e->nstrings == l->nstrings, "strings %u, %u", e->nstrings,
	       l->nstrings);
	for (id = 0; id < e->nstrings + 8; id++)
		EXPECT(same(lbt_string(e, id), lbt_string(l, id)),
		       "string %u: %s, %s", id, lbt_string(e, id),
		       lbt_string(l, id));
	EXPECT(e->ncrashes == l->ncrashes, "crashes %u, %u", e->ncrashes,
	       l->ncrashes);
	for (i = 0; i < e->ncrashes && i < l->ncrashes; i++)
		compare_crash(e, l, i);
	lbt_set_free(se);
	lbt_set_free(sl);
}

/* FILE's bytes by stdio, zeros past its end: what both ways must give. */
static void expect_pieces(const unsigned char *b, size_t flen, uint64_t first,
			  uint64_t step, size_t n, size_t len,
			  const unsigned char *got, const char *how)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < len; j++) {
			uint64_t at = first + i * step + j;
			unsigned char want = at < flen ? b[at] : 0;

			if (got[i * len + j] != want) {
				EXPECT(0, "%s: piece %zu byte %zu: %u, not %u",
				       how, i, j, got[i * len + j], want);
				return;
			}
		}
}

static void strided(const char *path)
{
	size_t flen, n, len = 96;
	unsigned char *b = slurp(path, &flen), *got;
	uint64_t step = 4096 + 64, first = 100;
	int fd = open(path, O_RDONLY), rc, r;
	struct io_uring_params p;

	/* 300 pieces past the end too, and a count that is no multiple of
	 * the ring's 256 */
	n = (flen - first) / step + 300;
	got = malloc(n * len);
	if (fd < 0 || !got)
		exit(2);
	memset(&p, 0, sizeof(p));
	r = (int)syscall(__NR_io_uring_setup, 4, &p);
	if (r >= 0)
		close(r);
	else
		printf("scan_test: no io_uring here: pread only\n");
	memset(got, 0xa5, n * len);
	rc = lbt_read_strided(fd, first, step, n, len, got, 1);
	EXPECT(rc == (r >= 0), "the ring %s used (%d)", r >= 0 ? "not" : "", rc);
	expect_pieces(b, flen, first, step, n, len, got, "ring");
	memset(got, 0xa5, n * len);
	EXPECT(lbt_read_strided(fd, first, step, n, len, got, 0) == 0,
	       "pread said it used the ring");
	expect_pieces(b, flen, first, step, n, len, got, "pread");
	/* fewer than 64 pieces: pread */
	memset(got, 0xa5, n * len);
	EXPECT(lbt_read_strided(fd, first, step, 10, len, got, 1) == 0,
	       "10 pieces through the ring");
	expect_pieces(b, flen, first, step, 10, len, got, "few");
	close(fd);
	free(got);
	free(b);
}

int main(int argc, char **argv)
{
	unsigned char *b;
	size_t len;

	if (argc == 4 && !strcmp(argv[1], "weave")) {
		b = slurp(argv[2], &len);
		weave(b, len, argv[3]);
	} else if (argc == 5 && !strcmp(argv[1], "crashes") &&
		   atoi(argv[4]) > 0 && atoi(argv[4]) < 100) {
		b = slurp(argv[2], &len);
		crashes(b, argv[3], (uint32_t)atoi(argv[4]));
	} else if (argc == 3 && !strcmp(argv[1], "strided")) {
		strided(argv[2]);
		return fails ? 1 : 0;
	} else if (argc == 3 && !strcmp(argv[1], "compare")) {
		compare(argv[2], NULL, 0);
		b = slurp(argv[2], &len);
		compare(argv[2], b, len);
		free(b);
		return fails ? 1 : 0;
	} else {
		fputs("usage: scan_test weave IN OUT | crashes BASE OUT N | "
		      "compare FILE | strided FILE\n",
		      stderr);
		return 2;
	}
	free(b);
	return 0;
}
