/*
 * pool_test_starve.c - allocations the pool does not serve, on a device
 * whose memory the pool holds in free chunks: pool_test starve KIND.
 *
 * 48 MiB are allocated with hipMalloc in 1 MiB blocks and freed, so that
 * under the pool they stay in its chunks; then one allocation of KIND
 * asks for 32 MiB, which a 64 MiB device (HIPEMU_MEM_SIZE=64M) has only
 * if the pool gives its chunks back.  Prints "starve KIND: <error>" and
 * exits 0 when the allocation succeeded.
 */
#include "pool_common.h"

#define ST_MIB ((size_t)1 << 20)

static hipError_t st_alloc(const char *kind, size_t n, void (**undo)(void *),
			   void **h);

static void st_free(void *p)
{
	hipFree(p);
}

static void st_hostfree(void *p)
{
	hipHostFree(p);
}

static void st_freehost(void *p)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	hipFreeHost(p);
#pragma GCC diagnostic pop
}

static void st_freearray(void *p)
{
	hipFreeArray(p);
}

static void st_release(void *p)
{
	hipMemRelease(p);
}

static hipError_t st_alloc(const char *kind, size_t n, void (**undo)(void *),
			   void **h)
{
	*undo = st_free;
	if (!strcmp(kind, "fine"))
		return hipExtMallocWithFlags(h, n, hipDeviceMallocFinegrained);
	if (!strcmp(kind, "managed-host"))
		return hipMallocManaged(h, n, hipMemAttachHost);
	if (!strcmp(kind, "async"))
		return hipMallocAsync(h, n, NULL);
	if (!strcmp(kind, "frompool")) {
		hipMemPool_t mp;
		hipError_t e = hipDeviceGetDefaultMemPool(&mp, 0);

		return e ? e : hipMallocFromPoolAsync(h, n, mp, NULL);
	}
	if (!strcmp(kind, "host")) {
		*undo = st_hostfree;
		return hipHostMalloc(h, n, 0);
	}
	/* the deprecated aliases: programs still call them */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	if (!strcmp(kind, "hostalloc")) {
		*undo = st_hostfree;
		return hipHostAlloc(h, n, 0);
	}
	if (!strcmp(kind, "mallochost")) {
		*undo = st_freehost;	/* its deprecated pair */
		return hipMallocHost(h, n);
	}
	if (!strcmp(kind, "memallochost")) {
		*undo = st_hostfree;
		return hipMemAllocHost(h, n);
	}
#pragma GCC diagnostic pop
	if (!strcmp(kind, "3d")) {
		hipPitchedPtr pp;
		hipError_t e = hipMalloc3D(&pp, make_hipExtent(1024, n / 4096,
								 4));

		*h = pp.ptr;
		return e;
	}
	if (!strcmp(kind, "3darray")) {
		hipChannelFormatDesc d = {32, 0, 0, 0,
					  hipChannelFormatKindFloat};

		*undo = st_freearray;
		return hipMalloc3DArray((hipArray **)h, &d,
					make_hipExtent(1024, n / 4 / 1024 / 4,
						       4),
					0);
	}
	if (!strcmp(kind, "mempitch")) {
		size_t pitch;

		return hipMemAllocPitch((hipDeviceptr_t *)h, &pitch, n / 1024,
					1024, 4);
	}
	if (!strcmp(kind, "array")) {
		hipChannelFormatDesc d = {32, 32, 32, 32,
					  hipChannelFormatKindFloat};

		*undo = st_freearray;
		return hipMallocArray((hipArray **)h, &d, n / 16 / 1024, 1024,
				      0);
	}
	if (!strcmp(kind, "arraycreate")) {
		HIP_ARRAY_DESCRIPTOR d = {.Width = n / 4 / 1024,
					  .Height = 1024,
					  .Format = HIP_AD_FORMAT_FLOAT,
					  .NumChannels = 1};

		*undo = st_freearray;
		return hipArrayCreate((hipArray **)h, &d);
	}
	if (!strcmp(kind, "array3d")) {
		HIP_ARRAY3D_DESCRIPTOR d = {.Width = n / 4 / 1024 / 4,
					    .Height = 1024,
					    .Depth = 4,
					    .Format = HIP_AD_FORMAT_FLOAT,
					    .NumChannels = 1};

		*undo = st_freearray;
		return hipArray3DCreate((hipArray **)h, &d);
	}
	if (!strcmp(kind, "memcreate")) {
		hipMemAllocationProp pr;

		memset(&pr, 0, sizeof(pr));
		pr.type = hipMemAllocationTypePinned;
		pr.location.type = hipMemLocationTypeDevice;
		pr.location.id = 0;
		*undo = st_release;
		return hipMemCreate((hipMemGenericAllocationHandle_t *)h, n,
				    &pr, 0);
	}
	if (!strcmp(kind, "huge")) /* more than the device has */
		return hipExtMallocWithFlags(h, 4 * n,
					     hipDeviceMallocFinegrained);
	fprintf(stderr, "starve: unknown kind %s\n", kind);
	exit(2);
}

int pt_starve(const char *kind)
{
	void *b[48], *h = NULL;
	void (*undo)(void *);
	hipError_t e;
	int i;

	for (i = 0; i < 48; i++)
		PT_OK(hipMalloc(&b[i], ST_MIB));
	for (i = 0; i < 48; i++)
		PT_OK(hipFree(b[i]));
	e = st_alloc(kind, 32 * ST_MIB, &undo, &h);
	printf("starve %s: %s\n", kind, hipGetErrorName(e));
	if (e != hipSuccess)
		return 1;
	PT_OK(hipDeviceSynchronize());
	undo(h);
	/* the pool serves again afterwards */
	PT_OK(hipMalloc(&b[0], ST_MIB));
	PT_OK(hipFree(b[0]));
	return pt_failed;
}
