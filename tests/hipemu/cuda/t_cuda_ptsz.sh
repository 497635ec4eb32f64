# t_cuda_ptsz.sh - a program built with --default-stream per-thread binds
# to the face's _ptsz/_ptds entry points (cuda_runtime_api.h's
# __CUDART_API_PTSZ/__CUDART_API_PTDS; nvcc's __cudaLaunchKernel_ptsz),
# and its stream 0 is each thread's own stream, which does not wait for
# another stream's work (streams.cu built with -DCT_PTSZ checks that).
. tests/hipemu/cuda/lib.sh
HIPEMU_STATS=$TMP/stats on_face "$T/ptsz" >"$TMP/out" 2>&1 ||
	fail "ptsz: $(cat "$TMP/out")"
for f in __cudaLaunchKernel_ptsz cudaMemcpyAsync_ptsz cudaMemcpy_ptds \
	cudaMemset_ptds cudaMemsetAsync_ptsz cudaMemcpy2D_ptds \
	cudaMemcpy2DAsync_ptsz cudaStreamSynchronize_ptsz cudaStreamQuery_ptsz \
	cudaEventRecord_ptsz cudaStreamWaitEvent_ptsz \
	cudaStreamAddCallback_ptsz cudaLaunchHostFunc_ptsz; do
	[ "$(calls "$TMP/stats" $f)" -gt 0 ] || fail "no $f call"
done
for f in __cudaLaunchKernel cudaMemcpyAsync cudaMemcpy cudaStreamSynchronize; do
	expect_eq "legacy $f" "$(calls "$TMP/stats" $f)" 0
done
expect_eq "launches" "$(calls "$TMP/stats" __cudaLaunchKernel_ptsz)" 12
# the loader bound them to the face
LD_DEBUG=bindings on_face "$T/ptsz" >"$TMP/bind" 2>&1 || fail "LD_DEBUG run"
for f in __cudaLaunchKernel_ptsz cudaMemcpyAsync_ptsz cudaMemcpy_ptds; do
	grep "binding file $T/ptsz " "$TMP/bind" |
		grep "to $FACE/libcudart.so.13 " | grep -q "symbol \`$f'" ||
		fail "$f not bound to the face"
done
exit 0
