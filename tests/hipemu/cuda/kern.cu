/*
 * kern.cu - the kernels the driver API test (drv.c) loads as a cubin
 * (nvcc -cubin) and launches with cuLaunchKernel; twins in cuda_twins.c.
 */
struct S {
	double a;
	int b;
	char c[5];
};

/* y += a x */
extern "C" __global__ void axpy(float a, const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] += a * x[i];
}

/* p[0] = c + s.a + s.b + s.c[4] + h + d: every argument, whole */
extern "C" __global__ void mixed(char c, S s, float *p, short h, double d)
{
	p[0] = (float)(c + s.a + s.b + s.c[4] + h + d);
}
