# lib.sh - helpers for the cuda group's tests (sourced): hipemu-cuda's
# (tests/hipemu/cuda/lib.sh: the face, fail, expect_eq, on_face, counts,
# calls, names), then the shim's.  Environment: BUILD (default build),
# CUDA_HOME (default /usr/local/cuda), SHIM.
. tests/hipemu/cuda/lib.sh
: "${SHIM:=$B/liblbshim.so}"
HT=$T				# hipemu-cuda's programs
T=$B/tests/cuda			# this group's programs
LBTRACE=$B/lbtrace
unset LBSHIM_POLICIES LBSHIM_TRACE LBSHIM_LOG LBSHIM_CUDA_LIBRARY \
	LBSHIM_CUDA_DRIVER 2>/dev/null || true

# with_shim CMD...: CMD with liblbshim.so preloaded
with_shim() {
	LD_PRELOAD=$SHIM timeout 120 "$@"
}

# traced NAME CMD...: CMD on the face under the trace policy alone, its
# trace in $TMP/NAME.lbt
traced() {
	traced_n=$1
	shift
	LBSHIM_POLICIES=trace LBSHIM_TRACE=$TMP/$traced_n.lbt \
		LD_PRELOAD=$SHIM on_face "$@"
}

# The Python that reads lbtrace's JSON (the one on PATH, by its path)
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || PY=python3
