/*
 * pool_query.c - the pool's answers to the memory queries: each must be
 * what the runtime gives for a hipMalloc of the block's size, not for the
 * chunk the block lies in.
 *
 * Two cases.  An address inside a live block: the runtime answers for the
 * chunk, and the post hook puts the block's base and size where the
 * answer has them.  Pool memory that is no live block (freed, or the rest
 * of a chunk; or a range running past its block): the runtime would say
 * "not allocated", with whatever default outputs that query writes, so
 * the pre hook points the call at LB_PNOWHERE, an address no allocation
 * ever contains, lets the runtime answer, and the post hook puts the
 * program's pointer back before anyone (the trace) reads the arguments.
 */
#include <string.h>
#include "pool.h"

/*
 * The second page of the address space: below mmap_min_addr (64 KiB on
 * Linux by default), so neither the runtime nor anyone else can have
 * memory there; and not NULL, which several queries refuse with their
 * own error before they look the pointer up.
 */
#define LB_PNOWHERE ((void *)(uintptr_t)0x1000)

/* The pointer argument redirected by this thread's call in progress. */
static LB_TLS void **lb_qslot;
static LB_TLS void *lb_qsaved;

/*
 * Where [p, p+n) stands (n >= 1): 0 not pool memory (the runtime's
 * business), 1 inside one live block (*loc describes it), -1 pool memory
 * that is no live block, or a range that runs past its block.
 */
static int lb_qclass(const void *p, size_t n, struct lb_ploc *loc)
{
	uintptr_t a = (uintptr_t)p;

	if (!p || !lb_pchunks_contain(a))
		return 0;
	lb_plocate(a, loc);
	if (!loc->in_pool)
		return 0;
	if (!loc->live || n - 1 >= loc->base + loc->size - a)
		return -1;
	return 1;
}

static void lb_qredirect(void **slot)
{
	lb_qsaved = *slot;
	lb_qslot = slot;
	*slot = LB_PNOWHERE;
}

/* Redirects *slot when [*slot, +n) is pool memory but not one live block;
 * returns the class. */
static int lb_qcheck(void **slot, size_t n, struct lb_ploc *loc)
{
	int k = lb_qclass(*slot, n ? n : 1, loc);

	if (k < 0)
		lb_qredirect(slot);
	return k;
}

/* hipMemGetAddressRange of a live block: served (NULL outputs are
 * accepted, as the runtime accepts them). */
static int lb_q_range(struct lb_call *c)
{
	void **ptr = lb_ar_at(c->api, c->args, LB_AR_PTR);
	void **base = lb_ar_ptr(c->api, c->args, LB_AR_BASE_OUT);
	size_t *size = lb_ar_ptr(c->api, c->args, LB_AR_SIZE_OUT);
	struct lb_ploc loc;

	if (lb_qcheck(ptr, 1, &loc) <= 0)
		return 0;
	if (base)
		*base = (void *)loc.base;
	if (size)
		*size = loc.size;
	c->ret = LB_ST_OK;
	return 1;
}

/*
 * Before the runtime, by the call's role (roles.h): every question about
 * the memory at PTR (for BYTES, or its first byte) and every advice or
 * prefetch of it is redirected when PTR is pool memory but no live block;
 * an address range of a live block is answered here.
 */
int lb_pquery_pre(struct lb_call *c)
{
	struct lb_ploc loc;
	int api = c->api;

	switch (lb_api_info[api].role) {
	case LB_ROLE_ADDRESS_RANGE:
		return lb_q_range(c);
	case LB_ROLE_PTR_ATTRIBUTES:
	case LB_ROLE_PTR_ATTRIBUTE:
	case LB_ROLE_PTR_ATTRIBUTE_LIST:
	case LB_ROLE_PTR_SIZE:
		lb_qcheck(lb_ar_at(api, c->args, LB_AR_PTR), 1, &loc);
		return 0;
	case LB_ROLE_RANGE_QUERY:
	case LB_ROLE_ADVISE: /* the advice must not reach the chunk's
			      * other blocks */
	case LB_ROLE_PREFETCH:
		lb_qcheck(lb_ar_at(api, c->args, LB_AR_PTR),
			  lb_ar_size(api, c->args, LB_AR_BYTES), &loc);
		return 0;
	default:
		return 0;
	}
}

/* A range's size, as wide as the runtime writes it (rt.h). */
static void lb_q_put_size(void *data, size_t size)
{
	if (lb_rt->range_size_width == 4)
		*(uint32_t *)data = (uint32_t)size;
	else
		*(uint64_t *)data = size;
}

