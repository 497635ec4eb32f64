# A program built with -fgpu-default-stream=per-thread (launches through
# hipLaunchKernel_spt) behaves the same with and without the policy.
. tests/policies/stream0/lib.sh
legacy "$D/s0_spt" >"$T/a" 2>&1 || { cat "$T/a"; fail "without the policy"; }
perthread "$D/s0_spt" >"$T/b" 2>&1 || { cat "$T/b"; fail "under stream0"; }
cat "$T/a"
diff "$T/a" "$T/b" || fail "output differs"
grep -q '^spt ok$' "$T/a" || fail "unexpected output"
exit 0
