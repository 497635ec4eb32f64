/*
 * prog_lasterr.c - a sequence of calls, each followed by what it returned,
 * with hipGetLastError, hipPeekAtLastError and (where the runtime has it)
 * hipExtGetLastError in between.  Run on hipemu without the shim and with
 * it under each policy (t_lasterr.sh): the lines must be identical, since
 * the shim must leave the program the last errors the runtime gives when
 * it serves every call itself.  Pool and stream0 serve some of these calls
 * and make calls of their own (which fault injection makes fail).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include "lbshim/hip_decls.h"

static hipError_t (*ext)(void);

static void show(const char *what, hipError_t r)
{
	printf("%-28s %d\n", what, (int)r);
}

static void errors(const char *when)
{
	char b[64];

	snprintf(b, sizeof(b), "%s: peek", when);
	show(b, hipPeekAtLastError());
	if (ext) {
		snprintf(b, sizeof(b), "%s: ext", when);
		show(b, ext());
	}
	snprintf(b, sizeof(b), "%s: get", when);
	show(b, hipGetLastError());
	snprintf(b, sizeof(b), "%s: get again", when);
	show(b, hipGetLastError());
}

int main(void)
{
	/* the runtime the program was linked against, whichever soname
	 * (tests/realrocm/t_lasterr.sh runs it on 6.4 and 7.2 too) */
	static const char *const sonames[] = { "libamdhip64.so.7",
					       "libamdhip64.so.6",
					       "libamdhip64.so.5" };
	void *rt = NULL;
	void *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL;
	void *bad = NULL; /* the runtime refuses a null destination */
	hipStream_t us = NULL;
	int v = 0;

	for (size_t i = 0; !rt && i < sizeof(sonames) / sizeof(*sonames); i++)
		rt = dlopen(sonames[i], RTLD_NOW | RTLD_NOLOAD);
	/* Only if the runtime has it (the shim always exports it). */
	if (rt && dlsym(rt, "hipExtGetLastError"))
		ext = (hipError_t(*)(void))dlsym(RTLD_DEFAULT,
						 "hipExtGetLastError");
	show("hipRuntimeGetVersion", hipRuntimeGetVersion(&v));
	printf("version %d\n", v);
	show("hipMalloc a", hipMalloc(&a, 4096));
	show("hipMemsetAsync a null", hipMemsetAsync(a, 1, 4096, 0));
	show("hipPeekAtLastError", hipPeekAtLastError());
	show("hipFree a", hipFree(a));
	errors("after free");

	/* a failure the runtime gives, then a success the pool serves */
	show("hipSetDevice 99", hipSetDevice(99));
	show("hipMalloc b", hipMalloc(&b, 4096));
	errors("after malloc b");

	/* a failure the pool serves, then syncs stream0 serves */
	show("hipSetDevice 99 again", hipSetDevice(99));
	show("hipMalloc huge", hipMalloc(&c, SIZE_MAX >> 1));
	errors("after huge");
	show("hipMalloc huge again", hipMalloc(&c, SIZE_MAX >> 1));
	show("hipStreamSynchronize null", hipStreamSynchronize(0));
	errors("after sync");
	show("hipMemsetAsync b null", hipMemsetAsync(b, 0, 4096, 0));
	show("hipDeviceSynchronize", hipDeviceSynchronize());
	show("hipFree b", hipFree(b));
	errors("after free b");

	/*
	 * Calls the pool serves from its cache without calling the runtime,
	 * after a failure the runtime gave (its last error is not the
	 * program's then: the shim must not skip its check), after a
	 * success, and a success the runtime gives after a failure the pool
	 * served (the shadow's then).
	 */
	show("hipMalloc d", hipMalloc(&d, 4096));
	show("hipFree d", hipFree(d));
	show("hipSetDevice 99 3", hipSetDevice(99));
	show("hipMalloc d cached", hipMalloc(&d, 4096));
	errors("after cached malloc");
	show("hipSetDevice 99 4", hipSetDevice(99));
	show("hipFree d cached", hipFree(d));
	show("hipMalloc d cached 2", hipMalloc(&d, 4096));
	show("hipFree d cached 2", hipFree(d));
	errors("after cached pair");
	show("hipMalloc huge 3", hipMalloc(&c, SIZE_MAX >> 1));
	show("hipSetDevice 0", hipSetDevice(0));
	errors("after set device");
	show("hipMalloc huge 4", hipMalloc(&c, SIZE_MAX >> 1));
	show("hipGetDevice", hipGetDevice(&v));
	show("hipMalloc d cached 3", hipMalloc(&d, 4096));
	errors("after get device");
	show("hipFree d cached 3", hipFree(d));
	errors("after free d");

	/*
	 * Submissions stream0 alone sends on with no call context (its
	 * direct path): on the null stream and on a user stream, after a
	 * success, after a failure the runtime gave, failing themselves.
	 */
	show("hipMalloc e", hipMalloc(&e, 4096));
	show("hipMemsetAsync e null", hipMemsetAsync(e, 2, 4096, 0));
	show("hipMemsetAsync e null 2", hipMemsetAsync(e, 3, 4096, 0));
	errors("after null submissions");
	show("hipSetDevice 99 5", hipSetDevice(99));
	show("hipMemsetAsync e null 3", hipMemsetAsync(e, 4, 4096, 0));
	errors("after failure, submission");
	show("hipMemsetAsync bad null", hipMemsetAsync(bad, 0, 4096, 0));
	errors("after bad null submission");
	show("hipMemsetAsync bad null 2", hipMemsetAsync(bad, 0, 4096, 0));
	show("hipMemsetAsync e null 4", hipMemsetAsync(e, 5, 4096, 0));
	errors("after bad, good submission");
	/* not hipStreamCreateWithFlags: t_lasterr.sh makes that one fail */
	show("hipStreamCreateWithPriority",
	     hipStreamCreateWithPriority(&us, hipStreamNonBlocking, 0));
	show("hipMemsetAsync e user", hipMemsetAsync(e, 6, 4096, us));
	show("hipMemsetAsync e user 2", hipMemsetAsync(e, 7, 4096, us));
	errors("after user submissions");
	show("hipMemsetAsync bad user", hipMemsetAsync(bad, 0, 4096, us));
	errors("after bad user submission");
	show("hipStreamSynchronize user", hipStreamSynchronize(us));
	show("hipStreamDestroy", hipStreamDestroy(us));
	show("hipDeviceSynchronize 2", hipDeviceSynchronize());
	show("hipFree e", hipFree(e));
	errors("end");
	return 0;
}
