# t_coverage.sh - every function of NVIDIA's CUDA 13 headers that takes a
# stream, allocates or frees is a row of include/lbshim/cuda_api.def, but
# for the few of exceptions.txt, each with its reason; and every such
# row is one that NVIDIA's library exports (check_cuda_table checks the
# symbols).  A function a policy does not see breaks it: stream0 leaves
# its null stream to the legacy one, the pool's fence misses its work,
# the trace misses the call.
. tests/cuda/lib.sh
python3 tests/cuda/cuda_apis.py "${CC:-cc}" "$CUDA_HOME/include" \
	>"$TMP/headers" || fail "parsing the headers"
# the parser must find what it is meant to (CUDA 13.0: 268)
n=$(grep -c . "$TMP/headers")
[ "$n" -ge 200 ] || fail "only $n functions in $CUDA_HOME/include"
for f in cuMemAlloc_v2 cudaMemcpyAsync_ptsz cuLaunchKernel_ptsz \
	cudaFreeAsync cuMemsetD8Async; do
	grep -qx "$f" "$TMP/headers" || fail "parser missed $f"
done
printf '#define LB_API(R, N, ...) N\n#include "lbshim/cuda_api.def"\n' |
	${CC:-cc} -E -P -Iinclude -x c - | tr -s ' \t' '\n\n' | grep -v '^$' |
	sort -u >"$TMP/rows"
grep -v '^#' tests/cuda/exceptions.txt | awk 'NF { print $1 }' |
	sort -u >"$TMP/except"
sort -u "$TMP/headers" | comm -23 - "$TMP/rows" | comm -23 - "$TMP/except" \
	>"$TMP/missing"
if [ -s "$TMP/missing" ]; then
	cat "$TMP/missing"
	fail "$(grep -c . "$TMP/missing") functions are not rows of cuda_api.def"
fi
# an exception that became a row, or that no header has, is stale
comm -12 "$TMP/except" "$TMP/rows" >"$TMP/both"
[ ! -s "$TMP/both" ] || fail "exceptions that are rows: $(cat "$TMP/both")"
echo "ok: $n functions of $CUDA_HOME/include, $(grep -c . "$TMP/rows") rows"
