/*
 * reader_header.c - is the start of a file an lbshim trace header this
 * lbtrace reads (format version 1 or 2), and does the header agree with
 * itself?
 *
 * A header altered by hand or by a bad disk must not be read silently:
 * four bytes changed in ticks_per_sec halve every duration (issue #38).
 * A checksum cannot guard it: the writer updates the header while the
 * process runs (flags, blocks_used, ticks_per_sec, the end fields, the
 * policy bits) through a shared mapping and may die between any two
 * stores, so a checksum would be stale in honest files.  What the writer
 * (policies/trace/trace_file.c, trace_clock.c) derives from other fields
 * or from the format is checked against them instead; lbshim-trace(5),
 * section "Checks", lists what is checked and what cannot be.
 */
#include <stddef.h>
#include <string.h>
#include "read/reader_priv.h"

/* Largest block size accepted: keeps per-block work bounded. */
#define LBT_MAX_BLOCK_SIZE (64u << 20)
/*
 * Largest header (with its name table) accepted: 65536 API ids (a
 * record's 16 bits) of 200 bytes each.  Today's table is about 5 KB.
 */
#define LBT_MAX_HEADER_SIZE (16u << 20)
#define LBT_MAX_APIS 65536u
/*
 * TSC rates accepted.  The writer uses the TSC only where it runs at a
 * constant rate (constant_tsc, nonstop_tsc: x86 since 2006, ~1-5 GHz);
 * the bounds leave a factor of ten on either side.
 */
#define LBT_MIN_TSC_RATE 100000000ull	/* 100 MHz */
#define LBT_MAX_TSC_RATE 50000000000ull /* 50 GHz */
/*
 * CLOCK_MONOTONIC traces: start_ticks and start_monotonic_ns are the same
 * clock, read one after the other (the writer's best of five pairs, ~1 us
 * apart); a second covers a writer preempted at each try.
 */
#define LBT_MONO_SKEW_NS 1000000000ll
/*
 * From start to a clean exit, the clock at its rate and the wall clock
 * (CLOCK_REALTIME) must agree within this, plus 1% of the span: NTP slews
 * by 0.05% at most and the rate is measured to ~50 ppm, but the writer
 * reads the wall clock just after the ticks, at start and at exit, and
 * may be preempted in between (a scheduler tick or two).
 */
#define LBT_SPAN_SLACK_NS 10000000ll

#define OFF(field) ((unsigned)offsetof(struct lb_trace_header, field))

/* The fixed part: magic, sizes, version, block size. */
static int check_format(struct lbt_set *set, const struct lbt_file *f)
{
	const struct lb_trace_header *h = &f->hdr;

	if (f->size < 8 || memcmp(h->magic, LB_TRACE_MAGIC, 8) != 0) {
		lbt_say(set, "%s: byte 0: not an lbshim trace (bad magic)",
			f->path);
		return -1;
	}
	if (f->size < LB_TRACE_HEADER_SIZE) {
		lbt_say(
		    set, "%s: byte %llu: file ends inside the %u-byte header",
		    f->path, (unsigned long long)f->size, LB_TRACE_HEADER_SIZE);
		return -1;
	}
	if (h->version != LB_TRACE_V1 && h->version != LB_TRACE_VERSION) {
		lbt_say(set,
			"%s: byte %u: trace format version %u, this lbtrace "
			"reads versions %u to %u",
			f->path, OFF(version), h->version, LB_TRACE_V1,
			LB_TRACE_VERSION);
		return -1;
	}
	if (h->version == LB_TRACE_V1 &&
	    (h->header_size != LB_TRACE_HEADER_SIZE ||
	     h->rec_size != LB_TRACE_REC_SIZE)) {
		lbt_say(set,
			"%s: byte %u: header size %u / record size %u, "
			"expected %u / %u",
			f->path, OFF(header_size), h->header_size, h->rec_size,
			LB_TRACE_HEADER_SIZE, LB_TRACE_REC_SIZE);
		return -1;
	}
	if (h->rec_size != LB_TRACE_REC_SIZE) {
		lbt_say(set, "%s: byte %u: record size %u, expected %u",
			f->path, OFF(rec_size), h->rec_size, LB_TRACE_REC_SIZE);
		return -1;
	}
	if (h->version != LB_TRACE_V1 &&
	    (h->header_size <= LB_TRACE_HEADER_SIZE ||
	     h->header_size % LB_TRACE_PAGE ||
	     h->header_size > LBT_MAX_HEADER_SIZE)) {
		lbt_say(set,
			"%s: byte %u: header size %u, expected a multiple of "
			"%u above %u (the fixed header and the API name "
			"table), at most %u",
			f->path, OFF(header_size), h->header_size,
			LB_TRACE_PAGE, LB_TRACE_HEADER_SIZE,
			LBT_MAX_HEADER_SIZE);
		return -1;
	}
	if (f->size < h->header_size) {
		lbt_say(set,
			"%s: byte %llu: file ends inside the %u-byte header "
			"(its API name table)",
			f->path, (unsigned long long)f->size, h->header_size);
		return -1;
	}
	if (h->block_size < 4096 || h->block_size % 4096 ||
	    h->block_size > LBT_MAX_BLOCK_SIZE) {
		lbt_say(set, "%s: byte %u: invalid block size %u", f->path,
			OFF(block_size), h->block_size);
		return -1;
	}
	return 0;
}

