/*
 * trace_crash.c - what a fatal signal leaves in the trace.
 *
 * On SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT the handler writes a
 * CRASH record and the crashing thread's backtrace (FRAME records) into
 * that thread's block (or the reserved crash block), then puts back the
 * disposition it found at start-up and lets the signal happen again: a
 * fault re-executes the faulting instruction on return, anything sent
 * (abort, kill) is sent again to the same thread.  So a core dump, the
 * exit status and a handler of the program (Python's faulthandler) see
 * what they would see without the shim.  The shim steps aside after the
 * first fatal signal, and a handler the program installs later replaces
 * ours: that is the program's choice.
 *
 * SIGTERM, the signal an evaluation harness sends a case that hangs, is
 * recorded the same way, but only when the program left it at SIG_DFL
 * when we install the handlers: a program with a SIGTERM handler of its
 * own keeps it untouched, and one that installs its own later replaces
 * ours, as for the others.  It then takes its default course (the
 * process ends, killed by SIGTERM).  The calls every thread was inside
 * are in the file already, as their entry records (trace.c).
 *
 * The handler takes no lock and allocates nothing.  The kernel enters it
 * on an alternate stack (mmap'ed per thread that calls HIP, so that a
 * stack overflow can be recorded too) or on the program's own, which may
 * be small: Python's faulthandler gives the main thread about 16 KiB.
 * So the recording itself (libunwind wants several KiB) runs on a reserve
 * stack mapped at start-up, taken by one crashing thread at a time; a
 * thread that finds it taken records in place when the stack it is on has
 * room (LB_CRASH_ROOM), and the crash record without a backtrace when it
 * has not.  A second fatal signal inside the handler goes straight to the
 * default action.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "trace.h"
#include "trace_unwind.h"

#define LB_ALTSTACK_SIZE ((size_t)128 * 1024) /* libunwind needs a few pages */
#define LB_RESERVE_SIZE ((size_t)256 * 1024)
#define LB_NAME_MAX 256u
/* What recording with a backtrace needs of the stack it runs on (measured
 * by t_crash.sh's segv-altstack case: about 10 KiB, more under ASan). */
#if defined(__SANITIZE_ADDRESS__)
#define LB_CRASH_ROOM ((size_t)64 * 1024)
#else
#define LB_CRASH_ROOM ((size_t)24 * 1024)
#endif

static const int lb_crash_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
				     SIGABRT };
static struct sigaction lb_prev[NSIG];
static int lb_installed;
static int lb_dying; /* a thread is recording the signal that ends us */
static char *lb_reserve;  /* the reserve stack's mapping (guard page first) */
static int lb_reserve_busy; /* a thread records on it */

/* A slot of the shared crash block (block 0), or NULL when it is full. */
static struct lb_trace_rec *lb_crash_block_slot(void)
{
	struct lb_trace_block *b = (struct lb_trace_block *)lb_tr.crash_blk;
	uint32_t i;

	if (!b)
		return NULL;
	i = __atomic_fetch_add(&lb_tr.crash_next, 1, __ATOMIC_RELAXED);
	if (i >= lb_tr.slots)
		return NULL;
	if (!__atomic_load_n(&b->magic, __ATOMIC_ACQUIRE)) {
		b->tid = (uint32_t)syscall(SYS_gettid);
		b->ordinal = 0;
		b->flags = 0;
		b->thread_index = UINT32_MAX;
		b->first_seq = 0;
		__atomic_store_n(&b->magic, LB_BLOCK_MAGIC, __ATOMIC_RELEASE);
	}
	return (struct lb_trace_rec *)b + 1 + i;
}

struct lb_trace_rec *lb_crash_slot(struct lb_tt *t)
{
	struct lb_trace_rec *r = NULL;

	if (t->state == LB_TT_FILE)
		r = lb_tt_slot(t);
	return r ? r : lb_crash_block_slot();
}

/* Starts a walk of the interrupted thread's stack at the signal frame. */
static int lb_walk_start(unw_cursor_t *cur, void *uc)
{
#if defined(__x86_64__) && defined(unw_init_local2)
	/* On x86-64, unw_context_t is ucontext_t: start at the fault. */
	return lb_unw.init_local2(cur, (unw_context_t *)uc,
				  UNW_INIT_SIGNAL_FRAME) ? -1 : 0;
#else
	unw_context_t ctx;

	(void)uc;
	if (unw_getcontext(&ctx) || lb_unw.init_local(cur, &ctx))
		return -1;
	/*
	 * Skip our own frames: libunwind marks the frame the signal
	 * interrupted as a signal frame.
	 */
	while (lb_unw.is_signal_frame(cur) <= 0)
		if (lb_unw.step(cur) <= 0)
			return -1;
	return 0;
#endif
}

