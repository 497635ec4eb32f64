/*
 * pool_streamwork_more.h - the copies among pool_streamwork.c's writers:
 * each writes the block p from a buffer of 0xaa bytes (a device buffer,
 * an array) on stream s.
 */
static unsigned char *pw_src; /* SZ bytes of 0xaa, device 0 */
static hipArray *pw_arr;      /* 256 x 256 bytes of 0xaa */

static hipError_t w_peer(void *p, hipStream_t s)
{
	return hipMemcpyPeerAsync(p, 0, pw_src, 0, SZ, s);
}

static hipError_t w_tosym(void *p, hipStream_t s)
{
	return hipMemcpyToSymbolAsync(p, pw_src, SZ, 0,
				      hipMemcpyDeviceToDevice, s);
}

static hipError_t w_fromsym(void *p, hipStream_t s)
{
	return hipMemcpyFromSymbolAsync(p, pw_src, SZ, 0,
					hipMemcpyDeviceToDevice, s);
}

static hipError_t w_c3d(void *p, hipStream_t s)
{
	struct hipMemcpy3DParms m;

	memset(&m, 0, sizeof(m));
	m.srcPtr = make_hipPitchedPtr(pw_src, 256, 256, 16);
	m.dstPtr = make_hipPitchedPtr(p, 256, 256, 16);
	m.extent = make_hipExtent(256, 16, 16);
	m.kind = hipMemcpyDeviceToDevice;
	return hipMemcpy3DAsync(&m, s);
}

static hipError_t w_param2d(void *p, hipStream_t s)
{
	hip_Memcpy2D c;

	memset(&c, 0, sizeof(c));
	c.srcMemoryType = c.dstMemoryType = hipMemoryTypeDevice;
	c.srcDevice = pw_src;
	c.dstDevice = p;
	c.srcPitch = c.dstPitch = c.WidthInBytes = 256;
	c.Height = SZ / 256;
	return hipMemcpyParam2DAsync(&c, s);
}

static hipError_t w_drv3d(void *p, hipStream_t s)
{
	HIP_MEMCPY3D c;

	memset(&c, 0, sizeof(c));
	c.srcMemoryType = c.dstMemoryType = hipMemoryTypeDevice;
	c.srcDevice = pw_src;
	c.dstDevice = p;
	c.srcPitch = c.dstPitch = c.WidthInBytes = 256;
	c.srcHeight = c.dstHeight = c.Height = 16;
	c.Depth = 16;
	return hipDrvMemcpy3DAsync(&c, s);
}

static hipError_t w_fromarray(void *p, hipStream_t s)
{
	return hipMemcpy2DFromArrayAsync(p, 256, pw_arr, 0, 0, 256, 256,
					 hipMemcpyDeviceToDevice, s);
}

static hipError_t w_write32(void *p, hipStream_t s)
{
	return hipStreamWriteValue32(s, (char *)p + SZ - 4, 0xaaaaaaaau, 0);
}

#define PW_MORE_WRITERS                                 \
	{ "hipStreamWriteValue32", w_write32 },         \
	{ "hipMemcpyPeerAsync", w_peer },               \
	{ "hipMemcpyToSymbolAsync", w_tosym },          \
	{ "hipMemcpyFromSymbolAsync", w_fromsym },      \
	{ "hipMemcpy3DAsync", w_c3d },                   \
	{ "hipMemcpyParam2DAsync", w_param2d },         \
	{ "hipDrvMemcpy3DAsync", w_drv3d },             \
	{ "hipMemcpy2DFromArrayAsync", w_fromarray },

static void pw_more_setup(void)
{
	hipChannelFormatDesc d = { 8, 0, 0, 0, hipChannelFormatKindUnsigned };

	PT_OK(hipMalloc((void **)&pw_src, SZ));
	PT_OK(hipMemset(pw_src, 0xaa, SZ));
	PT_OK(hipMallocArray(&pw_arr, &d, 256, 256, 0));
	PT_OK(hipMemcpy2DToArray(pw_arr, 0, 0, pw_src, 256, 256, 256,
				 hipMemcpyDeviceToDevice));
}
