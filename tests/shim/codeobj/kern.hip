/*
 * kern.hip - device code whose metadata the code-object tests read:
 * pointer, scalar, struct and array arguments, a template, LDS, scratch,
 * and the hidden arguments a kernel that reads blockDim gets.
 */
#include <hip/hip_runtime.h>

struct Pair {
	float *p;
	int n;
};

struct Arr {
	int a[5];
};

__global__ void scale(float *x, float a, int n, Pair pr)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		x[i] = x[i] * a + pr.p[i % pr.n];
}

template <typename T> __global__ void fill(T *x, T v)
{
	x[threadIdx.x] = v;
}
template __global__ void fill<double>(double *, double);
template __global__ void fill<int>(int *, int);

__global__ void arr(Arr a, int *o)
{
	__shared__ int s[64];

	s[threadIdx.x] = a.a[threadIdx.x % 5];
	__syncthreads();
	o[threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void copyro(const float *__restrict__ in, float *__restrict__ out,
		       unsigned char c, short h, long long l)
{
	volatile int tmp[40];

	for (int i = 0; i < 40; i++)
		tmp[i] = in[i] + c + h + l;
	out[threadIdx.x] = tmp[threadIdx.x % 40];
}

int main()
{
	return 0;
}
