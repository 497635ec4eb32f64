/*
 * drv.c - a program that calls the CUDA driver API directly, on the CUDA
 * face: initialisation, a context, a cubin module, launches by parameter
 * array and by packed buffer (the layout from cuFuncGetParamInfo), the
 * entry-point lookups by version and per-thread flag, errors; and the
 * runtime and the driver sharing one device.
 *
 * Usage: drv KERNEL.CUBIN (kern.cu, built by nvcc -cubin).
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include "cutest.h"

#define N 64

struct S {
	double a;
	int b;
	char c[5];
};

/* The name of the exported function at p, or "?". */
static const char *fn_name(void *p)
{
	Dl_info di;

	return p && dladdr(p, &di) && di.dli_sname ? di.dli_sname : "?";
}

/* cuGetProcAddress(symbol, version, flags) names fn ("" for NULL). */
static void proc(const char *symbol, int version, cuuint64_t flags,
		 const char *want, CUdriverProcAddressQueryResult want_st)
{
	CUdriverProcAddressQueryResult st = 99;
	void *fn = (void *)1;

	CT_EQ(cuGetProcAddress(symbol, &fn, version, flags, &st), CUDA_SUCCESS);
	CT_CHECK(*want ? !strcmp(fn_name(fn), want) : fn == NULL,
		 "%s %d %llu: %s, want %s", symbol, version,
		 (unsigned long long)flags, fn ? fn_name(fn) : "NULL", want);
	CT_CHECK(st == want_st, "%s: status %d", symbol, (int)st);
}

