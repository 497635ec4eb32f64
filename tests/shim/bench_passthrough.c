/*
 * bench_passthrough.c - what the shim adds to a call when no policy is on,
 * against a runtime whose calls return at once (the fake runtime).
 *
 * In one process, alternating rounds: the program's hipStreamQuery (the
 * shim's wrapper, preloaded) and the fake's own, called through the pointer
 * the runtime exports.  Median of the rounds.  Printed, never asserted.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "lbshim/hip_decls.h"
#include "lbtest.h"

#define ROUNDS 9
#define CALLS 5000000

static double per_call(hipError_t (*volatile fn)(hipStream_t))
{
	double t = lbt_now_ns();
	long i;

	for (i = 0; i < CALLS; i++)
		fn((hipStream_t)(uintptr_t)i);
	return (lbt_now_ns() - t) / CALLS;
}

int main(void)
{
	void *h = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
	hipError_t (*direct)(hipStream_t) = h ? dlsym(h, "hipStreamQuery") : NULL;
	double s[ROUNDS], d[ROUNDS], diff[ROUNDS];
	int r;

	if (!direct) {
		fprintf(stderr, "bench: fake runtime not loaded\n");
		return 1;
	}
	if (direct == hipStreamQuery)
		fprintf(stderr, "bench: warning: the shim is not preloaded\n");
	per_call(hipStreamQuery); /* warm up, and initialize the shim */
	for (r = 0; r < ROUNDS; r++) {
		s[r] = per_call(hipStreamQuery);
		d[r] = per_call(direct);
		diff[r] = s[r] - d[r];
	}
	qsort(s, ROUNDS, sizeof(double), lbt_cmp_double);
	qsort(d, ROUNDS, sizeof(double), lbt_cmp_double);
	qsort(diff, ROUNDS, sizeof(double), lbt_cmp_double);
	printf("pass-through: %.2f ns added per call (shim %.2f ns, runtime "
	       "%.2f ns; median of %d rounds of %d calls; goal <= 2 ns)\n",
	       diff[ROUNDS / 2], s[ROUNDS / 2], d[ROUNDS / 2], ROUNDS, CALLS);
	return 0;
}
