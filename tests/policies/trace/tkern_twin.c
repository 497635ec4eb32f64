/* tkern_twin.c - hipemu's twin of tkern.hip's kernel. */
#include "hipemu.h"

HIPEMU_ARGS(_Z5scalePffi, sizeof(float *), sizeof(float), sizeof(int));
HIPEMU_TWIN(_Z5scalePffi)
{
	float *p = *(float **)args[0];
	float a = *(float *)args[1];
	int n = *(int *)args[2];
	unsigned long i, total = (unsigned long)launch->grid.x *
				 launch->block.x;

	for (i = 0; i < total && i < (unsigned long)n; i++)
		p[i] *= a;
}
