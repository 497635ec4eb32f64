/*
 * ab.c - `lbtrace ab A... --vs B...`: two groups of traces, compared.
 *
 * Each group is a list of files and directories (searched recursively for
 * *.lbt).  Files are grouped into runs: by the header's run_id when it is
 * nonzero (lbtrace run sets it), else by the directory a file was found in
 * when it was found by searching a directory, else each named file is a
 * run of its own.  For every API, kernel and thread we pool the call
 * durations of a group and compare nearest-rank medians and p99; the
 * interval of the ratio of medians is a percentile bootstrap (stats.h)
 * over runs when both groups have two runs or more, over calls otherwise.
 *
 * One file is open at a time, so memory grows with the calls kept (16
 * bytes each while reading, 12 after), not with the files' size.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "ab/ab.h"
#include "read/paths.h"
#include "read/reader.h"
#include "ab/ab_priv.h"

void lbt_ab_usage(FILE *f)
{
	fputs("usage: lbtrace ab [--json] [--svg FILE] A... --vs B...\n"
	      "  A, B: trace files, or directories searched for *.lbt\n"
	      "  compares per API, per kernel, per thread (sync calls) and\n"
	      "  per run (wall time): median and p99 of A and B, ratio B/A of\n"
	      "  the medians with a 95% bootstrap interval (* = excludes 1)\n"
	      "  --json      one JSON document instead of the tables\n"
	      "  --svg FILE  also draw the distributions into FILE\n",
	      f);
}

static int usage_error(const char *what)
{
	fprintf(stderr, "lbtrace ab: %s\n", what);
	lbt_ab_usage(stderr);
	return 1;
}

/* ---- collecting the files ---- */

static int add_file(struct ab_group *g, const char *path, const char *key)
{
	if (g->nfiles == g->cap) {
		size_t nc = g->cap ? g->cap * 2 : 16;
		struct ab_file *p = realloc(g->files, nc * sizeof(*p));

		if (!p)
			return -1;
		g->files = p;
		g->cap = nc;
	}
	g->files[g->nfiles].path = strdup(path);
	g->files[g->nfiles].key = strdup(key);
	/* counted even when incomplete, so that ab_free frees it */
	g->nfiles++;
	return g->files[g->nfiles - 1].path && g->files[g->nfiles - 1].key ?
		       0 : -1;
}

/*
 * Adds the trace files of argument ARG (a file, or a directory searched
 * by lbt_paths_add()): keyed by the directory each was found in, or by
 * itself when named.  0; -2 if some of it cannot be read (named); -1.
 */
static int add_arg(struct ab_group *g, const char *arg)
{
	struct lbt_paths ps = { 0 };
	char *key;
	size_t i;
	int rc = lbt_paths_add(&ps, arg, stderr), r = 0;

	for (i = 0; i < ps.n && !r; i++) {
		const struct lbt_path *p = &ps.v[i];

		if (asprintf(&key, "%s:%s", p->dir ? "dir" : "file",
			     p->dir ? p->dir : p->path) < 0) {
			r = -1;
			break;
		}
		r = add_file(g, p->path, key);
		free(key);
	}
	lbt_paths_free(&ps);
	return rc < 0 || r ? -1 : rc ? -2 : 0;
}

/* ---- rows ---- */

static struct ab_row *find_row(struct ab *ab, int kind, const char *name)
{
	struct ab_row *r, **p;
	size_t i;

	for (i = 0; i < ab->nrows; i++)
		if (ab->rows[i]->kind == kind && !strcmp(ab->rows[i]->name, name))
			return ab->rows[i];
	if (ab->nrows == ab->cap) {
		size_t nc = ab->cap ? ab->cap * 2 : 64;

		p = realloc(ab->rows, nc * sizeof(*p));
		if (!p)
			return NULL;
		ab->rows = p;
		ab->cap = nc;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->name = strdup(name))) {
		free(r);
		return NULL;
	}
	r->kind = kind;
	r->api = -1;
	ab->rows[ab->nrows++] = r;
	return r;
}

struct ab_row *lbt_ab_find_row(struct ab *ab, int kind, const char *name)
{
	return find_row(ab, kind, name);
}

static struct ab_row *api_row(struct ab *ab, const struct lbt_rec *rec)
{
	struct ab_row *r;

	if (rec->api < 0 || rec->api >= LB_API_COUNT)
		return find_row(ab, ROW_API, rec->api_name);
	if (!(r = ab->api_row[rec->api]))
		r = ab->api_row[rec->api] = find_row(ab, ROW_API, rec->api_name);
	if (r)
		r->api = rec->api;
	return r;
}

/* ---- reading the files ---- */

