/*
 * lbt_dump.c - a minimal trace reader for the trace tests (not lbtrace):
 * one line of "key=value" words per record, thread by thread in record
 * order, so that shell tests can grep for what they expect.
 *
 *   lbt_dump FILE                 header, then every record (a KARGS
 *                                 record's 56 bytes raw, as hex)
 *   lbt_dump --check-seq N FILE   every thread that wrote hipMemset calls
 *                                 wrote exactly N, with value 0..N-1 in
 *                                 order; prints "threads=T ok" or why not
 *
 * Written from include/lbshim/trace_format.h only, as any reader would.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lbshim/trace_format.h"

static const unsigned char *base;
static size_t fsize;
static const struct lb_trace_header *H;
static const char *api_names[65536];
static unsigned napi;
static char **strs;
static unsigned nstrs;

struct blk {
	const struct lb_trace_block *b;
	unsigned idx;
};

static const char *api_name(unsigned id)
{
	return id < napi ? api_names[id] : "?";
}

static const char *str_of(unsigned id)
{
	return id && id < nstrs && strs[id] ? strs[id] : "";
}

static void text_of(const struct lb_trace_rec *r, char out[49])
{
	memcpy(out, &r->t0, 32);
	memcpy(out + 32, &r->a[1], 16);
	out[48] = 0;
}

/* Pass 1: the string table from every STRING record of the file. */
static void load_strings(const struct blk *bl, unsigned nb, uint32_t slots)
{
	unsigned i, k;

	nstrs = H->blocks_used + 1024u * 64;
	strs = calloc(nstrs, sizeof(*strs));
	for (i = 0; i < nb; i++) {
		const struct lb_trace_rec *r =
			(const struct lb_trace_rec *)bl[i].b + 1;

		for (k = 0; k < slots; k++) {
			uint32_t id = (uint32_t)r[k].a[0];
			unsigned part = (r[k].a[0] >> 32) & 0xffff;
			unsigned parts = r[k].a[0] >> 48;
			char t[49];

			if (r[k].hdr.type != LB_REC_STRING || id >= nstrs ||
			    !parts)
				continue;
			if (!strs[id])
				strs[id] = calloc(parts * 48 + 1, 1);
			text_of(&r[k], t);
			memcpy(strs[id] + part * 48, t, 48);
		}
	}
}

static int cmp_blk(const void *x, const void *y)
{
	const struct lb_trace_block *a = ((const struct blk *)x)->b;
	const struct lb_trace_block *b = ((const struct blk *)y)->b;

	if (a->thread_index != b->thread_index)
		return a->thread_index < b->thread_index ? -1 : 1;
	if (a->ordinal != b->ordinal)
		return a->ordinal < b->ordinal ? -1 : 1;
	return 0;
}

static uint32_t committed(const struct lb_trace_block *b, uint32_t slots)
{
	const struct lb_trace_rec *r = (const struct lb_trace_rec *)b + 1;
	uint32_t k;

	for (k = 0; k < slots && r[k].hdr.type; k++)
		;
	return k;
}

/*
 * A staged block may be in the file twice, its copy and the staged block
 * (same thread, same ordinal), when the writer died between the copy and
 * the clearing (lbshim-trace(5)): the one with more records is kept.
 */
static unsigned drop_dups(struct blk *bl, unsigned nb, uint32_t slots)
{
	unsigned i, o = 0;

	for (i = 0; i < nb; i++) {
		const struct lb_trace_block *b = bl[i].b;
		const struct lb_trace_block *p = o ? bl[o - 1].b : NULL;

		if (p && !((b->flags | p->flags) & LB_BLK_RING) &&
		    p->thread_index == b->thread_index && p->tid == b->tid &&
		    p->ordinal == b->ordinal) {
			if (committed(b, slots) > committed(p, slots))
				bl[o - 1] = bl[i];
			continue;
		}
		bl[o++] = bl[i];
	}
	return o;
}

static long long check_n = -1;
static long long seq_next[4096];
static long long seq_count[4096];
static int seq_bad;

