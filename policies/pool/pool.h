/*
 * pool.h - the pool policy's internals, shared by policies/pool*.c.
 *
 * Shape (in the spirit of PyTorch's caching allocator):
 *
 *   lb_pdev      one per device: its heaps, fences, accounting
 *   lb_pheap     per (device, memory kind, size class): chunks obtained
 *                from the runtime, free blocks in size bins, blocks whose
 *                device work is still pending; one mutex each
 *   lb_pblock    one sub-allocation of a chunk; every block that exists
 *                is in the block map (pool_map.c), keyed by its address
 *   lb_pfence    events recorded at a free on every stream of the device
 *                that received work since the previous fence; a freed
 *                block carries the fence's sequence number and is handed
 *                out again only once the device's completed sequence
 *                reaches it
 *   thread cache a few recently freed small blocks per thread, in front
 *                of the heaps, so that a hot alloc/free loop takes no
 *                shared lock (pool_tcache.c)
 *
 * Lock order, outermost first: chunk index rwlock -> heap mutex ->
 * map shard spinlock; a device's fence mutex is taken with no heap lock
 * held except by the non-blocking poll (trylock), and dropped while it
 * waits for an event.  The thread-cache registry mutex may be held while
 * taking a heap lock; a thread cache itself (membarrier handshake or
 * spinlock, pool_tcache.c) is never held while taking any other lock.
 */
#ifndef LB_POOL_H
#define LB_POOL_H

#include <pthread.h>
#include <stdint.h>
#include <stddef.h>
#include "shim.h"

#define LB_PALIGN 256u			/* block start and size granule */
#define LB_PSMALL ((size_t)1 << 20)	/* small blocks: up to 1 MiB */
#define LB_PSMALL_CHUNK ((size_t)2 << 20) /* chunk of the small heaps */
#define LB_PROUND_LARGE ((size_t)2 << 20) /* large chunks round to 2 MiB */
#define LB_PMAXDEV 64			/* devices beyond pass through */
#define LB_PSMALL_BINS 4096		/* exact bins of 256 bytes */
#define LB_PBINS (LB_PSMALL_BINS + 44 * 16) /* + 16 per power of two */

enum lb_pkind { LB_PK_DEVICE, LB_PK_MANAGED, LB_PK_COUNT };
enum lb_pclass { LB_PC_SMALL, LB_PC_LARGE, LB_PC_COUNT };

/*
 * Block states.  A block's state and start share one word, its tag
 * (ptr | state, atomic): a hipFree claims the live block at p with one
 * compare-and-swap of p | LIVE, which succeeds only on the block that is
 * live at p at that instant, however the free found it (pool_map.c).
 * Block starts are multiples of 8 for that (pool_heap.c checks chunks).
 */
enum lb_pstate {
	LB_B_FREE,    /* in a heap bin, ready, may coalesce */
	LB_B_LIVE,    /* handed out to the program */
	LB_B_FREEING, /* claimed by a hipFree in progress */
	LB_B_CACHED,  /* in a thread cache */
	LB_B_PENDING, /* in a heap's pending list, fence not yet complete */
	LB_B_UNUSED,  /* a block struct not in use (pool_map.c) */
};
#define LB_PTAG_MASK ((uintptr_t)7)

/* A tiny spinlock: for locks held a few instructions long. */
typedef struct {
	int v;
} lb_spin_t;

static inline void lb_spin_lock(lb_spin_t *l)
{
	while (__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&l->v, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
	}
}

static inline void lb_spin_unlock(lb_spin_t *l)
{
	__atomic_store_n(&l->v, 0, __ATOMIC_RELEASE);
}

/* Everything here is the library's own: no GOT in the hot paths. */
#pragma GCC visibility push(hidden)

struct lb_pheap;
struct lb_pdev;

struct lb_pchunk {
	uintptr_t base;
	size_t size;
	struct lb_pheap *heap;
	struct lb_pblock *first; /* lowest block; blocks tile the chunk */
	int oversize;		 /* one block, never split */
	struct lb_pchunk *next;	 /* the heap's chunk list */
};

/*
 * Block structs are never given back to malloc (pool_map.c recycles them):
 * a free may read the tag of a struct that a stale map chain led it to.
 * Each has cache lines of its own, since the threads that use two
 * neighbouring blocks write their tags on every allocation and free.
 */
