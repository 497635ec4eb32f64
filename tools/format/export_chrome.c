/*
 * export_chrome.c - `lbtrace export --format chrome`: the Trace Event
 * JSON that Perfetto and chrome://tracing load.
 *
 * Each process is a track group (pid) with one track per thread (tid) and
 * an "X" slice per call.  Each process also gets a second group, "streams
 * of <pid>", with one track per stream on which its launches, copies and
 * sets appear, named by kernel.  The trace has no device timestamps: a
 * stream slice covers the call that enqueued the work, moved later when
 * needed so that slices of one stream never overlap.
 */
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "format/fmt.h"
#include "lbshim/names.h"
#include "format/kargs.h"

#define MAX_STREAMS 4096 /* per file; more share the last track */
#define STREAM_PID_BIT 0x40000000u

struct stream_track {
	uint64_t handle;
	int64_t end_ns; /* end of its last slice */
};

struct file_streams {
	uint32_t cpid; /* pid used in the JSON (unique in set) */
	uint32_t n;
	struct stream_track *t;
};

struct chrome {
	struct lbt_set *set;
	struct lbt_out *o;
	struct file_streams *fs;
	int oom;
};

static void meta(struct lbt_out *o, const char *what, uint32_t pid, int has_tid,
		 uint32_t tid, const char *name, uint32_t num)
{
	lbt_printf(o, ",\n{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%u", what, pid);
	if (has_tid)
		lbt_printf(o, ",\"tid\":%u", tid);
	lbt_puts(o, ",\"args\":{\"name\":\"");
	lbt_put_json_chars(o, name);
	if (num)
		lbt_printf(o, " (%u)", num);
	lbt_puts(o, "\"}}");
}

static uint32_t unique_pid(struct chrome *c, int i, uint32_t pid)
{
	int j;

	for (j = 0; j < i; j++)
		if (c->fs[j].cpid == pid) {
			pid += 0x1000000;
			j = -1; /* check again from the start */
		}
	return pid;
}

static void *chrome_begin(struct lbt_set *set, struct lbt_out *o,
			  const struct lbt_opts *opt)
{
	struct chrome *c = calloc(1, sizeof(*c));
	int i, n = lbt_set_nfiles(set);
	uint32_t t;

	(void)opt;
	if (!c || !(c->fs = calloc(n ? n : 1, sizeof(*c->fs)))) {
		free(c);
		return NULL;
	}
	c->set = set;
	c->o = o;
	lbt_puts(o, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
		    "{\"ph\":\"M\",\"name\":\"lbtrace\",\"pid\":0,"
		    "\"args\":{\"name\":\"lbtrace\"}}");
	for (i = 0; i < n; i++) {
		const struct lbt_file *f = lbt_set_file(set, i);
		char name[96];
		const char *cmd =
		    f->hdr.cmdline[0] ? f->hdr.cmdline : "process";
		size_t k = strcspn(cmd, " ");

		c->fs[i].cpid = unique_pid(c, i, f->hdr.pid & 0xffffff);
		snprintf(name, sizeof(name), "%.*s pid %u",
			 (int)(k > 64 ? 64 : k), cmd, f->hdr.pid);
		meta(o, "process_name", c->fs[i].cpid, 0, 0, name, 0);
		snprintf(name, sizeof(name), "streams of %u", f->hdr.pid);
		meta(o, "process_name", c->fs[i].cpid | STREAM_PID_BIT, 0, 0,
		     name, 0);
		for (t = 0; t < f->nthreads; t++)
			meta(o, "thread_name", c->fs[i].cpid, 1,
			     f->threads[t].tid,
			     lbt_thread_name(f, &f->threads[t]),
			     f->threads[t].tid);
	}
	return c;
}

