/*
 * shim.h - what the shim's core offers its policies: the call context, the
 * policy ops, the real-function table, logging and configuration helpers.
 *
 * A policy sees every wrapped call of a process that enabled it, as a
 * struct lb_call, before the runtime is called (pre) and after (post).
 */
#ifndef LB_SHIM_H
#define LB_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include "lbshim/api.h"
#include "rt.h"

#define LB_HIDDEN __attribute__((visibility("hidden")))
#define LB_EXPORT __attribute__((visibility("default")))
#define LB_TLS __thread __attribute__((tls_model("initial-exec")))
#define LB_LIKELY(x) __builtin_expect(!!(x), 1)
#define LB_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* The shim's own (lbshim/api.h declares it for every user of the
 * table; within the shim a use is then one load, not a GOT slot's). */
extern const struct lb_api_info lb_api_info[LB_API_COUNT] LB_HIDDEN;
extern const uint8_t lb_arg_tab[LB_API_COUNT][64] LB_HIDDEN;

/* ---- the real runtime ---- */

/*
 * One pointer per row of hip_api.def and cuda_api.def, NULL when the
 * runtime lacks it.
 */
struct lb_real_table {
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) RET(*NAME) P;
#include "lbshim/hip_api.def"
#include "lbshim/cuda_api.def"
#undef LB_API
};
extern struct lb_real_table lb_real LB_HIDDEN;

/*
 * Bumped at every use of lb_real outside the shim's core (the policies'
 * own calls of the runtime, and their checks of a pointer, which only
 * over-count): lasterr.c skips its work for a call only while this is
 * unchanged since it last looked, i.e. nothing but the program's own call
 * reached the runtime on this thread.  The core (wrappers' thunks,
 * lasterr.c, resolve.c) defines LB_REAL_DIRECT and is not counted.
 */
#define lb_rt_own (lb_hot.rt_own)
/*
 * A policy with a direct hook calls the runtime on a thread only after
 * its pre or thread_exit hook on that thread (never from its direct, fork
 * or fini hooks): its standing answers (fast.h), withdrawn there, rely on
 * it for the last error (run_solo.h, lb_fast_take).
 */
/*
 * rtstart.c: before the shim's own first call of the runtime,
 * lb_rt_probe() learns whether the runtime failed to start; lb_rt_first
 * then gives that answer to the program's call (r its answer to row api,
 * returned unchanged otherwise; clears lb_rt_fail, restores lb_gate).
 * lb_rt_major: the major version in the runtime's soname, or -1.
 */
extern int lb_rt_probed LB_HIDDEN;
extern int lb_rt_fail LB_HIDDEN;
void lb_rt_probe(void);
hipError_t lb_rt_first(int api, hipError_t r);
int lb_rt_major(void);
static inline void lb_rt_probe_once(void)
{
	if (__builtin_expect(!__atomic_load_n(&lb_rt_probed, __ATOMIC_RELAXED),
			     0))
		lb_rt_probe();
}
/* lb_real as a policy uses it: counted.  rt_hip.c's services, which
 * are the policies' calls, use it by this name (the rest of the core
 * defines LB_REAL_DIRECT). */
static inline struct lb_real_table *lb_real_table(void)
{
	return &lb_real; /* the table itself: the macros below not yet */
}
/*
 * lasterr.c: under CUDA's rule the last error before a call is needed
 * only where the shim's own calls may change it, so it is read before
 * the first of them (lb_le.lazy, set by run_solo.h's step 4).
 */
void lb_lasterr_lazy(void);
#define lb_le_lazy_read()                                          \
	(__builtin_expect(lb_hot.le.lazy, 0) ? lb_lasterr_lazy() : (void)0)
/* One more own call of the runtime: the last error before it read
 * first where that is still to be done. */
#define lb_rt_own_bump() (lb_le_lazy_read(), lb_rt_own++)
#define lb_real_own \
	(*(lb_le_lazy_read(), lb_rt_own++, lb_rt_probe_once(), lb_real_table()))