struct lb_pblock {
	uintptr_t tag;	/* ptr | enum lb_pstate, atomic */
	uintptr_t ptr;	/* constant while the block is in the map */
	size_t size;  /* bytes the block spans (multiple of 256) */
	size_t asked; /* bytes asked: what queries report as its size */
	struct lb_pchunk *chunk;
	struct lb_pblock *prev, *next;	 /* neighbours in the chunk */
	struct lb_pblock *fprev, *fnext; /* bin or pending list */
	struct lb_pblock *hnext;	 /* map chain (atomic) */
	uint64_t fence;			 /* device fence sequence at free */
	uintptr_t tckey; /* while live or cached: its thread-cache key
			  * (pool_tc.h), 0 when it does not go there */
	int bin;	 /* bin index while LB_B_FREE */
} __attribute__((aligned(64)));

static inline int lb_pb_state(const struct lb_pblock *b)
{
	return (int)(__atomic_load_n(&b->tag, __ATOMIC_ACQUIRE) &
		     LB_PTAG_MASK);
}

/* Sets b's state (b->ptr is its start); publishes the block's fields. */
static inline void lb_pb_set(struct lb_pblock *b, int st)
{
	__atomic_store_n(&b->tag, b->ptr | (uintptr_t)st, __ATOMIC_RELEASE);
}

struct lb_pheap {
	pthread_mutex_t lock;
	struct lb_pdev *dev;
	int kind, cls;
	struct lb_pchunk *chunks;
	struct lb_pblock *pend_head, *pend_tail;
	size_t free_bytes; /* in bins and pending */
	size_t pend_bytes; /* in pending */
	size_t reserved;   /* atomic: bytes of the heap's chunks */
	uint64_t bitmap[(LB_PBINS + 63) / 64];
	struct lb_pblock *bins[LB_PBINS];
};

/* What the stream table knows about a stream. */
struct lb_pstream {
	uintptr_t key;	/* the handle; 0 empty, LB_PS_TOMB deleted */
	int dev;
	int dirty;	/* received work since the last fence (atomic) */
	int capturing;	/* being captured: its work does not run now (on a
			 * device's null entry: per-thread streams captured) */
	struct lb_pstream *dnext; /* the device's dirty list */
	/* the thread whose work reached it last (atomic: lb_pf_me(), or
	 * LB_PS_ANY where the work does not tell: pool_fence.c, syncs) */
	uintptr_t owner;
};
#define LB_PS_ANY ((uintptr_t)1)
#define LB_PS_TOMB UINTPTR_MAX

struct lb_pfence {
	struct lb_pfence *next;
	uint64_t seq;
	int n, ndone;
	lb_event ev[];
};

struct lb_pdev {
	int id;
	struct lb_pheap heap[LB_PK_COUNT][LB_PC_COUNT];

	/* fences (pool_fence.c), under flock */
	pthread_mutex_t flock __attribute__((aligned(64)));
	struct lb_pstream null_entry; /* the legacy null stream */
	struct lb_pstream *dirty;
	int ndirty;	    /* atomic: entries in the dirty list */
	int ncapturing;	    /* streams of the device being captured */
	int sync_fallback;  /* atomic: a stream we could not track: sync */
	uint64_t last_seq;  /* atomic: last fence created */
	uint64_t done_seq;  /* atomic: every fence up to it completed */
	struct lb_pfence *fhead, *ftail;
	lb_event *evfree;
	int nevfree, evcap;

	/*
	 * accounting (atomic), on lines of its own: the heaps write it,
	 * while every allocation and free reads the fence fields above.
	 * inuse_asked: live blocks' asked sizes, each rounded to 256, less
	 * what the thread caches count themselves (lb_ptc_inuse_asked).
	 */
	size_t reserved __attribute__((aligned(64)));
	size_t inuse, reserved_peak, inuse_peak;
	size_t inuse_asked;
	uint64_t limit;	   /* bytes, 0 = none */
	int pitch_align;
};

/* Options, read at init (pool.c). */
struct lb_popts {
	uint64_t chunk;	    /* LBSHIM_POOL_CHUNK */
	uint64_t max_block; /* LBSHIM_POOL_MAX_BLOCK */
	uint64_t limit;	    /* LBSHIM_POOL_LIMIT in bytes, or ... */
	unsigned limit_pct; /* ... in percent of the device's memory (0: no) */
	int free_sync;	    /* LBSHIM_POOL_FREE=sync */
	uint64_t bypass;    /* LBSHIM_POOL_BYPASS: from this size, the
			     * runtime's (0: none) */
};
extern struct lb_popts lb_popt LB_HIDDEN;

