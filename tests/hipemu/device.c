/*
 * device.c - the HIPEMU_DEVICES CPU devices: selection per thread,
 * properties, attributes, synchronization and reset.
 */
#include "he.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define HE_DEV_NAME "hipemu CPU device"
#define HE_DEV_ARCH "gfx1030"

static __thread int he_dev;

int he_cur_dev(void)
{
	return he_dev;
}

bool he_dev_valid(int dev)
{
	he_init();
	return dev >= 0 && dev < he_cfg.ndevices;
}

HE_EXPORT hipError_t hipInit(unsigned int flags)
{
	HE_ENTER("hipInit");
	return he_ret(flags ? hipErrorInvalidValue : hipSuccess);
}

HE_EXPORT hipError_t hipDriverGetVersion(int *driverVersion)
{
	HE_ENTER("hipDriverGetVersion");
	if (!driverVersion)
		return he_ret(hipErrorInvalidValue);
	*driverVersion = HIP_VERSION;
	return hipSuccess;
}

HE_EXPORT hipError_t hipRuntimeGetVersion(int *runtimeVersion)
{
	HE_ENTER("hipRuntimeGetVersion");
	if (!runtimeVersion)
		return he_ret(hipErrorInvalidValue);
	*runtimeVersion = he_prof.version;
	return hipSuccess;
}

HE_EXPORT hipError_t hipGetDeviceCount(int *count)
{
	HE_ENTER("hipGetDeviceCount");
	if (!count)
		return he_ret(hipErrorInvalidValue);
	*count = he_cfg.ndevices;
	return hipSuccess;
}

HE_EXPORT hipError_t hipSetDevice(int deviceId)
{
	HE_ENTER("hipSetDevice");
	if (!he_dev_valid(deviceId))
		return he_ret(hipErrorInvalidDevice);
	he_dev = deviceId;
	return hipSuccess;
}

HE_EXPORT hipError_t hipGetDevice(int *deviceId)
{
	HE_ENTER("hipGetDevice");
	if (!deviceId)
		return he_ret(hipErrorInvalidValue);
	*deviceId = he_dev;
	return hipSuccess;
}

HE_EXPORT hipError_t hipDeviceGet(hipDevice_t *device, int ordinal)
{
	HE_ENTER("hipDeviceGet");
	if (!device)
		return he_ret(hipErrorInvalidValue);
	if (!he_dev_valid(ordinal))
		return he_ret(hipErrorInvalidDevice);
	*device = ordinal;
	return hipSuccess;
}

HE_EXPORT hipError_t hipDeviceGetName(char *name, int len,
				      hipDevice_t device)
{
	HE_ENTER("hipDeviceGetName");
	if (!name || len <= 0)
		return he_ret(hipErrorInvalidValue);
	if (!he_dev_valid(device))
		return he_ret(hipErrorInvalidDevice);
	snprintf(name, (size_t)len, "%s", HE_DEV_NAME);
	return hipSuccess;
}

HE_EXPORT hipError_t hipDeviceGetPCIBusId(char *pciBusId, int len,
					  int device)
{
	HE_ENTER("hipDeviceGetPCIBusId");
	if (!pciBusId || len <= 0)
		return he_ret(hipErrorInvalidValue);
	if (!he_dev_valid(device))
		return he_ret(hipErrorInvalidDevice);
	snprintf(pciBusId, (size_t)len, "0000:%02x:00.0", device + 1);
	return hipSuccess;
}

/* A gfx1030-shaped device (an RX 6800/6900 class GPU), 40 CUs. */
void he_dev_props(hipDeviceProp_t *p, int dev)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", HE_DEV_NAME);
	snprintf(p->gcnArchName, sizeof(p->gcnArchName), "%s", HE_DEV_ARCH);
	p->gcnArch = 1030;
	p->totalGlobalMem = he_cfg.mem_size;
	p->sharedMemPerBlock = 65536;
	p->regsPerBlock = 65536;
	p->warpSize = 32;
	p->maxThreadsPerBlock = 1024;
	p->maxThreadsDim[0] = 1024;
	p->maxThreadsDim[1] = 1024;
	p->maxThreadsDim[2] = 1024;
	p->maxGridSize[0] = 2147483647;
	p->maxGridSize[1] = 65536;
	p->maxGridSize[2] = 65536;
	p->clockRate = 2500000;
	p->memoryClockRate = 1000000;
	p->memoryBusWidth = 256;
	p->totalConstMem = 2147483647;
	p->major = 10;
	p->minor = 3;
	p->multiProcessorCount = 40;
	p->l2CacheSize = 4194304;
	p->maxThreadsPerMultiProcessor = 2048;
	p->clockInstructionRate = 1000000;
	p->concurrentKernels = 1;
	p->pciBusID = dev + 1;
	p->maxSharedMemoryPerMultiProcessor = 65536;
	p->canMapHostMemory = 1;
	p->cooperativeLaunch = 1;
	p->maxTexture1DLinear = 1 << 27;
	p->maxTexture1D = 16384;
	p->maxTexture2D[0] = p->maxTexture2D[1] = 16384;
	p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 2048;
	p->memPitch = 2147483647;
	p->textureAlignment = HE_ALIGN;
	p->texturePitchAlignment = HE_ALIGN;
	p->isLargeBar = 1;
	p->managedMemory = 1;
	p->directManagedMemAccessFromHost = 1;
	p->concurrentManagedAccess = 1;
	p->pageableMemoryAccess = 1;
	p->pageableMemoryAccessUsesHostPageTables = 1;
	p->arch.hasGlobalInt32Atomics = 1;
	p->arch.hasSharedInt32Atomics = 1;
	p->arch.hasFloatAtomicAdd = 1;
	p->arch.hasDoubles = 1;
	p->arch.has3dGrid = 1;
}