/* The number of frames a walk finds, at most max. */
static int lb_backtrace_depth(void *uc, int max)
{
	unw_cursor_t cur;
	int n = 0;

	/* libunwind opened at install (trace_unwind.c), or no backtrace */
	if (!__atomic_load_n(&lb_unw.ok, __ATOMIC_ACQUIRE) ||
	    lb_walk_start(&cur, uc))
		return 0;
	do
		n++;
	while (n < max && lb_unw.step(&cur) > 0);
	return n;
}

/*
 * Nonzero if the name unw_get_proc_name gave for the frame at CUR, at OFF
 * past its symbol, is a guess.  Without a full symbol table (a stripped
 * library: libc's static functions, the memcpy variants) it returns the
 * nearest symbol below the pc, with no check that the pc is inside it.
 * The unwind tables (.eh_frame) know where the function at the pc really
 * starts: when that is not where the symbol is, the symbol is another
 * function's.  unw_get_proc_info looks where unw_step already looked, so
 * this adds nothing that a signal handler could not do before; when the
 * tables say nothing, the name is not marked.
 */
static int lb_frame_guess(unw_cursor_t *cur, unw_word_t pc, unw_word_t off)
{
	unw_proc_info_t pi;

	memset(&pi, 0, sizeof(pi));
	if (lb_unw.get_proc_info(cur, &pi) || !pi.start_ip)
		return 0;
	return pi.start_ip != pc - off;
}

/* Emits the first n frames as FRAME records, one at a time. */
static void lb_emit_frames(struct lb_tt *t, void *uc, int n)
{
	unw_cursor_t cur;
	char name[LB_NAME_MAX];
	struct lb_trace_rec r;
	int i = 0;

	if (n <= 0 || lb_walk_start(&cur, uc))
		return;
	do {
		unw_word_t pc = 0, off = 0;
		size_t len;
		uint32_t more = 0;
		char head[32] = { 0 };

		lb_unw.get_reg(&cur, UNW_REG_IP, &pc);
		name[0] = 0;
		if (lb_unw.get_proc_name(&cur, name, LB_NAME_MAX, &off) && !name[0])
			off = 0;
		name[LB_NAME_MAX - 1] = 0;
		len = strlen(name);
		if (len > 32)
			more = lb_names_string(name + 32, len - 32);
		memcpy(head, name, len < 32 ? len : 32);
		memset(&r, 0, sizeof(r));
		r.hdr.type = LB_REC_FRAME;
		if (name[0] && lb_frame_guess(&cur, pc, off))
			r.hdr.flags = LB_FF_GUESS;
		r.stream = pc;
		r.stream_used = off;
		r.a[0] = (uint32_t)i | (uint64_t)more << 32;
		memcpy(&r.t0, head, 16);
		memcpy(&r.a[1], head + 16, 16);
		lb_tt_emit(t, &r);
	} while (++i < n && lb_unw.step(&cur) > 0);
}

struct lb_crash_job {
	struct lb_tt *t;
	int sig;
	siginfo_t *si;
	void *uc;
	int frames; /* 0: record no backtrace (no room for libunwind) */
};

/*
 * Records the signal interrupted half-way (slots taken, their headers
 * cleared or not yet stored: a launch takes two at once) would end the
 * thread's block for a reader, hiding what the handler writes after
 * them: the handler writes from the first of them on instead.  Only when
 * the signal ends the process (its disposition was the default), so that
 * the interrupted writer never resumes over what the handler wrote.
 */
static void lb_crash_fill_hole(struct lb_tt *t, int sig)
{
	struct lb_trace_rec *first;

	if (t->state != LB_TT_FILE || !t->blk || !t->pos || t->pos > t->end ||
	    lb_prev[sig].sa_handler != SIG_DFL)
		return;
	first = (struct lb_trace_rec *)t->blk + 1;
	while (t->pos > first &&
	       !__atomic_load_n(&t->pos[-1].hdr.type, __ATOMIC_RELAXED))
		t->pos--;
}