static uint32_t run_of(struct ab_group *g, const char *key, uint64_t run_id)
{
	struct ab_run *p;
	uint32_t i;

	for (i = 0; i < g->nruns; i++)
		if (!strcmp(g->runs[i].key, key))
			return i;
	p = realloc(g->runs, (g->nruns + 1) * sizeof(*p));
	if (!p)
		return UINT32_MAX;
	g->runs = p;
	memset(&p[i], 0, sizeof(p[i]));
	p[i].key = strdup(key);
	if (!p[i].key)
		return UINT32_MAX;
	p[i].run_id = run_id;
	g->nruns++;
	return i;
}

/* Wall-clock span of one file: the header's, or its records' when the
 * process did not end cleanly (crash, kill). */
static void file_span(const struct lbt_file *f, uint64_t *start,
		      uint64_t *end, int *unfinished)
{
	const struct lb_trace_header *h = &f->hdr;

	*start = h->start_realtime_ns;
	*unfinished = 0;
	if ((h->flags & LB_HDR_CLEAN_EXIT) && h->end_realtime_ns > *start) {
		*end = h->end_realtime_ns;
		return;
	}
	*unfinished = 1;
	if (f->ncalls && f->first_t_ns >= 0) {
		*start = h->start_realtime_ns + (uint64_t)f->first_t_ns;
		*end = h->start_realtime_ns + (uint64_t)f->last_t_ns;
	} else {
		*end = *start;
	}
}

/* Names of a file's threads: the shown name, with "#k" added when
 * several threads of the process share it. */
static char **thread_names(const struct lbt_file *f)
{
	char **names = calloc(f->nthreads + 1, sizeof(*names));
	uint32_t i, j, same, k;

	if (!names)
		return NULL;
	for (i = 0; i < f->nthreads; i++) {
		const char *n = lbt_thread_name(f, &f->threads[i]);

		if (!n || !*n)
			n = "?";
		for (j = 0, same = 0, k = 0; j < f->nthreads; j++) {
			const char *m = lbt_thread_name(f, &f->threads[j]);

			if (!m || !*m)
				m = "?";
			if (strcmp(m, n) != 0)
				continue;
			same++;
			if (j < i)
				k++;
		}
		if (same > 1 ? asprintf(&names[i], "%s#%u", n, k + 1) < 0 :
			       !(names[i] = strdup(n)))
			names[i] = NULL;
	}
	return names;
}

/* Grows *P (of *LEN values) to hold index I; -1 if out of memory. */
static int grow_u64(uint64_t **p, uint32_t *len, uint32_t i)
{
	uint32_t nl = *len ? *len : 16;
	uint64_t *q;

	if (i < *len)
		return 0;
	while (nl <= i)
		nl *= 2;
	q = realloc(*p, nl * sizeof(*q));
	if (!q)
		return -1;
	memset(q + *len, 0, (nl - *len) * sizeof(*q));
	*p = q;
	*len = nl;
	return 0;
}

/* Adds the calls of file F, of run RI, to the rows of group GI. */
#define AB_KCACHE 256	/* kernel string id -> row, direct mapped */

static int read_calls(struct ab *ab, int gi, struct lbt_set *set,
		      const struct lbt_file *f, uint32_t ri)
{
	char **tnames = thread_names(f);
	uint64_t *sync_ns = calloc(f->nthreads + 1, sizeof(*sync_ns));
	struct ab_row **trow = calloc(f->nthreads + 1, sizeof(*trow));
	/* Rows are looked up by name; these caches keep that off the
	 * per-record path (string ids are per file). */
	struct {
		uint32_t sid;
		struct ab_row *r;
	} kc[AB_KCACHE];
	const struct lbt_rec *rec;
	struct ab_row *r;
	uint32_t i;
	int rc = -1;

	memset(kc, 0, sizeof(kc));
	if (!tnames || !sync_ns || !trow)
		goto out;
	lbt_rewind(set, LBT_UNORDERED);
	while ((rec = lbt_next(set))) {
		const char *kn;

		if (rec->type != LB_REC_CALL || rec->in_flight)
			continue;
		ab->g[gi].ncalls++;
		if (!(r = api_row(ab, rec)))
			goto out;
		lbs_add(&r->s[gi], rec->dur_ns, ri);
		if (rec->kind == LB_KIND_LAUNCH && (kn = lbt_rec_kernel(rec, 1))) {
			struct lbt_launch l;
			unsigned h;

			lbt_rec_launch(rec, &l);
			h = l.kernel_sid % AB_KCACHE;

			if (kc[h].sid != l.kernel_sid || !kc[h].r) {
				if (!(r = find_row(ab, ROW_KERNEL, kn)))
					goto out;
				kc[h].sid = l.kernel_sid;
				kc[h].r = r;
			}
			lbs_add(&kc[h].r->s[gi], rec->dur_ns, ri);
		}
		i = (uint32_t)(rec->thread - f->threads);
		if (rec->kind == LB_KIND_SYNC && i < f->nthreads && tnames[i]) {
			if (!trow[i] &&
			    !(trow[i] = find_row(ab, ROW_THREAD, tnames[i])))
				goto out;
			r = trow[i];
			lbs_add(&r->s[gi], rec->dur_ns, ri);
			sync_ns[i] += (uint64_t)rec->dur_ns;
		}
	}
	/* Sync time per run of every thread that synchronized. */
	for (i = 0; i < f->nthreads; i++) {
		if (!sync_ns[i] || !tnames[i])
			continue;
		if (!(r = find_row(ab, ROW_THREAD, tnames[i])) ||
		    grow_u64(&r->per_run[gi], &r->per_run_len[gi], ri) < 0)
			goto out;
		r->per_run[gi][ri] += sync_ns[i];
	}
	rc = 0;
out:
	if (tnames)
		for (i = 0; i < f->nthreads; i++)
			free(tnames[i]);
	free(tnames);
	free(sync_ns);
	free(trow);
	return rc;
}

