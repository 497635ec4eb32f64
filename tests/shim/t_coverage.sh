# t_coverage.sh - every function that takes a stream is wrapped: those of
# the installed ROCm headers (parsed here, the _spt forms of
# amd_hip_runtime_pt_api.h included) and those later releases add
# (tests/shim/stream_apis.txt, each with its source), are rows of
# include/lbshim/hip_api.def.  A function a policy does not see breaks it:
# stream0 leaves its null stream to the legacy one, the pool's fence
# misses its work, the trace misses the call.
. tests/shim/lib.sh
H=${HIP_INCLUDE:-/usr/include/hip}
[ -f "$H/hip_runtime_api.h" ] || { echo "no HIP headers in $H"; exit 77; }
python3 tests/shim/stream_apis.py "$H/hip_runtime_api.h" "$H/hip_ext.h" \
	"$H"/amd_detail/*.h >"$TMP/headers" || fail "parsing the headers"
# the parser must find what it is meant to (ROCm 5.2 declares 84)
n=$(grep -c . "$TMP/headers")
[ "$n" -ge 60 ] || fail "only $n stream-taking functions in $H"
grep -qx hipMemsetD8Async "$TMP/headers" || fail "parser missed hipMemsetD8Async"
grep -qx hipMemcpy2D_spt "$TMP/headers" || fail "parser missed an _spt form"
grep -v '^#' tests/shim/stream_apis.txt | awk 'NF { print $2 }' >"$TMP/later"
printf '#define LB_API(R, N, ...) N\n#define LB_API_AS(S, R, N, ...) N\n#include "lbshim/hip_api.def"\n' |
	${CC:-cc} -E -P -Iinclude -x c - | tr -s ' \t' '\n\n' | grep -v '^$' |
	sed 's/^lb_cxx_//' | sort -u >"$TMP/rows"
sort -u "$TMP/headers" "$TMP/later" >"$TMP/want"
comm -23 "$TMP/want" "$TMP/rows" >"$TMP/missing"
if [ -s "$TMP/missing" ]; then
	cat "$TMP/missing"
	fail "$(grep -c . "$TMP/missing") stream-taking functions are not rows of hip_api.def"
fi
echo "ok: $n from $H and $(grep -c . "$TMP/later") of later releases are wrapped"
