/*
 * prog_xv_hip.c - the HIP half of the cross-vendor comparison
 * (t_lbtrace_ab.sh): prog_xv.cu's calls in HIP, built by cc against
 * lbshim's HIP declarations and run on hipemu; the kernel is registered
 * under nvcc's mangled name of vecadd, whose twin (libcuda_twins.so) runs
 * it.  Its own: hipExtMallocWithFlags (HIP's alone: no CUDA twin in the
 * table) and hipEventRecord
 * where the CUDA half records with flags.  Prints "ok" when every sum is
 * right.
 */
#include <stdio.h>
#include "lbshim/hip_decls.h"

#define N 1000

static void vecadd_stub(void)
{
}

#define CK(call)                                                          \
	do {                                                              \
		if ((call) != hipSuccess) {                               \
			fprintf(stderr, "FAIL %s\n", #call);              \
			return 1;                                         \
		}                                                         \
	} while (0)

int main(void)
{
	static char image[16];
	float ha[N], hb[N], hc[N];
	float *a, *b, *c;
	void *args[4] = { &c, &a, &b, NULL };
	dim3 grid = { (N + 255) / 256, 1, 1 }, block = { 256, 1, 1 };
	hipEvent_t ev;
	lb_modules_t mods;
	int i, bad = 0, n = N;
	void *ext = NULL;

	args[3] = &n;
	for (i = 0; i < N; i++) {
		ha[i] = (float)i;
		hb[i] = 2.0f * (float)i;
	}
	mods = __hipRegisterFatBinary(image);
	__hipRegisterFunction(mods, (const void *)vecadd_stub,
			      "_Z6vecaddPfPKfS1_i", "_Z6vecaddPfPKfS1_i",
			      (unsigned)-1, NULL, NULL, NULL, NULL, NULL);
	CK(hipExtMallocWithFlags(&ext, 256, 0));
	CK(hipMalloc((void **)&a, sizeof(ha)));
	CK(hipMalloc((void **)&b, sizeof(hb)));
	CK(hipMalloc((void **)&c, sizeof(hc)));
	CK(hipMemcpy(a, ha, sizeof(ha), hipMemcpyHostToDevice));
	CK(hipMemcpy(b, hb, sizeof(hb), hipMemcpyHostToDevice));
	CK(hipLaunchKernel((const void *)vecadd_stub, grid, block, args, 0,
			   NULL));
	CK(hipStreamSynchronize(NULL));
	CK(hipMemcpy(hc, c, sizeof(hc), hipMemcpyDeviceToHost));
	for (i = 0; i < N; i++)
		bad += hc[i] != 3.0f * (float)i;
	if (bad) {
		fprintf(stderr, "FAIL %d wrong sums\n", bad);
		return 1;
	}
	CK(hipEventCreate(&ev));
	CK(hipEventRecord(ev, NULL));
	CK(hipEventSynchronize(ev));
	CK(hipFree(a));
	CK(hipFree(b));
	CK(hipFree(c));
	puts("ok");
	return 0;
}
