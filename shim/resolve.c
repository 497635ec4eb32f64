/*
 * resolve.c - finding the real HIP runtime's functions.
 *
 * The runtime is the one already in the process, whatever its file name
 * (libamdhip64.so.5, .so.6, .so.7, or a wheel's torch/lib/libamdhip64.so):
 *
 *  1. dlsym(RTLD_NEXT): a runtime in the global scope, which is where a
 *     program linked against it has it.
 *  2. The loaded objects, walked with dl_iterate_phdr: the first, in load
 *     order, whose dynamic symbol table defines hipMalloc and hipGetDevice
 *     and which is not the shim.  This is the PyTorch path: Python opens
 *     torch/_C RTLD_LOCAL, which brings libtorch_hip and the runtime into
 *     that extension's local scope only, where RTLD_NEXT cannot see it.
 *     It is opened again by its path with RTLD_NOLOAD to dlsym() from it.
 *  3. No runtime loaded at all.  We only get here from a wrapper that the
 *     process called, so it wants HIP: dlopen by name, in lb_names order.
 *
 * LBSHIM_HIP_LIBRARY replaces the three steps: that library, with
 * RTLD_NOLOAD if it is loaded, else loaded.  Nothing else ever loads a
 * runtime, so a process never gets a second one from the shim (step 3
 * runs only when the walk found none).  Every function comes from the one
 * library chosen, never some from one runtime and some from another.
 * A result inside the shim itself (LBSHIM_HIP_LIBRARY pointing at
 * liblbshim.so, say) is rejected: calling it would recurse forever.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#define LB_REAL_DIRECT /* the core: not counted in lb_rt_own */
#include "shim.h"
#include "elfdyn.h"
#include "resolve.h"

struct lb_real_table lb_real;

/*
 * Names tried in step 3.  Numbered names first, newest major first: each
 * is the soname a runtime package installs, searched by dlopen in
 * LD_LIBRARY_PATH before the system's directories, so a newer ROCm on the
 * user's path wins.  The bare name last: it is a development link (on
 * Debian 12 it points at the system's 5.2 even when LD_LIBRARY_PATH names
 * a newer runtime) or a wheel's copy, found only by its directory.
 */
static const char *const lb_names[] = {
	"libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5",
	"libamdhip64.so", NULL
};

/* The library lb_real comes from; NULL for the global scope (RTLD_NEXT). */
static void *lb_rt_handle;
/* lb_resolve_all found a runtime (in lb_rt_handle or the global scope). */
static int lb_rt_found;
/* Its file (lb_rt_file), copied: the loader's name lives as long as the
 * library, which a program may close. */
static char lb_rt_path[4096];

/* The first HIP row found: its library (lb_resolve_all's message). */
static const char *lb_rt_first_file(void)
{
	int i;

	for (i = 0; i < LB_API_HIP_COUNT; i++) {
		void *fn;

		memcpy(&fn, (char *)&lb_real + i * sizeof(void *), sizeof(fn));
		if (fn)
			return lb_lib_of(fn);
	}
	return "?";
}

