# lib.sh - helpers for the cuda group's tests (sourced).  Environment:
# BUILD (default build), CUDA_HOME (default /usr/local/cuda), SHIM.
set -u
: "${BUILD:=build}"
: "${CUDA_HOME:=/usr/local/cuda}"
case $BUILD in /*) B=$BUILD ;; *) B=$PWD/$BUILD ;; esac
: "${SHIM:=$B/liblbshim.so}"
FACE=$B/hipemu/cuda		# hipemu's libcudart.so.13, libcuda.so.1
HT=$B/tests/hipemu-cuda		# hipemu-cuda's programs
T=$B/tests/cuda			# this group's programs
LBTRACE=$B/lbtrace
TMP=$(mktemp -d "${TMPDIR:-/tmp}/lbshim-cuda.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
unset LBSHIM_POLICIES LBSHIM_TRACE LBSHIM_LOG LBSHIM_CUDA_LIBRARY \
	LBSHIM_CUDA_DRIVER HIPEMU_FAIL HIPEMU_STATS LD_PRELOAD 2>/dev/null || true
export HIPEMU_KERNELS=$HT/libcuda_twins.so

fail() {
	echo "FAIL: $*"
	exit 1
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# with_shim CMD...: CMD with liblbshim.so preloaded
with_shim() {
	LD_PRELOAD=$SHIM timeout 120 "$@"
}

# on_face CMD...: CMD on hipemu's CUDA face
on_face() {
	LD_LIBRARY_PATH=$FACE timeout 120 "$@"
}
