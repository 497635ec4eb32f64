# t_exports.sh - liblbshim.so exports exactly the HIP names of hip_api.def,
# each under the runtime's symbol version, and nothing of its own.
. tests/shim/lib.sh
nm -D --defined-only "$SHIM" | awk '$2 ~ /^[TWDBRV]$/ { print $3 }' |
	grep -v '^hip_[0-9]' | sort >"$TMP/got"
sh mk/gen-map.sh cc include/lbshim/hip_api.def |
	awk '/^hip_/ { v = $1 } /;$/ && !/\*/ && !/^}/ { s = $1; sub(/;/, "", s); print s "@@" v }' |
	sort >"$TMP/want"
[ -s "$TMP/want" ] || fail "no symbols expected?"
diff "$TMP/want" "$TMP/got" || fail "export list differs from hip_api.def"
if grep -q '^lb_' "$TMP/got"; then fail "internal lb_ symbols exported"; fi
echo "$(wc -l <"$TMP/got") symbols, all HIP"
