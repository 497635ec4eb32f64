/*
 * config.c - the HIPEMU_* environment, read once at the first HIP call,
 * and the cost model's clock.
 *
 * Initialization is lazy (pthread_once from every entry point) rather than
 * a constructor because a constructor of the program or of another
 * library may call HIP before ours has run.
 */
#include "he.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct he_config he_cfg = {
	.ndevices = 1,
	.mem_size = (size_t)8 << 30,
	.quarantine = (size_t)64 << 20,
};

static pthread_once_t he_once = PTHREAD_ONCE_INIT;

void he_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("hipemu: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

uint64_t he_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void he_cost(uint64_t ns)
{
	if (!ns)
		return;
	if (he_cfg.cost_busy) {
		/* Busy mode: the calling CPU stays occupied, like a driver
		 * spinning in an ioctl. */
		uint64_t end = he_now_ns() + ns;

		while (he_now_ns() < end)
			;
		return;
	}
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
			       .tv_nsec = (long)(ns % 1000000000u) };
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* "123", "4K", "8M", "2G": bytes. Returns 0 on success. */
static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K': v <<= 10; end++; break;
	case 'M': v <<= 20; end++; break;
	case 'G': v <<= 30; end++; break;
	case 'T': v <<= 40; end++; break;
	default: break;
	}
	if (toupper((unsigned char)*end) == 'B' || toupper((unsigned char)*end) == 'I')
		end++;
	if (*end)
		return -1;
	*out = (size_t)v;
	return 0;
}

static void env_size(const char *name, size_t *dst)
{
	const char *v = getenv(name);

	if (v && *v && parse_size(v, dst))
		he_warn("%s=%s: not a size (bytes, K/M/G suffix); ignored",
			name, v);
}

static void env_ns(const char *name, uint64_t *dst)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || *end)
		he_warn("%s=%s: not a number of nanoseconds; ignored", name, v);
	else
		*dst = n;
}

/*
 * HIPEMU_PROFILE=gpu: figures users report for a discrete AMD GPU; see
 * README.md for the sources.  Explicit HIPEMU_COST_* values override them.
 */
static void apply_profile(const char *p)
{
	if (!p || !*p || !strcmp(p, "none") || !strcmp(p, "cpu"))
		return;
	if (!strcmp(p, "gpu")) {
		he_cfg.cost_malloc_ns = 51000;
		he_cfg.cost_free_ns = 30000;
		he_cfg.cost_launch_ns = 5000;
		he_cfg.cost_sync_ns = 10000;
		return;
	}
	he_warn("HIPEMU_PROFILE=%s: accepted: gpu, none; ignored", p);
}

static void he_do_init(void)
{
	const char *v;

	v = getenv("HIPEMU_DEVICES");
	if (v && *v) {
		char *end;
		long n = strtol(v, &end, 10);

		if (*end || n < 1 || n > HE_MAX_DEVICES)
			he_warn("HIPEMU_DEVICES=%s: want 1..%d; using 1", v,
				HE_MAX_DEVICES);
		else
			he_cfg.ndevices = (int)n;
	}
	env_size("HIPEMU_MEM_SIZE", &he_cfg.mem_size);
	env_size("HIPEMU_QUARANTINE", &he_cfg.quarantine);
	apply_profile(getenv("HIPEMU_PROFILE"));
	env_ns("HIPEMU_COST_MALLOC_NS", &he_cfg.cost_malloc_ns);
	env_ns("HIPEMU_COST_FREE_NS", &he_cfg.cost_free_ns);
	env_ns("HIPEMU_COST_LAUNCH_NS", &he_cfg.cost_launch_ns);
	env_ns("HIPEMU_COST_SYNC_NS", &he_cfg.cost_sync_ns);
	env_ns("HIPEMU_COST_RECORD_NS", &he_cfg.cost_record_ns);
	env_ns("HIPEMU_COST_QUERY_NS", &he_cfg.cost_query_ns);
	env_ns("HIPEMU_COST_STREAM_NS", &he_cfg.cost_stream_ns);
	v = getenv("HIPEMU_COST_MODE");
	if (v && !strcmp(v, "busy"))
		he_cfg.cost_busy = true;
	else if (v && *v && strcmp(v, "sleep"))
		he_warn("HIPEMU_COST_MODE=%s: accepted: sleep, busy", v);
	he_cfg.stats_file = getenv("HIPEMU_STATS");
	he_cfg.kernels = getenv("HIPEMU_KERNELS");
	he_cfg.fail = getenv("HIPEMU_FAIL");
	v = getenv("HIPEMU_ERRNO");
	if (v && *v) {
		char *end;
		long e = strtol(v, &end, 10);

		if (*end || e <= 0 || e > 4095)
			he_warn("HIPEMU_ERRNO=%s: want 1..4095; ignored", v);
		else
			he_cfg.set_errno = (int)e;
	}

	he_fault_init(he_cfg.fail);
	he_kernels_init(he_cfg.kernels);
	he_stats_init();
}

void he_init(void)
{
	pthread_once(&he_once, he_do_init);
}
