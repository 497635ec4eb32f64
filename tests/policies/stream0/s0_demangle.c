/*
 * s0_demangle.c - the shim's demangler for its exit messages (shim/
 * demangle.c), built into this plain C program, which has no libstdc++.
 *
 *   s0_demangle plain   libstdc++ absent: names without parameters, and
 *                       the process still has no libstdc++ afterwards
 *   s0_demangle local   libstdc++ opened RTLD_LOCAL first (as an
 *                       extension brings it): libstdc++'s full names
 *   s0_demangle global  run with libstdc++ preloaded: the same
 *
 * Prints "ok" or the first mismatch, exit 0 or 1.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "shim.h"

static int bad;

static void expect(const char *what, const char *got, const char *want)
{
	if (!got || strcmp(got, want) != 0) {
		printf("%s: got \"%s\", want \"%s\"\n", what,
		       got ? got : "(null)", want);
		bad = 1;
	}
}

static int has_libstdcxx(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_NOLOAD);

	if (h)
		dlclose(h);
	return h != NULL;
}

int main(int argc, char **argv)
{
	static const char *const forms[][2] = {
		{ "_Z8hzk_fillPiii", "hzk_fill" },
		{ "_Z10imu_fusionPKfPfi", "imu_fusion" },
		{ "_ZN2ns4scanEPfi", "ns::scan" },
		{ "_ZNK1a1b1cEv", "a::b::c" },
		{ "_ZL4stepv", "step" },
	};
	/* not read by the small reader: kept mangled, never cut */
	static const char *const kept[] = {
		"_Z5scaleIfEvPT_S0_i", "_ZN2ns", "_Z99short", "_Z", "decode_step",
		"_ZNSt6vectorIiSaIiEE9push_backERKi",
	};
	const char *mode = argc > 1 ? argv[1] : "plain";
	char buf[200], tiny[6];
	unsigned i;

	if (!strcmp(mode, "local") &&
	    !dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL)) {
		printf("skip: no libstdc++.so.6\n");
		return 77;
	}
	if (!strcmp(mode, "plain")) {
		if (has_libstdcxx()) {
			printf("libstdc++ is already in the process\n");
			return 1;
		}
		for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
			expect(forms[i][0], lb_demangle(forms[i][0], buf,
							sizeof(buf)),
			       forms[i][1]);
		for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
			expect(kept[i], lb_demangle(kept[i], buf, sizeof(buf)),
			       kept[i]);
		/* too long for the buffer: the mangled name, not a cut one */
		expect("tiny buffer",
		       lb_demangle_plain("_Z10imu_fusionPKfPfi", tiny,
					 sizeof(tiny)),
		       "_Z10imu_fusionPKfPfi");
		if (has_libstdcxx()) {
			printf("the demangler loaded libstdc++\n");
			bad = 1;
		}
	} else {
		expect("hzk_fill", lb_demangle("_Z8hzk_fillPiii", buf,
					       sizeof(buf)),
		       "hzk_fill(int*, int, int)");
		expect("imu_fusion",
		       lb_demangle("_Z10imu_fusionPKfPfi", buf, sizeof(buf)),
		       "imu_fusion(float const*, float*, int)");
		expect("scale<float>",
		       lb_demangle("_Z5scaleIfEvPT_S0_i", buf, sizeof(buf)),
		       "void scale<float>(float*, float, int)");
		expect("not mangled", lb_demangle("decode_step", buf,
						  sizeof(buf)),
		       "decode_step");
	}
	if (!bad)
		printf("ok\n");
	return bad;
}