static void on_call(const struct lb_trace_block *b, uint64_t seq,
		    const struct lb_trace_rec *r)
{
	/* an entry record (t1 = 0): no duration */
	double ns = r->t1 ? (double)(r->t1 - r->t0) * 1e9 /
				    (double)H->ticks_per_sec
			  : 0;
	const char *name = api_name(r->hdr.api);
	unsigned ti = b->thread_index;

	if (check_n >= 0) {
		if (strcmp(name, "hipMemset") || ti >= 4096)
			return;
		if ((long long)r->a[1] != seq_next[ti] && !seq_bad) {
			printf("thread %u: value %llu where %lld expected\n",
			       ti, (unsigned long long)r->a[1], seq_next[ti]);
			seq_bad = 1;
		}
		seq_next[ti] = (long long)r->a[1] + 1;
		seq_count[ti]++;
		return;
	}
	printf("call thread=%u tid=%u seq=%llu api=%s ret=%d dev=%u flags=%u "
	       "note=%u stream=0x%llx used=0x%llx a0=0x%llx a1=0x%llx "
	       "a2=0x%llx dur_ns=%.0f t0=%llu",
	       ti, b->tid, (unsigned long long)seq, name, r->hdr.ret,
	       r->hdr.device, r->hdr.flags, r->hdr.note,
	       (unsigned long long)r->stream,
	       (unsigned long long)r->stream_used,
	       (unsigned long long)r->a[0], (unsigned long long)r->a[1],
	       (unsigned long long)r->a[2], ns, (unsigned long long)r->t0);
	if (strstr(name, "Launch") && !strstr(name, "HostFunc") &&
	    !strstr(name, "Graph"))
		printf(" kernel=%s shmem=%llu grid=%llu,%llu,%llu "
		       "block=%llu,%llu,%llu",
		       str_of((uint32_t)r->a[0]),
		       (unsigned long long)(r->a[0] >> 32),
		       (unsigned long long)(r->a[1] & 0xffffffffu),
		       (unsigned long long)(r->a[1] >> 32),
		       (unsigned long long)(r->a[2] & 0xffff),
		       (unsigned long long)((r->a[2] >> 16) & 0xffff),
		       (unsigned long long)((r->a[2] >> 32) & 0xffff),
		       (unsigned long long)(r->a[2] >> 48));
	if (!strcmp(name, "__hipRegisterFunction") ||
	    !strcmp(name, "hipModuleGetFunction"))
		printf(" name=%s", str_of((uint32_t)r->a[1]));
	printf("\n");
}

