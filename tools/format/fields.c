/*
 * fields.c - what a call record's a[] means, by the kind of its API
 * (the table in trace_format.h), as a list of named fields that the text,
 * JSON and Chrome formats each render their own way.
 */
#include <string.h>
#include "lbshim/api.h"
#include "format/fmt.h"
#include "lbshim/names.h"

const char *lbt_pool_name(unsigned note)
{
	switch (note) {
	case LB_POOL_OFF:
		return "off";
	case LB_POOL_HIT:
		return "hit";
	case LB_POOL_MISS:
		return "miss";
	}
	return "?";
}

const char *lbt_ret_name(const struct lbt_rec *r)
{
	return lbt_hip_error_name(r->ret);
}

int lbt_rec_is_error(const struct lbt_rec *r)
{
	if (r->type != LB_REC_CALL || !r->ret)
		return 0;
	/* "not ready" is how queries answer, not a failure */
	return !(r->ret == 600 && (r->api == LB_ID_hipStreamQuery ||
				   r->api == LB_ID_hipStreamQuery_spt ||
				   r->api == LB_ID_hipEventQuery));
}

int lbt_has_stream(const struct lbt_rec *r)
{
	if (r->api < 0)
		return r->raw->stream || r->raw->stream_used;
	return lb_api_info[r->api].stream_idx >= 0;
}

static struct lbt_field *put(struct lbt_field *f, const char *key, int type,
			     uint64_t v)
{
	f->key = key;
	f->type = type;
	f->v = v;
	f->s = NULL;
	return f + 1;
}

static struct lbt_field *put_str(struct lbt_field *f, const char *key,
				 const char *s)
{
	f = put(f, key, LBT_F_STR, 0);
	f[-1].s = s;
	return f;
}

static struct lbt_field *put_dim(struct lbt_field *f, const char *key,
				 const uint32_t d[3])
{
	f = put(f, key, LBT_F_DIM3, 0);
	memcpy(f[-1].d, d, sizeof(f[-1].d));
	return f;
}

static struct lbt_field *launch(const struct lbt_rec *r, struct lbt_field *f,
				int demangled)
{
	struct lbt_launch l;

	lbt_rec_launch(r, &l);
	if (r->api == LB_ID_hipLaunchHostFunc ||
	    r->api == LB_ID_hipStreamAddCallback) {
		f = put(f, "fn", LBT_F_HEX, l.fn);
		f = put(f, "data", LBT_F_HEX, r->raw->a[1]);
		if (r->raw->a[2])
			f = put(f, "flags", LBT_F_HEX, r->raw->a[2]);
		return f;
	}
	if (r->api == LB_ID_hipGraphLaunch)
		return put(f, "graph", LBT_F_HEX, r->raw->a[0]);
	if (l.kernel_sid) {
		f = put_str(f, "kernel", lbt_rec_kernel(r, demangled));
		if (!f[-1].s)
			f = put(f - 1, "kernel_id", LBT_F_U64, l.kernel_sid);
	}
	f = put_dim(f, "grid", l.grid);
	f = put_dim(f, "block", l.block);
	return put(f, "shmem", LBT_F_U64, l.shmem);
}

static struct lbt_field *event(const struct lbt_rec *r, struct lbt_field *f)
{
	const uint64_t *a = r->raw->a;

	if (r->api == LB_ID_hipEventElapsedTime) {
		f = put(f, "start", LBT_F_HEX, a[0]);
		f = put(f, "stop", LBT_F_HEX, a[1]);
		return put(f, "ms", LBT_F_MS, (uint32_t)a[2]);
	}
	f = put(f, "event", LBT_F_HEX, a[0]);
	if (a[1])
		f = put(f, "flags", LBT_F_HEX, a[1]);
	return f;
}

static struct lbt_field *copy(const struct lbt_rec *r, struct lbt_field *f)
{
	const uint64_t *a = r->raw->a;
	const char *k;

	f = put(f, "dst", LBT_F_HEX, a[0]);
	f = put(f, "src", LBT_F_HEX, a[1]);
	f = put(f, "size", LBT_F_U64, a[2]);
	if (r->api == LB_ID_hipMemPrefetchAsync)
		return f;
	k = lbt_memcpy_kind_name(r->note);
	if (k)
		return put_str(f, "copy_kind", k);
	return put(f, "copy_kind", LBT_F_U64, r->note);
}

