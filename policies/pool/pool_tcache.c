/*
 * pool_tcache.c - per-thread caches of recently freed small blocks.
 *
 * Evaluation code frees and allocates the same sizes over and over; a
 * thread's last few freed small blocks stay in its own cache so that the
 * next allocation of that size takes no shared lock.  A cached block still
 * carries its fence: it is handed out again only once that fence has
 * completed, exactly as from the heap.  The heap counts a cached block as
 * in use: the fast path touches no shared counter.
 *
 * Other threads touch a cache only to flush it (trim on out-of-memory,
 * device reset) or to count it (hipMemGetInfo), rarely; its owner on every
 * allocation and free.  So the owner takes no atomic read-modify-write:
 * it raises its busy flag with a plain store and checks the cache's stop
 * flag; a foreign thread raises stop, runs membarrier(2), which puts a
 * full barrier on every thread of the process, and waits for busy to drop
 * (the asymmetric Dekker handshake of liburcu).  After that the owner
 * either saw stop, and went to the heap, or its busy store was visible.
 * Where membarrier is missing, and under ThreadSanitizer (which cannot see
 * it), each cache has a spinlock instead.
 */
#define _GNU_SOURCE
#include <linux/membarrier.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "pool.h"

#define LB_TC_N 32			/* blocks per thread */
#define LB_TC_BYTES ((size_t)1 << 20)	/* bytes per thread */
#define LB_TC_DEAD ((struct lb_ptc *)1) /* thread past its exit hook */

struct lb_ptc {
	lb_spin_t lock; /* without membarrier */
	int busy, stop; /* with it (atomic) */
	int n;
	size_t bytes;
	struct lb_pblock *b[LB_TC_N]; /* oldest first */
	uint64_t cnt[LB_PCNT_N];      /* atomic (read by the exit report) */
	struct lb_ptc *prev, *next;   /* registry */
};

static LB_TLS struct lb_ptc *lb_ptc_self;
static pthread_mutex_t lb_ptc_reg = PTHREAD_MUTEX_INITIALIZER;
static struct lb_ptc *lb_ptc_all;
static int lb_ptc_asym; /* membarrier registered: the handshake */

