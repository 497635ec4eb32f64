/*
 * profile.c - which ROCm release this build of hipemu is (tests/hipemu/
 * README.md, "Profiles").  Compiled once per profile with HE_RELEASE set
 * (52, 57, 62, 72); every other object is shared by the profiles, and the
 * soname and version nodes come from the link (mk/profiles.mk, gen-map.sh
 * -p), since they cannot be chosen at run time.
 */
#include "he.h"

#ifndef HE_RELEASE
#define HE_RELEASE 52
#endif

#if HE_RELEASE == 52
/* HIP_VERSION of the ROCm 5.2 headers hipemu is built with (hip_version.h:
 * major * 10000000 + minor * 100000 + patch). */
#define HE_VERSION HIP_VERSION
#elif HE_RELEASE == 57
/* Same formula; the patch is a build number, not in the sources: the real
 * 5.7.1 runtime's (Debian's libamdhip64-5 5.7.1-6+deb13u1, which
 * tests/realrocm/t_profiles.sh compares with this profile). */
#define HE_VERSION 50731921
#elif HE_RELEASE == 72
/* the real 7.2.4 runtime's (libamdhip64-7 7.2.4-1~exp2), likewise */
#define HE_VERSION 70253211
#else
/* Same formula; no real runtime of the release at hand: patch 0. */
#define HE_VERSION ((HE_RELEASE / 10) * 10000000 + (HE_RELEASE % 10) * 100000)
#endif

const struct he_profile he_prof = {
	.release = HE_RELEASE,
	.version = HE_VERSION,
	/*
	 * 5.x and 6.x: every API return goes through HIP_RETURN, which
	 * stores its value as the thread's last error, success included
	 * (hipamd src/hip_internal.hpp, rocm-5.2.0: hip::g_lastError, a
	 * thread_local; clr hipamd/src/hip_internal.hpp, rocm-5.7.0 and
	 * rocm-6.2.0: hip::tls.last_error_).
	 * 7.x: HIP_RETURN stores every value in last_command_error_ and
	 * only an error other than hipErrorNotReady in last_error_, which
	 * hipGetLastError reads (clr hipamd/src/hip_internal.hpp and
	 * hip_error.cpp at ROCm/clr commits 292e8a68 and bb3a2f04; HIP
	 * docs/hip-7-changes.rst "Update hipGetLastError").
	 */
	.sticky = HE_RELEASE >= 70,
	/*
	 * hipExtGetLastError: hip_6.0 (clr hip_hcc.map.in, rocm-6.0.0).
	 * The export follows the map; this only documents the release.
	 */
	.ext_last_error = HE_RELEASE >= 60,
};
