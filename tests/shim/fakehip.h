/* fakehip.h - what the fake runtime tells a test about the last call. */
#ifndef FAKEHIP_H
#define FAKEHIP_H

#include <stddef.h>
#include "lbshim/hip_decls.h"

struct fakehip_call {
	int api;		 /* LB_ID_* of the last call on this thread */
	size_t size;		 /* bytes of args used */
	unsigned char args[256]; /* struct lb_args_<name> as received */
};

/* Makes every hipError_t function of the fake return ret from now on. */
void fakehip_set_ret(hipError_t ret);
/* What the fake's rows returning a name return ("fake_<api id>"). */
const char *fakehip_cstr(int api);
/* The calling thread's last call. */
const struct fakehip_call *fakehip_last(void);
/* The last call of api (any thread; api is -1 before the first). */
const struct fakehip_call *fakehip_last_of(int api);
/* Calls of api received so far, all threads. */
unsigned long fakehip_count(int api);

#endif
