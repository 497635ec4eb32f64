# lib.sh - helpers for the CUDA face's tests (sourced).  Environment:
# BUILD (default build), CUDA_HOME (default /usr/local/cuda).
set -u
: "${BUILD:=build}"
: "${CUDA_HOME:=/usr/local/cuda}"
case $BUILD in /*) B=$BUILD ;; *) B=$PWD/$BUILD ;; esac
FACE=$B/hipemu/cuda		# libcudart.so.13, libcuda.so.1, libhipemu.so
T=$B/tests/hipemu-cuda		# the programs (mk/hipemu_cuda.mk)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hipemu-cuda.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
unset HIPEMU_FAIL HIPEMU_STATS HIPEMU_DEVICES HIPEMU_MEM_SIZE \
	HIPEMU_PROFILE LD_PRELOAD 2>/dev/null || true
export HIPEMU_KERNELS=$T/libcuda_twins.so

fail() {
	echo "FAIL: $*"
	exit 1
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# on_face CMD...: run CMD on the CUDA face (no other runtime on the path)
on_face() {
	LD_LIBRARY_PATH=$FACE timeout 120 "$@"
}

# counts FILE: "NAME N" for each key of the HIPEMU_STATS file, one a line
# (the calls, then streams_created and the others; one JSON line)
counts() {
	tr ',' '\n' <"$1" | sed 's/"calls": {//; s/[{}]//g' |
		sed -n 's/^ *"\([^"]*\)": *\([0-9]*\) *$/\1 \2/p'
}

# calls FILE NAME: the count of NAME in the HIPEMU_STATS file (0 if none)
calls() {
	counts "$1" | awk -v k="$2" '$1 == k { n = $2 } END { print n + 0 }'
}

# names FILE: the API names the HIPEMU_STATS file counts, one a line
# (not the keys beside "calls")
names() {
	counts "$1" | awk '$1 !~ /^(streams|events)_|^bytes_in_use$/ &&
		$1 != "allocs_live" { print $1 }'
}
