/*
 * trace_kargs.c - each launch's argument bytes: one KARGS record after the
 * launch's call record, holding the first LB_KARGS_BYTES bytes of the
 * kernel's explicit arguments laid out as in its kernarg segment.
 *
 * Nothing is parsed on a launch.  When a kernel is registered
 * (__hipRegisterFunction: the host stub) or got from a module
 * (hipModuleGetFunction: the hipFunction_t), trace_kinfo.c hands us its
 * metadata and we make a plan: which kernelParams entry goes to which
 * offset, clipped to the bound, and the layout as text for lbtrace.  The
 * plans live in an open-addressing table that launches read without a
 * lock; a launch copies args[i] by the plan into a record on the stack.
 * Plans are never freed: a launch may be reading one while the program
 * unloads its module, and a handle used again gets a new plan.
 *
 * The layout text ("0:8:global_buffer 8:4:by_value ...") is written to
 * the file as a STRING at the kernel's first launch in each file (a
 * forked child writes its own), before the call record, so that the
 * KARGS record follows its call record directly.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include "trace.h"
#include "lbshim/codeobj.h"

#define LB_KP_MAX_TEXT 4000u /* layout text kept (lbtrace reads 4096) */

struct lb_kpart {
	uint16_t idx;	/* kernelParams index (explicit arguments only) */
	uint16_t off;	/* offset in the kernarg segment */
	uint16_t len;	/* bytes copied (the argument, clipped) */
};

struct lb_kplan {
	uint64_t idgen;	     /* gen << 32 | layout string id; 0 none */
	const char *layout;  /* "off:size:kind ..." */
	uint32_t layout_len;
	uint8_t cut;	     /* explicit arguments end past the bound */
	uint8_t bytes;	     /* bytes recorded: min(end, bound) */
	uint16_t nparts;
	uint16_t maxidx;     /* highest idx + 1 */
	struct lb_kpart part[]; /* nparts, by idx */
};

struct lb_kpent {
	uintptr_t key; /* stub, or hipFunction_t | 1; 0 free */
	struct lb_kplan *plan;
};

struct lb_kptab {
	uint64_t mask;
	uint64_t used;
	struct lb_kpent e[];
};

/* Current table; inserts are made under trace_kinfo.c's lock. */
static struct lb_kptab *lb_kptab;

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

/* Under the lock: sets key's plan in t (a key seen again is updated). */
static int lb_kp_put(struct lb_kptab *t, uintptr_t key, struct lb_kplan *p)
{
	uint64_t i, n;

	for (i = lb_kp_hash(key) & t->mask, n = 0; n <= t->mask;
	     i = (i + 1) & t->mask, n++) {
		struct lb_kpent *e = &t->e[i];

		if (e->key && e->key != key)
			continue;
		if (!e->key)
			t->used++;
		__atomic_store_n(&e->plan, p, __ATOMIC_RELEASE);
		__atomic_store_n(&e->key, key, __ATOMIC_RELEASE);
		return 0;
	}
	return -1;
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
	for (i = 0; old && i <= old->mask; i++)
		if (old->e[i].key)
			lb_kp_put(t, old->e[i].key, old->e[i].plan);
	__atomic_store_n(&lb_kptab, t, __ATOMIC_RELEASE);
	return t;
}

/* The plan of kernel k: what a launch copies, and the layout text. */
static struct lb_kplan *lb_kp_make(const struct lb_co_kernel *k)
{
	uint32_t i, idx = 0, nparts = 0, end = 0;
	size_t tl = 0;
	struct lb_kplan *p;
	char *text;

