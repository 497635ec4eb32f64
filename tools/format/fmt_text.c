/*
 * fmt_text.c - `lbtrace print`: one line per record, in the manner of
 * HIP_TRACE_API:
 *
 *   0.000123456 pid:4242 tid:4243 hipMemcpy(dst=0x..., src=0x...,
 *       size=4000000, kind=hipMemcpyDeviceToHost) ret=0 (hipSuccess) +12.345 us
 *
 * (on one line): seconds since the trace started, process, thread, the
 * call with the arguments that matter, the return code and its name, the
 * call's duration.  A crash is followed by its backtrace, indented.
 */
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "format/fmt.h"
#include "format/text.h"
#include "format/kargs.h"

struct text_state {
	struct lbt_out *o;
};

/* "   1.234567890 pid:N tid:N " */
void lbt_text_prefix(struct lbt_out *o, const struct lbt_rec *r)
{
	char tmp[40];
	int64_t t = r->t_ns;
	int n = 0, i;

	/* seconds, right-aligned in 13 columns */
	if (t < 0) {
		tmp[n++] = '-';
		t = -t;
	}
	n += snprintf(tmp + n, sizeof(tmp) - n, "%lld.%09lld",
		      (long long)(t / 1000000000), (long long)(t % 1000000000));
	for (i = n; i < 13; i++)
		lbt_putc(o, ' ');
	lbt_write(o, tmp, n);
	lbt_puts(o, " pid:");
	lbt_put_u64(o, r->file->hdr.pid);
	lbt_puts(o, " tid:");
	lbt_put_u64(o, r->type == LB_REC_CRASH && r->crash ? r->crash->tid
							   : r->thread->tid);
	if (r->device) {
		lbt_puts(o, " dev:");
		lbt_put_u64(o, r->device);
	}
	lbt_putc(o, ' ');
}

static void put_ms(struct lbt_out *o, uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	lbt_printf(o, "%.6g", (double)f);
}

/* A field's value, as text. */
static void put_value(struct lbt_out *o, const struct lbt_field *f)
{
	switch (f->type) {
	case LBT_F_HEX:
		lbt_put_hex(o, f->v);
		break;
	case LBT_F_U64:
	case LBT_F_FRAMES: /* how many; they follow, a line each */
		lbt_put_u64(o, f->v);
		break;
	case LBT_F_I64:
		lbt_put_i64(o, (int64_t)f->v);
		break;
	case LBT_F_STR:
		lbt_put_text(o, f->s);
		break;
	case LBT_F_DIM3:
		lbt_printf(o, "(%u,%u,%u)", f->d[0], f->d[1], f->d[2]);
		break;
	case LBT_F_MS:
		put_ms(o, (uint32_t)f->v);
		break;
	case LBT_F_US:
		lbt_put_fixed(o, (int64_t)f->v, 1000, 3);
		break;
	case LBT_F_ARGS: {
		struct lbt_kargs k;

		if (lbt_kargs_of(f->rec, &k))
			lbt_kargs_put_text(o, &k);
		break;
	}
	}
}

/* A part of a sentence: the label, the value where it says "%v". */
static void put_prose(struct lbt_out *o, const struct lbt_field *f)
{
	const char *v = strstr(f->label, "%v");

	if (f->color)
		lbt_color(o, f->color);
	if (v) {
		lbt_write(o, f->label, (size_t)(v - f->label));
		put_value(o, f);
		lbt_puts(o, v + 2);
	} else {
		lbt_puts(o, f->label);
	}
	if (f->color)
		lbt_color(o, LBT_C_OFF);
}

/* "hipMemcpy(dst=..., ...)"; returns the first tag field, or NULL. */
static const struct lbt_field *put_head(struct lbt_out *o,
					const struct lbt_rec *r,
					struct lbt_field_iter *it)
{
	const struct lbt_field *f;
	int n = 0;

	lbt_fields_start(it, r);
	lbt_color(o, LBT_C_API);
	lbt_put_text(o, r->api_name);
	lbt_color(o, LBT_C_OFF);
	lbt_putc(o, '(');
	while ((f = lbt_fields_next(it, LBT_SHOW_TEXT)) &&
	       f->role != LBT_R_TAG) {
		if (f->role != LBT_R_JOIN && n++)
			lbt_puts(o, ", ");
		lbt_puts(o, f->label);
		if (f->role != LBT_R_JOIN)
			lbt_putc(o, '=');
		put_value(o, f);
	}
	lbt_putc(o, ')');
	return f;
}

