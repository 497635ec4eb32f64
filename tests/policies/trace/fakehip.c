/*
 * fakehip.c - a tiny stand-in HIP runtime for the trace tests and the
 * trace benchmark: every function returns at once, so the shim's own
 * cost is what a test or the benchmark sees.  Built as libamdhip64.so.5
 * with the runtime's symbol versions; programs linked against the real
 * runtime run on it with LD_LIBRARY_PATH.
 *
 * Behaviour the tests rely on: hipMalloc hands out distinct fake pointers
 * (never to be dereferenced) and fails with hipErrorOutOfMemory above
 * 1 TiB; hipStreamCreate / hipEventCreate hand out fake handles;
 * hipModuleGetFunction returns a handle per name; hipKernelNameRefByPtr
 * names any stub "_Z12unregisteredv"; hipMemset to 0xdead0000 crashes.
 */
#include <stdint.h>
#include <string.h>
#include "lbshim/hip_decls.h"

#define FAKE_EXPORT __attribute__((visibility("default")))

static uintptr_t fake_next = 0x7f0000000000u;
static __thread int fake_device;

static uintptr_t fake_handle(void)
{
	return __atomic_add_fetch(&fake_next, 0x1000, __ATOMIC_RELAXED);
}

FAKE_EXPORT hipError_t hipMalloc(void **ptr, size_t size)
{
	if (!ptr)
		return hipErrorInvalidValue;
	if (size > (1ull << 40))
		return hipErrorOutOfMemory;
	*ptr = (void *)fake_handle();
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipFree(void *ptr)
{
	(void)ptr;
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipMemcpy(void *dst, const void *src, size_t n,
				 hipMemcpyKind kind)
{
	(void)dst, (void)src, (void)n, (void)kind;
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n,
				      hipMemcpyKind kind, hipStream_t s)
{
	(void)dst, (void)src, (void)n, (void)kind, (void)s;
	return hipSuccess;
}

/* dst 0xdead0000: the "runtime" crashes inside the call (tests). */
FAKE_EXPORT hipError_t hipMemset(void *dst, int value, size_t n)
{
	if ((uintptr_t)dst == 0xdead0000u)
		*(volatile int *)dst = value;
	(void)value, (void)n;
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipMemsetAsync(void *dst, int value, size_t n,
				      hipStream_t s)
{
	(void)dst, (void)value, (void)n, (void)s;
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipMemsetD32(hipDeviceptr_t dst, int value,
				    size_t count)
{
	(void)dst, (void)value, (void)count;
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipSetDevice(int d)
{
	if (d < 0 || d > 3)
		return hipErrorInvalidDevice;
	fake_device = d;
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipGetDevice(int *d)
{
	if (!d)
		return hipErrorInvalidValue;
	*d = fake_device;
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipStreamCreate(hipStream_t *s)
{
	*s = (hipStream_t)fake_handle();
	return hipSuccess;
}

/* stream0's per-thread streams (its benchmark runs on this runtime) */
FAKE_EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t *s,
						unsigned flags)
{
	(void)flags;
	*s = (hipStream_t)fake_handle();
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipStreamDestroy(hipStream_t s)
{
	(void)s;
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipStreamSynchronize(hipStream_t s)
{
	(void)s;
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipDeviceSynchronize(void)
{
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipEventCreate(hipEvent_t *e)
{
	*e = (hipEvent_t)fake_handle();
	return hipSuccess;
}

/* stream0's events (its dependencies, in the benchmark) */
FAKE_EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t *e, unsigned flags)
{
	(void)flags;
	*e = (hipEvent_t)fake_handle();
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipStreamWaitEvent(hipStream_t s, hipEvent_t e,
					  unsigned flags)
{
	(void)s, (void)e, (void)flags;
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipEventRecord(hipEvent_t e, hipStream_t s)
{
	(void)e, (void)s;
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipLaunchKernel(const void *f, dim3 g, dim3 b,
				       void **args, size_t shmem,
				       hipStream_t s)
{
	(void)f, (void)g, (void)b, (void)args, (void)shmem, (void)s;
	return hipSuccess;
}

FAKE_EXPORT lb_modules_t __hipRegisterFatBinary(const void *data)
{
	static void *mods[4];

	(void)data;
	return mods;
}

FAKE_EXPORT void __hipRegisterFunction(lb_modules_t m, const void *host,
				       char *devf, const char *devname,
				       unsigned int tl, void *tid, void *bid,
				       dim3 *bd, dim3 *gd, int *ws)
{
	(void)m, (void)host, (void)devf, (void)devname, (void)tl, (void)tid;
	(void)bid, (void)bd, (void)gd, (void)ws;
}

FAKE_EXPORT void __hipUnregisterFatBinary(lb_modules_t m)
{
	(void)m;
}

FAKE_EXPORT hipError_t hipModuleLoadData(hipModule_t *m, const void *image)
{
	(void)image;
	*m = (hipModule_t)fake_handle();
	return hipSuccess;
}

/* Never reads fname: a bad pointer is the tests' point. */
FAKE_EXPORT hipError_t hipModuleLoad(hipModule_t *m, const char *fname)
{
	(void)m, (void)fname;
	return hipErrorFileNotFound;
}

FAKE_EXPORT hipError_t hipModuleGetFunction(hipFunction_t *f, hipModule_t m,
					    const char *name)
{
	(void)m;
	if (!name || !*name)
		return hipErrorNotFound;
	*f = (hipFunction_t)fake_handle();
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned gx,
					     unsigned gy, unsigned gz,
					     unsigned bx, unsigned by,
					     unsigned bz, unsigned shmem,
					     hipStream_t s, void **p, void **x)
{
	(void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz;
	(void)shmem, (void)s, (void)p, (void)x;
	return hipSuccess;
}

FAKE_EXPORT const char *hipKernelNameRefByPtr(const void *f, hipStream_t s)
{
	(void)f, (void)s;
	return "_Z12unregisteredv";
}

FAKE_EXPORT const char *hipGetErrorName(hipError_t e)
{
	return e == hipSuccess ? "hipSuccess" : "hipErrorFake";
}

#ifdef FAKE_LASTERR
/*
 * The benchmark's build (mk/zbench.mk): a real runtime has the last-error
 * calls, and with them the shim keeps the program's last error on every
 * call (shim/lasterr.c), which users pay; without them the benchmark
 * would leave that work out.  Every call here succeeds, so by the 5.x
 * rule (ROCm 5.7, the version it reports) the last error stays
 * hipSuccess.
 */
FAKE_EXPORT hipError_t hipGetLastError(void)
{
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipPeekAtLastError(void)
{
	return hipSuccess;
}

FAKE_EXPORT hipError_t hipRuntimeGetVersion(int *v)
{
	if (!v)
		return hipErrorInvalidValue;
	*v = 50700000;
	return hipSuccess;
}
#endif
