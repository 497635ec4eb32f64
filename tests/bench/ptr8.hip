/*
 * ptr8.hip - the kernel of lbbench's "s0 launch8" row: eight pointer
 * arguments, compiled to a code object (hipcc --genco) that the bench
 * loads with hipModuleLoadData, so that the shim's kernel registry knows
 * its layout and stream0's hazard check reads its eight pointers.  C
 * linkage: the module's kernel is asked for by this name.
 */
#include <hip/hip_runtime.h>

extern "C" __global__ void s0_ptr8(int *a, int *b, int *c, int *d, int *e,
				   int *f, int *g, int *h)
{
	a[0] = b[0] + c[0] + d[0] + e[0] + f[0] + g[0] + h[0];
}