HE_EXPORT hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop,
					    int deviceId)
{
	HE_ENTER("hipGetDeviceProperties");
	if (!prop)
		return he_ret(hipErrorInvalidValue);
	if (!he_dev_valid(deviceId))
		return he_ret(hipErrorInvalidDevice);
	he_dev_props(prop, deviceId);
	return hipSuccess;
}

/*
 * ROCm 6.0's names.  R0000 fills the 5.x layout as the old name does
 * (include/hip/hip_deprecated.h, rocm-6.2.0: hipDeviceProp_tR0000 is 5.2's
 * hipDeviceProp_t); the profiles export both from 6.0 on
 * (mk/rocm-layouts.txt).
 */
HE_EXPORT hipError_t hipGetDevicePropertiesR0000(hipDeviceProp_t *prop,
						 int deviceId)
{
	HE_ENTER("hipGetDevicePropertiesR0000");
	if (!prop)
		return he_ret(hipErrorInvalidValue);
	if (!he_dev_valid(deviceId))
		return he_ret(hipErrorInvalidDevice);
	he_dev_props(prop, deviceId);
	return hipSuccess;
}

/*
 * The part of ROCm 6's hipDeviceProp_tR0600 that hipemu fills, at the
 * offsets HIP include/hip/hip_runtime_api.h, rocm-6.2.0, gives them on
 * x86-64 (1472 bytes in all); the rest stays zero.
 */
struct he_prop_r0600 {
	char name[256];
	char uuid[16];
	char luid[8];
	unsigned int luidDeviceNodeMask;
	size_t totalGlobalMem;
	size_t sharedMemPerBlock;
	int regsPerBlock;
	int warpSize;
	size_t memPitch;
	int maxThreadsPerBlock;
	int maxThreadsDim[3];
	int maxGridSize[3];
	int clockRate;
	size_t totalConstMem;
	int major;
	int minor;
	size_t textureAlignment;
	size_t texturePitchAlignment;
	int deviceOverlap;
	int multiProcessorCount;
	char he_mid[1160 - 392];
	char gcnArchName[256];
	char he_tail[1472 - 1416];
};
_Static_assert(sizeof(struct he_prop_r0600) == 1472, "R0600 size");
_Static_assert(offsetof(struct he_prop_r0600, totalGlobalMem) == 288 &&
		       offsetof(struct he_prop_r0600, clockRate) == 348 &&
		       offsetof(struct he_prop_r0600, multiProcessorCount) ==
			       388 &&
		       offsetof(struct he_prop_r0600, gcnArchName) == 1160,
	       "R0600 offsets");

HE_EXPORT hipError_t hipGetDevicePropertiesR0600(void *prop, int deviceId)
{
	struct he_prop_r0600 *q = prop;
	hipDeviceProp_t p;

	HE_ENTER("hipGetDevicePropertiesR0600");
	if (!prop)
		return he_ret(hipErrorInvalidValue);
	if (!he_dev_valid(deviceId))
		return he_ret(hipErrorInvalidDevice);
	he_dev_props(&p, deviceId);
	memset(q, 0, sizeof(*q));
	memcpy(q->name, p.name, sizeof(q->name));
	memcpy(q->gcnArchName, p.gcnArchName, sizeof(q->gcnArchName));
	q->totalGlobalMem = p.totalGlobalMem;
	q->sharedMemPerBlock = p.sharedMemPerBlock;
	q->regsPerBlock = p.regsPerBlock;
	q->warpSize = p.warpSize;
	q->memPitch = p.memPitch;
	q->maxThreadsPerBlock = p.maxThreadsPerBlock;
	memcpy(q->maxThreadsDim, p.maxThreadsDim, sizeof(q->maxThreadsDim));
	memcpy(q->maxGridSize, p.maxGridSize, sizeof(q->maxGridSize));
	q->clockRate = p.clockRate;
	q->totalConstMem = p.totalConstMem;
	q->major = p.major;
	q->minor = p.minor;
	q->textureAlignment = p.textureAlignment;
	q->texturePitchAlignment = p.texturePitchAlignment;
	q->multiProcessorCount = p.multiProcessorCount;
	return hipSuccess;
}

