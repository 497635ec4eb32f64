/*
 * launch.c - kernels: registration of hipcc's host stubs, code-object
 * modules, and every launch entry point.  The kernel records, their twins
 * and argument layouts are kernel.c's.
 */
#include "he.h"
#include "lbshim/codeobj.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HE_MODULE_MAGIC 0x6d6f64756c654845ull

struct he_module {
	uint64_t magic;
	struct lb_co_set *co;	/* its code object's kernels, or NULL */
};

static pthread_mutex_t he_fblock = PTHREAD_MUTEX_INITIALIZER;

/* ---- registration, as hipcc's generated host code does it ---- */

/*
 * The handle hipcc's code keeps; listed so that a program that never
 * unregisters (a test) does not look like a leak.
 */
struct he_fatbin {
	void *data;	/* first: the handle is used as a void ** */
	struct he_fatbin *next;
	struct lb_co_set *co;	/* its kernels' metadata (first object) */
};

static struct he_fatbin *he_fatbins;

HE_EXPORT lb_modules_t __hipRegisterFatBinary(const void *data)
{
	struct he_fatbin *h;

	HE_COUNT("__hipRegisterFatBinary");
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->data = (void *)data;
	h->co = lb_co_read_fatbin(data, LB_CO_FIRST);
	pthread_mutex_lock(&he_fblock);
	h->next = he_fatbins;
	he_fatbins = h;
	pthread_mutex_unlock(&he_fblock);
	return (lb_modules_t)h;
}

HE_EXPORT void __hipRegisterFunction(lb_modules_t modules,
				     const void *hostFunction,
				     char *deviceFunction,
				     const char *deviceName,
				     unsigned int threadLimit, void *tid,
				     void *bid, dim3 *blockDim, dim3 *gridDim,
				     int *wSize)
{
	struct he_fatbin *h = (struct he_fatbin *)modules;
	const char *name = deviceName ? deviceName : deviceFunction;

	HE_COUNT("__hipRegisterFunction");
	(void)threadLimit;
	(void)tid;
	(void)bid;
	(void)blockDim;
	(void)gridDim;
	(void)wSize;
	if (!name)
		return;
	he_kernel_add_stub(hostFunction, name,
			   h ? lb_co_find(h->co, name) : NULL);
}

HE_EXPORT void __hipUnregisterFatBinary(lb_modules_t modules)
{
	struct he_fatbin **pp, *h = (struct he_fatbin *)modules;

	HE_COUNT("__hipUnregisterFatBinary");
	/* The stubs stay registered: work may still be queued at exit. */
	pthread_mutex_lock(&he_fblock);
	for (pp = &he_fatbins; *pp && *pp != h; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = h->next;
	else
		h = NULL;
	pthread_mutex_unlock(&he_fblock);
	if (h)
		lb_co_free(h->co);
	free(h);
}

/* ---- <<<>>> call configuration ---- */

struct he_callcfg {
	dim3 grid, block;
	size_t shmem;
	hipStream_t stream;
};

#define HE_CFG_DEPTH 16
static __thread struct he_callcfg he_cfgstack[HE_CFG_DEPTH];
static __thread int he_ncfg;

HE_EXPORT hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim,
						size_t sharedMem,
						hipStream_t stream)
{
	HE_ENTER("__hipPushCallConfiguration");
	if (he_ncfg == HE_CFG_DEPTH)
		return he_ret(hipErrorInvalidConfiguration);
	he_cfgstack[he_ncfg++] = (struct he_callcfg){ gridDim, blockDim,
						      sharedMem, stream };
	return hipSuccess;
}

HE_EXPORT hipError_t __hipPopCallConfiguration(dim3 *gridDim,
					       dim3 *blockDim,
					       size_t *sharedMem,
					       hipStream_t *stream)
{
	struct he_callcfg *c;

	HE_ENTER("__hipPopCallConfiguration");
	if (!he_ncfg)
		return he_ret(hipErrorMissingConfiguration);
	c = &he_cfgstack[--he_ncfg];
	*gridDim = c->grid;
	*blockDim = c->block;
	*sharedMem = c->shmem;
	*stream = c->stream;
	return hipSuccess;
}

/* ---- the launch itself ---- */

struct he_launch_req {
	struct he_kernel *k;
	dim3 grid, block;
	void **args;
	size_t shmem;
	hipStream_t stream;
	const void *kernarg;
	size_t kernarg_size;
	hipEvent_t start, stop;
};

