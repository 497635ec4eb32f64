/*
 * trace_format.h - the lbshim trace file (.lbt), shared by the writer
 * (policies/trace*.c) and the reader (tools/).  Documented for users in
 * lbshim-trace(5); a change here is a change of that page and of
 * LB_TRACE_VERSION.
 *
 * Everything is little-endian and naturally aligned.
 *
 *   offset 0                 struct lb_trace_header (LB_TRACE_HEADER_SIZE)
 *   offset names_off         version 2: the API name table (names_len)
 *   offset header_size       block 0
 *   ... + k * block_size     block k
 *
 * Version 1 (LB_TRACE_V1) had the API names inside the fixed header
 * (api_names, 6656 bytes: a longer table was cut) and header_size 8192.
 * Version 2 puts them in a table of their own after the fixed header,
 * as long as the writer's API table needs (header_size, the start of
 * block 0, grows with it in whole pages), and says which runtime the
 * calls went to.  The table is written once, when the file is created,
 * before any block: it is whole in every file that has a block.
 *
 * A block belongs to one thread of the process that wrote the file (one
 * file per process).  Its first 64-byte slot is a struct lb_trace_block;
 * the other slots are records (struct lb_trace_rec), written in order by
 * that thread only.  Blocks of one thread are chained by their ordinal
 * (not by file position: a thread takes runs of consecutive blocks at a
 * time, and may leave blocks of a run unused, magic 0).  A block staged
 * by the writer (policies/trace/trace_stage.c) may be in the file twice,
 * same thread and ordinal, when the writer died between copying it and
 * clearing the staged one: a reader keeps the one with more records.
 * The file is a shared mapping while it is written, so a record is in the
 * file as soon as its last store is made, whatever kills the process.
 *
 * Commit rule: a slot is a record only when its first 8 bytes (struct
 * lb_trace_rec.hdr, type != 0) are nonzero; the writer stores the other 56
 * bytes first and the header last, with release ordering.  A reader ignores
 * slots with type 0 (never written, or interrupted before the commit), and
 * stops reading a block at the first such slot unless the block is a ring
 * block (flag LB_BLK_RING), whose slots are overwritten cyclically.
 *
 * Time: records carry raw clock ticks (t0, t1).  The header says which
 * clock (clock_id) and its rate (ticks_per_sec) and gives one
 * (realtime_ns, monotonic_ns, ticks) triple taken at start, so a reader
 * converts ticks to wall time and merges files of several processes and
 * hosts: wall_ns = start_realtime_ns + (t - start_ticks) * 1e9 / rate.
 */
#ifndef LB_TRACE_FORMAT_H
#define LB_TRACE_FORMAT_H

#include <stdint.h>

#define LB_TRACE_MAGIC "LBTRACE\0" /* 8 bytes */
#define LB_TRACE_VERSION 2u /* the version the shim writes */
#define LB_TRACE_V1 1u	    /* the first: names in the header */
/* The fixed header; header_size (version 2: with the name table after
 * it, rounded up to LB_TRACE_PAGE) is where block 0 starts. */
#define LB_TRACE_HEADER_SIZE 8192u
#define LB_TRACE_PAGE 4096u
#define LB_TRACE_REC_SIZE 64u
/* Default block size; the header's block_size is authoritative. */
#define LB_TRACE_BLOCK_SIZE (64u * 1024u)

/* Which runtime the calls went to (header field runtime, version 2). */
enum lb_trace_runtime {
	LB_RT_UNKNOWN = 0, /* not a value of version 2 files */
	LB_RT_HIP = 1,	   /* AMD's HIP (libamdhip64) */
	LB_RT_CUDA = 2,	   /* NVIDIA's CUDA (libcudart, libcuda) */
	LB_RT_COUNT
};

enum lb_trace_clock {
	LB_CLOCK_TSC = 1,	/* rdtsc, constant rate */
	LB_CLOCK_MONOTONIC = 2	/* clock_gettime(CLOCK_MONOTONIC) in ns */
};

