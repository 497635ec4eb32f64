/*
 * memory.c - device, managed and host allocations: host memory from mmap,
 * counted against HIPEMU_MEM_SIZE per device, poisoned and quarantined on
 * free so that a use after free reads HIPEMU_POISON_BYTE (on every page
 * that held data) instead of the next allocation's data.
 *
 * Every allocation is its own mapping: page aligned (so 256-byte aligned)
 * and, while quarantined, never handed out again (the kernel cannot reuse
 * an address that is still mapped).  Past the quarantine budget the oldest
 * freed mapping is unmapped, and a late access faults.
 */
#include "he.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct he_alloc {
	char *base;
	size_t size;	/* as asked, at least 1 */
	size_t map;	/* mapped length */
	size_t charge;	/* counted against the device */
	int dev;
	enum he_mem_kind kind;
	unsigned flags;
	bool freeing;	/* a hipFreeAsync is pending */
};

struct he_quar {
	struct he_quar *next;
	void *addr;
	size_t len;
};

static pthread_mutex_t he_mem_lock = PTHREAD_MUTEX_INITIALIZER;
static void *he_tree;
static size_t he_used[HE_MAX_DEVICES];
static unsigned long he_live_device;
static struct he_quar *he_q_head, *he_q_tail;
static size_t he_q_bytes;

/* Overlap is equality, so a one-byte key finds its containing range. */
static int cmp_range(const void *pa, const void *pb)
{
	const struct he_alloc *a = pa, *b = pb;

	if (a->base + a->size <= b->base)
		return -1;
	if (a->base >= b->base + b->size)
		return 1;
	return 0;
}

/* Under he_mem_lock. */
static struct he_alloc *find(const void *p, size_t len)
{
	struct he_alloc key = { .base = (char *)p, .size = len ? len : 1 };
	void *node = tfind(&key, &he_tree, cmp_range);
	struct he_alloc *a = node ? *(struct he_alloc **)node : NULL;

	if (a && ((char *)p < a->base ||
		  (char *)p + key.size > a->base + a->size))
		return NULL;
	return a;
}

static size_t round_up(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

hipError_t he_alloc(void **p, size_t size, int dev, enum he_mem_kind kind,
		    unsigned flags)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct he_alloc *a;
	void *m;

	if (!p)
		return hipErrorInvalidValue;
	*p = NULL;
	if (!size)
		return hipSuccess;
	if (size > ((size_t)1 << 52))
		return hipErrorOutOfMemory;
	a = calloc(1, sizeof(*a));
	if (!a)
		return hipErrorOutOfMemory;
	a->size = size;
	a->map = round_up(size, page);
	a->charge = kind == HE_MEM_HOST ? 0 : round_up(size, HE_ALIGN);
	a->dev = dev;
	a->kind = kind;
	a->flags = flags;

	pthread_mutex_lock(&he_mem_lock);
	if (he_used[dev] + a->charge > he_cfg.mem_size) {
		pthread_mutex_unlock(&he_mem_lock);
		free(a);
		return hipErrorOutOfMemory;
	}
	he_used[dev] += a->charge;
	pthread_mutex_unlock(&he_mem_lock);

	m = mmap(NULL, a->map, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	pthread_mutex_lock(&he_mem_lock);
	if (m == MAP_FAILED) {
		he_used[dev] -= a->charge;
		pthread_mutex_unlock(&he_mem_lock);
		free(a);
		return hipErrorOutOfMemory;
	}
	a->base = m;
	tsearch(a, &he_tree, cmp_range);
	if (kind != HE_MEM_HOST)
		he_live_device++;
	pthread_mutex_unlock(&he_mem_lock);
	*p = m;
	return hipSuccess;
}

/*
 * Poisons the pages of [base, base + len) that hold anything: those in
 * memory (mincore).  A page never touched has no data to read late (it
 * reads zero before the free and after), and writing poison there would
 * fault in and fill every page of every freed allocation: most of what a
 * test process spent in hipemu (a pool's chunks, a 3 MiB buffer of which
 * a test wrote 1 KiB).  Where mincore fails, every page is poisoned.  (A
 * page swapped out would keep its data: the test machines have no swap.)
 */
static void poison(char *base, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), off = 0;
	unsigned char vec[256];

	while (off < len) {
		size_t win = len - off < sizeof(vec) * pg ? len - off :
							    sizeof(vec) * pg;
		size_t i = 0, n = (win + pg - 1) / pg;

		if (mincore(base + off, win, vec)) {
			memset(base + off, HIPEMU_POISON_BYTE, win);
			off += win;
			continue;
		}
		while (i < n) {
			size_t j = i;

			while (j < n && (vec[j] & 1))
				j++;
			if (j > i) /* a run of resident pages */
				memset(base + off + i * pg, HIPEMU_POISON_BYTE,
				       (j * pg < win ? j * pg : win) - i * pg);
			i = j + 1;
		}
		off += win;
	}
}

