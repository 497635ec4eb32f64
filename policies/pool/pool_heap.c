/*
 * pool_heap.c - chunks from the runtime, cut into blocks.
 *
 * As in PyTorch's caching allocator: blocks of up to 1 MiB come from 2 MiB
 * chunks of the small heap; larger ones from chunks of LBSHIM_POOL_CHUNK
 * bytes (or the size rounded up to 2 MiB when that is more than half a
 * chunk) of the large heap, best fit; a block above LBSHIM_POOL_MAX_BLOCK
 * gets a chunk of its own and is never split, and a request at or below it
 * never takes such a block, so that one large free block is not cut into
 * pieces that then pin it.  Free neighbours coalesce; a freed block whose
 * device work may still be pending waits in the heap's pending list
 * (without coalescing) until its fence completes.
 */
#include <stdlib.h>
#include <string.h>
#include "pool.h"
#include "pool_tc.h"

int lb_pbin_of(size_t size)
{
	int e;

	if (size <= LB_PSMALL)
		return (int)(size / LB_PALIGN) - 1;
	e = 63 - __builtin_clzll(size);
	return LB_PSMALL_BINS + (e - 20) * 16 + (int)((size >> (e - 4)) & 15);
}

void lb_pheap_init(struct lb_pheap *h, struct lb_pdev *d, int kind, int cls)
{
	memset(h, 0, sizeof(*h));
	pthread_mutex_init(&h->lock, NULL);
	h->dev = d;
	h->kind = kind;
	h->cls = cls;
}

/* ---- bins (heap lock held) ---- */

static void lb_bin_insert(struct lb_pheap *h, struct lb_pblock *b)
{
	int i = lb_pbin_of(b->size);

	b->bin = i;
	b->fprev = NULL;
	b->fnext = h->bins[i];
	if (b->fnext)
		b->fnext->fprev = b;
	h->bins[i] = b;
	h->bitmap[i / 64] |= 1ull << (i % 64);
	lb_pb_set(b, LB_B_FREE);
}

static void lb_bin_remove(struct lb_pheap *h, struct lb_pblock *b)
{
	int i = b->bin;

	if (b->fprev)
		b->fprev->fnext = b->fnext;
	else
		h->bins[i] = b->fnext;
	if (b->fnext)
		b->fnext->fprev = b->fprev;
	if (!h->bins[i])
		h->bitmap[i / 64] &= ~(1ull << (i % 64));
	b->fprev = b->fnext = NULL;
}

/* First non-empty bin at or after i, or -1. */
static int lb_bin_next(struct lb_pheap *h, int i)
{
	int w = i / 64;
	uint64_t m;

	if (i >= LB_PBINS)
		return -1;
	m = h->bitmap[w] & (~0ull << (i % 64));
	while (!m) {
		if (++w >= (int)(sizeof(h->bitmap) / sizeof(h->bitmap[0])))
			return -1;
		m = h->bitmap[w];
	}
	return w * 64 + __builtin_ctzll(m);
}

/* Smallest block of bin i that holds size, or NULL. */
static struct lb_pblock *lb_bin_best(struct lb_pheap *h, int i, size_t size)
{
	struct lb_pblock *b, *best = NULL;
	int n = 0;

	/* Bins of large sizes span 1/16 of a power of two; a bounded scan
	 * keeps a long bin from costing much. */
	for (b = h->bins[i]; b && n < 64; b = b->fnext, n++) {
		if (b->size >= size && (!best || b->size < best->size)) {
			best = b;
			if (b->size == size)
				break;
		}
	}
	return best;
}

/* May a request of size take free block b? */
static int lb_fits(size_t size, const struct lb_pblock *b)
{
	if (size <= lb_popt.max_block)
		return b->size <= lb_popt.max_block;
	/* an oversize request: bound the waste by one chunk */
	return b->size - size <= lb_popt.chunk;
}

static struct lb_pblock *lb_heap_find(struct lb_pheap *h, size_t size)
{
	int i = lb_pbin_of(size);
	struct lb_pblock *b = lb_bin_best(h, i, size);

	if (!b) {
		i = lb_bin_next(h, i + 1);
		if (i < 0)
			return NULL;
		b = lb_bin_best(h, i, size);
	}
	return b && lb_fits(size, b) ? b : NULL;
}

/* ---- blocks (heap lock held) ---- */