static void lb_crash_record(struct lb_crash_job *j)
{
	struct lb_tt *t = j->t;
	siginfo_t *si = j->si;
	struct lb_trace_rec r;
	uint64_t now = lb_ticks();
	int n = j->frames ? lb_backtrace_depth(j->uc, LB_TR_MAX_FRAMES) : 0;

	lb_clock_refine(100000000u);
	lb_crash_fill_hole(t, j->sig);
	if (t->cur && t->state == LB_TT_FILE) {
		/* The call the thread was in: its arguments, no results. */
		struct lb_call c = *t->cur;

		c.ret = (lb_status)-1;
		c.t1 = now;
		lb_call_rec(&r, &c, t);
		r.hdr.flags |= LB_RF_INFLIGHT;
		lb_tt_emit(t, &r);
	}
	memset(&r, 0, sizeof(r));
	r.hdr.type = LB_REC_CRASH;
	r.hdr.ret = (int16_t)j->sig;
	r.hdr.note = (uint8_t)si->si_code;
	r.hdr.device = t->device;
	r.t0 = r.t1 = now;
	if (si->si_code <= 0) {
		/* sent (kill, tgkill, abort): no address; who sent it */
		r.stream = 0;
		r.stream_used = (uint32_t)si->si_pid;
	} else {
		r.stream = (uint64_t)(uintptr_t)si->si_addr;
		r.stream_used = r.stream;
	}
	r.a[0] = (uint64_t)(int64_t)si->si_code;
	r.a[1] = (uint64_t)syscall(SYS_gettid);
	r.a[2] = (uint64_t)n;
	lb_tt_emit(t, &r);
	lb_emit_frames(t, j->uc, n);
	__atomic_or_fetch(&lb_tr.hdr->flags, LB_HDR_CRASHED, __ATOMIC_RELEASE);
}

static void lb_crash_work(void *p)
{
	struct lb_crash_job *j = p;

	if (lb_tr.file_on && lb_tr.hdr)
		lb_crash_record(j);
	if (lb_tr.live) /* a sent signal has no address */
		lb_live_crash(j->sig,
			      j->si->si_code <= 0 ? NULL : j->si->si_addr);
}

/*
 * Calls fn(arg) with the stack pointer at top (16-byte aligned), and
 * returns on the stack it came from.  LB_CAN_SWITCH is 0 on other
 * architectures: there the recording runs in place.
 */
#if defined(__x86_64__)
#define LB_CAN_SWITCH 1
static void lb_call_on(void (*fn)(void *), void *arg, void *top)
{
	register void *a __asm__("rdi") = arg;

	/* rbx keeps our stack pointer: fn preserves it (callee-saved). */
	__asm__ volatile("mov %%rsp, %%rbx\n\t"
			 "mov %[top], %%rsp\n\t"
			 "call *%[fn]\n\t"
			 "mov %%rbx, %%rsp"
			 : "+r"(a)
			 : [fn] "r"(fn), [top] "r"(top)
			 : "rbx", "rax", "rcx", "rdx", "rsi", "r8", "r9",
			   "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3",
			   "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
			   "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
			   "xmm15", "st", "st(1)", "st(2)", "st(3)", "st(4)",
			   "st(5)", "st(6)", "st(7)", "memory", "cc");
}
#elif defined(__aarch64__)
#define LB_CAN_SWITCH 1
static void lb_call_on(void (*fn)(void *), void *arg, void *top)
{
	register void *a __asm__("x0") = arg;

	/* x19 keeps our stack pointer: fn preserves it (callee-saved). */
	__asm__ volatile("mov x19, sp\n\t"
			 "mov sp, %[top]\n\t"
			 "blr %[fn]\n\t"
			 "mov sp, x19"
			 : "+r"(a)
			 : [fn] "r"(fn), [top] "r"(top)
			 : "x19", "x1", "x2", "x3", "x4", "x5", "x6", "x7",
			   "x8", "x9", "x10", "x11", "x12", "x13", "x14",
			   "x15", "x16", "x17", "x30", "v0", "v1", "v2", "v3",
			   "v4", "v5", "v6", "v7", "v16", "v17", "v18", "v19",
			   "v20", "v21", "v22", "v23", "v24", "v25", "v26",
			   "v27", "v28", "v29", "v30", "v31", "memory", "cc");
}
#else
#define LB_CAN_SWITCH 0
#endif

/* Bytes left below us on the stack we run on; SIZE_MAX when not known
 * (the thread's own stack, not an alternate one). */
static size_t lb_stack_room(void)
{
	volatile char here = 0;
	stack_t cur;
	uintptr_t sp = (uintptr_t)&here, lo;

	if (sigaltstack(NULL, &cur) || !(cur.ss_flags & SS_ONSTACK))
		return SIZE_MAX;
	lo = (uintptr_t)cur.ss_sp;
	return sp > lo ? sp - lo : 0;
}

