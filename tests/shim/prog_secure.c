/*
 * prog_secure.c - linked against liblbshim.so itself (a set-user-ID
 * program ignores LD_PRELOAD paths): prints whether it runs in secure mode
 * and makes a HIP call, so a test can check that the shim then reads no
 * configuration and writes nothing.
 */
#include <stdio.h>
#include <sys/auxv.h>
#include "lbshim/hip_decls.h"

int main(void)
{
	int dev = -1;
	hipError_t r = hipGetDevice(&dev);

	printf("secure=%lu ret=%d\n", getauxval(AT_SECURE), (int)r);
	return 0;
}
