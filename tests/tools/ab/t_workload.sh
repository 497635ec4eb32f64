# t_workload.sh - the demo workload by itself, as a user runs it on a
# ROCm machine (LD_PRELOAD=liblbshim.so python3 evaluate.py), here on
# hipemu: its hipcc-built extension links libamdhip64.so.5, is loaded
# RTLD_LOCAL by Python, and every thread's HIP calls reach the shim's
# trace; without the shim it runs the same.
. tests/tools/ab/lib.sh
WL=$B/workloads
readelf -d "$WL/evalpipe.so" | grep -q 'NEEDED.*libamdhip64.so.5' || fail "extension does not link libamdhip64.so.5"
export LD_LIBRARY_PATH=$HIPEMU HIPEMU_PROFILE=gpu HIPEMU_KERNELS=$WL/libevalpipe_twins.so \
	EVALPIPE_DIR=$WL
python3 "$ROOT/tests/workloads/evaluate.py" --seconds 0.5 >"$TMP/plain" 2>&1 || fail "plain run: $(cat "$TMP/plain")"
grep -q '^  imu .* steps  p50' "$TMP/plain" || fail "no report: $(cat "$TMP/plain")"
LD_PRELOAD=$B/liblbshim.so LBSHIM_POLICIES=trace LBSHIM_TRACE=$TMP/t.%p.lbt \
	python3 "$ROOT/tests/workloads/evaluate.py" --seconds 0.5 >"$TMP/shim" 2>&1 || fail "under the shim: $(cat "$TMP/shim")"
grep -q '^  camera .* steps  p50' "$TMP/shim" || fail "no report under the shim: $(cat "$TMP/shim")"
t=$(ls "$TMP"/t.*.lbt 2>/dev/null | head -n 1)
[ -n "$t" ] || fail "no trace written"
# The trace has every thread's work (read with lbtrace's print).
"$B/lbtrace" print "$t" >"$TMP/p" 2>&1 || fail "print: $(tail -3 "$TMP/p")"
for k in preprocess encode pool_features imu_fusion sample_action; do
	grep -q "kernel=$k(" "$TMP/p" || fail "no launch of $k in the trace"
done
grep -q 'hipStreamSynchronize' "$TMP/p" || fail "no hipStreamSynchronize in the trace"
echo ok
