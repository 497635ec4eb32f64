# t_exports.sh - liblbshim.so exports exactly the HIP names of hip_api.def
# and the CUDA names of cuda_api.def, unversioned (mk/gen-map.sh -u: a
# reference naming any node binds to them, see t_layouts.sh), plus the
# names of shim/exports.syms (dlopen, for the RTLD_DEEPBIND warning;
# dlsym, for the CUDA face), and nothing of its own.
. tests/shim/lib.sh
nm -D --defined-only "$SHIM" | awk '$2 ~ /^[TWDBRV]$/ { print $3 }' |
	grep -v '^hip_[0-9]' | sort >"$TMP/got"
{ cat shim/exports.syms
  printf '#define LB_API(R, N, ...) @ N -\n#include "lbshim/cuda_api.def"\n' |
	cc -E -P -Iinclude -x c - | tr '\n@' ' \n' | awk 'NF == 2'; } >"$TMP/extra"
sh mk/gen-map.sh -u cc include/lbshim/hip_api.def "$TMP/extra" |
	awk '/;$/ && !/\*/ && !/^}/ { s = $1; sub(/;/, "", s); print s }' |
	sort >"$TMP/want"
[ -s "$TMP/want" ] || fail "no symbols expected?"
grep -qx dlopen "$TMP/want" || fail "dlopen is not in the expected list"
grep -qx cuMemAlloc_v2 "$TMP/want" || fail "no CUDA name in the expected list"
diff "$TMP/want" "$TMP/got" || fail "export list differs from hip_api.def"
if grep -q '^lb_' "$TMP/got"; then fail "internal lb_ symbols exported"; fi
if grep -q '@' "$TMP/got"; then fail "versioned exports: $(grep @ "$TMP/got")"; fi
if readelf -V "$SHIM" | grep -q 'Name: hip_'; then
	fail "the shim defines a hip_ version node"
fi
# Every symbol is bound at load (mk/shim.mk, SHIM_LDFLAGS), in the
# sanitizers' builds too: no lazy binding runs in the crash handler.
readelf -d "$SHIM" | grep -Eq '\(BIND_NOW\)|\(FLAGS_1\).* NOW' ||
	fail "not linked with -z now: $(readelf -d "$SHIM" | grep FLAGS)"
echo "$(wc -l <"$TMP/got") symbols, HIP's, CUDA's, dlopen and dlsym, unversioned, bound now"
