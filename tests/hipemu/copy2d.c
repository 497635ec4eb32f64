/*
 * copy2d.c - the copies beyond copy.c's: between devices, to and from
 * symbols, 3D and parameter-block copies, and their Async and _spt forms.
 *
 * Each becomes one 2D copy op per slice on its stream (in order); the
 * synchronous forms go to the null stream and wait, like copy.c's.  A
 * symbol is the host shadow of a device variable: on hipemu, where device
 * memory is host memory, that address is the variable itself, so the
 * copies use it as is (the real runtime maps it through __hipRegisterVar;
 * NULL is hipErrorInvalidSymbol in both).  Arrays are arrays.c's.
 */
#include "he.h"
#include "he_copy.h"

static hipStream_t spt(hipStream_t s)
{
	return s ? s : hipStreamPerThread;
}

hipError_t he_copy3d(const struct he_box *b, hipStream_t stream, bool sync)
{
	struct he_work w = { .kind = HE_W_COPY };
	struct he_stream *s;
	uint64_t seq = 0;
	size_t z;
	hipError_t err;

	if ((unsigned)b->kind > hipMemcpyDefault)
		return hipErrorInvalidMemcpyDirection;
	if (!b->width || !b->height || !b->depth)
		return hipSuccess;
	if (!b->dst || !b->src)
		return hipErrorInvalidValue;
	if ((b->height > 1 || b->depth > 1) &&
	    (b->dpitch < b->width || b->spitch < b->width))
		return hipErrorInvalidPitchValue;
	err = he_stream_get(stream, &s);
	if (err)
		return err;
	w.copy.dpitch = b->dpitch;
	w.copy.spitch = b->spitch;
	w.copy.width = b->width;
	w.copy.height = b->height;
	for (z = 0; z < b->depth; z++) {
		w.copy.dst = b->dst + z * b->dslice;
		w.copy.src = b->src + z * b->sslice;
		err = he_enqueue(s, &w, NULL, sync ? HE_ENQ_SYNC : 0, &seq);
		if (err)
			return err;
	}
	if (sync && seq)
		he_stream_wait(s, seq);
	return hipSuccess;
}

static hipError_t copy1d(void *dst, const void *src, size_t n,
			 hipMemcpyKind kind, hipStream_t stream, bool sync)
{
	struct he_box b = { .dst = dst, .src = src, .dpitch = n,
			    .spitch = n, .width = n, .height = 1, .depth = 1,
			    .kind = kind };

	return he_copy3d(&b, stream, sync);
}

/* ---- between devices ---- */

static hipError_t peer(void *dst, int ddev, const void *src, int sdev,
		       size_t n, hipStream_t stream, bool sync)
{
	if (!he_dev_valid(ddev) || !he_dev_valid(sdev))
		return hipErrorInvalidDevice;
	return copy1d(dst, src, n, hipMemcpyDeviceToDevice, stream, sync);
}

HE_EXPORT hipError_t hipMemcpyPeer(void *dst, int dstDeviceId,
				   const void *src, int srcDeviceId,
				   size_t sizeBytes)
{
	HE_ENTER("hipMemcpyPeer");
	return he_ret(peer(dst, dstDeviceId, src, srcDeviceId, sizeBytes,
			   NULL, true));
}

HE_EXPORT hipError_t hipMemcpyPeerAsync(void *dst, int dstDeviceId,
					const void *src, int srcDevice,
					size_t sizeBytes, hipStream_t stream)
{
	HE_ENTER("hipMemcpyPeerAsync");
	return he_ret(peer(dst, dstDeviceId, src, srcDevice, sizeBytes,
			   stream, false));
}

/* ---- symbols ---- */

static hipError_t to_sym(const void *sym, const void *src, size_t n,
			 size_t off, hipMemcpyKind kind, hipStream_t stream,
			 bool sync)
{
	if (!sym)
		return hipErrorInvalidSymbol;
	return copy1d((char *)sym + off, src, n, kind, stream, sync);
}

static hipError_t from_sym(void *dst, const void *sym, size_t n, size_t off,
			   hipMemcpyKind kind, hipStream_t stream, bool sync)
{
	if (!sym)
		return hipErrorInvalidSymbol;
	return copy1d(dst, (const char *)sym + off, n, kind, stream, sync);
}

HE_EXPORT hipError_t hipMemcpyToSymbol(const void *symbol, const void *src,
				       size_t sizeBytes, size_t offset,
				       hipMemcpyKind kind)
{
	HE_ENTER("hipMemcpyToSymbol");
	return he_ret(to_sym(symbol, src, sizeBytes, offset, kind, NULL,
			     true));
}

HE_EXPORT hipError_t hipMemcpyToSymbol_spt(const void *symbol,
					   const void *src, size_t sizeBytes,
					   size_t offset, hipMemcpyKind kind)
{
	HE_ENTER("hipMemcpyToSymbol_spt");
	return he_ret(to_sym(symbol, src, sizeBytes, offset, kind,
			     hipStreamPerThread, true));
}

