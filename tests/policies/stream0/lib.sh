# lib.sh - sourced by the stream0 test scripts: paths and the two ways to
# run a program on hipemu, without the policy (legacy) and with it.
B=${S0_BUILD:-build}
D=$B/tests/policies/stream0
SHIM=${S0_SHIM:-$B/liblbshim.so}
export LD_LIBRARY_PATH=${EMU_DIR:-$B/hipemu}	# EMU_DIR: a profile
export HIPEMU_KERNELS=$D/libs0twins.so:$D/libs0spt_twin.so
unset LBSHIM_POLICIES LBSHIM_LOG LBSHIM_STREAM0_DEVICE_SYNC LBSHIM_TRACE \
	LBSHIM_STREAM0_MODE LBSHIM_STREAM0_THREADS LBSHIM_STREAM0_EXCLUDE S0_PT_TORCH \
	PYTORCH_NO_HIP_MEMORY_CACHING PYTORCH_NO_CUDA_MEMORY_CACHING \
	HIPEMU_STATS HIPEMU_DEVICES
T=$(mktemp -d "${TMPDIR:-/tmp}/s0test.XXXXXX")
trap 'rm -rf "$T"' EXIT

# legacy CMD...: the shim loaded, no policy.
legacy() { LD_PRELOAD=$SHIM LBSHIM_POLICIES=none "$@"; }
# perthread CMD...: under the stream0 policy.
perthread() { LD_PRELOAD=$SHIM LBSHIM_POLICIES=stream0 "$@"; }

fail() { echo "FAIL: $*"; exit 1; }

# both SCENARIO: runs s0_test SCENARIO in both modes; outputs in $T.
both() {
	legacy "$D/s0_test" "$1" legacy >"$T/legacy.out" 2>"$T/legacy.err" ||
		{ cat "$T/legacy.out" "$T/legacy.err"; fail "$1 without the policy"; }
	perthread "$D/s0_test" "$1" perthread >"$T/pt.out" 2>"$T/pt.err" ||
		{ cat "$T/pt.out" "$T/pt.err"; fail "$1 under stream0"; }
	cat "$T/legacy.out" "$T/pt.out"
}