/* The runtime answered for the chunk: the range is the block's. */
static void lb_q_attr(struct lb_call *c)
{
	int api = c->api;
	const void *p = lb_ar_ptr(api, c->args, LB_AR_PTR);
	void *data = lb_ar_ptr(api, c->args, LB_AR_DATA);
	int attr = (int)lb_ar_u64(api, c->args, LB_AR_ATTR);
	struct lb_ploc loc;

	if (c->ret != LB_ST_OK || lb_qclass(p, 1, &loc) <= 0)
		return;
	if (attr == LB_PTR_ATTR_RANGE_START)
		*(void **)data = (void *)loc.base;
	else if (attr == LB_PTR_ATTR_RANGE_SIZE)
		lb_q_put_size(data, loc.size);
}

static void lb_q_drvattrs(struct lb_call *c)
{
	int api = c->api;
	const void *p = lb_ar_ptr(api, c->args, LB_AR_PTR);
	const int *attrs =
		lb_ar_ptr(api, c->args, LB_AR_ATTR_LIST);
	void **data = lb_ar_ptr(api, c->args, LB_AR_DATA_LIST);
	unsigned i, n = (unsigned)lb_ar_u64(api, c->args, LB_AR_NUM);
	struct lb_ploc loc;

	if (c->ret != LB_ST_OK || lb_qclass(p, 1, &loc) <= 0)
		return;
	for (i = 0; i < n; i++) {
		if (!data[i])
			continue;
		if (attrs[i] == LB_PTR_ATTR_RANGE_START)
			*(void **)data[i] = (void *)loc.base;
		else if (attrs[i] == LB_PTR_ATTR_RANGE_SIZE)
			lb_q_put_size(data[i], loc.size);
	}
}

static void lb_q_attrs(struct lb_call *c)
{
	int api = c->api;
	const void *p = lb_ar_ptr(api, c->args, LB_AR_PTR);
	char *at = lb_ar_ptr(api, c->args, LB_AR_ATTRS_OUT);
	struct lb_ploc loc;

	if (c->ret != LB_ST_OK || !at || lb_qclass(p, 1, &loc) <= 0)
		return;
	/* the runtime answered for the chunk; the pointer is the block's */
	memcpy(at + lb_rt->attr_device_ptr, &p, sizeof(p));
	if (loc.kind == LB_PK_MANAGED)
		memcpy(at + lb_rt->attr_host_ptr, &p, sizeof(p));
}

static void lb_q_ptrinfo(struct lb_call *c)
{
	const void *p = lb_ar_ptr(c->api, c->args, LB_AR_PTR);
	size_t *size = lb_ar_ptr(c->api, c->args, LB_AR_SIZE_OUT);
	struct lb_ploc loc;

	if (c->ret == LB_ST_OK && size && lb_qclass(p, 1, &loc) > 0)
		*size = loc.size;
}

/*
 * Free memory as the runtime would report it had every live block been
 * a hipMalloc of its own: the runtime's free, plus what the pool holds
 * that no live block uses (free and pending blocks, thread caches, and
 * the slack between a block's asked size rounded to 256 and the block or
 * chunk it got).  The program can allocate all of that.
 */
static void lb_q_meminfo(struct lb_call *c)
{
	size_t *freep = lb_ar_ptr(c->api, c->args, LB_AR_FREE_OUT);
	size_t *total = lb_ar_ptr(c->api, c->args, LB_AR_TOTAL_OUT);
	struct lb_pdev *d;
	size_t res, use;

	if (c->ret != LB_ST_OK || !freep)
		return;
	d = lb_pdev_peek(lb_pool_curdev());
	if (!d)
		return;
	res = __atomic_load_n(&d->reserved, __ATOMIC_RELAXED);
	use = lb_ptc_inuse_asked(d);
	if (res > use)
		*freep += res - use;
	if (total && *freep > *total)
		*freep = *total;
}

void lb_pquery_post(struct lb_call *c)
{
	if (lb_qslot) {
		*lb_qslot = lb_qsaved;
		lb_qslot = NULL;
		return; /* the runtime answered "not allocated": keep it */
	}
	switch (lb_api_info[c->api].role) {
	case LB_ROLE_PTR_ATTRIBUTE:
		lb_q_attr(c);
		break;
	case LB_ROLE_PTR_ATTRIBUTE_LIST:
		lb_q_drvattrs(c);
		break;
	case LB_ROLE_PTR_ATTRIBUTES:
		lb_q_attrs(c);
		break;
	case LB_ROLE_PTR_SIZE:
		lb_q_ptrinfo(c);
		break;
	case LB_ROLE_MEM_INFO:
		lb_q_meminfo(c);
		break;
	default:
		break;
	}
}
