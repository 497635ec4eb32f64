/*
 * check_cuda_table.c - cuda_api.def against NVIDIA's libraries of the
 * toolkit installed (CUDA 13.0): every runtime row is exported by
 * libcudart.so.13 under its version node, every driver row by the
 * driver's link stub (lib64/stubs/libcuda.so: the same names as
 * libcuda.so.1); and against HIP's rows: a row's HIP twin exists and
 * plays the same call role, so that the policies, which read roles,
 * treat the two alike.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"

static void *rt, *drv;

static void *open_lib(const char *rel)
{
	const char *home = getenv("CUDA_HOME");
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", home ? home : "/usr/local/cuda",
		 rel);
	return dlopen(path, RTLD_LAZY | RTLD_LOCAL);
}

START_TEST(row_exported_by_nvidia)
{
	const struct lb_api_info *r = &lb_api_info[_i];

	if (!strncmp(r->version, "libcudart", 9)) {
		ck_assert_msg(rt != NULL, "no libcudart.so.13");
		ck_assert_msg(dlvsym(rt, r->symbol, r->version) != NULL,
			      "%s@%s is not in libcudart.so.13", r->symbol,
			      r->version);
	} else {
		ck_assert_msg(!*r->version, "%s: version \"%s\"", r->name,
			      r->version);
		ck_assert_msg(drv != NULL, "no lib64/stubs/libcuda.so");
		ck_assert_msg(dlsym(drv, r->symbol) != NULL,
			      "%s is not in libcuda", r->symbol);
	}
}
END_TEST

START_TEST(twin_has_the_same_role)
{
	const struct lb_api_info *r = &lb_api_info[_i];
	int t = lb_api_hip_twin(_i);

	if (t < 0)
		return;
	ck_assert_msg(lb_api_info[t].role == r->role,
		      "%s: role %d, its HIP twin %s's %d", r->name, r->role,
		      lb_api_info[t].name, lb_api_info[t].role);
	ck_assert_msg(lb_api_info[t].kind == r->kind,
		      "%s: kind other than its HIP twin %s's", r->name,
		      lb_api_info[t].name);
}
END_TEST

START_TEST(twins_named_exist)
{
	/* the policies' rows, each with its twin (cuda_api.def's column) */
	static const char *const pairs[][2] = {
		{ "cudaMalloc", "hipMalloc" },
		{ "cuMemAlloc_v2", "hipMalloc" },
		{ "cudaFree", "hipFree" },
		{ "cuMemFree_v2", "hipFree" },
		{ "cudaLaunchKernel", "hipLaunchKernel" },
		{ "__cudaLaunchKernel", "hipLaunchKernel" },
		{ "cuLaunchKernel", "hipModuleLaunchKernel" },
		{ "cudaStreamSynchronize", "hipStreamSynchronize" },
		{ "cuStreamSynchronize_ptsz", "hipStreamSynchronize" },
		{ "cudaMemcpyAsync", "hipMemcpyAsync" },
		{ "__cudaRegisterFunction", "__hipRegisterFunction" },
		{ "cuModuleGetFunction", "hipModuleGetFunction" },
		{ "cudaGetLastError", "hipGetLastError" },
	};
	size_t i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		int c = lb_api_lookup(pairs[i][0]);

		ck_assert_msg(c >= LB_API_HIP_COUNT, "%s: no CUDA row",
			      pairs[i][0]);
		ck_assert_msg(lb_api_hip_twin(c) ==
				      lb_api_lookup(pairs[i][1]),
			      "%s: twin is not %s", pairs[i][0], pairs[i][1]);
	}
	ck_assert_int_eq(lb_api_hip_twin(lb_api_lookup("hipMalloc")), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cuda_table");
	TCase *tc = tcase_create("rows");
	SRunner *sr;
	int failed;

	rt = open_lib("lib64/libcudart.so.13");
	drv = open_lib("lib64/stubs/libcuda.so");
	tcase_add_loop_test(tc, row_exported_by_nvidia, LB_API_HIP_COUNT,
			    LB_API_COUNT);
	tcase_add_loop_test(tc, twin_has_the_same_role, LB_API_HIP_COUNT,
			    LB_API_COUNT);
	tcase_add_test(tc, twins_named_exist);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
