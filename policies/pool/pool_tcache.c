/*
 * pool_tcache.c - per-thread caches of recently freed small blocks.
 *
 * Evaluation code frees and allocates the same sizes over and over; a
 * thread's last few freed small blocks stay in its own cache so that the
 * next allocation of that size takes no shared lock.  A cached block still
 * carries its fence: it is handed out again only once that fence has
 * completed, exactly as from the heap.  The heap counts a cached block as
 * in use, and the bytes asked of the blocks that pass through a cache are
 * counted by the cache itself (asked[], summed by lb_ptc_inuse_asked): the
 * fast path writes no line another thread writes.
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
#include "pool_tc.h"

LB_TLS struct lb_ptc *lb_ptc_self;
static pthread_mutex_t lb_ptc_reg = PTHREAD_MUTEX_INITIALIZER;
static struct lb_ptc *lb_ptc_all;
int lb_ptc_asym;

void lb_ptc_init(void)
{
#ifndef __SANITIZE_THREAD__
	if (!syscall(SYS_membarrier,
		     MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0))
		lb_ptc_asym = 1;
#endif
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
	t = aligned_alloc(64, sizeof(*t));
	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));
	pthread_mutex_lock(&lb_ptc_reg);
	t->next = lb_ptc_all;
	if (lb_ptc_all)
		lb_ptc_all->prev = t;
	lb_ptc_all = t;
	pthread_mutex_unlock(&lb_ptc_reg);
	lb_ptc_self = t;
	return t;
}

/* lb_ptc_put() when the cache is missing, stopped or full. */
void lb_ptc_put_slow(struct lb_pblock *b)
{
	struct lb_ptc *t = lb_ptc_mine();
	struct lb_pheap *h = b->chunk->heap;
	struct lb_pblock *out[LB_TC_N];
	int nout = 0, i;

	if (!t || !lb_ptc_enter(t)) {
		__atomic_fetch_sub(&h->dev->inuse_asked, lb_pround(b->asked),
				   __ATOMIC_RELAXED);
		lb_pheap_release(b);
		return;
	}
	lb_pb_set(b, LB_B_CACHED);
	while (t->n && (t->n == LB_TC_N || t->bytes + b->size > LB_TC_BYTES)) {
		out[nout++] = t->e[0].b;
		lb_ptc_del(t, 0);
	}
	t->e[t->n].key = b->tckey;
	t->e[t->n].fence = b->fence;
	t->e[t->n].b = b;
	t->n++;
	t->bytes += b->size;
	lb_ptc_asked_add(t, h->dev->id, -(int64_t)lb_pround(b->asked));
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
	for (i = 0; i < n; i++)
		out[i] = t->e[i].b;
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
			if (dev < 0 || t->e[i].b->chunk->heap->dev->id == dev) {
				out[n++] = t->e[i].b;
				lb_ptc_del(t, i);
			}
		}
		/* a reset device's counts start again from nothing */
		for (i = 0; drop && i < LB_PMAXDEV; i++)
			if (dev < 0 || i == dev)
				__atomic_store_n(&t->asked[i], 0,
						 __ATOMIC_RELAXED);
		lb_ptc_foreign_unlock(t);
		if (!drop)
			for (i = 0; i < n; i++)
				lb_pheap_release(out[i]);
	}
	lb_ptc_resume_all();
	pthread_mutex_unlock(&lb_ptc_reg);
}

/* lb_ptc_count() before the thread has a cache, or after it exited. */
void lb_ptc_count_slow(int what)
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
	/* the device's counter takes over this thread's part of it, in the
	 * registry's lock: lb_ptc_inuse_asked sees one or the other */
	for (i = 0; i < LB_PMAXDEV; i++) {
		struct lb_pdev *d = lb_pdev_peek(i);

		if (d && t->asked[i])
			__atomic_fetch_add(&d->inuse_asked,
					   (size_t)t->asked[i],
					   __ATOMIC_RELAXED);
	}
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
		lb_pheap_release(t->e[i].b);
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

size_t lb_ptc_inuse_asked(struct lb_pdev *d)
{
	struct lb_ptc *t;
	size_t n;

	pthread_mutex_lock(&lb_ptc_reg);
	n = __atomic_load_n(&d->inuse_asked, __ATOMIC_RELAXED);
	for (t = lb_ptc_all; t; t = t->next)
		n += (size_t)__atomic_load_n(&t->asked[d->id],
					     __ATOMIC_RELAXED);
	pthread_mutex_unlock(&lb_ptc_reg);
	return n;
}