static struct lbt_field *stream(const struct lbt_rec *r, struct lbt_field *f)
{
	const uint64_t *a = r->raw->a;

	switch (r->api) {
	case LB_ID_hipStreamCreateWithPriority:
		f = put(f, "handle", LBT_F_HEX, a[0]);
		f = put(f, "flags", LBT_F_HEX, a[1]);
		return put(f, "priority", LBT_F_I64,
			   (uint64_t)(int64_t)(int32_t)a[2]);
	case LB_ID_hipStreamCreateWithFlags:
		f = put(f, "handle", LBT_F_HEX, a[0]);
		return put(f, "flags", LBT_F_HEX, a[1]);
	case LB_ID_hipStreamCreate:
		return put(f, "handle", LBT_F_HEX, a[0]);
	case LB_ID_hipStreamGetFlags:
	case LB_ID_hipStreamGetFlags_spt:
		return put(f, "flags", LBT_F_HEX, a[1]);
	case LB_ID_hipStreamGetPriority:
	case LB_ID_hipStreamGetPriority_spt:
		return put(f, "priority", LBT_F_I64,
			   (uint64_t)(int64_t)(int32_t)a[2]);
	case LB_ID_hipStreamBeginCapture:
		return put(f, "mode", LBT_F_U64, a[1]);
	case LB_ID_hipStreamEndCapture:
		return put(f, "graph", LBT_F_HEX, a[1]);
	case LB_ID_hipStreamIsCapturing:
		return put(f, "status", LBT_F_U64, a[1]);
	}
	return f; /* hipStreamDestroy: the stream says it all */
}

static struct lbt_field *alloc(const struct lbt_rec *r, struct lbt_field *f)
{
	const uint64_t *a = r->raw->a;

	f = put(f, "ptr", LBT_F_HEX, a[0]);
	if (r->kind == LB_KIND_ALLOC) {
		f = put(f, "size", LBT_F_U64, a[1]);
		if (r->api == LB_ID_hipMallocPitch)
			f = put(f, "pitch", LBT_F_U64, a[2]);
		else if (a[2])
			f = put(f, "flags", LBT_F_HEX, a[2]);
	}
	return put_str(f, "pool", lbt_pool_name(r->note));
}

int lbt_call_fields(const struct lbt_rec *r, struct lbt_field *out,
		    int demangled)
{
	const uint64_t *a = r->raw->a;
	struct lbt_field *f = out;
	const char *s;

	switch (r->kind) {
	case LB_KIND_LAUNCH:
		f = launch(r, f, demangled);
		break;
	case LB_KIND_ALLOC:
	case LB_KIND_FREE:
		f = alloc(r, f);
		break;
	case LB_KIND_COPY:
		f = copy(r, f);
		break;
	case LB_KIND_SET:
		f = put(f, "dst", LBT_F_HEX, a[0]);
		f = put(f, "value", LBT_F_U64, a[1]);
		f = put(f, "size", LBT_F_U64, a[2]);
		break;
	case LB_KIND_EVENT:
		f = event(r, f);
		break;
	case LB_KIND_STREAM:
		f = stream(r, f);
		break;
	case LB_KIND_SYNC:
		if (r->api == LB_ID_hipEventSynchronize)
			f = put(f, "event", LBT_F_HEX, a[0]);
		break;
	case LB_KIND_DEVICE:
		if (r->api != LB_ID_hipDeviceReset)
			f = put(f, "device_id", LBT_F_I64,
				(uint64_t)(int64_t)(int32_t)a[0]);
		break;
	case LB_KIND_REG:
		f = put(f, "handle", LBT_F_HEX, a[0]);
		s = (uint32_t)a[1]
			? lbt_string_demangled(r->file, (uint32_t)a[1])
			: NULL;
		if (s)
			f = put_str(f, "name", s);
		if (a[2])
			f = put(f, "data", LBT_F_HEX, a[2]);
		break;
	default:
		/* OTHER, or an API this lbtrace does not know */
		f = put(f, r->kind == LB_KIND_OTHER ? "ptr" : "a0", LBT_F_HEX,
			a[0]);
		f = put(f, r->kind == LB_KIND_OTHER ? "value" : "a1", LBT_F_HEX,
			a[1]);
		f = put(f, r->kind == LB_KIND_OTHER ? "extra" : "a2", LBT_F_HEX,
			a[2]);
		break;
	}
	return f - out;
}
