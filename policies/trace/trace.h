/*
 * trace.h - internals shared by the trace policy's files (policies/trace*.c).
 * Not for other policies: a policy never calls another one.
 *
 *   trace.c        the policy ops and the record path
 *   trace_file.c   file name, creation, descriptor, space
 *   trace_header.c what the header says, and the API name table
 *   trace_helper.c the helper thread: maps ahead, unmaps, copies staged blocks
 *   trace_stage.c  staging: a busy thread's ring of resident blocks
 *   trace_clock.c  the tick source and its calibration
 *   trace_args.c   what each API's record holds (a[], note)
 *   trace_names.c  kernel names and interned strings
 *   trace_crash.c  fatal-signal capture and alternate stacks
 *   trace_live.c   LBSHIM_TRACE_LIVE / HIP_TRACE_API lines
 *   trace_kinfo.c  kernel facts from the code objects (KINFO records)
 *   trace_kargs.c  each launch's argument bytes (KARGS records)
 */
#ifndef LB_POLICY_TRACE_H
#define LB_POLICY_TRACE_H

#include <stdint.h>
#include <string.h>
#include <time.h>
#include "shim.h"
#include "lbshim/trace_format.h"

#define LB_TR_SPARES 64	    /* pre-mapped chunks, one slot per thread % 64 */
#define LB_TR_CHUNK_MAX 16  /* blocks per chunk (one mapping), at most */
#define LB_TR_MAX_FRAMES 64 /* backtrace depth recorded on a crash */
#define LB_TR_STAGE_BLOCKS 64 /* blocks in a busy thread's staging ring */
#define LB_TR_STAGE_SLOTS 256 /* threads that stage at once, at most */

/* Process-wide state of the trace policy. */
struct lb_tr_state {
	int active;	/* the policy is active (file and/or live) */
	int file_on;	/* a trace file is being written */
	int live;	/* print one line per call */
	int color;	/* live lines in colour */
	int ring;	/* LBSHIM_TRACE_RING: one ring block per thread */
	int stopped;	/* disk full or similar: no new blocks */
	int gone;	/* the file was removed: the helper lets go of it */
	int need_open;	/* forked child: 1 = create the file at first call,
			 * 2 = being created, 0 = done (or never needed) */
	int fd;		/* the trace file, kept high; -1 once closed, or
			 * once the program closed or replaced it */
	int pid;
	uint32_t block_size;
	uint32_t slots;		/* record slots per block */
	uint32_t gen;		/* file generation, from 1, bumped by fork */
	uint32_t next_str;	/* next string id of this file */
	uint32_t next_thread;	/* dense thread numbers */
	uint32_t crash_next;	/* next free slot of the crash block */
	uint64_t file_size;	/* bytes reserved in the file so far */
	uint64_t fsize_limit;	/* RLIMIT_FSIZE, or UINT64_MAX */
	uint32_t data_off;	/* where block 0 starts: the header's
				 * header_size (lb_header_bytes) */
	struct lb_trace_header *hdr;
	char *crash_blk;	/* block 0, reserved for crash records */
	/*
	 * Chunks: runs of consecutive blocks of the file mapped at once, so
	 * that a busy thread switches blocks with no system call and mmap /
	 * munmap (and their TLB shootdowns) happen once per up to 16
	 * blocks.  Encoded as the mapping | (blocks - 1): see lb_chunk_*.
	 */
	uintptr_t spare[LB_TR_SPARES];	/* chunks mapped ahead by the helper */
	uintptr_t retire[LB_TR_SPARES]; /* used chunks the helper unmaps */
	uint8_t want[LB_TR_SPARES];	/* chunk size a slot's thread wants */
	uint32_t slow_maps;	/* chunks a writer had to map itself */
	uint32_t self_copies;	/* staged blocks a writer copied itself */
	uint32_t stage_waits;	/* times a writer waited for a copy */
	/* clock */
	uint64_t rate;		/* ticks per second */
	uint64_t start_ticks, start_mono, start_real;
	/* helper thread */
	uint32_t wake;		/* futex word: bumped when work is due */
	int waiting;		/* the helper sleeps on wake */
	int stop;		/* the helper is to exit */
	int helper_pid;		/* the process whose helper runs, or 0 */
	/* runtime functions that are not in hip_api.def (dlsym once) */
	const char *(*kname_by_ptr)(const void *f, lb_stream s);
	const char *(*kname_ref)(const void * f);
	const char *(*err_name)(lb_status e);
};
extern struct lb_tr_state lb_tr LB_HIDDEN;

