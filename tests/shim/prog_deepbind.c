/*
 * prog_deepbind.c - opens libraries the ways that matter to the shim's
 * dlopen wrapper and prints what dlopen, dlerror and errno said, so that a
 * test can compare runs with and without the shim.  It calls no HIP
 * function itself: the wrapper must work before the shim's start-up.
 *
 * Usage: prog_deepbind [-o OPENER] ARG...; each ARG is MODE:FILE with MODE
 *   d  dlopen(FILE, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)
 *   l  dlopen(FILE, RTLD_NOW | RTLD_LOCAL)
 *   D, L  the same, called from OPENER's rt_open() (a library with its
 *         own RUNPATH, where a bare FILE is searched)
 * A library with rt_ext_run (rt_ext.c) is run too.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	void *(*rt_open)(const char *, int) = NULL;
	int i = 1;

	if (argc > 2 && !strcmp(argv[1], "-o")) {
		void *o = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);

		rt_open = o ? (void *(*)(const char *, int))dlsym(o, "rt_open")
			    : NULL;
		if (!rt_open) {
			printf("no opener: %s\n", dlerror());
			return 1;
		}
		i = 3;
	}
	for (; i < argc; i++) {
		char m = argv[i][0];
		const char *file = argv[i] + 2;
		int mode = RTLD_NOW | RTLD_LOCAL, e;
		void (*run)(char *, size_t);
		const char *err;
		char line[256];
		void *h;

		if (m == 'd' || m == 'D')
			mode |= RTLD_DEEPBIND;
		errno = 1234;
		h = (m == 'D' || m == 'L') ? rt_open(file, mode) :
					     dlopen(file, mode);
		e = errno;
		err = dlerror();
		printf("%s: %s errno=%d", argv[i], h ? "ok" : "failed", e);
		printf(" dlerror=%s", err ? err : "(null)");
		run = h ? (void (*)(char *, size_t))dlsym(h, "rt_ext_run") :
			  NULL;
		if (run) {
			run(line, sizeof(line));
			printf(" %s", line);
		}
		printf("\n");
		fflush(stdout);
	}
	return 0;
}