HE_EXPORT hipError_t hipMemcpyToSymbolAsync(const void *symbol,
					    const void *src, size_t sizeBytes,
					    size_t offset, hipMemcpyKind kind,
					    hipStream_t stream)
{
	HE_ENTER("hipMemcpyToSymbolAsync");
	return he_ret(to_sym(symbol, src, sizeBytes, offset, kind, stream,
			     false));
}

HE_EXPORT hipError_t hipMemcpyToSymbolAsync_spt(const void *symbol,
						const void *src,
						size_t sizeBytes, size_t offset,
						hipMemcpyKind kind,
						hipStream_t stream)
{
	HE_ENTER("hipMemcpyToSymbolAsync_spt");
	return he_ret(to_sym(symbol, src, sizeBytes, offset, kind,
			     spt(stream), false));
}

HE_EXPORT hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol,
					 size_t sizeBytes, size_t offset,
					 hipMemcpyKind kind)
{
	HE_ENTER("hipMemcpyFromSymbol");
	return he_ret(from_sym(dst, symbol, sizeBytes, offset, kind, NULL,
			       true));
}

HE_EXPORT hipError_t hipMemcpyFromSymbol_spt(void *dst, const void *symbol,
					     size_t sizeBytes, size_t offset,
					     hipMemcpyKind kind)
{
	HE_ENTER("hipMemcpyFromSymbol_spt");
	return he_ret(from_sym(dst, symbol, sizeBytes, offset, kind,
			       hipStreamPerThread, true));
}

HE_EXPORT hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *symbol,
					      size_t sizeBytes, size_t offset,
					      hipMemcpyKind kind,
					      hipStream_t stream)
{
	HE_ENTER("hipMemcpyFromSymbolAsync");
	return he_ret(from_sym(dst, symbol, sizeBytes, offset, kind, stream,
			       false));
}

HE_EXPORT hipError_t hipMemcpyFromSymbolAsync_spt(void *dst,
						  const void *symbol,
						  size_t sizeBytes,
						  size_t offset,
						  hipMemcpyKind kind,
						  hipStream_t stream)
{
	HE_ENTER("hipMemcpyFromSymbolAsync_spt");
	return he_ret(from_sym(dst, symbol, sizeBytes, offset, kind,
			       spt(stream), false));
}

HE_EXPORT hipError_t hipMemcpy2DAsync_spt(void *dst, size_t dpitch,
					  const void *src, size_t spitch,
					  size_t width, size_t height,
					  hipMemcpyKind kind,
					  hipStream_t stream)
{
	struct he_box b = { .dst = dst, .src = src, .dpitch = dpitch,
			    .spitch = spitch, .width = width,
			    .height = height, .depth = 1, .kind = kind };

	HE_ENTER("hipMemcpy2DAsync_spt");
	return he_ret(he_copy3d(&b, spt(stream), false));
}

/* ---- 3D and parameter blocks ---- */

/* One side of hipMemcpy3DParms: an array or a pitched pointer. */
static hipError_t side3d(hipArray_t a, struct hipPos pos,
			 struct hipPitchedPtr pp, size_t *elsize, char **base,
			 size_t *pitch, size_t *slice)
{
	if (a) {
		*elsize = he_array_elsize(a);
		*pitch = (size_t)a->width * *elsize;
		*slice = *pitch * (a->height ? a->height : 1);
		*base = (char *)a->data + pos.z * *slice + pos.y * *pitch +
			pos.x * *elsize;
		return a->data ? hipSuccess : hipErrorInvalidValue;
	}
	*pitch = pp.pitch;
	*slice = pp.pitch * pp.ysize;
	*base = (char *)pp.ptr + pos.z * *slice + pos.y * pp.pitch + pos.x;
	return pp.ptr ? hipSuccess : hipErrorInvalidValue;
}

static hipError_t copy3dparms(const struct hipMemcpy3DParms *p,
			      hipStream_t stream, bool sync)
{
	struct he_box b;
	size_t es = 1, ed = 1;
	char *d, *s;
	hipError_t err;

	if (!p)
		return hipErrorInvalidValue;
	memset(&b, 0, sizeof(b));
	err = side3d(p->dstArray, p->dstPos, p->dstPtr, &ed, &d, &b.dpitch,
		     &b.dslice);
	if (!err)
		err = side3d(p->srcArray, p->srcPos, p->srcPtr, &es, &s,
			     &b.spitch, &b.sslice);
	if (err)
		return err;
	b.dst = d;
	b.src = s;
	/* with an array the width is in elements (CUDA's rule, HIP's too) */
	b.width = p->extent.width *
		  (p->dstArray ? ed : p->srcArray ? es : 1);
	b.height = p->extent.height;
	b.depth = p->extent.depth;
	b.kind = p->kind;
	return he_copy3d(&b, stream, sync);
}

HE_EXPORT hipError_t hipMemcpy3D(const struct hipMemcpy3DParms *p)
{
	HE_ENTER("hipMemcpy3D");
	return he_ret(copy3dparms(p, NULL, true));
}

