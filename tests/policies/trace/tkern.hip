// tkern.hip - a real HIP program (hipcc, kernel<<<>>>) for the trace test
// on hipemu: the trace names its kernel as the runtime registered it.
#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void scale(float *p, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] *= a;
}

int main()
{
	const int n = 256;
	float h[n], *d;
	hipStream_t s;
	double sum = 0;

	for (int i = 0; i < n; i++)
		h[i] = 1;
	if (hipStreamCreate(&s) || hipMalloc((void **)&d, sizeof(h)) ||
	    hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice))
		return 2;
	scale<<<4, 64, 0, s>>>(d, 3.0f, n);
	if (hipStreamSynchronize(s) ||
	    hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost))
		return 3;
	for (int i = 0; i < n; i++)
		sum += h[i];
	printf("sum=%.1f\n", sum);
	hipFree(d);
	hipStreamDestroy(s);
	return sum == 3.0 * n ? 0 : 1;
}
