/*
 * nsys.c - `lbtrace summary --nsys`: the tables in the columns of Nsight
 * Systems' `nsys stats` reports, for users who read those every day:
 * cuda_api_sum (Time (%), Total Time (ns), Num Calls, Avg (ns), Med (ns),
 * Min (ns), Max (ns), StdDev (ns), Name) per API, and, in the spirit of
 * cuda_gpu_kern_sum, one row per kernel and launch configuration (grid,
 * block, dynamic shared memory).  The trace holds no GPU timestamps: the
 * kernel table's times are those of the host's launch calls, and says so.
 * The same for HIP traces (rocprof's users read the same columns).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "format/fmt.h"
#include "format/runtime.h"
#include "cmd/sketch.h"
#include "cmd/strhash.h"

struct nrow {
	char *name;	/* key: the name, with the configuration for kernels */
	const char *shown; /* the name column */
	uint32_t grid[3], block[3], shmem;
	long double sumsq; /* of the durations, for the deviation */
	struct lbt_sketch sk;
};

struct ntable {
	struct nrow *rows;
	size_t n, cap;
	uint32_t *slot; /* row + 1, 0 empty; open addressing */
	size_t nslot;
};

struct nsys {
	struct lbt_set *set;
	struct lbt_out *o;
	struct ntable apis, kernels;
	int oom;
};

/* Row of KEY in T, made if new (KEY copied); NULL when out of memory. */
static struct nrow *row_of(struct ntable *t, const char *key)
{
	size_t h, i;

	if (t->nslot) {
		for (h = lbt_str_hash(key) & (t->nslot - 1); t->slot[h];
		     h = (h + 1) & (t->nslot - 1))
			if (!strcmp(t->rows[t->slot[h] - 1].name, key))
				return &t->rows[t->slot[h] - 1];
	}
	if (t->n * 2 >= t->nslot) {
		size_t ns = t->nslot ? t->nslot * 2 : 64;
		uint32_t *sl = calloc(ns, sizeof(*sl));

		if (!sl)
			return NULL;
		for (i = 0; i < t->n; i++) {
			h = lbt_str_hash(t->rows[i].name) & (ns - 1);
			while (sl[h])
				h = (h + 1) & (ns - 1);
			sl[h] = (uint32_t)i + 1;
		}
		free(t->slot);
		t->slot = sl;
		t->nslot = ns;
	}
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 32;
		struct nrow *r = realloc(t->rows, nc * sizeof(*r));

		if (!r)
			return NULL;
		t->rows = r;
		t->cap = nc;
	}
	memset(&t->rows[t->n], 0, sizeof(t->rows[t->n]));
	t->rows[t->n].name = strdup(key);
	if (!t->rows[t->n].name)
		return NULL;
	t->rows[t->n].shown = t->rows[t->n].name;
	for (h = lbt_str_hash(key) & (t->nslot - 1); t->slot[h];
	     h = (h + 1) & (t->nslot - 1))
		;
	t->slot[h] = (uint32_t)++t->n;
	return &t->rows[t->n - 1];
}

static void *nsys_begin(struct lbt_set *set, struct lbt_out *o,
			const struct lbt_opts *opt)
{
	struct nsys *s = calloc(1, sizeof(*s));

	(void)opt;
	if (s) {
		s->set = set;
		s->o = o;
	}
	return s;
}

static void add(struct nsys *s, struct nrow *r, int64_t d)
{
	uint64_t v = d < 0 ? 0 : (uint64_t)d;

	r->sumsq += (long double)v * v;
	if (lbt_sketch_add(&r->sk, v))
		s->oom = 1;
}

static void nsys_record(void *p, const struct lbt_rec *r)
{
	struct nsys *s = p;
	struct lbt_launch l;
	struct nrow *row;
	const char *k;
	char key[LBT_MAX_STRING + 96];

	if (r->type != LB_REC_CALL || r->in_flight)
		return; /* an unfinished call has no duration */
	row = row_of(&s->apis, r->api_name);
	if (!row) {
		s->oom = 1;
		return;
	}
	add(s, row, r->dur_ns);
	if (r->kind != LB_KIND_LAUNCH || !(k = lbt_rec_kernel(r, 1)))
		return;
	lbt_rec_launch(r, &l);
	/* the key: "GRID/BLOCK/SHMEM/name"; the name column shows the name */
	snprintf(key, sizeof(key), "%u %u %u/%u %u %u/%u/%s", l.grid[0],
		 l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
		 l.shmem, k);
	row = row_of(&s->kernels, key);
	if (!row) {
		s->oom = 1;
		return;
	}
	if (!row->sk.n) {
		memcpy(row->grid, l.grid, sizeof(row->grid));
		memcpy(row->block, l.block, sizeof(row->block));
		row->shmem = l.shmem;
		row->shown = strchr(strchr(strchr(row->name, '/') + 1, '/') +
					    1, '/') + 1;
	}
	add(s, row, r->dur_ns);
}

