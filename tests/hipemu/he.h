/*
 * he.h - hipemu's internals, shared by its files and hidden from the
 * export list (everything declared here has hidden visibility; only the HIP
 * entry points are marked HE_EXPORT).
 */
#ifndef LB_EMU_HE_H
#define LB_EMU_HE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <uthash.h>
#include "lbshim/hip_decls.h"
#include "hipemu.h"
#include "he_face.h"

#pragma GCC visibility push(hidden)

#define HE_EXPORT __attribute__((visibility("default")))
#define HE_MAX_DEVICES 16
#define HE_ALIGN 256

/* ---- config.c: the HIPEMU_* environment, read once ---- */
struct he_config {
	int ndevices;
	size_t mem_size;
	size_t quarantine;
	uint64_t cost_malloc_ns, cost_free_ns, cost_launch_ns, cost_sync_ns;
	uint64_t cost_record_ns, cost_query_ns, cost_stream_ns;
	bool cost_busy;
	const char *stats_file;
	const char *kernels;
	const char *fail;
	int set_errno; /* HIPEMU_ERRNO: every call leaves errno so; 0 off */
};
extern struct he_config he_cfg;

/* Reads the environment and sets up every part, once; cheap afterwards. */
void he_init(void);
/* Spends ns nanoseconds, sleeping or spinning per HIPEMU_COST_MODE. */
void he_cost(uint64_t ns);
uint64_t he_now_ns(void);
/* Prints "hipemu: ..." on stderr (configuration problems only). */
void he_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- profile.c: the ROCm release this build models ---- */
struct he_profile {
	int release;	/* 52, 57, 62, 72: ROCm major * 10 + minor */
	int version;	/* what hipRuntimeGetVersion reports */
	bool sticky;	/* hipGetLastError keeps the last failure (7.x) */
	bool ext_last_error; /* has hipExtGetLastError (6.0 on) */
};
extern const struct he_profile he_prof;

/* ---- api.c: per-API call counting, fault injection, last error ---- */
/* struct he_api is he_face.h's: the CUDA face counts its calls too. */

/*
 * Counts one call of api and returns the error fault injection asks for
 * (hipSuccess normally).
 */
hipError_t he_enter(struct he_api *api);
/*
 * Records err as the thread's last error by the profile's rule (profile.c)
 * and returns it.  Every error an entry point returns goes through it; a
 * success may be returned directly: HE_ENTER has already recorded it.
 */
hipError_t he_ret(hipError_t err);
/* The call begins: under the overwrite rule its success is recorded. */
void he_call_begin(void);
/*
 * on 1 then 0 brackets a CUDA face's call into the HIP entry points: in
 * between, they neither count nor fail by HIPEMU_FAIL nor record HIP's
 * last error on this thread (he_face.h).
 */
void he_face_mode(int on);
/* Calls the callback for every API called at least once. */
void he_api_foreach(void (*fn)(const char *name, unsigned long n, void *),
		    void *arg);
/* Parses HIPEMU_FAIL; warns about what it cannot parse. */
void he_fault_init(const char *spec);
/* hipError_t of a name ("hipErrorOutOfMemory") or number; -1 if none. */
int he_error_by_name(const char *name);

/* Entry of every HIP function returning hipError_t. */
#define HE_ENTER(NAME)                                                  \
	static struct he_api he_api_ = { .name = NAME };                \
	do {                                                            \
		hipError_t he_inj_ = he_enter(&he_api_);                \
		he_call_begin();                                        \
		if (he_inj_ != hipSuccess)                              \
			return he_ret(he_inj_);                         \
	} while (0)
/* Entry of the few that return something else: counted, never failed. */
#define HE_COUNT(NAME)                                                  \
	static struct he_api he_api_ = { .name = NAME };                \
	(void)he_enter(&he_api_)

/* ---- stats.c ---- */
extern atomic_ulong he_streams_created, he_streams_destroyed;
extern atomic_ulong he_events_created, he_events_destroyed;
void he_stats_init(void);

/* ---- device.c ---- */
/* Current device of the calling thread. */
int he_cur_dev(void);
bool he_dev_valid(int dev);
/* Fills p with device dev's properties (hipGetDeviceProperties). */
void he_dev_props(hipDeviceProp_t *p, int dev);

/* ---- work items: what a stream op does (work.c) ---- */
struct he_kernel;
struct he_event;
struct he_stream;

