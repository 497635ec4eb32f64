/*
 * lbt_count.c - a test oracle for trace files, independent of lbtrace:
 * reads a .lbt straight from include/lbshim/trace_format.h and prints
 *
 *	valid 1
 *	pid P
 *	flags F            (header flags, LB_HDR_*)
 *	calls N            (committed call records)
 *	lost L             (sum of LOST records' counts)
 *	crashes C
 *	threads T          (distinct tids owning blocks)
 *	call API RET COUNT (one line per api and return code)
 *
 * Exit 0 on a readable trace, 2 when the file is not a trace (with one
 * line on stderr).  Never trusts a field to index memory unchecked.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lbshim/trace_format.h"

#define MAX_API 512
#define MAX_RET 1024
#define MAX_TID 4096

static unsigned long counts[MAX_API][MAX_RET];
static const char *names[MAX_API];
static int tids[MAX_TID], ntids;

/*
 * A staged block may be in the file twice (its copy and the staged block
 * itself, same thread and ordinal) when the writer died between the copy
 * and the clearing, lbshim-trace(5): only the one with more records
 * counts.  bk[] lists every non-ring block; losers are marked.
 */
struct bkey {
	uint32_t ti, tid;
	uint64_t ord, off;
	uint32_t n;
	int dup;
};
static struct bkey *bk;

static int cmp_bkey(const void *x, const void *y)
{
	const struct bkey *a = x, *b = y;

	if (a->ti != b->ti)
		return a->ti < b->ti ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->ord != b->ord)
		return a->ord < b->ord ? -1 : 1;
	if (a->n != b->n)
		return a->n > b->n ? -1 : 1; /* more records first */
	return a->off < b->off ? -1 : a->off > b->off;
}

static int cmp_off(const void *x, const void *y)
{
	const struct bkey *a = x, *b = y;

	return a->off < b->off ? -1 : a->off > b->off;
}

/* Where block 0 starts: the header (version 2: and its name table). */
static uint64_t hsize;

static size_t dedup_index(const unsigned char *m, uint64_t size, uint32_t bs)
{
	uint32_t slots = lb_trace_slots(bs), k;
	uint64_t off;
	size_t n = 0, i;

	bk = calloc(size / bs + 1, sizeof(*bk));
	if (!bk)
		exit(2);
	for (off = hsize; off + bs <= size; off += bs) {
		const struct lb_trace_block *b = (const void *)(m + off);
		const struct lb_trace_rec *rec = (const void *)(m + off);

		if (b->magic != LB_BLOCK_MAGIC || (b->flags & LB_BLK_RING))
			continue;
		for (k = 1; k <= slots && rec[k].hdr.type; k++)
			;
		bk[n++] = (struct bkey){ b->thread_index, b->tid, b->ordinal,
					 off, k - 1, 0 };
	}
	qsort(bk, n, sizeof(*bk), cmp_bkey);
	for (i = 1; i < n; i++)
		bk[i].dup = bk[i].ti == bk[i - 1].ti &&
			    bk[i].tid == bk[i - 1].tid &&
			    bk[i].ord == bk[i - 1].ord;
	qsort(bk, n, sizeof(*bk), cmp_off);
	return n;
}

static int is_dup(uint64_t off, size_t n)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (bk[mid].off == off)
			return bk[mid].dup;
		if (bk[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static void note_tid(int tid)
{
	int i;

	for (i = 0; i < ntids; i++)
		if (tids[i] == tid)
			return;
	if (ntids < MAX_TID)
		tids[ntids++] = tid;
}

int main(int argc, char **argv)
{
	const struct lb_trace_header *h;
	unsigned long calls = 0, lost = 0, crashes = 0;
	unsigned char *m;
	struct stat st;
	uint64_t off;
	int fd, a, r;
	size_t o, nb;

	if (argc != 2) {
		fprintf(stderr, "usage: lbt_count FILE\n");
		return 1;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size < LB_TRACE_HEADER_SIZE) {
		fprintf(stderr, "%s: cannot read or too short\n", argv[1]);
		return 2;
	}
	m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		fprintf(stderr, "%s: cannot map\n", argv[1]);
		return 2;
	}
	h = (const void *)m;
	hsize = h->header_size;
	if (memcmp(h->magic, LB_TRACE_MAGIC, 8) || h->rec_size != 64 ||
	    h->block_size < 4096 || h->block_size % 4096 ||
	    (h->version == LB_TRACE_V1 ? hsize != LB_TRACE_HEADER_SIZE :
	     h->version != LB_TRACE_VERSION || hsize % 4096 ||
	     hsize > (uint64_t)st.st_size ||
	     h->names_off < LB_TRACE_HEADER_SIZE || !h->names_len ||
	     (uint64_t)h->names_off + h->names_len > hsize ||
	     m[h->names_off + h->names_len - 1])) {
		fprintf(stderr, "%s: not a trace\n", argv[1]);
		return 2;
	}
	if (h->version == LB_TRACE_V1) {
		for (a = 0, o = 0; a < MAX_API && o < sizeof(h->api_names) &&
				   h->api_names[o];
		     a++) {
			names[a] = h->api_names + o;
			o += strnlen(h->api_names + o,
				     sizeof(h->api_names) - o) + 1;
		}
	} else {
		const char *t = (const char *)m + h->names_off;

		for (a = 0, o = 0; a < MAX_API && t[o]; a++) {
			names[a] = t + o;
			o += strlen(t + o) + 1;
		}
	}
	nb = dedup_index(m, (uint64_t)st.st_size, h->block_size);
	for (off = hsize; off + h->block_size <= (uint64_t)st.st_size;
	     off += h->block_size) {
		const struct lb_trace_block *b = (const void *)(m + off);
		const struct lb_trace_rec *rec = (const void *)(m + off);
		uint32_t k, slots = lb_trace_slots(h->block_size);

		if (b->magic != LB_BLOCK_MAGIC || is_dup(off, nb))
			continue;
		note_tid((int)b->tid);
		for (k = 1; k <= slots; k++) {
			const struct lb_trace_rec *x = &rec[k];

			if (!x->hdr.type) {
				if (b->flags & LB_BLK_RING)
					continue;
				break;
			}
			switch (x->hdr.type) {
			case LB_REC_CALL:
				calls++;
				a = x->hdr.api < MAX_API ? x->hdr.api : MAX_API - 1;
				r = x->hdr.ret >= 0 && x->hdr.ret < MAX_RET ?
					    x->hdr.ret : MAX_RET - 1;
				counts[a][r]++;
				break;
			case LB_REC_LOST:
				lost += x->a[0];
				break;
			case LB_REC_CRASH:
				crashes++;
				break;
			}
		}
	}
	printf("valid 1\npid %u\nflags %u\ncalls %lu\nlost %lu\ncrashes %lu\n"
	       "threads %d\n",
	       h->pid, h->flags, calls, lost, crashes, ntids);
	for (a = 0; a < MAX_API; a++)
		for (r = 0; r < MAX_RET; r++)
			if (counts[a][r])
				printf("call %s %d %lu\n",
				       names[a] ? names[a] : "?", r,
				       counts[a][r]);
	return 0;
}
