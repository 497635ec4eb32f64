/*
 * prog_spt.c - a C program built against a real ROCm's own headers with
 * HIP_API_PER_THREAD_DEFAULT_STREAM, as -fgpu-default-stream=per-thread
 * builds are: the header (hip/amd_detail/amd_hip_runtime_pt_api.h) maps
 * each call below to its _spt function.  Every argument is zero (no
 * device: each call is an error path); prints the name written here and
 * the answer.  t_spt.sh checks that the references are the _spt ones,
 * that they bind to the shim, and that the shim records them under their
 * _spt names with the runtime's answers.
 */
#include <stdio.h>
#include <hip/hip_runtime_api.h>

#ifndef HIP_API_PER_THREAD_DEFAULT_STREAM
#error "build with -DHIP_API_PER_THREAD_DEFAULT_STREAM"
#endif

#define CALL(f, ...) printf("%s %d\n", #f, (int)f(__VA_ARGS__))

int main(void)
{
	const hipMemcpyKind h2d = hipMemcpyHostToDevice;
	hipStreamCaptureStatus st;
	hipPitchedPtr pp = { 0 };
	hipExtent ext = { 0 };
	unsigned long long id;
	const hipGraphNode_t *deps;
	hipGraph_t graph;
	dim3 one = { 1, 1, 1 };
	unsigned int u;
	size_t n;
	int i;

	CALL(hipMemcpy, NULL, NULL, 0, h2d);
	CALL(hipMemcpyToSymbol, NULL, NULL, 0, 0, h2d);
	CALL(hipMemcpyFromSymbol, NULL, NULL, 0, 0, hipMemcpyDeviceToHost);
	CALL(hipMemcpy2D, NULL, 0, NULL, 0, 0, 0, h2d);
	CALL(hipMemcpy2DFromArray, NULL, 0, NULL, 0, 0, 0, 0, h2d);
	CALL(hipMemcpy3D, NULL);
	CALL(hipMemset, NULL, 0, 0);
	CALL(hipMemset2D, NULL, 0, 0, 0, 0);
	CALL(hipMemset3D, pp, 0, ext);
	CALL(hipMemcpyAsync, NULL, NULL, 0, h2d, NULL);
	CALL(hipMemset3DAsync, pp, 0, ext, NULL);
	CALL(hipMemset2DAsync, NULL, 0, 0, 0, 0, NULL);
	CALL(hipMemsetAsync, NULL, 0, 0, NULL);
	CALL(hipMemcpy3DAsync, NULL, NULL);
	CALL(hipMemcpy2DAsync, NULL, 0, NULL, 0, 0, 0, h2d, NULL);
	CALL(hipMemcpyFromSymbolAsync, NULL, NULL, 0, 0, h2d, NULL);
	CALL(hipMemcpyToSymbolAsync, NULL, NULL, 0, 0, h2d, NULL);
	CALL(hipMemcpyFromArray, NULL, NULL, 0, 0, 0, h2d);
	CALL(hipMemcpy2DToArray, NULL, 0, 0, NULL, 0, 0, 0, h2d);
	CALL(hipMemcpy2DFromArrayAsync, NULL, 0, NULL, 0, 0, 0, 0, h2d, NULL);
	CALL(hipMemcpy2DToArrayAsync, NULL, 0, 0, NULL, 0, 0, 0, h2d, NULL);
	CALL(hipStreamSynchronize, NULL);
	CALL(hipStreamQuery, NULL);
	CALL(hipStreamGetFlags, NULL, &u);
	CALL(hipStreamGetPriority, NULL, &i);
	CALL(hipStreamWaitEvent, NULL, NULL, 0);
	CALL(hipStreamAddCallback, NULL, NULL, NULL, 0);
	CALL(hipLaunchHostFunc, NULL, NULL, NULL);
	CALL(hipEventRecord, NULL, NULL);
	CALL(hipLaunchKernel, NULL, one, one, NULL, 0, NULL);
	CALL(hipLaunchCooperativeKernel, NULL, one, one, NULL, 0, NULL);
	CALL(hipGraphLaunch, NULL, NULL);
	CALL(hipStreamBeginCapture, NULL, hipStreamCaptureModeGlobal);
	CALL(hipStreamEndCapture, NULL, &graph);
	CALL(hipStreamIsCapturing, NULL, &st);
	CALL(hipStreamGetCaptureInfo, NULL, &st, &id);
	CALL(hipStreamGetCaptureInfo_v2, NULL, &st, &id, &graph, &deps, &n);
#if HIP_VERSION_MAJOR >= 7
	CALL(hipGetDriverEntryPoint, "hipMalloc", NULL, 0, NULL);
#endif
	return 0;
}