/* Merges next into b (both free and out of their bins). */
static void lb_absorb(struct lb_pblock *b, struct lb_pblock *next)
{
	b->size += next->size;
	b->next = next->next;
	if (next->next)
		next->next->prev = b;
	lb_pmap_remove(next);
	lb_pblock_put(next);
}

static int lb_is_free(const struct lb_pblock *b)
{
	return b && lb_pb_state(b) == LB_B_FREE;
}

/* A block whose fence completed: coalesce with free neighbours, bin it. */
static void lb_binready(struct lb_pheap *h, struct lb_pblock *b)
{
	b->fence = 0;
	if (!b->chunk->oversize) {
		if (lb_is_free(b->prev)) {
			struct lb_pblock *p = b->prev;

			lb_bin_remove(h, p);
			lb_absorb(p, b);
			b = p;
		}
		if (lb_is_free(b->next)) {
			lb_bin_remove(h, b->next);
			lb_absorb(b, b->next);
		}
	}
	lb_bin_insert(h, b);
}

/* Moves pending blocks whose fences completed into the bins. */
static void lb_heap_pending(struct lb_pheap *h)
{
	struct lb_pblock *b;

	if (!h->pend_head)
		return;
	if (!lb_pfence_done(h->dev, h->pend_head->fence))
		lb_pfence_poll(h->dev);
	/* Frees append in nearly increasing fence order: stop at the first
	 * one still pending and look again at the next allocation. */
	while ((b = h->pend_head) && lb_pfence_done(h->dev, b->fence)) {
		h->pend_head = b->fnext;
		if (!h->pend_head)
			h->pend_tail = NULL;
		h->pend_bytes -= b->size;
		b->fnext = NULL;
		lb_binready(h, b);
	}
}

/* The fence by which the older half of the pending bytes completes. */
static uint64_t lb_pend_median(struct lb_pheap *h)
{
	struct lb_pblock *b;
	uint64_t seq = 0;
	size_t n = 0;

	for (b = h->pend_head; b && n < h->pend_bytes / 2; b = b->fnext) {
		n += b->size;
		if (b->fence > seq)
			seq = b->fence;
	}
	return seq;
}

/* Hands out free block b for size bytes, splitting off the rest. */
static void lb_take(struct lb_pheap *h, struct lb_pblock *b, size_t size,
		    size_t asked)
{
	size_t rest = b->size - size;
	int split;

	lb_bin_remove(h, b);
	if (h->cls == LB_PC_SMALL)
		split = rest >= LB_PALIGN;
	else
		split = rest > LB_PSMALL && b->size <= lb_popt.max_block &&
			!b->chunk->oversize;
	if (split) {
		struct lb_pblock *r = lb_pblock_new(b->ptr + size);

		if (r) {
			r->size = rest;
			r->chunk = b->chunk;
			r->prev = b;
			r->next = b->next;
			if (b->next)
				b->next->prev = r;
			b->next = r;
			b->size = size;
			lb_pmap_insert(r);
			lb_bin_insert(h, r);
		}
	}
	b->asked = asked;
	b->tckey = b->size <= LB_TC_MAX_BLOCK && h->cls == LB_PC_SMALL ?
			   lb_ptc_key(b->size, h->dev->id, h->kind) :
			   0;
	__atomic_fetch_add(&h->dev->inuse_asked, lb_pround(asked),
			   __ATOMIC_RELAXED);
	h->free_bytes -= b->size;
	__atomic_fetch_add(&h->dev->inuse, b->size, __ATOMIC_RELAXED);
	lb_pmax(&h->dev->inuse_peak,
		__atomic_load_n(&h->dev->inuse, __ATOMIC_RELAXED));
	lb_pb_set(b, LB_B_LIVE);
}

/* ---- chunks ---- */

