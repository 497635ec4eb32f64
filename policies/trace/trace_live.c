/*
 * trace_live.c - LBSHIM_TRACE_LIVE=1 (or HIP_TRACE_API=1): one line per
 * call on stderr, in the style of the old HIP_TRACE_API:
 *
 *   <<hip-api pid:123 tid:456 hipMemcpy (0x7f.., 0x7f.., 4000000,
 *   hipMemcpyDeviceToHost) ret=0 (hipSuccess) +12 us>>
 *
 * Opt-in, so formatting is accepted here; still no stdio and no malloc
 * (a stack buffer and one write(2), so lines of threads do not mix), and
 * the arguments are printed by their C types, chosen at compile time from
 * hip_api.def.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "lbshim/names.h"
#include "trace.h"
#include "rt_hip.h" /* the table's by-value types */

struct lb_buf {
	char *p;
	size_t n, cap;
};

static void lb_puts(struct lb_buf *b, const char *s)
{
	while (*s && b->n + 1 < b->cap)
		b->p[b->n++] = *s++;
}

static void lb_putu(struct lb_buf *b, unsigned long long v)
{
	char tmp[24];
	int n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while (v /= 10);
	while (n && b->n + 1 < b->cap)
		b->p[b->n++] = tmp[--n];
}

static void lb_puti(struct lb_buf *b, long long v)
{
	if (v < 0) {
		lb_puts(b, "-");
		lb_putu(b, 0ull - (unsigned long long)v);
	} else {
		lb_putu(b, (unsigned long long)v);
	}
}

static void lb_putx(struct lb_buf *b, unsigned long long v)
{
	char tmp[20];
	int n = 0;

	if (!v) {
		lb_puts(b, "0");
		return;
	}
	do
		tmp[n++] = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	lb_puts(b, "0x");
	while (n && b->n + 1 < b->cap)
		b->p[b->n++] = tmp[--n];
}

static void lb_sep(struct lb_buf *b)
{
	if (b->n && b->p[b->n - 1] != '(')
		lb_puts(b, ", ");
}

static void lb_arg_int(struct lb_buf *b, const char *name, long long v)
{
	(void)name;
	lb_sep(b);
	lb_puti(b, v);
}

static void lb_arg_uint(struct lb_buf *b, const char *name,
			unsigned long long v)
{
	lb_sep(b);
	if (!strcmp(name, "kind") && v <= LB_MEMCPY_DEFAULT)
		lb_puts(b, lb_rt->memcpy_kind[v]);
	else
		lb_putu(b, v);
}

static void lb_arg_ptr(struct lb_buf *b, const char *name, const void *p)
{
	(void)name;
	lb_sep(b);
	lb_putx(b, (uintptr_t)p);
}

static void lb_arg_str(struct lb_buf *b, const char *name, const char *s)
{
	char text[82];
	long i, n;

	(void)name;
	lb_sep(b);
	n = lb_safe_str(s, text, sizeof(text));
	if (n < 0) { /* NULL or unreadable: the pointer */
		lb_putx(b, (uintptr_t)s);
		return;
	}
	lb_puts(b, "\"");
	for (i = 0; i < n && i < 80 && b->n + 2 < b->cap; i++)
		b->p[b->n++] = text[i] >= ' ' && text[i] < 127 ? text[i] : '?';
	lb_puts(b, n > 80 ? "...\"" : "\"");
}

static void lb_arg_dim3(struct lb_buf *b, const char *name, dim3 d)
{
	(void)name;
	lb_sep(b);
	lb_puts(b, "{");
	lb_putu(b, d.x);
	lb_puts(b, ",");
	lb_putu(b, d.y);
	lb_puts(b, ",");
	lb_putu(b, d.z);
	lb_puts(b, "}");
}

/* The structures some calls take by value: their address, sizes, id. */
static void lb_arg_lb_pitched(struct lb_buf *b, const char *name,
			      const struct lb_pitched *p)
{
	lb_arg_ptr(b, name, p->ptr);
}

static void lb_arg_lb_extent(struct lb_buf *b, const char *name,
			     const struct lb_extent *e)
{
	(void)name;
	lb_sep(b);
	lb_puts(b, "{");
	lb_putu(b, e->width);
	lb_puts(b, ",");
	lb_putu(b, e->height);
	lb_puts(b, ",");
	lb_putu(b, e->depth);
	lb_puts(b, "}");
}

static void lb_arg_lb_memloc(struct lb_buf *b, const char *name,
			     const struct lb_memloc *l)
{
	lb_arg_int(b, name, l->id);
}

/* The runtime's by-value type T, printed as its neutral twin N (rt.h). */
#define LB_LIVE_BYVAL_FN(T, N)                                           \
	static void lb_byval_##N(struct lb_buf *b, const char *name, T v) \
	{                                                                \
		lb_arg_##N(b, name, (const struct N *)(const void *)&v); \
	}
