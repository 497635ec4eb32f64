/*
 * kreg.c - the registry of kernels (kreg.h): code-object sets by
 * registration handle, and each kernel's plan by launch handle.
 *
 * The sets are read by the shared reader (shim/codeobj.c) when the
 * program registers a fat binary or loads a module and kept until it
 * unregisters or unloads it.  The first code object with metadata is
 * read: the argument layout is the same for every target, the register
 * counts are those of that one.  Each handle's entry keeps its name too
 * (a copy in an arena of its own), for every kernel the program
 * registers or gets, with facts or not.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "kreg.h"
#include "kreg_plan.h"
#include "lbshim/codeobj.h"


int lb_kreg_on;

struct lb_kpent {
	uintptr_t key; /* stub, or hipFunction_t | 1; 0 free */
	struct lb_kplan *plan;
	struct lb_kname kn; /* its name (kreg.h) */
	/* lb_kp_rt_plan: the handle the runtime knows the kernel by (an
	 * alias's stub, else NULL: the key's), and whether it was asked */
	const void *ask;
	uint8_t asked;
};

struct lb_kptab {
	uint64_t mask;
	uint64_t used;
	struct lb_kpent e[];
};

/* Current table; inserts are made under lb_kmod_lock. */
static struct lb_kptab *lb_kptab;
static char *lb_kn_arena, *lb_kn_arena_end; /* copies of names (lock) */

/*
 * Bumped (release) after every change of a handle's plan, so that the
 * per-thread memory of the last launch's plan (lb_kreg_plan) knows when
 * it may be stale.
 */
static uint64_t lb_kp_gen;

/*
 * The calling thread's last lookup: a program launches the same kernel
 * many times in a row (a loop's body), and a hit costs two compares
 * where the table's probe costs a hash, a multiply and dependent loads.
 * key is written last (and cleared first), so that a signal handler
 * reading it on the same thread sees a whole entry or none.
 */
struct lb_kp_last {
	uintptr_t key; /* 0: none */
	uint64_t gen;
	const struct lb_kplan *plan; /* may be NULL: the handle has none */
};
static LB_TLS struct lb_kp_last lb_kp_last;

static uint64_t lb_kp_hash(uintptr_t k)
{
	return (uint64_t)(k >> 3) * 0x9e3779b97f4a7c15ull >> 20;
}

static struct lb_kptab *lb_kptab_new(uint64_t n)
{
	size_t sz = sizeof(struct lb_kptab) + n * sizeof(struct lb_kpent);
	struct lb_kptab *t = mmap(NULL, sz, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (t == MAP_FAILED)
		return NULL;
	t->mask = n - 1;
	return t;
}

/*
 * Under the lock: key's entry in t, claimed if new (its fields are 0
 * then: set them before the key is published); NULL when t is full.
 */
static struct lb_kpent *lb_kp_slot(struct lb_kptab *t, uintptr_t key,
				   int *fresh)
{
	uint64_t i, n;

	for (i = lb_kp_hash(key) & t->mask, n = 0; n <= t->mask;
	     i = (i + 1) & t->mask, n++) {
		struct lb_kpent *e = &t->e[i];

		if (e->key && e->key != key)
			continue;
		*fresh = !e->key;
		return e;
	}
	return NULL;
}

/* Under the lock: publishes e for key (lb_kp_slot's fresh entry). */
static void lb_kp_publish(struct lb_kptab *t, struct lb_kpent *e,
			  uintptr_t key)
{
	t->used++;
	__atomic_store_n(&e->key, key, __ATOMIC_RELEASE);
}

/*
 * Under the lock: a table with room for one more, doubling when three
 * quarters full; the old one stays mapped for readers still in it (a
 * few pages per doubling, for the life of the process).
 */
static struct lb_kptab *lb_kp_room(void)
{
	struct lb_kptab *old = lb_kptab, *t;
	uint64_t i;

