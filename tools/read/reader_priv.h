/*
 * reader_priv.h - what the reader's files share among themselves: block
 * index entries, strings, the set and its iteration cursors.  Not for
 * formatters (they use reader.h).
 */
#ifndef LBTRACE_READER_PRIV_H
#define LBTRACE_READER_PRIV_H

#include "read/reader.h"

/* One block of a file, as indexed at open. */
struct lbt_block {
	uint64_t off; /* byte offset of the block header */
	uint64_t ordinal;
	uint64_t first_seq;
	uint32_t tid;
	uint32_t thread_index;
	uint32_t flags;	 /* LB_BLK_* */
	uint32_t nslots; /* record slots present in the file */
	uint32_t npos;	 /* positions to visit (see reader_iter.c) */
	uint32_t start;	 /* ring: slot of the oldest record */
	char name[17];
};

/* One assembled string. */
struct lbt_string {
	uint32_t id;
	char *text;
	char *demangled; /* lazily, NULL until asked */
};

/*
 * A window of consecutive record slots of one block, read with pread
 * (faster than a mapping's page faults, and a file that shrinks while
 * read cannot fault): what each cursor and the scan read through.  For an
 * in-memory source the window points into the memory itself.
 */
struct lbt_chunk {
	const struct lbt_block *b;	 /* block held, NULL none */
	uint32_t first, n;		 /* slots [first, first + n) */
	uint32_t cap;			 /* slots of a window */
	const struct lb_trace_rec *recs; /* slot first */
	struct lb_trace_rec *buf;	 /* made on first use */
	/*
	 * Read ahead (pread source, a walk in the file's order; 0: the
	 * window alone): one read covers up to `ahead` bytes from the
	 * window on, buf then holding the file's bytes [held_off, held_off
	 * + held_len) of held_f for the windows that follow.
	 */
	uint32_t ahead;
	uint32_t held_len;
	uint64_t held_off;
	const struct lbt_file *held_f;
};

/*
 * The statistics' pass reads this far ahead (lbt_each_raw): 4 blocks of
 * the default size, within a core's L2 cache.  Fewer, longer reads
 * (issue 16: on the bench machine a read costs ~2.5 us of system call
 * besides its copy; 6 M records took 5 866 reads of 64 KiB).
 */
#define LBT_READ_AHEAD (256u * 1024u)

/* Iteration state of one thread. */
struct lbt_cursor {
	struct lbt_file *file;
	struct lbt_thread *thread;
	uint32_t bi;		      /* block, within the thread's blocks */
	uint32_t pos;		      /* position within that block */
	uint32_t slot;		      /* slot of the current record */
	const struct lb_trace_rec *r; /* it, in chunk */
	struct lbt_chunk ch;
	int done;
	int64_t key;	  /* ns of the current record */
	int64_t last_key; /* ns of the thread's previous timed record */
	uint32_t rep;	  /* reader_iter.c: folded calls of r yielded */
	uint32_t nrep;	  /* and how many r holds, read at the first */
};

struct lbt_set {
	FILE *err;
	int nfiles;
	struct lbt_file **files;
	uint64_t origin;
	int mode;
	int internal; /* yield STRING / FRAME records too */
	int ncur;
	struct lbt_cursor *cur;
	int *heap; /* cursor indexes, min-heap on key */
	int nheap;
	int seq_cur;	    /* UNORDERED: cursor being read */
	uint32_t chunk_cap; /* slots per cursor window */
	int lazy;	    /* scan along the first UNORDERED pass */
	int started;
	struct lbt_rec rec;
	char (*unk_names)[12]; /* "api#N" for unknown ids, made lazily */
};

/* Prints "lbtrace: " and FMT's line on SET's stream, if it has one. */
void lbt_say(struct lbt_set *set, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Checks F's header (F->hdr holds its first bytes, F->size the file's
 * length) against the format and against itself (reader_header.c).
 * Returns 0, or -1 after a message naming the file, the byte offset and
 * the field: the file is not a trace this lbtrace can read.  A header
 * whose clock disagrees with its own wall-clock times (an altered rate,
 * or a wall clock set while the process ran) is read, but F->corrupt is
 * set after a message.
 */
