/*
 * dlopen.c - saying so when a library's HIP calls will bypass the shim.
 *
 * A library opened with RTLD_DEEPBIND looks its symbols up in its own
 * dependencies before the global scope: if those include a HIP runtime,
 * its HIP calls bind there and no wrapper ever sees them.  Nothing can
 * redirect that, so the shim wraps dlopen only to warn once.  This is the
 * one export that is not a HIP name (see mk/shim.mk).
 *
 * The wrapper must not change what dlopen does, and glibc's dlopen
 * depends on who calls it: the calling object (found from the return
 * address) gives the RUNPATH/RPATH searched for a bare name and the
 * $ORIGIN of a name with dynamic string tokens.  A C wrapper that calls
 * the real dlopen would make the shim the caller.  So dlopen is a few
 * instructions of assembly that jump to the real one with the caller's
 * return address still on the stack: an open without RTLD_DEEPBIND costs
 * a test and an indirect jump, and works before lb_init() (it needs none
 * of the shim's state).  A DEEPBIND open goes to lb_dlopen_deep(), which
 * calls the real dlopen itself and then looks at what it loaded, but only
 * where the shim as caller searches exactly where the real caller would:
 * a path (with a '/', no '$'), or a bare name from an object that has no
 * search path of its own.  Any other DEEPBIND open is forwarded by the
 * same jump, unchecked.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stddef.h>
#include <string.h>
#include "lbshim/pp.h"
#include "shim.h"
#include "elfdyn.h"
#include "tramp.h"

typedef void *(*lb_dlopen_fn)(const char *file, int mode);

/* The next dlopen (libc's, or another preloaded wrapper's). */
__attribute__((used)) lb_dlopen_fn lb_dl_next;
static int lb_dl_warned;

void *lb_dl_enter(const char *file, int mode, const void *ra);
void *lb_dlopen_deep(const char *file, int mode);
void *lb_dlopen_none(const char *file, int mode);

#if defined(__x86_64__)
/*
 * The fast path, then lb_dl_enter() to resolve the next dlopen or to
 * decide about a DEEPBIND open; it returns the function to jump to, which
 * gets the caller's arguments and return address untouched.
 */
__asm__(".text\n"
	".globl dlopen\n"
	".type dlopen, @function\n"
	"dlopen:\n"
	"	.cfi_startproc\n"
	"	testl $" LB_STR(RTLD_DEEPBIND) ", %esi\n"
	"	jnz 1f\n"
	"	movq lb_dl_next(%rip), %rax\n"
	"	testq %rax, %rax\n"
	"	jz 1f\n"
	"	jmp *%rax\n"
	/* the return address, lb_dl_enter's third argument */
	"1:" LB_TRAMP_CALL("	movq 24(%rsp), %rdx\n", "lb_dl_enter")
	"	.cfi_endproc\n"
	".size dlopen, .-dlopen\n");
#endif

/* No next dlopen at all (cannot happen with glibc): fail as it would. */
__attribute__((used)) void *lb_dlopen_none(const char *file, int mode)
{
	(void)file;
	(void)mode;
	return NULL;
}

/* Does the object containing ra search paths of its own for a bare name? */
static int lb_caller_searches(const void *ra)
{
	struct link_map *lm = NULL;
	Dl_info info;

	if (!dladdr1(ra, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
		return 1;
	return lb_elf_has_search_path(lm->l_ld);
}

__attribute__((used)) void *lb_dl_enter(const char *file, int mode,
					  const void *ra)
{
	lb_dlopen_fn next = __atomic_load_n(&lb_dl_next, __ATOMIC_ACQUIRE);
	int saved = errno;

	if (!next) {
		/* Racing threads store the same pointer. */
		next = (lb_dlopen_fn)dlsym(RTLD_NEXT, "dlopen");
		__atomic_store_n(&lb_dl_next, next, __ATOMIC_RELEASE);
		if (!next) {
			errno = saved;
			return (void *)lb_dlopen_none;
		}
	}
	if (!(mode & RTLD_DEEPBIND) || (mode & RTLD_NOLOAD) || !file ||
	    __atomic_load_n(&lb_dl_warned, __ATOMIC_RELAXED) ||
	    strchr(file, '$') ||
	    (!strchr(file, '/') && lb_caller_searches(ra))) {
		errno = saved;
		return (void *)next;
	}
	errno = saved;
	return (void *)lb_dlopen_deep;
}

static int lb_adds_one(struct dl_phdr_info *info, size_t size, void *data)
{
	if (size >= offsetof(struct dl_phdr_info, dlpi_adds) +
			    sizeof(info->dlpi_adds))
		*(unsigned long long *)data = info->dlpi_adds;
	return 1;
}

/* How many objects the process has loaded so far. */
static unsigned long long lb_adds(void)
{
	unsigned long long n = 0;

	dl_iterate_phdr(lb_adds_one, &n);
	return n;
}

/*
 * The warning obeys LBSHIM_LOG even before lb_init() has read it: only
 * "error" silences a warning.
 */
static int lb_dl_quiet(void)
{
	const char *v;

	if (__atomic_load_n(&lb_ready, __ATOMIC_ACQUIRE))
		return 0;
	v = lb_getenv("LBSHIM_LOG");
	return v && !strcmp(v, "error");
}

/*
 * h was just loaded with RTLD_DEEPBIND: if its own scope (itself and what
 * it needs) has a HIP runtime other than h itself, its calls bind there.
 */
static void lb_dl_check(void *h, const char *file)
{
	struct link_map *lm_h = NULL, *lm_fn = NULL;
	Dl_info info;
	void *fn = dlsym(h, "hipMalloc");

	if (!fn) {
		/* After a successful dlopen, dlerror() says nothing. */
		dlerror();
		return;
	}
	if (lb_in_self(fn) || dlinfo(h, RTLD_DI_LINKMAP, &lm_h) ||
	    !dladdr1(fn, &info, (void **)&lm_fn, RTLD_DL_LINKMAP) ||
	    lm_h == lm_fn)
		return;
	if (lb_dl_quiet() ||
	    __atomic_exchange_n(&lb_dl_warned, 1, __ATOMIC_RELAXED))
		return;
	lb_log(LB_LOG_WARN,
	       "%s was opened with RTLD_DEEPBIND: its HIP calls bypass lbshim",
	       lm_h && lm_h->l_name && *lm_h->l_name ? lm_h->l_name : file);
}

__attribute__((used)) void *lb_dlopen_deep(const char *file, int mode)
{
	unsigned long long before = lb_adds();
	void *h;
	int saved;

	h = lb_dl_next(file, mode);
	saved = errno;
	if (h && lb_adds() != before)
		lb_dl_check(h, file);
	errno = saved;
	return h;
}
