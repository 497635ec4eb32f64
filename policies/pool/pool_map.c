/*
 * pool_map.c - which pointers belong to the pool.
 *
 * Two indexes.  The block map finds the block that starts at an address:
 * hipFree asks it on every call, from any thread, so it is a hash split in
 * shards with a spinlock each (no global lock on the free path).  It holds
 * every block that exists, free or live, so that a second free of a block
 * is told apart from a pointer the pool never saw.  The chunk index, a
 * sorted array under a rwlock, answers the rarer "is this address inside
 * the pool at all" (interior pointers, queries, foreign frees).
 *
 * A free first reads its chain without the shard's lock: block structs
 * are never given back to malloc (they are recycled here), so whatever a
 * chain read during a change leads to is a block struct, and the claim is
 * the compare-and-swap of the tag from p | LIVE, which only the block live
 * at p can pass (pool.h).  Only when that finds nothing (a double free, a
 * foreign pointer, a chain changing under it) does the free take the lock
 * and look again, to tell which.  So the hot free takes no lock and
 * writes no line other threads use: one atomic operation, on its block.
 */
#include <stdlib.h>
#include <string.h>
#include "pool.h"

/* In .bss: its pages stay untouched until a shard is used. */
struct lb_pmap_shard lb_pmap[LB_PMAP_SHARDS];

void lb_pmap_insert(struct lb_pblock *b)
{
	struct lb_pmap_shard *s;
	unsigned k;

	s = lb_pshard(b->ptr, &k);
	lb_spin_lock(&s->lock);
	__atomic_store_n(&b->hnext, s->b[k], __ATOMIC_RELAXED);
	__atomic_store_n(&s->b[k], b, __ATOMIC_RELEASE);
	lb_spin_unlock(&s->lock);
}

void lb_pmap_remove(struct lb_pblock *b)
{
	struct lb_pmap_shard *s;
	struct lb_pblock **pp;
	unsigned k;

	s = lb_pshard(b->ptr, &k);
	lb_spin_lock(&s->lock);
	for (pp = &s->b[k]; *pp; pp = &(*pp)->hnext) {
		if (*pp == b) {
			/* b->hnext stays: a reader on b goes on along it */
			__atomic_store_n(pp, b->hnext, __ATOMIC_RELEASE);
			break;
		}
	}
	lb_spin_unlock(&s->lock);
}

struct lb_pblock *lb_pmap_claim(uintptr_t p, int *found)
{
	struct lb_pmap_shard *s;
	struct lb_pblock *b;
	unsigned k;

	*found = 0;
	if (p & LB_PTAG_MASK)
		return NULL; /* no block starts there (pool.h) */
	b = lb_pmap_claim_fast(p);
	if (b) {
		*found = 1;
		return b;
	}
	/* Under the lock the chain is exact and a block's ptr constant. */
	s = lb_pshard(p, &k);
	lb_spin_lock(&s->lock);
	for (b = s->b[k]; b && b->ptr != p; b = b->hnext)
		;
	if (b) {
		*found = 1;
		if (!lb_pclaim_tag(b, p))
			b = NULL;
	}
	lb_spin_unlock(&s->lock);
	return b;
}

/* ---- block structs ---- */

#define LB_PSLAB 64 /* blocks per slab */

struct lb_pslab {
	struct lb_pslab *next; /* every slab, for leak checkers' sake */
	struct lb_pblock b[LB_PSLAB];
};

static lb_spin_t lb_pbf_lock;
static struct lb_pblock *lb_pbf; /* unused structs, through fnext */
static struct lb_pslab *lb_pslabs;

struct lb_pblock *lb_pblock_new(uintptr_t ptr)
{
	struct lb_pblock *b;

	lb_spin_lock(&lb_pbf_lock);
	b = lb_pbf;
	if (b)
		lb_pbf = b->fnext;
	lb_spin_unlock(&lb_pbf_lock);
	if (!b) {
		struct lb_pslab *sl = aligned_alloc(64, sizeof(*sl));
		int i;

		if (!sl)
			return NULL;
		memset(sl, 0, sizeof(*sl));
		for (i = 0; i < LB_PSLAB; i++)
			sl->b[i].tag = LB_B_UNUSED;
		lb_spin_lock(&lb_pbf_lock);
		sl->next = lb_pslabs;
		lb_pslabs = sl;
		for (i = 1; i < LB_PSLAB; i++) {
			sl->b[i].fnext = lb_pbf;
			lb_pbf = &sl->b[i];
		}
		lb_spin_unlock(&lb_pbf_lock);
		b = &sl->b[0];
	}
	/* every field but the tag, which a stale reader may be reading */
	b->ptr = ptr;
	b->size = 0;
	b->asked = 0;
	b->chunk = NULL;
	b->prev = b->next = NULL;
	b->fprev = b->fnext = NULL;
	__atomic_store_n(&b->hnext, NULL, __ATOMIC_RELAXED);
	b->fence = 0;
	b->tckey = 0;
	b->bin = 0;
	lb_pb_set(b, LB_B_FREEING); /* not findable as free or live yet */
	return b;
}

