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


/* ---- copy2d.c and arrays.c ---- */

START_TEST(peer_copies)
{
	int *a, *b, h[4] = { 1, 2, 3, 4 };
	hipStream_t s;

	setenv("HIPEMU_DEVICES", "2", 1);
	OK(hipSetDevice(0));
	OK(hipMalloc((void **)&a, sizeof(h)));
	OK(hipMemcpy(a, h, sizeof(h), hipMemcpyHostToDevice));
	OK(hipSetDevice(1));
	OK(hipMalloc((void **)&b, sizeof(h)));
	OK(hipMemcpyPeer(b, 1, a, 0, sizeof(h)));
	ck_assert_int_eq(b[3], 4);
	OK(hipStreamCreate(&s));
	OK(hipMemcpyPeerAsync(b, 1, a + 1, 0, sizeof(int), s));
	OK(hipStreamSynchronize(s));
	ck_assert_int_eq(b[0], 2);
	ck_assert_int_eq(hipMemcpyPeer(b, 7, a, 0, 4), hipErrorInvalidDevice);
	OK(hipStreamDestroy(s));
}
END_TEST

static int sym[4];

START_TEST(symbol_copies)
{
	int h[2] = { 5, 6 }, back[2] = { 0, 0 };

	OK(hipMemcpyToSymbol(sym, h, sizeof(h), sizeof(int),
			     hipMemcpyHostToDevice));
	ck_assert_int_eq(sym[1], 5);
	ck_assert_int_eq(sym[2], 6);
	OK(hipMemcpyFromSymbol_spt(back, sym, sizeof(back), 2 * sizeof(int),
				   hipMemcpyDeviceToHost));
	ck_assert_int_eq(back[0], 6);
	OK(hipMemcpyToSymbolAsync(sym, h, sizeof(int), 0,
				  hipMemcpyHostToDevice, 0));
	OK(hipStreamSynchronize(0));
	ck_assert_int_eq(sym[0], 5);
	ck_assert_int_eq(hipMemcpyToSymbol(NULL, h, 4, 0,
					   hipMemcpyHostToDevice),
			 hipErrorInvalidSymbol);
}
END_TEST

START_TEST(copy3d_pitched_in_order)
{
	unsigned char *d, h[2][4][16];
	struct hipMemcpy3DParms p;
	hipStream_t s;
	size_t z, y;

	register_kernels();
	for (z = 0; z < 2; z++)
		for (y = 0; y < 4; y++)
			memset(h[z][y], (int)(z * 4 + y + 1), 16);
	OK(hipMalloc((void **)&d, 32 * 4 * 2));
	memset(d, 0, 32 * 4 * 2);
	memset(&p, 0, sizeof(p));
	p.srcPtr = make_hipPitchedPtr(h, 16, 16, 4);
	p.dstPtr = make_hipPitchedPtr(d, 32, 32, 4);
	p.extent = make_hipExtent(16, 4, 2);
	p.kind = hipMemcpyHostToDevice;
	OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
	/* the kernel's store of 3 at its end comes first: the copy wins */
	OK(klog(3, 100, (int *)d, s));
	OK(hipMemcpy3DAsync(&p, s));
	OK(hipStreamSynchronize(s));
	for (z = 0; z < 2; z++)
		for (y = 0; y < 4; y++) {
			ck_assert(all_are(d + z * 128 + y * 32, 16,
					  (unsigned char)(z * 4 + y + 1)));
			ck_assert(all_are(d + z * 128 + y * 32 + 16, 16, 0));
		}
	OK(hipStreamDestroy(s));
	OK(hipFree(d));
}
END_TEST

