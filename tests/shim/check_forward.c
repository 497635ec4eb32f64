/*
 * check_forward.c - every wrapper forwards exactly: the fake runtime
 * receives the very argument bytes the program passed, and the program
 * gets back exactly what the runtime returned, with errno untouched.
 *
 * Run with LD_PRELOAD=liblbshim.so and linked against the fake runtime
 * (tests/shim/fakehip.c), which records each call.  Without the preload
 * it tests the fake itself, so the runner insists on the shim being there.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "fakehip.h"

/* The two C++-mangled entry points have no C declaration. */
#define LB_API_AS(SYM, RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	RET NAME P __asm__(SYM);
#define LB_API(...)
#include "lbshim/hip_api.def"
#undef LB_API
#undef LB_API_AS

/* Every row is called, the ones HIP marks deprecated too. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static unsigned char seed;

/* Distinct, non-trivial bytes for every argument of every call. */
static void fill(void *p, size_t n)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(0x5a ^ (++seed * 37));
}

#define FILL_(a, x) fill(&a.x, sizeof(a.x));
#define SAME_(g, x)                                                    \
	ck_assert_msg(!memcmp(&g->x, &want.x, sizeof(want.x)),          \
		      "%s: argument %s changed on the way", name, #x);
#define ARG_(a, x) a.x

#define CALL_hipError_t(expr)                                           \
	do {                                                            \
		hipError_t r = expr;                                    \
		ck_assert_msg(r == ret, "%s returned %d, runtime said %d", \
			      name, (int)r, (int)ret);                  \
	} while (0)
#define CALL_lb_modules_t(expr)                                         \
	ck_assert_msg(expr == (lb_modules_t)(uintptr_t)(0x1000 + id),              \
		      "%s: result changed", name)
#define CALL_void(expr) expr
#define CALL_int(expr) \
	ck_assert_msg(expr == 0x1000 + id, "%s: result changed", name)
#define CALL_lb_cstr_t(expr)                                            \
	ck_assert_msg(expr == fakehip_cstr(id), "%s: result changed", name)

#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	static void fwd_##NAME(void)                                         \
	{                                                                    \
		const char *name = #NAME;                                    \
		const int id = LB_ID_##NAME;                                 \
		hipError_t ret = (hipError_t)(900 + id);                     \
		struct lb_args_##NAME want;                                  \
		const struct lb_args_##NAME *got;                            \
		unsigned long n0 = fakehip_count(id);                        \
		memset(&want, 0, sizeof(want));                              \
		LB_MAP(FILL_, want, A)                                       \
		fakehip_set_ret(ret);                                        \
		errno = 4242;                                                \
		CALL_##RET(NAME(LB_MAPC(ARG_, want, A)));                    \
		ck_assert_msg(errno == 4242, "%s changed errno", name);      \
		(void)ret;                                                   \
		/* by API: a policy may call the runtime itself meanwhile */ \
		ck_assert_msg(fakehip_count(id) > n0,                        \
			      "%s did not reach the runtime", name);         \
		got = (const void *)fakehip_last_of(id)->args;               \
		(void)got;                                                   \
		LB_MAP(SAME_, got, A)                                        \
	}
#define LB_API_AS(SYM, RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN)
#include "lbshim/hip_api.def"
#undef LB_API
#undef LB_API_AS

static void (*const fwd[LB_API_COUNT])(void) = {
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	[LB_ID_##NAME] = fwd_##NAME,
#include "lbshim/hip_api.def"
#undef LB_API
};

START_TEST(forwards_exactly)
{
	fwd[_i]();
}
END_TEST

START_TEST(wrapper_is_the_shims)
{
	/* The program's hipMalloc must be the preloaded shim's. */
	Dl_info info;

	ck_assert(dladdr((void *)hipMalloc, &info));
	ck_assert_msg(strstr(info.dli_fname, "lbshim") != NULL,
		      "hipMalloc resolved to %s, not the shim",
		      info.dli_fname);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("forward");
	TCase *tc = tcase_create("rows");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, wrapper_is_the_shims);
	/* HIP's rows (the fake runtime is HIP's; CUDA's: tests/cuda) */
	tcase_add_loop_test(tc, forwards_exactly, 0, LB_API_HIP_COUNT);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
