/*
 * prog_fork.c - HIP calls before fork, in the forked child, and in a
 * program the child execs: each must go through the shim (the exec'd image
 * gets it again from LD_PRELOAD) and reach the runtime.
 * Prints one line per stage; exit status 0 when all stages worked.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lbshim/hip_decls.h"
#include "fakehip.h"

/* 0 when hipGetDevice is the shim's and forwards the runtime's answer. */
static int stage(const char *name)
{
	Dl_info info;
	int dev = -1, r = hipGetDevice(&dev);
	int shim = dladdr((void *)hipGetDevice, &info) &&
		   strstr(info.dli_fname, "lbshim");

	printf("%s: ret=%d shim=%d\n", name, r, shim);
	fflush(stdout);
	return !(r == hipErrorInvalidHandle && shim);
}

int main(int argc, char **argv)
{
	int status;
	pid_t pid;

	fakehip_set_ret(hipErrorInvalidHandle);
	if (argc > 1 && !strcmp(argv[1], "exec"))
		return stage("exec");
	if (stage("parent"))
		return 1;
	pid = fork();
	if (pid == 0) {
		if (stage("child"))
			_exit(1);
		execl("/proc/self/exe", argv[0], "exec", (char *)NULL);
		_exit(2);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
