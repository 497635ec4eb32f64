/*
 * resolve_cuda.c - finding NVIDIA's CUDA runtime and driver, for the CUDA
 * rows of the table (include/lbshim/cuda_api.def), by resolve.c's rules:
 * the libraries already in the process, whatever their file names, never
 * a second copy, never the shim itself.
 *
 *  - The runtime (libcudart.so.12, .so.13): the global scope (a program
 *    linked against it), else the first loaded object, in load order,
 *    that defines cudaMalloc and cudaGetDevice (an extension opened
 *    RTLD_LOCAL: torch/_C brings libcudart into its own scope only).
 *  - The driver (libcuda.so.1): the same, by cuInit and
 *    cuGetProcAddress_v2.  cudart, shared or static, dlopens it itself
 *    (the facts) inside the program's first runtime call, which
 *    is after the shim's start: then the driver is adopted when cudart
 *    takes cuGetProcAddress_v2 from it with dlsym (lb_cu_driver_late,
 *    below).  Found on an H100 (driver 580.159.04):
 *    without the adoption every shared-cudart program failed with
 *    "CUDA driver version is insufficient" under the shim.  A driver-API
 *    program links the driver, which is found at the start.
 *
 * LBSHIM_CUDA_LIBRARY and LBSHIM_CUDA_DRIVER name either instead (opened
 * RTLD_NOLOAD first, then loaded).  Each row comes from its own library:
 * the runtime's rows (VER "libcudart...") from the runtime, the others
 * from the driver.  Nothing is loaded by name: a process that has loaded
 * no CUDA library has no CUDA row, and its CUDA wrappers (which it never
 * called, or it would have one) answer "not initialized".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#define LB_REAL_DIRECT /* the core: not counted in lb_rt_own */
#include "shim.h"
#include "elfdyn.h"
#include "resolve.h"

int lb_cu_served;

/* The load address of liblbshim.so itself. */
static ElfW(Addr) lb_self_base(void)
{
	struct link_map *lm = NULL;
	Dl_info info;

	if (!dladdr1((void *)lb_self_base, &info, (void **)&lm,
		     RTLD_DL_LINKMAP) || !lm)
		return (ElfW(Addr))-1;
	return lm->l_addr;
}

/* The two libraries (NULL: none; the global scope is opened by path). */
static void *lb_cu_h[2];
static char lb_cu_path[2][4096];

struct lb_cu_walk {
	ElfW(Addr) self;
	const char *want[2]; /* two functions the library defines */
	char name[4096];
	int n;
};

static int lb_cu_walk_one(struct dl_phdr_info *info, size_t size, void *data)
{
	struct lb_cu_walk *w = data;
	const ElfW(Dyn) *dyn;

	(void)size;
	if (!info->dlpi_name || !*info->dlpi_name || info->dlpi_addr == w->self)
		return 0;
	dyn = lb_elf_dynamic(info);
	if (!lb_elf_defines(info->dlpi_addr, dyn, w->want[0]) ||
	    !lb_elf_defines(info->dlpi_addr, dyn, w->want[1]))
		return 0;
	if (!w->n++)
		snprintf(w->name, sizeof(w->name), "%s", info->dlpi_name);
	return 0;
}

/*
 * Library k (0 runtime, 1 driver): the override, the global scope, or
 * the first loaded object defining a and b.  Returns a handle (opened
 * RTLD_NOLOAD, or loaded for an override) or NULL.
 */
