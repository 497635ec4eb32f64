/*
 * memset2d.c - 2D and 3D sets, their _spt forms, and the 2D sets of 8,
 * 16 and 32-bit elements (hipMemsetD2D*, ROCm 7.1).
 *
 * A pitched set is one SET op per row (one op when the rows are
 * contiguous), all on the same stream and so in order; the synchronous
 * forms wait for the last.  The checks follow clr's ihipMemset3D_validate
 * (hipamd/src/hip_memory.cpp, rocm-6.2.0): an empty extent succeeds
 * without touching a stream; a zero pitch, or a region that is not inside
 * one device allocation (a host pointer), is hipErrorInvalidValue.
 */
#include "he.h"

/* The stream an _spt call uses when the program passes 0. */
static hipStream_t spt(hipStream_t s)
{
	return s ? s : hipStreamPerThread;
}

/* Rows of width elements of elsize bytes, pitch bytes apart. */
struct he_rows {
	char *base;
	size_t pitch, width, height, depth, slice; /* slice: bytes per z */
	uint32_t value;
	unsigned elsize;
};

static hipError_t rows_check(const struct he_rows *r)
{
	size_t last;

	if (!r->base || !r->pitch || r->pitch < r->width * r->elsize)
		return hipErrorInvalidValue;
	last = (r->depth - 1) * r->slice + (r->height - 1) * r->pitch +
	       r->width * r->elsize;
	return he_mem_find(r->base, last, NULL, NULL, NULL, NULL, NULL);
}

static hipError_t rows_set(const struct he_rows *r, hipStream_t stream,
			   bool sync)
{
	struct he_stream *s;
	struct he_work w = { .kind = HE_W_SET };
	uint64_t seq = 0;
	size_t z, y, rowb = r->width * r->elsize;
	bool flat = r->pitch == rowb;
	hipError_t err;

	if (!r->width || !r->height || !r->depth)
		return hipSuccess;
	err = rows_check(r);
	if (err)
		return err;
	err = he_stream_get(stream, &s);
	if (err)
		return err;
	w.set.value = r->value;
	w.set.elsize = r->elsize;
	for (z = 0; z < r->depth; z++) {
		for (y = 0; y < r->height; y++) {
			w.set.dst = r->base + z * r->slice + y * r->pitch;
			w.set.count = flat ? r->width * r->height : r->width;
			err = he_enqueue(s, &w, NULL, sync ? HE_ENQ_SYNC : 0,
					 &seq);
			if (err)
				return err;
			if (flat)
				break;
		}
	}
	if (sync && seq)
		he_stream_wait(s, seq);
	return hipSuccess;
}

static hipError_t set2d(void *dst, size_t pitch, uint32_t value,
			unsigned elsize, size_t width, size_t height,
			hipStream_t stream, bool sync)
{
	struct he_rows r = { .base = dst, .pitch = pitch, .width = width,
			     .height = height, .depth = 1,
			     .slice = pitch * height, .value = value,
			     .elsize = elsize };

	return rows_set(&r, stream, sync);
}

/* hipMemset3D: extent.width is in bytes; ysize is the rows per slice. */
static hipError_t set3d(hipPitchedPtr p, int value, hipExtent e,
			hipStream_t stream, bool sync)
{
	struct he_rows r = { .base = p.ptr, .pitch = p.pitch,
			     .width = e.width, .height = e.height,
			     .depth = e.depth, .value = (uint8_t)value,
			     .elsize = 1 };

	if (e.depth > 1 && p.ysize < e.height && e.width && e.height)
		return hipErrorInvalidValue;
	r.slice = p.pitch * (p.ysize ? p.ysize : e.height);
	return rows_set(&r, stream, sync);
}

HE_EXPORT hipError_t hipMemset2D(void *dst, size_t pitch, int value,
				 size_t width, size_t height)
{
	HE_ENTER("hipMemset2D");
	return he_ret(set2d(dst, pitch, (uint8_t)value, 1, width, height,
			    NULL, true));
}

