/*
 * cuda_rt_launch.c - kernels through the CUDA runtime: what nvcc's
 * generated host code calls to register its kernels and launch them, and
 * the launch entry points.
 *
 * nvcc 13.0's host code (include/crt/host_runtime.h, read with
 * `nvcc -keep`): a constructor calls __cudaRegisterFatBinary(&wrapper),
 * __cudaRegisterFunction(handle, stub, name, name, -1, 0...) per kernel,
 * then __cudaRegisterFatBinaryEnd(handle), and registers an atexit
 * function calling __cudaUnregisterFatBinary.  kernel<<<g, b, s, st>>>(...)
 * is __cudaPushCallConfiguration(g, b, s, st) and a call of the host stub,
 * which takes a cudaKernel_t once from __cudaGetKernel(&k, stub), pops the
 * configuration (__cudaPopCallConfiguration) and calls
 * __cudaLaunchKernel(k, g, b, args, s, st), or __cudaLaunchKernel_ptsz
 * under --default-stream per-thread (crt/device_functions.h,
 * __cudaLaunchKernel_helper); args points at each argument's value.
 *
 * hipemu runs hipemu_twin_<mangled name> for the kernel, as for HIP
 * (hipemu.h); the argument sizes that let a launch return before it runs
 * come from the cubin's parameter table (cuda_fatbin.c), else from the
 * twin's HIPEMU_ARGS table.  A cudaKernel_t is, as on NVIDIA's runtime,
 * a handle of its own, not the stub's address: a token that names the
 * stub, one per stub, kept for the life of the process.  cudaLaunchKernel
 * and the questions about a kernel take either (cuda_runtime_api.h:3760
 * of CUDA 13.0, \note_cudaKernel_t), __cudaLaunchKernel the handle.
 */
#include "cuda_face.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The handle nvcc's code keeps (used as a void **: data first). */
struct cf_fatbin {
	void *data;
	struct cf_layouts layouts;
};

CF_EXPORT void **__cudaRegisterFatBinary(void *fatCubin)
{
	struct cf_fatbin *h;

	CF_COUNT("__cudaRegisterFatBinary");
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->data = fatCubin;
	(void)cf_layouts_wrapper(fatCubin, &h->layouts);
	return (void **)h;
}

CF_EXPORT void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
	CF_COUNT("__cudaRegisterFatBinaryEnd");
	(void)fatCubinHandle;
}

/* The kernels stay registered: work may still be queued at exit. */
CF_EXPORT void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
	struct cf_fatbin *h = (struct cf_fatbin *)fatCubinHandle;

	CF_COUNT("__cudaUnregisterFatBinary");
	if (!h)
		return;
	cf_layouts_free(&h->layouts);
	free(h);
}

CF_EXPORT void __cudaRegisterFunction(void **fatCubinHandle,
				      const char *hostFun, char *deviceFun,
				      const char *deviceName, int thread_limit,
				      uint3 *tid, uint3 *bid, dim3 *bDim,
				      dim3 *gDim, int *wSize)
{
	struct cf_fatbin *h = (struct cf_fatbin *)fatCubinHandle;
	const char *name = deviceName ? deviceName : deviceFun;
	const struct cf_layout *l;

	CF_COUNT("__cudaRegisterFunction");
	(void)thread_limit;
	(void)tid;
	(void)bid;
	(void)bDim;
	(void)gDim;
	(void)wSize;
	if (!name)
		return;
	l = h ? cf_layout_find(&h->layouts, name) : NULL;
	(void)cf_ops()->kernel_stub(hostFun, name, l ? l->sizes : NULL,
				    l ? l->offs : NULL, l ? l->n : -1);
}

/*
 * Device variables are not modelled (the symbol copies are not part of
 * the face): registering one is accepted so that a program that has one
 * still starts.
 */
CF_EXPORT void __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
				 char *deviceAddress, const char *deviceName,
				 int ext, size_t size, int constant, int global)
{
	CF_COUNT("__cudaRegisterVar");
	(void)fatCubinHandle;
	(void)hostVar;
	(void)deviceAddress;
	(void)deviceName;
	(void)ext;
	(void)size;
	(void)constant;
	(void)global;
}