static void *lb_cu_find(int k, const char *var, const char *a, const char *b)
{
	struct lb_cu_walk w = { .want = { a, b } };
	const char *over = lb_getenv(var);
	Dl_info info;
	void *fn, *h = NULL;

	w.self = lb_self_base();
	if (over && *over) {
		h = dlopen(over, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
		if (!h)
			h = dlopen(over, RTLD_NOW | RTLD_LOCAL);
		if (h && !lb_in_self(dlsym(h, a)))
			return h;
		lb_log(LB_LOG_WARN, "%s=\"%.200s\": cannot be opened (%.200s); "
		       "using what the process has loaded", var, over,
		       h ? "it is liblbshim.so" : dlerror());
		h = NULL;
	}
	fn = dlsym(RTLD_NEXT, a);
	if (fn && !lb_in_self(fn) && dladdr(fn, &info) && info.dli_fname)
		snprintf(w.name, sizeof(w.name), "%s", info.dli_fname);
	else
		dl_iterate_phdr(lb_cu_walk_one, &w);
	if (*w.name)
		h = dlopen(w.name, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
	if (h)
		snprintf(lb_cu_path[k], sizeof(lb_cu_path[k]), "%s", w.name);
	if (w.n > 1)
		lb_log(LB_LOG_WARN, "two CUDA %s libraries are loaded: every "
		       "call that reaches lbshim goes to %s",
		       k ? "driver" : "runtime", w.name);
	return h;
}

static int lb_cu_has_one(struct dl_phdr_info *info, size_t size, void *data)
{
	const ElfW(Dyn) *dyn;
	ElfW(Addr) self = *(ElfW(Addr) *)data;

	(void)size;
	if (!info->dlpi_name || !*info->dlpi_name || info->dlpi_addr == self)
		return 0;
	dyn = lb_elf_dynamic(info);
	return (lb_elf_defines(info->dlpi_addr, dyn, "cudaMalloc") &&
		lb_elf_defines(info->dlpi_addr, dyn, "cudaGetDevice")) ||
	       (lb_elf_defines(info->dlpi_addr, dyn, "cuInit") &&
		lb_elf_defines(info->dlpi_addr, dyn, "cuGetProcAddress_v2"));
}

int lb_cu_find_loaded(void)
{
	ElfW(Addr) self = lb_self_base();

	return dl_iterate_phdr(lb_cu_has_one, &self);
}

int lb_cu_present(void)
{
	static const char *const probe[] = { "cudaMalloc", "cuInit", NULL };
	int i;

	for (i = 0; probe[i]; i++) {
		void *fn = dlsym(RTLD_NEXT, probe[i]);

		if (fn && !lb_in_self(fn))
			return 1;
	}
	dlerror();
	return lb_cu_find_loaded();
}

int lb_cu_resolve(int serve)
{
	int i, found = 0;

	lb_cu_h[0] = lb_cu_find(0, "LBSHIM_CUDA_LIBRARY", "cudaMalloc",
				"cudaGetDevice");
	lb_cu_h[1] = lb_cu_find(1, "LBSHIM_CUDA_DRIVER", "cuInit",
				"cuGetProcAddress_v2");
	for (i = LB_API_HIP_COUNT; i < LB_API_COUNT; i++) {
		int k = strncmp(lb_api_info[i].version, "libcudart", 9) != 0;
		void *fn = lb_cu_h[k] ? dlsym(lb_cu_h[k], lb_api_info[i].symbol)
				      : NULL;

		if (lb_in_self(fn))
			fn = NULL;
		memcpy((char *)&lb_real + i * sizeof(void *), &fn, sizeof(fn));
		found += fn != NULL;
	}
	dlerror();
	if (!found)
		return 0;
	lb_log(LB_LOG_DEBUG, "CUDA: runtime %s, driver %s: %d functions",
	       *lb_cu_path[0] ? lb_cu_path[0] : "none",
	       *lb_cu_path[1] ? lb_cu_path[1] : "none", found);
	__atomic_store_n(&lb_cu_served, serve, __ATOMIC_RELEASE);
	return found;
}

/* ---- the driver, loaded after start-up ---- */

/*
 * A shared cudart dlopens libcuda.so.1 when it starts (the issue's
 * facts, #35), after a program's first call (its __cudaRegisterFatBinary
 * from a constructor) ran lb_init: the driver's rows are then empty.
 * They are filled the first time the shim needs one and the driver is
 * found among the loaded objects: cudart's dlsym of cuGetProcAddress_v2
 * right after its dlopen (cuda_procaddr.c), a wrapper of a row still
 * empty, the CUDA side's services (rt_cuda.c).  A walk of the loaded
 * objects is made again only when objects were loaded since the last
 * (dlpi_adds), so a process without the driver pays one look per load.
 */
static pthread_mutex_t lb_cu_late_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long lb_cu_late_adds;

static int lb_cu_adds_one(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(unsigned long long *)data = info->dlpi_adds;
	return 1;
}

int lb_cu_driver_late(void)
{
	unsigned long long adds = 0;
	int i, n = 0, saved = errno;
	void *h;

	if (__atomic_load_n(&lb_cu_h[1], __ATOMIC_ACQUIRE))
		return 1;
	if (!__atomic_load_n(&lb_ready, __ATOMIC_ACQUIRE))
		return 0; /* lb_init resolves everything itself */
	dl_iterate_phdr(lb_cu_adds_one, &adds);
	pthread_mutex_lock(&lb_cu_late_lock);
	if (lb_cu_h[1] || adds == lb_cu_late_adds)
		goto out;
	lb_cu_late_adds = adds;
	h = lb_cu_find(1, "LBSHIM_CUDA_DRIVER", "cuInit", "cuGetProcAddress_v2");
	if (!h)
		goto out;
	for (i = LB_API_HIP_COUNT; i < LB_API_COUNT; i++) {
		void *fn, **slot = (void **)((char *)&lb_real +
					     i * sizeof(void *));

		if (!strncmp(lb_api_info[i].version, "libcudart", 9) ||
		    __atomic_load_n(slot, __ATOMIC_RELAXED))
			continue;
		fn = dlsym(h, lb_api_info[i].symbol);
		if (lb_in_self(fn))
			fn = NULL;
		__atomic_store_n(slot, fn, __ATOMIC_RELEASE);
		n += fn != NULL;
	}
	dlerror();
	__atomic_store_n(&lb_cu_h[1], h, __ATOMIC_RELEASE);
	lb_log(LB_LOG_DEBUG, "CUDA: driver %s, loaded after start-up: %d "
	       "functions", lb_cu_path[1], n);
out:
	pthread_mutex_unlock(&lb_cu_late_lock);
	errno = saved;
	return __atomic_load_n(&lb_cu_h[1], __ATOMIC_ACQUIRE) != NULL;
}

void *lb_cu_late_row(int api)
{
	void *fn;

	if (api < LB_API_HIP_COUNT || api >= LB_API_COUNT)
		return NULL;
	lb_cu_driver_late();
	memcpy(&fn, (char *)&lb_real + api * sizeof(void *), sizeof(fn));
	return fn;
}

const char *lb_cu_file(void)
{
	return *lb_cu_path[0] ? lb_cu_path[0] : lb_cu_path[1];
}

void *lb_cu_sym(const char *sym)
{
	void *fn = NULL;
	int saved = errno, k;

	for (k = 0; k < 2 && !fn; k++)
		if (lb_cu_h[k])
			fn = dlsym(lb_cu_h[k], sym);
	if (lb_in_self(fn))
		fn = NULL;
	dlerror();
	errno = saved;
	return fn;
}
