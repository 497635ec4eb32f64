/*
 * prog_loop.c - the command the run tests run: prints the environment
 * lbtrace run set (one "env NAME=VALUE" line each), makes N rounds of
 * hipMalloc / hipLaunchKernel-free work / hipFree / hipDeviceSynchronize,
 * sleeps MS milliseconds, and exits with STATUS.
 *
 *   prog_loop N [MS [STATUS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "lbshim/hip_decls.h"

int main(int argc, char **argv)
{
	static const char *const vars[] = { "LD_PRELOAD", "LBSHIM_POLICIES",
					    "LBSHIM_RUN_ID", "LBSHIM_TRACE" };
	int n = argc > 1 ? atoi(argv[1]) : 10;
	long ms = argc > 2 ? atol(argv[2]) : 0;
	int status = argc > 3 ? atoi(argv[3]) : 0, i;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	void *p;

	for (i = 0; i < 4; i++) {
		const char *v = getenv(vars[i]);

		printf("env %s=%s\n", vars[i], v ? v : "");
	}
	fflush(stdout);
	for (i = 0; i < n; i++) {
		if (hipMalloc(&p, 4096 + 256 * (size_t)i) != hipSuccess)
			return 10;
		if (hipFree(p) != hipSuccess)
			return 11;
	}
	if (hipDeviceSynchronize() != hipSuccess)
		return 12;
	if (ms)
		nanosleep(&ts, NULL);
	return status;
}