static hipError_t launch(const struct he_launch_req *r)
{
	struct he_stream *s;
	struct he_work w;
	hipemu_launch l;
	hipemu_twin_fn fn;
	const unsigned *sizes;
	void *split[64], **args = r->args;
	uint64_t seq;
	hipError_t err;
	bool capturing;

	if (!r->k || r->k->magic != HE_KERNEL_MAGIC)
		return hipErrorInvalidDeviceFunction;
	if (!r->grid.x || !r->grid.y || !r->grid.z || !r->block.x ||
	    !r->block.y || !r->block.z ||
	    (uint64_t)r->block.x * r->block.y * r->block.z > 1024)
		return hipErrorInvalidConfiguration;
	/* No twin is what a missing code object looks like. */
	if (!he_kernel_twin(r->k, &fn, &sizes)) {
		if (!__atomic_exchange_n(&r->k->warned, true, __ATOMIC_RELAXED))
			he_warn("kernel %s: no twin hipemu_twin_%s; the launch "
				"fails", r->k->name, r->k->name);
		return hipErrorInvalidDeviceFunction;
	}
	err = he_stream_get(r->stream, &s);
	if (err)
		return err;
	pthread_mutex_lock(&he_lock);
	capturing = he_stream_capture(s) != NULL;
	pthread_mutex_unlock(&he_lock);
	if (capturing && !sizes && r->args)
		return hipErrorStreamCaptureUnsupported;
	/*
	 * A packed "extra" buffer split at the metadata's offsets rather
	 * than by natural alignment (which misplaces a 4-aligned struct of
	 * 8 bytes or more).  meta_sizes is set before the kernel is
	 * reachable by a launch and never changes after.
	 */
	if (!args && r->kernarg && sizes && sizes == r->k->meta_sizes &&
	    r->k->meta_n <= sizeof(split) / sizeof(split[0])) {
		for (unsigned i = 0; i < r->k->meta_n; i++) {
			if ((uint64_t)r->k->meta_offs[i] + sizes[i] >
			    r->kernarg_size)
				return hipErrorInvalidValue;
			split[i] = (char *)r->kernarg + r->k->meta_offs[i];
		}
		args = split;
	}

	memset(&l, 0, sizeof(l));
	l.grid = r->grid;
	l.block = r->block;
	l.shmem = r->shmem;
	l.stream = r->stream;
	l.device = he_stream_device(s);
	l.kernel = r->k->name;
	l.kernarg = r->kernarg;
	l.kernarg_size = r->kernarg_size;
	if (he_work_kernel(&w, fn, &l, args, sizes))
		return hipErrorOutOfMemory;
	he_cost(he_cfg.cost_launch_ns);
	if (r->start) {
		err = he_event_record(r->start, r->stream);
		if (err)
			goto fail;
	}
	err = he_enqueue(s, &w, NULL, 0, &seq);
	if (err)
		goto fail;
	if (r->stop)
		he_event_record(r->stop, r->stream);
	/* Without hipemu_args_M the caller's values must outlive the run. */
	if (w.kern.nargs < 0 && args && seq)
		he_stream_wait(s, seq);
	return err;
fail:
	he_work_release(&w);
	return err;
}

HE_EXPORT hipError_t hipLaunchKernel(const void *function_address,
				     dim3 numBlocks, dim3 dimBlocks,
				     void **args, size_t sharedMemBytes,
				     hipStream_t stream)
{
	struct he_launch_req r = { .k = he_kernel_by_stub(function_address),
				   .grid = numBlocks, .block = dimBlocks,
				   .args = args, .shmem = sharedMemBytes,
				   .stream = stream };

	HE_ENTER("hipLaunchKernel");
	return he_ret(launch(&r));
}

HE_EXPORT hipError_t hipLaunchKernel_spt(const void *function_address,
					 dim3 numBlocks, dim3 dimBlocks,
					 void **args, size_t sharedMemBytes,
					 hipStream_t stream)
{
	struct he_launch_req r = { .k = he_kernel_by_stub(function_address),
				   .grid = numBlocks, .block = dimBlocks,
				   .args = args, .shmem = sharedMemBytes,
				   .stream = stream ? stream :
						      hipStreamPerThread };

	HE_ENTER("hipLaunchKernel_spt");
	return he_ret(launch(&r));
}

