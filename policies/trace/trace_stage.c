/*
 * trace_stage.c - staging: a busy thread's records go into a ring of
 * blocks of the file that stay mapped and resident, and the helper copies
 * each full block to a new block of the file with pwrite.
 *
 * Why: a store to a page of a shared file mapping that was never written
 * costs a page fault with the file system's page_mkwrite, several
 * microseconds on ext4 (tens of ns per 64-byte record), whether the
 * writer or the helper takes it, and unmapping used blocks costs TLB
 * shootdowns.  A ring faulted in once costs none of that; pwrite of a
 * 64 KiB block costs the helper a few ns per record, on its own core.
 *
 * The promise stays: a staged block is a block of the file like any other
 * (magic, ordinal, records), so what a call recorded before it returned
 * is in the file whatever kills the process.  Between the copy and the
 * clearing of the staged block the file holds the block twice (same
 * thread, same ordinal): a reader keeps the copy with more records
 * (lbshim-trace(5)).  A block is cleared before it is reused, so a reused
 * block never shows the records of its previous round.
 *
 * Who touches what: the thread writes only its current block, and marks
 * it FULL when it moves on; the helper (or the thread, when the helper is
 * behind and the next block is still FULL) claims a FULL block by CAS to
 * COPYING, copies, clears it and marks it FREE.  The ring is unmapped
 * only by the helper (or by the thread when no helper runs), after the
 * thread dropped it: never under a copy.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include "trace.h"

struct lb_stage lb_stage[LB_TR_STAGE_SLOTS];

static char *lb_stage_blk(uintptr_t chunk, unsigned j)
{
	return lb_chunk_map(chunk) + (size_t)j * lb_tr.block_size;
}

static int lb_helper_here(void)
{
	return __atomic_load_n(&lb_tr.helper_pid, __ATOMIC_RELAXED) ==
	       lb_tr.pid;
}

/*
 * Copies staged block j of s (claimed: COPYING) into place and clears it.
 * Returns 0 (block FREE), or -1 (tracing stopped: the block stays FULL
 * and, being a block of the file, keeps its records there).
 */
static int lb_stage_copy(struct lb_stage *s, uintptr_t chunk, unsigned j)
{
	char *b = lb_stage_blk(chunk, j);

	if (lb_file_write_block(b)) {
		__atomic_store_n(&s->st[j], LB_ST_FULL, __ATOMIC_RELEASE);
		return -1;
	}
	/* Magic first: a half-cleared block is never taken for a block. */
	__atomic_store_n(&((struct lb_trace_block *)(void *)b)->magic, 0,
			 __ATOMIC_RELEASE);
	memset(b + sizeof(uint32_t), 0, lb_tr.block_size - sizeof(uint32_t));
	__atomic_store_n(&s->st[j], LB_ST_FREE, __ATOMIC_RELEASE);
	return 0;
}

/*
 * Block j of t's ring, free for t: copied by t itself when it is FULL
 * (the helper is behind), waited for while the helper copies it.
 * Returns 1 when free, 0 when not (stopped, or a crash handler, which
 * neither copies nor waits: it has the crash block).
 */
