/*
 * trace_kargs.c - each launch's argument bytes: one KARGS record after the
 * launch's call record, holding the first LB_KARGS_BYTES bytes of the
 * kernel's explicit arguments laid out as in its kernarg segment.
 *
 * Nothing is parsed on a launch.  The shim's kernel registry
 * (shim/kreg.c) made each kernel's plan at its registration: which
 * kernelParams entry goes to which offset, clipped to the bound, and the
 * layout as text for lbtrace.  A launch finds the plan without a lock
 * (the thread's last kernel's plan is remembered: a loop launching one
 * kernel finds it with two compares), and its arguments are copied by
 * the plan's pieces straight into the slot after the call record's,
 * both slots taken at once (trace.c, lb_trace_post_launch).
 *
 * The layout text ("0:8:global_buffer 8:4:by_value ...") is written to
 * the file as a STRING at the kernel's first launch in each file (a
 * forked child writes its own), before the call record, so that the
 * KARGS record follows its call record directly.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>
#include "trace.h"
#include "kreg.h"

_Static_assert(LB_KREG_BYTES == LB_KARGS_BYTES,
	       "the registry's plans clip arguments to the KARGS bound");

/* The layout's string id in this file, writing it the first time. */
static uint32_t lb_kp_layout_id(const struct lb_kplan *cp)
{
	struct lb_kplan *p = (struct lb_kplan *)cp; /* idgen is ours */
	uint64_t ig = __atomic_load_n(&p->idgen, __ATOMIC_ACQUIRE);
	uint64_t gen = lb_tr.gen;
	uint32_t id;

	if (LB_LIKELY(ig >> 32 == gen && (uint32_t)ig))
		return (uint32_t)ig;
	/*
	 * Two threads launching a new kernel at once may both write it;
	 * each record names the copy its own thread wrote first.
	 */
	id = lb_names_string(p->layout, p->layout_len);
	if (id)
		__atomic_compare_exchange_n(&p->idgen, &ig, gen << 32 | id, 0,
					    __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
	return id;
}

/*
 * Copies n bytes at the program's src without faulting on a bad address
 * (a launch that failed may have been given one the runtime never read).
 * Returns 0 or -1.
 */
static int lb_kp_safe(void *dst, const void *src, size_t n)
{
	struct iovec l = { dst, n }, r = { (void *)src, n };

	return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)n ? 0
									: -1;
}

/*
 * One argument's bytes: the common sizes as single loads and stores (a
 * call of memcpy per argument would cost more than the rest together).
 */
static inline void lb_kp_copy(uint8_t *dst, const void *src, uint32_t n)
{
	const uint8_t *s = src;

	switch (n) {
	case 8:
		memcpy(dst, s, 8);
		return;
	case 4:
		memcpy(dst, s, 4);
		return;
	case 16:
		memcpy(dst, s, 16);
		return;
	case 2:
		memcpy(dst, s, 2);
		return;
	case 1:
		*dst = *s;
		return;
	}
	while (n >= 8) {
		memcpy(dst, s, 8);
		dst += 8, s += 8, n -= 8;
	}
	if (n >= 4) {
		memcpy(dst, s, 4);
		dst += 4, s += 4, n -= 4;
	}
	while (n--)
		*dst++ = *s++;
}

/*
 * The arguments from kernelParams into dst (LB_KARGS_BYTES, zeroed), by
 * the plan's parts, when lb_kargs_put cannot copy them by its pieces;
 * safe: the launch failed.
 */
static int lb_kp_params(uint8_t *dst, const struct lb_kplan *p, void **args,
			int safe)
{
	const struct lb_kpart *q = p->part, *end = q + p->nparts;
	void *ptr[LB_KARGS_BYTES];

	if (!safe) {
		for (; q < end; q++)
			lb_kp_copy(dst + q->off, args[q->idx], q->len);
		return 0;
	}
	if (p->maxidx > LB_KARGS_BYTES ||
	    lb_kp_safe(ptr, args, p->maxidx * sizeof(void *)))
		return -1;
	for (; q < end; q++)
		if (lb_kp_safe(dst + q->off, ptr[q->idx], q->len))
			return -1;
	return 0;
}