LB_RT_BYVAL(LB_LIVE_BYVAL_FN)
#define LB_LIVE_BYVAL_CASE(T, N) T: lb_byval_##N,

#define LB_LIVE_ARG_(a, x)                                                \
	_Generic((a->x),                                                  \
		int: lb_arg_int, long: lb_arg_int, long long: lb_arg_int, \
		unsigned int: lb_arg_uint, unsigned long: lb_arg_uint,    \
		unsigned long long: lb_arg_uint, char *: lb_arg_str,      \
		unsigned char: lb_arg_uint, unsigned short: lb_arg_uint,  \
		const char *: lb_arg_str, dim3: lb_arg_dim3,              \
		LB_RT_BYVAL(LB_LIVE_BYVAL_CASE)                           \
		default: lb_arg_ptr)(b, #x, a->x);

static void lb_live_args(struct lb_buf *b, const struct lb_call *c)
{
	switch (c->api) {
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	case LB_ID_##NAME: {                                              \
		const struct lb_args_##NAME *a = c->args;                 \
		(void)a;                                                  \
		LB_MAP(LB_LIVE_ARG_, a, A)                                \
		break;                                                    \
	}
#include "lbshim/hip_api.def"
#undef LB_API
	default:
		break;
	}
}

/* Return kinds: hipError_t, void, a pointer, an int. */
#define LB_RK_hipError_t 0
#define LB_RK_void 1
#define LB_RK_lb_modules_t 2
#define LB_RK_int 3
#define LB_RK_lb_cstr_t 2 /* a pointer, printed as one */
static const uint8_t lb_ret_kind[LB_API_COUNT] = {
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	[LB_ID_##NAME] = LB_RK_##RET,
#include "lbshim/hip_api.def"
#undef LB_API
};

const char *lb_err_name(int e)
{
	/* The table lbtrace uses too, checked against the HIP header. */
	const char *s = lbt_hip_error_name(e);

	if (s)
		return s;
	s = lb_tr.err_name ? lb_tr.err_name((lb_status)e) : NULL;
	return s ? s : "?";
}

static void lb_head(struct lb_buf *b)
{
	lb_puts(b, lb_tr.color ? "\033[2m<<hip-api\033[0m pid:" : "<<hip-api pid:");
	lb_putu(b, (unsigned)lb_tr.pid);
	lb_puts(b, " tid:");
	lb_putu(b, (unsigned)lb_tid());
	lb_puts(b, " ");
}

static void lb_flush(struct lb_buf *b)
{
	if (b->n + 3 > b->cap)
		b->n = b->cap - 3;
	b->p[b->n++] = '>';
	b->p[b->n++] = '>';
	b->p[b->n++] = '\n';
	if (write(STDERR_FILENO, b->p, b->n) < 0) {
		/* stderr is gone: nothing to do */
	}
}

void lb_live_call(const struct lb_call *c)
{
	char line[1024];
	struct lb_buf b = { line, 0, sizeof(line) };
	uint64_t us = lb_ticks_to_ns(c->t1 - c->t0) / 1000u;

	lb_head(&b);
	lb_puts(&b, lb_tr.color ? "\033[1;36m" : "");
	lb_puts(&b, lb_api_info[c->api].name);
	lb_puts(&b, lb_tr.color ? "\033[0m (" : " (");
	lb_live_args(&b, c);
	lb_puts(&b, ")");
	switch (lb_ret_kind[c->api]) {
	case LB_RK_hipError_t:
		lb_puts(&b, c->ret && lb_tr.color ? " \033[31mret=" : " ret=");
		lb_puti(&b, c->ret);
		lb_puts(&b, " (");
		lb_puts(&b, lb_err_name(c->ret));
		lb_puts(&b, c->ret && lb_tr.color ? ")\033[0m" : ")");
		break;
	case LB_RK_lb_modules_t:
		lb_puts(&b, " ret=");
		lb_putx(&b, (uintptr_t)c->rval);
		break;
	case LB_RK_int:
		lb_puts(&b, " ret=");
		lb_puti(&b, (int)(intptr_t)c->rval);
		break;
	default:
		break;
	}
	if (c->handled)
		lb_puts(&b, " [served]");
	lb_puts(&b, " +");
	lb_putu(&b, us);
	lb_puts(&b, " us");
	lb_flush(&b);
}

static const char *lb_sig_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGABRT: return "SIGABRT";
	case SIGTERM: return "SIGTERM";
	default: return "signal";
	}
}

void lb_live_crash(int sig, const void *addr)
{
	char line[256];
	struct lb_buf b = { line, 0, sizeof(line) };

	lb_head(&b);
	lb_puts(&b, lb_tr.color ? "\033[1;31mCRASH " : "CRASH ");
	lb_puts(&b, lb_sig_name(sig));
	lb_puts(&b, lb_tr.color ? "\033[0m addr=" : " addr=");
	lb_putx(&b, (uintptr_t)addr);
	lb_flush(&b);
}