/* Header flags. */
#define LB_HDR_CLEAN_EXIT 0x1u /* the process ended normally (end_* valid) */
#define LB_HDR_RING 0x2u       /* flight-recorder mode (LBSHIM_TRACE_RING) */
#define LB_HDR_CRASHED 0x4u    /* a crash record was written */
#define LB_HDR_STOPPED 0x8u    /* tracing stopped early (disk full, ...) */
#define LB_HDR_RT_VERSION 0x10u /* version 2: runtime_version is the
				 * runtime's own answer (stored first) */

struct lb_trace_header {
	char magic[8];		/* LB_TRACE_MAGIC */
	uint32_t version;	/* LB_TRACE_VERSION (or LB_TRACE_V1) */
	uint32_t header_size;	/* where block 0 starts: version 1
				 * LB_TRACE_HEADER_SIZE; version 2 that
				 * plus the name table, in whole pages */
	uint32_t rec_size;	/* LB_TRACE_REC_SIZE */
	uint32_t block_size;	/* bytes per block, multiple of 4096 */
	uint32_t pid;
	uint32_t ppid;
	uint32_t clock_id;	/* enum lb_trace_clock */
	uint32_t flags;		/* LB_HDR_*, updated while running */
	uint64_t ticks_per_sec; /* rate of t0/t1 */
	uint64_t start_realtime_ns; /* CLOCK_REALTIME at start */
	uint64_t start_monotonic_ns; /* CLOCK_MONOTONIC at start */
	uint64_t start_ticks;	/* the clock at the same instant */
	uint64_t end_realtime_ns; /* at clean exit, else 0 */
	uint64_t end_ticks;	/* at clean exit, else 0 */
	uint32_t api_count;	/* LB_API_COUNT of the writer: the names */
	uint32_t ring_slots;	/* records per thread ring, 0 if no ring */
	uint64_t blocks_used;	/* blocks handed out so far (may lag) */
	uint32_t rank;		/* from RANK etc., or UINT32_MAX */
	uint32_t policies;	/* bit 0 trace, 1 stream0, 2 pool */
	uint64_t run_id;	/* LBSHIM_RUN_ID when set (lbtrace run), else 0 */
	char lbshim_version[16]; /* LB_VERSION of the writer, NUL-terminated;
				  * "" in files from before it (the bytes
				  * were reserved and 0): no format change */
	uint64_t alive_ticks;	/* the clock when the writer last showed
				 * it was alive (its helper thread stores
				 * it every 200 ms at most); 0 when it has
				 * no helper (ring mode) and in files from
				 * before it (the bytes were reserved and
				 * 0): no format change */
	uint8_t reserved0[8];
	char host[64];		/* NUL-terminated */
	char cmdline[1024];	/* argv joined by spaces, NUL-terminated */
	union {
		/*
		 * Version 1: the writer's API names in id order,
		 * NUL-separated, ending with an empty name: a reader maps
		 * ids through them so that a newer table stays readable.
		 */
		char api_names[6656];
		struct { /* version 2 */
			/*
			 * The runtime library the calls went to, as the
			 * dynamic loader names it (the path it was opened
			 * by), NUL-terminated; "" when none was found.
			 * A path the kernel opened is shorter than
			 * PATH_MAX (4096 with its NUL).
			 */
			char runtime_lib[4096];
			uint8_t reserved2[6656 - 4096];
		};
	};
	/* Version 2 (0 in version 1 files: reserved bytes there). */
	uint32_t runtime;	 /* enum lb_trace_runtime */
	int32_t runtime_version; /* as the runtime reports it
				  * (hipRuntimeGetVersion), when flags has
				  * LB_HDR_RT_VERSION; else 0: not known */
	uint32_t names_off;	 /* the API name table: byte offset in
				  * the file (LB_TRACE_HEADER_SIZE) */
	uint32_t names_len;	 /* its bytes: the writer's API names in
				  * id order (api_count of them), each
				  * with its NUL, then one more NUL */
	uint8_t reserved[LB_TRACE_HEADER_SIZE - 7912];
};

_Static_assert(sizeof(struct lb_trace_header) == LB_TRACE_HEADER_SIZE,
	       "trace header size");
_Static_assert(__builtin_offsetof(struct lb_trace_header, host) == 152,
	       "header fields keep their offsets");
_Static_assert(__builtin_offsetof(struct lb_trace_header, api_names) == 1240 &&
		   __builtin_offsetof(struct lb_trace_header, runtime) == 7896,
	       "version 2 fields where lbshim-trace(5) has them");

