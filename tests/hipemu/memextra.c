/*
 * memextra.c - the allocation calls beyond hipMalloc and its kin: pitched
 * and 3D memory, arrays, hipMemCreate.
 *
 * They exist so that the shim's pool can be tested against every kind of
 * allocation a program makes: each one is counted against the device
 * (host kinds excepted) and fails with hipErrorOutOfMemory past it, the
 * error ROCm returns when memory is short (clr hipamd/src/hip_memory.cpp,
 * ihipMalloc and ihipImageCreate; hip_vm.cpp hipMemCreate; rocm-6.2.0).
 */
#include "he.h"
#include "he_copy.h"

#include <stdlib.h>
#include <string.h>

static size_t up256(size_t n)
{
	return (n + HE_ALIGN - 1) / HE_ALIGN * HE_ALIGN;
}

/* ---- pitched and 3D linear memory ---- */

/* As hipMallocPitch: the pitch is the width rounded up to 256. */
static hipError_t pitched(void **ptr, size_t *pitch, size_t width,
			  size_t height, size_t depth)
{
	size_t p;

	if (!ptr || !pitch)
		return hipErrorInvalidValue;
	if (!width || !height || !depth) {
		*ptr = NULL;
		return hipSuccess;
	}
	if (width > SIZE_MAX - HE_ALIGN)
		return hipErrorInvalidValue;
	p = up256(width);
	if (p > SIZE_MAX / height / depth)
		return hipErrorOutOfMemory;
	*pitch = p;
	return he_alloc(ptr, p * height * depth, he_cur_dev(), HE_MEM_DEVICE,
			0);
}

HE_EXPORT hipError_t hipMemAllocPitch(hipDeviceptr_t *dptr, size_t *pitch,
				      size_t widthInBytes, size_t height,
				      unsigned int elementSizeBytes)
{
	HE_ENTER("hipMemAllocPitch");
	(void)elementSizeBytes; /* ROCm ignores it too (ihipMallocPitch) */
	return he_ret(pitched(dptr, pitch, widthInBytes, height, 1));
}

HE_EXPORT hipError_t hipMalloc3D(hipPitchedPtr *pitchedDevPtr, hipExtent extent)
{
	size_t pitch = 0;
	void *p = NULL;
	hipError_t err;

	HE_ENTER("hipMalloc3D");
	if (!pitchedDevPtr)
		return he_ret(hipErrorInvalidValue);
	err = pitched(&p, &pitch, extent.width, extent.height, extent.depth);
	if (err)
		return he_ret(err);
	pitchedDevPtr->ptr = p;
	pitchedDevPtr->pitch = pitch;
	pitchedDevPtr->xsize = extent.width;
	pitchedDevPtr->ysize = extent.height;
	return hipSuccess;
}

/* ---- arrays: a hipArray over device memory ---- */

size_t he_format_bytes(enum hipArray_Format f)
{
	switch (f) {
	case HIP_AD_FORMAT_UNSIGNED_INT8:
	case HIP_AD_FORMAT_SIGNED_INT8:
		return 1;
	case HIP_AD_FORMAT_UNSIGNED_INT16:
	case HIP_AD_FORMAT_SIGNED_INT16:
	case HIP_AD_FORMAT_HALF:
		return 2;
	case HIP_AD_FORMAT_UNSIGNED_INT32:
	case HIP_AD_FORMAT_SIGNED_INT32:
	case HIP_AD_FORMAT_FLOAT:
		return 4;
	default:
		return 0;
	}
}

/* An array of w x h x d elements of elem bytes (h, d at least 1). */
static hipError_t array_new(hipArray **out, size_t elem, size_t w, size_t h,
			    size_t d, unsigned type)
{
	hipArray *a;
	hipError_t err;
	void *p = NULL;

	if (!out || !elem || !w)
		return hipErrorInvalidValue;
	h = h ? h : 1;
	d = d ? d : 1;
	if (w > SIZE_MAX / elem / h / d)
		return hipErrorOutOfMemory;
	a = calloc(1, sizeof(*a));
	if (!a)
		return hipErrorOutOfMemory;
	err = he_alloc(&p, w * h * d * elem, he_cur_dev(), HE_MEM_DEVICE, 0);
	if (err) {
		free(a);
		return err;
	}
	a->data = p;
	a->type = type;
	a->width = (unsigned)w;
	a->height = (unsigned)h;
	a->depth = (unsigned)d;
	*out = a;
	return hipSuccess;
}