HE_EXPORT hipError_t hipLaunchCooperativeKernel(const void *f, dim3 gridDim,
						dim3 blockDimX,
						void **kernelParams,
						unsigned int sharedMemBytes,
						hipStream_t stream)
{
	struct he_launch_req r = { .k = he_kernel_by_stub(f), .grid = gridDim,
				   .block = blockDimX, .args = kernelParams,
				   .shmem = sharedMemBytes, .stream = stream };

	HE_ENTER("hipLaunchCooperativeKernel");
	return he_ret(launch(&r));
}

HE_EXPORT hipError_t hipLaunchCooperativeKernel_spt(const void *f,
						    dim3 gridDim,
						    dim3 blockDim,
						    void **kernelParams,
						    uint32_t sharedMemBytes,
						    hipStream_t hStream)
{
	struct he_launch_req r = { .k = he_kernel_by_stub(f), .grid = gridDim,
				   .block = blockDim, .args = kernelParams,
				   .shmem = sharedMemBytes,
				   .stream = hStream ? hStream :
						       hipStreamPerThread };

	HE_ENTER("hipLaunchCooperativeKernel_spt");
	return he_ret(launch(&r));
}

HE_EXPORT hipError_t hipExtLaunchKernel(const void *function_address,
					dim3 numBlocks, dim3 dimBlocks,
					void **args, size_t sharedMemBytes,
					hipStream_t stream,
					hipEvent_t startEvent,
					hipEvent_t stopEvent, int flags)
{
	struct he_launch_req r = { he_kernel_by_stub(function_address),
				   numBlocks,
				   dimBlocks,
				   args,
				   sharedMemBytes,
				   stream,
				   NULL,
				   0,
				   startEvent,
				   stopEvent };

	HE_ENTER("hipExtLaunchKernel");
	(void)flags;
	return he_ret(launch(&r));
}

/* Fills r's argument fields from kernelParams or an "extra" list. */
static hipError_t module_args(struct he_launch_req *r, void **kernelParams,
			      void **extra)
{
	r->args = kernelParams;
	if (!extra)
		return hipSuccess;
	if (kernelParams)
		return hipErrorInvalidValue;
	for (int i = 0; extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
		if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER)
			r->kernarg = extra[i + 1];
		else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE)
			r->kernarg_size = *(size_t *)extra[i + 1];
		else
			return hipErrorInvalidValue;
	}
	return hipSuccess;
}

static hipError_t module_launch(hipFunction_t f, dim3 grid, dim3 block,
				size_t shmem, hipStream_t stream,
				void **kernelParams, void **extra,
				hipEvent_t start, hipEvent_t stop)
{
	struct he_launch_req r = { (struct he_kernel *)f, grid, block, NULL,
				   shmem, stream, NULL, 0, start, stop };
	hipError_t err = module_args(&r, kernelParams, extra);

	return err ? err : launch(&r);
}

HE_EXPORT hipError_t hipModuleLaunchKernel(
	hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
	unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
	unsigned int blockDimZ, unsigned int sharedMemBytes,
	hipStream_t stream, void **kernelParams, void **extra)
{
	HE_ENTER("hipModuleLaunchKernel");
	return he_ret(module_launch(f, (dim3){ gridDimX, gridDimY, gridDimZ },
				    (dim3){ blockDimX, blockDimY, blockDimZ },
				    sharedMemBytes, stream, kernelParams,
				    extra, NULL, NULL));
}

/* The Ext/Hcc forms give the global size in threads, not blocks. */
static hipError_t ext_module_launch(hipFunction_t f, uint32_t gx, uint32_t gy,
				    uint32_t gz, uint32_t lx, uint32_t ly,
				    uint32_t lz, size_t shmem,
				    hipStream_t stream, void **kernelParams,
				    void **extra, hipEvent_t start,
				    hipEvent_t stop)
{
	if (!lx || !ly || !lz)
		return hipErrorInvalidConfiguration;
	return module_launch(f, (dim3){ gx / lx, gy / ly, gz / lz },
			     (dim3){ lx, ly, lz }, shmem, stream,
			     kernelParams, extra, start, stop);
}

