/*
 * pool_edges.c - edge checks of the memory API, one line per check, for
 * t_edges.sh to run with and without the pool policy and compare line by
 * line: the pool must answer each as the runtime does for a hipMalloc of
 * the block's size.
 *
 * A line is "name: ret=<error name> [key=value ...]".  Values never
 * contain addresses (they differ between runs): pointers are printed as
 * null, an offset from the allocation asked about, or a comparison.
 */
#include "pool_common.h"

int pt_failed;
hipFunction_t pt_f_sum, pt_f_nop;

static const char *en(hipError_t e)
{
	return hipGetErrorName(e);
}

#define LINE(name, err, ...)                           \
	do {                                           \
		printf("%-22s ret=%s", name, en(err)); \
		printf(" " __VA_ARGS__);               \
		putchar('\n');                         \
	} while (0)

/* A pointer as seen from base: null, +offset or "other". */
static const char *rel(const void *p, const void *base, char *buf)
{
	if (!p)
		return "null";
	if ((uintptr_t)p >= (uintptr_t)base &&
	    (uintptr_t)p - (uintptr_t)base < ((size_t)1 << 32)) {
		sprintf(buf, "+%zu", (size_t)((uintptr_t)p - (uintptr_t)base));
		return buf;
	}
	return "other";
}

static void *dev(size_t n)
{
	void *p = NULL;

	PT_OK(hipMalloc(&p, n));
	return p;
}

static void allocs(void)
{
	void *p = (void *)1;
	size_t pitch = 7;
	hipError_t e;

	e = hipMalloc(NULL, 64);
	LINE("malloc_null_out", e, "");
	e = hipMalloc(&p, 0);
	LINE("malloc_zero", e, "p=%s", p ? "set" : "null");
	e = hipMalloc(NULL, 0);
	LINE("malloc_null_zero", e, "");
	p = (void *)1;
	e = hipMalloc(&p, SIZE_MAX);
	LINE("malloc_size_max", e, "p=%s", p ? "set" : "null");
	p = (void *)1;
	e = hipMalloc(&p, (size_t)1 << 50);
	LINE("malloc_too_big", e, "p=%s", p ? "set" : "null");
	e = hipMalloc(&p, 1000);
	LINE("malloc_align", e, "aligned256=%d", (uintptr_t)p % 256 == 0);
	hipFree(p);

	p = (void *)1;
	e = hipMallocManaged(&p, 0, hipMemAttachGlobal);
	LINE("managed_zero", e, "");
	e = hipMallocManaged(NULL, 64, hipMemAttachGlobal);
	LINE("managed_null_out", e, "");
	e = hipMallocManaged(&p, 64, 0);
	LINE("managed_bad_flags", e, "");
	e = hipMallocManaged(&p, 64, hipMemAttachHost);
	LINE("managed_attach_host", e, "");
	if (!e)
		hipFree(p);

	p = (void *)1;
	e = hipExtMallocWithFlags(&p, 0, hipDeviceMallocDefault);
	LINE("ext_zero", e, "p=%s", p ? "set" : "null");
	e = hipExtMallocWithFlags(NULL, 64, hipDeviceMallocDefault);
	LINE("ext_null_out", e, "");
	e = hipExtMallocWithFlags(&p, 64, hipDeviceMallocFinegrained);
	LINE("ext_finegrained", e, "");
	if (!e)
		hipFree(p);
	e = hipExtMallocWithFlags(&p, 64, 0x4000);
	LINE("ext_bad_flags", e, "");

	e = hipMallocPitch(NULL, &pitch, 10, 10);
	LINE("pitch_null_ptr", e, "");
	e = hipMallocPitch(&p, NULL, 10, 10);
	LINE("pitch_null_pitch", e, "");
	p = (void *)1;
	pitch = 7;
	e = hipMallocPitch(&p, &pitch, 0, 10);
	LINE("pitch_zero_width", e, "p=%s pitch=%zu", p ? "set" : "null",
	     pitch);
	e = hipMallocPitch(&p, &pitch, 100, 3);
	LINE("pitch_100x3", e, "pitch=%zu", pitch);
	if (!e)
		hipFree(p);
}

