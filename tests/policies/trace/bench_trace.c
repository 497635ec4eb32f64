/*
 * bench_trace.c - cost of one call through the shim on the fake runtime:
 * the median over rounds of the mean ns per call of a tight loop, and the
 * p50 / p99 of single calls timed with rdtsc.  Prints, never asserts.
 *
 *   bench_trace ROUNDS CALLS [paced]  (paced: only the paced loop)
 *                              ->  "mean_ns=M p50_ns=A p99_ns=B
 *                                  paced_mean_ns=.. paced_p50_ns=..
 *                                  paced_p99_ns=.. calls=N"
 *
 * The tight loop makes records as fast as the CPU can (tens of millions
 * a second), so its mean includes the kernel's cost of supplying fresh
 * file pages (64 records a page), which no helper thread can hide at that
 * rate.  The paced loop leaves ~1 us between calls, the rate of real HIP
 * calls, where the helper keeps ahead: its numbers are the cost a traced
 * program sees per call.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>
#include "lbshim/hip_decls.h"
#include "lbtest.h"

static int cmp_u(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 7;
	long n = argc > 2 ? atol(argv[2]) : 1000000, i;
	double *mean = calloc(rounds, sizeof(*mean)), t0, c0, rate;
	unsigned long long *one = malloc(n * sizeof(*one)), a, b, r0;
	double sum, slow_sum;
	long slow;
	struct rusage ru0, ru1;
	int r;

	/* ticks per ns, against CLOCK_MONOTONIC over 50 ms */
	c0 = lbt_now_ns();
	r0 = __rdtsc();
	while (lbt_now_ns() - c0 < 5e7)
		;
	rate = (double)(__rdtsc() - r0) / (lbt_now_ns() - c0);
	hipMemset((void *)1, 0, 0); /* first call: start-up off the clock */
	if (argc > 3 && !strcmp(argv[3], "paced"))
		rounds = 0;
	for (r = 0; r < rounds; r++) {
		t0 = lbt_now_ns();
		for (i = 0; i < n; i++)
			hipMemset((void *)1, (int)i, (size_t)i);
		mean[r] = (lbt_now_ns() - t0) / n;
	}
	for (i = 0; rounds && i < n; i++) {
		a = __rdtsc();
		hipMemset((void *)2, (int)i, (size_t)i);
		b = __rdtsc();
		one[i] = b - a;
	}
	qsort(mean, rounds, sizeof(*mean), lbt_cmp_double);
	qsort(one, n, sizeof(*one), cmp_u);
	if (rounds)
		printf("mean_ns=%.1f p50_ns=%.1f p99_ns=%.1f ", mean[rounds / 2],
		       one[n / 2] / rate, one[n * 99 / 100] / rate);
	getrusage(RUSAGE_THREAD, &ru0);
	for (i = 0, sum = 0; i < n / 4; i++) {
		unsigned long long until = __rdtsc() + (unsigned long long)(rate * 1000);

		while (__rdtsc() < until)
			;
		a = __rdtsc();
		hipMemset((void *)3, (int)i, (size_t)i);
		b = __rdtsc();
		one[i] = b - a;
		sum += b - a;
	}
	getrusage(RUSAGE_THREAD, &ru1);
	qsort(one, n / 4, sizeof(*one), cmp_u);
	printf("paced_faults=%ld paced_csw=%ld ", ru1.ru_minflt - ru0.ru_minflt,
	       ru1.ru_nivcsw - ru0.ru_nivcsw);
	for (i = 0, slow = 0, slow_sum = 0; i < n / 4; i++)
		if (one[i] / rate > 5000) {
			slow++;
			slow_sum += one[i] / rate;
		}
	printf("slow_calls=%ld slow_ns=%.0f max_ns=%.0f ", slow, slow_sum,
	       one[n / 4 - 1] / rate);
	printf("paced_mean_ns=%.1f paced_p50_ns=%.1f paced_p99_ns=%.1f "
	       "calls=%ld\n",
	       sum / rate / (n / 4), one[n / 8] / rate,
	       one[n / 4 * 99 / 100] / rate, (long)(rounds + 1) * n + n / 4 + 1);
	return 0;
}
