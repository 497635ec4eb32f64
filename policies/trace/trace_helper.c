/*
 * trace_helper.c - the trace's helper thread: it maps chunks of the file
 * ahead of the writers (so that a writer switching blocks makes no system
 * call), unmaps the chunks they used, and copies their staged blocks into
 * place (trace_stage.c).  Each time it looks (every 200 ms at most) it
 * stores the time in the header (alive_ticks): after a SIGKILL, the last
 * time the process was known alive, for how long a call in flight had
 * been waiting (lbtrace crash).  In a ring (LBSHIM_TRACE_RING), which
 * never needs another block, that is all it does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "trace.h"

static pthread_t lb_helper;

void lb_helper_kick(void)
{
	__atomic_add_fetch(&lb_tr.wake, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&lb_tr.waiting, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &lb_tr.wake, FUTEX_WAKE_PRIVATE, 1, NULL,
			NULL, 0);
}

/* One round: unmap used chunks, map spares.  Returns 1 if it did work. */
static int lb_helper_round(void)
{
	uint32_t n = __atomic_load_n(&lb_tr.next_thread, __ATOMIC_RELAXED);
	int i, did = 0;

	if (n > LB_TR_SPARES)
		n = LB_TR_SPARES;
	lb_file_gone();
	did = lb_stage_round(); /* first: a writer may be waiting for it */
	for (i = 0; i < LB_TR_SPARES; i++) {
		uintptr_t old = __atomic_exchange_n(&lb_tr.retire[i], 0,
						    __ATOMIC_ACQUIRE);

		if (old) {
			lb_file_unmap_chunk(old);
			did = 1;
		}
	}
	if (__atomic_load_n(&lb_tr.stopped, __ATOMIC_ACQUIRE)) {
		/*
		 * Stopped (disk full, file removed): writers take no new
		 * spare (one racing with us gets it or not: the exchange
		 * decides), so the rest are unmapped; a removed file is then
		 * held only by the blocks writers still have.
		 */
		for (i = 0; i < LB_TR_SPARES; i++)
			lb_file_unmap_chunk(__atomic_exchange_n(
				&lb_tr.spare[i], 0, __ATOMIC_ACQUIRE));
		if (__atomic_exchange_n(&lb_tr.gone, 0, __ATOMIC_ACQUIRE))
			lb_file_let_go();
		return did;
	}
	for (i = 0; i < (int)n && !__atomic_load_n(&lb_tr.stop,
						   __ATOMIC_ACQUIRE); i++) {
		uintptr_t v, expect = 0;
		unsigned want;

		if (__atomic_load_n(&lb_tr.spare[i], __ATOMIC_RELAXED))
			continue;
		want = __atomic_load_n(&lb_tr.want[i], __ATOMIC_RELAXED);
		v = lb_file_map_chunk(want ? want : 1, 1);
		if (!v)
			break;
		if (!__atomic_compare_exchange_n(&lb_tr.spare[i], &expect, v, 0,
						 __ATOMIC_RELEASE,
						 __ATOMIC_RELAXED))
			lb_file_unmap_chunk(v); /* blocks left unused */
		did = 1;
	}
	return did;
}

static void *lb_helper_main(void *arg)
{
	struct timespec ts = { 0, 200000000 };
	long nap = 1000000;
	int refined = 0;

	(void)arg;
	prctl(PR_SET_NAME, "lbshim-trace", 0, 0, 0);
	lb_depth++; /* nothing on this thread is the program's */
	while (!__atomic_load_n(&lb_tr.stop, __ATOMIC_ACQUIRE)) {
		uint32_t seen = __atomic_load_n(&lb_tr.wake, __ATOMIC_SEQ_CST);
		struct lb_trace_header *h =
			__atomic_load_n(&lb_tr.hdr, __ATOMIC_ACQUIRE);

		if (h)
			__atomic_store_n(&h->alive_ticks, lb_ticks(),
					 __ATOMIC_RELAXED);

		/*
		 * Writers that stage do not wake us for each full block (a
		 * wake-up can preempt the writer, on its own CPU, for the
		 * whole copy: the p99 of a tight loop): we look every
		 * millisecond while there is work, backing off to 200 ms
		 * when there is none; a writer whose ring is half full
		 * wakes us (trace_stage.c).
		 */
		if (!lb_tr.ring && lb_helper_round()) {
			nap = 1000000;
			continue;
		}
		nap = nap * 2 > 200000000 ? 200000000 : nap * 2;
		ts.tv_nsec = nap;
		if (!refined && lb_clock_ns(CLOCK_MONOTONIC) - lb_tr.start_mono >
					100000000u) {
			lb_clock_refine(100000000u);
			refined = 1;
		}
		__atomic_store_n(&lb_tr.waiting, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&lb_tr.wake, __ATOMIC_SEQ_CST) == seen &&
		    !__atomic_load_n(&lb_tr.stop, __ATOMIC_SEQ_CST))
			syscall(SYS_futex, &lb_tr.wake, FUTEX_WAIT_PRIVATE, seen,
				&ts, NULL, 0);
		__atomic_store_n(&lb_tr.waiting, 0, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

int lb_helper_start(void)
{
	sigset_t all, old;
	int err;

	lb_tr.stop = 0;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&lb_helper, NULL, lb_helper_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		lb_log(LB_LOG_INFO,
		       "trace: no helper thread (%s); writers map blocks "
		       "themselves",
		       strerror(err));
		return -1;
	}
	__atomic_store_n(&lb_tr.helper_pid, getpid(), __ATOMIC_RELAXED);
	return 0;
}

void lb_helper_stop(void)
{
	if (__atomic_load_n(&lb_tr.helper_pid, __ATOMIC_RELAXED) != getpid())
		return;
	__atomic_store_n(&lb_tr.stop, 1, __ATOMIC_SEQ_CST);
	lb_helper_kick();
	syscall(SYS_futex, &lb_tr.wake, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	pthread_join(lb_helper, NULL);
	__atomic_store_n(&lb_tr.helper_pid, 0, __ATOMIC_RELAXED);
}
