/*
 * memquery.c - what a program can ask about memory: free and total, the
 * attributes and range of a pointer, IPC handles, managed-memory hints.
 */
#include "he.h"

#include <string.h>
#include <unistd.h>

HE_EXPORT hipError_t hipMemGetInfo(size_t *free, size_t *total)
{
	HE_ENTER("hipMemGetInfo");
	if (!free || !total)
		return he_ret(hipErrorInvalidValue);
	he_mem_info(he_cur_dev(), free, total);
	return hipSuccess;
}

HE_EXPORT hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t device)
{
	HE_ENTER("hipDeviceTotalMem");
	if (!bytes)
		return he_ret(hipErrorInvalidValue);
	if (!he_dev_valid(device))
		return he_ret(hipErrorInvalidDevice);
	*bytes = he_cfg.mem_size;
	return hipSuccess;
}

HE_EXPORT hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attributes,
					     const void *ptr)
{
	enum he_mem_kind kind;
	unsigned flags;
	int dev;
	hipError_t err;

	HE_ENTER("hipPointerGetAttributes");
	if (!attributes)
		return he_ret(hipErrorInvalidValue);
	err = he_mem_find(ptr, 1, NULL, NULL, &kind, &dev, &flags);
	if (err)
		return he_ret(hipErrorInvalidValue);
	memset(attributes, 0, sizeof(*attributes));
	attributes->device = dev;
	attributes->allocationFlags = flags;
	/* One address space: every kind is reachable from both sides. */
	attributes->devicePointer = (void *)ptr;
	switch (kind) {
	case HE_MEM_DEVICE:
		attributes->memoryType = hipMemoryTypeDevice;
		break;
	case HE_MEM_MANAGED:
		attributes->memoryType = hipMemoryTypeUnified;
		attributes->isManaged = 1;
		attributes->hostPointer = (void *)ptr;
		break;
	case HE_MEM_HOST:
		attributes->memoryType = hipMemoryTypeHost;
		attributes->hostPointer = (void *)ptr;
		break;
	}
	return hipSuccess;
}

HE_EXPORT hipError_t hipMemGetAddressRange(hipDeviceptr_t *pbase,
					   size_t *psize,
					   hipDeviceptr_t dptr)
{
	enum he_mem_kind kind;
	char *base;
	size_t size;

	HE_ENTER("hipMemGetAddressRange");
	if (he_mem_find(dptr, 1, &base, &size, &kind, NULL, NULL))
		return he_ret(hipErrorNotFound);
	if (pbase)
		*pbase = base;
	if (psize)
		*psize = size;
	return hipSuccess;
}

HE_EXPORT hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *handle,
					void *devPtr)
{
	enum he_mem_kind kind;
	char *base;
	size_t size;
	pid_t pid = getpid();

	HE_ENTER("hipIpcGetMemHandle");
	if (!handle || he_mem_find(devPtr, 1, &base, &size, &kind, NULL, NULL) ||
	    base != devPtr || kind != HE_MEM_DEVICE)
		return he_ret(hipErrorInvalidValue);
	/* Opaque to programs; opening it in another process is not done. */
	memset(handle, 0, sizeof(*handle));
	memcpy(handle->reserved, &base, sizeof(base));
	memcpy(handle->reserved + sizeof(base), &size, sizeof(size));
	memcpy(handle->reserved + sizeof(base) + sizeof(size), &pid,
	       sizeof(pid));
	return hipSuccess;
}

/* Is [p, p+count) inside one managed allocation? */
static bool managed_range(const void *p, size_t count)
{
	enum he_mem_kind kind;

	return count && !he_mem_find(p, count, NULL, NULL, &kind, NULL, NULL) &&
	       kind == HE_MEM_MANAGED;
}

HE_EXPORT hipError_t hipMemAdvise(const void *dev_ptr, size_t count,
				  hipMemoryAdvise advice, int device)
{
	HE_ENTER("hipMemAdvise");
	if (!managed_range(dev_ptr, count))
		return he_ret(hipErrorInvalidValue);
	if ((advice < hipMemAdviseSetReadMostly ||
	     advice > hipMemAdviseUnsetAccessedBy) &&
	    advice != hipMemAdviseSetCoarseGrain &&
	    advice != hipMemAdviseUnsetCoarseGrain)
		return he_ret(hipErrorInvalidValue);
	if (device != hipCpuDeviceId && !he_dev_valid(device))
		return he_ret(hipErrorInvalidDevice);
	return hipSuccess;
}

HE_EXPORT hipError_t hipMemPrefetchAsync(const void *dev_ptr, size_t count,
					 int device, hipStream_t stream)
{
	struct he_stream *s;
	struct he_work w = { .kind = HE_W_NOP };
	uint64_t seq;
	hipError_t err;

	HE_ENTER("hipMemPrefetchAsync");
	if (!managed_range(dev_ptr, count))
		return he_ret(hipErrorInvalidValue);
	if (device != hipCpuDeviceId && !he_dev_valid(device))
		return he_ret(hipErrorInvalidDevice);
	err = he_stream_get(stream, &s);
	if (err)
		return he_ret(err);
	/* Nothing moves, but the prefetch takes its place in the stream. */
	return he_ret(he_enqueue(s, &w, NULL, 0, &seq));
}

HE_EXPORT hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr,
					     unsigned int flags)
{
	enum he_mem_kind kind;

	HE_ENTER("hipHostGetDevicePointer");
	if (!devPtr || flags ||
	    he_mem_find(hstPtr, 1, NULL, NULL, &kind, NULL, NULL) ||
	    kind != HE_MEM_HOST)
		return he_ret(hipErrorInvalidValue);
	*devPtr = hstPtr;
	return hipSuccess;
}
