/*
 * gen_big.c - writes a large valid trace fast, straight in the format of
 * include/lbshim/trace_format.h, to test lbtrace on traces far bigger than
 * memory should allow.
 *
 *	gen_big FILE RECORDS [THREADS]
 *
 * RECORDS call records spread round-robin over THREADS (default 8)
 * threads' blocks: hipMalloc, hipFree, hipMemcpy, hipMemsetAsync and
 * hipStreamSynchronize, every 97th an error, durations varying so that
 * percentiles have something to sort.  Exit 0, or 1 with a message.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lbshim/api.h"
#include "lbshim/trace_format.h"

#define BS LB_TRACE_BLOCK_SIZE

static int put(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const int apis[] = { LB_ID_hipMalloc, LB_ID_hipFree,
				    LB_ID_hipMemcpy, LB_ID_hipMemsetAsync,
				    LB_ID_hipStreamSynchronize };
	static struct lb_trace_header h;
	static char blk[BS], crash[BS];
	uint64_t n, done = 0, per_block = lb_trace_slots(BS), t = 1000, ord[256] = { 0 };
	unsigned nt, ti = 0;
	size_t o = 0;
	int fd, i;

	if (argc < 3) {
		fprintf(stderr, "usage: gen_big FILE RECORDS [THREADS]\n");
		return 1;
	}
	n = strtoull(argv[2], NULL, 10);
	nt = argc > 3 ? (unsigned)atoi(argv[3]) : 8;
	if (nt < 1 || nt > 256)
		return 1;
	fd = open(argv[1], O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	memcpy(h.magic, LB_TRACE_MAGIC, 8);
	h.version = LB_TRACE_V1; /* api_names in the header */
	h.header_size = LB_TRACE_HEADER_SIZE;
	h.rec_size = LB_TRACE_REC_SIZE;
	h.block_size = BS;
	h.pid = 4242;
	h.ppid = 1;
	h.clock_id = LB_CLOCK_MONOTONIC;
	h.ticks_per_sec = 1000000000u;
	h.start_realtime_ns = 1700000000ull * 1000000000u;
	h.start_monotonic_ns = 1000;
	h.start_ticks = 1000;
	h.flags = LB_HDR_CLEAN_EXIT;
	h.rank = UINT32_MAX;
	h.policies = 1;
	strcpy(h.host, "gen_big");
	strcpy(h.cmdline, "gen_big");
	for (i = 0; i < LB_API_COUNT; i++) {
		size_t l = strlen(lb_api_info[i].name) + 1;

		if (o + l + 1 > sizeof(h.api_names))
			break;
		memcpy(h.api_names + o, lb_api_info[i].name, l);
		o += l;
	}
	h.api_count = (uint32_t)i;
	h.blocks_used = 1 + (n + per_block - 1) / per_block;
	h.end_ticks = 1000 + n * 1500;
	h.end_realtime_ns = h.start_realtime_ns + n * 1500;
	if (put(fd, &h, sizeof(h)) || put(fd, crash, sizeof(crash)))
		goto io;
	while (done < n) {
		struct lb_trace_block *b = (void *)blk;
		struct lb_trace_rec *r = (void *)blk;
		uint64_t k, m = n - done < per_block ? n - done : per_block;

		memset(blk, 0, sizeof(blk));
		b->magic = LB_BLOCK_MAGIC;
		b->tid = 10000 + ti;
		b->thread_index = ti;
		b->ordinal = ord[ti]++;
		b->first_seq = b->ordinal * per_block;
		snprintf(b->thread_name, sizeof(b->thread_name), "gen%u", ti);
		for (k = 0; k < m; k++) {
			struct lb_trace_rec *x = &r[k + 1];
			uint64_t s = done + k;

			x->hdr.type = LB_REC_CALL;
			x->hdr.api = (uint16_t)apis[s % 5];
			x->hdr.ret = s % 97 == 0 ? hipErrorInvalidValue : 0;
			x->t0 = t;
			x->t1 = t + 200 + (s * 7919) % 5000;
			x->stream = x->stream_used = 0x1000 + ti;
			x->a[0] = 0x7f0000000000ull + s * 256;
			x->a[1] = 256;
			t += 1500;
		}
		if (put(fd, blk, sizeof(blk)))
			goto io;
		done += m;
		ti = (ti + 1) % nt;
	}
	if (close(fd))
		goto io;
	return 0;
io:
	perror(argv[1]);
	return 1;
}
