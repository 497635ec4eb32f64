#!/bin/sh
# icount.sh - instructions per call of the shim's paths, counted by
# callgrind (the load does not change them, unlike nanoseconds).  Each
# workload of lbbench runs twice, with N and 2N calls, collecting only
# inside the exported functions named (--toggle-collect: the shim's
# wrapper, with all it calls but the runtime's function of the same name,
# which toggles collection off again; without the shim, the runtime's
# own function); the difference of the two totals over N is one call's
# instructions, the warm-up and the first calls' set-up cancelled.
# Needs BUILD; prints "NAME instructions" per line.  make bench-icount.
: "${BUILD:?set BUILD}"
B=$(cd "$BUILD" && pwd)
X=$B/bench/lbbench
SHIM=$B/liblbshim.so
FAKE=$B/bench/fake
EMU=$B/hipemu
T=$(mktemp -d "${TMPDIR:-/tmp}/lbshim-icount.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
unset LBSHIM_POLICIES LBSHIM_TRACE LBSHIM_TRACE_RING LBSHIM_TRACE_LIVE \
	LBSHIM_LOG LBSHIM_STREAM0_CHECK LBSHIM_STREAM0_MODE
command -v valgrind >/dev/null || { echo "icount: no valgrind" >&2; exit 1; }

# ir N FNS CMD...: instructions inside functions FNS (comma-separated) of
# CMD's process, N substituted for @N
ir() {
	n=$1 fns=$2; shift 2
	rm -f "$T/cg.out"
	eval "valgrind --tool=callgrind --trace-children=yes" \
		"--collect-atstart=no" \
		"$(echo "$fns" | sed 's/\([^,]*\),*/--toggle-collect=\1 /g')" \
		"--callgrind-out-file=$T/cg.out" \
		"$(echo "$*" | sed "s/@N/$n/")" >/dev/null 2>&1
	sed -n 's/^summary: *//p' "$T/cg.out"
}
# row NAME N FNS CMD...: one call's (one pair's) instructions
row() {
	name=$1 n=$2 f=$3; shift 3
	a=$(ir "$n" "$f" "$@") b=$(ir $((2 * n)) "$f" "$@")
	echo "$name $(( (b - a) / n ))"
}
F="LD_LIBRARY_PATH=$FAKE"
E="LD_LIBRARY_PATH=$EMU"
P="LD_PRELOAD=$SHIM"
row direct 20000 hipMemset env $F "$X" call @N
row pass 20000 hipMemset env $F $P "$X" call @N
row trace 20000 hipMemset env $F $P LBSHIM_POLICIES=trace LBSHIM_TRACE=$T/t.lbt "$X" call @N
row s_direct 20000 hipMemsetAsync env $F "$X" submit null @N
row s0_null 20000 hipMemsetAsync env $F $P LBSHIM_POLICIES=stream0 "$X" submit null @N
row s0_user 20000 hipMemsetAsync env $F $P LBSHIM_POLICIES=stream0 "$X" submit user @N
row s0_null_off 20000 hipMemsetAsync env $F $P LBSHIM_POLICIES=stream0 LBSHIM_STREAM0_CHECK=off "$X" submit null @N
row hz_launch8 20000 hipModuleLaunchKernel env $F $P LBBENCH_PTR8_CO=$B/bench/ptr8.co LBSHIM_POLICIES=stream0 "$X" s0 launch8 @N
row p_direct 5000 hipMalloc,hipFree env $E "$X" pool 1 @N
row pool1 5000 hipMalloc,hipFree env $E $P LBSHIM_POLICIES=pool "$X" pool 1 @N
row three_submit 20000 hipMemsetAsync env $F $P LBSHIM_POLICIES=trace,stream0,pool LBSHIM_TRACE=$T/a.lbt "$X" submit null @N
row trace_pool 5000 hipMalloc,hipFree env $E $P LBSHIM_POLICIES=trace,pool LBSHIM_TRACE=$T/b.lbt "$X" pool 1 @N
# CUDA (where the toolkit built hipemu's face and the suite's programs),
# one function FN of program PROG counted: each program makes 5N + 1 (or
# 5N) calls of it for N; the face's own function is hipemu's, so the rows
# with the shim count the shim's instructions alone (collection toggles
# off inside the face's function of the same name).
#   cu_launch_*: nvcc's __cudaLaunchKernel of an empty kernel (launch);
#   cu_getdev_*: cudaGetDevice, PyTorch's most frequent call (some 2 700
#   of an inference step's 3 400 on the H100, tests/gpu/RESULTS.md),
#   made by the suite's callcost program.
C="LD_LIBRARY_PATH=$B/hipemu/cuda HIPEMU_KERNELS=$B/tests/gpu-cpu/libgpu_twins.so"
# cu_rows NAME FN PROG: the rows NAME_pass and NAME_<policy>
cu_rows() {
	[ -x "$3" ] && [ -e "$B/hipemu/cuda/libcudart.so.13" ] || return 0
	for p in pass trace stream0 pool; do
		pe=""; [ $p = pass ] || pe="LBSHIM_POLICIES=$p LBSHIM_TRACE=$T/c.lbt"
		# shellcheck disable=SC2086
		a=$(ir 400 "$2" env $C $P $pe "$3" @N)
		# shellcheck disable=SC2086
		b=$(ir 800 "$2" env $C $P $pe "$3" @N)
		echo "$1_$p $(( (b - a) / 2000 ))"
	done
}
cu_rows cu_launch __cudaLaunchKernel "$B/gpu/launch_shared"
cu_rows cu_getdev cudaGetDevice "$B/gpu/callcost_shared"
