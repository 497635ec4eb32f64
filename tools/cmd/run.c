/*
 * run.c - the loop every command shares: iterate the set, apply the
 * filters, keep the last N when asked, hand each record to the format.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "format/fmt.h"
#include "cmd/summary.h"

/* (--kernel 'k*' matches what users call the kernel by this name) */
const char *lbt_kernel_short(const char *d, char *buf, size_t len)
{
	size_t end = 0, start = 0, i, n;
	int depth = 0;

	for (i = 0; d[i]; i++) {
		if (d[i] == '<')
			depth++;
		else if (d[i] == '>' && depth)
			depth--;
		else if (!depth && d[i] == '(')
			break;
	}
	end = i;
	if (end && d[end - 1] == '>') { /* template arguments */
		for (depth = 0, i = end; i > 0; i--) {
			depth += d[i - 1] == '>' ? 1 : d[i - 1] == '<' ? -1 : 0;
			if (!depth)
				break;
		}
		if (i > 0)
			end = i - 1; /* the matching '<' */
	}
	for (i = 0, depth = 0; i < end; i++) {
		if (d[i] == '<')
			depth++;
		else if (d[i] == '>' && depth)
			depth--;
		else if (!depth && (d[i] == ' ' || d[i] == ':'))
			start = i + 1;
	}
	n = end > start ? end - start : 0;
	if (n >= len)
		n = len - 1;
	memcpy(buf, d + start, n);
	buf[n] = 0;
	return buf;
}

int lbt_filter(const struct lbt_opts *opt, const struct lbt_rec *r)
{
	uint32_t tid = r->thread->tid;

	if (r->type == LB_REC_CRASH && r->crash)
		tid = r->crash->tid;
	if (opt->tid_set && tid != opt->tid)
		return 0;
	if (opt->errors && !lbt_rec_is_error(r) && r->type != LB_REC_CRASH)
		return 0;
	if (opt->api_glob &&
	    (r->type != LB_REC_CALL || fnmatch(opt->api_glob, r->api_name, 0)))
		return 0;
	if (opt->kernel_glob) {
		const char *m = lbt_rec_kernel(r, 0), *d = lbt_rec_kernel(r, 1);
		char sn[256];

		if (!m || (fnmatch(opt->kernel_glob, m, 0) &&
			   fnmatch(opt->kernel_glob, d, 0) &&
			   fnmatch(opt->kernel_glob,
				   lbt_kernel_short(d, sn, sizeof(sn)), 0)))
			return 0;
	}
	return 1;
}

/* The last N records, kept as copies (their pointers stay valid). */
struct last_ring {
	struct lbt_rec *r;
	uint64_t cap, n, head; /* grows up to the N asked for */
	uint64_t want;
};

static int ring_add(struct last_ring *lr, const struct lbt_rec *r)
{
	if (lr->n < lr->want && lr->n == lr->cap) {
		uint64_t nc = lr->cap ? lr->cap * 2 : 256;
		struct lbt_rec *p;

		if (nc > lr->want)
			nc = lr->want;
		p = realloc(lr->r, nc * sizeof(*p));
		if (!p)
			return -1;
		lr->r = p;
		lr->cap = nc;
	}
	if (lr->n < lr->cap) {
		lbt_rec_keep(&lr->r[lr->n++], r);
	} else {
		lbt_rec_keep(&lr->r[lr->head], r);
		lr->head = (lr->head + 1) % lr->cap;
	}
	return 0;
}

int lbt_run_fmt(const struct lbt_fmt *fmt, struct lbt_set *set,
		struct lbt_out *o, const struct lbt_opts *opt)
{
	struct last_ring lr = {.want = fmt->filtered ? opt->last : 0};
	int filters = fmt->filtered && (opt->api_glob || opt->kernel_glob ||
					opt->tid_set || opt->errors);
	const struct lbt_rec *r;
	void *st;
	uint64_t i;
	int rc;

	st = fmt->begin(set, o, opt);
	if (!st)
		return 2;
	if (fmt == &lbt_fmt_summary && !filters && !lr.want) {
		/* statistics only: no record needs decoding */
		lbt_summary_raw(st, set);
		goto end;
	}
	lbt_rewind(set, lr.want ? LBT_ORDERED : fmt->mode);
	while ((r = lbt_next(set))) {
		if (filters && !lbt_filter(opt, r))
			continue;
		if (!lr.want)
			fmt->record(st, r);
		else if (ring_add(&lr, r))
			break;
	}
	for (i = 0; i < lr.n; i++) {
		struct lbt_rec *k = &lr.r[(lr.head + i) % lr.n];

		k->raw = &k->copy; /* the array may have moved */
		fmt->record(st, k);
	}
	free(lr.r);
end:
	rc = fmt->end(st);
	if (lbt_out_flush(o) && !rc)
		rc = 2;
	return rc;
}
