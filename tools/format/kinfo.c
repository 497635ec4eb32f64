/*
 * kinfo.c - KINFO records (a kernel's facts from its code object, written
 * by the trace policy at registration): decoded once here for the field
 * walk of print and print --json (fields.c) and for summary.
 */
#include "format/kinfo.h"

int lbt_kinfo_of(const struct lbt_rec *r, struct lbt_kinfo *k)
{
	const struct lb_trace_rec *x = r->raw;

	if (r->type != LB_REC_KINFO || !(uint32_t)x->a[0])
		return 0;
	k->file = r->file;
	k->name_sid = (uint32_t)x->a[0];
	k->target_sid = (uint32_t)(x->a[0] >> 32);
	k->version = r->note;
	k->vgprs = (uint32_t)x->stream;
	k->sgprs = (uint32_t)(x->stream >> 32);
	k->lds = (uint32_t)x->stream_used;
	k->scratch = (uint32_t)(x->stream_used >> 32);
	k->wavefront = (uint32_t)x->a[1];
	k->max_wg = (uint32_t)(x->a[1] >> 32);
	k->kernarg = (uint32_t)x->a[2];
	k->nargs = (uint32_t)(x->a[2] >> 32);
	return 1;
}

const char *lbt_kinfo_name(const struct lbt_kinfo *k)
{
	return lbt_string_demangled(k->file, k->name_sid);
}

const char *lbt_kinfo_target(const struct lbt_kinfo *k)
{
	return k->target_sid ? lbt_string(k->file, k->target_sid) : NULL;
}
