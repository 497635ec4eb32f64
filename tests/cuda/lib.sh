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