static size_t desc_bytes(const struct hipChannelFormatDesc *desc)
{
	int bits;

	if (!desc)
		return 0;
	bits = desc->x + desc->y + desc->z + desc->w;
	return bits > 0 && bits % 8 == 0 ? (size_t)bits / 8 : 0;
}

HE_EXPORT hipError_t hipMallocArray(hipArray **array,
				    const hipChannelFormatDesc *desc,
				    size_t width, size_t height,
				    unsigned int flags)
{
	hipError_t err;

	HE_ENTER("hipMallocArray");
	err = array_new(array, desc_bytes(desc), width, height, 1, flags);
	if (!err)
		(*array)->desc = *desc;
	return he_ret(err);
}

HE_EXPORT hipError_t hipMalloc3DArray(hipArray **array,
				      const struct hipChannelFormatDesc *desc,
				      struct hipExtent extent,
				      unsigned int flags)
{
	hipError_t err;

	HE_ENTER("hipMalloc3DArray");
	err = array_new(array, desc_bytes(desc), extent.width, extent.height,
			extent.depth, flags);
	if (!err)
		(*array)->desc = *desc;
	return he_ret(err);
}

HE_EXPORT hipError_t hipArrayCreate(hipArray **pHandle,
				    const HIP_ARRAY_DESCRIPTOR *d)
{
	hipError_t err;

	HE_ENTER("hipArrayCreate");
	if (!d)
		return he_ret(hipErrorInvalidValue);
	err = array_new(pHandle, he_format_bytes(d->Format) * d->NumChannels,
			d->Width, d->Height, 1, 0);
	if (!err) {
		(*pHandle)->Format = d->Format;
		(*pHandle)->NumChannels = d->NumChannels;
		(*pHandle)->isDrv = true;
	}
	return he_ret(err);
}

HE_EXPORT hipError_t hipArray3DCreate(hipArray **array,
				      const HIP_ARRAY3D_DESCRIPTOR *d)
{
	hipError_t err;

	HE_ENTER("hipArray3DCreate");
	if (!d)
		return he_ret(hipErrorInvalidValue);
	err = array_new(array, he_format_bytes(d->Format) * d->NumChannels,
			d->Width, d->Height, d->Depth, d->Flags);
	if (!err) {
		(*array)->Format = d->Format;
		(*array)->NumChannels = d->NumChannels;
		(*array)->isDrv = true;
	}
	return he_ret(err);
}

static hipError_t array_free(hipArray *a)
{
	hipError_t err;

	if (!a)
		return hipErrorInvalidValue;
	he_sync_device(-1); /* ROCm waits for the device (ihipArrayDestroy) */
	err = he_release(a->data, 0);
	if (!err)
		free(a);
	return err;
}

HE_EXPORT hipError_t hipFreeArray(hipArray *array)
{
	HE_ENTER("hipFreeArray");
	return he_ret(array_free(array));
}

HE_EXPORT hipError_t hipArrayDestroy(hipArray *array)
{
	HE_ENTER("hipArrayDestroy");
	return he_ret(array_free(array));
}

/* ---- virtual memory management: physical allocations only ---- */

struct ihipMemGenericAllocationHandle {
	void *mem;
	size_t size;
};

HE_EXPORT hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *handle,
				  size_t size, const hipMemAllocationProp *prop,
				  unsigned long long flags)
{
	struct ihipMemGenericAllocationHandle *h;
	hipError_t err;
	void *p = NULL;

	HE_ENTER("hipMemCreate");
	if (!handle || !prop || !size || flags ||
	    prop->type != hipMemAllocationTypePinned ||
	    prop->location.type != hipMemLocationTypeDevice)
		return he_ret(hipErrorInvalidValue);
	if (!he_dev_valid(prop->location.id))
		return he_ret(hipErrorInvalidDevice);
	h = calloc(1, sizeof(*h));
	if (!h)
		return he_ret(hipErrorOutOfMemory);
	err = he_alloc(&p, size, prop->location.id, HE_MEM_DEVICE, 0);
	if (err) {
		free(h);
		return he_ret(err);
	}
	h->mem = p;
	h->size = size;
	*handle = h;
	return hipSuccess;
}

HE_EXPORT hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle)
{
	hipError_t err;

	HE_ENTER("hipMemRelease");
	if (!handle)
		return he_ret(hipErrorInvalidValue);
	err = he_release(handle->mem, 0);
	if (!err)
		free(handle);
	return he_ret(err);
}