static size_t lb_round(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

/*
 * Large chunks start at the block's size and double with the heap up to
 * LBSHIM_POOL_CHUNK: a program whose large blocks total a few MiB does
 * not pin a 20 MiB chunk, one that uses many still makes few runtime
 * calls (their number grows with the logarithm of the heap's size).
 */
static size_t lb_chunk_size(struct lb_pheap *h, size_t size)
{
	size_t c;

	if (h->cls == LB_PC_SMALL)
		return LB_PSMALL_CHUNK;
	size = lb_round(size, LB_PROUND_LARGE);
	if (size > lb_popt.max_block || size > lb_popt.chunk / 2)
		return size;
	c = lb_round(__atomic_load_n(&h->reserved, __ATOMIC_RELAXED),
		     LB_PROUND_LARGE);
	if (c > lb_popt.chunk)
		c = lb_popt.chunk;
	return c > size ? c : size;
}

static lb_status lb_runtime_alloc(int kind, void **p, size_t n)
{
	lb_status r = kind == LB_PK_MANAGED ?
			      lb_rt->mem_alloc_managed(p, n,
						       LB_MEM_ATTACH_GLOBAL) :
			      lb_rt->mem_alloc(p, n);

	/* a missing function: what the wrappers answer (lb_missing) */
	return r == LB_ST_MISSING ? LB_ST_NOT_INITIALIZED : r;
}

/* One runtime allocation of csize bytes for d, within the limit. */
static lb_status lb_chunk_try(struct lb_pdev *d, int kind, size_t csize,
			       void **p)
{
	size_t r = __atomic_add_fetch(&d->reserved, csize, __ATOMIC_RELAXED);
	lb_status err;

	if (d->limit && r > d->limit) {
		__atomic_sub_fetch(&d->reserved, csize, __ATOMIC_RELAXED);
		return LB_ST_OOM;
	}
	*p = NULL;
	err = lb_runtime_alloc(kind, p, csize);
	if (err == LB_ST_OK && *p)
		return LB_ST_OK;
	if (err == LB_ST_OK)
		err = LB_ST_OOM;
	__atomic_sub_fetch(&d->reserved, csize, __ATOMIC_RELAXED);
	return err;
}

/*
 * A new chunk of *csize bytes for d, within the limit: on failure (or
 * beyond the limit) trims the device's cache and tries once more; if the
 * chunk still cannot be had, tries one of exactly size bytes (the block
 * alone), so that an allocation the runtime would satisfy by itself does
 * not fail because the pool asked for more.  *csize is set to the size
 * obtained.  Returns the last error when nothing could be had.
 */
static lb_status lb_chunk_get(struct lb_pdev *d, int kind, size_t size,
			       size_t *csize, void **p)
{
	size_t fr = 0, tot = 0;
	lb_status err;

	/*
	 * Nearly full device: a whole chunk would hold memory that the
	 * program's next allocations (outside the pool's size class, or
	 * managed ones) need.  Take exactly what is asked instead; a chunk
	 * miss is rare enough for the query.
	 */
	if (*csize > size && lb_rt->mem_info(&fr, &tot) == LB_ST_OK &&
	    fr / 4 < *csize)
		*csize = size;
	err = lb_chunk_try(d, kind, *csize, p);
	if (err == LB_ST_OK)
		return err;
	lb_pheap_trim(d);
	err = lb_chunk_try(d, kind, *csize, p);
	if (err == LB_ST_OK || *csize <= size)
		return err;
	err = lb_chunk_try(d, kind, size, p);
	if (err == LB_ST_OK)
		*csize = size;
	return err;
}

/*
 * A small request of more than half the small-block limit that the small
 * heap cannot place: a free block of the large heap takes it if one is
 * there, rather than a new 2 MiB chunk.  Such a request (an attention
 * score, a weight of 1 MiB) needs half a small chunk in one piece, which
 * a few long-lived smaller blocks easily deny it, while the large heap's
 * blocks of the previous layer are free (pool_bench's transformer replay
 * shows the gain: tests/bench/NOTES.md).  Smaller
 * requests never borrow: they would pin a large chunk.  Returns 1 with
 * *out set, or 0.
 */
static int lb_borrow_large(struct lb_pdev *d, int kind, size_t size,
			   size_t asked, void **out)
{
	struct lb_pheap *h = &d->heap[kind][LB_PC_LARGE];
	struct lb_pblock *b;

	if (size <= LB_PSMALL / 2)
		return 0;
	pthread_mutex_lock(&h->lock);
	lb_heap_pending(h);
	b = lb_heap_find(h, size);
	if (b && !b->chunk->oversize)
		lb_take(h, b, size, asked);
	else
		b = NULL;
	pthread_mutex_unlock(&h->lock);
	if (!b)
		return 0;
	*out = (void *)b->ptr;
	return 1;
}

/*
 * The runtime gave a chunk whose start is not a multiple of 8, which a
 * block's tag needs (pool.h).  ROCm aligns every allocation far more
 * (ihipMalloc passes the device's memBaseAddrAlign_ to SvmBuffer::malloc,
 * 1024 bits at least: clr hipamd/src/hip_memory.cpp and rocclr/device/
 * rocm/rocdevice.cpp, rocm-6.2.0), so only another runtime gets here: the
 * chunk goes back and the allocation to the runtime (LB_PERR_PASS).
 */
static void lb_chunk_misaligned(struct lb_pdev *d, void *p, size_t csize)
{
	static int warned;

	lb_rt->mem_free(p);
	__atomic_sub_fetch(&d->reserved, csize, __ATOMIC_RELAXED);
	if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		lb_log(LB_LOG_WARN,
		       "pool: the runtime's hipMalloc gave %p, not aligned to "
		       "8 bytes; the pool leaves allocations that need such "
		       "memory to the runtime (warned once per process)",
		       p);
}

lb_status lb_pheap_alloc(struct lb_pdev *d, int kind, size_t size,
			  size_t asked, void **out, int *hit)
{
	int cls = size <= LB_PSMALL ? LB_PC_SMALL : LB_PC_LARGE;
	struct lb_pheap *h = &d->heap[kind][cls];
	struct lb_pchunk *c;
	struct lb_pblock *b;
	size_t csize, want;
	void *p;
	lb_status err;
	int attempt, oversize = 0;

	csize = lb_chunk_size(h, size);
	pthread_mutex_lock(&h->lock);
	for (attempt = 0;; attempt++) {
		uint64_t seq;

		lb_heap_pending(h);
		b = lb_heap_find(h, size);
		if (b) {
			lb_take(h, b, size, asked);
			pthread_mutex_unlock(&h->lock);
			*out = (void *)b->ptr;
			*hit = 1;
			return LB_ST_OK;
		}
		if (attempt)
			break;
		if (h->cls == LB_PC_SMALL && h->pend_bytes < csize) {
			/* blocks of other sizes in our own cache may
			 * coalesce into one that fits */
			pthread_mutex_unlock(&h->lock);
			attempt = lb_ptc_flush_mine() ? 0 : 1;
			pthread_mutex_lock(&h->lock);
			if (attempt)
				break;
			continue;
		}
		if (h->pend_bytes < csize)
			break;
		/*
		 * As much memory as a new chunk waits for device work: the
		 * host runs far ahead of the device.  Waiting for the older
		 * half of it costs no throughput (the device is what limits)
		 * and keeps the pool from growing with the device's queue.
		 */
		seq = lb_pend_median(h);
		pthread_mutex_unlock(&h->lock);
		lb_pfence_wait(h->dev, seq);
		pthread_mutex_lock(&h->lock);
	}
	pthread_mutex_unlock(&h->lock);
	if (cls == LB_PC_SMALL && lb_borrow_large(d, kind, size, asked, out)) {
		*hit = 1;
		return LB_ST_OK;
	}

	*hit = 0;
	c = calloc(1, sizeof(*c));
	b = lb_pblock_new(0);
	if (!c || !b) {
		free(c);
		lb_pblock_put(b);
		return LB_ST_OOM;
	}
	want = csize;
	err = lb_chunk_get(d, kind, size, &csize, &p);
	if (err == LB_ST_OK && ((uintptr_t)p & LB_PTAG_MASK)) {
		/* no block tags on it (pool.h): the runtime's own, then */
		lb_chunk_misaligned(d, p, csize);
		err = LB_PERR_PASS;
	}
	if (err != LB_ST_OK) {
		free(c);
		lb_pblock_put(b);
		return err;
	}
	if (csize != want) {
		/*
		 * The block's own chunk, the fallback of a full device: kept
		 * whole like an oversize block, in the large heap (no thread
		 * cache, no small request cuts it), so that trim gives it
		 * back as soon as it is free.
		 */
		oversize = 1;
		h = &d->heap[kind][LB_PC_LARGE];
	}
	__atomic_fetch_add(&h->reserved, csize, __ATOMIC_RELAXED);
	lb_pmax(&d->reserved_peak,
		__atomic_load_n(&d->reserved, __ATOMIC_RELAXED));
	lb_padd(&lb_pstat.chunks, 1);
	lb_pmax((size_t *)&lb_pstat.chunks_peak,
		__atomic_load_n(&lb_pstat.chunks, __ATOMIC_RELAXED));
	c->base = (uintptr_t)p;
	c->size = csize;
	c->heap = h;
	c->first = b;
	c->oversize = oversize || size > lb_popt.max_block;
	b->ptr = c->base;
	b->size = csize;
	b->chunk = c;
	lb_pb_set(b, LB_B_FREEING); /* not findable as free until binned */
	lb_pmap_insert(b);
	lb_pchunks_add(c);

	pthread_mutex_lock(&h->lock);
	c->next = h->chunks;
	h->chunks = c;
	h->free_bytes += csize;
	lb_bin_insert(h, b);
	lb_take(h, b, size, asked);
	pthread_mutex_unlock(&h->lock);
	*out = p;
	return LB_ST_OK;
}

void lb_pheap_release(struct lb_pblock *b)
{
	struct lb_pheap *h = b->chunk->heap;

	pthread_mutex_lock(&h->lock);
	h->free_bytes += b->size;
	__atomic_fetch_sub(&h->dev->inuse, b->size, __ATOMIC_RELAXED);
	if (lb_pfence_done(h->dev, b->fence)) {
		lb_binready(h, b);
	} else {
		lb_pb_set(b, LB_B_PENDING);
		b->fnext = NULL;
		if (h->pend_tail)
			h->pend_tail->fnext = b;
		else
			h->pend_head = b;
		h->pend_tail = b;
		h->pend_bytes += b->size;
	}
	pthread_mutex_unlock(&h->lock);
}

/* Unlinks c from h's chunk list (heap lock held). */
static void lb_chunk_unlink(struct lb_pheap *h, struct lb_pchunk *c)
{
	struct lb_pchunk **pp;

	for (pp = &h->chunks; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			return;
		}
	}
}

