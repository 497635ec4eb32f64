/*
 * prog_families.c - one call or more of every family the shim wraps, on
 * hipemu, printing each call's result and the data it produced (never a
 * pointer): the output must be the same with and without the shim, with
 * and without the trace policy, and under injected faults.
 */
#include <stdio.h>
#include <string.h>
#include "lbshim/hip_decls.h"
#include "hipemu.h"

/* The device function "lbfam_add": adds args[1] to n ints at args[0]. */
HIPEMU_ARGS(lbfam_add, sizeof(int *), sizeof(int), sizeof(int));
HIPEMU_TWIN(lbfam_add)
{
	int *p = *(int **)args[0];
	int add = *(int *)args[1], n = *(int *)args[2], i;

	(void)launch;
	for (i = 0; i < n; i++)
		p[i] += add;
}

static void stub(void)
{
}

#define R(call) printf("%-28s %d\n", #call, (int)(call))

static void host_cb(hipStream_t s, hipError_t st, void *arg)
{
	(void)s;
	*(int *)arg = 100 + (int)st;
}

int main(void)
{
	int h[64], out[64], i, dev = -1, prio = 9, *d = NULL, *d2 = NULL;
	unsigned flags = 77;
	void *m = NULL, *pitched = NULL, *hostp = NULL;
	size_t pitch = 0, fr = 0, tot = 0, rsz = 0;
	hipStream_t s = NULL, nb = NULL;
	hipEvent_t e0 = NULL, e1 = NULL;
	hipModule_t mod = NULL;
	hipFunction_t fn = NULL;
	hipDeviceptr_t base = NULL;
	hipStreamCaptureStatus cap = hipStreamCaptureStatusActive;
	lb_modules_t fat;
	dim3 g = { 1, 1, 1 }, b = { 64, 1, 1 };
	int n = 64, add = 5, cbv = 0;
	void *kargs[] = { &d, &add, &n };
	float ms = -1;

	for (i = 0; i < 64; i++)
		h[i] = i;
	/* Failed copies must show as zeros, not as stack garbage. */
	memset(out, 0, sizeof(out));
	R(hipGetDevice(&dev));
	R(hipSetDevice(0));
	R(hipMalloc((void **)&d, sizeof(h)));
	R(hipMalloc((void **)&d2, sizeof(h)));
	R(hipMallocManaged(&m, 4096, hipMemAttachGlobal));
	R(hipMallocPitch(&pitched, &pitch, 100, 4));
	printf("pitch %% 256 = %zu\n", pitch % 256);
	R(hipExtMallocWithFlags(&hostp, 512, 0));
	R(hipFree(hostp));
	R(hipHostMalloc(&hostp, 4096, 0));
	R(hipMemGetInfo(&fr, &tot));
	printf("free <= total: %d\n", fr <= tot);
	R(hipMemGetAddressRange(&base, &rsz, (hipDeviceptr_t)(d + 3)));
	printf("range: base ok %d size %zu\n", base == (hipDeviceptr_t)d, rsz);
	R(hipStreamCreate(&s));
	R(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
	R(hipStreamGetFlags(nb, &flags));
	printf("flags %u\n", flags);
	R(hipStreamGetPriority(s, &prio));
	R(hipEventCreate(&e0));
	R(hipEventCreateWithFlags(&e1, 0));
	R(hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice));
	R(hipMemcpyAsync(d2, d, sizeof(h), hipMemcpyDeviceToDevice, s));
	R(hipEventRecord(e0, s));
	R(hipStreamWaitEvent(nb, e0, 0));
	R(hipMemsetAsync(d2, 0, 16, nb));
	R(hipStreamSynchronize(nb));
	/* An injected sync failure must not turn into a race on d2. */
	R(hipDeviceSynchronize());
	R(hipMemcpyDtoH(out, (hipDeviceptr_t)d2, sizeof(out)));
	printf("d2: %d %d %d %d %d\n", out[0], out[3], out[4], out[5], out[63]);
	R(hipModuleLoadData(&mod, "lbfam"));
	R(hipModuleGetFunction(&fn, mod, "lbfam_add"));
	R(hipModuleGetFunction(&fn, mod, "no_such_kernel"));
	R(hipModuleGetFunction(&fn, mod, "lbfam_add"));
	R(hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, s, kargs, NULL));
	fat = __hipRegisterFatBinary("fake fat binary");
	__hipRegisterFunction(fat, (const void *)stub, "lbfam_add", "lbfam_add",
			      (unsigned)-1, NULL, NULL, NULL, NULL, NULL);
	R(hipLaunchKernel((const void *)stub, g, b, kargs, 0, s));
	R(hipStreamAddCallback(s, host_cb, &cbv, 0));
	R(hipEventRecord(e1, s));
	R(hipEventSynchronize(e1));
	R(hipEventQuery(e1));
	R(hipEventElapsedTime(&ms, e0, e1));
	printf("elapsed >= 0: %d, callback %d\n", ms >= 0, cbv);
	R(hipMemcpy(out, d, sizeof(out), hipMemcpyDeviceToHost));
	printf("d: %d %d %d\n", out[0], out[1], out[63]);
	R(hipMemset(d, 1, sizeof(h)));
	R(hipMemsetD32((hipDeviceptr_t)d, 7, 64));
	R(hipMemcpyHtoD((hipDeviceptr_t)d2, h, sizeof(h)));
	R(hipMemcpyDtoD((hipDeviceptr_t)d, (hipDeviceptr_t)d2, 8));
	R(hipMemcpy2D(out, 16, d, 16, 16, 4, hipMemcpyDeviceToHost));
	printf("2d: %d %d %d\n", out[0], out[1], out[15]);
	R(hipStreamQuery(s));
	R(hipStreamIsCapturing(s, &cap));
	printf("capturing %d\n", (int)cap);
	R(hipStreamSynchronize(0));
	R(hipDeviceSynchronize());
	R(hipFree(d + 1));
	R(hipFree(d));
	R(hipFree(d));
	R(hipFree(d2));
	R(hipFree(m));
	R(hipFree(pitched));
	R(hipHostFree(hostp));
	R(hipEventDestroy(e0));
	R(hipEventDestroy(e1));
	R(hipStreamDestroy(s));
	R(hipStreamDestroy(nb));
	R(hipModuleUnload(mod));
	__hipUnregisterFatBinary(fat);
	R(hipMalloc((void **)&d, (size_t)1 << 62));
	R(hipSetDevice(99));
	return 0;
}
