/*
 * trace_unwind.c - libunwind opened at run time (trace_unwind.h).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include "lbshim/pp.h"
#include "trace.h"
#include "trace_unwind.h"

struct lb_unwind lb_unw;
static pthread_once_t lb_unw_once = PTHREAD_ONCE_INIT;

/* libunwind.h's macro for NAME is the symbol to look up. */
#define LB_UNW_SYM(h, field, name)                                     \
	(lb_unw.field = (__typeof__(lb_unw.field))dlsym(h, LB_STR(name)), \
	 lb_unw.field != NULL)

static void lb_unwind_load(void)
{
	static const char *const names[] = { "libunwind.so.8",
					     "libunwind.so" };
	void *h = NULL;
	unsigned i;
	int ok;

	for (i = 0; !h && i < sizeof(names) / sizeof(names[0]); i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		dlerror(); /* ours, not the program's */
		lb_log(LB_LOG_WARN, "trace: libunwind.so.8 cannot be loaded: "
				    "crash records will have no backtrace");
		return;
	}
	ok = LB_UNW_SYM(h, step, unw_step) &&
	     LB_UNW_SYM(h, get_reg, unw_get_reg) &&
	     LB_UNW_SYM(h, get_proc_name, unw_get_proc_name) &&
	     LB_UNW_SYM(h, get_proc_info, unw_get_proc_info) &&
#if defined(__x86_64__) && defined(unw_init_local2)
	     LB_UNW_SYM(h, init_local2, unw_init_local2);
#else
	     LB_UNW_SYM(h, init_local, unw_init_local) &&
	     LB_UNW_SYM(h, is_signal_frame, unw_is_signal_frame);
#endif
	dlerror();
	if (!ok) {
		lb_log(LB_LOG_WARN, "trace: libunwind lacks a function the "
				    "shim calls: crash records will have no "
				    "backtrace");
		return;
	}
	__atomic_store_n(&lb_unw.ok, 1, __ATOMIC_RELEASE);
}

int lb_unwind_open(void)
{
	pthread_once(&lb_unw_once, lb_unwind_load);
	return __atomic_load_n(&lb_unw.ok, __ATOMIC_ACQUIRE);
}
