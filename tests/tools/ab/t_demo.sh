# t_demo.sh - the demo pipeline in a short mode (2 runs an arm, 1.5 s
# each): a Python program whose hipcc-built extension links
# libamdhip64.so.5 and is loaded RTLD_LOCAL, run by lbtrace run --ab on
# hipemu's GPU-like profile; its output, traces of every thread, the
# table and the picture; under stream0 no hazard line (its threads share
# no device memory).  Timings are shown, never asserted.
. tests/tools/ab/lib.sh
need_cmd run
WL=$B/workloads
readelf -d "$WL/evalpipe.so" | grep -q 'NEEDED.*libamdhip64.so.5' || fail "extension does not link libamdhip64.so.5"
export LD_LIBRARY_PATH=$HIPEMU HIPEMU_PROFILE=gpu HIPEMU_KERNELS=$WL/libevalpipe_twins.so \
	PYTHONPATH=$WL EVAL_SECONDS=1.5
"$LBTRACE" run --ab trace/trace,stream0,pool -n 2 -o "$TMP/runs" --svg "$TMP/ab.svg" -- \
	python3 "$ROOT/tests/workloads/evaluate.py" --quiet >"$TMP/o" 2>"$TMP/e" ||
	fail "exit $?: $(cat "$TMP/e")"
cat "$TMP/o"
# stream0 orders what the threads share (nothing here): no hazard line
grep 'lbshim: stream0' "$TMP/e" | head -3
grep -q 'lbshim: stream0: [0-9]* hazards' "$TMP/e" &&
	fail "the demo reported hazards: $(grep hazards "$TMP/e" | head -1)"
[ "$(grep -c '^  imu .*steps  p50' "$TMP/o")" = 4 ] || fail "the program's own report is missing"
for row in hipStreamSynchronize hipMalloc hipFree hipLaunchKernel; do
	grep -q "^$row " "$TMP/o" || fail "no $row row"
done
grep -q '^encode ' "$TMP/o" || fail "no encoder kernel row"
for t in camera imu sampler; do
	grep -q "^$t " "$TMP/o" || [ $t != imu ] || fail "no $t thread row"
done
svg_ok "$TMP/ab.svg"
echo ok
