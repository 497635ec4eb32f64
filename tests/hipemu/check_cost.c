/*
 * check_cost.c - the part of the hipemu suite that checks the cost model
 * (HIPEMU_COST_*, tests/hipemu/README.md): each cost is paid by the calls
 * it names.  Only lower bounds are asserted, which a loaded machine can
 * only make easier to meet, never flaky.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include "lbshim/hip_decls.h"
#include "check_hipemu.h"

#define OK(x) ck_assert_int_eq((x), hipSuccess)

START_TEST(cost_model)
{
	uint64_t t0;
	void *p;

	setenv("HIPEMU_COST_LAUNCH_NS", "20000000", 1);
	setenv("HIPEMU_COST_MALLOC_NS", "30000000", 1);
	t0 = now_ns();
	OK(klog(1, 0, NULL, 0));
	OK(klog(2, 0, NULL, 0));
	OK(hipMalloc(&p, 16));
	ck_assert(now_ns() - t0 >= 70000000u);
	OK(hipFree(p));
}
END_TEST

/* An event record and the two queries pay their costs (lower bound only). */
START_TEST(cost_record_query)
{
	hipEvent_t e;
	uint64_t t0, t1;

	setenv("HIPEMU_COST_RECORD_NS", "20000000", 1);
	setenv("HIPEMU_COST_QUERY_NS", "30000000", 1);
	OK(hipEventCreate(&e));
	t0 = now_ns();
	OK(hipEventRecord(e, NULL));
	t1 = now_ns();
	ck_assert(t1 - t0 >= 20000000u);
	OK(hipStreamSynchronize(NULL));
	t0 = now_ns();
	OK(hipEventQuery(e));
	OK(hipStreamQuery(NULL));
	ck_assert(now_ns() - t0 >= 60000000u);
	OK(hipEventDestroy(e));
}
END_TEST

void add_cost_tests(Suite *s)
{
	TCase *t = tcase_create("cost");

	tcase_set_timeout(t, 20);
	tcase_add_test(t, cost_model);
	tcase_add_test(t, cost_record_query);
	suite_add_tcase(s, t);
}