	for (i = 0; i < k->nargs; i++) {
		const struct lb_co_arg *a = &k->args[i];

		if (a->kind == LB_CO_HIDDEN)
			continue;
		if (a->size && a->offset < LB_KARGS_BYTES &&
		    nparts < LB_KARGS_BYTES)
			nparts++;
		if (a->offset + (uint64_t)a->size > end)
			end = a->offset + a->size;
	}
	p = calloc(1, sizeof(*p) + nparts * sizeof(p->part[0]) +
			      LB_KP_MAX_TEXT + 1);
	if (!p)
		return NULL;
	text = (char *)&p->part[nparts];
	for (i = 0, nparts = 0; i < k->nargs; i++) {
		const struct lb_co_arg *a = &k->args[i];
		const char *kind = a->value_kind ? a->value_kind
						 : lb_co_kind_name(a->kind);
		int n;

		if (a->kind == LB_CO_HIDDEN)
			continue;
		if (a->size && a->offset < LB_KARGS_BYTES &&
		    nparts < LB_KARGS_BYTES && idx <= UINT16_MAX) {
			struct lb_kpart *q = &p->part[nparts++];

			q->idx = (uint16_t)idx;
			q->off = (uint16_t)a->offset;
			q->len = (uint16_t)(a->size < LB_KARGS_BYTES - a->offset
						    ? a->size
						    : LB_KARGS_BYTES - a->offset);
			p->maxidx = (uint16_t)(idx + 1);
		}
		idx++;
		/* the text stops at a whole entry before the cap */
		n = snprintf(text + tl, LB_KP_MAX_TEXT + 1 - tl, "%s%u:%u:%s",
			     tl ? " " : "", a->offset, a->size, kind);
		if (n < 0 || tl + (size_t)n > LB_KP_MAX_TEXT) {
			text[tl] = 0;
			break;
		}
		tl += (size_t)n;
	}
	p->nparts = (uint16_t)nparts;
	p->cut = end > LB_KARGS_BYTES;
	p->bytes = (uint8_t)(end < LB_KARGS_BYTES ? end : LB_KARGS_BYTES);
	p->layout = text;
	p->layout_len = (uint32_t)tl;
	return p;
}

void lb_kargs_plan(const void *f, int module, const struct lb_co_kernel *k)
{
	struct lb_kptab *t;
	struct lb_kplan *p;

	if (!f || !k || !k->facts)
		return;
	p = lb_kp_make(k);
	if (!p)
		return;
	t = lb_kp_room();
	if (!t || lb_kp_put(t, (uintptr_t)f | (module ? 1u : 0u), p))
		free(p);
}

static struct lb_kplan *lb_kp_find(uintptr_t key)
{
	struct lb_kptab *t = __atomic_load_n(&lb_kptab, __ATOMIC_ACQUIRE);
	uint64_t i, n;

	if (!t)
		return NULL;
	for (i = lb_kp_hash(key) & t->mask, n = 0; n <= t->mask;
	     i = (i + 1) & t->mask, n++) {
		uintptr_t k = __atomic_load_n(&t->e[i].key, __ATOMIC_ACQUIRE);

		if (k == key)
			return __atomic_load_n(&t->e[i].plan, __ATOMIC_ACQUIRE);
		if (!k)
			return NULL;
	}
	return NULL;
}

/* The layout's string id in this file, writing it the first time. */
static uint32_t lb_kp_layout_id(struct lb_kplan *p)
{
	uint64_t ig = __atomic_load_n(&p->idgen, __ATOMIC_ACQUIRE);
	uint64_t gen = lb_tr.gen;
	uint32_t id;

	if (LB_LIKELY(ig >> 32 == gen && (uint32_t)ig))
		return (uint32_t)ig;
	/*
	 * Two threads launching a new kernel at once may both write it;
	 * each record names the copy its own thread wrote first.
	 */
	id = lb_names_string(p->layout, p->layout_len);
	if (id)
		__atomic_compare_exchange_n(&p->idgen, &ig, gen << 32 | id, 0,
					    __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
	return id;
}

/*
 * Copies n bytes at the program's src without faulting on a bad address
 * (a launch that failed may have been given one the runtime never read).
 * Returns 0 or -1.
 */
static int lb_kp_safe(void *dst, const void *src, size_t n)
{
	struct iovec l = { dst, n }, r = { (void *)src, n };

	return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)n ? 0
									: -1;
}

/*
 * One argument's bytes: the common sizes as single loads and stores (a
 * call of memcpy per argument would cost more than the rest together).
 */
static inline void lb_kp_copy(uint8_t *dst, const void *src, uint32_t n)
{
	const uint8_t *s = src;

	switch (n) {
	case 8:
		memcpy(dst, s, 8);
		return;
	case 4:
		memcpy(dst, s, 4);
		return;
	case 16:
		memcpy(dst, s, 16);
		return;
	case 2:
		memcpy(dst, s, 2);
		return;
	case 1:
		*dst = *s;
		return;
	}
	while (n >= 8) {
		memcpy(dst, s, 8);
		dst += 8, s += 8, n -= 8;
	}
	if (n >= 4) {
		memcpy(dst, s, 4);
		dst += 4, s += 4, n -= 4;
	}
	while (n--)
		*dst++ = *s++;
}

