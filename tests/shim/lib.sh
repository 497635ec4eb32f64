# lib.sh - helpers for the shim's shell tests (sourced).
# Environment: BUILD, SHIM (the library under test), PRELOAD_PREFIX
# (sanitizer runtimes to preload before it, or empty).
set -u
: "${BUILD:=build}"
case $BUILD in /*) B=$BUILD ;; *) B=$PWD/$BUILD ;; esac
: "${SHIM:=$B/liblbshim.so}"
: "${PRELOAD_PREFIX:=}"
FAKE=$B/tests/fake
T=$B/tests/shim
HIPEMU=${EMU_DIR:-$B/hipemu}	# EMU_DIR: a hipemu profile (mk/profiles.mk)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/lbshim-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# Clean environment for the shim: no policy, no log level inherited.
unset LBSHIM_POLICIES LBSHIM_LOG LBSHIM_TRACE LBSHIM_TRACE_LIVE HIP_TRACE_API \
	LBSHIM_HIP_LIBRARY 2>/dev/null || true

# with_shim CMD...: run CMD with the shim preloaded.
with_shim() {
	LD_PRELOAD="${PRELOAD_PREFIX:+$PRELOAD_PREFIX }$SHIM" "$@"
}

fail() {
	echo "FAIL: $*"
	exit 1
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}
