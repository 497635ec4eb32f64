/*
 * cuda_face.c - how the CUDA face finds hipemu's core, once per library.
 *
 * One process has one device whichever face it calls: if a hipemu is
 * already in the process's global scope (a HIP program on
 * build/hipemu/libamdhip64.so.5 that also calls CUDA), the face serves
 * from it; otherwise from the core it is linked with,
 * build/hipemu/cuda/libhipemu.so, which exports nothing of HIP's, so that
 * a CUDA process on the face has no HIP runtime for anyone to find (a
 * preloaded lbshim looks for one).  Both face libraries decide the same
 * way, so they share one core.
 */
#include "cuda_face.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static const struct hipemu_face_ops *cf_ops_p;
static pthread_once_t cf_once = PTHREAD_ONCE_INIT;

static bool usable(const struct hipemu_face_ops *o)
{
	return o && o->version == HE_FACE_VERSION && o->nfn == HE_FACE_NFN;
}

static void bind(void)
{
	const struct hipemu_face_ops *(*probe)(void);
	const struct hipemu_face_ops *o = NULL;

	probe = (const struct hipemu_face_ops *(*)(void))dlsym(RTLD_DEFAULT,
							      "hipemu_face");
	if (probe)
		o = probe();
	if (!usable(o))
		o = hipemu_face();
	if (!usable(o)) {
		/* A core from another build: nothing can work. */
		fprintf(stderr, "hipemu: the CUDA face and its core "
				"libhipemu.so are from different builds\n");
		abort();
	}
	__atomic_store_n(&cf_ops_p, o, __ATOMIC_RELEASE);
	if (cf_face_bound)
		cf_face_bound();
}

const struct hipemu_face_ops *cf_ops(void)
{
	const struct hipemu_face_ops *o;

	o = __atomic_load_n(&cf_ops_p, __ATOMIC_ACQUIRE);
	if (o)
		return o;
	pthread_once(&cf_once, bind);
	return cf_ops_p;
}

void *cf_hip_begin(enum he_face_fn i)
{
	const struct hipemu_face_ops *o = cf_ops();

	o->face(1);
	return o->hip[i];
}

int cf_hip_end(int err)
{
	cf_ops()->face(0);
	return err;
}

/*
 * enum cudaDeviceAttr (driver_types.h) and CUdevice_attribute (cuda.h)
 * number the attributes alike; those hipemu answers, from the core's
 * properties (or what the CPU device always is).
 */
_Static_assert(cudaDevAttrComputeCapabilityMajor ==
		       (int)CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR &&
	       cudaDevAttrMultiProcessorCount ==
		       (int)CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT &&
	       cudaDevAttrMemoryPoolsSupported ==
		       (int)CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
	       "attribute numbering");

int cf_dev_attr(int attr, int dev, int *value)
{
	struct hipemu_face_props p;

	if (!value)
		return cudaErrorInvalidValue;
	if (cf_ops()->props(dev, &p))
		return cudaErrorInvalidDevice;
	switch (attr) {
	case cudaDevAttrMaxThreadsPerBlock:
		*value = p.max_threads_per_block;
		break;
	case cudaDevAttrMaxBlockDimX: *value = p.max_threads_dim[0]; break;
	case cudaDevAttrMaxBlockDimY: *value = p.max_threads_dim[1]; break;
	case cudaDevAttrMaxBlockDimZ: *value = p.max_threads_dim[2]; break;
	case cudaDevAttrMaxGridDimX: *value = p.max_grid[0]; break;
	case cudaDevAttrMaxGridDimY: *value = p.max_grid[1]; break;
	case cudaDevAttrMaxGridDimZ: *value = p.max_grid[2]; break;
	case cudaDevAttrMaxSharedMemoryPerBlock:
	case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
		*value = (int)p.shared_per_block;
		break;
	case cudaDevAttrTotalConstantMemory: *value = (int)p.const_mem; break;
	case cudaDevAttrWarpSize: *value = p.warp_size; break;
	case cudaDevAttrMaxRegistersPerBlock: *value = p.regs_per_block; break;
	case cudaDevAttrClockRate: *value = p.clock_khz; break;
	case cudaDevAttrTextureAlignment:
	case cudaDevAttrTexturePitchAlignment:
		*value = (int)p.pitch_align;
		break;
	case cudaDevAttrMultiProcessorCount: *value = p.multiprocessors; break;
	case cudaDevAttrPciBusId: *value = p.pci_bus; break;
	case cudaDevAttrPciDeviceId: *value = p.pci_device; break;
	case cudaDevAttrPciDomainId: *value = p.pci_domain; break;
	case cudaDevAttrMemoryClockRate: *value = p.mem_clock_khz; break;
	case cudaDevAttrGlobalMemoryBusWidth: *value = p.mem_bus_width; break;
	case cudaDevAttrL2CacheSize: *value = p.l2_cache; break;
	case cudaDevAttrMaxThreadsPerMultiProcessor:
		*value = p.max_threads_per_mp;
		break;
	case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
	case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
	case cudaDevAttrIntegrated:
	case cudaDevAttrEccEnabled:
		*value = 0;
		break;
	case cudaDevAttrCanMapHostMemory:
	case cudaDevAttrConcurrentKernels:
	case cudaDevAttrUnifiedAddressing:
	case cudaDevAttrManagedMemory:
	case cudaDevAttrConcurrentManagedAccess:
	case cudaDevAttrPageableMemoryAccess:
	case cudaDevAttrCooperativeLaunch:
	case cudaDevAttrStreamPrioritiesSupported:
	case cudaDevAttrMemoryPoolsSupported:
		*value = 1;
		break;
	default:
		return cudaErrorInvalidValue;
	}
	return cudaSuccess;
}
