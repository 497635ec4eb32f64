/*
 * stream0_touch.c - what a remapped call touches, for the hazard check
 * (stream0_hazard.c), and the facts it learns after calls: which events
 * order work, which kernels have which names.
 *
 * Copies and sets touch exactly their byte ranges; 2D and 3D ones their
 * bounding range (first byte to last byte, pitch included).  A copy's side
 * that its kind says is host memory is not device memory any launch could
 * touch, and is left out.  Which call reads what is decided once, at init,
 * into hz_op[]: the launch path is a table load when nothing is touched.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "stream0.h"
#include "stream0_hazard.h"

enum hz_op {
	HZ_NONE,
	HZ_MEMCPY,	/* (dst, src, size, kind) */
	HZ_HTOD,	/* (dst, src, size): src is host */
	HZ_DTOH,	/* (dst, src, size): dst is host */
	HZ_DTOD,	/* (dst, src, size) */
	HZ_PEER,	/* (dst, dstdev, src, srcdev, size) */
	HZ_MEMCPY2D,	/* (dst, dpitch, src, spitch, width, height, kind) */
	HZ_SET1,	/* (dst, value, bytes) */
	HZ_SET2,	/* (dst, value, count of 16-bit) */
	HZ_SET4,	/* (dst, value, count of 32-bit) */
	HZ_SET2D,	/* (dst, pitch, value, width, height) */
	HZ_SET3D,	/* (pitched, value, extent) */
	HZ_KERNEL,	/* the kernel's pointer arguments */
};

static uint8_t hz_op[LB_API_COUNT];
uint8_t s0_hz_post_op[LB_API_COUNT];

enum { HZP_NONE, HZP_RECORD, HZP_WAIT, HZP_EVDONE, HZP_EVGONE, HZP_REGFN,
       HZP_MODFN };

void s0_hz_touch_init(void)
{
	static const struct {
		int id;
		uint8_t op;
	} ops[] = {
		{ LB_ID_hipMemcpy, HZ_MEMCPY },
		{ LB_ID_hipMemcpy_spt, HZ_MEMCPY },
		{ LB_ID_hipMemcpyAsync, HZ_MEMCPY },
		{ LB_ID_hipMemcpyAsync_spt, HZ_MEMCPY },
		{ LB_ID_hipMemcpyWithStream, HZ_MEMCPY },
		{ LB_ID_hipMemcpyHtoD, HZ_HTOD },
		{ LB_ID_hipMemcpyHtoDAsync, HZ_HTOD },
		{ LB_ID_hipMemcpyDtoH, HZ_DTOH },
		{ LB_ID_hipMemcpyDtoHAsync, HZ_DTOH },
		{ LB_ID_hipMemcpyDtoD, HZ_DTOD },
		{ LB_ID_hipMemcpyDtoDAsync, HZ_DTOD },
		{ LB_ID_hipMemcpyPeer, HZ_PEER },
		{ LB_ID_hipMemcpyPeerAsync, HZ_PEER },
		{ LB_ID_hipMemcpy2D, HZ_MEMCPY2D },
		{ LB_ID_hipMemcpy2D_spt, HZ_MEMCPY2D },
		{ LB_ID_hipMemcpy2DAsync, HZ_MEMCPY2D },
		{ LB_ID_hipMemset, HZ_SET1 },
		{ LB_ID_hipMemset_spt, HZ_SET1 },
		{ LB_ID_hipMemsetAsync, HZ_SET1 },
		{ LB_ID_hipMemsetAsync_spt, HZ_SET1 },
		{ LB_ID_hipMemsetD8, HZ_SET1 },
		{ LB_ID_hipMemsetD8Async, HZ_SET1 },
		{ LB_ID_hipMemsetD16, HZ_SET2 },
		{ LB_ID_hipMemsetD16Async, HZ_SET2 },
		{ LB_ID_hipMemsetD32, HZ_SET4 },
		{ LB_ID_hipMemsetD32Async, HZ_SET4 },
		{ LB_ID_hipMemset2D, HZ_SET2D },
		{ LB_ID_hipMemset2D_spt, HZ_SET2D },
		{ LB_ID_hipMemset2DAsync, HZ_SET2D },
		{ LB_ID_hipMemset2DAsync_spt, HZ_SET2D },
		{ LB_ID_hipMemset3D, HZ_SET3D },
		{ LB_ID_hipMemset3D_spt, HZ_SET3D },
		{ LB_ID_hipMemset3DAsync, HZ_SET3D },
		{ LB_ID_hipMemset3DAsync_spt, HZ_SET3D },
	}, post[] = {
		{ LB_ID_hipEventRecord, HZP_RECORD },
		{ LB_ID_hipEventRecord_spt, HZP_RECORD },
		{ LB_ID_hipStreamWaitEvent, HZP_WAIT },
		{ LB_ID_hipStreamWaitEvent_spt, HZP_WAIT },
		{ LB_ID_hipEventSynchronize, HZP_EVDONE },
		{ LB_ID_hipEventQuery, HZP_EVDONE },
		{ LB_ID_hipEventDestroy, HZP_EVGONE },
		{ LB_ID___hipRegisterFunction, HZP_REGFN },
		{ LB_ID_hipModuleGetFunction, HZP_MODFN },
	};
	unsigned i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		hz_op[ops[i].id] = ops[i].op;
	for (i = 0; i < sizeof(post) / sizeof(post[0]); i++)
		s0_hz_post_op[post[i].id] = post[i].op;
}

