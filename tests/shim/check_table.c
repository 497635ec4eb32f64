/*
 * check_table.c - hip_api.def against the real ROCm runtime: every row is
 * exported by Debian's libamdhip64.so.5 under the row's symbol version, or
 * is marked optional (LB_F_OPT) and then absent from it; and against
 * itself: each row's roles (include/lbshim/roles.h) are what its call
 * role requires, and a row's _spt form, twin and C++-named copy say the
 * same.
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

/* Does name end with the per-thread suffix sfx? */
static int ends(const char *name, size_t n, const char *sfx)
{
	size_t k = strlen(sfx);

	return n > k && !strcmp(name + n - k, sfx);
}

/*
 * The id of the row named NAME less "_spt" (CUDA's "_ptds"), plus
 * "Async" (before the driver's "_v2": cuMemcpyHtoDAsync_v2); or -1.
 */
static int async_form(const char *name)
{
	char buf[128];
	size_t n = strlen(name);
	int v2;

	if (ends(name, n, "_spt"))
		n -= 4;
	else if (ends(name, n, "_ptds"))
		n -= 5;
	v2 = n > 3 && !strncmp(name + n - 3, "_v2", 3);
	if (v2)
		n -= 3;
	if (n + sizeof("Async_v2") > sizeof(buf))
		return -1;
	memcpy(buf, name, n);
	strcpy(buf + n, v2 ? "Async_v2" : "Async");
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

#define B(r) (1ull << LB_AR_##r)
/*
 * What each call role requires of a row (roles.h): every argument role of
 * all, one at least of any (when not 0), a stream parameter (stream), and
 * the kind of call.
 */
static const struct {
	uint64_t all, any;
	int stream;
	int kind;
} need[LB_ROLE_COUNT] = {
	[LB_ROLE_NONE] = { 0, 0, 0, -1 },
	[LB_ROLE_LAUNCH] = { B(KERNEL), 0, 0, LB_KIND_LAUNCH },
	[LB_ROLE_LAUNCH_MODULE] = { B(KERNEL), B(KARGS) | B(EXTRA), 0,
				    LB_KIND_LAUNCH },
	[LB_ROLE_HOST_FN] = { B(FN) | B(USERDATA), 0, 1, LB_KIND_LAUNCH },
	[LB_ROLE_CALLBACK] = { B(FN) | B(USERDATA), 0, 1, LB_KIND_LAUNCH },
	[LB_ROLE_GRAPH_LAUNCH] = { B(GRAPH), 0, 1, LB_KIND_LAUNCH },
	[LB_ROLE_CONFIGURE] = { B(GRID) | B(BLOCK) | B(SHMEM), 0, 1,
				LB_KIND_LAUNCH },
	[LB_ROLE_CONFIG_PUSH] = { B(GRID) | B(BLOCK) | B(SHMEM), 0, 1,
				  LB_KIND_LAUNCH },
	[LB_ROLE_CONFIG_POP] = { B(GRID_OUT) | B(BLOCK_OUT) | B(SHMEM_OUT), 0,
				 0, LB_KIND_LAUNCH },
	[LB_ROLE_KERNEL_NAME] = { B(KERNEL), 0, 1, LB_KIND_OTHER },
	[LB_ROLE_COPY] = { B(DST) | B(SRC) | B(KIND), B(BYTES) | B(WIDTH), 0,
			   LB_KIND_COPY },
	[LB_ROLE_COPY_HTOD] = { B(DST) | B(SRC) | B(BYTES), 0, 0,
				LB_KIND_COPY },
	[LB_ROLE_COPY_DTOH] = { B(DST) | B(SRC) | B(BYTES), 0, 0,
				LB_KIND_COPY },
	[LB_ROLE_COPY_DTOD] = { B(DST) | B(SRC) | B(BYTES), 0, 0,
				LB_KIND_COPY },
	[LB_ROLE_COPY_PEER] = { B(DST) | B(SRC) | B(BYTES), 0, 0,
				LB_KIND_COPY },
	[LB_ROLE_COPY_WAIT] = { B(DST) | B(SRC) | B(BYTES) | B(KIND), 0, 1,
				LB_KIND_COPY },
	[LB_ROLE_SET] = { B(VALUE), B(BYTES) | B(WIDTH) | B(EXTENT), 0,
			  LB_KIND_SET },
	[LB_ROLE_SET16] = { B(VALUE), B(NUM) | B(WIDTH), 0, LB_KIND_SET },
	[LB_ROLE_SET32] = { B(VALUE), B(NUM) | B(WIDTH), 0, LB_KIND_SET },
	[LB_ROLE_PREFETCH] = { B(PTR) | B(BYTES), 0, 1, LB_KIND_COPY },
	[LB_ROLE_ADVISE] = { B(PTR) | B(BYTES) | B(ADVICE) | B(DEVICE), 0, 0,
			     LB_KIND_OTHER },
	[LB_ROLE_ALLOC] = { B(OUT) | B(BYTES), 0, 0, LB_KIND_ALLOC },
	[LB_ROLE_ALLOC_MANAGED] = { B(OUT) | B(BYTES), 0, 0, LB_KIND_ALLOC },
	[LB_ROLE_ALLOC_HOST] = { B(OUT) | B(BYTES), 0, 0, LB_KIND_ALLOC },
	[LB_ROLE_ALLOC_ASYNC] = { B(OUT) | B(BYTES), 0, 1, LB_KIND_ALLOC },
	[LB_ROLE_ALLOC_PITCH] = { B(OUT) | B(PITCH_OUT) | B(WIDTH) | B(HEIGHT),
				  0, 0, LB_KIND_ALLOC },
	[LB_ROLE_ALLOC_3D] = { B(PITCHED_OUT) | B(EXTENT), 0, 0,
			       LB_KIND_ALLOC },
	[LB_ROLE_ALLOC_ARRAY] = { B(OUT) | B(EXTENT), 0, 0, LB_KIND_ALLOC },
	[LB_ROLE_FREE] = { B(PTR), 0, 0, LB_KIND_FREE },
	[LB_ROLE_FREE_ASYNC] = { B(PTR), 0, 1, LB_KIND_FREE },
	[LB_ROLE_FREE_HOST] = { B(PTR), 0, 0, LB_KIND_FREE },
	[LB_ROLE_PTR_ATTRIBUTES] = { B(PTR) | B(ATTRS_OUT), 0, 0,
				     LB_KIND_OTHER },
	[LB_ROLE_PTR_ATTRIBUTE] = { B(PTR) | B(DATA) | B(ATTR), 0, 0,
				    LB_KIND_OTHER },
	[LB_ROLE_PTR_ATTRIBUTE_LIST] = { B(PTR) | B(NUM) | B(ATTR_LIST) |
						 B(DATA_LIST),
					 0, 0, LB_KIND_OTHER },
	[LB_ROLE_PTR_SIZE] = { B(PTR) | B(SIZE_OUT), 0, 0, LB_KIND_OTHER },
	[LB_ROLE_ADDRESS_RANGE] = { B(PTR) | B(BASE_OUT) | B(SIZE_OUT), 0, 0,
				    LB_KIND_OTHER },
	[LB_ROLE_RANGE_QUERY] = { B(PTR) | B(BYTES), 0, 0, LB_KIND_OTHER },
	[LB_ROLE_IPC_HANDLE] = { B(PTR), 0, 0, LB_KIND_OTHER },
	[LB_ROLE_MEM_INFO] = { B(FREE_OUT) | B(TOTAL_OUT), 0, 0,
			       LB_KIND_OTHER },
	[LB_ROLE_STREAM_CREATE] = { B(OUT), 0, 0, LB_KIND_STREAM },
	[LB_ROLE_STREAM_DESTROY] = { 0, 0, 1, LB_KIND_STREAM },
	[LB_ROLE_STREAM_SYNC] = { 0, 0, 1, LB_KIND_SYNC },
	[LB_ROLE_STREAM_QUERY] = { 0, 0, 1, LB_KIND_SYNC },
	[LB_ROLE_STREAM_WAIT] = { B(EVENT), 0, 1, LB_KIND_EVENT },
	[LB_ROLE_STREAM_GET] = { 0, B(FLAGS_OUT) | B(PRIORITY_OUT), 1,
				 LB_KIND_STREAM },
	[LB_ROLE_CAPTURE_BEGIN] = { B(MODE), 0, 1, LB_KIND_STREAM },
	[LB_ROLE_CAPTURE_END] = { B(OUT), 0, 1, LB_KIND_STREAM },
	[LB_ROLE_CAPTURE_STATUS] = { B(STATUS_OUT), 0, 1, LB_KIND_STREAM },
	[LB_ROLE_EVENT_CREATE] = { B(OUT), 0, 0, LB_KIND_EVENT },
	[LB_ROLE_EVENT_RECORD] = { B(EVENT), 0, 1, LB_KIND_EVENT },
	[LB_ROLE_EVENT_SYNC] = { B(EVENT), 0, 0, LB_KIND_SYNC },
	[LB_ROLE_EVENT_QUERY] = { B(EVENT), 0, 0, LB_KIND_EVENT },
	[LB_ROLE_EVENT_DESTROY] = { B(EVENT), 0, 0, LB_KIND_EVENT },
	[LB_ROLE_EVENT_ELAPSED] = { B(MS_OUT) | B(EVENT) | B(EVENT_END), 0, 0,
				    LB_KIND_EVENT },
	[LB_ROLE_DEVICE_SYNC] = { 0, 0, 0, LB_KIND_SYNC },
	[LB_ROLE_DEVICE_SET] = { B(DEVICE), 0, 0, LB_KIND_DEVICE },
	[LB_ROLE_DEVICE_GET] = { B(DEVICE_OUT), 0, 0, LB_KIND_DEVICE },
	[LB_ROLE_DEVICE_RESET] = { 0, 0, 0, LB_KIND_DEVICE },
	[LB_ROLE_DEVICE_QUERY] = { B(DEVICE), 0, 0, LB_KIND_DEVICE },
	[LB_ROLE_REG_FATBIN] = { B(IMAGE), 0, 0, LB_KIND_REG },
	[LB_ROLE_UNREG_FATBIN] = { B(MODULE), 0, 0, LB_KIND_REG },
	[LB_ROLE_REG_FUNCTION] = { B(MODULE) | B(KERNEL) | B(NAME), 0, 0,
				   LB_KIND_REG },
	[LB_ROLE_MODULE_LOAD] = { B(OUT), B(FNAME) | B(IMAGE), 0,
				  LB_KIND_REG },
	[LB_ROLE_MODULE_UNLOAD] = { B(MODULE), 0, 0, LB_KIND_REG },
	[LB_ROLE_MODULE_FUNCTION] = { B(OUT) | B(MODULE) | B(NAME), 0, 0,
				      LB_KIND_REG },
	[LB_ROLE_KERNEL_HANDLE] = { B(OUT) | B(KERNEL), 0, 0, LB_KIND_REG },
	[LB_ROLE_PROC_ADDRESS] = { B(NAME) | B(OUT), 0, 0, LB_KIND_OTHER },
	[LB_ROLE_LASTERR_GET] = { 0, 0, 0, LB_KIND_OTHER },
	[LB_ROLE_LASTERR_PEEK] = { 0, 0, 0, LB_KIND_OTHER },
	[LB_ROLE_LASTERR_EXT] = { 0, 0, 0, LB_KIND_OTHER },
};

/* The argument roles row api has, as a mask of B(). */
static uint64_t roles_of(int api)
{
	uint64_t m = 0;
	unsigned r;

	for (r = 0; r < LB_AR_COUNT; r++)
		if (lb_ar_has(api, r))
			m |= 1ull << r;
	return m;
}

START_TEST(roles_as_the_call_role_requires)
{
	const struct lb_api_info *r = &lb_api_info[_i];
	uint64_t m = roles_of(_i);

	ck_assert_int_lt(r->role, LB_ROLE_COUNT);
	ck_assert_msg((m & need[r->role].all) == need[r->role].all,
		      "%s: argument roles %#llx lack %#llx", r->name,
		      (unsigned long long)m,
		      (unsigned long long)(need[r->role].all & ~m));
	ck_assert_msg(!need[r->role].any || (m & need[r->role].any),
		      "%s: none of the argument roles %#llx", r->name,
		      (unsigned long long)need[r->role].any);
	ck_assert_msg(!need[r->role].stream || r->stream_idx >= 0,
		      "%s: its role needs a stream parameter", r->name);
	ck_assert_msg(need[r->role].kind < 0 || need[r->role].kind == r->kind,
		      "%s: role of another kind of call", r->name);
	/* argument roles are read only under a call role */
	ck_assert_msg(r->role != LB_ROLE_NONE || !m,
		      "%s: argument roles without a call role", r->name);
}
END_TEST

/* Do rows a and b have the same roles, in the same places? */
static int same_roles(int a, int b)
{
	return lb_api_info[a].role == lb_api_info[b].role &&
	       !memcmp(lb_arg_tab[a], lb_arg_tab[b], sizeof(lb_arg_tab[a]));
}

START_TEST(related_rows_share_roles)
{
	/*
	 * A policy treats a call by its roles: an _spt form, the Async
	 * twin of a synchronous row (called with the row's arguments) and
	 * the C++-named copy of a row must say what their row says, or one
	 * of them escapes the policies.
	 */
	const struct lb_api_info *r = &lb_api_info[_i];
	size_t n = strlen(r->name);
	char base[128];
	int b;

	if (n > 5 && n < sizeof(base) &&
	    (!strcmp(r->name + n - 4, "_spt") ||
	     !strcmp(r->name + n - 5, "_ptsz") ||
	     !strcmp(r->name + n - 5, "_ptds"))) {
		size_t k = r->name[n - 4] == '_' ? 4 : 5;

		memcpy(base, r->name, n - k);
		base[n - k] = 0;
		b = lb_api_lookup(base);
		if (b >= 0)
			ck_assert_msg(same_roles(_i, b),
				      "%s: roles other than %s's", r->name,
				      base);
	}
	if (r->twin >= 0)
		ck_assert_msg(same_roles(_i, r->twin),
			      "%s: roles other than its twin %s's", r->name,
			      lb_api_info[r->twin].name);
	b = lb_api_lookup(r->name); /* the first row of that name */
	if (b != _i)
		ck_assert_msg(same_roles(_i, b), "%s: its rows differ",
			      r->name);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("api_table");
	TCase *tc = tcase_create("rows");
	SRunner *sr;
	int failed;

	open_real();
	/* HIP's rows; CUDA's: check_cuda_table.c */
	tcase_add_loop_test(tc, row_in_real_runtime, 0, LB_API_HIP_COUNT);
	tcase_add_loop_test(tc, stream_index_names_a_stream, 0, LB_API_COUNT);
	tcase_add_loop_test(tc, twin_takes_the_rows_arguments_and_a_stream, 0,
			    LB_API_COUNT);
	tcase_add_loop_test(tc, roles_as_the_call_role_requires, 0,
			    LB_API_COUNT);
	tcase_add_loop_test(tc, related_rows_share_roles, 0, LB_API_COUNT);
	tcase_add_test(tc, ids_names_unique);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
