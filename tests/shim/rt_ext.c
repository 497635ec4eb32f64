/*
 * rt_ext.c - an "extension" that links the HIP runtime, as PyTorch's
 * torch/_C -> libtorch_hip -> libamdhip64 do: a program opens it
 * RTLD_LOCAL, so the runtime it brings is in its local scope only.  Its
 * constructor calls HIP, as hipcc's registration code does in every
 * extension, before the program has called anything.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "lbshim/hip_decls.h"

static int rt_ext_ctor_ret = -1;

__attribute__((constructor)) static void rt_ext_ctor(void)
{
	int dev;

	rt_ext_ctor_ret = hipGetDevice(&dev);
}

static const char *rt_ext_base(const void *fn)
{
	Dl_info info;
	const char *s;

	if (!dladdr(fn, &info) || !info.dli_fname)
		return "?";
	s = strrchr(info.dli_fname, '/');
	return s ? s + 1 : info.dli_fname;
}

/*
 * Calls hipMalloc, hipGetDevice and hipFree; writes their results and the
 * library the extension's hipMalloc binds to into buf.
 */
__attribute__((visibility("default"))) void rt_ext_run(char *buf, size_t n)
{
	void *p = NULL;
	int dev, a, b, c;

	a = hipMalloc(&p, 64);
	b = hipGetDevice(&dev);
	c = hipFree(p);
	snprintf(buf, n, "ctor=%d malloc=%d getdevice=%d free=%d bound=%s",
		 rt_ext_ctor_ret, a, b, c, rt_ext_base((void *)hipMalloc));
}

/*
 * Calls hipMallocPitch (the pool policy serves it and asks the runtime for
 * the device's pitch alignment) and hipFree; writes their results and the
 * pitch into buf.
 */
__attribute__((visibility("default"))) void rt_ext_pitch(char *buf, size_t n)
{
	void *p = NULL;
	size_t pitch = 0;
	int a, b;

	a = hipMallocPitch(&p, &pitch, 100, 2);
	b = hipFree(p);
	snprintf(buf, n, "mallocpitch=%d pitch=%zu free=%d", a, pitch, b);
}
