/*
 * prog_nodev.c - what a program sees of a runtime without a device: the
 * versions, then failed calls, each followed by calls that succeed
 * without a device and by the last-error functions (hipExtGetLastError
 * where the runtime has it).  Prints one line per call: name and answer.
 * t_lasterr.sh compares the lines with and without the shim.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include "lbshim/hip_decls.h"

static hipError_t (*ext)(void);

static void show(const char *what, hipError_t r)
{
	printf("%s %d\n", what, (int)r);
}

static void errors(void)
{
	show("hipPeekAtLastError", hipPeekAtLastError());
	if (ext)
		show("hipExtGetLastError", ext());
	show("hipGetLastError", hipGetLastError());
	show("hipGetLastError", hipGetLastError());
}

int main(int argc, char **argv)
{
	void *rt = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD) : NULL;
	void *p = NULL;
	int v = -1, d = -1;

	if (!rt) {
		printf("runtime %s not loaded\n", argc > 1 ? argv[1] : "?");
		return 2;
	}
	if (dlsym(rt, "hipExtGetLastError"))
		ext = (hipError_t(*)(void))dlsym(RTLD_DEFAULT,
						 "hipExtGetLastError");
	show("hipRuntimeGetVersion", hipRuntimeGetVersion(&v));
	printf("version %d\n", v);
	show("hipDriverGetVersion", hipDriverGetVersion(&d));
	printf("driver %d\n", d);
	errors();
	show("hipMalloc", hipMalloc(&p, 4096));
	show("hipRuntimeGetVersion", hipRuntimeGetVersion(&v));
	errors();
	show("hipSetDevice 99", hipSetDevice(99));
	show("hipDriverGetVersion", hipDriverGetVersion(&d));
	show("hipRuntimeGetVersion", hipRuntimeGetVersion(&v));
	errors();
	show("hipMemsetAsync", hipMemsetAsync(p, 0, 16, NULL));
	show("hipStreamSynchronize", hipStreamSynchronize(NULL));
	show("hipRuntimeGetVersion", hipRuntimeGetVersion(&v));
	errors();
	show("hipFree", hipFree(p));
	show("hipMalloc huge", hipMalloc(&p, SIZE_MAX >> 1));
	errors();
	return 0;
}
