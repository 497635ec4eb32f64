/*
 * errnames.c - prints every cudaError_t code from 0 to 9999 that the
 * runtime it runs on names, with its name and message, and what it says
 * of a code it does not know: run on NVIDIA's libcudart.so.13 and on the
 * CUDA face, the outputs must be the same (t_cuda_errors.sh).
 */
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>

int main(void)
{
	for (int i = 0; i < 10000; i++) {
		const char *n = cudaGetErrorName((cudaError_t)i);

		if (strcmp(n, "unrecognized error code"))
			printf("%d\t%s\t%s\n", i, n,
			       cudaGetErrorString((cudaError_t)i));
	}
	printf("unknown\t%s\t%s\n", cudaGetErrorName((cudaError_t)12345),
	       cudaGetErrorString((cudaError_t)12345));
	return 0;
}
