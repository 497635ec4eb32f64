/*
 * log.c - the shim's own messages: "lbshim: ..." on stderr.
 *
 * One write(2) per message so lines of several threads do not interleave,
 * and no stdio, whose locks a forked child or a signal could find taken.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "shim.h"

int lb_log_level = LB_LOG_WARN;

void lb_log(int level, const char *fmt, ...)
{
	char buf[1024];
	int saved = errno, n;
	va_list ap;

	if (level > lb_log_level)
		return;
	memcpy(buf, "lbshim: ", 8);
	va_start(ap, fmt);
	n = vsnprintf(buf + 8, sizeof(buf) - 9, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	n += 8;
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	buf[n++] = '\n';
	if (write(STDERR_FILENO, buf, n) < 0) {
		/* nowhere left to report it */
	}
	errno = saved;
}
