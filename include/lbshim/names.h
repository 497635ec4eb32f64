/*
 * names.h - names of the codes found in traces (shim/hip_names.c, shared by
 * lbtrace and the shim).  Each
 * returns NULL for a value it does not know; callers print the number.
 */
#ifndef LBTRACE_NAMES_H
#define LBTRACE_NAMES_H

/* hipError_t value CODE ("hipErrorOutOfMemory"). */
const char *lbt_hip_error_name(int code);

/* Entries of the hipError_t table, and entry I (0-based): its value,
 * with its name in *NAME. */
int lbt_hip_error_count(void);
int lbt_hip_error_at(int i, const char **name);

/* hipMemcpyKind value KIND. */
const char *lbt_memcpy_kind_name(unsigned kind);

/* Signal number SIGNO ("SIGSEGV"). */
const char *lbt_signal_name(int signo);

/* si_code CODE of signal SIGNO ("SEGV_MAPERR"). */
const char *lbt_si_code_name(int signo, int code);

#endif
