/*
 * pool.c - the pool policy: options, devices, the policy ops, the report.
 *
 * LBSHIM_POLICIES=pool serves hipMalloc, hipExtMallocWithFlags (default
 * flags), hipMallocPitch and hipMallocManaged from chunks obtained from
 * the runtime, because a real hipMalloc costs tens of microseconds and a
 * real hipFree waits for the whole device.  The hooks are in pool_api.c.
 */
#include <stdlib.h>
#include <string.h>
#include "lbshim/trace_format.h"
#include "pool.h"

struct lb_popts lb_popt;
struct lb_pstats lb_pstat;

struct lb_pdev *lb_pdevs[LB_PMAXDEV];
static pthread_mutex_t lb_pdevs_lock = PTHREAD_MUTEX_INITIALIZER;
LB_TLS int lb_pcur1;
int lb_pool_off; /* a forked child: everything passes through */

/* lb_pool_curdev() the first time on a thread: the runtime's answer. */
int lb_pool_curdev_ask(void)
{
	int d = 0;

	if (lb_rt->device_get(&d) != LB_ST_OK)
		return 0;
	lb_pcur1 = d + 1;
	return d;
}

void lb_pool_setdev(int id)
{
	lb_pcur1 = id + 1;
}

int lb_pool_enter_dev(int dev)
{
	int cur = lb_pool_curdev();

	if (cur == dev || lb_rt->device_set(dev) != LB_ST_OK)
		return -1;
	return cur;
}

void lb_pool_restore_dev(int prev)
{
	if (prev >= 0)
		lb_rt->device_set(prev);
}

/* LBSHIM_POOL_LIMIT for device d, which is current. */
static void lb_pdev_limit(struct lb_pdev *d)
{
	size_t free = 0, total = 0;

	d->limit = lb_popt.limit;
	if (!lb_popt.limit_pct)
		return;
	if (lb_rt->mem_info(&free, &total) != LB_ST_OK || !total) {
		lb_log(LB_LOG_WARN,
		       "pool: LBSHIM_POOL_LIMIT=%u%%: the runtime did not "
		       "report device %d's memory; no limit",
		       lb_popt.limit_pct, d->id);
		return;
	}
	d->limit = (uint64_t)total * lb_popt.limit_pct / 100;
}

/* lb_pdev_get() of a device not created yet (id in range). */
struct lb_pdev *lb_pdev_create(int id)
{
	struct lb_pdev *d;
	int k, s, prev;

