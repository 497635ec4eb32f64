/*
 * init.c - start-up, the policy dispatcher, thread exit and fork.
 *
 * Nothing happens at load time: a process that never calls HIP gets no
 * file, no output, no thread, and the runtime is not loaded by us.  The
 * first wrapper called, on any thread, runs lb_init() once; lazily,
 * because another library's constructor (hipcc's __hipRegisterFatBinary
 * calls, for one) may reach us before our own constructor would have run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "shim.h"
#include "config.h"
#include "kreg.h"
#include "resolve.h"
#include "run_solo.h"
#include "lbshim/version.h"

int lb_ready;
int lb_hooks;
int lb_gate;
LB_TLS struct lb_hot lb_hot; /* lb_depth, lb_le, lb_fast... (shim.h) */
static LB_TLS int lb_tid_cache;
struct lb_solo lb_solo;
uint8_t lb_solo_direct[LB_API_COUNT];
uint64_t lb_fast_gen;

/* Active policies in hook order; post hooks run in reverse. */
static const struct lb_policy *lb_active[3];
static int lb_nactive;
static pthread_once_t lb_once = PTHREAD_ONCE_INIT;
static pthread_once_t lb_fork_once = PTHREAD_ONCE_INIT;
/*
 * Held while lb_do_init() runs and across fork(): a fork while another
 * thread initializes would leave the child with the policies' locks taken
 * and their state half made; instead the fork waits for the end of it.
 */
static pthread_mutex_t lb_init_lock = PTHREAD_MUTEX_INITIALIZER;
static LB_TLS char lb_in_init;
static pthread_key_t lb_thread_key;
static int lb_have_key;

int lb_tid(void)
{
	if (LB_UNLIKELY(!lb_tid_cache))
		lb_tid_cache = (int)syscall(SYS_gettid);
	return lb_tid_cache;
}

int lb_policy_active(const struct lb_policy *p)
{
	int i;

	for (i = 0; i < lb_nactive; i++)
		if (lb_active[i] == p)
			return 1;
	return 0;
}

static void lb_thread_exit(void *unused)
{
	int i;

	(void)unused;
	lb_depth++;
	for (i = lb_nactive; i-- > 0;)
		if (lb_active[i]->thread_exit)
			lb_active[i]->thread_exit();
	lb_depth--;
}

static void lb_fork_prepare(void)
{
	int i;

	/* A runtime constructor forking from inside our start-up: go on. */
	if (!lb_in_init)
		pthread_mutex_lock(&lb_init_lock);
	for (i = 0; i < lb_nactive; i++)
		if (lb_active[i]->fork_prepare)
			lb_active[i]->fork_prepare();
}

static void lb_fork_parent(void)
{
	int i;

	for (i = lb_nactive; i-- > 0;)
		if (lb_active[i]->fork_parent)
			lb_active[i]->fork_parent();
	if (!lb_in_init)
		pthread_mutex_unlock(&lb_init_lock);
}

static void lb_fork_child(void)
{
	int i;

	lb_tid_cache = 0;
	for (i = lb_nactive; i-- > 0;)
		if (lb_active[i]->fork_child)
			lb_active[i]->fork_child();
	if (!lb_in_init)
		pthread_mutex_unlock(&lb_init_lock);
}

static void lb_fini(void)
{
	int i;

	lb_depth++;
	for (i = lb_nactive; i-- > 0;)
		if (lb_active[i]->fini)
			lb_active[i]->fini();
	lb_depth--;
}

static void lb_add_policy(const struct lb_policy *p, const char *name)
{
	int listed = lb_config_lists(name);

	if (!p) {
		if (listed)
			lb_log(LB_LOG_WARN,
			       "policy %s is not in this build; ignored", name);
		return;
	}
	if (p->init(listed))
		lb_active[lb_nactive++] = p;
}

/*
 * One policy alone: its hooks, and the rows its direct hook (rows with a
 * stream) or serve hook (rows without) may take, less those that need a
 * step the route lacks (lb_route_fits: a procedure-address lookup, a
 * registration, the last-error functions).
 */
