/*
 * summary.c - `lbtrace summary`: per API and per kernel, calls, errors,
 * total, mean, p50, p99 and max of the calls' durations, sorted by total
 * time.  Streams through the records once, keeping one quantile sketch
 * per API and per kernel, so memory does not grow with the trace.
 */
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "format/fmt.h"
#include "format/runtime.h"
#include "cmd/summary.h"
#include "lbshim/names.h"
#include "cmd/sketch.h"
#include "cmd/strhash.h"
#include "format/kinfo.h"

/* distinct kernels per file; more are not counted */
#define MAX_KERNELS 65536

struct stat_row {
	const char *name; /* owned by a file or static */
	uint64_t errors;
	struct lbt_sketch sk;
	const struct lbt_kinfo *ki; /* kernels: facts of its code object */
};

/* Rows found by name: open addressing, size a power of two. */
struct table {
	struct stat_row *rows;
	size_t n, cap;
	uint32_t *slot; /* row index + 1, 0 = empty */
	size_t nslot;
	int full;
};

/*
 * Kernels are counted by (file, string id) while reading, and named only
 * at the end: looking a name up would make a lazy set scan the file
 * twice.  Rows of the same name (several files) are merged then.
 */
struct kernel_raw {
	uint32_t sid;
	uint64_t errors;
	struct lbt_sketch sk;
};

/* What the hot loop needs of one writer's API id (see sum_raw). */
struct api_ent {
	int32_t row;	/* API row, -1 = not looked up */
	uint8_t launch; /* a kernel launch (not a host function's) */
	uint8_t query;	/* "not ready" is an answer, not an error */
	uint8_t fold;	/* calls may be folded into its records */
};

/* Per-file shortcut from the writer's API id / kernel string to a row. */
struct file_cache {
	struct api_ent *api; /* napi entries */
	uint64_t folded;     /* calls folded into records, read here */
	struct kernel_raw *kr; /* open addressing on sid (nonzero) */
	size_t nkr, capkr;
};

struct summary {
	struct lbt_set *set;
	struct lbt_out *o;
	struct table apis, kernels;
	struct file_cache *fc;
	struct lbt_kinfo *ki; /* KINFO records seen, first of a name kept */
	size_t nki, capki;
	uint64_t lost, crashes, records, in_flight;
	uint64_t s0_ordered, s0_hazards, s0_narrowed; /* stream0's marks */
	int oom;
};

static int grow(struct table *t)
{
	size_t nc = t->cap ? t->cap * 2 : 64, i;
	struct stat_row *r = realloc(t->rows, nc * sizeof(*r));
	uint32_t *sl;

	if (!r)
		return -1;
	t->rows = r;
	t->cap = nc;
	sl = calloc(nc * 2, sizeof(*sl));
	if (!sl)
		return -1;
	free(t->slot);
	t->slot = sl;
	t->nslot = nc * 2;
	for (i = 0; i < t->n; i++) {
		size_t h = lbt_str_hash(t->rows[i].name) & (t->nslot - 1);

		while (t->slot[h])
			h = (h + 1) & (t->nslot - 1);
		t->slot[h] = i + 1;
	}
	return 0;
}

/* Row of NAME, made if new; -1 when out of memory or full. */
static int32_t row_of(struct table *t, const char *name, size_t limit)
{
	size_t h;

	if (t->slot) {
		h = lbt_str_hash(name) & (t->nslot - 1);
		for (; t->slot[h]; h = (h + 1) & (t->nslot - 1))
			if (!strcmp(t->rows[t->slot[h] - 1].name, name))
				return t->slot[h] - 1;
	}
	if (t->n >= limit) {
		t->full = 1;
		return -1;
	}
	if ((t->n == t->cap && grow(t)) || !t->slot)
		return -1;
	h = lbt_str_hash(name) & (t->nslot - 1);
	while (t->slot[h])
		h = (h + 1) & (t->nslot - 1);
	memset(&t->rows[t->n], 0, sizeof(t->rows[t->n]));
	t->rows[t->n].name = name;
	t->slot[h] = t->n + 1;
	return t->n++;
}

