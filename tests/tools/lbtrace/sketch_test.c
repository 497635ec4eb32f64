/*
 * sketch_test.c - the summary's quantile sketch against exact quantiles:
 * several value distributions, every quantile within 1% (relative) of
 * the nearest-rank value of the sorted data; merge equals adding all.
 * Prints one line per failure, exits 1 if any.
 */
#include <stdio.h>
#include <stdlib.h>
#include "cmd/sketch.h"

static uint64_t lcg = 88172645463325252ull;

static uint64_t rnd(void)
{
	lcg ^= lcg << 13;
	lcg ^= lcg >> 7;
	lcg ^= lcg << 17;
	return lcg;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int check(const char *what, uint64_t *v, size_t n)
{
	static const double qs[] = {0.01, 0.1, 0.25, 0.5,
				    0.75, 0.9, 0.99, 0.999};
	struct lbt_sketch s = {0}, a = {0}, b = {0};
	size_t i, k;
	int bad = 0;

	for (i = 0; i < n; i++) {
		lbt_sketch_add(&s, v[i]);
		lbt_sketch_add(i % 2 ? &a : &b, v[i]);
	}
	lbt_sketch_merge(&a, &b);
	qsort(v, n, sizeof(*v), cmp);
	for (k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		size_t rank = (size_t)(qs[k] * n);
		double exact, got, err;

		if ((double)rank < qs[k] * n)
			rank++;
		exact = (double)v[rank ? rank - 1 : 0];
		got = (double)lbt_sketch_quantile(&s, qs[k]);
		err = exact ? (got - exact) / exact : got;
		if (err > 0.01 || err < -0.01) {
			printf(
			    "FAIL %s q=%g: exact %.0f sketch %.0f (%.3f%%)\n",
			    what, qs[k], exact, got, err * 100);
			bad = 1;
		}
		if (lbt_sketch_quantile(&a, qs[k]) !=
		    lbt_sketch_quantile(&s, qs[k])) {
			printf("FAIL %s q=%g: merged sketch differs\n", what,
			       qs[k]);
			bad = 1;
		}
	}
	if (lbt_sketch_quantile(&s, 1) != v[n - 1] ||
	    lbt_sketch_quantile(&s, 0) != v[0]) {
		printf("FAIL %s: min/max\n", what);
		bad = 1;
	}
	lbt_sketch_free(&s);
	lbt_sketch_free(&a);
	lbt_sketch_free(&b);
	if (!bad)
		printf("ok %s\n", what);
	return bad;
}

int main(void)
{
	size_t n = 200000, i;
	uint64_t *v = malloc(n * sizeof(*v));
	int bad = 0;

	if (!v)
		return 1;
	for (i = 0; i < n; i++)
		v[i] = 1 + rnd() % 100000; /* uniform */
	bad |= check("uniform", v, n);
	for (i = 0; i < n; i++)
		v[i] = 1ull << (rnd() % 40) | (rnd() & 1023); /* log-spread */
	bad |= check("log-spread", v, n);
	for (i = 0; i < n; i++)
		v[i] = i % 100 ? 2000 + rnd() % 50 : 5000000 + rnd() % 10000;
	bad |= check("bimodal", v, n);
	for (i = 0; i < n; i++)
		v[i] = rnd() % 130; /* small, exact range */
	bad |= check("small", v, n);
	free(v);
	return bad;
}
