/*
 * stream0_hazard.h - the launch-level check of remap mode, shared by
 * stream0.c (which calls it from its hooks), stream0_touch.c (what each
 * call touches), stream0_mem.c (the memory allocated through the shim,
 * and the last touch of each allocation) and stream0_hazard.c (who
 * touched what last, whether that work is done, and the ordering of what
 * is not).  See lbshim(7), "The launch-level check".
 */
#ifndef LB_STREAM0_HAZARD_H
#define LB_STREAM0_HAZARD_H

#include <stdint.h>
#include "shim.h"

#define S0_HZ_GRAN_SHIFT 12 /* the range table's granule: 4 KB */
#define S0_HZ_GRAN (1u << S0_HZ_GRAN_SHIFT)
#define S0_HZ_GRAN_MASK (S0_HZ_GRAN - 1)
#define S0_HZ_MAXGRAN 64 /* a longer range: its first and last 32 only */
/*
 * An allocation of at most this many bytes is touched as a whole by a
 * kernel pointer into it (the pool's small blocks: LB_PSMALL); a larger
 * one (a program's own pool, a big tensor) only over S0_HZ_WINDOW bytes
 * from the pointer: PyTorch's smallest block (kMinBlockSize, c10/cuda/
 * CUDACachingAllocator.cpp, v2.4.0), so that neighbouring blocks that a
 * program carves out of one allocation never touch.
 */
#define S0_HZ_SMALL ((uint64_t)1 << 20)
#define S0_HZ_WINDOW 512u
#define S0_HZ_ALIGN 256u /* allocations start at multiples of it */
#define S0_HZ_DOWN 16	 /* steps of S0_HZ_ALIGN searched below a pointer */

/* Nonzero when the check runs (remap mode, LBSHIM_STREAM0_CHECK=on). */
extern int s0_hz_active LB_HIDDEN;

/* Sets the check up (once, at init).  Returns 0 if it cannot run. */
int s0_hz_init(void);
/* The touches' op table (stream0_touch.c). */
void s0_hz_touch_init(void);

/*
 * An allocation made through the shim (stream0_mem.c): its bytes, and
 * the last touch of any of them by a remapped thread's work.  base 0: a
 * slot never used; end 0: freed.  tag: the toucher's serial << 20 |
 * device << 12 | 1, 0 for none since the allocation was handed out.
 */
struct s0_hz_alloc {
	uint64_t base, end, tag, sub;
};
#define S0_HZA_BITS 16
#define S0_HZA_PROBES 16
extern struct s0_hz_alloc *s0_hza LB_HIDDEN;

static inline unsigned s0_hza_slot(uint64_t base)
{
	return (unsigned)(((base >> 8) * 0x9E3779B97F4A7C15ull) >>
			  (64 - S0_HZA_BITS));
}

/* The live allocation that starts at p, or NULL.  No lock. */
static inline struct s0_hz_alloc *s0_hza_at(uintptr_t p)
{
	unsigned i = s0_hza_slot(p), j;

	for (j = 0; j < S0_HZA_PROBES; j++) {
		struct s0_hz_alloc *a =
			&s0_hza[(i + j) & ((1u << S0_HZA_BITS) - 1)];
		uint64_t b = __atomic_load_n(&a->base, __ATOMIC_ACQUIRE);

		if (b == p)
			return __atomic_load_n(&a->end, __ATOMIC_RELAXED) ? a
									  : NULL;
		if (!b)
			return NULL;
	}
	return NULL;
}

/*
 * Writes of a record's owner (struct s0_hz_alloc's tag) since start-up,
 * counted after each (release): a thread that read the count (acquire),
 * then found a set of records all its own, knows they still are while
 * the count has not moved (stream0_touch.c's launch memo).  Alone in its
 * cache line: every launch reads it, and only a change of owner writes.
 */
struct s0_hz_gen {
	uint64_t n;
	uint8_t pad[56];
} __attribute__((aligned(64)));
extern struct s0_hz_gen s0_hz_owner_gen LB_HIDDEN;

static inline void s0_hz_owner_moved(void)
{
	__atomic_add_fetch(&s0_hz_owner_gen.n, 1, __ATOMIC_RELEASE);
}

