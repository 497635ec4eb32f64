/*
 * cuda_procaddr.c - every way a CUDA program gets a function pointer
 * hands it the shim's wrapper: dlsym (wrapped here), cuGetProcAddress
 * and cuGetProcAddress_v2, cudaGetDriverEntryPoint[ByVersion] and their
 * _ptsz forms (the LB_F_PROCADDR rows of cuda_api.def, through
 * procaddr.c).
 *
 * Why: cudart, static and shared alike, dlopens libcuda.so.1, takes
 * cuGetProcAddress_v2 with dlsym and asks it for every driver function
 * it calls (the facts, #35); wrapping libcuda's exports alone
 * sees none of those calls.  The answer is mapped by what the real
 * lookup returned, never by the name asked: a lookup of "cuMemAlloc" for
 * CUDA 3.2 or later returns cuMemAlloc_v2, with the per-thread flag
 * (CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, cuda.h:2413)
 * cuMemcpyAsync_ptsz, and an older version the old function: the
 * wrapper handed out is the row whose real function is that very
 * pointer, so the version is the one the driver chose.  A pointer that
 * is no row's (an unwrapped function, cuGetExportTable's private tables,
 * a second copy of the library) is passed on untouched.
 *
 * dlsym keeps its caller: glibc's dlsym looks RTLD_DEFAULT and RTLD_NEXT
 * up from the caller's object (its return address), so those two go to
 * the real dlsym by a jump that leaves the return address in place (as
 * dlopen.c does); a lookup in a handle does not depend on the caller and
 * goes through lb_dlsym_handle, which looks at the answer.  A library's
 * lookup of its own symbols (the driver's internal dlsym) and the
 * shim's own lookups (resolve.c) are left alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <string.h>
#define LB_REAL_DIRECT /* the core: not counted in lb_rt_own */
#include "shim.h"
#include "resolve.h"
#include "tramp.h"

typedef void *(*lb_dlsym_fn)(void *handle, const char *name);

void *lb_cu_wrapper_addr(int api);
void lb_cu_procaddr_post(struct lb_call *c);
void *lb_dlsym_handle(void *handle, const char *name);
lb_dlsym_fn lb_dlsym_resolve(void);

/* glibc's dlsym (or another preloaded wrapper's): dlvsym is not ours. */
__attribute__((used)) lb_dlsym_fn lb_dlsym_next;

/* Real CUDA function fn -> the shim's wrapper of its row, or NULL. */
static void *lb_cu_wrap_of(const void *fn)
{
	int i;

	for (i = LB_API_HIP_COUNT; i < LB_API_COUNT; i++) {
		void *r;

		memcpy(&r, (char *)&lb_real + i * sizeof(void *), sizeof(r));
		if (r == fn)
			return lb_cu_wrapper_addr(i);
	}
	return NULL;
}

void lb_cu_procaddr_post(struct lb_call *c)
{
	void **pfn = lb_ar_ptr(c->api, c->args, LB_AR_OUT), *w;

	if (c->ret != hipSuccess || !pfn || !*pfn)
		return;
	w = lb_cu_wrap_of(*pfn);
	if (w)
		*pfn = w;
}

#if defined(__x86_64__)
__asm__(".text\n"
	".globl dlsym\n"
	".type dlsym, @function\n"
	"dlsym:\n"
	"	.cfi_startproc\n"
	"	testq %rdi, %rdi\n" /* RTLD_DEFAULT */
	"	jz 1f\n"
	"	cmpq $-1, %rdi\n" /* RTLD_NEXT */
	"	je 1f\n"
	"	jmp lb_dlsym_handle\n"
	"1:	movq lb_dlsym_next(%rip), %rax\n"
	"	testq %rax, %rax\n"
	"	jz 2f\n"
	"	jmp *%rax\n"
	"2:" LB_TRAMP_CALL("", "lb_dlsym_resolve")
	"	.cfi_endproc\n"
	".size dlsym, .-dlsym\n");
#endif

/*
 * A sanitizer's runtime calls dlsym (RTLD_NEXT) while it starts, before
 * it can run instrumented code: the first lookup's path is not
 * instrumented (the TSan build of the shim crashed in /bin/true).
 */
#define LB_NO_SAN __attribute__((no_sanitize_thread, no_sanitize_address))

static LB_NO_SAN void *lb_dlsym_none(void *handle, const char *name)
{
	(void)handle;
	(void)name;
	return NULL;
}

__attribute__((used)) LB_NO_SAN lb_dlsym_fn lb_dlsym_resolve(void)
{
	lb_dlsym_fn next = __atomic_load_n(&lb_dlsym_next, __ATOMIC_ACQUIRE);
	int saved = errno;

	if (next)
		return next;
	/* glibc 2.34 moved dlsym into libc (GLIBC_2.34); before, libdl */
	next = (lb_dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
	if (!next)
		next = (lb_dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
	if (!next)
		next = lb_dlsym_none;
	/* Racing threads store the same pointer. */
	__atomic_store_n(&lb_dlsym_next, next, __ATOMIC_RELEASE);
	errno = saved;
	return next;
}

/* The load address of the object containing addr, or -1. */
static ElfW(Addr) lb_obj_of(const void *addr)
{
	struct link_map *lm = NULL;
	Dl_info info;

	if (!dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
		return (ElfW(Addr))-1;
	return lm->l_addr;
}

__attribute__((used)) void *lb_dlsym_handle(void *handle, const char *name)
{
	const void *ra = __builtin_return_address(0);
	void *fn = lb_dlsym_resolve()(handle, name), *w, *r;
	int saved = errno, id;

	if (!fn || !name ||
	    !(name[0] == 'c' ? name[1] == 'u' : !strncmp(name, "__cuda", 6)))
		return fn;
	id = lb_api_lookup(name);
	if (id < LB_API_HIP_COUNT || lb_in_self(ra) ||
	    lb_obj_of(ra) == lb_obj_of(fn)) {
		errno = saved;
		return fn;
	}
	/* resolved: only the library the shim calls (no second copy); a
	 * driver loaded after start-up is resolved now (resolve_cuda.c) */
	memcpy(&r, (char *)&lb_real + id * sizeof(void *), sizeof(r));
	if (!r)
		r = lb_cu_late_row(id);
	w = lb_cu_wrapper_addr(id);
	errno = saved;
	return w && (!r || r == fn) ? w : fn;
}