void lb_pblock_put(struct lb_pblock *b)
{
	if (!b)
		return;
	__atomic_store_n(&b->tag, LB_B_UNUSED, __ATOMIC_RELEASE);
	lb_spin_lock(&lb_pbf_lock);
	b->fnext = lb_pbf;
	lb_pbf = b;
	lb_spin_unlock(&lb_pbf_lock);
}

/* ---- chunk index ---- */

static pthread_rwlock_t lb_pci_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct lb_pchunk **lb_pci;
static size_t lb_pci_n, lb_pci_cap;
static uintptr_t lb_pci_lo = UINTPTR_MAX, lb_pci_hi; /* atomic bounds */

/* First index whose chunk base is > p. */
static size_t lb_pci_upper(uintptr_t p)
{
	size_t lo = 0, hi = lb_pci_n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (lb_pci[mid]->base <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void lb_pchunks_add(struct lb_pchunk *c)
{
	size_t i;

	pthread_rwlock_wrlock(&lb_pci_lock);
	if (lb_pci_n == lb_pci_cap) {
		size_t cap = lb_pci_cap ? 2 * lb_pci_cap : 64;
		struct lb_pchunk **n = realloc(lb_pci, cap * sizeof(*n));

		if (!n) {
			/* Unindexed: frees still work through the map,
			 * only interior-pointer checks miss this chunk. */
			pthread_rwlock_unlock(&lb_pci_lock);
			return;
		}
		lb_pci = n;
		lb_pci_cap = cap;
	}
	i = lb_pci_upper(c->base);
	memmove(lb_pci + i + 1, lb_pci + i, (lb_pci_n - i) * sizeof(*lb_pci));
	lb_pci[i] = c;
	lb_pci_n++;
	if (c->base < __atomic_load_n(&lb_pci_lo, __ATOMIC_RELAXED))
		__atomic_store_n(&lb_pci_lo, c->base, __ATOMIC_RELAXED);
	if (c->base + c->size > __atomic_load_n(&lb_pci_hi, __ATOMIC_RELAXED))
		__atomic_store_n(&lb_pci_hi, c->base + c->size,
				 __ATOMIC_RELAXED);
	pthread_rwlock_unlock(&lb_pci_lock);
}

void lb_pchunks_remove(struct lb_pchunk *c)
{
	size_t i;

	pthread_rwlock_wrlock(&lb_pci_lock);
	for (i = 0; i < lb_pci_n; i++) {
		if (lb_pci[i] == c) {
			memmove(lb_pci + i, lb_pci + i + 1,
				(lb_pci_n - i - 1) * sizeof(*lb_pci));
			lb_pci_n--;
			break;
		}
	}
	pthread_rwlock_unlock(&lb_pci_lock);
}

/* Under the index lock: the chunk containing p, or NULL. */
static struct lb_pchunk *lb_pci_find(uintptr_t p)
{
	size_t i;

	if (p < __atomic_load_n(&lb_pci_lo, __ATOMIC_RELAXED) ||
	    p >= __atomic_load_n(&lb_pci_hi, __ATOMIC_RELAXED))
		return NULL;
	i = lb_pci_upper(p);
	if (i && p - lb_pci[i - 1]->base < lb_pci[i - 1]->size)
		return lb_pci[i - 1];
	return NULL;
}

int lb_pchunks_contain(uintptr_t p)
{
	int r;

	if (p < __atomic_load_n(&lb_pci_lo, __ATOMIC_RELAXED) ||
	    p >= __atomic_load_n(&lb_pci_hi, __ATOMIC_RELAXED))
		return 0;
	pthread_rwlock_rdlock(&lb_pci_lock);
	r = lb_pci_find(p) != NULL;
	pthread_rwlock_unlock(&lb_pci_lock);
	return r;
}

void lb_plocate(uintptr_t p, struct lb_ploc *loc)
{
	struct lb_pchunk *c;
	struct lb_pblock *b;

	memset(loc, 0, sizeof(*loc));
	pthread_rwlock_rdlock(&lb_pci_lock);
	c = lb_pci_find(p);
	if (c) {
		/* chunks leave the index before they are freed, so c and
		 * its heap stay valid while we hold the read lock */
		loc->in_pool = 1;
		loc->dev = c->heap->dev->id;
		loc->kind = c->heap->kind;
		pthread_mutex_lock(&c->heap->lock);
		for (b = c->first; b && b->ptr + b->size <= p; b = b->next)
			;
		if (b && b->ptr <= p && lb_pb_state(b) == LB_B_LIVE &&
		    p < b->ptr + b->asked) {
			loc->live = 1;
			loc->base = b->ptr;
			loc->size = b->asked;
		}
		pthread_mutex_unlock(&c->heap->lock);
	}
	pthread_rwlock_unlock(&lb_pci_lock);
}
