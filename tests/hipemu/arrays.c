/*
 * arrays.c - the copies to, from and between arrays (2D, linear offsets,
 * their Async and _spt forms).
 *
 * A hipArray is ROCm 5.2's struct (hip/driver_types.h): data points to
 * width x height elements of the channel descriptor's size, row after row
 * with no padding, in device memory of the current device.  Offsets are
 * in bytes for the linear copies (hipMemcpyHtoA and the like) and wOffset
 * in bytes for the 2D ones, as HIP documents them.
 */
#include "he.h"
#include "he_copy.h"

static hipStream_t spt(hipStream_t s)
{
	return s ? s : hipStreamPerThread;
}

size_t he_array_elsize(hipArray_const_t a)
{
	size_t bits = (size_t)(a->desc.x + a->desc.y + a->desc.z + a->desc.w);

	if (a->isDrv)	/* hipArrayCreate: a format and a channel count */
		return he_format_bytes(a->Format) * a->NumChannels;
	return bits >= 8 ? bits / 8 : 1;
}

static size_t row_bytes(hipArray_const_t a)
{
	return (size_t)a->width * he_array_elsize(a);
}

static size_t rows(hipArray_const_t a)
{
	return a->height ? a->height : 1;
}

/*
 * hipMallocArray, hipFreeArray and the driver forms are in memextra.c;
 * this file copies to, from and between the arrays they make.
 */

/* A 2D copy into or out of a: the box's array side at (xoff, yoff). */
static hipError_t arr2d(hipArray_const_t a, size_t xoff, size_t yoff,
			char *other, size_t opitch, size_t width,
			size_t height, hipMemcpyKind kind, int to_array,
			hipStream_t stream, bool sync)
{
	struct he_box b;
	char *base;

	if (!a || !a->data)
		return hipErrorInvalidValue;
	if (xoff + width > row_bytes(a) || yoff + height > rows(a))
		return hipErrorInvalidValue;
	base = (char *)a->data + yoff * row_bytes(a) + xoff;
	memset(&b, 0, sizeof(b));
	b.dst = to_array ? base : other;
	b.src = to_array ? other : base;
	b.dpitch = to_array ? row_bytes(a) : opitch;
	b.spitch = to_array ? opitch : row_bytes(a);
	b.width = width;
	b.height = height;
	b.depth = 1;
	b.kind = kind;
	return he_copy3d(&b, stream, sync);
}

/* A linear copy of n bytes at byte offset off of a (rows continue). */
static hipError_t arr1d(hipArray_const_t a, size_t off, char *other,
			size_t n, int to_array, hipStream_t stream, bool sync)
{
	struct he_box b;
	char *base;

	if (!a || !a->data)
		return hipErrorInvalidValue;
	if (off + n > row_bytes(a) * rows(a))
		return hipErrorInvalidValue;
	base = (char *)a->data + off;
	memset(&b, 0, sizeof(b));
	b.dst = to_array ? base : other;
	b.src = to_array ? other : base;
	b.dpitch = b.spitch = b.width = n;
	b.height = b.depth = 1;
	b.kind = hipMemcpyDefault;
	return he_copy3d(&b, stream, sync);
}

