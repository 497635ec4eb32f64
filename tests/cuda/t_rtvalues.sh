# t_rtvalues.sh - the NVIDIA values the CUDA side of the seam relies on
# (shim/rt_cuda.h, each cited by file and line) are NVIDIA's: compiled
# against the toolkit's own headers, each asserted equal.
. tests/cuda/lib.sh
${CC:-cc} -std=gnu11 -Wall -Werror -I"$CUDA_HOME/include" -Ishim \
	tests/cuda/check_rt_values.c -o "$TMP/check" 2>"$TMP/err" ||
	fail "rt_cuda.h differs from NVIDIA's headers: $(head -5 "$TMP/err")"
"$TMP/check" || fail "the stream handles differ"
echo "ok: rt_cuda.h's values are CUDA's"
