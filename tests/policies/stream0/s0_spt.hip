// s0_spt.hip - a program built with -fgpu-default-stream=per-thread: its
// launches, copies and syncs on stream 0 are the _spt entry points.  It
// must behave the same with and without the stream0 policy.
#include <hip/hip_runtime.h>
#include <pthread.h>
#include <stdio.h>

__global__ void scale(float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= a;
}

#define N 1024
static int failed;

static void *work(void *arg)
{
	float a = (float)(long)arg, h[N], *d = nullptr;
	unsigned flags = 99;

	for (int i = 0; i < N; i++)
		h[i] = (float)i;
	if (hipMalloc(&d, sizeof(h)) != hipSuccess)
		return (void *)1;
	hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice);
	scale<<<N / 64, 64>>>(d, a, N);
	scale<<<N / 64, 64, 0, 0>>>(d, a, N);
	hipMemset(d, 0, 4 * sizeof(float));
	if (hipStreamSynchronize(0) != hipSuccess)
		failed = 1;
	if (hipStreamQuery(0) != hipSuccess)
		failed = 1;
	hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost);
	for (int i = 0; i < N; i++)
		if (h[i] != (i < 4 ? 0.0f : (float)i * a * a))
			failed = 1;
	if (hipStreamGetFlags(0, &flags) != hipSuccess || flags != 0)
		failed = 1;
	hipFree(d);
	return nullptr;
}

int main()
{
	pthread_t t[3];

	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], nullptr, work, (void *)(i + 2));
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], nullptr);
	printf("spt %s\n", failed ? "FAILED" : "ok");
	return failed;
}