/* The arguments from kernelParams; safe: the launch failed. */
static int lb_kp_params(struct lb_trace_rec *r, const struct lb_kplan *p,
			void **args, int safe)
{
	uint8_t *dst = (uint8_t *)r + 8;
	void *ptr[LB_KARGS_BYTES];
	uint32_t i;

	if (LB_LIKELY(!safe)) {
		for (i = 0; i < p->nparts; i++)
			lb_kp_copy(dst + p->part[i].off, args[p->part[i].idx],
				   p->part[i].len);
		return 0;
	}
	if (p->maxidx > LB_KARGS_BYTES ||
	    lb_kp_safe(ptr, args, p->maxidx * sizeof(void *)))
		return -1;
	for (i = 0; i < p->nparts; i++)
		if (lb_kp_safe(dst + p->part[i].off, ptr[p->part[i].idx],
			       p->part[i].len))
			return -1;
	return 0;
}

/*
 * The arguments from an "extra" list: the kernarg buffer itself, at the
 * metadata's offsets.  The runtime takes exactly this form: extra[0] =
 * HIP_LAUNCH_PARAM_BUFFER_POINTER, [1] = the buffer, [2] =
 * HIP_LAUNCH_PARAM_BUFFER_SIZE, [4] = HIP_LAUNCH_PARAM_END, and reads
 * each argument at buffer + its offset (clr hipamd/src/hip_module.cpp,
 * ihipModuleLaunchKernel's argument setup, rocm-6.2.0).
 */
static int lb_kp_extra(struct lb_trace_rec *r, const struct lb_kplan *p,
		       void **extra, int safe)
{
	void *x[5];

	if (safe ? lb_kp_safe(x, extra, sizeof(x)) : (memcpy(x, extra,
							     sizeof(x)), 0))
		return -1;
	if (x[0] != HIP_LAUNCH_PARAM_BUFFER_POINTER ||
	    x[2] != HIP_LAUNCH_PARAM_BUFFER_SIZE ||
	    x[4] != HIP_LAUNCH_PARAM_END || !x[1])
		return -1;
	if (safe)
		return lb_kp_safe((uint8_t *)r + 8, x[1], p->bytes);
	lb_kp_copy((uint8_t *)r + 8, x[1], p->bytes);
	return 0;
}

int lb_kargs_fill(struct lb_trace_rec *r, const struct lb_call *c,
		  const struct lb_tt *t)
{
	const void *f;
	void **args, **extra = NULL;
	struct lb_kplan *p;
	uint32_t sid;
	int module = 0, safe = c->ret != hipSuccess;

	switch (c->api) {
	case LB_ID_hipLaunchKernel:
	case LB_ID_hipLaunchKernel_spt: {
		struct lb_args_hipLaunchKernel *a = c->args;

		f = a->function_address;
		args = a->args;
		break;
	}
	case LB_ID_hipLaunchCooperativeKernel:
	case LB_ID_hipLaunchCooperativeKernel_spt: {
		struct lb_args_hipLaunchCooperativeKernel *a = c->args;

		f = a->f;
		args = a->kernelParams;
		break;
	}
	case LB_ID_hipExtLaunchKernel: {
		struct lb_args_hipExtLaunchKernel *a = c->args;

		f = a->function_address;
		args = a->args;
		break;
	}
	case LB_ID_hipModuleLaunchKernel: {
		struct lb_args_hipModuleLaunchKernel *a = c->args;

		f = a->f;
		args = a->kernelParams;
		extra = a->extra;
		module = 1;
		break;
	}
	case LB_ID_hipExtModuleLaunchKernel:
	case LB_ID_lb_cxx_hipExtModuleLaunchKernel: {
		struct lb_args_hipExtModuleLaunchKernel *a = c->args;

		f = a->f;
		args = a->kernelParams;
		extra = a->extra;
		module = 1;
		break;
	}
	case LB_ID_hipHccModuleLaunchKernel:
	case LB_ID_lb_cxx_hipHccModuleLaunchKernel: {
		struct lb_args_hipHccModuleLaunchKernel *a = c->args;

		f = a->f;
		args = a->kernelParams;
		extra = a->extra;
		module = 1;
		break;
	}
	default:
		return 0;
	}
	p = f ? lb_kp_find((uintptr_t)f | (unsigned)module) : NULL;
	if (!p || (!args && !extra) || (!args && !p->bytes && p->nparts))
		return 0;
	memset(r, 0, sizeof(*r));
	if (args ? lb_kp_params(r, p, args, safe)
		 : lb_kp_extra(r, p, extra, safe))
		return 0;
	sid = lb_kp_layout_id(p);
	r->hdr.type = LB_REC_KARGS;
	r->hdr.flags = p->cut ? LB_KF_CUT : 0;
	r->hdr.api = (uint16_t)sid;
	r->hdr.ret = (int16_t)(uint16_t)(sid >> 16);
	r->hdr.device = t->device;
	r->hdr.note = p->bytes;
	return 1;
}