enum lb_tt_state {
	LB_TT_NEW = 0, /* not seen yet (or reset by fork) */
	LB_TT_FILE,    /* records go to the thread's block */
	LB_TT_NOFILE,  /* no file (live only, or no block could be had) */
	LB_TT_DONE     /* the thread has exited: record nothing more */
};

/* Per-thread data block: the thread's window on its current block. */
struct lb_tt {
	struct lb_trace_rec *pos;   /* next slot to fill */
	struct lb_trace_rec *end;   /* one past the block's last slot */
	struct lb_trace_block *blk; /* the block (its header slot) */
	uintptr_t chunk;	    /* the chunk blk is in (lb_chunk_*) */
	uint32_t chunk_i;	    /* blk's index in the chunk */
	uint64_t ordinal;	    /* of blk within the thread */
	uint64_t lost;		    /* records that found no slot */
	uint64_t lost_t0;	    /* when the first of them was lost */
	uint32_t thread_index;
	uint8_t state;		    /* enum lb_tt_state */
	uint8_t in_crash;	    /* inside the crash handler */
	uint8_t device;		    /* from the hipSetDevice calls seen */
	uint8_t own_altstack;	    /* altstack is ours, to unmap at exit */
	uint8_t want;		    /* blocks in the thread's next chunk */
	uint16_t stage;		    /* 1 + its lb_stage slot; 0: not staging */
	void *altstack;
	struct lb_call *cur;	    /* the call between pre and post */
	struct lb_trace_rec *entry; /* cur's entry record, or NULL */
	/* trace.c: the thread's last record, a device query's that later
	 * identical ones fold into while it stays the last (t->pos - 1) */
	struct lb_trace_rec *fold;
	/*
	 * trace_kargs.c: the KARGS header of the thread's last launched
	 * kernel, valid for plan ka_plan in file generation ka_gen;
	 * ka_plan is cleared when device changes.
	 */
	const void *ka_plan;
	uint64_t ka_hdr;
	uint32_t ka_gen;
};
extern LB_TLS struct lb_tt lb_tt;

/* ---- clock (trace_clock.c) ---- */

extern int lb_clock_tsc LB_HIDDEN; /* 1: rdtsc, 0: CLOCK_MONOTONIC ns */

/* A call record's flags for what stream0 noted (LB_NOTE_S0_*). */
static inline unsigned lb_s0_flags(uint64_t note)
{
	return (note & LB_NOTE_S0_HAZARD ? LB_RF_HAZARD : 0u) |
	       (note & LB_NOTE_S0_ORDERED ? LB_RF_ORDERED : 0u) |
	       (note & LB_NOTE_S0_NARROWED ? LB_RF_NARROWED : 0u);
}

static inline uint64_t lb_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t lb_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (LB_LIKELY(lb_clock_tsc)) {
		uint32_t lo, hi;

		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		return (uint64_t)hi << 32 | lo;
	}
#endif
	return lb_clock_ns(CLOCK_MONOTONIC);
}

/* Picks the tick source, takes the start triple, estimates the rate. */
void lb_clock_start(void);

/* Takes a new start triple (forked child), keeping the rate. */
void lb_clock_restart(void);

/*
 * Re-measures the rate over the time since start if at least min_ns
 * passed; stores it in lb_tr.rate and the header.  Async-signal-safe.
 */
void lb_clock_refine(uint64_t min_ns);

/* ticks -> ns, using lb_tr.rate. */
uint64_t lb_ticks_to_ns(uint64_t ticks);

/* ---- header (trace_header.c) ---- */

/*
 * Bytes before block 0: the fixed header and the API name table after
 * it, in whole pages; computed from the API table, so that the table
 * always fits.
 */
uint32_t lb_header_bytes(void);

/*
 * Fills the header at h, lb_header_bytes() bytes of zeros mapped from
 * the file, from lb_tr (block size, clock, ring) and the process: the
 * name table included.
 */
void lb_header_fill(struct lb_trace_header *h);

/*
 * Stores the runtime's version in the header once the shim knows it
 * (lb_rt_version: known only after every policy's init ran, so the
 * threads' first calls store it; at most once).  No-op without a file.
 */
void lb_header_runtime_version(void);