/* Reads one file of group GI; -2 if it is not a readable trace. */
static int read_file(struct ab *ab, int gi, const struct ab_file *af)
{
	struct ab_group *g = &ab->g[gi];
	struct lbt_set *set = lbt_set_new(stderr);
	const struct lbt_file *f;
	struct ab_run *run;
	char *key = NULL;
	uint64_t start, end;
	uint32_t ri;
	int unfinished, rc = -1;

	if (!set)
		return -1;
	if (lbt_set_add(set, af->path) < 0) {
		rc = -2;
		goto out;
	}
	if (lbt_set_corrupt(set))
		ab->status = 2;
	f = lbt_set_file(set, 0);
	if (f->hdr.run_id && asprintf(&key, "id:%" PRIu64, f->hdr.run_id) < 0)
		goto out;
	ri = run_of(g, key ? key : af->key, f->hdr.run_id);
	if (ri == UINT32_MAX)
		goto out;
	run = &g->runs[ri];
	file_span(f, &start, &end, &unfinished);
	if (!run->nfiles++ || start < run->start_ns)
		run->start_ns = start;
	if (end > run->end_ns)
		run->end_ns = end;
	run->crashed |= !!(f->hdr.flags & LB_HDR_CRASHED);
	g->runtimes |= 1u << (f->runtime < 32 ? f->runtime : 0);
	run->unfinished |= unfinished;
	if (!run->dir) {
		const char *slash = strrchr(af->path, '/');

		run->dir = slash ? strndup(af->path, (size_t)(slash - af->path))
				 : strdup(".");
	}
	rc = read_calls(ab, gi, set, f, ri);
out:
	free(key);
	lbt_set_free(set);
	return rc;
}

/* ---- the comparison ---- */

static void finish_row(struct ab *ab, struct ab_row *r)
{
	const struct lbs_sample *cmp[2] = { &r->s[0], &r->s[1] };
	int k;
	uint32_t i;

	for (k = 0; k < 2; k++) {
		lbs_finish(&r->s[k], ab->g[k].nruns);
		if (r->kind != ROW_THREAD)
			continue;
		for (i = 0; i < r->per_run_len[k] && i < ab->g[k].nruns; i++)
			if (r->per_run[k][i])
				lbs_add(&r->run_total[k], (int64_t)r->per_run[k][i], i);
		lbs_finish(&r->run_total[k], ab->g[k].nruns);
	}
	lbs_ratio_ci(cmp[0], cmp[1], 0.5, ab->by_runs, LBS_NBOOT, LBS_SEED,
		     &r->r);
	/* Largest absolute change first: of the median call, or for a
	 * thread of its synchronization time per run. */
	if (r->kind == ROW_THREAD)
		r->change = fabs((double)(ab_med(&r->run_total[1]) -
					  ab_med(&r->run_total[0])));
	else
		r->change = fabs((double)(ab_med(&r->s[1]) - ab_med(&r->s[0])));
}

