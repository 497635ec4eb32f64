/*
 * s0_apis.c - stream0 on every synchronous null-stream call and on the
 * null-stream forms of the asynchronous calls hip_api.def wraps.
 *
 * Thread B holds a blocking stream busy with a gate kernel; by the legacy
 * rules the null stream waits for it.  Thread A, meanwhile:
 *   own:     calls each Async form on stream 0, then
 *            hipStreamSynchronize(0): the work must be done (under stream0
 *            both are the thread's own stream; had the call gone to the
 *            legacy stream, it would still wait behind B's gate);
 *   nostall: calls each synchronous form: it must return, its work done,
 *            while B's kernel is still held (under stream0 it ran on A's
 *            own stream; on the legacy stream it waits for B).
 * Prints "own NAME 1|0" and "nostall NAME 1|0".  A opens the gate when it
 * is done, or a watchdog after 5 s: without the policy the first stalled
 * call returns only then, which is what the control run shows.
 */
#include <dlfcn.h>
#include "s0_common.h"

#define N 4096 /* bytes of the buffer each case writes */

struct bufs {
	unsigned char *p;   /* device, N bytes */
	unsigned char *src; /* device, N bytes of 0x5a */
	hipArray *arr;	    /* 64 x 64 bytes of 0x5a */
};

struct api_case {
	const char *name;
	hipError_t (*call)(struct bufs *b); /* on the null stream */
	int async;			    /* 1: an Async form (own) */
	unsigned char want;		    /* every byte of p after it */
	size_t len;			    /* bytes of p it writes */
	const char *twin; /* an Async twin newer than ROCm 5.2, or NULL */
};

static hipError_t c_d8a(struct bufs *b)
{
	return hipMemsetD8Async(b->p, 0x11, N, 0);
}

static hipError_t c_d16a(struct bufs *b)
{
	return hipMemsetD16Async(b->p, 0x1212, N / 2, 0);
}

static hipError_t c_2da(struct bufs *b)
{
	return hipMemset2DAsync(b->p, 64, 0x13, 64, N / 64, 0);
}

static hipError_t c_3da(struct bufs *b)
{
	hipPitchedPtr pp = make_hipPitchedPtr(b->p, 64, 64, 8);

	return hipMemset3DAsync(pp, 0x14, make_hipExtent(64, 8, N / 512), 0);
}

static hipError_t c_d8(struct bufs *b)
{
	return hipMemsetD8(b->p, 0x21, N);
}

static hipError_t c_d16(struct bufs *b)
{
	return hipMemsetD16(b->p, 0x2222, N / 2);
}

static hipError_t c_2d(struct bufs *b)
{
	return hipMemset2D(b->p, 64, 0x23, 64, N / 64);
}

static hipError_t c_3d(struct bufs *b)
{
	hipPitchedPtr pp = make_hipPitchedPtr(b->p, 64, 64, 8);

	return hipMemset3D(pp, 0x24, make_hipExtent(64, 8, N / 512));
}


/* The copies: each copies src (0x5a) into p. */
static void parms3d(struct hipMemcpy3DParms *m, struct bufs *b)
{
	memset(m, 0, sizeof(*m));
	m->srcPtr = make_hipPitchedPtr(b->src, 64, 64, 8);
	m->dstPtr = make_hipPitchedPtr(b->p, 64, 64, 8);
	m->extent = make_hipExtent(64, 8, N / 512);
	m->kind = hipMemcpyDeviceToDevice;
}

static void parms2d(hip_Memcpy2D *c, struct bufs *b)
{
	memset(c, 0, sizeof(*c));
	c->srcMemoryType = c->dstMemoryType = hipMemoryTypeDevice;
	c->srcDevice = b->src;
	c->dstDevice = b->p;
	c->srcPitch = c->dstPitch = c->WidthInBytes = 64;
	c->Height = N / 64;
}

static void parmsdrv(HIP_MEMCPY3D *c, struct bufs *b)
{
	memset(c, 0, sizeof(*c));
	c->srcMemoryType = c->dstMemoryType = hipMemoryTypeDevice;
	c->srcDevice = b->src;
	c->dstDevice = b->p;
	c->srcPitch = c->dstPitch = c->WidthInBytes = 64;
	c->srcHeight = c->dstHeight = c->Height = 8;
	c->Depth = N / 512;
}

