/*
 * tfd.c - a program that handles descriptors the way real programs do,
 * some of them carelessly, while it makes HIP calls: the trace tests run
 * it under the shim to check that the shim never works on the program's
 * files (t_fds.sh).
 *
 *   tfd pattern FILE     writes the 4096-byte data pattern to FILE
 *   tfd closefrom FILE   closefrom(3) after the first calls, then FILE
 *   tfd closerange FILE  the same with the close_range system call
 *   tfd dup2 FILE        FILE dup2'd onto the trace's descriptor
 *   tfd twice FILE       a descriptor closed twice: the second close hits
 *                        whatever has that number now
 *   tfd tmpfile          an unlinked temporary file at the trace's number,
 *                        checked by reading it back ("tmpfile ok")
 *   tfd calls            the calls alone (tfdrace.so, preloaded, does the
 *                        descriptor business inside the shim's own calls)
 *
 * Each mode makes 100 hipMemset(1, ...) calls, does its descriptor
 * business, makes one hipMemset(2, ...) call, writes the pattern to its
 * file, then makes many hipMemset(3, ...) calls (far more than one block
 * holds, so that the trace needs new blocks).  The trace's descriptor is
 * found the way a careless program would stumble on it: by its number
 * (here, the /proc/self/fd entry whose target ends in ".lbt").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "lbshim/hip_decls.h"
#include "tfd_lbt.h"

#define DATA_SIZE 4096
#define AFTER_CALLS 40000

static void pattern(unsigned char *buf)
{
	int i;

	for (i = 0; i < DATA_SIZE; i++)
		buf[i] = (unsigned char)(i * 7 + i / 251);
}

static void calls(uintptr_t tag, long n)
{
	long i;

	for (i = 0; i < n; i++)
		hipMemset((void *)tag, (int)i, (size_t)i);
}

/* Calls for about ms milliseconds, so that the shim's helper looks too. */
static void paced(uintptr_t tag, long ms)
{
	struct timespec ts = { 0, 1000000 };
	long i;

	for (i = 0; i < ms; i++) {
		calls(tag, 100);
		nanosleep(&ts, NULL);
	}
}

static int write_all(int fd, const unsigned char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w <= 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

static int open_data(const char *name)
{
	int fd = open(name, O_CREAT | O_TRUNC | O_RDWR, 0644);

	if (fd < 0) {
		perror(name);
		exit(2);
	}
	return fd;
}

static int write_data(int fd)
{
	unsigned char buf[DATA_SIZE];

	pattern(buf);
	if (write_all(fd, buf, sizeof(buf))) {
		perror("write");
		return 1;
	}
	return 0;
}

/* Data file at fd, then the calls that need new blocks; closes fd. */
static int finish(int fd)
{
	int rc;

	calls(2, 1);
	rc = write_data(fd);
	calls(3, AFTER_CALLS);
	paced(3, 300);
	if (close(fd)) {
		perror("close");
		rc = 1;
	}
	return rc;
}

/* An unlinked file of the program's at the trace's number, read back. */
static int tmpfile_mode(void)
{
	unsigned char want[DATA_SIZE], got[DATA_SIZE];
	char name[] = "tfd.XXXXXX";
	int n = tfd_trace_number(), fd;
	struct stat st;
	ssize_t r;

	if (n < 0) {
		fprintf(stderr, "tfd: no trace descriptor\n");
		return 2;
	}
	close(n); /* "ours", the program thinks */
	fd = mkstemp(name);
	if (fd < 0 || unlink(name)) {
		perror("mkstemp");
		return 2;
	}
	if (fd != n) {
		if (dup2(fd, n) < 0) {
			perror("dup2");
			return 2;
		}
		close(fd);
	}
	calls(2, 1);
	pattern(want);
	if (write_all(n, want, sizeof(want)))
		return 1;
	calls(3, AFTER_CALLS);
	paced(3, 600); /* the shim's helper looks every 0.2 s */
	r = pread(n, got, sizeof(got), 0);
	if (fstat(n, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 0 ||
	    st.st_size != DATA_SIZE || r != DATA_SIZE ||
	    memcmp(want, got, sizeof(got))) {
		printf("tmpfile bad: read %zd, size %lld, links %lu, mode %o\n",
		       r, (long long)st.st_size, (unsigned long)st.st_nlink,
		       (unsigned)st.st_mode);
		return 1;
	}
	printf("tmpfile ok\n");
	close(n);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	const char *file = argc > 2 ? argv[2] : NULL;
	int fd, n;

	if (!strcmp(mode, "pattern") && file) {
		fd = open_data(file);
		n = write_data(fd);
		return close(fd) || n;
	}
	if (!strcmp(mode, "twice") && file) {
		/* A descriptor of its own, closed, then closed once more. */
		fd = open("/dev/null", O_RDONLY);
		close(fd);
		calls(1, 100); /* the shim opens its file here */
		close(fd);
		return finish(open_data(file));
	}
	calls(1, 100);
	if (!strcmp(mode, "tmpfile"))
		return tmpfile_mode();
	if (!strcmp(mode, "calls")) {
		calls(2, 1);
		calls(3, AFTER_CALLS);
		paced(3, 300);
		return 0;
	}
	if (!file) {
		fprintf(stderr, "usage: tfd MODE [FILE]\n");
		return 2;
	}
	if (!strcmp(mode, "closefrom")) {
		closefrom(3);
		return finish(open_data(file));
	}
	if (!strcmp(mode, "closerange")) {
		if (syscall(SYS_close_range, 3u, ~0u, 0u)) {
			perror("close_range");
			return 2;
		}
		return finish(open_data(file));
	}
	if (!strcmp(mode, "dup2")) {
		n = tfd_trace_number();
		if (n < 0) {
			fprintf(stderr, "tfd: no trace descriptor\n");
			return 2;
		}
		fd = open_data(file);
		if (dup2(fd, n) < 0) {
			perror("dup2");
			return 2;
		}
		close(fd);
		return finish(n);
	}
	fprintf(stderr, "tfd: unknown mode %s\n", mode);
	return 2;
}