#define HE_TO2D(NAME, STREAM, SYNC)                                          \
	HE_EXPORT hipError_t NAME(hipArray *dst, size_t wOffset,             \
				  size_t hOffset, const void *src,           \
				  size_t spitch, size_t width,               \
				  size_t height, hipMemcpyKind kind)         \
	{                                                                    \
		HE_ENTER(#NAME);                                             \
		return he_ret(arr2d(dst, wOffset, hOffset, (char *)src,      \
				    spitch, width, height, kind, 1, STREAM,  \
				    SYNC));                                  \
	}
HE_TO2D(hipMemcpy2DToArray, NULL, true)
HE_TO2D(hipMemcpy2DToArray_spt, hipStreamPerThread, true)

#define HE_FROM2D(NAME, STREAM, SYNC)                                        \
	HE_EXPORT hipError_t NAME(void *dst, size_t dpitch,                  \
				  hipArray_const_t src, size_t wOffset,      \
				  size_t hOffset, size_t width,              \
				  size_t height, hipMemcpyKind kind)         \
	{                                                                    \
		HE_ENTER(#NAME);                                             \
		return he_ret(arr2d(src, wOffset, hOffset, dst, dpitch,      \
				    width, height, kind, 0, STREAM, SYNC));  \
	}
HE_FROM2D(hipMemcpy2DFromArray, NULL, true)
HE_FROM2D(hipMemcpy2DFromArray_spt, hipStreamPerThread, true)

HE_EXPORT hipError_t hipMemcpy2DToArrayAsync(hipArray *dst, size_t wOffset,
					     size_t hOffset, const void *src,
					     size_t spitch, size_t width,
					     size_t height, hipMemcpyKind kind,
					     hipStream_t stream)
{
	HE_ENTER("hipMemcpy2DToArrayAsync");
	return he_ret(arr2d(dst, wOffset, hOffset, (char *)src, spitch, width,
			    height, kind, 1, stream, false));
}

HE_EXPORT hipError_t hipMemcpy2DToArrayAsync_spt(
	hipArray *dst, size_t wOffset, size_t hOffset, const void *src,
	size_t spitch, size_t width, size_t height, hipMemcpyKind kind,
	hipStream_t stream)
{
	HE_ENTER("hipMemcpy2DToArrayAsync_spt");
	return he_ret(arr2d(dst, wOffset, hOffset, (char *)src, spitch, width,
			    height, kind, 1, spt(stream), false));
}

HE_EXPORT hipError_t hipMemcpy2DFromArrayAsync(
	void *dst, size_t dpitch, hipArray_const_t src, size_t wOffset,
	size_t hOffset, size_t width, size_t height, hipMemcpyKind kind,
	hipStream_t stream)
{
	HE_ENTER("hipMemcpy2DFromArrayAsync");
	return he_ret(arr2d(src, wOffset, hOffset, dst, dpitch, width, height,
			    kind, 0, stream, false));
}

HE_EXPORT hipError_t hipMemcpy2DFromArrayAsync_spt(
	void *dst, size_t dpitch, hipArray_const_t src, size_t wOffset,
	size_t hOffset, size_t width, size_t height, hipMemcpyKind kind,
	hipStream_t stream)
{
	HE_ENTER("hipMemcpy2DFromArrayAsync_spt");
	return he_ret(arr2d(src, wOffset, hOffset, dst, dpitch, width, height,
			    kind, 0, spt(stream), false));
}

/* hipMemcpyToArray/FromArray: count bytes from (wOffset, hOffset) on. */
HE_EXPORT hipError_t hipMemcpyToArray(hipArray *dst, size_t wOffset,
				      size_t hOffset, const void *src,
				      size_t count, hipMemcpyKind kind)
{
	HE_ENTER("hipMemcpyToArray");
	(void)kind;
	if (!dst)
		return he_ret(hipErrorInvalidValue);
	return he_ret(arr1d(dst, hOffset * row_bytes(dst) + wOffset,
			    (char *)src, count, 1, NULL, true));
}

static hipError_t from_array(void *dst, hipArray_const_t src, size_t w,
			     size_t h, size_t count, hipStream_t stream)
{
	if (!src)
		return hipErrorInvalidValue;
	return arr1d(src, h * row_bytes(src) + w, dst, count, 0, stream, true);
}

HE_EXPORT hipError_t hipMemcpyFromArray(void *dst, hipArray_const_t srcArray,
					size_t wOffset, size_t hOffset,
					size_t count, hipMemcpyKind kind)
{
	HE_ENTER("hipMemcpyFromArray");
	(void)kind;
	return he_ret(from_array(dst, srcArray, wOffset, hOffset, count,
				 NULL));
}

HE_EXPORT hipError_t hipMemcpyFromArray_spt(void *dst, hipArray_const_t src,
					    size_t wOffsetSrc, size_t hOffset,
					    size_t count, hipMemcpyKind kind)
{
	HE_ENTER("hipMemcpyFromArray_spt");
	(void)kind;
	return he_ret(from_array(dst, src, wOffsetSrc, hOffset, count,
				 hipStreamPerThread));
}

HE_EXPORT hipError_t hipMemcpyHtoA(hipArray *dstArray, size_t dstOffset,
				   const void *srcHost, size_t count)
{
	HE_ENTER("hipMemcpyHtoA");
	return he_ret(arr1d(dstArray, dstOffset, (char *)srcHost, count, 1,
			    NULL, true));
}

HE_EXPORT hipError_t hipMemcpyHtoAAsync(hipArray *dstArray, size_t dstOffset,
					const void *srcHost, size_t count,
					hipStream_t stream)
{
	HE_ENTER("hipMemcpyHtoAAsync");
	return he_ret(arr1d(dstArray, dstOffset, (char *)srcHost, count, 1,
			    stream, false));
}

HE_EXPORT hipError_t hipMemcpyAtoH(void *dst, hipArray *srcArray,
				   size_t srcOffset, size_t count)
{
	HE_ENTER("hipMemcpyAtoH");
	return he_ret(arr1d(srcArray, srcOffset, dst, count, 0, NULL, true));
}

HE_EXPORT hipError_t hipMemcpyAtoHAsync(void *dst, hipArray *srcArray,
					size_t srcOffset, size_t count,
					hipStream_t stream)
{
	HE_ENTER("hipMemcpyAtoHAsync");
	return he_ret(arr1d(srcArray, srcOffset, dst, count, 0, stream,
			    false));
}

HE_EXPORT hipError_t hipMemcpyAtoD(hipDeviceptr_t dstDevice,
				   hipArray *srcArray, size_t srcOffset,
				   size_t ByteCount)
{
	HE_ENTER("hipMemcpyAtoD");
	return he_ret(arr1d(srcArray, srcOffset, dstDevice, ByteCount, 0, NULL,
			    true));
}

HE_EXPORT hipError_t hipMemcpyDtoA(hipArray *dstArray, size_t dstOffset,
				   hipDeviceptr_t srcDevice, size_t ByteCount)
{
	HE_ENTER("hipMemcpyDtoA");
	return he_ret(arr1d(dstArray, dstOffset, srcDevice, ByteCount, 1, NULL,
			    true));
}

HE_EXPORT hipError_t hipMemcpyAtoA(hipArray *dstArray, size_t dstOffset,
				   hipArray *srcArray, size_t srcOffset,
				   size_t ByteCount)
{
	HE_ENTER("hipMemcpyAtoA");
	if (!srcArray || !srcArray->data ||
	    srcOffset + ByteCount > row_bytes(srcArray) * rows(srcArray))
		return he_ret(hipErrorInvalidValue);
	return he_ret(arr1d(dstArray, dstOffset,
			    (char *)srcArray->data + srcOffset, ByteCount, 1,
			    NULL, true));
}

HE_EXPORT hipError_t hipMemcpy2DArrayToArray(hipArray *dst, size_t wOffsetDst,
					     size_t hOffsetDst,
					     hipArray_const_t src,
					     size_t wOffsetSrc,
					     size_t hOffsetSrc, size_t width,
					     size_t height, hipMemcpyKind kind)
{
	HE_ENTER("hipMemcpy2DArrayToArray");
	if (!src || !src->data || wOffsetSrc + width > row_bytes(src) ||
	    hOffsetSrc + height > rows(src))
		return he_ret(hipErrorInvalidValue);
	return he_ret(arr2d(dst, wOffsetDst, hOffsetDst,
			    (char *)src->data + hOffsetSrc * row_bytes(src) +
				    wOffsetSrc,
			    row_bytes(src), width, height, kind, 1, NULL,
			    true));
}