static void lb_solo_init(const struct lb_policy *p)
{
	int i;

	lb_solo = (struct lb_solo){ 1, p->pre, p->retry, p->post, p->direct,
				    p->serve };
	for (i = 0; i < LB_API_COUNT; i++) {
		if (lb_api_info[i].stream_idx >= 0 && p->direct &&
		    p->direct_rows && lb_route_fits(LB_ROUTE_DIRECT, i) &&
		    lb_route_fits(LB_ROUTE_ANSWER, i))
			lb_solo_direct[i] = p->direct_rows[i];
		else if (lb_api_info[i].stream_idx < 0 && p->serve &&
			 p->serve_rows && p->serve_rows[i] &&
			 LB_SERVE_KIND(lb_api_info[i].kind) &&
			 lb_route_fits(LB_ROUTE_SERVE, i))
			lb_solo_direct[i] = LB_DIRECT_SERVE;
	}
}

static void lb_do_init(void)
{
	struct lb_config cfg;
	int saved = errno, gate;

	pthread_mutex_lock(&lb_init_lock);
	lb_in_init = 1;
	/* Wrappers reached from here (runtime constructors) go straight. */
	lb_depth++;
	lb_config_read(&cfg);
	lb_log(LB_LOG_INFO, "version %s", LB_VERSION);
	lb_resolve_all(cfg.hip_library);
	lb_resolve_report();
	/* The seam's side of the runtime served, before any policy starts
	 * (rt.h; resolve_cuda.c decides which is served). */
	if (__atomic_load_n(&lb_cu_served, __ATOMIC_ACQUIRE))
		lb_rt = &lb_rt_cuda;
	lb_add_policy(&lb_policy_trace ? &lb_policy_trace : NULL, "trace");
	lb_add_policy(&lb_policy_stream0 ? &lb_policy_stream0 : NULL,
		      "stream0");
	lb_add_policy(&lb_policy_pool ? &lb_policy_pool : NULL, "pool");
	if (lb_nactive) {
		/*
		 * Only these serve calls or call the runtime themselves;
		 * the trace policy does neither, and then the runtime's own
		 * last error is already the right one.
		 */
		if (lb_policy_active(&lb_policy_stream0 ? &lb_policy_stream0 :
				     NULL) ||
		    lb_policy_active(&lb_policy_pool ? &lb_policy_pool : NULL))
			lb_lasterr_init();
		lb_have_key = !pthread_key_create(&lb_thread_key,
						  lb_thread_exit);
		atexit(lb_fini);
		if (lb_nactive == 1)
			lb_solo_init(lb_active[0]);
		__atomic_store_n(&lb_hooks, 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&lb_ready, 1, __ATOMIC_RELEASE);
	/* 0 while the runtime's failed start waits for the program's call
	 * (rtstart.c): every call takes the early path, then lb_slow. */
	gate = lb_hooks ? 2 : 1;
	if (__atomic_load_n(&lb_rt_fail, __ATOMIC_ACQUIRE))
		gate = 0;
	__atomic_store_n(&lb_gate, gate, __ATOMIC_RELEASE);
	lb_depth--;
	lb_in_init = 0;
	pthread_mutex_unlock(&lb_init_lock);
	errno = saved;
}

static void lb_register_fork(void)
{
	pthread_atfork(lb_fork_prepare, lb_fork_parent, lb_fork_child);
}

void lb_stream_gone(lb_stream s)
{
	int i;

	for (i = 0; i < lb_nactive; i++)
		if (lb_active[i]->stream_gone)
			lb_active[i]->stream_gone(s);
}

void lb_stat(int type, const uint64_t v[5])
{
	int i;

	for (i = 0; i < lb_nactive; i++)
		if (lb_active[i]->stat)
			lb_active[i]->stat(type, v);
}

void lb_init(void)
{
	/* Before start-up begins, so that a fork can wait for its end. */
	pthread_once(&lb_fork_once, lb_register_fork);
	pthread_once(&lb_once, lb_do_init);
}

void lb_thread_first(void)
{
	int saved = errno;

	lb_errno_p = &errno;
	lb_thread_known = 1;
	if (lb_have_key)
		pthread_setspecific(lb_thread_key, (void *)1);
	errno = saved;
}

/* The ALL route; with one policy alone, wrappers take SOLO instead. */
void lb_run(struct lb_call *c, lb_thunk_fn thunk)
{
	lb_pipeline(LB_ROUTE_ALL, c, thunk, c->api, lb_api_info[c->api].kind,
		    lb_api_info[c->api].flags, 1, lb_active, lb_nactive);
}