HE_EXPORT hipError_t hipExtModuleLaunchKernel(
	hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
	uint32_t globalWorkSizeZ, uint32_t localWorkSizeX,
	uint32_t localWorkSizeY, uint32_t localWorkSizeZ,
	size_t sharedMemBytes, hipStream_t hStream, void **kernelParams,
	void **extra, hipEvent_t startEvent, hipEvent_t stopEvent,
	uint32_t flags)
{
	HE_ENTER("hipExtModuleLaunchKernel");
	(void)flags;
	return he_ret(ext_module_launch(f, globalWorkSizeX, globalWorkSizeY,
					globalWorkSizeZ, localWorkSizeX,
					localWorkSizeY, localWorkSizeZ,
					sharedMemBytes, hStream, kernelParams,
					extra, startEvent, stopEvent));
}

HE_EXPORT hipError_t hipHccModuleLaunchKernel(
	hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
	uint32_t globalWorkSizeZ, uint32_t localWorkSizeX,
	uint32_t localWorkSizeY, uint32_t localWorkSizeZ,
	size_t sharedMemBytes, hipStream_t hStream, void **kernelParams,
	void **extra, hipEvent_t startEvent, hipEvent_t stopEvent)
{
	HE_ENTER("hipHccModuleLaunchKernel");
	return he_ret(ext_module_launch(f, globalWorkSizeX, globalWorkSizeY,
					globalWorkSizeZ, localWorkSizeX,
					localWorkSizeY, localWorkSizeZ,
					sharedMemBytes, hStream, kernelParams,
					extra, startEvent, stopEvent));
}

/* ROCm 5.2 exports these two only under their C++ names. */
HE_EXPORT hipError_t he_cxx_ext_module_launch(
	hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
	uint32_t ly, uint32_t lz, size_t shmem, hipStream_t stream,
	void **kernelParams, void **extra, hipEvent_t start, hipEvent_t stop,
	uint32_t flags)
	__asm__("_Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j");
HE_EXPORT hipError_t he_cxx_hcc_module_launch(
	hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
	uint32_t ly, uint32_t lz, size_t shmem, hipStream_t stream,
	void **kernelParams, void **extra, hipEvent_t start, hipEvent_t stop)
	__asm__("_Z24hipHccModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_");

hipError_t he_cxx_ext_module_launch(hipFunction_t f, uint32_t gx, uint32_t gy,
				    uint32_t gz, uint32_t lx, uint32_t ly,
				    uint32_t lz, size_t shmem,
				    hipStream_t stream, void **kernelParams,
				    void **extra, hipEvent_t start,
				    hipEvent_t stop, uint32_t flags)
{
	HE_ENTER("hipExtModuleLaunchKernel");
	(void)flags;
	return he_ret(ext_module_launch(f, gx, gy, gz, lx, ly, lz, shmem,
					stream, kernelParams, extra, start,
					stop));
}

hipError_t he_cxx_hcc_module_launch(hipFunction_t f, uint32_t gx, uint32_t gy,
				    uint32_t gz, uint32_t lx, uint32_t ly,
				    uint32_t lz, size_t shmem,
				    hipStream_t stream, void **kernelParams,
				    void **extra, hipEvent_t start,
				    hipEvent_t stop)
{
	HE_ENTER("hipHccModuleLaunchKernel");
	return he_ret(ext_module_launch(f, gx, gy, gz, lx, ly, lz, shmem,
					stream, kernelParams, extra, start,
					stop));
}

/* ---- modules ---- */

/* co: the module's metadata (owned by the module from here), or NULL. */
static hipError_t module_new(hipModule_t *module, struct lb_co_set *co)
{
	struct he_module *m;

	if (!module) {
		lb_co_free(co);
		return hipErrorInvalidValue;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		lb_co_free(co);
		return hipErrorOutOfMemory;
	}
	m->magic = HE_MODULE_MAGIC;
	m->co = co;
	*module = (hipModule_t)m;
	return hipSuccess;
}

HE_EXPORT hipError_t hipModuleLoad(hipModule_t *module, const char *fname)
{
	HE_ENTER("hipModuleLoad");
	if (!module || !fname)
		return he_ret(hipErrorInvalidValue);
	/* The code is the twins; only the metadata is read. */
	if (access(fname, R_OK))
		return he_ret(hipErrorFileNotFound);
	return he_ret(module_new(module, lb_co_read_file(fname, LB_CO_FIRST)));
}

HE_EXPORT hipError_t hipModuleLoadData(hipModule_t *module, const void *image)
{
	HE_ENTER("hipModuleLoadData");
	if (!image)
		return he_ret(hipErrorInvalidValue);
	return he_ret(module_new(module, lb_co_read(image, 0, LB_CO_FIRST)));
}

