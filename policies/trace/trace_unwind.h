/*
 * trace_unwind.h - libunwind, opened when the crash handler is installed
 * instead of linked: a machine without libunwind.so.8 (the GPU machine
 * had none) must still run every program with the shim preloaded; the
 * crash records then carry no backtrace, and the shim says so once.
 *
 * The functions are the ones libunwind.h's macros name for local
 * unwinding (UNW_LOCAL_ONLY: _ULx86_64_step and the like), looked up by
 * those same names, so the types come from the header.
 */
#ifndef LB_TRACE_UNWIND_H
#define LB_TRACE_UNWIND_H

#define UNW_LOCAL_ONLY
#include <libunwind.h>

struct lb_unwind {
	int ok; /* every function below was found */
#if defined(__x86_64__) && defined(unw_init_local2)
	__typeof__(unw_init_local2) *init_local2;
#else
	__typeof__(unw_init_local) *init_local;
	__typeof__(unw_is_signal_frame) *is_signal_frame;
#endif
	__typeof__(unw_step) *step;
	__typeof__(unw_get_reg) *get_reg;
	__typeof__(unw_get_proc_name) *get_proc_name;
	__typeof__(unw_get_proc_info) *get_proc_info;
};
extern struct lb_unwind lb_unw;

/*
 * Opens libunwind (libunwind.so.8, else libunwind.so) and fills lb_unw,
 * once; not from a signal handler.  Returns lb_unw.ok.  Says once on
 * stderr when it cannot: crash records then have no frames.
 */
int lb_unwind_open(void);

#endif
