/*
 * safestr.c - a copy of a string the program handed us, made without
 * faulting on a bad pointer: the kernel registry's names (kreg.c) and
 * the trace's strings read it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include "shim.h"

long lb_safe_str(const char *src, char *dst, size_t cap)
{
	static int no_vm_readv;
	size_t n = 0;

	if (!cap)
		return -1;
	dst[0] = 0;
	if (!src)
		return -1;
	/*
	 * process_vm_readv() on ourselves reads like memcpy but answers a
	 * bad address with EFAULT instead of a signal: a program may hand
	 * the runtime a string the runtime never reads (a bad name that
	 * fails the call), and the shim must not be the one to crash.
	 * Page by page, since the string may end just before an unmapped
	 * page.  Where a sandbox forbids the call, plain reads (the
	 * runtime reads these strings too).
	 */
	while (n + 1 < cap) {
		uintptr_t a = (uintptr_t)src + n;
		size_t want = 4096 - (a & 4095), i;
		struct iovec l, r;
		ssize_t got;

		if (want > cap - 1 - n)
			want = cap - 1 - n;
		if (__atomic_load_n(&no_vm_readv, __ATOMIC_RELAXED)) {
			memcpy(dst + n, (const void *)a, want); /* may read past NUL */
			got = (ssize_t)want;
			goto scan;
		}
		l.iov_base = dst + n;
		l.iov_len = want;
		r.iov_base = (void *)a;
		r.iov_len = want;
		got = process_vm_readv(getpid(), &l, 1, &r, 1, 0);
		if (got < 0 && (errno == ENOSYS || errno == EPERM)) {
			__atomic_store_n(&no_vm_readv, 1, __ATOMIC_RELAXED);
			continue;
		}
		if (got <= 0)
			break;
scan:
		for (i = 0; i < (size_t)got; i++)
			if (!dst[n + i])
				return (long)(n + i);
		n += (size_t)got;
	}
	dst[n] = 0;
	return n ? (long)n : -1;
}
