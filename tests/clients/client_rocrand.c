/*
 * client_rocrand.c - rocRAND, a real AMD library built by others, through
 * the shim: create a Philox generator, fill device memory with uniform
 * floats, copy them back.  Prints every status and, when the device ran
 * the kernels, a checksum, so runs with and without the shim compare.
 */
#include <stdio.h>
/*
 * rocrand.h names __half, which ROCm 5.3's hip_fp16.h defines for C++
 * only; C needs just a type for the half-precision functions' pointers.
 */
typedef struct {
	unsigned short x;
} __half;
#include <rocrand/rocrand.h>
#include <hip/hip_runtime_api.h>

#define N 4096

int main(void)
{
	rocrand_generator gen = NULL;
	static float h[N];
	float *d = NULL;
	double sum = 0;
	int st, he, i;

	he = hipMalloc((void **)&d, sizeof(h));
	printf("hipMalloc %d\n", he);
	st = rocrand_create_generator(&gen, ROCRAND_RNG_PSEUDO_PHILOX4_32_10);
	printf("rocrand_create_generator %d\n", st);
	if (st == ROCRAND_STATUS_SUCCESS) {
		printf("rocrand_set_seed %d\n", rocrand_set_seed(gen, 1234));
		st = rocrand_generate_uniform(gen, d, N);
		printf("rocrand_generate_uniform %d\n", st);
		printf("rocrand_destroy_generator %d\n",
		       rocrand_destroy_generator(gen));
	}
	he = hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost);
	printf("hipMemcpy %d\n", he);
	if (st == ROCRAND_STATUS_SUCCESS && he == hipSuccess) {
		for (i = 0; i < N; i++)
			sum += h[i];
		printf("mean %.3f\n", sum / N);
	}
	printf("hipFree %d\n", hipFree(d));
	return 0;
}