static void frees(void)
{
	hipStream_t s;
	char *p = dev(4096), *q;
	int local;
	hipError_t e;

	e = hipFree(NULL);
	LINE("free_null", e, "");
	e = hipFree(p + 256);
	LINE("free_interior", e, "");
	e = hipFree(p);
	LINE("free_ok", e, "");
	e = hipFree(p);
	LINE("free_double", e, "");
	e = hipFree(&local);
	LINE("free_foreign", e, "");
	q = dev(4096);
	e = hipHostFree(q);
	LINE("hostfree_device_ptr", e, "");
	hipFree(q);

	PT_OK(hipStreamCreate(&s));
	p = dev(4096);
	e = hipFreeAsync(p, s);
	LINE("freeasync_ok", e, "");
	PT_OK(hipStreamSynchronize(s));
	e = hipFree(p);
	LINE("free_after_freeasync", e, "");
	p = dev(4096);
	e = hipFreeAsync(p + 512, s);
	LINE("freeasync_interior", e, "");
	e = hipStreamBeginCapture(s, hipStreamCaptureModeRelaxed);
	LINE("capture_begin", e, "");
	e = hipFreeAsync(p, s);
	LINE("freeasync_capturing", e, "");
	{
		hipGraph_t g = NULL;

		e = hipStreamEndCapture(s, &g);
		LINE("capture_end", e, "graph=%d", g != NULL);
		if (g)
			hipGraphDestroy(g);
	}
	PT_OK(hipStreamDestroy(s));
	e = hipFreeAsync(p, s);
	LINE("freeasync_destroyed", e, "");
	e = hipFree(p);
	LINE("free_kept_after_that", e, "");
}

static void ranges(void)
{
	char b1[32], b2[32];
	const size_t n = 3000;
	char *p = dev(n), *f = dev(n);
	hipDeviceptr_t base = NULL;
	size_t size = 0;
	hipError_t e;

	hipFree(f);
	e = hipMemGetAddressRange(&base, &size, p);
	LINE("range_base", e, "base=%s size=%zu", rel(base, p, b1), size);
	base = NULL;
	e = hipMemGetAddressRange(&base, &size, p + 100);
	LINE("range_interior", e, "base=%s size=%zu", rel(base, p, b1), size);
	size = 0;
	e = hipMemGetAddressRange(NULL, &size, p);
	LINE("range_null_base", e, "size=%zu", size);
	base = NULL;
	e = hipMemGetAddressRange(&base, NULL, p);
	LINE("range_null_size", e, "base=%s", rel(base, p, b1));
	e = hipMemGetAddressRange(&base, &size, p + n);
	LINE("range_past_end", e, "");
	e = hipMemGetAddressRange(&base, &size, p + n - 1);
	LINE("range_last_byte", e, "base=%s size=%zu", rel(base, p, b1), size);
	e = hipMemGetAddressRange(&base, &size, f);
	LINE("range_freed", e, "");
	e = hipMemGetAddressRange(&base, &size, b2);
	LINE("range_foreign", e, "");
	hipFree(p);
}