#define LB_BLOCK_MAGIC 0x4b4c424cu /* "LBLK" */
#define LB_BLK_RING 0x1u	   /* slots are overwritten cyclically */

/* First slot of every block. */
struct lb_trace_block {
	uint32_t magic;		/* LB_BLOCK_MAGIC; 0 = block never used */
	uint32_t tid;		/* writing thread */
	uint64_t ordinal;	/* 0, 1, 2 ... within the thread; in a ring:
				 * how many times the ring wrapped */
	uint32_t flags;		/* LB_BLK_* */
	uint32_t thread_index;	/* dense per-process thread number */
	uint64_t first_seq;	/* seq of the block's first record slot */
	char thread_name[16];	/* pthread name at block start */
	uint32_t ring_next;	/* ring blocks: index (0-based, among the
				 * record slots) of the slot the next record
				 * goes to, i.e. the oldest one once the ring
				 * has wrapped; stored after each commit.
				 * 0 in other blocks. */
	uint8_t reserved[12];
};

_Static_assert(sizeof(struct lb_trace_block) == LB_TRACE_REC_SIZE,
	       "block header size");

/* Record types (struct lb_trace_rec_hdr.type); 0 = no record. */
enum lb_trace_type {
	LB_REC_CALL = 1,   /* one wrapped call */
	LB_REC_STRING = 2, /* part of an interned string */
	LB_REC_CRASH = 3,  /* a fatal signal */
	LB_REC_FRAME = 4,  /* one backtrace frame of the crash */
	LB_REC_LOST = 5,   /* records that could not be written */
	LB_REC_POOL = 6,   /* pool statistics (at exit) */
	LB_REC_STREAM0 = 7, /* stream0 statistics per thread (at exit) */
	LB_REC_THREAD = 8, /* a thread's name changed / thread exit */
	LB_REC_KINFO = 9,  /* a kernel's facts from its code object */
	LB_REC_KARGS = 10, /* a launch's argument bytes (after its call) */
	LB_REC_TYPE_MAX
};

/* The 8 bytes stored last: a nonzero type commits the record. */
struct lb_trace_rec_hdr {
	uint8_t type;	/* enum lb_trace_type */
	uint8_t flags;	/* LB_RF_* */
	uint16_t api;	/* LB_ID_* for calls */
	int16_t ret;	/* hipError_t (calls), signal number (crash) */
	uint8_t device; /* device current on the thread */
	uint8_t note;	/* per type, see below */
};

/* Call record flags. */
#define LB_RF_REMAPPED 0x1u /* stream0 changed the stream (stream_used) */
#define LB_RF_SERVED 0x2u   /* a policy answered the call, not forwarded as
			     * made (it may call the runtime to answer) */
#define LB_RF_HAZARD 0x4u   /* stream0: a hazard (lbshim(7)): a dependency
			     * on pending work that it could not order */
#define LB_RF_GRIDZ_SAT 0x8u /* launch: grid.z did not fit 16 bits */
#define LB_RF_ELSEWHERE 0x20u /* crash handler: the call was in flight on
			      * thread a[2], not on the block's thread;
			      * only api and t0 are known (older writers:
			      * entry records took their place) */
#define LB_RF_ORDERED 0x40u /* stream0: the call was made to wait for
			     * work it depends on (another thread's, or
			     * its thread's on another stream) */
#define LB_RF_NARROWED 0x80u /* stream0: a sync that returned while other
			      * threads' earlier null-stream work was
			      * pending (the legacy stream would have
			      * waited); information, not a hazard */
#define LB_RF_INFLIGHT 0x10u /* the call had not returned when the thread
			      * crashed: written by the crash handler just
			      * before the CRASH record; t1 = crash time,
			      * ret = -1, outputs (a[] results) 0 */
/*
 * Entry records: a call record with t1 = 0 (and no LB_RF_INFLIGHT) is the
 * call's entry, written when the call was entered into the slot its
 * record takes when it returns: ret = -1, stream = stream_used = the
 * stream the program named, a[] and note its inputs only (outputs 0;
 * kernel launches, registrations and hipGetProcAddress: a[] = 0, not
 * recorded at entry).  Found as a thread's last record, it is a call that
 * had not returned when the file was last written: the thread was inside
 * it when the process died (SIGKILL too) or, after a clean exit, when the
 * process ended.  Readers of files from before it never see one.
 */

/* KARGS record flags. */
#define LB_KF_CUT 0x1u /* the explicit arguments end past LB_KARGS_BYTES:
			* what is past it was not recorded */

/* Calls folded into one device query's record at most (DEVICE, below). */
#define LB_FOLD_MAX (1u << 20)

/* Kernarg bytes a KARGS record holds (the 56 after its header). */
#define LB_KARGS_BYTES 56u

/* Frame record flags. */
#define LB_FF_GUESS 0x1u /* the name is the nearest symbol below the pc
			  * and not the function's own (that function,
			  * known to the unwind tables, starts elsewhere:
			  * a static function of a stripped library) */

