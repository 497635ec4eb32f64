/*
 * stream0_select.c - which threads stream0 remaps, and the one warning
 * about PyTorch's caching allocator (a note while the launch-level check
 * orders what it sees).
 *
 * A thread is remapped when its name matches LBSHIM_STREAM0_THREADS and
 * none of LBSHIM_STREAM0_EXCLUDE.  The default excludes pt_autograd_*:
 * PyTorch's autograd engine runs backward on a worker thread of that name
 * (torch/csrc/autograd/engine.cpp, Engine::thread_init names it with
 * c10::setThreadName("pt_autograd_" + device)), and relies on the legacy
 * null stream to order it after the forward pass and before the optimizer
 * step, with no event between them when both use the default stream.  A
 * thread left on the legacy null stream stays ordered with every S both
 * ways, because each S is a blocking stream.
 *
 * The name is read once, at the thread's first null-stream call: what a
 * thread is decided to be does not change when it is renamed later (a
 * rename cannot move work that is already queued on one stream or the
 * other).
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <link.h>
#include <string.h>
#include <sys/prctl.h>
#include "stream0.h"
#include "stream0_hazard.h"

#define S0_MAXGLOB 16
#define S0_GLOBLEN 64

struct s0_globs {
	int n;
	char pat[S0_MAXGLOB][S0_GLOBLEN];
};

static struct s0_globs s0_only, s0_exclude;
static int s0_select_all; /* THREADS=* and no EXCLUDE: no name is read */
static int s0_nremapped;  /* threads ever remapped (atomic) */
static int s0_torch_warned;

/*
 * Splits a comma list into g, each entry without the blanks (spaces, tabs)
 * around it ("imu*, cam*" is two globs, as LBSHIM_POLICIES takes " a, b");
 * returns 0, or -1 (g emptied) when an entry is empty or longer than
 * S0_GLOBLEN - 1 or there are more than S0_MAXGLOB.
 */
static int s0_parse_globs(const char *v, struct s0_globs *g)
{
	const char *p = v, *e, *end;
	size_t len;

	g->n = 0;
	if (!*v)
		return 0; /* empty: no pattern */
	for (;;) {
		e = strchr(p, ',');
		end = e ? e : p + strlen(p);
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		len = (size_t)(end - p);
		if (!len || len >= S0_GLOBLEN || g->n == S0_MAXGLOB) {
			g->n = 0;
			return -1;
		}
		memcpy(g->pat[g->n], p, len);
		g->pat[g->n][len] = 0;
		g->n++;
		if (!e)
			return 0;
		p = e + 1;
	}
}

/* Reads one glob variable into g, or dflt when unset or invalid. */
static void s0_env_globs(const char *name, const char *dflt,
			 struct s0_globs *g)
{
	const char *v = lb_getenv(name);

	if (v && s0_parse_globs(v, g) == 0)
		return;
	if (v)
		lb_log(LB_LOG_WARN,
		       "%s=\"%.64s\": not a list of thread-name patterns "
		       "(accepted: up to %d comma-separated globs of at most "
		       "%d characters, or empty for none); using \"%s\"",
		       name, v, S0_MAXGLOB, S0_GLOBLEN - 1, dflt);
	s0_parse_globs(dflt, g);
}

void s0_select_init(void)
{
	s0_env_globs("LBSHIM_STREAM0_THREADS", "*", &s0_only);
	s0_env_globs("LBSHIM_STREAM0_EXCLUDE", "pt_autograd_*", &s0_exclude);
	s0_select_all = s0_only.n == 1 && !strcmp(s0_only.pat[0], "*") &&
			!s0_exclude.n;
}

static int s0_matches(const struct s0_globs *g, const char *name)
{
	int i;

	for (i = 0; i < g->n; i++)
		if (!fnmatch(g->pat[i], name, 0))
			return 1;
	return 0;
}

int s0_select_thread(void)
{
	char name[17] = "";

	if (s0_select_all)
		return 1;
	/* The kernel's comm of the calling thread: 15 bytes and a NUL. */
	if (prctl(PR_GET_NAME, name, 0, 0, 0) != 0)
		name[0] = 0;
	name[16] = 0;
	return s0_matches(&s0_only, name) && !s0_matches(&s0_exclude, name);
}