int lbt_check_header(struct lbt_set *set, struct lbt_file *f);

/*
 * Checks the API names of F at P, LEN bytes that start at byte OFF of
 * the file (version 1: the header's api_names, which may be empty;
 * version 2: the name table, which ends exactly at its last byte) and
 * their count against api_count (reader_header.c).  Returns 0, or -1
 * after a message naming the file and the byte.
 */
int lbt_check_names(struct lbt_set *set, const struct lbt_file *f,
		    const char *p, size_t len, uint64_t off);

/* Loads the window of CH that holds slot S of block B (reader.c). */
void lbt_chunk_load(const struct lbt_file *f, struct lbt_chunk *ch,
		    const struct lbt_block *b, uint32_t s);

/* LEN bytes of FD at OFF into BUF by pread; what is not read (end of
 * file, error) zeros (reader_batch.c). */
void lbt_read_piece(int fd, uint64_t off, size_t len, char *buf);

/*
 * Reads N pieces of LEN bytes of FD, piece i from byte FIRST + i * STEP
 * into BUF + i * LEN; what a piece's read does not give (end of file,
 * error) reads as zeros (reader_batch.c): through one io_uring if
 * USE_RING and the kernel lets us, else by pread.  1: the ring read
 * them; 0: pread did; -1: the ring failed with reads under way (the
 * bytes are right, but BUF must never be freed).
 */
int lbt_read_strided(int fd, uint64_t first, uint64_t step, size_t n,
		     size_t len, void *buf, int use_ring);

/* Frees the cursors and their windows (reader_iter.c). */
void lbt_free_cursors(struct lbt_set *set);

/* Frees CH's buffer. */
void lbt_chunk_free(struct lbt_chunk *ch);

/* Slot S of block B of file F (S < B->nslots), through CH. */
static inline const struct lb_trace_rec *lbt_slot(const struct lbt_file *f,
						  struct lbt_chunk *ch,
						  const struct lbt_block *b,
						  uint32_t s)
{
	if (ch->b != b || s < ch->first || s - ch->first >= ch->n)
		lbt_chunk_load(f, ch, b, s);
	return ch->recs + (s - ch->first);
}

/* Byte offset of slot S of block B. */
static inline uint64_t lbt_slot_off(const struct lbt_block *b, uint32_t s)
{
	return b->off + LB_TRACE_REC_SIZE * (1 + (uint64_t)s);
}

/* Record types without a time of their own (KARGS: bytes 8..63 are the
 * arguments; it is shown with its launch, see reader_iter.c). */
static inline int lbt_untimed(unsigned type)
{
	return type == LB_REC_STRING || type == LB_REC_FRAME ||
	       type == LB_REC_KARGS;
}

/* lbt_ticks_to_ns(), inline for the iteration's hot path. */
static inline int64_t lbt_ticks_ns(const struct lbt_file *f, uint64_t t)
{
	uint64_t s = f->hdr.start_ticks;

	if (t < s)
		return f->origin_shift - lbt_dticks_ns(f, s - t);
	return f->origin_shift + lbt_dticks_ns(f, t - s);
}

/* Earliest start and latest end of the timed records, in raw ticks. */
struct lbt_span {
	uint64_t lo, hi;
};

/* What a scan gathers until lbt_scan_end() hands it to the file. */
struct lbt_scan {
	struct part_ref *parts; /* (reader_strings.c) */
	size_t nparts, cap;
	struct frame_raw **raw; /* per crash, parallel to frames */
	struct lbt_span sp;
	uint64_t ncalls;
	uint64_t *trecs; /* records per thread */
	int32_t *tcrash; /* per thread: the crash its frames attach to, or
			  * -1 (frames never cross threads) */
	int failed;	 /* out of memory */
	/*
	 * Fed in file order (lbt_each_raw), each thread's records still in
	 * its own order: the crashes are put back in thread order at the
	 * end, and if some were dropped (more than LBT_MAX_CRASHES: which
	 * ones are kept depends on the order) the scan is made again in
	 * thread order.
	 */
	int file_order;
	int crash_full;
};

