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

/* ,"K": at P (K is one of the formats' own keys: plain ASCII). */
static inline char *w_key(char *p, const struct lbt_field *f)
{
	p = lbt_w_lit(p, ",\"");
	p = f->klen <= 32 ? lbt_w_small(p, f->key, f->klen)
			   : lbt_w_mem(p, f->key, f->klen);
	return lbt_w_lit(p, "\":");
}

/* Longest key the fields have, with its quotes, comma and colon, plus a
 * number: room that one numeric field needs (and each stretch of
 * json_record between two calls of more()). */
#define KEY_ROOM (64 + LBT_NUM_MAX * 3 + 8)

static void put_float(struct lbt_out *o, uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	if (isfinite(f))
		lbt_printf(o, "%.9g", (double)f);
	else
		lbt_puts(o, "null");
}

void lbt_json_frame(struct lbt_out *o, const struct lbt_frame *f)
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

/* A field's value, as JSON: numbers through the cursor P (room
 * KEY_ROOM), the rest through O; returns the cursor to go on with. */
static char *put_value(struct lbt_out *o, char *p, const struct lbt_field *f)
{
	uint32_t i;

	switch (f->type) {
	case LBT_F_HEX:
		*p++ = '"';
		p = lbt_w_hex(p, f->v);
		*p++ = '"';
		return p;
	case LBT_F_U64:
	case LBT_F_US:
		return lbt_w_u64(p, f->v);
	case LBT_F_I64:
		return lbt_w_i64(p, (int64_t)f->v);
	case LBT_F_DIM3:
		*p++ = '[';
		p = lbt_w_u64(p, f->d[0]);
		*p++ = ',';
		p = lbt_w_u64(p, f->d[1]);
		*p++ = ',';
		p = lbt_w_u64(p, f->d[2]);
		*p++ = ']';
		return p;
	case LBT_F_BOOL:
		return f->v ? lbt_w_lit(p, "true") : lbt_w_lit(p, "false");
	default:
		break;
	}
	lbt_end(o, p);
	switch (f->type) {
	case LBT_F_STR:
		lbt_put_json_str(o, f->s);
		break;
	case LBT_F_MS:
		put_float(o, (uint32_t)f->v);
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
			lbt_json_frame(o, &f->crash->frames[i]);
		}
		lbt_putc(o, ']');
		break;
	default:
		lbt_puts(o, "null");
		break;
	}
	return o->buf + o->len;
}

/*
 * Names shown on every record (the API's, the return code's, a call's
 * string fields) checked once each: kept by address, since they live as
 * long as the set and never change (reader.h: api_name; the return
 * codes', kinds' and pool results' tables are static; kernel names are
 * the file's strings).
 */
struct name_ent {
	const char *s;
	uint32_t n;
	char t[32]; /* (what lbt_json_plain_small and lbt_w_small take) */
};

struct json {
	struct lbt_out *o;
	struct name_ent names[64];
};

/* Takes what was written up to P; a cursor with room KEY_ROOM again. */
static inline char *more(struct lbt_out *o, char *p)
{
	lbt_end(o, p);
	return lbt_room(o, KEY_ROOM);
}

/* "S" (or null) at P, with room KEY_ROOM; returns the cursor. */
static char *w_name(struct json *j, char *p, const char *s)
{
	/* hashed: names of one table sit 8 or 16 bytes apart, and the
	 * low bits of their addresses alone made half the lookups miss */
	struct name_ent *e =
		&j->names[(uintptr_t)s * 0x9e3779b97f4a7c15ull >> 58];
	size_t n;

	if (!s)
		return lbt_w_lit(p, "null");
	if (e->s != s) {
		n = strlen(s);
		if (n > sizeof(e->t) || !lbt_json_plain_small(s, n)) {
			lbt_end(j->o, p);
			lbt_put_json_str(j->o, s);
			return lbt_room(j->o, KEY_ROOM);
		}
		memcpy(e->t, s, n);
		e->n = (uint32_t)n;
		e->s = s;
	}
	*p++ = '"';
	p = lbt_w_small(p, e->t, e->n);
	*p++ = '"';
	return p;
}

static void *json_begin(struct lbt_set *set, struct lbt_out *o,
			const struct lbt_opts *opt)
{
	struct json *j = calloc(1, sizeof(*j));

	(void)set;
	(void)opt;
	if (j)
		j->o = o;
	return j;
}

static void json_record(void *st, const struct lbt_rec *r)
{
	struct json *j = st;
	struct lbt_out *o = j->o;
	struct lbt_field_iter it;
	const struct lbt_field *f;
	const char *rn = NULL;
	uint32_t tid = r->thread->tid;
	const char *tn;
	char *p;
	int i;

	if (r->type == LB_REC_CALL && !r->in_flight)
		rn = lbt_ret_name(r);
	else if (r->type == LB_REC_CRASH)
		rn = lbt_signal_name(r->ret);
	if (r->type == LB_REC_CRASH && r->crash)
		tid = r->crash->tid;
	p = lbt_room(o, KEY_ROOM);
	if (r->type == LB_REC_CALL) {
		p = lbt_w_lit(p, "{\"type\":\"call\",\"seq\":");
	} else {
		tn = type_name(r->type);
		p = lbt_w_lit(p, "{\"type\":\"");
		p = lbt_w_mem(p, tn, strlen(tn));
		p = lbt_w_lit(p, "\",\"seq\":");
	}
	p = lbt_w_u64(p, r->seq);
	p = lbt_w_lit(p, ",\"pid\":");
	p = lbt_w_u64(p, r->file->hdr.pid);
	p = lbt_w_lit(p, ",\"tid\":");
	p = lbt_w_u64(p, tid);
	p = lbt_w_lit(p, ",\"api\":");
	p = w_name(j, p, r->api_name);
	p = more(o, p);
	p = lbt_w_lit(p, ",\"ret\":");
	p = lbt_w_i64(p, r->ret);
	p = lbt_w_lit(p, ",\"ret_name\":");
	p = w_name(j, p, rn);
	p = more(o, p);
	p = lbt_w_lit(p, ",\"t_ns\":");
	p = lbt_w_i64(p, r->t_ns);
	p = lbt_w_lit(p, ",\"dur_ns\":");
	p = lbt_w_i64(p, r->dur_ns);
	lbt_fields_start(&it, r);
	for (i = 0; i < it.n; i++) {
		f = &it.f[i];
		if (!(f->show & LBT_SHOW_JSON))
			continue;
		p = w_key(more(o, p), f);
		/* a call's strings (its kind, copy kind, pool result,
		 * kernel names) live as long as the set: checked once */
		if (f->type == LBT_F_STR && r->type == LB_REC_CALL)
			p = w_name(j, p, f->s);
		else
			p = put_value(o, p, f);
	}
	lbt_end(o, p);
	lbt_puts(o, "}\n");
}

static int json_end(void *p)
{
	free(p);
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
