/*
 * trace_file.c - the trace file: its name, creation, descriptor and space
 * (what the header says is trace_header.c; the helper thread that maps
 * blocks ahead is trace_helper.c).
 *
 * The file is never written with write(2): it is a shared mapping, so a
 * record is in the page cache (and so in the file) as soon as its last
 * store is made, whatever kills the process.  Space is reserved with
 * fallocate before a block is mapped: a store into a sparse hole of a full
 * disk would raise SIGBUS in the program; this way a full disk is an error
 * code, one warning, and the end of tracing.
 *
 * The descriptor is the program's to close by mistake: programs close
 * descriptors they did not open (closefrom, close_range, a daemon's loop
 * over every number), close one twice, or dup2 onto a number they chose.
 * So it is kept high, out of the way of open(2)'s lowest-free numbers, and
 * its identity (device, inode) is checked before each use, and a new block
 * is reserved, mapped or written through a checked duplicate made for that
 * use (lb_fd_take); once the number is not the trace file any more it is
 * never used again (see lb_fd_get).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "trace.h"

static char lb_path[PATH_MAX];
static dev_t lb_fd_dev; /* identity of the file behind lb_tr.fd */
static ino_t lb_fd_ino;

/* ---- file name ---- */

/*
 * Appends v to the name, keeping only [A-Za-z0-9._-] and no "..": an
 * expanded value (a host name, an environment variable) must not be able
 * to move the file to another directory.
 */