START_TEST(param2d_copies)
{
	unsigned char *d, h[3][8], back[3][8];
	hip_Memcpy2D c;
	HIP_MEMCPY3D c3;

	memset(h, 9, sizeof(h));
	OK(hipMalloc((void **)&d, 16 * 3));
	memset(d, 0, 16 * 3);
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = hipMemoryTypeHost;
	c.srcHost = h;
	c.srcPitch = 8;
	c.dstMemoryType = hipMemoryTypeDevice;
	c.dstDevice = d;
	c.dstPitch = 16;
	c.dstXInBytes = 4;
	c.WidthInBytes = 8;
	c.Height = 3;
	OK(hipMemcpyParam2D(&c));
	ck_assert(all_are(d + 16 * 2 + 4, 8, 9));
	ck_assert(all_are(d + 16 * 2, 4, 0));
	memset(&c3, 0, sizeof(c3));
	c3.srcMemoryType = hipMemoryTypeDevice;
	c3.srcDevice = d;
	c3.srcXInBytes = 4;
	c3.srcPitch = 16;
	c3.srcHeight = 3;
	c3.dstMemoryType = hipMemoryTypeHost;
	c3.dstHost = back;
	c3.dstPitch = 8;
	c3.dstHeight = 3;
	c3.WidthInBytes = 8;
	c3.Height = 3;
	c3.Depth = 1;
	memset(back, 0, sizeof(back));
	OK(hipDrvMemcpy3D(&c3));
	ck_assert(all_are(&back[0][0], sizeof(back), 9));
	c.dstMemoryType = (hipMemoryType)77;
	ck_assert_int_eq(hipMemcpyParam2D(&c), hipErrorInvalidValue);
	ck_assert_int_eq(hipMemcpyParam2D(NULL), hipErrorInvalidValue);
	OK(hipFree(d));
}
END_TEST

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
START_TEST(array_copies)
{
	hipChannelFormatDesc desc = { 32, 0, 0, 0, hipChannelFormatKindFloat };
	hipArray *a;
	float h[4][8], back[4][8], one[3] = { 1, 2, 3 }, got[3];
	size_t i;

	for (i = 0; i < 32; i++)
		h[i / 8][i % 8] = (float)i;
	OK(hipMallocArray(&a, &desc, 8, 4, 0));
	OK(hipMemcpy2DToArray(a, 0, 0, h, sizeof(h[0]), sizeof(h[0]), 4,
			      hipMemcpyHostToDevice));
	memset(back, 0, sizeof(back));
	OK(hipMemcpy2DFromArray(back, sizeof(back[0]), a, 0, 0,
				sizeof(back[0]), 4, hipMemcpyDeviceToHost));
	ck_assert(!memcmp(h, back, sizeof(h)));
	/* linear offsets in bytes, continuing across rows */
	OK(hipMemcpyHtoA(a, 7 * sizeof(float), one, sizeof(one)));
	OK(hipMemcpyAtoH(got, a, 7 * sizeof(float), sizeof(got)));
	ck_assert(!memcmp(got, one, sizeof(one)));
	OK(hipMemcpyFromArray(got, a, 0, 1, sizeof(got),
			      hipMemcpyDeviceToHost));
	ck_assert(got[0] == 2.0f && got[1] == 3.0f && got[2] == 10.0f);
	OK(hipMemcpy2DToArrayAsync(a, 4, 3, one, 4, 4, 1,
				   hipMemcpyHostToDevice, 0));
	OK(hipStreamSynchronize(0));
	OK(hipMemcpyAtoH(got, a, (3 * 8 + 1) * sizeof(float), 4));
	ck_assert(got[0] == 1.0f);
	ck_assert_int_eq(hipMemcpyHtoA(a, 31 * sizeof(float), one,
				       sizeof(one)),
			 hipErrorInvalidValue);
	OK(hipFreeArray(a));
}
END_TEST
#pragma GCC diagnostic warning "-Wdeprecated-declarations"


/* ---- streamops.c and launchmore.c ---- */

START_TEST(wait_and_write_value)
{
	hipStream_t a, b;
	uint32_t *flag;
	uint64_t *v64;
	int *out;

	register_kernels();
	OK(hipStreamCreateWithFlags(&a, hipStreamNonBlocking));
	OK(hipStreamCreateWithFlags(&b, hipStreamNonBlocking));
	OK(hipMalloc((void **)&flag, 64));
	memset(flag, 0, 64);
	v64 = (uint64_t *)(flag + 4);
	out = (int *)(flag + 8);
	/* a waits for flag >= 5, then its kernel stores 11 */
	OK(hipStreamWaitValue32(a, flag, 5, hipStreamWaitValueGte,
				0xffffffffu));
	OK(klog(11, 0, out, a));
	/* b writes the value after a 100 ms kernel: a is held till then */
	OK(klog(12, 100, NULL, b));
	OK(hipStreamWriteValue32(b, flag, 7, 0));
	OK(hipStreamWriteValue64(b, v64, 1ull << 40, 0));
	OK(hipStreamSynchronize(a));
	ck_assert_int_eq(*out, 11);
	ck_assert_int_eq(log_ids[0], 12);
	ck_assert_int_eq(log_ids[1], 11);
	OK(hipStreamSynchronize(b));
	ck_assert(*v64 == 1ull << 40);
	OK(hipStreamWaitValue64(a, v64, 1ull << 40, hipStreamWaitValueEq,
				~0ull));
	OK(hipStreamSynchronize(a));
	/* clr ihipStreamOperation: a host pointer, an unknown flag */
	ck_assert_int_eq(hipStreamWriteValue32(a, &log_n, 1, 0),
			 hipErrorInvalidValue);
	ck_assert_int_eq(hipStreamWaitValue32(a, flag, 1, 9, 1),
			 hipErrorInvalidValue);
	OK(hipStreamDestroy(a));
	OK(hipStreamDestroy(b));
}
END_TEST

