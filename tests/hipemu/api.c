/*
 * api.c - what every entry point does first and last: count the call (for
 * HIPEMU_STATS), maybe fail it (HIPEMU_FAIL), and keep the thread's last
 * error.
 *
 * Each entry point owns a static struct he_api, linked into a list on its
 * first call, so counting needs no table of names kept in step with the
 * exports.
 */
#include "he.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t he_api_lock = PTHREAD_MUTEX_INITIALIZER;
static struct he_api *he_apis;

/* One HIPEMU_FAIL item: the Nth call of api (and later ones if plus). */
struct he_fault {
	char name[96];
	unsigned long n;
	bool plus;
	hipError_t err;
};

#define HE_MAX_FAULTS 32
static struct he_fault he_faults[HE_MAX_FAULTS];
static int he_nfaults;

/*
 * The thread's last errors, as clr keeps them (profile.c cites where):
 * he_last_cmd is the value of the thread's last call (hip::tls
 * last_error_ in 5.x/6.x, last_command_error_ in 7.x); he_last_fail the
 * last failure other than hipErrorNotReady (7.x's last_error_).
 */
static __thread hipError_t he_last_cmd;
static __thread hipError_t he_last_fail;
/* Inside a CUDA face call: the HIP entry points are its internals. */
static __thread int he_face_depth;

void he_face_mode(int on)
{
	he_face_depth += on ? 1 : -1;
}

void he_fault_init(const char *spec)
{
	char *copy, *item, *save = NULL;

	if (!spec || !*spec)
		return;
	copy = strdup(spec);
	if (!copy)
		return;
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		struct he_fault *f = &he_faults[he_nfaults];
		char *c1 = strchr(item, ':'), *c2, *end;
		int err;

		if (he_nfaults == HE_MAX_FAULTS) {
			he_warn("HIPEMU_FAIL: more than %d items; rest ignored",
				HE_MAX_FAULTS);
			break;
		}
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c1 || !c2 || (size_t)(c1 - item) >= sizeof(f->name))
			goto bad;
		memcpy(f->name, item, (size_t)(c1 - item));
		f->name[c1 - item] = 0;
		f->n = strtoul(c1 + 1, &end, 10);
		f->plus = *end == '+';
		if (f->plus)
			end++;
		if (end != c2 || f->n == 0)
			goto bad;
		err = he_error_by_name(c2 + 1);
		if (err <= 0)
			goto bad;
		f->err = (hipError_t)err;
		he_nfaults++;
		continue;
bad:
		he_warn("HIPEMU_FAIL item '%s': want api:N[+]:hipErrorName; "
			"ignored", item);
	}
	free(copy);
}

hipError_t he_enter(struct he_api *api)
{
	unsigned long n;

	if (he_face_depth)
		return hipSuccess;
	he_init();
	if (!atomic_load_explicit(&api->registered, memory_order_acquire)) {
		pthread_mutex_lock(&he_api_lock);
		if (!atomic_load_explicit(&api->registered,
					  memory_order_relaxed)) {
			api->next = he_apis;
			he_apis = api;
			atomic_store_explicit(&api->registered, 1,
					      memory_order_release);
		}
		pthread_mutex_unlock(&he_api_lock);
	}
	/* a runtime whose calls leave errno changed (HIPEMU_ERRNO) */
	if (he_cfg.set_errno)
		errno = he_cfg.set_errno;
	n = atomic_fetch_add(&api->calls, 1) + 1;
	for (int i = 0; i < he_nfaults; i++) {
		const struct he_fault *f = &he_faults[i];

		if ((n == f->n || (f->plus && n > f->n)) &&
		    !strcmp(f->name, api->name))
			return f->err;
	}
	return hipSuccess;
}

void he_call_begin(void)
{
	if (!he_face_depth)
		he_last_cmd = hipSuccess;
}

hipError_t he_ret(hipError_t err)
{
	if (he_face_depth)
		return err;
	he_last_cmd = err;
	if (err != hipSuccess && err != hipErrorNotReady)
		he_last_fail = err;
	return err;
}

void he_api_foreach(void (*fn)(const char *, unsigned long, void *),
		    void *arg)
{
	pthread_mutex_lock(&he_api_lock);
	for (struct he_api *a = he_apis; a; a = a->next)
		fn(a->name, atomic_load(&a->calls), arg);
	pthread_mutex_unlock(&he_api_lock);
}

/*
 * hipGetLastError returns the last error and resets it; 5.x/6.x read the
 * value of the last call, 7.x the last failure (hipamd src/hip_error.cpp,
 * rocm-5.2.0; clr hipamd/src/hip_error.cpp, rocm-6.2.0 and commit
 * bb3a2f04).  The reset is not a call's return: nothing else changes.
 */
HE_EXPORT hipError_t hipGetLastError(void)
{
	hipError_t *slot = he_prof.sticky ? &he_last_fail : &he_last_cmd;
	hipError_t e;

	HE_COUNT("hipGetLastError");
	e = *slot;
	*slot = hipSuccess;
	return e;
}

/*
 * hipPeekAtLastError returns the same value through HIP_RETURN, so that
 * 7.x also stores it as the last call's value (same sources).
 */
HE_EXPORT hipError_t hipPeekAtLastError(void)
{
	hipError_t e;

	HE_COUNT("hipPeekAtLastError");
	e = he_prof.sticky ? he_last_fail : he_last_cmd;
	return he_ret(e);
}

/*
 * hipExtGetLastError (6.0 on): 6.x is hipGetLastError again (clr
 * hipamd/src/hip_error.cpp, rocm-6.2.0); 7.x returns and resets the last
 * call's value, the pre-7 behaviour (commit bb3a2f04; HIP
 * docs/hip-7-changes.rst).  Exported only by profiles that have it.
 */
HE_EXPORT hipError_t hipExtGetLastError(void)
{
	hipError_t e;

	HE_COUNT("hipExtGetLastError");
	e = he_last_cmd;
	he_last_cmd = hipSuccess;
	return e;
}
