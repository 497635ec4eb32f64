/*
 * copy.c - copies and sets.  Each becomes one op on a stream; the
 * synchronous forms are enqueued on the (legacy or per-thread) null stream
 * and waited for, which is what orders them against other streams' work
 * exactly as the real runtime does.
 */
#include "he.h"

/*
 * Enqueues w on stream; with sync, waits for it.  An empty copy or set is
 * a no-op that succeeds without touching any stream.
 */
static hipError_t submit(struct he_work *w, hipStream_t stream, bool sync)
{
	struct he_stream *s;
	uint64_t seq;
	hipError_t err;

	err = he_stream_get(stream, &s);
	if (err)
		return err;
	err = he_enqueue(s, w, NULL, sync ? HE_ENQ_SYNC : 0, &seq);
	if (err || !sync)
		return err;
	he_stream_wait(s, seq);
	return hipSuccess;
}

static hipError_t copy2d(void *dst, size_t dpitch, const void *src,
			 size_t spitch, size_t width, size_t height,
			 hipMemcpyKind kind, hipStream_t stream, bool sync)
{
	struct he_work w = { .kind = HE_W_COPY };

	if ((unsigned)kind > hipMemcpyDefault)
		return hipErrorInvalidMemcpyDirection;
	if (!width || !height)
		return hipSuccess;
	if (!dst || !src)
		return hipErrorInvalidValue;
	if (height > 1 && (dpitch < width || spitch < width))
		return hipErrorInvalidPitchValue;
	w.copy.dst = dst;
	w.copy.src = src;
	w.copy.dpitch = dpitch;
	w.copy.spitch = spitch;
	w.copy.width = width;
	w.copy.height = height;
	return submit(&w, stream, sync);
}

static hipError_t copy(void *dst, const void *src, size_t n,
		       hipMemcpyKind kind, hipStream_t stream, bool sync)
{
	return copy2d(dst, n, src, n, n, 1, kind, stream, sync);
}

static hipError_t set(void *dst, uint32_t value, size_t count,
		      unsigned elsize, hipStream_t stream, bool sync)
{
	struct he_work w = { .kind = HE_W_SET };

	if (!count)
		return hipSuccess;
	if (!dst)
		return hipErrorInvalidValue;
	w.set.dst = dst;
	w.set.value = value;
	w.set.count = count;
	w.set.elsize = elsize;
	return submit(&w, stream, sync);
}

/* The stream an _spt call uses when the program passes 0. */
static hipStream_t spt(hipStream_t s)
{
	return s ? s : hipStreamPerThread;
}

HE_EXPORT hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes,
			       hipMemcpyKind kind)
{
	HE_ENTER("hipMemcpy");
	return he_ret(copy(dst, src, sizeBytes, kind, NULL, true));
}

HE_EXPORT hipError_t hipMemcpy_spt(void *dst, const void *src,
				   size_t sizeBytes, hipMemcpyKind kind)
{
	HE_ENTER("hipMemcpy_spt");
	return he_ret(copy(dst, src, sizeBytes, kind, hipStreamPerThread,
			   true));
}

HE_EXPORT hipError_t hipMemcpyWithStream(void *dst, const void *src,
					 size_t sizeBytes, hipMemcpyKind kind,
					 hipStream_t stream)
{
	HE_ENTER("hipMemcpyWithStream");
	return he_ret(copy(dst, src, sizeBytes, kind, stream, true));
}

HE_EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src,
				    size_t sizeBytes, hipMemcpyKind kind,
				    hipStream_t stream)
{
	HE_ENTER("hipMemcpyAsync");
	return he_ret(copy(dst, src, sizeBytes, kind, stream, false));
}

HE_EXPORT hipError_t hipMemcpyAsync_spt(void *dst, const void *src,
					size_t sizeBytes, hipMemcpyKind kind,
					hipStream_t stream)
{
	HE_ENTER("hipMemcpyAsync_spt");
	return he_ret(copy(dst, src, sizeBytes, kind, spt(stream), false));
}

HE_EXPORT hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src,
				   size_t sizeBytes)
{
	HE_ENTER("hipMemcpyHtoD");
	return he_ret(copy(dst, src, sizeBytes, hipMemcpyHostToDevice, NULL,
			   true));
}

