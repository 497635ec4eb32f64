/*
 * stream0_mem.c - the memory the launch-level check knows: every
 * allocation made through the shim (the pool's blocks, the runtime's,
 * and so the blocks a program caches for itself), by its start, with the
 * last touch of it (struct s0_hz_alloc, stream0_hazard.h); and the 1 MB
 * granules that ever held one, where a kernel's argument word counts as
 * a pointer.
 *
 * An allocation's record is made when the runtime or the pool hands it
 * out, with no touch: what touched its bytes before is complete by then
 * (a hipFree waits for the device: clr hipamd/src/hip_memory.cpp,
 * ihipFree, rocm-6.2.0; the pool hands a block out again only once the
 * work queued before its free is done).  It is marked freed at its free,
 * and its slot is taken by the next allocation at the same start, or by
 * any other once freed.  Writers hold hza_lock; the launch path reads
 * without a lock (a slot being reused may be read half-written: a
 * dependency may then be missed or found once too often).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "stream0.h"
#include "stream0_hazard.h"

struct s0_hz_alloc *s0_hza;
struct s0_hz_gen s0_hz_owner_gen;
static pthread_mutex_t hza_lock = PTHREAD_MUTEX_INITIALIZER;
static int hza_warned;

#define HZ_KNOWN_BITS 14
#define HZ_KNOWN_SHIFT 20
#define HZ_KNOWN_MAXG 4096 /* granules of one allocation marked (4 GB) */
#define HZ_KNOWN_PROBES 8
static uint64_t hz_known[1u << HZ_KNOWN_BITS]; /* granule + 1; 0 empty */
static int hz_known_full;
uint64_t s0_hz_known_gen;

static inline unsigned hz_known_slot(uint64_t g)
{
	return (unsigned)((g * 0x9E3779B97F4A7C15ull) >> (64 - HZ_KNOWN_BITS));
}

/* Marks the 1 MB granules of [p, p + size): a set never shrunk. */
static void hz_known_add(uintptr_t p, size_t size)
{
	uint64_t g, g0 = p >> HZ_KNOWN_SHIFT, g1;
	unsigned i, j;

	g1 = (p + size - 1) >> HZ_KNOWN_SHIFT;
	if (g1 - g0 >= HZ_KNOWN_MAXG)
		g1 = g0 + HZ_KNOWN_MAXG - 1;
	for (g = g0; g <= g1; g++) {
		for (j = 0; j < HZ_KNOWN_PROBES; j++) {
			uint64_t want = 0;

			i = (hz_known_slot(g) + j) & ((1u << HZ_KNOWN_BITS) - 1);
			if (__atomic_compare_exchange_n(&hz_known[i], &want,
							g + 1, 0,
							__ATOMIC_RELAXED,
							__ATOMIC_RELAXED)) {
				/* release: a memo that sees it sees the slot */
				__atomic_add_fetch(&s0_hz_known_gen, 1,
						   __ATOMIC_RELEASE);
				break;
			}
			if (want == g + 1)
				break;
		}
		if (j == HZ_KNOWN_PROBES &&
		    !__atomic_exchange_n(&hz_known_full, 1, __ATOMIC_RELAXED))
			lb_log(LB_LOG_INFO,
			       "stream0: the hazard check's map of allocations "
			       "is full; kernels' pointers into newer ones are "
			       "not checked");
	}
}

/* The last granule found known, per thread: tensors share segments. */
static LB_TLS uint64_t hz_known_last;

int s0_hz_is_known(uintptr_t p)
{
	uint64_t g = (p >> HZ_KNOWN_SHIFT) + 1, k;
	unsigned i, j;

	if (g == hz_known_last)
		return 1;
	i = hz_known_slot(g - 1);
	for (j = 0; j < HZ_KNOWN_PROBES; j++) {
		k = S0_LOAD(hz_known[(i + j) & ((1u << HZ_KNOWN_BITS) - 1)]);
		if (k == g) {
			hz_known_last = g;
			return 1;
		}
		if (!k)
			return 0;
	}
	return 0;
}

struct s0_hz_alloc *s0_hza_find(uintptr_t p)
{
	struct s0_hz_alloc *a;
	uintptr_t b = p & ~(uintptr_t)(S0_HZ_ALIGN - 1);
	int i;

	if (!s0_hza)
		return NULL;
	for (i = 0; i <= S0_HZ_DOWN && b; i++, b -= S0_HZ_ALIGN) {
		a = s0_hza_at(b);
		if (a)
			return p < S0_LOAD(a->end) ? a : NULL;
	}
	return NULL;
}

void s0_hz_allocated(uintptr_t p, size_t size)
{
	struct s0_hz_alloc *a, *use = NULL;
	unsigned i, j;
	uint64_t b;

	if (!p || !size || p + size < p)
		return;
	hz_known_add(p, size);
	/* fresh memory: what touched it before is complete */
	if (size > S0_HZ_SMALL)
		s0_hz_range_clear(p, p + size);
	if (!s0_hza)
		return;
	i = s0_hza_slot(p);
	pthread_mutex_lock(&hza_lock);
	for (j = 0; j < S0_HZA_PROBES; j++) {
		a = &s0_hza[(i + j) & ((1u << S0_HZA_BITS) - 1)];
		b = S0_LOAD(a->base);
		if (b == p) {
			use = a;
			break;
		}
		if (!use && (!b || !S0_LOAD(a->end)))
			use = a;
		if (!b)
			break;
	}
	if (use) {
		S0_STORE(use->end, 0);
		S0_STORE(use->tag, 0);
		S0_STORE(use->sub, 0);
		/* release: a reader that sees the start sees the rest reset */
		__atomic_store_n(&use->base, (uint64_t)p, __ATOMIC_RELEASE);
		S0_STORE(use->end, (uint64_t)(p + size));
		s0_hz_owner_moved();
	}
	pthread_mutex_unlock(&hza_lock);
	if (!use && !__atomic_exchange_n(&hza_warned, 1, __ATOMIC_RELAXED))
		lb_log(LB_LOG_INFO,
		       "stream0: the hazard check's table of allocations is "
		       "full; some are followed by their pages only");
}

void s0_hz_freed(uintptr_t p)
{
	struct s0_hz_alloc *a;
	uint64_t end;

	if (!p || !s0_hza)
		return;
	pthread_mutex_lock(&hza_lock);
	a = s0_hza_at(p);
	if (a) {
		end = S0_LOAD(a->end);
		S0_STORE(a->end, 0);
		S0_STORE(a->tag, 0);
		s0_hz_owner_moved();
		/* a large one's windows: complete once it is handed out */
		if (end - p > S0_HZ_SMALL)
			s0_hz_range_clear(p, end);
	}
	pthread_mutex_unlock(&hza_lock);
}

void s0_hz_mem_fork_child(void)
{
	pthread_mutex_init(&hza_lock, NULL);
	/* the child has no pending work: no touch is anybody's */
	if (s0_hza) {
		size_t i;

		for (i = 0; i < (size_t)1 << S0_HZA_BITS; i++)
			s0_hza[i].tag = 0;
	}
	s0_hz_owner_moved();
}
