/*
 * kernel.c - the kernel registry: a record per host stub (hipcc's and
 * nvcc's registrations) and per module function name, the twin that stands
 * in for each kernel's device code, and each kernel's argument layout.
 *
 * A kernel is known by its mangled device name; its twin is the C function
 * hipemu_twin_<name> (see hipemu.h).  Kernel records are never freed: a
 * launch still queued may name one after its fat binary or module is gone.
 *
 * The argument sizes that let a launch copy its arguments and return at
 * once come from the twin's hipemu_args_<name> table when it has one, else
 * from the layout set at registration or module load (an AMD code object's
 * metadata, include/lbshim/codeobj.h, or the parameter table the CUDA face
 * reads from a cubin), never on a launch.
 */
#include "he.h"
#include "lbshim/codeobj.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

static pthread_mutex_t he_klock = PTHREAD_MUTEX_INITIALIZER;
static struct he_kernel *he_by_stub, *he_by_name, *he_all_kernels;

#define HE_MAX_LIBS 32
static void *he_libs[HE_MAX_LIBS];
static int he_nlibs;

void he_kernels_init(const char *paths)
{
	char *copy, *p, *save = NULL;

	if (!paths || !*paths)
		return;
	copy = strdup(paths);
	if (!copy)
		return;
	for (p = strtok_r(copy, ":", &save); p && he_nlibs < HE_MAX_LIBS;
	     p = strtok_r(NULL, ":", &save)) {
		void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);

		if (!h)
			he_warn("HIPEMU_KERNELS: cannot load %s: %s", p,
				dlerror());
		else
			he_libs[he_nlibs++] = h;
	}
	free(copy);
}

hipemu_twin_fn he_twin_lookup(const char *name, const unsigned **sizes)
{
	char sym[1024];
	void *fn = NULL, *sz = NULL;

	*sizes = NULL;
	if (snprintf(sym, sizeof(sym), "hipemu_twin_%s", name) >=
	    (int)sizeof(sym))
		return NULL;
	for (int i = 0; i < he_nlibs && !fn; i++) {
		fn = dlsym(he_libs[i], sym);
		if (fn) {
			snprintf(sym, sizeof(sym), "hipemu_args_%s", name);
			sz = dlsym(he_libs[i], sym);
		}
	}
	if (!fn) {
		fn = dlsym(RTLD_DEFAULT, sym);
		if (fn) {
			snprintf(sym, sizeof(sym), "hipemu_args_%s", name);
			sz = dlsym(RTLD_DEFAULT, sym);
		}
	}
	*sizes = sz;
	return (hipemu_twin_fn)fn;
}

/*
 * Sets hk's zero-terminated size table of n explicit arguments, followed
 * by their kernarg offsets, unless it has one; leaves it unset when a size
 * is 0 (no table hipemu_args_<name> could have been).  Under he_klock.
 */
static void layout_set(struct he_kernel *hk, const unsigned *sizes,
		       const unsigned *offs, unsigned n)
{
	unsigned *t;

	if (hk->meta_sizes)
		return;
	for (unsigned i = 0; i < n; i++)
		if (!sizes[i])
			return;
	t = calloc(2 * ((size_t)n + 1), sizeof(*t));
	if (!t)
		return;
	memcpy(t, sizes, n * sizeof(*t));
	memcpy(t + n + 1, offs, n * sizeof(*t));
	hk->meta_n = n;
	hk->meta_offs = t + n + 1;
	hk->meta_sizes = t;
}

/* The explicit arguments of a code object's kernel k (the hidden ones are
 * the runtime's).  Under he_klock. */
static void kernel_meta(struct he_kernel *hk, const struct lb_co_kernel *k)
{
	unsigned *sizes, *offs, n = 0;

	if (hk->meta_sizes || !k || !k->facts)
		return;
	sizes = calloc(2 * ((size_t)k->nargs + 1), sizeof(*sizes));
	if (!sizes)
		return;
	offs = sizes + k->nargs + 1;
	for (uint32_t i = 0; i < k->nargs; i++) {
		if (k->args[i].kind == LB_CO_HIDDEN)
			continue;
		offs[n] = k->args[i].offset;
		sizes[n++] = k->args[i].size;
	}
	layout_set(hk, sizes, offs, n);
	free(sizes);
}

/* Under he_klock. */
static struct he_kernel *kernel_new(const void *host, const char *name)
{
	struct he_kernel *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->magic = HE_KERNEL_MAGIC;
	k->host = host;
	k->name = strdup(name ? name : "?");
	if (!k->name) {
		free(k);
		return NULL;
	}
	k->all_next = he_all_kernels;
	he_all_kernels = k;
	return k;
}

bool he_kernel_twin(struct he_kernel *k, hipemu_twin_fn *fn,
		    const unsigned **sizes)
{
	pthread_mutex_lock(&he_klock);
	if (!k->resolved) {
		k->fn = he_twin_lookup(k->name, &k->sizes);
		k->resolved = true;
	}
	*fn = k->fn;
	*sizes = k->sizes ? k->sizes : k->meta_sizes;
	pthread_mutex_unlock(&he_klock);
	return *fn != NULL;
}

struct he_kernel *he_kernel_by_stub(const void *host)
{
	struct he_kernel *k = NULL;

	pthread_mutex_lock(&he_klock);
	HASH_FIND_PTR(he_by_stub, &host, k);
	pthread_mutex_unlock(&he_klock);
	return k;
}

struct he_kernel *he_kernel_add_stub(const void *host, const char *name,
				     const struct lb_co_kernel *meta)
{
	struct he_kernel *k;

	pthread_mutex_lock(&he_klock);
	HASH_FIND_PTR(he_by_stub, &host, k);
	if (k)
		HASH_DELETE(hh, he_by_stub, k);
	k = kernel_new(host, name);
	if (k) {
		kernel_meta(k, meta);
		HASH_ADD_PTR(he_by_stub, host, k);
	}
	pthread_mutex_unlock(&he_klock);
	return k;
}

struct he_kernel *he_kernel_named(const char *name,
				  const struct lb_co_kernel *meta)
{
	struct he_kernel *k;

	pthread_mutex_lock(&he_klock);
	HASH_FIND(hn, he_by_name, name, strlen(name), k);
	if (!k) {
		k = kernel_new(NULL, name);
		if (k)
			HASH_ADD_KEYPTR(hn, he_by_name, k->name,
					strlen(k->name), k);
	}
	/* records are shared by name: the first module with metadata wins */
	if (k)
		kernel_meta(k, meta);
	pthread_mutex_unlock(&he_klock);
	return k;
}

void he_kernel_layout(struct he_kernel *k, const unsigned *sizes,
		      const unsigned *offs, unsigned n)
{
	pthread_mutex_lock(&he_klock);
	layout_set(k, sizes, offs, n);
	pthread_mutex_unlock(&he_klock);
}

bool he_kernel_param(struct he_kernel *k, unsigned i, unsigned *off,
		     unsigned *size)
{
	bool ok;

	pthread_mutex_lock(&he_klock);
	ok = k->meta_sizes && i < k->meta_n;
	if (ok) {
		*off = k->meta_offs[i];
		*size = k->meta_sizes[i];
	}
	pthread_mutex_unlock(&he_klock);
	return ok;
}
