/*
 * thang.c - a case that hangs, as an evaluation harness meets it
 * (t_hang.sh): the main thread waits in a sync behind a stream callback
 * that sleeps, until it is killed.
 *
 *   thang stream|device [own-before|own-after]
 *
 * stream: hipStreamSynchronize of the stream the callback is on; device:
 * hipDeviceSynchronize.  The callback writes the main thread's tid to the
 * file THANG_MARK once the main thread is asleep inside the sync (it makes
 * no other blocking call after setting `syncing`), so the test kills the
 * process only then.  It gives up waiting after 30 s, and sleeps 60 s:
 * then the program ends normally rather than hang the test.
 *
 * THANG_CALLS=n: n more hipMemsetAsync calls before the callback (to go
 * round a small trace ring).
 *
 * own-before, own-after: the program has a SIGTERM handler of its own,
 * installed before its first HIP call or after it (the shim has started
 * by then); the handler writes "own handler" and ends with _exit(7).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "lbshim/hip_decls.h"
#include "lbtest.h"

static pid_t main_tid;
static int syncing;

static void nap(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

/* Writes the marker whole (a rename), so the test never reads half. */
static void mark(void)
{
	const char *path = getenv("THANG_MARK");
	char tmp[4096];
	FILE *f;

	if (!path)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%d\n", (int)main_tid);
	fclose(f);
	rename(tmp, path);
}

static void stall(hipStream_t s, hipError_t st, void *ud)
{
	int i;

	(void)s;
	(void)st;
	(void)ud;
	for (i = 0; i < 300000 && !(__atomic_load_n(&syncing,
						     __ATOMIC_ACQUIRE) &&
				    lbt_thread_state(main_tid) == 'S');
	     i++)
		nap(100000);
	mark();
	for (i = 0; i < 600; i++)
		nap(100000000);
}

static void own_term(int sig)
{
	static const char msg[] = "own handler\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(8);
	_exit(7);
}

static void own_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = own_term;
	sigaction(SIGTERM, &sa, NULL);
}

int main(int argc, char **argv)
{
	const char *own = argc > 2 ? argv[2] : "";
	hipStream_t s;
	void *buf;
	long n;

	if (argc < 2 || (strcmp(argv[1], "stream") && strcmp(argv[1], "device")))
		return 2;
	main_tid = (pid_t)syscall(SYS_gettid);
	if (!strcmp(own, "own-before"))
		own_handler();
	if (hipSetDevice(0) || hipStreamCreate(&s) || hipMalloc(&buf, 4096))
		return 3;
	if (!strcmp(own, "own-after"))
		own_handler();
	hipMemsetAsync(buf, 0, 4096, s);
	for (n = getenv("THANG_CALLS") ? atol(getenv("THANG_CALLS")) : 0;
	     n > 0; n--)
		hipMemsetAsync(buf, (int)n, 4096, s);
	if (hipStreamAddCallback(s, stall, NULL, 0))
		return 4;
	__atomic_store_n(&syncing, 1, __ATOMIC_RELEASE);
	if (!strcmp(argv[1], "stream"))
		hipStreamSynchronize(s);
	else
		hipDeviceSynchronize();
	puts("done");
	return 0;
}