HE_EXPORT hipError_t hipModuleLoadDataEx(hipModule_t *module,
					 const void *image,
					 unsigned int numOptions,
					 hipJitOption *options,
					 void **optionValues)
{
	HE_ENTER("hipModuleLoadDataEx");
	(void)numOptions;
	(void)options;
	(void)optionValues;
	if (!image)
		return he_ret(hipErrorInvalidValue);
	return he_ret(module_new(module, lb_co_read(image, 0, LB_CO_FIRST)));
}

HE_EXPORT hipError_t hipModuleUnload(hipModule_t module)
{
	struct he_module *m = (struct he_module *)module;

	HE_ENTER("hipModuleUnload");
	if (!m || m->magic != HE_MODULE_MAGIC)
		return he_ret(hipErrorInvalidHandle);
	m->magic = 0;
	lb_co_free(m->co);
	free(m);
	return hipSuccess;
}

HE_EXPORT hipError_t hipModuleGetFunction(hipFunction_t *function,
					  hipModule_t module,
					  const char *kname)
{
	struct he_module *m = (struct he_module *)module;
	struct he_kernel *k;
	hipemu_twin_fn fn;
	const unsigned *sizes;

	HE_ENTER("hipModuleGetFunction");
	if (!function || !kname)
		return he_ret(hipErrorInvalidValue);
	if (!m || m->magic != HE_MODULE_MAGIC)
		return he_ret(hipErrorInvalidHandle);
	k = he_kernel_named(kname, lb_co_find(m->co, kname));
	if (!k)
		return he_ret(hipErrorOutOfMemory);
	if (!he_kernel_twin(k, &fn, &sizes))
		return he_ret(hipErrorNotFound);
	*function = (hipFunction_t)k;
	return hipSuccess;
}

/* ---- names and attributes ---- */

HE_EXPORT const char *hipKernelNameRef(const hipFunction_t f)
{
	const struct he_kernel *k = (const struct he_kernel *)f;

	HE_COUNT("hipKernelNameRef");
	return k && k->magic == HE_KERNEL_MAGIC ? k->name : NULL;
}

HE_EXPORT const char *hipKernelNameRefByPtr(const void *hostFunction,
					    hipStream_t stream)
{
	struct he_kernel *k;

	HE_COUNT("hipKernelNameRefByPtr");
	(void)stream;
	k = he_kernel_by_stub(hostFunction);
	return k ? k->name : NULL;
}

HE_EXPORT hipError_t hipFuncGetAttributes(struct hipFuncAttributes *attr,
					  const void *func)
{
	HE_ENTER("hipFuncGetAttributes");
	if (!attr)
		return he_ret(hipErrorInvalidValue);
	if (!he_kernel_by_stub(func))
		return he_ret(hipErrorInvalidDeviceFunction);
	memset(attr, 0, sizeof(*attr));
	attr->maxThreadsPerBlock = 1024;
	attr->maxDynamicSharedSizeBytes = 65536;
	attr->binaryVersion = 103;
	attr->ptxVersion = 103;
	return hipSuccess;
}

/* ---- host work in a stream ---- */

HE_EXPORT hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn,
				       void *userData)
{
	struct he_stream *s;
	struct he_work w = { .kind = HE_W_HOSTFN };
	uint64_t seq;
	hipError_t err;

	HE_ENTER("hipLaunchHostFunc");
	if (!fn)
		return he_ret(hipErrorInvalidValue);
	err = he_stream_get(stream, &s);
	if (err)
		return he_ret(err);
	w.hostfn.fn = fn;
	w.hostfn.ud = userData;
	return he_ret(he_enqueue(s, &w, NULL, 0, &seq));
}

HE_EXPORT hipError_t hipStreamAddCallback(hipStream_t stream,
					  hipStreamCallback_t callback,
					  void *userData, unsigned int flags)
{
	struct he_stream *s;
	struct he_work w = { .kind = HE_W_CALLBACK };
	uint64_t seq;
	hipError_t err;

	HE_ENTER("hipStreamAddCallback");
	if (!callback || flags)
		return he_ret(hipErrorInvalidValue);
	err = he_stream_get(stream, &s);
	if (err)
		return he_ret(err);
	w.cb.fn = callback;
	w.cb.handle = stream;
	w.cb.ud = userData;
	return he_ret(he_enqueue(s, &w, NULL, 0, &seq));
}
