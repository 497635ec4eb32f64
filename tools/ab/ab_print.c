/*
 * ab_print.c - how `lbtrace ab` shows a comparison: aligned tables (one
 * per kind of row, largest change first), one JSON document for scripts,
 * and the SVG picture (svg.c) of the rows that changed most.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ab/ab_priv.h"
#include "ab/svg.h"

#define AB_SVG_TOP 6	/* distributions drawn */
#define AB_SVG_MIN 10	/* calls a group needs for its API to be drawn */
#define AB_NAME_W 28	/* name column of the table */
#define AB_NAME_W_CROSS 44 /* across vendors: "hipMalloc / cudaMalloc" */

static int name_w = AB_NAME_W;

static const char *const kind_title[ROW_NKINDS] = { "API", "kernel",
						    "thread (sync calls)" };
static const char *const kind_json[ROW_NKINDS] = { "apis", "kernels",
						   "threads" };

/* ---- text ---- */

/* NS with 3 significant digits in the unit that fits: "812 ns",
 * "12.4 us", "3.20 ms", "1.25 s". */
static const char *fmt_ns(char *buf, size_t len, int64_t ns, int have)
{
	static const char *const unit[] = { "us", "ms" };
	double v = (double)ns;
	int u;

	if (!have) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (ns < 1000) {
		snprintf(buf, len, "%" PRId64 " ns", ns);
		return buf;
	}
	if (ns >= 1000000000) {
		snprintf(buf, len, "%.2f s", v / 1e9);
		return buf;
	}
	u = ns >= 1000000;
	v /= u ? 1e6 : 1e3;
	snprintf(buf, len, v < 9.995 ? "%.2f %s" : v < 99.95 ? "%.1f %s" :
					     "%.0f %s", v, unit[u]);
	return buf;
}

static const char *fmt_ratio(char *buf, size_t len, double r)
{
	if (isinf(r))
		snprintf(buf, len, "inf");
	else if (r >= 100)
		snprintf(buf, len, "%.0f", r);
	else if (r >= 0.095)
		snprintf(buf, len, "%.2f", r);
	else
		snprintf(buf, len, "%.3f", r);
	return buf;
}

/*
 * A ratio of a row whose interval excludes 1, printed with as many more
 * digits as it takes not to read 1 (0.997 is not "1.00"): else a row
 * would show "1.00 [1.00, 1.00] *", an interval that excludes 1 written
 * as one that is 1.
 */
static const char *fmt_not1(char *buf, size_t len, double r)
{
	int d;

	fmt_ratio(buf, len, r);
	for (d = 3; d <= 6 && r != 1 && strtod(buf, NULL) == 1; d++)
		snprintf(buf, len, "%.*f", d, r);
	return buf;
}

static void put_ratio(const struct lbs_ratio *r, int have)
{
	char a[16], b[16], c[16];
	const char *(*fmt)(char *, size_t, double) =
		r->excludes1 ? fmt_not1 : fmt_ratio;

	if (!have) {
		printf("  %6s\n", "-");
		return;
	}
	printf("  %6s", fmt(a, sizeof(a), r->ratio));
	if (r->method == LBS_NONE)
		printf("  -\n");
	else
		printf("  [%s, %s]%s\n", fmt(b, sizeof(b), r->lo),
		       fmt(c, sizeof(c), r->hi), r->excludes1 ? " *" : "");
}

static void put_header(const char *first, const char *count)
{
	printf("%-*s %6s A %6s B %9s %9s %9s %9s  %6s  %s\n", name_w,
	       first, count, count, "median A", "median B", "p99 A", "p99 B",
	       "B/A", "95% interval");
}

static void put_name(const char *name)
{
	size_t n = strlen(name);

	if (n <= (size_t)name_w)
		printf("%-*s", name_w, name);
	else
		printf("%.*s...", name_w - 3, name);
}

/* Length of a demangled kernel name without its parameter list. */
static size_t base_len(const char *name)
{
	const char *p = strchr(name, '(');

	return p ? (size_t)(p - name) : strlen(name);
}

/*
 * A kernel row's name as shown in the table: without the parameter list
 * when no other kernel has the same base name (the list is long, and
 * JSON keeps it whole), else in full.
 */
static void put_kernel_name(const struct ab *ab, const struct ab_row *r)
{
	size_t n = base_len(r->name), i;
	char buf[AB_NAME_W_CROSS + 1];

	for (i = 0; i < ab->nrows; i++) {
		const struct ab_row *o = ab->rows[i];

		if (o != r && o->kind == ROW_KERNEL && base_len(o->name) == n &&
		    !strncmp(o->name, r->name, n)) {
			put_name(r->name);
			return;
		}
	}
	if (n > (size_t)name_w) {
		put_name(r->name);
		return;
	}
	memcpy(buf, r->name, n);
	buf[n] = 0;
	put_name(buf);
}

