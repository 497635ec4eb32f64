/* s0_spt_twin.c - hipemu twin of s0_spt.hip's scale(float *, float, int). */
#include "hipemu.h"

HIPEMU_ARGS(_Z5scalePffi, sizeof(float *), sizeof(float), sizeof(int));
HIPEMU_TWIN(_Z5scalePffi)
{
	float *x = *(float **)args[0], a = *(float *)args[1];
	int n = *(int *)args[2];
	unsigned long total = (unsigned long)launch->grid.x * launch->block.x;

	for (unsigned long i = 0; i < total && i < (unsigned long)n; i++)
		x[i] *= a;
}