#ifndef LB_REAL_DIRECT
#define lb_real lb_real_own
#endif

/*
 * Nonzero when the runtime the policies serve is CUDA (resolve_cuda.c):
 * the process has CUDA and no HIP.  With both, HIP is served and CUDA's
 * calls go straight to CUDA (wrappers_cuda.c).
 */
extern int lb_cu_served LB_HIDDEN;

/* Nonzero once lb_init() has finished (acquire to read). */
extern int lb_ready LB_HIDDEN;

/*
 * Runs configuration, resolution and policy set-up once per process.
 * Safe from any thread and from a runtime constructor that calls back into
 * a wrapper while the runtime is being loaded.
 */
void lb_init(void);

/*
 * Resolves one function without initializing (used by a wrapper reached
 * while lb_init() is running on this thread).  Returns NULL if not found.
 */
void *lb_resolve_one(int api);

/*
 * A runtime function by name, table row or not, from the one library the
 * table's functions came from (resolve.c's rule: never some functions from
 * one runtime and some from another).  Returns NULL before resolution,
 * when no runtime was found, or when that library lacks sym.  Leaves no
 * dlerror() behind and errno as it was.
 */
void *lb_rt_sym(const char *sym);

/* Is addr inside liblbshim.so itself?  (NULL is not.) */
int lb_in_self(const void *addr);

/* Path of the library that a resolved function came from, or "?". */
const char *lb_lib_of(const void *fn);

/*
 * The runtime library the table's functions came from, as the dynamic
 * loader names it (the path it opened it by: the trace header records
 * it); "" before resolution and when no runtime was found.
 */
const char *lb_rt_file(void);

/*
 * The runtime's version as it reported it (hipRuntimeGetVersion), or 0
 * while the shim has not asked: the core asks once at start only where
 * it must know the runtime's last-error rule (lasterr.c, under stream0
 * or pool), never for its own sake (the call initializes the runtime).
 */
extern int lb_rt_version LB_HIDDEN;

/*
 * Warns once per API that the runtime lacks it; returns
 * hipErrorNotInitialized, the error every wrapper then returns.
 */
hipError_t lb_missing(int api);

/* lasterr.c: the thread's shadow of the last error (see there). */
struct lb_le_thread {
	uint8_t owned;	   /* shadow holds the last error */
	uint8_t cmd_owned; /* 7.x: shadow holds the command error */
	uint8_t ok;	   /* 5.x/6.x: !owned and the runtime's last error is
			    * hipSuccess */
	lb_status last;	   /* the last error the program should see */
	lb_status cmd;	   /* 7.x: its last call's value */
	lb_status cmd_mark; /* 7.x: what the runtime's command error held
			      * when the shadow took over */
	unsigned seen;	   /* lb_rt_own when lasterr.c last looked */
	uint8_t lazy;	   /* CUDA: a call is in the pipeline whose last
			    * error before it is not read yet: read at the
			    * shim's first own call (lb_le_lazy_read) */
	lb_status before;  /* that value, once read */
};

/* fast.h: the solo policy's standing answer for a thread's submissions. */
struct lb_fast_ans {
	hipStream_t null_to;  /* the stream for 0 and hipStreamPerThread */
	uint64_t *null_count; /* bumped once per submission null_to took */
	hipStream_t user;     /* a stream that goes unchanged (or ANY) */
	uint64_t gen;	      /* lb_fast_gen when the answers were left */
};

/*
 * The per-thread state a wrapper's fast paths read, in one TLS block: in
 * a shared object each TLS variable's offset is a load from the GOT, one
 * per variable a function touches; one block is one load (issue 16).
 * Each field keeps the name it is used by (the macros below).
 */
struct lb_hot {
	int depth;	   /* nonzero while this thread is inside the shim */
	unsigned rt_own;   /* lb_real uses outside the core (above) */
	char thread_known; /* run_solo.h: lb_thread_first has run */
	int *errno_p;	   /* run_solo.h: the thread's errno */
	struct lb_fast_ans fast;
	struct lb_le_thread le;
};
extern LB_TLS struct lb_hot lb_hot;