/* Poisons a's pages, then keeps them mapped until the budget runs out. */
static void retire(struct he_alloc *a)
{
	struct he_quar *q = NULL, *old = NULL;

	if (a->map <= he_cfg.quarantine) {
		poison(a->base, a->map);
		q = malloc(sizeof(*q));
	}
	if (!q) {
		munmap(a->base, a->map);
		return;
	}
	q->next = NULL;
	q->addr = a->base;
	q->len = a->map;
	pthread_mutex_lock(&he_mem_lock);
	if (he_q_tail)
		he_q_tail->next = q;
	else
		he_q_head = q;
	he_q_tail = q;
	he_q_bytes += q->len;
	/* Detach the oldest entries over budget; unmap them unlocked. */
	while (he_q_bytes > he_cfg.quarantine && he_q_head) {
		struct he_quar *h = he_q_head;

		he_q_head = h->next;
		if (!he_q_head)
			he_q_tail = NULL;
		he_q_bytes -= h->len;
		h->next = old;
		old = h;
	}
	pthread_mutex_unlock(&he_mem_lock);
	while (old) {
		struct he_quar *n = old->next;

		munmap(old->addr, old->len);
		free(old);
		old = n;
	}
}

/* Under he_mem_lock: takes a out of the tree and the accounts. */
static void unlink_alloc(struct he_alloc *a)
{
	tdelete(a, &he_tree, cmp_range);
	he_used[a->dev] -= a->charge;
	if (a->kind != HE_MEM_HOST)
		he_live_device--;
}

hipError_t he_release(void *p, int async)
{
	struct he_alloc *a;

	pthread_mutex_lock(&he_mem_lock);
	a = find(p, 1);
	if (!a || a->base != p || a->freeing != (async != 0)) {
		pthread_mutex_unlock(&he_mem_lock);
		return hipErrorInvalidValue;
	}
	unlink_alloc(a);
	pthread_mutex_unlock(&he_mem_lock);
	retire(a);
	free(a);
	return hipSuccess;
}

hipError_t he_free_begin(void *p)
{
	struct he_alloc *a;
	hipError_t err = hipErrorInvalidValue;

	pthread_mutex_lock(&he_mem_lock);
	a = find(p, 1);
	if (a && a->base == p && !a->freeing && a->kind != HE_MEM_HOST) {
		a->freeing = true;
		err = hipSuccess;
	}
	pthread_mutex_unlock(&he_mem_lock);
	return err;
}

hipError_t he_mem_find(const void *p, size_t len, char **base, size_t *size,
		       enum he_mem_kind *kind, int *dev, unsigned *flags)
{
	struct he_alloc *a;

	pthread_mutex_lock(&he_mem_lock);
	a = p ? find(p, len) : NULL;
	if (a) {
		if (base)
			*base = a->base;
		if (size)
			*size = a->size;
		if (kind)
			*kind = a->kind;
		if (dev)
			*dev = a->dev;
		if (flags)
			*flags = a->flags;
	}
	pthread_mutex_unlock(&he_mem_lock);
	return a ? hipSuccess : hipErrorInvalidValue;
}

void he_mem_info(int dev, size_t *free_b, size_t *total)
{
	pthread_mutex_lock(&he_mem_lock);
	if (free_b)
		*free_b = he_cfg.mem_size - he_used[dev];
	if (total)
		*total = he_cfg.mem_size;
	pthread_mutex_unlock(&he_mem_lock);
}

void he_mem_stats(unsigned long *bytes, unsigned long *live)
{
	unsigned long b = 0;

	pthread_mutex_lock(&he_mem_lock);
	for (int d = 0; d < HE_MAX_DEVICES; d++)
		b += he_used[d];
	*bytes = b;
	*live = he_live_device;
	pthread_mutex_unlock(&he_mem_lock);
}

/* twalk_r collector for he_mem_reset. */
struct he_collect {
	int dev;
	struct he_alloc **v;
	size_t n, cap;
};

static void collect(const void *node, VISIT which, void *arg)
{
	struct he_collect *c = arg;
	struct he_alloc *a = *(struct he_alloc *const *)node;

	if (which != postorder && which != leaf)
		return;
	if (a->dev != c->dev || a->kind == HE_MEM_HOST)
		return;
	if (c->n == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 64;
		struct he_alloc **nv = realloc(c->v, nc * sizeof(*nv));

		if (!nv)
			return;
		c->v = nv;
		c->cap = nc;
	}
	c->v[c->n++] = a;
}

