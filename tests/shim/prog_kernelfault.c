/*
 * prog_kernelfault.c - a kernel that faults on the device (on hipemu: its
 * twin segfaults on the stream worker thread) after three good launches:
 * the trace must hold the crash and the calls before it, and the exit
 * status must be the one without the shim.
 */
#include <stdio.h>
#include "lbshim/hip_decls.h"
#include "hipemu.h"

/* The "decoder" kernel of one evaluation case reads a bad pointer. */
HIPEMU_ARGS(decode_step, sizeof(float *), sizeof(int));
HIPEMU_TWIN(decode_step)
{
	float *tokens = *(float **)args[0];
	(void)launch;
	tokens[*(int *)args[1]] += 1.0f;
}

int main(void)
{
	hipModule_t m;
	hipFunction_t f;
	float *buf, *bad = (float *)0x10;
	int n = 7;
	void *ok[] = { &buf, &n }, *oops[] = { &bad, &n };

	hipMalloc((void **)&buf, 4096);
	hipModuleLoadData(&m, "decoder");
	hipModuleGetFunction(&f, m, "decode_step");
	for (int step = 0; step < 3; step++)
		hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, 0, ok, NULL);
	hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, 0, oops, NULL);
	hipDeviceSynchronize();
	puts("done");
	return 0;
}
