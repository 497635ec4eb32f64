/*
 * trace_kinfo.c - kernel facts from the code objects: one KINFO record per
 * kernel registered (__hipRegisterFunction) or got from a module
 * (hipModuleGetFunction), with its registers, LDS, scratch, wavefront
 * size and kernarg size, for lbtrace summary.
 *
 * The shim's kernel registry (shim/kreg.c) reads the code objects when
 * the program registers a fat binary or loads a module, never on a
 * launch, and has made the kernel's plan, facts included, before the
 * trace's post hook runs.
 */
#include "trace.h"
#include "kreg.h"

static uint64_t lb_pair(uint32_t lo, uint32_t hi)
{
	return lo | (uint64_t)hi << 32;
}

/* The KINFO record of kernel name, launched through handle fn. */
static void lb_kinfo_kernel(struct lb_tt *t, const struct lb_call *c,
			    const char *name, const void *fn, int module)
{
	struct lb_trace_rec r = { .hdr = { .type = LB_REC_KINFO } };
	const struct lb_kplan *p = name ? lb_kreg_plan(fn, module) : NULL;
	const char *target;
	uint32_t sid, tsid;

	if (!p)
		return;
	target = p->target ? p->target : "";
	r.hdr.note = (uint8_t)p->co_version;
	r.stream = lb_pair(p->vgprs, p->sgprs);
	r.stream_used = lb_pair(p->lds, p->scratch);
	r.a[1] = lb_pair(p->wavefront, p->max_wg);
	r.a[2] = lb_pair(p->kernarg_size, p->nexplicit);
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
	int api = c->api;
	void **out;

	switch (lb_api_info[api].role) {
	case LB_ROLE_REG_FUNCTION:
		lb_kinfo_kernel(t, c, lb_ar_ptr(api, c->args, LB_AR_NAME),
				lb_ar_ptr(api, c->args, LB_AR_KERNEL), 0);
		break;
	case LB_ROLE_MODULE_FUNCTION:
		out = lb_ar_ptr(api, c->args, LB_AR_OUT);
		if (c->ret == LB_ST_OK && out)
			lb_kinfo_kernel(t, c,
					lb_ar_ptr(api, c->args, LB_AR_NAME),
					*out, 1);
		break;
	default:
		break;
	}
}
