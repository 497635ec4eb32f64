/*
 * fmt_json.c - `lbtrace print --json`: one JSON object per line.  Every
 * object starts with type, seq, pid, tid, api, ret, ret_name, t_ns and
 * dur_ns (CONTRACT.md), then the record's fields (fields.c) that show in
 * JSON; pointers and streams are "0x..." strings.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "format/fmt.h"
#include "lbshim/names.h"
#include "format/kargs.h"

static const char *type_name(unsigned t)
{
	static const char *const names[LB_REC_TYPE_MAX] = {
	    [LB_REC_CALL] = "call",	  [LB_REC_STRING] = "string",
	    [LB_REC_CRASH] = "crash",	  [LB_REC_FRAME] = "frame",
	    [LB_REC_LOST] = "lost",	  [LB_REC_POOL] = "pool",
	    [LB_REC_STREAM0] = "stream0", [LB_REC_THREAD] = "thread",
	    [LB_REC_KINFO] = "kinfo",	  [LB_REC_KARGS] = "kargs",
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

/* A field's value, as JSON. */
static void put_value(struct lbt_out *o, const struct lbt_field *f)
{
	uint32_t i;

	switch (f->type) {
	case LBT_F_HEX:
		lbt_putc(o, '"');
		lbt_put_hex(o, f->v);
		lbt_putc(o, '"');
		break;
	case LBT_F_U64:
	case LBT_F_US:
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
	case LBT_F_BOOL:
		lbt_puts(o, f->v ? "true" : "false");
		break;
	case LBT_F_ARGS: {
		struct lbt_kargs k;

		if (lbt_kargs_of(f->rec, &k))
			lbt_kargs_put_json(o, &k);
		else
			lbt_puts(o, "null");
		break;
	}
	case LBT_F_FRAMES:
		lbt_putc(o, '[');
		for (i = 0; i < f->crash->nframes; i++) {
			if (i)
				lbt_putc(o, ',');
			json_frame(o, &f->crash->frames[i]);
		}
		lbt_putc(o, ']');
		break;
	default:
		lbt_puts(o, "null");
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
	struct lbt_field_iter it;
	const struct lbt_field *f;
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
	lbt_fields_start(&it, r);
	while ((f = lbt_fields_next(&it, LBT_SHOW_JSON))) {
		key(o, f->key);
		put_value(o, f);
	}
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
