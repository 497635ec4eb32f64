/*
 * trace_args.c - what each API's call record holds in a[] and note, as
 * trace_format.h and lbshim-trace(5) define it per kind of call.
 *
 * Runs in the post hook, after the runtime: outputs (the pointer hipMalloc
 * returned, the stream created) are read only when the call succeeded and
 * the program gave a place for them, the same condition under which the
 * runtime wrote them.
 */
#include "trace.h"

#define LB_A(NAME) const struct lb_args_##NAME *a = c->args
#define LB_P(x) ((uint64_t)(uintptr_t)(x))
#define LB_OUT(p) (ok && (p) ? LB_P(*(p)) : 0)
#define LB_OUTV(p) (ok && (p) ? (uint64_t)(*(p)) : 0)

static uint16_t lb_sat16(uint32_t v)
{
	return v > 0xffff ? 0xffff : (uint16_t)v;
}

static void lb_pack_launch(struct lb_trace_rec *r, uint32_t kid,
			   uint64_t shmem, dim3 g, dim3 b)
{
	if (shmem > UINT32_MAX)
		shmem = UINT32_MAX;
	r->a[0] = kid | shmem << 32;
	r->a[1] = g.x | (uint64_t)g.y << 32;
	r->a[2] = lb_sat16(g.z) | (uint64_t)lb_sat16(b.x) << 16 |
		  (uint64_t)lb_sat16(b.y) << 32 | (uint64_t)lb_sat16(b.z) << 48;
	if (g.z > 0xffff)
		r->hdr.flags |= LB_RF_GRIDZ_SAT;
}

/* Ext/Hcc module launches take work sizes; the grid is global / local. */
static void lb_pack_work(struct lb_trace_rec *r, uint32_t kid, uint64_t shmem,
			 uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
			 uint32_t ly, uint32_t lz)
{
	dim3 g = { lx ? gx / lx : gx, ly ? gy / ly : gy, lz ? gz / lz : gz };
	dim3 b = { lx, ly, lz };

	lb_pack_launch(r, kid, shmem, g, b);
}

static uint32_t lb_kid(const void *f, int module, hipStream_t s)
{
	return lb_names_kernel(f, module, s);
}

/* The program's string s as a new string of the file (0: none). */
static uint64_t lb_str_id(const char *s)
{
	char buf[1024];
	long n = lb_safe_str(s, buf, sizeof(buf));

	return n > 0 ? lb_names_string(buf, (size_t)n) : 0;
}

