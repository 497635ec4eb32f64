/*
 * reader.c - opening a trace file: reading it (pread, or from memory),
 * the block index (which blocks belong to which thread, in what order),
 * the map of the writer's API ids to ours, and the clock conversion.
 * The header is validated by reader_header.c.
 *
 * Trust nothing in the file: every count below is derived from the file's
 * real length, and header values only select among bounded choices.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lbshim/api.h"
#include "read/reader_priv.h"

/* Largest non-regular input (pipe) read into memory. */
#define LBT_MAX_STREAM_INPUT (1ull << 30)

void lbt_say(struct lbt_set *set, const char *fmt, ...)
{
	va_list ap;

	if (!set->err)
		return;
	va_start(ap, fmt);
	fputs("lbtrace: ", set->err);
	vfprintf(set->err, fmt, ap);
	fputc('\n', set->err);
	va_end(ap);
}

struct lbt_set *lbt_set_new(FILE *err)
{
	struct lbt_set *set = calloc(1, sizeof(*set));

	if (set)
		set->err = err;
	return set;
}

void lbt_set_lazy(struct lbt_set *set, int on)
{
	set->lazy = on;
}

int lbt_set_nfiles(const struct lbt_set *set)
{
	return set->nfiles;
}

const struct lbt_file *lbt_set_file(const struct lbt_set *set, int i)
{
	return i >= 0 && i < set->nfiles ? set->files[i] : NULL;
}

uint64_t lbt_set_origin(const struct lbt_set *set)
{
	return set->origin;
}

int lbt_set_corrupt(const struct lbt_set *set)
{
	int i;

	for (i = 0; i < set->nfiles; i++)
		if (set->files[i]->corrupt)
			return 1;
	return 0;
}

static void file_free(struct lbt_file *f)
{
	if (!f)
		return;
	if (f->lazy_sc)
		lbt_scan_abort(f, f->lazy_sc);
	lbt_free_strings(f);
	if (f->mem_owned)
		free((void *)f->mem);
	if (!f->mem && f->fd >= 0)
		close(f->fd);
	free(f->threads);
	free(f->blocks);
	free(f->api_map);
	free(f->api_name);
	free(f->api_names_buf);
	free((void *)f->path);
	free(f);
}

void lbt_set_free(struct lbt_set *set)
{
	int i;

	if (!set)
		return;
	for (i = 0; i < set->nfiles; i++)
		file_free(set->files[i]);
	free(set->files);
	lbt_free_cursors(set);
	free(set->heap);
	free(set->unk_names);
	free(set);
}

int64_t lbt_ticks_to_ns(const struct lbt_file *f, uint64_t t)
{
	return lbt_ticks_ns(f, t);
}

static void setup_clock(struct lbt_file *f)
{
	uint64_t rate = f->hdr.ticks_per_sec;

	f->ns_identity = rate == 1000000000ull;
	/* (1e9 << 32) fits in 63 bits, so this cannot overflow */
	f->ns_mult = (uint64_t)(((1000000000ull << 32) + rate / 2) / rate);
}

const char *lbt_runtime_name(unsigned rt)
{
	return rt == LB_RT_HIP ? "HIP" : rt == LB_RT_CUDA ? "CUDA" : "?";
}

/* The runtime the file's calls went to (reader.h, struct lbt_file). */
static void setup_runtime(struct lbt_file *f)
{
	struct lb_trace_header *h = &f->hdr;

	f->runtime = LB_RT_HIP;
	f->runtime_version = -1;
	f->runtime_lib = "";
	if (h->version == LB_TRACE_V1)
		return; /* its writers wrapped HIP only; nothing else known */
	h->runtime_lib[sizeof(h->runtime_lib) - 1] = 0;
	f->runtime = h->runtime;
	f->runtime_lib = h->runtime_lib;
	if (h->flags & LB_HDR_RT_VERSION)
		f->runtime_version = h->runtime_version;
}

/* Index of the K-th (0-based) current API named NAME, or -1. */
static int lookup_nth(const char *name, int k)
{
	int i, first = -1;

	for (i = 0; i < LB_API_COUNT; i++) {
		if (strcmp(lb_api_info[i].name, name) != 0)
			continue;
		if (first < 0)
			first = i;
		if (k-- == 0)
			return i;
	}
	return first;
}

static const void *fetch(const struct lbt_file *f, uint64_t off, size_t len,
			 void *buf);

