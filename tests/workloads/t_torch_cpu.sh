# t_torch_cpu.sh - evaluate_torch.py --device cpu --short, as CI runs it:
# it exits 0, prints a line per thread and the end-to-end line, and its
# JSON has every thread's figures and OS name; --threads runs a subset.
# Timings are shown, never asserted.
. tests/workloads/torch_lib.sh
"$PY" -c 'import torch, torchvision; print("torch", torch.__version__, "torchvision", torchvision.__version__)'
timeout 300 "$PY" "$EVAL" --device cpu --short --json "$TMP/r.json" \
	>"$TMP/o" 2>"$TMP/e" || fail "exit $?: $(tail -n 20 "$TMP/e")"
cat "$TMP/o"
for t in camera imu sampler; do
	grep -q "^  $t .* steps  p50 .*  p99 .*  overran " "$TMP/o" || fail "no $t line"
done
grep -q '^  e2e .* actions p50 .* over 80 ms: ' "$TMP/o" || fail "no e2e line"
check_result "$TMP/r.json" camera,imu,sampler
[ "$(json "$TMP/r.json" 'd["device"], d["dtype"], d["lbshim"]["loaded"]')" = \
	"('cpu', 'fp32', False)" ] || fail "device, dtype or lbshim: $(head -c 600 "$TMP/r.json")"

# A subset, its JSON on stdout after the summary.
timeout 300 "$PY" "$EVAL" --device cpu --seconds 0.5 --warmup 1 --threads imu \
	--json - >"$TMP/o2" 2>"$TMP/e2" || fail "--threads imu: exit $?: $(tail -n 20 "$TMP/e2")"
tail -n 1 "$TMP/o2" >"$TMP/r2.json"
check_result "$TMP/r2.json" imu
grep -q '^  camera ' "$TMP/o2" && fail "--threads imu ran the camera"
echo ok