/*
 * What the trace's pool notes say, counted: allocation and free calls
 * whose record says pool=hit (served from memory the pool held, the
 * runtime not called) or pool=miss (the runtime was called for it).
 */
enum { LB_PCNT_ALLOC_HIT, LB_PCNT_ALLOC_MISS, LB_PCNT_FREE_HIT,
       LB_PCNT_FREE_MISS, LB_PCNT_N };

/* Process-wide counters (atomic). */
struct lb_pstats {
	uint64_t cnt[LB_PCNT_N]; /* of threads gone, and without a cache */
	uint64_t pending_frees, chunks, chunks_peak, trims, bad_frees;
	uint64_t retries; /* refused allocations retried (lb_pool_retry) */
};
extern struct lb_pstats lb_pstat LB_HIDDEN;

static inline void lb_padd(uint64_t *c, uint64_t n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

static inline void lb_pmax(size_t *peak, size_t v)
{
	size_t p = __atomic_load_n(peak, __ATOMIC_RELAXED);

	while (v > p && !__atomic_compare_exchange_n(peak, &p, v, 1,
						     __ATOMIC_RELAXED,
						     __ATOMIC_RELAXED))
		;
}

/* ---- pool.c ---- */

/* Set in a forked child: every hook passes the call through. */
extern int lb_pool_off LB_HIDDEN;

extern struct lb_pdev *lb_pdevs[LB_PMAXDEV] LB_HIDDEN; /* atomic */
extern LB_TLS int lb_pcur1; /* current device + 1; 0: not known yet */

/* Device id if it exists already, else NULL (no creation). */
static inline struct lb_pdev *lb_pdev_peek(int id)
{
	if ((unsigned)id >= LB_PMAXDEV)
		return NULL;
	return __atomic_load_n(&lb_pdevs[id], __ATOMIC_ACQUIRE);
}

struct lb_pdev *lb_pdev_create(int id);

/* The device struct of id, created on first use; NULL if out of range. */
static inline struct lb_pdev *lb_pdev_get(int id)
{
	struct lb_pdev *d = lb_pdev_peek(id);

	if (LB_LIKELY(d) || (unsigned)id >= LB_PMAXDEV)
		return d;
	return lb_pdev_create(id);
}

int lb_pool_curdev_ask(void);

/* The calling thread's current device (cached; 0 if the runtime fails). */
static inline int lb_pool_curdev(void)
{
	if (LB_LIKELY(lb_pcur1))
		return lb_pcur1 - 1;
	return lb_pool_curdev_ask();
}
/* Updates the cache after a successful hipSetDevice. */
void lb_pool_setdev(int id);
/*
 * Makes dev current on the calling thread for a runtime call; returns the
 * device to restore with lb_pool_restore_dev(), or -1 if none is needed.
 */
int lb_pool_enter_dev(int dev);
void lb_pool_restore_dev(int prev);

/* ---- pool_map.c: block map and chunk index ---- */

#define LB_PMAP_SHARDS 256
#define LB_PMAP_BUCKETS 512 /* per shard */
#define LB_PMAP_WALK 8	    /* chain links read without the lock */

struct lb_pmap_shard {
	lb_spin_t lock;
	struct lb_pblock *b[LB_PMAP_BUCKETS]; /* atomic */
} __attribute__((aligned(64)));
extern struct lb_pmap_shard lb_pmap[LB_PMAP_SHARDS] LB_HIDDEN;

static inline struct lb_pmap_shard *lb_pshard(uintptr_t p, unsigned *bucket)
{
	uint64_t h = ((uint64_t)p >> 8) * 0x9E3779B97F4A7C15ull;

	*bucket = (unsigned)(h >> 32) % LB_PMAP_BUCKETS;
	return &lb_pmap[(h >> 56) % LB_PMAP_SHARDS];
}

static inline struct lb_pblock *lb_pnext(struct lb_pblock *const *pp)
{
	return __atomic_load_n(pp, __ATOMIC_ACQUIRE);
}

/* b's tag from p | LIVE to p | FREEING: 1 if this call did it. */
static inline int lb_pclaim_tag(struct lb_pblock *b, uintptr_t p)
{
	uintptr_t t = p | LB_B_LIVE;

	return __atomic_compare_exchange_n(&b->tag, &t, p | LB_B_FREEING, 0,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/*
 * lb_pmap_claim() without the lock (pool_map.c says why that is safe):
 * the block claimed, or NULL, which may also be a block it missed.
 */
static inline struct lb_pblock *lb_pmap_claim_fast(uintptr_t p)
{
	struct lb_pmap_shard *s;
	struct lb_pblock *b;
	unsigned k;
	int n;

	if (!p || (p & LB_PTAG_MASK))
		return NULL; /* no block starts there */
	s = lb_pshard(p, &k);
	b = lb_pnext(&s->b[k]);
	for (n = 0; b && n < LB_PMAP_WALK; n++) {
		uintptr_t t = __atomic_load_n(&b->tag, __ATOMIC_ACQUIRE);

		if ((t & ~LB_PTAG_MASK) == p) {
			if ((t & LB_PTAG_MASK) == LB_B_LIVE &&
			    lb_pclaim_tag(b, p))
				return b;
			break;
		}
		b = lb_pnext(&b->hnext);
	}
	return NULL;
}

void lb_pmap_insert(struct lb_pblock *b);
void lb_pmap_remove(struct lb_pblock *b);
/*
 * Claims the live block starting at p for freeing (state LIVE -> FREEING)
 * and returns it; NULL when no block starts at p (*found = 0) or the
 * block there is not live (*found = 1: a double free).
 */
struct lb_pblock *lb_pmap_claim(uintptr_t p, int *found);
/* A block struct for a block at ptr (state FREEING), or NULL; and back. */
struct lb_pblock *lb_pblock_new(uintptr_t ptr);
void lb_pblock_put(struct lb_pblock *b);
void lb_pchunks_add(struct lb_pchunk *c);
void lb_pchunks_remove(struct lb_pchunk *c);

/* What lb_plocate found about an address. */
struct lb_ploc {
	int in_pool;	 /* address inside a chunk of the pool */
	int live;	 /* ... inside a live block */
	uintptr_t base;	 /* the block */
	size_t size;	 /* its size as reported (asked, rounded to 256) */
	int dev, kind;
};
/* Fills *loc for address p (chunk index, then the chunk's blocks). */
void lb_plocate(uintptr_t p, struct lb_ploc *loc);
/* Is [p, p+1) inside a chunk of the pool?  Cheap negative answer. */
int lb_pchunks_contain(uintptr_t p);

/* ---- pool_heap.c ---- */

void lb_pheap_init(struct lb_pheap *h, struct lb_pdev *d, int kind, int cls);
/* n rounded up to the pool's granule, as hipemu (and the runtime, at
 * least) round an allocation's charge: what a live block costs in use. */
static inline size_t lb_pround(size_t n)
{
	return (n + LB_PALIGN - 1) & ~(size_t)(LB_PALIGN - 1);
}

/*
 * Serves rsize bytes (a multiple of 256; asked = size to report) of kind
 * on device d from its heaps or a new chunk.  Returns hipSuccess with *out
 * set, or hipErrorOutOfMemory (or the runtime's error) with *out unchanged.
 * *hit is set to 1 when no chunk had to be obtained.
 */
lb_status lb_pheap_alloc(struct lb_pdev *d, int kind, size_t rsize,
			  size_t asked, void **out, int *hit);
/* lb_pheap_alloc's answer when the call should go to the runtime: no
 * hipError_t has this value. */
#define LB_PERR_PASS ((lb_status)0x7fff0001)
/* Returns a claimed block (state FREEING or CACHED) to its heap. */
void lb_pheap_release(struct lb_pblock *b);
/*
 * Gives back to the runtime every chunk of d whose blocks are all free,
 * after waiting for their pending device work.  Returns bytes released.
 */
size_t lb_pheap_trim(struct lb_pdev *d);
/* Forgets d's chunks without freeing them (hipDeviceReset freed them). */
void lb_pheap_drop(struct lb_pdev *d);
/* Bin index of a size (exported for the thread cache and tests). */
int lb_pbin_of(size_t size);

/* ---- pool_tcache.c ---- */

/* Chooses how caches are guarded (membarrier or spinlocks); at init. */
void lb_ptc_init(void);
/* lb_ptc_get, lb_ptc_put, lb_ptc_count: pool_tc.h */
/* Moves every cached block of device dev (-1: all) to its heap, or drops
 * it when drop is set (the device was reset). */
void lb_ptc_flush(int dev, int drop);
/* Moves the calling thread's cached blocks to their heaps; how many. */
int lb_ptc_flush_mine(void);
/* Blocks up to this size go through the thread caches. */
#define LB_TC_MAX_BLOCK ((size_t)256 << 10)
/* Device d's inuse_asked with the threads' own counts (pool.h). */
size_t lb_ptc_inuse_asked(struct lb_pdev *d);
/* The calling thread is exiting. */
void lb_ptc_thread_exit(void);
/* Sums of the counters of every thread, live and gone. */
void lb_ptc_totals(uint64_t v[LB_PCNT_N]);

/* ---- pool_fence.c ---- */

/* Work was submitted to stream s (after the runtime accepted it). */
void lb_pfence_work(lb_stream s, int spt);
/*
 * Work was submitted on streams the call does not name (a launch whose
 * streams are in a parameter block, LB_F_INDIRECT): the current device's
 * next free waits for the whole device, as the runtime's hipFree does.
 */
void lb_pfence_unknown(void);
/*
 * The calling thread's wait for stream s (0 or the legacy handle: the
 * legacy null stream; spt: a per-thread row's) or, with dev >= 0, for the
 * whole of device dev returned: the work it covered needs no fence.
 */
void lb_pfence_synced(lb_stream s, int spt);
void lb_pfence_synced_device(int dev);
uint64_t lb_pfence_for_free_slow(struct lb_pdev *d);
/* Returns the fence sequence a block of d freed now must wait for. */
static inline uint64_t lb_pfence_for_free(struct lb_pdev *d)
{
	/* nothing submitted since the last fence: it covers this free */
	if (LB_LIKELY(!__atomic_load_n(&d->sync_fallback, __ATOMIC_ACQUIRE) &&
		      !__atomic_load_n(&d->ndirty, __ATOMIC_ACQUIRE)))
		return __atomic_load_n(&d->last_seq, __ATOMIC_ACQUIRE);
	return lb_pfence_for_free_slow(d);
}
/* Polls d's fences without blocking. */
void lb_pfence_poll(struct lb_pdev *d);
/* Waits until every fence of d up to seq has completed. */
void lb_pfence_wait(struct lb_pdev *d, uint64_t seq);
/* Waits for every fence of d created so far. */
void lb_pfence_wait_all(struct lb_pdev *d);
/* Has every fence up to seq completed? */
static inline int lb_pfence_done(struct lb_pdev *d, uint64_t seq)
{
	return seq <= __atomic_load_n(&d->done_seq, __ATOMIC_ACQUIRE);
}
/* Are fences of d outstanding? */
static inline int lb_pfence_pending(struct lb_pdev *d)
{
	return __atomic_load_n(&d->last_seq, __ATOMIC_ACQUIRE) !=
	       __atomic_load_n(&d->done_seq, __ATOMIC_ACQUIRE);
}
void lb_pstream_created(lb_stream s, int dev);
/* s is about to be destroyed: covers its pending work, forgets it. */
void lb_pstream_gone(lb_stream s);
/*
 * s begins (on, before the runtime is called: the device is fenced first)
 * or ends (or failed to begin) a capture.
 */
void lb_pstream_capture(lb_stream s, int on);
/* s is about to wait for an event: it may join a capture in progress, so
 * its pending work is fenced first. */
void lb_pstream_join(lb_stream s);
/* Is a capture the pool saw begin still in progress anywhere? */
int lb_pcapture_any(void);
/* hipDeviceReset: events and streams of d are gone. */
void lb_pfence_drop(struct lb_pdev *d);
void lb_pfence_init(struct lb_pdev *d);

/* ---- pool_query.c: pointer and memory queries ---- */

/* Pre hook of the queries: 1 when served (c->ret set). */
int lb_pquery_pre(struct lb_call *c);
/* Post hook of every call (restores a redirected pointer first). */
void lb_pquery_post(struct lb_call *c);

/* ---- pool_api.c: the hooks ---- */

int lb_pool_pre(struct lb_call *c);
void lb_pool_post(struct lb_call *c);
/*
 * The serve hook (struct lb_policy) and its rows (hipMalloc, hipFree),
 * chosen with each row's op by its role at init (lb_pool_ops_init).
 */
int lb_pool_serve(int api, void *args);
extern uint8_t lb_pool_serve_rows[LB_API_COUNT] LB_HIDDEN;
void lb_pool_ops_init(void);
/* The runtime refused c: 1 if memory was given back for a second try. */
int lb_pool_retry(struct lb_call *c);

#pragma GCC visibility pop

#endif
