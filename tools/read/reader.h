/*
 * reader.h - lbtrace's reader of .lbt trace files (include/lbshim/
 * trace_format.h): a set of files, each validated and indexed once, then
 * iterated as one stream of decoded records, merged by wall time across
 * the threads of every file.
 *
 * Every file is untrusted input: all offsets and sizes are checked against
 * the file's real length, nothing is allocated from a size the file
 * claims, and every loop is bounded by the file's length.  Files are read
 * with pread in windows of at most 64 KiB per thread being merged; memory
 * grows with the number of blocks, threads and strings actually present,
 * not with the records.
 *
 * Reused by the commands that compare groups of traces (ab, run): open a
 * set, look at the per-file header facts (struct lbt_file), iterate.
 */
#ifndef LBTRACE_READER_H
#define LBTRACE_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lbshim/trace_format.h"

#define LBT_MAX_FRAMES 256  /* frames kept per crash */
#define LBT_MAX_CRASHES 64  /* crash records kept per file */
#define LBT_MAX_STRING 4096 /* longest string assembled (bytes) */

struct lbt_set;
struct lbt_scan;

/* One thread of one file: the blocks it wrote, in ordinal order. */
struct lbt_thread {
	uint32_t tid;
	uint32_t thread_index;
	char name[17];	      /* pthread name of its last block */
	uint32_t name_sid;    /* string id of a THREAD record's name, or 0 */
	int exited;	      /* a THREAD exit record was seen */
	uint32_t first_block; /* index into the file's block table */
	uint32_t nblocks;
	uint64_t nrecords; /* committed slots, all types */
	int order;	   /* position in the set, for stable merges */
};

/* One backtrace frame of a crash. */
struct lbt_frame {
	uint32_t index;
	uint64_t pc;
	uint64_t offset;       /* offset in the function */
	const char *name;      /* mangled name as recorded, "" if unknown */
	const char *demangled; /* demangled, or the same as name */
	int guess;	       /* LB_FF_GUESS: the name is another function's */
};

/* One crash record with the frames that followed it on its thread. */
struct lbt_crash {
	int signo;
	int code; /* si_code */
	uint64_t addr;
	uint32_t sender; /* pid that sent it (code <= 0), else 0 */
	uint32_t tid;
	const struct lbt_thread *thread;
	uint64_t t_ticks;
	uint64_t off;	       /* byte offset of the record */
	uint32_t nframes_said; /* frame count the record announces */
	uint32_t nframes;
	struct lbt_frame *frames; /* sorted by index */
};

/* One file of the set; the header facts are copied and NUL-terminated. */
struct lbt_file {
	const char *path;
	int index;		    /* position in the set */
	struct lb_trace_header hdr; /* as read (host/cmdline terminated) */
	/*
	 * The runtime the calls went to (format version 2; a version 1
	 * file is HIP's: its writers wrapped HIP only, and its version and
	 * library are not known).  ab pairs a HIP trace's functions with a
	 * CUDA trace's by them.
	 */
	unsigned runtime;	 /* enum lb_trace_runtime */
	int64_t runtime_version; /* as the runtime reported it, -1 unknown */
	const char *runtime_lib; /* its library's file, "" unknown */
	uint64_t size;		    /* bytes in the file */
	const uint8_t *mem;	    /* in-memory source, or NULL */
	int fd;			    /* file source, when mem is NULL */
	uint32_t nthreads;
	struct lbt_thread *threads;
	uint64_t nrecords; /* committed slots, all types */
	uint64_t ncalls; /* call records (a folded record counts once) */
	int64_t first_t_ns, last_t_ns; /* record times, since file start */
	int truncated;		       /* the file ends early */
	uint64_t truncated_at;	       /* byte where whole data ends */
	int corrupt;		       /* some part was rejected (exit 2) */
	uint32_t ncrashes;
	struct lbt_crash *crashes;
	/* private */
	int mem_owned; /* mem is malloc'd */
	uint32_t nblocks;
	struct lbt_block *blocks;
	uint32_t napi;	       /* writer's API ids mapped */
	int32_t *api_map;      /* writer id -> current id, -1 unknown */
	const char **api_name; /* writer id -> name */
	char *api_names_buf;   /* the names, NUL-terminated once more */
	uint32_t nstrings;
	struct lbt_string *strings; /* sorted by id */
	uint64_t ns_mult;	    /* ticks -> ns: (d * mult) >> 32 */
	int ns_identity;
	int64_t origin_shift;	  /* start_realtime - set origin, ns */
	int scanned;		  /* strings, crashes, counts are known */
	struct lbt_scan *lazy_sc; /* scan riding along an UNORDERED pass */
};

