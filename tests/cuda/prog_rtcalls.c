/*
 * prog_rtcalls.c - every runtime row of cuda_api.def that returns a
 * cudaError_t, called once with zero arguments (through the name the
 * program binds to: the shim's wrapper under LD_PRELOAD), then
 * cudaGetLastError: "NAME result lasterror", one line each.  Run on
 * NVIDIA's libcudart.so.13 with no driver in the process, every call
 * fails before it reads an argument (no driver: cudaErrorInsufficient-
 * Driver, 35); t_realcudart.sh compares the lines with and without the
 * shim, under every policy.
 *
 * Only the functions the runtime in the process has are called (a row
 * of a later CUDA than the runtime's is skipped, as a program built for
 * that runtime never calls it: the shim's export of the name would
 * otherwise answer in its place).  With an argument, that runtime is
 * dlopened first (RTLD_GLOBAL): libcudart.so.12, which the program is
 * not linked with.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include "lbshim/api.h"

static void *rt; /* the runtime's handle */

#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...)
#define LB_CALL_cudaError_t(NAME, P, A)                                  \
	{                                                                \
		cudaError_t(*f) P = (cudaError_t(*) P)dlsym(RTLD_DEFAULT, \
							     #NAME);     \
		struct lb_args_##NAME a;                                 \
		memset(&a, 0, sizeof(a));                                \
		if (f && dlsym(rt, #NAME)) {                            \
			int r = f(LB_MAPC_N(LB_NARGS(A), LB_AARG_, a, A)); \
			printf("%s %d %d\n", #NAME, r, last());          \
		}                                                        \
	}
#define LB_CALL_void(NAME, P, A)
#define LB_CALL_lb_modules_t(NAME, P, A)
#define LB_CALL_CUresult(NAME, P, A)
#define LB_AARG_(a, x) a.x
#define LB_API_CU(HIP, RET, NAME, P, A, ...) LB_CALL_##RET(NAME, P, A)

static int last(void)
{
	cudaError_t (*f)(void) =
		(cudaError_t(*)(void))dlsym(RTLD_DEFAULT, "cudaGetLastError");

	return f ? (int)f() : -1;
}

/* The loaded object whose file name has "libcudart.so." in it. */
static int find_rt(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	if (!strstr(info->dlpi_name, "libcudart.so."))
		return 0;
	*(void **)data = dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL)) {
		fprintf(stderr, "prog_rtcalls: %s\n", dlerror());
		return 2;
	}
	dl_iterate_phdr(find_rt, &rt);
	if (!rt) {
		fprintf(stderr, "prog_rtcalls: no libcudart.so.* loaded\n");
		return 2;
	}
#include "lbshim/cuda_api.def"
	return 0;
}