/* Per-thread depth: nonzero while this thread is inside the shim. */
#define lb_depth (lb_hot.depth)

/* ---- calls and policies ---- */

struct lb_call {
	uint16_t api;
	uint8_t handled;   /* a policy's pre answered the call: the thunk (the
			    * runtime's function, with the program's
			    * arguments) is not called; the policy may call
			    * the runtime itself to answer (trace: SERVED) */
	uint8_t flags;	   /* LB_CALL_* */
	lb_status ret;	   /* result, for hipError_t functions */
	void *args;	   /* struct lb_args_<name> * */
	lb_stream *stream; /* the stream argument in args, or NULL */
	lb_stream stream_named; /* what the program passed */
	void *rval;	   /* result of a pointer-returning function */
	uint64_t t0, t1;   /* set by the trace policy */
	uint64_t scratch[4]; /* per-call notes policies leave for each other
			      * through the trace: see LB_NOTE_* */
};

/*
 * lb_call.flags: LB_CALL_RT, the wrapper's thunk called the runtime's
 * function and c->ret is its answer (hipError_t functions only).
 */
#define LB_CALL_RT 0x01

/* scratch slots: written by the policy named, read by the trace policy
 * (LB_SCRATCH_S0: read by none but stream0) */
enum {
	LB_NOTE_POOL = 0,  /* pool: 0 off, 1 hit, 2 miss */
	LB_NOTE_HAZARD = 1, /* stream0: LB_NOTE_S0_* bits */
	LB_SCRATCH_S0 = 2   /* stream0's own, from its pre hook to its post */
};