static hipError_t c_peera(struct bufs *b)
{
	return hipMemcpyPeerAsync(b->p, 0, b->src, 0, N, 0);
}

static hipError_t c_tosyma(struct bufs *b)
{
	return hipMemcpyToSymbolAsync(b->p, b->src, N, 0,
				      hipMemcpyDeviceToDevice, 0);
}

static hipError_t c_fromsyma(struct bufs *b)
{
	return hipMemcpyFromSymbolAsync(b->p, b->src, N, 0,
					hipMemcpyDeviceToDevice, 0);
}

static hipError_t c_3dcopya(struct bufs *b)
{
	struct hipMemcpy3DParms m;

	parms3d(&m, b);
	return hipMemcpy3DAsync(&m, 0);
}

static hipError_t c_param2da(struct bufs *b)
{
	hip_Memcpy2D c;

	parms2d(&c, b);
	return hipMemcpyParam2DAsync(&c, 0);
}

static hipError_t c_drv3da(struct bufs *b)
{
	HIP_MEMCPY3D c;

	parmsdrv(&c, b);
	return hipDrvMemcpy3DAsync(&c, 0);
}

static hipError_t c_fromarra(struct bufs *b)
{
	return hipMemcpy2DFromArrayAsync(b->p, 64, b->arr, 0, 0, 64, N / 64,
					 hipMemcpyDeviceToDevice, 0);
}

static hipError_t c_peer(struct bufs *b)
{
	return hipMemcpyPeer(b->p, 0, b->src, 0, N);
}

static hipError_t c_tosym(struct bufs *b)
{
	return hipMemcpyToSymbol(b->p, b->src, N, 0, hipMemcpyDeviceToDevice);
}

static hipError_t c_fromsym(struct bufs *b)
{
	return hipMemcpyFromSymbol(b->p, b->src, N, 0,
				   hipMemcpyDeviceToDevice);
}

static hipError_t c_3dcopy(struct bufs *b)
{
	struct hipMemcpy3DParms m;

	parms3d(&m, b);
	return hipMemcpy3D(&m);
}

static hipError_t c_param2d(struct bufs *b)
{
	hip_Memcpy2D c;

	parms2d(&c, b);
	return hipMemcpyParam2D(&c);
}

static hipError_t c_drv3d(struct bufs *b)
{
	HIP_MEMCPY3D c;

	parmsdrv(&c, b);
	return hipDrvMemcpy3D(&c);
}

static hipError_t c_fromarr(struct bufs *b)
{
	return hipMemcpy2DFromArray(b->p, 64, b->arr, 0, 0, 64, N / 64,
				    hipMemcpyDeviceToDevice);
}

static hipError_t c_atoh(struct bufs *b)
{
	return hipMemcpyAtoH(b->p, b->arr, 0, N);
}

static const struct api_case cases[] = {
	{ "hipMemsetD8Async", c_d8a, 1, 0x11, N, NULL },
	{ "hipMemsetD16Async", c_d16a, 1, 0x12, N, NULL },
	{ "hipMemset2DAsync", c_2da, 1, 0x13, N, NULL },
	{ "hipMemset3DAsync", c_3da, 1, 0x14, N, NULL },
	{ "hipMemsetD8", c_d8, 0, 0x21, N, NULL },
	{ "hipMemsetD16", c_d16, 0, 0x22, N, NULL },
	{ "hipMemset2D", c_2d, 0, 0x23, N, NULL },
	{ "hipMemset3D", c_3d, 0, 0x24, N, NULL },
	{ "hipMemcpyPeerAsync", c_peera, 1, 0x5a, N, NULL },
	{ "hipMemcpyToSymbolAsync", c_tosyma, 1, 0x5a, N, NULL },
	{ "hipMemcpyFromSymbolAsync", c_fromsyma, 1, 0x5a, N, NULL },
	{ "hipMemcpy3DAsync", c_3dcopya, 1, 0x5a, N, NULL },
	{ "hipMemcpyParam2DAsync", c_param2da, 1, 0x5a, N, NULL },
	{ "hipDrvMemcpy3DAsync", c_drv3da, 1, 0x5a, N, NULL },
	{ "hipMemcpy2DFromArrayAsync", c_fromarra, 1, 0x5a, N, NULL },
	{ "hipMemcpyPeer", c_peer, 0, 0x5a, N, NULL },
	{ "hipMemcpyToSymbol", c_tosym, 0, 0x5a, N, NULL },
	{ "hipMemcpyFromSymbol", c_fromsym, 0, 0x5a, N, NULL },
	{ "hipMemcpy3D", c_3dcopy, 0, 0x5a, N, NULL },
	{ "hipMemcpyParam2D", c_param2d, 0, 0x5a, N, NULL },
	{ "hipDrvMemcpy3D", c_drv3d, 0, 0x5a, N, NULL },
	{ "hipMemcpy2DFromArray", c_fromarr, 0, 0x5a, N, NULL },
	/* served only where the runtime has 6.2's hipMemcpyAtoHAsync */
	{ "hipMemcpyAtoH", c_atoh, 0, 0x5a, N, "hipMemcpyAtoHAsync" },
};

