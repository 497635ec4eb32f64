/*
 * check_config.c - the configuration parsers: sizes with suffixes,
 * choices, and hostile values (empty, huge, non-ASCII, negative,
 * overflowing), each rejected with one warning and the default kept.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "shim.h"

START_TEST(sizes_parse)
{
	static const struct {
		const char *s;
		int ok;
		uint64_t v;
	} cases[] = {
		{ "0", 0, 0 },
		{ "4096", 0, 4096 },
		{ "2K", 0, 2048 },
		{ "2k", 0, 2048 },
		{ "3M", 0, 3ull << 20 },
		{ "1G", 0, 1ull << 30 },
		{ "1GiB", 0, 1ull << 30 },
		{ "5MB", 0, 5ull << 20 },
		{ "2T", 0, 2ull << 40 },
		{ "16777215T", 0, 16777215ull << 40 },
		{ "16777216T", -1, 0 },		  /* overflows 64 bits */
		{ "18446744073709551615", 0, UINT64_MAX },
		{ "18446744073709551616", -1, 0 }, /* overflows strtoull */
		{ "", -1, 0 },
		{ "-1", -1, 0 },
		{ " 1", -1, 0 },
		{ "1 ", -1, 0 },
		{ "1X", -1, 0 },
		{ "K", -1, 0 },
		{ "1KK", -1, 0 },
		{ "\xc3\xa9", -1, 0 },
		{ "1\xc3\xa9", -1, 0 },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		int r = lb_parse_size(cases[i].s, &v);

		ck_assert_msg(r == cases[i].ok, "\"%s\": got %d", cases[i].s, r);
		ck_assert_msg(v == (r ? 12345 : cases[i].v),
			      "\"%s\": value %llu", cases[i].s,
			      (unsigned long long)v);
	}
	ck_assert_int_eq(lb_parse_size(NULL, NULL), -1);
}
END_TEST

/* Runs fn with stderr captured; returns what was written. */
static char *captured(void (*fn)(void))
{
	static char buf[8192];
	int fds[2], saved = dup(2);
	ssize_t n;

	ck_assert(pipe(fds) == 0);
	dup2(fds[1], 2);
	close(fds[1]);
	fn();
	dup2(saved, 2);
	close(saved);
	n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static uint64_t got_size;
static int got_set;
static void read_size(void)
{
	got_size = 777;
	got_set = lb_env_size("LBSHIM_TEST_SIZE", &got_size);
}

static int count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s++;
	}
	return n;
}

START_TEST(bad_sizes_warn_once_and_keep_default)
{
	static const char *bad[] = { "", "-5", "12Q", "99999999999999999999G",
				     "\xff\xfe", "1e9" };
	char huge[5000];
	unsigned i;
	char *err;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("LBSHIM_TEST_SIZE", bad[i], 1);
		err = captured(read_size);
		ck_assert_int_eq(got_set, 0);
		ck_assert_int_eq(got_size, 777);
		ck_assert_msg(count(err, "lbshim: LBSHIM_TEST_SIZE=\"") == 1 &&
				      strstr(err, "K, M, G or T suffix"),
			      "value %u: warning: %s", i, err);
	}
	memset(huge, '7', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = 0;
	setenv("LBSHIM_TEST_SIZE", huge, 1);
	err = captured(read_size);
	ck_assert_int_eq(got_size, 777);
	ck_assert_msg(strlen(err) < 300, "warning not bounded: %zu bytes",
		      strlen(err));
	setenv("LBSHIM_TEST_SIZE", "64M", 1);
	err = captured(read_size);
	ck_assert_int_eq(got_set, 1);
	ck_assert(got_size == 64ull << 20);
	ck_assert_str_eq(err, "");
	unsetenv("LBSHIM_TEST_SIZE");
	err = captured(read_size);
	ck_assert_int_eq(got_set, 0);
	ck_assert_str_eq(err, "");
}
END_TEST

static int got_choice;
static void read_choice(void)
{
	static const char *const c[] = { "async", "sync", NULL };

	got_choice = lb_env_choice("LBSHIM_TEST_CHOICE", c, 0);
}

START_TEST(choices)
{
	char *err;

	setenv("LBSHIM_TEST_CHOICE", "sync", 1);
	err = captured(read_choice);
	ck_assert_int_eq(got_choice, 1);
	ck_assert_str_eq(err, "");
	setenv("LBSHIM_TEST_CHOICE", "SYNC", 1);
	err = captured(read_choice);
	ck_assert_int_eq(got_choice, 0);
	ck_assert_msg(strstr(err, "LBSHIM_TEST_CHOICE=\"SYNC\": not one of "
				  "async, sync; keeping \"async\"") != NULL,
		      "%s", err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("parse");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, sizes_parse);
	tcase_add_test(tc, bad_sizes_warn_once_and_keep_default);
	tcase_add_test(tc, choices);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
