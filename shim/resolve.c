/*
 * resolve.c - finding the real HIP runtime's functions.
 *
 * Order: dlsym(RTLD_NEXT) (the runtime linked into the program), then the
 * runtime already loaded but not global (Python loads extensions, and the
 * runtime with them, RTLD_LOCAL): dlopen(RTLD_NOLOAD) of LBSHIM_HIP_LIBRARY
 * or libamdhip64.so.5, then, since we only get here from a wrapper the
 * process called, a plain dlopen of it.  A result inside the shim itself
 * (LBSHIM_HIP_LIBRARY pointing at liblbshim.so, say) is rejected: calling
 * it would recurse forever.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "shim.h"
#include "resolve.h"

struct lb_real_table lb_real;

static void *lb_self_base(void)
{
	Dl_info info;

	if (!dladdr((void *)lb_self_base, &info))
		return NULL;
	return info.dli_fbase;
}

static int lb_is_self(const void *fn)
{
	Dl_info info;

	return fn && dladdr(fn, &info) && info.dli_fbase == lb_self_base();
}

const char *lb_lib_of(const void *fn)
{
	Dl_info info;

	if (fn && dladdr(fn, &info) && info.dli_fname)
		return info.dli_fname;
	return "?";
}

static void *lb_sym_next(const char *sym)
{
	void *fn = dlsym(RTLD_NEXT, sym);

	return lb_is_self(fn) ? NULL : fn;
}

void *lb_resolve_one(int api)
{
	if (api < 0 || api >= LB_API_COUNT)
		return NULL;
	return lb_sym_next(lb_api_info[api].symbol);
}

/*
 * Opens the runtime named by LBSHIM_HIP_LIBRARY (or the default) without
 * loading it if possible.  Returns a handle or NULL; *why is set for the
 * warning when it fails.
 */
static void *lb_open_runtime(const char *path, int allow_load,
			     const char **why)
{
	/* dlerror()'s string dies at the next dl call: keep a copy. */
	static char err[256];
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
	const char *e;

	if (!h && allow_load)
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		e = dlerror();
		snprintf(err, sizeof(err), "%s", e ? e : "not found");
		*why = err;
		return NULL;
	}
	return h;
}

int lb_resolve_all(const char *libpath)
{
	const char *path = libpath ? libpath : "libamdhip64.so.5";
	const char *why = NULL;
	void *h = NULL;
	int i, found = 0, missing = 0, opened = 0;

	for (i = 0; i < LB_API_COUNT; i++) {
		const char *sym = lb_api_info[i].symbol;
		void *fn = lb_sym_next(sym);

		if (!fn && !opened) {
			h = lb_open_runtime(path, 1, &why);
			opened = 1;
		}
		if (!fn && h) {
			fn = dlsym(h, sym);
			if (lb_is_self(fn)) {
				why = "it is liblbshim.so itself";
				fn = NULL;
			}
		}
		memcpy((char *)&lb_real + i * sizeof(void *), &fn, sizeof(fn));
		if (fn)
			found++;
		else if (!(lb_api_info[i].flags & LB_F_OPT))
			missing++;
	}
	if (!found)
		lb_log(LB_LOG_WARN,
		       "cannot find the HIP runtime (%s: %s); every HIP call "
		       "will fail with hipErrorNotInitialized",
		       path, why ? why : "no HIP function in the process");
	else if (missing)
		lb_log(LB_LOG_INFO, "the runtime lacks %d wrapped functions",
		       missing);
	return found;
}

void lb_resolve_report(void)
{
	int k, i;

	if (lb_log_level < LB_LOG_DEBUG)
		return;
	for (k = 0; k < LB_KIND_COUNT; k++) {
		const char *lib = NULL;
		int n = 0, absent = 0;

		for (i = 0; i < LB_API_COUNT; i++) {
			void *fn;

			if (lb_api_info[i].kind != k)
				continue;
			memcpy(&fn, (char *)&lb_real + i * sizeof(void *),
			       sizeof(fn));
			if (!fn) {
				absent++;
				continue;
			}
			n++;
			if (!lib)
				lib = lb_lib_of(fn);
		}
		lb_log(LB_LOG_DEBUG, "%s: %d functions from %s, %d absent",
		       lb_kind_name(k), n, lib ? lib : "nowhere", absent);
	}
}

hipError_t lb_missing(int api)
{
	static char warned[LB_API_COUNT];
	int saved = errno;

	if (api >= 0 && api < LB_API_COUNT &&
	    !__atomic_exchange_n(&warned[api], 1, __ATOMIC_RELAXED))
		lb_log(LB_LOG_WARN,
		       "%s: not found in the HIP runtime; returning "
		       "hipErrorNotInitialized",
		       lb_api_info[api].name);
	errno = saved;
	return hipErrorNotInitialized;
}
