// vecadd.hip - an ordinary HIP program (<<<>>> launch, copies, events) that
// hipemu must run unchanged; its kernel's twin is in vecadd_twin.c.
#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void vecadd(float *c, const float *a, const float *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

#define CHECK(x)                                                            \
	do {                                                                \
		hipError_t e_ = (x);                                        \
		if (e_ != hipSuccess) {                                     \
			fprintf(stderr, "%s: %s\n", #x, hipGetErrorName(e_)); \
			return 1;                                           \
		}                                                           \
	} while (0)

int main()
{
	const int n = 100000;
	size_t bytes = n * sizeof(float);
	float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
	float *c = (float *)malloc(bytes);
	float *da, *db, *dc;
	hipDeviceProp_t prop;
	hipStream_t s;
	hipEvent_t e0, e1;
	float ms = 0;

	CHECK(hipGetDeviceProperties(&prop, 0));
	for (int i = 0; i < n; i++) {
		a[i] = (float)i;
		b[i] = 2.0f * i;
	}
	CHECK(hipMalloc(&da, bytes));
	CHECK(hipMalloc(&db, bytes));
	CHECK(hipMalloc(&dc, bytes));
	CHECK(hipStreamCreate(&s));
	CHECK(hipEventCreate(&e0));
	CHECK(hipEventCreate(&e1));
	CHECK(hipMemcpy(da, a, bytes, hipMemcpyHostToDevice));
	CHECK(hipMemcpyAsync(db, b, bytes, hipMemcpyHostToDevice, s));
	CHECK(hipEventRecord(e0, s));
	vecadd<<<(n + 255) / 256, 256, 0, s>>>(dc, da, db, n);
	CHECK(hipGetLastError());
	CHECK(hipEventRecord(e1, s));
	CHECK(hipMemcpyAsync(c, dc, bytes, hipMemcpyDeviceToHost, s));
	CHECK(hipStreamSynchronize(s));
	CHECK(hipEventElapsedTime(&ms, e0, e1));
	for (int i = 0; i < n; i++) {
		if (c[i] != 3.0f * i) {
			fprintf(stderr, "c[%d] = %g, want %g\n", i, c[i], 3.0 * i);
			return 1;
		}
	}
	CHECK(hipEventDestroy(e0));
	CHECK(hipEventDestroy(e1));
	CHECK(hipStreamDestroy(s));
	CHECK(hipFree(da));
	CHECK(hipFree(db));
	CHECK(hipFree(dc));
	printf("vecadd ok on %s (%s), kernel %.3f ms\n", prop.name,
	       prop.gcnArchName, ms);
	free(a);
	free(b);
	free(c);
	return 0;
}
