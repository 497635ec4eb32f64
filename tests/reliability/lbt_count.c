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
	size_t o;

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
	if (memcmp(h->magic, LB_TRACE_MAGIC, 8) || h->rec_size != 64 ||
	    h->block_size < 4096 || h->block_size % 4096 ||
	    h->header_size != LB_TRACE_HEADER_SIZE) {
		fprintf(stderr, "%s: not a trace\n", argv[1]);
		return 2;
	}
	for (a = 0, o = 0; a < MAX_API && o < sizeof(h->api_names) &&
			   h->api_names[o];
	     a++) {
		names[a] = h->api_names + o;
		o += strnlen(h->api_names + o, sizeof(h->api_names) - o) + 1;
	}
	for (off = LB_TRACE_HEADER_SIZE; off + h->block_size <= (uint64_t)st.st_size;
	     off += h->block_size) {
		const struct lb_trace_block *b = (const void *)(m + off);
		const struct lb_trace_rec *rec = (const void *)(m + off);
		uint32_t k, slots = lb_trace_slots(h->block_size);

		if (b->magic != LB_BLOCK_MAGIC)
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
