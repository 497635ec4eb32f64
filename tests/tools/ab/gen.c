/*
 * gen.c - writes synthetic but valid trace files with known duration
 * distributions, for testing `lbtrace ab` without running anything.
 *
 *   gen -o FILE [-r RUN_ID] [-s SEED] [-m MULT] [-T START_S] [-w WALL_MS]
 *       [-c] SPEC...
 *
 * SPEC is [THREAD/]API:COUNT:BASE_NS:SPREAD_NS: COUNT calls of API on the
 * thread named THREAD ("main" by default), each lasting
 * MULT * (BASE_NS + u), u uniform in [0, SPREAD_NS) from a generator seeded
 * with SEED, so two files of the same seed and MULT 1 and 2 have exactly
 * doubled durations.  Launch APIs name the kernel _Z6encodePfi.  The
 * header says the process started at START_S (unix seconds) and ran
 * WALL_MS * MULT milliseconds, exiting cleanly unless -c (crashed: no end
 * time, flag CRASHED).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lbshim/api.h"
#include "lbshim/trace_format.h"

#define MAX_THREADS 16
#define KERNEL "_Z6encodePfi"

struct thread {
	char name[16];
	uint32_t tid, index;
	size_t block;		/* offset of its current block, 0: none */
	uint64_t ordinal, nslots;
	uint64_t now;		/* ticks */
};

static uint8_t *img;
static size_t img_len, nblocks;
static struct thread threads[MAX_THREADS];
static int nthreads;
static uint64_t rng = 1;

