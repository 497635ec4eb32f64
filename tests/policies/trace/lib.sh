# lib.sh - sourced by the trace tests (t_*.sh): paths, a private temporary
# directory as the working directory, and helpers.  Needs BUILD and SHIM
# (set by `make check-trace`).
: "${BUILD:?set BUILD}" "${SHIM:?set SHIM}"
unset LBSHIM_POLICIES LBSHIM_TRACE LBSHIM_TRACE_LIVE LBSHIM_TRACE_RING \
	LBSHIM_RUN_ID LBSHIM_LOG HIP_TRACE_API RANK OMPI_COMM_WORLD_RANK \
	PMI_RANK SLURM_PROCID NO_COLOR
FAKE=$BUILD/trace/fake
PROG=$BUILD/trace/tprog
DUMP=$BUILD/trace/lbt_dump
T=$(mktemp -d "${TMPDIR:-/tmp}/lbshim-trace.XXXXXX") || exit 1
trap 'cd /; rm -rf "$T"' EXIT
cd "$T" || exit 1
ulimit -c 0 2>/dev/null

fail() {
	echo "FAIL: $*"
	exit 1
}

# traced CMD...: CMD under the shim on the fake runtime.
traced() {
	env LD_LIBRARY_PATH="$FAKE" LD_PRELOAD="$SHIM" "$@"
}

# plain CMD...: the same without the shim.
plain() {
	env LD_LIBRARY_PATH="$FAKE" "$@"
}

# expect REGEX FILE: some line of FILE matches.
expect() {
	grep -E -q -- "$1" "$2" || {
		echo "--- $2:"; head -n 60 "$2"
		fail "no line matching '$1' in $2"
	}
}

# count REGEX FILE: number of matching lines.
count() {
	grep -E -c -- "$1" "$2"
}