void he_mem_reset(int dev)
{
	struct he_collect c = { .dev = dev };

	pthread_mutex_lock(&he_mem_lock);
	twalk_r(he_tree, collect, &c);
	for (size_t i = 0; i < c.n; i++)
		unlink_alloc(c.v[i]);
	pthread_mutex_unlock(&he_mem_lock);
	for (size_t i = 0; i < c.n; i++) {
		retire(c.v[i]);
		free(c.v[i]);
	}
	free(c.v);
}

/* ---- the HIP allocation API ---- */

static hipError_t dev_alloc(void **p, size_t size, enum he_mem_kind kind,
			    unsigned flags)
{
	hipError_t err;

	he_cost(he_cfg.cost_malloc_ns);
	err = he_alloc(p, size, he_cur_dev(), kind, flags);
	return err;
}

HE_EXPORT hipError_t hipMalloc(void **ptr, size_t size)
{
	HE_ENTER("hipMalloc");
	return he_ret(dev_alloc(ptr, size, HE_MEM_DEVICE, 0));
}

HE_EXPORT hipError_t hipExtMallocWithFlags(void **ptr, size_t sizeBytes,
					   unsigned int flags)
{
	HE_ENTER("hipExtMallocWithFlags");
	if (flags & ~(unsigned)(hipDeviceMallocFinegrained |
				hipMallocSignalMemory))
		return he_ret(hipErrorInvalidValue);
	if ((flags & hipMallocSignalMemory) && sizeBytes != 8)
		return he_ret(hipErrorInvalidValue);
	return he_ret(dev_alloc(ptr, sizeBytes, HE_MEM_DEVICE, flags));
}

HE_EXPORT hipError_t hipMallocManaged(void **dev_ptr, size_t size,
				      unsigned int flags)
{
	HE_ENTER("hipMallocManaged");
	if (!dev_ptr || !size ||
	    (flags != hipMemAttachGlobal && flags != hipMemAttachHost))
		return he_ret(hipErrorInvalidValue);
	return he_ret(dev_alloc(dev_ptr, size, HE_MEM_MANAGED, flags));
}

HE_EXPORT hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width,
				    size_t height)
{
	size_t p;

	HE_ENTER("hipMallocPitch");
	if (!ptr || !pitch)
		return he_ret(hipErrorInvalidValue);
	/* The texture pitch alignment of hipDeviceGetAttribute. */
	p = round_up(width, HE_ALIGN);
	if (height && p > SIZE_MAX / height)
		return he_ret(hipErrorOutOfMemory);
	*pitch = p;
	return he_ret(dev_alloc(ptr, p * height, HE_MEM_DEVICE, 0));
}

HE_EXPORT hipError_t hipHostMalloc(void **ptr, size_t size,
				   unsigned int flags)
{
	HE_ENTER("hipHostMalloc");
	return he_ret(dev_alloc(ptr, size, HE_MEM_HOST, flags));
}

/*
 * The deprecated aliases of hipHostMalloc: pinned host memory, freed by
 * hipHostFree (clr hipamd/src/hip_memory.cpp, rocm-6.2.0: hipHostAlloc
 * passes its flags on, hipMallocHost asks for fine-grained memory,
 * hipMemAllocHost calls hipHostMalloc with flags 0).  Each enters under
 * its own name, so that HIPEMU_FAIL and HIPEMU_STATS tell them apart.
 */
HE_EXPORT hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags)
{
	HE_ENTER("hipHostAlloc");
	return he_ret(dev_alloc(ptr, size, HE_MEM_HOST, flags));
}

HE_EXPORT hipError_t hipMallocHost(void **ptr, size_t size)
{
	HE_ENTER("hipMallocHost");
	return he_ret(dev_alloc(ptr, size, HE_MEM_HOST, 0));
}

HE_EXPORT hipError_t hipMemAllocHost(void **ptr, size_t size)
{
	HE_ENTER("hipMemAllocHost");
	return he_ret(dev_alloc(ptr, size, HE_MEM_HOST, 0));
}

static hipError_t free_sync(void *ptr, bool host)
{
	enum he_mem_kind kind;
	char *base;
	hipError_t err;
	int dev = -1;

	if (!ptr)
		return hipSuccess;
	err = he_mem_find(ptr, 1, &base, NULL, &kind, &dev, NULL);
	if (err || base != ptr || (host && kind != HE_MEM_HOST))
		return hipErrorInvalidValue;
	/*
	 * A free waits for the work of the allocation's own device, all its
	 * streams (clr hipamd/src/hip_memory.cpp ihipFree, rocm-5.7.0 and
	 * rocm-6.2.0: SyncAllStreams(memory_object's deviceId); hipamd
	 * src/hip_memory.cpp ihipFree, rocm-5.2.0: that device's null
	 * stream and its non-blocking streams).  Host memory is no device's:
	 * 5.2 waits for every device's null stream there; hipemu waits for
	 * every device.
	 */
	he_sync_device(kind == HE_MEM_HOST ? -1 : dev);
	he_cost(he_cfg.cost_free_ns);
	return he_release(ptr, 0);
}

