/*
 * face.c - what the core hands its CUDA face (he_face.h): the HIP entry
 * points by index, call counting under the CUDA names, the kernel
 * registry, device properties and pointer lookups.
 *
 * The table's addresses are this library's own functions: the core is
 * linked with -Bsymbolic-functions (mk/hipemu.mk), so taking the address
 * of an exported entry point does not go through the GOT, where a
 * preloaded library exporting the same name (lbshim) would answer.
 */
#include "he.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void *const he_face_fns[HE_FACE_NFN] = {
#define HE_FACE_ADDR(N, P) [HE_FACE_##N] = (void *)N,
	HE_FACE_HIP(HE_FACE_ADDR)
#undef HE_FACE_ADDR
};

static int face_enter(struct he_api *api)
{
	return (int)he_enter(api);
}

static void *face_kernel_stub(const void *stub, const char *name,
			      const unsigned *sizes, const unsigned *offs,
			      int n)
{
	struct he_kernel *k = he_kernel_add_stub(stub, name, NULL);

	if (k && n >= 0)
		he_kernel_layout(k, sizes, offs, (unsigned)n);
	return k;
}

static void *face_kernel_of_stub(const void *stub)
{
	return he_kernel_by_stub(stub);
}

static void *face_kernel_named(const char *name, const unsigned *sizes,
			       const unsigned *offs, int n)
{
	struct he_kernel *k = he_kernel_named(name, NULL);

	if (k && n >= 0)
		he_kernel_layout(k, sizes, offs, (unsigned)n);
	return k;
}

/* A handle that is no kernel record is answered as one without a twin,
 * a name or a layout (a pointer that cannot be read still faults, as in
 * the launches). */
static bool kernel_ok(const void *k)
{
	return k && ((const struct he_kernel *)k)->magic == HE_KERNEL_MAGIC;
}

static int face_kernel_twin(void *k)
{
	hipemu_twin_fn fn;
	const unsigned *sizes;

	return kernel_ok(k) && he_kernel_twin(k, &fn, &sizes);
}

static const char *face_kernel_name(void *k)
{
	return kernel_ok(k) ? ((struct he_kernel *)k)->name : NULL;
}

static int face_kernel_param(void *k, unsigned i, unsigned *off,
			     unsigned *size)
{
	return kernel_ok(k) && he_kernel_param(k, i, off, size);
}

static int face_props(int dev, struct hipemu_face_props *p)
{
	hipDeviceProp_t h;

	if (!he_dev_valid(dev))
		return -1;
	he_dev_props(&h, dev);
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", h.name);
	p->total_mem = h.totalGlobalMem;
	p->shared_per_block = h.sharedMemPerBlock;
	p->const_mem = h.totalConstMem;
	p->pitch_align = h.texturePitchAlignment;
	p->major = h.major;
	p->minor = h.minor;
	p->multiprocessors = h.multiProcessorCount;
	p->warp_size = h.warpSize;
	p->max_threads_per_block = h.maxThreadsPerBlock;
	for (int i = 0; i < 3; i++) {
		p->max_threads_dim[i] = h.maxThreadsDim[i];
		p->max_grid[i] = h.maxGridSize[i];
	}
	p->regs_per_block = h.regsPerBlock;
	p->clock_khz = h.clockRate;
	p->mem_clock_khz = h.memoryClockRate;
	p->mem_bus_width = h.memoryBusWidth;
	p->l2_cache = h.l2CacheSize;
	p->max_threads_per_mp = h.maxThreadsPerMultiProcessor;
	p->pci_bus = h.pciBusID;
	p->pci_device = h.pciDeviceID;
	p->pci_domain = h.pciDomainID;
	return 0;
}

static int face_pointer(const void *ptr, int *kind, int *dev, void **base,
			size_t *size)
{
	enum he_mem_kind k;
	char *b;

	if (he_mem_find(ptr, 1, &b, size, &k, dev, NULL))
		return -1;
	*kind = k == HE_MEM_DEVICE ? HE_FACE_MEM_DEVICE :
		k == HE_MEM_MANAGED ? HE_FACE_MEM_MANAGED : HE_FACE_MEM_HOST;
	*base = b;
	return 0;
}

static void face_warn(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	he_warn("%s", buf);
}

static const struct hipemu_face_ops he_face_ops = {
	.version = HE_FACE_VERSION,
	.nfn = HE_FACE_NFN,
	.hip = he_face_fns,
	.enter = face_enter,
	.face = he_face_mode,
	.kernel_stub = face_kernel_stub,
	.kernel_of_stub = face_kernel_of_stub,
	.kernel_named = face_kernel_named,
	.kernel_twin = face_kernel_twin,
	.kernel_name = face_kernel_name,
	.kernel_param = face_kernel_param,
	.props = face_props,
	.pointer = face_pointer,
	.warn = face_warn,
};

HE_EXPORT const struct hipemu_face_ops *hipemu_face(void)
{
	he_init();
	return &he_face_ops;
}