static int lb_stage_free(struct lb_tt *t, struct lb_stage *s, unsigned j)
{
	int i;

	for (i = 0; i < 100000; i++) {
		uint8_t st = __atomic_load_n(&s->st[j], __ATOMIC_ACQUIRE);

		if (st == LB_ST_FREE)
			return 1;
		if (t->in_crash ||
		    __atomic_load_n(&lb_tr.stopped, __ATOMIC_ACQUIRE))
			return 0;
		if (st == LB_ST_FULL &&
		    __atomic_compare_exchange_n(&s->st[j], &st, LB_ST_COPYING,
						0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			__atomic_add_fetch(&lb_tr.self_copies, 1,
					   __ATOMIC_RELAXED);
			return !lb_stage_copy(s, t->chunk, j);
		}
		if (!i)
			__atomic_add_fetch(&lb_tr.stage_waits, 1,
					   __ATOMIC_RELAXED);
		sched_yield(); /* the helper is copying it: microseconds */
	}
	return 0;
}

/* Takes a free slot for t's new ring v; 0 when all are in use. */
static int lb_stage_take(struct lb_tt *t, uintptr_t v)
{
	int i, zero;

	for (i = 0; i < LB_TR_STAGE_SLOTS; i++) {
		struct lb_stage *s = &lb_stage[i];

		zero = 0;
		if (__atomic_load_n(&s->owned, __ATOMIC_RELAXED) ||
		    !__atomic_compare_exchange_n(&s->owned, &zero, 1, 0,
						 __ATOMIC_ACQUIRE,
						 __ATOMIC_RELAXED))
			continue;
		memset(s->st, 0, sizeof(s->st)); /* read once chunk is set */
		/* the helper reads retire of every slot, owned or not */
		__atomic_store_n(&s->retire, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&s->chunk, v, __ATOMIC_RELEASE);
		t->stage = (uint16_t)(i + 1);
		return 1;
	}
	return 0;
}

int lb_stage_start(struct lb_tt *t)
{
	if (t->stage || lb_tr.ring || !lb_helper_here() ||
	    lb_chunk_n(t->chunk) < LB_TR_STAGE_BLOCKS ||
	    !lb_stage_take(t, t->chunk))
		return 0;
	/* The thread needs no more chunks: its slot's spare is one block. */
	__atomic_store_n(&lb_tr.want[t->thread_index % LB_TR_SPARES], 1,
			 __ATOMIC_RELAXED);
	return 1;
}

int lb_stage_next(struct lb_tt *t, const char *name)
{
	struct lb_stage *s;
	unsigned n;

	s = &lb_stage[t->stage - 1];
	n = lb_chunk_n(t->chunk);
	if (t->blk) {
		/*
		 * Hand the full block to the helper, who looks every
		 * millisecond; woken only when half the ring waits for it
		 * (a wake-up may preempt this thread for the whole copy).
		 */
		__atomic_store_n(&s->st[t->chunk_i], LB_ST_FULL,
				 __ATOMIC_RELEASE);
		if (__atomic_load_n(&s->st[(t->chunk_i + n / 2) % n],
				    __ATOMIC_RELAXED) != LB_ST_FREE &&
		    lb_helper_here())
			lb_helper_kick();
		t->chunk_i = (t->chunk_i + 1) % n;
		t->blk = NULL; /* until block chunk_i is free */
		t->pos = t->end = NULL;
	}
	if (!lb_stage_free(t, s, t->chunk_i))
		return -1;
	t->ordinal++;
	lb_tt_begin_block(t, lb_stage_blk(t->chunk, t->chunk_i), name);
	return 0;
}

void lb_stage_drop(struct lb_tt *t)
{
	struct lb_stage *s;

	if (!t->stage)
		return;
	s = &lb_stage[t->stage - 1];
	if (t->blk) /* the last block, partly filled: copied as well */
		__atomic_store_n(&s->st[t->chunk_i], LB_ST_FULL,
				 __ATOMIC_RELEASE);
	if (lb_helper_here()) {
		__atomic_store_n(&s->retire, 1, __ATOMIC_RELEASE);
		lb_helper_kick();
	} else {
		/*
		 * No helper (exit: it was stopped): the FULL blocks stay
		 * where they are, blocks of the file like the others.
		 */
		lb_file_unmap_chunk(t->chunk);
		__atomic_store_n(&s->chunk, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&s->owned, 0, __ATOMIC_RELEASE);
	}
	t->stage = 0;
	t->chunk = 0;
	t->blk = NULL;
	t->pos = t->end = NULL;
}

int lb_stage_round(void)
{
	int stopped = __atomic_load_n(&lb_tr.stopped, __ATOMIC_ACQUIRE);
	int i, did = 0, full;
	unsigned j, n;

	for (i = 0; i < LB_TR_STAGE_SLOTS; i++) {
		struct lb_stage *s = &lb_stage[i];
		uintptr_t v = __atomic_load_n(&s->chunk, __ATOMIC_ACQUIRE);
		int retire = __atomic_load_n(&s->retire, __ATOMIC_ACQUIRE);

		if (!v)
			continue;
		n = lb_chunk_n(v);
		for (j = 0, full = 0; j < n; j++) {
			uint8_t st = LB_ST_FULL;

			if (stopped || !__atomic_compare_exchange_n(
					       &s->st[j], &st, LB_ST_COPYING, 0,
					       __ATOMIC_ACQUIRE,
					       __ATOMIC_RELAXED)) {
				full |= st == LB_ST_FULL;
				continue;
			}
			did = 1;
			if (lb_stage_copy(s, v, j))
				full = 1;
		}
		/*
		 * A dropped ring goes once copied (or once tracing stopped:
		 * what is left stays in the file as it is).
		 */
		if (retire && (!full || stopped ||
			       __atomic_load_n(&lb_tr.stopped,
					       __ATOMIC_ACQUIRE))) {
			lb_file_unmap_chunk(v);
			__atomic_store_n(&s->chunk, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&s->retire, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&s->owned, 0, __ATOMIC_RELEASE);
			did = 1;
		}
	}
	return did;
}

void lb_stage_fork_child(void)
{
	int i;

	/* The rings are the parent's file: a store here would land there. */
	for (i = 0; i < LB_TR_STAGE_SLOTS; i++) {
		lb_file_unmap_chunk(lb_stage[i].chunk);
		memset(&lb_stage[i], 0, sizeof(lb_stage[i]));
	}
}
