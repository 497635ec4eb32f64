/*
 * tnounwind.c - a machine without libunwind, for the shim: preloaded
 * before it, this dlopen answers NULL for any libunwind and passes every
 * other name to the next dlopen (libc's, or the shim's wrapper).  The
 * shim's own dlopen calls bind here, the first definition in the global
 * scope.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

__attribute__((visibility("default"))) void *dlopen(const char *file,
						      int mode)
{
	static void *(*next)(const char *, int);

	if (file && strstr(file, "libunwind"))
		return NULL;
	if (!next)
		next = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	return next ? next(file, mode) : NULL;
}