HE_EXPORT hipError_t hipDeviceGetAttribute(int *pi, hipDeviceAttribute_t attr,
					   int deviceId)
{
	hipDeviceProp_t p;

	HE_ENTER("hipDeviceGetAttribute");
	if (!pi)
		return he_ret(hipErrorInvalidValue);
	if (!he_dev_valid(deviceId))
		return he_ret(hipErrorInvalidDevice);
	he_dev_props(&p, deviceId);
	switch (attr) {
	case hipDeviceAttributeTexturePitchAlignment:
		*pi = (int)p.texturePitchAlignment; break;
	case hipDeviceAttributeTextureAlignment:
		*pi = (int)p.textureAlignment; break;
	case hipDeviceAttributeWarpSize: *pi = p.warpSize; break;
	case hipDeviceAttributeMaxThreadsPerBlock:
		*pi = p.maxThreadsPerBlock; break;
	case hipDeviceAttributeMaxBlockDimX: *pi = p.maxThreadsDim[0]; break;
	case hipDeviceAttributeMaxBlockDimY: *pi = p.maxThreadsDim[1]; break;
	case hipDeviceAttributeMaxBlockDimZ: *pi = p.maxThreadsDim[2]; break;
	case hipDeviceAttributeMaxGridDimX: *pi = p.maxGridSize[0]; break;
	case hipDeviceAttributeMaxGridDimY: *pi = p.maxGridSize[1]; break;
	case hipDeviceAttributeMaxGridDimZ: *pi = p.maxGridSize[2]; break;
	case hipDeviceAttributeMultiprocessorCount:
		*pi = p.multiProcessorCount; break;
	case hipDeviceAttributeComputeCapabilityMajor: *pi = p.major; break;
	case hipDeviceAttributeComputeCapabilityMinor: *pi = p.minor; break;
	case hipDeviceAttributeMaxSharedMemoryPerBlock:
		*pi = (int)p.sharedMemPerBlock; break;
	case hipDeviceAttributeClockRate: *pi = p.clockRate; break;
	case hipDeviceAttributeL2CacheSize: *pi = p.l2CacheSize; break;
	case hipDeviceAttributeMaxThreadsPerMultiProcessor:
		*pi = p.maxThreadsPerMultiProcessor; break;
	case hipDeviceAttributeConcurrentKernels:
	case hipDeviceAttributeCanMapHostMemory:
	case hipDeviceAttributeCooperativeLaunch:
	case hipDeviceAttributeManagedMemory:
	case hipDeviceAttributeMemoryPoolsSupported:
	case hipDeviceAttributeUnifiedAddressing:
		*pi = 1; break;
	case hipDeviceAttributeIntegrated: *pi = 0; break;
	case hipDeviceAttributePciBusId: *pi = p.pciBusID; break;
	case hipDeviceAttributeTotalGlobalMem:
		*pi = p.totalGlobalMem > 2147483647 ? 2147483647 :
						      (int)p.totalGlobalMem;
		break;
	default:
		return he_ret(hipErrorInvalidValue);
	}
	return hipSuccess;
}

HE_EXPORT hipError_t hipDeviceSynchronize(void)
{
	hipError_t err;

	HE_ENTER("hipDeviceSynchronize");
	err = he_capture_check_sync(he_dev);
	if (err)
		return he_ret(err);
	he_sync_device(he_dev);
	he_cost(he_cfg.cost_sync_ns);
	return hipSuccess;
}

HE_EXPORT hipError_t hipDeviceReset(void)
{
	HE_ENTER("hipDeviceReset");
	/* Waits for the device's work, then drops everything it owns. */
	he_streams_reset(he_dev);
	he_events_reset(he_dev);
	he_mem_reset(he_dev);
	return hipSuccess;
}

HE_EXPORT hipError_t hipSetDeviceFlags(unsigned flags)
{
	HE_ENTER("hipSetDeviceFlags");
	return he_ret(flags > 0x1f ? hipErrorInvalidValue : hipSuccess);
}

HE_EXPORT hipError_t hipGetDeviceFlags(unsigned int *flags)
{
	HE_ENTER("hipGetDeviceFlags");
	if (!flags)
		return he_ret(hipErrorInvalidValue);
	*flags = 0;
	return hipSuccess;
}

HE_EXPORT hipError_t hipGetProcAddress(const char *symbol, void **pfn,
				       int hipVersion, uint64_t flags,
				       void *symbolStatus)
{
	Dl_info info;
	void *self, *f = NULL;

	HE_ENTER("hipGetProcAddress");
	(void)hipVersion;
	(void)flags;
	if (!symbol || !pfn)
		return he_ret(hipErrorInvalidValue);
	/* Look in hipemu itself, never in whatever preloads over it. */
	if (dladdr((void *)hipGetProcAddress, &info) && info.dli_fname) {
		self = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
		if (self) {
			f = dlsym(self, symbol);
			dlclose(self);
		}
	}
	*pfn = f;
	if (symbolStatus)
		*(int *)symbolStatus = f ? 0 : 1;
	return f ? hipSuccess : he_ret(hipErrorNotFound);
}
