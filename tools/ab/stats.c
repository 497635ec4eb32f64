/*
 * stats.c - samples, quantiles and bootstrap intervals for `lbtrace ab`.
 *
 * Two resampling schemes, both exact bootstraps computed without building
 * the resampled data:
 *
 * - over values: the k-th smallest of n values drawn with replacement
 *   from sorted x is x[floor(n * U)], U the k-th order statistic of n
 *   uniforms, which is Beta(k, n - k + 1).  One Beta variate per
 *   replicate instead of n draws and a selection.
 * - over runs: each run drawn w times weighs its values w times; the
 *   weighted quantile is found by binary search over checkpoints of
 *   per-run counts, then a short walk.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ab/stats.h"

void lbs_rng_seed(struct lbs_rng *r, uint64_t seed)
{
	r->s = seed;
}

uint64_t lbs_rng_u64(struct lbs_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double lbs_rng_unif(struct lbs_rng *r)
{
	/* 53 random bits, shifted off 0 by half a step */
	return ((double)(lbs_rng_u64(r) >> 11) + 0.5) / 9007199254740992.0;
}

uint64_t lbs_rng_below(struct lbs_rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)lbs_rng_u64(r) * n;

	return (uint64_t)(m >> 64);
}

static double rng_normal(struct lbs_rng *r)
{
	double u, v, s;

	do {
		u = 2 * lbs_rng_unif(r) - 1;
		v = 2 * lbs_rng_unif(r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return u * sqrt(-2 * log(s) / s);
}

/* Gamma(a, 1), a >= 1: Marsaglia and Tsang (2000). */
static double rng_gamma(struct lbs_rng *r, double a)
{
	double d = a - 1.0 / 3, c = 1 / sqrt(9 * d), x, v, u;

	for (;;) {
		x = rng_normal(r);
		v = 1 + c * x;
		if (v <= 0)
			continue;
		v = v * v * v;
		u = lbs_rng_unif(r);
		if (u < 1 - 0.0331 * x * x * x * x)
			return d * v;
		if (log(u) < 0.5 * x * x + d * (1 - v + log(v)))
			return d * v;
	}
}

double lbs_rng_beta(struct lbs_rng *r, double a, double b)
{
	double x = rng_gamma(r, a), y = rng_gamma(r, b);

	return x / (x + y);
}

/* Values and run labels are kept together so one sort orders both. */
struct pair {
	int64_t v;
	uint32_t run;
};

void lbs_add(struct lbs_sample *s, int64_t v, uint32_t run)
{
	struct pair *p;

	if (s->oom)
		return;
	if (s->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 64;

		p = realloc(s->v, nc * sizeof(*p));
		if (!p) {
			s->oom = 1;
			return;
		}
		s->v = (int64_t *)p;
		s->cap = nc;
	}
	p = (struct pair *)s->v;
	p[s->n].v = v;
	p[s->n].run = run;
	s->n++;
}

void lbs_add_all(struct lbs_sample *dst, const struct lbs_sample *src)
{
	const struct pair *p = (const struct pair *)src->v;
	size_t i;

	if (src->oom)
		dst->oom = 1;
	for (i = 0; i < src->n && !dst->oom; i++)
		lbs_add(dst, p[i].v, p[i].run);
}

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->run < y->run ? -1 : x->run > y->run;
}

int lbs_finish(struct lbs_sample *s, uint32_t nruns)
{
	struct pair *p = (struct pair *)s->v;
	int64_t *v;
	uint32_t *run, *cnt;
	size_t i, c;

	s->nruns = nruns;
	if (s->oom)
		goto fail;
	if (!s->n)
		return 0;
	qsort(p, s->n, sizeof(*p), cmp_pair);
	v = malloc(s->n * sizeof(*v));
	run = malloc(s->n * sizeof(*run));
	if (!v || !run) {
		free(v);
		free(run);
		goto fail;
	}
	for (i = 0; i < s->n; i++) {
		v[i] = p[i].v;
		run[i] = p[i].run < nruns ? p[i].run : 0;
	}
	free(p);
	s->v = v;
	s->run = run;
	/* A step of at least nruns keeps the index within 4 bytes a value. */
	s->ck_step = nruns > 64 ? nruns : 64;
	s->nck = s->n / s->ck_step + 1;
	s->ck = calloc(s->nck * (nruns ? nruns : 1), sizeof(*s->ck));
	if (!s->ck || !nruns) {
		s->oom = 1;
		return -1;
	}
	cnt = calloc(nruns, sizeof(*cnt));
	if (!cnt) {
		s->oom = 1;
		return -1;
	}
	for (i = 0, c = 0; i <= s->n; i++) {
		if (i % s->ck_step == 0 && c < s->nck)
			memcpy(s->ck + c++ * nruns, cnt, nruns * sizeof(*cnt));
		if (i < s->n)
			cnt[run[i]]++;
	}
	free(cnt);
	return 0;
fail:
	/* Keep quantiles working on whatever is there: sort what we have. */
	s->oom = 1;
	if (p && s->n && !s->run)
		qsort(p, s->n, sizeof(*p), cmp_pair);
	return -1;
}

void lbs_free(struct lbs_sample *s)
{
	free(s->v);
	free(s->run);
	free(s->ck);
	memset(s, 0, sizeof(*s));
}

static int64_t value_at(const struct lbs_sample *s, size_t i)
{
	if (s->run)
		return s->v[i];
	return ((const struct pair *)s->v)[i].v; /* unfinished or OOM */
}

int64_t lbs_quantile(const struct lbs_sample *s, double q)
{
	size_t k;

	if (!s->n)
		return 0;
	k = (size_t)ceil(q * (double)s->n);
	if (k < 1)
		k = 1;
	if (k > s->n)
		k = s->n;
	return value_at(s, k - 1);
}

/* One replicate over values: the bootstrap k-th order statistic. */
static int64_t boot_values(const struct lbs_sample *s, double q,
			   struct lbs_rng *r)
{
	size_t n = s->n, k = (size_t)ceil(q * (double)n), i;
	double u;

	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	u = lbs_rng_beta(r, (double)k, (double)(n - k + 1));
	i = (size_t)(u * (double)n);
	return s->v[i < n ? i : n - 1];
}

/* Weighted count of the first C * ck_step values. */
static uint64_t ck_weight(const struct lbs_sample *s, size_t c,
			  const uint32_t *w, const uint32_t *drawn,
			  uint32_t ndrawn)
{
	const uint32_t *row = s->ck + c * s->nruns;
	uint64_t acc = 0;
	uint32_t j;

	for (j = 0; j < ndrawn; j++)
		acc += (uint64_t)w[drawn[j]] * row[drawn[j]];
	return acc;
}

/*
 * One replicate over runs: draw nruns runs with replacement (weights W,
 * the distinct ones listed in DRAWN), return the weighted quantile, or -1
 * when the drawn runs have no values.
 */
static int64_t boot_runs(const struct lbs_sample *s, double q,
			 struct lbs_rng *r, uint32_t *w, uint32_t *drawn)
{
	uint32_t ndrawn = 0, j, x;
	uint64_t total, k, acc;
	size_t lo, hi, mid, i;
	int64_t out = -1;

	for (j = 0; j < s->nruns; j++) {
		x = (uint32_t)lbs_rng_below(r, s->nruns);
		if (!w[x]++)
			drawn[ndrawn++] = x;
	}
	total = ck_weight(s, s->nck - 1, w, drawn, ndrawn);
	for (i = (s->nck - 1) * s->ck_step; i < s->n; i++)
		total += w[s->run[i]];
	if (!total)
		goto out;
	k = (uint64_t)ceil(q * (double)total);
	if (k < 1)
		k = 1;
	/* the last checkpoint whose weight is still below k */
	lo = 0;
	hi = s->nck - 1;
	while (lo < hi) {
		mid = (lo + hi + 1) / 2;
		if (ck_weight(s, mid, w, drawn, ndrawn) < k)
			lo = mid;
		else
			hi = mid - 1;
	}
	acc = ck_weight(s, lo, w, drawn, ndrawn);
	for (i = lo * s->ck_step; i < s->n; i++) {
		acc += w[s->run[i]];
		if (acc >= k) {
			out = s->v[i];
			break;
		}
	}
out:
	for (j = 0; j < ndrawn; j++)
		w[drawn[j]] = 0;
	return out;
}

static double ratio_of(int64_t a, int64_t b)
{
	if (a <= 0)
		return b <= 0 ? 1.0 : INFINITY;
	return (double)b / (double)a;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int lbs_ratio_ci(const struct lbs_sample *a, const struct lbs_sample *b,
		 double q, int by_runs, unsigned nboot, uint64_t seed,
		 struct lbs_ratio *out)
{
	const struct lbs_sample *g[2] = { a, b };
	uint32_t *w[2] = { NULL, NULL }, *drawn[2] = { NULL, NULL };
	struct lbs_rng rng;
	double *rs = NULL;
	unsigned i, nok = 0;
	int k;

	memset(out, 0, sizeof(*out));
	out->ratio = ratio_of(lbs_quantile(a, q), lbs_quantile(b, q));
	out->method = LBS_NONE;
	if (!a->n || !b->n || a->oom || b->oom || !a->run || !b->run)
		return LBS_NONE;
	if (by_runs ? a->nruns < 2 || b->nruns < 2 : a->n < 2 || b->n < 2)
		return LBS_NONE;
	rs = malloc(nboot * sizeof(*rs));
	if (!rs)
		return LBS_NONE;
	if (by_runs) {
		for (k = 0; k < 2; k++) {
			w[k] = calloc(g[k]->nruns, sizeof(*w[k]));
			drawn[k] = calloc(g[k]->nruns, sizeof(*drawn[k]));
			if (!w[k] || !drawn[k])
				goto out;
		}
	}
	lbs_rng_seed(&rng, seed);
	for (i = 0; i < nboot; i++) {
		int64_t qa, qb;

		if (by_runs) {
			qa = boot_runs(a, q, &rng, w[0], drawn[0]);
			qb = boot_runs(b, q, &rng, w[1], drawn[1]);
			if (qa < 0 || qb < 0)
				continue;
		} else {
			qa = boot_values(a, q, &rng);
			qb = boot_values(b, q, &rng);
		}
		rs[nok++] = ratio_of(qa, qb);
	}
	/* Too many empty resamples: the runs rarely have this API at all. */
	if (nok < nboot / 2)
		goto out;
	qsort(rs, nok, sizeof(*rs), cmp_double);
	out->lo = rs[(size_t)floor(0.025 * (nok - 1))];
	out->hi = rs[(size_t)ceil(0.975 * (nok - 1))];
	out->method = by_runs ? LBS_BY_RUNS : LBS_BY_VALUES;
	out->excludes1 = out->lo > 1.0 || out->hi < 1.0;
out:
	for (k = 0; k < 2; k++) {
		free(w[k]);
		free(drawn[k]);
	}
	free(rs);
	return out->method;
}