/* The rank's text from RANK and its kin (%r of LBSHIM_TRACE), or NULL. */
const char *lb_trace_rank_str(void);

/* ---- file and blocks (trace_file.c) ---- */

/*
 * Creates the trace file from LBSHIM_TRACE (or the default pattern), maps
 * and fills its header and the crash block.  Returns 0, or -1 after one
 * warning (tracing to a file is then off).
 */
int lb_file_open(void);

static inline uintptr_t lb_chunk_enc(void *map, unsigned n)
{
	return (uintptr_t)map | (n - 1);
}

static inline char *lb_chunk_map(uintptr_t v)
{
	return (char *)(v & ~(uintptr_t)4095);
}

static inline unsigned lb_chunk_n(uintptr_t v)
{
	return (unsigned)(v & 4095) + 1;
}

/*
 * Maps n new consecutive blocks of the file (reserving the space first),
 * pre-faulted for writing when populate.  Returns the encoded chunk, or
 * 0 (file stopped, no space, no memory, or the descriptor is no longer
 * the trace file's: checked first, see trace_file.c).  Lock-free; safe in
 * a signal handler.
 */
uintptr_t lb_file_map_chunk(unsigned n, int populate);

/* Unmaps an encoded chunk (0: nothing). */
void lb_file_unmap_chunk(uintptr_t v);

/* Stops tracing to the file after a write failure: one warning. */
void lb_file_stop(const char *what, int err);

/*
 * Stops tracing to the file if it was removed (fstat: no link left): one
 * warning.  Returns 1 if removed.  Looks only at the trace file: a
 * descriptor the program closed or replaced is given up instead (one
 * warning, the blocks mapped are kept), and returns 0.
 * Async-signal-safe; keeps errno.
 */
int lb_file_gone(void);

/*
 * The file was removed: the header mapping becomes private memory and the
 * descriptor is closed, so the file's space is freed once writers drop
 * their blocks.  Called by the helper.
 */
void lb_file_let_go(void);

/* ---- helper thread (trace_helper.c) ---- */

/* Starts the helper thread (signals blocked).  Returns 0 or -1. */
int lb_helper_start(void);

/* Stops and joins the helper, if this process started one. */
void lb_helper_stop(void);

/* Wakes the helper: a spare was taken or a block retired. */
void lb_helper_kick(void);

/* Forked child: forget the parent's file, blocks and helper. */
void lb_file_fork_child(void);

/* Clean exit: end time, CLEAN_EXIT flag, close the file. */
void lb_file_close(void);

/*
 * Writes one whole block (block_size bytes at blk) to a new block of the
 * file with pwrite.  Returns 0, or -1 when tracing to the file stopped
 * (before, or because of this write: one warning), or the descriptor is
 * no longer the trace file's.
 */
int lb_file_write_block(const void *blk);

/* ---- staging (trace_stage.c) ---- */

/*
 * A busy thread writes its records into a ring of LB_TR_STAGE_BLOCKS
 * blocks of the file that stay mapped and resident (no page fault per
 * 64 records, which costs more than the records themselves), and each
 * full block is copied to a new block of the file with pwrite by the
 * helper, then cleared for reuse.  Shared between the thread and the
 * helper: which blocks of the ring are full, being copied or free.
 */
enum lb_stage_st { LB_ST_FREE = 0, LB_ST_FULL, LB_ST_COPYING };

struct lb_stage {
	uintptr_t chunk; /* the ring (lb_chunk_*); 0: slot unused */
	int owned;	 /* a thread owns the slot (taken by CAS) */
	int retire;	 /* its thread is done with it: copy, unmap, free */
	uint8_t st[LB_TR_STAGE_BLOCKS]; /* enum lb_stage_st per block */
};
extern struct lb_stage lb_stage[LB_TR_STAGE_SLOTS] LB_HIDDEN;

/*
 * t's chunk (just taken, its first block not begun) becomes t's staging
 * ring if it has LB_TR_STAGE_BLOCKS blocks, a helper runs and a slot is
 * free.  Returns 1 if it did.
 */
int lb_stage_start(struct lb_tt *t);

/*
 * A staging thread's block is full (or t->blk is NULL: the last try
 * found no free block): hands it to the helper and begins the next block
 * of the ring, copying that one itself if the helper is behind.  Returns
 * 0 when t has a new block, -1 when none could be had (the record is
 * lost; tracing may have stopped; the next call tries again).
 */