/*
 * F's API names into f->api_names_buf (LEN bytes and a NUL), from the
 * header (version 1) or the name table (version 2: checked here, once
 * read; the header checks made sure it lies in the file).  Returns 0, 1
 * when the table is invalid (said), -1 when out of memory.
 */
static int load_names(struct lbt_set *set, struct lbt_file *f, size_t *len)
{
	const struct lb_trace_header *h = &f->hdr;
	const void *p;

	*len = h->version == LB_TRACE_V1 ? sizeof(h->api_names) : h->names_len;
	f->api_names_buf = malloc(*len + 1);
	if (!f->api_names_buf)
		return -1;
	if (h->version == LB_TRACE_V1) {
		memcpy(f->api_names_buf, h->api_names, *len);
	} else {
		p = fetch(f, h->names_off, *len, f->api_names_buf);
		if (!p) /* not past the file: the header checks saw to it */
			memset(f->api_names_buf, 0, *len);
		else if (p != f->api_names_buf)
			memcpy(f->api_names_buf, p, *len);
	}
	f->api_names_buf[*len] = 0;
	if (h->version != LB_TRACE_V1 &&
	    lbt_check_names(set, f, f->api_names_buf, *len, h->names_off))
		return 1;
	return 0;
}

/*
 * Maps the writer's API ids to ours through its API names (by name, the
 * k-th duplicate to the k-th of ours); without names (a version 1 file
 * whose api_names are empty), ids are taken to be ours.  Returns 0, 1
 * (invalid names, said), -1 (out of memory).
 */
static int setup_api_map(struct lbt_set *set, struct lbt_file *f)
{
	size_t len, i, n = 0;
	uint32_t id, j;
	char *p;
	int rc = load_names(set, f, &len);

	if (rc)
		return rc;
	if (!f->api_names_buf[0] && f->hdr.version == LB_TRACE_V1) {
		f->napi = LB_API_COUNT;
		f->api_map = calloc(f->napi, sizeof(*f->api_map));
		f->api_name = calloc(f->napi, sizeof(*f->api_name));
		if (!f->api_map || !f->api_name)
			return -1;
		for (id = 0; id < f->napi; id++) {
			f->api_map[id] = id;
			f->api_name[id] = lb_api_info[id].name;
		}
		return 0;
	}
	/* names end at an empty name or at the end of the field */
	for (i = 0; i < len && f->api_names_buf[i];
	     i += strlen(f->api_names_buf + i) + 1)
		n++;
	f->napi = n;
	f->api_map = calloc(n ? n : 1, sizeof(*f->api_map));
	f->api_name = calloc(n ? n : 1, sizeof(*f->api_name));
	if (!f->api_map || !f->api_name)
		return -1;
	for (i = 0, id = 0; id < n; id++) {
		int k = 0;

		p = f->api_names_buf + i;
		f->api_name[id] = p;
		for (j = 0; j < id; j++)
			k += !strcmp(f->api_name[j], p);
		f->api_map[id] = lookup_nth(p, k);
		i += strlen(p) + 1;
	}
	return 0;
}

static int cmp_block(const void *a, const void *b)
{
	const struct lbt_block *x = a, *y = b;

	if (x->thread_index != y->thread_index)
		return x->thread_index < y->thread_index ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ordinal != y->ordinal)
		return x->ordinal < y->ordinal ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

uint64_t lbt_block_seq(const struct lbt_block *b, uint32_t s)
{
	uint64_t lap = b->ordinal;

	if (!(b->flags & LB_BLK_RING))
		return b->first_seq + s;
	/* slots from start on were written one lap before the others */
	if (b->start && s >= b->start && lap)
		lap--;
	return b->first_seq + lap * b->nslots + s;
}

/*
 * LEN bytes at OFF of F: a pointer into the memory source, or BUF filled
 * by pread.  What the file no longer has (it shrank while being read, or
 * a read failed) reads as zeros: empty slots, never a fault.
 */
static const void *fetch(const struct lbt_file *f, uint64_t off, size_t len,
			 void *buf)
{
	if (f->mem)
		return off <= f->size && len <= f->size - off ? f->mem + off
							      : NULL;
	lbt_read_piece(f->fd, off, len, buf);
	return buf;
}

/*
 * Bytes from slot ch->first of B on that one read should cover: the
 * window, or with read-ahead (a walk in the file's order: lbt_each_raw)
 * up to ch->ahead bytes, ending where a block ends so that the next
 * block's window is whole in it, and not past the end of the file.
 */