static void put_stats(const struct lbs_sample *s0, const struct lbs_sample *s1)
{
	char b[4][24];

	printf(" %8zu %8zu %9s %9s %9s %9s", s0->n, s1->n,
	       fmt_ns(b[0], 24, ab_med(s0), s0->n > 0),
	       fmt_ns(b[1], 24, ab_med(s1), s1->n > 0),
	       fmt_ns(b[2], 24, lbs_quantile(s0, 0.99), s0->n > 0),
	       fmt_ns(b[3], 24, lbs_quantile(s1, 0.99), s1->n > 0));
}

static const char *method_name(int m)
{
	return m == LBS_BY_RUNS ? "runs" : m == LBS_BY_VALUES ? "calls" : NULL;
}

/* The files of group g that were read (those that could not be are named
 * on stderr and count in no run). */
static size_t files_read(const struct ab_group *g)
{
	size_t n = 0;
	uint32_t j;

	for (j = 0; j < g->nruns; j++)
		n += (size_t)g->runs[j].nfiles;
	return n;
}

void lbt_ab_print_text(const struct ab *ab, const struct lbs_ratio *wall,
		   const struct ab_args *args)
{
	char b[2][24];
	size_t i;
	int k, j, kind = -1;

	name_w = ab->cross ? AB_NAME_W_CROSS : AB_NAME_W;
	for (k = 0; k < 2; k++) {
		size_t nf = files_read(&ab->g[k]);

		printf("%s: %u run%s, %zu file%s, %" PRIu64 " calls:", ab->g[k].label,
		       ab->g[k].nruns, ab->g[k].nruns == 1 ? "" : "s",
		       nf, nf == 1 ? "" : "s", ab->g[k].ncalls);
		for (j = 0; j < args->n[k]; j++)
			printf(" %s", args->v[k][j]);
		if (ab->cross)
			printf(" (%s)", lbt_ab_runtimes(&ab->g[k]));
		putchar('\n');
	}
	printf("B/A: ratio of the medians; 95%% interval: bootstrap over %s, "
	       "%u resamples, seed %u; * = the interval excludes 1\n\n",
	       ab->by_runs ? "runs" : "calls", LBS_NBOOT, LBS_SEED);
	put_header("wall time", "runs");
	put_name("per run");
	put_stats(&ab->g[0].wall, &ab->g[1].wall);
	put_ratio(wall, ab->g[0].nruns && ab->g[1].nruns);
	for (i = 0; i < ab->nrows; i++) {
		const struct ab_row *r = ab->rows[i];

		if (r->kind != kind) {
			kind = r->kind;
			putchar('\n');
			put_header(kind_title[kind], "calls");
		}
		if (r->kind == ROW_KERNEL)
			put_kernel_name(ab, r);
		else
			put_name(r->name);
		put_stats(&r->s[0], &r->s[1]);
		put_ratio(&r->r, r->s[0].n && r->s[1].n);
		if (r->kind == ROW_THREAD)
			printf("%-*s   sync time per run: A %s, B %s\n", name_w,
			       "", fmt_ns(b[0], 24, ab_med(&r->run_total[0]),
					  r->run_total[0].n > 0),
			       fmt_ns(b[1], 24, ab_med(&r->run_total[1]),
				      r->run_total[1].n > 0));
	}
	lbt_ab_print_unmatched(ab, 0);
}

/* ---- JSON ---- */

