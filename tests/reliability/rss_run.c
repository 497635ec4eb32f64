/*
 * rss_run.c - runs a command and prints its peak resident set size.
 *
 *	rss_run CMD [ARGS...]
 *
 * Prints "maxrss_kb N" on stderr after the command ends (getrusage of the
 * child), exits with the command's status (128 + signal if killed).  The
 * command's stdout is left alone.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int st;
	pid_t p;

	if (argc < 2) {
		fprintf(stderr, "usage: rss_run CMD [ARGS...]\n");
		return 2;
	}
	p = fork();
	if (p < 0)
		return 2;
	if (p == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(p, &st, 0, &ru) != p)
		return 2;
	fprintf(stderr, "maxrss_kb %ld\n", ru.ru_maxrss);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
