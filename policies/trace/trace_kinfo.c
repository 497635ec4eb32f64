/*
 * trace_kinfo.c - kernel facts from the code objects: one KINFO record per
 * kernel registered (__hipRegisterFunction) or got from a module
 * (hipModuleGetFunction), with its registers, LDS, scratch, wavefront
 * size and kernarg size, for lbtrace summary.
 *
 * The code objects are read by the shared reader (shim/codeobj.c) when
 * the program registers a fat binary or loads a module, never on a
 * launch; the sets are kept by registration handle until the program
 * unregisters or unloads it.  The first code object with metadata is
 * read (its target is in the record): the argument layout is the same
 * for every target, the register counts are those of that one.
 */
#include <pthread.h>
#include <stdlib.h>
#include "trace.h"
#include "lbshim/codeobj.h"

struct lb_kmod {
	const void *key; /* fat binary handle or hipModule_t */
	struct lb_co_set *co;
	struct lb_kmod *next;
};

static struct lb_kmod *lb_kmods;
static pthread_mutex_t lb_kmod_lock = PTHREAD_MUTEX_INITIALIZER;

static void lb_kinfo_add(const void *key, struct lb_co_set *co,
			 const char *what)
{
	struct lb_kmod *m;

	if (!co)
		return;
	if (!lb_co_count(co)) {
		lb_log(LB_LOG_DEBUG, "trace: %s: no kernel facts: %s", what,
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

static void lb_kinfo_drop(const void *key)
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

static uint64_t lb_pair(uint32_t lo, uint32_t hi)
{
	return lo | (uint64_t)hi << 32;
}

/* The KINFO record of kernel name of registration key, if known. */
static void lb_kinfo_kernel(struct lb_tt *t, const struct lb_call *c,
			    const void *key, const char *name,
			    const void *fn, int module)
{
	struct lb_trace_rec r = { .hdr = { .type = LB_REC_KINFO } };
	const struct lb_co_kernel *k = NULL;
	const char *target = NULL;
	struct lb_kmod *m;
	uint32_t i, nexp = 0, sid, tsid;

	if (!name)
		return;
	pthread_mutex_lock(&lb_kmod_lock);
	for (m = lb_kmods; m && m->key != key; m = m->next)
		;
	if (m) {
		k = lb_co_find(m->co, name);
		target = lb_co_object(m->co, 0)->target;
	}
	if (k && k->facts) {
		for (i = 0; i < k->nargs; i++)
			nexp += k->args[i].kind != LB_CO_HIDDEN;
		r.hdr.note = (uint8_t)lb_co_object(m->co, 0)->version;
		r.stream = lb_pair(k->vgprs, k->sgprs);
		r.stream_used = lb_pair(k->lds, k->scratch);
		r.a[1] = lb_pair(k->wavefront, k->max_wg);
		r.a[2] = lb_pair(k->kernarg_size, nexp);
		lb_kargs_plan(fn, module, k); /* for its launches' arguments */
	}
	pthread_mutex_unlock(&lb_kmod_lock);
	if (!k || !k->facts)
		return;
	sid = lb_names_string(name, strlen(name));
	tsid = lb_names_string(target, strlen(target));
	if (!sid)
		return;
	r.a[0] = lb_pair(sid, tsid);
	r.t0 = r.t1 = c->t0; /* before its call record, which follows */
	lb_tt_emit(t, &r);
}

void lb_kinfo_learn(const struct lb_call *c, struct lb_tt *t)
{
	switch (c->api) {
	case LB_ID___hipRegisterFatBinary: {
		struct lb_args___hipRegisterFatBinary *a = c->args;

		if (c->rval)
			lb_kinfo_add(c->rval,
				     lb_co_read_fatbin(a->data, LB_CO_FIRST),
				     "fat binary");
		break;
	}
	case LB_ID___hipUnregisterFatBinary:
		lb_kinfo_drop(((struct lb_args___hipUnregisterFatBinary *)
			       c->args)->modules);
		break;
	case LB_ID___hipRegisterFunction: {
		struct lb_args___hipRegisterFunction *a = c->args;

		lb_kinfo_kernel(t, c, a->modules, a->deviceName,
				a->hostFunction, 0);
		break;
	}
	case LB_ID_hipModuleLoad: {
		struct lb_args_hipModuleLoad *a = c->args;

		if (c->ret == hipSuccess && a->module && a->fname)
			lb_kinfo_add(*a->module,
				     lb_co_read_file(a->fname, LB_CO_FIRST),
				     a->fname);
		break;
	}
	case LB_ID_hipModuleLoadData: {
		struct lb_args_hipModuleLoadData *a = c->args;

		if (c->ret == hipSuccess && a->module && a->image)
			lb_kinfo_add(*a->module,
				     lb_co_read(a->image, 0, LB_CO_FIRST),
				     "module image");
		break;
	}
	case LB_ID_hipModuleLoadDataEx: {
		struct lb_args_hipModuleLoadDataEx *a = c->args;

		if (c->ret == hipSuccess && a->module && a->image)
			lb_kinfo_add(*a->module,
				     lb_co_read(a->image, 0, LB_CO_FIRST),
				     "module image");
		break;
	}
	case LB_ID_hipModuleUnload:
		if (c->ret == hipSuccess)
			lb_kinfo_drop(((struct lb_args_hipModuleUnload *)
				       c->args)->module);
		break;
	case LB_ID_hipModuleGetFunction: {
		struct lb_args_hipModuleGetFunction *a = c->args;

		if (c->ret == hipSuccess && a->function)
			lb_kinfo_kernel(t, c, a->module, a->kname,
					*a->function, 1);
		break;
	}
	default:
		break;
	}
}

void lb_kinfo_fork_prepare(void)
{
	pthread_mutex_lock(&lb_kmod_lock);
}

void lb_kinfo_fork_parent(void)
{
	pthread_mutex_unlock(&lb_kmod_lock);
}

void lb_kinfo_fork_child(void)
{
	pthread_mutex_unlock(&lb_kmod_lock);
}