/* A decoded record; the one lbt_next() returns is overwritten by the
 * next call.  Keep one with lbt_rec_keep(). */
struct lbt_rec {
	const struct lbt_file *file;
	const struct lbt_thread *thread;
	const struct lb_trace_rec *raw; /* the record: &copy */
	struct lb_trace_rec copy;
	uint64_t seq;
	uint64_t off;  /* byte offset in the file */
	uint8_t type;  /* enum lb_trace_type */
	uint8_t flags; /* LB_RF_* */
	uint8_t note;
	uint8_t device;
	int ret;
	int api;		       /* current LB_ID_*, or -1 if unknown */
	uint32_t api_raw;	       /* the writer's id */
	const char *api_name;	       /* never NULL for calls */
	int kind;		       /* enum lb_kind, or -1 */
	int64_t t_ns;		       /* start, since the set's origin */
	int64_t dur_ns;		       /* t1 - t0, 0 when t1 is missing */
	int in_flight;		       /* call record without a return time */
	int folded;		       /* a call folded into the record before
					* (lbt_raw_folded: yielded again) */
	const struct lbt_crash *crash; /* for LB_REC_CRASH */
	int has_kargs;		       /* launch: its KARGS record follows */
	struct lb_trace_rec kargs;     /* that record (format/kargs.h) */
};

/* Copies SRC into DST so that DST stays valid (as long as the set):
 * raw points into the struct itself, so fix it after moving DST. */
static inline void lbt_rec_keep(struct lbt_rec *dst, const struct lbt_rec *src)
{
	*dst = *src;
	dst->raw = &dst->copy;
}

/* Decoded launch fields of a LAUNCH call record. */
struct lbt_launch {
	uint32_t kernel_sid; /* 0: host function / callback */
	uint64_t fn;	     /* function pointer when kernel_sid == 0 */
	uint32_t shmem;
	uint32_t grid[3];
	uint32_t block[3];
};

/* Creates an empty set; messages go to ERR (NULL: none).  NULL if OOM. */
struct lbt_set *lbt_set_new(FILE *err);

/*
 * Opens, validates and indexes the file PATH and adds it to SET.  Returns
 * 0, or -1 after a message naming the file (and the byte offset when the
 * content is invalid); the set is unchanged on error.  A truncated file
 * is accepted (lbt_file.truncated).  Corrupt blocks are skipped with a
 * message and mark the file corrupt, as does a header whose clock
 * disagrees with its own wall-clock times (reader_header.c).
 */
int lbt_set_add(struct lbt_set *set, const char *path);

/* Same for an in-memory trace BUF of LEN bytes (not copied; keep it). */
int lbt_set_add_mem(struct lbt_set *set, const char *name, const void *buf,
		    size_t len);

/*
 * Lazy sets (ON = 1, before adding files) do not scan a file at open but
 * along the first UNORDERED pass over it, so statistics read each record
 * once.  The file facts that the scan gives (nrecords, ncalls, first/last
 * time, crashes, thread names) are then valid only after a complete
 * UNORDERED pass, or after any string lookup (which scans at once).
 */
void lbt_set_lazy(struct lbt_set *set, int on);

/* Number of files, and file I (0-based), or NULL. */
int lbt_set_nfiles(const struct lbt_set *set);
const struct lbt_file *lbt_set_file(const struct lbt_set *set, int i);

/* Wall time (CLOCK_REALTIME ns) that t_ns == 0 stands for. */
uint64_t lbt_set_origin(const struct lbt_set *set);

/* "HIP", "CUDA": the name of enum lb_trace_runtime RT ("?" unknown). */
const char *lbt_runtime_name(unsigned rt);

/* Nonzero if a file of the set was found corrupt (exit status 2). */
int lbt_set_corrupt(const struct lbt_set *set);

