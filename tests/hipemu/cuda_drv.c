/*
 * cuda_drv.c - the CUDA driver API's initialisation, devices, contexts,
 * modules, launches, errors and entry-point lookup on hipemu's device
 * (libcuda.so.1 of the CUDA face).  Memory, streams and events are
 * cuda_drv_mem.c's.
 *
 * Names and ABI versions are cuda.h's (CUDA 13.0): a function is exported
 * under the symbol its current ABI has (cuMemAlloc is cuMemAlloc_v2,
 * cuCtxCreate cuCtxCreate_v4: the #defines at the top of cuda.h), plus the
 * per-thread forms __CUDA_API_PTDS/__CUDA_API_PTSZ make of them, and a few
 * older ABIs headers before 13.0 compiled to.  The driver has no last
 * error.  Before cuInit every call but the version, the error strings and
 * the entry-point lookup is CUDA_ERROR_NOT_INITIALIZED (cuda.h, cuInit:
 * "must be called before any other function from the driver API").
 *
 * Contexts: a primary context per device and those cuCtxCreate makes,
 * each naming a device; making one current selects its device (hipemu's
 * current device is the runtime's too).  Calls do not require a current
 * context.
 */
#include "cuda_face.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CF_CTX_MAGIC 0x78744348u	/* "HCtx" */
#define CF_MOD_MAGIC 0x644d4348u	/* "HCMd" */
#define CF_MAX_DEVICES 16

struct CUctx_st {
	unsigned magic;
	int dev;
	bool primary;
};

struct CUmod_st {
	unsigned magic;
	struct cf_layouts layouts;
};

static atomic_int cf_inited;
static struct CUctx_st cf_primary[CF_MAX_DEVICES];
#define CF_CTX_DEPTH 8
static __thread CUcontext cf_ctxstack[CF_CTX_DEPTH];
static __thread int cf_nctx;	/* [cf_nctx - 1] is current */

bool cf_drv_inited(void)
{
	return atomic_load(&cf_inited);
}

static bool dev_ok(CUdevice dev)
{
	int n = 0;

	(void)CF_HIP(hipGetDeviceCount, &n);
	return dev >= 0 && dev < n && dev < CF_MAX_DEVICES;
}

static bool ctx_ok(CUcontext ctx)
{
	return ctx && ctx->magic == CF_CTX_MAGIC;
}

/* ---- initialisation, versions, errors ---- */

