/*
 * stats.h - the statistics behind `lbtrace ab`: samples of durations
 * labelled by run, nearest-rank quantiles, and percentile-bootstrap
 * confidence intervals of a ratio of quantiles between two groups.
 *
 * Resampling is either over runs (the runs of each group are drawn with
 * replacement and their values pooled: the variation between runs is what
 * a user wants to know when there are several) or over values (one run, or
 * one value per run as for wall times).  The random numbers come from a
 * splitmix64 generator with a fixed seed, so the same traces always give
 * the same intervals.
 */
#ifndef LBTRACE_STATS_H
#define LBTRACE_STATS_H

#include <stddef.h>
#include <stdint.h>

#define LBS_SEED 1u	  /* seed of every interval (documented in lbtrace(1)) */
#define LBS_NBOOT 2000u	  /* resamples per interval */

struct lbs_rng {
	uint64_t s;
};

/* Seeds R; the same seed gives the same sequence. */
void lbs_rng_seed(struct lbs_rng *r, uint64_t seed);

/* Next 64 random bits. */
uint64_t lbs_rng_u64(struct lbs_rng *r);

/* Uniform double in (0, 1), never 0 or 1. */
double lbs_rng_unif(struct lbs_rng *r);

/* Uniform integer in [0, n), n > 0. */
uint64_t lbs_rng_below(struct lbs_rng *r, uint64_t n);

/* A Beta(a, b) variate, a >= 1 and b >= 1. */
double lbs_rng_beta(struct lbs_rng *r, double a, double b);

/*
 * A sample: values (durations in ns) each labelled with the run it came
 * from.  Fill with lbs_add(), then lbs_finish() once; after that it is
 * read-only.
 */
struct lbs_sample {
	int64_t *v;		/* sorted by lbs_finish() */
	uint32_t *run;		/* run of v[i] */
	size_t n, cap;
	uint32_t nruns;		/* runs of the group, values or not */
	/* by lbs_finish(): per-run counts among the first k * ck_step
	 * values, for weighted quantiles in O(nruns log n) */
	uint32_t *ck;
	size_t nck, ck_step;
	int oom;		/* an allocation failed: sample unusable */
};

/* Adds value V of run RUN (< the nruns later given to lbs_finish). */
void lbs_add(struct lbs_sample *s, int64_t v, uint32_t run);

/* Adds every value of SRC, not yet finished, to DST with its run. */
void lbs_add_all(struct lbs_sample *dst, const struct lbs_sample *src);

/*
 * Sorts S and indexes it for resampling over NRUNS runs.  Returns 0, or -1
 * if out of memory (S->oom set; quantiles still work, intervals do not).
 */
int lbs_finish(struct lbs_sample *s, uint32_t nruns);

/* Frees what S holds and zeroes it. */
void lbs_free(struct lbs_sample *s);

/*
 * Nearest-rank quantile Q (0 < Q <= 1) of the sorted values: the
 * ceil(Q * n)-th smallest.  0 for an empty sample.
 */
int64_t lbs_quantile(const struct lbs_sample *s, double q);

enum lbs_method {
	LBS_NONE = 0,	/* no interval: too little data */
	LBS_BY_RUNS,	/* resampling runs */
	LBS_BY_VALUES	/* resampling values (calls, or runs' wall times) */
};

struct lbs_ratio {
	double ratio;	/* quantile(B) / quantile(A) */
	double lo, hi;	/* 95% percentile-bootstrap interval */
	int method;	/* enum lbs_method; LBS_NONE: lo/hi meaningless */
	int excludes1;	/* the interval lies wholly above or below 1 */
};

/*
 * Ratio of quantile Q of B to that of A with a 95% bootstrap interval
 * over NBOOT resamples seeded with SEED.  BY_RUNS asks for resampling over
 * runs (used when both groups have at least two runs), else over values.
 * A zero quantile in A gives ratio 1 when B's is zero too, else infinity.
 * Returns OUT->method.
 */
int lbs_ratio_ci(const struct lbs_sample *a, const struct lbs_sample *b,
		 double q, int by_runs, unsigned nboot, uint64_t seed,
		 struct lbs_ratio *out);

#endif