/* Track number (1-based) of stream H in file FS, made if new. */
static uint32_t track_of(struct chrome *c, struct file_streams *fs, uint64_t h)
{
	uint32_t i;

	for (i = 0; i < fs->n; i++)
		if (fs->t[i].handle == h)
			return i + 1;
	if (!fs->t && !(fs->t = calloc(MAX_STREAMS, sizeof(*fs->t)))) {
		c->oom = 1;
		return 0;
	}
	if (fs->n == MAX_STREAMS)
		return MAX_STREAMS;
	fs->t[fs->n].handle = h;
	fs->t[fs->n].end_ns = INT64_MIN;
	return ++fs->n;
}

static void put_ms(struct lbt_out *o, uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	lbt_printf(o, "\"%.6g\"", (double)f); /* a string: NaN stays valid */
}

static void put_args(struct lbt_out *o, const struct lbt_rec *r)
{
	struct lbt_field fl[LBT_MAX_FIELDS];
	int n = lbt_call_fields(r, fl, 1), i;
	const char *rn = lbt_ret_name(r);

	lbt_puts(o, ",\"args\":{\"ret\":\"");
	if (rn)
		lbt_puts(o, rn);
	else
		lbt_put_i64(o, r->ret);
	lbt_printf(o, "\",\"seq\":%llu", (unsigned long long)r->seq);
	if (r->in_flight)
		lbt_puts(o, ",\"in_flight\":true");
	for (i = 0; i < n; i++) {
		lbt_printf(o, ",\"%s\":", fl[i].key);
		switch (fl[i].type) {
		case LBT_F_STR:
			lbt_put_json_str(o, fl[i].s);
			break;
		case LBT_F_DIM3:
			lbt_printf(o, "\"%u,%u,%u\"", fl[i].d[0], fl[i].d[1],
				   fl[i].d[2]);
			break;
		case LBT_F_U64:
			lbt_printf(o, "\"%llu\"", (unsigned long long)fl[i].v);
			break;
		case LBT_F_I64:
			lbt_printf(o, "\"%lld\"", (long long)fl[i].v);
			break;
		case LBT_F_MS:
			put_ms(o, (uint32_t)fl[i].v);
			break;
		case LBT_F_ARGS: {
			struct lbt_kargs k;

			if (lbt_kargs_of(fl[i].rec, &k))
				lbt_kargs_put_json(o, &k);
			else
				lbt_puts(o, "null");
			break;
		}
		default:
			lbt_putc(o, '"');
			lbt_put_hex(o, fl[i].v);
			lbt_putc(o, '"');
			break;
		}
	}
	if (lbt_has_stream(r)) {
		lbt_puts(o, ",\"stream\":\"");
		lbt_put_hex(o, r->raw->stream);
		lbt_puts(o, "\"");
	}
	lbt_puts(o, "}}");
}

static void slice(struct lbt_out *o, const char *name, const char *cat,
		  uint32_t pid, uint32_t tid, int64_t ts, int64_t dur)
{
	lbt_puts(o, ",\n{\"ph\":\"X\",\"name\":");
	lbt_put_json_str(o, name);
	lbt_puts(o, ",\"cat\":");
	lbt_put_json_str(o, cat);
	lbt_printf(o, ",\"pid\":%u,\"tid\":%u,\"ts\":", pid, tid);
	lbt_put_fixed(o, ts, 1000, 3);
	lbt_puts(o, ",\"dur\":");
	lbt_put_fixed(o, dur, 1000, 3);
}

/* Work that runs on a stream: launches, copies and sets that worked. */
static int on_stream(const struct lbt_rec *r)
{
	if (r->api < 0 || r->ret || r->in_flight)
		return 0;
	if (r->kind != LB_KIND_LAUNCH && r->kind != LB_KIND_COPY &&
	    r->kind != LB_KIND_SET)
		return 0;
	return lb_api_info[r->api].stream_idx >= 0 ||
	       (lb_api_info[r->api].flags & LB_F_NULLSYNC);
}