int lb_stage_next(struct lb_tt *t, const char *name);

/* The thread is done (exit, or stopped): the helper takes its ring. */
void lb_stage_drop(struct lb_tt *t);

/* Helper: copies every full staged block, frees dropped rings. */
int lb_stage_round(void);

/* Forked child: unmaps the parent's rings (they are its file's). */
void lb_stage_fork_child(void);

/* Begins a block at map for t (ordinal t->ordinal); trace.c. */
void lb_tt_begin_block(struct lb_tt *t, void *map, const char *name);

/* ---- record path (trace.c) ---- */

/*
 * Next slot of the calling thread (switching blocks or wrapping a ring
 * when the current one is full), or NULL when none can be had (counted
 * as lost).  The thread must be in state LB_TT_FILE.
 */
struct lb_trace_rec *lb_tt_next_block(struct lb_tt *t);

static inline struct lb_trace_rec *lb_tt_slot(struct lb_tt *t)
{
	struct lb_trace_rec *r = t->pos;

	if (LB_UNLIKELY(r == t->end))
		return lb_tt_next_block(t);
	t->pos = r + 1;
	return r;
}

/* A record's header as the 8 bytes it is stored as (little-endian). */
static inline uint64_t lb_rec_hdr(unsigned type, unsigned flags, unsigned api,
				  int ret, unsigned device, unsigned note)
{
	return (uint64_t)(uint8_t)type | (uint64_t)(uint8_t)flags << 8 |
	       (uint64_t)(uint16_t)api << 16 |
	       (uint64_t)(uint16_t)(int16_t)ret << 32 |
	       (uint64_t)(uint8_t)device << 48 | (uint64_t)(uint8_t)note << 56;
}

/*
 * The commit rule, for a record whose 8 words are given by w(i): header
 * cleared, body, then header with release ordering, so that a reader
 * (or a crash) never sees a header with a stale body.  Word by word, with
 * relaxed atomic stores: plain moves that the compiler never merges into
 * 16-byte ones, whose loads of the record just written on the stack in
 * 8-byte stores could not be forwarded from them (each such load waits
 * for the stores to reach the cache: on this path, more than the
 * record's own cost).
 */
#define LB_REC_PUT(dst, w)                                             \
	do {                                                           \
		uint64_t *d_ = (uint64_t *)(void *)(dst);              \
		__atomic_store_n(d_, 0, __ATOMIC_RELAXED);             \
		__atomic_signal_fence(__ATOMIC_RELEASE);               \
		__atomic_store_n(&d_[1], w(1), __ATOMIC_RELAXED);      \
		__atomic_store_n(&d_[2], w(2), __ATOMIC_RELAXED);      \
		__atomic_store_n(&d_[3], w(3), __ATOMIC_RELAXED);      \
		__atomic_store_n(&d_[4], w(4), __ATOMIC_RELAXED);      \
		__atomic_store_n(&d_[5], w(5), __ATOMIC_RELAXED);      \
		__atomic_store_n(&d_[6], w(6), __ATOMIC_RELAXED);      \
		__atomic_store_n(&d_[7], w(7), __ATOMIC_RELAXED);      \
		__atomic_store_n(d_, w(0), __ATOMIC_RELEASE);          \
	} while (0)

/*
 * Writes src into slot dst under the commit rule (LB_REC_PUT).  src's
 * words are read as 8-byte loads: a header written field by field costs
 * one wait for those stores, which only the rare records pay.
 */
static inline void lb_rec_commit(struct lb_trace_rec *dst,
				 const struct lb_trace_rec *src)
{
	const uint64_t *s_ = (const uint64_t *)(const void *)src;

#define LB_REC_SRC_W(i) __atomic_load_n(&s_[i], __ATOMIC_RELAXED)
	LB_REC_PUT(dst, LB_REC_SRC_W);
#undef LB_REC_SRC_W
}

/* Ring blocks: where the next record goes (after a commit to r). */
void lb_tt_ring_note(struct lb_tt *t, struct lb_trace_rec *r);

/*
 * Writes one record for the calling thread if it has a block.  Returns 1
 * if written.
 */
int lb_tt_emit(struct lb_tt *t, const struct lb_trace_rec *r);

/*
 * Sets up the calling thread (number, alternate stack, first block).
 * Leaves t->state != LB_TT_NEW.
 */