/* Closes every file and frees SET (NULL is fine). */
void lbt_set_free(struct lbt_set *set);

enum { LBT_ORDERED = 0, LBT_UNORDERED = 1 };

/*
 * Starts (or restarts) iteration over all records of the set: ORDERED
 * merges every thread of every file by the wall time of its records
 * (ties broken by file, thread, seq, so the order is deterministic);
 * UNORDERED goes thread by thread, which is faster and enough for
 * statistics.  Each thread's records keep their own order either way.
 */
void lbt_rewind(struct lbt_set *set, int mode);

/* Next record, or NULL at the end.  STRING and FRAME records are skipped
 * unless lbt_show_internal() was called. */
const struct lbt_rec *lbt_next(struct lbt_set *set);

/*
 * The records of the set as they are in the file, without decoding: fn
 * is called with runs of N consecutive committed records (valid during
 * the call) of file F, block by block in the order of the file, each
 * thread's records in their own order (a block that lies before its
 * thread's previous one comes right after that one).  Unlike
 * lbt_next(), STRING and FRAME records are in the runs (skip them by
 * type).  For statistics over millions of records, where decoding each
 * into struct lbt_rec costs more than the statistic.  Stops when fn
 * returns nonzero (returns that value); else 0.  A lazy set's scan rides
 * along, as in an UNORDERED pass.
 */
typedef int (*lbt_raw_fn)(void *arg, const struct lbt_file *f,
			  const struct lb_trace_rec *r, uint32_t n);
int lbt_each_raw(struct lbt_set *set, lbt_raw_fn fn, void *arg);

/* Name of the writer's API id RAW of F, as struct lbt_rec.api_name. */
const char *lbt_raw_api_name(struct lbt_set *set, const struct lbt_file *f,
			     uint32_t raw);

/* FILE's clock ticks D as ns, saturating far below overflow. */
static inline int64_t lbt_dticks_ns(const struct lbt_file *f, uint64_t d)
{
	unsigned __int128 v = d;

	if (!f->ns_identity)
		v = (v * f->ns_mult + (1u << 31)) >> 32; /* rounded */
	return v > INT64_MAX / 4 ? INT64_MAX / 4 : (int64_t)v;
}

/* Duration of raw call record R of F, as struct lbt_rec.dur_ns. */
static inline int64_t lbt_raw_dur_ns(const struct lbt_file *f,
				     const struct lb_trace_rec *r)
{
	return r->t1 > r->t0 && r->t0 ? lbt_dticks_ns(f, r->t1 - r->t0) : 0;
}

/* Also yield STRING and FRAME records from lbt_next(). */
void lbt_show_internal(struct lbt_set *set, int on);

/* Text of string ID of FILE (kernel names...), or NULL if absent. */
const char *lbt_string(const struct lbt_file *file, uint32_t id);

/* Demangled text of string ID (the text itself if not mangled), or NULL. */
const char *lbt_string_demangled(const struct lbt_file *file, uint32_t id);

/*
 * What a call of API id api (an lb_api_info row, -1 unknown) is, by the
 * row's role (include/lbshim/roles.h): does its launch carry a kernel (not
 * a host function, a callback or a graph, whose a[0] holds a pointer)?
 * Is "not ready" its answer rather than a failure (a stream's or an
 * event's query)?  0 for an unknown API.
 */
int lbt_api_has_kernel(int api);
int lbt_api_is_query(int api);
/* Do the trace's identical calls of api fold into one record (a device
 * query), and how many are folded into raw record r (0: none)? */
int lbt_api_folds(int api);
uint32_t lbt_raw_folded(int api, const struct lb_trace_rec *r);

/* Launch fields of a LAUNCH call record. */
void lbt_rec_launch(const struct lbt_rec *r, struct lbt_launch *l);

/* Kernel name of a launch record, demangled (or not), NULL if none. */
const char *lbt_rec_kernel(const struct lbt_rec *r, int demangled);

/* Converts FILE's clock ticks to ns since the set origin. */
int64_t lbt_ticks_to_ns(const struct lbt_file *file, uint64_t ticks);

/* Thread name to show: from a THREAD record, else the block header. */
const char *lbt_thread_name(const struct lbt_file *file,
			    const struct lbt_thread *t);

#endif
