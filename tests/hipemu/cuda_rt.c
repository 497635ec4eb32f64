/*
 * cuda_rt.c - the CUDA runtime's devices, versions, errors and driver
 * entry points, on hipemu's device (libcudart.so.13 of the CUDA face).
 *
 * The last error follows what NVIDIA's include/cuda_runtime_api.h (CUDA
 * 13.0) says of cudaGetLastError: it "returns the last error that has been
 * produced by any of the runtime calls in the same instance of the CUDA
 * Runtime library in the host thread and resets it to cudaSuccess", and
 * of cudaPeekAtLastError: it "does not reset the error".  What this face
 * relies on, per thread: a call that returns anything but cudaSuccess
 * sets it (cudaErrorNotReady included: PyTorch's ATen/cuda/CUDAEvent.h
 * query() clears the error after a cudaErrorNotReady for that reason); a
 * success leaves it as it was; only cudaGetLastError clears it.  Sticky
 * errors (a device fault that corrupts the context, which no later call
 * clears) do not happen here: hipemu's kernels cannot fail
 * asynchronously.
 */
#include "cuda_face.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static __thread cudaError_t cf_last;

cudaError_t cf_rt_err(cudaError_t err)
{
	if (err != cudaSuccess)
		cf_last = err;
	return err;
}

CF_EXPORT cudaError_t cudaGetLastError(void)
{
	cudaError_t e = cf_last;

	CF_COUNT("cudaGetLastError");
	cf_last = cudaSuccess;
	return e;
}

CF_EXPORT cudaError_t cudaPeekAtLastError(void)
{
	CF_COUNT("cudaPeekAtLastError");
	return cf_last;
}

CF_EXPORT const char *cudaGetErrorName(cudaError_t error)
{
	CF_COUNT("cudaGetErrorName");
	return cf_rt_err_name(error);
}

CF_EXPORT const char *cudaGetErrorString(cudaError_t error)
{
	CF_COUNT("cudaGetErrorString");
	return cf_rt_err_string(error);
}

/* CUDART_VERSION and CUDA_VERSION of the CUDA 13.0 headers: 13000. */
CF_EXPORT cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
	CF_RT_ENTER("cudaRuntimeGetVersion");
	if (!runtimeVersion)
		return cf_rt_err(cudaErrorInvalidValue);
	*runtimeVersion = CUDART_VERSION;
	return cudaSuccess;
}

CF_EXPORT cudaError_t cudaDriverGetVersion(int *driverVersion)
{
	CF_RT_ENTER("cudaDriverGetVersion");
	if (!driverVersion)
		return cf_rt_err(cudaErrorInvalidValue);
	*driverVersion = CUDA_VERSION;
	return cudaSuccess;
}

/* ---- devices ---- */

CF_EXPORT cudaError_t cudaGetDeviceCount(int *count)
{
	CF_RT_ENTER("cudaGetDeviceCount");
	return cf_rt(CF_HIP(hipGetDeviceCount, count));
}

CF_EXPORT cudaError_t cudaSetDevice(int device)
{
	CF_RT_ENTER("cudaSetDevice");
	return cf_rt(CF_HIP(hipSetDevice, device));
}

CF_EXPORT cudaError_t cudaGetDevice(int *device)
{
	CF_RT_ENTER("cudaGetDevice");
	return cf_rt(CF_HIP(hipGetDevice, device));
}

/* Selecting a device is all initialising one takes here. */
CF_EXPORT cudaError_t cudaInitDevice(int device, unsigned int deviceFlags,
				     unsigned int flags)
{
	int n = 0;

	CF_RT_ENTER("cudaInitDevice");
	(void)deviceFlags;
	if (flags & ~(unsigned)cudaInitDeviceFlagsAreValid)
		return cf_rt_err(cudaErrorInvalidValue);
	(void)CF_HIP(hipGetDeviceCount, &n);
	if (device < 0 || device >= n)
		return cf_rt_err(cudaErrorInvalidDevice);
	return cudaSuccess;
}

CF_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
	CF_RT_ENTER("cudaSetDeviceFlags");
	return cf_rt(CF_HIP(hipSetDeviceFlags, flags));
}

CF_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
	CF_RT_ENTER("cudaGetDeviceFlags");
	return cf_rt(CF_HIP(hipGetDeviceFlags, flags));
}