static ElfW(Addr) lb_base_of(const void *addr)
{
	struct link_map *lm = NULL;
	Dl_info info;

	if (!dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
		return (ElfW(Addr))-1;
	return lm->l_addr;
}

int lb_in_self(const void *fn)
{
	return fn && lb_base_of(fn) == lb_base_of((void *)lb_in_self);
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

	return lb_in_self(fn) ? NULL : fn;
}

static void *lb_sym_in(void *h, const char *sym)
{
	void *fn = h ? dlsym(h, sym) : lb_sym_next(sym);

	return lb_in_self(fn) ? NULL : fn;
}

void *lb_resolve_one(int api)
{
	if (api < 0 || api >= LB_API_COUNT)
		return NULL;
	/* While lb_init() runs: the library chosen, once it is known. */
	return lb_sym_in(__atomic_load_n(&lb_rt_handle, __ATOMIC_ACQUIRE),
			 lb_api_info[api].symbol);
}

const char *lb_rt_file(void)
{
	return lb_rt_path;
}

void *lb_rt_sym(const char *sym)
{
	int saved = errno;
	void *fn = NULL;

	if (__atomic_load_n(&lb_cu_served, __ATOMIC_ACQUIRE))
		return lb_cu_sym(sym);
	if (__atomic_load_n(&lb_rt_found, __ATOMIC_ACQUIRE)) {
		fn = lb_sym_in(lb_rt_handle, sym);
		dlerror(); /* a miss is ours, not the program's */
	}
	errno = saved;
	return fn;
}

/* The HIP runtimes among the loaded objects, in load order (two kept). */
struct lb_walk {
	ElfW(Addr) self;
	int n;
	const char *name[2];
	ElfW(Addr) base[2];
};

static int lb_walk_one(struct dl_phdr_info *info, size_t size, void *data)
{
	struct lb_walk *w = data;
	const ElfW(Dyn) *dyn;

	(void)size;
	/* The main program (empty name) has no runtime we could open. */
	if (!info->dlpi_name || !*info->dlpi_name || info->dlpi_addr == w->self)
		return 0;
	dyn = lb_elf_dynamic(info);
	if (!lb_elf_defines(info->dlpi_addr, dyn, "hipMalloc") ||
	    !lb_elf_defines(info->dlpi_addr, dyn, "hipGetDevice"))
		return 0;
	if (w->n < 2) {
		w->name[w->n] = info->dlpi_name;
		w->base[w->n] = info->dlpi_addr;
	}
	w->n++;
	return 0;
}

/* dlerror()'s string dies at the next dl call: the warning keeps a copy. */
static char lb_err[256];

static const char *lb_dl_error(const char *what)
{
	const char *e = dlerror();

	snprintf(lb_err, sizeof(lb_err), "%s", e ? e : what);
	return lb_err;
}

/*
 * Opens path: RTLD_NOLOAD first (no reference to a second copy), then, if
 * allow_load, for real.  Returns a handle, or NULL with *why set.
 */
static void *lb_open(const char *path, int allow_load, const char **why)
{
	void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);

	if (!h && allow_load)
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		*why = lb_dl_error("not loaded");
	return h;
}

/* Step 3: the first of lb_names that loads. */
static void *lb_load_by_name(const char **why)
{
	static char msg[sizeof(lb_err) + 128];
	void *h;
	int i;

	for (i = 0; lb_names[i]; i++) {
		h = dlopen(lb_names[i], RTLD_NOW | RTLD_LOCAL);
		if (h)
			return h;
		lb_dl_error("not found");
	}
	snprintf(msg, sizeof(msg),
		 "none is loaded and none of libamdhip64.so.7, .so.6, .so.5, "
		 "libamdhip64.so loads: %s", lb_err);
	*why = msg;
	return NULL;
}

static ElfW(Addr) lb_base_of_handle(void *h)
{
	struct link_map *lm = NULL;

	if (!h || dlinfo(h, RTLD_DI_LINKMAP, &lm) || !lm)
		return (ElfW(Addr))-1;
	return lm->l_addr;
}

