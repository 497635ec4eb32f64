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
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "lb_kp_pieces reads the plan's nchunk[] as one word");

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
	if (x[0] != lb_rt->launch_buffer_ptr ||
	    x[2] != lb_rt->launch_buffer_size || x[4] != lb_rt->launch_end ||
	    !x[1])
		return -1;
	if (safe)
		return lb_kp_safe(dst, x[1], p->bytes);
	lb_kp_copy(dst, x[1], p->bytes);
	return 0;
}

/*
 * The header of plan p's records in this file (may write the layout
 * string), remembered in t for the next launches of the same kernel.
 */
static __attribute__((noinline)) uint64_t
lb_kp_hdr_new(const struct lb_kplan *p, struct lb_tt *t)
{
	uint32_t sid = lb_kp_layout_id(p), gen = lb_tr.gen;
	uint64_t ig, h;

	h = lb_rec_hdr(LB_REC_KARGS, p->cut ? LB_KF_CUT : 0, sid & 0xffff,
		       (int16_t)(uint16_t)(sid >> 16), t->device, p->bytes);
	/*
	 * Remembered once the plan names this id for this file: the next
	 * launches would read the same from it (lb_kp_layout_id).
	 */
	ig = __atomic_load_n(&p->idgen, __ATOMIC_ACQUIRE);
	if (sid && ig == ((uint64_t)gen << 32 | sid)) {
		t->ka_plan = p;
		t->ka_gen = gen;
		t->ka_hdr = h;
	}
	return h;
}

static inline int lb_kp_known(const struct lb_kplan *p, const struct lb_tt *t)
{
	return t->ka_plan == p && t->ka_gen == lb_tr.gen;
}

/* A launch's arguments' record, from lb_kargs_fill to lb_kargs_put. */
struct lb_kargs {
	uint64_t hdr;			/* the record's header word */
	const struct lb_kplan *plan;	/* copy args by its pieces, or */
	void **args;
	uint64_t w[LB_KARGS_BYTES / 8];	/* (plan NULL) the bytes, copied */
};

/*
 * Makes k, the KARGS record of a launch of plan p (NULL: none) given args
 * or extra, to be written by lb_kargs_put; returns 1, or 0 for no record.
 * May write the layout string (the kernel's first launch in this file),
 * so it runs before the call record's slot is taken.  A launch that
 * failed (safe: its arguments may be unreadable) or gave an "extra"
 * buffer is copied here, carefully; the others at lb_kargs_put.
 */
static int lb_kargs_fill(struct lb_kargs *k, const struct lb_kplan *p,
			 void **args, void **extra, int safe, struct lb_tt *t)
{
	if (!p || (!args && !extra) || (!args && !p->bytes && p->nparts))
		return 0;
	k->plan = NULL;
	if (args && !safe && p->chunked) {
		k->plan = p; /* copied by lb_kargs_put, into the slot itself */
		k->args = args;
	} else {
		memset(k->w, 0, sizeof(k->w));
		if (args ? lb_kp_params((uint8_t *)k->w, p, args, safe)
			 : lb_kp_extra((uint8_t *)k->w, p, extra, safe))
			return 0;
	}
	k->hdr = lb_kp_known(p, t) ? t->ka_hdr : lb_kp_hdr_new(p, t);
	return 1;
}

/* Piece i of c, of the type's size, from args to the bytes b. */
#define LB_KP_ONE(b, c, i, type)                                              \
	do {                                                                  \
		type v_;                                                      \
		memcpy(&v_, (const uint8_t *)args[(c)[i].idx] + (c)[i].soff, \
		       sizeof(v_));                                           \
		memcpy((b) + (c)[i].doff, &v_, sizeof(v_));                   \
	} while (0)

/*
 * The n pieces of one size from c: up to 7 (56 bytes of 8-byte pieces)
 * unrolled, entered at the count, so that a piece costs its two loads of
 * the plan, its argument's pointer, one load and one store; more in a
 * loop.
 */
#define LB_KP_SIZE(name, type)                                                \
	static inline __attribute__((always_inline)) void name(               \
		uint8_t *b, const struct lb_kchunk *c, unsigned n,            \
		void **args)                                                  \
	{                                                                     \
		unsigned i_;                                                  \
                                                                              \
		switch (n) {                                                  \
		case 7:                                                       \
			LB_KP_ONE(b, c, 6, type); /* fall through */          \
		case 6:                                                       \
			LB_KP_ONE(b, c, 5, type); /* fall through */          \
		case 5:                                                       \
			LB_KP_ONE(b, c, 4, type); /* fall through */          \
		case 4:                                                       \
			LB_KP_ONE(b, c, 3, type); /* fall through */          \
		case 3:                                                       \
			LB_KP_ONE(b, c, 2, type); /* fall through */          \
		case 2:                                                       \
			LB_KP_ONE(b, c, 1, type); /* fall through */          \
		case 1:                                                       \
			LB_KP_ONE(b, c, 0, type); /* fall through */          \
		case 0:                                                       \
			return;                                               \
		default:                                                      \
			for (i_ = 0; i_ < n; i_++)                            \
				LB_KP_ONE(b, c, i_, type);                    \
		}                                                             \
	}