/* Keeps the facts of a KINFO record (the first of each name counts). */
static void note_kinfo(struct summary *s, const struct lbt_rec *r)
{
	struct lbt_kinfo k;

	if (!lbt_kinfo_of(r, &k) || s->nki >= MAX_KERNELS)
		return;
	if (s->nki == s->capki) {
		size_t nc = s->capki ? s->capki * 2 : 16;
		struct lbt_kinfo *n = realloc(s->ki, nc * sizeof(*n));

		if (!n) {
			s->oom = 1;
			return;
		}
		s->ki = n;
		s->capki = nc;
	}
	s->ki[s->nki++] = k;
}

/* Gives kernel rows their facts, by demangled name; 1 if any has. */
static int attach_kinfo(struct summary *s)
{
	size_t i, h;
	int any = 0;

	for (i = 0; i < s->nki && s->kernels.slot; i++) {
		const char *name = lbt_kinfo_name(&s->ki[i]);

		if (!name)
			continue;
		h = lbt_str_hash(name) & (s->kernels.nslot - 1);
		for (; s->kernels.slot[h]; h = (h + 1) & (s->kernels.nslot - 1)) {
			struct stat_row *row =
			    &s->kernels.rows[s->kernels.slot[h] - 1];

			if (strcmp(row->name, name) != 0)
				continue;
			if (!row->ki)
				row->ki = &s->ki[i];
			any = 1;
			break;
		}
	}
	return any;
}

static void *sum_begin(struct lbt_set *set, struct lbt_out *o,
		       const struct lbt_opts *opt)
{
	struct summary *s = calloc(1, sizeof(*s));
	int i, n = lbt_set_nfiles(set);

	(void)opt;
	if (!s)
		return NULL;
	s->set = set;
	s->o = o;
	s->fc = calloc(n ? n : 1, sizeof(*s->fc));
	if (!s->fc) {
		free(s);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		const struct lbt_file *f = lbt_set_file(set, i);
		uint32_t j;

		s->fc[i].api =
		    malloc((f->napi ? f->napi : 1) * sizeof(*s->fc[i].api));
		if (!s->fc[i].api) {
			s->oom = 1;
			continue;
		}
		for (j = 0; j < f->napi; j++) {
			int api = f->api_map[j];
			struct api_ent *e = &s->fc[i].api[j];

			e->row = -1;
			e->launch = lbt_api_has_kernel(api);
			e->query = lbt_api_is_query(api);
			e->fold = (uint8_t)lbt_api_folds(api);
		}
	}
	return s;
}

static void add(struct summary *s, struct stat_row *row,
		const struct lbt_rec *r)
{
	if (lbt_rec_is_error(r))
		row->errors++;
	if (lbt_sketch_add(&row->sk, r->dur_ns < 0 ? 0 : r->dur_ns))
		s->oom = 1;
}

/*
 * Slot hash of a string id: the high half of a 64-bit product, so that
 * ids that differ only in high bits do not share a chain.
 */
static size_t sid_hash(uint32_t sid)
{
	return (size_t)(((uint64_t)sid * 0x9e3779b97f4a7c15ull) >> 32);
}

/* Raw kernel row of SID in FC, made if new; -1 when full or OOM. */
static int32_t kernel_row_find(struct file_cache *fc, uint32_t sid)
{
	size_t h, i;

	if (fc->nkr * 2 >= fc->capkr) {
		size_t nc = fc->capkr ? fc->capkr * 2 : 64;
		struct kernel_raw *n;

		if (fc->nkr >= MAX_KERNELS)
			goto find; /* full: only known kernels count */
		n = calloc(nc, sizeof(*n));
		if (!n)
			goto find;
		for (i = 0; i < fc->capkr; i++) {
			if (!fc->kr[i].sid)
				continue;
			h = sid_hash(fc->kr[i].sid) & (nc - 1);
			while (n[h].sid)
				h = (h + 1) & (nc - 1);
			n[h] = fc->kr[i];
		}
		free(fc->kr);
		fc->kr = n;
		fc->capkr = nc;
	}
find:
	if (!fc->capkr)
		return -1;
	h = sid_hash(sid) & (fc->capkr - 1);
	for (i = 0; i < fc->capkr; i++, h = (h + 1) & (fc->capkr - 1)) {
		if (fc->kr[h].sid == sid)
			return h;
		if (!fc->kr[h].sid) {
			if (fc->nkr * 2 >= fc->capkr)
				return -1;
			fc->kr[h].sid = sid;
			fc->nkr++;
			return h;
		}
	}
	return -1;
}