/*
 * The live allocation that holds byte p, found from its start (p itself
 * or up to S0_HZ_DOWN steps of S0_HZ_ALIGN below), or NULL.
 */
struct s0_hz_alloc *s0_hza_find(uintptr_t p);
/* Is p in a 1 MB granule that ever held memory allocated through us? */
int s0_hz_is_known(uintptr_t p);
/* Memory known, as s0_hz_is_known answers: changes bump the count. */
extern uint64_t s0_hz_known_gen LB_HIDDEN;

/* After calls: memory allocated [p, p + size), freed at p. */
void s0_hz_allocated(uintptr_t p, size_t size);
void s0_hz_freed(uintptr_t p);
void s0_hz_mem_fork_child(void);

/*
 * One thing a call touches: an allocation's record (a), or, with a NULL,
 * bytes [lo, hi) in the range table.
 */
struct s0_hz_target {
	struct s0_hz_alloc *a;
	uintptr_t lo, hi;
};
#define S0_HZ_MAXT 40 /* targets of one call */

/*
 * The one pass of the check for call c, submission sub of the caller on
 * S of its current device, touching t[0..n): each target's last toucher
 * that is another thread's work not known complete nor ordered before
 * the caller's is a dependency; each is ordered (the call's stream waits
 * for that thread's stream) before the records become the caller's.
 * can_wait 0: the caller may not call the runtime; then returns -1,
 * having ordered nothing, when a dependency needs it.  Returns 0.
 */
int s0_hz_check(struct lb_call *c, const struct s0_hz_target *t, int n,
		uint64_t sub, int can_wait);
/*
 * The tag the caller's touches on its current device leave in a record
 * (struct s0_hz_alloc), UINT64_MAX if it leaves none: a record that holds
 * it is the caller's own, and touching it again only stores the number.
 */
uint64_t s0_hz_tag(void);
/* Clears the range table's last touches of [lo, hi) (capped as a check). */
void s0_hz_range_clear(uintptr_t lo, uintptr_t hi);

/* One granule's last touch in the range table; key 0: empty. */
struct s0_hz_slot {
	uint64_t key; /* granule address | first byte touched in it */
	uint64_t tag; /* serial << 20 | device << 12 | last byte touched */
	uint64_t sub; /* the owner's submission number on S */
};

/*
 * A remapped submission c (already on S, its number sub): checks what it
 * touches, and orders what it depends on.  Copies, sets and launches;
 * others are ignored.  can_wait as s0_hz_check; returns its answer.
 */
int s0_hz_touch(struct lb_call *c, uint64_t sub, int can_wait);
/* After the runtime answered c: allocations, frees, events. */
void s0_hz_post(struct lb_call *c, int remapped);
/* Is there anything for s0_hz_post to do for this API? */
extern uint8_t s0_hz_post_op[] LB_HIDDEN;
/* Does s0_hz_touch read this API's arguments (nonzero), or skip it? */
extern uint8_t s0_hz_touch_op[] LB_HIDDEN;

/* The caller's S on dev was seen complete up to submission sub. */
void s0_hz_idle(int dev, uint64_t sub);
/* Event e was recorded (on_s: on the caller's S, as submission n). */
void s0_hz_recorded(lb_event e, int on_s, uint64_t n);
/* The caller's S now waits for e (hipStreamWaitEvent). */
void s0_hz_waited(lb_event e);
/* e is complete (hipEventSynchronize, hipEventQuery said so). */
void s0_hz_event_done(lb_event e);
void s0_hz_event_gone(lb_event e);
/* hipDeviceSynchronize of the caller's device: before it, after it. */
void s0_hz_devsync_begin(void);
void s0_hz_devsync_end(int ok);
/* The calling thread leaves (its S were synchronized). */
void s0_hz_thread_gone(void);
void s0_hz_fork_prepare(void);
void s0_hz_fork_parent(void);
void s0_hz_fork_child(void);

/*
 * Totals: dependencies ordered and hazards (dependencies that could not
 * be); *fn, *module and *api: the first hazard's kernel and API.
 */
uint64_t s0_hz_total(uint64_t *ordered, const void **fn, int *module,
		     int *api);

#endif
