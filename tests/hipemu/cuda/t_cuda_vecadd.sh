# t_cuda_vecadd.sh - an nvcc-built program (shared cudart) runs on the CUDA
# face: right sums, its kernel launched asynchronously (the argument sizes
# read from the cubin in its fat binary), and the calls counted under
# their CUDA names.  The same program with its device code compressed,
# which the face cannot read, launches synchronously: the control.
. tests/hipemu/cuda/lib.sh
HIPEMU_STATS=$TMP/stats on_face "$T/vecadd" async >"$TMP/out" 2>&1 ||
	fail "vecadd: $(cat "$TMP/out")"
expect_eq "cudaMalloc calls" "$(calls "$TMP/stats" cudaMalloc)" 3
expect_eq "launches" "$(calls "$TMP/stats" __cudaLaunchKernel)" 2
expect_eq "registrations" "$(calls "$TMP/stats" __cudaRegisterFunction)" 5
expect_eq "cudaMemcpy calls" "$(calls "$TMP/stats" cudaMemcpy)" 3
names "$TMP/stats" | grep -v '^_*cu' >"$TMP/other" || true
[ ! -s "$TMP/other" ] || fail "calls not by CUDA names: $(cat "$TMP/other")"
# a CUDA process on the face has no HIP runtime in it
LD_DEBUG=files on_face "$T/vecadd" >"$TMP/files" 2>&1 || fail "LD_DEBUG run"
! grep -q libamdhip64 "$TMP/files" || fail "libamdhip64 loaded"
grep -q "$FACE/libcudart.so.13" "$TMP/files" || fail "not the face's cudart"
# the control: no sizes, so the launch waits for the kernel
on_face "$T/vecadd_z" sync >"$TMP/z" 2>&1 ||
	fail "compressed vecadd: $(cat "$TMP/z")"
on_face "$T/vecadd_z" async 200 >"$TMP/z2" 2>&1 &&
	fail "the compressed program's launch returned before its kernel ran"
grep -q "the kernel ran before its launch returned" "$TMP/z2" ||
	fail "control: $(cat "$TMP/z2")"
exit 0
