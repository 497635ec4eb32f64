/*
 * prog_rows.c - every row of hip_api.def that returns hipError_t and the
 * runtime in the process defines, called once with every argument zero
 * (null pointers, the null stream, size 0), and what it returned.
 *
 * Without a device each call is an error path of the real runtime: its
 * answer with the shim preloaded, under any policy, must be the same as
 * without it (t_rows.sh).  Rows are looked up by their exported symbol
 * (dlsym, RTLD_DEFAULT: the shim's wrapper when it is preloaded), and
 * only where the runtime itself (argv[1], opened RTLD_NOLOAD) defines the
 * symbol: the shim defines every row, whatever the runtime has.
 * Registration rows are left out (they return no hipError_t; the
 * runtime dereferences their arguments).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "lbshim/api.h"

#define ZERO_(a, x) a.x
#define CALL_hipError_t(NAME, SYM, P, A)                                  \
	do {                                                              \
		hipError_t(*fn) P;                                        \
		struct lb_args_##NAME a;                                  \
		if (!dlsym(rt, SYM)) {                                    \
			absent++;                                         \
			break;                                            \
		}                                                         \
		*(void **)&fn = dlsym(RTLD_DEFAULT, SYM);                 \
		memset(&a, 0, sizeof(a));                                 \
		printf("%s %d\n", #NAME, (int)fn(LB_MAPC(ZERO_, a, A)));  \
		fflush(stdout);                                           \
		called++;                                                 \
	} while (0)
#define CALL_void(NAME, SYM, P, A)
#define CALL_int(NAME, SYM, P, A)
#define CALL_lb_modules_t(NAME, SYM, P, A)
#define CALL_lb_cstr_t(NAME, SYM, P, A)
#define ROW(RET, NAME, SYM, P, A, KIND)                                    \
	if (LB_KIND_##KIND != LB_KIND_REG && (!only || !strcmp(only, #NAME))) { \
		CALL_##RET(NAME, SYM, P, A);                               \
	}

int main(int argc, char **argv)
{
	const char *only = argc > 2 ? argv[2] : NULL;
	void *rt = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD) : NULL;
	int called = 0, absent = 0;

	if (!rt) {
		printf("runtime %s not loaded\n", argc > 1 ? argv[1] : "?");
		return 2;
	}
#define LB_API_AS(SYM, RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	ROW(RET, NAME, SYM, P, A, KIND)
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	ROW(RET, NAME, #NAME, P, A, KIND)
#include "lbshim/hip_api.def"
#undef LB_API
#undef LB_API_AS
	printf("called %d, absent %d\n", called, absent);
	return 0;
}