LB_KP_SIZE(lb_kp_8, uint64_t)
LB_KP_SIZE(lb_kp_4, uint32_t)
LB_KP_SIZE(lb_kp_2, uint16_t)
LB_KP_SIZE(lb_kp_1, uint8_t)

/*
 * kernelParams by the plan's pieces (kreg.h, lb_kchunk), listed by size,
 * each piece one load and one store, straight into the slot: a copy
 * made on the stack first would be read back in 8-byte words, loads
 * that cannot be forwarded from the pieces' smaller stores and so wait
 * for them to reach the cache (see LB_REC_PUT, trace.h).  Pieces of 2
 * and 1 bytes are rare (a char, a short, a bool): one test skips both.
 */
static inline __attribute__((always_inline)) void
lb_kp_pieces(uint8_t *b, const struct lb_kplan *p, void **args)
{
	const struct lb_kchunk *c = p->chunk;
	uint32_t n;

	memcpy(&n, p->nchunk, sizeof(n));
	lb_kp_8(b, c, n & 0xff, args);
	c += n & 0xff;
	lb_kp_4(b, c, n >> 8 & 0xff, args);
	if (LB_UNLIKELY(n >> 16)) {
		c += n >> 8 & 0xff;
		lb_kp_2(b, c, n >> 16 & 0xff, args);
		c += n >> 16 & 0xff;
		lb_kp_1(b, c, n >> 24, args);
	}
}

/*
 * Copies kernelParams args by plan p into slot, whose bytes are 0, then
 * commits it with header hdr (the commit rule, LB_REC_PUT: the header
 * last).
 */
static inline __attribute__((always_inline)) void
lb_kp_commit(struct lb_trace_rec *slot, const struct lb_kplan *p, void **args,
	     uint64_t hdr)
{
	lb_kp_pieces((uint8_t *)slot + 8, p, args);
	__atomic_store_n((uint64_t *)(void *)slot, hdr, __ATOMIC_RELEASE);
}

/* Writes k to slot (or a record on the stack) under the commit rule. */
static void lb_kargs_put(struct lb_trace_rec *slot, const struct lb_kargs *k)
{
	if (!k->plan) {
#define LB_KP_W(i) ((i) ? k->w[(i) ? (i) - 1 : 0] : k->hdr)
		LB_REC_PUT(slot, LB_KP_W);
#undef LB_KP_W
		return;
	}
	/* the gaps are 0 (a ring's slot, a record on the stack are not) */
#define LB_KP_ZERO(i) 0
	LB_REC_PUT(slot, LB_KP_ZERO);
#undef LB_KP_ZERO
	lb_kp_commit(slot, k->plan, k->args, k->hdr);
}

/*
 * The common launch, a kernel launched before by this thread in this
 * file, its arguments in kernelParams, the launch a success, two slots
 * free in a file's block: both slots taken at once, the call record
 * written, then the arguments copied by the plan's pieces straight into
 * the second slot, its header last.  A file's block is all zero until
 * written (a new block of the file, or a staged block cleared before its
 * reuse: trace_stage.c), so the gaps between the pieces need no stores,
 * nor the header its clearing first (the commit rule, LB_REC_PUT): only
 * a ring's slots are written twice.
 *
 * Otherwise the arguments' record is made first: the first launch of a
 * kernel in this file writes the STRING records of its name (lb_call_args)
 * and layout (lb_kargs_fill), which must not come between the two.
 */
void lb_trace_post_launch(struct lb_call *c, struct lb_tt *t)
{
	struct lb_trace_rec ar, *r;
	const struct lb_kplan *p;
	struct lb_kargs ka;
	void **args, **extra;
	int kargs;

	lb_call_args(&ar, c);
	p = lb_kreg_launch(c, &args, &extra);
	r = t->pos;
	if (LB_LIKELY(p && lb_kp_known(p, t) && args && p->chunked &&
		      c->ret == LB_ST_OK && !lb_tr.ring && t->end - r >= 2)) {
		t->pos = r + 2;
		lb_call_put(r, c, t, &ar);
		lb_kp_commit(r + 1, p, args, t->ka_hdr);
		return;
	}
	kargs = lb_kargs_fill(&ka, p, args, extra, c->ret != LB_ST_OK, t);
	r = t->pos;
	if (LB_LIKELY(kargs && t->end - r >= 2)) {
		t->pos = r + 2;
		lb_call_put(r, c, t, &ar);
		lb_kargs_put(r + 1, &ka);
		if (LB_UNLIKELY(lb_tr.ring))
			lb_tt_ring_note(t, r + 1);
		return;
	}
	r = lb_tt_slot(t);
	if (LB_LIKELY(r != NULL)) {
		lb_call_put(r, c, t, &ar);
		if (LB_UNLIKELY(lb_tr.ring))
			lb_tt_ring_note(t, r);
	}
	if (kargs) {
		lb_kargs_put(&ar, &ka);
		lb_tt_emit(t, &ar);
	}
}
