/*
 * check_profile.c - the part of the hipemu suite that depends on the
 * profile (tests/hipemu/README.md, "Profiles"): what the release reports
 * and exports, its last-error rule, and hipFree's wait.  The release is
 * the one hipRuntimeGetVersion reports; PROFILE (set by t_profile.sh, "5.2"
 * when unset) says which one that must be.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/hip_decls.h"
#include "check_hipemu.h"

#define OK(x) ck_assert_int_eq((x), hipSuccess)

/* ROCm major * 10 + minor, from hipRuntimeGetVersion. */
static int release(void)
{
	int v = 0;

	OK(hipRuntimeGetVersion(&v));
	return v / 10000000 * 10 + v / 100000 % 100;
}

/*
 * First release exporting each function newer than ROCm 5.2 that the
 * suite uses (mk/rocm-layouts.txt: node, or span, with its source).
 */
static const struct {
	const char *name;
	int first;
} newer_fns[] = {
	{ "hipLaunchHostFunc", 53 },
	{ "hipEventRecord_spt", 53 },
	{ "hipExtGetLastError", 60 },
	{ "hipGetDevicePropertiesR0000", 60 },
	{ "hipGetDevicePropertiesR0600", 60 },
	{ "hipExtModuleLaunchKernel", 61 },
	{ "hipHccModuleLaunchKernel", 61 },
	{ "hipGetProcAddress", 62 },
};

void *newer_fn(const char *name)
{
	void *fn = dlsym(RTLD_DEFAULT, name);
	int r = release();

	for (size_t i = 0; i < sizeof(newer_fns) / sizeof(newer_fns[0]); i++)
		if (!strcmp(newer_fns[i].name, name))
			ck_assert_msg(!fn == (r < newer_fns[i].first),
				      "%s %s by release %d", name,
				      fn ? "exported" : "missing", r);
	return fn;
}

START_TEST(reports_its_release)
{
	const char *p = getenv("PROFILE");
	char want[16], got[16];
	int r = release();

	snprintf(want, sizeof(want), "%s", p && *p ? p : "5.2");
	snprintf(got, sizeof(got), "%d.%d", r / 10, r % 10);
	ck_assert_str_eq(got, want);
	for (size_t i = 0; i < sizeof(newer_fns) / sizeof(newer_fns[0]); i++)
		(void)newer_fn(newer_fns[i].name);
	/* The mangled module launches stay beside the C names of 6.1
	 * (mk/rocm-layouts.txt). */
	ck_assert_msg(dlsym(RTLD_DEFAULT, "_Z24hipHccModuleLaunchKernelP18"
			    "ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_"
			    "P11ihipEvent_tS6_") != NULL,
		      "mangled hipHccModuleLaunchKernel in release %d", r);
}
END_TEST

/*
 * ROCm 6's hipGetDevicePropertiesR0600 fills the 6.0 layout: name at 0,
 * totalGlobalMem at 288, gcnArchName at 1160, 1472 bytes (HIP include/hip/
 * hip_runtime_api.h, rocm-6.2.0); R0000 and the old name the 5.x one.
 */
START_TEST(device_properties_layouts)
{
	hipError_t (*r0)(hipDeviceProp_t *, int) =
		(hipError_t(*)(hipDeviceProp_t *, int))newer_fn(
			"hipGetDevicePropertiesR0000");
	hipError_t (*r6)(void *, int) = (hipError_t(*)(void *, int))newer_fn(
		"hipGetDevicePropertiesR0600");
	hipDeviceProp_t old, old0;
	unsigned char b[1472 + 64];
	size_t total;

	OK(hipGetDeviceProperties(&old, 0));
	ck_assert_str_eq(old.gcnArchName, "gfx1030");
	if (r0) {
		OK(r0(&old0, 0));
		ck_assert_int_eq(memcmp(&old, &old0, sizeof(old)), 0);
		ck_assert_int_eq(r0(NULL, 0), hipErrorInvalidValue);
	}
	if (!r6)
		return;
	memset(b, 0xa5, sizeof(b));
	OK(r6(b, 0));
	ck_assert_str_eq((char *)b, old.name);
	memcpy(&total, b + 288, sizeof(total));
	ck_assert_uint_eq(total, old.totalGlobalMem);
	ck_assert_str_eq((char *)b + 1160, "gfx1030");
	for (size_t i = 1472; i < sizeof(b); i++)
		ck_assert_uint_eq(b[i], 0xa5);
	ck_assert_int_eq(r6(b, 99), hipErrorInvalidDevice);
}
END_TEST