CF_EXPORT void __cudaRegisterManagedVar(void **fatCubinHandle,
					void **hostVarPtrAddress,
					char *deviceAddress,
					const char *deviceName, int ext,
					size_t size, int constant, int global)
{
	CF_COUNT("__cudaRegisterManagedVar");
	(void)fatCubinHandle;
	(void)hostVarPtrAddress;
	(void)deviceAddress;
	(void)deviceName;
	(void)ext;
	(void)size;
	(void)constant;
	(void)global;
}

/* Whether the module's managed variables are ready: there are none. */
CF_EXPORT char __cudaInitModule(void **fatCubinHandle)
{
	CF_COUNT("__cudaInitModule");
	(void)fatCubinHandle;
	return 1;
}

/* ---- <<<>>> call configuration ---- */

struct cf_callcfg {
	dim3 grid, block;
	size_t shmem;
	cudaStream_t stream;
};

#define CF_CFG_DEPTH 16
static __thread struct cf_callcfg cf_cfgstack[CF_CFG_DEPTH];
static __thread int cf_ncfg;

/* Non-zero makes the launch expression skip the stub's call. */
CF_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
					       size_t sharedMem,
					       struct CUstream_st *stream)
{
	CF_COUNT("__cudaPushCallConfiguration");
	if (cf_ncfg == CF_CFG_DEPTH) {
		cf_rt_err(cudaErrorInvalidConfiguration);
		return 1;
	}
	cf_cfgstack[cf_ncfg++] = (struct cf_callcfg){ gridDim, blockDim,
						      sharedMem, stream };
	return 0;
}

CF_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim,
						 dim3 *blockDim,
						 size_t *sharedMem,
						 void *stream)
{
	struct cf_callcfg *c;

	CF_RT_ENTER("__cudaPopCallConfiguration");
	if (!cf_ncfg)
		return cf_rt_err(cudaErrorMissingConfiguration);
	c = &cf_cfgstack[--cf_ncfg];
	*gridDim = c->grid;
	*blockDim = c->block;
	*sharedMem = c->shmem;
	*(cudaStream_t *)stream = c->stream;
	return cudaSuccess;
}

/* ---- kernels and launches ---- */

/* A cudaKernel_t: the token of a stub (a list, prepended to, never cut). */
struct cf_khandle {
	const void *stub;
	struct cf_khandle *next;
};
static struct cf_khandle *cf_khandles;
static pthread_mutex_t cf_khandle_lock = PTHREAD_MUTEX_INITIALIZER;

/* The stub of f, a cudaKernel_t of ours or a stub itself (no lock). */
static const void *cf_stub(const void *f)
{
	const struct cf_khandle *h;

	for (h = __atomic_load_n(&cf_khandles, __ATOMIC_ACQUIRE); h;
	     h = h->next)
		if ((const void *)h == f)
			return h->stub;
	return f;
}

static cudaError_t get_kernel(cudaKernel_t *kernel, const void *func)
{
	struct cf_khandle *h;

	if (!kernel)
		return cf_rt_err(cudaErrorInvalidValue);
	func = func ? cf_stub(func) : NULL;
	if (!func || !cf_ops()->kernel_of_stub(func))
		return cf_rt_err(cudaErrorInvalidDeviceFunction);
	pthread_mutex_lock(&cf_khandle_lock);
	for (h = cf_khandles; h && h->stub != func; h = h->next)
		;
	if (!h && (h = calloc(1, sizeof(*h)))) {
		h->stub = func;
		h->next = cf_khandles;
		__atomic_store_n(&cf_khandles, h, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&cf_khandle_lock);
	if (!h)
		return cf_rt_err(cudaErrorMemoryAllocation);
	*kernel = (cudaKernel_t)h;
	return cudaSuccess;
}

CF_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func)
{
	CF_RT_ENTER("__cudaGetKernel");
	return get_kernel(kernel, func);
}

CF_EXPORT cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr,
				    const void *entryFuncAddr)
{
	CF_RT_ENTER("cudaGetKernel");
	return get_kernel(kernelPtr, entryFuncAddr);
}

/*
 * A registered kernel whose launch hipemu refuses as an unknown function
 * has no twin: on a GPU, a kernel with no code for the device, which is
 * cudaErrorNoKernelImageForDevice.  hipemu names it once on stderr.
 */
