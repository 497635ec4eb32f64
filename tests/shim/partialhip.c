/*
 * partialhip.c - an incomplete "runtime": only hipMalloc and hipGetDevice.
 * The shim must forward these and answer hipErrorNotInitialized, with one
 * warning, for everything else.
 */
#include <stddef.h>
#include "lbshim/hip_decls.h"

hipError_t hipMalloc(void **ptr, size_t size)
{
	static char mem[4096] __attribute__((aligned(256)));

	if (!ptr)
		return hipErrorInvalidValue;
	*ptr = size <= sizeof(mem) ? mem : NULL;
	return *ptr ? hipSuccess : hipErrorOutOfMemory;
}

hipError_t hipGetDevice(int *dev)
{
	*dev = 7;
	return hipSuccess;
}
