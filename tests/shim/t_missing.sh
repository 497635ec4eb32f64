# t_missing.sh - no runtime, an incomplete one, or LBSHIM_HIP_LIBRARY
# pointing at the shim itself: one warning per missing function,
# hipErrorNotInitialized (3), what exists forwarded, no crash or hang.
. tests/shim/lib.sh
# No runtime in the process and none where LBSHIM_HIP_LIBRARY points.
LBSHIM_HIP_LIBRARY=/nonexistent/libamdhip64.so.5 \
	with_shim "$T/prog_dlsym" hipMalloc hipMalloc hipFree >"$TMP/out" 2>"$TMP/err"
expect_eq "exit" "$?" 0
expect_eq "results" "$(tr '\n' ' ' <"$TMP/out")" "hipMalloc=3 hipMalloc=3 hipFree=3 "
grep -q "lbshim: cannot find the HIP runtime (/nonexistent/libamdhip64.so.5" "$TMP/err" ||
	fail "no warning naming the library: $(cat "$TMP/err")"
expect_eq "warnings about hipMalloc" "$(grep -c 'hipMalloc: not found' "$TMP/err")" 1
# An incomplete runtime: hipMalloc and hipGetDevice work, hipFree does not.
LBSHIM_HIP_LIBRARY=$FAKE/partial/libpartialhip.so \
	with_shim "$T/prog_dlsym" hipMalloc hipGetDevice hipFree hipFree >"$TMP/out" 2>"$TMP/err"
expect_eq "exit" "$?" 0
expect_eq "results" "$(tr '\n' ' ' <"$TMP/out")" \
	"hipMalloc=0 hipGetDevice=0 dev=7 hipFree=3 hipFree=3 "
expect_eq "warnings about hipFree" "$(grep -c 'lbshim: hipFree: not found' "$TMP/err")" 1
# Pointing at the shim itself must not recurse.
LBSHIM_HIP_LIBRARY=$SHIM \
	with_shim timeout 20 "$T/prog_dlsym" hipDeviceSynchronize >"$TMP/out" 2>"$TMP/err"
expect_eq "exit (self)" "$?" 0
expect_eq "result (self)" "$(cat "$TMP/out")" "hipDeviceSynchronize=3"
grep -q "liblbshim.so itself" "$TMP/err" || fail "self not named: $(cat "$TMP/err")"