static void lookups(void)
{
	void *fn;
	enum cudaDriverEntryPointQueryResult rst;

	proc("cuMemAlloc", 13000, CU_GET_PROC_ADDRESS_DEFAULT,
	     "cuMemAlloc_v2", CU_GET_PROC_ADDRESS_SUCCESS);
	proc("cuLaunchKernel", 13000, CU_GET_PROC_ADDRESS_DEFAULT,
	     "cuLaunchKernel", CU_GET_PROC_ADDRESS_SUCCESS);
	proc("cuLaunchKernel", 13000,
	     CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
	     "cuLaunchKernel_ptsz", CU_GET_PROC_ADDRESS_SUCCESS);
	proc("cuMemcpyHtoD", 12000,
	     CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
	     "cuMemcpyHtoD_v2_ptds", CU_GET_PROC_ADDRESS_SUCCESS);
	proc("cuMemAlloc", 3000, CU_GET_PROC_ADDRESS_DEFAULT, "",
	     CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
	proc("cuEventElapsedTime", 12000, CU_GET_PROC_ADDRESS_DEFAULT,
	     "cuEventElapsedTime", CU_GET_PROC_ADDRESS_SUCCESS);
	proc("cuEventElapsedTime", 12080, CU_GET_PROC_ADDRESS_DEFAULT,
	     "cuEventElapsedTime_v2", CU_GET_PROC_ADDRESS_SUCCESS);
	proc("cuCtxCreate", 12000, CU_GET_PROC_ADDRESS_DEFAULT,
	     "cuCtxCreate_v2", CU_GET_PROC_ADDRESS_SUCCESS);
	/* the lookup of the lookup itself does not loop */
	proc("cuGetProcAddress", 12000, CU_GET_PROC_ADDRESS_DEFAULT,
	     "cuGetProcAddress_v2", CU_GET_PROC_ADDRESS_SUCCESS);
	proc("cuNoSuchFunction", 13000, CU_GET_PROC_ADDRESS_DEFAULT, "",
	     CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
	CT_EQ(cuGetProcAddress("cuMemAlloc", &fn, 99000, 0, NULL),
	      CUDA_ERROR_INVALID_VALUE);
	/* the runtime's door to the driver finds the same (the
	 * unversioned door is deprecated in 13.0, still called by what
	 * older headers built) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	CT_EQ(cudaGetDriverEntryPoint("cuMemFree", &fn, cudaEnableDefault,
				      &rst), cudaSuccess);
#pragma GCC diagnostic pop
	CT_CHECK(!strcmp(fn_name(fn), "cuMemFree_v2") &&
			 rst == cudaDriverEntryPointSuccess,
		 "cudaGetDriverEntryPoint: %s", fn_name(fn));
	CT_EQ(cudaGetDriverEntryPointByVersion("cuStreamSynchronize", &fn,
					       12000,
					       cudaEnablePerThreadDefaultStream,
					       &rst), cudaSuccess);
	CT_CHECK(!strcmp(fn_name(fn), "cuStreamSynchronize_ptsz"), "%s",
		 fn_name(fn));
}

/* launches of axpy and mixed; offsets from cuFuncGetParamInfo */
static void launches(CUmodule mod)
{
	CUfunction axpy, mixed;
	CUdeviceptr x, y, p;
	float hx[N], hy[N], a = 2.0f, out = 0;
	int n = N, bad = 0;
	size_t off[5], size[5], bsize;
	struct S s = { 0.5, 3, { 0, 0, 0, 0, 4 } };
	char c = 1;
	short h = 5;
	double dd = 0.25;
	unsigned char buf[64] = { 0 };

	CT_EQ(cuModuleGetFunction(&axpy, mod, "axpy"), CUDA_SUCCESS);
	CT_EQ(cuModuleGetFunction(&mixed, mod, "mixed"), CUDA_SUCCESS);
	CT_EQ(cuModuleGetFunction(&mixed, mod, "nosuch"), CUDA_ERROR_NOT_FOUND);
	for (int i = 0; i < 5; i++)
		CT_EQ(cuFuncGetParamInfo(mixed, i, &off[i], &size[i]),
		      CUDA_SUCCESS);
	CT_CHECK(off[0] == 0 && size[0] == 1 && off[1] == 8 && size[1] == 24 &&
			 off[2] == 32 && size[2] == 8 && off[3] == 40 &&
			 size[3] == 2 && off[4] == 48 && size[4] == 8,
		 "mixed's layout: %zu/%zu %zu/%zu %zu/%zu %zu/%zu %zu/%zu",
		 off[0], size[0], off[1], size[1], off[2], size[2], off[3],
		 size[3], off[4], size[4]);
	CT_EQ(cuFuncGetParamInfo(mixed, 5, &off[0], &size[0]),
	      CUDA_ERROR_INVALID_VALUE);

	for (int i = 0; i < N; i++) {
		hx[i] = (float)i;
		hy[i] = 1.0f;
	}
	CT_EQ(cuMemAlloc(&x, sizeof(hx)), CUDA_SUCCESS);
	CT_EQ(cuMemAlloc(&y, sizeof(hy)), CUDA_SUCCESS);
	CT_EQ(cuMemcpyHtoD(x, hx, sizeof(hx)), CUDA_SUCCESS);
	CT_EQ(cuMemcpyHtoD(y, hy, sizeof(hy)), CUDA_SUCCESS);
	{
		void *params[] = { &a, &x, &y, &n };

		CT_EQ(cuLaunchKernel(axpy, 1, 1, 1, N, 1, 1, 0, NULL, params,
				     NULL), CUDA_SUCCESS);
		CT_EQ(cuLaunchKernel(axpy, 1, 1, 1, 2048, 1, 1, 0, NULL,
				     params, NULL), CUDA_ERROR_INVALID_VALUE);
	}
	CT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
	CT_EQ(cuMemcpyDtoH(hy, y, sizeof(hy)), CUDA_SUCCESS);
	for (int i = 0; i < N; i++)
		bad += hy[i] != 1.0f + 2.0f * (float)i;
	CT_CHECK(!bad, "axpy: %d wrong (y[3] = %g)", bad, hy[3]);

	/* mixed through a packed buffer laid out by cuFuncGetParamInfo */
	CT_EQ(cuMemAlloc(&p, sizeof(float)), CUDA_SUCCESS);
	memcpy(buf + off[0], &c, 1);
	memcpy(buf + off[1], &s, sizeof(s));
	memcpy(buf + off[2], &p, sizeof(p));
	memcpy(buf + off[3], &h, sizeof(h));
	memcpy(buf + off[4], &dd, sizeof(dd));
	bsize = off[4] + size[4];
	{
		void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, buf,
				  CU_LAUNCH_PARAM_BUFFER_SIZE, &bsize,
				  CU_LAUNCH_PARAM_END };

		CT_EQ(cuLaunchKernel(mixed, 1, 1, 1, 1, 1, 1, 0, NULL, NULL,
				     extra), CUDA_SUCCESS);
	}
	CT_EQ(cuMemcpyDtoH(&out, p, sizeof(out)), CUDA_SUCCESS);
	CT_CHECK(out == 13.75f, "mixed by buffer: %g", out);
	/* and by parameter array, on a stream */
	{
		CUstream st;
		void *params[] = { &c, &s, &p, &h, &dd };

		c = 2;
		CT_EQ(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING),
		      CUDA_SUCCESS);
		CT_EQ(cuLaunchKernel(mixed, 1, 1, 1, 1, 1, 1, 0, st, params,
				     NULL), CUDA_SUCCESS);
		CT_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
		CT_EQ(cuMemcpyDtoH(&out, p, sizeof(out)), CUDA_SUCCESS);
		CT_CHECK(out == 14.75f, "mixed by params: %g", out);
		CT_EQ(cuStreamDestroy(st), CUDA_SUCCESS);
	}
	CT_EQ(cuMemFree(x), CUDA_SUCCESS);
	CT_EQ(cuMemFree(y), CUDA_SUCCESS);
	CT_EQ(cuMemFree(p), CUDA_SUCCESS);
}

/* A pointer, a stream and an event from one API serve the other. */
static void one_device(void)
{
	void *rp = NULL;
	CUdeviceptr dp;
	cudaStream_t s;
	CUevent ev;
	int v = 0, seven = 0x07070707;
	size_t fr0, fr1, tot;

	CT_EQ(cuMemGetInfo(&fr0, &tot), CUDA_SUCCESS);
	CT_EQ(cudaMalloc(&rp, 1 << 20), cudaSuccess);
	CT_EQ(cuMemGetInfo(&fr1, &tot), CUDA_SUCCESS);
	CT_CHECK(fr0 - fr1 == 1 << 20, "cudaMalloc took %zu of the driver's",
		 fr0 - fr1);
	CT_EQ(cuMemsetD8((CUdeviceptr)(uintptr_t)rp, 7, 4), CUDA_SUCCESS);
	CT_EQ(cudaMemcpy(&v, rp, 4, cudaMemcpyDeviceToHost), cudaSuccess);
	CT_CHECK(v == seven, "v %x", v);
	CT_EQ(cuMemAlloc(&dp, 4), CUDA_SUCCESS);
	CT_EQ(cudaMemset((void *)(uintptr_t)dp, 1, 4), cudaSuccess);
	CT_EQ(cudaStreamCreate(&s), cudaSuccess);
	CT_EQ(cuEventCreate(&ev, CU_EVENT_DEFAULT), CUDA_SUCCESS);
	CT_EQ(cuMemcpyDtoHAsync(&v, dp, 4, (CUstream)s), CUDA_SUCCESS);
	CT_EQ(cuEventRecord(ev, (CUstream)s), CUDA_SUCCESS);
	CT_EQ(cudaEventSynchronize((cudaEvent_t)ev), cudaSuccess);
	CT_CHECK(v == 0x01010101, "v %x", v);
	CT_EQ(cuStreamSynchronize((CUstream)s), CUDA_SUCCESS);
	CT_EQ(cuEventDestroy(ev), CUDA_SUCCESS);
	CT_EQ(cudaStreamDestroy(s), cudaSuccess);
	CT_EQ(cudaFree(rp), cudaSuccess);
	CT_EQ(cuMemFree(dp), CUDA_SUCCESS);
}

int main(int argc, char **argv)
{
	CUdevice dev;
	CUcontext ctx, cur;
	CUmodule mod;
	CUdeviceptr z;
	int n = 0, v = 0;
	char name[64];
	const char *str = NULL;

	if (argc < 2) {
		fprintf(stderr, "usage: drv KERNEL.CUBIN\n");
		return 2;
	}
	CT_EQ(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED);
	CT_EQ(cuDriverGetVersion(&v), CUDA_SUCCESS);
	CT_CHECK(v == CUDA_VERSION, "driver version %d", v);
	CT_EQ(cuInit(0), CUDA_SUCCESS);
	CT_EQ(cuDeviceGetCount(&n), CUDA_SUCCESS);
	CT_CHECK(n == 1, "%d devices", n);
	CT_EQ(cuDeviceGet(&dev, 1), CUDA_ERROR_INVALID_DEVICE);
	CT_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
	CT_EQ(cuDeviceGetName(name, sizeof(name), dev), CUDA_SUCCESS);
	CT_CHECK(!strcmp(name, "hipemu CPU device"), "%s", name);
	CT_EQ(cuDeviceGetAttribute(
		      &v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
	      CUDA_SUCCESS);
	CT_CHECK(v == 10, "major %d", v);
	CT_EQ(cuCtxCreate(&ctx, NULL, 0, dev), CUDA_SUCCESS);
	CT_EQ(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
	CT_CHECK(cur == ctx, "current context");
	CT_EQ(cuModuleLoad(&mod, "/no/such.cubin"), CUDA_ERROR_FILE_NOT_FOUND);
	CT_EQ(cuModuleLoad(&mod, argv[1]), CUDA_SUCCESS);
	launches(mod);
	lookups();
	one_device();
	CT_EQ(cuMemAlloc(&z, 0), CUDA_ERROR_INVALID_VALUE);
	CT_EQ(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &str), CUDA_SUCCESS);
	CT_CHECK(str && !strcmp(str, "CUDA_ERROR_INVALID_VALUE"), "%s", str);
	CT_EQ(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &str), CUDA_SUCCESS);
	CT_CHECK(str && !strcmp(str, "out of memory"), "%s", str);
	CT_EQ(cuGetErrorString((CUresult)12345, &str),
	      CUDA_ERROR_INVALID_VALUE);
	CT_CHECK(str == NULL, "a string for no code");
	CT_EQ(cuModuleUnload(mod), CUDA_SUCCESS);
	CT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
	return ct_done();
}