static int cmp_row(const void *a, const void *b)
{
	const struct ab_row *x = *(const struct ab_row *const *)a;
	const struct ab_row *y = *(const struct ab_row *const *)b;

	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->change != y->change)
		return x->change > y->change ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void finish(struct ab *ab, struct lbs_ratio *wall)
{
	size_t i;
	uint32_t j;
	int k;

	for (k = 0; k < 2; k++) {
		struct ab_group *g = &ab->g[k];

		for (j = 0; j < g->nruns; j++)
			lbs_add(&g->wall, (int64_t)(g->runs[j].end_ns -
						    g->runs[j].start_ns), j);
		lbs_finish(&g->wall, g->nruns);
	}
	ab->by_runs = ab->g[0].nruns >= 2 && ab->g[1].nruns >= 2;
	/* one value per run: resampling values is resampling runs */
	lbs_ratio_ci(&ab->g[0].wall, &ab->g[1].wall, 0.5, 0, LBS_NBOOT,
		     LBS_SEED, wall);
	if (wall->method == LBS_BY_VALUES)
		wall->method = LBS_BY_RUNS;
	for (i = 0; i < ab->nrows; i++)
		finish_row(ab, ab->rows[i]);
	if (ab->nrows)
		qsort(ab->rows, ab->nrows, sizeof(*ab->rows), cmp_row);
}

/* ---- the command ---- */

static void ab_free(struct ab *ab)
{
	size_t i;
	uint32_t j;
	int k;

	for (i = 0; i < ab->nrows; i++) {
		struct ab_row *r = ab->rows[i];

		for (k = 0; k < 2; k++) {
			lbs_free(&r->s[k]);
			lbs_free(&r->run_total[k]);
			free(r->per_run[k]);
		}
		free(r->name);
		free(r->side[0]);
		free(r->side[1]);
		free(r);
	}
	free(ab->rows);
	for (k = 0; k < 2; k++) {
		struct ab_group *g = &ab->g[k];

		for (i = 0; i < g->nfiles; i++) {
			free(g->files[i].path);
			free(g->files[i].key);
		}
		free(g->files);
		for (j = 0; j < g->nruns; j++) {
			free(g->runs[j].key);
			free(g->runs[j].dir);
		}
		free(g->runs);
		lbs_free(&g->wall);
	}
}

int lbt_cmd_ab(int argc, char **argv)
{
	struct ab ab = { .g = { { .label = "A" }, { .label = "B" } } };
	struct ab_args args = { { NULL, NULL }, { 0, 0 } };
	int cur = 0, opts = 1, i, k, rc;
	struct lbs_ratio wall;
	size_t j;

	for (k = 0; k < 2; k++)
		if (!(args.v[k] = calloc((size_t)argc + 1, sizeof(char *))))
			goto oom;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (opts && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			lbt_ab_usage(stdout);
			rc = 0;
			goto out;
		} else if (opts && !strcmp(a, "--json")) {
			ab.json = 1;
		} else if (opts && !strcmp(a, "--svg")) {
			if (++i >= argc) {
				rc = usage_error("--svg needs a file name");
				goto out;
			}
			ab.svg = argv[i];
		} else if (opts && !strncmp(a, "--svg=", 6)) {
			ab.svg = a + 6;
		} else if (!strcmp(a, "--vs")) {
			if (cur) {
				rc = usage_error("--vs given twice");
				goto out;
			}
			cur = 1;
		} else if (opts && !strcmp(a, "--")) {
			opts = 0;
		} else if (opts && a[0] == '-' && a[1]) {
			fprintf(stderr, "lbtrace ab: unknown option %s\n", a);
			lbt_ab_usage(stderr);
			rc = 1;
			goto out;
		} else {
			args.v[cur][args.n[cur]++] = argv[i];
		}
	}
	if (!args.n[0] || !args.n[1]) {
		rc = usage_error(cur ? "a group is empty" :
				       "want two groups: A... --vs B...");
		goto out;
	}
	for (k = 0; k < 2; k++) {
		for (i = 0; i < args.n[k]; i++) {
			rc = add_arg(&ab.g[k], args.v[k][i]);
			if (rc == -1)
				goto oom;
			if (rc)
				ab.status = 2;
		}
		for (j = 0; j < ab.g[k].nfiles; j++) {
			rc = read_file(&ab, k, &ab.g[k].files[j]);
			if (rc == -1)
				goto oom;
			if (rc)
				ab.status = 2;
		}
	}
	for (k = 0; k < 2; k++) {
		if (!ab.g[k].nruns) {
			fprintf(stderr, "lbtrace ab: group %s has no readable "
				"trace (*.lbt)\n", ab.g[k].label);
			rc = 2;
			goto out;
		}
	}
	if (lbt_ab_match_twins(&ab))
		goto oom;
	finish(&ab, &wall);
	if (ab.json)
		lbt_ab_print_json(&ab, &wall, &args);
	else
		lbt_ab_print_text(&ab, &wall, &args);
	if (fflush(stdout))
		ab.status = 2;
	if (ab.svg && lbt_ab_write_svg(&ab, ab.svg))
		ab.status = 2;
	rc = ab.status;
	goto out;
oom:
	fprintf(stderr, "lbtrace ab: out of memory\n");
	rc = 2;
out:
	ab_free(&ab);
	free(args.v[0]);
	free(args.v[1]);
	return rc;
}
