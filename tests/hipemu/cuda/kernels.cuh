/*
 * kernels.cuh - the kernels the CUDA face's nvcc-built tests launch; their
 * C twins are in cuda_twins.c, named by these functions' mangled names.
 */
#ifndef LB_CT_KERNELS_CUH
#define LB_CT_KERNELS_CUH

/* c = a + b over n elements. */
__global__ void vecadd(float *c, const float *a, const float *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

/*
 * Holds its stream until *flag is non-zero, at most ms milliseconds, then
 * sets *seen: 1 if it saw the flag, 2 if it gave up.
 */
__global__ void gate(volatile int *flag, int *seen, int ms)
{
	while (!*flag && ms-- > 0)
		__nanosleep(1000000);
	*seen = *flag ? 1 : 2;
}

/* *m = v */
__global__ void mark(int *m, int v)
{
	*m = v;
}

/* d[i] *= k */
__global__ void scale(float *d, int n, float k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		d[i] *= k;
}

/* A kernel hipemu has no twin for. */
__global__ void notwin(int *p)
{
	*p = 1;
}

#endif