CF_EXPORT CUresult cuInit(unsigned int Flags)
{
	CF_DRV_ENTER("cuInit");
	if (Flags)
		return CUDA_ERROR_INVALID_VALUE;
	atomic_store(&cf_inited, 1);
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuDriverGetVersion(int *driverVersion)
{
	CF_DRV_ENTER("cuDriverGetVersion");
	if (!driverVersion)
		return CUDA_ERROR_INVALID_VALUE;
	*driverVersion = CUDA_VERSION;
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuGetErrorString(CUresult error, const char **pStr)
{
	CF_DRV_ENTER("cuGetErrorString");
	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = cf_drv_err_string(error);
	return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CF_EXPORT CUresult cuGetErrorName(CUresult error, const char **pStr)
{
	CF_DRV_ENTER("cuGetErrorName");
	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = cf_drv_err_name(error);
	return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/*
 * cudart's private tables, which only NVIDIA's driver has (the reason a
 * static cudart cannot run on the face: README).
 */
CF_EXPORT CUresult cuGetExportTable(const void **ppExportTable,
				    const CUuuid *pExportTableId)
{
	CF_DRV_ENTER("cuGetExportTable");
	(void)pExportTableId;
	if (ppExportTable)
		*ppExportTable = NULL;
	return CUDA_ERROR_NOT_SUPPORTED;
}

/* ---- devices ---- */

CF_EXPORT CUresult cuDeviceGetCount(int *count)
{
	CF_DRV_ENTER("cuDeviceGetCount");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipGetDeviceCount, count));
}

CF_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	CF_DRV_ENTER("cuDeviceGet");
	CF_DRV_INIT();
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	if (!dev_ok(ordinal))
		return CUDA_ERROR_INVALID_DEVICE;
	*device = ordinal;
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	struct hipemu_face_props p;

	CF_DRV_ENTER("cuDeviceGetName");
	CF_DRV_INIT();
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (cf_ops()->props(dev, &p))
		return CUDA_ERROR_INVALID_DEVICE;
	snprintf(name, (size_t)len, "%s", p.name);
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	struct hipemu_face_props p;

	CF_DRV_ENTER("cuDeviceTotalMem_v2");
	CF_DRV_INIT();
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	if (cf_ops()->props(dev, &p))
		return CUDA_ERROR_INVALID_DEVICE;
	*bytes = p.total_mem;
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib,
					CUdevice dev)
{
	CF_DRV_ENTER("cuDeviceGetAttribute");
	CF_DRV_INIT();
	return cf_drv(cf_dev_attr((int)attrib, dev, pi));
}

/* ---- contexts ---- */

static CUcontext ctx_current(void)
{
	return cf_nctx ? cf_ctxstack[cf_nctx - 1] : NULL;
}

/* Makes ctx (may be NULL) the current one, replacing the top. */
static CUresult ctx_set(CUcontext ctx)
{
	if (ctx && !ctx_ok(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (ctx && CF_HIP(hipSetDevice, ctx->dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!cf_nctx)
		cf_nctx = 1;
	cf_ctxstack[cf_nctx - 1] = ctx;
	if (!ctx)
		cf_nctx--;
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	CF_DRV_ENTER("cuDevicePrimaryCtxRetain");
	CF_DRV_INIT();
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	cf_primary[dev] = (struct CUctx_st){ CF_CTX_MAGIC, dev, true };
	*pctx = &cf_primary[dev];
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	CF_DRV_ENTER("cuDevicePrimaryCtxRelease_v2");
	CF_DRV_INIT();
	return dev_ok(dev) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

static CUresult ctx_create(CUcontext *pctx, CUdevice dev)
{
	CUcontext c;

	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	c = calloc(1, sizeof(*c));
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*c = (struct CUctx_st){ CF_CTX_MAGIC, dev, false };
	/* cuCtxCreate pushes the new context onto the thread's stack */
	if (cf_nctx == CF_CTX_DEPTH) {
		free(c);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	cf_ctxstack[cf_nctx++] = c;
	(void)CF_HIP(hipSetDevice, dev);
	*pctx = c;
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuCtxCreate_v4(CUcontext *pctx,
				  CUctxCreateParams *ctxCreateParams,
				  unsigned int flags, CUdevice dev)
{
	CF_DRV_ENTER("cuCtxCreate_v4");
	CF_DRV_INIT();
	(void)ctxCreateParams;
	(void)flags;
	return ctx_create(pctx, dev);
}

/* The ABI cuda.h before 12.5 compiled cuCtxCreate to. */
CF_EXPORT CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags,
				  CUdevice dev)
{
	CF_DRV_ENTER("cuCtxCreate_v2");
	CF_DRV_INIT();
	(void)flags;
	return ctx_create(pctx, dev);
}

CF_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx)
{
	CF_DRV_ENTER("cuCtxDestroy_v2");
	CF_DRV_INIT();
	if (!ctx_ok(ctx) || ctx->primary)
		return CUDA_ERROR_INVALID_CONTEXT;
	for (int i = 0; i < cf_nctx; i++)
		if (cf_ctxstack[i] == ctx)
			cf_ctxstack[i] = NULL;
	while (cf_nctx && !cf_ctxstack[cf_nctx - 1])
		cf_nctx--;
	ctx->magic = 0;
	free(ctx);
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx)
{
	CF_DRV_ENTER("cuCtxSetCurrent");
	CF_DRV_INIT();
	return ctx_set(ctx);
}

CF_EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx)
{
	CF_DRV_ENTER("cuCtxGetCurrent");
	CF_DRV_INIT();
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	*pctx = ctx_current();
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
	CF_DRV_ENTER("cuCtxPushCurrent_v2");
	CF_DRV_INIT();
	if (!ctx_ok(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (cf_nctx == CF_CTX_DEPTH)
		return CUDA_ERROR_OUT_OF_MEMORY;
	cf_ctxstack[cf_nctx++] = ctx;
	return cf_drv(CF_HIP(hipSetDevice, ctx->dev));
}

CF_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
	CUcontext c;

	CF_DRV_ENTER("cuCtxPopCurrent_v2");
	CF_DRV_INIT();
	if (!cf_nctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	c = cf_ctxstack[--cf_nctx];
	if (pctx)
		*pctx = c;
	c = ctx_current();
	if (ctx_ok(c))
		(void)CF_HIP(hipSetDevice, c->dev);
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuCtxGetDevice(CUdevice *device)
{
	CUcontext c = ctx_current();

	CF_DRV_ENTER("cuCtxGetDevice");
	CF_DRV_INIT();
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	if (!ctx_ok(c))
		return CUDA_ERROR_INVALID_CONTEXT;
	*device = c->dev;
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuCtxSynchronize(void)
{
	CF_DRV_ENTER("cuCtxSynchronize");
	CF_DRV_INIT();
	return cf_drv(CF_HIP(hipDeviceSynchronize));
}

/* ---- modules ---- */

/* image: a cubin or fat binary in memory (size 0: unknown), or NULL. */
static CUresult module_new(CUmodule *module, const void *image, size_t size)
{
	CUmodule m;

	if (!module || !image)
		return CUDA_ERROR_INVALID_VALUE;
	m = calloc(1, sizeof(*m));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	m->magic = CF_MOD_MAGIC;
	/* The code is the twins; only the parameter tables are read. */
	(void)cf_layouts_image(image, size, &m->layouts);
	*module = m;
	return CUDA_SUCCESS;
}

CF_EXPORT CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
	CUresult r;
	FILE *f;
	char *buf;
	long n;

	CF_DRV_ENTER("cuModuleLoad");
	CF_DRV_INIT();
	if (!module || !fname)
		return CUDA_ERROR_INVALID_VALUE;
	f = fopen(fname, "rb");
	if (!f)
		return CUDA_ERROR_FILE_NOT_FOUND;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return CUDA_ERROR_INVALID_IMAGE;
	}
	buf = malloc((size_t)n);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return buf ? CUDA_ERROR_INVALID_IMAGE :
			     CUDA_ERROR_OUT_OF_MEMORY;
	}
	fclose(f);
	r = module_new(module, buf, (size_t)n);
	free(buf);
	return r;
}

CF_EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
	CF_DRV_ENTER("cuModuleLoadData");
	CF_DRV_INIT();
	return module_new(module, image, 0);
}

CF_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
				      unsigned int numOptions,
				      CUjit_option *options,
				      void **optionValues)
{
	CF_DRV_ENTER("cuModuleLoadDataEx");
	CF_DRV_INIT();
	(void)numOptions;
	(void)options;
	(void)optionValues;
	return module_new(module, image, 0);
}

CF_EXPORT CUresult cuModuleUnload(CUmodule hmod)
{
	CF_DRV_ENTER("cuModuleUnload");
	CF_DRV_INIT();
	if (!hmod || hmod->magic != CF_MOD_MAGIC)
		return CUDA_ERROR_INVALID_HANDLE;
	hmod->magic = 0;
	cf_layouts_free(&hmod->layouts);
	free(hmod);
	return CUDA_SUCCESS;
}

/* A function without a twin is not in the module (CUDA_ERROR_NOT_FOUND). */
CF_EXPORT CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
				       const char *name)
{
	const struct cf_layout *l;
	void *k;

	CF_DRV_ENTER("cuModuleGetFunction");
	CF_DRV_INIT();
	if (!hfunc || !name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!hmod || hmod->magic != CF_MOD_MAGIC)
		return CUDA_ERROR_INVALID_HANDLE;
	l = cf_layout_find(&hmod->layouts, name);
	k = cf_ops()->kernel_named(name, l ? l->sizes : NULL,
				   l ? l->offs : NULL, l ? l->n : -1);
	if (!k)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (!cf_ops()->kernel_twin(k))
		return CUDA_ERROR_NOT_FOUND;
	*hfunc = (CUfunction)k;
	return CUDA_SUCCESS;
}

/* From the cubin's parameter table (cuda_fatbin.c), CUDA 12.4 on. */
CF_EXPORT CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex,
				      size_t *paramOffset, size_t *paramSize)
{
	unsigned off, size;

	CF_DRV_ENTER("cuFuncGetParamInfo");
	CF_DRV_INIT();
	if (!func)
		return CUDA_ERROR_INVALID_HANDLE;
	if (paramIndex > UINT32_MAX ||
	    !cf_ops()->kernel_param(func, (unsigned)paramIndex, &off, &size))
		return CUDA_ERROR_INVALID_VALUE;
	if (paramOffset)
		*paramOffset = off;
	if (paramSize)
		*paramSize = size;
	return CUDA_SUCCESS;
}

/* ---- launches ---- */

/*
 * "extra" lists key/value pairs up to CU_LAUNCH_PARAM_END (0, cuda.h);
 * HIP's end marker is HIP_LAUNCH_PARAM_END, 3 (hip_runtime_api.h, ROCm
 * 5.2), its buffer keys CUDA's (1, 2).
 */
#define CF_HIP_PARAM_END ((void *)0x03)
#define CF_MAX_EXTRA 16

static CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
		       unsigned bx, unsigned by, unsigned bz, unsigned shmem,
		       CUstream stream, void **params, void **extra)
{
	void *hextra[CF_MAX_EXTRA + 1], **x = NULL;
	int err;

	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	if (extra) {
		int i;

		for (i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
			if (i + 2 > CF_MAX_EXTRA)
				return CUDA_ERROR_INVALID_VALUE;
			hextra[i] = extra[i];
			hextra[i + 1] = extra[i + 1];
		}
		hextra[i] = CF_HIP_PARAM_END;
		x = hextra;
	}
	err = CF_HIP(hipModuleLaunchKernel, f, gx, gy, gz, bx, by, bz, shmem,
		     stream, params, x);
	/* a function without code for the device: cudaGetFuncBySymbol's */
	if (err == cudaErrorInvalidDeviceFunction && !cf_ops()->kernel_twin(f))
		return CUDA_ERROR_NO_BINARY_FOR_GPU;
	return cf_drv(err);
}

CF_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
				  unsigned int gridDimY, unsigned int gridDimZ,
				  unsigned int blockDimX,
				  unsigned int blockDimY,
				  unsigned int blockDimZ,
				  unsigned int sharedMemBytes, CUstream hStream,
				  void **kernelParams, void **extra)
{
	CF_DRV_ENTER("cuLaunchKernel");
	CF_DRV_INIT();
	return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
		      blockDimZ, sharedMemBytes, hStream, kernelParams, extra);
}

CF_EXPORT CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX,
				       unsigned int gridDimY,
				       unsigned int gridDimZ,
				       unsigned int blockDimX,
				       unsigned int blockDimY,
				       unsigned int blockDimZ,
				       unsigned int sharedMemBytes,
				       CUstream hStream, void **kernelParams,
				       void **extra)
{
	CF_DRV_ENTER("cuLaunchKernel_ptsz");
	CF_DRV_INIT();
	return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
		      blockDimZ, sharedMemBytes, cf_ptsz(hStream),
		      kernelParams, extra);
}
