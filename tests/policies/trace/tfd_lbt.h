/*
 * tfd_lbt.h - finding the trace's descriptor the way a program does, by
 * its target in /proc/self/fd (tfd.c, tfdrace.c).
 */
#ifndef TFD_LBT_H
#define TFD_LBT_H

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether fd's target ends in ".lbt". */
static inline int tfd_ends_lbt(int fd)
{
	char path[64], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	return n > 4 && !memcmp(target + n - 4, ".lbt", 4);
}

/*
 * The highest descriptor whose target ends in ".lbt" (the shim's number;
 * it may hold a duplicate below it for a moment), or -1.
 */
static inline int tfd_trace_number(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int best = -1;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);

		if (e->d_name[0] != '.' && fd > best && fd != dirfd(d) &&
		    tfd_ends_lbt(fd))
			best = fd;
	}
	closedir(d);
	return best;
}

#endif