START_TEST(capture_queries)
{
	hipStreamCaptureStatus st;
	unsigned long long id = 0;
	hipGraph_t g;
	size_t nd = 5;
	hipStream_t s;

	OK(hipStreamCreate(&s));
	OK(hipStreamGetCaptureInfo_v2(s, &st, &id, NULL, NULL, &nd));
	ck_assert_int_eq(st, hipStreamCaptureStatusNone);
	ck_assert_int_eq(hipStreamUpdateCaptureDependencies(s, NULL, 0, 0),
			 hipErrorIllegalState);
	OK(hipStreamBeginCapture(s, hipStreamCaptureModeRelaxed));
	OK(hipStreamGetCaptureInfo_v2(s, &st, &id, NULL, NULL, &nd));
	ck_assert_int_eq(st, hipStreamCaptureStatusActive);
	ck_assert(id != 0);
	ck_assert_int_eq(nd, 0);
	OK(hipStreamUpdateCaptureDependencies(s, NULL, 0, 0));
	ck_assert_int_eq(hipStreamUpdateCaptureDependencies(s, NULL, 0, 7),
			 hipErrorInvalidValue);
	OK(hipStreamEndCapture(s, &g));
	/* the per-thread stream, through the _spt forms */
	OK(hipStreamBeginCapture_spt(0, hipStreamCaptureModeRelaxed));
	OK(hipStreamIsCapturing_spt(0, &st));
	ck_assert_int_eq(st, hipStreamCaptureStatusActive);
	OK(hipStreamGetCaptureInfo_spt(hipStreamPerThread, &st, &id));
	ck_assert_int_eq(st, hipStreamCaptureStatusActive);
	OK(hipStreamEndCapture_spt(0, &g));
	OK(hipStreamIsCapturing(hipStreamPerThread, &st));
	ck_assert_int_eq(st, hipStreamCaptureStatusNone);
	OK(hipStreamDestroy(s));
}
END_TEST

START_TEST(stream_queries_and_interop)
{
	hipStream_t s;
	hipDevice_t dev = -1;
	uint32_t mask[2] = { 0, 0 };
	hipGraphicsResource_t res = NULL;
	hipExternalSemaphore_t sem = NULL;
	hipExternalSemaphoreSignalParams sp;

	setenv("HIPEMU_DEVICES", "2", 1);
	OK(hipSetDevice(1));
	OK(hipExtStreamCreateWithCUMask(&s, 2, mask));
	OK(hipStreamGetDevice(s, &dev));
	ck_assert_int_eq(dev, 1);
	ck_assert_int_eq(hipGetStreamDeviceId(s), 1);
	OK(hipExtStreamGetCUMask(s, 2, mask));
	ck_assert(mask[0] == 0xffffffffu);
	OK(hipStreamAttachMemAsync(s, mask, 0, hipMemAttachSingle));
	/* no GL context: clr hip_gl.cpp answers hipErrorUnknown */
	ck_assert_int_eq(hipGraphicsMapResources(1, &res, s), hipErrorUnknown);
	ck_assert_int_eq(hipGraphicsUnmapResources(0, &res, s),
			 hipErrorInvalidValue);
	memset(&sp, 0, sizeof(sp));
	ck_assert_int_eq(hipSignalExternalSemaphoresAsync(&sem, &sp, 1, s),
			 hipErrorInvalidValue);
	ck_assert_int_eq(hipMemMapArrayAsync(NULL, 0, s), hipErrorInvalidValue);
	OK(hipStreamDestroy(s));
}
END_TEST

START_TEST(configure_call_and_launch_lists)
{
	hipLaunchParams lp[2];
	hipStream_t s;
	int id = 21, ms = 0, out = 0, *outp = &out, out2 = 0, *outp2 = &out2;
	int id2 = 22;
	void *a2[] = { &id2, &ms, &outp2 };

	register_kernels();
	OK(hipStreamCreate(&s));
	OK(hipConfigureCall((dim3){ 1, 1, 1 }, (dim3){ 1, 1, 1 }, 0, s));
	OK(hipSetupArgument(&id, sizeof(id), 0));
	OK(hipSetupArgument(&ms, sizeof(ms), 4));
	OK(hipSetupArgument(&outp, sizeof(outp), 8));
	OK(hipLaunchByPtr(&stub_log));
	OK(hipStreamSynchronize(s));
	ck_assert_int_eq(out, 21);
	memset(lp, 0, sizeof(lp));
	lp[0].func = &stub_log;
	lp[0].gridDim = lp[0].blockDim = (dim3){ 1, 1, 1 };
	lp[0].args = a2;
	lp[0].stream = s;
	OK(hipExtLaunchMultiKernelMultiDevice(lp, 1, 0));
	OK(hipStreamSynchronize(s));
	ck_assert_int_eq(out2, 22);
	ck_assert_int_eq(hipLaunchCooperativeKernelMultiDevice(lp, 0, 0),
			 hipErrorInvalidValue);
	OK(hipStreamDestroy(s));
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
	ADD("peer", peer_copies);
	ADD("symbol", symbol_copies);
	ADD("copy3d", copy3d_pitched_in_order);
	ADD("param2d", param2d_copies);
	ADD("arrays", array_copies);
	ADD("wait-write-value", wait_and_write_value);
	ADD("capture-queries", capture_queries);
	ADD("stream-queries-interop", stream_queries_and_interop);
	ADD("configure-call", configure_call_and_launch_lists);
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
