# t_torch_shim.sh - evaluate_torch.py --device cpu under the shim with
# LBSHIM_POLICIES=trace.  PyTorch on the CPU makes no HIP or CUDA call
# (it loads dozens of libraries through the shim's dlopen, though), so
# the shim stays inert, as CONTRACT.md promises for a process that never
# touches HIP: no trace file, no output, no thread; the program runs and
# reports as without it.
. tests/workloads/torch_lib.sh
mkdir -p "$TMP/cwd" "$TMP/traces"
cd "$TMP/cwd" || fail "cd"
LD_PRELOAD=$B/liblbshim.so LBSHIM_POLICIES=trace \
	LBSHIM_TRACE=$TMP/traces/t.%p.lbt timeout 300 \
	"$PY" "$EVAL" --device cpu --short --json "$TMP/r.json" \
	>"$TMP/o" 2>"$TMP/e" || fail "exit $?: $(tail -n 20 "$TMP/e")"
cat "$TMP/o"
check_result "$TMP/r.json" camera,imu,sampler
# The run was under the shim (else the rest proves nothing).
[ "$(json "$TMP/r.json" 'd["lbshim"]["loaded"], d["lbshim"]["env"].get("LBSHIM_POLICIES")')" = \
	"(True, 'trace')" ] || fail "not under the shim: $(json "$TMP/r.json" 'd["lbshim"]')"
if grep -n 'lbshim' "$TMP/e"; then
	fail "the shim printed on stderr"
fi
files=$(find "$TMP/traces" "$TMP/cwd" -mindepth 1)
[ -z "$files" ] || fail "files written: $files"
names=$(json "$TMP/r.json" 'd["os_threads"]')
case $names in *lbshim*) fail "a shim thread ran: $names" ;; esac
echo "threads at exit: $names"
echo ok
