/*
 * fields.c - what a record says, as a list of named fields that the text,
 * JSON and Chrome formats each render their own way: a call's a[] by the
 * kind of its API (the table in trace_format.h), its streams and flags;
 * the counts of the statistics records; a crash's signal and frames.
 */
#include <string.h>
#include "lbshim/api.h"
#include "format/fmt.h"
#include "lbshim/names.h"
#include "format/kinfo.h"
#include "format/cuda_names.h"

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

/*
 * A code is named in its row's vendor's words: CUresult for the driver's
 * rows, cudaError_t for the runtime's, hipError_t for HIP's; an API this
 * lbtrace does not know, in those of the runtime its file names.
 */
const char *lbt_ret_name(const struct lbt_rec *r)
{
	int cuda = r->api >= 0 ? LB_API_IS_CUDA(r->api)
			       : r->file && r->file->runtime == LB_RT_CUDA;

	if (!cuda)
		return lbt_hip_error_name(r->ret);
	return lbt_api_is_cu_driver(r->api) ? lbt_cu_result_name(r->ret)
					    : lbt_cuda_error_name(r->ret);
}

int lbt_rec_is_error(const struct lbt_rec *r)
{
	if (r->type != LB_REC_CALL || !r->ret)
		return 0;
	/*
	 * "not ready" is how queries answer, not a failure: 600 in each
	 * vendor's enum (hipErrorNotReady, hip_runtime_api.h of ROCm 5.2;
	 * cudaErrorNotReady, driver_types.h:767, and CUDA_ERROR_NOT_READY,
	 * cuda.h:2828, of CUDA 13.0)
	 */
	return !(r->ret == 600 && lbt_api_is_query(r->api));
}

int lbt_has_stream(const struct lbt_rec *r)
{
	if (r->api < 0)
		return r->raw->stream || r->raw->stream_used;
	return lb_api_info[r->api].stream_idx >= 0;
}

/*
 * The keys of call arguments that call_rec() treats apart, recognised by
 * their address (one string each, so no comparison of text per field).
 */
static const char key_kernel[] = "kernel", key_args[] = "args",
		  key_copy_kind[] = "copy_kind";

static struct lbt_field *put(struct lbt_field *f, const char *key, int type,
			     uint64_t v)
{
	f->key = key;
	f->klen = key ? (uint8_t)strlen(key) : 0; /* (a literal: folded) */
	f->type = type;
	f->v = v;
	f->s = NULL;
	f->rec = NULL;
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
	unsigned role = lb_api_info[r->api].role;
	struct lbt_launch l;

	lbt_rec_launch(r, &l);
	if (role == LB_ROLE_HOST_FN || role == LB_ROLE_CALLBACK) {
		f = put(f, "fn", LBT_F_HEX, l.fn);
		f = put(f, "data", LBT_F_HEX, r->raw->a[1]);
		if (r->raw->a[2])
			f = put(f, "flags", LBT_F_HEX, r->raw->a[2]);
		return f;
	}
	if (role == LB_ROLE_GRAPH_LAUNCH)
		return put(f, "graph", LBT_F_HEX, r->raw->a[0]);
	/* a kernel launch's entry record holds no arguments */
	if (!r->raw->t1 && !(r->flags & LB_RF_INFLIGHT) && !r->raw->a[0] &&
	    !r->raw->a[1] && !r->raw->a[2])
		return f;
	if (l.kernel_sid) {
		f = put_str(f, key_kernel, lbt_rec_kernel(r, demangled));
		if (!f[-1].s)
			f = put(f - 1, "kernel_id", LBT_F_U64, l.kernel_sid);
	}
	if (r->has_kargs) {
		f = put(f, key_args, LBT_F_ARGS, 0);
		f[-1].rec = r;
	}
	f = put_dim(f, "grid", l.grid);
	f = put_dim(f, "block", l.block);
	return put(f, "shmem", LBT_F_U64, l.shmem);
}

static struct lbt_field *event(const struct lbt_rec *r, struct lbt_field *f)
{
	const uint64_t *a = r->raw->a;