/* The clock: a known one, a rate it can have, start fields that agree. */
static int check_clock(struct lbt_set *set, const struct lbt_file *f)
{
	const struct lb_trace_header *h = &f->hdr;
	__int128 skew;

	switch (h->clock_id) {
	case LB_CLOCK_MONOTONIC:
		/* the writer's ticks are then clock_gettime's ns */
		if (h->ticks_per_sec != 1000000000ull) {
			lbt_say(set,
				"%s: byte %u: ticks_per_sec %llu, but the "
				"clock (byte %u) is CLOCK_MONOTONIC, whose "
				"ticks are ns (1000000000 a second)",
				f->path, OFF(ticks_per_sec),
				(unsigned long long)h->ticks_per_sec,
				OFF(clock_id));
			return -1;
		}
		skew = (__int128)h->start_ticks - h->start_monotonic_ns;
		if (skew > LBT_MONO_SKEW_NS || skew < -LBT_MONO_SKEW_NS) {
			lbt_say(set,
				"%s: byte %u: start_ticks %llu, but "
				"start_monotonic_ns (byte %u) is %llu: both "
				"are CLOCK_MONOTONIC at one instant",
				f->path, OFF(start_ticks),
				(unsigned long long)h->start_ticks,
				OFF(start_monotonic_ns),
				(unsigned long long)h->start_monotonic_ns);
			return -1;
		}
		return 0;
	case LB_CLOCK_TSC:
		if (h->ticks_per_sec < LBT_MIN_TSC_RATE ||
		    h->ticks_per_sec > LBT_MAX_TSC_RATE) {
			lbt_say(set,
				"%s: byte %u: ticks_per_sec %llu is no TSC's "
				"rate (100 MHz to 50 GHz)",
				f->path, OFF(ticks_per_sec),
				(unsigned long long)h->ticks_per_sec);
			return -1;
		}
		return 0;
	default:
		lbt_say(set,
			"%s: byte %u: unknown clock_id %u (1 TSC, 2 "
			"CLOCK_MONOTONIC)",
			f->path, OFF(clock_id), h->clock_id);
		return -1;
	}
}

/*
 * A clean exit: the end triple's ticks follow the start's, and the span
 * from start to exit by the clock at its rate is the wall clock's span.
 * A disagreement is what an altered rate (or start or end field) gives,
 * but also a wall clock set, or a machine suspended, while the process
 * ran: the file is read, and marked corrupt.
 */
