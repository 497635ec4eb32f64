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
 * The handler takes no lock and allocates nothing; it runs on an
 * alternate stack (mmap'ed per thread that calls HIP) so that a stack
 * overflow can be recorded too.  A second fatal signal inside the handler
 * goes straight to the default action.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include "trace.h"

#define LB_ALTSTACK_SIZE ((size_t)128 * 1024) /* libunwind needs a few pages */
#define LB_NAME_MAX 256u

static const int lb_crash_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
				     SIGABRT };
static struct sigaction lb_prev[NSIG];
static int lb_installed;

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

struct lb_frame {
	uint64_t pc, off;
	char name[LB_NAME_MAX];
};

/* Walks the interrupted thread's stack from the signal context. */
static int lb_backtrace(void *uc, struct lb_frame *f, int max)
{
	unw_cursor_t cur;
	unw_context_t ctx;
	int n = 0, started;

#if defined(__x86_64__) && defined(unw_init_local2)
	/* On x86-64, unw_context_t is ucontext_t: start at the fault. */
	(void)ctx;
	if (unw_init_local2(&cur, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME))
		return 0;
	started = 1;
#else
	(void)uc;
	if (unw_getcontext(&ctx) || unw_init_local(&cur, &ctx))
		return 0;
	started = 0;
#endif
	do {
		unw_word_t pc = 0, off = 0;

		if (!started) {
			/*
			 * Skip our own frames: libunwind marks the frame
			 * the signal interrupted as a signal frame.
			 */
			if (unw_is_signal_frame(&cur) <= 0)
				continue;
			started = 1;
		}
		unw_get_reg(&cur, UNW_REG_IP, &pc);
		f[n].pc = pc;
		f[n].name[0] = 0;
		if (unw_get_proc_name(&cur, f[n].name, LB_NAME_MAX, &off) &&
		    !f[n].name[0])
			off = 0;
		f[n].name[LB_NAME_MAX - 1] = 0;
		f[n].off = off;
		n++;
	} while (n < max && unw_step(&cur) > 0);
	return n;
}

/*
 * The calls other threads were inside when this one crashed: their API and
 * entry time only (their arguments live on their stacks, which a signal
 * handler must not trust), each flagged LB_RF_ELSEWHERE with the tid.
 */
static void lb_crash_elsewhere(struct lb_tt *t, uint64_t now)
{
	uint32_t n = __atomic_load_n(&lb_tr.next_thread, __ATOMIC_RELAXED);
	uint32_t me = (uint32_t)syscall(SYS_gettid), i;
	struct lb_trace_rec r;

	if (n > LB_TR_INFLIGHT_SLOTS)
		n = LB_TR_INFLIGHT_SLOTS;
	for (i = 0; i < n; i++) {
		struct lb_inflight *f = &lb_inflight[i];
		uint32_t api1 = __atomic_load_n(&f->api1, __ATOMIC_RELAXED);
		uint32_t tid = __atomic_load_n(&f->tid, __ATOMIC_RELAXED);

		if (!api1 || api1 > LB_API_COUNT || tid == me)
			continue;
		memset(&r, 0, sizeof(r));
		r.hdr.type = LB_REC_CALL;
		r.hdr.api = (uint16_t)(api1 - 1);
		r.hdr.ret = -1;
		r.hdr.flags = LB_RF_INFLIGHT | LB_RF_ELSEWHERE;
		r.t0 = __atomic_load_n(&f->t0, __ATOMIC_RELAXED);
		r.t1 = now;
		r.a[2] = tid;
		lb_tt_emit(t, &r);
	}
}

static void lb_crash_record(struct lb_tt *t, int sig, siginfo_t *si,
			    void *uc)
{
	struct lb_frame frames[LB_TR_MAX_FRAMES]; /* 17 KiB of the altstack */
	struct lb_trace_rec r;
	uint64_t now = lb_ticks();
	int n, i;

	n = lb_backtrace(uc, frames, LB_TR_MAX_FRAMES);
	lb_clock_refine(100000000u);
	if (t->cur && t->state == LB_TT_FILE) {
		/* The call the thread was in: its arguments, no results. */
		struct lb_call c = *t->cur;

		c.ret = (hipError_t)-1;
		c.t1 = now;
		lb_call_rec(&r, &c, t);
		r.hdr.flags |= LB_RF_INFLIGHT;
		lb_tt_emit(t, &r);
	}
	memset(&r, 0, sizeof(r));
	r.hdr.type = LB_REC_CRASH;
	r.hdr.ret = (int16_t)sig;
	r.hdr.note = (uint8_t)si->si_code;
	r.hdr.device = t->device;
	r.t0 = r.t1 = now;
	r.stream = (uint64_t)(uintptr_t)si->si_addr;
	r.stream_used = r.stream;
	r.a[0] = (uint64_t)(int64_t)si->si_code;
	r.a[1] = (uint64_t)syscall(SYS_gettid);
	r.a[2] = (uint64_t)n;
	lb_tt_emit(t, &r);
	for (i = 0; i < n; i++) {
		size_t len = strlen(frames[i].name);
		uint32_t more = 0;
		char head[32] = { 0 };

		if (len > 32)
			more = lb_names_string(frames[i].name + 32, len - 32);
		memcpy(head, frames[i].name, len < 32 ? len : 32);
		memset(&r, 0, sizeof(r));
		r.hdr.type = LB_REC_FRAME;
		r.stream = frames[i].pc;
		r.stream_used = frames[i].off;
		r.a[0] = (uint32_t)i | (uint64_t)more << 32;
		memcpy(&r.t0, head, 16);
		memcpy(&r.a[1], head + 16, 16);
		lb_tt_emit(t, &r);
	}
	lb_crash_elsewhere(t, now);
	__atomic_or_fetch(&lb_tr.hdr->flags, LB_HDR_CRASHED, __ATOMIC_RELEASE);
}

static void lb_crash_handler(int sig, siginfo_t *si, void *uc)
{
	struct lb_tt *t = &lb_tt;
	int saved = errno;

	if (t->in_crash) {
		/* A fault while handling one: the default action, now. */
		struct sigaction dfl;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigaction(sig, &dfl, NULL);
	} else {
		t->in_crash = 1;
		if (lb_tr.file_on && lb_tr.hdr)
			lb_crash_record(t, sig, si, uc);
		if (lb_tr.live)
			lb_live_crash(sig, si->si_addr);
		sigaction(sig, &lb_prev[sig], NULL);
		t->in_crash = 0;
	}
	/*
	 * A fault (si_code > 0) happens again when we return, now under the
	 * restored disposition.  A signal that was sent has to be sent
	 * again; it stays pending until we return (it is blocked in here).
	 */
	if (si->si_code <= 0 || sig == SIGABRT)
		syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
	errno = saved;
}

void lb_crash_install(void)
{
	struct sigaction sa;
	unsigned i;

	if (lb_installed)
		return;
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
