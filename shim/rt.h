/*
 * rt.h - the one seam between the shim's policies (and its core) and the
 * runtime they serve: neutral status, stream and event types, the values
 * the policies test, and one const struct lb_rt of services per runtime.
 *
 * The policies name no runtime: they call lb_rt->stream_sync(s), test a
 * status against LB_ST_NOT_READY, compare a stream with
 * LB_STREAM_PER_THREAD.  Everything that belongs to one runtime is in its
 * side of the seam: rt_hip.c (HIP) and rt_cuda.c (NVIDIA's CUDA, chosen
 * where the process is served as CUDA: resolve_cuda.c).
 *
 * Contract for a side (rt_<runtime>.c):
 *
 * - Statuses.  lb_status is the runtime's own return value, unchanged
 *   (call->ret holds it as the runtime returned it, and the shim returns
 *   it to the program as it is).  So a status test on a hot path stays a
 *   compare with a constant, and no translation is made: a side may only
 *   be plugged in whose runtime numbers the codes below as LB_ST_* says.
 *   HIP copied CUDA's numbers (runtime and driver API alike), so both
 *   sides hold it; each side asserts every one at compile time, beside its
 *   citation.  A future runtime that numbers otherwise needs translation
 *   at its wrappers, not in the policies.
 * - Handles.  lb_stream and lb_event are the runtime's handles as they
 *   are (pointers to the runtime's own incomplete structs), held as
 *   void * so that they convert without casts to and from the handles in
 *   the table's argument structs.  The policies never look inside one.
 *   The null, legacy and per-thread streams are the constants below
 *   (HIP's and CUDA's values alike, asserted by each side).
 * - Services (struct lb_rt, (a)).  Each calls the runtime once, counted
 *   exactly as a policy's own call through lb_real is counted (shim.h,
 *   lb_real_own: lb_rt_own bumped, lb_rt_probe_once() first), because
 *   the last-error logic (lasterr.c) must know that the runtime was
 *   called on this thread.  A service the runtime lacks returns
 *   LB_ST_MISSING and leaves its outputs alone (it is still counted: the
 *   check of a missing function only over-counts).  Outputs are written
 *   only on LB_ST_OK, as the runtime writes them.  None is called on a
 *   per-call hot path; none takes a lock of the shim's.
 * - Values ((d)): the flags, kinds and attribute ids the policies pass or
 *   test, again as both runtimes number them (asserted), or, where the
 *   runtimes differ (the launch's "extra" markers, the width of a pointer
 *   range's size), a field of struct lb_rt.
 * - The last-error rule (struct lb_rt_le) and the reader of kernel facts
 *   (struct lb_rt_kf): the core's (lasterr.c, kreg.c), not counted (the
 *   core's own calls are not the policies'), but for the layouts asked of
 *   the runtime (lb_rt_kf.params), whose calls may fail.
 */
#ifndef LB_RT_H
#define LB_RT_H

#include <stddef.h>
#include <stdint.h>

struct lb_co_set;

/* The runtime's return value as it returned it (0: success). */
typedef unsigned int lb_status;
/* The runtime's stream and event handles, opaque. */
typedef void *lb_stream;
typedef void *lb_event;
/* A host function run in a stream's order (HIP's and CUDA's callback
 * type, with neutral handles: the same ABI). */
typedef void (*lb_stream_callback)(lb_stream s, lb_status r, void *data);

/* ---- (c) the statuses the policies test or answer ---- */
enum {
	LB_ST_OK = 0,
	LB_ST_INVALID_VALUE = 1,
	LB_ST_OOM = 2,		   /* out of memory (HIP: also
				    * hipErrorMemoryAllocation) */
	LB_ST_NOT_INITIALIZED = 3, /* also what a missing function answers
				    * (shim.h, lb_missing) */
	LB_ST_NO_DEVICE = 100,
	LB_ST_INVALID_HANDLE = 400,
	LB_ST_NOT_READY = 600,
	LB_ST_CONTEXT_DESTROYED = 709,
	LB_ST_CAPTURE_UNSUPPORTED = 900,
	LB_ST_CAPTURE_IMPLICIT = 906,
	LB_ST_CAPTURED_EVENT = 907,
	/* The seam's own, never a runtime's: the service is missing. */
	LB_ST_MISSING = 0x7fff0000
};

/* ---- (b) the null, legacy and per-thread streams ---- */
#define LB_STREAM_NULL ((lb_stream)0)
#define LB_STREAM_LEGACY ((lb_stream)1)
#define LB_STREAM_PER_THREAD ((lb_stream)2)

/* Does handle h name the work stream0 moves (rt's null_handles)? */
#define LB_RT_NULLISH(rt, h) \
	((uintptr_t)(h) <= 2 && (((rt)->null_handles >> (uintptr_t)(h)) & 1))

/* Is s the legacy default stream (0, or its explicit handle)? */
static inline int lb_stream_is_legacy(lb_stream s)
{
	return !s || s == LB_STREAM_LEGACY;
}

