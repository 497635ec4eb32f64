# t_exports.sh - liblbshim.so exports exactly the HIP names of hip_api.def,
# each under the runtime's symbol version, plus the names of
# shim/exports.syms (dlopen, unversioned, for the RTLD_DEEPBIND warning),
# and nothing of its own.
. tests/shim/lib.sh
nm -D --defined-only "$SHIM" | awk '$2 ~ /^[TWDBRV]$/ { print $3 }' |
	grep -v '^hip_[0-9]' | sort >"$TMP/got"
{
	sh mk/gen-map.sh cc include/lbshim/hip_api.def shim/exports.syms |
		awk '/^hip_/ { v = $1 } /;$/ && !/\*/ && !/^}/ { s = $1; sub(/;/, "", s); print s "@@" v }'
	grep -v '^#' shim/exports.syms | awk '$2 == "-" { print $1 }'
} | sort >"$TMP/want"
grep -qx dlopen "$TMP/want" || fail "dlopen is not in the expected list"
[ -s "$TMP/want" ] || fail "no symbols expected?"
diff "$TMP/want" "$TMP/got" || fail "export list differs from hip_api.def"
if grep -q '^lb_' "$TMP/got"; then fail "internal lb_ symbols exported"; fi
echo "$(wc -l <"$TMP/got") symbols: HIP's and dlopen"