HE_EXPORT hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src,
				   size_t sizeBytes)
{
	HE_ENTER("hipMemcpyDtoH");
	return he_ret(copy(dst, src, sizeBytes, hipMemcpyDeviceToHost, NULL,
			   true));
}

HE_EXPORT hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src,
				   size_t sizeBytes)
{
	HE_ENTER("hipMemcpyDtoD");
	return he_ret(copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, NULL,
			   true));
}

HE_EXPORT hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src,
					size_t sizeBytes, hipStream_t stream)
{
	HE_ENTER("hipMemcpyHtoDAsync");
	return he_ret(copy(dst, src, sizeBytes, hipMemcpyHostToDevice, stream,
			   false));
}

HE_EXPORT hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src,
					size_t sizeBytes, hipStream_t stream)
{
	HE_ENTER("hipMemcpyDtoHAsync");
	return he_ret(copy(dst, src, sizeBytes, hipMemcpyDeviceToHost, stream,
			   false));
}

HE_EXPORT hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst,
					hipDeviceptr_t src, size_t sizeBytes,
					hipStream_t stream)
{
	HE_ENTER("hipMemcpyDtoDAsync");
	return he_ret(copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice,
			   stream, false));
}

HE_EXPORT hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src,
				 size_t spitch, size_t width, size_t height,
				 hipMemcpyKind kind)
{
	HE_ENTER("hipMemcpy2D");
	return he_ret(copy2d(dst, dpitch, src, spitch, width, height, kind,
			     NULL, true));
}

HE_EXPORT hipError_t hipMemcpy2D_spt(void *dst, size_t dpitch,
				     const void *src, size_t spitch,
				     size_t width, size_t height,
				     hipMemcpyKind kind)
{
	HE_ENTER("hipMemcpy2D_spt");
	return he_ret(copy2d(dst, dpitch, src, spitch, width, height, kind,
			     hipStreamPerThread, true));
}

HE_EXPORT hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch,
				      const void *src, size_t spitch,
				      size_t width, size_t height,
				      hipMemcpyKind kind, hipStream_t stream)
{
	HE_ENTER("hipMemcpy2DAsync");
	return he_ret(copy2d(dst, dpitch, src, spitch, width, height, kind,
			     stream, false));
}

HE_EXPORT hipError_t hipMemset(void *dst, int value, size_t sizeBytes)
{
	HE_ENTER("hipMemset");
	return he_ret(set(dst, (uint32_t)value, sizeBytes, 1, NULL, true));
}

HE_EXPORT hipError_t hipMemset_spt(void *dst, int value, size_t sizeBytes)
{
	HE_ENTER("hipMemset_spt");
	return he_ret(set(dst, (uint32_t)value, sizeBytes, 1,
			  hipStreamPerThread, true));
}

HE_EXPORT hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes,
				    hipStream_t stream)
{
	HE_ENTER("hipMemsetAsync");
	return he_ret(set(dst, (uint32_t)value, sizeBytes, 1, stream, false));
}

HE_EXPORT hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value,
				 size_t count)
{
	HE_ENTER("hipMemsetD8");
	return he_ret(set(dest, value, count, 1, NULL, true));
}

HE_EXPORT hipError_t hipMemsetD8Async(hipDeviceptr_t dest,
				      unsigned char value, size_t count,
				      hipStream_t stream)
{
	HE_ENTER("hipMemsetD8Async");
	return he_ret(set(dest, value, count, 1, stream, false));
}

HE_EXPORT hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value,
				  size_t count)
{
	HE_ENTER("hipMemsetD16");
	return he_ret(set(dest, value, count, 2, NULL, true));
}

HE_EXPORT hipError_t hipMemsetD16Async(hipDeviceptr_t dest,
				       unsigned short value, size_t count,
				       hipStream_t stream)
{
	HE_ENTER("hipMemsetD16Async");
	return he_ret(set(dest, value, count, 2, stream, false));
}

HE_EXPORT hipError_t hipMemsetD32(hipDeviceptr_t dest, int value,
				  size_t count)
{
	HE_ENTER("hipMemsetD32");
	return he_ret(set(dest, (uint32_t)value, count, 4, NULL, true));
}

HE_EXPORT hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value,
				       size_t count, hipStream_t stream)
{
	HE_ENTER("hipMemsetD32Async");
	return he_ret(set(dst, (uint32_t)value, count, 4, stream, false));
}
