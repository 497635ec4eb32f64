/*
 * pool_tc.h - the thread cache's owner side, inlined into the hooks'
 * allocation and free (pool_tcache.c has the rest and the why).
 */
#ifndef LB_POOL_TC_H
#define LB_POOL_TC_H

#include <string.h>
#include "pool.h"

#define LB_TC_N 32			/* blocks per thread */
#define LB_TC_BYTES ((size_t)1 << 20)	/* bytes per thread */
#define LB_TC_DEAD ((struct lb_ptc *)1) /* thread past its exit hook */

/* A cached block, with what a lookup compares. */
struct lb_ptc_ent {
	uintptr_t key;	   /* lb_ptc_key() */
	uint64_t fence;	   /* the block's */
	struct lb_pblock *b;
};

struct lb_ptc {
	lb_spin_t lock; /* without membarrier */
	int busy, stop; /* with it (atomic) */
	int n;
	size_t bytes;
	struct lb_ptc_ent e[LB_TC_N]; /* oldest first */
	/* per device: rounded asked bytes of blocks this thread took from
	 * its cache less those it put there (atomic, changed by its owner
	 * only inside lb_ptc_enter/leave) */
	int64_t asked[LB_PMAXDEV];
	uint64_t cnt[LB_PCNT_N];      /* atomic (read by the exit report) */
	struct lb_ptc *prev, *next;   /* registry */
} __attribute__((aligned(64))); /* no line shared with another thread's */

extern LB_TLS struct lb_ptc *lb_ptc_self
	__attribute__((visibility("hidden")));
/* membarrier registered: the handshake */
extern int lb_ptc_asym __attribute__((visibility("hidden")));

/* Size (a multiple of 256), device (< 64) and kind in one word. */
_Static_assert(LB_PMAXDEV == 64 && LB_PALIGN >= 128, "lb_ptc_key");
static inline uintptr_t lb_ptc_key(size_t size, int dev, int kind)
{
	return size | (uintptr_t)dev << 1 | (uintptr_t)kind;
}

static inline void lb_ptc_asked_add(struct lb_ptc *t, int dev, int64_t n)
{
	__atomic_store_n(&t->asked[dev], t->asked[dev] + n, __ATOMIC_RELAXED);
}

/* The owner's side: 1 when it may use its cache, 0 while it is stopped. */
static inline int lb_ptc_enter(struct lb_ptc *t)
{
	if (!lb_ptc_asym) {
		lb_spin_lock(&t->lock);
		return 1;
	}
	__atomic_store_n(&t->busy, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (LB_UNLIKELY(__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE))) {
		__atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
		return 0;
	}
	return 1;
}

static inline void lb_ptc_leave(struct lb_ptc *t)
{
	if (!lb_ptc_asym) {
		lb_spin_unlock(&t->lock);
		return;
	}
	__atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
}

static inline void lb_ptc_del(struct lb_ptc *t, int i)
{
	t->bytes -= t->e[i].b->size;
	t->n--;
	if (i < t->n)
		memmove(t->e + i, t->e + i + 1, (t->n - i) * sizeof(t->e[0]));
}

/* A ready cached block of exactly rsize, kind, device d, or NULL; it is
 * handed out (LIVE) for asked bytes. */
static inline struct lb_pblock *lb_ptc_get(struct lb_pdev *d, int kind,
					   size_t rsize, size_t asked)
{
	struct lb_ptc *t = lb_ptc_self;
	struct lb_pblock *b = NULL;
	uintptr_t key = lb_ptc_key(rsize, d->id, kind);
	int i;

	if (LB_UNLIKELY(!t || t == LB_TC_DEAD) || !lb_ptc_enter(t))
		return NULL;
	/* newest first: a hot loop finds its block at the end */
	for (i = t->n - 1; i >= 0; i--) {
		if (t->e[i].key == key && lb_pfence_done(d, t->e[i].fence)) {
			b = t->e[i].b;
			lb_ptc_del(t, i);
			lb_ptc_asked_add(t, d->id, (int64_t)lb_pround(asked));
			break;
		}
	}
	lb_ptc_leave(t);
	if (b) {
		b->asked = asked;
		b->fence = 0;
		lb_pb_set(b, LB_B_LIVE);
	}
	return b;
}

void lb_ptc_put_slow(struct lb_pblock *b);

/* Puts claimed block b (b->tckey set) in the thread's cache (may evict
 * the oldest, to their heaps); counts its asked bytes as no longer in
 * use, here or (no cache) on its device.  fence: b->fence, which the
 * caller has just stored; passed, not read back, since reading it back
 * with b->tckey (GCC makes one 16-byte load of the two) cannot be served
 * from the pending 8-byte store: a store-forwarding stall that perf
 * showed was most of a free's time. */
static inline void lb_ptc_put(struct lb_pblock *b, uint64_t fence)
{
	struct lb_ptc *t = lb_ptc_self;
	int n;

	if (LB_UNLIKELY(!t || t == LB_TC_DEAD) || !lb_ptc_enter(t)) {
		lb_ptc_put_slow(b);
		return;
	}
	n = t->n;
	if (LB_UNLIKELY(n == LB_TC_N || t->bytes + b->size > LB_TC_BYTES)) {
		lb_ptc_leave(t);
		lb_ptc_put_slow(b);
		return;
	}
	lb_pb_set(b, LB_B_CACHED);
	t->e[n].key = b->tckey;
	t->e[n].fence = fence;
	t->e[n].b = b;
	t->n = n + 1;
	t->bytes += b->size;
	lb_ptc_asked_add(t, (int)(b->tckey >> 1) & (LB_PMAXDEV - 1),
			 -(int64_t)lb_pround(b->asked));
	lb_ptc_leave(t);
}

void lb_ptc_count_slow(int what);

/* Counts one call in counter what (LB_PCNT_*) on this thread. */
static inline void lb_ptc_count(int what)
{
	struct lb_ptc *t = lb_ptc_self;

	if (LB_LIKELY(t && t != LB_TC_DEAD))
		__atomic_store_n(&t->cnt[what], t->cnt[what] + 1,
				 __ATOMIC_RELAXED);
	else
		lb_ptc_count_slow(what);
}

#endif
