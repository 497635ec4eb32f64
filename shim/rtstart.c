/*
 * rtstart.c - the runtime's start, which the shim's own calls must not take
 * from the program.
 *
 * A runtime that cannot start (no device, no access to /dev/kfd) tells
 * only the first call that starts it, with hipErrorInvalidDevice, from
 * ROCm 5.3 through 6.2: HIP_INIT keeps hip::init's status in a local,
 * std::call_once runs hip::init for the first caller only, and every later
 * call finds no device (HIP_INIT_API: hipErrorNoDevice while g_devices is
 * empty).  hipRuntimeGetVersion, hipDriverGetVersion, hipGetDeviceCount
 * and hipSetDevice start it through HIP_INIT_API_NO_RETURN, which drops
 * the status (clr hipamd/src/hip_internal.hpp and the four functions,
 * rocm-5.7.1 to rocm-6.2.0; the real 5.7.1 runtime answers so:
 * tests/realrocm/t_rows.sh).  Had the shim called the runtime first, the
 * program's first call would get hipErrorNoDevice instead.
 *
 * So the shim makes no call of its own before it must (lasterr.c learns
 * the last-error rule from the runtime's soname, lb_rt_major), and, with
 * stream0 or pool active (the policies that call the runtime), its
 * first own call is preceded by lb_rt_probe(): hipGetLastError, which
 * starts the runtime if nothing has, and answers hipErrorInvalidDevice if
 * that start failed.  Then the answer of the program's call under way (or
 * of the next one that reaches the runtime), hipErrorNoDevice, becomes
 * hipErrorInvalidDevice, as the runtime alone would have answered it:
 * lb_rt_first, which the wrappers' thunks and direct hooks call while
 * lb_rt_fail is set; meanwhile lb_gate 0 sends every call to them.
 *
 * Where the runtime had started before, the probe learns nothing and
 * clears this thread's last error (5.x/6.x: a failure of a call the shim
 * does not wrap); the program's call under way overwrites it in any case,
 * and lasterr.c makes the program see that call's result.  7.x runtimes
 * are not probed: lasterr.c's peek before each call starts them first,
 * and they keep no such answer (7.2.4 and 6.4.3 answer hipErrorNoDevice
 * from their first call on: t_rows.sh).  5.2 answers
 * hipErrorInvalidDevice to every call, which lb_rt_first leaves alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#define LB_REAL_DIRECT /* the core: not counted in lb_rt_own */
#include "shim.h"
#include "elfdyn.h"

/* The shim's first own call is past, or needs no probe: armed (0) by
 * lasterr.c, with stream0 or pool (the policies that call the runtime)
 * on a 5.x or 6.x runtime it knows by its soname. */
int lb_rt_probed = 1;
int lb_rt_fail;	  /* the failed start, not yet given to the program */

void lb_rt_probe(void)
{
	if (__atomic_exchange_n(&lb_rt_probed, 1, __ATOMIC_ACQ_REL) ||
	    !lb_real.hipGetLastError)
		return;
	if (lb_real.hipGetLastError() != hipErrorInvalidDevice)
		return;
	__atomic_store_n(&lb_rt_fail, 1, __ATOMIC_RELEASE);
	/* Every call by the early path, then lb_slow_<name>'s thunk. */
	if (__atomic_load_n(&lb_ready, __ATOMIC_ACQUIRE))
		__atomic_store_n(&lb_gate, 0, __ATOMIC_RELEASE);
}

hipError_t lb_rt_first(int api, hipError_t r)
{
	if (!__atomic_exchange_n(&lb_rt_fail, 0, __ATOMIC_ACQ_REL))
		return r;
	if (__atomic_load_n(&lb_ready, __ATOMIC_ACQUIRE))
		__atomic_store_n(&lb_gate, lb_hooks ? 2 : 1, __ATOMIC_RELEASE);
	/* HIP_INIT_API_NO_RETURN: the status dropped (the other three are
	 * not rows: the shim does not see them) */
	if (api == LB_ID_hipSetDevice)
		return r;
	return r == hipErrorNoDevice ? hipErrorInvalidDevice : r;
}

int lb_rt_major(void)
{
	static const char pre[] = "libamdhip64.so.";
	struct link_map *lm = NULL;
	const ElfW(Dyn) *d;
	const char *str = NULL;
	ElfW(Addr) so = 0;
	Dl_info info;

	if (!lb_real.hipGetLastError ||
	    !dladdr1((void *)lb_real.hipGetLastError, &info, (void **)&lm,
		     RTLD_DL_LINKMAP) ||
	    !lm)
		return -1;
	for (d = lm->l_ld; d && d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_SONAME)
			so = d->d_un.d_val;
		else if (d->d_tag == DT_STRTAB)
			str = lb_elf_ptr(lm->l_addr, d->d_un.d_ptr);
	}
	if (!str || !so || strncmp(str + so, pre, sizeof(pre) - 1) != 0)
		return -1;
	str += so + sizeof(pre) - 1;
	return *str >= '0' && *str <= '9' ? atoi(str) : -1;
}