size_t lb_pheap_trim(struct lb_pdev *d)
{
	struct lb_pchunk *gone = NULL, *c, *next;
	size_t bytes = 0;
	int k, s;

	lb_ptc_flush(d->id, 0);
	lb_pfence_wait_all(d);
	for (k = 0; k < LB_PK_COUNT; k++) {
		for (s = 0; s < LB_PC_COUNT; s++) {
			struct lb_pheap *h = &d->heap[k][s];

			pthread_mutex_lock(&h->lock);
			lb_heap_pending(h);
			for (c = h->chunks; c; c = next) {
				struct lb_pblock *b = c->first;

				next = c->next;
				if (!lb_is_free(b) || b->size != c->size)
					continue;
				lb_bin_remove(h, b);
				lb_chunk_unlink(h, c);
				lb_pmap_remove(b);
				h->free_bytes -= c->size;
				c->next = gone;
				gone = c;
			}
			pthread_mutex_unlock(&h->lock);
		}
	}
	for (c = gone; c; c = next) {
		next = c->next;
		lb_pchunks_remove(c);
		lb_rt->mem_free((void *)c->base);
		__atomic_sub_fetch(&d->reserved, c->size, __ATOMIC_RELAXED);
		__atomic_sub_fetch(&c->heap->reserved, c->size,
				   __ATOMIC_RELAXED);
		__atomic_sub_fetch(&lb_pstat.chunks, 1, __ATOMIC_RELAXED);
		bytes += c->size;
		lb_pblock_put(c->first);
		free(c);
	}
	if (bytes)
		lb_padd(&lb_pstat.trims, 1);
	return bytes;
}