/* note of a call record: pool result for allocations and frees. */
enum lb_pool_note { LB_POOL_OFF = 0, LB_POOL_HIT = 1, LB_POOL_MISS = 2 };

/*
 * One 64-byte slot.  For LB_REC_CALL, a[] by the API's kind
 * (lb_api_info[api].kind):
 *
 *   LAUNCH  a[0] = kernel string id (low 32) | dynamic shmem (high 32)
 *           a[1] = grid.x (low 32) | grid.y (high 32)
 *           a[2] = grid.z (16) | block.x (16) | block.y (16) | block.z (16),
 *                  from the low bits up
 *           (module launches: grid is globalWorkSize / localWorkSize for
 *           the Ext/Hcc variants, as the runtime defines it; host-function
 *           and callback launches: a[0] = function pointer, string id 0)
 *   ALLOC   a[0] = pointer returned, a[1] = bytes asked, a[2] = pitch
 *           (hipMallocPitch) or flags; note = enum lb_pool_note
 *   FREE    a[0] = pointer; note = enum lb_pool_note
 *   COPY    a[0] = dst, a[1] = src, a[2] = bytes (2D: width * height);
 *           note = hipMemcpyKind
 *   SET     a[0] = dst, a[1] = value, a[2] = bytes (D32: count * 4)
 *   EVENT   a[0] = event, a[1] = second event (elapsed time) or flags,
 *           a[2] = elapsed time as float bits
 *   STREAM  a[0] = stream created / queried, a[1] = flags, a[2] = priority
 *   SYNC    a[0] = event (hipEventSynchronize)
 *   DEVICE  a[0] = device id; a device query (role DEVICE_GET) that
 *           succeeded: a[0]'s high 32 bits = later identical calls of the
 *           thread folded into it (same function, same device answered,
 *           nothing recorded between), a[1] = their summed duration in
 *           ticks, a[2] = the last one's t1 (policies/trace/trace.c,
 *           lb_trace_post_query; lbshim-trace(5)); at most LB_FOLD_MAX
 *           calls a record, each ending after the one before (a reader
 *           takes a record claiming more, or more than a[2] - t1, as
 *           none)
 *   REG     a[0] = host function / module, a[1] = name string id
 *   OTHER   a[0] = pointer, a[1] = size or value, a[2] = extra
 *
 * LB_REC_STRING: a[0] = string id (low 32) | part (16) | parts (16);
 *   t0, t1, stream, stream_used, a[1], a[2] hold the text (48 bytes a
 *   part), NUL-padded in the last part.  Ids are per file, from 1.
 *   part counts from 0; parts >= 1.  Text bytes 0..31 of a part are slot
 *   bytes 8..39 (t0..stream_used), bytes 32..47 are slot bytes 48..63
 *   (a[1], a[2]).  The records of one id may be in any thread's block
 *   and need not precede the records that use the id.
 * LB_REC_CRASH: ret = signal number, note = si_code (low 8 bits),
 *   t0 = time, stream = fault address, a[0] = si_code, a[1] = tid,
 *   a[2] = frame count that follows.  A signal sent by a process
 *   (si_code <= 0: kill, tgkill, abort) has stream = 0 and stream_used
 *   = the sender's pid (low 32 bits); else stream_used = stream.  (Older
 *   writers stored si_addr in both, whose low 32 bits are si_pid there.)
 *   The fatal signals, and SIGTERM when the program left it at SIG_DFL.
 * LB_REC_FRAME: stream = pc, stream_used = offset in the function,
 *   a[0] = frame index (low 32), t0..t1 + a[1], a[2] = the first 32 bytes
 *   of the (mangled) function name, NUL-padded (slot bytes 8..23 then
 *   48..63); longer names continue in STRING records whose id is the
 *   record's a[0] high 32 bits (0: none): that string is the rest of the
 *   name from byte 32 on, to append.  Frame 0 is the faulting frame.
 *
 * Crash block: the writer reserves the first block of the file (block 0)
 *   for crash records of a thread that has no block of its own (it never
 *   called HIP, or its block could not be had).  It has magic 0 until a
 *   crash uses it; then tid = the crashing thread, thread_index =
 *   UINT32_MAX, ordinal 0.
 * seq: the k-th record slot of a non-ring block has seq first_seq + k
 *   (first_seq = ordinal * lb_trace_slots(block_size)).  A ring block is
 *   read from ring_next to the end, then from slot 0 to ring_next - 1,
 *   when ordinal > 0 (it has wrapped); else from slot 0.
 * LB_REC_LOST: a[0] = records lost, t0/t1 = period.
 * LB_REC_POOL (at exit): stream = hits, stream_used = misses, a[0] =
 *   reserved bytes at peak, a[1] = in-use bytes at peak, a[2] = chunks at peak
 *   (low 32) | frees that found pending work (high 32).
 * LB_REC_STREAM0 (at thread exit, and at process exit for the threads
 *   still alive): stream = tid the counts are about, stream_used =
 *   dependencies ordered (on other threads' pending work, and switches
 *   between the null stream and a blocking stream), a[0] = null-stream
 *   syncs, a[1] = hazards (dependencies that could not be ordered),
 *   a[2] = syncs narrowed (returned while another thread's earlier
 *   null-stream work was pending).  Writers before 0.2: stream_used and
 *   a[2] 0, a[1] = the syncs narrowed plus the dependencies found.
 * LB_REC_THREAD: a[0] = name string id, note = 1 at thread exit.
 * LB_REC_KINFO (when a kernel is registered or got from a module whose
 *   code object has metadata): a[0] = mangled kernel name string id
 *   (low 32) | target string id ("amdgcn-amd-amdhsa--gfx90a", high 32),
 *   note = code object version, stream = VGPRs (low 32) | SGPRs (high
 *   32), stream_used = LDS bytes | scratch bytes per work-item, a[1] =
 *   wavefront size | max flat workgroup size, a[2] = kernarg segment
 *   bytes | explicit (non-hidden) arguments; t0 = t1 = time.
 * LB_REC_KARGS (right after the call record of a launch whose kernel's
 *   code object was read, in the same thread): slot bytes 8..63 = the
 *   first LB_KARGS_BYTES bytes of the kernel's explicit arguments, each
 *   at its .offset in the kernarg segment (kernelParams copied there, or
 *   the "extra" buffer itself); bytes past the last argument and gaps
 *   between arguments are 0 (kernelParams) or the buffer's.  hdr.note =
 *   bytes recorded (min(end of the last explicit argument, 56)), flags
 *   LB_KF_CUT when the arguments end past 56, device as in the call.
 *   hdr.api (low 16 bits) and hdr.ret (high 16, as unsigned) = the
 *   string id of the kernel's argument layout: for every explicit
 *   argument in order, "offset:size:value_kind", space-separated (e.g.
 *   "0:8:global_buffer 8:4:by_value"); 0 when it could not be written.
 */
struct lb_trace_rec {
	struct lb_trace_rec_hdr hdr;
	uint64_t t0;	      /* ticks at call entry */
	uint64_t t1;	      /* ticks at return */
	uint64_t stream;      /* the stream the program named */
	uint64_t stream_used; /* the stream used (stream0), else = stream */
	uint64_t a[3];
};

_Static_assert(sizeof(struct lb_trace_rec) == LB_TRACE_REC_SIZE,
	       "record size");

/* Records (slots after the block header) per block of block_size bytes. */
static inline uint32_t lb_trace_slots(uint32_t block_size)
{
	return block_size / LB_TRACE_REC_SIZE - 1;
}

#endif
