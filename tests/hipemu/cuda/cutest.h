/*
 * cutest.h - checks for the CUDA face's test programs (C and the host
 * code of .cu files): each failed check prints "FAIL file:line: what" and
 * counts; ct_done() prints "ok" and exits 0 only if none failed.
 */
#ifndef LB_CUTEST_H
#define LB_CUTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ct_failed;

#define CT_CHECK(cond, ...)                                               \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__,     \
				__LINE__, #cond);                         \
			fprintf(stderr, __VA_ARGS__);                     \
			fputc('\n', stderr);                              \
			ct_failed++;                                      \
		}                                                         \
	} while (0)

/* A call whose result must be want (an int-valued error code). */
#define CT_EQ(call, want)                                                 \
	do {                                                              \
		int ct_got_ = (int)(call);                                \
		CT_CHECK(ct_got_ == (int)(want), "%s = %d, want %d",      \
			 #call, ct_got_, (int)(want));                    \
	} while (0)

static inline int ct_done(void)
{
	if (ct_failed) {
		fprintf(stderr, "%d check(s) failed\n", ct_failed);
		return 1;
	}
	puts("ok");
	return 0;
}

#endif