static void lb_fill_launch(struct lb_trace_rec *r, const struct lb_call *c)
{
	int ok = c->ret == hipSuccess;

	switch (c->api) {
	case LB_ID_hipLaunchKernel:
	case LB_ID_hipLaunchKernel_spt: {
		LB_A(hipLaunchKernel);
		lb_pack_launch(r, lb_kid(a->function_address, 0, a->stream),
			       a->sharedMemBytes, a->numBlocks, a->dimBlocks);
		break;
	}
	case LB_ID_hipLaunchCooperativeKernel: {
		LB_A(hipLaunchCooperativeKernel);
		lb_pack_launch(r, lb_kid(a->f, 0, a->stream), a->sharedMemBytes,
			       a->gridDim, a->blockDimX);
		break;
	}
	case LB_ID_hipLaunchCooperativeKernel_spt: {
		LB_A(hipLaunchCooperativeKernel_spt);
		lb_pack_launch(r, lb_kid(a->f, 0, a->hStream),
			       a->sharedMemBytes, a->gridDim, a->blockDim);
		break;
	}
	case LB_ID_hipExtLaunchKernel: {
		LB_A(hipExtLaunchKernel);
		lb_pack_launch(r, lb_kid(a->function_address, 0, a->stream),
			       a->sharedMemBytes, a->numBlocks, a->dimBlocks);
		break;
	}
	case LB_ID_hipModuleLaunchKernel: {
		LB_A(hipModuleLaunchKernel);
		dim3 g = { a->gridDimX, a->gridDimY, a->gridDimZ };
		dim3 b = { a->blockDimX, a->blockDimY, a->blockDimZ };

		lb_pack_launch(r, lb_kid(a->f, 1, a->stream), a->sharedMemBytes,
			       g, b);
		break;
	}
	case LB_ID_hipExtModuleLaunchKernel:
	case LB_ID_lb_cxx_hipExtModuleLaunchKernel: {
		LB_A(hipExtModuleLaunchKernel);
		lb_pack_work(r, lb_kid(a->f, 1, a->hStream), a->sharedMemBytes,
			     a->globalWorkSizeX, a->globalWorkSizeY,
			     a->globalWorkSizeZ, a->localWorkSizeX,
			     a->localWorkSizeY, a->localWorkSizeZ);
		break;
	}
	case LB_ID_hipHccModuleLaunchKernel:
	case LB_ID_lb_cxx_hipHccModuleLaunchKernel: {
		LB_A(hipHccModuleLaunchKernel);
		lb_pack_work(r, lb_kid(a->f, 1, a->hStream), a->sharedMemBytes,
			     a->globalWorkSizeX, a->globalWorkSizeY,
			     a->globalWorkSizeZ, a->localWorkSizeX,
			     a->localWorkSizeY, a->localWorkSizeZ);
		break;
	}
	case LB_ID_hipLaunchHostFunc: {
		LB_A(hipLaunchHostFunc);
		r->a[0] = LB_P(a->fn);
		r->a[1] = LB_P(a->userData);
		break;
	}
	case LB_ID_hipStreamAddCallback: {
		LB_A(hipStreamAddCallback);
		r->a[0] = LB_P(a->callback);
		r->a[1] = LB_P(a->userData);
		r->a[2] = a->flags;
		break;
	}
	case LB_ID_hipGraphLaunch: {
		LB_A(hipGraphLaunch);
		r->a[0] = LB_P(a->graphExec);
		break;
	}
	case LB_ID___hipPushCallConfiguration: {
		LB_A(__hipPushCallConfiguration);
		lb_pack_launch(r, 0, a->sharedMem, a->gridDim, a->blockDim);
		break;
	}
	case LB_ID___hipPopCallConfiguration: {
		LB_A(__hipPopCallConfiguration);
		dim3 z = { 0, 0, 0 };

		if (ok && a->gridDim && a->blockDim && a->sharedMem)
			lb_pack_launch(r, 0, *a->sharedMem, *a->gridDim,
				       *a->blockDim);
		else
			lb_pack_launch(r, 0, 0, z, z);
		break;
	}
	default:
		break;
	}
}

