/*
 * reader_batch.c - the reader's reads of a file: one piece by pread (what
 * every window of the reader takes), and many small pieces at evenly
 * spaced offsets (the block headers at open: 64 bytes per 64 KiB block)
 * through one io_uring instead of one pread each.
 *
 * Why: under the hypervisor of the bench machines a system call costs
 * ~2.5 us besides its work, and a 6 M-record trace has 5 866 blocks:
 * 11-14 ms of pread against ~6 ms of ring (issue 16; lbtrace summary's
 * goal is 100 ms of CPU for those 6 M records).  The ring is set up with
 * raw system calls (<linux/io_uring.h>; no liburing), and every failure
 * (no io_uring in the kernel, a seccomp filter, kernel.io_uring_disabled,
 * an old kernel without IORING_OP_READ, a short read) falls back to
 * pread, piece by piece: the result is the same bytes either way.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/io_uring.h>
#include "read/reader_priv.h"

#define RING_ENTRIES 256u

struct ring {
	int fd;
	void *sq, *cq;
	size_t sq_len, cq_len;
	struct io_uring_sqe *sqes;
	size_t sqes_len;
	unsigned *sq_tail, *sq_mask, *sq_array;
	unsigned *cq_head, *cq_tail, *cq_mask;
	struct io_uring_cqe *cqes;
};

static void ring_close(struct ring *r)
{
	if (r->sqes)
		munmap(r->sqes, r->sqes_len);
	if (r->cq)
		munmap(r->cq, r->cq_len);
	if (r->sq)
		munmap(r->sq, r->sq_len);
	close(r->fd);
}

static void *ring_map(int fd, size_t len, off_t what)
{
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, fd, what);

	return m == MAP_FAILED ? NULL : m;
}

/* 0, or -1: no ring (errno kept). */
static int ring_open(struct ring *r)
{
	struct io_uring_params p;
	int saved = errno;

	memset(r, 0, sizeof(*r));
	memset(&p, 0, sizeof(p));
	r->fd = (int)syscall(__NR_io_uring_setup, RING_ENTRIES, &p);
	if (r->fd < 0) {
		errno = saved;
		return -1;
	}
	r->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	r->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	r->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	r->sq = ring_map(r->fd, r->sq_len, IORING_OFF_SQ_RING);
	r->cq = ring_map(r->fd, r->cq_len, IORING_OFF_CQ_RING);
	r->sqes = ring_map(r->fd, r->sqes_len, IORING_OFF_SQES);
	if (!r->sq || !r->cq || !r->sqes || p.sq_entries < RING_ENTRIES ||
	    p.cq_entries < RING_ENTRIES) {
		ring_close(r);
		errno = saved;
		return -1;
	}
	r->sq_tail = (unsigned *)((char *)r->sq + p.sq_off.tail);
	r->sq_mask = (unsigned *)((char *)r->sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned *)((char *)r->sq + p.sq_off.array);
	r->cq_head = (unsigned *)((char *)r->cq + p.cq_off.head);
	r->cq_tail = (unsigned *)((char *)r->cq + p.cq_off.tail);
	r->cq_mask = (unsigned *)((char *)r->cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)((char *)r->cq + p.cq_off.cqes);
	return 0;
}

/* (reader_priv.h) */
void lbt_read_piece(int fd, uint64_t off, size_t len, char *buf)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = pread(fd, buf + got, len - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	memset(buf + got, 0, len - got);
}

/*
 * Pieces [i, i + k) through the ring; each piece the ring did not read
 * whole is read again by pread.  0; 1 when the ring failed before taking
 * any (none read); -1 when it failed with reads maybe under way (none to
 * be trusted, and buf must then never be freed: a late read still writes
 * there, the same bytes).
 */
static int ring_batch(struct ring *r, int fd, uint64_t first, uint64_t step,
		      size_t i, unsigned k, size_t len, char *buf)
{
	unsigned tail = *r->sq_tail, j, done = 0, queued = k;
	int saved = errno;

	for (j = 0; j < k; j++) {
		unsigned at = (tail + j) & *r->sq_mask;
		struct io_uring_sqe *e = &r->sqes[at];

		memset(e, 0, sizeof(*e));
		e->opcode = IORING_OP_READ;
		e->fd = fd;
		e->addr = (uintptr_t)(buf + (i + j) * len);
		e->len = (uint32_t)len;
		e->off = first + (i + j) * step;
		e->user_data = i + j;
		r->sq_array[at] = at;
	}
	__atomic_store_n(r->sq_tail, tail + k, __ATOMIC_RELEASE);
	while (done < k) {
		long n = syscall(__NR_io_uring_enter, r->fd, queued, k - done,
				 IORING_ENTER_GETEVENTS, NULL, 0);
		unsigned head, ctail;

		if (n < 0 && errno != EINTR && errno != EAGAIN &&
		    errno != EBUSY) {
			errno = saved;
			return queued == k && !done ? 1 : -1;
		}
		if (n > 0)
			queued -= (unsigned)n < queued ? (unsigned)n : queued;
		head = *r->cq_head;
		ctail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);
		for (; head != ctail; head++) {
			const struct io_uring_cqe *c = &r->cqes[head &
								*r->cq_mask];
			size_t p = (size_t)c->user_data;

			if (c->res != (int32_t)len)
				lbt_read_piece(fd, first + p * step, len,
					   buf + p * len);
			done++;
		}
		__atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
	}
	errno = saved;
	return 0;
}

int lbt_read_strided(int fd, uint64_t first, uint64_t step, size_t n,
		     size_t len, void *buf, int use_ring)
{
	struct ring r;
	size_t i = 0;
	int used = 0, rc = 0;

	if (use_ring && n >= 64 && len <= UINT32_MAX && !ring_open(&r)) {
		for (; i < n && !rc; i += rc ? 0 : RING_ENTRIES) {
			unsigned k = n - i < RING_ENTRIES ? (unsigned)(n - i)
							  : RING_ENTRIES;

			rc = ring_batch(&r, fd, first, step, i, k, len, buf);
			used |= !rc;
		}
		if (rc >= 0)
			ring_close(&r); /* else it stays open: reads are
					 * under way into buf */
	}
	for (; i < n; i++)
		lbt_read_piece(fd, first + i * step, len, (char *)buf + i * len);
	return rc < 0 ? -1 : used;
}
