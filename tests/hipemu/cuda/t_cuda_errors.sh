# t_cuda_errors.sh - the CUDA face's errors: every cudaError_t name and
# message is NVIDIA's libcudart.so.13's; errs.cu's bad launches and
# arguments and the last-error rule; a fault HIPEMU_FAIL injects into a
# CUDA call by its CUDA name, returned as its CUDA twin.
. tests/hipemu/cuda/lib.sh
REAL=$CUDA_HOME/lib64
on_face "$T/errs" >"$TMP/out" 2>&1 || fail "errs: $(cat "$TMP/out")"
grep -q "hipemu: kernel _Z6notwinPi: no twin" "$TMP/out" ||
	fail "the kernel without a twin not named: $(cat "$TMP/out")"
HIPEMU_FAIL=cudaMalloc:2:hipErrorOutOfMemory on_face "$T/errs" inject \
	>"$TMP/inj" 2>&1 || fail "inject: $(cat "$TMP/inj")"
if [ -f "$REAL/libcudart.so.13" ]; then
	LD_LIBRARY_PATH=$REAL "$T/errnames" >"$TMP/real" ||
		fail "errnames on NVIDIA's runtime"
	on_face "$T/errnames" >"$TMP/face" || fail "errnames on the face"
	diff "$TMP/real" "$TMP/face" >"$TMP/diff" ||
		fail "names or messages differ: $(head -5 "$TMP/diff")"
	[ "$(wc -l <"$TMP/face")" -gt 100 ] || fail "too few codes"
fi
exit 0