static void lb_fill_alloc(struct lb_trace_rec *r, const struct lb_call *c)
{
	int ok = c->ret == hipSuccess;

	r->hdr.note = (uint8_t)c->scratch[LB_NOTE_POOL];
	switch (c->api) {
	case LB_ID_hipMalloc: {
		LB_A(hipMalloc);
		r->a[0] = LB_OUT(a->ptr);
		r->a[1] = a->size;
		break;
	}
	case LB_ID_hipMallocManaged: {
		LB_A(hipMallocManaged);
		r->a[0] = LB_OUT(a->dev_ptr);
		r->a[1] = a->size;
		r->a[2] = a->flags;
		break;
	}
	case LB_ID_hipMallocPitch: {
		LB_A(hipMallocPitch);
		r->a[0] = LB_OUT(a->ptr);
		r->a[1] = (uint64_t)a->width * a->height;
		r->a[2] = LB_OUTV(a->pitch);
		break;
	}
	case LB_ID_hipExtMallocWithFlags: {
		LB_A(hipExtMallocWithFlags);
		r->a[0] = LB_OUT(a->ptr);
		r->a[1] = a->sizeBytes;
		r->a[2] = a->flags;
		break;
	}
	case LB_ID_hipMallocAsync: {
		LB_A(hipMallocAsync);
		r->a[0] = LB_OUT(a->dev_ptr);
		r->a[1] = a->size;
		break;
	}
	case LB_ID_hipMallocFromPoolAsync: {
		LB_A(hipMallocFromPoolAsync);
		r->a[0] = LB_OUT(a->dev_ptr);
		r->a[1] = a->size;
		r->a[2] = LB_P(a->mem_pool);
		break;
	}
	case LB_ID_hipHostMalloc:
	case LB_ID_hipHostAlloc: { /* the same parameters */
		LB_A(hipHostMalloc);
		r->a[0] = LB_OUT(a->ptr);
		r->a[1] = a->size;
		r->a[2] = a->flags;
		break;
	}
	case LB_ID_hipMallocHost:
	case LB_ID_hipMemAllocHost: {
		LB_A(hipMallocHost);
		r->a[0] = LB_OUT(a->ptr);
		r->a[1] = a->size;
		break;
	}
	case LB_ID_hipMalloc3D: { /* size: what was asked, as hipMallocPitch */
		LB_A(hipMalloc3D);
		r->a[0] = ok && a->pitchedDevPtr ? LB_P(a->pitchedDevPtr->ptr)
						 : 0;
		r->a[1] = (uint64_t)a->extent.width * a->extent.height *
			  a->extent.depth;
		break;
	}
	case LB_ID_hipMalloc3DArray: {
		/* bytes: the channels' bits per element (a 1D or 2D array
		 * has a height or depth of 0) */
		LB_A(hipMalloc3DArray);
		uint64_t e = ok && a->desc ? ((uint64_t)a->desc->x + a->desc->y +
					      a->desc->z + a->desc->w) / 8
					   : 0;

		r->a[0] = LB_OUT(a->array);
		r->a[1] = e * a->extent.width *
			  (a->extent.height ? a->extent.height : 1) *
			  (a->extent.depth ? a->extent.depth : 1);
		r->a[2] = a->flags;
		break;
	}
	default:
		break;
	}
}

static void lb_fill_copy(struct lb_trace_rec *r, const struct lb_call *c)
{
	switch (c->api) {
	case LB_ID_hipMemcpy:
	case LB_ID_hipMemcpy_spt: {
		LB_A(hipMemcpy);
		r->a[0] = LB_P(a->dst);
		r->a[1] = LB_P(a->src);
		r->a[2] = a->sizeBytes;
		r->hdr.note = (uint8_t)a->kind;
		break;
	}
	case LB_ID_hipMemcpyAsync:
	case LB_ID_hipMemcpyAsync_spt:
	case LB_ID_hipMemcpyWithStream: {
		LB_A(hipMemcpyAsync);
		r->a[0] = LB_P(a->dst);
		r->a[1] = LB_P(a->src);
		r->a[2] = a->sizeBytes;
		r->hdr.note = (uint8_t)a->kind;
		break;
	}
	case LB_ID_hipMemcpyHtoD:
	case LB_ID_hipMemcpyHtoDAsync: {
		LB_A(hipMemcpyHtoD);
		r->a[0] = LB_P(a->dst);
		r->a[1] = LB_P(a->src);
		r->a[2] = a->sizeBytes;
		r->hdr.note = hipMemcpyHostToDevice;
		break;
	}
	case LB_ID_hipMemcpyDtoH:
	case LB_ID_hipMemcpyDtoHAsync: {
		LB_A(hipMemcpyDtoH);
		r->a[0] = LB_P(a->dst);
		r->a[1] = LB_P(a->src);
		r->a[2] = a->sizeBytes;
		r->hdr.note = hipMemcpyDeviceToHost;
		break;
	}
	case LB_ID_hipMemcpyDtoD:
	case LB_ID_hipMemcpyDtoDAsync: {
		LB_A(hipMemcpyDtoD);
		r->a[0] = LB_P(a->dst);
		r->a[1] = LB_P(a->src);
		r->a[2] = a->sizeBytes;
		r->hdr.note = hipMemcpyDeviceToDevice;
		break;
	}
	case LB_ID_hipMemcpy2D:
	case LB_ID_hipMemcpy2D_spt:
	case LB_ID_hipMemcpy2DAsync: {
		LB_A(hipMemcpy2D);
		r->a[0] = LB_P(a->dst);
		r->a[1] = LB_P(a->src);
		r->a[2] = (uint64_t)a->width * a->height;
		r->hdr.note = (uint8_t)a->kind;
		break;
	}
	case LB_ID_hipMemPrefetchAsync: {
		LB_A(hipMemPrefetchAsync);
		r->a[0] = LB_P(a->dev_ptr);
		r->a[1] = (uint64_t)(uint32_t)a->device;
		r->a[2] = a->count;
		break;
	}
	default:
		break;
	}
}