void lbt_ab_json_str(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putchar('"');
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static void json_num(double v)
{
	if (isfinite(v))
		printf("%.6g", v);
	else
		printf("null");
}

static void json_stats(const struct lbs_sample *s0,
		       const struct lbs_sample *s1, const struct lbs_ratio *r)
{
	const struct lbs_sample *s[2] = { s0, s1 };
	const char *m = method_name(r->method);
	int k;

	for (k = 0; k < 2; k++) {
		printf("\"calls_%c\":%zu,", 'a' + k, s[k]->n);
		if (s[k]->n)
			printf("\"median_%c_ns\":%" PRId64 ",\"p99_%c_ns\":%" PRId64
			       ",", 'a' + k, ab_med(s[k]), 'a' + k,
			       lbs_quantile(s[k], 0.99));
		else
			printf("\"median_%c_ns\":null,\"p99_%c_ns\":null,",
			       'a' + k, 'a' + k);
	}
	printf("\"ratio\":");
	if (s0->n && s1->n)
		json_num(r->ratio);
	else
		printf("null");
	if (m) {
		printf(",\"ci_low\":");
		json_num(r->lo);
		printf(",\"ci_high\":");
		json_num(r->hi);
		printf(",\"ci_by\":\"%s\",\"excludes_1\":%s", m,
		       r->excludes1 ? "true" : "false");
	} else {
		printf(",\"ci_low\":null,\"ci_high\":null,\"ci_by\":null,"
		       "\"excludes_1\":false");
	}
}

/* Across vendors: what each side called, "+"-joined, or null. */
static void json_sides(const struct ab_row *r)
{
	int k;

	for (k = 0; k < 2; k++) {
		printf("\"name_%c\":", 'a' + k);
		if (r->side[k])
			lbt_ab_json_str(r->side[k]);
		else
			printf("null");
		putchar(',');
	}
}

static void json_group(const struct ab_group *g, char **args, int nargs)
{
	uint32_t i;
	int j;

	printf("{\"label\":\"%s\",\"runtime\":\"%s\",\"runs\":%u,\"files\":%zu,"
	       "\"calls\":%" PRIu64 ",\"args\":[", g->label,
	       lbt_ab_runtimes(g), g->nruns, files_read(g), g->ncalls);
	for (j = 0; j < nargs; j++) {
		printf(j ? "," : "");
		lbt_ab_json_str(args[j]);
	}
	printf("],\"run_list\":[");
	for (i = 0; i < g->nruns; i++) {
		const struct ab_run *r = &g->runs[i];

		printf("%s{\"key\":", i ? "," : "");
		lbt_ab_json_str(r->key);
		printf(",\"dir\":");
		lbt_ab_json_str(r->dir ? r->dir : "");
		printf(",\"run_id\":%" PRIu64 ",\"files\":%d,\"start_ns\":%" PRIu64
		       ",\"wall_ns\":%" PRIu64 ",\"crashed\":%s,\"clean\":%s}",
		       r->run_id, r->nfiles, r->start_ns,
		       r->end_ns - r->start_ns, r->crashed ? "true" : "false",
		       r->unfinished ? "false" : "true");
	}
	printf("]}");
}

void lbt_ab_print_json(const struct ab *ab, const struct lbs_ratio *wall,
		   const struct ab_args *args)
{
	size_t i;
	int kind, first;

	printf("{\"groups\":[");
	json_group(&ab->g[0], args->v[0], args->n[0]);
	putchar(',');
	json_group(&ab->g[1], args->v[1], args->n[1]);
	printf("],\"ci_by\":\"%s\",\"resamples\":%u,\"seed\":%u,"
	       "\"level\":0.95,\"wall\":{",
	       ab->by_runs ? "runs" : "calls", LBS_NBOOT, LBS_SEED);
	json_stats(&ab->g[0].wall, &ab->g[1].wall, wall);
	putchar('}');
	for (kind = 0; kind < ROW_NKINDS; kind++) {
		printf(",\"%s\":[", kind_json[kind]);
		for (i = 0, first = 1; i < ab->nrows; i++) {
			const struct ab_row *r = ab->rows[i];

			if (r->kind != kind)
				continue;
			printf("%s{\"name\":", first ? "" : ",");
			first = 0;
			lbt_ab_json_str(r->name);
			putchar(',');
			if (ab->cross && kind == ROW_API)
				json_sides(r);
			json_stats(&r->s[0], &r->s[1], &r->r);
			if (kind == ROW_THREAD)
				printf(",\"sync_per_run_a_ns\":%" PRId64
				       ",\"sync_per_run_b_ns\":%" PRId64,
				       ab_med(&r->run_total[0]),
				       ab_med(&r->run_total[1]));
			putchar('}');
		}
		putchar(']');
	}
	printf(",\"across_vendors\":%s", ab->cross ? "true" : "false");
	if (ab->cross) {
		printf(",\"unmatched\":");
		lbt_ab_print_unmatched(ab, 1);
	}
	printf("}\n");
}

/* ---- SVG ---- */

int lbt_ab_write_svg(const struct ab *ab, const char *path)
{
	struct lbt_svg_dist d[AB_SVG_TOP];
	struct lbt_svg_ab p = { .label = { "A", "B" }, .d = d };
	size_t i;
	FILE *f;
	int rc;

	p.wall[0] = &ab->g[0].wall;
	p.wall[1] = &ab->g[1].wall;
	/* The rows that changed most among those with enough calls for a
	 * distribution to mean something (not set-up or registration calls);
	 * failing that, the first API both groups have. */
	for (i = 0; i < ab->nrows && p.nd < AB_SVG_TOP; i++) {
		const struct ab_row *r = ab->rows[i];

		if (r->kind != ROW_API || r->s[0].n < AB_SVG_MIN ||
		    r->s[1].n < AB_SVG_MIN)
			continue;
		d[p.nd].name = r->name;
		d[p.nd].s[0] = &r->s[0];
		d[p.nd].s[1] = &r->s[1];
		d[p.nd].r = r->r;
		p.nd++;
	}
	for (i = 0; i < ab->nrows && !p.nd; i++) {
		const struct ab_row *r = ab->rows[i];

		if (r->kind != ROW_API || !r->s[0].n || !r->s[1].n)
			continue;
		d[0].name = r->name;
		d[0].s[0] = &r->s[0];
		d[0].s[1] = &r->s[1];
		d[0].r = r->r;
		p.nd = 1;
	}
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "lbtrace ab: %s: %s\n", path, strerror(errno));
		return 2;
	}
	rc = lbt_svg_ab(f, &p);
	if (fclose(f) || rc) {
		fprintf(stderr, "lbtrace ab: %s: write failed\n", path);
		return 2;
	}
	return 0;
}

