/*
 * procaddr.c - hipGetProcAddress (and its _spt form, and 7.1's
 * hipGetDriverEntryPoint pair: the LB_F_PROCADDR rows) must hand out the
 * shim's wrappers.
 *
 * A program (or a framework) that looks functions up through the runtime
 * would otherwise get the runtime's own entry points and bypass every
 * policy.  Only names in hip_api.def are replaced; anything else is the
 * runtime's answer, unchanged.  CUDA's lookups: cuda_procaddr.c.
 */
#include "shim.h"

void lb_procaddr_post(struct lb_call *c);
void lb_cu_procaddr_post(struct lb_call *c);

void lb_procaddr_post(struct lb_call *c)
{
	const char *symbol;
	void **pfn, *w;

	/* the LB_F_PROCADDR rows: the name asked for, where the answer goes */
	if (lb_api_info[c->api].role != LB_ROLE_PROC_ADDRESS)
		return;
	/* CUDA's: by the pointer the driver chose (cuda_procaddr.c) */
	if (LB_API_IS_CUDA(c->api)) {
		lb_cu_procaddr_post(c);
		return;
	}
	symbol = lb_ar_ptr(c->api, c->args, LB_AR_NAME);
	pfn = lb_ar_ptr(c->api, c->args, LB_AR_OUT);
	if (c->ret != hipSuccess || !pfn || !*pfn)
		return;
	w = lb_wrapper_addr(lb_api_lookup(symbol));
	if (w)
		*pfn = w;
}
