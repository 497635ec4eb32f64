/*
 * kreg_plan.c - a kernel's plan, made once when the registry (kreg.c)
 * learns the kernel: its explicit arguments cut into pieces a launch
 * copies with no test per argument, the words that may hold a device
 * pointer (stream0's check), and the layout as text for lbtrace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kreg_plan.h"

/*
 * The words of k's arguments that may hold a device pointer: every
 * global_buffer argument, and each 8-byte word of a by-value argument
 * that is 8-byte aligned in the kernarg segment (a pointer inside a
 * struct is).  The kernel's facts for KINFO as well.
 */
static void lb_kp_ptrs(struct lb_kplan *p, const struct lb_co_kernel *k)
{
	uint32_t i, idx = 0, w;

	for (i = 0; i < k->nargs; i++) {
		const struct lb_co_arg *a = &k->args[i];

		if (a->kind == LB_CO_HIDDEN)
			continue;
		p->nexplicit++;
		if (a->offset + a->size > p->kend)
			p->kend = a->offset + a->size;
		if (lb_co_arg_is_devptr(a) && a->size == 8) {
			if (p->nptr < LB_KREG_MAXPTR && idx <= UINT16_MAX)
				p->ptr[p->nptr++] = (struct lb_kptr){
					(uint16_t)idx, 0, a->offset };
		} else if (a->kind == LB_CO_BY_VALUE && a->size >= 8) {
			for (w = (8 - a->offset % 8) % 8; w + 8 <= a->size &&
			     w <= UINT16_MAX && p->nptr < LB_KREG_MAXPTR;
			     w += 8)
				p->ptr[p->nptr++] = (struct lb_kptr){
					(uint16_t)idx, (uint16_t)w,
					a->offset + w };
		}
		if (p->nptr && p->ptr[p->nptr - 1].idx == idx)
			p->ptrmax = (uint16_t)(idx + 1);
		idx++;
	}
	p->vgprs = k->vgprs;
	p->sgprs = k->sgprs;
	p->lds = k->lds;
	p->scratch = k->scratch;
	p->wavefront = k->wavefront;
	p->max_wg = k->max_wg;
	p->kernarg_size = k->kernarg_size;
}

/*
 * The plan's parts cut into the pieces a launch copies (kreg.h,
 * lb_kchunk): each part greedily into 8, 4, 2 and 1 bytes, the pieces
 * listed by size.  Exact: no byte outside an argument is read or written,
 * so the gaps between arguments stay 0.
 */
static void lb_kp_chunks(struct lb_kplan *p)
{
	struct lb_kchunk by[4][LB_KREG_BYTES];
	uint32_t i, k, n[4] = { 0 }, o = 0;

	for (i = 0; i < p->nparts; i++) {
		const struct lb_kpart *q = &p->part[i];
		uint32_t s = 0, len = q->len;

		for (k = 0; k < 4; k++)
			for (; len - s >= (8u >> k); s += 8u >> k) {
				if (o == LB_KREG_BYTES)
					return; /* chunked stays 0 */
				by[k][n[k]++] = (struct lb_kchunk){
					q->idx, (uint8_t)s,
					(uint8_t)(q->off + s) };
				o++;
			}
	}
	p->chunked = 1;
	for (k = 0, o = 0; k < 4; k++) {
		p->nchunk[k] = (uint8_t)n[k];
		memcpy(&p->chunk[o], by[k], n[k] * sizeof(by[k][0]));
		o += n[k];
	}
}

/* The plan of kernel k: what a launch copies, and the layout text. */
struct lb_kplan *lb_kp_make(const struct lb_co_kernel *k)
{
	uint32_t i, idx = 0, nparts = 0, end = 0;
	size_t tl = 0;
	struct lb_kplan *p;
	char *text;

	for (i = 0; i < k->nargs; i++) {
		const struct lb_co_arg *a = &k->args[i];

		if (a->kind == LB_CO_HIDDEN)
			continue;
		if (a->size && a->offset < LB_KREG_BYTES &&
		    nparts < LB_KREG_BYTES)
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
		if (a->size && a->offset < LB_KREG_BYTES &&
		    nparts < LB_KREG_BYTES && idx <= UINT16_MAX) {
			struct lb_kpart *q = &p->part[nparts++];

			q->idx = (uint16_t)idx;
			q->off = (uint16_t)a->offset;
			q->len = (uint16_t)(a->size < LB_KREG_BYTES - a->offset
						    ? a->size
						    : LB_KREG_BYTES - a->offset);
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
	lb_kp_chunks(p);
	lb_kp_ptrs(p, k);
	p->cut = end > LB_KREG_BYTES;
	p->bytes = (uint8_t)(end < LB_KREG_BYTES ? end : LB_KREG_BYTES);
	p->layout = text;
	p->layout_len = (uint32_t)tl;
	return p;
}