void lb_ptc_init(void)
{
#ifndef __SANITIZE_THREAD__
	if (!syscall(SYS_membarrier,
		     MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0))
		lb_ptc_asym = 1;
#endif
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

/* A foreign thread's side, for every registered cache (registry held). */
static void lb_ptc_stop_all(void)
{
	struct lb_ptc *t;

	if (!lb_ptc_asym)
		return;
	for (t = lb_ptc_all; t; t = t->next)
		__atomic_store_n(&t->stop, 1, __ATOMIC_RELAXED);
	syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
	for (t = lb_ptc_all; t; t = t->next)
		while (__atomic_load_n(&t->busy, __ATOMIC_ACQUIRE))
			__builtin_ia32_pause();
}

static void lb_ptc_resume_all(void)
{
	struct lb_ptc *t;

	if (!lb_ptc_asym)
		return;
	for (t = lb_ptc_all; t; t = t->next)
		__atomic_store_n(&t->stop, 0, __ATOMIC_RELEASE);
}

static inline void lb_ptc_foreign_lock(struct lb_ptc *t)
{
	if (!lb_ptc_asym)
		lb_spin_lock(&t->lock);
}

static inline void lb_ptc_foreign_unlock(struct lb_ptc *t)
{
	if (!lb_ptc_asym)
		lb_spin_unlock(&t->lock);
}

static struct lb_ptc *lb_ptc_mine(void)
{
	struct lb_ptc *t = lb_ptc_self;

	if (LB_LIKELY(t))
		return t == LB_TC_DEAD ? NULL : t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	pthread_mutex_lock(&lb_ptc_reg);
	t->next = lb_ptc_all;
	if (lb_ptc_all)
		lb_ptc_all->prev = t;
	lb_ptc_all = t;
	pthread_mutex_unlock(&lb_ptc_reg);
	lb_ptc_self = t;
	return t;
}

static void lb_ptc_del(struct lb_ptc *t, int i)
{
	t->bytes -= t->b[i]->size;
	memmove(t->b + i, t->b + i + 1, (t->n - i - 1) * sizeof(t->b[0]));
	t->n--;
}

struct lb_pblock *lb_ptc_get(struct lb_pdev *d, int kind, size_t rsize,
			     size_t asked)
{
	struct lb_ptc *t = lb_ptc_self;
	struct lb_pblock *b = NULL;
	int i;

	if (!t || t == LB_TC_DEAD || !lb_ptc_enter(t))
		return NULL;
	for (i = t->n - 1; i >= 0; i--) {
		struct lb_pblock *c = t->b[i];

		if (c->size == rsize && c->chunk->heap->kind == kind &&
		    c->chunk->heap->dev == d && lb_pfence_done(d, c->fence)) {
			b = c;
			lb_ptc_del(t, i);
			break;
		}
	}
	lb_ptc_leave(t);
	if (b) {
		b->asked = asked;
		b->fence = 0;
		__atomic_fetch_add(&d->inuse_asked, lb_pround(asked),
				   __ATOMIC_RELAXED);
		__atomic_store_n(&b->state, LB_B_LIVE, __ATOMIC_RELEASE);
	}
	return b;
}

void lb_ptc_put(struct lb_pblock *b)
{
	struct lb_ptc *t = lb_ptc_mine();
	struct lb_pblock *out[LB_TC_N];
	int nout = 0, i;

	if (!t || !lb_ptc_enter(t)) {
		lb_pheap_release(b);
		return;
	}
	__atomic_store_n(&b->state, LB_B_CACHED, __ATOMIC_RELEASE);
	while (t->n && (t->n == LB_TC_N || t->bytes + b->size > LB_TC_BYTES)) {
		out[nout++] = t->b[0];
		lb_ptc_del(t, 0);
	}
	t->b[t->n++] = b;
	t->bytes += b->size;
	lb_ptc_leave(t);
	/* evicted blocks go to their heap outside the spinlock */
	for (i = 0; i < nout; i++)
		lb_pheap_release(out[i]);
}

int lb_ptc_flush_mine(void)
{
	struct lb_ptc *t = lb_ptc_self;
	struct lb_pblock *out[LB_TC_N];
	int n, i;

	if (!t || t == LB_TC_DEAD || !lb_ptc_enter(t))
		return 0;
	n = t->n;
	memcpy(out, t->b, n * sizeof(out[0]));
	t->n = 0;
	t->bytes = 0;
	lb_ptc_leave(t);
	for (i = 0; i < n; i++)
		lb_pheap_release(out[i]);
	return n;
}

void lb_ptc_flush(int dev, int drop)
{
	struct lb_pblock *out[LB_TC_N];
	struct lb_ptc *t;
	int i, n;

	pthread_mutex_lock(&lb_ptc_reg);
	lb_ptc_stop_all();
	for (t = lb_ptc_all; t; t = t->next) {
		n = 0;
		lb_ptc_foreign_lock(t);
		for (i = t->n - 1; i >= 0; i--) {
			if (dev < 0 || t->b[i]->chunk->heap->dev->id == dev) {
				out[n++] = t->b[i];
				lb_ptc_del(t, i);
			}
		}
		lb_ptc_foreign_unlock(t);
		if (!drop)
			for (i = 0; i < n; i++)
				lb_pheap_release(out[i]);
	}
	lb_ptc_resume_all();
	pthread_mutex_unlock(&lb_ptc_reg);
}

size_t lb_ptc_bytes(int dev)
{
	struct lb_ptc *t;
	size_t n = 0;
	int i;

	pthread_mutex_lock(&lb_ptc_reg);
	lb_ptc_stop_all();
	for (t = lb_ptc_all; t; t = t->next) {
		lb_ptc_foreign_lock(t);
		for (i = 0; i < t->n; i++)
			if (t->b[i]->chunk->heap->dev->id == dev)
				n += t->b[i]->size;
		lb_ptc_foreign_unlock(t);
	}
	lb_ptc_resume_all();
	pthread_mutex_unlock(&lb_ptc_reg);
	return n;
}

void lb_ptc_count(int what)
{
	struct lb_ptc *t = lb_ptc_mine();

	if (t)
		__atomic_store_n(&t->cnt[what], t->cnt[what] + 1,
				 __ATOMIC_RELAXED);
	else
		lb_padd(&lb_pstat.cnt[what], 1);
}

void lb_ptc_thread_exit(void)
{
	struct lb_ptc *t = lb_ptc_self;
	int i;

	lb_ptc_self = LB_TC_DEAD;
	if (!t || t == LB_TC_DEAD)
		return;
	pthread_mutex_lock(&lb_ptc_reg);
	if (t->prev)
		t->prev->next = t->next;
	else
		lb_ptc_all = t->next;
	if (t->next)
		t->next->prev = t->prev;
	pthread_mutex_unlock(&lb_ptc_reg);
	for (i = 0; i < LB_PCNT_N; i++)
		lb_padd(&lb_pstat.cnt[i], t->cnt[i]);
	for (i = 0; i < t->n; i++)
		lb_pheap_release(t->b[i]);
	free(t);
}

void lb_ptc_totals(uint64_t v[LB_PCNT_N])
{
	struct lb_ptc *t;
	int i;

	for (i = 0; i < LB_PCNT_N; i++)
		v[i] = __atomic_load_n(&lb_pstat.cnt[i], __ATOMIC_RELAXED);
	pthread_mutex_lock(&lb_ptc_reg);
	for (t = lb_ptc_all; t; t = t->next)
		for (i = 0; i < LB_PCNT_N; i++)
			v[i] += __atomic_load_n(&t->cnt[i], __ATOMIC_RELAXED);
	pthread_mutex_unlock(&lb_ptc_reg);
}