int lb_resolve_all(const char *libpath)
{
	struct lb_walk w = { .self = lb_base_of((void *)lb_resolve_all) };
	const char *why = NULL, *how, *file = NULL;
	ElfW(Addr) chosen;
	void *h = NULL, *fn;
	int i, found = 0, missing = 0, cuda_only = 0, cu;

	dl_iterate_phdr(lb_walk_one, &w);
	if (libpath) {
		h = lb_open(libpath, 1, &why);
		how = "LBSHIM_HIP_LIBRARY";
		chosen = lb_base_of_handle(h);
		/*
		 * An override that cannot be opened keeps the default where
		 * the process already has a runtime (a setting that does not
		 * work changes nothing, with one warning); with none loaded,
		 * nothing is loaded in its place.
		 */
		if (!h && (lb_sym_next("hipMalloc") || w.n)) {
			lb_log(LB_LOG_WARN,
			       "LBSHIM_HIP_LIBRARY=\"%.200s\": cannot be opened "
			       "(%.200s); using the runtime already loaded",
			       libpath, why ? why : "not found");
			libpath = NULL;
			why = NULL;
		}
	}
	if (libpath) {
		/* chosen above */
	} else if ((fn = lb_sym_next("hipMalloc"))) {
		how = "in the global scope";
		chosen = lb_base_of(fn);
	} else if (w.n) {
		h = lb_open(w.name[0], 0, &why);
		how = "loaded RTLD_LOCAL, found among the loaded objects";
		chosen = w.base[0];
	} else if (lb_cu_present()) {
		/* A CUDA process: no HIP runtime is loaded into it. */
		cuda_only = 1;
		why = "a CUDA process";
		how = "none";
		chosen = (ElfW(Addr))-1;
	} else {
		h = lb_load_by_name(&why);
		how = "none was loaded: loaded by lbshim";
		chosen = lb_base_of_handle(h);
	}
	__atomic_store_n(&lb_rt_handle, h, __ATOMIC_RELEASE);
	for (i = 0; i < LB_API_HIP_COUNT; i++) {
		const char *sym = lb_api_info[i].symbol;

		fn = NULL;
		if (h)
			fn = dlsym(h, sym);
		else if (!why)
			fn = dlsym(RTLD_NEXT, sym);
		if (lb_in_self(fn)) {
			why = "it is liblbshim.so itself";
			fn = NULL;
		}
		memcpy((char *)&lb_real + i * sizeof(void *), &fn, sizeof(fn));
		if (fn) {
			found++;
			if (!file)
				file = lb_lib_of(fn);
		} else if (!(lb_api_info[i].flags & LB_F_OPT)) {
			missing++;
		}
	}
	/* Our misses are not the program's: leave no dlerror() behind. */
	dlerror();
	/* lb_rt_sym's functions come from where the rows' came from. */
	__atomic_store_n(&lb_rt_found, found && (h || !why), __ATOMIC_RELEASE);
	/* One runtime served per process: HIP's where it has both. */
	cu = lb_cu_resolve(!found);
	if (cu && found)
		lb_log(LB_LOG_WARN,
		       "both HIP (%s) and CUDA (%s) are in the process: lbshim "
		       "serves HIP; CUDA calls go straight to CUDA",
		       lb_rt_first_file(), lb_cu_file());
	if (cu && !found) {
		snprintf(lb_rt_path, sizeof(lb_rt_path), "%s", lb_cu_file());
		lb_log(LB_LOG_DEBUG, "CUDA runtime: %s", lb_rt_path);
		return cu;
	}
	if (!found && cuda_only)
		return 0;
	if (!found) {
		lb_log(LB_LOG_WARN,
		       "cannot find the HIP runtime (%s: %s); every HIP call "
		       "will fail with hipErrorNotInitialized",
		       libpath ? libpath : "libamdhip64",
		       why ? why : "no HIP function in the process");
		return 0;
	}
	lb_log(LB_LOG_DEBUG, "HIP runtime: %s (%s)", file, how);
	snprintf(lb_rt_path, sizeof(lb_rt_path), "%s", file);
	for (i = 0; i < w.n && i < 2; i++) {
		if (w.base[i] == chosen)
			continue;
		lb_log(LB_LOG_WARN,
		       "two HIP runtimes are loaded, %s and %s: every HIP call "
		       "that reaches lbshim goes to %s",
		       file, w.name[i], file);
		break;
	}
	if (missing)
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
		       LB_API_IS_CUDA(api) ?
			       "%s: not found in the CUDA runtime or driver; "
			       "returning its \"not initialized\" error (3)" :
			       "%s: not found in the HIP runtime; returning "
			       "hipErrorNotInitialized",
		       lb_api_info[api].name);
	errno = saved;
	return hipErrorNotInitialized;
}