static void attributes(void)
{
	char b1[32], b2[32];
	const size_t n = 5000;
	char *p = dev(n), *f = dev(n), *m = NULL;
	hipPointerAttribute_t a;
	hipError_t e;

	hipFree(f);
	PT_OK(hipMallocManaged((void **)&m, n, hipMemAttachGlobal));
	memset(&a, 0, sizeof(a));
	e = hipPointerGetAttributes(&a, p + 64);
	LINE("attrs_interior", e, "type=%d dev=%s host=%s managed=%d",
	     a.memoryType, rel(a.devicePointer, p, b1),
	     rel(a.hostPointer, p, b2), a.isManaged);
	memset(&a, 0, sizeof(a));
	e = hipPointerGetAttributes(&a, m);
	LINE("attrs_managed", e, "type=%d dev=%s host=%s managed=%d",
	     a.memoryType, rel(a.devicePointer, m, b1),
	     rel(a.hostPointer, m, b2), a.isManaged);
	e = hipPointerGetAttributes(&a, f);
	LINE("attrs_freed", e, "");
	e = hipPointerGetAttributes(NULL, p);
	LINE("attrs_null_out", e, "");
	e = hipPointerGetAttributes(&a, p + n);
	LINE("attrs_past_end", e, "");

	{
		void *v = NULL;
		uint32_t u = 0;
		int i = 0;
		bool bo = 0;

		e = hipPointerGetAttribute(
		    &v, HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR, p + 100);
		LINE("attr_range_start", e, "v=%s", rel(v, p, b1));
		e = hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_RANGE_SIZE,
					   p + 100);
		LINE("attr_range_size", e, "v=%u", u);
		v = NULL;
		e = hipPointerGetAttribute(
		    &v, HIP_POINTER_ATTRIBUTE_DEVICE_POINTER, p + 100);
		LINE("attr_device_ptr", e, "v=%s", rel(v, p, b1));
		e = hipPointerGetAttribute(
		    &u, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, p);
		LINE("attr_memory_type", e, "v=%u", u);
		e = hipPointerGetAttribute(
		    &bo, HIP_POINTER_ATTRIBUTE_IS_MANAGED, m + 8);
		LINE("attr_is_managed", e, "v=%d", bo);
		e = hipPointerGetAttribute(
		    &i, HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL, p);
		LINE("attr_ordinal", e, "v=%d", i);
		v = NULL;
		e = hipPointerGetAttribute(
		    &v, HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR, m + 100);
		LINE("attr_range_start_mgd", e, "v=%s", rel(v, m, b1));
		u = 7;
		e = hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_RANGE_SIZE,
					   f);
		LINE("attr_range_size_freed", e, "v=%u", u);
		e = hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_RANGE_SIZE,
					   p + n);
		LINE("attr_range_past_end", e, "v=%u", u);
		e = hipPointerGetAttribute(NULL,
					   HIP_POINTER_ATTRIBUTE_RANGE_SIZE, p);
		LINE("attr_null_data", e, "");
		e = hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_RANGE_SIZE,
					   NULL);
		LINE("attr_null_ptr", e, "");
	}
	{
		hipPointer_attribute at[3] = {
		    HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR,
		    HIP_POINTER_ATTRIBUTE_RANGE_SIZE,
		    HIP_POINTER_ATTRIBUTE_MEMORY_TYPE,
		};
		void *v = NULL;
		uint32_t sz = 0, ty = 0;
		void *d[3] = {&v, &sz, &ty};

		e = hipDrvPointerGetAttributes(3, at, d, p + 300);
		LINE("drv_attrs", e, "start=%s size=%u type=%u", rel(v, p, b1),
		     sz, ty);
		sz = 9;
		e = hipDrvPointerGetAttributes(3, at, d, f);
		LINE("drv_attrs_freed", e, "start=%s size=%u", rel(v, f, b1),
		     sz);
		e = hipDrvPointerGetAttributes(0, at, d, p);
		LINE("drv_attrs_none", e, "");
	}
	{
		size_t sz = 0;

		e = hipMemPtrGetInfo(p, &sz);
		LINE("ptrinfo_base", e, "size=%zu", sz);
		sz = 0;
		e = hipMemPtrGetInfo(p + 4000, &sz);
		LINE("ptrinfo_interior", e, "size=%zu", sz);
		e = hipMemPtrGetInfo(f, &sz);
		LINE("ptrinfo_freed", e, "");
		e = hipMemPtrGetInfo(p + n, &sz);
		LINE("ptrinfo_past_end", e, "");
		e = hipMemPtrGetInfo(p, NULL);
		LINE("ptrinfo_null_size", e, "");
	}
	{
		int v = 5, w = 5;
		void *d[2] = {&v, &w};
		size_t ds[2] = {sizeof(v), sizeof(w)};
		hipMemRangeAttribute ra[2] = {
		    hipMemRangeAttributeReadMostly,
		    hipMemRangeAttributePreferredLocation,
		};

		e = hipMemRangeGetAttribute(
		    &v, sizeof(v), hipMemRangeAttributeReadMostly, m, n);
		LINE("rangeattr_managed", e, "v=%d", v);
		e = hipMemRangeGetAttribute(
		    &v, sizeof(v), hipMemRangeAttributeReadMostly, m, n + 256);
		LINE("rangeattr_beyond", e, "");
		e = hipMemRangeGetAttribute(
		    &v, sizeof(v), hipMemRangeAttributeReadMostly, p, n);
		LINE("rangeattr_device", e, "");
		e = hipMemRangeGetAttributes(d, ds, ra, 2, m + 256, n - 256);
		LINE("rangeattrs_managed", e, "v=%d w=%d", v, w);
		e = hipMemRangeGetAttributes(d, ds, ra, 2, m, 2 * n);
		LINE("rangeattrs_beyond", e, "");
		e = hipMemAdvise(m, n, hipMemAdviseSetReadMostly, 0);
		LINE("advise_managed", e, "");
		e = hipMemAdvise(m, n + 4096, hipMemAdviseSetReadMostly, 0);
		LINE("advise_beyond", e, "");
		e = hipMemPrefetchAsync(m, n + 4096, 0, NULL);
		LINE("prefetch_beyond", e, "");
		hipDeviceSynchronize();
	}
	hipFree(m);
	hipFree(p);
}

