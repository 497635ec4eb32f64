/*
 * memattr.c - pointer and range queries that answer one attribute at a
 * time: hipPointerGetAttribute, hipDrvPointerGetAttributes,
 * hipMemPtrGetInfo, hipMemRangeGetAttribute(s).
 *
 * The answers follow ROCm's (clr hipamd/src/hip_memory.cpp,
 * ihipPointerGetAttributes, hipMemPtrGetInfo; hip_hmm.cpp
 * hipMemRangeGetAttribute(s); rocm-6.2.0): an attribute of memory the
 * runtime did not allocate is written with its default value and fails
 * with hipErrorInvalidValue; RANGE_START_ADDR and RANGE_SIZE describe
 * the whole allocation containing the pointer (RANGE_SIZE as a 32-bit
 * value, as ROCm writes it); managed memory reports as host memory.
 * Where ROCm dereferences a NULL output (hipMemPtrGetInfo), hipemu
 * returns hipErrorInvalidValue instead.
 */
#include "he.h"

#include <string.h>

static hipError_t attr_one(void *data, hipPointer_attribute attr,
			   const void *ptr)
{
	enum he_mem_kind kind;
	unsigned flags;
	char *base;
	size_t size;
	int dev;
	bool found = !he_mem_find(ptr, 1, &base, &size, &kind, &dev, &flags);

	switch (attr) {
	case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE:
		*(uint32_t *)data = !found ? 0
				    : kind == HE_MEM_DEVICE
					? hipMemoryTypeDevice
					: hipMemoryTypeHost;
		break;
	case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER:
		*(void **)data = found ? (void *)ptr : NULL;
		break;
	case HIP_POINTER_ATTRIBUTE_HOST_POINTER:
		*(void **)data =
		    found && kind != HE_MEM_DEVICE ? (void *)ptr : NULL;
		return found && kind != HE_MEM_DEVICE ? hipSuccess
						      : hipErrorInvalidValue;
	case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS:
	case HIP_POINTER_ATTRIBUTE_MAPPED:
		*(bool *)data = found && attr == HIP_POINTER_ATTRIBUTE_MAPPED;
		break;
	case HIP_POINTER_ATTRIBUTE_BUFFER_ID:
		/* each allocation is its own mapping: its page is unique */
		*(uint32_t *)data =
		    found ? (uint32_t)((uintptr_t)base >> 12) : 0;
		break;
	case HIP_POINTER_ATTRIBUTE_IS_MANAGED:
		*(bool *)data = found && kind == HE_MEM_MANAGED;
		break;
	case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		*(int *)data = found ? dev : -2;
		break;
	case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR:
		*(void **)data = found ? base : NULL;
		break;
	case HIP_POINTER_ATTRIBUTE_RANGE_SIZE:
		*(uint32_t *)data = found ? (uint32_t)size : 0;
		break;
	case HIP_POINTER_ATTRIBUTE_CONTEXT:
	case HIP_POINTER_ATTRIBUTE_P2P_TOKENS:
	case HIP_POINTER_ATTRIBUTE_IS_LEGACY_HIP_IPC_CAPABLE:
	case HIP_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
	case HIP_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
	case HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS:
	case HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
		return hipErrorNotSupported;
	default:
		return hipErrorInvalidValue;
	}
	return found ? hipSuccess : hipErrorInvalidValue;
}

HE_EXPORT hipError_t hipPointerGetAttribute(void *data,
					    hipPointer_attribute attribute,
					    hipDeviceptr_t ptr)
{
	HE_ENTER("hipPointerGetAttribute");
	if (!data || !ptr)
		return he_ret(hipErrorInvalidValue);
	return he_ret(attr_one(data, attribute, ptr));
}

HE_EXPORT hipError_t hipDrvPointerGetAttributes(
    unsigned int numAttributes, hipPointer_attribute *attributes, void **data,
    hipDeviceptr_t ptr)
{
	unsigned i;

	HE_ENTER("hipDrvPointerGetAttributes");
	if (!numAttributes || !attributes || !data || !ptr)
		return he_ret(hipErrorInvalidValue);
	/* ROCm ignores each attribute's status: defaults stand for them */
	for (i = 0; i < numAttributes; i++)
		if (data[i])
			(void)attr_one(data[i], attributes[i], ptr);
	return hipSuccess;
}

HE_EXPORT hipError_t hipMemPtrGetInfo(void *ptr, size_t *size)
{
	size_t sz;

	HE_ENTER("hipMemPtrGetInfo");
	if (!size || he_mem_find(ptr, 1, NULL, &sz, NULL, NULL, NULL))
		return he_ret(hipErrorInvalidValue);
	*size = sz;
	return hipSuccess;
}

/* Is [p, p+count) inside one managed allocation? */
static bool in_managed(const void *p, size_t count)
{
	enum he_mem_kind kind;

	return !he_mem_find(p, count, NULL, NULL, &kind, NULL, NULL) &&
	       kind == HE_MEM_MANAGED;
}

/* hipemu keeps no advice: every range reads as never advised. */
static hipError_t range_one(void *data, size_t size, hipMemRangeAttribute attr)
{
	size_t i;

	switch (attr) {
	case hipMemRangeAttributeReadMostly:
	case hipMemRangeAttributeCoherencyMode:
		if (size != sizeof(int))
			return hipErrorInvalidValue;
		*(int *)data = 0;
		return hipSuccess;
	case hipMemRangeAttributePreferredLocation:
	case hipMemRangeAttributeLastPrefetchLocation:
		if (size != sizeof(int))
			return hipErrorInvalidValue;
		*(int *)data = hipInvalidDeviceId;
		return hipSuccess;
	case hipMemRangeAttributeAccessedBy:
		if (!size || size % sizeof(int))
			return hipErrorInvalidValue;
		for (i = 0; i < size / sizeof(int); i++)
			((int *)data)[i] = hipInvalidDeviceId;
		return hipSuccess;
	default:
		return hipErrorInvalidValue;
	}
}

HE_EXPORT hipError_t hipMemRangeGetAttribute(void *data, size_t data_size,
					     hipMemRangeAttribute attribute,
					     const void *dev_ptr, size_t count)
{
	HE_ENTER("hipMemRangeGetAttribute");
	if (!data || !data_size || !dev_ptr || !count ||
	    !in_managed(dev_ptr, count))
		return he_ret(hipErrorInvalidValue);
	return he_ret(range_one(data, data_size, attribute));
}

HE_EXPORT hipError_t hipMemRangeGetAttributes(void **data, size_t *data_sizes,
					      hipMemRangeAttribute *attributes,
					      size_t num_attributes,
					      const void *dev_ptr, size_t count)
{
	hipError_t err = hipSuccess;
	size_t i;

	HE_ENTER("hipMemRangeGetAttributes");
	if (!data || !data_sizes || !attributes || !num_attributes ||
	    !dev_ptr || !count || !in_managed(dev_ptr, count))
		return he_ret(hipErrorInvalidValue);
	for (i = 0; i < num_attributes && !err; i++)
		err = data[i] ? range_one(data[i], data_sizes[i], attributes[i])
			      : hipErrorInvalidValue;
	return he_ret(err);
}
