# t_hipcc.sh - a program compiled by hipcc gives the same output and exit
# status with and without the shim: on the real runtime (no device here,
# so every error code must be identical) and on hipemu (correct results).
. tests/shim/lib.sh
"$T/saxpy" >"$TMP/real.out" 2>"$TMP/real.err"; real=$?
with_shim "$T/saxpy" >"$TMP/shim.out" 2>"$TMP/shim.err"; shim=$?
expect_eq "exit status on the real runtime" "$shim" "$real"
diff "$TMP/real.out" "$TMP/shim.out" || fail "output differs on the real runtime"
grep -q "hipMalloc: 10[01] " "$TMP/real.out" || fail "expected no-device errors: $(cat "$TMP/real.out")"
# On hipemu: correct result, both ways.
export HIPEMU_KERNELS=$T/libsaxpy_twin.so
LD_LIBRARY_PATH=$HIPEMU "$T/saxpy" >"$TMP/emu.out" 2>&1
expect_eq "exit on hipemu" "$?" 0
LD_LIBRARY_PATH=$HIPEMU with_shim "$T/saxpy" >"$TMP/emushim.out" 2>&1
expect_eq "exit on hipemu with the shim" "$?" 0
diff "$TMP/emu.out" "$TMP/emushim.out" || fail "output differs on hipemu"
grep -q "sum=1000000.0" "$TMP/emushim.out" || fail "wrong result: $(cat "$TMP/emushim.out")"
