/*
 * crash.c - `lbtrace crash`: for each file, how the process ended as far
 * as the trace can tell, which calls were in flight and for how long, and
 * the last calls of every thread of that process.
 *
 * How it ended: a crash record (a fatal signal, or a SIGTERM the program
 * left at its default) gives the signal, the address or sender, the
 * thread and its backtrace; a clean exit is a header flag; a trace with
 * neither was ended by something nothing could record (SIGKILL, _exit,
 * power loss) or is still being written: "killed".
 *
 * "In flight": a thread whose last record is a call without a return
 * (the writer's entry record, or the one the crash handler wrote for the
 * call it interrupted), each with how long it had been waiting, up to
 * the last moment the trace knows of (lbt_until); in traces of older
 * writers, which recorded calls only at return, the crash handler's
 * records of other threads' calls (LB_RF_ELSEWHERE) and the innermost
 * wrapped HIP function of the crashing thread's backtrace.
 *
 * Registrations (__hipRegisterFatBinary, __hipRegisterFunction,
 * __hipUnregisterFatBinary: the calls a hipcc-built library's constructor
 * and destructor make) are left out of the last calls unless asked for: a
 * program that loads big libraries registers thousands of kernels, and
 * they would push the calls that matter out of the window.  One that
 * failed or was in flight stays, since it may be why the process died.
 * The program's own module calls (hipModuleLoad, ...) stay too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "lbshim/names.h"
#include "format/fmt.h"
#include "format/runtime.h"
#include "format/text.h"

struct thread_ring {
	struct lbt_rec *r; /* crash_calls entries, made on use */
	uint64_t n, head;
	uint64_t regs_out; /* registrations left out */
};

struct crash_state {
	struct lbt_set *set;
	struct lbt_out *o;
	uint64_t keep;
	int registrations; /* --registrations */
	int *base; /* first ring of each file */
	int nrings;
	struct thread_ring *rings;
	int oom;
	/* calls other threads were in when the crash was recorded */
	struct elsewhere {
		const struct lbt_file *file;
		const char *api;
		uint32_t tid;
		int64_t t_ns;
	} away[64];
	int naway;
};

static void *crash_begin(struct lbt_set *set, struct lbt_out *o,
			 const struct lbt_opts *opt)
{
	struct crash_state *c = calloc(1, sizeof(*c));
	int i, n = lbt_set_nfiles(set);

	if (!c)
		return NULL;
	c->set = set;
	c->o = o;
	c->keep = opt->crash_calls ? opt->crash_calls : 20;
	c->registrations = opt->registrations;
	c->base = calloc(n ? n : 1, sizeof(*c->base));
	for (i = 0; c->base && i < n; i++) {
		c->base[i] = c->nrings;
		c->nrings += lbt_set_file(set, i)->nthreads;
	}
	c->rings = calloc(c->nrings ? c->nrings : 1, sizeof(*c->rings));
	if (!c->base || !c->rings) {
		free(c->base);
		free(c->rings);
		free(c);
		return NULL;
	}
	return c;
}

/* Nonzero if R is one of the implicit registrations (see the top). */
static int is_registration(const struct lbt_rec *r)
{
	return r->kind == LB_KIND_REG && r->api_name &&
	       (!strncmp(r->api_name, "__hipRegister", 13) ||
		!strncmp(r->api_name, "__hipUnregister", 15));
}

static void crash_record(void *p, const struct lbt_rec *r)
{
	struct crash_state *c = p;
	struct thread_ring *tr;

	if (r->type != LB_REC_CALL)
		return;
	if (r->flags & LB_RF_ELSEWHERE) {
		/* not this thread's call: the crash handler saw it elsewhere */
		if (c->naway < (int)(sizeof(c->away) / sizeof(c->away[0]))) {
			struct elsewhere *e = &c->away[c->naway++];

			e->file = r->file;
			e->api = r->api_name;
			e->tid = (uint32_t)r->raw->a[2];
			e->t_ns = r->t_ns;
		}
		return;
	}
	tr =
	    &c->rings[c->base[r->file->index] + (r->thread - r->file->threads)];
	if (!c->registrations && is_registration(r) && !r->in_flight &&
	    !lbt_rec_is_error(r)) {
		tr->regs_out++;
		return;
	}
	if (!tr->r) {
		tr->r = calloc(c->keep, sizeof(*tr->r));
		if (!tr->r) {
			c->oom = 1;
			return;
		}
	}
	if (tr->n < c->keep) {
		lbt_rec_keep(&tr->r[tr->n++], r);
	} else {
		lbt_rec_keep(&tr->r[tr->head], r);
		tr->head = (tr->head + 1) % c->keep;
	}
}