static size_t lb_put_clean(char *out, size_t o, size_t cap, const char *v)
{
	for (; *v && o + 1 < cap; v++) {
		char ch = *v;
		int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			 (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' ||
			 ch == '.';

		if (!ok || (ch == '.' && (o == 0 || out[o - 1] == '.' ||
					  out[o - 1] == '/')))
			ch = '_';
		out[o++] = ch;
	}
	return o;
}

static void lb_utoa(uint64_t v, char *buf)
{
	char tmp[24];
	int n = 0;

	do
		tmp[n++] = '0' + v % 10;
	while (v /= 10);
	while (n)
		*buf++ = tmp[--n];
	*buf = 0;
}

/* Expands the LBSHIM_TRACE pattern into out (cap bytes). */
static void lb_expand(const char *pat, char *out, size_t cap)
{
	char num[24], host[65];
	size_t o = 0;
	const char *p;

	for (p = pat; *p && o + 1 < cap; p++) {
		if (*p != '%' || !p[1]) {
			out[o++] = *p;
			continue;
		}
		switch (*++p) {
		case 'p':
			lb_utoa((uint64_t)getpid(), num);
			o = lb_put_clean(out, o, cap, num);
			break;
		case 't':
			lb_utoa(lb_tr.start_real / 1000000000u, num);
			o = lb_put_clean(out, o, cap, num);
			break;
		case 'h':
			if (gethostname(host, sizeof(host) - 1))
				strcpy(host, "host");
			host[sizeof(host) - 1] = 0;
			o = lb_put_clean(out, o, cap, host);
			break;
		case 'r':
			o = lb_put_clean(out, o, cap,
					 lb_trace_rank_str() ?
					 lb_trace_rank_str() : "0");
			break;
		case '%':
			out[o++] = '%';
			break;
		default: /* unknown: kept as it is */
			out[o++] = '%';
			if (o + 1 < cap)
				out[o++] = *p;
			break;
		}
	}
	out[o] = 0;
}

/*
 * name with ".N" before the extension of its last component ("a/x.lbt"
 * -> "a/x.1.lbt"), or at the end when it has none.
 */
static void lb_sibling(const char *name, unsigned n, char *out, size_t cap)
{
	const char *slash = strrchr(name, '/');
	const char *base = slash ? slash + 1 : name;
	const char *dot = strrchr(base, '.');
	char num[24];
	size_t head;

	if (!dot || dot == base)
		dot = name + strlen(name);
	head = (size_t)(dot - name);
	lb_utoa(n, num);
	if (head + strlen(num) + 2 + strlen(dot) > cap) {
		out[0] = 0;
		return;
	}
	memcpy(out, name, head);
	out[head] = '.';
	memcpy(out + head + 1, num, strlen(num));
	memcpy(out + head + 1 + strlen(num), dot, strlen(dot) + 1);
}

/*
 * Creates a new file: never opens an existing one (O_EXCL), never follows
 * a symlink planted at the name (O_EXCL implies it; O_NOFOLLOW says so),
 * only the owner may read it.  On EEXIST tries numbered siblings.
 */
static int lb_create(const char *name, char *used, size_t cap)
{
	const int fl = O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_RDWR;
	unsigned n;
	int fd;

	if (strlen(name) + 1 > cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(used, name, strlen(name) + 1);
	fd = open(used, fl, 0600);
	for (n = 1; fd < 0 && (errno == EEXIST || errno == ELOOP) && n < 1000;
	     n++) {
		lb_sibling(name, n, used, cap);
		if (!used[0]) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = open(used, fl, 0600);
	}
	return fd;
}

/* ---- space ---- */

/* Reserves [off, off + len) of the file at fd; 0 or an errno value. */
static int lb_reserve(int fd, uint64_t off, uint64_t len)
{
	static const char zeros[4096];
	uint64_t end = off + len, have;

	if (end > lb_tr.fsize_limit)
		return EFBIG; /* past RLIMIT_FSIZE: SIGXFSZ would kill us */
	if (!fallocate(fd, 0, (off_t)off, (off_t)len))
		goto ok;
	if (errno != EOPNOTSUPP && errno != ENOSYS)
		return errno;
	/* No fallocate here: zeros written allocate the space as well. */
	while (off < end) {
		size_t n = end - off < sizeof(zeros) ? end - off : sizeof(zeros);
		ssize_t w = pwrite(fd, zeros, n, (off_t)off);

		if (w <= 0)
			return w < 0 ? errno : ENOSPC;
		off += (uint64_t)w;
	}
ok:
	have = __atomic_load_n(&lb_tr.file_size, __ATOMIC_RELAXED);
	while (have < end && !__atomic_compare_exchange_n(
				     &lb_tr.file_size, &have, end, 1,
				     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	return 0;
}

/* ---- the descriptor ---- */

/*
 * Moves fd to a number near the top of what programs use: open(2) hands
 * out the lowest free number, so a program reaches this one only by
 * closing or dup2'ing numbers it did not open, or by holding all the
 * lower ones.  Not above 1023: a higher number would grow the process's
 * descriptor table (copied by every fork) for one descriptor.  Below
 * RLIMIT_NOFILE's soft limit, the highest free of the few tried.
 * Returns the new descriptor (close-on-exec; fd is closed), or fd when
 * none could be had.
 */
static int lb_fd_high(int fd)
{
	struct rlimit rl;
	long top = 1024;
	int i, hi;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < (rlim_t)top)
		top = (long)rl.rlim_cur;
	for (i = 1; i <= 16 && top - i > fd; i++) {
		hi = fcntl(fd, F_DUPFD_CLOEXEC, (int)(top - i));
		if (hi >= 0 && hi < top) {
			close(fd);
			return hi;
		}
		if (hi >= 0)
			close(hi); /* top - i is taken: try below it */
		else if (errno != EMFILE)
			break;
	}
	return fd;
}

static int lb_fd_is_trace(int fd, struct stat *st)
{
	return !fstat(fd, st) && st->st_dev == lb_fd_dev &&
	       st->st_ino == lb_fd_ino;
}

/*
 * The program closed or replaced the trace's descriptor (fd, the number
 * seen): give the number up for good, whatever is there now is the
 * program's.  The blocks already mapped stay and are written on (a
 * mapping does not need its descriptor); no block is added.  One warning,
 * unless tracing had stopped already and said so.
 */
static void lb_fd_lost(int fd)
{
	if (!__atomic_compare_exchange_n(&lb_tr.fd, &fd, -1, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return; /* another thread saw it first */
	if (__atomic_load_n(&lb_tr.stopped, __ATOMIC_ACQUIRE))
		return;
	if (lb_tr.hdr)
		__atomic_or_fetch(&lb_tr.hdr->flags, LB_HDR_STOPPED,
				  __ATOMIC_RELEASE);
	lb_log(LB_LOG_WARN,
	       "trace: the program closed or replaced descriptor %d (%s); "
	       "the trace keeps the blocks already mapped and grows no more",
	       fd, lb_path);
}

/*
 * The trace's descriptor, checked (fstat into st) to be the trace file
 * still; -1 when the shim has none, or has just found that the program
 * closed or replaced it (lb_fd_lost).  Called before each use of the
 * descriptor, never per record.  What this cannot see: a program that
 * puts its own file at the number between this check and the use that
 * follows it (a few system calls later).  Async-signal-safe; errno may
 * change.
 */
static int lb_fd_get(struct stat *st)
{
	int fd = __atomic_load_n(&lb_tr.fd, __ATOMIC_ACQUIRE);

	if (fd < 0)
		return -1;
	if (lb_fd_is_trace(fd, st))
		return fd;
	lb_fd_lost(fd);
	return -1;
}

/*
 * A descriptor of the trace file for one use (reserve and map a chunk,
 * write a block) that the program cannot reach: a duplicate, at a number
 * it never saw, checked to be the trace file.  Checking the shared number
 * and then using it leaves a window in which the program can put its own
 * file there (dup2 onto the number it found in /proc/self/fd): the chunk
 * would be reserved and mapped in the program's file, past its end, and
 * the first store into it would raise SIGBUS (seen under ASan in CI).  A
 * duplicate is the trace file whatever the program does to the shared
 * number after the check.  It is put high (from half the shared number
 * up), away from open(2)'s lowest-free numbers and a double close's
 * victims.  When no descriptor is left for it (EMFILE), the shared number
 * itself, checked (and the window).  Returns the descriptor, with *own
 * set when it is a duplicate to close (lb_fd_put); -1 when the shim has
 * no trace descriptor any more (the program closed or replaced it, said
 * once by lb_fd_lost).
 */
static int lb_fd_take(int *own)
{
	int fd = __atomic_load_n(&lb_tr.fd, __ATOMIC_ACQUIRE), d;
	struct stat st;

	*own = 0;
	if (fd < 0)
		return -1;
	d = fcntl(fd, F_DUPFD_CLOEXEC, fd / 2);
	if (d < 0)
		return errno == EBADF ? (lb_fd_lost(fd), -1) : lb_fd_get(&st);
	if (lb_fd_is_trace(d, &st)) {
		*own = 1;
		return d;
	}
	close(d); /* a duplicate of the program's file: only ours closed */
	lb_fd_lost(fd);
	return -1;
}

/*
 * Ends a use of lb_fd_take's descriptor.  When the use failed (failed:
 * 1), looks at the shared number once more, so that a failure caused by
 * the program closing descriptors is told as that (lb_fd_lost), not as
 * the error it caused.  errno is kept.
 */
static void lb_fd_put(int d, int own, int failed)
{
	int saved = errno;
	struct stat st;

	if (own)
		close(d);
	if (failed)
		lb_fd_get(&st);
	errno = saved;
}

/*
 * Closes the trace's descriptor if it is the trace file still (never the
 * program's file at that number); lb_tr.fd is -1 afterwards.
 */
static void lb_fd_close(void)
{
	int fd = __atomic_exchange_n(&lb_tr.fd, -1, __ATOMIC_ACQ_REL);
	struct stat st;

	if (fd >= 0 && lb_fd_is_trace(fd, &st))
		close(fd);
}

/* ---- stopping ---- */

/* Marks the file stopped; returns 1 for the first caller (who warns). */
static int lb_stop_once(void)
{
	if (__atomic_exchange_n(&lb_tr.stopped, 1, __ATOMIC_ACQ_REL))
		return 0;
	if (lb_tr.hdr)
		__atomic_or_fetch(&lb_tr.hdr->flags, LB_HDR_STOPPED,
				  __ATOMIC_RELEASE);
	return 1;
}

void lb_file_stop(const char *what, int err)
{
	int saved = errno;

	/* No descriptor: the loss was said (lb_fd_lost), and is the cause. */
	if (lb_stop_once() && __atomic_load_n(&lb_tr.fd, __ATOMIC_ACQUIRE) >= 0)
		lb_log(LB_LOG_WARN, "trace: %s %s: %s; tracing stopped", what,
		       lb_path, strerror(err));
	errno = saved;
}

int lb_file_gone(void)
{
	int saved = errno, gone;
	struct stat st;

	if (__atomic_load_n(&lb_tr.stopped, __ATOMIC_ACQUIRE))
		return 0;
	/* Only the trace file itself: never a file of the program's. */
	gone = lb_fd_get(&st) >= 0 && st.st_nlink == 0;
	if (gone && lb_stop_once()) {
		lb_log(LB_LOG_WARN, "trace: %s was removed; tracing stopped",
		       lb_path);
		__atomic_store_n(&lb_tr.gone, 1, __ATOMIC_RELEASE);
		if (__atomic_load_n(&lb_tr.helper_pid, __ATOMIC_RELAXED))
			lb_helper_kick(); /* it lets go of the file */
	}
	errno = saved;
	return gone;
}

uintptr_t lb_file_map_chunk(unsigned n, int populate)
{
	uint64_t k, off, len = (uint64_t)n * lb_tr.block_size;
	void *m;
	int err, fd, own;

	if (__atomic_load_n(&lb_tr.stopped, __ATOMIC_ACQUIRE) || !lb_tr.hdr)
		return 0;
	fd = lb_fd_take(&own);
	if (fd < 0)
		return 0;
	k = __atomic_fetch_add(&lb_tr.hdr->blocks_used, n, __ATOMIC_RELAXED);
	off = lb_tr.data_off + k * lb_tr.block_size;
	err = lb_reserve(fd, off, len);
	if (err && n > 1 &&
	    __atomic_compare_exchange_n(&lb_tr.hdr->blocks_used,
					(uint64_t[]){ k + n }, k, 0,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		/*
		 * A staging ring is megabytes: a nearly full disk may still
		 * take single blocks.  Only when the ring's blocks could be
		 * given back (no block was handed out after them): a hole
		 * would be a block that a reader of a full tmpfs faults on.
		 */
		n = 1;
		len = lb_tr.block_size;
		k = __atomic_fetch_add(&lb_tr.hdr->blocks_used, 1,
				       __ATOMIC_RELAXED);
		off = lb_tr.data_off + k * len;
		err = lb_reserve(fd, off, len);
	}
	if (err) {
		lb_fd_put(fd, own, 1);
		lb_file_stop("cannot extend", err);
		return 0;
	}
	m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_SHARED | (populate ? MAP_POPULATE : 0), fd, (off_t)off);
	lb_fd_put(fd, own, m == MAP_FAILED);
	if (m == MAP_FAILED) {
		/* Stop: each new try would reserve more of the file. */
		lb_file_stop("cannot map", errno);
		return 0;
	}
	if (populate) {
		/*
		 * MAP_POPULATE faults a shared mapping in for reading only;
		 * a store of 0 to each page (slot headers, still 0) makes
		 * the pages writable here, not in the writer's call.
		 */
		char *p;

		for (p = m; p < (char *)m + len; p += 4096)
			*(volatile char *)p = 0;
	}
	return lb_chunk_enc(m, n);
}

int lb_file_write_block(const void *blk)
{
	uint64_t k, off, len = lb_tr.block_size, done = 0, have;
	int fd, err, own;

	if (__atomic_load_n(&lb_tr.stopped, __ATOMIC_ACQUIRE) || !lb_tr.hdr)
		return -1;
	fd = lb_fd_take(&own);
	if (fd < 0)
		return -1;
	k = __atomic_fetch_add(&lb_tr.hdr->blocks_used, 1, __ATOMIC_RELAXED);
	off = lb_tr.data_off + k * len;
	if (off + len > lb_tr.fsize_limit) {
		/* past RLIMIT_FSIZE: SIGXFSZ would kill the program */
		lb_fd_put(fd, own, 0);
		lb_file_stop("cannot extend", EFBIG);
		return -1;
	}
	/*
	 * No space is reserved: nothing maps this block, so a full disk is
	 * pwrite's ENOSPC here, never a SIGBUS in the program.
	 */
	while (done < len) {
		ssize_t w = pwrite(fd, (const char *)blk + done, len - done,
				   (off_t)(off + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err = w < 0 ? errno : ENOSPC;
			/* Give the block back if it is the last: no hole. */
			__atomic_compare_exchange_n(&lb_tr.hdr->blocks_used,
						    (uint64_t[]){ k + 1 }, k, 0,
						    __ATOMIC_RELAXED,
						    __ATOMIC_RELAXED);
			lb_fd_put(fd, own, 1);
			lb_file_stop("cannot write", err);
			return -1;
		}
		done += (uint64_t)w;
	}
	lb_fd_put(fd, own, 0);
	have = __atomic_load_n(&lb_tr.file_size, __ATOMIC_RELAXED);
	while (have < off + len &&
	       !__atomic_compare_exchange_n(&lb_tr.file_size, &have, off + len,
					    1, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
	return 0;
}

void lb_file_unmap_chunk(uintptr_t v)
{
	if (v)
		munmap(lb_chunk_map(v),
		       (size_t)lb_chunk_n(v) * lb_tr.block_size);
}

int lb_file_open(void)
{
	const char *pat = lb_getenv("LBSHIM_TRACE");
	char name[PATH_MAX];
	struct rlimit rl;
	struct stat st;
	uint64_t first;
	void *m;
	int err, fd;

	if (!pat || !*pat)
		pat = "lbshim.%p.lbt";
	lb_expand(pat, name, sizeof(name));
	lb_tr.fsize_limit = UINT64_MAX;
	if (!getrlimit(RLIMIT_FSIZE, &rl) && rl.rlim_cur != RLIM_INFINITY)
		lb_tr.fsize_limit = rl.rlim_cur;
	fd = lb_create(name, lb_path, sizeof(lb_path));
	if (fd >= 0) {
		fd = lb_fd_high(fd);
		if (fstat(fd, &st)) {
			err = errno;
			close(fd);
			fd = -1;
			errno = err;
		}
	}
	if (fd < 0) {
		lb_log(LB_LOG_WARN, "trace: cannot create %s: %s; no trace file",
		       name, strerror(errno));
		return -1;
	}
	lb_fd_dev = st.st_dev;
	lb_fd_ino = st.st_ino;
	lb_tr.fd = fd;
	lb_tr.data_off = lb_header_bytes();
	first = lb_tr.data_off + (uint64_t)lb_tr.block_size;
	lb_tr.file_size = 0;
	lb_tr.stopped = 0;
	err = lb_reserve(fd, 0, first);
	if (err) {
		lb_log(LB_LOG_WARN, "trace: cannot extend %s: %s; no trace file",
		       lb_path, strerror(err));
		goto fail;
	}
	m = mmap(NULL, first, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		lb_log(LB_LOG_WARN, "trace: cannot map %s: %s; no trace file",
		       lb_path, strerror(errno));
		goto fail;
	}
	lb_tr.hdr = m;
	lb_tr.crash_blk = (char *)m + lb_tr.data_off;
	lb_tr.crash_next = 0;
	lb_tr.next_str = 1;
	lb_header_fill(lb_tr.hdr);
	lb_log(LB_LOG_INFO, "trace: writing %s", lb_path);
	return 0;
fail:
	close(lb_tr.fd);
	lb_tr.fd = -1;
	return -1;
}

void lb_file_close(void)
{
	struct lb_trace_header *h = lb_tr.hdr;

	if (!h)
		return;
	lb_clock_refine(10000000u);
	h->end_ticks = lb_ticks();
	h->end_realtime_ns = lb_clock_ns(CLOCK_REALTIME);
	__atomic_or_fetch(&h->flags, LB_HDR_CLEAN_EXIT, __ATOMIC_RELEASE);
	/*
	 * The mappings stay: other threads may still record until the
	 * process is gone (runtime destructors run after us), and the
	 * mappings keep the file without the descriptor.  No new block
	 * after this (stopped first: the number may be reused at once).
	 */
	__atomic_store_n(&lb_tr.stopped, 1, __ATOMIC_SEQ_CST);
	lb_fd_close();
}

void lb_file_fork_child(void)
{
	int i;

	/*
	 * The parent's file is a shared mapping: a store from here would
	 * land in the parent's trace.  Unmap what we know of; the blocks of
	 * the parent's other threads are never written (those threads do
	 * not exist here).
	 */
	for (i = 0; i < LB_TR_SPARES; i++) {
		lb_file_unmap_chunk(lb_tr.spare[i]);
		lb_file_unmap_chunk(lb_tr.retire[i]);
		lb_tr.spare[i] = lb_tr.retire[i] = 0;
		lb_tr.want[i] = 0;
	}
	if (lb_tr.hdr)
		munmap(lb_tr.hdr, lb_tr.data_off + lb_tr.block_size);
	lb_tr.hdr = NULL;
	lb_tr.crash_blk = NULL;
	lb_fd_close(); /* the child's copy; the parent keeps its own */
	lb_tr.helper_pid = 0;
	lb_tr.gone = 0;
	lb_tr.stop = 0;
	lb_tr.waiting = 0;
	lb_tr.stopped = 0;
}

/*
 * The file was removed: free its space by holding it no longer (writers
 * drop their blocks at their next one).  The header mapping becomes
 * private memory with the same contents at the same address (mremap over
 * it: never a moment without a mapping there, so a thread storing into
 * it meanwhile is safe), and the descriptor is closed if it is still the
 * file's.  A writer that raced past the stopped check finds the number
 * closed (its call fails harmlessly) or, if the program got the number
 * meanwhile, not the trace file (lb_fd_get: it gives up); the number is
 * high, so open(2) hands it out only to a program holding every lower one.
 */
void lb_file_let_go(void)
{
	size_t len = lb_tr.data_off + lb_tr.block_size;
	void *m;

	m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m != MAP_FAILED) {
		memcpy(m, lb_tr.hdr, len);
		if (mremap(m, len, len, MREMAP_MAYMOVE | MREMAP_FIXED,
			   lb_tr.hdr) == MAP_FAILED)
			munmap(m, len);
	}
	lb_fd_close();
}