HE_EXPORT hipError_t hipFree(void *ptr)
{
	HE_ENTER("hipFree");
	return he_ret(free_sync(ptr, false));
}

HE_EXPORT hipError_t hipHostFree(void *ptr)
{
	HE_ENTER("hipHostFree");
	return he_ret(free_sync(ptr, true));
}

/* The deprecated alias: clr hipamd/src/hip_memory.cpp, rocm-6.2.0, frees
 * as hipHostFree does. */
HE_EXPORT hipError_t hipFreeHost(void *ptr)
{
	HE_ENTER("hipFreeHost");
	return he_ret(free_sync(ptr, true));
}

/* ---- stream-ordered allocation ---- */

/* A pool is only a device tag: every pool allocates from the device. */
struct he_pool {
	int dev;
};

static struct he_pool he_default_pools[HE_MAX_DEVICES];

static hipError_t alloc_async(void **p, size_t size, int dev,
			      hipStream_t stream)
{
	struct he_stream *s;
	hipError_t err;

	if (!p)
		return hipErrorInvalidValue;
	err = he_stream_get(stream, &s);
	if (err)
		return err;
	/*
	 * The memory exists at once; it is the stream's to use from here
	 * on, which the program has to respect exactly as on a GPU.
	 */
	he_cost(he_cfg.cost_malloc_ns);
	return he_alloc(p, size, dev >= 0 ? dev : he_stream_device(s),
			HE_MEM_DEVICE, 0);
}

HE_EXPORT hipError_t hipMallocAsync(void **dev_ptr, size_t size,
				    hipStream_t stream)
{
	HE_ENTER("hipMallocAsync");
	return he_ret(alloc_async(dev_ptr, size, -1, stream));
}

HE_EXPORT hipError_t hipMallocFromPoolAsync(void **dev_ptr, size_t size,
					    hipMemPool_t mem_pool,
					    hipStream_t stream)
{
	struct he_pool *pool = (struct he_pool *)mem_pool;

	HE_ENTER("hipMallocFromPoolAsync");
	if (!pool)
		return he_ret(hipErrorInvalidValue);
	if (pool >= he_default_pools && pool < he_default_pools + HE_MAX_DEVICES)
		return he_ret(alloc_async(dev_ptr, size,
					  (int)(pool - he_default_pools),
					  stream));
	return he_ret(alloc_async(dev_ptr, size, pool->dev, stream));
}

HE_EXPORT hipError_t hipFreeAsync(void *dev_ptr, hipStream_t stream)
{
	struct he_stream *s;
	struct he_work w = { .kind = HE_W_FREE };
	uint64_t seq;
	hipError_t err;

	HE_ENTER("hipFreeAsync");
	if (!dev_ptr)
		return hipSuccess;
	err = he_stream_get(stream, &s);
	if (err)
		return he_ret(err);
	pthread_mutex_lock(&he_lock);
	if (he_stream_capture(s))
		err = hipErrorStreamCaptureUnsupported;
	pthread_mutex_unlock(&he_lock);
	if (err)
		return he_ret(err);
	err = he_free_begin(dev_ptr);
	if (err)
		return he_ret(err);
	/* The memory is released when the stream reaches this point. */
	w.free.ptr = dev_ptr;
	err = he_enqueue(s, &w, NULL, 0, &seq);
	return he_ret(err);
}

HE_EXPORT hipError_t hipMemPoolCreate(hipMemPool_t *mem_pool,
				      const hipMemPoolProps *pool_props)
{
	struct he_pool *p;

	HE_ENTER("hipMemPoolCreate");
	if (!mem_pool || !pool_props ||
	    !he_dev_valid(pool_props->location.id))
		return he_ret(hipErrorInvalidValue);
	p = calloc(1, sizeof(*p));
	if (!p)
		return he_ret(hipErrorOutOfMemory);
	p->dev = pool_props->location.id;
	*mem_pool = (hipMemPool_t)p;
	return hipSuccess;
}

HE_EXPORT hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool)
{
	struct he_pool *p = (struct he_pool *)mem_pool;

	HE_ENTER("hipMemPoolDestroy");
	if (!p || (p >= he_default_pools &&
		   p < he_default_pools + HE_MAX_DEVICES))
		return he_ret(hipErrorInvalidValue);
	free(p);
	return hipSuccess;
}

HE_EXPORT hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *mem_pool,
						int device)
{
	HE_ENTER("hipDeviceGetDefaultMemPool");
	if (!mem_pool)
		return he_ret(hipErrorInvalidValue);
	if (!he_dev_valid(device))
		return he_ret(hipErrorInvalidDevice);
	*mem_pool = (hipMemPool_t)&he_default_pools[device];
	return hipSuccess;
}