static void lb_fill_set(struct lb_trace_rec *r, const struct lb_call *c)
{
	switch (c->api) {
	case LB_ID_hipMemset:
	case LB_ID_hipMemset_spt:
	case LB_ID_hipMemsetAsync: {
		LB_A(hipMemset);
		r->a[0] = LB_P(a->dst);
		r->a[1] = (uint64_t)(uint32_t)a->value;
		r->a[2] = a->sizeBytes;
		break;
	}
	case LB_ID_hipMemsetD32: {
		LB_A(hipMemsetD32);
		r->a[0] = LB_P(a->dest);
		r->a[1] = (uint64_t)(uint32_t)a->value;
		r->a[2] = (uint64_t)a->count * 4;
		break;
	}
	case LB_ID_hipMemsetD32Async: {
		LB_A(hipMemsetD32Async);
		r->a[0] = LB_P(a->dst);
		r->a[1] = (uint64_t)(uint32_t)a->value;
		r->a[2] = (uint64_t)a->count * 4;
		break;
	}
	default:
		break;
	}
}

static void lb_fill_event(struct lb_trace_rec *r, const struct lb_call *c)
{
	int ok = c->ret == hipSuccess;

	switch (c->api) {
	case LB_ID_hipEventCreate: {
		LB_A(hipEventCreate);
		r->a[0] = LB_OUT(a->event);
		break;
	}
	case LB_ID_hipEventCreateWithFlags: {
		LB_A(hipEventCreateWithFlags);
		r->a[0] = LB_OUT(a->event);
		r->a[1] = a->flags;
		break;
	}
	case LB_ID_hipEventRecord:
	case LB_ID_hipEventRecord_spt: {
		LB_A(hipEventRecord);
		r->a[0] = LB_P(a->event);
		break;
	}
	case LB_ID_hipEventQuery:
	case LB_ID_hipEventDestroy: {
		LB_A(hipEventQuery);
		r->a[0] = LB_P(a->event);
		break;
	}
	case LB_ID_hipEventElapsedTime: {
		LB_A(hipEventElapsedTime);
		uint32_t bits = 0;

		if (ok && a->ms)
			memcpy(&bits, a->ms, sizeof(bits));
		r->a[0] = LB_P(a->start);
		r->a[1] = LB_P(a->stop);
		r->a[2] = bits;
		break;
	}
	case LB_ID_hipStreamWaitEvent:
	case LB_ID_hipStreamWaitEvent_spt: {
		LB_A(hipStreamWaitEvent);
		r->a[0] = LB_P(a->event);
		r->a[1] = a->flags;
		break;
	}
	default:
		break;
	}
}

