/*
 * prog_procaddr.c - hipGetProcAddress must hand out the shim's wrapper
 * (when a policy is active), or every policy would be bypassed.
 * Prints where the returned hipMalloc lives; exit 0 if it is the shim.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "lbshim/hip_decls.h"

int main(void)
{
	void *fn = NULL;
	Dl_info info;
	hipError_t r = hipGetProcAddress("hipMalloc", &fn, 600, 0, NULL);

	if (r != hipSuccess || !fn || !dladdr(fn, &info)) {
		printf("ret=%d fn=%p\n", r, fn);
		return 2;
	}
	printf("ret=%d lib=%s\n", r, info.dli_fname);
	return strstr(info.dli_fname, "lbshim") ? 0 : 1;
}
