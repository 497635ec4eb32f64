/*
 * check_stats.c - tools/stats.c: nearest-rank quantiles, the Beta
 * sampler, and bootstrap intervals of a ratio over values and over runs.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "ab/stats.h"

static void fill(struct lbs_sample *s, int n, int64_t mult, uint32_t runs)
{
	int i;

	for (i = 0; i < n; i++)
		lbs_add(s, mult * (1000 + (i * 7919) % 1000), (uint32_t)i % runs);
	ck_assert_int_eq(lbs_finish(s, runs), 0);
}

START_TEST(nearest_rank)
{
	struct lbs_sample s = { 0 };
	int i;

	for (i = 10; i >= 1; i--)
		lbs_add(&s, i, 0);
	lbs_finish(&s, 1);
	ck_assert_int_eq(lbs_quantile(&s, 0.5), 5);
	ck_assert_int_eq(lbs_quantile(&s, 0.99), 10);
	ck_assert_int_eq(lbs_quantile(&s, 0.01), 1);
	ck_assert_int_eq(lbs_quantile(&s, 1.0), 10);
	lbs_free(&s);
	ck_assert_int_eq(lbs_quantile(&s, 0.5), 0); /* empty */
}
END_TEST

START_TEST(beta_mean)
{
	struct lbs_rng r;
	double sum = 0;
	int i;

	lbs_rng_seed(&r, 7);
	for (i = 0; i < 20000; i++)
		sum += lbs_rng_beta(&r, 3, 7);
	/* mean a / (a + b) = 0.3; sd of the mean about 0.001 */
	ck_assert_double_eq_tol(sum / 20000, 0.3, 0.01);
}
END_TEST

START_TEST(doubled_by_values)
{
	struct lbs_sample a = { 0 }, b = { 0 };
	struct lbs_ratio r, r2;

	fill(&a, 5000, 1, 1);
	fill(&b, 5000, 2, 1);
	ck_assert_int_eq(lbs_ratio_ci(&a, &b, 0.5, 0, LBS_NBOOT, LBS_SEED, &r),
			 LBS_BY_VALUES);
	ck_assert_double_eq_tol(r.ratio, 2.0, 1e-12);
	ck_assert(r.lo <= 2.0 && 2.0 <= r.hi);
	ck_assert(r.excludes1);
	/* fixed seed: the same interval again */
	lbs_ratio_ci(&a, &b, 0.5, 0, LBS_NBOOT, LBS_SEED, &r2);
	ck_assert(r.lo == r2.lo && r.hi == r2.hi);
	lbs_free(&a);
	lbs_free(&b);
}
END_TEST

START_TEST(same_by_runs)
{
	struct lbs_sample a = { 0 }, b = { 0 };
	struct lbs_ratio r;

	fill(&a, 3000, 1, 5);
	fill(&b, 3000, 1, 5);
	ck_assert_int_eq(lbs_ratio_ci(&a, &b, 0.5, 1, LBS_NBOOT, LBS_SEED, &r),
			 LBS_BY_RUNS);
	ck_assert_double_eq(r.ratio, 1.0);
	ck_assert(r.lo <= 1.0 && 1.0 <= r.hi);
	ck_assert(!r.excludes1);
	lbs_free(&a);
	lbs_free(&b);
}
END_TEST

START_TEST(doubled_by_runs)
{
	struct lbs_sample a = { 0 }, b = { 0 };
	struct lbs_ratio r;

	fill(&a, 3000, 1, 4);
	fill(&b, 3000, 2, 4);
	lbs_ratio_ci(&a, &b, 0.99, 1, LBS_NBOOT, LBS_SEED, &r);
	ck_assert_int_eq(r.method, LBS_BY_RUNS);
	ck_assert(r.lo <= 2.0 && 2.0 <= r.hi && r.excludes1);
	lbs_free(&a);
	lbs_free(&b);
}
END_TEST

START_TEST(too_little)
{
	struct lbs_sample a = { 0 }, b = { 0 };
	struct lbs_ratio r;

	lbs_add(&a, 0, 0);
	lbs_finish(&a, 1);
	fill(&b, 10, 1, 1);
	/* one value: no interval; a zero median: infinite ratio */
	ck_assert_int_eq(lbs_ratio_ci(&a, &b, 0.5, 0, 100, 1, &r), LBS_NONE);
	ck_assert(isinf(r.ratio));
	/* one run: no interval over runs */
	ck_assert_int_eq(lbs_ratio_ci(&b, &b, 0.5, 1, 100, 1, &r), LBS_NONE);
	lbs_free(&a);
	lbs_free(&b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int bad;

	tcase_add_test(tc, nearest_rank);
	tcase_add_test(tc, beta_mean);
	tcase_add_test(tc, doubled_by_values);
	tcase_add_test(tc, same_by_runs);
	tcase_add_test(tc, doubled_by_runs);
	tcase_add_test(tc, too_little);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	bad = srunner_ntests_failed(sr);
	srunner_free(sr);
	return bad ? 1 : 0;
}