static int cmp_row(const void *a, const void *b)
{
	const struct nrow *x = a, *y = b;

	if (x->sk.sum != y->sk.sum)
		return x->sk.sum > y->sk.sum ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sample standard deviation (n - 1), 0 for one value, as nsys shows. */
static double stddev(const struct nrow *r)
{
	long double n = (long double)r->sk.n, mean, var;

	if (r->sk.n < 2)
		return 0;
	mean = (long double)r->sk.sum / n;
	var = (r->sumsq - n * mean * mean) / (n - 1);
	return var > 0 ? (double)sqrtl(var) : 0;
}

static void put_table(struct nsys *s, struct ntable *t, int kernels)
{
	struct lbt_out *o = s->o;
	unsigned __int128 all = 0;
	size_t i;

	for (i = 0; i < t->n; i++)
		all += t->rows[i].sk.sum;
	qsort(t->rows, t->n, sizeof(*t->rows), cmp_row);
	lbt_printf(o, " %8s  %15s  %9s  %12s  %12s  %10s  %10s  %12s  ",
		   "Time (%)", "Total Time (ns)", kernels ? "Instances" :
		   "Num Calls", "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
		   "StdDev (ns)");
	if (kernels)
		lbt_printf(o, "%14s  %14s  %9s  ", "GridXYZ", "BlockXYZ",
			   "Shmem (B)");
	lbt_puts(o, "Name\n");
	lbt_printf(o, " %8s  %15s  %9s  %12s  %12s  %10s  %10s  %12s  ",
		   "--------", "---------------", "---------", "--------",
		   "--------", "--------", "--------", "-----------");
	if (kernels)
		lbt_printf(o, "%14s  %14s  %9s  ", "-------", "--------",
			   "---------");
	lbt_puts(o, "----\n");
	for (i = 0; i < t->n; i++) {
		struct nrow *r = &t->rows[i];
		char g[40], b[40];

		lbt_printf(o, " %8.1f  %15llu  %9llu  %12.1f  %12.1f  %10llu  "
			      "%10llu  %12.1f  ",
			   all ? 100.0 * (double)r->sk.sum / (double)all : 0.0,
			   (unsigned long long)r->sk.sum,
			   (unsigned long long)r->sk.n,
			   (double)r->sk.sum / (double)r->sk.n,
			   (double)lbt_sketch_quantile(&r->sk, 0.5),
			   (unsigned long long)r->sk.min,
			   (unsigned long long)r->sk.max, stddev(r));
		if (kernels) {
			snprintf(g, sizeof(g), "%u %u %u", r->grid[0],
				 r->grid[1], r->grid[2]);
			snprintf(b, sizeof(b), "%u %u %u", r->block[0],
				 r->block[1], r->block[2]);
			lbt_printf(o, "%14s  %14s  %9u  ", g, b, r->shmem);
		}
		lbt_put_text(o, r->shown);
		lbt_putc(o, '\n');
	}
}

static void free_table(struct ntable *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		lbt_sketch_free(&t->rows[i].sk);
		free(t->rows[i].name);
	}
	free(t->rows);
	free(t->slot);
}

static int nsys_end(void *p)
{
	struct nsys *s = p;
	const char *rt = NULL;
	int i, rc = 0;

	for (i = 0; i < lbt_set_nfiles(s->set); i++) {
		const struct lbt_file *f = lbt_set_file(s->set, i);
		const char *n = lbt_runtime_name(f->runtime);

		lbt_puts(s->o, "trace ");
		lbt_put_text(s->o, f->path);
		lbt_printf(s->o, ": pid %u\n", f->hdr.pid);
		lbt_put_runtime(s->o, f);
		rt = !rt || !strcmp(rt, n) ? n : "HIP and CUDA";
	}
	/* nsys's own title for CUDA; the report it copies for the others */
	if (rt && !strcmp(rt, "CUDA"))
		lbt_puts(s->o, "\n ** CUDA API Summary (cuda_api_sum):\n\n");
	else
		lbt_printf(s->o, "\n ** %s API Summary (in the columns of "
				 "cuda_api_sum):\n\n", rt ? rt : "?");
	put_table(s, &s->apis, 0);
	if (s->kernels.n) {
		lbt_printf(s->o,
			   "\n ** %s Kernel Launch Summary (in the manner of "
			   "cuda_gpu_kern_sum):\n"
			   " (host-side launch calls: the trace records no GPU "
			   "timestamps, so these are\n the launch calls' "
			   "times, not the kernels' execution times)\n\n",
			   rt ? rt : "?");
		put_table(s, &s->kernels, 1);
	}
	if (s->oom) {
		fputs("lbtrace: summary: out of memory, figures incomplete\n",
		      stderr);
		rc = 2;
	}
	free_table(&s->apis);
	free_table(&s->kernels);
	free(s);
	return rc;
}

const struct lbt_fmt lbt_fmt_nsys = {
    .name = "summary --nsys",
    .mode = LBT_UNORDERED,
    .filtered = 1,
    .begin = nsys_begin,
    .record = nsys_record,
    .end = nsys_end,
};