static void stream_slice(struct chrome *c, const struct lbt_rec *r)
{
	struct file_streams *fs = &c->fs[r->file->index];
	uint64_t h =
	    r->flags & LB_RF_REMAPPED ? r->raw->stream_used : r->raw->stream;
	uint32_t tr = track_of(c, fs, h);
	const char *k = lbt_rec_kernel(r, 1);
	int64_t ts = r->t_ns;

	if (!tr)
		return;
	if (fs->t[tr - 1].end_ns > ts)
		ts = fs->t[tr - 1].end_ns;
	fs->t[tr - 1].end_ns = ts + r->dur_ns;
	if (!k)
		k = r->api_name;
	slice(c->o, k, lb_kind_name(r->kind), fs->cpid | STREAM_PID_BIT, tr, ts,
	      r->dur_ns);
	put_args(c->o, r);
}

static void instant(struct chrome *c, const struct lbt_rec *r, const char *name)
{
	struct lbt_out *o = c->o;
	uint32_t i;

	lbt_puts(o, ",\n{\"ph\":\"i\",\"s\":\"p\",\"name\":");
	lbt_put_json_str(o, name);
	lbt_printf(o,
		   ",\"pid\":%u,\"tid\":%u,\"ts\":", c->fs[r->file->index].cpid,
		   r->thread->tid);
	lbt_put_fixed(o, r->t_ns, 1000, 3);
	lbt_puts(o, ",\"args\":{");
	if (r->type == LB_REC_LOST) {
		lbt_printf(o, "\"lost\":%llu",
			   (unsigned long long)r->raw->a[0]);
	} else if (r->crash) {
		lbt_puts(o, "\"addr\":\"");
		lbt_put_hex(o, r->crash->addr);
		lbt_puts(o, "\",\"frames\":[");
		for (i = 0; i < r->crash->nframes; i++) {
			if (i)
				lbt_putc(o, ',');
			lbt_json_frame(o, &r->crash->frames[i]);
		}
		lbt_putc(o, ']');
	}
	lbt_puts(o, "}}");
}

static void chrome_record(void *p, const struct lbt_rec *r)
{
	struct chrome *c = p;
	const char *sn;

	switch (r->type) {
	case LB_REC_CALL:
		slice(c->o, r->api_name,
		      r->kind >= 0 ? lb_kind_name(r->kind) : "other",
		      c->fs[r->file->index].cpid, r->thread->tid, r->t_ns,
		      lbt_shown_dur(r));
		put_args(c->o, r);
		if (on_stream(r))
			stream_slice(c, r);
		break;
	case LB_REC_CRASH:
		sn = lbt_signal_name(r->ret);
		instant(c, r, sn ? sn : "crash");
		break;
	case LB_REC_LOST:
		instant(c, r, "records lost");
		break;
	}
}

static int chrome_end(void *p)
{
	struct chrome *c = p;
	int i, rc = 0;
	uint32_t t;
	char name[40];

	for (i = 0; i < lbt_set_nfiles(c->set); i++) {
		struct file_streams *fs = &c->fs[i];

		for (t = 0; t < fs->n; t++) {
			if (fs->t[t].handle)
				snprintf(name, sizeof(name), "stream 0x%llx",
					 (unsigned long long)fs->t[t].handle);
			else
				snprintf(name, sizeof(name), "null stream");
			meta(c->o, "thread_name", fs->cpid | STREAM_PID_BIT, 1,
			     t + 1, name, 0);
		}
		free(fs->t);
	}
	lbt_puts(c->o, "\n]}\n");
	if (c->oom) {
		fputs("lbtrace: export: out of memory\n", stderr);
		rc = 2;
	}
	free(c->fs);
	free(c);
	return rc;
}

const struct lbt_fmt lbt_fmt_chrome = {
    .name = "chrome",
    .mode = LBT_ORDERED,
    .filtered = 1,
    .begin = chrome_begin,
    .record = chrome_record,
    .end = chrome_end,
};
