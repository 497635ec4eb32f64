/*
 * client_hiprand.c - hipRAND (on rocRAND) through the shim: an XORWOW
 * generator, uniform floats, copied back.  Prints every status.
 */
#include <stdio.h>
/*
 * rocrand.h names __half, which ROCm 5.3's hip_fp16.h defines for C++
 * only; C needs just a type for the half-precision functions' pointers.
 */
typedef struct {
	unsigned short x;
} __half;
/* hiprand_hcc.h names the struct without "struct", as C++ may. */
typedef struct rocrand_generator_base_type rocrand_generator_base_type;
#include <hiprand/hiprand.h>
#include <hip/hip_runtime_api.h>

#define N 4096

int main(void)
{
	hiprandGenerator_t gen = NULL;
	static float h[N];
	float *d = NULL;
	double sum = 0;
	int st, he, i;

	he = hipMalloc((void **)&d, sizeof(h));
	printf("hipMalloc %d\n", he);
	st = hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_XORWOW);
	printf("hiprandCreateGenerator %d\n", st);
	if (st == HIPRAND_STATUS_SUCCESS) {
		printf("hiprandSetPseudoRandomGeneratorSeed %d\n",
		       hiprandSetPseudoRandomGeneratorSeed(gen, 1234));
		st = hiprandGenerateUniform(gen, d, N);
		printf("hiprandGenerateUniform %d\n", st);
		printf("hiprandDestroyGenerator %d\n",
		       hiprandDestroyGenerator(gen));
	}
	he = hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost);
	printf("hipMemcpy %d\n", he);
	if (st == HIPRAND_STATUS_SUCCESS && he == hipSuccess) {
		for (i = 0; i < N; i++)
			sum += h[i];
		printf("mean %.3f\n", sum / N);
	}
	printf("hipFree %d\n", hipFree(d));
	return 0;
}
