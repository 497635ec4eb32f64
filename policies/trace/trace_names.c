/*
 * trace_names.c - kernel names and the STRING records of a trace file.
 *
 * A launch names its kernel by a host stub (hipLaunchKernel) or a module
 * function handle (hipModuleLaunchKernel); the record holds a string id.
 * The names are learned off the hot path, when the program registers a
 * stub (__hipRegisterFunction) or gets a function (hipModuleGetFunction),
 * into an open-addressing table that launches read without a lock.  A
 * stub the table does not know is asked of the runtime once (its own
 * hipKernelNameRefByPtr, lb_real's, not our wrapper) and remembered,
 * found or not.  No demangling here: lbtrace does that.
 *
 * Ids are per file: each entry remembers (file generation, id), so a
 * forked child writing its own file writes the name again at first use.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include "trace.h"

struct lb_kname {
	uintptr_t key;	  /* stub or function handle | 1 for modules; 0 free */
	const char *name; /* NULL: being set; "": the runtime knows none */
	uint64_t idgen;	  /* gen << 32 | string id; 0: not in this file */
};

struct lb_ktab {
	uint64_t mask;
	uint64_t used;
	struct lb_kname e[];
};

static struct lb_ktab *lb_ktab;		/* current table (acquire) */
static pthread_mutex_t lb_kmutex = PTHREAD_MUTEX_INITIALIZER;
static char *lb_arena, *lb_arena_end;	/* copies of module kernel names */

#define LB_KTAB_FIRST 4096u

/*
 * Bumped (release) by every insert or update of an entry, so that the
 * per-thread memory of the last launch's name (lb_names_kernel) knows
 * when it may be stale.
 */
static uint64_t lb_kn_epoch;

/*
 * The calling thread's last kernel and its id in this file: a loop
 * launches one kernel many times, and a hit costs a few compares where
 * the table's probe costs a hash, a multiply and dependent loads.  key
 * is written last (and cleared first), so that the crash handler,
 * reading it on the same thread, sees a whole entry or none.
 */
struct lb_kn_last {
	uintptr_t key; /* 0: none */
	uint64_t epoch;
	uint32_t gen; /* lb_tr.gen: the file the id is of */
	uint32_t id;
};
static LB_TLS struct lb_kn_last lb_kn_last;

static struct lb_ktab *lb_ktab_new(uint64_t n)
{
	size_t sz = sizeof(struct lb_ktab) + n * sizeof(struct lb_kname);
	struct lb_ktab *t = mmap(NULL, sz, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (t == MAP_FAILED)
		return NULL;
	t->mask = n - 1;
	return t;
}

static uint64_t lb_hash(uintptr_t k)
{
	return (uint64_t)(k >> 3) * 0x9e3779b97f4a7c15ull >> 20;
}

static struct lb_kname *lb_kfind(struct lb_ktab *t, uintptr_t key)
{
	uint64_t i, n;