static int check_span(struct lbt_set *set, struct lbt_file *f)
{
	const struct lb_trace_header *h = &f->hdr;
	__int128 by_clock, by_wall, diff, slack;

	if (!(h->flags & LB_HDR_CLEAN_EXIT))
		return 0;
	if (h->end_ticks < h->start_ticks) {
		lbt_say(set,
			"%s: byte %u: end_ticks %llu is before start_ticks "
			"%llu (byte %u)",
			f->path, OFF(end_ticks),
			(unsigned long long)h->end_ticks,
			(unsigned long long)h->start_ticks, OFF(start_ticks));
		return -1;
	}
	by_clock = (__int128)(h->end_ticks - h->start_ticks) * 1000000000 /
		   h->ticks_per_sec;
	by_wall = (__int128)h->end_realtime_ns - h->start_realtime_ns;
	diff = by_clock > by_wall ? by_clock - by_wall : by_wall - by_clock;
	slack = LBT_SPAN_SLACK_NS + (by_wall > 0 ? by_wall : -by_wall) / 100;
	if (diff > slack) {
		lbt_say(set,
			"%s: byte %u: at ticks_per_sec %llu the run lasted "
			"%.6f s, by the wall clock %.6f s (bytes %u-%u): the "
			"header was altered, or the wall clock was set while "
			"the process ran; times may be wrong",
			f->path, OFF(ticks_per_sec),
			(unsigned long long)h->ticks_per_sec,
			(double)by_clock / 1e9, (double)by_wall / 1e9,
			OFF(start_realtime_ns), OFF(end_ticks) + 7);
		f->corrupt = 1;
	}
	return 0;
}

/* A text field with its NUL (the writer always leaves one). */
static int check_text(struct lbt_set *set, const struct lbt_file *f,
		      const char *s, size_t n, unsigned off, const char *name)
{
	if (memchr(s, 0, n))
		return 0;
	lbt_say(set, "%s: byte %u: %s has no terminating NUL", f->path, off,
		name);
	return -1;
}