/* scratch[LB_NOTE_HAZARD]: what stream0 did about the call. */
#define LB_NOTE_S0_HAZARD 1u   /* a dependency it could not order */
#define LB_NOTE_S0_ORDERED 2u  /* it made the call wait for work it
				* depends on (another thread's, or the
				* thread's own on another stream) */
#define LB_NOTE_S0_NARROWED 4u /* a sync that returned while other
				* threads' earlier null-stream work, which
				* the legacy stream would have waited for,
				* was pending */

/*
 * Calls the runtime with the (possibly modified) arguments in c; have:
 * the caller knows that the runtime has the function (else the thunk
 * looks, and answers as lb_missing() for a missing one).
 */
typedef void (*lb_thunk_fn)(struct lb_call *c, int have);

/* What a direct hook returns to refuse (no stream has this handle). */
#define LB_DIRECT_NO ((lb_stream)-1)

struct lb_policy {
	const char *name;
	/*
	 * Called once at start-up.  listed: the user named the policy in
	 * LBSHIM_POLICIES.  Returns 1 if the policy is to be active.
	 */
	int (*init)(int listed);
	/* Before the runtime; return 1 when the call was served (c->ret). */
	int (*pre)(struct lb_call *c);
	/*
	 * The runtime refused the call (c->ret is its error), before any
	 * post hook: return 1 when the policy did something that makes a
	 * second try worth it (the pool gave memory back).  The call is
	 * then made once more, and c->ret is the second answer.
	 */
	int (*retry)(struct lb_call *c);
	/* After the runtime (or after a policy served the call). */
	void (*post)(struct lb_call *c);
	/* The calling thread is exiting (after its last HIP call). */
	void (*thread_exit)(void);
	/* fork(): before it in the parent, then in parent and child. */
	void (*fork_prepare)(void);
	void (*fork_parent)(void);
	void (*fork_child)(void);
	/* Process exit. */
	void (*fini)(void);
	/*
	 * A stream is about to be destroyed by another policy (stream0's
	 * per-thread streams), not through a wrapper that policies see.
	 */
	void (*stream_gone)(lb_stream s);
	/*
	 * Another policy reports statistics (see lb_stat); the trace policy
	 * records them.  NULL for policies that do not care.
	 */
	void (*stat)(int type, const uint64_t v[5]);
	/*
	 * Optional; used only while the policy is the one active, for the
	 * rows init marked in direct_rows (calls with a stream argument
	 * that return hipError_t): the policy's whole work for the call
	 * whose arguments are args (read only) and whose stream argument is
	 * s.  Returns the stream to call the runtime with, no pre or post
	 * hook and no call context following (the hook's work is then
	 * done); or LB_DIRECT_NO, having changed nothing, for the full
	 * path.  It must not call the runtime or change errno.  It may
	 * leave the thread a standing answer for its next submissions
	 * (fast.h), which the wrappers then apply without calling it.
	 */
	lb_stream (*direct)(int api, const void *args, lb_stream s);
	/* [LB_API_COUNT], or NULL: LB_DIRECT_HOOK, LB_DIRECT_NULL (fast.h) */
	const uint8_t *direct_rows;
	/*
	 * Optional; used only while the policy is the one active, for the
	 * rows init marked in serve_rows (allocations and frees with no
	 * stream argument that return hipError_t; others are ignored):
	 * answer the call whose arguments are args
	 * with hipSuccess, as the pre hook would (its outputs written, its
	 * counts kept), and return 1, no call context, pre or post hook
	 * following; or return 0, having changed nothing, for the full
	 * path.  It may call the runtime (lb_real counts it for the last
	 * error) and change errno (restored).
	 */
	int (*serve)(int api, void *args);
	/* [LB_API_COUNT], or NULL: nonzero for the rows serve may answer */
	const uint8_t *serve_rows;
};

/* Policies, defined in policies/ (weak: a build may lack one). */
extern const struct lb_policy lb_policy_trace __attribute__((weak));
extern const struct lb_policy lb_policy_stream0 __attribute__((weak));
extern const struct lb_policy lb_policy_pool __attribute__((weak));

/* Nonzero when any policy is active: wrappers take the slow path. */
extern int lb_hooks LB_HIDDEN;

/*
 * What an exported wrapper tests first, lb_ready and lb_hooks in one load
 * (acquire): 0 before lb_init() has finished, 1 after with no policy
 * (pass-through), 2 after with policies.  Set last, after both.
 */
extern int lb_gate LB_HIDDEN;

/* Is the named policy active? */
int lb_policy_active(const struct lb_policy *p);

/*
 * The routes of a wrapped call, and the steps each takes: the one table.
 * lb_pipeline (run_solo.h) is the one definition of the steps, in the
 * order they must run (its comment says why each is where it is); every
 * route is lb_pipeline with its row below as a constant, so that the
 * compiler keeps only the steps the row takes.  A row is read by code
 * (lb_route_steps), not only by the reader.
 *
 * Columns (each "_" a step the route does not take):
 *   first    the thread's first call (lb_thread_first) made here;
 *   errno    the program's errno kept across the shim's own work;
 *   depth    lb_depth raised around the call (a call the runtime or a
 *            hook makes into a wrapper goes straight to the runtime);
 *   lasterr  the program's last error: LE the full step (the 7.x peek
 *            before, lb_le_skip or lb_lasterr_end after); LE_RT the
 *            runtime answered the program's call itself, so its last
 *            error is the program's (lb_le_rt_answered); LE_OK a
 *            policy's hipSuccess (lb_lasterr_served where needed);
 *   rtstart  the runtime's failed start given to this call (rtstart.c);
 *   procaddr a procedure address mapped to our wrapper (procaddr.c);
 *   kreg     the kernel registry learns (kreg.c);
 *   hooks    POLICY the policies' pre (until one serves the call), retry
 *            and post hooks (the solo policy's, or lb_run's active
 *            ones); DIRECT the solo policy's direct hook; ANSWER the
 *            thread's standing answer (fast.h); SERVE the solo policy's
 *            serve hook.
 *
 * A route with a hook that does not take the first step (the short
 * routes) is taken only where the steps it skips are not needed; else
 * it changes nothing and the wrapper takes the next route (answer ->
 * direct -> solo; serve -> solo).  lb_pipeline tests this (admission):
 * the thread is past its first call; LE_RT: nothing but the program's
 * calls reached the runtime on the thread since lasterr.c last looked,
 * and the runtime has the function; LE_OK: not the 7.x rule (it needs
 * the peek).  A row that needs a step a route lacks (LB_F_PROCADDR:
 * procaddr, LB_KIND_REG: kreg, the last-error functions: LE) is never
 * marked for it (lb_route_fits, init.c).  The standing answer is admitted
 * by its own existence: the policy leaves one only on a thread past its
 * first call, after a direct hook that lb_pipeline admitted, and
 * withdraws it before it calls the runtime itself (fast.h).
 *
 * early (lb_early_<name>, lb_gate 0: lb_init() not finished) is no route
 * of its own: lb_init(), then one of these, or, for a call made while
 * lb_init() runs on this thread, its one function resolved and called.
 * pass-through: no policy (lb_gate 1), or the shim already on this
 * thread's stack (lb_depth).
 */
#define LB_ROUTE_TABLE(X)                                                  \
	/* route   first  errno  depth  lasterr rtstart  procaddr kreg  hooks */ \
	X(PASS,    _,     _,     _,     _,      _,       _,       _,    _)      \
	X(ANSWER,  _,     _,     DEPTH, LE_RT,  _,       _,       _,    ANSWER) \
	X(DIRECT,  _,     _,     DEPTH, LE_RT,  RTSTART, _,       _,    DIRECT) \
	X(SERVE,   _,     ERRNO, DEPTH, LE_OK,  _,       _,       _,    SERVE)  \
	X(SOLO,    FIRST, ERRNO, DEPTH, LE,     RTSTART, PROCADDR, KREG, POLICY) \
	X(ALL,     FIRST, ERRNO, DEPTH, LE,     RTSTART, PROCADDR, KREG, POLICY)

/* The steps, as bits of a route's row. */
#define LB_STEP__ 0u
#define LB_STEP_FIRST 0x001u
#define LB_STEP_ERRNO 0x002u
#define LB_STEP_DEPTH 0x004u
#define LB_STEP_LE 0x008u
#define LB_STEP_LE_RT 0x010u
#define LB_STEP_LE_OK 0x020u
#define LB_STEP_RTSTART 0x040u
#define LB_STEP_PROCADDR 0x080u
#define LB_STEP_KREG 0x100u
#define LB_STEP_POLICY 0x200u
#define LB_STEP_DIRECT 0x400u
#define LB_STEP_ANSWER 0x800u
#define LB_STEP_SERVE 0x1000u
#define LB_STEP_HOOKS \
	(LB_STEP_POLICY | LB_STEP_DIRECT | LB_STEP_ANSWER | LB_STEP_SERVE)

#define LB_ROUTE_ID_(R, ...) LB_ROUTE_##R,
enum lb_route { LB_ROUTE_TABLE(LB_ROUTE_ID_) LB_ROUTE_COUNT };
#undef LB_ROUTE_ID_

#define LB_ROUTE_ROW_(R, a, b, c, d, e, f, g, h)                           \
	[LB_ROUTE_##R] = LB_STEP_##a | LB_STEP_##b | LB_STEP_##c |         \
			 LB_STEP_##d | LB_STEP_##e | LB_STEP_##f |         \
			 LB_STEP_##g | LB_STEP_##h,
/* Route r's steps (a constant wherever r is: the compiler folds it). */
static const unsigned short lb_route_steps[LB_ROUTE_COUNT]
	__attribute__((unused)) = { LB_ROUTE_TABLE(LB_ROUTE_ROW_) };
#undef LB_ROUTE_ROW_

/*
 * The policies route: lb_pipeline with the active policies' hooks (pre
 * in order until one serves the call, the runtime through thunk unless
 * served, retry, post in reverse order).  errno is what the runtime left.
 */
void lb_run(struct lb_call *c, lb_thunk_fn thunk);

/*
 * Tells every active policy that stream s is about to be destroyed by the
 * caller outside any wrapper.  Called by the policy that owns s.
 */
void lb_stream_gone(lb_stream s);

/*
 * Hands statistics to every active policy's stat op: type is an
 * LB_REC_* record type of trace_format.h (LB_REC_POOL, LB_REC_STREAM0);
 * v[0..1] go to the record's stream / stream_used fields and v[2..4] to
 * a[0..2], as trace_format.h lays them out for that type.  Call it from
 * fini or thread_exit, not from a hot path.
 */
void lb_stat(int type, const uint64_t v[5]);

/*
 * lasterr.c: the last error the program sees (see there).  init: once, at
 * start-up with policies active.  begin/end: around each call in lb_run
 * (begin's value goes to end).  fn: is api one of the three error
 * functions; serve answers it in place of the runtime (returns 1) or
 * leaves it to the runtime (0: not in force).
 */
void lb_lasterr_init(void);
int lb_lasterr_fn(int api);
lb_status lb_lasterr_begin(void);
void lb_lasterr_end(const struct lb_call *c, lb_status before);
int lb_lasterr_serve(struct lb_call *c);

/* Address of the shim's wrapper for an API (for hipGetProcAddress). */
void *lb_wrapper_addr(int api);

/* ---- logging ---- */

enum lb_log_level { LB_LOG_ERROR, LB_LOG_WARN, LB_LOG_INFO, LB_LOG_DEBUG };
extern int lb_log_level LB_HIDDEN;

/*
 * Prints "lbshim: <message>\n" on stderr with one write(2) if level is
 * enabled.  Never on a hot path; keeps errno.
 */
void lb_log(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A mangled kernel NAME as lbtrace shows it ("_Z8hzk_fillPiii" gives
 * "hzk_fill(int*, int, int)"), through libstdc++'s __cxa_demangle when the
 * process already has libstdc++ (never loaded for this), else
 * lb_demangle_plain's.  Writes into buf[n] and returns buf, or returns
 * NAME itself when it is not mangled or not readable.  Allocates: for
 * messages at exit, never on a hot path.
 */
const char *lb_demangle(const char *name, char *buf, size_t n);

/*
 * Without libstdc++: the function's (qualified) name alone
 * ("_ZN2ns4scanEPfi" gives "ns::scan") into buf[n], returning buf; NAME
 * itself for a form it does not read (templates, operators, ...).
 */
const char *lb_demangle_plain(const char *name, char *buf, size_t n);

/*
 * safestr.c: copies the program's NUL-terminated string src into dst
 * (cap bytes, always terminated, cut at cap - 1) without faulting on a
 * bad pointer; returns the length copied, or -1 for NULL or an
 * unreadable address.  errno may change.
 */
long lb_safe_str(const char *src, char *dst, size_t cap);

/* ---- configuration ---- */

/* secure_getenv(), or NULL for unset (empty counts as set). */
const char *lb_getenv(const char *name);

/*
 * Parses a size with an optional K/M/G/T suffix (powers of 1024) into *out.
 * Returns 0, or -1 for empty, negative, junk or overflow (*out unchanged).
 */
int lb_parse_size(const char *s, uint64_t *out);

/*
 * Reads size variable NAME into *out; on a bad value warns once, naming
 * the variable, the value and what is accepted, and keeps *out.
 * Returns 1 if the variable was set and valid, else 0.
 */
int lb_env_size(const char *name, uint64_t *out);

/*
 * Reads NAME, which must be one of the NULL-terminated choices; returns its
 * index, or dflt when unset or invalid (with one warning).
 */
int lb_env_choice(const char *name, const char *const *choices, int dflt);

/* The policies named in LBSHIM_POLICIES, by lb_policy name. */
int lb_config_lists(const char *policy);

/* gettid(), cached per thread. */
int lb_tid(void);

#endif