static hipError_t fail_launch(void)
{
	void *args[] = { NULL };

	return hipLaunchKernel(&stub_missing, (dim3){ 1, 1, 1 },
			       (dim3){ 1, 1, 1 }, args, 0, 0);
}

/*
 * 5.x/6.x: the last error is the value of the thread's last call; 7.x:
 * the last failure other than hipErrorNotReady, and hipExtGetLastError
 * the last call's value (profile.c cites clr for both).
 */
START_TEST(last_error_rule)
{
	hipError_t (*ext)(void) =
		(hipError_t(*)(void))newer_fn("hipExtGetLastError");
	int sticky = release() >= 70;
	hipStream_t s;

	register_kernels();
	ck_assert_int_eq(fail_launch(), hipErrorInvalidDeviceFunction);
	ck_assert_int_eq(hipPeekAtLastError(), hipErrorInvalidDeviceFunction);
	OK(hipDeviceSynchronize());
	if (ext)
		ck_assert_int_eq(ext(), hipSuccess);
	ck_assert_int_eq(hipPeekAtLastError(),
			 sticky ? hipErrorInvalidDeviceFunction : hipSuccess);
	ck_assert_int_eq(hipGetLastError(),
			 sticky ? hipErrorInvalidDeviceFunction : hipSuccess);
	OK(hipGetLastError());

	/* A busy stream's hipErrorNotReady. */
	OK(hipStreamCreate(&s));
	OK(klog(1, 200, NULL, s));
	ck_assert_int_eq(hipStreamQuery(s), hipErrorNotReady);
	ck_assert_int_eq(hipGetLastError(),
			 sticky ? hipSuccess : hipErrorNotReady);
	OK(hipStreamSynchronize(s));
	OK(hipStreamDestroy(s));

	/* The value after a failure: the next success, or the failure. */
	ck_assert_int_eq(fail_launch(), hipErrorInvalidDeviceFunction);
	OK(hipSetDevice(0));
	if (ext)
		ck_assert_int_eq(ext(), hipSuccess);
	ck_assert_int_eq(hipGetLastError(),
			 sticky ? hipErrorInvalidDeviceFunction : hipSuccess);
	OK(hipGetLastError());
}
END_TEST

static atomic_int release_cb;

static void block_cb(hipStream_t s, hipError_t e, void *ud)
{
	(void)s;
	(void)e;
	(void)ud;
	while (!atomic_load(&release_cb))
		;
}

/*
 * hipFree waits for its allocation's device only (clr ihipFree, cited in
 * memory.c): with device 1 held by a callback that ends only after the
 * free returns, a free of device 0's memory that waited for device 1
 * would never return (the test's timeout fails it).
 */
START_TEST(free_waits_own_device)
{
	hipStream_t s1;
	void *p;

	setenv("HIPEMU_DEVICES", "2", 1);
	OK(hipSetDevice(1));
	OK(hipStreamCreate(&s1));
	OK(hipStreamAddCallback(s1, block_cb, NULL, 0));
	OK(hipSetDevice(0));
	OK(hipMalloc(&p, 256));
	OK(hipFree(p));
	atomic_store(&release_cb, 1);
	OK(hipSetDevice(1));
	OK(hipStreamSynchronize(s1));
	OK(hipStreamDestroy(s1));
}
END_TEST

void add_profile_tests(Suite *s)
{
	TCase *t = tcase_create("profile");

	tcase_set_timeout(t, 10);
	tcase_add_test(t, reports_its_release);
	tcase_add_test(t, device_properties_layouts);
	tcase_add_test(t, last_error_rule);
	tcase_add_test(t, free_waits_own_device);
	suite_add_tcase(s, t);
}