void lb_pheap_drop(struct lb_pdev *d)
{
	struct lb_pchunk *gone = NULL, *c, *cn;
	struct lb_pblock *b, *bn;
	int k, s;

	lb_ptc_flush(d->id, 1);
	for (k = 0; k < LB_PK_COUNT; k++) {
		for (s = 0; s < LB_PC_COUNT; s++) {
			struct lb_pheap *h = &d->heap[k][s];

			pthread_mutex_lock(&h->lock);
			for (c = h->chunks; c; c = cn) {
				cn = c->next;
				for (b = c->first; b; b = b->next)
					lb_pmap_remove(b);
				c->next = gone;
				gone = c;
			}
			h->chunks = NULL;
			h->pend_head = h->pend_tail = NULL;
			h->free_bytes = h->pend_bytes = 0;
			__atomic_store_n(&h->reserved, 0, __ATOMIC_RELAXED);
			memset(h->bins, 0, sizeof(h->bins));
			memset(h->bitmap, 0, sizeof(h->bitmap));
			pthread_mutex_unlock(&h->lock);
		}
	}
	/* out of the index first: lb_plocate may be walking them */
	for (c = gone; c; c = cn) {
		cn = c->next;
		lb_pchunks_remove(c);
		__atomic_sub_fetch(&lb_pstat.chunks, 1, __ATOMIC_RELAXED);
		for (b = c->first; b; b = bn) {
			bn = b->next;
			lb_pblock_put(b);
		}
		free(c);
	}
	__atomic_store_n(&d->reserved, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&d->inuse, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&d->inuse_asked, 0, __ATOMIC_RELAXED);
}
