/*
 * rt_opener.c - a library with a RUNPATH of its own that dlopens for its
 * callers: a bare name must be searched in its RUNPATH, which glibc takes
 * from dlopen's caller; the shim's dlopen wrapper must keep that.
 */
#include <dlfcn.h>

__attribute__((visibility("default"))) void *rt_open(const char *file,
						     int mode)
{
	return dlopen(file, mode);
}