static uintptr_t hz_u(const void *p)
{
	return (uintptr_t)p;
}

/* A copy's sides, unless its kind says the side is host memory. */
static int hz_copy(uintptr_t dst, uintptr_t src, size_t n, int kind,
		   uint64_t sub)
{
	int hz = 0;

	if (!n)
		return 0;
	if (kind != hipMemcpyHostToHost && kind != hipMemcpyDeviceToHost)
		hz |= s0_hz_range(dst, dst + n, sub);
	if (kind != hipMemcpyHostToHost && kind != hipMemcpyHostToDevice)
		hz |= s0_hz_range(src, src + n, sub);
	return hz;
}

/* The bounding range of rows rows of width bytes, pitch apart. */
static int hz_rows(uintptr_t p, size_t pitch, size_t width, size_t rows,
		   uint64_t sub)
{
	if (!width || !rows)
		return 0;
	return s0_hz_range(p, p + pitch * (rows - 1) + width, sub);
}

static int hz_kernel(struct lb_call *c, uint64_t sub)
{
	(void)c;
	(void)sub;
	return 0;
}

void s0_hz_touch(struct lb_call *c, uint64_t sub)
{
	const void *a = c->args;
	int hz;

	switch (hz_op[c->api]) {
	case HZ_NONE:
		return;
	case HZ_MEMCPY: {
		const struct lb_args_hipMemcpy *m = a;

		hz = hz_copy(hz_u(m->dst), hz_u(m->src), m->sizeBytes, m->kind,
			     sub);
		break;
	}
	case HZ_HTOD:
	case HZ_DTOH:
	case HZ_DTOD: {
		const struct lb_args_hipMemcpyDtoD *m = a;
		int kind = hz_op[c->api] == HZ_HTOD   ? hipMemcpyHostToDevice
			   : hz_op[c->api] == HZ_DTOH ? hipMemcpyDeviceToHost
						      : hipMemcpyDeviceToDevice;

		hz = hz_copy(hz_u(m->dst), hz_u(m->src), m->sizeBytes, kind,
			     sub);
		break;
	}
	case HZ_PEER: {
		const struct lb_args_hipMemcpyPeer *m = a;

		hz = hz_copy(hz_u(m->dst), hz_u(m->src), m->sizeBytes,
			     hipMemcpyDeviceToDevice, sub);
		break;
	}
	case HZ_MEMCPY2D: {
		const struct lb_args_hipMemcpy2D *m = a;

		hz = 0;
		if (m->kind != hipMemcpyHostToHost &&
		    m->kind != hipMemcpyDeviceToHost)
			hz |= hz_rows(hz_u(m->dst), m->dpitch, m->width,
				      m->height, sub);
		if (m->kind != hipMemcpyHostToHost &&
		    m->kind != hipMemcpyHostToDevice)
			hz |= hz_rows(hz_u(m->src), m->spitch, m->width,
				      m->height, sub);
		break;
	}
	case HZ_SET1:
	case HZ_SET2:
	case HZ_SET4: {
		const struct lb_args_hipMemsetD32 *m = a;
		size_t n = m->count << (hz_op[c->api] == HZ_SET4   ? 2
					: hz_op[c->api] == HZ_SET2 ? 1
								   : 0);

		hz = n && s0_hz_range(hz_u(m->dest), hz_u(m->dest) + n, sub);
		break;
	}
	case HZ_SET2D: {
		const struct lb_args_hipMemset2D *m = a;

		hz = hz_rows(hz_u(m->dst), m->pitch, m->width, m->height, sub);
		break;
	}
	case HZ_SET3D: {
		const struct lb_args_hipMemset3D *m = a;
		const hipPitchedPtr *p = &m->pitchedDevPtr;
		const hipExtent *e = &m->extent;

		hz = 0;
		if (e->width && e->height && e->depth)
			hz = hz_rows(hz_u(p->ptr), p->pitch, e->width,
				     p->ysize * (e->depth - 1) + e->height, sub);
		break;
	}
	case HZ_KERNEL:
		hz = hz_kernel(c, sub);
		return;
	default:
		return;
	}
	if (hz)
		s0_hz_count(c, NULL);
}