/* ---- (d) flags, kinds, attributes ---- */
enum {
	LB_STREAM_DEFAULT = 0,	    /* stream_create's flags */
	LB_STREAM_NON_BLOCKING = 1, /* stream_flags' bit */
	LB_EVENT_DISABLE_TIMING = 2, /* event_create's flags */
	LB_CAPTURE_NONE = 0,	    /* stream_capturing: not capturing */
	LB_MEM_ATTACH_GLOBAL = 1,   /* managed allocation's flags */
	LB_DEVICE_MALLOC_DEFAULT = 0, /* an extended allocation's flags */
	/* a copy's direction */
	LB_MEMCPY_HOST_TO_HOST = 0,
	LB_MEMCPY_HOST_TO_DEVICE = 1,
	LB_MEMCPY_DEVICE_TO_HOST = 2,
	LB_MEMCPY_DEVICE_TO_DEVICE = 3,
	LB_MEMCPY_DEFAULT = 4,
	/* the pointer attributes the pool corrects (driver style) */
	LB_PTR_ATTR_RANGE_START = 11,
	LB_PTR_ATTR_RANGE_SIZE = 12
};

/* ---- (e) structures taken by value, laid out as both runtimes lay them
 * out (asserted by each side) ---- */
struct lb_pitched {
	void *ptr;
	size_t pitch;
	size_t xsize;
	size_t ysize;
};
struct lb_extent {
	size_t width;
	size_t height;
	size_t depth;
};
struct lb_memloc {
	int type;
	int id;
};
/* an array's channel format: bits per channel */
struct lb_chandesc {
	int x, y, z, w;
	int f;
};

/*
 * (f) The last-error rule, for lasterr.c.  The runtime keeps a last
 * error per thread that three functions read: get (returns and resets
 * it), peek (returns it), ext (HIP: hipExtGetLastError; the "command"
 * error under the sticky rule).  Under either rule below a failure is
 * any status but LB_ST_OK and LB_ST_NOT_READY (lasterr.c).
 */
struct lb_rt_le_fns {
	/* the runtime's own functions, raw: lasterr.c calls them on the
	 * per-call path, as the core (not counted); NULL when missing */
	lb_status (*get)(void);
	lb_status (*peek)(void);
	lb_status (*ext)(void);
};
struct lb_rt_le {
	/* Fills *f (after resolution; the table does not change later). */
	void (*fns)(struct lb_rt_le_fns *f);
	/*
	 * Does a call of row api store its result in the last error (a
	 * runtime row that returns a status; not a registration, not a
	 * row of another library, such as CUDA's driver)?
	 */
	int (*sets)(int api);
	/* 1: LB_ST_NOT_READY is kept as the last error like any failure
	 * (CUDA); 0: it is not (HIP 7.x's rule) */
	uint8_t not_ready_kept;
	/*
	 * The rule, without starting the runtime where it can be told so:
	 * returns 1 for the sticky rule (a failure is kept until read),
	 * 0 for "every call overwrites it"; says which at debug level.
	 * *asked: 1 when it had to call the runtime (that call's answer is
	 * then the last error, which the caller clears; *version is set to
	 * the runtime's version when it gave one), 0 when the library's
	 * name told (rtstart.c's probe is then armed for the rule of
	 * overwriting).
	 */
	int (*sticky)(int *version, int *asked);
};

/*
 * (f) The reader of kernel facts: the runtime's code objects, read into
 * the shared form of lbshim/codeobj.h.  Each returns a set (possibly
 * empty, never NULL unless memory ran out); flags: LB_CO_*.
 */
struct lb_rt_kf {
	/* the wrapper a fat-binary registration passes */
	struct lb_co_set *(*read_fatbin)(const void *wrapper, unsigned flags);
	/* a module file */
	struct lb_co_set *(*read_file)(const char *path, unsigned flags);
	/* a module image in memory, of unknown size */
	struct lb_co_set *(*read_image)(const void *image, unsigned flags);
	/*
	 * Where the images are not read (CUDA's): the parameter layout of
	 * kernel handle f (module: a module function's handle) asked of the
	 * runtime, off[i] and size[i] of each parameter, at most max.
	 * Returns how many, or -1 when the runtime cannot tell.  NULL: the
	 * code objects give layouts (HIP).  Its calls are the policies'
	 * own (counted: rt.h's rule of the last error).
	 */
	int (*params)(const void *f, int module, uint32_t *off,
		      uint32_t *size, int max);
};

/*
 * The runtime's naming functions, raw (called as they are, uncounted:
 * they return names, not statuses, and leave the last error alone); any
 * may be NULL.
 */
struct lb_rt_names {
	/* the name of the kernel whose host stub is f, launched on s */
	const char *(*kernel_by_ptr)(const void *f, lb_stream s);
	/* the name of a module function handle */
	const char *(*kernel_ref)(const void *fn);
	/* the name of a status ("hipErrorInvalidValue") */
	const char *(*status)(lb_status r);
};

