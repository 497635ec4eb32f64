/*
 * sketch.c - the log-linear duration histogram (sketch.h; the bucket of a
 * value is computed there).
 */
#include <stdlib.h>
#include "cmd/sketch.h"

/* The value that stands for bucket (ROW, COL): its middle. */
static uint64_t value_of(unsigned row, unsigned col)
{
	unsigned e;
	uint64_t lo, width;

	if (row < 2)
		return row * 64 + col;
	e = row + 5;
	lo = (uint64_t)(64 + col) << (e - 6);
	width = (uint64_t)1 << (e - 6);
	return lo + width / 2;
}

int lbt_sketch_row(struct lbt_sketch *s, unsigned r)
{
	s->row[r] = calloc(64, sizeof(uint64_t));
	if (s->row[r])
		return 0;
	s->oom = 1;
	return -1;
}

uint64_t lbt_sketch_quantile(const struct lbt_sketch *s, double q)
{
	uint64_t rank, seen = 0, v;
	unsigned r, c;

	if (!s->n)
		return 0;
	if (q <= 0)
		return s->min;
	if (q >= 1)
		return s->max;
	rank = (uint64_t)(q * (double)s->n);
	if ((double)rank < q * (double)s->n)
		rank++; /* ceil */
	if (rank < 1)
		rank = 1;
	for (r = 0; r < LBT_SKETCH_ROWS; r++) {
		if (!s->row[r])
			continue;
		for (c = 0; c < 64; c++) {
			seen += s->row[r][c];
			if (seen >= rank) {
				v = value_of(r, c);
				return v < s->min   ? s->min
				       : v > s->max ? s->max
						    : v;
			}
		}
	}
	return s->max; /* rows lost to OOM */
}

uint64_t lbt_sketch_mean(const struct lbt_sketch *s)
{
	return s->n ? (uint64_t)(s->sum / s->n) : 0;
}

int lbt_sketch_merge(struct lbt_sketch *d, const struct lbt_sketch *s)
{
	unsigned r, c;

	if (!s->n)
		return 0;
	if (!d->n || s->min < d->min)
		d->min = s->min;
	if (s->max > d->max)
		d->max = s->max;
	d->n += s->n;
	d->sum += s->sum;
	for (r = 0; r < LBT_SKETCH_ROWS; r++) {
		if (!s->row[r])
			continue;
		if (!d->row[r] && !(d->row[r] = calloc(64, sizeof(uint64_t)))) {
			d->oom = 1;
			return -1;
		}
		for (c = 0; c < 64; c++)
			d->row[r][c] += s->row[r][c];
	}
	return 0;
}

void lbt_sketch_free(struct lbt_sketch *s)
{
	unsigned r;

	for (r = 0; r < LBT_SKETCH_ROWS; r++) {
		free(s->row[r]);
		s->row[r] = NULL;
	}
}