CF_EXPORT cudaError_t cudaDeviceSynchronize(void)
{
	CF_RT_ENTER("cudaDeviceSynchronize");
	return cf_rt(CF_HIP(hipDeviceSynchronize));
}

CF_EXPORT cudaError_t cudaDeviceReset(void)
{
	CF_RT_ENTER("cudaDeviceReset");
	return cf_rt(CF_HIP(hipDeviceReset));
}

CF_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
						       int *greatestPriority)
{
	CF_RT_ENTER("cudaDeviceGetStreamPriorityRange");
	return cf_rt(CF_HIP(hipDeviceGetStreamPriorityRange, leastPriority,
			    greatestPriority));
}

CF_EXPORT cudaError_t cudaDeviceGetAttribute(int *value,
					     enum cudaDeviceAttr attr,
					     int device)
{
	CF_RT_ENTER("cudaDeviceGetAttribute");
	return cf_rt_err((cudaError_t)cf_dev_attr(attr, device, value));
}

/*
 * The fields a program asks for first (name, memory, compute capability,
 * limits); the rest of CUDA 13's struct cudaDeviceProp (driver_types.h)
 * is zero but for the capabilities the CPU device has.
 */
CF_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop,
					      int device)
{
	struct hipemu_face_props p;

	CF_RT_ENTER("cudaGetDeviceProperties");
	if (!prop)
		return cf_rt_err(cudaErrorInvalidValue);
	if (cf_ops()->props(device, &p))
		return cf_rt_err(cudaErrorInvalidDevice);
	memset(prop, 0, sizeof(*prop));
	snprintf(prop->name, sizeof(prop->name), "%s", p.name);
	prop->totalGlobalMem = p.total_mem;
	prop->sharedMemPerBlock = p.shared_per_block;
	prop->sharedMemPerMultiprocessor = p.shared_per_block;
	prop->sharedMemPerBlockOptin = p.shared_per_block;
	prop->regsPerBlock = p.regs_per_block;
	prop->warpSize = p.warp_size;
	prop->memPitch = 2147483647;
	prop->maxThreadsPerBlock = p.max_threads_per_block;
	for (int i = 0; i < 3; i++) {
		prop->maxThreadsDim[i] = p.max_threads_dim[i];
		prop->maxGridSize[i] = p.max_grid[i];
	}
	prop->totalConstMem = p.const_mem;
	prop->major = p.major;
	prop->minor = p.minor;
	prop->textureAlignment = p.pitch_align;
	prop->texturePitchAlignment = p.pitch_align;
	prop->multiProcessorCount = p.multiprocessors;
	prop->canMapHostMemory = 1;
	prop->concurrentKernels = 1;
	prop->pciBusID = p.pci_bus;
	prop->pciDeviceID = p.pci_device;
	prop->pciDomainID = p.pci_domain;
	prop->unifiedAddressing = 1;
	prop->memoryBusWidth = p.mem_bus_width;
	prop->l2CacheSize = p.l2_cache;
	prop->maxThreadsPerMultiProcessor = p.max_threads_per_mp;
	prop->streamPrioritiesSupported = 1;
	prop->managedMemory = 1;
	prop->concurrentManagedAccess = 1;
	prop->pageableMemoryAccess = 1;
	prop->cooperativeLaunch = 1;
	prop->directManagedMemAccessFromHost = 1;
	prop->memoryPoolsSupported = 1;
	return cudaSuccess;
}

CF_EXPORT cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
	CF_RT_ENTER("cudaMemGetInfo");
	return cf_rt(CF_HIP(hipMemGetInfo, free, total));
}

/* ---- the driver's entry points ---- */

/*
 * As NVIDIA's cudart does it: libcuda.so.1 (here the face's driver),
 * then its cuGetProcAddress_v2 (include/cuda.h: the symbol's base name,
 * the CUDA version whose ABI is wanted, the per-thread flags), which
 * cudaGetDriverEntryPoint's flags are the same values as
 * (driver_types.h cudaEnableDefault 0, cudaEnableLegacyStream 1,
 * cudaEnablePerThreadDefaultStream 2).
 */
_Static_assert(cudaEnableLegacyStream ==
		       (int)CU_GET_PROC_ADDRESS_LEGACY_STREAM &&
	       cudaEnablePerThreadDefaultStream ==
		       (int)CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
	       "entry point flags");