#define CHECK_TEXT(field)                                                  \
	check_text(set, f, f->hdr.field, sizeof(f->hdr.field), OFF(field), \
		   #field)

/* A character of a C identifier?  (Not isalnum(): no locale.) */
static int is_ident_char(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/*
 * The writer's API names: identifiers, NUL-separated, ending with an
 * empty name, as many as api_count says.  A version 1 file without
 * names (all 0) has ids that are ours; its api_count cannot be checked.
 * A version 2 table ends with its empty name at its last byte.
 */
int lbt_check_names(struct lbt_set *set, const struct lbt_file *f,
		    const char *p, size_t len, uint64_t off)
{
	const struct lb_trace_header *h = &f->hdr;
	int v1 = h->version == LB_TRACE_V1;
	size_t i = 0, k;
	uint32_t n = 0;

	if (v1 && !p[0])
		return 0;
	while (i < len && p[i]) {
		const char *end = memchr(p + i, 0, len - i);

		if (!end) {
			i = len; /* a name runs to the field's end */
			break;
		}
		for (k = i; p + k < end; k++) {
			if (!is_ident_char(p[k])) {
				lbt_say(set,
					"%s: byte %llu: API name %u is not "
					"an identifier (byte 0x%02x)",
					f->path,
					(unsigned long long)off +
					    (unsigned long long)k,
					n, (unsigned char)p[k]);
				return -1;
			}
		}
		n++;
		i = (size_t)(end - p) + 1;
	}
	if (i >= len) {
		lbt_say(set,
			"%s: byte %llu: the API names do not end with an "
			"empty name within their %zu bytes",
			f->path, (unsigned long long)off, len);
		return -1;
	}
	if (!v1 && i != len - 1) {
		lbt_say(set,
			"%s: byte %llu: the API names end at byte %llu, but "
			"names_len (byte %u) says %zu bytes",
			f->path, (unsigned long long)off + i,
			(unsigned long long)off + i, OFF(names_len), len);
		return -1;
	}
	if (n != h->api_count) {
		lbt_say(set,
			"%s: byte %u: api_count %u, but the API names (byte "
			"%llu) number %u",
			f->path, OFF(api_count), h->api_count,
			(unsigned long long)off, n);
		return -1;
	}
	return 0;
}

/*
 * Version 2's fields: the name table inside the header, after the fixed
 * part; a runtime this lbtrace knows; its library's name terminated;
 * a version vouched for by its flag that a runtime could report.
 */
static int check_v2(struct lbt_set *set, const struct lbt_file *f)
{
	const struct lb_trace_header *h = &f->hdr;
	uint64_t end = (uint64_t)h->names_off + h->names_len;

	if (h->names_off < LB_TRACE_HEADER_SIZE || !h->names_len ||
	    end > h->header_size) {
		lbt_say(set,
			"%s: byte %u: API name table at bytes %u..%llu, "
			"outside the header's bytes %u..%u after the fixed "
			"part (header_size, byte %u)",
			f->path, OFF(names_off), h->names_off,
			(unsigned long long)end, LB_TRACE_HEADER_SIZE,
			h->header_size, OFF(header_size));
		return -1;
	}
	if (h->api_count > LBT_MAX_APIS) {
		lbt_say(set,
			"%s: byte %u: api_count %u, more than a record's "
			"16-bit id can name (%u)",
			f->path, OFF(api_count), h->api_count, LBT_MAX_APIS);
		return -1;
	}
	if (h->runtime == LB_RT_UNKNOWN || h->runtime >= LB_RT_COUNT) {
		lbt_say(set,
			"%s: byte %u: unknown runtime %u (%u HIP, %u CUDA)",
			f->path, OFF(runtime), h->runtime, LB_RT_HIP,
			LB_RT_CUDA);
		return -1;
	}
	if ((h->flags & LB_HDR_RT_VERSION) && h->runtime_version <= 0) {
		lbt_say(set,
			"%s: byte %u: runtime_version %d, but the flags (byte "
			"%u) say the runtime reported it",
			f->path, OFF(runtime_version), h->runtime_version,
			OFF(flags));
		return -1;
	}
	return CHECK_TEXT(runtime_lib);
}

/* The other fields the writer sets from facts it always has. */
static int check_fields(struct lbt_set *set, const struct lbt_file *f)
{
	const struct lb_trace_header *h = &f->hdr;
	uint32_t want =
	    h->flags & LB_HDR_RING ? lb_trace_slots(h->block_size) : 0;

	if (h->ring_slots != want) {
		lbt_say(set,
			"%s: byte %u: ring_slots %u, but the flags (byte %u) "
			"and the block size (byte %u) make it %u",
			f->path, OFF(ring_slots), h->ring_slots, OFF(flags),
			OFF(block_size), want);
		return -1;
	}
	if (!h->pid) {
		lbt_say(set, "%s: byte %u: pid 0", f->path, OFF(pid));
		return -1;
	}
	if (!(h->policies & 1)) {
		lbt_say(set,
			"%s: byte %u: policies 0x%x lack the trace policy's "
			"bit (0x1)",
			f->path, OFF(policies), h->policies);
		return -1;
	}
	if (!h->blocks_used) {
		/* the crash block, block 0, is handed out at start */
		lbt_say(set, "%s: byte %u: blocks_used 0", f->path,
			OFF(blocks_used));
		return -1;
	}
	return CHECK_TEXT(lbshim_version) || CHECK_TEXT(host) ||
		       CHECK_TEXT(cmdline)
		   ? -1
		   : 0;
}

int lbt_check_header(struct lbt_set *set, struct lbt_file *f)
{
	const struct lb_trace_header *h = &f->hdr;

	if (check_format(set, f) || check_clock(set, f) || check_fields(set, f))
		return -1;
	/* version 2's name table is checked once read (reader.c) */
	if (h->version == LB_TRACE_V1 ?
		    lbt_check_names(set, f, h->api_names,
				    sizeof(h->api_names), OFF(api_names)) :
		    check_v2(set, f))
		return -1;
	return check_span(set, f);
}
