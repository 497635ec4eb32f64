/*
 * callcost.cu - what one runtime or driver call costs the host, call by
 * call, for the calls PyTorch makes most (its launch, its device query,
 * its launch check, its event record) and a driver call taken as PyTorch
 * takes them (cudaGetDriverEntryPointByVersion).  Run with and without
 * lbshim under each policy, the differences are the shim's cost a call on
 * this machine (tests/gpu/check_gpu.sh, tests/bench/NOTES.md "CUDA").
 *
 * usage: callcost [CALLS]   (default 20000 a function)
 * prints one line a function: callcost: fn=NAME ns=.. (best of 5 rounds,
 * CALLS calls a round, the mean a call), then "callcost: ok=1" when every
 * call succeeded.
 */
#include "gpucommon.h"
#include <cuda.h>

__global__ void empty(void)
{
}

/* One launch with arguments at the end, for the trace's layouts (the
 * gpu-cpu group reads its record: t_gpu_policies.sh). */
__global__ void put(int *p, int v)
{
	*p = v;
}

typedef CUresult (*ctxget_fn)(CUcontext *);
typedef CUresult (*init_fn)(unsigned);

static int n;
static int bad;

/* Times CALLS calls of the expression given (it may use i; 0 is
 * success), best of 5 rounds; counts its failures. */
#define TIME(name, ...)                                                   \
	do {                                                              \
		double best_ = 1e30;                                      \
		long fails_ = 0;                                          \
		for (int r_ = 0; r_ < 5; r_++) {                          \
			double t0_ = now_ms(), t_;                        \
			for (int i = 0; i < n; i++)                       \
				fails_ += (int)(__VA_ARGS__) != 0;        \
			t_ = now_ms() - t0_;                              \
			CK(cudaDeviceSynchronize());                      \
			if (t_ < best_)                                   \
				best_ = t_;                               \
		}                                                         \
		printf("callcost: fn=%s ns=%.1f fails=%ld\n", name,       \
		       best_ * 1e6 / n, fails_);                          \
		bad |= fails_ != 0;                                       \
	} while (0)

int main(int argc, char **argv)
{
	int dev = -1;
	cudaEvent_t ev;
	cudaDriverEntryPointQueryResult q;
	ctxget_fn ctxget = NULL;
	init_fn init = NULL;
	CUcontext ctx;
	void *p;

	n = argc > 1 ? atoi(argv[1]) : 20000;
	if (n < 1) {
		fprintf(stderr, "usage: callcost [CALLS]\n");
		return 2;
	}
	/* cuda_runtime_api.h: cudaGetDriverEntryPointByVersion (CUDA 12.5
	 * on); asked at 12.0, as PyTorch asks for its driver functions
	 * at the version it was built with (c10/cuda/driver_api.cpp). */
	CK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", (void **)&ctxget,
					     12000, cudaEnableDefault, &q));
	if (!ctxget || q != cudaDriverEntryPointSuccess) {
		fprintf(stderr, "callcost: no cuCtxGetCurrent\n");
		return 3;
	}
	/* cudart has initialized the driver; a program of its own (hipemu's
	 * face keeps the two apart) calls cuInit first, a no-op after. */
	CK(cudaGetDriverEntryPointByVersion("cuInit", (void **)&init, 12000,
					     cudaEnableDefault, &q));
	if (!init || init(0) != CUDA_SUCCESS) {
		fprintf(stderr, "callcost: cuInit failed\n");
		return 3;
	}
	CK(cudaMalloc(&p, 256));
	CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
	empty<<<1, 1>>>();
	CK(cudaDeviceSynchronize());

	TIME("cudaGetDevice", cudaGetDevice(&dev));
	TIME("cudaGetLastError", cudaGetLastError());
	TIME("cudaPeekAtLastError", cudaPeekAtLastError());
	TIME("launch<<<>>>", (empty<<<1, 1>>>(), 0));
	TIME("cudaLaunchKernel",
	     cudaLaunchKernel((const void *)empty, dim3(1), dim3(1), NULL, 0,
			      0));
	TIME("cudaEventRecord", cudaEventRecord(ev, 0));
	TIME("cudaMemsetAsync", cudaMemsetAsync(p, 0, 256, 0));
	TIME("cuCtxGetCurrent", ctxget(&ctx));
	CK(cudaGetLastError());
	put<<<1, 1>>>((int *)p, 7);
	CK(cudaDeviceSynchronize());
	{
		int v = 0;

		CK(cudaMemcpy(&v, p, sizeof(v), cudaMemcpyDeviceToHost));
		bad |= v != 7;
	}
	CK(cudaEventDestroy(ev));
	CK(cudaFree(p));
	printf("callcost: ok=%d\n", !bad);
	return bad ? 1 : 0;
}