static void meminfo(void)
{
	size_t f0 = 0, f1 = 0, f2 = 0, t = 0, t2 = 0;
	void *p;
	hipError_t e;

	/* a warm pool: the first chunk is not what is measured */
	hipFree(dev(1 << 20));
	hipDeviceSynchronize();
	PT_OK(hipMemGetInfo(&f0, &t));
	p = dev(3 << 20);
	PT_OK(hipMemGetInfo(&f1, &t));
	hipFree(p);
	hipDeviceSynchronize();
	PT_OK(hipMemGetInfo(&f2, &t));
	LINE("meminfo_3MiB", hipSuccess, "drop=%zu back=%zu", f0 - f1, f2 - f1);
	PT_OK(hipMemGetInfo(&f0, &t));
	p = dev(1000);
	PT_OK(hipMemGetInfo(&f1, &t));
	hipFree(p);
	LINE("meminfo_1000B", hipSuccess, "drop=%zu", f0 - f1);
	PT_OK(hipMemGetInfo(&f0, &t));
	PT_OK(hipMallocManaged(&p, 1 << 20, hipMemAttachGlobal));
	PT_OK(hipMemGetInfo(&f1, &t));
	hipFree(p);
	LINE("meminfo_managed_1MiB", hipSuccess, "drop=%zu", f0 - f1);
	e = hipMemGetInfo(NULL, &t2);
	LINE("meminfo_null_free", e, "total_same=%d", t2 == t);
	e = hipMemGetInfo(&f0, NULL);
	LINE("meminfo_null_total", e, "");
	e = hipMemGetInfo(NULL, NULL);
	LINE("meminfo_null_both", e, "");
}

static void ipc(void)
{
	hipIpcMemHandle_t h;
	char *p = dev(1 << 16);
	hipError_t e;

	e = hipIpcGetMemHandle(&h, p);
	LINE("ipc_base", e, "");
	e = hipIpcGetMemHandle(&h, p + 256);
	LINE("ipc_interior", e, "");
	e = hipIpcGetMemHandle(NULL, p);
	LINE("ipc_null_handle", e, "");
	hipFree(p);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	allocs();
	frees();
	ranges();
	attributes();
	meminfo();
	ipc();
	(void)hipGetLastError();
	return pt_failed;
}
