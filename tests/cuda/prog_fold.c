/*
 * prog_fold.c - device queries for t_fold.sh: runs of cudaGetDevice that
 * answer the same device, broken by a cudaSetDevice and by failures.
 * Prints "fold: ok" when every answer was the one expected.  Needs two
 * devices (HIPEMU_DEVICES=2 on hipemu's face).
 */
#include <cuda_runtime_api.h>
#include <stdio.h>

int main(void)
{
	int d = -1, i, bad = 0;

	for (i = 0; i < 10; i++)
		bad |= cudaGetDevice(&d) != cudaSuccess || d != 0;
	bad |= cudaSetDevice(1) != cudaSuccess;
	for (i = 0; i < 10; i++)
		bad |= cudaGetDevice(&d) != cudaSuccess || d != 1;
	for (i = 0; i < 2; i++)
		bad |= cudaGetDevice(NULL) == cudaSuccess;
	for (i = 0; i < 3; i++)
		bad |= cudaGetDevice(&d) != cudaSuccess || d != 1;
	printf("fold: %s\n", bad ? "WRONG" : "ok");
	return bad;
}
