/*
 * trace_args.c - what each call's record holds in a[] and note, as
 * trace_format.h and lbshim-trace(5) define it per kind of call, read from
 * the call's arguments by their roles (include/lbshim/roles.h): a row is
 * recorded as its roles say, never by its name.
 *
 * Runs in the post hook, after the runtime: outputs (the pointer hipMalloc
 * returned, the stream created) are read only when the call succeeded and
 * the program gave a place for them, the same condition under which the
 * runtime wrote them.
 */
#include "trace.h"
#include "lbshim/roles_gen.h"

/*
 * Every fill below runs in a case of a switch over the rows (the cases
 * generated from the table: trace_args_rows.h), with the row's id and role
 * constants: its reads of this static copy of lb_arg_tab fold into the
 * parameters' offsets, as the hand-written cases' reads of each row's
 * struct did, and the copy itself is left out of the library.
 */
static const uint8_t lb_tab[LB_API_COUNT][64] = {
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	[LB_ID_##NAME] = LB_ARG_ROW(NAME, __VA_ARGS__),
#include "lbshim/hip_api.def"
#include "lbshim/cuda_api.def"
#undef LB_API
};

#define LB_P(x) ((uint64_t)(uintptr_t)(x))
/* Call c's argument in role r: present?, its address, pointer, integer. */
#define LB_RH(r) lb_ar_has_in(lb_tab, api, LB_AR_##r)
#define LB_RAT(r) lb_ar_at_in(lb_tab, api, a, LB_AR_##r)
#define LB_RP(r) lb_ar_ptr_in(lb_tab, api, a, LB_AR_##r)
#define LB_RU(r) lb_ar_u64_in(lb_tab, api, a, LB_AR_##r)
/* A fill of row api, of role role (constants in each case). */
#define LB_FILL_(name)                                                  \
	static inline __attribute__((always_inline)) void name(          \
		struct lb_trace_rec *r, const struct lb_call *c, int api, \
		unsigned role)

/* What an out-pointer p points to, when the call wrote it (ok). */
static uint64_t lb_out8(int ok, const void *p)
{
	uint64_t v = 0;

	if (ok && p)
		memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t lb_out4(int ok, const void *p)
{
	uint32_t v = 0;

	if (ok && p)
		memcpy(&v, p, sizeof(v));
	return v;
}

static uint16_t lb_sat16(uint32_t v)
{
	return v > 0xffff ? 0xffff : (uint16_t)v;
}

static void lb_pack_launch(struct lb_trace_rec *r, uint32_t kid,
			   uint64_t shmem, const uint32_t g[3],
			   const uint32_t b[3])
{
	if (shmem > UINT32_MAX)
		shmem = UINT32_MAX;
	r->a[0] = kid | shmem << 32;
	r->a[1] = g[0] | (uint64_t)g[1] << 32;
	r->a[2] = lb_sat16(g[2]) | (uint64_t)lb_sat16(b[0]) << 16 |
		  (uint64_t)lb_sat16(b[1]) << 32 |
		  (uint64_t)lb_sat16(b[2]) << 48;
	if (g[2] > 0xffff)
		r->hdr.flags |= LB_RF_GRIDZ_SAT;
}

/* The program's string s as a new string of the file (0: none). */
static uint64_t lb_str_id(const char *s)
{
	char buf[1024];
	long n = lb_safe_str(s, buf, sizeof(buf));

	return n > 0 ? lb_names_string(buf, (size_t)n) : 0;
}

/*
 * Launches: the kernel's name (a launch, a module launch), shared memory,
 * grid and block, or the work size (the Ext/Hcc module launches: grid is
 * global / local); a host function or callback, its data and flags; a
 * graph; the <<<>>> configuration pushed, configured or popped.
 */
LB_FILL_(lb_fill_launch_)
{
	int ok = c->ret == LB_ST_OK;
	const void *a = c->args;
	uint32_t g[3], b[3], kid = 0;
	const uint32_t *gp, *bp;
	const uint64_t *sp;
	int i;

	switch (role) {
	case LB_ROLE_NONE:
		return;
	case LB_ROLE_HOST_FN:
	case LB_ROLE_CALLBACK:
		r->a[0] = LB_P(LB_RP(FN));
		r->a[1] = LB_P(LB_RP(USERDATA));
		r->a[2] = LB_RU(FLAGS);
		return;
	case LB_ROLE_GRAPH_LAUNCH:
		r->a[0] = LB_P(LB_RP(GRAPH));
		return;
	case LB_ROLE_CONFIG_POP:
		gp = LB_RP(GRID_OUT);
		bp = LB_RP(BLOCK_OUT);
		sp = LB_RP(SHMEM_OUT);
		if (ok && gp && bp && sp) {
			memcpy(g, gp, sizeof(g));
			memcpy(b, bp, sizeof(b));
			lb_pack_launch(r, 0, *sp, g, b);
		} else {
			memset(g, 0, sizeof(g));
			lb_pack_launch(r, 0, 0, g, g);
		}
		return;
	default:
		break;
	}
	if (LB_RH(KERNEL))
		kid = lb_names_kernel(LB_RP(KERNEL),
				      role == LB_ROLE_LAUNCH_MODULE,
				      c->stream ? *c->stream : NULL);
	lb_ar_dim_in(lb_tab, api, a, LB_AR_BLOCK, b);
	if (LB_RH(WORK)) {
		lb_ar_dim_in(lb_tab, api, a, LB_AR_WORK, g);
		for (i = 0; i < 3; i++)
			if (b[i])
				g[i] /= b[i];
	} else {
		lb_ar_dim_in(lb_tab, api, a, LB_AR_GRID, g);
	}
	lb_pack_launch(r, kid, LB_RU(SHMEM), g, b);
}

/*
 * Allocations: the pointer returned, the bytes asked (a pitched one's
 * width * height, a 3D one's extent, an array's channels' bytes times its
 * extent, a height or depth of 0 counting 1), the pitch returned, the
 * flags or the memory pool (the pool's note: lb_fill_alloc).
 */
LB_FILL_(lb_fill_alloc_)
{
	int ok = c->ret == LB_ST_OK;
	const void *a = c->args;
	const struct lb_pitched *pp;
	const struct lb_extent *e = LB_RAT(EXTENT);
	const struct lb_chandesc *d;
	uint64_t bytes;

	(void)role; /* the roles of its arguments say it all */
	if (LB_RH(OUT)) {
		r->a[0] = lb_out8(ok, LB_RP(OUT));
	} else if (LB_RH(PITCHED_OUT)) {
		pp = LB_RP(PITCHED_OUT);
		r->a[0] = ok && pp ? LB_P(pp->ptr) : 0;
	}
	if (LB_RH(BYTES)) {
		r->a[1] = LB_RU(BYTES);
	} else if (LB_RH(WIDTH)) {
		r->a[1] = (uint64_t)LB_RU(WIDTH) * LB_RU(HEIGHT);
	} else if (e && LB_RH(DESC)) {
		d = LB_RP(DESC);
		bytes = ok && d ? ((uint64_t)d->x + d->y + d->z + d->w) / 8 : 0;
		r->a[1] = bytes * e->width * (e->height ? e->height : 1) *
			  (e->depth ? e->depth : 1);
	} else if (e) {
		r->a[1] = (uint64_t)e->width * e->height * e->depth;
	}
	if (LB_RH(PITCH_OUT))
		r->a[2] = lb_out8(ok, LB_RP(PITCH_OUT));
	else if (LB_RH(FLAGS))
		r->a[2] = LB_RU(FLAGS);
	else
		r->a[2] = LB_P(LB_RP(MEMPOOL));
}

/* The direction a copy's role implies, or its KIND's. */
static inline __attribute__((always_inline)) uint8_t
lb_copy_kind(int api, const void *a, unsigned role)
{
	unsigned d = lb_role_copy_dir(role, 0xff); /* 0xff: no kind */

	return d != 0xff ? (uint8_t)d : (uint8_t)LB_RU(KIND);
}

/* Copies: dst, src, bytes (2D: width * height), the direction; a
 * prefetch: the pointer, the device, the bytes. */
LB_FILL_(lb_fill_copy_)
{
	const void *a = c->args;

	if (role == LB_ROLE_PREFETCH) {
		r->a[0] = LB_P(LB_RP(PTR));
		r->a[1] = (uint32_t)LB_RU(DEVICE);
		r->a[2] = LB_RU(BYTES);
		return;
	}
	if (role < LB_ROLE_COPY || role > LB_ROLE_COPY_WAIT)
		return;
	r->a[0] = LB_P(LB_RP(DST));
	r->a[1] = LB_P(LB_RP(SRC));
	r->a[2] = LB_RH(BYTES)
			  ? LB_RU(BYTES)
			  : (uint64_t)LB_RU(WIDTH) * LB_RU(HEIGHT);
	r->hdr.note = lb_copy_kind(api, a, role);
}

/*
 * Sets: dst (a 3D set's pointer), the value, the bytes: BYTES, NUM values
 * of the role's width, or the shape (width * height, the extent).
 */
LB_FILL_(lb_fill_set_)
{
	const void *a = c->args;
	unsigned shift = role == LB_ROLE_SET16	  ? 1
			 : role == LB_ROLE_SET32 ? 2
						 : 0;
	const struct lb_pitched *pp;
	const struct lb_extent *e;

	if (role < LB_ROLE_SET || role > LB_ROLE_SET32)
		return;
	r->a[1] = LB_RU(VALUE);
	if (LB_RH(PITCHED)) {
		pp = LB_RAT(PITCHED);
		e = LB_RAT(EXTENT);
		r->a[0] = LB_P(pp->ptr);
		r->a[2] = (uint64_t)e->width * e->height * e->depth;
		return;
	}
	r->a[0] = LB_P(LB_RP(DST));
	if (LB_RH(BYTES))
		r->a[2] = LB_RU(BYTES);
	else if (LB_RH(NUM))
		r->a[2] = LB_RU(NUM) << shift;
	else
		r->a[2] = (uint64_t)LB_RU(WIDTH) * LB_RU(HEIGHT) << shift;
}

/* Events: the event (created, recorded, queried, destroyed, waited for)
 * and flags; an interval's two events and the float result's bits. */
LB_FILL_(lb_fill_event_)
{
	int ok = c->ret == LB_ST_OK;
	const void *a = c->args;

	(void)role; /* the roles of its arguments say it all */
	if (LB_RH(OUT))
		r->a[0] = lb_out8(ok, LB_RP(OUT));
	else
		r->a[0] = LB_P(LB_RP(EVENT));
	if (LB_RH(EVENT_END))
		r->a[1] = LB_P(LB_RP(EVENT_END));
	else
		r->a[1] = LB_RU(FLAGS);
	r->a[2] = lb_out4(ok, LB_RP(MS_OUT));
}

/*
 * Streams: the stream created (or destroyed; a query's, as the program
 * named it), flags (asked, returned), a capture's mode, graph or status,
 * the priority (asked, returned).
 */
LB_FILL_(lb_fill_stream_)
{
	int ok = c->ret == LB_ST_OK;
	const void *a = c->args;

	switch (role) {
	case LB_ROLE_STREAM_CREATE:
		r->a[0] = lb_out8(ok, LB_RP(OUT));
		r->a[1] = LB_RU(FLAGS);
		r->a[2] = (uint32_t)LB_RU(PRIORITY);
		return;
	case LB_ROLE_STREAM_DESTROY:
		r->a[0] = LB_P(c->stream ? *c->stream : NULL);
		return;
	case LB_ROLE_STREAM_GET:
		r->a[0] = LB_P(c->stream_named);
		r->a[1] = lb_out4(ok, LB_RP(FLAGS_OUT));
		r->a[2] = lb_out4(ok, LB_RP(PRIORITY_OUT));
		return;
	case LB_ROLE_CAPTURE_BEGIN:
		r->a[0] = LB_P(c->stream_named);
		r->a[1] = LB_RU(MODE);
		return;
	case LB_ROLE_CAPTURE_END:
		r->a[0] = LB_P(c->stream_named);
		r->a[1] = lb_out8(ok, LB_RP(OUT));
		return;
	case LB_ROLE_CAPTURE_STATUS:
		r->a[0] = LB_P(c->stream_named);
		r->a[1] = lb_out4(ok, LB_RP(STATUS_OUT));
		return;
	default:
		return;
	}
}

/*
 * Registrations: the handle (returned, registered or unregistered), the
 * name (of the kernel, of the file), the image or module.
 */
LB_FILL_(lb_fill_reg_)
{
	int ok = c->ret == LB_ST_OK;
	const void *a = c->args;
	void **out = LB_RP(OUT);

	switch (role) {
	case LB_ROLE_REG_FATBIN:
		r->a[0] = LB_P(c->rval);
		r->a[2] = LB_P(LB_RP(IMAGE));
		return;
	case LB_ROLE_REG_FUNCTION:
		r->a[0] = LB_P(LB_RP(KERNEL));
		r->a[1] = lb_names_kernel(LB_RP(KERNEL), 0, NULL);
		r->a[2] = LB_P(LB_RP(MODULE));
		return;
	case LB_ROLE_UNREG_FATBIN:
	case LB_ROLE_MODULE_UNLOAD:
		r->a[0] = LB_P(LB_RP(MODULE));
		return;
	case LB_ROLE_MODULE_LOAD:
		r->a[0] = lb_out8(ok, out);
		if (LB_RH(FNAME))
			r->a[1] = lb_str_id(LB_RP(FNAME));
		r->a[2] = LB_P(LB_RP(IMAGE));
		return;
	case LB_ROLE_MODULE_FUNCTION:
		r->a[0] = lb_out8(ok, out);
		r->a[1] = ok && out ? lb_names_kernel(*out, 1, NULL)
				    : lb_str_id(LB_RP(NAME));
		r->a[2] = LB_P(LB_RP(MODULE));
		return;
	case LB_ROLE_KERNEL_HANDLE:
		/* the handle, the stub's name, the stub */
		r->a[0] = lb_out8(ok, out);
		r->a[1] = lb_names_kernel(LB_RP(KERNEL), 0, NULL);
		r->a[2] = LB_P(LB_RP(KERNEL));
		return;
	default:
		return;
	}
}

/*
 * The other kinds (sync, device, free, other): an event waited for, a
 * device (set, asked about, returned), a pointer freed (with the pool's
 * note), memory's free and total, a pointer asked about (its range's
 * size and base, an advice), an entry point returned by name.
 */
LB_FILL_(lb_fill_other_)
{
	int ok = c->ret == LB_ST_OK;
	const void *a = c->args;

	switch (role) {
	case LB_ROLE_EVENT_SYNC:
		r->a[0] = LB_P(LB_RP(EVENT));
		return;
	case LB_ROLE_DEVICE_SET:
	case LB_ROLE_DEVICE_QUERY:
		r->a[0] = (uint32_t)LB_RU(DEVICE);
		return;
	case LB_ROLE_DEVICE_GET:
		r->a[0] = lb_out4(ok, LB_RP(DEVICE_OUT));
		return;
	case LB_ROLE_FREE:
	case LB_ROLE_FREE_ASYNC:
	case LB_ROLE_FREE_HOST:
		r->a[0] = LB_P(LB_RP(PTR));
		r->hdr.note = (uint8_t)c->scratch[LB_NOTE_POOL];
		return;
	case LB_ROLE_MEM_INFO:
		r->a[1] = lb_out8(ok, LB_RP(FREE_OUT));
		r->a[2] = lb_out8(ok, LB_RP(TOTAL_OUT));
		return;
	case LB_ROLE_PTR_ATTRIBUTES:
	case LB_ROLE_IPC_HANDLE:
		r->a[0] = LB_P(LB_RP(PTR));
		return;
	case LB_ROLE_ADDRESS_RANGE:
		r->a[0] = LB_P(LB_RP(PTR));
		r->a[1] = lb_out8(ok, LB_RP(SIZE_OUT));
		r->a[2] = lb_out8(ok, LB_RP(BASE_OUT));
		return;
	case LB_ROLE_ADVISE:
		r->a[0] = LB_P(LB_RP(PTR));
		r->a[1] = LB_RU(BYTES);
		r->a[2] = (uint32_t)LB_RU(ADVICE) |
			  (uint64_t)(uint32_t)LB_RU(DEVICE) << 32;
		return;
	case LB_ROLE_PROC_ADDRESS:
		r->a[0] = lb_out8(ok, LB_RP(OUT));
		r->a[1] = lb_str_id(LB_RP(NAME));
		r->a[2] = (uint32_t)LB_RU(VERSION);
		return;
	default:
		return;
	}
}

/*
 * One function per kind, by kind: a call of one of them from the record
 * path costs a load and an indirect call, where a switch over the kinds
 * inlining them all made every record pay the whole set's prologue (six
 * registers saved and restored).  Each is a switch over the rows with
 * roles (trace_args_rows.h), each case the fill of its kind with the
 * row's id and role as constants; a row of another kind, or without
 * roles, records nothing.  SYNC, DEVICE, FREE and OTHER share
 * lb_fill_other.
 */
static void lb_fill_launch(struct lb_trace_rec *r, const struct lb_call *c)
{
	switch (c->api) {
#define LB_FILL_OK(k) ((k) == LB_KIND_LAUNCH)
#define LB_FILL_FN lb_fill_launch_
#include "trace_args_rows.h"
	}
}

static void lb_fill_alloc(struct lb_trace_rec *r, const struct lb_call *c)
{
	/* every allocation's record has the pool's note */
	r->hdr.note = (uint8_t)c->scratch[LB_NOTE_POOL];
	switch (c->api) {
#define LB_FILL_OK(k) ((k) == LB_KIND_ALLOC)
#define LB_FILL_FN lb_fill_alloc_
#include "trace_args_rows.h"
	}
}

static void lb_fill_copy(struct lb_trace_rec *r, const struct lb_call *c)
{
	switch (c->api) {
#define LB_FILL_OK(k) ((k) == LB_KIND_COPY)
#define LB_FILL_FN lb_fill_copy_
#include "trace_args_rows.h"
	}
}

static void lb_fill_set(struct lb_trace_rec *r, const struct lb_call *c)
{
	switch (c->api) {
#define LB_FILL_OK(k) ((k) == LB_KIND_SET)
#define LB_FILL_FN lb_fill_set_
#include "trace_args_rows.h"
	}
}

static void lb_fill_event(struct lb_trace_rec *r, const struct lb_call *c)
{
	switch (c->api) {
#define LB_FILL_OK(k) ((k) == LB_KIND_EVENT)
#define LB_FILL_FN lb_fill_event_
#include "trace_args_rows.h"
	}
}

static void lb_fill_stream(struct lb_trace_rec *r, const struct lb_call *c)
{
	switch (c->api) {
#define LB_FILL_OK(k) ((k) == LB_KIND_STREAM)
#define LB_FILL_FN lb_fill_stream_
#include "trace_args_rows.h"
	}
}

static void lb_fill_reg(struct lb_trace_rec *r, const struct lb_call *c)
{
	switch (c->api) {
#define LB_FILL_OK(k) ((k) == LB_KIND_REG)
#define LB_FILL_FN lb_fill_reg_
#include "trace_args_rows.h"
	}
}

static void lb_fill_other(struct lb_trace_rec *r, const struct lb_call *c)
{
	switch (c->api) {
#define LB_FILL_OK(k)                                               \
	((k) == LB_KIND_SYNC || (k) == LB_KIND_DEVICE ||            \
	 (k) == LB_KIND_FREE || (k) == LB_KIND_OTHER)
#define LB_FILL_FN lb_fill_other_
#include "trace_args_rows.h"
	}
}

void (*const lb_args_fill_kind[LB_KIND_COUNT])(struct lb_trace_rec *r,
					       const struct lb_call *c) = {
	[LB_KIND_LAUNCH] = lb_fill_launch, [LB_KIND_SYNC] = lb_fill_other,
	[LB_KIND_ALLOC] = lb_fill_alloc,   [LB_KIND_FREE] = lb_fill_other,
	[LB_KIND_COPY] = lb_fill_copy,	   [LB_KIND_SET] = lb_fill_set,
	[LB_KIND_EVENT] = lb_fill_event,   [LB_KIND_STREAM] = lb_fill_stream,
	[LB_KIND_DEVICE] = lb_fill_other,  [LB_KIND_REG] = lb_fill_reg,
	[LB_KIND_OTHER] = lb_fill_other,
};