/* API id whose wrapper frame F is, or -1: "hipMemcpy", "hipFoo(...)". */
static int frame_api(const struct lbt_frame *f)
{
	char name[128];
	size_t n = strcspn(f->demangled, "(");

	if (!n || n >= sizeof(name) || f->guess)
		return -1;
	memcpy(name, f->demangled, n);
	name[n] = 0;
	return lb_api_lookup(name);
}

static void put_thread(struct lbt_out *o, const struct lbt_file *f,
		       const struct lbt_thread *t)
{
	const char *name = lbt_thread_name(f, t);

	lbt_printf(o, "%u", t->tid);
	if (name[0]) {
		lbt_puts(o, " \"");
		lbt_put_text(o, name);
		lbt_putc(o, '"');
	}
	if (t->thread_index == UINT32_MAX)
		lbt_printf(o, " (made no %s call: recorded in the shared "
			      "crash block)",
			   f->runtime == LB_RT_CUDA ? "CUDA" : "HIP");
	else
		lbt_printf(o, " (thread index %u)", t->thread_index);
}

/* ": entered at T s, waiting W s until WHAT" */
static void put_wait(struct lbt_out *o, int64_t t_ns, int64_t wait_ns,
		     const struct lbt_until *u)
{
	lbt_puts(o, ": entered at ");
	lbt_put_fixed(o, t_ns, 1000000000, 9);
	lbt_puts(o, " s, waiting ");
	lbt_put_fixed(o, wait_ns > 0 ? wait_ns : 0, 1000000000, 9);
	lbt_puts(o, " s until ");
	lbt_puts(o, u->what);
	lbt_putc(o, '\n');
}

/* CR: the crash reported, or NULL for a trace that ended without one. */
static void in_flight(struct crash_state *c, const struct lbt_file *f,
		      const struct lbt_crash *cr)
{
	struct lbt_out *o = c->o;
	int known = 0, on_crasher = 0;
	struct lbt_until u;
	uint32_t i, t;

	lbt_until(f, cr, &u);
	lbt_puts(o, "in flight:\n");
	/* entry records, and those the crash handler wrote */
	for (t = 0; t < f->nthreads; t++) {
		struct thread_ring *tr = &c->rings[c->base[f->index] + t];
		const struct lbt_rec *last;

		if (!tr->n)
			continue;
		last = &tr->r[(tr->head + tr->n - 1) % tr->n];
		if (!last->in_flight)
			continue;
		lbt_puts(o, "  ");
		lbt_text_call_head(o, last);
		lbt_puts(o, " on thread ");
		put_thread(o, f, &f->threads[t]);
		put_wait(o, last->t_ns,
			 last->raw->t1 ? last->dur_ns : u.ns - last->t_ns, &u);
		known = 1;
		on_crasher |= cr && &f->threads[t] == cr->thread;
	}
	for (i = 0; i < (uint32_t)c->naway; i++) {
		if (c->away[i].file != f)
			continue;
		lbt_printf(o, "  %s on thread %u", c->away[i].api,
			   c->away[i].tid);
		put_wait(o, c->away[i].t_ns, u.ns - c->away[i].t_ns, &u);
		known = 1;
	}
	/* else the crashing thread's backtrace may pass through a wrapper */
	for (i = 0; cr && !on_crasher && i < cr->nframes; i++) {
		int api = frame_api(&cr->frames[i]);

		if (api < 0)
			continue;
		lbt_printf(o, "  %s on thread %u (frame #%u)\n",
			   lb_api_info[api].name, cr->tid, cr->frames[i].index);
		known = 1;
		break; /* the innermost wrapper is the call */
	}
	if (!known)
		lbt_puts(o, "  none: every call in the trace has its return\n");
}

static void last_calls(struct crash_state *c, const struct lbt_file *f)
{
	struct lbt_out *o = c->o;
	uint32_t t;
	uint64_t i;

	for (t = 0; t < f->nthreads; t++) {
		struct thread_ring *tr = &c->rings[c->base[f->index] + t];

		if (!tr->n && !tr->regs_out)
			continue; /* the crash block, or a thread of strings */
		lbt_printf(o, "\nlast %llu call%s of thread ",
			   (unsigned long long)tr->n, tr->n == 1 ? "" : "s");
		put_thread(o, f, &f->threads[t]);
		if (tr->regs_out)
			lbt_printf(o,
				   ", %llu registration%s left out "
				   "(--registrations shows them)",
				   (unsigned long long)tr->regs_out,
				   tr->regs_out == 1 ? "" : "s");
		lbt_puts(o, ":\n");
		for (i = 0; i < tr->n; i++) {
			const struct lbt_rec *r =
			    &tr->r[(tr->head + i) % tr->n];

			lbt_text_prefix(o, r);
			lbt_text_call(o, r);
			lbt_putc(o, '\n');
		}
	}
}