static uint64_t chunk_extent(const struct lbt_file *f,
			     const struct lbt_chunk *ch,
			     const struct lbt_block *b)
{
	uint64_t bs = f->hdr.block_size, off = lbt_slot_off(b, ch->first);
	uint64_t len = (uint64_t)ch->n * sizeof(*ch->buf), end;

	if (!ch->ahead)
		return len;
	end = off + ch->ahead;
	end -= (end - f->hdr.header_size) % bs;
	if (end > f->size)
		end = f->size;
	return end > off + len ? end - off : len;
}

void lbt_chunk_load(const struct lbt_file *f, struct lbt_chunk *ch,
		    const struct lbt_block *b, uint32_t s)
{
	static const struct lb_trace_rec zero[1];
	const void *p = NULL;
	uint64_t off, len;

	if (!ch->cap)
		ch->cap = 1024;
	ch->b = b;
	ch->first = s - s % ch->cap;
	ch->n =
	    b->nslots - ch->first < ch->cap ? b->nslots - ch->first : ch->cap;
	off = lbt_slot_off(b, ch->first);
	len = (uint64_t)ch->n * sizeof(*ch->buf);
	if (f->mem) {
		p = fetch(f, off, len, NULL);
	} else if (ch->held_len && ch->held_f == f && off >= ch->held_off &&
		   off + len <= ch->held_off + ch->held_len) {
		p = (const char *)ch->buf + (off - ch->held_off);
	} else {
		if (!ch->buf) {
			size_t sz = (size_t)ch->cap * sizeof(*ch->buf);

			ch->buf = malloc(ch->ahead > sz ? ch->ahead : sz);
		}
		ch->held_len = 0;
		if (ch->buf) {
			len = chunk_extent(f, ch, b);
			p = fetch(f, off, len, ch->buf);
			ch->held_f = f;
			ch->held_off = off;
			ch->held_len = (uint32_t)len;
		}
	}
	if (!p) {
		/* out of memory: an empty slot, alone (the caller's loop
		 * moves on one slot at a time) */
		ch->first = s;
		ch->n = 1;
		p = zero;
	}
	ch->recs = p;
}

void lbt_chunk_free(struct lbt_chunk *ch)
{
	free(ch->buf);
	memset(ch, 0, sizeof(*ch));
}

/* Committed records of block b: its slots up to the first empty one. */
static uint32_t count_committed(const struct lbt_file *f,
				const struct lbt_block *b)
{
	struct lbt_chunk ch = { 0 };
	uint32_t s, n = 0;

	for (s = 0; s < b->nslots; s++) {
		if (!ch.recs || s < ch.first || s >= ch.first + ch.n)
			lbt_chunk_load(f, &ch, b, s);
		if (!ch.recs[s - ch.first].hdr.type)
			break;
		n++;
	}
	lbt_chunk_free(&ch);
	return n;
}

/*
 * A block the writer staged (lbshim-trace(5)) may be in the file twice
 * for a moment, its copy and the staged block, if the process died
 * between the copy and the clearing of the staged block: same thread,
 * same ordinal.  Keeps the one with more records (the copy may have been
 * cut short); blocks must be sorted.
 */
static void drop_duplicates(struct lbt_file *f)
{
	uint32_t i, o = 0;

	for (i = 0; i < f->nblocks; i++) {
		struct lbt_block *b = &f->blocks[i];
		struct lbt_block *p = o ? &f->blocks[o - 1] : NULL;

		if (p && !(b->flags & LB_BLK_RING) &&
		    !(p->flags & LB_BLK_RING) &&
		    p->thread_index == b->thread_index && p->tid == b->tid &&
		    p->ordinal == b->ordinal) {
			if (count_committed(f, b) > count_committed(f, p))
				*p = *b;
			continue;
		}
		f->blocks[o++] = *b;
	}
	f->nblocks = o;
}