void lbt_text_call_head(struct lbt_out *o, const struct lbt_rec *r)
{
	struct lbt_field_iter it;

	put_head(o, r, &it);
}

void lbt_text_call(struct lbt_out *o, const struct lbt_rec *r)
{
	struct lbt_field_iter it;
	const struct lbt_field *f;
	const char *rn = lbt_ret_name(r);

	f = put_head(o, r, &it);
	lbt_putc(o, ' ');
	if (r->in_flight) {
		lbt_color(o, LBT_C_CRASH);
		lbt_puts(o, "in flight");
		lbt_color(o, LBT_C_OFF);
		if (!r->raw->t1) {
			/* an entry record: the trace ends inside the call */
			lbt_puts(o, ", no return recorded");
			return;
		}
		lbt_puts(o, " +");
		lbt_put_fixed(o, r->dur_ns, 1000, 3);
		lbt_puts(o, " us until the crash");
		return;
	}
	if (r->ret)
		lbt_color(o, LBT_C_ERR);
	lbt_puts(o, "ret=");
	lbt_put_i64(o, r->ret);
	lbt_puts(o, " (");
	lbt_puts(o, rn ? rn : "unknown error");
	lbt_putc(o, ')');
	if (r->ret)
		lbt_color(o, LBT_C_OFF);
	lbt_puts(o, " +");
	lbt_put_fixed(o, r->dur_ns, 1000, 3);
	lbt_puts(o, " us");
	for (; f; f = lbt_fields_next(&it, LBT_SHOW_TEXT)) {
		lbt_puts(o, " [");
		lbt_puts(o, f->label);
		lbt_putc(o, ']');
	}
}

void lbt_text_frame(struct lbt_out *o, const struct lbt_frame *f)
{
	lbt_printf(o, "#%-3u ", f->index);
	lbt_put_hex(o, f->pc);
	lbt_putc(o, ' ');
	if (f->name[0]) {
		lbt_put_text(o, f->demangled);
		lbt_puts(o, "+");
		lbt_put_hex(o, f->offset);
		if (f->guess)
			lbt_puts(o, " (guess)");
	} else {
		lbt_puts(o, "??");
	}
}

/* The fields of a record that is not a call, as one sentence. */
static void put_sentence(struct lbt_out *o, struct lbt_field_iter *it)
{
	const struct lbt_field *f;

	while ((f = lbt_fields_next(it, LBT_SHOW_TEXT)))
		put_prose(o, f);
}

void lbt_text_crash(struct lbt_out *o, const struct lbt_crash *c)
{
	struct lbt_field_iter it;

	lbt_crash_fields(&it, c);
	put_sentence(o, &it);
}

/* One line for a record that is not a call. */
void lbt_text_other(struct lbt_out *o, const struct lbt_rec *r)
{
	struct lbt_field_iter it;

	lbt_fields_start(&it, r);
	put_sentence(o, &it);
}

static void *text_begin(struct lbt_set *set, struct lbt_out *o,
			const struct lbt_opts *opt)
{
	struct text_state *st = calloc(1, sizeof(*st));

	(void)set;
	(void)opt;
	if (st)
		st->o = o;
	return st;
}

static void text_record(void *p, const struct lbt_rec *r)
{
	struct text_state *st = p;
	struct lbt_out *o = st->o;
	uint32_t i;

	lbt_text_prefix(o, r);
	if (r->type == LB_REC_CALL)
		lbt_text_call(o, r);
	else
		lbt_text_other(o, r);
	lbt_putc(o, '\n');
	if (r->type != LB_REC_CRASH || !r->crash)
		return;
	for (i = 0; i < r->crash->nframes; i++) {
		lbt_puts(o, "              ");
		lbt_text_frame(o, &r->crash->frames[i]);
		lbt_putc(o, '\n');
	}
}

static int text_end(void *p)
{
	free(p);
	return 0;
}

const struct lbt_fmt lbt_fmt_text = {
    .name = "text",
    .mode = LBT_ORDERED,
    .filtered = 1,
    .begin = text_begin,
    .record = text_record,
    .end = text_end,
};