	if (old && (old->used + 1) * 4 <= (old->mask + 1) * 3)
		return old;
	t = lb_kptab_new(old ? (old->mask + 1) * 2 : 1024);
	if (!t)
		return old && old->used < old->mask ? old : NULL;
	for (i = 0; old && i <= old->mask; i++) {
		struct lb_kpent *o = &old->e[i], *e;
		int fresh;

		if (!o->key || !(e = lb_kp_slot(t, o->key, &fresh)))
			continue;
		e->plan = o->plan;
		e->kn.name = o->kn.name;
		e->ask = o->ask;
		e->asked = __atomic_load_n(&o->asked, __ATOMIC_ACQUIRE);
		/* the trace's id, as it stands (a later one is lost) */
		e->kn.idgen = __atomic_load_n(&o->kn.idgen, __ATOMIC_ACQUIRE);
		lb_kp_publish(t, e, o->key);
	}
	__atomic_store_n(&lb_kptab, t, __ATOMIC_RELEASE);
	return t;
}

/* key's entry in the current table, or NULL (lock-free). */
static struct lb_kpent *lb_kp_ent(uintptr_t key)
{
	struct lb_kptab *t = __atomic_load_n(&lb_kptab, __ATOMIC_ACQUIRE);
	uint64_t i, n;

	if (!t)
		return NULL;
	for (i = lb_kp_hash(key) & t->mask, n = 0; n <= t->mask;
	     i = (i + 1) & t->mask, n++) {
		uintptr_t k = __atomic_load_n(&t->e[i].key, __ATOMIC_ACQUIRE);

		if (k == key)
			return &t->e[i];
		if (!k)
			return NULL;
	}
	return NULL;
}

static struct lb_kplan *lb_kp_find(uintptr_t key)
{
	struct lb_kpent *e = lb_kp_ent(key);

