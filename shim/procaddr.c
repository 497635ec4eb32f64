/*
 * procaddr.c - hipGetProcAddress (and its _spt form, and 7.1's
 * hipGetDriverEntryPoint pair: the LB_F_PROCADDR rows) must hand out the
 * shim's wrappers.
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
	const char *symbol;
	void **pfn, *w;

	switch (c->api) {
	case LB_ID_hipGetProcAddress:
	case LB_ID_hipGetProcAddress_spt: {
		struct lb_args_hipGetProcAddress *a = c->args;

		symbol = a->symbol;
		pfn = a->pfn;
		break;
	}
	case LB_ID_hipGetDriverEntryPoint:
	case LB_ID_hipGetDriverEntryPoint_spt: {
		struct lb_args_hipGetDriverEntryPoint *a = c->args;

		symbol = a->symbol;
		pfn = a->funcPtr;
		break;
	}
	default:
		return;
	}
	if (c->ret != hipSuccess || !pfn || !*pfn)
		return;
	w = lb_wrapper_addr(lb_api_lookup(symbol));
	if (w)
		*pfn = w;
}