void lb_tt_start(struct lb_tt *t);

/* The policy bits for the header (bit 0 trace, 1 stream0, 2 pool). */
uint32_t lb_trace_policy_bits(void);

/*
 * Fills the call record of c (after the runtime, or with ret forced to
 * an error for a call still in flight), without writing it.
 */
void lb_call_rec(struct lb_trace_rec *rec, const struct lb_call *c,
		 const struct lb_tt *t);

/* ---- arguments (trace_args.c) ---- */

/*
 * Per kind of call: fills r->a[] and may set note and flags, which the
 * caller cleared, as it cleared a[] (after the runtime).
 */
extern void (*const lb_args_fill_kind[LB_KIND_COUNT])(
	struct lb_trace_rec *r, const struct lb_call *c) LB_HIDDEN;

/* ---- names (trace_names.c) ---- */

/* Resolves the runtime helpers (kernel names, error names) once. */
/*
 * Registration calls (kind REG), after the runtime and the shim's kernel
 * registry (shim/kreg.c): writes the KINFO record of each kernel
 * registered or got from a module (trace_kinfo.c).  Only with a file.
 */
void lb_kinfo_learn(const struct lb_call *c, struct lb_tt *t);

/* a[], note and flags of call c's record (lb_args_fill_kind) into ar. */
static inline __attribute__((always_inline)) void
lb_call_args(struct lb_trace_rec *ar, const struct lb_call *c)
{
	ar->a[0] = ar->a[1] = ar->a[2] = 0;
	ar->hdr.note = 0;
	ar->hdr.flags = 0;
	lb_args_fill_kind[lb_api_info[c->api].kind](ar, c);
}

/*
 * What each call's entry record holds (trace.c, set at init), by API:
 * LB_ENTRY_BARE, a[] 0: filling it would intern a string (kernel
 * launches, registrations, hipGetProcAddress), which takes a slot;
 * LB_ENTRY_INPUTS, a[] and note the inputs, the record filled again at
 * return (outputs, a pool's note); LB_ENTRY_WHOLE, a[], note and flags
 * as the call's record has them: the return completes the entry in
 * place (lb_entry_done), filling nothing.
 */
enum { LB_ENTRY_BARE = 0, LB_ENTRY_INPUTS, LB_ENTRY_WHOLE };
extern uint8_t lb_tr_entry_args[LB_API_COUNT] LB_HIDDEN;

/*
 * Fills a[], note and flags of call c's entry record in slot r, whose
 * header is 0 and a[] 0 (trace.c); returns the header's flags | note
 * << 8.  c->ret is hipSuccess before the call: the outputs are read only
 * for a successful call, so it stands at -1 meanwhile.
 */
unsigned lb_entry_fill(struct lb_trace_rec *r, struct lb_call *c);

/*
 * Commits call c's entry record (trace_format.h: t1 = 0, ret = -1, a[]
 * and note its inputs) to slot r, which the call's record takes when it
 * returns: its header cleared first, a[], note and flags filled in the
 * slot itself (not a record until the last store).
 */
static inline __attribute__((always_inline)) void
lb_entry_put(struct lb_trace_rec *r, struct lb_call *c, const struct lb_tt *t)
{
	uint64_t *d = (uint64_t *)(void *)r;
	uint64_t s = c->stream ? (uint64_t)(uintptr_t)c->stream_named : 0, h;
	unsigned fn = 0;

	__atomic_store_n(d, 0, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&d[5], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&d[6], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&d[7], 0, __ATOMIC_RELAXED);
	if (lb_tr_entry_args[c->api])
		fn = lb_entry_fill(r, c);
	__atomic_store_n(&d[1], c->t0, __ATOMIC_RELAXED);
	__atomic_store_n(&d[2], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&d[3], s, __ATOMIC_RELAXED);
	__atomic_store_n(&d[4], s, __ATOMIC_RELAXED);
	h = lb_rec_hdr(LB_REC_CALL, fn & 0xff, c->api, -1, t->device, fn >> 8);
	__atomic_store_n(d, h, __ATOMIC_RELEASE);
}

/*
 * Completes in slot r the entry record of call c, an LB_ENTRY_WHOLE one,
 * into the call's record: its header cleared, t1 and the stream used
 * stored, then the header of the result (the entry's note and flags,
 * and the flags lb_call_put adds), with release ordering.
 */
