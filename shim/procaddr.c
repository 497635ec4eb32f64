/*
 * procaddr.c - hipGetProcAddress must hand out the shim's wrappers.
 *
 * A program (or a framework) that looks functions up through the runtime
 * would otherwise get the runtime's own entry points and bypass every
 * policy.  Only names in hip_api.def are replaced; anything else is the
 * runtime's answer, unchanged.
 */
#include "shim.h"

void lb_procaddr_post(struct lb_call *c);

void lb_procaddr_post(struct lb_call *c)
{
	struct lb_args_hipGetProcAddress *a = c->args;
	void *w;
	int id;

	if (c->ret != hipSuccess || !a->pfn || !*a->pfn)
		return;
	id = lb_api_lookup(a->symbol);
	w = lb_wrapper_addr(id);
	if (w)
		*a->pfn = w;
}