static void lb_fill_stream(struct lb_trace_rec *r, const struct lb_call *c)
{
	int ok = c->ret == hipSuccess;

	switch (c->api) {
	case LB_ID_hipStreamCreate: {
		LB_A(hipStreamCreate);
		r->a[0] = LB_OUT(a->stream);
		break;
	}
	case LB_ID_hipStreamCreateWithFlags: {
		LB_A(hipStreamCreateWithFlags);
		r->a[0] = LB_OUT(a->stream);
		r->a[1] = a->flags;
		break;
	}
	case LB_ID_hipStreamCreateWithPriority: {
		LB_A(hipStreamCreateWithPriority);
		r->a[0] = LB_OUT(a->stream);
		r->a[1] = a->flags;
		r->a[2] = (uint64_t)(uint32_t)a->priority;
		break;
	}
	case LB_ID_hipStreamDestroy: {
		LB_A(hipStreamDestroy);
		r->a[0] = LB_P(a->stream);
		break;
	}
	case LB_ID_hipStreamGetFlags:
	case LB_ID_hipStreamGetFlags_spt: {
		LB_A(hipStreamGetFlags);
		r->a[0] = LB_P(c->stream_named);
		r->a[1] = LB_OUTV(a->flags);
		break;
	}
	case LB_ID_hipStreamGetPriority:
	case LB_ID_hipStreamGetPriority_spt: {
		LB_A(hipStreamGetPriority);
		r->a[0] = LB_P(c->stream_named);
		r->a[2] = ok && a->priority ? (uint64_t)(uint32_t)*a->priority
					    : 0;
		break;
	}
	case LB_ID_hipStreamBeginCapture: {
		LB_A(hipStreamBeginCapture);
		r->a[0] = LB_P(c->stream_named);
		r->a[1] = (uint64_t)a->mode;
		break;
	}
	case LB_ID_hipStreamEndCapture: {
		LB_A(hipStreamEndCapture);
		r->a[0] = LB_P(c->stream_named);
		r->a[1] = LB_OUT(a->pGraph);
		break;
	}
	case LB_ID_hipStreamIsCapturing: {
		LB_A(hipStreamIsCapturing);
		r->a[0] = LB_P(c->stream_named);
		r->a[1] = LB_OUTV(a->pCaptureStatus);
		break;
	}
	default:
		break;
	}
}

static void lb_fill_reg(struct lb_trace_rec *r, const struct lb_call *c)
{
	int ok = c->ret == hipSuccess;

	switch (c->api) {
	case LB_ID___hipRegisterFatBinary: {
		LB_A(__hipRegisterFatBinary);
		r->a[0] = LB_P(c->rval);
		r->a[2] = LB_P(a->data);
		break;
	}
	case LB_ID___hipRegisterFunction: {
		LB_A(__hipRegisterFunction);
		r->a[0] = LB_P(a->hostFunction);
		r->a[1] = lb_names_kernel(a->hostFunction, 0, NULL);
		r->a[2] = LB_P(a->modules);
		break;
	}
	case LB_ID___hipUnregisterFatBinary: {
		LB_A(__hipUnregisterFatBinary);
		r->a[0] = LB_P(a->modules);
		break;
	}
	case LB_ID_hipModuleLoad: {
		LB_A(hipModuleLoad);
		r->a[0] = LB_OUT(a->module);
		r->a[1] = lb_str_id(a->fname);
		break;
	}
	case LB_ID_hipModuleLoadData:
	case LB_ID_hipModuleLoadDataEx: {
		LB_A(hipModuleLoadData);
		r->a[0] = LB_OUT(a->module);
		r->a[2] = LB_P(a->image);
		break;
	}
	case LB_ID_hipModuleUnload: {
		LB_A(hipModuleUnload);
		r->a[0] = LB_P(a->module);
		break;
	}
	case LB_ID_hipModuleGetFunction: {
		LB_A(hipModuleGetFunction);
		r->a[0] = LB_OUT(a->function);
		r->a[1] = ok && a->function
				  ? lb_names_kernel(*a->function, 1, NULL)
				  : lb_str_id(a->kname);
		r->a[2] = LB_P(a->module);
		break;
	}
	default:
		break;
	}
}

