/*
 * vecadd_twin.c - the CPU twin of vecadd.hip's kernel, loaded by hipemu
 * through HIPEMU_KERNELS.
 */
#include "hipemu.h"

HIPEMU_ARGS(_Z6vecaddPfPKfS1_i, sizeof(float *), sizeof(const float *),
	    sizeof(const float *), sizeof(int));

HIPEMU_TWIN(_Z6vecaddPfPKfS1_i)
{
	float *c = *(float **)args[0];
	const float *a = *(const float **)args[1];
	const float *b = *(const float **)args[2];
	int n = *(int *)args[3];
	size_t threads = (size_t)launch->grid.x * launch->block.x;

	for (size_t i = 0; i < threads && i < (size_t)n; i++)
		c[i] = a[i] + b[i];
}