/* Services by name, for struct lb_rt's has(). */
enum {
	LB_RTS_STREAM_CREATE,
	LB_RTS_STREAM_QUERY,
	LB_RTS_STREAM_SYNC,
	LB_RTS_EVENT_CREATE,
	LB_RTS_EVENT_RECORD,
	LB_RTS_COUNT
};

struct lb_rt {
	const char *name; /* "hip" */
	/*
	 * Does the runtime have service svc (LB_RTS_*)?  For a policy that
	 * decides before it calls (counted, as a check of lb_real was).
	 */
	int (*has)(int svc);

	/* (a) streams */
	lb_status (*stream_create)(lb_stream *s, unsigned flags);
	lb_status (*stream_destroy)(lb_stream s);
	lb_status (*stream_query)(lb_stream s); /* LB_ST_NOT_READY: busy */
	lb_status (*stream_sync)(lb_stream s);
	lb_status (*stream_flags)(lb_stream s, unsigned *flags);
	/* *status: LB_CAPTURE_NONE or another capture status */
	lb_status (*stream_capturing)(lb_stream s, int *status);
	lb_status (*stream_wait_event)(lb_stream s, lb_event e,
				       unsigned flags);
	/* (a) events */
	lb_status (*event_create)(lb_event *e, unsigned flags);
	lb_status (*event_record)(lb_event e, lb_stream s);
	lb_status (*event_query)(lb_event e); /* LB_ST_NOT_READY: pending */
	lb_status (*event_sync)(lb_event e);
	lb_status (*event_destroy)(lb_event e);
	/* (a) devices */
	lb_status (*device_get)(int *dev);
	lb_status (*device_set)(int dev);
	lb_status (*device_sync)(void);
	/*
	 * The pitch alignment device dev requires of a pitched allocation
	 * (*align untouched on failure).  Not a table row: resolved from
	 * the runtime's library by name, and, as before the seam, not
	 * counted (it leaves no error the program could see: see rt_hip.c).
	 */
	lb_status (*device_pitch_align)(int dev, int *align);
	/* (a) memory */
	lb_status (*mem_alloc)(void **p, size_t n);
	lb_status (*mem_alloc_managed)(void **p, size_t n, unsigned flags);
	lb_status (*mem_free)(void *p);
	lb_status (*mem_info)(size_t *free, size_t *total);
	/*
	 * (a) names: fills *n with the runtime's naming functions.  Reads
	 * the runtime's table once (counted, as a policy's read of it).
	 */
	void (*names)(struct lb_rt_names *n);

	/* (d) where the runtimes differ */
	/* the table's rows of this runtime: ids [row_first, row_end) */
	uint16_t row_first, row_end;
	/*
	 * The handles that name, in a row without LB_F_SPT, the legacy
	 * default stream's work that stream0 moves to a thread's own
	 * stream: bit h for handle h (LB_STREAM_NULL, _LEGACY,
	 * _PER_THREAD).  Each side says why its set is what it is.
	 */
	uint8_t null_handles;
	/* 1: the per-thread rows (LB_F_SPT) are the runtime's own per-thread
	 * default stream, left alone by stream0; 0: moved as the plain
	 * rows' (their 0 too) */
	uint8_t spt_alone;
	/* 1: a synchronous copy to the host (LB_F_NULLSYNC, direction
	 * LB_MEMCPY_DEVICE_TO_HOST) returns once it has completed, so its
	 * stream's earlier work has completed too (the pool: no fence) */
	uint8_t sync_dtoh_done;
	/* the markers of a launch's "extra" array */
	const void *launch_buffer_ptr, *launch_buffer_size, *launch_end;
	/* bytes the runtime writes for LB_PTR_ATTR_RANGE_SIZE */
	uint8_t range_size_width;
	/* offsets of the device and host pointers in the runtime's
	 * pointer-attributes structure */
	uint16_t attr_device_ptr, attr_host_ptr;
	/* the runtime's own call-tracing variable, honoured by the trace
	 * policy's live output, or NULL */
	const char *trace_env;
	/* LB_MEMCPY_* names as the runtime spells them */
	const char *memcpy_kind[LB_MEMCPY_DEFAULT + 1];

	/* (f) */
	const struct lb_rt_le *le;
	const struct lb_rt_kf *kf;
};

/* The runtime the process uses: rt_hip.c's, or rt_cuda.c's where the
 * process is served as CUDA (set by lb_init before any policy starts). */
extern const struct lb_rt *lb_rt __attribute__((visibility("hidden")));
/* The CUDA side (rt_cuda.c). */
extern const struct lb_rt lb_rt_cuda __attribute__((visibility("hidden")));

/*
 * The runtime's function of the API table's row NAME, for a policy that
 * calls a row of the table on the program's behalf (stream0's Async
 * twins): counted as its own call (shim.h, lb_real_own).
 */
#define lb_rt_row(NAME) (lb_real_own.NAME)

#endif