/*
 * kernel_row_find() with its first probe inline: a kernel already
 * counted is found there most of the time.  SID is never 0.
 */
static inline int32_t kernel_row(struct file_cache *fc, uint32_t sid)
{
	size_t h;

	if (fc->capkr) {
		h = sid_hash(sid) & (fc->capkr - 1);
		if (fc->kr[h].sid == sid)
			return h;
	}
	return kernel_row_find(fc, sid);
}

/* stream0's marks of a call record (LB_RF_ORDERED, _HAZARD, _NARROWED). */
static void sum_s0(struct summary *s, unsigned flags)
{
	s->s0_ordered += !!(flags & LB_RF_ORDERED);
	s->s0_hazards += !!(flags & LB_RF_HAZARD);
	s->s0_narrowed += !!(flags & LB_RF_NARROWED);
}

static void sum_record(void *p, const struct lbt_rec *r)
{
	struct summary *s = p;
	struct file_cache *fc = &s->fc[r->file->index];
	struct lbt_launch l;
	int32_t row;
	uint32_t sid;

	s->records++;
	fc->folded += (uint64_t)r->folded;
	if (r->type == LB_REC_KINFO)
		note_kinfo(s, r);
	if (r->type == LB_REC_LOST)
		s->lost += r->raw->a[0];
	if (r->type == LB_REC_CRASH)
		s->crashes++;
	if (r->type != LB_REC_CALL)
		return;
	sum_s0(s, r->flags);
	if (r->in_flight) {
		s->in_flight++; /* not a whole call: no duration */
		return;
	}
	if (r->api_raw < r->file->napi && fc->api) {
		row = fc->api[r->api_raw].row;
		if (row < 0)
			row = fc->api[r->api_raw].row =
			    row_of(&s->apis, r->api_name, SIZE_MAX);
	} else {
		row = row_of(&s->apis, r->api_name, SIZE_MAX);
	}
	if (row >= 0)
		add(s, &s->apis.rows[row], r);
	if (r->kind != LB_KIND_LAUNCH)
		return;
	lbt_rec_launch(r, &l);
	if (!l.kernel_sid)
		return; /* host function, callback, configuration */
	sid = l.kernel_sid;
	row = kernel_row(fc, sid);
	if (row < 0) {
		s->kernels.full = 1;
		return;
	}
	if (lbt_rec_is_error(r))
		fc->kr[row].errors++;
	if (lbt_sketch_add(&fc->kr[row].sk, r->dur_ns < 0 ? 0 : r->dur_ns))
		s->oom = 1;
}

/*
 * sum_record() from the raw record (lbt_each_raw): the same figures
 * without decoding each record, which costs more than the statistic.
 */
static void sum_raw_one(struct summary *s, const struct lbt_file *f,
			struct file_cache *fc, const struct lb_trace_rec *x)
{
	uint32_t raw = x->hdr.api, sid;
	int api = raw < f->napi ? f->api_map[raw] : -1;
	int64_t dur;
	int32_t row;
	int err;

