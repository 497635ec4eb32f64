/*
 * runtime.c - the runtime line of summary and crash: which runtime, its
 * version as it reported it, and the library the shim took it from.
 */
#include "format/runtime.h"

/*
 * The version's parts as the runtimes define them: hipRuntimeGetVersion
 * returns HIP_VERSION = major * 10000000 + minor * 100000 + patch
 * (hip/hip_version.h as HIP's CMake generates it: ROCm 5.2.3, Debian
 * 12's libamdhip64-dev; hipemu's profiles and lasterr.c's 7.x rule take
 * the same form); cudaRuntimeGetVersion, 1000 * major + 10 * minor (the
 * CUDA Runtime API's reference).
 */
static void put_version(struct lbt_out *o, unsigned rt, int64_t v)
{
	if (rt == LB_RT_HIP)
		lbt_printf(o, " %lld.%lld.%lld", (long long)(v / 10000000),
			   (long long)(v / 100000 % 100),
			   (long long)(v % 100000));
	else if (rt == LB_RT_CUDA)
		lbt_printf(o, " %lld.%lld", (long long)(v / 1000),
			   (long long)(v % 1000 / 10));
	lbt_printf(o, " (%lld)", (long long)v);
}

void lbt_put_runtime(struct lbt_out *o, const struct lbt_file *f)
{
	if (f->hdr.version == LB_TRACE_V1)
		return;
	lbt_puts(o, "  runtime: ");
	lbt_puts(o, lbt_runtime_name(f->runtime));
	if (f->runtime_version >= 0)
		put_version(o, f->runtime, f->runtime_version);
	else
		lbt_puts(o, ", version not known");
	lbt_puts(o, ", ");
	if (f->runtime_lib[0])
		lbt_put_text(o, f->runtime_lib);
	else
		lbt_puts(o, "library not known");
	lbt_putc(o, '\n');
}
