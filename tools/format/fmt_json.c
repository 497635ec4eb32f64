/*
 * fmt_json.c - `lbtrace print --json`: one JSON object per line.  Every
 * object starts with type, seq, pid, tid, api, ret, ret_name, t_ns and
 * dur_ns (CONTRACT.md), then what the record's kind adds; pointers and
 * streams are "0x..." strings.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "format/fmt.h"
#include "lbshim/names.h"

static const char *type_name(unsigned t)
{
	static const char *const names[LB_REC_TYPE_MAX] = {
	    [LB_REC_CALL] = "call",	  [LB_REC_STRING] = "string",
	    [LB_REC_CRASH] = "crash",	  [LB_REC_FRAME] = "frame",
	    [LB_REC_LOST] = "lost",	  [LB_REC_POOL] = "pool",
	    [LB_REC_STREAM0] = "stream0", [LB_REC_THREAD] = "thread",
	};

	return t < LB_REC_TYPE_MAX && names[t] ? names[t] : "unknown";
}

static inline void key(struct lbt_out *o, const char *k)
{
	lbt_putc(o, ',');
	lbt_putc(o, '"');
	lbt_puts(o, k);
	lbt_putc(o, '"');
	lbt_putc(o, ':');
}

static inline void key_hex(struct lbt_out *o, const char *k, uint64_t v)
{
	key(o, k);
	lbt_putc(o, '"');
	lbt_put_hex(o, v);
	lbt_putc(o, '"');
}

static inline void key_u64(struct lbt_out *o, const char *k, uint64_t v)
{
	key(o, k);
	lbt_put_u64(o, v);
}

static void put_float(struct lbt_out *o, uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	if (isfinite(f))
		lbt_printf(o, "%.9g", (double)f);
	else
		lbt_puts(o, "null");
}

static void put_field(struct lbt_out *o, const struct lbt_field *f)
{
	key(o, f->key);
	switch (f->type) {
	case LBT_F_HEX:
		lbt_putc(o, '"');
		lbt_put_hex(o, f->v);
		lbt_putc(o, '"');
		break;
	case LBT_F_U64:
		lbt_put_u64(o, f->v);
		break;
	case LBT_F_I64:
		lbt_put_i64(o, (int64_t)f->v);
		break;
	case LBT_F_STR:
		lbt_put_json_str(o, f->s);
		break;
	case LBT_F_DIM3:
		lbt_putc(o, '[');
		lbt_put_u64(o, f->d[0]);
		lbt_putc(o, ',');
		lbt_put_u64(o, f->d[1]);
		lbt_putc(o, ',');
		lbt_put_u64(o, f->d[2]);
		lbt_putc(o, ']');
		break;
	case LBT_F_MS:
		put_float(o, (uint32_t)f->v);
		break;
	}
}

static void call(struct lbt_out *o, const struct lbt_rec *r)
{
	struct lbt_field fl[LBT_MAX_FIELDS];
	int n = lbt_call_fields(r, fl, 1), i;
	const char *m;

	key(o, "api_kind");
	lbt_put_json_str(o, r->kind >= 0 ? lb_kind_name(r->kind) : NULL);
	key_u64(o, "device", r->device);
	for (i = 0; i < n; i++) {
		put_field(o, &fl[i]);
		if (!strcmp(fl[i].key, "kernel") && fl[i].s &&
		    (m = lbt_rec_kernel(r, 0)) && strcmp(m, fl[i].s) != 0) {
			key(o, "kernel_mangled");
			lbt_put_json_str(o, m);
		}
	}
	if (lbt_has_stream(r)) {
		key_hex(o, "stream", r->raw->stream);
		key_hex(o, "stream_used",
			r->flags & LB_RF_REMAPPED ? r->raw->stream_used
						  : r->raw->stream);
	}
	if (r->in_flight)
		lbt_puts(o, ",\"in_flight\":true");
	if (r->flags & LB_RF_ELSEWHERE)
		lbt_printf(o, ",\"on_tid\":%u", (unsigned)r->raw->a[2]);
	if (r->flags & LB_RF_SERVED)
		lbt_puts(o, ",\"served\":true");
	if (r->flags & LB_RF_REMAPPED)
		lbt_puts(o, ",\"remapped\":true");
	if (r->flags & LB_RF_HAZARD)
		lbt_puts(o, ",\"hazard\":true");
	if (r->flags & LB_RF_GRIDZ_SAT)
		lbt_puts(o, ",\"grid_z_saturated\":true");
}

/* One frame as a string: "name+0xoff [0xpc]", "?? [0xpc]", with
 * " (guess)" after the offset when the name is another function's. */