	if (x->hdr.type != LB_REC_CALL) {
		/*
		 * Rare: what sum_record() reads of them (type, note, the
		 * raw record, its file), decoded here, and given to it.
		 */
		struct lbt_rec r = { .file = f, .raw = x, .type = x->hdr.type,
				     .flags = x->hdr.flags,
				     .note = x->hdr.note,
				     .device = x->hdr.device,
				     .ret = x->hdr.ret, .api = -1,
				     .api_raw = x->hdr.api, .kind = -1 };

		if (x->hdr.type == LB_REC_STRING ||
		    x->hdr.type == LB_REC_FRAME)
			return; /* not a record of lbt_next() */
		sum_record(s, &r);
		return;
	}
	s->records++;
	sum_s0(s, x->hdr.flags);
	if (!x->t1 || (x->hdr.flags & LB_RF_INFLIGHT)) {
		s->in_flight++; /* not a whole call: no duration */
		return;
	}
	if (raw < f->napi && fc->api) {
		row = fc->api[raw].row;
		if (row < 0)
			row = fc->api[raw].row = row_of(
				&s->apis, lbt_raw_api_name(s->set, f, raw),
				SIZE_MAX);
	} else {
		row = row_of(&s->apis, lbt_raw_api_name(s->set, f, raw),
			     SIZE_MAX);
	}
	dur = lbt_raw_dur_ns(f, x);
	/* lbt_rec_is_error(): "not ready" is how queries answer */
	err = x->hdr.ret && !(x->hdr.ret == 600 && lbt_api_is_query(api));
	if (row >= 0) {
		uint32_t nf = lbt_raw_folded(api, x), k;
		int64_t d = nf ? lbt_dticks_ns(f, x->a[1] / nf) : 0;

		fc->folded += nf;
		s->apis.rows[row].errors += err;
		if (lbt_sketch_add(&s->apis.rows[row].sk, dur < 0 ? 0 : dur))
			s->oom = 1;
		/* the calls folded into it, each at their mean duration
		 * (lbt_next yields them the same way) */
		for (k = 0; k < nf; k++)
			if (lbt_sketch_add(&s->apis.rows[row].sk, d))
				s->oom = 1;
	}
	/* host functions, callbacks and graphs carry no kernel */
	if (!lbt_api_has_kernel(api))
		return;
	sid = (uint32_t)x->a[0];
	if (!sid)
		return;
	row = kernel_row(fc, sid);
	if (row < 0) {
		s->kernels.full = 1;
		return;
	}
	fc->kr[row].errors += err;
	if (lbt_sketch_add(&fc->kr[row].sk, dur < 0 ? 0 : dur))
		s->oom = 1;
}

/* The bits of a record header (struct lb_trace_rec_hdr, as one
 * little-endian word) that the short way needs: type, in flight, ret. */
#define HDR_PLAIN_MASK                                                   \
	(0xffull |                                                       \
	 (uint64_t)(LB_RF_INFLIGHT | LB_RF_HAZARD | LB_RF_ORDERED |       \
		    LB_RF_NARROWED) << 8 |                                \
	 0xffffull << 32)
#define HDR_PLAIN_CALL ((uint64_t)LB_REC_CALL)

/*
 * The statistics' inner loop: a whole call that succeeded and whose API
 * has its row takes the short way (one table entry says row, launch,
 * query); anything else (other records, in-flight calls, errors, an API
 * seen first) sum_raw_one().  IDENTITY (ticks are ns) is a constant in
 * each of the two copies made.
 */
static inline __attribute__((always_inline)) int
sum_loop(struct summary *s, const struct lbt_file *f, struct file_cache *fc,
	 const struct lb_trace_rec *x, uint32_t n, const int identity)
{
	const struct api_ent *ents = fc->api;
	struct stat_row *rows = s->apis.rows;
	uint32_t i, napi = ents ? f->napi : 0;
	uint64_t records = 0;
	int oom = 0;

	for (i = 0; i < n; i++) {
		const struct lb_trace_rec *r = &x[i];
		const struct api_ent *e;
		uint64_t h, d, t0, t1;
		uint32_t api, sid;
		int32_t k;

		memcpy(&h, &r->hdr, sizeof(h));
		api = (uint32_t)(h >> 16) & 0xffff;
		t0 = r->t0;
		t1 = r->t1;
		if (__builtin_expect((h & HDR_PLAIN_MASK) != HDR_PLAIN_CALL ||
					     api >= napi || !t1 ||
					     ents[api].row < 0 ||
					     (ents[api].fold &&
					      (r->a[0] >> 32)),
				     0)) {
			s->records += records;
			records = 0;
			sum_raw_one(s, f, fc, r);
			rows = s->apis.rows; /* a new row may have moved them */
			continue;
		}
		e = &ents[api];
		records++;
		/* lbt_raw_dur_ns() */
		d = t1 > t0 && t0 ? t1 - t0 : 0;
		if (identity)
			d = d > INT64_MAX / 4 ? INT64_MAX / 4 : d;
		else
			d = (uint64_t)lbt_dticks_ns(f, d);
		oom |= lbt_sketch_add(&rows[e->row].sk, d);
		if (!e->launch)
			continue;
		sid = (uint32_t)r->a[0];
		if (!sid)
			continue;
		k = kernel_row(fc, sid);
		if (k < 0) {
			s->kernels.full = 1;
			continue;
		}
		oom |= lbt_sketch_add(&fc->kr[k].sk, d);
	}
	s->records += records;
	return oom;
}