/* dl_iterate_phdr callback: is PyTorch's HIP or CUDA library loaded? */
static int s0_find_c10(struct dl_phdr_info *info, size_t size, void *data)
{
	const char *base;

	(void)size;
	if (!info->dlpi_name || !*info->dlpi_name)
		return 0;
	base = strrchr(info->dlpi_name, '/');
	base = base ? base + 1 : info->dlpi_name;
	if (!strncmp(base, "libc10_hip.so", 13) ||
	    !strncmp(base, "libc10_cuda.so", 14)) {
		*(int *)data = 1;
		return 1;
	}
	return 0;
}

/*
 * Is PyTorch's caching allocator serving this process's device memory?
 * libc10_hip holds it (c10/hip, hipified from c10/cuda), libc10_cuda in
 * a CUDA build (c10/cuda/CUDACachingAllocator.cpp); it is bypassed
 * when forceUncachedAllocator() (c10/cuda/CUDACachingAllocator.cpp) says
 * so, and PyTorch's releases disagree on what that takes: older ones
 * test PYTORCH_NO_CUDA_MEMORY_CACHING for presence (a getenv() !=
 * nullptr), newer ones read PYTORCH_NO_CUDA_MEMORY_CACHING or
 * PYTORCH_NO_HIP_MEMORY_CACHING with c10::utils::check_env() == true,
 * which holds for "1" only ("0", "", "true" leave caching on:
 * c10/util/env.cpp).  So caching counts as off only when either name is
 * "1", the value every release takes as off; any other value may leave
 * it on, and the warning is given (needlessly, with an old release and
 * a value other than "1").
 */
static int s0_env_is_1(const char *name)
{
	const char *v = lb_getenv(name);

	return v && v[0] == '1' && !v[1];
}

static int s0_torch_caching(void)
{
	int found = 0;

	if (s0_env_is_1("PYTORCH_NO_CUDA_MEMORY_CACHING") ||
	    s0_env_is_1("PYTORCH_NO_HIP_MEMORY_CACHING"))
		return 0;
	dl_iterate_phdr(s0_find_c10, &found);
	return found;
}

void s0_select_remapped(void)
{
	int n = __atomic_add_fetch(&s0_nremapped, 1, __ATOMIC_RELAXED);

	if (n != 2 || __atomic_exchange_n(&s0_torch_warned, 1,
					  __ATOMIC_RELAXED))
		return;
	if (!s0_torch_caching())
		return;
	/*
	 * With the launch-level check on, a block handed to another thread
	 * is ordered after the work that used it where the check sees the
	 * hand-over (lbshim(7)): a note.  Without it, nothing orders the two.
	 */
	if (s0_hz_active) {
		lb_log(LB_LOG_INFO,
		       "stream0: PyTorch's caching allocator is in use and a "
		       "second thread now has its own null stream: a block "
		       "one thread frees is ordered after that thread's work "
		       "on it when the launch-level check sees both touches "
		       "(lbshim(7), \"The launch-level check\")");
		return;
	}
	lb_log(LB_LOG_WARN,
	       "stream0: PyTorch's caching allocator is in use and a second "
	       "thread now has its own null stream, with "
	       "LBSHIM_STREAM0_CHECK=off: a block one thread frees can be "
	       "handed to another thread's work with nothing ordering the "
	       "two, and results can be wrong.  Safe settings: "
	       "LBSHIM_STREAM0_CHECK=on (the default), "
	       "LBSHIM_STREAM0_MODE=syncs, or LBSHIM_POLICIES=stream0,pool "
	       "with PyTorch's caching off (PYTORCH_NO_CUDA_MEMORY_CACHING=1 "
	       "and PYTORCH_NO_HIP_MEMORY_CACHING=1)");
}

void s0_select_fork_child(void)
{
	/* The child forgets every S (s0_thread_fork_child): start over. */
	__atomic_store_n(&s0_nremapped, 0, __ATOMIC_RELAXED);
}
