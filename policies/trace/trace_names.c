/*
 * trace_names.c - kernel names and the STRING records of a trace file.
 *
 * A launch names its kernel by a host stub (hipLaunchKernel) or a module
 * function handle (hipModuleLaunchKernel); the record holds a string id.
 * The names are the shim's kernel registry's (shim/kreg.c: one registry
 * for the trace and the other policies), learned off the hot path when
 * the program registers a stub (__hipRegisterFunction) or gets a
 * function (hipModuleGetFunction), and read by a launch without a lock.
 * A stub the registry does not know is asked of the runtime once (its
 * own hipKernelNameRefByPtr: lb_real's, which the core resolved, not our
 * wrapper of it) and remembered there, found or not.  No demangling
 * here: lbtrace does that.
 *
 * Ids are per file: each registry entry keeps the trace's (file
 * generation, id) of its name, so a forked child writing its own file
 * writes the name again at first use.
 */
#define _GNU_SOURCE
#include <string.h>
#include "trace.h"
#include "kreg.h"

/*
 * The calling thread's last kernel and its id in this file: a loop
 * launches one kernel many times, and a hit costs a few compares where
 * the registry's probe costs a hash, a multiply and dependent loads.
 * key is written last (and cleared first), so that the crash handler,
 * reading it on the same thread, sees a whole entry or none.  epoch: the
 * registry's generation (lb_kreg_gen) the id was found under.
 */
struct lb_kn_last {
	uintptr_t key; /* 0: none */
	uint64_t epoch;
	uint32_t gen; /* lb_tr.gen: the file the id is of */
	uint32_t id;
};
static LB_TLS struct lb_kn_last lb_kn_last;

void lb_names_init(void)
{
	struct lb_rt_names n = { 0 };

	lb_rt->names(&n);
	lb_tr.kname_by_ptr = n.kernel_by_ptr;
	lb_tr.kname_ref = n.kernel_ref;
	lb_tr.err_name = n.status;
}

static uintptr_t lb_key(const void *f, int module)
{
	return (uintptr_t)f | (module ? 1u : 0u);
}

/* Writes the STRING records of s under id. */
static void lb_emit_string(struct lb_tt *t, uint32_t id, const char *s,
			   size_t len)
{
	struct lb_trace_rec r;
	uint32_t parts, part;

	if (len > (size_t)48 * 0xffff)
		len = (size_t)48 * 0xffff;
	parts = len ? (uint32_t)((len + 47) / 48) : 1;
	for (part = 0; part < parts; part++) {
		size_t off = (size_t)part * 48, n = len - off;
		char text[48] = { 0 };

		if (n > 48)
			n = 48;
		if (len)
			memcpy(text, s + off, n);
		memset(&r, 0, sizeof(r));
		r.hdr.type = LB_REC_STRING;
		r.a[0] = id | (uint64_t)part << 32 | (uint64_t)parts << 48;
		memcpy(&r.t0, text, 32); /* t0, t1, stream, stream_used */
		memcpy(&r.a[1], text + 32, 16);
		lb_tt_emit(t, &r);
	}
}

uint32_t lb_names_string(const char *s, size_t len)
{
	struct lb_tt *t = &lb_tt;
	uint32_t id;

	if (t->state != LB_TT_FILE && !(t->in_crash && lb_tr.hdr))
		return 0;
	id = __atomic_fetch_add(&lb_tr.next_str, 1, __ATOMIC_RELAXED);
	lb_emit_string(t, id, s, len);
	return id;
}

/* The entry's id in this file, writing the name if it is not there yet. */
static uint32_t lb_kid(struct lb_kname *e)
{
	uint64_t ig = __atomic_load_n(&e->idgen, __ATOMIC_ACQUIRE);
	uint64_t gen = lb_tr.gen;
	const char *name;
	uint32_t id;

	if (LB_LIKELY(ig >> 32 == gen && (uint32_t)ig))
		return (uint32_t)ig;
	name = __atomic_load_n(&e->name, __ATOMIC_ACQUIRE);
	if (!name || !*name || lb_tt.state != LB_TT_FILE)
		return 0;
	/*
	 * Claim an id for the entry first so that two threads launching
	 * the same new kernel do not both write its name; the loser's id
	 * is left unused.
	 */
	id = __atomic_fetch_add(&lb_tr.next_str, 1, __ATOMIC_RELAXED);
	if (!__atomic_compare_exchange_n(&e->idgen, &ig, gen << 32 | id, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return ig >> 32 == gen ? (uint32_t)ig : 0;
	lb_emit_string(&lb_tt, id, name, strlen(name));
	return id;
}

/* The id of kernel f in this file, as lb_names_kernel. */
static uint32_t lb_names_find(const void *f, int module, lb_stream stream)
{
	struct lb_kname *e = lb_kreg_name(f, module);
	const char *name = NULL;

	if (LB_LIKELY(e != NULL) &&
	    __atomic_load_n(&e->name, __ATOMIC_ACQUIRE))
		return lb_kid(e);
	/*
	 * Unknown (or registered by a name that could not be read): ask
	 * the runtime once, remember the answer either way; not from the
	 * crash handler (the runtime may hold its locks, and the
	 * registry's insert takes its lock).
	 */
	if (lb_tt.in_crash)
		return 0;
	if (module && lb_tr.kname_ref)
		name = lb_tr.kname_ref((const void *)f);
	else if (!module && lb_tr.kname_by_ptr)
		name = lb_tr.kname_by_ptr(f, stream);
	e = lb_kreg_name_add(f, module, name);
	return e ? lb_kid(e) : 0;
}

uint32_t lb_names_kernel(const void *f, int module, lb_stream stream)
{
	struct lb_kn_last *l = &lb_kn_last;
	uintptr_t key = lb_key(f, module);
	uint64_t epoch = lb_kreg_gen();
	uint32_t gen = lb_tr.gen, id;

	if (!f)
		return 0;
	if (LB_LIKELY(l->key == key && l->epoch == epoch && l->gen == gen))
		return l->id;
	id = lb_names_find(f, module, stream);
	if (id && !lb_tt.in_crash) { /* 0: nothing to remember, or not yet */
		l->key = 0;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		l->epoch = epoch;
		l->gen = gen;
		l->id = id;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		l->key = key;
	}
	return id;
}