static int sum_raw(void *p, const struct lbt_file *f,
		   const struct lb_trace_rec *x, uint32_t n)
{
	struct summary *s = p;
	struct file_cache *fc = &s->fc[f->index];

	if (f->ns_identity ? sum_loop(s, f, fc, x, n, 1)
			   : sum_loop(s, f, fc, x, n, 0))
		s->oom = 1;
	return 0;
}

/* Names the raw kernel rows of every file and merges them by name. */
static void name_kernels(struct summary *s)
{
	int i;
	size_t j;

	for (i = 0; i < lbt_set_nfiles(s->set); i++) {
		const struct lbt_file *f = lbt_set_file(s->set, i);
		struct file_cache *fc = &s->fc[i];

		for (j = 0; j < fc->capkr; j++) {
			struct kernel_raw *k = &fc->kr[j];
			const char *name;
			int32_t row;

			if (!k->sid)
				continue;
			name = lbt_string_demangled(f, k->sid);
			row = row_of(&s->kernels, name ? name : "(name lost)",
				     SIZE_MAX);
			if (row < 0 ||
			    lbt_sketch_merge(&s->kernels.rows[row].sk, &k->sk))
				s->oom = 1;
			else
				s->kernels.rows[row].errors += k->errors;
			lbt_sketch_free(&k->sk);
		}
		free(fc->kr);
		fc->kr = NULL;
	}
}