static int gate, b_done;
static hipFunction_t f_gate;
static struct s0_gate b_started = S0_GATE_INIT, a_finished = S0_GATE_INIT;

static void *thread_b(void *arg)
{
	hipStream_t sb;
	void *a[] = { (void *)&(int *){ &gate }, (void *)&(int *){ &b_done } };

	(void)arg;
	S0_OK(hipStreamCreate(&sb));
	S0_OK(hipModuleLaunchKernel(f_gate, 1, 1, 1, 1, 1, 1, 0, sb, a, NULL));
	s0_gate_open(&b_started);
	S0_OK(hipStreamSynchronize(sb));
	S0_OK(hipStreamDestroy(sb));
	return NULL;
}

static void *watchdog(void *arg)
{
	struct timespec until;

	(void)arg;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 5;
	pthread_mutex_lock(&a_finished.m);
	while (!a_finished.open &&
	       !pthread_cond_timedwait(&a_finished.c, &a_finished.m, &until))
		;
	pthread_mutex_unlock(&a_finished.m);
	__atomic_store_n(&gate, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static int all_are(const unsigned char *p, size_t n, unsigned char v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (__atomic_load_n(&p[i], __ATOMIC_SEQ_CST) != v)
			return 0;
	return 1;
}

int main(void)
{
	static hipModule_t mod;
	hipChannelFormatDesc desc = { 8, 0, 0, 0,
				      hipChannelFormatKindUnsigned };
	pthread_t tb, tw;
	void *rt;
	struct bufs b;
	size_t i;

	S0_OK(hipModuleLoadData(&mod, "s0 apis twin"));
	S0_OK(hipModuleGetFunction(&f_gate, mod, "s0a_gate"));
	S0_OK(hipMalloc((void **)&b.p, N));
	S0_OK(hipMalloc((void **)&b.src, N));
	S0_OK(hipMemset(b.src, 0x5a, N));
	S0_OK(hipMallocArray(&b.arr, &desc, 64, N / 64, 0));
	S0_OK(hipMemcpy2DToArray(b.arr, 0, 0, b.src, 64, 64, N / 64,
				 hipMemcpyDeviceToDevice));
	pthread_create(&tb, NULL, thread_b, NULL);
	s0_gate_wait(&b_started);
	rt = dlopen("libamdhip64.so.5", RTLD_LAZY | RTLD_NOLOAD);
	pthread_create(&tw, NULL, watchdog, NULL);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct api_case *c = &cases[i];
		hipError_t r;
		int ok;

		/* the runtime's own symbol (RTLD_DEFAULT finds the shim's) */
		if (c->twin && (!rt || !dlsym(rt, c->twin))) {
			fprintf(stderr, "%s: no %s in the runtime: it stays "
				"on the legacy stream, not run\n", c->name,
				c->twin);
			continue;
		}
		/* nothing of ours is pending: the host may write it */
		memset(b.p, 0, N);
		r = c->call(&b);
		if (c->async && r == hipSuccess)
			r = hipStreamSynchronize(0);
		ok = r == hipSuccess && all_are(b.p, c->len, c->want);
		if (!c->async)
			ok = ok && !__atomic_load_n(&b_done, __ATOMIC_SEQ_CST);
		printf("%s %s %d\n", c->async ? "own" : "nostall", c->name, ok);
		if (r != hipSuccess)
			fprintf(stderr, "%s: %s\n", c->name,
				hipGetErrorName(r));
	}
	s0_gate_open(&a_finished);
	pthread_join(tw, NULL);
	pthread_join(tb, NULL);
	return 0;
}
