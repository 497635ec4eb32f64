/*
 * prog_sweep.c - the program of the fault sweep (t_sweep.sh): streams,
 * events, module and registered launches (twin exported, -rdynamic),
 * copies, sets, allocations and frees, on explicit streams and on the null
 * stream.  Prints every call's result and the data it produced, never a
 * pointer, so that a run without the shim and one with it can be diffed.
 *
 * It keeps going after an error, as a careful program would: an object
 * whose creation failed is not used or destroyed, so a fault changes the
 * output only through the results the program really sees.
 *
 * The first call, hipGetDeviceCount, is one the shim does not wrap: it
 * starts hipemu (and its HIPEMU_STATS exit handler) before the shim's
 * first wrapper registers the shim's own exit handler, so that the
 * statistics are written after the shim has cleaned up.
 *
 * Last line: "#fds START END", the number of open descriptors before the
 * first HIP call and after the last one (the test compares the difference
 * with and without faults).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include "lbshim/hip_decls.h"
#include "hipemu.h"

/* "sweep_add": adds args[1] to n ints at args[0]. */
HIPEMU_ARGS(sweep_add, sizeof(int *), sizeof(int), sizeof(int));
HIPEMU_TWIN(sweep_add)
{
	int *p = *(int **)args[0];
	int add = *(int *)args[1], n = *(int *)args[2], i;

	(void)launch;
	if (!p)
		return; /* its allocation failed: a real kernel would fault */
	for (i = 0; i < n; i++)
		p[i] += add;
}

static void stub(void)
{
}

static int nfds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory's own descriptor */
}