/* Reads the block headers; counts the records of each block. */
static int index_blocks(struct lbt_set *set, struct lbt_file *f)
{
	uint64_t bs = f->hdr.block_size, off, avail;
	uint64_t nmax = (f->size - f->hdr.header_size + bs - 1) / bs;
	uint32_t per = lb_trace_slots(f->hdr.block_size);

	/* every header at once (reader_batch.c) when read from the file */
	struct lb_trace_block *hs = NULL;
	int keep = 0;
	uint64_t i;

	f->blocks = calloc(nmax ? nmax : 1, sizeof(*f->blocks));
	if (!f->blocks)
		return -1;
	if (!f->mem && nmax && (hs = malloc(nmax * sizeof(*hs))))
		keep = lbt_read_strided(f->fd, f->hdr.header_size, bs, nmax,
					sizeof(*hs), hs, 1) < 0;
	for (i = 0, off = f->hdr.header_size;
	     off + LB_TRACE_REC_SIZE <= f->size; i++, off += bs) {
		struct lb_trace_block hb;
		const struct lb_trace_block *h =
		    hs ? &hs[i] : fetch(f, off, sizeof(hb), &hb);
		struct lbt_block *b = &f->blocks[f->nblocks];

		if (h->magic == 0)
			continue; /* handed out never, or not yet */
		if (h->magic != LB_BLOCK_MAGIC) {
			lbt_say(set,
				"%s: byte %llu: bad block header (magic 0x%08x)"
				", block skipped",
				f->path, (unsigned long long)off, h->magic);
			f->corrupt = 1;
			continue;
		}
		avail = (f->size - off) / LB_TRACE_REC_SIZE - 1;
		b->off = off;
		b->ordinal = h->ordinal;
		b->first_seq = h->first_seq;
		b->tid = h->tid;
		b->thread_index = h->thread_index;
		b->flags = h->flags;
		b->nslots = avail < per ? (uint32_t)avail : per;
		memcpy(b->name, h->thread_name, 16);
		b->name[16] = 0;
		if (b->flags & LB_BLK_RING) {
			/* a wrapped ring reads from the oldest slot on */
			b->start = b->ordinal && h->ring_next < b->nslots
				       ? h->ring_next
				       : 0;
		}
		/* non-ring blocks end at their first empty slot: found by
		 * the scan (reader_strings.c), which reads every slot anyway */
		b->npos = b->nslots;
		f->nblocks++;
	}
	if (!keep)
		free(hs);
	qsort(f->blocks, f->nblocks, sizeof(*f->blocks), cmp_block);
	drop_duplicates(f);
	return 0;
}

/* Groups the sorted blocks into threads. */
static int index_threads(struct lbt_file *f)
{
	uint32_t i, n = 0;
	struct lbt_thread *t = NULL;

	f->threads = calloc(f->nblocks ? f->nblocks : 1, sizeof(*f->threads));
	if (!f->threads)
		return -1;
	for (i = 0; i < f->nblocks; i++) {
		struct lbt_block *b = &f->blocks[i];

		if (!t || t->thread_index != b->thread_index ||
		    t->tid != b->tid) {
			t = &f->threads[n++];
			t->tid = b->tid;
			t->thread_index = b->thread_index;
			t->first_block = i;
		}
		t->nblocks++;
		memcpy(t->name, b->name, sizeof(t->name));
	}
	f->nthreads = n;
	return 0;
}

static void check_truncation(struct lbt_set *set, struct lbt_file *f)
{
	uint64_t bs = f->hdr.block_size;
	uint64_t body = f->size - f->hdr.header_size;
	uint64_t whole = body / bs;

	/* a partial block, or fewer blocks than the writer handed out */
	if (body % bs || f->hdr.blocks_used > whole) {
		f->truncated = 1;
		f->truncated_at = f->size;
	}
	if (f->truncated)
		lbt_say(set,
			"%s: truncated at byte %llu: the rest of the trace is "
			"missing",
			f->path, (unsigned long long)f->truncated_at);
}

/* Recomputes the set origin (earliest start) and every file's shift. */
static void update_origin(struct lbt_set *set)
{
	int i;
	uint64_t o = UINT64_MAX;

	for (i = 0; i < set->nfiles; i++)
		if (set->files[i]->hdr.start_realtime_ns < o)
			o = set->files[i]->hdr.start_realtime_ns;
	set->origin = set->nfiles ? o : 0;
	for (i = 0; i < set->nfiles; i++) {
		struct lbt_file *f = set->files[i];
		uint64_t d = f->hdr.start_realtime_ns - o;

		f->origin_shift =
		    d > INT64_MAX / 4 ? INT64_MAX / 4 : (int64_t)d;
	}
}