	pthread_mutex_lock(&lb_pdevs_lock);
	d = lb_pdevs[id];
	if (!d) {
		d = aligned_alloc(64, sizeof(*d));
		if (d) {
			memset(d, 0, sizeof(*d));
			d->id = id;
			for (k = 0; k < LB_PK_COUNT; k++)
				for (s = 0; s < LB_PC_COUNT; s++)
					lb_pheap_init(&d->heap[k][s], d, k, s);
			lb_pfence_init(d);
			prev = lb_pool_enter_dev(id);
			lb_pdev_limit(d);
			lb_pool_restore_dev(prev);
			__atomic_store_n(&lb_pdevs[id], d, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&lb_pdevs_lock);
	return d;
}

/* LBSHIM_POOL_LIMIT: bytes with a suffix, or a percentage "50%". */
static void lb_pool_read_limit(void)
{
	const char *v = lb_getenv("LBSHIM_POOL_LIMIT");
	size_t n;

	if (!v)
		return;
	n = strlen(v);
	if (n && v[n - 1] == '%') {
		char buf[8];
		uint64_t pct;

		if (n - 1 < sizeof(buf) && n > 1) {
			memcpy(buf, v, n - 1);
			buf[n - 1] = 0;
			if (!lb_parse_size(buf, &pct) && pct >= 1 &&
			    pct <= 100 && strspn(buf, "0123456789") == n - 1) {
				lb_popt.limit_pct = (unsigned)pct;
				return;
			}
		}
		lb_log(LB_LOG_WARN,
		       "LBSHIM_POOL_LIMIT=\"%.40s\": not a percentage "
		       "(accepted: 1%% to 100%%, or bytes with an optional "
		       "K, M, G or T suffix); no limit",
		       v);
		return;
	}
	if (lb_env_size("LBSHIM_POOL_LIMIT", &lb_popt.limit) &&
	    !lb_popt.limit)
		lb_log(LB_LOG_INFO, "pool: LBSHIM_POOL_LIMIT=0: no limit");
}

static int lb_pool_init(int listed)
{
	static const char *const frees[] = { "async", "sync", NULL };
	uint64_t v;

	if (!listed)
		return 0;
	lb_popt.chunk = (uint64_t)20 << 20;
	lb_popt.max_block = (uint64_t)64 << 20;
	v = lb_popt.chunk;
	if (lb_env_size("LBSHIM_POOL_CHUNK", &v)) {
		uint64_t r = (v + LB_PROUND_LARGE - 1) / LB_PROUND_LARGE *
			     LB_PROUND_LARGE;

		if (v < LB_PROUND_LARGE || r > ((uint64_t)1 << 40)) {
			lb_log(LB_LOG_WARN,
			       "LBSHIM_POOL_CHUNK=%llu: accepted 2M to 1T; "
			       "keeping 20M",
			       (unsigned long long)v);
		} else {
			lb_popt.chunk = r;
		}
	}
	v = lb_popt.max_block;
	if (lb_env_size("LBSHIM_POOL_MAX_BLOCK", &v)) {
		if (v < LB_PSMALL) {
			lb_log(LB_LOG_WARN,
			       "LBSHIM_POOL_MAX_BLOCK=%llu: accepted 1M or "
			       "more; keeping 64M",
			       (unsigned long long)v);
		} else {
			lb_popt.max_block = v;
		}
	}
	lb_pool_read_limit();
	/* IPC users (lbshim(7)): allocations this large stay the runtime's */
	if (lb_env_size("LBSHIM_POOL_BYPASS", &lb_popt.bypass) &&
	    !lb_popt.bypass)
		lb_log(LB_LOG_INFO, "pool: LBSHIM_POOL_BYPASS=0: no bypass");
	lb_popt.free_sync = lb_env_choice("LBSHIM_POOL_FREE", frees, 0);
	lb_ptc_init();
	lb_pool_ops_init();
	return 1;
}

static void lb_pool_fini(void)
{
	size_t res = 0, use = 0;
	uint64_t n[LB_PCNT_N], v[5];
	int i;

	if (lb_pool_off)
		return;
	for (i = 0; i < LB_PMAXDEV; i++) {
		struct lb_pdev *d = lb_pdev_peek(i);

		if (!d)
			continue;
		res += __atomic_load_n(&d->reserved_peak, __ATOMIC_RELAXED);
		use += __atomic_load_n(&d->inuse_peak, __ATOMIC_RELAXED);
	}
	lb_ptc_totals(n);
	/* The same figures as a trace record (trace_format.h, LB_REC_POOL):
	 * the allocations' notes. */
	v[0] = n[LB_PCNT_ALLOC_HIT];
	v[1] = n[LB_PCNT_ALLOC_MISS];
	v[2] = res;
	v[3] = use;
	v[4] = (lb_pstat.chunks_peak & 0xffffffffu) |
	       (lb_pstat.pending_frees << 32);
	lb_stat(LB_REC_POOL, v);
	if (lb_log_level < LB_LOG_INFO)
		return;
	lb_log(LB_LOG_INFO,
	       "pool: %llu chunks (peak %llu), reserved peak %.1f MiB, "
	       "in-use peak %.1f MiB, fragmentation %.1f%%",
	       (unsigned long long)lb_pstat.chunks,
	       (unsigned long long)lb_pstat.chunks_peak, res / 1048576.0,
	       use / 1048576.0, res ? 100.0 * (1.0 - (double)use / res) : 0.0);
	/* counted from the records' notes: the trace and this line agree */
	lb_log(LB_LOG_INFO,
	       "pool: allocations %llu hits, %llu misses; frees %llu hits, "
	       "%llu misses (hit: served from memory the pool held; miss: "
	       "the runtime was called)",
	       (unsigned long long)n[LB_PCNT_ALLOC_HIT],
	       (unsigned long long)n[LB_PCNT_ALLOC_MISS],
	       (unsigned long long)n[LB_PCNT_FREE_HIT],
	       (unsigned long long)n[LB_PCNT_FREE_MISS]);
	lb_log(LB_LOG_INFO,
	       "pool: %llu frees found pending work, %llu trims, %llu "
	       "refused allocations retried, %llu bad frees",
	       (unsigned long long)lb_pstat.pending_frees,
	       (unsigned long long)lb_pstat.trims,
	       (unsigned long long)lb_pstat.retries,
	       (unsigned long long)lb_pstat.bad_frees);
}

static void lb_pool_fork_child(void)
{
	/* The child cannot use the parent's device state; our locks may
	 * have been held by threads that do not exist here. */
	lb_pool_off = 1;
}

static void lb_pool_thread_exit(void)
{
	if (!lb_pool_off)
		lb_ptc_thread_exit();
}

static void lb_pool_stream_gone(lb_stream s)
{
	if (!lb_pool_off)
		lb_pstream_gone(s);
}

const struct lb_policy lb_policy_pool = {
	.name = "pool",
	.init = lb_pool_init,
	.pre = lb_pool_pre,
	.retry = lb_pool_retry,
	.post = lb_pool_post,
	.thread_exit = lb_pool_thread_exit,
	.fork_child = lb_pool_fork_child,
	.fini = lb_pool_fini,
	.stream_gone = lb_pool_stream_gone,
	.serve = lb_pool_serve,
	.serve_rows = lb_pool_serve_rows,
};
