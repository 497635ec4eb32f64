/*
 * cudaerrtab.c - prints one of lbtrace's CUDA name tables as "value name"
 * lines, for test_cudanames.sh to compare with NVIDIA's headers:
 *
 *   cudaerrtab rt      cudaError_t
 *   cudaerrtab drv     CUresult
 *   cudaerrtab kind    cudaMemcpyKind
 */
#include <stdio.h>
#include <string.h>
#include "format/cuda_names.h"

int main(int argc, char **argv)
{
	const char *n;
	int i, drv;

	if (argc != 2)
		return 1;
	if (!strcmp(argv[1], "kind")) {
		for (i = 0; (n = lbt_cuda_memcpy_kind_name((unsigned)i)); i++)
			printf("%d %s\n", i, n);
		return 0;
	}
	drv = !strcmp(argv[1], "drv");
	if (!drv && strcmp(argv[1], "rt") != 0)
		return 1;
	for (i = 0; i < lbt_cuda_error_count(drv); i++) {
		int v = lbt_cuda_error_at(drv, i, &n);

		printf("%d %s\n", v, n);
	}
	return 0;
}
