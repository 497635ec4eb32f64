/*
 * fakehip.c - a fake HIP runtime for the shim's own tests, expanded from
 * hip_api.def: every row is exported under the runtime's soname and symbol
 * versions, records the arguments it received and returns a result the
 * test chose.  It answers at once, which also makes it the baseline for
 * the pass-through benchmark.
 */
#include <dlfcn.h>
#include <string.h>
#include "lbshim/api.h"
#include <stdio.h>
#include "fakehip.h"

#define FAKE_EXPORT __attribute__((visibility("default")))

static __thread struct fakehip_call fake_last;
/* per API: a policy may call the runtime itself (the trace's name lookups) */
static struct fakehip_call fake_last_of[LB_API_COUNT];
static hipError_t fake_ret = hipSuccess;
static unsigned long fake_calls[LB_API_COUNT];

FAKE_EXPORT void fakehip_set_ret(hipError_t ret)
{
	fake_ret = ret;
}

/* A name per API for the rows that return one (a string a tracer may read). */
FAKE_EXPORT const char *fakehip_cstr(int api)
{
	static char names[LB_API_COUNT][16];

	if (api < 0 || api >= LB_API_COUNT)
		return NULL;
	snprintf(names[api], sizeof(names[api]), "fake_%d", api);
	return names[api];
}

FAKE_EXPORT const struct fakehip_call *fakehip_last(void)
{
	return &fake_last;
}

FAKE_EXPORT const struct fakehip_call *fakehip_last_of(int api)
{
	return api >= 0 && api < LB_API_COUNT ? &fake_last_of[api] : NULL;
}

FAKE_EXPORT unsigned long fakehip_count(int api)
{
	return api >= 0 && api < LB_API_COUNT ?
		       __atomic_load_n(&fake_calls[api], __ATOMIC_RELAXED) :
		       0;
}

static void fake_record(int api, const void *args, size_t n)
{
	fake_last.api = api;
	fake_last.size = n < sizeof(fake_last.args) ? n : sizeof(fake_last.args);
	memcpy(fake_last.args, args, fake_last.size);
	fake_last_of[api] = fake_last;
	__atomic_fetch_add(&fake_calls[api], 1, __ATOMIC_RELAXED);
}

#define FAKE_RET_hipError_t(id) return fake_ret
#define FAKE_RET_lb_modules_t(id) return (lb_modules_t)(uintptr_t)(0x1000 + (id))
#define FAKE_RET_void(id) return
#define FAKE_RET_int(id) return 0x1000 + (id)
#define FAKE_RET_lb_cstr_t(id) return fakehip_cstr(id)

/*
 * hipGetProcAddress answers with the fake's own entry point, as a real
 * runtime would with its own: the shim must replace it with its wrapper.
 */
static void fake_hook(int api, void *args)
{
	struct lb_args_hipGetProcAddress *a = args;
	void *self;

	if (api != LB_ID_hipGetProcAddress || fake_ret != hipSuccess ||
	    !a->symbol || !a->pfn || (uintptr_t)a->pfn < 4096)
		return;
	self = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
	*a->pfn = self ? dlsym(self, a->symbol) : NULL;
	if (self)
		dlclose(self);
}

#define FAKE_BODY(RET, NAME, P, A)                                   \
	{                                                            \
		struct lb_args_##NAME a = { LB_UNPAREN A };         \
		fake_record(LB_ID_##NAME, &a, sizeof(a));            \
		fake_hook(LB_ID_##NAME, &a);                         \
		FAKE_RET_##RET(LB_ID_##NAME);                        \
	}
#define LB_API_AS(SYM, RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	FAKE_EXPORT RET NAME P __asm__(SYM);                    \
	FAKE_EXPORT RET NAME P FAKE_BODY(RET, NAME, P, A)
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	FAKE_EXPORT RET NAME P FAKE_BODY(RET, NAME, P, A)
#include "lbshim/hip_api.def"
#undef LB_API
#undef LB_API_AS