	return e ? __atomic_load_n(&e->plan, __ATOMIC_ACQUIRE) : NULL;
}

struct lb_kmod {
	const void *key; /* fat binary handle or hipModule_t */
	struct lb_co_set *co;
	struct lb_kmod *next;
};

static struct lb_kmod *lb_kmods;
static pthread_mutex_t lb_kmod_lock = PTHREAD_MUTEX_INITIALIZER;

static void lb_kreg_add(const void *key, struct lb_co_set *co,
			 const char *what)
{
	struct lb_kmod *m;

	if (!co)
		return;
	if (!lb_co_count(co)) {
		lb_log(LB_LOG_DEBUG, "kernels: %s: no kernel facts: %s", what,
		       lb_co_why(co));
		lb_co_free(co);
		return;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		lb_co_free(co);
		return;
	}
	m->key = key;
	m->co = co;
	pthread_mutex_lock(&lb_kmod_lock);
	m->next = lb_kmods;
	lb_kmods = m;
	pthread_mutex_unlock(&lb_kmod_lock);
}

static void lb_kreg_drop(const void *key)
{
	struct lb_kmod **pp, *m = NULL;

	pthread_mutex_lock(&lb_kmod_lock);
	for (pp = &lb_kmods; *pp; pp = &(*pp)->next)
		if ((*pp)->key == key) {
			m = *pp;
			*pp = m->next;
			break;
		}
	pthread_mutex_unlock(&lb_kmod_lock);
	if (m) {
		lb_co_free(m->co);
		free(m);
	}
}


/*
 * Under the lock: a copy of the program's name s in the arena, or NULL
 * when s is NULL or unreadable or there is no memory for it.
 */
static const char *lb_kn_copy(const char *s)
{
	char buf[1024];
	long len = lb_safe_str(s, buf, sizeof(buf));
	size_t n = (size_t)len + 1;
	char *p;

	if (len <= 0)
		return NULL;
	if (!lb_kn_arena || (size_t)(lb_kn_arena_end - lb_kn_arena) < n) {
		void *m = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return NULL;
		lb_kn_arena = m;
		lb_kn_arena_end = lb_kn_arena + 65536;
	}
	p = lb_kn_arena;
	memcpy(p, buf, n);
	lb_kn_arena += n;
	return p;
}

/*
 * Under the lock: e's name is now a copy of name, or dflt when there is
 * none (NULL: the name is unknown, and the trace asks the runtime); the
 * trace's id goes.
 */
static void lb_kn_set(struct lb_kpent *e, const char *name, const char *dflt)
{
	const char *copy = lb_kn_copy(name);

	__atomic_store_n(&e->kn.idgen, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&e->kn.name, copy ? copy : dflt, __ATOMIC_RELEASE);
}

/*
 * Kernel name of registration key, launched by handle
 * f, gets its name and a plan (or none) for f.
 */
static void lb_kreg_kernel(const void *key, const char *name, const void *f,
			   int module)
{
	uintptr_t hk = (uintptr_t)f | (module ? 1u : 0u);
	const struct lb_co_kernel *k = NULL;
	const struct lb_co_object *o = NULL;
	struct lb_kptab *t;
	struct lb_kpent *e;
	struct lb_kplan *p;
	struct lb_kmod *m;
	int fresh = 0;

	if (!name || !f)
		return;
	pthread_mutex_lock(&lb_kmod_lock);
	for (m = lb_kmods; m && m->key != key; m = m->next)
		;
	if (m) {
		k = lb_co_find(m->co, name);
		o = lb_co_object(m->co, 0);
	}
	p = k && k->facts ? lb_kp_make(k) : NULL;
	if (p) {
		p->co_version = o->version;
		p->target = o->target ? strdup(o->target) : NULL;
		p->name = strdup(name);
	}
	t = lb_kp_room();
	e = t ? lb_kp_slot(t, hk, &fresh) : NULL;
	if (!e && p) {
		free((void *)p->name);
		free((void *)p->target);
		free(p);
	}
	if (e) {
		/*
		 * A handle seen again without facts (a library loaded where
		 * an unloaded one was, a function of a module without
		 * metadata at the address of a freed one) loses its old
		 * plan: a launch would copy its arguments by another
		 * kernel's layout, reading kernelParams entries the program
		 * did not pass.  The key stays, with no plan.
		 */
		lb_kn_set(e, name, NULL);
		__atomic_store_n(&e->plan, p, __ATOMIC_RELEASE);
		if (fresh)
			lb_kp_publish(t, e, hk);
		__atomic_add_fetch(&lb_kp_gen, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lb_kmod_lock);
}

/*
 * Launch handle h of registered stub f: CUDA's nvcc-built stubs launch by
 * the cudaKernel_t that __cudaGetKernel(&h, stub) gave them, not by the
 * stub (crt/host_runtime.h:130-142 of CUDA 13.0, __cudaLaunch), so h gets
 * f's name and plan.  Plans and names are never freed (a replaced plan
 * is left: lb_kreg_kernel), so the two entries may share them.
 */
static void lb_kreg_alias(const void *h, const void *f)
{
	struct lb_kpent *s, *e;
	struct lb_kptab *t;
	int fresh = 0;

	if (!h || !f || h == f)
		return;
	pthread_mutex_lock(&lb_kmod_lock);
	s = lb_kp_ent((uintptr_t)f);
	t = s && s->kn.name ? lb_kp_room() : NULL;
	s = t ? lb_kp_ent((uintptr_t)f) : NULL; /* t may be a new table */
	e = s ? lb_kp_slot(t, (uintptr_t)h, &fresh) : NULL;
	if (e) {
		__atomic_store_n(&e->kn.idgen, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&e->kn.name, s->kn.name, __ATOMIC_RELEASE);
		__atomic_store_n(&e->plan, s->plan, __ATOMIC_RELEASE);
		e->ask = f;
		if (fresh)
			lb_kp_publish(t, e, (uintptr_t)h);
		__atomic_add_fetch(&lb_kp_gen, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lb_kmod_lock);
}

/*
 * Learns from a registration or module call by its role (roles.h): the
 * module, image, file, kernel and name are read by their argument roles.
 */
void lb_kreg_learn(const struct lb_call *c)
{
	int api = c->api;
	const void *a = c->args;
	const char *fname;
	const void *image;
	void **out = lb_ar_ptr(api, a, LB_AR_OUT);

	switch (lb_api_info[api].role) {
	case LB_ROLE_REG_FATBIN:
		if (c->rval)
			lb_kreg_add(c->rval,
				    lb_rt->kf->read_fatbin(lb_ar_ptr(api, a,
								      LB_AR_IMAGE),
							   LB_CO_FIRST),
				    "fat binary");
		break;
	case LB_ROLE_UNREG_FATBIN:
		lb_kreg_drop(lb_ar_ptr(api, a, LB_AR_MODULE));
		break;
	case LB_ROLE_REG_FUNCTION:
		lb_kreg_kernel(lb_ar_ptr(api, a, LB_AR_MODULE),
			       lb_ar_ptr(api, a, LB_AR_NAME),
			       lb_ar_ptr(api, a, LB_AR_KERNEL), 0);
		break;
	case LB_ROLE_MODULE_LOAD:
		/* from a file or from an image in memory */
		if (c->ret != hipSuccess || !out)
			break;
		fname = lb_ar_ptr(api, a, LB_AR_FNAME);
		image = lb_ar_ptr(api, a, LB_AR_IMAGE);
		if (fname)
			lb_kreg_add(*out,
				    lb_rt->kf->read_file(fname, LB_CO_FIRST),
				    fname);
		else if (image)
			lb_kreg_add(*out,
				    lb_rt->kf->read_image(image, LB_CO_FIRST),
				    "module image");
		break;
	case LB_ROLE_MODULE_UNLOAD:
		if (c->ret == hipSuccess)
			lb_kreg_drop(lb_ar_ptr(api, a, LB_AR_MODULE));
		break;
	case LB_ROLE_MODULE_FUNCTION:
		if (c->ret == hipSuccess && out)
			lb_kreg_kernel(lb_ar_ptr(api, a, LB_AR_MODULE),
				       lb_ar_ptr(api, a, LB_AR_NAME), *out, 1);
		break;
	case LB_ROLE_KERNEL_HANDLE:
		if (c->ret == hipSuccess && out)
			lb_kreg_alias(*out, lb_ar_ptr(api, a, LB_AR_KERNEL));
		break;
	default:
		break;
	}
}

/* lb_kreg_plan, inlined into lb_kreg_launch (a launch's path). */
static inline __attribute__((always_inline)) const struct lb_kplan *
lb_kp_plan(const void *f, unsigned module)
{
	struct lb_kp_last *l = &lb_kp_last;
	uintptr_t key = (uintptr_t)f | module; /* module: 0 or 1 */
	uint64_t gen = __atomic_load_n(&lb_kp_gen, __ATOMIC_ACQUIRE);
	const struct lb_kplan *p;

	if (!f)
		return NULL;
	if (LB_LIKELY(l->key == key && l->gen == gen))
		return l->plan;
	p = lb_kp_find(key);
	l->key = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	l->gen = gen;
	l->plan = p;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	l->key = key;
	return p;
}

const struct lb_kplan *lb_kreg_plan(const void *f, int module)
{
	return lb_kp_plan(f, module ? 1u : 0u);
}

/*
 * Per row, where a launch's kernel, kernel arguments and "extra" list are
 * (roles.h), for the launch path, set at lb_kreg_enable(): each one's byte
 * offset in the row's struct lb_args_<name> plus 1 (0: the row has none),
 * and whether its kernel is a hipFunction_t.  k 0: no launch with its
 * arguments in hand: hipLaunchByPtr's are in the <<<>>> configuration,
 * the registration and name rows that name a kernel take none.
 */
struct lb_kl {
	uint8_t k, a, x, module;
};
static struct lb_kl lb_klaunch[LB_API_COUNT];

/* The byte offset of an 8-byte role's parameter, plus 1 (0: none). */
static uint8_t lb_kl_at(const uint8_t *t, unsigned r)
{
	return (uint8_t)(t[r] ? (t[r] - 1u) * 4u + 1u : 0u);
}

static void lb_klaunch_init(void)
{
	int i;

	for (i = 0; i < LB_API_COUNT; i++) {
		const uint8_t *t = lb_arg_tab[i];

		if (!t[LB_AR_KERNEL] || (!t[LB_AR_KARGS] && !t[LB_AR_EXTRA]))
			continue;
		lb_klaunch[i] = (struct lb_kl){
			lb_kl_at(t, LB_AR_KERNEL), lb_kl_at(t, LB_AR_KARGS),
			lb_kl_at(t, LB_AR_EXTRA),
			lb_api_info[i].role == LB_ROLE_LAUNCH_MODULE
		};
	}
}

/* The pointer at byte offset at - 1 of a, or NULL when at is 0. */
static inline void *lb_kl_arg(const char *a, unsigned at)
{
	void *p = NULL;

	if (at)
		memcpy(&p, a + at - 1, sizeof(p));
	return p;
}

/*
 * The plan of a kernel whose images the shim does not read (CUDA's), from
 * the layout the runtime gives (lb_rt_kf.params), made at its first
 * launch the trace records and kept: the parameters' offsets and sizes,
 * typed by lbtrace from the kernel's demangled name.  The driver tells
 * no types: every 8-byte-aligned 8-byte word of a parameter may hold a
 * device pointer (as a by-value argument's words on HIP), and stream0's
 * check filters them against the memory it knows.  Asked once a handle,
 * by the trace after a launch or by stream0's check before one; NULL
 * when the runtime cannot tell, or the handle has no entry.
 */
#define LB_KP_RT_MAX 64
static __attribute__((noinline, cold)) const struct lb_kplan *
lb_kp_rt_plan(const void *f, unsigned module)
{
	uintptr_t key = (uintptr_t)f | module;
	struct lb_kpent *e = lb_kp_ent(key);
	struct lb_co_arg args[LB_KP_RT_MAX];
	uint32_t off[LB_KP_RT_MAX], size[LB_KP_RT_MAX];
	struct lb_co_kernel k;
	struct lb_kplan *p;
	const void *ask;
	int n, i;

	if (!e || __atomic_load_n(&e->asked, __ATOMIC_ACQUIRE) ||
	    __atomic_exchange_n(&e->asked, 1, __ATOMIC_ACQ_REL))
		return e ? __atomic_load_n(&e->plan, __ATOMIC_ACQUIRE) : NULL;
	ask = e->ask ? e->ask : f;
	n = lb_rt->kf->params(ask, (int)module, off, size, LB_KP_RT_MAX);
	if (n < 0)
		return NULL;
	memset(&k, 0, sizeof(k));
	memset(args, 0, sizeof(args));
	for (i = 0; i < n; i++) {
		args[i].offset = off[i];
		args[i].size = size[i];
		args[i].kind = LB_CO_BY_VALUE;
		args[i].value_kind = "param";
	}
	k.nargs = (uint32_t)n;
	k.args = args;
	k.facts = 1;
	p = lb_kp_make(&k);
	if (!p)
		return NULL;
	pthread_mutex_lock(&lb_kmod_lock);
	e = lb_kp_ent(key); /* the table may have grown meanwhile */
	if (e && !__atomic_load_n(&e->plan, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&e->plan, p, __ATOMIC_RELEASE);
		__atomic_add_fetch(&lb_kp_gen, 1, __ATOMIC_RELEASE);
		p = NULL;
	}
	pthread_mutex_unlock(&lb_kmod_lock);
	free(p); /* not installed: another thread's, or the entry went */
	return e ? __atomic_load_n(&e->plan, __ATOMIC_ACQUIRE) : NULL;
}

const struct lb_kplan *lb_kreg_launch(const struct lb_call *c, void ***pargs,
				      void ***pextra)
{
	const struct lb_kl *w = &lb_klaunch[c->api];
	const char *a = c->args;
	const struct lb_kplan *p;
	void **args, **extra, *f;

	if (!w->k)
		return NULL;
	/* read before the stores, which may alias the call's arguments */
	args = lb_kl_arg(a, w->a);
	extra = lb_kl_arg(a, w->x);
	f = lb_kl_arg(a, w->k);
	*pargs = args;
	*pextra = extra;
	p = lb_kp_plan(f, w->module);
	/* a launch the runtime refused may name no kernel it knows */
	if (LB_UNLIKELY(!p) && lb_rt->kf->params && c->ret == LB_ST_OK)
		p = lb_kp_rt_plan(f, w->module);
	return p;
}

/*
 * The kernarg buffer of an "extra" list, or NULL.  The runtime takes
 * exactly this form, with its markers (rt.h: lb_rt->launch_*): extra[0]
 * = the buffer-pointer marker, [1] = the buffer, [2] = the buffer-size
 * marker, [4] = the end marker (clr hipamd/src/hip_module.cpp,
 * ihipModuleLaunchKernel's argument setup, rocm-6.2.0; cuda.h,
 * cuLaunchKernel's "extra", CUDA 13.0).
 */
static const uint8_t *lb_kreg_extra(void **x)
{
	if (!x || x[0] != lb_rt->launch_buffer_ptr ||
	    x[2] != lb_rt->launch_buffer_size || x[4] != lb_rt->launch_end)
		return NULL;
	return x[1];
}

int lb_launch_ptrs(const struct lb_call *c, uintptr_t *out, int max,
		   uintptr_t *diff)
{
	const struct lb_kl *w = &lb_klaunch[c->api];
	const char *a = c->args;
	const struct lb_kplan *p;
	const uint8_t *buf;
	void **args;
	uintptr_t v, d = 0;
	int i, n;

	*diff = 0;
	if (!w->k)
		return -1;
	p = lb_kp_plan(lb_kl_arg(a, w->k), w->module);
	/* a kernel whose layout only the runtime tells (CUDA's) */
	if (LB_UNLIKELY(!p) && lb_rt->kf->params)
		p = lb_kp_rt_plan(lb_kl_arg(a, w->k), w->module);
	if (!p)
		return -1;
	n = p->nptr < max ? p->nptr : max;
	/* the "extra" list only without kernelParams */
	args = lb_kl_arg(a, w->a);
	if (args) {
		for (i = 0; i < n; i++) {
			memcpy(&v,
			       (const uint8_t *)args[p->ptr[i].idx] +
				       p->ptr[i].woff, 8);
			d |= v ^ out[i];
			out[i] = v;
		}
		*diff = d;
		return n;
	}
	buf = lb_kreg_extra(lb_kl_arg(a, w->x));
	if (!buf)
		return p->nptr ? -1 : 0;
	for (i = 0; i < n; i++) {
		memcpy(&v, buf + p->ptr[i].koff, 8);
		d |= v ^ out[i];
		out[i] = v;
	}
	*diff = d;
	return n;
}

static void lb_kreg_fork_prepare(void)
{
	pthread_mutex_lock(&lb_kmod_lock);
}

static void lb_kreg_fork_parent(void)
{
	pthread_mutex_unlock(&lb_kmod_lock);
}

static void lb_kreg_fork_child(void)
{
	pthread_mutex_unlock(&lb_kmod_lock);
}

static pthread_once_t lb_kreg_fork_once = PTHREAD_ONCE_INIT;

static void lb_kreg_atfork(void)
{
	pthread_atfork(lb_kreg_fork_prepare, lb_kreg_fork_parent,
		       lb_kreg_fork_child);
}

struct lb_kname *lb_kreg_name(const void *f, int module)
{
	struct lb_kpent *e = f ? lb_kp_ent((uintptr_t)f | (module ? 1u : 0u))
			       : NULL;

	return e ? &e->kn : NULL;
}

struct lb_kname *lb_kreg_name_add(const void *f, int module,
				  const char *name)
{
	uintptr_t hk = (uintptr_t)f | (module ? 1u : 0u);
	struct lb_kptab *t;
	struct lb_kpent *e;
	int fresh = 0;

	if (!f)
		return NULL;
	pthread_once(&lb_kreg_fork_once, lb_kreg_atfork);
	pthread_mutex_lock(&lb_kmod_lock);
	t = lb_kp_room();
	e = t ? lb_kp_slot(t, hk, &fresh) : NULL;
	if (e && (fresh || !e->kn.name)) {
		lb_kn_set(e, name, "");
		if (fresh)
			lb_kp_publish(t, e, hk);
		__atomic_add_fetch(&lb_kp_gen, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lb_kmod_lock);
	return e ? &e->kn : NULL;
}

uint64_t lb_kreg_gen(void)
{
	return __atomic_load_n(&lb_kp_gen, __ATOMIC_ACQUIRE);
}

void lb_kreg_enable(void)
{
	if (__atomic_exchange_n(&lb_kreg_on, 1, __ATOMIC_ACQ_REL))
		return;
	lb_klaunch_init();
	pthread_once(&lb_kreg_fork_once, lb_kreg_atfork);
}