static cudaError_t launch(const void *func, dim3 grid, dim3 block,
			  void **args, size_t shmem, cudaStream_t stream,
			  bool coop)
{
	int err;

	func = func ? cf_stub(func) : NULL;
	if (!func || !cf_ops()->kernel_of_stub(func))
		return cf_rt_err(cudaErrorInvalidDeviceFunction);
	if (coop)
		err = CF_HIP(hipLaunchCooperativeKernel, func, cf_dim3(grid),
			     cf_dim3(block), args, (unsigned)shmem, stream);
	else
		err = CF_HIP(hipLaunchKernel, func, cf_dim3(grid),
			     cf_dim3(block), args, shmem, stream);
	if (err == cudaErrorInvalidDeviceFunction)
		return cf_rt_err(cudaErrorNoKernelImageForDevice);
	return cf_rt(err);
}

CF_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim,
					 dim3 blockDim, void **args,
					 size_t sharedMem, cudaStream_t stream)
{
	CF_RT_ENTER("__cudaLaunchKernel");
	return launch(kernel, gridDim, blockDim, args, sharedMem, stream,
		      false);
}

CF_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel,
					      dim3 gridDim, dim3 blockDim,
					      void **args, size_t sharedMem,
					      cudaStream_t stream)
{
	CF_RT_ENTER("__cudaLaunchKernel_ptsz");
	return launch(kernel, gridDim, blockDim, args, sharedMem,
		      cf_ptsz(stream), false);
}

CF_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim,
				       dim3 blockDim, void **args,
				       size_t sharedMem, cudaStream_t stream)
{
	CF_RT_ENTER("cudaLaunchKernel");
	return launch(func, gridDim, blockDim, args, sharedMem, stream, false);
}

CF_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim,
					    dim3 blockDim, void **args,
					    size_t sharedMem,
					    cudaStream_t stream)
{
	CF_RT_ENTER("cudaLaunchKernel_ptsz");
	return launch(func, gridDim, blockDim, args, sharedMem,
		      cf_ptsz(stream), false);
}

CF_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func,
						  dim3 gridDim,
						  dim3 blockDim, void **args,
						  size_t sharedMem,
						  cudaStream_t stream)
{
	CF_RT_ENTER("cudaLaunchCooperativeKernel");
	return launch(func, gridDim, blockDim, args, sharedMem, stream, true);
}

CF_EXPORT cudaError_t cudaLaunchCooperativeKernel_ptsz(
	const void *func, dim3 gridDim, dim3 blockDim, void **args,
	size_t sharedMem, cudaStream_t stream)
{
	CF_RT_ENTER("cudaLaunchCooperativeKernel_ptsz");
	return launch(func, gridDim, blockDim, args, sharedMem,
		      cf_ptsz(stream), true);
}

/* ---- what the runtime knows of a kernel ---- */

CF_EXPORT cudaError_t cudaFuncGetName(const char **name, const void *func)
{
	void *k;

	CF_RT_ENTER("cudaFuncGetName");
	if (!name)
		return cf_rt_err(cudaErrorInvalidValue);
	k = func ? cf_ops()->kernel_of_stub(cf_stub(func)) : NULL;
	if (!k)
		return cf_rt_err(cudaErrorInvalidDeviceFunction);
	*name = cf_ops()->kernel_name(k);
	return cudaSuccess;
}

/* The kernel as the driver's CUfunction, which cuLaunchKernel takes. */
CF_EXPORT cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr,
					  const void *symbolPtr)
{
	void *k;

	CF_RT_ENTER("cudaGetFuncBySymbol");
	if (!functionPtr)
		return cf_rt_err(cudaErrorInvalidValue);
	k = symbolPtr ? cf_ops()->kernel_of_stub(cf_stub(symbolPtr)) : NULL;
	if (!k)
		return cf_rt_err(cudaErrorInvalidDeviceFunction);
	*functionPtr = (cudaFunction_t)k;
	return cudaSuccess;
}

/* What hipemu's hipFuncGetAttributes says, in CUDA's structure. */
CF_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
					    const void *func)
{
	struct hipemu_face_props p;

	CF_RT_ENTER("cudaFuncGetAttributes");
	if (!attr)
		return cf_rt_err(cudaErrorInvalidValue);
	if (!func || !cf_ops()->kernel_of_stub(cf_stub(func)))
		return cf_rt_err(cudaErrorInvalidDeviceFunction);
	memset(attr, 0, sizeof(*attr));
	if (!cf_ops()->props(0, &p)) {
		attr->ptxVersion = p.major * 10 + p.minor;
		attr->binaryVersion = attr->ptxVersion;
	}
	attr->maxThreadsPerBlock = 1024;
	attr->maxDynamicSharedSizeBytes = 65536;
	return cudaSuccess;
}
