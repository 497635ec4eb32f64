/*
 * stream0_hazard.h - the launch-level hazard check of remap mode, shared
 * by stream0.c (which calls it from its hooks), stream0_hazard.c (the
 * bookkeeping: who touched what, what orders it) and stream0_touch.c (what
 * each call touches).  See lbshim(7), "Where semantics change".
 */
#ifndef LB_STREAM0_HAZARD_H
#define LB_STREAM0_HAZARD_H

#include <stdint.h>
#include "shim.h"

#define S0_HZ_GRAN_SHIFT 12 /* granule: 4 KB */
#define S0_HZ_GRAN (1u << S0_HZ_GRAN_SHIFT)
#define S0_HZ_GRAN_MASK (S0_HZ_GRAN - 1)
#define S0_HZ_MAXGRAN 64 /* a longer range: its first and last 32 only */

/* Nonzero when the check runs (remap mode, LBSHIM_STREAM0_CHECK=on). */
extern int s0_hz_active LB_HIDDEN;

/* Sets the check up (once, at init).  Returns 0 if it cannot run. */
int s0_hz_init(void);
/* The touches' op table and the registration-time maps (stream0_touch.c). */
void s0_hz_touch_init(void);

/*
 * Checks and marks [lo, hi) as touched by the caller's submission n on S
 * of its current device.  Returns 1 if another thread's pending work that
 * nothing orders before it touched those bytes last.
 */
int s0_hz_range(uintptr_t lo, uintptr_t hi, uint64_t n);
/* One granule's last touch; key 0: empty. */
struct s0_hz_slot {
	uint64_t key; /* granule address | first byte touched in it */
	uint64_t tag; /* serial << 20 | device << 12 | last byte touched */
	uint64_t sub; /* the owner's submission number on S */
};
/*
 * Writes of a slot's owner (key and tag) since start-up, counted after
 * each (and at a fork, a thread's exit): a thread whose last touch of a
 * set of granules left them all its own, with no such write since, knows
 * they still are (struct s0_hz_seal).  Bumped with release after the
 * slot's stores, read with acquire before a check's loads of the slots:
 * a check that reads a count sees every owner written before it.  Alone
 * in its cache line: every launch reads it, and an owner's change writes
 * it.
 */
struct s0_hz_tabgen {
	uint64_t n;
	uint8_t pad[56];
} __attribute__((aligned(64)));
extern struct s0_hz_tabgen s0_hz_tab_gen LB_HIDDEN;
/*
 * What a thread's last s0_hz_granules() on a set of granules left: every
 * slot of the set held the thread's own touch of the whole granule on
 * device dev, as of s0_hz_tab_gen.n == gen (ok 0: not so, or not known).
 * While that holds, checking the set again finds only slots of its own,
 * never a hazard, and stores the submission numbers: what
 * stream0_touch.c's hz_sealed() does.
 */
struct s0_hz_seal {
	uint64_t gen;
	int dev, ok;
};
/*
 * The same for whole 4 KB granules g[0..n) (address >> S0_HZ_GRAN_SHIFT);
 * sp[i] is s0_hz_slot(g[i]), the table slot of g[i] (fixed for the life
 * of the process: a caller may keep it).  seal, if not NULL, is set for
 * the next check of the same g[0..n).
 */
int s0_hz_granules(const uintptr_t *g, void *const *sp, int n, uint64_t sub,
		   struct s0_hz_seal *seal);
void *s0_hz_slot(uintptr_t g);
/* Counts one hazard of call c (fn: the kernel, NULL for copies/sets). */
void s0_hz_count(struct lb_call *c, const void *fn);

/*
 * A remapped submission c (already on S, submission n): checks what it
 * touches.  Copies, sets and launches; others are ignored.
 */
void s0_hz_touch(struct lb_call *c, uint64_t n);
/* After the runtime answered c: allocations, registrations, events. */
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

/* Hazards counted; *fn and *api: the first one's kernel and API. */
uint64_t s0_hz_total(const void **fn, int *api);
/* The name of kernel fn as registered, or NULL. */
const char *s0_hz_kernel_name(const void *fn);

#endif