/*
 * The arguments from an "extra" list: the kernarg buffer itself, at the
 * metadata's offsets.  The runtime takes exactly this form: extra[0] =
 * HIP_LAUNCH_PARAM_BUFFER_POINTER, [1] = the buffer, [2] =
 * HIP_LAUNCH_PARAM_BUFFER_SIZE, [4] = HIP_LAUNCH_PARAM_END, and reads
 * each argument at buffer + its offset (clr hipamd/src/hip_module.cpp,
 * ihipModuleLaunchKernel's argument setup, rocm-6.2.0).
 */
static int lb_kp_extra(uint8_t *dst, const struct lb_kplan *p, void **extra,
		       int safe)
{
	void *x[5];

	if (safe ? lb_kp_safe(x, extra, sizeof(x)) : (memcpy(x, extra,
							     sizeof(x)), 0))
		return -1;
	if (x[0] != HIP_LAUNCH_PARAM_BUFFER_POINTER ||
	    x[2] != HIP_LAUNCH_PARAM_BUFFER_SIZE ||
	    x[4] != HIP_LAUNCH_PARAM_END || !x[1])
		return -1;
	if (safe)
		return lb_kp_safe(dst, x[1], p->bytes);
	lb_kp_copy(dst, x[1], p->bytes);
	return 0;
}

int lb_kargs_fill(struct lb_kargs *k, const struct lb_call *c,
		  const struct lb_tt *t)
{
	void **args, **extra;
	const struct lb_kplan *p;
	uint32_t sid;
	int safe = c->ret != hipSuccess;

	k->hdr = 0;
	p = lb_kreg_launch(c, &args, &extra);
	if (!p || (!args && !extra) || (!args && !p->bytes && p->nparts))
		return 0;
	k->plan = NULL;
	if (LB_LIKELY(args && !safe && p->chunked)) {
		k->plan = p; /* copied by lb_kargs_put, into the slot itself */
		k->args = args;
	} else {
		memset(k->w, 0, sizeof(k->w));
		if (args ? lb_kp_params((uint8_t *)k->w, p, args, safe)
			 : lb_kp_extra((uint8_t *)k->w, p, extra, safe))
			return 0;
	}
	sid = lb_kp_layout_id(p);
	k->hdr = lb_rec_hdr(LB_REC_KARGS, p->cut ? LB_KF_CUT : 0, sid & 0xffff,
			    (int16_t)(uint16_t)(sid >> 16), t->device,
			    p->bytes);
	return 1;
}

/* The pieces of one size (n of them from c), from args to the bytes b. */
#define LB_KP_PIECES(b, c, n, type)                                           \
	do {                                                                  \
		const struct lb_kchunk *e_ = (c) + (n);                       \
		for (; (c) < e_; (c)++) {                                     \
			type v_;                                              \
			memcpy(&v_, (const uint8_t *)args[(c)->idx] +         \
					    (c)->soff,                        \
			       sizeof(v_));                                   \
			memcpy((b) + (c)->doff, &v_, sizeof(v_));             \
		}                                                             \
	} while (0)

/*
 * kernelParams by the plan's pieces (kreg.h, lb_kchunk), a loop a size,
 * each piece one load and one store, straight into the slot: a copy
 * made on the stack first would be read back in 8-byte words, loads
 * that cannot be forwarded from the pieces' smaller stores and so wait
 * for them to reach the cache (see LB_REC_PUT, trace.h).
 */
void lb_kargs_put(struct lb_trace_rec *slot, const struct lb_kargs *k)
{
	uint64_t *d = (uint64_t *)(void *)slot;
	uint8_t *b = (uint8_t *)slot + 8;

	if (!k->plan) {
#define LB_KP_W(i) ((i) ? k->w[(i) ? (i) - 1 : 0] : k->hdr)
		LB_REC_PUT(slot, LB_KP_W);
#undef LB_KP_W
		return;
	}
	/* the gaps are 0 (a ring's slot is not) */
#define LB_KP_ZERO(i) 0
	LB_REC_PUT(slot, LB_KP_ZERO);
#undef LB_KP_ZERO
	{
		const struct lb_kplan *p = k->plan;
		const struct lb_kchunk *c = p->chunk;
		void **args = k->args;

		LB_KP_PIECES(b, c, p->nchunk[0], uint64_t);
		LB_KP_PIECES(b, c, p->nchunk[1], uint32_t);
		LB_KP_PIECES(b, c, p->nchunk[2], uint16_t);
		LB_KP_PIECES(b, c, p->nchunk[3], uint8_t);
	}
	__atomic_store_n(d, k->hdr, __ATOMIC_RELEASE);
}
