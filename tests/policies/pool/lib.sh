# lib.sh - sourced by the pool test scripts: paths, and running a program
# on hipemu under the pool policy (pool) or with the shim only (plain).
B=${PT_BUILD:-build}
D=$B/tests/policies/pool
SHIM=${PT_SHIM:-$B/liblbshim.so}
P=$D/pool_test
export LD_LIBRARY_PATH=${EMU_DIR:-$B/hipemu}	# EMU_DIR: a profile
export HIPEMU_KERNELS=$D/libpooltwins.so
unset LBSHIM_POLICIES LBSHIM_LOG LBSHIM_TRACE LBSHIM_POOL_CHUNK \
	LBSHIM_POOL_MAX_BLOCK LBSHIM_POOL_LIMIT LBSHIM_POOL_FREE \
	LBSHIM_POOL_BYPASS HIPEMU_STATS HIPEMU_DEVICES HIPEMU_MEM_SIZE HIPEMU_FAIL \
	HIPEMU_ERRNO
T=$(mktemp -d "${TMPDIR:-/tmp}/pooltest.XXXXXX")
trap 'rm -rf "$T"' EXIT

pool() { LD_PRELOAD=$SHIM LBSHIM_POLICIES=${POLICIES:-pool} "$@"; }
plain() { LD_PRELOAD=$SHIM LBSHIM_POLICIES=none "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

# run NAME CMD...: runs CMD, output in $T/NAME.out/.err; fails if CMD does.
run() {
	n=$1; shift
	"$@" >"$T/$n.out" 2>"$T/$n.err"
	rc=$?
	[ $rc = 0 ] || { cat "$T/$n.out" "$T/$n.err"; fail "$n (exit $rc)"; }
	cat "$T/$n.out"
}

# calls FILE API: the count of API in a HIPEMU_STATS file (0 if absent).
calls() {
	c=$(grep -o "\"$2\": [0-9]*" "$1" | sed 's/.*: //')
	echo "${c:-0}"
}