/* Everything after opening: validate, index, scan. Takes F. */
static int add_file(struct lbt_set *set, struct lbt_file *f)
{
	struct lbt_file **nf;
	const void *h;
	int rc;

	memset(&f->hdr, 0, sizeof(f->hdr));
	if (f->size >= sizeof(f->hdr)) {
		h = fetch(f, 0, sizeof(f->hdr), &f->hdr);
		if (h != &f->hdr)
			memcpy(&f->hdr, h, sizeof(f->hdr));
	} else if (f->size && f->mem) {
		memcpy(&f->hdr, f->mem, f->size);
	} else if (f->size) {
		fetch(f, 0, f->size, &f->hdr);
	}
	if (lbt_check_header(set, f))
		goto bad;
	f->hdr.host[sizeof(f->hdr.host) - 1] = 0;
	f->hdr.cmdline[sizeof(f->hdr.cmdline) - 1] = 0;
	f->hdr.lbshim_version[sizeof(f->hdr.lbshim_version) - 1] = 0;
	setup_runtime(f);
	setup_clock(f);
	rc = setup_api_map(set, f);
	if (rc > 0)
		goto bad;
	if (rc || index_blocks(set, f) || index_threads(f))
		goto oom;
	check_truncation(set, f);
	nf = realloc(set->files, (set->nfiles + 1) * sizeof(*nf));
	if (!nf)
		goto oom;
	set->files = nf;
	f->index = set->nfiles;
	set->files[set->nfiles++] = f;
	update_origin(set);
	if (!set->lazy && lbt_scan_strings(set, f)) {
		set->nfiles--;
		update_origin(set);
		goto oom;
	}
	set->started = 0;
	return 0;
oom:
	lbt_say(set, "%s: out of memory", f->path);
bad:
	file_free(f);
	return -1;
}

int lbt_set_add_mem(struct lbt_set *set, const char *name, const void *buf,
		    size_t len)
{
	struct lbt_file *f = calloc(1, sizeof(*f));

	if (!f || !(f->path = strdup(name ? name : "(memory)"))) {
		free(f);
		lbt_say(set, "%s: out of memory", name);
		return -1;
	}
	f->fd = -1;
	f->mem = len ? buf : (const uint8_t *)"";
	f->size = len;
	if (len && ((uintptr_t)buf & 7)) {
		/* records are read in place: they need 8-byte alignment */
		void *copy = malloc(len ? len : 1);

		if (!copy) {
			lbt_say(set, "%s: out of memory", f->path);
			file_free(f);
			return -1;
		}
		memcpy(copy, buf, len);
		f->mem = copy;
		f->mem_owned = 1;
	}
	return add_file(set, f);
}

/* Reads a pipe or other unmappable input, up to a bound. */
static int slurp(struct lbt_set *set, struct lbt_file *f, int fd)
{
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap), *nb;
	ssize_t n;

	while (buf) {
		if (len == cap) {
			if (cap >= LBT_MAX_STREAM_INPUT) {
				lbt_say(set,
					"%s: byte %zu: input too large to "
					"read from a pipe",
					f->path, len);
				free(buf);
				return -1;
			}
			nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			lbt_say(set, "%s: byte %zu: %s", f->path, len,
				strerror(errno));
			free(buf);
			return -1;
		}
		if (n == 0) {
			f->mem = len ? buf : (const uint8_t *)"";
			f->size = len;
			f->mem_owned = len != 0;
			if (!len)
				free(buf);
			return 0;
		}
		len += n;
	}
	free(buf);
	lbt_say(set, "%s: out of memory", f->path);
	return -1;
}

int lbt_set_add(struct lbt_set *set, const char *path)
{
	struct lbt_file *f = calloc(1, sizeof(*f));
	struct stat st;
	int fd, rc = -1;

	if (!f || !(f->path = strdup(path))) {
		free(f);
		lbt_say(set, "%s: out of memory", path);
		return -1;
	}
	f->fd = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		lbt_say(set, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(fd, &st)) {
		lbt_say(set, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		lbt_say(set, "%s: is a directory", path);
		goto fail;
	}
	if (S_ISREG(st.st_mode)) {
		/* read in place with pread: the fd stays open */
		f->size = st.st_size;
		f->fd = fd;
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		return add_file(set, f);
	}
	if (slurp(set, f, fd))
		goto fail;
	close(fd);
	return add_file(set, f);
fail:
	if (fd >= 0)
		close(fd);
	file_free(f);
	return rc;
}

const char *lbt_thread_name(const struct lbt_file *f,
			    const struct lbt_thread *t)
{
	const char *s = t->name_sid ? lbt_string(f, t->name_sid) : NULL;

	return s ? s : t->name;
}
