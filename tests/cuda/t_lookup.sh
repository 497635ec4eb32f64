# t_lookup.sh - every entry-point lookup of a CUDA program hands out the
# shim's wrapper of the version the driver chose (dlsym, cuGetProcAddress
# with and without the per-thread flag, cudaGetDriverEntryPoint and
# ByVersion), cuGetExportTable's answer untouched; the calls made through
# them reach the policies; cudaGetDriverEntryPoint's own call of the
# driver's cuGetProcAddress_v2 (hipemu's face makes it through dlsym, as
# cudart does) is one record with it, not two.
. tests/cuda/lib.sh
on_face "$T/prog_lookup" - >"$TMP/plain" 2>&1 || fail "without the shim"
! grep -q ': shim' "$TMP/plain" || fail "shim without the shim?"
cd "$TMP"
traced l "$T/prog_lookup" "$SHIM" >"$TMP/out" 2>&1 || fail "$(cat "$TMP/out")"
cat >"$TMP/want" <<'W'
dlsym cuGetProcAddress_v2: shim
dlsym cuMemAlloc_v2: shim
cuGetProcAddress cuMemAlloc: shim
cuGetProcAddress cuMemcpyAsync per-thread: shim
cuGetProcAddress cuGetProcAddress: shim
cuGetProcAddress cuGetExportTable: driver
cudaGetDriverEntryPoint cuMemFree: shim
cudaGetDriverEntryPointByVersion cuStreamSynchronize per-thread: shim
calls: ok
W
diff "$TMP/want" "$TMP/out" || fail "lookups"
"$LBTRACE" print "$TMP/l.lbt" | sed 's/^ *[0-9.]* pid:[0-9]* tid:[0-9]* //' |
	cut -d'(' -f1 | sort | uniq -c | awk '{ print $2, $1 }' >"$TMP/calls"
for c in "cuGetProcAddress_v2 4" "cuMemAlloc_v2 1" "cuMemFree_v2 1" \
	"cudaGetDriverEntryPoint 1" "cudaGetDriverEntryPointByVersion 1"; do
	grep -qx "$c" "$TMP/calls" || fail "want '$c' in: $(cat "$TMP/calls")"
done