/* A KARGS record: its bytes raw, gaps and end included. */
static void on_kargs(const struct lb_trace_block *b,
		     const struct lb_trace_rec *r)
{
	const unsigned char *k = (const unsigned char *)r + 8;
	char hex[2 * LB_KARGS_BYTES + 1];
	unsigned i;

	for (i = 0; i < LB_KARGS_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", k[i]);
	printf("kargs thread=%u bytes=%u flags=%u hex=%s layout=%s\n",
	       b->thread_index, r->hdr.note, (unsigned)r->hdr.flags, hex,
	       str_of((uint32_t)(uint16_t)r->hdr.api |
		      (uint32_t)(uint16_t)r->hdr.ret << 16));
}

static void on_rec(const struct lb_trace_block *b, uint64_t seq,
		   const struct lb_trace_rec *r)
{
	char t[49];

	switch (r->hdr.type) {
	case LB_REC_CALL:
		on_call(b, seq, r);
		break;
	case LB_REC_CRASH:
		if (check_n < 0)
			printf("crash thread=%u tid=%llu sig=%d code=%lld "
			       "addr=0x%llx frames=%llu\n",
			       b->thread_index, (unsigned long long)r->a[1],
			       r->hdr.ret, (long long)r->a[0],
			       (unsigned long long)r->stream,
			       (unsigned long long)r->a[2]);
		break;
	case LB_REC_FRAME:
		memcpy(t, &r->t0, 16);
		memcpy(t + 16, &r->a[1], 16);
		t[32] = 0;
		if (check_n < 0)
			printf("frame i=%u pc=0x%llx off=%llu flags=%u "
			       "name=%s%s\n",
			       (unsigned)r->a[0],
			       (unsigned long long)r->stream,
			       (unsigned long long)r->stream_used,
			       (unsigned)r->hdr.flags, t,
			       str_of((uint32_t)(r->a[0] >> 32)));
		break;
	case LB_REC_LOST:
		if (check_n < 0)
			printf("lost thread=%u n=%llu\n", b->thread_index,
			       (unsigned long long)r->a[0]);
		break;
	case LB_REC_THREAD:
		if (check_n < 0)
			printf("thread thread=%u exit=%u\n", b->thread_index,
			       r->hdr.note);
		break;
	case LB_REC_KARGS:
		if (check_n < 0)
			on_kargs(b, r);
		break;
	default:
		break;
	}
}

static void walk_block(const struct lb_trace_block *b, uint32_t slots)
{
	const struct lb_trace_rec *r = (const struct lb_trace_rec *)b + 1;
	uint32_t k, start = 0, n = slots;

	if (b->flags & LB_BLK_RING) {
		if (b->ordinal)
			start = b->ring_next % slots;
		if (check_n < 0)
			printf("ring thread=%u laps=%llu next=%u\n",
			       b->thread_index,
			       (unsigned long long)b->ordinal, b->ring_next);
	}
	for (k = 0; k < n; k++) {
		uint32_t i = (start + k) % slots;

		if (!r[i].hdr.type) {
			if (b->flags & LB_BLK_RING)
				continue;
			break;
		}
		on_rec(b, b->first_seq + i, &r[i]);
	}
}

int main(int argc, char **argv)
{
	struct blk *bl;
	unsigned nb = 0, i;
	uint32_t slots;
	uint64_t k, nblocks, hsize;
	struct stat st;
	const char *p;
	int fd;

	if (argc == 4 && !strcmp(argv[1], "--check-seq")) {
		check_n = atoll(argv[2]);
		argv += 2;
	} else if (argc != 2) {
		fprintf(stderr, "usage: lbt_dump [--check-seq N] FILE\n");
		return 1;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size < LB_TRACE_HEADER_SIZE) {
		fprintf(stderr, "lbt_dump: %s: cannot read\n", argv[1]);
		return 2;
	}
	fsize = st.st_size;
	base = mmap(NULL, fsize, PROT_READ, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return 2;
	H = (const void *)base;
	if (memcmp(H->magic, LB_TRACE_MAGIC, 8) || !H->block_size ||
	    H->block_size % 4096) {
		fprintf(stderr, "lbt_dump: %s: not a trace\n", argv[1]);
		return 2;
	}
	/* version 1: names in the header; 2: in a table after it */
	hsize = H->version == LB_TRACE_V1 ? LB_TRACE_HEADER_SIZE :
					    H->header_size;
	if (H->version != LB_TRACE_V1 &&
	    (hsize < LB_TRACE_HEADER_SIZE || hsize > fsize ||
	     (uint64_t)H->names_off + H->names_len > hsize ||
	     !H->names_len || base[H->names_off + H->names_len - 1])) {
		fprintf(stderr, "lbt_dump: %s: bad name table\n", argv[1]);
		return 2;
	}
	p = H->version == LB_TRACE_V1 ? H->api_names :
					(const char *)base + H->names_off;
	for (; *p && napi < 65536; p += strlen(p) + 1)
		api_names[napi++] = p;
	slots = lb_trace_slots(H->block_size);
	nblocks = (fsize - hsize) / H->block_size;
	bl = calloc(nblocks + 1, sizeof(*bl));
	for (k = 0; k < nblocks; k++) {
		const struct lb_trace_block *b =
			(const void *)(base + hsize + k * H->block_size);

		if (b->magic == LB_BLOCK_MAGIC) {
			bl[nb].b = b;
			bl[nb++].idx = (unsigned)k;
		}
	}
	load_strings(bl, nb, slots);
	qsort(bl, nb, sizeof(*bl), cmp_blk);
	nb = drop_dups(bl, nb, slots);
	if (check_n < 0)
		printf("header version=%u pid=%u ppid=%u flags=0x%x "
		       "block_size=%u ring_slots=%u blocks_used=%llu "
		       "file_blocks=%llu api_count=%u rank=%u policies=%u "
		       "run_id=%llu clock=%u rate=%llu end=%llu alive=%llu "
		       "host=%s cmdline=%s\n",
		       H->version, H->pid, H->ppid, H->flags, H->block_size,
		       H->ring_slots, (unsigned long long)H->blocks_used,
		       (unsigned long long)nblocks, H->api_count, H->rank,
		       H->policies, (unsigned long long)H->run_id,
		       H->clock_id, (unsigned long long)H->ticks_per_sec,
		       (unsigned long long)H->end_ticks,
		       (unsigned long long)H->alive_ticks, H->host,
		       H->cmdline);
	if (check_n < 0 && H->version != LB_TRACE_V1)
		printf("runtime kind=%u version=%d known=%d header_size=%u "
		       "names=%u names_len=%u lib=%.4096s\n",
		       H->runtime, H->runtime_version,
		       !!(H->flags & LB_HDR_RT_VERSION), H->header_size,
		       napi, H->names_len, H->runtime_lib);
	for (i = 0; i < nb; i++) {
		if (check_n < 0)
			printf("block file_index=%u thread=%u tid=%u "
			       "ordinal=%llu name=%.16s\n",
			       bl[i].idx, bl[i].b->thread_index, bl[i].b->tid,
			       (unsigned long long)bl[i].b->ordinal,
			       bl[i].b->thread_name);
		walk_block(bl[i].b, slots);
	}
	if (check_n >= 0) {
		unsigned t, threads = 0;

		for (t = 0; t < 4096; t++) {
			if (!seq_count[t])
				continue;
			threads++;
			if (seq_count[t] != check_n && !seq_bad) {
				printf("thread %u: %lld records, %lld "
				       "expected\n",
				       t, seq_count[t], check_n);
				seq_bad = 1;
			}
		}
		printf("threads=%u %s\n", threads, seq_bad ? "BAD" : "ok");
		return seq_bad;
	}
	return 0;
}
