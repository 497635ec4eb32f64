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
#include "lbshim/names.h"
#include "format/text.h"

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

static void put_field(struct lbt_out *o, const struct lbt_field *f)
{
	lbt_puts(o, strcmp(f->key, "copy_kind") ? f->key : "kind");
	lbt_putc(o, '=');
	switch (f->type) {
	case LBT_F_HEX:
		lbt_put_hex(o, f->v);
		break;
	case LBT_F_U64:
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
	}
}

void lbt_text_call(struct lbt_out *o, const struct lbt_rec *r)
{
	struct lbt_field fl[LBT_MAX_FIELDS];
	int n = lbt_call_fields(r, fl, 1), i;
	const char *rn = lbt_ret_name(r);

	lbt_color(o, LBT_C_API);
	lbt_put_text(o, r->api_name);
	lbt_color(o, LBT_C_OFF);
	lbt_putc(o, '(');
	for (i = 0; i < n; i++) {
		if (i)
			lbt_puts(o, ", ");
		put_field(o, &fl[i]);
	}
	if (lbt_has_stream(r)) {
		lbt_puts(o, n ? ", stream=" : "stream=");
		lbt_put_hex(o, r->raw->stream);
		if (r->flags & LB_RF_REMAPPED) {
			lbt_puts(o, "->");
			lbt_put_hex(o, r->raw->stream_used);
		}
	}
	lbt_puts(o, ") ");
	if (r->in_flight) {
		lbt_color(o, LBT_C_CRASH);
		lbt_puts(o, "in flight");
		lbt_color(o, LBT_C_OFF);
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
	if (r->flags & LB_RF_SERVED)
		lbt_puts(o, " [served]");
	if (r->flags & LB_RF_HAZARD)
		lbt_puts(o, " [hazard]");
	if (r->flags & LB_RF_GRIDZ_SAT)
		lbt_puts(o, " [grid.z saturated]");
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

void lbt_text_crash(struct lbt_out *o, const struct lbt_crash *c)
{
	const char *sn = lbt_signal_name(c->signo);
	const char *cn = lbt_si_code_name(c->signo, c->code);

	lbt_color(o, LBT_C_CRASH);
	lbt_puts(o, "*** ");
	if (sn)
		lbt_puts(o, sn);
	else
		lbt_printf(o, "signal %d", c->signo);
	lbt_color(o, LBT_C_OFF);
	if (cn)
		lbt_printf(o, " (%s)", cn);
	else
		lbt_printf(o, " (code %d)", c->code);
	lbt_puts(o, " at address ");
	lbt_put_hex(o, c->addr);
	lbt_printf(o, ", %u frame%s", c->nframes, c->nframes == 1 ? "" : "s");
	if (c->nframes_said != c->nframes)
		lbt_printf(o, " (%u announced)", c->nframes_said);
}

/* One line for a record that is not a call. */
void lbt_text_other(struct lbt_out *o, const struct lbt_rec *r)
{
	const uint64_t *a = r->raw->a;
	const char *s;

	switch (r->type) {
	case LB_REC_CRASH:
		if (r->crash)
			lbt_text_crash(o, r->crash);
		else
			lbt_printf(o, "*** signal %d (crash record not kept)",
				   r->ret);
		break;
	case LB_REC_LOST:
		lbt_color(o, LBT_C_ERR);
		lbt_printf(o, "--- %llu records lost",
			   (unsigned long long)a[0]);
		lbt_color(o, LBT_C_OFF);
		lbt_puts(o, " over ");
		lbt_put_fixed(o, r->dur_ns, 1000, 3);
		lbt_puts(o, " us");
		break;
	case LB_REC_POOL:
		lbt_printf(o,
			   "pool: %llu hits, %llu misses, peak %llu bytes "
			   "reserved, %llu in use, %u chunks, %u frees found "
			   "work pending",
			   (unsigned long long)r->raw->stream,
			   (unsigned long long)r->raw->stream_used,
			   (unsigned long long)a[0], (unsigned long long)a[1],
			   (uint32_t)a[2], (uint32_t)(a[2] >> 32));
		break;
	case LB_REC_STREAM0:
		lbt_printf(o,
			   "stream0 of thread %llu: %llu null-stream syncs, "
			   "%llu hazards",
			   (unsigned long long)r->raw->stream,
			   (unsigned long long)a[0], (unsigned long long)a[1]);
		break;
	case LB_REC_THREAD:
		s = (uint32_t)a[0] ? lbt_string(r->file, (uint32_t)a[0]) : NULL;
		lbt_puts(o, r->note == 1 ? "thread exit" : "thread name");
		if (s) {
			lbt_puts(o, " \"");
			lbt_put_text(o, s);
			lbt_putc(o, '"');
		}
		break;
	case LB_REC_STRING:
		lbt_printf(o, "string %u part %u", (uint32_t)a[0],
			   (unsigned)(uint16_t)(a[0] >> 32));
		break;
	case LB_REC_FRAME:
		lbt_printf(o, "frame %u", (uint32_t)a[0]);
		break;
	default:
		lbt_printf(o, "record of unknown type %u", r->type);
		break;
	}
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
