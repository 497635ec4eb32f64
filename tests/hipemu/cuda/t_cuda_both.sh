# t_cuda_both.sh - one process calling hipemu through HIP and through the
# CUDA face has one device: memory from either is the other's, and both
# count against one HIPEMU_MEM_SIZE (both_cuda.c); one HIPEMU_STATS file
# has both faces' calls.
. tests/hipemu/cuda/lib.sh
HIPEMU_MEM_SIZE=1M HIPEMU_STATS=$TMP/stats LD_LIBRARY_PATH=$FACE:$B/hipemu \
	timeout 60 "$T/both" >"$TMP/out" 2>&1 || fail "both: $(cat "$TMP/out")"
expect_eq "hipMalloc calls" "$(calls "$TMP/stats" hipMalloc)" 1
expect_eq "cudaMalloc calls" "$(calls "$TMP/stats" cudaMalloc)" 2
expect_eq "hipFree calls" "$(calls "$TMP/stats" hipFree)" 1
exit 0