/* Records the crash on the reserve stack, or in place when it is taken. */
static void lb_crash_run(struct lb_crash_job *j)
{
#if LB_CAN_SWITCH
	if (lb_reserve &&
	    !__atomic_exchange_n(&lb_reserve_busy, 1, __ATOMIC_ACQUIRE)) {
		lb_call_on(lb_crash_work, j,
			   lb_reserve + 4096 + LB_RESERVE_SIZE - 64);
		__atomic_store_n(&lb_reserve_busy, 0, __ATOMIC_RELEASE);
		return;
	}
#endif
	if (lb_stack_room() < LB_CRASH_ROOM)
		j->frames = 0;
	lb_crash_work(j);
}

static void lb_crash_handler(int sig, siginfo_t *si, void *uc)
{
	struct lb_tt *t = &lb_tt;
	int saved = errno;

	if (sig == SIGTERM && __atomic_load_n(&lb_dying, __ATOMIC_ACQUIRE)) {
		/*
		 * Another signal is being recorded and ends the process:
		 * without the shim it would have ended before this one
		 * came, so this one has no effect.
		 */
		errno = saved;
		return;
	}
	if (t->in_crash) {
		/* A fault while handling one: the default action, now. */
		struct sigaction dfl;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigaction(sig, &dfl, NULL);
	} else {
		struct lb_crash_job j = { t, sig, si, uc, 1 };

		if (lb_prev[sig].sa_handler == SIG_DFL)
			__atomic_store_n(&lb_dying, 1, __ATOMIC_RELEASE);
		t->in_crash = 1;
		lb_crash_run(&j);
		sigaction(sig, &lb_prev[sig], NULL);
		t->in_crash = 0;
	}
	/*
	 * A fault (si_code > 0) happens again when we return, now under the
	 * restored disposition.  A signal that was sent has to be sent
	 * again; it stays pending until we return (it is blocked in here).
	 */
	if (si->si_code <= 0 || sig == SIGABRT || sig == SIGTERM)
		syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
	errno = saved;
}

void lb_crash_install(void)
{
	struct sigaction sa;
	unsigned i;

	if (lb_installed)
		return;
	/* here, not in the handler: dlopen is not async-signal-safe */
	lb_unwind_open();
	if (!lb_reserve) {
		char *m = mmap(NULL, LB_RESERVE_SIZE + 4096,
			       PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
			       0);

		/* guard: an overflow faults, it does not smash */
		if (m != MAP_FAILED && !mprotect(m, 4096, PROT_NONE))
			lb_reserve = m;
		else if (m != MAP_FAILED)
			munmap(m, LB_RESERVE_SIZE + 4096);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = lb_crash_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(lb_crash_sigs) / sizeof(lb_crash_sigs[0]); i++) {
		int sig = lb_crash_sigs[i];

		if (sigaction(sig, NULL, &lb_prev[sig]))
			continue;
		sigaction(sig, &sa, NULL);
	}
	/*
	 * SIGTERM only where the program would die of it: its disposition
	 * is the default (not ignored, no handler of the program's).
	 */
	if (!sigaction(SIGTERM, NULL, &lb_prev[SIGTERM]) &&
	    lb_prev[SIGTERM].sa_handler == SIG_DFL)
		sigaction(SIGTERM, &sa, NULL);
	lb_installed = 1;
}

void lb_crash_thread_start(struct lb_tt *t)
{
	stack_t cur, ss;
	char *m;

	if (!lb_installed || t->altstack)
		return;
	if (sigaltstack(NULL, &cur) || !(cur.ss_flags & SS_DISABLE))
		return; /* the thread has one (the program's): keep it */
	m = mmap(NULL, LB_ALTSTACK_SIZE + 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return;
	mprotect(m, 4096, PROT_NONE); /* guard: overflow faults, not smashes */
	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = m + 4096;
	ss.ss_size = LB_ALTSTACK_SIZE;
	if (sigaltstack(&ss, NULL)) {
		munmap(m, LB_ALTSTACK_SIZE + 4096);
		return;
	}
	t->altstack = m;
	t->own_altstack = 1;
}

void lb_crash_thread_exit(struct lb_tt *t)
{
	stack_t ss;

	if (!t->own_altstack)
		return;
	memset(&ss, 0, sizeof(ss));
	ss.ss_flags = SS_DISABLE;
	if (!sigaltstack(&ss, NULL))
		munmap(t->altstack, LB_ALTSTACK_SIZE + 4096);
	t->altstack = NULL;
	t->own_altstack = 0;
}