enum he_work_kind {
	HE_W_NOP,
	HE_W_KERNEL,
	HE_W_COPY,
	HE_W_SET,
	HE_W_HOSTFN,
	HE_W_CALLBACK,
	HE_W_EVENT,
	HE_W_FREE,
	HE_W_GRAPH,
};

struct he_work {
	enum he_work_kind kind;
	union {
		struct {
			hipemu_twin_fn fn;
			hipemu_launch l;
			void **args;	/* into buf, or the caller's */
			void *buf;	/* owned copy of values + pointers */
			size_t bufsz;
			int nargs;	/* -1: args are the caller's */
			char *kbuf;	/* owned copy of l.kernarg */
		} kern;
		struct {
			char *dst;
			const char *src;
			size_t dpitch, spitch, width, height;
		} copy;
		struct {
			char *dst;
			uint32_t value;
			size_t count;
			unsigned elsize;
		} set;
		struct {
			hipHostFn_t fn;
			void *ud;
		} hostfn;
		struct {
			hipStreamCallback_t fn;
			hipStream_t handle;
			void *ud;
		} cb;
		struct {
			struct he_event *ev;
			uint64_t gen;
		} event;
		struct {
			void *ptr;
		} free;
		struct {
			struct he_work *nodes;
			int n;
		} graph;
	};
};

/* Runs w on the calling (worker) thread. */
void he_work_run(struct he_work *w);
/* Deep copy for graphs: dst owns its own buffers. 0 or -1 (no memory). */
int he_work_clone(struct he_work *dst, const struct he_work *src);
/*
 * Builds a kernel work item that owns copies of the argument values
 * (sizes: the twin's hipemu_args_M, or NULL to use args in place).
 * 0, or -1 when out of memory.
 */
int he_work_kernel(struct he_work *w, hipemu_twin_fn fn,
		   const hipemu_launch *l, void **args, const unsigned *sizes);
/* Frees what w owns (and drops the event reference it holds). */
void he_work_release(struct he_work *w);

/* ---- stream.c: queues, workers, the null stream's rules ---- */
/* Flags of he_enqueue. */
#define HE_ENQ_SYNC 0x1u	/* the caller will wait for it */

/*
 * Resolves a handle (NULL, hipStreamLegacy, hipStreamPerThread or a
 * created stream) to a stream, creating the null or per-thread stream on
 * first use.  hipErrorInvalidHandle (or hipErrorContextIsDestroyed) for
 * an unknown handle.
 */
hipError_t he_stream_get(hipStream_t h, struct he_stream **out);
/*
 * Enqueues w on s after its prior work and, by the legacy rules, after the
 * other streams' work it must wait for, plus the event dependency ev (may
 * be NULL).  Takes ownership of w's buffers on success.  While s captures,
 * w goes into the graph instead.  *seq gets the position (0 if captured).
 */
hipError_t he_enqueue(struct he_stream *s, struct he_work *w,
		      struct he_event *ev, unsigned flags, uint64_t *seq);
/* Waits until s has run its first seq ops. */
void he_stream_wait(struct he_stream *s, uint64_t seq);
/* Waits for every stream of dev (all devices when dev < 0). */
void he_sync_device(int dev);
/* Capture checks for a synchronous call on the null stream of dev. */
hipError_t he_capture_check_sync(int dev);
/* Destroys every stream of dev (hipDeviceReset). */
void he_streams_reset(int dev);
int he_stream_device(struct he_stream *s);
bool he_stream_is_null(struct he_stream *s);
/* True if the calling thread is some stream's worker. */
bool he_on_worker(void);

/* The scheduler lock and the progress condition (stream.c). */
extern pthread_mutex_t he_lock;
extern pthread_cond_t he_progress;
/* Under he_lock: has s completed its first seq ops? */
bool he_stream_reached(struct he_stream *s, uint64_t seq);
void he_stream_ref(struct he_stream *s);
void he_stream_unref(struct he_stream *s);

/* ---- event.c ---- */
/* Under he_lock: the stream position ev was last recorded at. */
bool he_event_position(struct he_event *ev, struct he_stream **s,
		       uint64_t *seq);
void he_event_ref(struct he_event *ev);
void he_event_unref(struct he_event *ev);
/* Runs a record op: timestamp if gen is still the latest record. */
void he_event_fire(struct he_event *ev, uint64_t gen);
void he_events_reset(int dev);
/* Validates handle; hipErrorInvalidHandle if unknown. Under he_lock. */
hipError_t he_event_lookup(hipEvent_t h, struct he_event **out);
/* Records ev on s (hipEventRecord without the entry bookkeeping). */
hipError_t he_event_record(hipEvent_t ev, hipStream_t stream);

