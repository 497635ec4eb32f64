/*
 * saxpy_twin.c - hipemu's twin of saxpy.hip's kernel: the same work on the
 * CPU, for the whole grid.
 */
#include "hipemu.h"

HIPEMU_ARGS(_Z5saxpyfPKfPfi, sizeof(float), sizeof(float *), sizeof(float *),
	    sizeof(int));
HIPEMU_TWIN(_Z5saxpyfPKfPfi)
{
	float a = *(float *)args[0];
	const float *x = *(const float **)args[1];
	float *y = *(float **)args[2];
	int n = *(int *)args[3];
	unsigned long i, total = (unsigned long)launch->grid.x *
				 launch->block.x;

	for (i = 0; i < total && i < (unsigned long)n; i++)
		y[i] = a * x[i] + y[i];
}