static void report(struct crash_state *c, const struct lbt_file *f,
		   const struct lbt_crash *cr)
{
	struct lbt_out *o = c->o;
	uint32_t i;

	lbt_text_crash(o, cr);
	lbt_puts(o, "\nthread: ");
	put_thread(o, f, cr->thread);
	if (cr->tid != cr->thread->tid)
		lbt_printf(o, ", signal taken by tid %u", cr->tid);
	lbt_puts(o, ", at ");
	lbt_put_fixed(o, cr->t_ticks ? lbt_ticks_to_ns(f, cr->t_ticks) : 0,
		      1000000000, 9);
	lbt_puts(o, " s\nbacktrace:\n");
	for (i = 0; i < cr->nframes; i++) {
		lbt_puts(o, "  ");
		lbt_text_frame(o, &cr->frames[i]);
		lbt_putc(o, '\n');
	}
	if (!cr->nframes)
		lbt_puts(o, "  (no frames recorded)\n");
	in_flight(c, f, cr);
}

/* Nonzero if a thread of F ends in a call in flight. */
static int has_flight(struct crash_state *c, const struct lbt_file *f)
{
	uint32_t t;

	for (t = 0; t < f->nthreads; t++) {
		struct thread_ring *tr = &c->rings[c->base[f->index] + t];

		if (tr->n && tr->r[(tr->head + tr->n - 1) % tr->n].in_flight)
			return 1;
	}
	return 0;
}

/*
 * How a trace without a crash record ended; returns nonzero when the
 * rest of the report (calls in flight, last calls) follows.
 */
static int ended(struct crash_state *c, const struct lbt_file *f)
{
	struct lbt_out *o = c->o;
	uint32_t fl = f->hdr.flags;

	if (fl & LB_HDR_CRASHED) {
		lbt_puts(o, "the process crashed, but its crash record is not "
			    "in the trace\n");
		in_flight(c, f, NULL);
		return 1;
	}
	if (fl & LB_HDR_CLEAN_EXIT) {
		lbt_puts(o, "no crash recorded: the process exited normally\n");
		if (has_flight(c, f))
			in_flight(c, f, NULL); /* threads it left inside */
		return 0;
	}
	lbt_puts(o, "no crash recorded and no clean exit: killed (by "
		    "SIGKILL, a signal the shim does not record, or a power "
		    "loss), ended by _exit, or still running\n");
	if (fl & LB_HDR_STOPPED)
		lbt_puts(o, "tracing stopped early (disk full, file removed or "
			    "closed): the trace ends before the process\n");
	in_flight(c, f, NULL);
	return 1;
}

static int crash_end(void *p)
{
	struct crash_state *c = p;
	struct lbt_out *o = c->o;
	int i, j, rc = 0;

	for (i = 0; i < lbt_set_nfiles(c->set); i++) {
		const struct lbt_file *f = lbt_set_file(c->set, i);
		uint32_t k;

		if (i)
			lbt_putc(o, '\n');
		lbt_puts(o, "trace ");
		lbt_put_text(o, f->path);
		lbt_printf(o, ": pid %u, host ", f->hdr.pid);
		lbt_put_text(o, f->hdr.host);
		if (f->hdr.lbshim_version[0]) {
			lbt_puts(o, ", lbshim ");
			lbt_put_text(o, f->hdr.lbshim_version);
		}
		lbt_puts(o, "\n  cmd: ");
		lbt_put_text(o, f->hdr.cmdline);
		lbt_putc(o, '\n');
		lbt_put_runtime(o, f);
		if (!f->ncrashes && !ended(c, f))
			continue;
		for (k = 0; k < f->ncrashes; k++)
			report(c, f, &f->crashes[k]);
		last_calls(c, f);
	}
	if (c->oom) {
		fputs("lbtrace: crash: out of memory, report incomplete\n",
		      stderr);
		rc = 2;
	}
	for (j = 0; j < c->nrings; j++)
		free(c->rings[j].r);
	free(c->rings);
	free(c->base);
	free(c);
	return rc;
}

const struct lbt_fmt lbt_fmt_crash = {
    .name = "crash",
    .mode = LBT_ORDERED,
    .filtered = 0,
    .begin = crash_begin,
    .record = crash_record,
    .end = crash_end,
};