/* ---- after calls: events and kernel names ---- */

#define HZ_NAMES 4096
static struct {
	const void *fn;
	const char *name;
} hz_names[HZ_NAMES]; /* under hz_name_lock; never shrinks */
static pthread_mutex_t hz_name_lock = PTHREAD_MUTEX_INITIALIZER;

static void hz_name_add(const void *fn, const char *name, int copy)
{
	unsigned i, h = (unsigned)(((uintptr_t)fn >> 4) % HZ_NAMES), j;

	if (!fn || !name)
		return;
	pthread_mutex_lock(&hz_name_lock);
	for (j = 0; j < HZ_NAMES; j++) {
		i = (h + j) % HZ_NAMES;
		if (hz_names[i].fn == fn)
			break; /* the first name stays */
		if (!hz_names[i].fn) {
			hz_names[i].name = copy ? strdup(name) : name;
			if (hz_names[i].name)
				hz_names[i].fn = fn;
			break;
		}
	}
	pthread_mutex_unlock(&hz_name_lock);
}

const char *s0_hz_kernel_name(const void *fn)
{
	const char *name = NULL;
	unsigned i, h = (unsigned)(((uintptr_t)fn >> 4) % HZ_NAMES), j;

	if (!fn)
		return NULL;
	pthread_mutex_lock(&hz_name_lock);
	for (j = 0; j < HZ_NAMES; j++) {
		i = (h + j) % HZ_NAMES;
		if (!hz_names[i].fn)
			break;
		if (hz_names[i].fn == fn) {
			name = hz_names[i].name;
			break;
		}
	}
	pthread_mutex_unlock(&hz_name_lock);
	return name;
}

void s0_hz_post(struct lb_call *c, int remapped)
{
	switch (s0_hz_post_op[c->api]) {
	case HZP_RECORD:
		if (c->ret == hipSuccess) {
			const struct lb_args_hipEventRecord *a = c->args;
			int d = s0_me.dev;

			s0_hz_recorded(a->event, remapped,
				       d >= 0 && d < S0_MAXDEV
					       ? s0_me.sub[d] : 0);
		}
		return;
	case HZP_WAIT:
		if (c->ret == hipSuccess && remapped)
			s0_hz_waited(((struct lb_args_hipStreamWaitEvent *)
					      c->args)->event);
		return;
	case HZP_EVDONE:
		/* both rows take the event first */
		if (c->ret == hipSuccess)
			s0_hz_event_done(
				((struct lb_args_hipEventQuery *)c->args)
					->event);
		return;
	case HZP_EVGONE:
		if (c->ret == hipSuccess)
			s0_hz_event_gone(
				((struct lb_args_hipEventDestroy *)c->args)
					->event);
		return;
	case HZP_REGFN: {
		const struct lb_args___hipRegisterFunction *a = c->args;

		/* the program's static string: kept by reference */
		hz_name_add(a->hostFunction, a->deviceName, 0);
		return;
	}
	case HZP_MODFN: {
		const struct lb_args_hipModuleGetFunction *a = c->args;

		if (c->ret == hipSuccess && a->function)
			hz_name_add(*a->function, a->kname, 1);
		return;
	}
	default:
		return;
	}
}