static inline void lbt_note_time(const struct lb_trace_rec *r,
				 struct lbt_span *sp)
{
	if (lbt_untimed(r->hdr.type) || !r->t0)
		return;
	if (r->t0 < sp->lo)
		sp->lo = r->t0;
	if (r->t1 > sp->hi)
		sp->hi = r->t1;
	if (r->t0 > sp->hi)
		sp->hi = r->t0;
}

/*
 * The scan (reader_strings.c) builds F's string table, crash list, counts
 * and time span.  It runs at open, or (lazy sets) along the first
 * UNORDERED pass: begin, one() per committed record in thread order,
 * end() (or abort() when the pass is abandoned).  end() returns 0 or -1
 * (out of memory: strings and crashes are then empty).
 */
struct lbt_scan *lbt_scan_begin(struct lbt_file *f);
void lbt_scan_other(struct lbt_file *f, struct lbt_scan *sc,
		    struct lbt_thread *t, const struct lb_trace_rec *r,
		    uint64_t off);

/* (inline: a call record, the common case, only counts) */
static inline void lbt_scan_one(struct lbt_file *f, struct lbt_scan *sc,
				struct lbt_thread *t,
				const struct lb_trace_rec *r, uint64_t off)
{
	sc->trecs[t - f->threads]++;
	lbt_note_time(r, &sc->sp);
	if (r->hdr.type == LB_REC_CALL)
		sc->ncalls++;
	else
		lbt_scan_other(f, sc, t, r, off);
}
/* Committed records at R, of at most N: up to the first empty slot. */
static inline uint32_t lbt_run_len(const struct lb_trace_rec *r, uint32_t n)
{
	uint32_t k = 0;

	while (k < n && r[k].hdr.type)
		k++;
	return k;
}

/*
 * The calls at R (at most N, up to the first record of another type),
 * their span (lbt_note_time(): earliest t0, latest of t0 and t1, records
 * with t0 = 0 left out) folded into SP (reader_iter.c: a function of
 * its own, so that its loop has the registers to itself).
 */
uint32_t lbt_scan_calls(const struct lb_trace_rec *r, uint32_t n,
			struct lbt_span *sp);

/*
 * lbt_run_len() that scans what it passes (lbt_scan_one() of each) of
 * thread T, R at byte OFF: the statistics' pass (lbt_each_raw) scans
 * whole runs, calls counted and their span kept in registers.
 */
static inline uint32_t lbt_scan_run(struct lbt_file *f, struct lbt_scan *sc,
				    struct lbt_thread *t,
				    const struct lb_trace_rec *r, uint32_t n,
				    uint64_t off)
{
	uint32_t k = 0, c;

	while (k < n) {
		c = lbt_scan_calls(r + k, n - k, &sc->sp);
		sc->ncalls += c;
		k += c;
		if (k == n || !r[k].hdr.type)
			break;
		lbt_note_time(&r[k], &sc->sp);
		lbt_scan_other(f, sc, t, &r[k], off + (uint64_t)k * sizeof(*r));
		k++;
	}
	sc->trecs[t - f->threads] += k;
	return k;
}

int lbt_scan_end(struct lbt_file *f, struct lbt_scan *sc);
void lbt_scan_abort(struct lbt_file *f, struct lbt_scan *sc);

/* The whole scan at once; 0 or -1 (out of memory). */
int lbt_scan_strings(struct lbt_set *set, struct lbt_file *f);

/* Scans F now unless done (what every lookup of strings calls). */
void lbt_ensure_scanned(const struct lbt_file *f);

/* Frees what lbt_scan_strings() built. */
void lbt_free_strings(struct lbt_file *f);

/* Iteration slot of position POS in block B (ring-aware). */
static inline uint32_t lbt_pos_slot(const struct lbt_block *b, uint32_t pos)
{
	uint32_t s;

	if (!(b->flags & LB_BLK_RING))
		return pos;
	s = b->start + pos;
	return s >= b->nslots ? s - b->nslots : s;
}

/* Sequence number of slot S of block B. */
uint64_t lbt_block_seq(const struct lbt_block *b, uint32_t s);

#endif
