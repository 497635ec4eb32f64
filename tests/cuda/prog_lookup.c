/*
 * prog_lookup.c - every way a CUDA program gets a driver entry point,
 * each answer compared with the shim's own wrapper of the version the
 * driver chose (argv[1]: liblbshim.so's path, "-" without the shim: then
 * the driver's own).  Prints one line per lookup: its name and "shim",
 * "driver" or "other"; then calls cuMemAlloc/cuMemFree through the
 * pointers it got, and exits 0 when every call succeeded.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static void *shim, *drv;

/* Where p is: the shim's want, the driver's want, or neither. */
static void say(const char *what, void *p, const char *want)
{
	void *s = shim ? dlsym(shim, want) : NULL;
	void *d = dlsym(drv, want);

	printf("%s: %s\n", what,
	       p && p == s ? "shim" : p && p == d ? "driver" : "other");
}

int main(int argc, char **argv)
{
	CUresult (*getproc)(const char *, void **, int, cuuint64_t,
			    CUdriverProcAddressQueryResult *);
	CUresult (*alloc)(CUdeviceptr *, size_t);
	CUresult (*dfree)(CUdeviceptr);
	CUdriverProcAddressQueryResult st;
	enum cudaDriverEntryPointQueryResult rst;
	CUdeviceptr d = 0;
	void *p = NULL;
	int ok = 1;

	if (argc > 1 && strcmp(argv[1], "-"))
		shim = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
	drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!drv || cuInit(0) != CUDA_SUCCESS)
		return 2;
	/* cudart's own way: dlsym of cuGetProcAddress_v2 */
	getproc = (CUresult(*)(const char *, void **, int, cuuint64_t,
			       CUdriverProcAddressQueryResult *))
		dlsym(drv, "cuGetProcAddress_v2");
	say("dlsym cuGetProcAddress_v2", (void *)getproc,
	    "cuGetProcAddress_v2");
	say("dlsym cuMemAlloc_v2", dlsym(drv, "cuMemAlloc_v2"),
	    "cuMemAlloc_v2");
	ok &= getproc("cuMemAlloc", &p, 12000, CU_GET_PROC_ADDRESS_DEFAULT,
		      &st) == CUDA_SUCCESS;
	say("cuGetProcAddress cuMemAlloc", p, "cuMemAlloc_v2");
	alloc = (CUresult(*)(CUdeviceptr *, size_t))p;
	ok &= getproc("cuMemcpyAsync", &p, 12000,
		      CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
		      &st) == CUDA_SUCCESS;
	say("cuGetProcAddress cuMemcpyAsync per-thread", p,
	    "cuMemcpyAsync_ptsz");
	ok &= getproc("cuGetProcAddress", &p, 12000,
		      CU_GET_PROC_ADDRESS_DEFAULT, &st) == CUDA_SUCCESS;
	say("cuGetProcAddress cuGetProcAddress", p, "cuGetProcAddress_v2");
	ok &= getproc("cuGetExportTable", &p, 12000,
		      CU_GET_PROC_ADDRESS_DEFAULT, &st) == CUDA_SUCCESS;
	say("cuGetProcAddress cuGetExportTable", p, "cuGetExportTable");
	ok &= cudaGetDriverEntryPoint("cuMemFree", &p, cudaEnableDefault,
				      &rst) == cudaSuccess;
	say("cudaGetDriverEntryPoint cuMemFree", p, "cuMemFree_v2");
	dfree = (CUresult(*)(CUdeviceptr))p;
	ok &= cudaGetDriverEntryPointByVersion("cuStreamSynchronize", &p,
					       12000, cudaEnablePerThreadDefaultStream,
					       &rst) == cudaSuccess;
	say("cudaGetDriverEntryPointByVersion cuStreamSynchronize per-thread",
	    p, "cuStreamSynchronize_ptsz");
	ok &= alloc(&d, 4096) == CUDA_SUCCESS && d;
	ok &= dfree(d) == CUDA_SUCCESS;
	printf("calls: %s\n", ok ? "ok" : "failed");
	return ok ? 0 : 1;
}
