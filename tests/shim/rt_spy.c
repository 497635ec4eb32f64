/*
 * rt_spy.c - HIP functions that the API table does not wrap, defined in a
 * library preloaded after the shim: the global scope's next definition
 * (dlsym(RTLD_NEXT) from the shim) but not the runtime the shim chose.
 * Each says on stderr that it was called, so a test can check that the
 * shim takes such functions from the runtime it chose, like its table.
 */
#include <string.h>
#include <unistd.h>
#include "lbshim/hip_decls.h"

static void rt_spy_say(const char *fn)
{
	if (write(2, "rt_spy: ", 8) < 0 || write(2, fn, strlen(fn)) < 0 ||
	    write(2, "\n", 1) < 0)
		return;
}

__attribute__((visibility("default"))) hipError_t
hipDeviceGetAttribute(int *v, hipDeviceAttribute_t attr, int dev)
{
	(void)attr;
	(void)dev;
	rt_spy_say("hipDeviceGetAttribute");
	*v = 4096;
	return hipSuccess;
}

__attribute__((visibility("default"))) hipError_t hipRuntimeGetVersion(int *v)
{
	rt_spy_say("hipRuntimeGetVersion");
	*v = 70000000;
	return hipSuccess;
}

__attribute__((visibility("default"))) const char *
hipKernelNameRef(const hipFunction_t f)
{
	(void)f;
	rt_spy_say("hipKernelNameRef");
	return "rt_spy";
}