static int cmp_row(const void *a, const void *b)
{
	const struct stat_row *x = a, *y = b;

	if (x->sk.sum != y->sk.sum)
		return x->sk.sum > y->sk.sum ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void put_col(struct lbt_out *o, uint64_t ns, int width)
{
	char tmp[40];
	int n = snprintf(tmp, sizeof(tmp), "%llu.%03llu",
			 (unsigned long long)(ns / 1000),
			 (unsigned long long)(ns % 1000)),
	    i;

	for (i = n; i < width; i++)
		lbt_putc(o, ' ');
	lbt_write(o, tmp, n);
}

/*
 * facts: the kernel table also shows each kernel's VGPRs, SGPRs, LDS and
 * scratch bytes and wavefront size (KINFO records), "-" where unknown.
 */
static void print_table(struct summary *s, struct table *t, const char *what,
			int facts)
{
	struct lbt_out *o = s->o;
	size_t i;

	if (!t->n)
		return;
	qsort(t->rows, t->n, sizeof(*t->rows), cmp_row);
	lbt_printf(o, "\n%10s %8s %14s %12s %12s %12s %12s", "calls",
		   "errors", "total_us", "mean_us", "p50_us", "p99_us",
		   "max_us");
	if (facts)
		lbt_printf(o, " %5s %5s %7s %8s %4s", "vgpr", "sgpr", "lds",
			   "scratch", "wave");
	lbt_printf(o, "  %s\n", what);
	for (i = 0; i < t->n; i++) {
		struct stat_row *r = &t->rows[i];
		unsigned __int128 tot = r->sk.sum;

		lbt_printf(o, "%10llu %8llu", (unsigned long long)r->sk.n,
			   (unsigned long long)r->errors);
		put_col(o, tot > UINT64_MAX ? UINT64_MAX : (uint64_t)tot, 15);
		put_col(o, lbt_sketch_mean(&r->sk), 13);
		put_col(o, lbt_sketch_quantile(&r->sk, 0.50), 13);
		put_col(o, lbt_sketch_quantile(&r->sk, 0.99), 13);
		put_col(o, r->sk.max, 13);
		if (facts && r->ki)
			lbt_printf(o, " %5u %5u %7u %8u %4u", r->ki->vgprs,
				   r->ki->sgprs, r->ki->lds, r->ki->scratch,
				   r->ki->wavefront);
		else if (facts)
			lbt_printf(o, " %5s %5s %7s %8s %4s", "-", "-", "-",
				   "-", "-");
		lbt_puts(o, "  ");
		lbt_put_text(o, r->name);
		lbt_putc(o, '\n');
	}
}

/* One line per file: who wrote it, how long it ran, how it ended. */
static void print_files(struct summary *s)
{
	struct lbt_out *o = s->o;
	int i;

	for (i = 0; i < lbt_set_nfiles(s->set); i++) {
		const struct lbt_file *f = lbt_set_file(s->set, i);
		const struct lb_trace_header *h = &f->hdr;
		int64_t span = f->last_t_ns - f->first_t_ns;

		lbt_puts(o, "trace ");
		lbt_put_text(o, f->path);
		lbt_printf(o, ": pid %u, ppid %u", h->pid, h->ppid);
		if (h->rank != UINT32_MAX)
			lbt_printf(o, ", rank %u", h->rank);
		lbt_puts(o, ", host ");
		lbt_put_text(o, h->host);
		if (h->lbshim_version[0]) {
			lbt_puts(o, ", lbshim ");
			lbt_put_text(o, h->lbshim_version);
		}
		lbt_printf(o, ", %u thread%s, %llu records, %llu calls, ",
			   f->nthreads, f->nthreads == 1 ? "" : "s",
			   (unsigned long long)f->nrecords,
			   (unsigned long long)f->ncalls +
				   (unsigned long long)s->fc[i].folded);
		lbt_put_fixed(o, span, 1000000, 3);
		lbt_puts(o, " ms, ");
		lbt_puts(o, h->flags & LB_HDR_CRASHED	   ? "crashed"
			    : h->flags & LB_HDR_CLEAN_EXIT ? "clean exit"
							   : "no clean exit");
		if (h->flags & LB_HDR_RING)
			lbt_puts(o, ", ring");
		if (h->flags & LB_HDR_STOPPED)
			lbt_puts(o, ", stopped early");
		if (f->truncated)
			lbt_puts(o, ", truncated");
		lbt_puts(o, "\n  cmd: ");
		lbt_put_text(o, h->cmdline);
		lbt_putc(o, '\n');
		lbt_put_runtime(o, f);
	}
}

static int sum_end(void *p)
{
	struct summary *s = p;
	size_t i;
	int j, rc = 0;

	name_kernels(s);
	print_files(s);
	print_table(s, &s->apis, "api", 0);
	print_table(s, &s->kernels, "kernel", attach_kinfo(s));
	if (s->kernels.full)
		lbt_printf(s->o,
			   "(more than %d kernels: the rest not counted)\n",
			   MAX_KERNELS);
	if (s->lost)
		lbt_printf(s->o, "\n%llu records lost\n",
			   (unsigned long long)s->lost);
	if (s->in_flight)
		lbt_printf(s->o,
			   "\n%llu call%s in flight (no return in the "
			   "trace), not counted\n",
			   (unsigned long long)s->in_flight,
			   s->in_flight == 1 ? "" : "s");
	if (s->s0_ordered || s->s0_hazards || s->s0_narrowed)
		lbt_printf(s->o,
			   "\nstream0: %llu call%s ordered after work it "
			   "depends on, %llu hazards, %llu syncs narrowed "
			   "(see lbshim(7))\n",
			   (unsigned long long)s->s0_ordered,
			   s->s0_ordered == 1 ? "" : "s",
			   (unsigned long long)s->s0_hazards,
			   (unsigned long long)s->s0_narrowed);
	if (s->crashes)
		lbt_printf(s->o, "\n%llu crash record%s (see lbtrace crash)\n",
			   (unsigned long long)s->crashes,
			   s->crashes == 1 ? "" : "s");
	if (s->oom) {
		fputs("lbtrace: summary: out of memory, figures incomplete\n",
		      stderr);
		rc = 2;
	}
	for (i = 0; i < s->apis.n; i++)
		lbt_sketch_free(&s->apis.rows[i].sk);
	for (i = 0; i < s->kernels.n; i++)
		lbt_sketch_free(&s->kernels.rows[i].sk);
	for (j = 0; j < lbt_set_nfiles(s->set); j++)
		free(s->fc[j].api);
	free(s->fc);
	free(s->apis.rows);
	free(s->apis.slot);
	free(s->kernels.rows);
	free(s->kernels.slot);
	free(s->ki);
	free(s);
	return rc;
}

int lbt_summary_raw(void *st, struct lbt_set *set)
{
	return lbt_each_raw(set, sum_raw, st);
}

const struct lbt_fmt lbt_fmt_summary = {
    .name = "summary",
    .mode = LBT_UNORDERED,
    .filtered = 1,
    .begin = sum_begin,
    .record = sum_record,
    .end = sum_end,
};
