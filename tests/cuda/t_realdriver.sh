# t_realdriver.sh - NVIDIA's real shared cudart with a driver it loads
# itself after the shim has started: the real libcudart.so.13 dlopens
# libcuda.so.1 (here hipemu's, which has no export tables, so cudart
# gives up after its lookups) inside the program's first runtime call and
# takes cuGetProcAddress_v2 from it with dlsym.  The shim must adopt that
# driver then: before it did, the wrapper it handed out found no real
# function and every shared-cudart program failed with "CUDA driver
# version is insufficient" under the shim on an H100 (driver 580.159.04),
# where it ran right without it.  Checked: the same output and exit under
# every policy as without the shim, no "not found" line, and the trace
# has cudart's first call, __cudaGetKernel (nvcc 13's stub), in which
# cudart loaded the driver and made its lookups: one record for the
# runtime call and the driver calls it made.
. tests/cuda/lib.sh
RT=$CUDA_HOME/lib64/libcudart.so.13
P=$B/gpu/launch_shared
[ -e "$RT" ] || { echo "no $RT"; exit 77; }
mkdir -p "$TMP/lib"
ln -s "$RT" "$TMP/lib/libcudart.so.13"
ln -s "$FACE/libcuda.so.1" "$FACE/libhipemu.so" "$TMP/lib/"
run() { LD_LIBRARY_PATH=$TMP/lib timeout 120 "$P" 10; }
run >"$TMP/plain.out" 2>"$TMP/plain.err"
rc=$?
[ $rc != 0 ] || fail "without the shim: the program should fail (no export tables)"
grep -q 'launch.cu' "$TMP/plain.err" || fail "without the shim: $(cat "$TMP/plain.err")"
for p in none trace stream0 pool all; do
	LBSHIM_POLICIES=$p LBSHIM_TRACE=$TMP/t.$p.lbt LD_PRELOAD=$SHIM run \
		>"$TMP/$p.out" 2>"$TMP/$p.err"
	expect_eq "$p: exit" "$?" "$rc"
	grep -v '^lbshim: ' "$TMP/$p.err" | diff "$TMP/plain.err" - >/dev/null ||
		fail "$p: stderr differs: $(cat "$TMP/$p.err")"
	! grep -q 'not found in the CUDA' "$TMP/$p.err" ||
		fail "$p: the driver was not adopted: $(cat "$TMP/$p.err")"
done
"$LBTRACE" print "$TMP/t.trace.lbt" >"$TMP/print" || fail "lbtrace print"
grep -q ' __cudaGetKernel(handle=0x0, name=empty(), ' "$TMP/print" ||
	fail "no __cudaGetKernel record: $(head -8 "$TMP/print")"
! grep -q 'cuGetProcAddress_v2(' "$TMP/print" ||
	fail "cudart's own lookups recorded apart from its call"
echo "ok: the driver cudart loads itself is adopted"
