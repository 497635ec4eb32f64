/*
 * check_poison.c - the part of the hipemu suite that checks what a free
 * leaves behind (memory.c's poison, tests/hipemu/README.md): the bytes of
 * a freed allocation read HIPEMU_POISON_BYTE where the program had
 * touched them, and a second free is refused.
 */
#include <check.h>
#include <stdbool.h>
#include <unistd.h>
#include "lbshim/hip_decls.h"
#include "hipemu.h"
#include "check_hipemu.h"

#define OK(x) ck_assert_int_eq((x), hipSuccess)

START_TEST(freed_memory_poisoned)
{
	unsigned char *d;

	OK(hipMalloc((void **)&d, 4096));
	memset(d, 0x11, 4096);
	OK(hipFree(d));
	for (int i = 0; i < 4096; i += 511)
		ck_assert_uint_eq(d[i], HIPEMU_POISON_BYTE);
	ck_assert_int_eq(hipFree(d), hipErrorInvalidValue);
}
END_TEST

/*
 * Only the pages that hold something are poisoned (memory.c's poison):
 * written, read (the zero page mapped) or written through a copy; a page
 * never touched reads zero after the free as before it.  Runs of both at
 * either end and longer than mincore's window of 256 pages.
 */
START_TEST(freed_memory_poisoned_where_touched)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n = 600, i;
	unsigned char *d, one = 7, seen;
	bool touched[600] = { false };

	OK(hipMalloc((void **)&d, n * pg));
	for (i = 0; i < n; i++) {
		if (i < 3 || (i >= 250 && i < 262) || i == 599 || i % 97 == 5) {
			d[i * pg + pg - 1] = 1;
			touched[i] = true;
		}
	}
	seen = *(volatile unsigned char *)&d[100 * pg]; /* read only */
	ck_assert_uint_eq(seen, 0);
	touched[100] = true;
	OK(hipMemcpy(d + 400 * pg + 9, &one, 1, hipMemcpyHostToDevice));
	touched[400] = true;
	OK(hipFree(d));
	for (i = 0; i < n; i++) {
		unsigned want = touched[i] ? HIPEMU_POISON_BYTE : 0;

		ck_assert_msg(d[i * pg] == want && d[i * pg + pg - 1] == want,
			      "page %zu: %#x %#x, want %#x", i, d[i * pg],
			      d[i * pg + pg - 1], want);
	}
}
END_TEST

void add_poison_tests(Suite *s)
{
	TCase *t = tcase_create("poison");

	tcase_set_timeout(t, 20);
	tcase_add_test(t, freed_memory_poisoned);
	suite_add_tcase(s, t);
	t = tcase_create("poison-touched");
	tcase_set_timeout(t, 20);
	tcase_add_test(t, freed_memory_poisoned_where_touched);
	suite_add_tcase(s, t);
}