static void lb_fill_other(struct lb_trace_rec *r, const struct lb_call *c)
{
	int ok = c->ret == hipSuccess;

	switch (c->api) {
	case LB_ID_hipEventSynchronize: {
		LB_A(hipEventSynchronize);
		r->a[0] = LB_P(a->event);
		break;
	}
	case LB_ID_hipSetDevice: {
		LB_A(hipSetDevice);
		r->a[0] = (uint64_t)(uint32_t)a->deviceId;
		break;
	}
	case LB_ID_hipGetDeviceProperties:
	case LB_ID_hipGetDevicePropertiesR0000:
	case LB_ID_hipGetDevicePropertiesR0600: { /* the same parameters */
		LB_A(hipGetDeviceProperties);
		r->a[0] = (uint64_t)(uint32_t)a->deviceId;
		break;
	}
	case LB_ID_hipGetDevice: {
		LB_A(hipGetDevice);
		r->a[0] = ok && a->deviceId ? (uint64_t)(uint32_t)*a->deviceId
					    : 0;
		break;
	}
	case LB_ID_hipFree:
	case LB_ID_hipHostFree:
	case LB_ID_hipFreeHost: {
		LB_A(hipFree);
		r->a[0] = LB_P(a->ptr);
		r->hdr.note = (uint8_t)c->scratch[LB_NOTE_POOL];
		break;
	}
	case LB_ID_hipFreeAsync: {
		LB_A(hipFreeAsync);
		r->a[0] = LB_P(a->dev_ptr);
		r->hdr.note = (uint8_t)c->scratch[LB_NOTE_POOL];
		break;
	}
	case LB_ID_hipMemGetInfo: {
		LB_A(hipMemGetInfo);
		r->a[1] = LB_OUTV(a->free);
		r->a[2] = LB_OUTV(a->total);
		break;
	}
	case LB_ID_hipPointerGetAttributes: {
		LB_A(hipPointerGetAttributes);
		r->a[0] = LB_P(a->ptr);
		break;
	}
	case LB_ID_hipMemGetAddressRange: {
		LB_A(hipMemGetAddressRange);
		r->a[0] = LB_P(a->dptr);
		r->a[1] = LB_OUTV(a->psize);
		r->a[2] = LB_OUT(a->pbase);
		break;
	}
	case LB_ID_hipIpcGetMemHandle: {
		LB_A(hipIpcGetMemHandle);
		r->a[0] = LB_P(a->devPtr);
		break;
	}
	case LB_ID_hipMemAdvise: {
		LB_A(hipMemAdvise);
		r->a[0] = LB_P(a->dev_ptr);
		r->a[1] = a->count;
		r->a[2] = (uint64_t)(uint32_t)a->advice |
			  (uint64_t)(uint32_t)a->device << 32;
		break;
	}
	case LB_ID_hipGetProcAddress: {
		LB_A(hipGetProcAddress);
		r->a[0] = LB_OUT(a->pfn);
		r->a[1] = lb_str_id(a->symbol);
		r->a[2] = (uint64_t)(uint32_t)a->hipVersion;
		break;
	}
	default:
		break;
	}
}

/*
 * One function per kind, by kind: a call of one of them from the record
 * path costs a load and an indirect call, where a switch over the kinds
 * inlining them all made every record pay the whole set's prologue (six
 * registers saved and restored).  SYNC, DEVICE, FREE and OTHER share
 * lb_fill_other.
 */
void (*const lb_args_fill_kind[LB_KIND_COUNT])(struct lb_trace_rec *r,
					       const struct lb_call *c) = {
	[LB_KIND_LAUNCH] = lb_fill_launch, [LB_KIND_SYNC] = lb_fill_other,
	[LB_KIND_ALLOC] = lb_fill_alloc,   [LB_KIND_FREE] = lb_fill_other,
	[LB_KIND_COPY] = lb_fill_copy,	   [LB_KIND_SET] = lb_fill_set,
	[LB_KIND_EVENT] = lb_fill_event,   [LB_KIND_STREAM] = lb_fill_stream,
	[LB_KIND_DEVICE] = lb_fill_other,  [LB_KIND_REG] = lb_fill_reg,
	[LB_KIND_OTHER] = lb_fill_other,
};