static uint64_t next_rand(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Appends a zeroed block; returns its offset (the image may move). */
static size_t new_block(void)
{
	size_t off = LB_TRACE_HEADER_SIZE + nblocks * LB_TRACE_BLOCK_SIZE;

	img = realloc(img, off + LB_TRACE_BLOCK_SIZE);
	if (!img) {
		perror("gen");
		exit(2);
	}
	memset(img + off, 0, LB_TRACE_BLOCK_SIZE);
	img_len = off + LB_TRACE_BLOCK_SIZE;
	nblocks++;
	return off;
}

static struct thread *thread_of(const char *name)
{
	int i;

	for (i = 0; i < nthreads; i++)
		if (!strcmp(threads[i].name, name))
			return &threads[i];
	if (nthreads == MAX_THREADS) {
		fprintf(stderr, "gen: too many threads\n");
		exit(1);
	}
	snprintf(threads[i].name, sizeof(threads[i].name), "%s", name);
	threads[i].tid = 1000 + (uint32_t)i;
	threads[i].index = (uint32_t)i;
	threads[i].block = 0;
	threads[i].now = 2000000000ull;
	return &threads[nthreads++];
}

/* Next free slot of thread T, starting a block when needed. */
static struct lb_trace_rec *slot(struct thread *t)
{
	uint32_t per = lb_trace_slots(LB_TRACE_BLOCK_SIZE);
	struct lb_trace_block *b;

	if (!t->block || t->nslots == per) {
		if (t->block)
			t->ordinal++;
		t->block = new_block();
		t->nslots = 0;
		b = (struct lb_trace_block *)(img + t->block);
		b->magic = LB_BLOCK_MAGIC;
		b->tid = t->tid;
		b->ordinal = t->ordinal;
		b->thread_index = t->index;
		b->first_seq = t->ordinal * per;
		snprintf(b->thread_name, sizeof(b->thread_name), "%s", t->name);
	}
	return (struct lb_trace_rec *)(img + t->block + LB_TRACE_REC_SIZE *
				       (1 + t->nslots++));
}

static void add_kernel_string(struct thread *t)
{
	struct lb_trace_rec *r;
	uint8_t *p;
	char text[48] = KERNEL;

	r = slot(t);
	p = (uint8_t *)r;
	memcpy(p + 8, text, 32);
	memcpy(p + 48, text + 32, 16);
	r->a[0] = 1u | (0ull << 32) | (1ull << 48);
	r->hdr.type = LB_REC_STRING;
}

static void add_calls(const char *spec, double mult)
{
	char tname[64] = "main", api[128];
	unsigned long count, base, spread, i;
	const char *s = spec, *slash = strchr(spec, '/');
	struct thread *t;
	int id;

	if (slash) {
		snprintf(tname, sizeof(tname), "%.*s", (int)(slash - spec), spec);
		s = slash + 1;
	}
	if (sscanf(s, "%127[^:]:%lu:%lu:%lu", api, &count, &base, &spread) != 4) {
		fprintf(stderr, "gen: bad spec %s\n", spec);
		exit(1);
	}
	id = lb_api_lookup(api);
	if (id < 0) {
		fprintf(stderr, "gen: unknown API %s\n", api);
		exit(1);
	}
	t = thread_of(tname);
	for (i = 0; i < count; i++) {
		uint64_t d = base + (spread ? next_rand() % spread : 0);
		struct lb_trace_rec *r;

		d = (uint64_t)((double)d * mult + 0.5);
		r = slot(t);
		memset(r, 0, sizeof(*r));
		r->t0 = t->now;
		r->t1 = t->now + d;
		t->now += d + 1000;
		if (lb_api_info[id].kind == LB_KIND_LAUNCH) {
			r->a[0] = 1; /* kernel string id 1 */
			r->a[1] = 4 | (1ull << 32);
			r->a[2] = 1 | (256ull << 16) | (1ull << 32) | (1ull << 48);
		}
		r->hdr.api = (uint16_t)id;
		r->hdr.type = LB_REC_CALL;
	}
	if (lb_api_info[id].kind == LB_KIND_LAUNCH)
		add_kernel_string(t);
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	uint64_t run_id = 0, start_s = 1700000000, seed = 1;
	double mult = 1, wall_ms = 1000;
	struct lb_trace_header *h;
	int c, crashed = 0, i;
	size_t off;
	FILE *f;
	char *p;

	while ((c = getopt(argc, argv, "o:r:s:m:T:w:c")) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'r': run_id = strtoull(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'm': mult = strtod(optarg, NULL); break;
		case 'T': start_s = strtoull(optarg, NULL, 0); break;
		case 'w': wall_ms = strtod(optarg, NULL); break;
		case 'c': crashed = 1; break;
		default: return 1;
		}
	}
	if (!out) {
		fprintf(stderr, "usage: gen -o FILE [-r ID] [-s SEED] [-m MULT] "
			"[-T START_S] [-w WALL_MS] [-c] [THREAD/]API:N:BASE:SPREAD...\n");
		return 1;
	}
	rng = seed;
	img = calloc(1, LB_TRACE_HEADER_SIZE);
	img_len = LB_TRACE_HEADER_SIZE;
	new_block(); /* block 0: the writer's reserved crash block */
	for (i = optind; i < argc; i++)
		add_calls(argv[i], mult);
	h = (struct lb_trace_header *)img;
	memcpy(h->magic, LB_TRACE_MAGIC, 8);
	h->version = LB_TRACE_V1; /* api_names in the header */
	h->header_size = LB_TRACE_HEADER_SIZE;
	h->rec_size = LB_TRACE_REC_SIZE;
	h->block_size = LB_TRACE_BLOCK_SIZE;
	h->pid = 4242;
	h->ppid = 1;
	h->clock_id = LB_CLOCK_MONOTONIC;
	h->flags = crashed ? LB_HDR_CRASHED : LB_HDR_CLEAN_EXIT;
	h->ticks_per_sec = 1000000000ull;
	h->start_realtime_ns = start_s * 1000000000ull;
	h->start_monotonic_ns = 1000000000ull;
	h->start_ticks = 1000000000ull;
	if (!crashed) {
		uint64_t w = (uint64_t)(wall_ms * mult * 1e6);

		h->end_realtime_ns = h->start_realtime_ns + w;
		h->end_ticks = h->start_ticks + w;
	}
	/* a version 1 header: HIP's rows (its 6656 bytes do not hold the
	 * CUDA rows after them) */
	h->api_count = LB_API_HIP_COUNT;
	h->blocks_used = nblocks;
	h->rank = UINT32_MAX;
	h->policies = 1;
	h->run_id = run_id;
	snprintf(h->host, sizeof(h->host), "gen");
	snprintf(h->cmdline, sizeof(h->cmdline), "gen -o %s", out);
	p = h->api_names;
	for (i = 0; i < LB_API_HIP_COUNT; i++) {
		off = strlen(lb_api_info[i].name) + 1;
		if (p + off + 1 > h->api_names + sizeof(h->api_names))
			break;
		memcpy(p, lb_api_info[i].name, off);
		p += off;
	}
	*p = 0;
	f = fopen(out, "wb");
	if (!f || fwrite(img, 1, img_len, f) != img_len || fclose(f)) {
		perror(out);
		return 2;
	}
	free(img);
	return 0;
}