static hipError_t last;
#define R(call) \
	printf("%-40s %d\n", #call, (int)(last = (call)))
#define OK (last == hipSuccess)

static long sum(const int *p, int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += (long)p[i] * (i + 1);
	return s;
}

#define N 256

int main(void)
{
	static int h[N], out[N];
	int fd0 = nfds(), dev = -1, i, n = N, add = 3, have_s = 0, have_nb = 0,
	    have_e0 = 0, have_e1 = 0, have_mod = 0, waited = 0, ndev = 0;
	int *d = NULL, *d2 = NULL, *big = NULL;
	void *m = NULL, *pitched = NULL, *hostp = NULL;
	size_t pitch = 0;
	hipStream_t s = NULL, nb = NULL;
	hipEvent_t e0 = NULL, e1 = NULL;
	hipModule_t mod = NULL;
	hipFunction_t fn = NULL;
	lb_modules_t fat;
	dim3 g = { 1, 1, 1 }, b = { 64, 1, 1 };
	void *kargs[] = { &d, &add, &n };
	float ms = -1;
	int synced = 0;

	for (i = 0; i < N; i++)
		h[i] = i;
	printf("devices %d\n", hipGetDeviceCount(&ndev) ? -1 : ndev);
	R(hipGetDevice(&dev));
	R(hipSetDevice(0));
	R(hipMalloc((void **)&d, sizeof(h)));
	R(hipMalloc((void **)&d2, sizeof(h)));
	R(hipMalloc((void **)&big, 3 << 20));
	R(hipMallocManaged(&m, 4096, hipMemAttachGlobal));
	R(hipMallocPitch(&pitched, &pitch, 100, 4));
	R(hipHostMalloc(&hostp, 4096, 0));
	R(hipStreamCreate(&s));
	have_s = OK;
	R(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
	have_nb = OK;
	R(hipEventCreate(&e0));
	have_e0 = OK;
	R(hipEventCreateWithFlags(&e1, 0));
	have_e1 = OK;
	R(hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice));
	R(hipMemcpyAsync(d2, d, sizeof(h), hipMemcpyDeviceToDevice, s));
	if (have_e0)
		R(hipEventRecord(e0, s));
	if (have_e0 && have_nb) {
		R(hipStreamWaitEvent(nb, e0, 0));
		waited = OK;
	}
	/* Without the wait, the set below would race with the copy. */
	if (!waited)
		R(hipStreamSynchronize(s));
	R(hipMemsetAsync(d2, 0, 64, nb));
	R(hipStreamSynchronize(nb));
	R(hipMemcpyDtoH(out, (hipDeviceptr_t)d2, sizeof(out)));
	printf("d2 sum %ld\n", sum(out, N));
	R(hipModuleLoadData(&mod, "sweep"));
	have_mod = OK;
	if (have_mod)
		R(hipModuleGetFunction(&fn, mod, "sweep_add"));
	if (have_mod && OK)
		R(hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, s, kargs,
					NULL));
	fat = __hipRegisterFatBinary("sweep fat binary");
	__hipRegisterFunction(fat, (const void *)stub, "sweep_add", "sweep_add",
			      (unsigned)-1, NULL, NULL, NULL, NULL, NULL);
	R(hipLaunchKernel((const void *)stub, g, b, kargs, 0, s));
	/*
	 * Under stream0 the null stream no longer waits for s (per-thread
	 * default stream semantics): order the two by hand.
	 */
	R(hipStreamSynchronize(s));
	if (have_mod && fn)
		R(hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, 0, kargs,
					NULL));
	R(hipLaunchKernel((const void *)stub, g, b, kargs, 0, 0));
	if (have_e1)
		R(hipEventRecord(e1, s));
	if (have_e1) {
		R(hipEventSynchronize(e1));
		synced = OK;
	}
	/*
	 * e1's state and the elapsed time are defined only once e1 has
	 * completed: when the sync above was made to fail, wait for s so that
	 * the next lines (the query's answer too) do not depend on how fast
	 * the device was.
	 */
	if (have_e1 && !synced)
		R(hipStreamSynchronize(s));
	if (have_e1)
		R(hipEventQuery(e1));
	if (have_e0 && have_e1) {
		R(hipEventElapsedTime(&ms, e0, e1));
		printf("elapsed >= 0: %d\n", OK ? ms >= 0 : -1);
	}
	R(hipStreamSynchronize(s));
	R(hipMemcpy(out, d, sizeof(out), hipMemcpyDeviceToHost));
	printf("d sum %ld\n", sum(out, N));
	R(hipMemset(d, 1, sizeof(h)));
	R(hipMemsetD32((hipDeviceptr_t)d, 7, N));
	R(hipMemsetAsync(big, 2, 3 << 20, 0));
	R(hipMemcpyHtoD((hipDeviceptr_t)d2, h, sizeof(h)));
	R(hipMemcpyDtoD((hipDeviceptr_t)d, (hipDeviceptr_t)d2, 64));
	R(hipMemcpy(out, d, sizeof(out), hipMemcpyDeviceToHost));
	printf("d sum %ld\n", sum(out, N));
	R(hipStreamQuery(s));
	R(hipStreamSynchronize(0));
	R(hipDeviceSynchronize());
	R(hipFree(d));
	R(hipFree(d2));
	R(hipFree(big));
	R(hipFree(m));
	R(hipFree(pitched));
	R(hipHostFree(hostp));
	/* A second round of allocations, from what the first freed. */
	R(hipMalloc((void **)&d, sizeof(h)));
	R(hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice));
	R(hipMemcpy(out, d, sizeof(out), hipMemcpyDeviceToHost));
	printf("d sum %ld\n", sum(out, N));
	R(hipFree(d));
	if (have_e0)
		R(hipEventDestroy(e0));
	if (have_e1)
		R(hipEventDestroy(e1));
	if (have_s)
		R(hipStreamDestroy(s));
	if (have_nb)
		R(hipStreamDestroy(nb));
	if (have_mod)
		R(hipModuleUnload(mod));
	__hipUnregisterFatBinary(fat);
	R(hipDeviceSynchronize());
	printf("#fds %d %d\n", fd0, nfds());
	return 0;
}
