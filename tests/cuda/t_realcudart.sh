# t_realcudart.sh - NVIDIA's own libcudart.so.13 (CUDA 13.0), which
# answers without a device or a driver: every wrapped runtime function
# that returns a cudaError_t, called by prog_rtcalls, gives the same
# result and leaves the same last error with the shim as without it,
# under no policy, trace, stream0, pool and all (stream0 and pool serve
# CUDA: their own calls, to cudart here as no driver is loaded, must not
# change a result or the last error; stderr not compared).
. tests/cuda/lib.sh
RT=$CUDA_HOME/lib64/libcudart.so.13
[ -e "$RT" ] || { echo "no $RT"; exit 77; }
cd "$TMP"
run() {
	LD_LIBRARY_PATH=$CUDA_HOME/lib64 timeout 120 "$T/prog_rtcalls"
}
run >"$TMP/plain" 2>/dev/null || fail "without the shim"
n=$(grep -c . "$TMP/plain")
[ "$n" -ge 100 ] || fail "only $n calls"
grep -q '^cudaMalloc 35 ' "$TMP/plain" ||
	fail "not the driverless answer: $(grep '^cudaMalloc ' "$TMP/plain")"
for p in none trace stream0 pool all; do
	LBSHIM_POLICIES=$p LBSHIM_TRACE=$TMP/t.$p.lbt LD_PRELOAD=$SHIM run \
		>"$TMP/$p" 2>"$TMP/$p.err" || fail "$p: exit $?"
	diff "$TMP/plain" "$TMP/$p" >"$TMP/diff" ||
		fail "$p: results differ: $(head -5 "$TMP/diff")"
done
# the trace saw them, one record each
"$LBTRACE" print "$TMP/t.trace.lbt" >"$TMP/print" || fail "lbtrace print"
expect_eq "records" "$(grep -c 'pid:' "$TMP/print")" "$((2 * n))"
echo "ok: $n calls alike under every policy"