HE_EXPORT hipError_t hipMemcpy3D_spt(const struct hipMemcpy3DParms *p)
{
	HE_ENTER("hipMemcpy3D_spt");
	return he_ret(copy3dparms(p, hipStreamPerThread, true));
}

HE_EXPORT hipError_t hipMemcpy3DAsync(const struct hipMemcpy3DParms *p,
				      hipStream_t stream)
{
	HE_ENTER("hipMemcpy3DAsync");
	return he_ret(copy3dparms(p, stream, false));
}

HE_EXPORT hipError_t hipMemcpy3DAsync_spt(const struct hipMemcpy3DParms *p,
					  hipStream_t stream)
{
	HE_ENTER("hipMemcpy3DAsync_spt");
	return he_ret(copy3dparms(p, spt(stream), false));
}

/* One side of a hip_Memcpy2D or HIP_MEMCPY3D, by its memory type. */
static hipError_t side_typed(hipMemoryType t, const void *host,
			     hipDeviceptr_t dev, hipArray_t a, size_t x,
			     size_t y, size_t z, size_t pitch, size_t rows,
			     char **base, size_t *p_out, size_t *slice)
{
	char *b;

	switch ((int)t) {
	case hipMemoryTypeHost:
		b = (char *)host;
		break;
	case hipMemoryTypeDevice:
	case hipMemoryTypeUnified:
		b = dev;
		break;
	case hipMemoryTypeArray:
		if (!a || !a->data)
			return hipErrorInvalidValue;
		b = a->data;
		pitch = (size_t)a->width * he_array_elsize(a);
		rows = a->height ? a->height : 1;
		break;
	default:
		return hipErrorInvalidValue;
	}
	if (!b)
		return hipErrorInvalidValue;
	*p_out = pitch;
	*slice = pitch * rows;
	*base = b + z * *slice + y * pitch + x;
	return hipSuccess;
}

static hipError_t param2d(const hip_Memcpy2D *c, hipStream_t stream,
			  bool sync)
{
	struct he_box b;
	char *d, *s;
	hipError_t err;

	if (!c)
		return hipErrorInvalidValue;
	memset(&b, 0, sizeof(b));
	err = side_typed(c->dstMemoryType, c->dstHost, c->dstDevice,
			 c->dstArray, c->dstXInBytes, c->dstY, 0, c->dstPitch,
			 c->Height, &d, &b.dpitch, &b.dslice);
	if (!err)
		err = side_typed(c->srcMemoryType, c->srcHost, c->srcDevice,
				 c->srcArray, c->srcXInBytes, c->srcY, 0,
				 c->srcPitch, c->Height, &s, &b.spitch,
				 &b.sslice);
	if (err)
		return err;
	b.dst = d;
	b.src = s;
	b.width = c->WidthInBytes;
	b.height = c->Height;
	b.depth = 1;
	b.kind = hipMemcpyDefault;
	return he_copy3d(&b, stream, sync);
}

HE_EXPORT hipError_t hipMemcpyParam2D(const hip_Memcpy2D *pCopy)
{
	HE_ENTER("hipMemcpyParam2D");
	return he_ret(param2d(pCopy, NULL, true));
}

HE_EXPORT hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D *pCopy,
					   hipStream_t stream)
{
	HE_ENTER("hipMemcpyParam2DAsync");
	return he_ret(param2d(pCopy, stream, false));
}

/* On a CPU nothing is aligned or not: the same copy. */
HE_EXPORT hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D *pCopy)
{
	HE_ENTER("hipDrvMemcpy2DUnaligned");
	return he_ret(param2d(pCopy, NULL, true));
}

static hipError_t drv3d(const HIP_MEMCPY3D *c, hipStream_t stream, bool sync)
{
	struct he_box b;
	char *d, *s;
	hipError_t err;

	if (!c)
		return hipErrorInvalidValue;
	memset(&b, 0, sizeof(b));
	err = side_typed(c->dstMemoryType, c->dstHost, c->dstDevice,
			 c->dstArray, c->dstXInBytes, c->dstY, c->dstZ,
			 c->dstPitch, c->dstHeight, &d, &b.dpitch, &b.dslice);
	if (!err)
		err = side_typed(c->srcMemoryType, c->srcHost, c->srcDevice,
				 c->srcArray, c->srcXInBytes, c->srcY,
				 c->srcZ, c->srcPitch, c->srcHeight, &s,
				 &b.spitch, &b.sslice);
	if (err)
		return err;
	b.dst = d;
	b.src = s;
	b.width = c->WidthInBytes;
	b.height = c->Height;
	b.depth = c->Depth;
	b.kind = hipMemcpyDefault;
	return he_copy3d(&b, stream, sync);
}

HE_EXPORT hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D *pCopy)
{
	HE_ENTER("hipDrvMemcpy3D");
	return he_ret(drv3d(pCopy, NULL, true));
}

HE_EXPORT hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D *pCopy,
					 hipStream_t stream)
{
	HE_ENTER("hipDrvMemcpy3DAsync");
	return he_ret(drv3d(pCopy, stream, false));
}