typedef CUresult (*cf_gpa_fn)(const char *, void **, int, cuuint64_t,
			      CUdriverProcAddressQueryResult *);

/* The driver's cuGetProcAddress_v2, libcuda.so.1 opened once and kept
 * open (what it hands out lives there); NULL without a driver. */
static cf_gpa_fn cf_gpa(void)
{
	static void *drv;

	if (!__atomic_load_n(&drv, __ATOMIC_ACQUIRE)) {
		void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
		void *none = NULL;

		if (h && !__atomic_compare_exchange_n(&drv, &none, h, false,
						      __ATOMIC_ACQ_REL,
						      __ATOMIC_ACQUIRE))
			dlclose(h);	/* another thread's is the same */
	}
	return drv ? (cf_gpa_fn)dlsym(drv, "cuGetProcAddress_v2") : NULL;
}

/*
 * The runtime's first call initialises the driver, as NVIDIA's does: a
 * runtime program may call the driver (cuFuncGetParamInfo of
 * cudaGetFuncBySymbol's CUfunction, cuCtxGetCurrent) without cuInit,
 * whose cuda.h says it "must be called before any other function from
 * the driver API" (CUDA 13.0): the runtime binds the device's primary
 * context, a driver object (cuda_runtime_api.h, cudaInitDevice: "This
 * call will bind the primary context of the specified device to the
 * calling thread").  Through cuGetProcAddress_v2, as cudart finds every
 * driver function.  Called once, when the face binds its core.
 */
void cf_face_bound(void)
{
	CUresult (*init)(unsigned int) = NULL;
	CUdriverProcAddressQueryResult st;
	cf_gpa_fn gpa = cf_gpa();

	if (gpa && gpa("cuInit", (void **)&init, CUDART_VERSION, 0, &st) ==
			   CUDA_SUCCESS && init)
		(void)init(0);
}

static cudaError_t entry_point(const char *symbol, void **funcPtr,
			       unsigned int version, unsigned long long flags,
			       enum cudaDriverEntryPointQueryResult *status)
{
	CUdriverProcAddressQueryResult st;
	cf_gpa_fn gpa;
	CUresult r;

	if (!symbol || !funcPtr)
		return cf_rt_err(cudaErrorInvalidValue);
	gpa = cf_gpa();
	if (!gpa) {
		*funcPtr = NULL;
		return cf_rt_err(cudaErrorInsufficientDriver);
	}
	st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	r = gpa(symbol, funcPtr, (int)version, flags, &st);
	if (status)
		*status = (enum cudaDriverEntryPointQueryResult)st;
	return r == CUDA_SUCCESS ? cudaSuccess :
				   cf_rt_err(cudaErrorInvalidValue);
}

CF_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(
	const char *symbol, void **funcPtr, unsigned int cudaVersion,
	unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *driverStatus)
{
	CF_RT_ENTER("cudaGetDriverEntryPointByVersion");
	return entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus);
}

CF_EXPORT cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
	const char *symbol, void **funcPtr, unsigned int cudaVersion,
	unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *driverStatus)
{
	CF_RT_ENTER("cudaGetDriverEntryPointByVersion_ptsz");
	if (!(flags & (cudaEnableLegacyStream |
		       cudaEnablePerThreadDefaultStream)))
		flags |= cudaEnablePerThreadDefaultStream;
	return entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus);
}

/* The unversioned form asks for the runtime's own version's ABI. */
CF_EXPORT cudaError_t cudaGetDriverEntryPoint(
	const char *symbol, void **funcPtr, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *driverStatus)
{
	CF_RT_ENTER("cudaGetDriverEntryPoint");
	return entry_point(symbol, funcPtr, CUDART_VERSION, flags,
			   driverStatus);
}

CF_EXPORT cudaError_t cudaGetDriverEntryPoint_ptsz(
	const char *symbol, void **funcPtr, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *driverStatus)
{
	CF_RT_ENTER("cudaGetDriverEntryPoint_ptsz");
	if (!(flags & (cudaEnableLegacyStream |
		       cudaEnablePerThreadDefaultStream)))
		flags |= cudaEnablePerThreadDefaultStream;
	return entry_point(symbol, funcPtr, CUDART_VERSION, flags,
			   driverStatus);
}
