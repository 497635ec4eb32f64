/*
 * pool_streamwork.c - the pool's fence sees the work of every
 * stream-taking call: a block that such a call will still write is not
 * handed out again.
 *
 * For each writer W: a non-blocking stream s1 of device 0 waits for an
 * event of device 1 whose kernel is held by a gate, so W's write on s1 is
 * pending for as long as the test wants (no fence of device 0 covers
 * device 1's work, and a wait puts no work on s1).  The block W writes is
 * freed and the size allocated again; the new block is set to 0x55 and
 * the gate opened.  Had the pool handed out the pending block, W's write
 * lands on it afterwards.  Prints "W reused=R clobbered=C": C must be 0.
 */
#include "pool_common.h"

int pt_failed;
hipFunction_t pt_f_sum, pt_f_nop;

#define SZ 65536

typedef hipError_t (*writer_fn)(void *p, hipStream_t s);

static hipError_t w_d8(void *p, hipStream_t s)
{
	return hipMemsetD8Async(p, 0xaa, SZ, s);
}

static hipError_t w_d16(void *p, hipStream_t s)
{
	return hipMemsetD16Async(p, 0xaaaa, SZ / 2, s);
}

static hipError_t w_2d(void *p, hipStream_t s)
{
	/* 255 of every 256 bytes: the 65,280 of 65,536 */
	return hipMemset2DAsync(p, 256, 0xaa, 255, SZ / 256, s);
}

static hipError_t w_3d(void *p, hipStream_t s)
{
	hipPitchedPtr pp = make_hipPitchedPtr(p, 256, 256, 16);

	return hipMemset3DAsync(pp, 0xaa, make_hipExtent(256, 16, 16), s);
}

#include "pool_streamwork_more.h"

static const struct {
	const char *name;
	writer_fn fn;
} writers[] = {
	{ "hipMemsetD8Async", w_d8 },
	{ "hipMemsetD16Async", w_d16 },
	{ "hipMemset2DAsync", w_2d },
	{ "hipMemset3DAsync", w_3d },
	PW_MORE_WRITERS
};

static hipFunction_t f_gate;

static void one(const char *name, writer_fn w)
{
	static int gate, done;
	void *a[] = { (void *)&(int *){ &gate }, (void *)&(int *){ &done } };
	hipStream_t s_d1, s1;
	hipEvent_t ev;
	unsigned char *p, *q, *h;
	size_t i, bad = 0;

	__atomic_store_n(&gate, 0, __ATOMIC_SEQ_CST);
	PT_OK(hipSetDevice(1));
	PT_OK(hipStreamCreateWithFlags(&s_d1, hipStreamNonBlocking));
	PT_OK(hipEventCreateWithFlags(&ev, hipEventDisableTiming));
	PT_OK(hipModuleLaunchKernel(f_gate, 1, 1, 1, 1, 1, 1, 0, s_d1, a,
				    NULL));
	PT_OK(hipEventRecord(ev, s_d1));
	PT_OK(hipSetDevice(0));
	PT_OK(hipStreamCreateWithFlags(&s1, hipStreamNonBlocking));
	PT_OK(hipStreamWaitEvent(s1, ev, 0));
	PT_OK(hipMalloc((void **)&p, SZ));
	PT_OK(w(p, s1));
	PT_OK(hipFree(p));
	PT_OK(hipMalloc((void **)&q, SZ));
	PT_OK(hipMemset(q, 0x55, SZ));
	__atomic_store_n(&gate, 1, __ATOMIC_SEQ_CST);
	PT_OK(hipStreamSynchronize(s1));
	h = malloc(SZ);
	PT_CHECK(h != NULL, "no memory");
	if (!h)
		return;
	PT_OK(hipMemcpy(h, q, SZ, hipMemcpyDeviceToHost));
	for (i = 0; i < SZ; i++)
		bad += h[i] != 0x55;
	printf("%s reused=%d clobbered=%zu\n", name, q == p, bad);
	PT_CHECK(bad == 0, "%s: %zu of %d bytes of a new block overwritten",
		 name, bad, SZ);
	free(h);
	PT_OK(hipFree(q));
	PT_OK(hipStreamDestroy(s1));
	PT_OK(hipSetDevice(1));
	PT_OK(hipStreamSynchronize(s_d1));
	PT_OK(hipStreamDestroy(s_d1));
	PT_OK(hipEventDestroy(ev));
	PT_OK(hipSetDevice(0));
}

int main(int argc, char **argv)
{
	static hipModule_t mod;
	size_t i;

	PT_OK(hipModuleLoadData(&mod, "pool streamwork twin"));
	PT_OK(hipModuleGetFunction(&f_gate, mod, "pw_gate"));
	pw_more_setup();
	for (i = 0; i < sizeof(writers) / sizeof(writers[0]); i++)
		if (argc < 2 || !strcmp(argv[1], writers[i].name))
			one(writers[i].name, writers[i].fn);
	return pt_failed;
}
