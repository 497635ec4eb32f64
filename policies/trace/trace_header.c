/*
 * trace_header.c - what the trace file's header says (lbshim-trace(5)):
 * the process, the clock, the writer, the runtime the calls went to, and
 * the API name table that follows the fixed header (format version 2).
 *
 * The name table is as long as the API table needs: its size is computed
 * from the table itself (lb_header_bytes) before the file is mapped, so
 * no name can be cut, whatever the table holds (the CUDA rows beside
 * HIP's included).  Version 1 had 6656 bytes for it inside the fixed
 * header and cut what did not fit without a word.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trace.h"
#include "lbshim/version.h"

_Static_assert(LB_API_COUNT <= 65536, "API ids fit a record's 16 bits");

const char *lb_trace_rank_str(void)
{
	static const char *const vars[] = { "RANK", "OMPI_COMM_WORLD_RANK",
					    "PMI_RANK", "SLURM_PROCID", NULL };
	int i;

	for (i = 0; vars[i]; i++) {
		const char *v = lb_getenv(vars[i]);

		if (v && *v >= '0' && *v <= '9')
			return v;
	}
	return NULL;
}

static uint32_t lb_rank(void)
{
	const char *v = lb_trace_rank_str();
	char *end;
	unsigned long r;

	if (!v)
		return UINT32_MAX;
	r = strtoul(v, &end, 10);
	return *end || r >= UINT32_MAX ? UINT32_MAX : (uint32_t)r;
}

static void lb_fill_cmdline(char *out, size_t cap)
{
	ssize_t n, got = 0, i;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	out[0] = 0;
	if (fd < 0)
		return;
	while (got < (ssize_t)cap - 1 &&
	       (n = read(fd, out + got, cap - 1 - got)) > 0)
		got += n;
	close(fd);
	while (got > 0 && !out[got - 1])
		got--;
	for (i = 0; i < got; i++)
		if (!out[i])
			out[i] = ' ';
	out[got] = 0;
}

/*
 * LBSHIM_RUN_ID: a decimal number 0..UINT64_MAX and nothing else (no
 * sign, no blank, no suffix); otherwise one warning and 0.
 */
static uint64_t lb_run_id(const char *v)
{
	char shown[72];
	uint64_t id = 0;
	size_t i;

	for (i = 0; v[i] >= '0' && v[i] <= '9'; i++) {
		unsigned d = (unsigned)(v[i] - '0');

		if (id > (UINT64_MAX - d) / 10)
			break; /* overflow */
		id = id * 10 + d;
	}
	if (i && !v[i])
		return id;
	/* The value as shown: at most 64 bytes, non-printables as '?'. */
	for (i = 0; i < 64 && v[i]; i++)
		shown[i] = v[i] >= 0x20 && v[i] < 0x7f ? v[i] : '?';
	memcpy(shown + i, v[i] ? "..." : "", v[i] ? 4 : 1);
	lb_log(LB_LOG_WARN,
	       "LBSHIM_RUN_ID=\"%s\": not a run id (accepted: a decimal "
	       "number 0..18446744073709551615); run_id 0",
	       shown);
	return 0;
}

/* Bytes of the name table: every name with its NUL, one more NUL. */
static uint64_t lb_names_len(void)
{
	uint64_t n = 1;
	int i;

	for (i = 0; i < LB_API_COUNT; i++)
		n += strlen(lb_api_info[i].name) + 1;
	return n;
}

uint32_t lb_header_bytes(void)
{
	uint64_t end = LB_TRACE_HEADER_SIZE + lb_names_len();

	/* the API table is the shim's own: never near 4 GiB */
	return (uint32_t)((end + LB_TRACE_PAGE - 1) /
			  LB_TRACE_PAGE * LB_TRACE_PAGE);
}

/* Writes the name table at h's names_off; returns its length. */
static uint32_t lb_fill_names(struct lb_trace_header *h)
{
	char *out = (char *)h + LB_TRACE_HEADER_SIZE;
	size_t o = 0, n;
	int i;

	for (i = 0; i < LB_API_COUNT; i++) {
		n = strlen(lb_api_info[i].name) + 1;
		memcpy(out + o, lb_api_info[i].name, n);
		o += n;
	}
	out[o++] = 0; /* the empty name that ends the table */
	return (uint32_t)o;
}

/* The runtime's version into h once the shim knows it (lb_rt_version). */
static void lb_put_version(struct lb_trace_header *h)
{
	int v = lb_rt_version;

	if (!v ||
	    (__atomic_load_n(&h->flags, __ATOMIC_RELAXED) & LB_HDR_RT_VERSION))
		return;
	/* the value first, then the flag that vouches for it */
	__atomic_store_n(&h->runtime_version, v, __ATOMIC_RELAXED);
	__atomic_or_fetch(&h->flags, LB_HDR_RT_VERSION, __ATOMIC_RELEASE);
}

void lb_header_fill(struct lb_trace_header *h)
{
	const char *run = lb_getenv("LBSHIM_RUN_ID");
	const char *lib = lb_rt_file();

	memcpy(h->magic, LB_TRACE_MAGIC, 8);
	h->version = LB_TRACE_VERSION;
	h->header_size = lb_tr.data_off;
	h->rec_size = LB_TRACE_REC_SIZE;
	h->block_size = lb_tr.block_size;
	h->pid = (uint32_t)getpid();
	h->ppid = (uint32_t)getppid();
	h->clock_id = lb_clock_tsc ? LB_CLOCK_TSC : LB_CLOCK_MONOTONIC;
	h->ticks_per_sec = lb_tr.rate;
	h->start_realtime_ns = lb_tr.start_real;
	h->start_monotonic_ns = lb_tr.start_mono;
	h->start_ticks = lb_tr.start_ticks;
	h->ring_slots = lb_tr.ring ? lb_tr.slots : 0;
	h->blocks_used = 1; /* block 0: the crash block */
	h->rank = lb_rank();
	h->policies = 1;
	_Static_assert(sizeof(LB_VERSION) <= sizeof(h->lbshim_version),
		       "LB_VERSION fits the header");
	memcpy(h->lbshim_version, LB_VERSION, sizeof(LB_VERSION));
	if (run)
		h->run_id = lb_run_id(run);
	if (gethostname(h->host, sizeof(h->host) - 1))
		h->host[0] = 0;
	lb_fill_cmdline(h->cmdline, sizeof(h->cmdline));
	/* The HIP face is the only one so far; the CUDA face says CUDA. */
	h->runtime = lb_cu_served ? LB_RT_CUDA : LB_RT_HIP;
	/* the loader's name of a file the kernel opened: < PATH_MAX */
	if (strlen(lib) < sizeof(h->runtime_lib))
		memcpy(h->runtime_lib, lib, strlen(lib) + 1);
	h->names_off = LB_TRACE_HEADER_SIZE;
	h->names_len = lb_fill_names(h);
	h->api_count = LB_API_COUNT;
	lb_put_version(h);
	if (lb_tr.ring)
		h->flags |= LB_HDR_RING;
}

void lb_header_runtime_version(void)
{
	if (lb_tr.hdr)
		lb_put_version(lb_tr.hdr);
}