/* ---- graph.c ---- */
struct he_capture;
/* Under he_lock: adds a clone of w to the capture's graph. */
hipError_t he_capture_add(struct he_capture *c, struct he_work *w);
bool he_capture_global(struct he_capture *c);
void he_capture_invalidate(struct he_capture *c);
void he_capture_free(struct he_capture *c);
unsigned long long he_capture_id(struct he_capture *c);
bool he_capture_valid(struct he_capture *c);
struct he_capture *he_capture_new(hipStreamCaptureMode mode);
/* Detaches the graph from c (NULL if invalidated) and frees c. */
hipGraph_t he_capture_end(struct he_capture *c);
/* Stream hooks for graph.c (stream.c). */
struct he_capture *he_stream_capture(struct he_stream *s);
void he_stream_set_capture(struct he_stream *s, struct he_capture *c);

/* ---- memory.c ---- */
enum he_mem_kind { HE_MEM_DEVICE, HE_MEM_MANAGED, HE_MEM_HOST };
hipError_t he_alloc(void **p, size_t size, int dev, enum he_mem_kind kind,
		    unsigned flags);
/* Releases an allocation base now (poison, quarantine). */
hipError_t he_release(void *p, int async);
/* Marks p (an allocation base) as being freed by a pending hipFreeAsync. */
hipError_t he_free_begin(void *p);
/*
 * Finds the allocation containing [p, p+len): base, size, kind, device;
 * hipErrorInvalidValue if none.
 */
hipError_t he_mem_find(const void *p, size_t len, char **base, size_t *size,
		       enum he_mem_kind *kind, int *dev, unsigned *flags);
void he_mem_info(int dev, size_t *free, size_t *total);
void he_mem_reset(int dev);
void he_mem_stats(unsigned long *bytes, unsigned long *live);

/* ---- kernel.c: the kernel registry ---- */
#define HE_KERNEL_MAGIC 0x6b65726e656c4845ull	/* "HEkernel" */

struct he_kernel {
	uint64_t magic;
	const void *host;	/* stub address (hash key), or NULL */
	char *name;
	bool resolved;
	hipemu_twin_fn fn;
	const unsigned *sizes;	/* the twin's hipemu_args_<name>, or NULL */
	unsigned *meta_sizes;	/* the layout's sizes, or NULL; then */
	unsigned meta_n;	/* explicit arguments, whose kernarg */
	const unsigned *meta_offs; /* offsets follow meta_sizes' 0 */
	bool warned;		/* "no twin" said once */
	UT_hash_handle hh;	/* by host stub */
	UT_hash_handle hn;	/* by name (module functions) */
	struct he_kernel *all_next;
};

struct lb_co_kernel;
/* Looks up the twin of a mangled name (NULL if none) and its arg sizes. */
hipemu_twin_fn he_twin_lookup(const char *name, const unsigned **sizes);
/* dlopens the HIPEMU_KERNELS libraries (colon-separated paths). */
void he_kernels_init(const char *paths);
/*
 * Registers host as the stub of the device function name, replacing an
 * earlier registration of host; meta (may be NULL) gives the argument
 * layout.  The record, or NULL when out of memory.
 */
struct he_kernel *he_kernel_add_stub(const void *host, const char *name,
				     const struct lb_co_kernel *meta);
/* The record of stub host, or NULL if none was registered. */
struct he_kernel *he_kernel_by_stub(const void *host);
/*
 * The record modules share for the function name, made on first use; its
 * layout is meta's (may be NULL) unless it has one.  NULL: out of memory.
 */
struct he_kernel *he_kernel_named(const char *name,
				  const struct lb_co_kernel *meta);
/*
 * Gives k the layout of n explicit arguments (sizes, kernarg offsets)
 * unless it has one; a size of 0 leaves it without.
 */
void he_kernel_layout(struct he_kernel *k, const unsigned *sizes,
		      const unsigned *offs, unsigned n);
/* Argument i's offset and size from k's layout; false if none. */
bool he_kernel_param(struct he_kernel *k, unsigned i, unsigned *off,
		     unsigned *size);
/*
 * Resolves k's twin once: false if it has none.  *sizes gets the twin's
 * table, else the layout's, else NULL.
 */
bool he_kernel_twin(struct he_kernel *k, hipemu_twin_fn *fn,
		    const unsigned **sizes);

#pragma GCC visibility pop

#endif