HE_EXPORT hipError_t hipMemset2D_spt(void *dst, size_t pitch, int value,
				     size_t width, size_t height)
{
	HE_ENTER("hipMemset2D_spt");
	return he_ret(set2d(dst, pitch, (uint8_t)value, 1, width, height,
			    hipStreamPerThread, true));
}

HE_EXPORT hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value,
				      size_t width, size_t height,
				      hipStream_t stream)
{
	HE_ENTER("hipMemset2DAsync");
	return he_ret(set2d(dst, pitch, (uint8_t)value, 1, width, height,
			    stream, false));
}

HE_EXPORT hipError_t hipMemset2DAsync_spt(void *dst, size_t pitch,
					  int value, size_t width,
					  size_t height, hipStream_t stream)
{
	HE_ENTER("hipMemset2DAsync_spt");
	return he_ret(set2d(dst, pitch, (uint8_t)value, 1, width, height,
			    spt(stream), false));
}

HE_EXPORT hipError_t hipMemset3D(hipPitchedPtr pitchedDevPtr, int value,
				 hipExtent extent)
{
	HE_ENTER("hipMemset3D");
	return he_ret(set3d(pitchedDevPtr, value, extent, NULL, true));
}

HE_EXPORT hipError_t hipMemset3D_spt(hipPitchedPtr pitchedDevPtr, int value,
				     hipExtent extent)
{
	HE_ENTER("hipMemset3D_spt");
	return he_ret(set3d(pitchedDevPtr, value, extent, hipStreamPerThread,
			    true));
}

HE_EXPORT hipError_t hipMemset3DAsync(hipPitchedPtr pitchedDevPtr,
				      int value, hipExtent extent,
				      hipStream_t stream)
{
	HE_ENTER("hipMemset3DAsync");
	return he_ret(set3d(pitchedDevPtr, value, extent, stream, false));
}

HE_EXPORT hipError_t hipMemset3DAsync_spt(hipPitchedPtr pitchedDevPtr,
					  int value, hipExtent extent,
					  hipStream_t stream)
{
	HE_ENTER("hipMemset3DAsync_spt");
	return he_ret(set3d(pitchedDevPtr, value, extent, spt(stream),
			    false));
}

HE_EXPORT hipError_t hipMemsetAsync_spt(void *dst, int value,
					size_t sizeBytes, hipStream_t stream)
{
	HE_ENTER("hipMemsetAsync_spt");
	if (!sizeBytes)
		return he_ret(hipSuccess);
	return he_ret(set2d(dst, sizeBytes, (uint8_t)value, 1, sizeBytes, 1,
			    spt(stream), false));
}

/* hipMemsetD2D*: width in elements, dstPitch in bytes. */
#define HE_D2D(NAME, TYPE, ELSIZE)                                          \
	HE_EXPORT hipError_t NAME(hipDeviceptr_t dst, size_t dstPitch,       \
				  TYPE value, size_t width, size_t height)   \
	{                                                                    \
		HE_ENTER(#NAME);                                             \
		return he_ret(set2d(dst, dstPitch, value, ELSIZE, width,     \
				    height, NULL, true));                    \
	}                                                                    \
	HE_EXPORT hipError_t NAME##Async(hipDeviceptr_t dst, size_t dstPitch, \
					 TYPE value, size_t width,           \
					 size_t height, hipStream_t stream)  \
	{                                                                    \
		HE_ENTER(#NAME "Async");                                     \
		return he_ret(set2d(dst, dstPitch, value, ELSIZE, width,     \
				    height, stream, false));                 \
	}
HE_D2D(hipMemsetD2D8, unsigned char, 1)
HE_D2D(hipMemsetD2D16, unsigned short, 2)
HE_D2D(hipMemsetD2D32, unsigned int, 4)