	if (lb_api_info[r->api].role == LB_ROLE_EVENT_ELAPSED) {
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
	if (lb_api_info[r->api].role == LB_ROLE_PREFETCH)
		return f;
	k = LB_API_IS_CUDA(r->api) ? lbt_cuda_memcpy_kind_name(r->note)
				   : lbt_memcpy_kind_name(r->note);
	if (k)
		return put_str(f, key_copy_kind, k);
	return put(f, key_copy_kind, LBT_F_U64, r->note);
}

/* A stream call's fields by its role and its arguments' (roles.h). */
static struct lbt_field *stream(const struct lbt_rec *r, struct lbt_field *f)
{
	const uint64_t *a = r->raw->a;
	int api = r->api;

	switch (lb_api_info[api].role) {
	case LB_ROLE_STREAM_CREATE:
		f = put(f, "handle", LBT_F_HEX, a[0]);
		if (lb_ar_has(api, LB_AR_FLAGS))
			f = put(f, "flags", LBT_F_HEX, a[1]);
		if (lb_ar_has(api, LB_AR_PRIORITY))
			f = put(f, "priority", LBT_F_I64,
				(uint64_t)(int64_t)(int32_t)a[2]);
		return f;
	case LB_ROLE_STREAM_GET:
		if (lb_ar_has(api, LB_AR_FLAGS_OUT))
			f = put(f, "flags", LBT_F_HEX, a[1]);
		if (lb_ar_has(api, LB_AR_PRIORITY_OUT))
			f = put(f, "priority", LBT_F_I64,
				(uint64_t)(int64_t)(int32_t)a[2]);
		return f;
	case LB_ROLE_CAPTURE_BEGIN:
		return put(f, "mode", LBT_F_U64, a[1]);
	case LB_ROLE_CAPTURE_END:
		return put(f, "graph", LBT_F_HEX, a[1]);
	case LB_ROLE_CAPTURE_STATUS:
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
		if (lb_ar_has(r->api, LB_AR_PITCH_OUT))
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
		if (lb_api_info[r->api].role == LB_ROLE_EVENT_SYNC)
			f = put(f, "event", LBT_F_HEX, a[0]);
		break;
	case LB_KIND_DEVICE:
		if (lb_api_info[r->api].role != LB_ROLE_DEVICE_RESET)
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
		if (r->kind == LB_KIND_OTHER &&
		    lb_api_info[r->api].role == LB_ROLE_PROC_ADDRESS) {
			/* trace_args.c: the address found, the symbol, the
			 * version asked for */
			f = put(f, "fn", LBT_F_HEX, a[0]);
			s = (uint32_t)a[1]
				? lbt_string(r->file, (uint32_t)a[1]) : NULL;
			if (s)
				f = put_str(f, "symbol", s);
			if (a[2])
				f = put(f, "version", LBT_F_I64, a[2]);
			break;
		}
		/* a function of no arguments (cudaGetLastError): none */
		if (r->kind == LB_KIND_OTHER && !lb_api_info[r->api].nargs)
			break;
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

/* ---- every field of a record (lbt_fields_start) ---- */

/* Appends a field; the list is long enough for every record type. */
static struct lbt_field *add(struct lbt_field_iter *it, const char *key,
			     int type, uint64_t v, unsigned show, int role,
			     const char *label)
{
	struct lbt_field *f = &it->f[it->n++];

	memset(f, 0, sizeof(*f));
	f->key = key;
	f->klen = key ? (uint8_t)strlen(key) : 0;
	f->type = (uint8_t)type;
	f->v = v;
	f->show = (uint8_t)show;
	f->role = (uint8_t)role;
	f->label = label;
	return f;
}

/* A part of a record's sentence ("%v" is the value). */
static struct lbt_field *prose(struct lbt_field_iter *it, const char *key,
			       int type, uint64_t v, unsigned show,
			       const char *label)
{
	return add(it, key, type, v, show, LBT_R_PROSE, label);
}

static void call_rec(struct lbt_field_iter *it, const struct lbt_rec *r)
{
	struct lbt_field *f;
	int n, i;
	const char *m;

	f = add(it, "api_kind", LBT_F_STR, 0, LBT_SHOW_JSON, LBT_R_ARG, NULL);
	f->s = r->kind >= 0 ? lb_kind_name(r->kind) : NULL;
	add(it, "device", LBT_F_U64, r->device, LBT_SHOW_JSON, LBT_R_ARG,
	    NULL);
	/* the arguments, made in place (the list has room for them) */
	n = lbt_call_fields(r, &it->f[it->n], 1);
	for (i = 0; i < n; i++) {
		f = &it->f[it->n++];
		f->show = LBT_SHOW_BOTH;
		f->role = LBT_R_ARG;
		f->color = 0;
		f->crash = NULL;
		f->label = f->key != key_copy_kind ? f->key : "kind";
		/* with its arguments the text shows the kernel as a call */
		if (f->key == key_args)
			f->label = "kernel";
		else if (r->has_kargs && f->key == key_kernel)
			f->show = LBT_SHOW_JSON;
		/* JSON keeps the name as recorded beside the readable one,
		 * right after it: the arguments after it move up one */
		if (f->key == key_kernel && f->s &&
		    (m = lbt_rec_kernel(r, 0)) && strcmp(m, f->s) != 0) {
			memmove(f + 2, f + 1, (n - i - 1) * sizeof(*f));
			add(it, "kernel_mangled", LBT_F_STR, 0, LBT_SHOW_JSON,
			    LBT_R_ARG, NULL)->s = m;
		}
	}
	if (lbt_has_stream(r)) {
		int remapped = !!(r->flags & LB_RF_REMAPPED);

		add(it, "stream", LBT_F_HEX, r->raw->stream, LBT_SHOW_BOTH,
		    LBT_R_ARG, "stream");
		/* the text shows the stream used only where it differs */
		add(it, "stream_used", LBT_F_HEX,
		    remapped ? r->raw->stream_used : r->raw->stream,
		    LBT_SHOW_JSON | (remapped ? LBT_SHOW_TEXT : 0), LBT_R_JOIN,
		    "->");
	}
	/* (the text says "in flight" in place of the return code) */
	if (r->in_flight)
		add(it, "in_flight", LBT_F_BOOL, 1, LBT_SHOW_JSON, LBT_R_TAG,
		    NULL);
	if (r->flags & LB_RF_ELSEWHERE)
		add(it, "on_tid", LBT_F_U64, (uint32_t)r->raw->a[2],
		    LBT_SHOW_JSON, LBT_R_TAG, NULL);
	if (r->flags & LB_RF_SERVED)
		add(it, "served", LBT_F_BOOL, 1, LBT_SHOW_BOTH, LBT_R_TAG,
		    "served");
	if (r->flags & LB_RF_REMAPPED)
		add(it, "remapped", LBT_F_BOOL, 1, LBT_SHOW_JSON, LBT_R_TAG,
		    NULL);
	if (r->flags & LB_RF_HAZARD)
		add(it, "hazard", LBT_F_BOOL, 1, LBT_SHOW_BOTH, LBT_R_TAG,
		    "hazard");
	if (r->flags & LB_RF_ORDERED)
		add(it, "ordered", LBT_F_BOOL, 1, LBT_SHOW_BOTH, LBT_R_TAG,
		    "ordered");
	if (r->flags & LB_RF_NARROWED)
		add(it, "narrowed", LBT_F_BOOL, 1, LBT_SHOW_BOTH, LBT_R_TAG,
		    "narrowed");
	if (r->has_kargs && (r->kargs.hdr.flags & LB_KF_CUT))
		add(it, "args_cut", LBT_F_BOOL, 1, LBT_SHOW_BOTH, LBT_R_TAG,
		    "args cut");
	if (r->flags & LB_RF_GRIDZ_SAT)
		add(it, "grid_z_saturated", LBT_F_BOOL, 1, LBT_SHOW_BOTH,
		    LBT_R_TAG, "grid.z saturated");
}

void lbt_crash_fields(struct lbt_field_iter *it, const struct lbt_crash *c)
{
	const char *sn = lbt_signal_name(c->signo);
	const char *cn = lbt_si_code_name(c->signo, c->code);
	struct lbt_field *f;

	it->n = it->i = 0;
	f = prose(it, "signal", LBT_F_STR, 0,
		  LBT_SHOW_JSON | (sn ? LBT_SHOW_TEXT : 0), "*** %v");
	f->s = sn;
	f->color = LBT_C_CRASH;
	if (!sn)
		prose(it, NULL, LBT_F_I64, (uint64_t)(int64_t)c->signo,
		      LBT_SHOW_TEXT, "*** signal %v")->color = LBT_C_CRASH;
	prose(it, "signo", LBT_F_U64, (uint64_t)(int64_t)c->signo,
	      LBT_SHOW_JSON, NULL);
	prose(it, "code", LBT_F_I64, (uint64_t)(int64_t)c->code,
	      LBT_SHOW_JSON, NULL);
	prose(it, "code_name", LBT_F_STR, 0,
	      LBT_SHOW_JSON | (cn ? LBT_SHOW_TEXT : 0), " (%v)")->s = cn;
	if (!cn)
		prose(it, NULL, LBT_F_I64, (uint64_t)(int64_t)c->code,
		      LBT_SHOW_TEXT, " (code %v)");
	prose(it, "addr", LBT_F_HEX, c->addr,
	      LBT_SHOW_JSON | (c->code > 0 ? LBT_SHOW_TEXT : 0),
	      " at address %v");
	if (c->code <= 0 && c->sender)
		prose(it, "sender_pid", LBT_F_U64, c->sender, LBT_SHOW_BOTH,
		      " sent by pid %v");
	prose(it, "frames", LBT_F_FRAMES, c->nframes, LBT_SHOW_BOTH,
	      c->nframes == 1 ? ", %v frame" : ", %v frames")->crash = c;
	if (c->nframes_said != c->nframes)
		prose(it, NULL, LBT_F_U64, c->nframes_said, LBT_SHOW_TEXT,
		      " (%v announced)");
}

/* A kernel's facts from its code object (format/kinfo.h). */
static void kinfo_rec(struct lbt_field_iter *it, const struct lbt_rec *r)
{
	struct lbt_kinfo k;
	const char *name, *target;

	if (!lbt_kinfo_of(r, &k)) {
		prose(it, NULL, LBT_F_NONE, 0, LBT_SHOW_TEXT,
		      "kernel facts (unreadable)");
		return;
	}
	name = lbt_kinfo_name(&k);
	target = lbt_kinfo_target(&k);
	prose(it, "kernel", LBT_F_STR, 0, LBT_SHOW_BOTH, "kernel %v")->s =
	    name ? name : "(name lost)";
	prose(it, "target", LBT_F_STR, 0, LBT_SHOW_BOTH, ": %v")->s = target;
	prose(it, "code_object", LBT_F_U64, k.version, LBT_SHOW_BOTH, " v%v");
	prose(it, "vgprs", LBT_F_U64, k.vgprs, LBT_SHOW_BOTH, ", %v VGPRs");
	prose(it, "sgprs", LBT_F_U64, k.sgprs, LBT_SHOW_BOTH, ", %v SGPRs");
	prose(it, "lds", LBT_F_U64, k.lds, LBT_SHOW_BOTH, ", %v B LDS");
	prose(it, "scratch", LBT_F_U64, k.scratch, LBT_SHOW_BOTH,
	      ", %v B scratch");
	prose(it, "wavefront", LBT_F_U64, k.wavefront, LBT_SHOW_BOTH,
	      ", wavefront %v");
	prose(it, "max_workgroup", LBT_F_U64, k.max_wg, LBT_SHOW_BOTH,
	      ", max %v threads");
	prose(it, "kernarg_size", LBT_F_U64, k.kernarg, LBT_SHOW_BOTH,
	      ", kernarg %v B");
	prose(it, "nargs", LBT_F_U64, k.nargs, LBT_SHOW_BOTH, " (%v args)");
}

void lbt_fields_start(struct lbt_field_iter *it, const struct lbt_rec *r)
{
	const uint64_t *a = r->raw->a;
	const char *s;

	it->n = it->i = 0;
	switch (r->type) {
	case LB_REC_CALL:
		call_rec(it, r);
		break;
	case LB_REC_CRASH:
		if (r->crash)
			lbt_crash_fields(it, r->crash);
		else
			prose(it, NULL, LBT_F_I64, (uint64_t)(int64_t)r->ret,
			      LBT_SHOW_TEXT,
			      "*** signal %v (crash record not kept)");
		break;
	case LB_REC_LOST:
		prose(it, "lost", LBT_F_U64, a[0], LBT_SHOW_BOTH,
		      "--- %v records lost")->color = LBT_C_ERR;
		prose(it, NULL, LBT_F_US, (uint64_t)r->dur_ns, LBT_SHOW_TEXT,
		      " over %v us");
		break;
	case LB_REC_POOL:
		prose(it, "hits", LBT_F_U64, r->raw->stream, LBT_SHOW_BOTH,
		      "pool: %v hits");
		prose(it, "misses", LBT_F_U64, r->raw->stream_used,
		      LBT_SHOW_BOTH, ", %v misses");
		prose(it, "reserved_peak", LBT_F_U64, a[0], LBT_SHOW_BOTH,
		      ", peak %v bytes reserved");
		prose(it, "in_use_peak", LBT_F_U64, a[1], LBT_SHOW_BOTH,
		      ", %v in use");
		prose(it, "chunks", LBT_F_U64, (uint32_t)a[2], LBT_SHOW_BOTH,
		      ", %v chunks");
		prose(it, "pending_frees", LBT_F_U64, (uint32_t)(a[2] >> 32),
		      LBT_SHOW_BOTH, ", %v frees found work pending");
		break;
	case LB_REC_STREAM0:
		prose(it, "of_tid", LBT_F_U64, r->raw->stream, LBT_SHOW_BOTH,
		      "stream0 of thread %v: ");
		prose(it, "syncs", LBT_F_U64, a[0], LBT_SHOW_BOTH,
		      "%v null-stream syncs, ");
		/* the text names them where there are any (writers < 0.2:
		 * never) */
		prose(it, "narrowed", LBT_F_U64, a[2],
		      LBT_SHOW_JSON | (a[2] ? LBT_SHOW_TEXT : 0),
		      "%v narrowed, ");
		prose(it, "ordered", LBT_F_U64, r->raw->stream_used,
		      LBT_SHOW_JSON | (r->raw->stream_used ? LBT_SHOW_TEXT : 0),
		      "%v dependencies ordered, ");
		prose(it, "hazards", LBT_F_U64, a[1], LBT_SHOW_BOTH,
		      "%v hazards");
		break;
	case LB_REC_THREAD:
		s = (uint32_t)a[0] ? lbt_string(r->file, (uint32_t)a[0]) : NULL;
		prose(it, NULL, LBT_F_NONE, 0, LBT_SHOW_TEXT,
		      r->note == 1 ? "thread exit" : "thread name");
		prose(it, "name", LBT_F_STR, 0,
		      LBT_SHOW_JSON | (s ? LBT_SHOW_TEXT : 0), " \"%v\"")->s = s;
		prose(it, "exit", LBT_F_BOOL, r->note == 1, LBT_SHOW_JSON, NULL);
		break;
	case LB_REC_STRING:
		prose(it, NULL, LBT_F_U64, (uint32_t)a[0], LBT_SHOW_TEXT,
		      "string %v");
		prose(it, NULL, LBT_F_U64, (uint16_t)(a[0] >> 32),
		      LBT_SHOW_TEXT, " part %v");
		break;
	case LB_REC_FRAME:
		prose(it, NULL, LBT_F_U64, (uint32_t)a[0], LBT_SHOW_TEXT,
		      "frame %v");
		break;
	case LB_REC_KINFO:
		kinfo_rec(it, r);
		break;
	case LB_REC_KARGS:
		/* its launch's record was overwritten (ring) or lost */
		prose(it, "args", LBT_F_ARGS, 0, LBT_SHOW_BOTH,
		      "arguments of a launch not in the trace: %v")->rec = r;
		prose(it, "args_cut", LBT_F_BOOL, 1,
		      r->flags & LB_KF_CUT ? LBT_SHOW_BOTH : 0, " (cut)");
		break;
	default:
		prose(it, NULL, LBT_F_U64, r->type, LBT_SHOW_TEXT,
		      "record of unknown type %v");
		break;
	}
}
