/*
 * check_stream_apis.c - hipemu's implementations of the stream-taking
 * calls added for the coverage of ROCm's headers (memset2d.c and the
 * files next to it), proven on hipemu itself: their results, their order
 * on the stream, the null stream's rules for the synchronous forms, and
 * the errors of the real runtime for bad arguments.
 *
 * A runner of its own (CK_FORK: a fresh runtime per test) so that it
 * leaves check_hipemu.c alone; the kernels are check_twins.c's.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbshim/hip_decls.h"
#include "hipemu.h"
#include "check_hipemu.h"

#define OK(x) ck_assert_int_eq((x), hipSuccess)

static int all_are(const unsigned char *p, size_t n, unsigned char v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

/* ---- memset2d.c ---- */

START_TEST(memset2d_rows_and_padding)
{
	unsigned char *p;
	size_t y;

	OK(hipMalloc((void **)&p, 64 * 8));
	memset(p, 0, 64 * 8);
	OK(hipMemset2D(p, 64, 0x7f, 40, 8));
	for (y = 0; y < 8; y++) {
		ck_assert(all_are(p + y * 64, 40, 0x7f));
		ck_assert(all_are(p + y * 64 + 40, 24, 0));
	}
	/* 16-bit elements, width in elements, pitch in bytes */
	OK(hipMemsetD2D16(p, 64, 0xbeef, 4, 2));
	ck_assert_int_eq(((unsigned short *)p)[3], 0xbeef);
	ck_assert_int_eq(((unsigned short *)(p + 64))[0], 0xbeef);
	ck_assert_int_eq(p[64 + 8], 0x7f);
	OK(hipMemsetD2D32(p, 64, 0x01020304u, 2, 1));
	ck_assert_int_eq(((unsigned *)p)[1], 0x01020304u);
	OK(hipMemsetD2D8(p, 64, 3, 1, 8));
	ck_assert_int_eq(p[7 * 64], 3);
	OK(hipFree(p));
}
END_TEST

START_TEST(memset3d_slices)
{
	unsigned char *p;
	hipPitchedPtr pp;
	size_t z, y;

	OK(hipMalloc((void **)&p, 32 * 4 * 3));
	memset(p, 0, 32 * 4 * 3);
	pp = make_hipPitchedPtr(p, 32, 32, 4);
	/* 16 of 32 bytes, 2 of 4 rows, 3 slices */
	OK(hipMemset3D(pp, 0x42, make_hipExtent(16, 2, 3)));
	for (z = 0; z < 3; z++)
		for (y = 0; y < 4; y++) {
			unsigned char *row = p + z * 128 + y * 32;

			ck_assert(all_are(row, 16, y < 2 ? 0x42 : 0));
			ck_assert(all_are(row + 16, 16, 0));
		}
	OK(hipFree(p));
}
END_TEST

START_TEST(memset2d_async_in_stream_order)
{
	hipStream_t s;
	int *p;

	register_kernels();
	OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
	OK(hipMalloc((void **)&p, 256));
	/* the kernel stores 7 at its end: the set after it must win */
	OK(klog(7, 100, p, s));
	OK(hipMemset2DAsync(p, 64, 0x13, 64, 4, s));
	OK(hipMemset3DAsync(make_hipPitchedPtr(p + 32, 64, 64, 1), 0x14,
			    make_hipExtent(64, 1, 1), s));
	OK(hipStreamSynchronize(s));
	ck_assert_int_eq(p[0], 0x13131313);
	ck_assert_int_eq(p[32], 0x14141414);
	OK(hipFree(p));
	OK(hipStreamDestroy(s));
}
END_TEST

START_TEST(memset2d_sync_waits_for_blocking)
{
	hipStream_t s;
	int *p;

	register_kernels();
	OK(hipStreamCreate(&s));
	OK(hipMalloc((void **)&p, 256));
	/* the legacy null stream waits for a blocking stream's kernel */
	OK(klog(9, 100, p, s));
	OK(hipMemset2D(p, 64, 0x21, 64, 4));
	ck_assert_int_eq(log_n, 1);
	ck_assert_int_eq(p[0], 0x21212121);
	/* the _spt form runs on (and waits for) the per-thread stream */
	OK(klog(10, 100, p, hipStreamPerThread));
	OK(hipMemset2D_spt(p, 64, 0x22, 64, 4));
	ck_assert_int_eq(log_n, 2);
	ck_assert_int_eq(p[0], 0x22222222);
	OK(hipFree(p));
	OK(hipStreamDestroy(s));
}
END_TEST

START_TEST(memset2d_errors)
{
	unsigned char host[256], *p;

	OK(hipMalloc((void **)&p, 256));
	/* clr ihipMemset3D_validate, rocm-6.2.0: no device allocation */
	ck_assert_int_eq(hipMemset2D(host, 64, 0, 64, 4), hipErrorInvalidValue);
	ck_assert_int_eq(hipMemset2D(p, 64, 0, 64, 5), hipErrorInvalidValue);
	ck_assert_int_eq(hipMemset2D(p, 0, 0, 64, 4), hipErrorInvalidValue);
	ck_assert_int_eq(hipMemset2D(NULL, 64, 0, 64, 4),
			 hipErrorInvalidValue);
	/* nothing to set: success, whatever the pointer */
	OK(hipMemset2D(NULL, 64, 0, 0, 4));
	OK(hipMemset3D(make_hipPitchedPtr(NULL, 0, 0, 0), 0,
		       make_hipExtent(0, 0, 0)));
	ck_assert_int_eq(hipMemsetAsync_spt(host, 0, 16, 0),
			 hipErrorInvalidValue);
	OK(hipMemsetAsync_spt(p, 1, 16, 0));
	OK(hipStreamSynchronize(hipStreamPerThread));
	ck_assert(all_are(p, 16, 1));
	OK(hipFree(p));
}
END_TEST

static Suite *stream_apis_suite(void)
{
	Suite *s = suite_create("hipemu-stream-apis");
	TCase *t;

#define ADD(name, fn)                           \
	do {                                    \
		t = tcase_create(name);         \
		tcase_set_timeout(t, 20);       \
		tcase_add_test(t, fn);          \
		suite_add_tcase(s, t);          \
	} while (0)
	ADD("memset2d", memset2d_rows_and_padding);
	ADD("memset3d", memset3d_slices);
	ADD("memset2d-async-order", memset2d_async_in_stream_order);
	ADD("memset2d-sync", memset2d_sync_waits_for_blocking);
	ADD("memset2d-errors", memset2d_errors);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stream_apis_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
