/*
 * sketch.h - a streaming quantile sketch for durations: a log-linear
 * histogram (64 buckets per power of two, exact below 128) whose
 * quantiles are within 1% of the true value (relative), in memory that
 * grows with the range of values seen, not with their number.
 */
#ifndef LBTRACE_SKETCH_H
#define LBTRACE_SKETCH_H

#include <stdint.h>

#define LBT_SKETCH_ROWS 59 /* 2 exact rows + one per octave 2^7..2^63 */

struct lbt_sketch {
	uint64_t n;
	unsigned __int128 sum;
	uint64_t min, max;
	uint64_t *row[LBT_SKETCH_ROWS]; /* 64 counters each, made on use */
	int oom;			/* a row could not be allocated */
};

/* Makes row R of S; 0 or -1 (out of memory: S->oom set). */
int lbt_sketch_row(struct lbt_sketch *s, unsigned r);

/* Adds value V; returns 0, or -1 if a row could not be allocated (the
 * value still counts in n, sum, min and max).  Inline: it is the summary's
 * inner loop.  A value v >= 128 with top bit e lands in row e - 5 at
 * column (v >> (e - 6)) & 63: its bucket is 1/64 of its octave wide, so
 * the bucket's middle is within 1/128 (< 1%) of any value in it. */
static inline int lbt_sketch_add(struct lbt_sketch *s, uint64_t v)
{
	unsigned r, c, e;

	if (!s->n || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->n++;
	s->sum += v;
	if (v < 128) {
		r = v >> 6;
		c = v & 63;
	} else {
		e = 63 - __builtin_clzll(v);
		r = e - 5;
		c = (v >> (e - 6)) & 63;
	}
	if (__builtin_expect(!s->row[r], 0) && lbt_sketch_row(s, r))
		return -1;
	s->row[r][c]++;
	return 0;
}

/* Value at quantile Q (0..1), within 1%; 0 when empty. */
uint64_t lbt_sketch_quantile(const struct lbt_sketch *s, double q);

/* Mean, rounded down; 0 when empty. */
uint64_t lbt_sketch_mean(const struct lbt_sketch *s);

/* Adds everything in SRC to DST; returns 0 or -1 (out of memory). */
int lbt_sketch_merge(struct lbt_sketch *dst, const struct lbt_sketch *src);

/* Frees the rows (the struct itself is the caller's). */
void lbt_sketch_free(struct lbt_sketch *s);

#endif
