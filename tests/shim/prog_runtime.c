/*
 * prog_runtime.c - opens extensions (rt_ext.c builds) with dlopen and runs
 * them, then says how many calls each one's runtime received and which
 * HIP runtimes the process has mapped, so a test can check where the
 * calls went and that the shim loaded no second runtime.
 *
 * Usage: prog_runtime [-g] [-d] [-f] [-p] EXT...
 *   -g  open RTLD_GLOBAL (default RTLD_LOCAL)
 *   -d  open RTLD_DEEPBIND too
 *   -f  full paths in the mapped: line
 *   -p  run rt_ext_pitch instead of rt_ext_run
 * Prints per extension "EXT: <rt_ext_run's line> calls=<hipMalloc calls
 * its runtime received>" (no calls= on a runtime that does not count
 * them: a real one), then "mapped: <dir/file>..." of every object whose
 * name contains libamdhip64, in load order; with -f, the full paths.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lbshim/api.h"

/* The last two components of path: "so6/libamdhip64.so.6". */
static const char *tail2(const char *path)
{
	const char *s = path + strlen(path);
	int slashes = 0;

	while (s > path) {
		if (s[-1] == '/' && ++slashes == 2)
			break;
		s--;
	}
	return s;
}

static int mapped_one(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	if (info->dlpi_name && strstr(info->dlpi_name, "libamdhip64"))
		printf(" %s", data ? info->dlpi_name : tail2(info->dlpi_name));
	return 0;
}

int main(int argc, char **argv)
{
	int mode = RTLD_NOW | RTLD_LOCAL, i = 1, full = 0, pitch = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-g"))
			mode = (mode & ~RTLD_LOCAL) | RTLD_GLOBAL;
		else if (!strcmp(argv[i], "-d"))
			mode |= RTLD_DEEPBIND;
		else if (!strcmp(argv[i], "-f"))
			full = 1;
		else if (!strcmp(argv[i], "-p"))
			pitch = 1;
	}
	for (; i < argc; i++) {
		void *h = dlopen(argv[i], mode);
		void (*run)(char *, size_t);
		unsigned long (*count)(int);
		char line[256];

		if (!h) {
			printf("%s: %s\n", tail2(argv[i]), dlerror());
			continue;
		}
		run = (void (*)(char *, size_t))dlsym(
			h, pitch ? "rt_ext_pitch" : "rt_ext_run");
		count = (unsigned long (*)(int))dlsym(h, "fakehip_count");
		if (!run) {
			printf("%s: no rt_ext_run\n", tail2(argv[i]));
			continue;
		}
		run(line, sizeof(line));
		/* a real runtime counts nothing (tests/realrocm) */
		if (count)
			printf("%s: %s calls=%lu\n", tail2(argv[i]), line,
			       count(LB_ID_hipMalloc));
		else
			printf("%s: %s\n", tail2(argv[i]), line);
	}
	printf("mapped:");
	dl_iterate_phdr(mapped_one, full ? &full : NULL);
	printf("\n");
	fflush(stdout);
	return 0;
}