static inline __attribute__((always_inline)) void
lb_entry_done(struct lb_trace_rec *r, const struct lb_call *c)
{
	uint64_t *d = (uint64_t *)(void *)r;
	uint64_t h = __atomic_load_n(d, __ATOMIC_RELAXED), su = 0;
	unsigned flags = 0;

	if (c->stream) {
		su = (uint64_t)(uintptr_t)*c->stream;
		if (su != (uint64_t)(uintptr_t)c->stream_named)
			flags |= LB_RF_REMAPPED;
	}
	if (c->handled)
		flags |= LB_RF_SERVED;
	flags |= lb_s0_flags(c->scratch[LB_NOTE_HAZARD]);
	h = (h & ~(0xffffull << 32)) | (uint64_t)flags << 8 |
	    (uint64_t)(uint16_t)(int16_t)c->ret << 32;
	__atomic_store_n(d, 0, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&d[2], c->t1, __ATOMIC_RELAXED);
	__atomic_store_n(&d[4], su, __ATOMIC_RELAXED);
	__atomic_store_n(d, h, __ATOMIC_RELEASE);
}

/*
 * Commits call c's record to slot r, as lb_call_rec makes it, a[], note
 * and flags taken from ar (lb_call_args): written from registers, never
 * through a whole record on the stack (see LB_REC_PUT).
 */
static inline __attribute__((always_inline)) void
lb_call_put(struct lb_trace_rec *r, const struct lb_call *c,
	    const struct lb_tt *t, const struct lb_trace_rec *ar)
{
	uint64_t sn = 0, su = 0, h;
	unsigned flags = ar->hdr.flags;

	if (c->stream) {
		sn = (uint64_t)(uintptr_t)c->stream_named;
		su = (uint64_t)(uintptr_t)*c->stream;
		if (sn != su)
			flags |= LB_RF_REMAPPED;
	}
	if (c->handled)
		flags |= LB_RF_SERVED;
	flags |= lb_s0_flags(c->scratch[LB_NOTE_HAZARD]);
	h = lb_rec_hdr(LB_REC_CALL, flags, c->api, c->ret, t->device,
		       ar->hdr.note);
#define LB_CALL_W(i)                                                          \
	((i) == 0   ? h                                                       \
	 : (i) == 1 ? c->t0                                                   \
	 : (i) == 2 ? c->t1                                                   \
	 : (i) == 3 ? sn                                                      \
	 : (i) == 4 ? su                                                      \
		    : __atomic_load_n(&ar->a[(i) < 5 ? 0 : (i) - 5],          \
				      __ATOMIC_RELAXED))
	LB_REC_PUT(r, LB_CALL_W);
#undef LB_CALL_W
}

/*
 * A launch (after the runtime, the thread in state LB_TT_FILE): its call
 * record, then its arguments' record (KARGS) in the slot after it when
 * its kernel's layout is known (trace_kargs.c).  Record path: no lock,
 * no malloc, no stdio.
 */
void lb_trace_post_launch(struct lb_call *c, struct lb_tt *t);

void lb_names_init(void);

/*
 * String id of the kernel at key (host stub, or module function when
 * module), writing its STRING records to this file first if needed;
 * 0 when the name is unknown.  Lock-free.
 */
uint32_t lb_names_kernel(const void *key, int module, lb_stream stream);

/* Writes s as a new string of this file; returns its id (0: none). */
uint32_t lb_names_string(const char *s, size_t len);


/* ---- crash capture (trace_crash.c) ---- */

/* Installs the fatal-signal handlers (keeping the previous ones). */
void lb_crash_install(void);

/* Gives the calling thread an alternate signal stack if it has none. */
void lb_crash_thread_start(struct lb_tt *t);

/*
 * A slot for a crash record: the thread's block, else the crash block;
 * NULL when neither has room.
 */
struct lb_trace_rec *lb_crash_slot(struct lb_tt *t);

/* Removes the calling thread's alternate stack if it is ours. */
void lb_crash_thread_exit(struct lb_tt *t);

/* ---- live lines (trace_live.c) ---- */

/* Prints call c on stderr, one write(2). */
void lb_live_call(const struct lb_call *c);

/* Prints a crash line (signal handler; async-signal-safe). */
void lb_live_crash(int sig, const void *addr);

/* Name of a hipError_t ("hipSuccess"), never NULL. */
const char *lb_err_name(int e);

#endif
