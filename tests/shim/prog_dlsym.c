/*
 * prog_dlsym.c - calls HIP functions found by name in the process (the
 * shim's, when preloaded), for a process where the runtime is missing or
 * incomplete.  Usage: prog_dlsym NAME... ; prints "NAME=<error code>".
 * Supported names: hipMalloc, hipFree, hipGetDevice, hipDeviceSynchronize.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "lbshim/hip_decls.h"

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		void *fn = dlsym(RTLD_DEFAULT, argv[i]);
		void *p = NULL;
		int dev = -1, r;

		if (!fn) {
			printf("%s=absent\n", argv[i]);
			continue;
		}
		if (!strcmp(argv[i], "hipMalloc"))
			r = ((hipError_t(*)(void **, size_t))fn)(&p, 64);
		else if (!strcmp(argv[i], "hipFree"))
			r = ((hipError_t(*)(void *))fn)(NULL);
		else if (!strcmp(argv[i], "hipGetDevice"))
			r = ((hipError_t(*)(int *))fn)(&dev);
		else
			r = ((hipError_t(*)(void))fn)();
		printf("%s=%d", argv[i], r);
		if (dev != -1)
			printf(" dev=%d", dev);
		printf("\n");
	}
	return 0;
}