static void json_frame(struct lbt_out *o, const struct lbt_frame *f)
{
	lbt_putc(o, '"');
	if (f->name[0]) {
		lbt_put_json_chars(o, f->demangled);
		lbt_puts(o, "+");
		lbt_put_hex(o, f->offset);
		if (f->guess)
			lbt_puts(o, " (guess)");
	} else {
		lbt_puts(o, "??");
	}
	lbt_puts(o, " [");
	lbt_put_hex(o, f->pc);
	lbt_puts(o, "]\"");
}

static void crash(struct lbt_out *o, const struct lbt_crash *c)
{
	const char *cn = lbt_si_code_name(c->signo, c->code);
	uint32_t i;

	key(o, "signal");
	lbt_put_json_str(o, lbt_signal_name(c->signo));
	key_u64(o, "signo", c->signo);
	key(o, "code");
	lbt_put_i64(o, c->code);
	key(o, "code_name");
	lbt_put_json_str(o, cn);
	key_hex(o, "addr", c->addr);
	key(o, "frames");
	lbt_putc(o, '[');
	for (i = 0; i < c->nframes; i++) {
		if (i)
			lbt_putc(o, ',');
		json_frame(o, &c->frames[i]);
	}
	lbt_putc(o, ']');
}

static void other(struct lbt_out *o, const struct lbt_rec *r)
{
	const uint64_t *a = r->raw->a;
	const char *s;

	switch (r->type) {
	case LB_REC_CRASH:
		if (r->crash)
			crash(o, r->crash);
		break;
	case LB_REC_LOST:
		key_u64(o, "lost", a[0]);
		break;
	case LB_REC_POOL:
		key_u64(o, "hits", r->raw->stream);
		key_u64(o, "misses", r->raw->stream_used);
		key_u64(o, "reserved_peak", a[0]);
		key_u64(o, "in_use_peak", a[1]);
		key_u64(o, "chunks", (uint32_t)a[2]);
		key_u64(o, "pending_frees", (uint32_t)(a[2] >> 32));
		break;
	case LB_REC_STREAM0:
		key_u64(o, "of_tid", r->raw->stream);
		key_u64(o, "syncs", a[0]);
		key_u64(o, "hazards", a[1]);
		break;
	case LB_REC_THREAD:
		s = (uint32_t)a[0] ? lbt_string(r->file, (uint32_t)a[0]) : NULL;
		key(o, "name");
		lbt_put_json_str(o, s);
		lbt_puts(o,
			 r->note == 1 ? ",\"exit\":true" : ",\"exit\":false");
		break;
	}
}

static void *json_begin(struct lbt_set *set, struct lbt_out *o,
			const struct lbt_opts *opt)
{
	(void)set;
	(void)opt;
	return o;
}

static void json_record(void *p, const struct lbt_rec *r)
{
	struct lbt_out *o = p;
	const char *rn = NULL;
	uint32_t tid = r->thread->tid;

	if (r->type == LB_REC_CALL && !r->in_flight)
		rn = lbt_ret_name(r);
	else if (r->type == LB_REC_CRASH)
		rn = lbt_signal_name(r->ret);
	if (r->type == LB_REC_CRASH && r->crash)
		tid = r->crash->tid;
	lbt_puts(o, "{\"type\":\"");
	lbt_puts(o, type_name(r->type));
	lbt_putc(o, '"');
	key_u64(o, "seq", r->seq);
	key_u64(o, "pid", r->file->hdr.pid);
	key_u64(o, "tid", tid);
	key(o, "api");
	lbt_put_json_str(o, r->api_name);
	key(o, "ret");
	lbt_put_i64(o, r->ret);
	key(o, "ret_name");
	lbt_put_json_str(o, rn);
	key(o, "t_ns");
	lbt_put_i64(o, r->t_ns);
	key(o, "dur_ns");
	lbt_put_i64(o, r->dur_ns);
	if (r->type == LB_REC_CALL)
		call(o, r);
	else
		other(o, r);
	lbt_puts(o, "}\n");
}

static int json_end(void *p)
{
	(void)p;
	return 0;
}

const struct lbt_fmt lbt_fmt_json = {
    .name = "json",
    .mode = LBT_ORDERED,
    .filtered = 1,
    .begin = json_begin,
    .record = json_record,
    .end = json_end,
};
