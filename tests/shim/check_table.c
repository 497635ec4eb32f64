/*
 * check_table.c - hip_api.def against the real ROCm runtime: every row is
 * exported by Debian's libamdhip64.so.5 under the row's symbol version, or
 * is marked optional (LB_F_OPT) and then absent from it.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"

static void *real;

static void open_real(void)
{
	const char *path = getenv("REAL_HIP_LIB");

	real = dlopen(path ? path : "/usr/lib/x86_64-linux-gnu/libamdhip64.so.5",
		      RTLD_NOW | RTLD_LOCAL);
}

START_TEST(row_in_real_runtime)
{
	const struct lb_api_info *r = &lb_api_info[_i];
	void *fn;

	ck_assert_msg(real != NULL, "cannot open the real runtime: %s",
		      dlerror());
	fn = dlvsym(real, r->symbol, r->version);
	if (r->flags & LB_F_OPT)
		ck_assert_msg(dlsym(real, r->symbol) == NULL,
			      "%s is marked optional but ROCm 5.2 has it",
			      r->name);
	else
		ck_assert_msg(fn != NULL, "%s@%s is not in the real runtime",
			      r->symbol, r->version);
}
END_TEST

START_TEST(ids_names_unique)
{
	int i, j;

	for (i = 0; i < LB_API_COUNT; i++) {
		ck_assert_int_eq(lb_api_lookup(lb_api_info[i].symbol), i);
		for (j = i + 1; j < LB_API_COUNT; j++)
			ck_assert_msg(strcmp(lb_api_info[i].symbol,
					     lb_api_info[j].symbol),
				      "duplicate symbol %s",
				      lb_api_info[i].symbol);
	}
	ck_assert_int_eq(lb_api_lookup("hipNoSuchFunction"), -1);
	ck_assert_int_eq(lb_api_lookup(NULL), -1);
}
END_TEST

START_TEST(stream_index_names_a_stream)
{
	/* The rows' stream index must point at a parameter. */
	const struct lb_api_info *r = &lb_api_info[_i];

	ck_assert_msg(r->stream_idx < (int)r->nargs,
		      "%s: stream index %d beyond %d parameters", r->name,
		      r->stream_idx, r->nargs);
	/* a launch names its stream, or says where it is (LB_F_INDIRECT) */
	if (r->kind == LB_KIND_LAUNCH && strncmp(r->name, "__hip", 5))
		ck_assert_msg((r->stream_idx >= 0) !=
				      !!(r->flags & LB_F_INDIRECT),
			      "%s: launch without stream", r->name);
}
END_TEST

/* The id of the row named NAME less "_spt", plus "Async"; or -1. */
static int async_form(const char *name)
{
	char buf[128];
	size_t n = strlen(name);

	if (n > 4 && !strcmp(name + n - 4, "_spt"))
		n -= 4;
	if (n + sizeof("Async") > sizeof(buf))
		return -1;
	memcpy(buf, name, n);
	strcpy(buf + n, "Async");
	return lb_api_lookup(buf);
}

START_TEST(twin_takes_the_rows_arguments_and_a_stream)
{
	/*
	 * stream0 calls a row's twin with the row's arguments plus its
	 * stream.  A synchronous null-stream row (or its _spt form) whose
	 * HIP API has an Async form has that form as its twin; the twin
	 * takes one parameter more, its stream, and is of the same kind.
	 */
	const struct lb_api_info *r = &lb_api_info[_i], *t;
	int want = -1;

	if ((r->flags & LB_F_NULLSYNC) ||
	    ((r->flags & LB_F_SPT) && r->stream_idx < 0))
		want = async_form(r->name);
	ck_assert_msg(r->twin == want, "%s: twin %s, want %s", r->name,
		      r->twin < 0 ? "none" : lb_api_info[r->twin].name,
		      want < 0 ? "none" : lb_api_info[want].name);
	if (r->twin < 0)
		return;
	t = &lb_api_info[r->twin];
	ck_assert_msg(t->nargs == r->nargs + 1 &&
			      t->stream_idx == (int)r->nargs,
		      "%s: twin %s does not take its arguments and a stream",
		      r->name, t->name);
	ck_assert_msg(t->kind == r->kind, "%s: twin %s of another kind",
		      r->name, t->name);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("api_table");
	TCase *tc = tcase_create("rows");
	SRunner *sr;
	int failed;

	open_real();
	tcase_add_loop_test(tc, row_in_real_runtime, 0, LB_API_COUNT);
	tcase_add_loop_test(tc, stream_index_names_a_stream, 0, LB_API_COUNT);
	tcase_add_loop_test(tc, twin_takes_the_rows_arguments_and_a_stream, 0,
			    LB_API_COUNT);
	tcase_add_test(tc, ids_names_unique);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
