/*
 * tfdrace.c - preloaded before the shim (t_fds.sh): a program that puts a
 * file of its own at the trace's descriptor number at the worst moment,
 * between the shim's check of the number and its use.  It wraps the calls
 * the shim makes on the trace file once it checked it (fallocate, which
 * reserves a new chunk before it is mapped, and pwrite, which copies a
 * staged block into place): at the chosen call on the trace file it
 * creates TFDRACE_FILE (empty) and dup2s it onto the trace's number, the
 * highest descriptor whose target ends in ".lbt" (the one a program finds
 * in /proc/self/fd), then lets the call go on with the descriptor it was
 * given.  A shim that uses the shared number after its check reserves,
 * maps or writes the program's file then (a changed file, or a SIGBUS at
 * the first store past its end).
 *
 *   TFDRACE_FILE  the program's file
 *   TFDRACE_ON    "fallocate" or "pwrite": the call that triggers
 *   TFDRACE_SKIP  how many of those calls on the trace file go first
 *                 (the file's creation reserves its header with fallocate)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include "tfd_lbt.h"

/* At the chosen call named what on the trace file: the program's move. */
static void maybe_race(const char *what, int fd)
{
	static int seen, done;
	const char *on = getenv("TFDRACE_ON"), *file = getenv("TFDRACE_FILE");
	const char *skip = getenv("TFDRACE_SKIP");
	int n, mine;

	if (done || !on || !file || strcmp(on, what) || !tfd_ends_lbt(fd))
		return;
	if (__atomic_fetch_add(&seen, 1, __ATOMIC_RELAXED) <
	    (skip ? atoi(skip) : 0))
		return;
	if (__atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL))
		return;
	n = tfd_trace_number();
	mine = open(file, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0644);
	if (n < 0 || mine < 0 || dup2(mine, n) < 0) {
		perror("tfdrace");
		_exit(3);
	}
	close(mine);
}

int fallocate(int fd, int mode, off_t off, off_t len)
{
	int (*real)(int, int, off_t, off_t) =
		(int (*)(int, int, off_t, off_t))dlsym(RTLD_NEXT, "fallocate");

	maybe_race("fallocate", fd);
	return real(fd, mode, off, len);
}

int fallocate64(int fd, int mode, off_t off, off_t len)
{
	return fallocate(fd, mode, off, len);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	ssize_t (*real)(int, const void *, size_t, off_t) =
		(ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT,
								     "pwrite");

	maybe_race("pwrite", fd);
	return real(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	return pwrite(fd, buf, n, off);
}