	if (!t)
		return NULL;
	for (i = lb_hash(key) & t->mask, n = 0; n <= t->mask;
	     i = (i + 1) & t->mask, n++) {
		uintptr_t k = __atomic_load_n(&t->e[i].key, __ATOMIC_ACQUIRE);

		if (k == key)
			return &t->e[i];
		if (!k)
			return NULL;
	}
	return NULL;
}

/*
 * Inserts or updates key (lock-free: a launch may insert while another
 * thread registers).  Returns the entry, or NULL when the table is too
 * full (the name is then just not remembered).
 */
static struct lb_kname *lb_kput(struct lb_ktab *t, uintptr_t key,
				const char *name)
{
	uint64_t i, n;

	if (!t)
		return NULL;
	for (i = lb_hash(key) & t->mask, n = 0; n <= t->mask;
	     i = (i + 1) & t->mask, n++) {
		struct lb_kname *e = &t->e[i];
		uintptr_t k = __atomic_load_n(&e->key, __ATOMIC_ACQUIRE);

		if (!k) {
			if (__atomic_add_fetch(&t->used, 1, __ATOMIC_RELAXED) >
			    t->mask - t->mask / 4) {
				__atomic_sub_fetch(&t->used, 1,
						   __ATOMIC_RELAXED);
				return NULL;
			}
			if (!__atomic_compare_exchange_n(&e->key, &k, key, 0,
							 __ATOMIC_ACQ_REL,
							 __ATOMIC_ACQUIRE)) {
				__atomic_sub_fetch(&t->used, 1,
						   __ATOMIC_RELAXED);
				if (k != key)
					continue;
			}
		} else if (k != key) {
			continue;
		}
		__atomic_store_n(&e->idgen, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&e->name, name, __ATOMIC_RELEASE);
		__atomic_add_fetch(&lb_kn_epoch, 1, __ATOMIC_RELEASE);
		return e;
	}
	return NULL;
}

/* Doubles the table (under lb_kmutex); the old one stays for readers. */
static void lb_kgrow(void)
{
	struct lb_ktab *old = lb_ktab, *t;
	uint64_t i;

	t = lb_ktab_new(old ? (old->mask + 1) * 2 : LB_KTAB_FIRST);
	if (!t)
		return;
	for (i = 0; old && i <= old->mask; i++) {
		struct lb_kname *e = &old->e[i], *ne;
		uintptr_t k = __atomic_load_n(&e->key, __ATOMIC_ACQUIRE);

		if (!k)
			continue;
		ne = lb_kput(t, k, __atomic_load_n(&e->name, __ATOMIC_ACQUIRE));
		if (ne)
			ne->idgen = __atomic_load_n(&e->idgen, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&lb_ktab, t, __ATOMIC_RELEASE);
}

/* A safe copy of the program's string s in the arena, or NULL. */
static const char *lb_arena_copy(const char *s)
{
	char buf[1024];
	long len = lb_safe_str(s, buf, sizeof(buf));
	size_t n = (size_t)len + 1;
	char *p;

	if (len <= 0)
		return NULL;
	if (!lb_arena || (size_t)(lb_arena_end - lb_arena) < n) {
		void *m = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return NULL;
		lb_arena = m;
		lb_arena_end = lb_arena + 65536;
	}
	p = lb_arena;
	memcpy(p, buf, n);
	lb_arena += n;
	return p;
}

long lb_safe_str(const char *src, char *dst, size_t cap)
{
	static int no_vm_readv;
	size_t n = 0;

	if (!cap)
		return -1;
	dst[0] = 0;
	if (!src)
		return -1;
	/*
	 * process_vm_readv() on ourselves reads like memcpy but answers a
	 * bad address with EFAULT instead of a signal: a program may hand
	 * the runtime a string the runtime never reads (a bad name that
	 * fails the call), and the shim must not be the one to crash.
	 * Page by page, since the string may end just before an unmapped
	 * page.  Where a sandbox forbids the call, plain reads (the
	 * runtime reads these strings too).
	 */
	while (n + 1 < cap) {
		uintptr_t a = (uintptr_t)src + n;
		size_t want = 4096 - (a & 4095), i;
		struct iovec l, r;
		ssize_t got;

		if (want > cap - 1 - n)
			want = cap - 1 - n;
		if (__atomic_load_n(&no_vm_readv, __ATOMIC_RELAXED)) {
			memcpy(dst + n, (const void *)a, want); /* may read past NUL */
			got = (ssize_t)want;
			goto scan;
		}
		l.iov_base = dst + n;
		l.iov_len = want;
		r.iov_base = (void *)a;
		r.iov_len = want;
		got = process_vm_readv(getpid(), &l, 1, &r, 1, 0);
		if (got < 0 && (errno == ENOSYS || errno == EPERM)) {
			__atomic_store_n(&no_vm_readv, 1, __ATOMIC_RELAXED);
			continue;
		}
		if (got <= 0)
			break;
scan:
		for (i = 0; i < (size_t)got; i++)
			if (!dst[n + i])
				return (long)(n + i);
		n += (size_t)got;
	}
	dst[n] = 0;
	return n ? (long)n : -1;
}

void lb_names_init(void)
{
	struct lb_rt_names n = { 0 };

	lb_rt->names(&n);
	lb_tr.kname_by_ptr = n.kernel_by_ptr;
	lb_tr.kname_ref = n.kernel_ref;
	lb_tr.err_name = n.status;
	pthread_mutex_lock(&lb_kmutex);
	if (!lb_ktab)
		lb_kgrow();
	pthread_mutex_unlock(&lb_kmutex);
}

static uintptr_t lb_key(const void *f, int module)
{
	return (uintptr_t)f | (module ? 1u : 0u);
}

void lb_names_register(const void *key, const char *name, int module)
{
	struct lb_ktab *t;

	if (!key || !name)
		return;
	pthread_mutex_lock(&lb_kmutex);
	/*
	 * A copy: the program's string may not outlive the call (module
	 * names), or may not even be readable (then nothing is kept).
	 */
	name = lb_arena_copy(name);
	t = lb_ktab;
	if (name && t && (t->used + 1) * 2 > t->mask + 1) {
		lb_kgrow();
		t = lb_ktab;
	}
	if (name)
		lb_kput(t, lb_key(key, module), name);
	pthread_mutex_unlock(&lb_kmutex);
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

/* The id of the entry at key in this file, as lb_names_kernel. */
static uint32_t lb_names_find(const void *f, uintptr_t key, int module,
			      lb_stream stream)
{
	struct lb_ktab *t = __atomic_load_n(&lb_ktab, __ATOMIC_ACQUIRE);
	struct lb_kname *e;
	const char *name = NULL;

	e = lb_kfind(t, key);
	if (LB_LIKELY(e != NULL))
		return lb_kid(e);
	/*
	 * Unknown: ask the runtime once, remember the answer either way;
	 * not from the crash handler (the runtime may hold its locks).
	 */
	if (lb_tt.in_crash)
		return 0;
	if (module && lb_tr.kname_ref)
		name = lb_tr.kname_ref((const void *)f);
	else if (!module && lb_tr.kname_by_ptr)
		name = lb_tr.kname_by_ptr(f, stream);
	e = lb_kput(t, key, name ? name : "");
	return e ? lb_kid(e) : 0;
}

uint32_t lb_names_kernel(const void *f, int module, lb_stream stream)
{
	struct lb_kn_last *l = &lb_kn_last;
	uintptr_t key = lb_key(f, module);
	uint64_t epoch = __atomic_load_n(&lb_kn_epoch, __ATOMIC_ACQUIRE);
	uint32_t gen = lb_tr.gen, id;

	if (!f)
		return 0;
	if (LB_LIKELY(l->key == key && l->epoch == epoch && l->gen == gen))
		return l->id;
	id = lb_names_find(f, key, module, stream);
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

void lb_names_fork_prepare(void)
{
	pthread_mutex_lock(&lb_kmutex);
}

void lb_names_fork_parent(void)
{
	pthread_mutex_unlock(&lb_kmutex);
}

void lb_names_fork_child(void)
{
	pthread_mutex_unlock(&lb_kmutex);
}
