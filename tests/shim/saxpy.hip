// saxpy.hip - a real HIP program (kernel<<<>>>), built by hipcc, for the
// pass-through tests: on the real runtime it must fail identically with and
// without the shim; on hipemu it must compute the same, correct result.
#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void saxpy(float a, const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

#define CHECK(what, call)                                                  \
	do {                                                               \
		hipError_t e_ = (call);                                    \
		printf("%s: %d %s\n", what, (int)e_, hipGetErrorName(e_)); \
		if (e_ != hipSuccess)                                      \
			return 10 + (int)(e_ % 100);                       \
	} while (0)

int main()
{
	const int n = 1000;
	float hx[n], hy[n], *x, *y;
	double sum = 0;

	for (int i = 0; i < n; i++) {
		hx[i] = i;
		hy[i] = 1;
	}
	CHECK("hipMalloc", hipMalloc((void **)&x, n * sizeof(float)));
	CHECK("hipMalloc", hipMalloc((void **)&y, n * sizeof(float)));
	CHECK("hipMemcpy", hipMemcpy(x, hx, sizeof(hx), hipMemcpyHostToDevice));
	CHECK("hipMemcpy", hipMemcpy(y, hy, sizeof(hy), hipMemcpyHostToDevice));
	saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
	CHECK("launch", hipGetLastError());
	CHECK("hipMemcpy", hipMemcpy(hy, y, sizeof(hy), hipMemcpyDeviceToHost));
	for (int i = 0; i < n; i++)
		sum += hy[i];
	printf("sum=%.1f\n", sum);
	CHECK("hipFree", hipFree(x));
	CHECK("hipFree", hipFree(y));
	return sum == 2.0 * (n - 1) * n / 2 + n ? 0 : 1;
}
