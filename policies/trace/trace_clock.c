/*
 * trace_clock.c - the clock of the trace records.
 *
 * rdtsc costs a few ns where clock_gettime costs 20-50, and the record
 * path takes two per call, so records carry raw TSC ticks when the CPU
 * says its TSC runs at a constant rate in every power state
 * (constant_tsc and nonstop_tsc in /proc/cpuinfo); elsewhere, or on other
 * architectures, CLOCK_MONOTONIC nanoseconds.  The rate is measured
 * against CLOCK_MONOTONIC: a short first estimate at start, refined later
 * over a longer interval (by the helper thread, at exit, at a crash), so
 * that a reader converts every tick with one rate.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "trace.h"

int lb_clock_tsc;

/* Does the first "flags" line of /proc/cpuinfo name both TSC flags? */
static int lb_cpu_has_stable_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	char buf[8192], *p, *eol;
	ssize_t n, got = 0;
	int fd = open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while (got < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = 0;
	p = strstr(buf, "\nflags");
	if (!p)
		return 0;
	eol = strchr(p + 1, '\n');
	if (eol)
		*eol = 0;
	return strstr(p, " constant_tsc") && strstr(p, " nonstop_tsc");
#else
	return 0;
#endif
}

/*
 * One (monotonic, ticks, realtime) triple: the ticks read between the two
 * closest of a few monotonic pairs, so the three agree within ~100 ns.
 */
static void lb_clock_triple(uint64_t *mono, uint64_t *ticks, uint64_t *real)
{
	uint64_t best = UINT64_MAX;
	int i;

	for (i = 0; i < 5; i++) {
		uint64_t m0 = lb_clock_ns(CLOCK_MONOTONIC);
		uint64_t t = lb_ticks();
		uint64_t m1 = lb_clock_ns(CLOCK_MONOTONIC);

		if (m1 - m0 < best) {
			best = m1 - m0;
			*mono = m0 + (m1 - m0) / 2;
			*ticks = t;
		}
	}
	*real = lb_clock_ns(CLOCK_REALTIME);
}

void lb_clock_start(void)
{
	uint64_t m1, t1, r1, until;

	lb_clock_tsc = lb_cpu_has_stable_tsc();
	lb_clock_triple(&lb_tr.start_mono, &lb_tr.start_ticks,
			&lb_tr.start_real);
	if (!lb_clock_tsc) {
		lb_tr.rate = 1000000000u;
		return;
	}
	/* 2 ms first estimate (~20 ppm); refined later. */
	until = lb_tr.start_mono + 2000000u;
	while (lb_clock_ns(CLOCK_MONOTONIC) < until)
		;
	lb_clock_triple(&m1, &t1, &r1);
	lb_tr.rate = (uint64_t)((double)(t1 - lb_tr.start_ticks) * 1e9 /
				(double)(m1 - lb_tr.start_mono));
	if (!lb_tr.rate) {
		lb_clock_tsc = 0;
		lb_tr.rate = 1000000000u;
	}
}

void lb_clock_restart(void)
{
	lb_clock_triple(&lb_tr.start_mono, &lb_tr.start_ticks,
			&lb_tr.start_real);
}

void lb_clock_refine(uint64_t min_ns)
{
	uint64_t m, t, r, rate;

	if (!lb_clock_tsc)
		return;
	lb_clock_triple(&m, &t, &r);
	if (m - lb_tr.start_mono < min_ns || t <= lb_tr.start_ticks)
		return;
	rate = (uint64_t)((double)(t - lb_tr.start_ticks) * 1e9 /
			  (double)(m - lb_tr.start_mono));
	if (!rate)
		return;
	__atomic_store_n(&lb_tr.rate, rate, __ATOMIC_RELAXED);
	if (lb_tr.hdr)
		__atomic_store_n(&lb_tr.hdr->ticks_per_sec, rate,
				 __ATOMIC_RELAXED);
}

uint64_t lb_ticks_to_ns(uint64_t ticks)
{
	uint64_t rate = __atomic_load_n(&lb_tr.rate, __ATOMIC_RELAXED);

	if (!lb_clock_tsc || !rate)
		return ticks;
	return (uint64_t)((double)ticks * 1e9 / (double)rate);
}
